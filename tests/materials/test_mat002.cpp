// *MAT_ORTHOTROPIC_ELASTIC (002) on shells, read from its card as a deck gives it, at one shell
// point turned by its material angle (BETA, through update_stress_shell_oriented): the stress of
// any in-plane strain is the transformed reduced stiffness of classical laminate theory,
// Q-bar(theta) = T^-1 Q R T R^-1 (Jones, Mechanics of Composite Materials, eq. 2.84), with Q the
// inverse of the compliance eps_a = sigma_a/EA - nu_ba sigma_b/EB, gamma_ab = tau_ab/GAB; the
// thickness strain -(PRCA d sigma_a + PRCB d sigma_b)/EC; the card's refusals by field.
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

constexpr Real kEa = 140e9, kEb = 10e9, kEc = 10e9, kPrba = 0.02, kGab = 5e9, kPrca = 0.3,
               kPrcb = 0.4;

std::string quad_with(const std::string& mat) {
  return deck("*NODE\n1,0,0,0\n2,1,0,0\n3,1,1,0\n4,0,1,0\n*ELEMENT_SHELL\n1,1,1,2,3,4\n"
              "*PART\nply\n1,1,1\n*SECTION_SHELL\n1,2\n0.001\n" +
              mat + termination());
}

std::string card(Real beta, const std::string& card2_tail = "", const std::string& card3 = "") {
  return fmt::format("*MAT_002\n{:>10}{:>10.4g}{:>10.4g}{:>10.4g}{:>10.4g}{:>10.4g}{:>10.4g}"
                     "{:>10.4g}\n{:>10.4g}{:>10}{:>10}{}\n{}\n{:>60}{:>10.4g}\n",
                     1, 1600.0, kEa, kEb, kEc, kPrba, kPrca, kPrcb, kGab, "", "", card2_tail, card3,
                     "", beta);
}

} // namespace

TEST(Mat002, OffAxisStiffnessIsTheLaminateTheoryQbar) {
  const Real beta_deg = 30;
  const Model model = read_text(quad_with(card(beta_deg)));
  const Material& mat = model.materials.at(0);
  EXPECT_EQ(mat.kind, MaterialKind::OrthotropicElastic);
  const MaterialParams m = make_material_params(mat, model);
  const Real th = beta_deg * std::numbers::pi / 180;
  EXPECT_NEAR(m.shell_angle, th, 1e-15);
  // Q from the compliance (a 2 x 2 inverse and the shear)
  const Real s11 = 1 / kEa, s22 = 1 / kEb, s12 = -kPrba / kEb, det = s11 * s22 - s12 * s12;
  const Real q11 = s22 / det, q22 = s11 / det, q12 = -s12 / det, q66 = kGab;
  const Real c = std::cos(th), s = std::sin(th);
  const Real c2 = c * c, s2 = s * s;
  const Real qb[3][3] = {
      {q11 * c2 * c2 + 2 * (q12 + 2 * q66) * s2 * c2 + q22 * s2 * s2,
       (q11 + q22 - 4 * q66) * s2 * c2 + q12 * (s2 * s2 + c2 * c2),
       (q11 - q12 - 2 * q66) * s * c2 * c + (q12 - q22 + 2 * q66) * s2 * s * c},
      {0, q11 * s2 * s2 + 2 * (q12 + 2 * q66) * s2 * c2 + q22 * c2 * c2,
       (q11 - q12 - 2 * q66) * s2 * s * c + (q12 - q22 + 2 * q66) * s * c2 * c},
      {0, 0, (q11 + q22 - 2 * q12 - 2 * q66) * s2 * c2 + q66 * (s2 * s2 + c2 * c2)}};
  auto qbar = [&](int i, int j) { return i <= j ? qb[i][j] : qb[j][i]; };
  for (int k = 0; k < 3; ++k) {
    const Real eps[3] = {k == 0 ? 1e-4 : 0.0, k == 1 ? 1e-4 : 0.0, k == 2 ? 1e-4 : 0.0};
    const Real d[5] = {eps[0], eps[1], eps[2], 0, 0};
    Real sig[5] = {}, back[3] = {}, ep = 0, dz = 0;
    update_stress_shell_oriented(m, d, 1e-6, sig, back, ep, dz, {c, s});
    for (int i = 0; i < 3; ++i)
      EXPECT_NEAR(sig[i], qbar(i, k) * 1e-4, 1e-10 * q11 * 1e-4)
          << "strain " << k << " stress " << i;
    // the thickness strain from the stresses in the material axes
    const Real sa = c2 * sig[0] + s2 * sig[1] + 2 * s * c * sig[2];
    const Real sb = s2 * sig[0] + c2 * sig[1] - 2 * s * c * sig[2];
    EXPECT_NEAR(dz, -(kPrca * sa + kPrcb * sb) / kEc, 1e-9 * std::abs(sa) / kEc + 1e-20);
  }
}

TEST(Mat002, RefusedValuesNameTheField) {
  for (const auto& [tail, card3, what] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
           {"       2.0", "", "AOPT = 2"},
           {"       0.0     100.0", "", "G = 100"},
           {"", "                                                                   2.0",
            "MACF = 2"}}) {
    const std::string err = read_error(quad_with(card(0, tail, card3)));
    EXPECT_NE(err.find(what), std::string::npos) << err;
    EXPECT_NE(err.find("deck.k:"), std::string::npos) << err;
  }
  // on a solid part the law is refused when the run sets the part up
  EXPECT_EQ(material_law(MaterialKind::OrthotropicElastic).update_solid, nullptr);
}
