// *MAT_OGDEN_RUBBER (077_O) and *MAT_HYPERELASTIC_RUBBER (077_H), read from their cards as a
// deck gives them, at one material point:
//  - isochoric uniaxial stretch F = diag(l, l^-1/2, l^-1/2) (J = 1, no volumetric stress):
//    sigma_11 - sigma_22 is the incompressible closed form, sum MU_j (l^ALPHA_j - l^-ALPHA_j/2)
//    for Ogden and 2 (l^2 - 1/l)(W1 + W2 / l) for the polynomial (Treloar's formula), sigma_22 =
//    sigma_33, no shear;
//  - the two laws against each other: Ogden with (MU, ALPHA) = (2 C10, 2), (-2 C01, -2) is the
//    Mooney-Rivlin polynomial C10, C01: the same stress at J = 1 for any F (to round-off);
//  - the stored energy is the stress potential (dW = J sigma : dF F^-1, central differences);
//  - rigid rotations carry no stress; small strain gives the shear modulus (1/2 sum MU ALPHA,
//    2 (C10 + C01)) and the bulk modulus from PR;
//  - the cards: aliases, refused values named at their field.
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

// mm, t, s, MPa; a filled rubber
constexpr Real kMu1 = 0.63, kA1 = 1.3, kMu2 = 0.0012, kA2 = 5.0, kMu3 = -0.01, kA3 = -2.0;
constexpr Real kC10 = 0.28, kC01 = 0.07, kC11 = 0.004, kC20 = -0.002, kC02 = 0.001, kC30 = 0.0005;
constexpr Real kPr = 0.495;

std::string cube_with(const std::string& mat) {
  return deck("*NODE\n"
              "1,0,0,0\n2,1,0,0\n3,1,1,0\n4,0,1,0\n5,0,0,1\n6,1,0,1\n7,1,1,1\n8,0,1,1\n"
              "*ELEMENT_SOLID\n1,1,1,2,3,4,5,6,7,8\n*PART\ncube\n1,1,1\n*SECTION_SOLID\n1,1\n" +
              mat + termination());
}

std::string ogden_card(Real mu1, Real a1, Real mu2, Real a2, Real mu3, Real a3,
                       const std::string& name = "*MAT_077_O") {
  return fmt::format("{}\n{:>10}{:>10}{:>10}{:>10}\n"
                     "{:>10}{:>10}{:>10}\n{:>10}{:>10}{:>10}\n",
                     name, 1, 1.1e-9, kPr, 0, mu1, mu2, mu3, a1, a2, a3);
}

std::string poly_card(Real c10, Real c01, Real c11, Real c20, Real c02, Real c30,
                      const std::string& name = "*MAT_077_H") {
  return fmt::format("{}\n{:>10}{:>10}{:>10}{:>10}\n"
                     "{:>10}{:>10}{:>10}{:>10}{:>10}{:>10}\n",
                     name, 1, 1.1e-9, kPr, 0, c10, c01, c11, c20, c02, c30);
}

struct Law {
  Model model;
  MaterialParams m;
  explicit Law(const std::string& card) : model(read_text(cube_with(card))) {
    m = make_material_params(model.materials.at(0), model);
  }
};

Real det_of(const Real h[3][3]) { // det(1 + h)
  Real f[3][3];
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k) f[i][k] = h[i][k] + (i == k ? 1 : 0);
  return f[0][0] * (f[1][1] * f[2][2] - f[1][2] * f[2][1]) -
         f[0][1] * (f[1][0] * f[2][2] - f[1][2] * f[2][0]) +
         f[0][2] * (f[1][0] * f[2][1] - f[1][1] * f[2][0]);
}

void uniaxial(Real l, Real h[3][3]) {
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k) h[i][k] = 0;
  h[0][0] = l - 1;
  h[1][1] = h[2][2] = 1 / std::sqrt(l) - 1;
}

} // namespace

TEST(Mat077, IsochoricUniaxialStretchGivesTheIncompressibleClosedForms) {
  const Law og(ogden_card(kMu1, kA1, kMu2, kA2, kMu3, kA3));
  const Law po(poly_card(kC10, kC01, kC11, kC20, kC02, kC30));
  for (Real l : {0.5, 0.8, 0.95, 1.05, 1.5, 2.5, 4.0}) {
    Real h[3][3], s[6], t[6];
    uniaxial(l, h);
    ASSERT_NEAR(hyperelastic_stress(og.m, h, s), 1.0, 1e-14);
    const Real og_ref = kMu1 * (std::pow(l, kA1) - std::pow(l, -kA1 / 2)) +
                        kMu2 * (std::pow(l, kA2) - std::pow(l, -kA2 / 2)) +
                        kMu3 * (std::pow(l, kA3) - std::pow(l, -kA3 / 2));
    EXPECT_NEAR(s[0] - s[1], og_ref, 1e-12 * std::abs(og_ref) + 1e-14) << l;
    EXPECT_NEAR(s[1], s[2], 1e-13) << l;
    for (int q = 3; q < 6; ++q) EXPECT_NEAR(s[q], 0.0, 1e-14) << l;
    // Treloar: sigma = 2 (l^2 - 1/l)(W1 + W2 / l), I1 = l^2 + 2/l, I2 = 2l + 1/l^2
    ASSERT_NEAR(hyperelastic_stress(po.m, h, t), 1.0, 1e-14);
    const Real a = l * l + 2 / l - 3, c = 2 * l + 1 / (l * l) - 3;
    const Real w1 = kC10 + kC11 * c + 2 * kC20 * a + 3 * kC30 * a * a;
    const Real w2 = kC01 + kC11 * a + 2 * kC02 * c;
    const Real po_ref = 2 * (l * l - 1 / l) * (w1 + w2 / l);
    EXPECT_NEAR(t[0] - t[1], po_ref, 1e-12 * std::abs(po_ref) + 1e-14) << l;
    EXPECT_NEAR(t[1], t[2], 1e-13) << l;
  }
}

TEST(Mat077, OgdenWithExponentsTwoAndMinusTwoIsMooneyRivlin) {
  const Law og(ogden_card(2 * kC10, 2.0, -2 * kC01, -2.0, 0, 0));
  const Law po(poly_card(kC10, kC01, 0, 0, 0, 0));
  std::mt19937 gen(11);
  std::uniform_real_distribution<Real> u(-0.3, 0.3);
  for (int trial = 0; trial < 20; ++trial) {
    Real h[3][3];
    for (auto& r : h)
      for (Real& x : r) x = u(gen);
    // scale F to J = 1: the two volumetric terms then vanish
    const Real j = det_of(h);
    ASSERT_GT(j, 0);
    const Real s = 1 / std::cbrt(j);
    for (int i = 0; i < 3; ++i)
      for (int k = 0; k < 3; ++k) h[i][k] = s * (h[i][k] + (i == k)) - (i == k);
    Real a[6], b[6];
    hyperelastic_stress(og.m, h, a);
    hyperelastic_stress(po.m, h, b);
    for (int q = 0; q < 6; ++q) EXPECT_NEAR(a[q], b[q], 1e-10 * (kC10 + kC01)) << trial << " " << q;
  }
}

TEST(Mat077, StoredEnergyIsTheStressPotential) {
  const Law og(ogden_card(kMu1, kA1, kMu2, kA2, kMu3, kA3));
  const Law po(poly_card(kC10, kC01, kC11, kC20, kC02, kC30));
  std::mt19937 gen(7);
  std::uniform_real_distribution<Real> u(-0.25, 0.25);
  for (const Law* law : {&og, &po}) {
    const MaterialParams& m = law->m;
    for (int trial = 0; trial < 20; ++trial) {
      Real h[3][3], d[3][3];
      for (auto& r : h)
        for (Real& x : r) x = u(gen);
      for (auto& r : d)
        for (Real& x : r) x = u(gen);
      Real s[6];
      const Real j = hyperelastic_stress(m, h, s);
      ASSERT_GT(j, 0);
      const Real eps = 1e-6;
      Real hp[3][3], hm[3][3];
      for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 3; ++k) {
          hp[i][k] = h[i][k] + eps * d[i][k];
          hm[i][k] = h[i][k] - eps * d[i][k];
        }
      const Real dw = (hyperelastic_energy(m, hp) - hyperelastic_energy(m, hm)) / (2 * eps);
      Real f[3][3], inv[3][3];
      for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 3; ++k) f[i][k] = h[i][k] + (i == k ? 1 : 0);
      for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 3; ++k) {
          const int a = (k + 1) % 3, b = (k + 2) % 3, c = (i + 1) % 3, e = (i + 2) % 3;
          inv[i][k] = (f[a][c] * f[b][e] - f[a][e] * f[b][c]) / j;
        }
      const Real sig[3][3] = {{s[0], s[3], s[5]}, {s[3], s[1], s[4]}, {s[5], s[4], s[2]}};
      Real power = 0;
      for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 3; ++k) {
          Real l = 0;
          for (int q = 0; q < 3; ++q) l += d[i][q] * inv[q][k];
          power += j * sig[i][k] * l;
        }
      EXPECT_NEAR(dw, power, 1e-6 * (std::abs(power) + m.k))
          << law->model.materials[0].loc.card << " trial " << trial;
    }
  }
}

TEST(Mat077, SmallStrainModuliAndRigidRotation) {
  const Law og(ogden_card(kMu1, kA1, kMu2, kA2, kMu3, kA3));
  const Law po(poly_card(kC10, kC01, kC11, kC20, kC02, kC30));
  const Real g_og = 0.5 * (kMu1 * kA1 + kMu2 * kA2 + kMu3 * kA3), g_po = 2 * (kC10 + kC01);
  const Real kk = 2 * (1 + kPr) / (3 * (1 - 2 * kPr));
  for (const auto& [law, g] : {std::pair{&og, g_og}, std::pair{&po, g_po}}) {
    EXPECT_NEAR(law->m.g, g, 1e-15);
    EXPECT_NEAR(law->m.k, kk * g, 1e-12 * kk * g);
    Real s[6];
    const Real gam = 1e-6; // simple shear: sigma_12 = G gamma
    const Real shear[3][3] = {{0, gam, 0}, {0, 0, 0}, {0, 0, 0}};
    hyperelastic_stress(law->m, shear, s);
    EXPECT_NEAR(s[3], g * gam, 1e-5 * g * gam);
    const Real e = 1e-7; // volumetric: p = -K tr eps
    const Real vol[3][3] = {{e, 0, 0}, {0, e, 0}, {0, 0, e}};
    hyperelastic_stress(law->m, vol, s);
    EXPECT_NEAR(s[0], 3 * kk * g * e, 1e-5 * kk * g * e);
    const Real c = std::cos(0.9), sn = std::sin(0.9);
    const Real rot[3][3] = {{c - 1, -sn, 0}, {sn, c - 1, 0}, {0, 0, 0}};
    hyperelastic_stress(law->m, rot, s);
    for (Real x : s) EXPECT_NEAR(x, 0.0, 1e-12 * kk * g);
  }
}

TEST(Mat077Card, AliasesAndRefusedValues) {
  EXPECT_EQ(Law(ogden_card(kMu1, kA1, 0, 0, 0, 0, "*MAT_OGDEN_RUBBER")).model.materials[0].kind,
            MaterialKind::OgdenRubber);
  EXPECT_EQ(Law(poly_card(kC10, kC01, 0, 0, 0, 0, "*MAT_HYPERELASTIC_RUBBER_TITLE\nrubber"))
                .model.materials[0]
                .kind,
            MaterialKind::HyperelasticRubber);
  const std::string og = "*MAT_077_O\n";
  const std::string mu = "0.6\n1.3\n";
  for (const auto& [text, field] : std::vector<std::pair<std::string, std::string>>{
           {og + "1,1e-9,0.495,2\n0,0,0,1,1,1,0,1\n", "N = 2"},
           {og + "1,1e-9,0.495,-1\n" + mu, "N = -1"},
           {og + "1,1e-9,0.5,0\n" + mu, "PR = 0.5"},
           {og + "1,1e-9,-0.495,0\n0\n" + mu, "PR = -0.495"},
           {og + "1,1e-9,0.495,0,6,1.0,0.01\n" + mu, "G = 1"},
           {og + "1,1e-9,0.495,0,6,0,0,1\n" + mu, "REF = 1"},
           {og + "1,1e-9,0.495,0\n0.6\n0.0\n", "ALPHA1"},
           {og + "1,1e-9,0.495,0\n" + mu + "0.3,100\n", "GI = 0.3"},
           {"*MAT_077_H\n1,1e-9,0.495,0\n-0.5,0.1\n", "shear modulus"},
           {"*MAT_077_H\n1,1e-9,0.495,0\n0.3,0.1,0,0,0,0,1\n", "THERML = 1"}}) {
    const std::string err = read_error(cube_with(text));
    EXPECT_NE(err.find(field), std::string::npos) << text << ": " << err;
    EXPECT_NE(err.find("deck.k:"), std::string::npos) << err;
  }
}
