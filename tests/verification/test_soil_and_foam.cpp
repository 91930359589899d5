// *MAT_SOIL_AND_FOAM (005) through the explicit solver: a unit cube of soil (one hexahedron, its
// sides held: uniaxial strain, V / V0 = its height h) pressed to h = 0.8 in 1 ms and let back to
// h = 0.9. The mean stress must follow the pressure-volume law of the compression mu = -ln h: the
// curve while loading, BULK on the way back (p = P(mu_max) - BULK (mu_max - mu)); the deviator
// never leave the yield surface, sqrt(J2) <= sqrt(a0 + a1 p + a2 p^2), and while the cube is
// pressed grow elastically (2G dmu / sqrt(3) per step in uniaxial strain) until it meets the
// surface, then ride it. Tolerance: 1 % of the largest pressure and of the largest yield radius
// (the press is slow against the wave transit, 1 ms against 1 us).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "verification_util.hpp"

using namespace parcae;
using namespace parcae::test;

TEST(SoilAndFoam, PressedCubeFollowsThePressureVolumeCurveAndTheYieldSurface) {
  const double g = 300.0, k = 900.0, a0 = 0.5, a1 = 0.8, a2 = 0.02, t1 = 1e-3, t2 = 1.5e-3;
  const double mu_c[4] = {0.0, 0.05, 0.15, 0.3}, p_c[4] = {0.0, 10.0, 20.0, 60.0};
  auto curve = [&](double mu) {
    if (mu < 0) return k * mu;
    int i = 1;
    while (i < 3 && mu > mu_c[i]) ++i;
    return p_c[i - 1] + (mu - mu_c[i - 1]) / (mu_c[i] - mu_c[i - 1]) * (p_c[i] - p_c[i - 1]);
  };
  std::string d = "*KEYWORD\n";
  d += fmt::format("*CONTROL_TERMINATION\n{:10.4e}\n", t2);
  d += "*PART\nsoil\n         1         1         1\n*SECTION_SOLID\n         1         1\n";
  d += fmt::format("*MAT_SOIL_AND_FOAM\n1,2.0e-9,{},{},{},{},{},-0.2\n0\n", g, k, a0, a1, a2);
  d += fmt::format("{},{},{},{}\n\n{},{},{},{}\n\n", -mu_c[0], -mu_c[1], -mu_c[2], -mu_c[3], p_c[0],
                   p_c[1], p_c[2], p_c[3]);
  std::string cube = roller_cube_cards(t1, -0.2, true);
  const std::string last = fmt::format("{:20.10e}{:20.10e}\n", t1, -0.2);
  cube.insert(cube.find(last) + last.size(), fmt::format("{:20.10e}{:20.10e}\n", t2, -0.1));
  d += cube + "*END\n";
  Model model = read_deck_text("soil005", d);
  RunOptions opt = quiet_run("soil005");
  opt.stats_every_cycle = true;
  double worst_p = 0, worst_on = 0, over = 0, mu_max = 0, p_at_max = 0, mu_prev = 0, s_exp = 0;
  int checked = 0;
  opt.on_cycle = [&](const Domain& dom, const GlobalStats& s) {
    double h = 0;
    for (std::size_t n = 0; n < dom.nnode; ++n)
      if (dom.node_id[n] >= 5) h += 0.25 * dom.x[3 * n + 2];
    const double mu = -std::log(h);
    const double* sg = &dom.solids[0].blk.sig[0];
    const double p = -(sg[0] + sg[1] + sg[2]) / 3;
    double j2 = 0;
    for (int i = 0; i < 3; ++i) j2 += 0.5 * (sg[i] + p) * (sg[i] + p);
    j2 += sg[3] * sg[3] + sg[4] * sg[4] + sg[5] * sg[5];
    const double phi = a0 + a1 * p + a2 * p * p;
    over = std::max(over, std::sqrt(j2) - std::sqrt(std::max(phi, 0.0)));
    if (s.time <= t1) { // the deviator's closed form while pressed
      s_exp = std::min(s_exp + 2 * g * (mu - mu_prev) / std::sqrt(3.0), std::sqrt(phi));
      mu_prev = mu;
      worst_on = std::max(worst_on, std::abs(std::sqrt(j2) - s_exp));
    }
    if (s.time < 5e-5) return true;
    double expect;
    if (s.time <= t1) {
      expect = curve(mu);
      mu_max = mu;
      p_at_max = p;
    } else {
      expect = std::max(-0.2, p_at_max - k * (mu_max - mu));
    }
    if (std::abs(s.time - t1) > 2e-5) { // not at the reversal, which rings the cube
      worst_p = std::max(worst_p, std::abs(p - expect));
      ++checked;
    }
    return true;
  };
  const RunSummary sum = run_explicit(model, opt);
  ASSERT_TRUE(sum.normal_termination) << sum.error;
  std::printf(
      "soil cube: %d cycles checked, worst |p - law| %.3e of %.2f; worst |sqrt(J2) - closed "
      "form| while pressed %.3e, above the yield surface %.3e\n",
      checked, worst_p, p_at_max, worst_on, over);
  EXPECT_GT(checked, 200);
  EXPECT_NEAR(mu_max, -std::log(0.8), 1e-3);
  EXPECT_LT(worst_p, 1e-2 * p_at_max);
  EXPECT_LT(worst_on, 1e-2 * std::sqrt(a0 + a1 * p_at_max + a2 * p_at_max * p_at_max));
  EXPECT_LT(over, 1e-9 * p_at_max);
}
