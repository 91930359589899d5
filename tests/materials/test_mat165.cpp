// *MAT_PLASTIC_NONLINEAR_KINEMATIC (165), read from its card as a deck gives it, at one solid
// point in uniaxial stress against the closed forms of Armstrong-Frederick hardening:
//  - monotonic loading: sigma = SIGY + H eps_p + (C / GAMMA)(1 - exp(-GAMMA eps_p)), to 2e-3 of
//    C / GAMMA (the backward-Euler recursion A_(n+1) = (A_n + C d eps_p) / (1 + GAMMA d eps_p) of
//    the back stress differs from the exponential by O(GAMMA d eps_p) = 1e-3 here);
//  - reversed loading yields at the back stress minus the yield radius (Bauschinger);
//  - GAMMA = 0 is linear kinematic hardening: *MAT_003 with BETA = 0 and the same slope;
//  - the card: alias, FS, refused values named at their field.
#include <gtest/gtest.h>

#include <cmath>

#include <fmt/format.h>

#include "../input/keyword_test_util.hpp"
#include "mat_test_util.hpp"
#include "materials/catalogue.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

constexpr Real kE165 = 2.0e5, kSy = 250.0, kH = 500.0, kC = 20000.0, kGam = 100.0;

std::string cube_with(const std::string& mat) {
  return deck("*NODE\n"
              "1,0,0,0\n2,1,0,0\n3,1,1,0\n4,0,1,0\n5,0,0,1\n6,1,0,1\n7,1,1,1\n8,0,1,1\n"
              "*ELEMENT_SOLID\n1,1,1,2,3,4,5,6,7,8\n*PART\ncube\n1,1,1\n*SECTION_SOLID\n1,1\n" +
              mat + termination());
}

std::string mat165(Real h, Real c, Real gam, const std::string& name = "*MAT_165",
                   const std::string& card2 = "") {
  return fmt::format("{}\n1,7.85e-9,{},0.3,{},{},{},{}\n{}", name, kE165, kSy, h, c, gam, card2);
}

struct Law {
  Model model;
  MaterialParams m;
  explicit Law(const std::string& card) : model(read_text(cube_with(card))) {
    m = make_material_params(model.materials.at(0), model);
  }
};

} // namespace

TEST(Mat165, MonotonicLoadingSaturatesAtTheArmstrongFrederickClosedForm) {
  const Law law(mat165(kH, kC, kGam));
  SolidUniaxial p(law.m);
  int checked = 0;
  for (Real target : {0.002, 0.005, 0.01, 0.02, 0.05, 0.1}) {
    p.go(target, static_cast<int>(std::lround((target - p.eps) / 2e-5)));
    if (p.eps_p <= 0) continue;
    const Real expect = kSy + kH * p.eps_p + kC / kGam * (1 - std::exp(-kGam * p.eps_p));
    EXPECT_NEAR(p.sig[0], expect, 2e-3 * kC / kGam) << target;
    ++checked;
  }
  EXPECT_GE(checked, 5);
  EXPECT_NEAR(p.sig[0] - kSy - kH * p.eps_p, kC / kGam, 1e-3 * kC / kGam); // saturated
}

TEST(Mat165, ReversedLoadingYieldsAtTheShiftedSurface) {
  const Law law(mat165(0.0, kC, kGam));
  SolidUniaxial p(law.m);
  p.go(0.02, 1000);
  const Real a = p.sig[0] - kSy; // the back stress's uniaxial value (H = 0)
  const Real ep = p.eps_p;
  // unload and reverse in small steps until the first reversed plastic step
  for (int k = 0; k < 5000; ++k) {
    const Real before = p.sig[0];
    p.step(-1e-6);
    if (p.eps_p > ep) {
      // the reversed yield: sigma = a - SIGY (within one elastic step)
      EXPECT_NEAR(p.sig[0], a - kSy, kE165 * 1e-6 + 1e-9) << before;
      EXPECT_LT(a - kSy, 0.0);
      return;
    }
  }
  ADD_FAILURE() << "no reversed yield";
}

TEST(Mat165, WithoutGammaItIsLinearKinematicHardening) {
  const Real et = kE165 * kC / (kE165 + kC); // MAT_003's tangent for plastic modulus C
  const Law k165(mat165(0.0, kC, 0.0));
  const Law k003(fmt::format("*MAT_003\n1,7.85e-9,{},0.3,{},{},0.0\n", kE165, kSy, et));
  SolidUniaxial a(k165.m), b(k003.m);
  for (Real target : {0.01, -0.01, 0.02}) {
    a.go(target, 400);
    b.go(target, 400);
    EXPECT_NEAR(a.sig[0], b.sig[0], 1e-8 * kSy) << target;
    EXPECT_NEAR(a.eps_p, b.eps_p, 1e-10) << target;
  }
}

TEST(Mat165Card, AliasFailureStrainAndRefusedValues) {
  const Law named(mat165(kH, kC, kGam, "*MAT_PLASTIC_NONLINEAR_KINEMATIC", "0.3\n"));
  EXPECT_EQ(named.model.materials.at(0).kind, MaterialKind::PlasticNonlinearKinematic);
  EXPECT_EQ(named.model.materials.at(0).fs, 0.3);
  EXPECT_EQ(named.m.fail, 0.3);
  const Law blank(mat165(kH, kC, kGam));
  EXPECT_EQ(blank.model.materials.at(0).fs, 0.0); // FS 1e16 by default: never
  for (const auto& [text, field] : std::vector<std::pair<std::string, std::string>>{
           {"*MAT_165\n1,7.85e-9,2e5,0.3,0,500,2e4,100\n", "SIGY = 0"},
           {"*MAT_165\n1,7.85e-9,2e5,0.3,250,500,-2e4,100\n", "C = -20000"},
           {"*MAT_165\n1,7.85e-9,2e5,0.3,250,500,2e4,-1\n", "GAMMA = -1"}}) {
    const std::string err = read_error(cube_with(text));
    EXPECT_NE(err.find(field), std::string::npos) << text << ": " << err;
    EXPECT_NE(err.find("deck.k:"), std::string::npos) << err;
  }
}
