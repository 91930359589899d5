// *MAT_SIMPLIFIED_RUBBER/FOAM (181) through the explicit solver: a unit cube of rubber (one
// hexahedron on rollers, its sides free) pulled slowly to twice its height, then let back to
// 1.2. Its curve is an incompressible Mooney-Rivlin bar's nominal stress; the cube's nominal stress
// (sigma_zz times its current cross-section) must follow the curve (to 1 % of its largest value:
// the pull is slow against the shear wave's transit, 1 ms against 30 us, and KM = 1e4 G), and
// the energy must balance (the stored energy is the law's potential: the gap between the work
// done and the kinetic plus stored energy may not drift; measured 1e-4 of the stored energy).
#include <gtest/gtest.h>

#include <cmath>

#include <fmt/format.h>

#include "verification_util.hpp"

using namespace parcae;
using namespace parcae::test;

TEST(SimplifiedRubber, UniaxialPullFollowsTheCurve) {
  const double c10 = 0.5, c01 = 0.1, g = 2 * (c10 + c01), km = 1e4 * g, rho = 1.1e-9;
  auto mooney = [&](double l) { return 2 * (c10 + c01 / l) * (l - 1 / (l * l)); };
  const double t1 = 1e-3, t2 = 1.4e-3;
  std::string d = "*KEYWORD\n";
  d += fmt::format("*CONTROL_TERMINATION\n{:10.4e}\n", t2);
  d += "*PART\nrubber\n         1         1         1\n*SECTION_SOLID\n         1         1\n";
  d += fmt::format("*MAT_SIMPLIFIED_RUBBER/FOAM\n1,{},{},0.1\n1.0,1.0,1.0,7\n", rho, km);
  d += "*DEFINE_CURVE\n         7\n";
  for (int i = 0; i <= 60; ++i) {
    const double e = -0.5 + 2.5 * i / 60;
    d += fmt::format("{:.12g},{:.12g}\n", e, mooney(1 + e));
  }
  std::string cube = roller_cube_cards(t1, 1.0, false);
  const std::string last = fmt::format("{:20.10e}{:20.10e}\n", t1, 1.0);
  cube.insert(cube.find(last) + last.size(), fmt::format("{:20.10e}{:20.10e}\n", t2, 0.2));
  d += cube + "*END\n";
  Model model = read_deck_text("rubber181", d);
  RunOptions opt = quiet_run("rubber181");
  opt.stats_every_cycle = true;
  double worst = 0, lmax = 0, gap0 = 0, gap = 0, ie_max = 0;
  GlobalStats last_st;
  int checked = 0;
  opt.on_cycle = [&](const Domain& dom, const GlobalStats& s) {
    double h = 0, wx = 0, wy = 0;
    for (std::size_t n = 0; n < dom.nnode; ++n) {
      const GlobalId id = dom.node_id[n];
      if (id >= 5) h += 0.25 * dom.x[3 * n + 2];
      if (id == 2 || id == 4 || id == 6 || id == 8) wx += 0.25 * dom.x[3 * n];     // x = 1
      if (id == 3 || id == 4 || id == 7 || id == 8) wy += 0.25 * dom.x[3 * n + 1]; // y = 1
    }
    lmax = std::max(lmax, h);
    const double nominal = dom.solids[0].blk.sig[2] * wx * wy;
    // the curve, linear between its points
    const double e = h - 1, u = (e + 0.5) / 2.5 * 60;
    const int i = std::clamp(static_cast<int>(u), 0, 59);
    const double t = u - i;
    const double curve =
        (1 - t) * mooney(1 - 0.5 + 2.5 * i / 60) + t * mooney(1 - 0.5 + 2.5 * (i + 1) / 60);
    // (not within 20 us of the reversal, whose sudden change of velocity rings the bulk modes)
    if (s.time > 1e-4 && std::abs(s.time - t1) > 2e-5) {
      worst = std::max(worst, std::abs(nominal - curve) / mooney(2.0));
      ++checked;
    }
    // the energy balance's gap (a constant offset from the motion's start at t = 0: the
    // prescribed velocity appears at once) must not drift
    gap = s.kinetic + s.internal - s.external_work;
    if (s.time <= 1e-4) gap0 = gap;
    ie_max = std::max(ie_max, s.internal);
    last_st = s;
    return true;
  };
  const RunSummary sum = run_explicit(model, opt);
  ASSERT_TRUE(sum.normal_termination) << sum.error;
  std::printf("simplified rubber cube: %d cycles, height up to %.4f, worst |nominal - curve| "
              "%.3e of the curve at 2; energy gap drift %.3e of the largest internal energy\n",
              checked, lmax, worst, (gap - gap0) / ie_max);
  EXPECT_GT(checked, 500);
  EXPECT_NEAR(lmax, 2.0, 1e-3);
  EXPECT_LT(worst, 1e-2);
  EXPECT_LT(std::abs(gap - gap0), 1e-3 * ie_max);
}
