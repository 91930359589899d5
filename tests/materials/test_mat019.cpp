// *MAT_STRAIN_RATE_DEPENDENT_PLASTICITY (019), read from its card as a deck gives it, at one
// material point in uniaxial stress against the law's closed form sigma_y = LC1(rate) + Ep eps_p,
// Ep = E ETAN / (E - ETAN):
//  - VP = 0: the rate is the step's effective (deviatoric) strain rate, 2/3 |d_xx - d_yy| / dt for
//    the uniaxial increments; at three rates (between LC1's points and beyond its last one, where
//    the curve is held) the stress is on the yield surface to round-off;
//  - VP = 1: the rate is the plastic strain rate, on solids and shells;
//  - the card: alias, refused values named at their field.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "../input/keyword_test_util.hpp"
#include "mat_test_util.hpp"
#include "materials/catalogue.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

constexpr Real kE19 = 2.0e5, kEt19 = 1500.0;
constexpr Real kRate[3] = {0.0, 100.0, 1000.0}, kS0[3] = {200.0, 250.0, 300.0};

std::string cube_with(const std::string& mat) {
  return deck("*NODE\n"
              "1,0,0,0\n2,1,0,0\n3,1,1,0\n4,0,1,0\n5,0,0,1\n6,1,0,1\n7,1,1,1\n8,0,1,1\n"
              "*ELEMENT_SOLID\n1,1,1,2,3,4,5,6,7,8\n*PART\ncube\n1,1,1\n*SECTION_SOLID\n1,1\n" +
              mat + termination());
}

std::string mat019(Real vp, const std::string& name = "*MAT_019", const std::string& card2 = "") {
  return fmt::format("{}\n1,7.85e-9,{},0.3,{}\n{}\n*DEFINE_CURVE\n9\n{},{}\n{},{}\n{},{}\n", name,
                     kE19, vp, card2.empty() ? fmt::format("9,{}", kEt19) : card2, kRate[0], kS0[0],
                     kRate[1], kS0[1], kRate[2], kS0[2]);
}

Real s0_of(Real rate) {
  if (rate >= kRate[2]) return kS0[2];
  const int i = rate < kRate[1] ? 1 : 2;
  return kS0[i - 1] + (rate - kRate[i - 1]) / (kRate[i] - kRate[i - 1]) * (kS0[i] - kS0[i - 1]);
}

const Real kEp19 = kE19 * kEt19 / (kE19 - kEt19);

} // namespace

TEST(Mat019, ScaledYieldFollowsTheRateCurvePlusLinearHardening) {
  const Model model = read_text(cube_with(mat019(0)));
  const MaterialParams m = make_material_params(model.materials.at(0), model);
  for (const Real rate : {30.0, 400.0, 5000.0}) {
    SolidUniaxial p(m);
    const Real dt = 1e-6, dxx = rate * dt;
    int plastic = 0;
    for (int k = 0; k < 400; ++k) {
      p.step(dxx, dt);
      if (p.dep <= 0) continue;
      ++plastic;
      const Real r = 2.0 / 3.0 * std::abs(dxx - p.lat) / dt;
      ASSERT_NEAR(p.sig[0], s0_of(r) + kEp19 * p.eps_p, 1e-9 * kS0[2]) << rate << " step " << k;
    }
    EXPECT_GT(plastic, 100) << rate;
  }
}

TEST(Mat019, ViscoplasticTakesThePlasticStrainRateOnSolidsAndShells) {
  const Model model = read_text(cube_with(mat019(1)));
  const MaterialParams m = make_material_params(model.materials.at(0), model);
  const Real dt = 1e-6, dxx = 300.0 * dt;
  SolidUniaxial solid(m);
  ShellUniaxial shell(m);
  int checked = 0;
  for (int k = 0; k < 400; ++k) {
    solid.step(dxx, dt);
    shell.step(dxx, dt);
    if (solid.dep > 0) {
      ASSERT_NEAR(solid.sig[0], s0_of(solid.dep / dt) + kEp19 * solid.eps_p, 1e-8 * kS0[2]) << k;
      ++checked;
    }
    if (shell.dep > 0)
      ASSERT_NEAR(shell.sig[0], s0_of(shell.dep / dt) + kEp19 * shell.eps_p, 1e-8 * kS0[2]) << k;
  }
  EXPECT_GT(checked, 100);
  EXPECT_GT(solid.eps_p, 0.05);
}

TEST(Mat019Card, AliasAndRefusedValues) {
  const Model model = read_text(cube_with(mat019(0, "*MAT_STRAIN_RATE_DEPENDENT_PLASTICITY")));
  EXPECT_EQ(model.materials.at(0).kind, MaterialKind::StrainRateDependentPlasticity);
  EXPECT_STREQ(material_law(model.materials.at(0).kind).number, "019");
  for (const auto& [text, field] : std::vector<std::pair<std::string, std::string>>{
           {mat019(0, "*MAT_019", "0,1500"), "LC1 = 0"},
           {mat019(0, "*MAT_019", "9,1500,5"), "LC2 = 5"},
           {mat019(0, "*MAT_019", "9,1500,0,6"), "LC3 = 6"},
           {mat019(0, "*MAT_019", "9,1500,0,0,7"), "LC4 = 7"},
           {mat019(2), "VP = 2"},
           {mat019(0, "*MAT_019", "9,3e5"), "ETAN = 300000"}}) {
    const std::string err = read_error(cube_with(text));
    EXPECT_NE(err.find(field), std::string::npos) << text << ": " << err;
    EXPECT_NE(err.find("deck.k:"), std::string::npos) << err;
  }
}
