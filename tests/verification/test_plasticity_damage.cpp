// *MAT_PLASTICITY_WITH_DAMAGE (081) through the explicit solver: a steel unit cube (one
// hexahedron on rollers, its sides free) pulled to 25 % logarithmic strain in 1 ms (slow against
// the wave transit, 0.2 us). In uniaxial stress the undamaged stress follows the bilinear curve
// of the logarithmic strain, sigma~ = SIGY + Ep eps_p with eps_p = (ln h - SIGY/E) / (1 + Ep/E),
// and the damage D = (eps_p - EPPF)/(EPPFR - EPPF) softens it: sigma_zz = (1 - D) sigma~ to 1 %
// of the largest stress while the cube holds; the element is deleted (the erosion pass, on the
// plastic strain EPPFR) within 1 % of the strain at which eps_p = EPPFR, and no stress is left
// after.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "verification_util.hpp"

using namespace parcae;
using namespace parcae::test;

TEST(PlasticityWithDamage, PulledCubeSoftensAndIsDeletedAtRupture) {
  const double e = 2.0e5, sigy = 250.0, et = 2000.0, eppf = 0.08, eppfr = 0.16, t1 = 1e-3;
  const double ep_mod = e * et / (e - et);
  const double utop = std::exp(0.25) - 1; // ln h = 0.25 at t1
  std::string d = "*KEYWORD\n";
  d += fmt::format("*CONTROL_TERMINATION\n{:10.4e}\n", t1);
  d += "*PART\nsteel\n         1         1         1\n*SECTION_SOLID\n         1         1\n";
  d += fmt::format("*MAT_PLASTICITY_WITH_DAMAGE\n1,7.85e-9,{},0.3,{},{},{}\n0,0,0,0,{}\n", e, sigy,
                   et, eppf, eppfr);
  d += roller_cube_cards(t1, utop, false) + "*END\n";
  Model model = read_deck_text("mat081", d);
  RunOptions opt = quiet_run("mat081");
  opt.stats_every_cycle = true;
  double worst = 0, smax = 0, lnh_failed = -1;
  int checked = 0;
  bool stress_after = false;
  opt.on_cycle = [&](const Domain& dom, const GlobalStats& s) {
    double h = 0;
    for (std::size_t n = 0; n < dom.nnode; ++n)
      if (dom.node_id[n] >= 5) h += 0.25 * dom.x[3 * n + 2];
    const double lnh = std::log(h);
    const auto& blk = dom.solids[0].blk;
    if (blk.failed[0]) {
      if (lnh_failed < 0) lnh_failed = lnh;
      stress_after = stress_after || blk.sig[2] != 0;
      return true;
    }
    const double ep = std::max(0.0, (lnh - sigy / e) / (1 + ep_mod / e));
    const double dmg = std::clamp((ep - eppf) / (eppfr - eppf), 0.0, 1.0);
    const double expect = lnh * e < sigy ? e * lnh : (1 - dmg) * (sigy + ep_mod * ep);
    smax = std::max(smax, blk.sig[2]);
    if (s.time > 5e-5 && dmg < 0.98) { // (near rupture the step's strain is a large share of D)
      worst = std::max(worst, std::abs(blk.sig[2] - expect));
      ++checked;
    }
    return true;
  };
  const RunSummary sum = run_explicit(model, opt);
  ASSERT_TRUE(sum.normal_termination) << sum.error;
  const double lnh_rupture = sigy / e + eppfr * (1 + ep_mod / e);
  std::printf("mat081 cube: %d cycles checked, worst |sigma - (1 - D) sigma~| %.3e of the largest "
              "stress %.1f; deleted at ln h = %.5f (eps_p = EPPFR at %.5f)\n",
              checked, worst / smax, smax, lnh_failed, lnh_rupture);
  EXPECT_GT(checked, 1000);
  EXPECT_LT(worst, 1e-2 * smax);
  ASSERT_GT(lnh_failed, 0) << "the cube was not deleted";
  EXPECT_NEAR(lnh_failed, lnh_rupture, 1e-2 * lnh_rupture);
  EXPECT_FALSE(stress_after);
}
