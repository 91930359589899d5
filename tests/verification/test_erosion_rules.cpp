// Erosion on a time-step criterion (*CONTROL_TIMESTEP ERODE = 1 with *CONTROL_TERMINATION
// DTMIN: LS-DYNA erodes the solids whose step would bring the run below DTMIN x the first step,
// where without ERODE the run stops) and on relative volume (*MAT_NULL TEROD / CEROD), one
// element through the whole solver, against the rule itself: the element goes in the pass
// where its step (volume) crosses the threshold, not before.
#include <gtest/gtest.h>

#include <cmath>

#include <fmt/format.h>

#include "verification_util.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

struct Sample {
  double t = 0, h = 0, vol = 0, dt_elem = 0, dt = 0;
  bool failed = false;
};

struct CubeRun {
  std::vector<Sample> samples;
  RunSummary sum;
  [[nodiscard]] std::size_t first_failed() const {
    for (std::size_t i = 0; i < samples.size(); ++i)
      if (samples[i].failed) return i;
    return samples.size();
  }
};

/// A unit cube whose top face moves by utop over tend at constant velocity, on rollers at x = 0,
/// y = 0, z = 0 (uniaxial stress), or with the sides held too (uniaxial strain: V / V0 is the
/// height).
CubeRun run_cube(const std::string& tag, const std::string& cards, double tend, double utop,
                 bool uniaxial_strain) {
  std::string d = "*KEYWORD\n" + cards;
  d += fmt::format("*PART\ncube\n         1         1         1{:10d}\n", // EOS of *MAT_NULL
                   cards.find("*EOS") != std::string::npos ? 1 : 0);
  d += "*SECTION_SOLID\n         1         1\n";
  d += roller_cube_cards(tend, utop, uniaxial_strain) + "*END\n";
  Model model = read_deck_text(tag, d);
  RunOptions opt = quiet_run(tag);
  const LocalId top = model.node_index(8);
  CubeRun run;
  opt.stats_every_cycle = true;
  opt.on_cycle = [&](const Domain& dom, const GlobalStats& s) {
    const auto& b = dom.solids[0].blk;
    run.samples.push_back({s.time, dom.x[3 * top + 2], b.vol[0], b.dt[0], s.dt, b.failed[0] != 0});
    return true;
  };
  run.sum = run_explicit(model, opt);
  return run;
}

constexpr double kE = 210000.0, kRho = 7.85e-9;

std::string elastic_cards(double tend, const std::string& termination_tail,
                          const std::string& timestep) {
  return fmt::format("*CONTROL_TERMINATION\n{:10.3e}{}\n", tend, termination_tail) + timestep +
         fmt::format("*MAT_ELASTIC\n         1{:10.3e}{:10.1f}       0.3\n", kRho, kE);
}

} // namespace

// The cube squeezed to 30 % of its height: its step shrinks with it. DTMIN = 0.5: without
// ERODE the run stops once the step falls below half the first one ("time step collapsed");
// with ERODE = 1 the cube is eroded in the pass where TSSFAC x its step first falls below
// DTMIN x the first step, and the run goes on to its end time with a step never below that.
TEST(ErosionRules, ErodeOnTimeStepInsteadOfStopping) {
  const double tend = 1e-4, utop = -0.7;
  const std::string term = "         0       0.5";
  const CubeRun stop = run_cube("er_dtmin_stop", elastic_cards(tend, term, ""), tend, utop, false);
  EXPECT_FALSE(stop.sum.normal_termination);
  EXPECT_NE(stop.sum.error.find("time step collapsed"), std::string::npos) << stop.sum.error;

  const std::string erode = "*CONTROL_TIMESTEP\n       0.0       0.9         0       0.0       0.0"
                            "         0         1\n";
  const CubeRun run = run_cube("er_dtmin", elastic_cards(tend, term, erode), tend, utop, false);
  ASSERT_TRUE(run.sum.normal_termination) << run.sum.error;
  const double tsmin = 0.5 * run.sum.dt_initial;
  const std::size_t k = run.first_failed();
  ASSERT_LT(k, run.samples.size()) << "the cube never eroded";
  ASSERT_GT(k, 0u);
  const Sample& before = run.samples[k - 1];
  std::printf("eroded at t = %.4e, height %.4f; step before %.4e x 0.9 vs TSMIN %.4e\n",
              run.samples[k].t, run.samples[k].h, before.dt_elem, tsmin);
  // not before its step reached the threshold, and within one pass of it
  EXPECT_GE(0.9 * before.dt_elem, tsmin);
  EXPECT_LT(0.9 * before.dt_elem, 1.05 * tsmin);
  for (const Sample& s : run.samples)
    if (s.t < tend * (1 - 1e-9)) EXPECT_GE(s.dt, tsmin * (1 - 1e-12));
  EXPECT_NEAR(run.samples.back().t, tend, 1e-12);
}

// *MAT_NULL + *EOS_LINEAR_POLYNOMIAL (C1 = 2000 MPa, water-like) in uniaxial strain: V / V0 is
// the height. CEROD = 0.8 erodes the cube in the pass where V / V0 first falls below 0.8 on the
// way to 0.7; TEROD = 1.2 in the pass where it first exceeds 1.2 on the way to 1.3. Without
// them the cube reaches both.
TEST(ErosionRules, NullMaterialErodesOnRelativeVolume) {
  const double tend = 2e-4;
  auto cards = [&](const std::string& terod, const std::string& cerod) {
    return fmt::format("*CONTROL_TERMINATION\n{:10.3e}\n", tend) +
           fmt::format("*MAT_NULL\n         1   1.0e-09      -1.0       0.0{:>10}{:>10}\n", terod,
                       cerod) +
           "*EOS_LINEAR_POLYNOMIAL\n         1       0.0    2000.0\n";
  };
  struct Case {
    std::string terod, cerod;
    double utop, threshold;
  };
  for (const Case& c : {Case{"", "0.8", -0.3, 0.8}, Case{"1.2", "", 0.3, 1.2}}) {
    const CubeRun run = run_cube("er_null", cards(c.terod, c.cerod), tend, c.utop, true);
    ASSERT_TRUE(run.sum.normal_termination) << run.sum.error;
    const std::size_t k = run.first_failed();
    ASSERT_LT(k, run.samples.size()) << "the cube never eroded (" << c.threshold << ")";
    ASSERT_GT(k, 0u);
    std::printf("V/V0 threshold %.2f: eroded at V/V0 %.5f (before %.5f)\n", c.threshold,
                run.samples[k].vol, run.samples[k - 1].vol);
    const bool compression = c.utop < 0;
    if (compression) {
      EXPECT_LT(run.samples[k].vol, c.threshold);
      EXPECT_GE(run.samples[k - 1].vol, c.threshold);
    } else {
      EXPECT_GT(run.samples[k].vol, c.threshold);
      EXPECT_LE(run.samples[k - 1].vol, c.threshold);
    }
    // the volume is the height (uniaxial strain)
    EXPECT_NEAR(run.samples[k].vol, run.samples[k].h, 1e-12);
    const CubeRun keep = run_cube("er_null_keep", cards("", ""), tend, c.utop, true);
    ASSERT_TRUE(keep.sum.normal_termination) << keep.sum.error;
    EXPECT_EQ(keep.first_failed(), keep.samples.size());
    EXPECT_NEAR(keep.samples.back().vol, 1 + c.utop, 1e-9);
  }
}
