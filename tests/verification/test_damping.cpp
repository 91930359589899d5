// *DAMPING_GLOBAL through the whole solver:
//   - a mass on an elastic bar (one degree of freedom: x'' + D x' + w^2 x = 0) decays by
//     exp(-D T_d / 2) per damped period T_d = 2 pi / sqrt(w^2 - D^2 / 4), and the energy it
//     loses is glstat's system damping energy (the total stays the initial energy);
//   - a rigid body moving along x and y with ST only on x slows as exp(-D t) along x and keeps
//     its y velocity.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include <fmt/format.h>

#include "verification_util.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

constexpr double kE = 2.0e5, kRho = 7.85e-9; // mm, t, s, MPa

} // namespace

// k = E A / L = 2e4 N/mm, m = 1e-3 t (+ the bar's half at the tip): w = 4.46e3 rad/s;
// D = 0.1 w (damping ratio 5 %). The damping force uses the velocity of the last half step
// (an O(D dt) = 0.8 % lag in the force, which shifts the decay rate by about (w dt)^2 / 8 and
// D dt / 2): tolerance 2 % on the logarithmic decrement (measured 0.2 %). Energy: kinetic +
// internal + damping energy against the initial energy. The kinetic energy of the half-step
// velocities staggers against the internal energy of the positions by about w dt / 2 = 4 % of
// the energy still in the vibration (measured 3.7 % at the start); after six periods that is
// 2 % of it, so the final balance is within 0.5 %.
TEST(GlobalDamping, MassOnABarDecaysAtTheDampedRate) {
  const double len = 100.0, area = 10.0, tip = 1e-3, v0 = 100.0;
  const double k = kE * area / len, m = tip + 0.5 * kRho * area * len;
  const double w = std::sqrt(k / m), dmp = 0.1 * w;
  const double wd = std::sqrt(w * w - 0.25 * dmp * dmp), td = 2 * std::numbers::pi / wd;
  const std::string d = bar_with_tip_mass_deck(
      len, area, tip, v0, 6.2 * td, fmt::format("*DAMPING_GLOBAL\n         0{:10.3f}\n", dmp));
  Model model = read_deck_text("damping_bar", d);
  RunOptions opt = quiet_run("damping_bar");
  opt.stats_every_cycle = true;
  std::vector<double> t, u;
  double worst = 0;
  const double e0 = 0.5 * m * v0 * v0;
  opt.on_cycle = [&](const Domain& dom, const GlobalStats& s) {
    t.push_back(s.time);
    u.push_back(dom.x[3] - len);
    worst = std::max(worst, std::abs(s.kinetic + s.internal + s.damping - e0) / e0);
    return true;
  };
  const RunSummary sum = run_explicit(model, opt);
  ASSERT_TRUE(sum.normal_termination) << sum.error;
  std::vector<double> peaks;
  for (std::size_t i = 1; i + 1 < u.size(); ++i)
    if (u[i] > u[i - 1] && u[i] >= u[i + 1]) peaks.push_back(u[i]);
  ASSERT_GE(peaks.size(), 5U);
  const double decrement = std::log(peaks[0] / peaks[4]) / 4; // per period
  const double exact = 0.5 * dmp * td;
  std::printf("damped bar: logarithmic decrement %.5f (exact %.5f, %.2e); worst energy error "
              "%.2e; damping energy %.4e of %.4e\n",
              decrement, exact, decrement / exact - 1, worst, sum.final_stats.damping, e0);
  EXPECT_NEAR(decrement, exact, 0.02 * exact);
  EXPECT_LT(worst, 0.05);
  EXPECT_NEAR(sum.final_stats.energy_ratio(), 1.0, 5e-3);
  EXPECT_GT(sum.final_stats.damping, 0.9 * e0); // most of the energy is gone after 6 periods
}

// A rigid cube with v0 = (1000, 1000, 0) mm/s, D = 1000 /s, STX = 1 and the other scale factors
// 0: v_x = v0 (1 - D dt)^n (the explicit update of -D M v over n steps of dt; exp(-D t) to
// n (D dt)^2 / 2 = 5e-4 at dt = 1 us, t = 1 ms), v_y untouched. Energy: kinetic + damping
// energy = the initial kinetic energy (1e-3).
TEST(GlobalDamping, RigidBodySlowsOnlyAlongItsDampedDirection) {
  const double v0 = 1000.0, dmp = 1000.0, tend = 1e-3, dt = 1e-6;
  std::string d = "*KEYWORD\n";
  d += fmt::format("*CONTROL_TERMINATION\n{:10.3e}\n*CONTROL_TIMESTEP\n{:10.3e}\n", tend, dt);
  d += "*PART\ncube\n         1         1         1\n*SECTION_SOLID\n         1         1\n";
  d += fmt::format("*MAT_RIGID\n         1{:10.3e}{:10.1f}       0.3\n", kRho, kE);
  d += hex_block_cards(1, 1, 1, 1.0, 1.0, 1.0, 1);
  d += fmt::format("*INITIAL_VELOCITY\n         0\n{:10.1f}{:10.1f}\n", v0, v0);
  d += fmt::format("*DAMPING_GLOBAL\n         0{:10.1f}       1.0\n*END\n", dmp);
  Model model = read_deck_text("damping_rigid", d);
  RunOptions opt = quiet_run("damping_rigid");
  opt.stats_every_cycle = true;
  GlobalStats last;
  opt.on_cycle = [&](const Domain&, const GlobalStats& s) {
    last = s;
    return true;
  };
  const RunSummary sum = run_explicit(model, opt);
  ASSERT_TRUE(sum.normal_termination) << sum.error;
  const double t = last.time - 0.5 * last.dt;
  std::printf("damped rigid body: v_x %.6f (exp(-D t) v0 %.6f), v_y %.6f; energy ratio %.6f\n",
              last.vx, v0 * std::exp(-dmp * t), last.vy, last.energy_ratio());
  EXPECT_NEAR(last.vx, v0 * std::exp(-dmp * t), 2e-3 * v0 * std::exp(-dmp * t));
  EXPECT_NEAR(last.vy, v0, 1e-12 * v0);
  EXPECT_NEAR(last.energy_ratio(), 1.0, 1e-3);
  EXPECT_GT(last.damping, 0.0);
}
