// *MAT_KELVIN-MAXWELL_VISCOELASTIC (061), read from its card as a deck gives it, at one material
// point against the closed forms of the standard linear solid:
//  - Maxwell (FO = 0): simple shear at a constant rate, tau(t) = rate int_0^t G(s) ds with
//    G(t) = GI + (G0 - GI) exp(-DC t), to round-off (the step update is exact for a constant
//    rate), and bit for bit what *MAT_VISCOELASTIC (006) with BETA = DC gives;
//  - Kelvin (FO = 1): the shear held after a fast ramp relaxes as the solution of
//    s' + s / tau = 2 G0 e' + 2 (GI / tau) e with tau = DC: to GI gamma with time constant DC;
//  - hydrostatic compression: p = -BULK ln V;
//  - the card: alias, refused values named at their field, E and PR of the short-time response.
#include <gtest/gtest.h>

#include <cmath>

#include <fmt/format.h>

#include "../input/keyword_test_util.hpp"
#include "mat_test_util.hpp"
#include "materials/catalogue.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

// A rubber-like polymer in mm, t, s, MPa: K = 2000 MPa, G0 = 3 MPa relaxing to 1 MPa.
constexpr Real kK = 2000.0, kG0 = 3.0, kGi = 1.0, kRho = 1.2e-9;

std::string visco_deck(const std::string& card) {
  std::string mesh = cube_mesh();
  mesh.replace(mesh.find("*MAT_ELASTIC"), std::string::npos, card);
  return deck(mesh + termination());
}

/// Material 1 of a *MAT_KELVIN-MAXWELL_VISCOELASTIC card (fixed format).
Model kelvin_maxwell_model(Real dc, Real fo, const std::string& name = "*MAT_061") {
  return read_text(visco_deck(fmt::format("{}\n{:>10}{:>10}{:>10}{:>10}{:>10}{:>10}{:>10}\n", name,
                                          1, kRho, kK, kG0, kGi, dc, fo)));
}

MaterialParams params_of(const Model& m) {
  return make_material_params(m.materials.at(0), m);
}

struct Point {
  Real sig[6] = {0, 0, 0, 0, 0, 0}, h[6] = {0, 0, 0, 0, 0, 0}, eps_p = 0;
  void step(const MaterialParams& m, const Real d[6], Real dt) {
    update_stress_solid(m, d, dt, sig, h, eps_p);
  }
};

} // namespace

TEST(Mat061, MaxwellShearAtAConstantRateIsTheRelaxationIntegralAnd006s) {
  const Real beta = 1000.0;
  const MaterialParams m = params_of(kelvin_maxwell_model(beta, 0));
  const Model m6 = read_text(visco_deck(fmt::format(
      "*MAT_VISCOELASTIC\n{:>10}{:>10}{:>10}{:>10}{:>10}{:>10}\n", 1, kRho, kK, kG0, kGi, beta)));
  const MaterialParams p6 = params_of(m6);
  Point p, q;
  const Real rate = 10.0, dt = 1e-5;
  const Real d[6] = {0, 0, 0, rate * dt, 0, 0};
  for (int k = 1; k <= 200; ++k) {
    p.step(m, d, dt);
    q.step(p6, d, dt);
    const Real t = k * dt;
    const Real integral = kGi * t + (kG0 - kGi) * (1 - std::exp(-beta * t)) / beta;
    ASSERT_NEAR(p.sig[3], rate * integral, 1e-12 * kG0) << "t " << t;
    for (int i = 0; i < 6; ++i) ASSERT_EQ(p.sig[i], q.sig[i]) << i;
  }
}

TEST(Mat061, KelvinHeldShearRelaxesWithTheRelaxationTime) {
  const Real tau = 2e-3; // DC: the Kelvin relaxation time
  const MaterialParams m = params_of(kelvin_maxwell_model(tau, 1));
  Point p;
  const Real dt = 1e-6, gamma = 0.01;
  const Real d[6] = {0, 0, 0, gamma / 10, 0, 0}, zero[6] = {0, 0, 0, 0, 0, 0};
  for (int k = 0; k < 10; ++k) p.step(m, d, dt);
  // the ramp (10 us << tau) gives nearly the short-time response G0 gamma
  const Real s1 = p.sig[3];
  EXPECT_NEAR(s1, kG0 * gamma, 0.01 * kG0 * gamma);
  // held: s' = -(s - GI gamma) / tau (engineering gamma: s = G e_eng for the shear component)
  for (int k = 1; k <= 10000; ++k) {
    p.step(m, zero, dt);
    const Real expect = kGi * gamma + (s1 - kGi * gamma) * std::exp(-k * dt / tau);
    ASSERT_NEAR(p.sig[3], expect, 1e-10 * s1) << "t " << k * dt;
  }
  EXPECT_NEAR(p.sig[3], kGi * gamma, 0.01 * (kG0 - kGi) * gamma); // five relaxation times on
}

TEST(Mat061, HydrostaticCompressionIsElasticInTheLogOfTheVolume) {
  const MaterialParams m = params_of(kelvin_maxwell_model(1000, 0));
  Point p;
  const Real e = -1e-4;
  const Real d[6] = {e, e, e, 0, 0, 0};
  for (int k = 1; k <= 100; ++k) {
    p.step(m, d, 1e-6);
    for (int i = 0; i < 3; ++i) ASSERT_NEAR(p.sig[i], kK * 3 * e * k, 1e-10 * kK);
    for (int i = 3; i < 6; ++i) ASSERT_EQ(p.sig[i], 0.0);
  }
}

TEST(Mat061Card, FieldsAliasAndRefusedValues) {
  const Model model = kelvin_maxwell_model(1000, 0, "*MAT_KELVIN-MAXWELL_VISCOELASTIC");
  const Material& mat = model.materials.at(0);
  EXPECT_EQ(mat.kind, MaterialKind::KelvinMaxwell);
  EXPECT_STREQ(material_law(mat.kind).number, "061");
  EXPECT_NEAR(mat.e, 9 * kK * kG0 / (3 * kK + kG0), 1e-12);
  EXPECT_NEAR(mat.pr, (3 * kK - 2 * kG0) / (2 * (3 * kK + kG0)), 1e-15);
  const MaterialParams m = make_material_params(mat, model);
  EXPECT_NEAR(m.wave_speed_solid(), std::sqrt((kK + 4.0 / 3.0 * kG0) / kRho), 1e-9);
  for (const auto& [card, field] :
       std::vector<std::pair<std::string, std::string>>{{"1,1.2e-9,0,3,1,1000", "BULK = 0"},
                                                        {"1,1.2e-9,2000,0,0,1000", "G0 = 0"},
                                                        {"1,1.2e-9,2000,3,4,1000", "GI = 4"},
                                                        {"1,1.2e-9,2000,3,1,-1", "DC = -1"},
                                                        {"1,1.2e-9,2000,3,1,0,1", "DC = 0"},
                                                        {"1,1.2e-9,2000,3,1,1e-3,2", "FO = 2"},
                                                        {"1,1.2e-9,2000,3,1,1e-3,1,3", "SO = 3"}}) {
    const std::string err = read_error(visco_deck("*MAT_061\n" + card + "\n"));
    EXPECT_NE(err.find(field), std::string::npos) << card << ": " << err;
    EXPECT_NE(err.find("deck.k:"), std::string::npos) << err;
  }
}
