// *MAT_MODIFIED_PIECEWISE_LINEAR_PLASTICITY (123) through the explicit solver: a shell strip
// clamped at one end and bent by its tip (5 Gauss points through the thickness). Bending strains
// grow with the distance from the mid-surface, so the outer points reach FAIL first and the
// mid-surface point (membrane strain only) never does. NUMINT = 0 (all points, as *MAT_024):
// nothing erodes; NUMINT = 1: the root element erodes in the cycle where its first point
// reaches FAIL, not before; NUMINT = -40 (40 % of 5: 2 points) in the cycle where its second one
// does. The stress update is *MAT_024's (tests/materials/test_mat123.cpp).
#include <gtest/gtest.h>

#include <cstdio>

#include <fmt/format.h>

#include "verification_util.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

constexpr double kFail = 0.005;

struct BendRun {
  bool eroded = false;
  int failed_points_before = -1, failed_points_at = -1; ///< of the first eroded element
  RunSummary sum;
};

BendRun bend(const std::string& tag, const std::string& numint) {
  std::string d = "*KEYWORD\n*CONTROL_TERMINATION\n    4.0e-3\n"
                  "*PART\nstrip\n         1         1         1\n"
                  "*SECTION_SHELL\n         1         2     0.833         5\n"
                  "       2.0       2.0       2.0       2.0\n";
  d +=
      fmt::format("*MAT_123\n         1   7.85e-9  210000.0       0.3     200.0    1000.0{:10.3f}\n"
                  "       0.0       0.0         0         0       0.0       0.0       0.0{:>10}\n",
                  kFail, numint);
  d += shell_grid_cards(10, 1, 100.0, 10.0, 1);
  d += node_set_card(1, {1, 12});  // the clamped end
  d += node_set_card(2, {11, 22}); // the tip
  d += "*BOUNDARY_SPC_SET\n         1         0         1         1         1         1         1"
       "         1\n";
  d += "*BOUNDARY_PRESCRIBED_MOTION_SET\n         2         3         2         1      40.0\n";
  d += "*DEFINE_CURVE\n         1\n                 0.0                 0.0\n"
       "              4.0e-3                 1.0\n*END\n";
  Model model = read_deck_text(tag, d);
  RunOptions opt = quiet_run(tag);
  BendRun r;
  int before = 0;
  opt.on_cycle = [&](const Domain& dom, const GlobalStats&) {
    const auto& blk = dom.shells[0].blk;
    const std::size_t nip = 5;
    // the root element: model order, element 1
    std::size_t k = 0;
    for (std::size_t e = 0; e < blk.size(); ++e)
      if (dom.shells[0].elem_id[e] == 1) k = e;
    int nf = 0;
    for (std::size_t p = 0; p < nip; ++p) nf += blk.eps_p[nip * k + p] >= kFail ? 1 : 0;
    if (!r.eroded && blk.failed[k]) {
      r.eroded = true;
      r.failed_points_before = before;
      r.failed_points_at = nf;
    }
    before = nf;
    return true;
  };
  r.sum = run_explicit(model, opt);
  std::printf("NUMINT %s: eroded %d, failed points before %d, at %d\n", numint.c_str(),
              r.eroded ? 1 : 0, r.failed_points_before, r.failed_points_at);
  return r;
}

} // namespace

TEST(Mat123, ShellsErodeAfterNumintPointsReachFail) {
  const BendRun all = bend("mat123_all", "0.0");
  ASSERT_TRUE(all.sum.normal_termination) << all.sum.error;
  EXPECT_FALSE(all.eroded); // the mid-surface point never reaches FAIL

  const BendRun one = bend("mat123_one", "1.0");
  ASSERT_TRUE(one.sum.normal_termination) << one.sum.error;
  ASSERT_TRUE(one.eroded);
  EXPECT_EQ(one.failed_points_before, 0);
  EXPECT_GE(one.failed_points_at, 1);

  const BendRun two = bend("mat123_two", "-40.0");
  ASSERT_TRUE(two.sum.normal_termination) << two.sum.error;
  ASSERT_TRUE(two.eroded);
  EXPECT_LT(two.failed_points_before, 2);
  EXPECT_GE(two.failed_points_at, 2);
}
