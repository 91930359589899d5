// *MAT_JOHNSON_HOLMQUIST_CERAMICS (110) through the explicit solver: a silicon carbide unit cube
// (one hexahedron, its sides held: uniaxial strain, V / V0 = its height h) pressed to h = 0.9 in
// 0.1 ms. The law keeps its volumetric strain, damage and bulking pressure per point in the
// element's history (scalar history, stored between cycles and never rotated); the pressure must
// be K1 mu of the cube's own mu = 1/h - 1 plus the bulking pressure the point reports, to 0.1 %
// (a state lost between cycles would reset ln V to one step's increment), the deviator must
// stay within the strength of the damage reached (sqrt(3 J2) <= sigma_HEL (intact - D (intact -
// fractured)) at the pressure), and the damage must grow once the cube yields (to 0.024 at h =
// 0.9).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "verification_util.hpp"

using namespace parcae;
using namespace parcae::test;

TEST(Ceramics, PressedCubeKeepsItsVolumeDamageAndBulkingBetweenCycles) {
  const double g = 193000, a = 0.96, b = 0.35, m = 1.0, n = 0.65, t = 370, sfmax = 0.8, hel = 14567,
               phel = 5900, k1 = 204785, t1 = 1e-4;
  const double sig_hel = 1.5 * (hel - phel);
  std::string d = "*KEYWORD\n";
  d += fmt::format("*CONTROL_TERMINATION\n{:10.4e}\n", t1);
  d += "*PART\nsic\n         1         1         1\n*SECTION_SOLID\n         1         1\n";
  d += fmt::format("*MAT_JOHNSON_HOLMQUIST_CERAMICS\n1,3.215e-9,{},{},{},0,{},{}\n"
                   "1.0,{},{},{},{},1.0\n0.48,0.48,{},0,0,0\n",
                   g, a, b, m, n, t, sfmax, hel, phel, k1);
  d += roller_cube_cards(t1, -0.1, true) + "*END\n";
  Model model = read_deck_text("jh2", d);
  RunOptions opt = quiet_run("jh2");
  opt.stats_every_cycle = true;
  double worst_p = 0, over = 0, d_max = 0, p_max = 0;
  int checked = 0;
  opt.on_cycle = [&](const Domain& dom, const GlobalStats& /*s*/) {
    double h = 0;
    for (std::size_t k = 0; k < dom.nnode; ++k)
      if (dom.node_id[k] >= 5) h += 0.25 * dom.x[3 * k + 2];
    const auto& blk = dom.solids[0].blk;
    const double* sg = &blk.sig[0];
    const double* hist = &blk.back[0];
    const double mu = 1 / h - 1;
    const double p = -(sg[0] + sg[1] + sg[2]) / 3;
    worst_p = std::max(worst_p, std::abs(p - (k1 * mu + hist[2])));
    const double dmg = hist[1], ps = p / phel;
    const double si = a * std::pow(ps + t / phel, n), sf = std::min(b * std::pow(ps, m), sfmax);
    double j2 = 0;
    for (int i = 0; i < 3; ++i) j2 += 0.5 * (sg[i] + p) * (sg[i] + p);
    j2 += sg[3] * sg[3] + sg[4] * sg[4] + sg[5] * sg[5];
    // (the return used the damage at the step's start: allow this step's drop)
    over =
        std::max(over, std::sqrt(3 * j2) - sig_hel * (si - std::max(0.0, dmg - 0.05) * (si - sf)));
    d_max = std::max(d_max, dmg);
    p_max = std::max(p_max, p);
    ++checked;
    return true;
  };
  const RunSummary sum = run_explicit(model, opt);
  ASSERT_TRUE(sum.normal_termination) << sum.error;
  std::printf("JH-2 cube: %d cycles, largest pressure %.1f, worst |p - (K1 mu + dP)| %.3e, "
              "strength exceeded by %.3e, damage reached %.3f\n",
              checked, p_max, worst_p, over, d_max);
  EXPECT_GT(checked, 100);
  EXPECT_GE(p_max, (1 - 1e-3) * k1 * (1 / 0.9 - 1)); // K1 mu at h = 0.9, plus bulking >= 0
  EXPECT_LT(worst_p, 1e-3 * p_max);
  EXPECT_LT(over, 1e-6 * sig_hel);
  EXPECT_GT(d_max,
            0.01); // (measured 0.024: uniaxial strain to h = 0.9 yields about 0.05 plastic strain)
}
