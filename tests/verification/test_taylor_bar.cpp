// Copper Taylor bar (examples/taylor_bar): final length, foot (mushroom) radius, peak plastic
// strain and energy balance against the benchmark values in ../shared/reference/README.md.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "verification_util.hpp"

using namespace parcae;
using namespace parcae::test;

TEST(TaylorBar, FinalShapeAndEnergyBalance) {
  const auto deck = source_dir() / "examples" / "taylor_bar" / "taylor_bar.k";
  Model model = read_deck(deck.string());
  RunOptions opt = quiet_run("taylor");
  std::vector<Real> x_end;
  Real max_epsp = 0;
  const Real endtim = model.control.endtim;
  opt.on_cycle = [&](const Domain& d, const GlobalStats& s) {
    if (s.time >= endtim * (1 - 1e-12)) {
      x_end = d.x;
      for (const auto& p : d.solids)
        for (Real e : p.blk.eps_p) max_epsp = std::max(max_epsp, e);
    }
    return true;
  };
  const RunSummary sum = run_explicit(model, opt);
  ASSERT_TRUE(sum.normal_termination) << sum.error;
  ASSERT_FALSE(x_end.empty());
  // Final length: extent along the axis. Foot (mushroom) radius: the largest radius of any
  // node; the rim curls up slightly, so it lies a little above the wall.
  Real ymin = 1e30, ymax = -1e30, foot = 0;
  for (std::size_t n = 0; n < x_end.size() / 3; ++n) {
    ymin = std::min(ymin, x_end[3 * n + 1]);
    ymax = std::max(ymax, x_end[3 * n + 1]);
    foot = std::max(foot, std::hypot(x_end[3 * n], x_end[3 * n + 2]));
  }
  const Real length = ymax - ymin;
  RecordProperty("final_length_mm", std::to_string(length));
  RecordProperty("foot_radius_mm", std::to_string(foot));
  RecordProperty("max_plastic_strain", std::to_string(max_epsp));
  std::printf("Taylor bar: final length %.3f mm, foot radius %.3f mm, max eff. plastic strain "
              "%.3f, energy error %.4f%%\n",
              length, foot, max_epsp, 100 * sum.energy_error);
  // Published: final length 21.4-21.5 mm, foot radius 7.0-7.1 mm, peak plastic strain 2.9-3.1
  // (a common benchmark; the values themselves are mesh-dependent). This mesh is coarse (768
  // hexahedra, 4 through the radius). The length is a global quantity (+-1.5% allowed); the
  // foot radius and peak strain are local to the rim of the impact face (+-3%, +-15%).
  // python/tests/test_taylor_convergence.py runs the 2x2x2-refined mesh as well.
  EXPECT_NEAR(length, 21.45, 0.015 * 21.45);
  EXPECT_NEAR(foot, 7.05, 0.03 * 7.05);
  EXPECT_NEAR(max_epsp, 3.0, 0.15 * 3.0);
  // Energy balance: kinetic energy goes to plastic work and the wall; error below 1%.
  EXPECT_LT(sum.energy_error, 0.01);
}
