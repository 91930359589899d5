// *MAT_JOHNSON_HOLMQUIST_CERAMICS (110, JH-2), read from its card as a deck gives it, at one
// material point against the model's closed forms (silicon carbide constants of Holmquist and
// Johnson, in mm, t, s, MPa):
//  - hydrostatic compression: P = K1 mu + K2 mu^2 + K3 mu^3, mu = 1/V - 1, no deviator, no damage;
//    hydrostatic tension stops at -T;
//  - shear under confinement (BETA = 0, constant pressure): the first plastic step lands on the
//    intact strength sigma_HEL A (P* + T*)^N; then each step on the strength of the damage at its
//    start, D growing by d eps_p / (D1 (P* + T*)^D2), down to the fractured strength B P*^M once
//    D = 1;
//  - bulking (BETA = 1, volume held): (K1 mu + dP)^2 grows by 2 BETA K1 dU per damage step, dU the
//    elastic energy sigma_y^2 / (6 G) the strength drop releases;
//  - the rate term 1 + C ln(rate / EPSI);
//  - the card: alias, refused values named at their field.
#include <gtest/gtest.h>

#include <cmath>

#include <fmt/format.h>

#include "../input/keyword_test_util.hpp"
#include "mat_test_util.hpp"
#include "materials/catalogue.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

constexpr Real kG = 193000, kA = 0.96, kB = 0.35, kM = 1.0, kN = 0.65, kT = 370, kSf = 0.8,
               kHel = 14567, kPhel = 5900, kD1 = 0.48, kD2 = 0.48, kK1 = 204785;
const Real kSigHel = 1.5 * (kHel - kPhel);

std::string cube_with(const std::string& mat) {
  return deck("*NODE\n"
              "1,0,0,0\n2,1,0,0\n3,1,1,0\n4,0,1,0\n5,0,0,1\n6,1,0,1\n7,1,1,1\n8,0,1,1\n"
              "*ELEMENT_SOLID\n1,1,1,2,3,4,5,6,7,8\n*PART\ncube\n1,1,1\n*SECTION_SOLID\n1,1\n" +
              mat + termination());
}

std::string jh2(Real c = 0, Real beta = 0, Real k2 = 0, Real k3 = 0, Real fs = 0,
                const std::string& name = "*MAT_110") {
  return fmt::format("{}\n1,3.215e-9,{},{},{},{},{},{}\n1.0,{},{},{},{},{}\n{},{},{},{},{},{}\n",
                     name, kG, kA, kB, c, kM, kN, kT, kSf, kHel, kPhel, beta, kD1, kD2, kK1, k2, k3,
                     fs);
}

struct Point {
  Model model;
  MaterialParams m;
  Real sig[6] = {0, 0, 0, 0, 0, 0}, h[6] = {0, 0, 0, 0, 0, 0}, ep = 0;
  explicit Point(const std::string& card) : model(read_text(cube_with(card))) {
    m = make_material_params(model.materials.at(0), model);
  }
  Real step(const Real d[6], Real dt = 1e-6) { return update_stress_solid(m, d, dt, sig, h, ep); }
  Real p() const { return -(sig[0] + sig[1] + sig[2]) / 3; }
  Real q() const { return mises(sig); }
};

Real intact(Real ps) {
  return kSigHel * kA * std::pow(ps + kT / kPhel, kN);
}
Real fractured(Real ps) {
  return kSigHel * std::min(kB * std::pow(ps, kM), kSf);
}

} // namespace

TEST(Mat110, HydrostaticPressureIsThePolynomialOfMuAndTensionStopsAtT) {
  const Real k2 = 1.5e5, k3 = -2e5;
  Point pt(jh2(0, 0, k2, k3));
  const Real e = -2e-4; // normal strain increment: ln V grows by 3e per step
  for (int k = 1; k <= 200; ++k) {
    const Real d[6] = {e, e, e, 0, 0, 0};
    pt.step(d);
    const Real mu = std::exp(-3 * e * k) - 1;
    ASSERT_NEAR(pt.p(), kK1 * mu + k2 * mu * mu + k3 * mu * mu * mu, 1e-9 * kK1 * mu) << k;
    ASSERT_NEAR(pt.q(), 0.0, 1e-9 * kK1 * mu);
  }
  EXPECT_EQ(pt.h[1], 0.0);        // no damage
  for (int k = 0; k < 400; ++k) { // back through zero into tension
    const Real d[6] = {-e, -e, -e, 0, 0, 0};
    pt.step(d);
  }
  EXPECT_NEAR(pt.p(), -kT, 1e-9 * kT);
}

TEST(Mat110, ConfinedShearYieldsAtTheIntactStrengthAndDamagesToTheFracturedOne) {
  Point pt(jh2());
  const Real e = -2e-4;
  for (int k = 0; k < 100; ++k) { // confine: mu ~ 0.06, P ~ 12 GPa
    const Real d[6] = {e, e, e, 0, 0, 0};
    pt.step(d);
  }
  const Real p0 = pt.p(), ps = p0 / kPhel;
  const Real ef = kD1 * std::pow(ps + kT / kPhel, kD2);
  const Real dg = 1e-3;
  const Real d[6] = {0, 0, 0, dg, 0, 0};
  int plastic = 0;
  for (int k = 0; k < 3000 && pt.h[1] < 1; ++k) {
    const Real d_old = pt.h[1];
    const Real dep = pt.step(d);
    ASSERT_NEAR(pt.p(), p0, 1e-9 * p0); // BETA = 0, volume held: the pressure stays
    if (dep <= 0) continue;
    ++plastic;
    const Real expect = intact(ps) - d_old * (intact(ps) - fractured(ps));
    ASSERT_NEAR(pt.q(), expect, 1e-9 * intact(ps)) << k;
    ASSERT_NEAR(pt.h[1], std::min(1.0, d_old + dep / ef), 1e-12) << k;
  }
  EXPECT_GT(plastic, 10);
  ASSERT_EQ(pt.h[1], 1.0);
  pt.step(d);
  EXPECT_NEAR(pt.q(), fractured(ps), 1e-9 * intact(ps));
  EXPECT_LT(fractured(ps), 0.5 * intact(ps));
}

TEST(Mat110, BulkingTurnsTheReleasedElasticEnergyIntoPressure) {
  Point pt(jh2(0, 1.0));
  const Real e = -1e-4;
  for (int k = 0; k < 100; ++k) {
    const Real d[6] = {e, e, e, 0, 0, 0};
    pt.step(d);
  }
  const Real mu = std::exp(-pt.h[0]) - 1;
  const Real d[6] = {0, 0, 0, 2e-4, 0, 0};
  int bulked = 0;
  for (int k = 0; k < 2000 && pt.h[1] < 1; ++k) {
    const Real d_old = pt.h[1], bp_old = pt.h[2];
    const Real dep = pt.step(d);
    if (dep <= 0 || pt.h[1] == d_old) continue;
    // the strengths of the step, at the pressure it started from with the old bulking
    const Real ps = (kK1 * mu + bp_old) / kPhel;
    const Real s_old = intact(ps) - d_old * (intact(ps) - fractured(ps));
    const Real s_new = intact(ps) - pt.h[1] * (intact(ps) - fractured(ps));
    const Real du = (s_old * s_old - s_new * s_new) / (6 * kG);
    const Real lhs = std::pow(kK1 * mu + pt.h[2], 2) - std::pow(kK1 * mu + bp_old, 2);
    ASSERT_NEAR(lhs, 2 * kK1 * du, 1e-9 * std::abs(2 * kK1 * du) + 1e-6) << k;
    ASSERT_NEAR(pt.p(), kK1 * mu + pt.h[2], 1e-9 * pt.p()) << k;
    ++bulked;
  }
  EXPECT_GT(bulked, 10);
  EXPECT_GT(pt.h[2], 0.0);
}

TEST(Mat110, StrengthScalesWithTheLogOfTheStrainRate) {
  const Real c = 0.01;
  Point slow(jh2(c)), fast(jh2(c));
  const Real e = -2e-4;
  for (int k = 0; k < 50; ++k) {
    const Real d[6] = {e, e, e, 0, 0, 0};
    slow.step(d, 1.0); // rate below EPSI = 1: no effect
    fast.step(d, 1.0);
  }
  const Real ps = slow.p() / kPhel;
  // one big shear step each: the rate is the step's effective deviatoric strain rate
  const Real g = 0.05, d[6] = {0, 0, 0, g, 0, 0};
  slow.step(d, 1.0);  // rate g / sqrt(3) per second < EPSI: factor 1
  fast.step(d, 1e-5); // rate g / sqrt(3) / 1e-5
  const Real rate = g / std::sqrt(3.0) / 1e-5;
  EXPECT_NEAR(slow.q(), intact(ps), 1e-9 * intact(ps));
  EXPECT_NEAR(fast.q(), intact(ps) * (1 + c * std::log(rate)), 1e-9 * intact(ps));
}

TEST(Mat110Card, AliasAndRefusedValues) {
  const Model m = read_text(cube_with(jh2(0, 0, 0, 0, 0, "*MAT_JOHNSON_HOLMQUIST_CERAMICS")));
  EXPECT_EQ(m.materials.at(0).kind, MaterialKind::JohnsonHolmquistCeramics);
  EXPECT_STREQ(material_law(m.materials.at(0).kind).number, "110");
  for (const auto& [text, field] : std::vector<std::pair<std::string, std::string>>{
           {jh2(0, 0, 0, 0, 0.2), "FS = 0.2"},
           {jh2(0, 1.5), "BETA = 1.5"},
           {"*MAT_110\n1,3e-9,193000,0.96,0.35,0,1,0.65\n1,370,0.8,5000,5900,1\n0.48,0.48,2e5\n",
            "HEL = 5000"},
           {"*MAT_110\n1,3e-9,0,0.96,0.35,0,1,0.65\n1,370,0.8,14567,5900,1\n0.48,0.48,2e5\n",
            "G = 0"}}) {
    const std::string err = read_error(cube_with(text));
    EXPECT_NE(err.find(field), std::string::npos) << text << ": " << err;
    EXPECT_NE(err.find("deck.k:"), std::string::npos) << err;
  }
}
