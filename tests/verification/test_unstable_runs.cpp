// A run that goes numerically unstable must stop with an error, never end "normally" with a
// blown-up state passed off as a result. A single free hexahedron (10 mm steel cube, nu = 0.3)
// is set breathing (every corner moving outwards): its dilatational mode has the highest
// frequency of the one-point element, omega^2 = (12 lambda + 8 mu) / (rho h^2), i.e. a critical
// step of 0.73 h / c, below the 1-D estimate h / c the step rule uses.
//  - At TSSFAC 1.5 the step exceeds every bound: the run must stop with an error (a node moves
//    farther in one step than the model is wide, or an element inverts), and never terminate
//    normally.
//  - At the default TSSFAC (0.9) the run either stays stable (energy ratio within 1e-3) or stops
//    with the same error: a normal termination with a broken energy balance fails the test.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include <fmt/format.h>

#include "verification_util.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

std::string breathing_cube(double tssfac) {
  std::string d = "*KEYWORD\n*CONTROL_TERMINATION\n1.0\n";
  d += fmt::format("*CONTROL_TIMESTEP\n0.0,{}\n", tssfac);
  d += "*PART\ncube\n1,1,1\n*SECTION_SOLID\n1,1\n*MAT_ELASTIC\n1,7.8e-6,210.0,0.3\n*NODE\n";
  const int xs[8] = {0, 1, 1, 0, 0, 1, 1, 0}, ys[8] = {0, 0, 1, 1, 0, 0, 1, 1},
            zs[8] = {0, 0, 0, 0, 1, 1, 1, 1};
  for (int a = 0; a < 8; ++a)
    d += fmt::format("{},{},{},{}\n", a + 1, 10 * xs[a], 10 * ys[a], 10 * zs[a]);
  d += "*ELEMENT_SOLID\n1,1,1,2,3,4,5,6,7,8\n*INITIAL_VELOCITY_NODE\n";
  for (int a = 0; a < 8; ++a)
    d += fmt::format("{},{},{},{}\n", a + 1, xs[a] ? 1e-3 : -1e-3, ys[a] ? 1e-3 : -1e-3,
                     zs[a] ? 1e-3 : -1e-3);
  return d + "*END\n";
}

} // namespace

TEST(UnstableRuns, ATooLargeStepStopsWithAnErrorNotANormalTermination) {
  Model model = read_deck_text("breathing15", breathing_cube(1.5));
  const RunSummary sum = run_explicit(model, quiet_run("breathing15"));
  std::printf("breathing cube at TSSFAC 1.5: %s after %d cycles: %s\n",
              sum.normal_termination ? "normal termination" : "error termination", sum.cycles,
              sum.error.c_str());
  EXPECT_FALSE(sum.normal_termination);
  EXPECT_TRUE(sum.error.find("numerically unstable") != std::string::npos ||
              sum.error.find("volume") != std::string::npos)
      << sum.error;
}

TEST(UnstableRuns, AtTheDefaultStepTheRunIsStableOrStopsWithTheError) {
  Model model = read_deck_text("breathing09", breathing_cube(0.9));
  const RunSummary sum = run_explicit(model, quiet_run("breathing09"));
  const double ratio = sum.final_stats.energy_ratio();
  std::printf("breathing cube at TSSFAC 0.9: %s after %d cycles, energy ratio %.6g: %s\n",
              sum.normal_termination ? "normal termination" : "error termination", sum.cycles,
              ratio, sum.error.c_str());
  if (sum.normal_termination)
    EXPECT_NEAR(ratio, 1.0, 1e-3);
  else
    EXPECT_TRUE(sum.error.find("numerically unstable") != std::string::npos ||
                sum.error.find("volume") != std::string::npos)
        << sum.error;
}
