// *MAT_SOIL_AND_FOAM (005), read from its card as a deck gives it, at one material point against
// the law's closed forms:
//  - hydrostatic compression follows the table's pressure-volume curve (in -ln V); unloading from
//    the largest compression goes down with BULK (p = P(mu_max) - BULK (mu_max - mu)), reloading
//    comes back up the same line and then follows the curve again; VCR = 1 unloads along the
//    curve; expansion stops at the tensile cutoff PC;
//  - simple shear under a confining pressure: the deviator grows with G until J2 = a0 + a1 p + a2
//    p^2, then stays there;
//  - the table in either sign, the curve LCID (in ln V) and the card's refused values.
#include <gtest/gtest.h>

#include <cmath>

#include <fmt/format.h>

#include "../input/keyword_test_util.hpp"
#include "mat_test_util.hpp"
#include "materials/catalogue.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

// a soil in mm, t, s, MPa
constexpr Real kG = 30.0, kK = 900.0, kA0 = 0.5, kA1 = 0.8, kA2 = 0.02, kPc = -0.2;
// the curve: (-ln V, p)
constexpr Real kMu[4] = {0.0, 0.05, 0.15, 0.3}, kP[4] = {0.0, 10.0, 20.0, 60.0};

std::string cube_with(const std::string& mat, const std::string& extra = "") {
  return deck("*NODE\n"
              "1,0,0,0\n2,1,0,0\n3,1,1,0\n4,0,1,0\n5,0,0,1\n6,1,0,1\n7,1,1,1\n8,0,1,1\n"
              "*ELEMENT_SOLID\n1,1,1,2,3,4,5,6,7,8\n*PART\ncube\n1,1,1\n*SECTION_SOLID\n1,1\n" +
              mat + termination() + extra);
}

std::string soil_card(Real vcr = 0, Real sign = -1, Real pc = kPc) {
  std::string c = fmt::format("*MAT_SOIL_AND_FOAM\n1,2.0e-9,{},{},{},{},{},{}\n{},0\n", kG, kK, kA0,
                              kA1, kA2, pc, vcr);
  c += fmt::format("{},{},{},{}\n\n", sign * kMu[0], sign * kMu[1], sign * kMu[2], sign * kMu[3]);
  c += fmt::format("{},{},{},{}\n\n", kP[0], kP[1], kP[2], kP[3]);
  return c;
}

Real curve(Real mu) {
  if (mu < 0) return kK * mu;
  int i = 1;
  while (i < 3 && mu > kMu[i]) ++i;
  return kP[i - 1] + (mu - kMu[i - 1]) / (kMu[i] - kMu[i - 1]) * (kP[i] - kP[i - 1]);
}

struct Point {
  MaterialParams m;
  Model model;
  Real sig[6] = {0, 0, 0, 0, 0, 0}, back[6] = {0, 0, 0, 0, 0, 0}, mu = 0;
  explicit Point(const std::string& card) : model(read_text(cube_with(card))) {
    m = make_material_params(model.materials.at(0), model);
  }
  /// a volumetric step: each normal strain increment d (tr = 3d, dmu = -3d)
  void vol(Real d) {
    const Real de[6] = {d, d, d, 0, 0, 0};
    update_stress_solid(m, de, 1e-6, sig, back, mu);
  }
  Real p() const { return -(sig[0] + sig[1] + sig[2]) / 3; }
};

} // namespace

TEST(Mat005, HydrostaticCompressionFollowsTheCurveAndUnloadsWithBulk) {
  Point pt(soil_card());
  const Real d = -0.2 / 3 / 400; // to mu = 0.2 in 400 steps
  for (int k = 1; k <= 400; ++k) {
    pt.vol(d);
    ASSERT_NEAR(pt.mu, -3 * d * k, 1e-12);
    ASSERT_NEAR(pt.p(), curve(pt.mu), 1e-9 * 60) << "mu " << pt.mu;
    for (int i = 3; i < 6; ++i) ASSERT_EQ(pt.sig[i], 0.0);
  }
  const Real mu_max = pt.mu, p_max = pt.p();
  for (int k = 1; k <= 100; ++k) { // unload by 0.01
    pt.vol(-d / 4);
    ASSERT_NEAR(pt.p(), p_max - kK * (mu_max - pt.mu), 1e-9 * 60) << k;
  }
  for (int k = 1; k <= 200; ++k) { // reload by 0.02: up the same line, then the curve
    pt.vol(d / 4);
    ASSERT_NEAR(pt.p(), std::min(p_max - kK * (mu_max - pt.mu), curve(pt.mu)), 1e-9 * 60) << k;
  }
  EXPECT_GT(pt.mu, mu_max); // back on the curve beyond the old crush
  EXPECT_NEAR(pt.p(), curve(pt.mu), 1e-9 * 60);
  // full unloading and expansion: the pressure stops at the cutoff
  for (int k = 0; k < 400; ++k) pt.vol(-d);
  EXPECT_NEAR(pt.p(), kPc, 1e-15);
}

TEST(Mat005, VcrOneUnloadsAlongTheCurve) {
  Point pt(soil_card(1));
  const Real d = -0.2 / 3 / 200;
  for (int k = 0; k < 200; ++k) pt.vol(d);
  for (int k = 1; k <= 150; ++k) {
    pt.vol(-d);
    ASSERT_NEAR(pt.p(), curve(pt.mu), 1e-9 * 60) << k;
  }
}

TEST(Mat005, ShearUnderConfinementStopsAtThePressureDependentYield) {
  Point pt(soil_card());
  const Real d = -0.1 / 3 / 100;
  for (int k = 0; k < 100; ++k) pt.vol(d); // confine to mu = 0.1
  const Real p = pt.p();
  ASSERT_NEAR(p, curve(0.1), 1e-9 * 60);
  const Real limit = std::sqrt(kA0 + kA1 * p + kA2 * p * p); // sqrt(J2) = tau in simple shear
  const Real dg = 1e-4;
  const Real de[6] = {0, 0, 0, dg, 0, 0};
  for (int k = 1; k <= 2000; ++k) {
    update_stress_solid(pt.m, de, 1e-6, pt.sig, pt.back, pt.mu);
    const Real elastic = kG * dg * k;
    ASSERT_NEAR(pt.sig[3], std::min(elastic, limit), 1e-9 * limit) << k;
    ASSERT_NEAR(pt.p(), p, 1e-9 * p); // shear does not change the volume
  }
}

TEST(Mat005Card, TableSignsCurveAndRefusedValues) {
  // the same curve given as positive compressions (with a note) or as a curve LCID in ln V
  Point pos(soil_card(0, +1));
  bool noted = false;
  for (const auto& n : pos.model.notes)
    noted = noted || n.message.find("read as the compression") != std::string::npos;
  EXPECT_TRUE(noted);
  const std::string lcid = "*MAT_005\n1,2.0e-9,30,900,0.5,0.8,0.02,-0.2\n0,0,7\n"
                           "*DEFINE_CURVE\n7\n-0.3,60\n-0.15,20\n-0.05,10\n0,0\n";
  Point byc(lcid);
  Point neg(soil_card());
  const Real d = -0.25 / 3 / 100;
  for (int k = 0; k < 100; ++k) {
    pos.vol(d);
    byc.vol(d);
    neg.vol(d);
  }
  EXPECT_EQ(pos.p(), neg.p());
  EXPECT_NEAR(byc.p(), neg.p(), 1e-12 * neg.p());
  EXPECT_EQ(neg.model.materials.at(0).kind, MaterialKind::SoilAndFoam);
  EXPECT_NEAR(neg.m.wave_speed_solid(), std::sqrt((kK + 4.0 / 3.0 * kG) / 2e-9), 1e-6);
  const std::string base = "1,2.0e-9,30,900,0.5,0.8,0.02";
  const std::string tbl = "0,-0.1\n\n0,10\n\n";
  for (const auto& [text, field] : std::vector<std::pair<std::string, std::string>>{
           {"*MAT_005\n" + base + ",0.5\n0\n" + tbl, "PC = 0.5"},
           {"*MAT_005\n" + base + "\n2\n" + tbl, "VCR = 2"},
           {"*MAT_005\n" + base + "\n0,1\n" + tbl, "REF = 1"},
           {"*MAT_005\n" + base + "\n0\n0,-0.1,0.2\n\n0,10,20\n\n", "mix signs"},
           {"*MAT_005\n" + base + "\n0\n0,-0.1,-0.05\n\n0,10,20\n\n", "EPS3 = -0.05"},
           {"*MAT_005\n" + base + "\n0\n0\n\n0\n\n", "at least two"},
           {"*MAT_005\n1,2.0e-9,0,900\n0\n" + tbl, "G = 0"}}) {
    const std::string err = read_error(cube_with(text));
    EXPECT_NE(err.find(field), std::string::npos) << text << ": " << err;
    EXPECT_NE(err.find("deck.k:"), std::string::npos) << err;
  }
}
