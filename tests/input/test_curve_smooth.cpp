// *DEFINE_CURVE_SMOOTH: the curve's area (the tool's travel) is DIST, its peak VMAX, zero before
// TSTART and after TEND, half of VMAX halfway up each ramp and flat at the ramps' ends, whether
// TEND or VMAX is given; inconsistent cards are refused at their field.
#include <gtest/gtest.h>

#include <algorithm>

#include <fmt/format.h>

#include "keyword_test_util.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

Curve smooth(Real dist, Real tstart, Real tend, Real trise, Real vmax) {
  const Model m = read_text(cube_deck(
      fmt::format("*DEFINE_CURVE_SMOOTH\n{:10d}{:10d}{:10.4g}{:10.4g}{:10.4g}{:10.4g}{:10.4g}\n", 5,
                  0, dist, tstart, tend, trise, vmax)));
  for (const Curve& c : m.curves)
    if (c.id == 5) return c;
  ADD_FAILURE() << "no curve 5";
  return {};
}

Real area(const Curve& c) {
  Real a = 0;
  for (std::size_t k = 1; k < c.x.size(); ++k)
    a += 0.5 * (c.y[k] + c.y[k - 1]) * (c.x[k] - c.x[k - 1]);
  return a;
}

} // namespace

TEST(CurveSmooth, TravelPeakAndTimesFromTend) {
  // DIST 30, from 0.01 to 0.09 with 0.02 ramps: VMAX = 30 / (0.08 - 0.02) = 500
  const Curve c = smooth(30, 0.01, 0.09, 0.02, 0);
  EXPECT_NEAR(area(c), 30, 1e-12 * 30);
  EXPECT_NEAR(*std::max_element(c.y.begin(), c.y.end()), 500, 1e-9);
  EXPECT_EQ(c.eval(0.005), 0);
  EXPECT_EQ(c.eval(0.095), 0);
  EXPECT_NEAR(c.eval(0.02), 250, 1e-9);            // halfway up
  EXPECT_NEAR(c.eval(0.08), 250, 1e-9);            // halfway down
  EXPECT_NEAR(c.eval(0.05), 500, 1e-9);            // the plateau
  EXPECT_LT(c.eval(0.01 + 0.02 / 64), 500 * 1e-3); // flat where it starts
}

TEST(CurveSmooth, TendFromVmaxAndRefusals) {
  // VMAX 100 for DIST 5 from 0 with 0.01 ramps: TEND = 0.01 + 0.05 = 0.06
  const Curve c = smooth(5, 0, 0, 0.01, 100);
  EXPECT_NEAR(area(c), 5, 1e-12 * 5);
  EXPECT_NEAR(c.x.back(), 0.06, 1e-12);
  auto error = [](const std::string& card) { return read_error(cube_deck(card)); };
  EXPECT_NE(error("*DEFINE_CURVE_SMOOTH\n         5         0       1.0       0.0       1.0"
                  "       0.1     100.0\n")
                .find("not both"),
            std::string::npos);
  EXPECT_NE(error("*DEFINE_CURVE_SMOOTH\n         5         0       1.0       0.0       0.1"
                  "       0.1\n")
                .find("TEND"),
            std::string::npos);
}
