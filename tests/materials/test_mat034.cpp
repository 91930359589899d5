// *MAT_FABRIC (034, FORM 0/1), read from its card as a deck gives it, at one shell point:
//  - in the material axes the plane-stress stiffness is the inverse of the orthotropic
//    compliance (eps_a = sigma_a/EA - nu_ba sigma_b/EB, gamma_ab = tau_ab/GAB);
//  - off the axes (the point's angle theta, ICOMP = 1, through update_stress_shell_oriented),
//    the uniaxial modulus in the local x direction is the classical off-axis modulus
//    1/E_x = c^4/EA + (1/GAB - 2 nu_ab/EA) c^2 s^2 + s^4/EB (Jones, Mechanics of Composite
//    Materials, eq. 2.97), and theta = 90 degrees swaps EA and EB;
//  - CSE = 1 keeps the fibre stresses non-negative; the card's defaults, refusals by field.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include <fmt/format.h>

#include "../input/keyword_test_util.hpp"
#include "mat_test_util.hpp"
#include "materials/catalogue.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

constexpr Real kEa = 2.0e9, kEb = 0.8e9, kPrba = 0.12, kGab = 0.3e9, kRoF = 900;

std::string quad_with(const std::string& mat) {
  return deck("*NODE\n1,0,0,0\n2,1,0,0\n3,1,1,0\n4,0,1,0\n*ELEMENT_SHELL\n1,1,1,2,3,4\n"
              "*PART\nbag\n1,1,1\n*SECTION_SHELL\n1,9\n0.001\n" +
              mat + termination());
}

std::string fabric_card(Real cse = 0, const std::string& card3 = "") {
  return fmt::format("*MAT_FABRIC\n{:>10}{:>10.4g}{:>10.4g}{:>10.4g}{:>10.4g}{:>10.4g}{:>10.4g}"
                     "{:>10.4g}\n{:>10.4g}{:>10}{:>10}{:>10.4g}\n{}\n",
                     1, kRoF, kEa, kEb, kEa, kPrba, kPrba, kPrba, kGab, "", "", cse, card3);
}

MaterialParams fabric(Real cse = 0) {
  const Model m = read_text(quad_with(fabric_card(cse)));
  return params(m.materials.at(0), m);
}

/// The 3x3 in-plane tangent [xx yy xy] of the law at angle theta, probed with unit increments.
void tangent(const MaterialParams& m, Real theta, Real q[3][3]) {
  for (int j = 0; j < 3; ++j) {
    Real d[5] = {0, 0, 0, 0, 0};
    d[j] = 1e-6;
    Real s[5] = {0, 0, 0, 0, 0}, back[3] = {0, 0, 0}, ep = 0, dz = 0;
    update_stress_shell_oriented(m, d, 1e-6, s, back, ep, dz, {std::cos(theta), std::sin(theta)});
    for (int i = 0; i < 3; ++i) q[i][j] = s[i] / 1e-6;
  }
}

/// 1 / (the [0][0] entry of the inverse of q): the uniaxial modulus along x.
Real uniaxial_modulus(const Real q[3][3]) {
  const Real det = q[0][0] * (q[1][1] * q[2][2] - q[1][2] * q[2][1]) -
                   q[0][1] * (q[1][0] * q[2][2] - q[1][2] * q[2][0]) +
                   q[0][2] * (q[1][0] * q[2][1] - q[1][1] * q[2][0]);
  const Real s00 = (q[1][1] * q[2][2] - q[1][2] * q[2][1]) / det;
  return 1.0 / s00;
}

} // namespace

TEST(Mat034, MaterialAxesStiffnessIsTheInverseCompliance) {
  const MaterialParams m = fabric();
  EXPECT_TRUE(m.law().oriented);
  EXPECT_EQ(m.law().update_solid, nullptr); // a membrane law
  // a stress state in the axes and the strain its compliance gives
  const Real sa = 3e6, sb = -1e6, tab = 2e6;
  const Real ea = sa / kEa - kPrba * sb / kEb, eb = -kPrba * sa / kEb + sb / kEb, gab = tab / kGab;
  Real s[5] = {0, 0, 0, 0, 0}, back[3] = {0, 0, 0}, ep = 0, dz = 0;
  const Real d[5] = {ea, eb, gab, 0, 0};
  update_stress_shell(m, d, 1e-6, s, back, ep, dz);
  EXPECT_NEAR(s[0], sa, 1e-6 * sa);
  EXPECT_NEAR(s[1], sb, 1e-6 * std::abs(sa));
  EXPECT_NEAR(s[2], tab, 1e-6 * tab);
  EXPECT_NEAR(dz, -(kPrba * sa + kPrba * sb) / kEa, 1e-15); // PRCA = PRCB = 0.12, EC = EA
}

TEST(Mat034, OffAxisModulusIsJones) {
  const MaterialParams m = fabric();
  const Real nu_ab = kPrba * kEa / kEb;
  for (Real deg : {0.0, 15.0, 30.0, 45.0, 60.0, 90.0, -35.0}) {
    const Real th = deg * std::numbers::pi / 180, c = std::cos(th), s = std::sin(th);
    Real q[3][3];
    tangent(m, th, q);
    const Real ex = 1.0 / (std::pow(c, 4) / kEa + (1 / kGab - 2 * nu_ab / kEa) * c * c * s * s +
                           std::pow(s, 4) / kEb);
    EXPECT_NEAR(uniaxial_modulus(q), ex, 1e-9 * ex) << deg;
    EXPECT_NEAR(q[0][1], q[1][0], 1e-6 * kEa) << deg; // the turned stiffness stays symmetric
  }
  // isotropic laws ignore the angle (bitwise)
  Material el = elastic_card();
  const MaterialParams iso = params(el);
  Real s1[5] = {1e6, 2e6, 3e6, 0, 0}, s2[5] = {1e6, 2e6, 3e6, 0, 0}, b[3] = {0, 0, 0};
  Real ep = 0, dz = 0;
  const Real d[5] = {1e-4, -2e-4, 3e-4, 0, 0};
  update_stress_shell(iso, d, 1e-6, s1, b, ep, dz);
  update_stress_shell_oriented(iso, d, 1e-6, s2, b, ep, dz, {std::cos(0.7), std::sin(0.7)});
  for (int i = 0; i < 5; ++i) EXPECT_EQ(s1[i], s2[i]);
}

TEST(Mat034, CompressiveStressEliminationAndCard) {
  const MaterialParams m = fabric(1.0);
  Real s[5] = {0, 0, 0, 0, 0}, back[3] = {0, 0, 0}, ep = 0, dz = 0;
  const Real d[5] = {-1e-3, 2e-3, 0, 0, 0}; // a compressed, b stretched
  update_stress_shell(m, d, 1e-6, s, back, ep, dz);
  EXPECT_EQ(s[0], 0.0);
  EXPECT_GT(s[1], 0.0);
  const MaterialParams keep = fabric(0.0);
  Real k[5] = {0, 0, 0, 0, 0};
  update_stress_shell(keep, d, 1e-6, k, back, ep, dz);
  EXPECT_LT(k[0], 0.0);
  // the alias and a blank card set (the old three-card layout of LS-DYNA 940 decks)
  const Model a = read_text(quad_with("*MAT_034\n1,900,2e9,0.8e9,2e9,0.12\n0.3e9\n\n\n\n"));
  EXPECT_EQ(a.materials.at(0).kind, MaterialKind::Fabric);
  // refusals at the field
  for (const auto& [card3, field] :
       {std::pair<std::string, std::string>{"         0         0         0         0         0"
                                            "        14",
                                            "FORM"},
        {"         2", "AOPT"},
        {"         0       0.1", "FLC"}}) {
    const std::string msg = read_error(quad_with(fabric_card(0, card3)));
    EXPECT_NE(msg.find(field), std::string::npos) << msg;
    EXPECT_NE(msg.find("deck.k:"), std::string::npos) << msg;
  }
}
