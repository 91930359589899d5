// *MAT_ANISOTROPIC_ELASTIC (002_ANIS) on shells, read from its card as a deck gives it, at one
// shell point in the material axes:
//  - an orthotropic material given as the inverse of its 3-D compliance (EA ... GCA) is
//    *MAT_ORTHOTROPIC_ELASTIC (002) exactly: the same stress and thickness strain for any
//    strain increment (both are the plane-stress condensation of the same 3-D law);
//  - a fully anisotropic C: a uniaxial increment along a gives the closed forms of the
//    condensation, d sigma_i = (C_i1 - C_i3 C_31 / C33) e and d eps_cc = -C31 e / C33, shear
//    coupling included;
//  - an isotropic C gives the modulus bound E / (1 - nu) that the time step reads;
//  - the card: its alias, the refusals by field.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include <fmt/format.h>

#include "../input/keyword_test_util.hpp"
#include "mat_test_util.hpp"
#include "materials/catalogue.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

std::string quad_with(const std::string& mat) {
  return deck("*NODE\n1,0,0,0\n2,1,0,0\n3,1,1,0\n4,0,1,0\n*ELEMENT_SHELL\n1,1,1,2,3,4\n"
              "*PART\nply\n1,1,1\n*SECTION_SHELL\n1,2\n0.001\n" +
              mat + termination());
}

/// Free-format lines of 8 fields (full precision: the constants are not rounded to 10 columns).
std::string lines_of(const std::vector<std::string>& fields) {
  std::string out;
  for (std::size_t k = 0; k < fields.size(); ++k) {
    out += fields[k];
    out += (k % 8 == 7 || k + 1 == fields.size()) ? "\n" : ",";
  }
  return out;
}

/// The card for the symmetric c (order aa bb cc ab bc ca), with AOPT, MACF and REF.
std::string anis_card(const Real c[6][6], const std::string& name = "*MAT_002_ANIS", Real aopt = 0,
                      Real macf = 1, Real ref = 0) {
  auto g = [](Real v) { return fmt::format("{:.17g}", v); };
  // card order: C11 C12 C22 C13 C23 C33 | C14 C24 C34 C44 C15 C25 C35 C45 | C55 C16 ... C66
  std::vector<std::string> f = {"1", "1600.0"};
  for (int j = 0; j < 6; ++j)
    for (int i = 0; i <= j; ++i) f.push_back(g(c[i][j]));
  f.push_back(g(aopt));
  for (const char* x : {"", "", "", "", "", ""}) f.push_back(x); // XP .. A3
  f.push_back(g(macf));
  f.push_back("");                             // IHIS
  for (int k = 0; k < 7; ++k) f.push_back(""); // V1 .. BETA
  f.push_back(g(ref));
  return name + "\n" + lines_of(f);
}

/// Inverse of a symmetric positive definite 6 x 6 matrix (Gauss-Jordan with pivoting).
void invert6(const Real a[6][6], Real inv[6][6]) {
  Real m[6][12] = {};
  for (int i = 0; i < 6; ++i) {
    for (int j = 0; j < 6; ++j) m[i][j] = a[i][j];
    m[i][6 + i] = 1;
  }
  for (int col = 0; col < 6; ++col) {
    int piv = col;
    for (int r = col + 1; r < 6; ++r)
      if (std::abs(m[r][col]) > std::abs(m[piv][col])) piv = r;
    for (int j = 0; j < 12; ++j) std::swap(m[col][j], m[piv][j]);
    const Real p = m[col][col];
    for (int j = 0; j < 12; ++j) m[col][j] /= p;
    for (int r = 0; r < 6; ++r)
      if (r != col) {
        const Real f = m[r][col];
        for (int j = 0; j < 12; ++j) m[r][j] -= f * m[col][j];
      }
  }
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) inv[i][j] = m[i][6 + j];
}

struct Law {
  Model model;
  MaterialParams m;
  explicit Law(const std::string& card) : model(read_text(quad_with(card))) {
    m = make_material_params(model.materials.at(0), model);
  }
};

} // namespace

TEST(Mat002Anis, OrthotropicStiffnessIsTheOrthotropicLaw) {
  // a carbon-epoxy ply (Pa)
  constexpr Real ea = 140e9, eb = 10e9, ec = 9e9, prba = 0.02, prca = 0.025, prcb = 0.45;
  constexpr Real gab = 5e9, gbc = 3.1e9, gca = 4.2e9;
  // 3-D compliance: eps_a = sa/EA - nu_ba sb/EB - nu_ca sc/EC, ... (nu_ij/E_i = nu_ji/E_j)
  Real s[6][6] = {};
  s[0][0] = 1 / ea;
  s[1][1] = 1 / eb;
  s[2][2] = 1 / ec;
  s[0][1] = s[1][0] = -prba / eb;
  s[0][2] = s[2][0] = -prca / ec;
  s[1][2] = s[2][1] = -prcb / ec;
  s[3][3] = 1 / gab;
  s[4][4] = 1 / gbc;
  s[5][5] = 1 / gca;
  Real c[6][6];
  invert6(s, c);
  const Law anis(anis_card(c));
  EXPECT_EQ(anis.model.materials[0].kind, MaterialKind::AnisotropicElastic);
  const Law orth(fmt::format(
      "*MAT_002\n{}",
      lines_of({"1", "1600.0", fmt::format("{:.17g}", ea), fmt::format("{:.17g}", eb),
                fmt::format("{:.17g}", ec), fmt::format("{}", prba), fmt::format("{}", prca),
                fmt::format("{}", prcb), fmt::format("{:.17g}", gab), fmt::format("{:.17g}", gbc),
                fmt::format("{:.17g}", gca), "", "", "", "", ""}) +
          "\n\n"));
  std::mt19937 gen(5);
  std::uniform_real_distribution<Real> u(-1e-4, 1e-4);
  for (int trial = 0; trial < 20; ++trial) {
    Real d[5], sa[5] = {}, so[5] = {}, back[3] = {}, ep = 0, za = 0, zo = 0;
    for (Real& x : d) x = u(gen);
    update_stress_shell(anis.m, d, 1e-7, sa, back, ep, za);
    update_stress_shell(orth.m, d, 1e-7, so, back, ep, zo);
    for (int k = 0; k < 5; ++k) EXPECT_NEAR(sa[k], so[k], 1e-9 * ea * 1e-4) << trial << " " << k;
    EXPECT_NEAR(za, zo, 1e-9 * 1e-4) << trial;
  }
}

TEST(Mat002Anis, UniaxialIncrementGivesTheCondensedColumn) {
  // a diagonally dominant anisotropic C with every coupling set
  Real c[6][6];
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) c[i][j] = (i == j ? 50e9 + 7e9 * i : 1e9 * (1 + (i + 2 * j) % 5));
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < i; ++j) c[i][j] = c[j][i];
  const Law law(anis_card(c, "*MAT_ANISOTROPIC_ELASTIC_TITLE\naniso"));
  const Real e = 2e-4;
  const Real d[5] = {e, 0, 0, 0, 0};
  Real sig[5] = {}, back[3] = {}, ep = 0, dz = 0;
  update_stress_shell(law.m, d, 1e-7, sig, back, ep, dz);
  constexpr int rows[5] = {0, 1, 3, 4, 5}; // aa bb ab bc ca of the 6 x 6
  for (int k = 0; k < 5; ++k) {
    const Real expect = (c[rows[k]][0] - c[rows[k]][2] * c[2][0] / c[2][2]) * e;
    EXPECT_NEAR(sig[k], expect, 1e-12 * 60e9 * e) << k;
  }
  EXPECT_NEAR(dz, -c[2][0] * e / c[2][2], 1e-15);
}

TEST(Mat002Anis, IsotropicStiffnessBoundIsEOverOneMinusNu) {
  constexpr Real e = 70e9, nu = 0.33;
  const Real lam = e * nu / ((1 + nu) * (1 - 2 * nu)), g = e / (2 * (1 + nu));
  Real c[6][6] = {};
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) c[i][j] = lam;
    c[i][i] = lam + 2 * g;
    c[3 + i][3 + i] = g;
  }
  const Law law(anis_card(c));
  EXPECT_NEAR(law.m.e, e / (1 - nu), 1e-9 * e);
  // the plane-stress response: d sigma_aa = E/(1 - nu^2) e, d sigma_bb = nu E/(1 - nu^2) e
  const Real d[5] = {1e-4, 0, 0, 0, 0};
  Real sig[5] = {}, back[3] = {}, ep = 0, dz = 0;
  update_stress_shell(law.m, d, 1e-7, sig, back, ep, dz);
  EXPECT_NEAR(sig[0], e / (1 - nu * nu) * 1e-4, 1e-9 * e * 1e-4);
  EXPECT_NEAR(sig[1], nu * e / (1 - nu * nu) * 1e-4, 1e-9 * e * 1e-4);
  EXPECT_NEAR(dz, -nu / (1 - nu) * 1e-4, 1e-15);
}

TEST(Mat002Anis, CardRefusalsNameTheField) {
  Real c[6][6] = {};
  for (int i = 0; i < 6; ++i) c[i][i] = 10e9;
  auto error_of = [](const std::string& card) {
    try {
      read_text(quad_with(card));
    } catch (const std::exception& ex) {
      return std::string(ex.what());
    }
    return std::string();
  };
  const std::string aopt = error_of(anis_card(c, "*MAT_002_ANIS", 2));
  EXPECT_NE(aopt.find("AOPT = 2 is not supported"), std::string::npos) << aopt;
  EXPECT_NE(error_of(anis_card(c, "*MAT_002_ANIS", 0, 2)).find("MACF = 2"), std::string::npos);
  EXPECT_NE(error_of(anis_card(c, "*MAT_002_ANIS", 0, 1, 1)).find("REF = 1"), std::string::npos);
  c[2][2] = -1e9;
  const std::string pd = error_of(anis_card(c));
  EXPECT_NE(pd.find("not positive definite"), std::string::npos) << pd;
  EXPECT_NE(pd.find("deck.k:"), std::string::npos) << pd;
}
