// *MAT_SPOTWELD (100) failure of solid welds, read from its card as a deck gives it: the law's
// criterion (MaterialLaw::solid_fails) on a hexahedron weld against the closed forms of the
// manual's criteria:
//  - OPT 1 (stress based): (max(sigma_rr, 0) / SIG_AX)^2 + (tau / SIG_TAU)^2 >= 1 with r the
//    weld axis (face N1-N4 to face N5-N8) and tau the shear traction on the weld plane; checked
//    just below and just above 1, in compression (no failure), and for the same weld and stress
//    turned by a rotation (the criterion is frame independent);
//  - OPT 0 (the plain keyword): the forces A sigma on the mean cross-section A = V / h;
//  - TFAIL: the time; EFAIL: the kernels' plastic strain limit (MaterialParams::fail);
//  - the card: the DAMAGE-FAILURE option and the refused fields at their line.
#include <gtest/gtest.h>

#include <cmath>

#include <fmt/format.h>

#include "../input/keyword_test_util.hpp"
#include "mat_test_util.hpp"
#include "materials/catalogue.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

std::string weld_deck(const std::string& mat) {
  return deck("*NODE\n"
              "1,0,0,0\n2,2,0,0\n3,2,2,0\n4,0,2,0\n5,0,0,1\n6,2,0,1\n7,2,2,1\n8,0,2,1\n"
              "*ELEMENT_SOLID\n1,1,1,2,3,4,5,6,7,8\n*PART\nweld\n1,1,1\n*SECTION_SOLID\n1,1\n" +
              mat + termination());
}

/// Material 1 from a *MAT_SPOTWELD_DAMAGE-FAILURE card: OPT, card 2's three limits, EFAIL, TFAIL.
MaterialParams weld(int opt, Real l1, Real l2, Real l3 = 0, Real efail = 0, Real tfail = 0) {
  const std::string card = fmt::format("*MAT_SPOTWELD_DAMAGE-FAILURE\n"
                                       "{:>10}{:>10}{:>10}{:>10}{:>10}{:>10}{:>10}{:>10}\n"
                                       "{:>10}{:>10}{:>10}{:>10}\n"
                                       "{:>10}{:>10}\n",
                                       1, "7.85e-9", 210000.0, 0.3, 1000.0, 0.0, 0.0, tfail, efail,
                                       l1, l2, l3, 0.0, opt);
  const Model m = read_text(weld_deck(card));
  return make_material_params(m.materials.at(0), m);
}

/// The 2 x 2 x 1 weld of weld_deck (axis z), corners turned by q.
void corners(const Real q[3][3], Real x[8][3]) {
  const Real p[8][3] = {{0, 0, 0}, {2, 0, 0}, {2, 2, 0}, {0, 2, 0},
                        {0, 0, 1}, {2, 0, 1}, {2, 2, 1}, {0, 2, 1}};
  for (int a = 0; a < 8; ++a)
    for (int i = 0; i < 3; ++i) x[a][i] = q[i][0] * p[a][0] + q[i][1] * p[a][1] + q[i][2] * p[a][2];
}

/// Q S Q^T in Voigt order.
void turned(const Real q[3][3], const Real s[6], Real out[6]) {
  const Real a[3][3] = {{s[0], s[3], s[5]}, {s[3], s[1], s[4]}, {s[5], s[4], s[2]}};
  Real t[3][3];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      t[i][j] = 0;
      for (int k = 0; k < 3; ++k)
        for (int l = 0; l < 3; ++l) t[i][j] += q[i][k] * a[k][l] * q[j][l];
    }
  out[0] = t[0][0], out[1] = t[1][1], out[2] = t[2][2];
  out[3] = t[0][1], out[4] = t[1][2], out[5] = t[2][0];
}

constexpr Real kI[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};

/// A stress far beyond every limit of the tests.
const Real* c_big() {
  static const Real s[6] = {1e6, 1e6, 1e6, 1e6, 1e6, 1e6};
  return s;
}

bool fails(const MaterialParams& m, const Real sig[6], const Real q[3][3] = kI, Real t = 0) {
  Real x[8][3], s[6];
  corners(q, x);
  turned(q, sig, s);
  return m.law().solid_fails(m, s, x, 4.0, t); // the 2 x 2 x 1 weld turned: V = 4
}

} // namespace

TEST(Mat100Failure, StressCriterionOnTheWeldPlane) {
  const MaterialParams m = weld(1, 30.0, 20.0);
  // sigma_rr = 18, tau = |(9, 12)| = 15: (0.6)^2 + (0.75)^2 = 0.9225 < 1
  const Real below[6] = {50, -40, 18, 7, 12, 9};
  EXPECT_FALSE(fails(m, below));
  // sigma_rr = 20: 0.444 + 0.5625 = 1.007 >= 1 (the in-plane stresses play no part)
  const Real above[6] = {50, -40, 20, 7, 12, 9};
  EXPECT_TRUE(fails(m, above));
  // compression does not open the weld: tau alone, 0.5625
  const Real pressed[6] = {0, 0, -500, 0, 12, 9};
  EXPECT_FALSE(fails(m, pressed));
  // the same weld and stresses turned: same verdicts
  const Real c = std::cos(0.9), s = std::sin(0.9);
  const Real q[3][3] = {{c, 0, s}, {s * s, c, -s * c}, {-s * c, s, c * c}};
  EXPECT_FALSE(fails(m, below, q));
  EXPECT_TRUE(fails(m, above, q));
  EXPECT_FALSE(fails(m, pressed, q));
}

TEST(Mat100Failure, ForceCriterionOnTheMeanCrossSection) {
  // A = V / h = 4: N_rr = 4 sigma_rr, N_rs = 4 sigma_zx (s along N1-N2 = x), N_rt = 4 sigma_yz
  const MaterialParams m = weld(0, 100.0, 80.0, 60.0);
  auto f = [](Real szz, Real szx, Real syz) {
    return std::pow(4 * std::max<Real>(szz, 0) / 100, 2) + std::pow(4 * szx / 80, 2) +
           std::pow(4 * syz / 60, 2);
  };
  const Real a[6] = {0, 0, 15, 0, 5, 10}; // 0.36 + 0.25 + 0.111 = 0.72
  ASSERT_LT(f(15, 10, 5), 1);
  EXPECT_FALSE(fails(m, a));
  const Real b[6] = {0, 0, 15, 0, 9, 10}; // 0.36 + 0.25 + 0.36 = 0.97
  ASSERT_LT(f(15, 10, 9), 1);
  EXPECT_FALSE(fails(m, b));
  const Real c[6] = {0, 0, 16, 0, 9, 10}; // 0.4096 + 0.25 + 0.36 = 1.02
  ASSERT_GT(f(16, 10, 9), 1);
  EXPECT_TRUE(fails(m, c));
  // the plain keyword reads the same card 2 as force limits
  const Model plain =
      read_text(weld_deck("*MAT_SPOTWELD\n1,7.85e-9,210000,0.3,1000\n0,100,80,60\n"));
  const MaterialParams mp = make_material_params(plain.materials.at(0), plain);
  EXPECT_TRUE(fails(mp, c));
  EXPECT_FALSE(fails(mp, b));
}

TEST(Mat100Failure, TimeAndPlasticStrain) {
  const MaterialParams m = weld(0, 0, 0, 0, 0.2, 1.5e-3);
  const Real zero[6] = {0, 0, 0, 0, 0, 0};
  EXPECT_FALSE(fails(m, zero, kI, 1.49e-3));
  EXPECT_TRUE(fails(m, zero, kI, 1.5e-3));
  EXPECT_DOUBLE_EQ(m.fail, 0.2); // EFAIL: the kernels erode at this plastic strain
  EXPECT_TRUE(m.failed(0.2));
  EXPECT_FALSE(m.failed(0.19));
  // no failure fields: no criterion, no erosion
  const MaterialParams none = weld(0, 0, 0);
  const Model plain = read_text(weld_deck("*MAT_SPOTWELD\n1,7.85e-9,210000,0.3,1000\n"));
  EXPECT_FALSE(material_law(MaterialKind::Spotweld).may_fail(plain.materials.at(0)));
  EXPECT_FALSE(fails(none, zero, kI, 1e9));
  // moment limits alone: the material fails somewhere (beam welds, refused), never as a solid
  const Model mom = read_text(weld_deck("*MAT_SPOTWELD\n1,7.85e-9,210000,0.3,1000\n0,0,0,0,5.0\n"));
  EXPECT_TRUE(material_law(MaterialKind::Spotweld).may_fail(mom.materials.at(0)));
  EXPECT_FALSE(fails(make_material_params(mom.materials.at(0), mom), c_big(), kI, 1e9));
  // OPT 1 reads SIG_AX and SIG_TAU only: NRT alone is no criterion
  const MaterialParams nrt = weld(1, 0, 0, 50.0);
  EXPECT_FALSE(fails(nrt, c_big(), kI, 0));
}

TEST(Mat100Card, DamageFailureOptionAndRefusedFields) {
  const std::string base = "*MAT_SPOTWELD_DAMAGE-FAILURE_TITLE\nw\n1,7.85e-9,210000,0.3,1000\n"
                           "0,30,20\n";
  const Model ok = read_text(weld_deck(base + "0,1\n"));
  EXPECT_EQ(ok.materials.at(0).kind, MaterialKind::Spotweld);
  EXPECT_EQ(ok.materials.at(0).title, "w");
  for (const auto& [card3, field] :
       std::vector<std::pair<std::string, std::string>>{{"0.1,1\n", "RS = 0.1"},
                                                        {"0,3\n", "OPT = 3"},
                                                        {"0,1,0,1.5\n", "TRUE_T = 1.5"},
                                                        {"0,1,0,0,0,0.2\n", "BETA = 0.2"},
                                                        {"0,1,0,0,0,0,,1\n", "DMGOPT = 1"}}) {
    const std::string err = read_error(weld_deck(base + card3));
    EXPECT_NE(err.find(field), std::string::npos) << err;
    EXPECT_NE(err.find("deck.k:"), std::string::npos) << err;
  }
  const std::string neg = read_error(weld_deck(base.substr(0, base.size() - 8) + "0,-7,20\n0,1\n"));
  EXPECT_NE(neg.find("SIG_AX = -7"), std::string::npos) << neg;
  const std::string dt = read_error(weld_deck("*MAT_SPOTWELD\n1,7.85e-9,210000,0.3,1000,0,1e-6\n"));
  EXPECT_NE(dt.find("DT = 1e-06"), std::string::npos) << dt;
}
