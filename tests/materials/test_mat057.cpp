// *MAT_LOW_DENSITY_FOAM (057), read from its card as a deck gives it, against closed forms at one
// material point (hyperelastic: the stress is a function of F):
//  - uniaxial compression F = diag(l, 1, 1): sigma_xx = -LCID(1 - l) (the nominal stress over
//    the unchanged lateral area), lateral stresses zero (no Poisson effect);
//  - tension: E (l - 1) up to the cutoff TC;
//  - hydrostatic F = l 1: every principal stress -LCID(1 - l) / l^2;
//  - a rotated F gives the rotated stress;
//  - the stress is the derivative of the stored energy: sigma = (1/J) dW/dF F^T, checked by
//    central differences on random deformations (energy conservation of the element rests on
//    it), and W matches the curve's area in uniaxial compression;
//  - the card: alias, refused fields at their line, the notes.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include <fmt/format.h>

#include "../input/keyword_test_util.hpp"
#include "mat_test_util.hpp"
#include "materials/catalogue.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

// A seat foam in mm, t, s, MPa: E = 0.1 MPa in tension, a plateau in compression, densifying.
constexpr Real kE57 = 0.1, kTc57 = 0.02;
const std::vector<Real> kCx = {0.0, 0.05, 0.5, 0.8}, kCy = {0.0, 0.01, 0.02, 0.2};

std::string foam_deck(const std::string& card) {
  std::string curve = "*DEFINE_CURVE\n7\n";
  for (std::size_t i = 0; i < kCx.size(); ++i) curve += fmt::format("{},{}\n", kCx[i], kCy[i]);
  return deck("*NODE\n"
              "1,0,0,0\n2,1,0,0\n3,1,1,0\n4,0,1,0\n5,0,0,1\n6,1,0,1\n7,1,1,1\n8,0,1,1\n"
              "*ELEMENT_SOLID\n1,1,1,2,3,4,5,6,7,8\n*PART\nfoam\n1,1,1\n*SECTION_SOLID\n1,1\n" +
              card + curve + termination());
}

MaterialParams foam() {
  const Model m =
      read_text(foam_deck(fmt::format("*MAT_LOW_DENSITY_FOAM\n1,5e-11,{},7,{}\n", kE57, kTc57)));
  return make_material_params(m.materials.at(0), m);
}

/// The test curve, extended linearly beyond its last point.
Real curve(Real s) {
  std::size_t i = 1;
  while (i + 1 < kCx.size() && s > kCx[i]) ++i;
  return kCy[i - 1] + (s - kCx[i - 1]) * (kCy[i] - kCy[i - 1]) / (kCx[i] - kCx[i - 1]);
}

void diag_h(Real a, Real b, Real c, Real h[3][3]) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) h[i][j] = 0;
  h[0][0] = a - 1;
  h[1][1] = b - 1;
  h[2][2] = c - 1;
}

} // namespace

TEST(Mat057, UniaxialAndHydrostaticFollowTheCurve) {
  const MaterialParams m = foam();
  for (Real l : {0.99, 0.9, 0.6, 0.45, 0.3, 0.15}) {
    Real h[3][3], s[6];
    diag_h(l, 1, 1, h);
    ASSERT_GT(hyperelastic_stress(m, h, s), 0);
    EXPECT_NEAR(s[0], -curve(1 - l), 1e-14) << l;
    EXPECT_NEAR(s[1], 0.0, 1e-15);
    EXPECT_NEAR(s[2], 0.0, 1e-15);
    for (int k = 3; k < 6; ++k) EXPECT_NEAR(s[k], 0.0, 1e-15);
    diag_h(l, l, l, h);
    ASSERT_GT(hyperelastic_stress(m, h, s), 0);
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(s[k], -curve(1 - l) / (l * l), 1e-13) << l;
  }
  // beyond the last point the last segment goes on
  Real h[3][3], s[6];
  diag_h(0.1, 1, 1, h);
  hyperelastic_stress(m, h, s);
  EXPECT_NEAR(s[0], -(0.2 + 0.1 * (0.18 / 0.3)), 1e-14);
}

TEST(Mat057, InvertedDeformationIsReported) {
  // F = diag(-0.5, 1, 1): the stretches are (0.5, 1, 1), but det F < 0 (the element turned
  // inside out), which the element reports as a bad element
  const MaterialParams m = foam();
  Real h[3][3], s[6] = {7, 7, 7, 7, 7, 7};
  diag_h(-0.5, 1, 1, h);
  EXPECT_LE(hyperelastic_stress(m, h, s), 0.0);
  EXPECT_EQ(s[0], 7.0); // left unchanged
}

TEST(Mat057, TensionIsLinearUpToTheCutoff) {
  const MaterialParams m = foam();
  Real h[3][3], s[6];
  diag_h(1.1, 1, 1, h);
  hyperelastic_stress(m, h, s);
  EXPECT_NEAR(s[0], kE57 * 0.1, 1e-15);
  diag_h(1.5, 1, 1, h);
  hyperelastic_stress(m, h, s);
  EXPECT_NEAR(s[0], kTc57, 1e-15);
}

TEST(Mat057, RotatedDeformationGivesTheRotatedStress) {
  const MaterialParams m = foam();
  const Real c = std::cos(0.6), sn = std::sin(0.6);
  const Real q[3][3] = {{c, 0, sn}, {sn * sn, c, -sn * c}, {-sn * c, sn, c * c}};
  const Real st[3] = {0.7, 1.05, 0.9};
  // F = Q diag(st) Q^T (a pure stretch in turned axes)
  Real h[3][3];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      h[i][j] = -(i == j ? 1.0 : 0.0);
      for (int k = 0; k < 3; ++k) h[i][j] += q[i][k] * st[k] * q[j][k];
    }
  Real s[6], hd[3][3], sd[6];
  hyperelastic_stress(m, h, s);
  diag_h(st[0], st[1], st[2], hd);
  hyperelastic_stress(m, hd, sd);
  const Real sm[3] = {sd[0], sd[1], sd[2]};
  constexpr int ii[6] = {0, 1, 2, 0, 1, 2}, jj[6] = {0, 1, 2, 1, 2, 0};
  for (int v = 0; v < 6; ++v) {
    Real expect = 0;
    for (int k = 0; k < 3; ++k) expect += q[ii[v]][k] * sm[k] * q[jj[v]][k];
    EXPECT_NEAR(s[v], expect, 1e-14) << v;
  }
}

TEST(Mat057, StressIsTheDerivativeOfTheStoredEnergy) {
  const MaterialParams m = foam();
  // uniaxial: W = the curve's area up to the strain
  Real h[3][3];
  diag_h(0.6, 1, 1, h);
  const Real area = 0.5 * 0.01 * 0.05 + 0.5 * (0.01 + 0.02) * 0.45 + 0;
  const Real at_04 = area - 0.5 * (curve(0.4) + 0.02) * 0.1; // up to 0.4 only
  EXPECT_NEAR(hyperelastic_energy(m, h), at_04, 1e-15);
  std::mt19937 rng(57);
  std::uniform_real_distribution<Real> u(-0.35, 0.2);
  for (int trial = 0; trial < 50; ++trial) {
    Real f[3][3];
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) f[i][j] = (i == j ? 1.0 : 0.0) + (i == j ? u(rng) : 0.3 * u(rng));
    Real hh[3][3];
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) hh[i][j] = f[i][j] - (i == j ? 1.0 : 0.0);
    Real s[6];
    const Real jac = hyperelastic_stress(m, hh, s);
    ASSERT_GT(jac, 0);
    // P = dW/dF by central differences
    Real p[3][3];
    const Real d = 1e-7;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        Real a[3][3], b[3][3];
        for (int k = 0; k < 3; ++k)
          for (int l = 0; l < 3; ++l) a[k][l] = b[k][l] = hh[k][l];
        a[i][j] += d;
        b[i][j] -= d;
        p[i][j] = (hyperelastic_energy(m, a) - hyperelastic_energy(m, b)) / (2 * d);
      }
    constexpr int ii[6] = {0, 1, 2, 0, 1, 2}, jj[6] = {0, 1, 2, 1, 2, 0};
    for (int v = 0; v < 6; ++v) {
      Real sv = 0; // (1/J) P F^T
      for (int k = 0; k < 3; ++k) sv += p[ii[v]][k] * f[jj[v]][k];
      sv /= jac;
      EXPECT_NEAR(s[v], sv, 2e-7) << "trial " << trial << " component " << v;
    }
  }
}

TEST(Mat057Card, AliasRefusedFieldsAndNotes) {
  const Model a = read_text(foam_deck("*MAT_057_TITLE\nseat\n1,5e-11,0.1,7,0.02,1.0,0,0.3\n"));
  EXPECT_EQ(a.materials.at(0).kind, MaterialKind::LowDensityFoam);
  EXPECT_STREQ(material_law(a.materials.at(0).kind).number, "057");
  bool damp = false;
  for (const KeywordNote& n : a.notes) damp |= n.message.find("DAMP = 0.3") == 0;
  EXPECT_TRUE(damp);
  for (const auto& [card, field] :
       std::vector<std::pair<std::string, std::string>>{{"1,5e-11,0.1,7,0.02,0.5\n", "HU = 0.5"},
                                                        {"1,5e-11,0.1,0\n", "LCID = 0"},
                                                        {"1,5e-11,0,7\n", "E = 0"},
                                                        {"1,5e-11,0.1,7\n1,1\n", "FAIL = 1"},
                                                        {"1,5e-11,0.1,7\n1,0,0,0.5\n", "ED = 0.5"},
                                                        {"1,5e-11,0.1,7\n1,0,2\n", "BVFLAG = 2"}}) {
    const std::string err = read_error(foam_deck("*MAT_LOW_DENSITY_FOAM\n" + card));
    EXPECT_NE(err.find(field), std::string::npos) << err;
    EXPECT_NE(err.find("deck.k:"), std::string::npos) << err;
  }
  // the time step's modulus: the curve's steepest slope (0.6 here) over E
  const MaterialParams m = foam();
  EXPECT_NEAR(m.wave_speed_solid(), std::sqrt(0.6 / 5e-11), 1e-6 * std::sqrt(0.6 / 5e-11));
}
