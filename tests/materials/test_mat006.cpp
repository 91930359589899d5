// *MAT_VISCOELASTIC (006), read from its card as a deck gives it, at one material point against
// the closed forms of the relaxation modulus G(t) = GI + (G0 - GI) exp(-BETA t):
//  - simple shear at a constant rate: tau(t) = rate (GI t + (G0 - GI)(1 - exp(-BETA t)) / BETA)
//    (the step update is exact for a constant rate: round-off, whatever the step);
//  - relaxation: the shear then held, tau decays to GI gamma as exp(-BETA t);
//  - hydrostatic compression: p = -BULK ln V, no deviatoric stress;
//  - uniaxial strain: sigma_xx = -p + (4/3)(the same hereditary integral), sigma_yy = -p -
//  (2/3)...;
//  - the card: alias, refused values, the short-time E and PR, the wave speed.
#include <gtest/gtest.h>

#include <cmath>

#include <fmt/format.h>

#include "../input/keyword_test_util.hpp"
#include "mat_test_util.hpp"
#include "materials/catalogue.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

// A rubber-like polymer in mm, t, s, MPa: K = 2000 MPa, G0 = 3 MPa relaxing to 1 MPa with a time
// constant of 1 ms.
constexpr Real kK = 2000.0, kG0 = 3.0, kGi = 1.0, kBeta = 1000.0, kRho = 1.2e-9;

/// The reader tests' unit cube with this material card in place of its *MAT_ELASTIC.
std::string visco_deck(const std::string& card) {
  std::string mesh = cube_mesh();
  mesh.replace(mesh.find("*MAT_ELASTIC"), std::string::npos, card);
  return deck(mesh + termination());
}

Model visco_model() {
  return read_text(visco_deck(fmt::format(
      "*MAT_VISCOELASTIC\n{:>10}{:>10}{:>10}{:>10}{:>10}{:>10}\n", 1, kRho, kK, kG0, kGi, kBeta)));
}

MaterialParams visco() {
  const Model m = visco_model();
  return make_material_params(m.materials.at(0), m);
}

/// The shear modulus's hereditary integral for a constant rate from 0 to t: int_0^t G(s) ds.
Real g_integral(Real t) {
  return kGi * t + (kG0 - kGi) * (1 - std::exp(-kBeta * t)) / kBeta;
}

struct Point {
  Real sig[6] = {0, 0, 0, 0, 0, 0}, h[6] = {0, 0, 0, 0, 0, 0}, eps_p = 0;
  void step(const MaterialParams& m, const Real d[6], Real dt) {
    update_stress_solid(m, d, dt, sig, h, eps_p);
  }
};

} // namespace

TEST(Mat006, ShearAtAConstantRateFollowsTheRelaxationIntegral) {
  const MaterialParams m = visco();
  for (const Real dt : {1e-6, 1e-5, 2e-4}) { // the update is exact whatever the step
    Point p;
    const Real rate = 10.0; // engineering shear strain per second
    const int n = static_cast<int>(std::lround(2e-3 / dt));
    const Real d[6] = {0, 0, 0, rate * dt, 0, 0};
    for (int k = 1; k <= n; ++k) {
      p.step(m, d, dt);
      const Real t = k * dt;
      ASSERT_NEAR(p.sig[3], rate * g_integral(t), 1e-12 * kG0) << "dt " << dt << " t " << t;
    }
    for (int i : {0, 1, 2, 4, 5}) EXPECT_EQ(p.sig[i], 0.0);
  }
}

TEST(Mat006, HeldShearRelaxesToTheLongTimeModulus) {
  const MaterialParams m = visco();
  Point p;
  const Real dt = 1e-6, gamma = 0.01;
  // a fast ramp: 10 steps to gamma, then held
  const Real d[6] = {0, 0, 0, gamma / 10, 0, 0}, zero[6] = {0, 0, 0, 0, 0, 0};
  for (int k = 0; k < 10; ++k) p.step(m, d, dt);
  const Real t1 = 10 * dt, tau1 = (gamma / t1) * g_integral(t1);
  EXPECT_NEAR(p.sig[3], tau1, 1e-12 * tau1);
  for (int k = 1; k <= 5000; ++k) {
    p.step(m, zero, dt);
    const Real t = k * dt;
    // the decaying part at the end of the ramp, decaying from there
    const Real expect = kGi * gamma + (tau1 - kGi * gamma) * std::exp(-kBeta * t);
    ASSERT_NEAR(p.sig[3], expect, 1e-10 * tau1) << "t " << t;
  }
  // five time constants later: within exp(-5) = 0.0067 of the decaying part
  EXPECT_NEAR(p.sig[3], kGi * gamma, 0.01 * (kG0 - kGi) * gamma);
}

TEST(Mat006, HydrostaticCompressionIsElasticInTheLogOfTheVolume) {
  const MaterialParams m = visco();
  Point p;
  const Real e = -1e-4; // each step: tr = 3e, ln V grows by 3e
  const Real d[6] = {e, e, e, 0, 0, 0};
  for (int k = 1; k <= 200; ++k) {
    p.step(m, d, 1e-6);
    const Real lnv = 3 * e * k;
    for (int i = 0; i < 3; ++i) ASSERT_NEAR(p.sig[i], kK * lnv, 1e-10 * kK * std::abs(lnv));
    for (int i = 3; i < 6; ++i) ASSERT_EQ(p.sig[i], 0.0);
  }
}

TEST(Mat006, UniaxialStrainSplitsIntoPressureAndTheDeviatoricIntegral) {
  const MaterialParams m = visco();
  Point p;
  const Real dt = 2e-6, rate = -5.0; // compression along x
  const Real d[6] = {rate * dt, 0, 0, 0, 0, 0};
  for (int k = 1; k <= 1000; ++k) {
    p.step(m, d, dt);
    const Real t = k * dt, eps = rate * t;
    const Real pressure = -kK * eps;
    // deviatoric strain rate (2/3, -1/3, -1/3) rate: s = 2 (dev rate) int G
    const Real s_xx = 2 * (2.0 / 3.0) * rate * g_integral(t);
    ASSERT_NEAR(p.sig[0], -pressure + s_xx, 1e-10 * std::abs(pressure));
    ASSERT_NEAR(p.sig[1], -pressure - 0.5 * s_xx, 1e-10 * std::abs(pressure));
    ASSERT_NEAR(p.sig[2], p.sig[1], 1e-10 * std::abs(pressure));
  }
}

TEST(Mat006Card, FieldsAliasAndRefusedValues) {
  const Model model = visco_model();
  const Material& mat = model.materials.at(0);
  EXPECT_EQ(mat.kind, MaterialKind::Viscoelastic);
  EXPECT_STREQ(material_law(mat.kind).number, "006");
  // the short-time response's E and PR
  EXPECT_NEAR(mat.e, 9 * kK * kG0 / (3 * kK + kG0), 1e-12);
  EXPECT_NEAR(mat.pr, (3 * kK - 2 * kG0) / (2 * (3 * kK + kG0)), 1e-15);
  const MaterialParams m = make_material_params(mat, model);
  EXPECT_NEAR(m.wave_speed_solid(), std::sqrt((kK + 4.0 / 3.0 * kG0) / kRho), 1e-9);
  const Model alias = read_text(visco_deck("*MAT_006_TITLE\nrubber\n1,1.2e-9,2000,3,1,1000\n"));
  EXPECT_EQ(alias.materials.at(0).kind, MaterialKind::Viscoelastic);
  for (const auto& [card, field] : std::vector<std::pair<std::string, std::string>>{
           {"1,1.2e-9,0,3,1,1000", "BULK = 0"},
           {"1,1.2e-9,2000,0,0,1000", "G0 = 0"},
           {"1,1.2e-9,2000,3,4,1000", "GI = 4"},
           {"1,1.2e-9,2000,3,1,-1", "BETA = -1"},
           {"1,1.2e-9,2000,3,1,1000,1", "REF = 1"},
           {"1,1.2e-9,2000,3,1,1000,0,1", "VFLAG = 1"}}) {
    const std::string err = read_error(visco_deck("*MAT_006\n" + card + "\n"));
    EXPECT_NE(err.find(field), std::string::npos) << card << ": " << err;
    EXPECT_NE(err.find("deck.k:"), std::string::npos) << err;
  }
}
