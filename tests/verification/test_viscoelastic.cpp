// *MAT_VISCOELASTIC (006) through the explicit solver: a unit cube (one hexahedron) in uniaxial
// strain, its top face pushed down 2 % in 2 ms (two relaxation times) and then held for 3 ms.
// The pressure cancels in sigma_zz - sigma_xx = 2 int_0^t G(t - tau) deps_zz(tau), which is
// compared every cycle with that integral over the cube's own logarithmic strain history
// (ln of its height, cycle by cycle, each cycle's increment at a constant rate): the element
// must keep the law's decaying stress between cycles (its back-stress array) and hand it the
// strain increments of its height. On the hold the difference relaxes to 2 GI eps.
#include <gtest/gtest.h>

#include <cmath>

#include <fmt/format.h>

#include "verification_util.hpp"

using namespace parcae;
using namespace parcae::test;

TEST(Viscoelastic, UniaxialStrainRelaxesAsTheHereditaryIntegral) {
  const double k = 2000.0, g0 = 3.0, gi = 1.0, beta = 1000.0, rho = 1.2e-9;
  const double t1 = 2e-3, t2 = 5e-3, u = -0.02;
  std::string d = "*KEYWORD\n";
  d += fmt::format("*CONTROL_TERMINATION\n{:10.4e}\n", t2);
  d += "*PART\nrubber\n         1         1         1\n*SECTION_SOLID\n         1         1\n";
  d += fmt::format("*MAT_VISCOELASTIC\n         1{:10.3e}{:10.1f}{:10.1f}{:10.1f}{:10.1f}\n", rho,
                   k, g0, gi, beta);
  std::string cube = roller_cube_cards(t1, u, true);
  const std::string last = fmt::format("{:20.10e}{:20.10e}\n", t1, u);
  cube.insert(cube.find(last) + last.size(), fmt::format("{:20.10e}{:20.10e}\n", t2, u));
  d += cube + "*END\n";
  Model model = read_deck_text("visco006", d);
  RunOptions opt = quiet_run("visco006");
  double t_prev = 0, eps_prev = 0, h_dec = 0, s_inf = 0, worst = 0, diff_end = 0, eps_end = 0;
  int checked = 0;
  opt.on_cycle = [&](const Domain& dom, const GlobalStats& s) {
    double h = 0;
    for (std::size_t n = 0; n < dom.nnode; ++n)
      if (dom.node_id[n] >= 5) h += 0.25 * dom.x[3 * n + 2];
    const double eps = std::log(h), dt = s.time - t_prev;
    // the reference: sigma_zz - sigma_xx = 2 GI eps + h_dec, h_dec decaying
    const double de = eps - eps_prev, x = beta * dt;
    h_dec = std::exp(-x) * h_dec + 2 * (g0 - gi) * (x > 0 ? (1 - std::exp(-x)) / x : 1.0) * de;
    s_inf += 2 * gi * de;
    t_prev = s.time;
    eps_prev = eps;
    const auto& sig = dom.solids[0].blk.sig;
    const double diff = sig[2] - sig[0], ref = s_inf + h_dec;
    if (s.time > 1e-4) {
      worst = std::max(worst, std::abs(diff - ref) / std::abs(ref));
      ++checked;
    }
    diff_end = diff;
    eps_end = eps;
    return true;
  };
  const RunSummary sum = run_explicit(model, opt);
  ASSERT_TRUE(sum.normal_termination) << sum.error;
  std::printf("viscoelastic cube: %d cycles checked, worst relative difference %.3e; at the end "
              "sigma_zz - sigma_xx = %.6e, 2 GI eps = %.6e\n",
              checked, worst, diff_end, 2 * gi * eps_end);
  EXPECT_GT(checked, 1000);
  EXPECT_LT(worst, 2e-3);
  // three relaxation times after the ramp: within exp(-3) of the decaying part's size
  EXPECT_NEAR(diff_end, 2 * gi * eps_end, 0.06 * 2 * (g0 - gi) * std::abs(eps_end));
  EXPECT_GT(std::abs(diff_end), 0.9 * 2 * gi * std::abs(eps_end));
}
