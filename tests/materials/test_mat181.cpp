// *MAT_SIMPLIFIED_RUBBER/FOAM (181, rubber form), read from its card as a deck gives it, at one
// material point:
//  - uniaxial stress (the lateral stretch found by bisection so that the lateral stress
//    vanishes): the nominal stress gives the input curve back, in tension and compression, to
//    the compressibility of KM = 1e4 G (2e-4 of the curve's scale);
//  - equibiaxial tension: the curve is an incompressible Mooney-Rivlin bar's, and Mooney-Rivlin
//    is a Valanis-Landel energy (w(l) = C10 (l^2 - 1) + C01 (l^-2 - 1)), so the law must give
//    Mooney-Rivlin's equibiaxial stress 2 (l - l^-5)(C10 + l^2 C01), which no input gave it;
//  - the stored energy is the stress's potential: J sigma : (dF F^-1) = dW for small dF;
//  - undeformed: no stress; a rotation: no stress;
//  - the card: aliases, the gauge length scaling, refused values, the MU note.
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

// An incompressible Mooney-Rivlin bar (MPa): nominal stress 2 (C10 + C01 / l)(l - l^-2).
constexpr Real kC10 = 0.5, kC01 = 0.1, kRho = 1.1e-9;
constexpr Real kG = 2 * (kC10 + kC01), kKm = 1e4 * kG;

Real mooney(Real l) {
  return 2 * (kC10 + kC01 / l) * (l - 1 / (l * l));
}

/// The curve: force against change of gauge length for SGL = 20, SW = 4, ST = 2 (area 8), from
/// strain -0.6 to 3, 361 points.
std::string rubber_curve() {
  std::string c = "*DEFINE_CURVE\n7\n";
  for (int i = 0; i <= 360; ++i) {
    const Real e = -0.6 + 3.6 * i / 360;
    c += fmt::format("{:.12g},{:.12g}\n", 20 * e, 8 * mooney(1 + e));
  }
  return c;
}

std::string rubber_deck(const std::string& card) {
  std::string mesh = cube_mesh();
  mesh.replace(mesh.find("*MAT_ELASTIC"), std::string::npos, card);
  return deck(mesh + rubber_curve() + termination());
}

std::string card181(const std::string& name = "*MAT_SIMPLIFIED_RUBBER/FOAM",
                    const std::string& extra = "") {
  return fmt::format("{}\n1,{},{},0.1\n20,4,2,7\n", name, kRho, kKm) + extra;
}

MaterialParams rubber() {
  const Model m = read_text(rubber_deck(card181()));
  return make_material_params(m.materials.at(0), m);
}

/// The curve's value (piecewise linear between its points), as nominal stress.
Real curve_nominal(Real l) {
  const Real e = l - 1;
  const Real u = (e + 0.6) / 3.6 * 360;
  const int i = std::clamp(static_cast<int>(u), 0, 359);
  const Real t = u - i;
  const Real e0 = -0.6 + 3.6 * i / 360, e1 = -0.6 + 3.6 * (i + 1) / 360;
  return (1 - t) * mooney(1 + e0) + t * mooney(1 + e1);
}

/// sigma for F = diag(l1, l2, l2).
void diag_stress(const MaterialParams& m, Real l1, Real l2, Real s[6]) {
  const Real h[3][3] = {{l1 - 1, 0, 0}, {0, l2 - 1, 0}, {0, 0, l2 - 1}};
  ASSERT_GT(hyperelastic_stress(m, h, s), 0);
}

} // namespace

TEST(Mat181, UniaxialStressGivesTheCurveBack) {
  const MaterialParams m = rubber();
  Real worst = 0;
  for (Real l = 0.45; l <= 3.5; l += 0.05) {
    // lateral stretch with sigma_yy = 0 (decreasing in l2 from above 0 to below 0)
    const Real l2 = bisect_decreasing(
        [&](Real x) {
          Real s[6];
          diag_stress(m, l, x, s);
          return -s[1];
        },
        0.2, 2.0);
    Real s[6];
    diag_stress(m, l, l2, s);
    const Real nominal = s[0] * l2 * l2;
    worst = std::max(worst, std::abs(nominal - curve_nominal(l)) / mooney(4.0));
    EXPECT_NEAR(l * l2 * l2, 1.0, 2e-3) << "l " << l; // nearly incompressible
  }
  std::printf("mat181 uniaxial: worst |nominal - curve| %.3e of the curve's largest value\n",
              worst);
  EXPECT_LT(worst, 3e-4);
}

TEST(Mat181, EquibiaxialTensionIsMooneyRivlins) {
  const MaterialParams m = rubber();
  Real worst = 0;
  for (Real l = 1.05; l <= 1.5; l += 0.05) {
    auto s33 = [&](Real l3) {
      const Real h[3][3] = {{l - 1, 0, 0}, {0, l - 1, 0}, {0, 0, l3 - 1}};
      std::array<Real, 6> s{};
      EXPECT_GT(hyperelastic_stress(m, h, s.data()), 0);
      return s;
    };
    const Real l3 = bisect_decreasing([&](Real x) { return -s33(x)[2]; }, 0.2, 1.0);
    const Real nominal = s33(l3)[0] * l * l3;
    const Real exact = 2 * (l - std::pow(l, -5)) * (kC10 + l * l * kC01);
    worst = std::max(worst, std::abs(nominal - exact) / exact);
  }
  std::printf("mat181 equibiaxial: worst relative difference from Mooney-Rivlin %.3e\n", worst);
  EXPECT_LT(worst, 1e-3); // the compressibility of KM = 1e4 G
}

TEST(Mat181, StoredEnergyIsTheStressPotential) {
  const MaterialParams m = rubber();
  std::mt19937 gen(7);
  std::uniform_real_distribution<Real> u(-0.3, 0.3);
  for (int trial = 0; trial < 20; ++trial) {
    Real h[3][3];
    for (auto& r : h)
      for (Real& x : r) x = u(gen);
    Real s[6];
    const Real j = hyperelastic_stress(m, h, s);
    ASSERT_GT(j, 0);
    // dF = eps * D (random direction); dW = J sigma : (dF F^-1)
    Real d[3][3];
    for (auto& r : d)
      for (Real& x : r) x = u(gen);
    const Real eps = 1e-6;
    Real hp[3][3], hm[3][3];
    for (int i = 0; i < 3; ++i)
      for (int k = 0; k < 3; ++k) {
        hp[i][k] = h[i][k] + eps * d[i][k];
        hm[i][k] = h[i][k] - eps * d[i][k];
      }
    const Real dw = (hyperelastic_energy(m, hp) - hyperelastic_energy(m, hm)) / (2 * eps);
    // F^-1 by cofactors
    Real f[3][3];
    for (int i = 0; i < 3; ++i)
      for (int k = 0; k < 3; ++k) f[i][k] = h[i][k] + (i == k ? 1 : 0);
    Real inv[3][3];
    for (int i = 0; i < 3; ++i)
      for (int k = 0; k < 3; ++k) {
        const int a = (k + 1) % 3, b = (k + 2) % 3, c = (i + 1) % 3, e = (i + 2) % 3;
        inv[i][k] = (f[a][c] * f[b][e] - f[a][e] * f[b][c]) / j;
      }
    const Real sig[3][3] = {{s[0], s[3], s[5]}, {s[3], s[1], s[4]}, {s[5], s[4], s[2]}};
    Real power = 0; // J sigma : (D F^-1)
    for (int i = 0; i < 3; ++i)
      for (int k = 0; k < 3; ++k) {
        Real l = 0;
        for (int q = 0; q < 3; ++q) l += d[i][q] * inv[q][k];
        power += j * sig[i][k] * l;
      }
    EXPECT_NEAR(dw, power, 1e-4 * (std::abs(power) + kG)) << "trial " << trial;
  }
}

TEST(Mat181, UndeformedAndRotatedCarryNoStress) {
  const MaterialParams m = rubber();
  Real s[6];
  const Real zero[3][3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
  ASSERT_GT(hyperelastic_stress(m, zero, s), 0);
  for (Real x : s) EXPECT_NEAR(x, 0.0, 1e-12 * kG);
  const Real c = std::cos(0.7), sn = std::sin(0.7);
  const Real rot[3][3] = {{c - 1, -sn, 0}, {sn, c - 1, 0}, {0, 0, 0}};
  ASSERT_GT(hyperelastic_stress(m, rot, s), 0);
  for (Real x : s) EXPECT_NEAR(x, 0.0, 1e-9 * kG);
  EXPECT_NEAR(hyperelastic_energy(m, rot), 0.0, 1e-12 * kG);
}

TEST(Mat181Card, FieldsAliasesAndRefusedValues) {
  const Model model = read_text(rubber_deck(card181()));
  const Material& mat = model.materials.at(0);
  EXPECT_EQ(mat.kind, MaterialKind::SimplifiedRubber);
  EXPECT_STREQ(material_law(mat.kind).number, "181");
  bool mu_noted = false;
  for (const KeywordNote& n : model.notes) mu_noted |= n.message.find("MU = 0.1") == 0;
  EXPECT_TRUE(mu_noted);
  // the deck material's E and PR give the contact stiffness K = E / (3 (1 - 2 PR)) = KM
  EXPECT_NEAR(mat.e / (3 * (1 - 2 * mat.pr)), kKm, 1e-9 * kKm);
  const MaterialParams m = make_material_params(mat, model);
  // the curve's small-strain slope over 3 (its two segments at the origin: 2e-4 off the tangent)
  EXPECT_NEAR(m.g, kG, 1e-3 * kG);
  for (const char* name : {"*MAT_181", "*MAT_SIMPLIFIED_RUBBER", "*MAT_181_TITLE\nrubber"}) {
    const Model alias = read_text(rubber_deck(card181(name)));
    EXPECT_EQ(alias.materials.at(0).kind, MaterialKind::SimplifiedRubber) << name;
  }
  const std::string base = fmt::format("1,{},{},0.1", kRho, kKm);
  for (const auto& [card, field] : std::vector<std::pair<std::string, std::string>>{
           {fmt::format("*MAT_181\n1,{},0\n20,4,2,7\n", kRho), "KM = 0"},
           {"*MAT_181\n" + base + "\n0,4,2,7\n", "SGL = 0"},
           {"*MAT_181\n" + base + "\n20,4,2,0\n", "LC/TBID = 0"},
           {"*MAT_181\n" + base + "\n20,4,2,7,,,,0.3\n", "PR = 0.3"},
           {"*MAT_181\n" + base + ",5.0\n20,4,2,7\n", "G = 5"},
           {"*MAT_181\n" + base + "\n20,4,2,7\n0,0.5\n", "HU = 0.5"},
           {"*MAT_181\n" + base + "\n20,4,2,7\n0,1,0,0,1\n", "VISCO = 1"},
           {"*MAT_181\n" + base + "\n20,4,2,7\n0,1\n2.0,100.0\n", "GI = 2"}}) {
    const std::string err = read_error(rubber_deck(card));
    EXPECT_NE(err.find(field), std::string::npos) << card << ": " << err;
    EXPECT_NE(err.find("deck.k:"), std::string::npos) << err;
  }
}
