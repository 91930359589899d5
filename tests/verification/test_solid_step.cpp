// The solid time step on distorted hexahedra at LS-DYNA's default TSSFAC 0.9: a free-flying
// "spherified cube" ball (the mesh of examples/contact_sphere_plate) must keep its energy. With
// the step from V / A_max alone its eight corner elements (a short body diagonal) were unstable:
// internal and hourglass energy grew from round-off within a few hundred cycles. The step now
// also bounds each element's length by its stiffness (fem/hex8_length.hpp); running the same
// ball at the step V / A_max would give (TSSFAC 0.9 / 0.8, the corners' ratio) shows the test
// can fail.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "verification_util.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

constexpr int kN = 6;       // elements per edge of the mapped cube
constexpr Real kR = 4.0;    // radius [mm]
constexpr Real kV = 5000.0; // flight speed [mm/s]

/// Node id of cube point (i, j, k).
int node_id(int i, int j, int k) {
  return 1 + i + (kN + 1) * (j + (kN + 1) * k);
}

std::string ball_deck(Real tssfac, Real endtim) {
  std::string d = "*KEYWORD\n*CONTROL_TERMINATION\n" + fmt::format("{:10.3e}\n", endtim);
  if (tssfac > 0) d += fmt::format("*CONTROL_TIMESTEP\n          {:10.4f}\n", tssfac);
  d += "*PART\nball\n         1         1         1\n*SECTION_SOLID\n         1         1\n"
       "*MAT_ELASTIC\n         1 7.850e-09  210000.0       0.3\n*NODE\n";
  for (int k = 0; k <= kN; ++k)
    for (int j = 0; j <= kN; ++j)
      for (int i = 0; i <= kN; ++i) {
        const Real x = -1 + 2.0 * i / kN, y = -1 + 2.0 * j / kN, z = -1 + 2.0 * k / kN;
        d += fmt::format("{:8d}{:16.10f}{:16.10f}{:16.10f}\n", node_id(i, j, k),
                         kR * x * std::sqrt(1 - y * y / 2 - z * z / 2 + y * y * z * z / 3),
                         kR * y * std::sqrt(1 - z * z / 2 - x * x / 2 + z * z * x * x / 3),
                         kR * z * std::sqrt(1 - x * x / 2 - y * y / 2 + x * x * y * y / 3));
      }
  d += "*ELEMENT_SOLID\n";
  int e = 1;
  for (int k = 0; k < kN; ++k)
    for (int j = 0; j < kN; ++j)
      for (int i = 0; i < kN; ++i)
        d += fmt::format("{:8d}{:8d}{:8d}{:8d}{:8d}{:8d}{:8d}{:8d}{:8d}{:8d}\n", e++, 1,
                         node_id(i, j, k), node_id(i + 1, j, k), node_id(i + 1, j + 1, k),
                         node_id(i, j + 1, k), node_id(i, j, k + 1), node_id(i + 1, j, k + 1),
                         node_id(i + 1, j + 1, k + 1), node_id(i, j + 1, k + 1));
  // Flight along z with a deterministic perturbation of 1e-4 of the speed on every node: it
  // excites every mode (round-off alone does the same, more slowly).
  d += "*INITIAL_VELOCITY_NODE\n";
  for (int n = 1; n <= (kN + 1) * (kN + 1) * (kN + 1); ++n) {
    auto p = [&](int s) { return 0.5 * std::sin(1.7 * n + 2.3 * s); };
    d += fmt::format("{:10d}{:10.4f}{:10.4f}{:10.4f}\n", n, p(1), p(2), -kV + p(3));
  }
  return d + "*END\n";
}

struct Flight {
  bool normal = false;
  int cycles = 0;
  Real ke0 = 0;
  Real max_deformation = 0; ///< largest internal + hourglass energy over the run
  Real max_total_drift = 0; ///< largest |total - initial| over the run
};

Flight fly(Real tssfac, const std::string& tag) {
  Model model = read_deck_text(tag, ball_deck(tssfac, 4.0e-5));
  RunOptions opt = quiet_run(tag);
  Flight f;
  opt.on_cycle = [&](const Domain&, const GlobalStats& s) {
    if (f.ke0 == 0) f.ke0 = s.kinetic;
    f.max_deformation = std::max(f.max_deformation, s.internal + s.hourglass);
    f.max_total_drift = std::max(f.max_total_drift, std::abs(s.total - s.initial_total));
    return true;
  };
  const RunSummary sum = run_explicit(model, opt);
  f.normal = sum.normal_termination;
  f.cycles = sum.cycles;
  return f;
}

} // namespace

TEST(SolidStep, DistortedBallFliesStablyAtTheDefaultStepFactor) {
  const Flight f = fly(0.0, "step_ball"); // no *CONTROL_TIMESTEP: TSSFAC 0.9
  std::printf("TSSFAC 0.9: %d cycles, KE %.6e, largest internal + hourglass %.3e, drift %.3e\n",
              f.cycles, f.ke0, f.max_deformation, f.max_total_drift);
  ASSERT_TRUE(f.normal);
  ASSERT_GT(f.ke0, 0);
  // The perturbation's kinetic energy is ~1e-8 of the flight's; deformation energy of that
  // order stays; an instability grows past it by orders of magnitude.
  EXPECT_LT(f.max_deformation, 1e-7 * f.ke0);
  EXPECT_LT(f.max_total_drift, 1e-7 * f.ke0);
  // At the step V / A_max gives the corner elements (0.9 / 0.8 of this one) the ball is unstable.
  const Flight g = fly(0.9 / 0.8, "step_ball_faces");
  std::printf("step of V / A_max: %d cycles, largest internal + hourglass %.3e\n", g.cycles,
              g.max_deformation);
  EXPECT_TRUE(!g.normal || g.max_deformation > 1e-3 * g.ke0);
}
