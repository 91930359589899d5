// Mass scaling during the run (*CONTROL_TIMESTEP DT2MS < 0) against its closed form: an element
// whose step dte falls below T = |DT2MS| gets the mass factor s = s_old (T / dte)^2, so that its
// step is T again. An element squeezed at a prescribed rate has a known step at every cycle, hence
// a known factor, nodal masses and added mass; the run's step stays TSSFAC T.
#include <gtest/gtest.h>

#include <cmath>

#include <fmt/format.h>

#include "verification_util.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

constexpr double kRho = 7.85e-9, kE = 210000.0, kNu = 0.3;

/// T as the deck holds it: the 10-column field rounds it, so the expectations use that value.
double as_in_deck(double target) {
  return -std::stod(fmt::format("{:10.3e}", -target));
}

/// One 10 x 10 mm Belytschko-Tsay shell (t = 1) in z = 0: the edge x = 0 (nodes 1, 3) clamped,
/// the edge x = 10 (nodes 2, 4) pushed in -x at 10 m/s with its other dofs held. The width is
/// w(t) = 10 - 1e4 t, and the shell's step is (1 + beta) A / l_max / c = w / c while w < 10.
std::string squeezed_shell(double dt2ms, int ms1st, double endmas = 1e8) {
  return fmt::format("*KEYWORD\n*CONTROL_TERMINATION\n    6.0e-4         0       0.0       0.0"
                     "{:10.3e}\n"
                     "*CONTROL_TIMESTEP\n       0.0       0.9         0       0.0{:10.3e}"
                     "         0         0{:10d}\n"
                     "*PART\nsheet\n         1         1         1\n"
                     "*SECTION_SHELL\n         1         2       1.0         3\n"
                     "       1.0       1.0       1.0       1.0\n"
                     "*MAT_ELASTIC\n         1{:10.3e}{:10.1f}{:10.2f}\n",
                     endmas, dt2ms, ms1st, kRho, kE, kNu) +
         shell_grid_cards(1, 1, 10.0, 10.0, 1) + node_set_card(1, {1, 3}) +
         node_set_card(2, {2, 4}) +
         "*BOUNDARY_SPC_SET\n         1         0         1         1         1         1"
         "         1         1\n"
         "*BOUNDARY_SPC_SET\n         2         0         0         1         1         1"
         "         1         1\n"
         "*BOUNDARY_PRESCRIBED_MOTION_SET\n         2         1         0         1  -10000.0\n"
         "*DEFINE_CURVE\n         1\n                 0.0                 1.0\n"
         "                 1.0                 1.0\n*END\n";
}

struct ShellTrace {
  double max_scale_error = 0; ///< relative, over the cycles
  double max_mass_error = 0;  ///< node 2's mass and the added mass vs the closed form, relative
  double min_dt = 1e300;      ///< smallest step before the shortened last one
  double last_w = 0, last_scale = 0, last_t = 0;
  int cycles = 0;
};

ShellTrace run_squeezed_shell(double target, int ms1st, double endmas = 1e8) {
  const Model m = read_deck_text("ms_shell", squeezed_shell(-target, ms1st, endmas));
  RunOptions opt = quiet_run("ms_shell_run");
  opt.stats_every_cycle = true;
  const double c = std::sqrt(kE / (kRho * (1 - kNu * kNu)));
  const double m0 = kRho * 1.0 * 100.0; // the element's physical mass
  ShellTrace tr;
  double prev_dt = 0;
  opt.on_cycle = [&](const Domain& d, const GlobalStats& s) {
    const ShellBlock& blk = d.shells.at(0).blk;
    const std::size_t n2 = 1; // node 2: (10, 0)
    const double w = d.x[3 * n2] - d.x[0];
    // the factor is set by the force pass at these coordinates (monotone squeeze: the last one)
    const double s_exact = ms1st == 0 ? std::max(1.0, (target * c / w) * (target * c / w)) : 1.0;
    const double scale = blk.density_scale[0];
    // the trigger leaves a step within 1e-9 of T unscaled
    tr.max_scale_error = std::max(tr.max_scale_error, std::abs(scale - s_exact) / s_exact);
    tr.max_mass_error =
        std::max({tr.max_mass_error, std::abs(d.mass[n2] - 0.25 * m0 * scale) / (0.25 * m0 * scale),
                  std::abs(s.added_mass - m0 * (scale - 1.0)) / (m0 * scale)});
    if (prev_dt > 0) tr.min_dt = std::min(tr.min_dt, prev_dt); // not the last, shortened step
    prev_dt = s.dt;
    tr.last_w = w;
    tr.last_scale = scale;
    tr.last_t = s.time;
    ++tr.cycles;
    return true;
  };
  const RunSummary sum = run_explicit(m, opt);
  EXPECT_TRUE(sum.normal_termination) << sum.error;
  return tr;
}

} // namespace

TEST(MassScalingDuringRun, SqueezedShellGainsTheClosedFormMass) {
  // T = 0.8 x 10 / c: scaling starts at w = 8 mm; at w = 4 mm the factor is (8 / 4)^2 = 4.
  const double c = std::sqrt(kE / (kRho * (1 - kNu * kNu)));
  const double target = as_in_deck(0.8 * 10.0 / c);
  const ShellTrace tr = run_squeezed_shell(target, 0);
  EXPECT_NEAR(tr.last_w, 4.0, 0.05);
  EXPECT_NEAR(tr.last_scale, (target * c / tr.last_w) * (target * c / tr.last_w), 1e-8);
  EXPECT_NEAR(tr.last_scale, 4.0, 0.1);
  EXPECT_LT(tr.max_scale_error, 1e-8);
  EXPECT_LT(tr.max_mass_error, 1e-12);
  // the run's step never falls below TSSFAC T (it would reach half of it unscaled)
  EXPECT_GE(tr.min_dt, 0.9 * target * (1 - 1e-9));
  EXPECT_LE(tr.min_dt, 0.9 * target * (1 + 1e-6));
}

TEST(MassScalingDuringRun, Ms1stLimitsScalingToTheSetUp) {
  // MS1ST = 1: no element is below T at set-up, so nothing is scaled and the step follows the
  // squeeze down to 0.9 w / c.
  const double c = std::sqrt(kE / (kRho * (1 - kNu * kNu)));
  const double target = as_in_deck(0.8 * 10.0 / c);
  const ShellTrace tr = run_squeezed_shell(target, 1);
  EXPECT_EQ(tr.last_scale, 1.0);
  EXPECT_LT(tr.max_mass_error, 1e-12);
  EXPECT_LT(tr.min_dt, 0.9 * 4.1 / c);
}

TEST(MassScalingDuringRun, EndmasStopsTheRunAtThatAddedMass) {
  // ENDMAS = 100 (%): the run ends, normally, in the cycle where the added mass first exceeds
  // the physical mass, i.e. the factor exceeds 2: w just below (T c) / sqrt(2).
  const double c = std::sqrt(kE / (kRho * (1 - kNu * kNu)));
  const double target = as_in_deck(0.8 * 10.0 / c);
  const ShellTrace tr = run_squeezed_shell(target, 0, 100.0);
  EXPECT_GT(tr.last_scale, 2.0);
  EXPECT_LT(tr.last_w, target * c / std::sqrt(2.0));
  EXPECT_GT(tr.last_w, target * c / std::sqrt(2.0) - 0.02); // one step of 1e4 mm/s x 1.3 us
  EXPECT_NEAR(tr.last_t, (10.0 - target * c / std::sqrt(2.0)) / 1e4, 2e-6); // w = 10 - 1e4 t
}

TEST(MassScalingDuringRun, SqueezedHexKeepsItsStepAndAccountsItsMass) {
  // A 10 mm steel cube, bottom face fixed, top face pushed down at 10 m/s for 0.5 ms (h = 5 mm).
  // Its step (characteristic length over the wave speed, less the bulk viscosity's share) falls
  // with h; T is 0.9 of the initial step. The nodal masses must add up to rho V0 s, the added
  // mass to rho V0 (s - 1), and the step must stay TSSFAC T.
  const std::vector<long> bottom = block_nodes(1, 1, 1, 1, [](int, int, int k) { return k == 0; });
  const std::vector<long> top = block_nodes(1, 1, 1, 1, [](int, int, int k) { return k == 1; });
  const std::string body =
      "*PART\ncube\n         1         1         1\n*SECTION_SOLID\n         1         1\n"
      "*MAT_ELASTIC\n         1   7.85e-9  210000.0       0.3\n" +
      hex_block_cards(1, 1, 1, 10.0, 10.0, 10.0, 1) + node_set_card(1, bottom) +
      node_set_card(2, top) +
      "*BOUNDARY_SPC_SET\n         1         0         1         1         1\n"
      "*BOUNDARY_SPC_SET\n         2         0         1         1         0\n"
      "*BOUNDARY_PRESCRIBED_MOTION_SET\n         2         3         0         1  -10000.0\n"
      "*DEFINE_CURVE\n         1\n                 0.0                 1.0\n"
      "                 1.0                 1.0\n*END\n";
  // the initial step, from a run of one cycle without scaling
  double dt0 = 0;
  {
    const Model m = read_deck_text("ms_hex0", "*KEYWORD\n*CONTROL_TERMINATION\n    5.0e-4"
                                              "         1\n" +
                                                  body);
    RunOptions opt = quiet_run("ms_hex0_run");
    const RunSummary sum = run_explicit(m, opt);
    ASSERT_TRUE(sum.normal_termination) << sum.error;
    dt0 = sum.dt_initial / 0.9;
  }
  const double target = as_in_deck(0.9 * dt0);
  const Model m = read_deck_text(
      "ms_hex", fmt::format("*KEYWORD\n*CONTROL_TERMINATION\n    5.0e-4\n*CONTROL_TIMESTEP\n"
                            "       0.0       0.9         0       0.0{:10.3e}\n",
                            -target) +
                    body);
  RunOptions opt = quiet_run("ms_hex_run");
  opt.stats_every_cycle = true;
  const double m0 = 7.85e-9 * 1000.0;
  double max_err = 0, min_dt = 1e300, prev_dt = 0, scale = 0, h = 0;
  opt.on_cycle = [&](const Domain& d, const GlobalStats& s) {
    scale = d.solids.at(0).blk.density_scale[0];
    double total = 0;
    for (std::size_t n = 0; n < d.nnode; ++n) total += d.mass[n];
    max_err = std::max({max_err, std::abs(total - m0 * scale) / (m0 * scale),
                        std::abs(s.added_mass - m0 * (scale - 1.0)) / (m0 * scale)});
    if (prev_dt > 0) min_dt = std::min(min_dt, prev_dt);
    prev_dt = s.dt;
    h = d.x[3 * 4 + 2] - d.x[2]; // node 5 (0, 0, 10) over node 1
    return true;
  };
  const RunSummary sum = run_explicit(m, opt);
  ASSERT_TRUE(sum.normal_termination) << sum.error;
  EXPECT_NEAR(h, 5.0, 0.05);
  EXPECT_GT(scale, 3.0); // the step of a 5 mm high element is about half of the initial one
  EXPECT_LT(max_err, 1e-12);
  EXPECT_GE(min_dt, 0.9 * target * (1 - 1e-9));
  EXPECT_LE(min_dt, 0.9 * target * (1 + 1e-6));
}
