// *MAT_MOONEY-RIVLIN_RUBBER (027) through the whole solver: a one-element uniaxial
// tension/compression path against the incompressible closed form, a spinning rubber cube
// (large rotation and stretch, no contact) that must conserve energy, and the public
// bouncing-ball deck (../shared/decks, skipped when absent).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include <fmt/format.h>

#include "verification_util.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

constexpr double kA = 0.54, kB = 0.0475; // MPa (the ball deck's constants in mm, s, t units)

/// Cauchy stress of incompressible uniaxial tension/compression with stretch l:
/// sigma = lambda P, P = 2(l - l^-2)(A + B/l).
double incompressible_uniaxial(double l) {
  return l * 2 * (l - 1 / (l * l)) * (kA + kB / l);
}

} // namespace

// A unit cube on rollers (three symmetry faces), the top face pulled to stretch 1.5, then
// pushed to 0.7, over 0.02 s: about 600 transits of the slowest (shear) wave, so inertia is
// negligible. PR = 0.499: the material-point error of the compressible law against the
// incompressible closed form is below 0.3% (G/K = 2e-3, tests/materials/test_mat027.cpp);
// tolerance 1% of the stress plus 0.002 MPa.
TEST(Rubber, OneElementUniaxialFollowsIncompressibleMooneyRivlin) {
  std::string d = "*KEYWORD\n*CONTROL_TERMINATION\n      0.02\n";
  d += "*PART\ncube\n         1         1         1\n*SECTION_SOLID\n         1         1\n";
  d += fmt::format("*MAT_MOONEY-RIVLIN_RUBBER\n         1    1.0e-9     0.499{:10.4f}{:10.4f}\n",
                   kA, kB);
  d += hex_block_cards(1, 1, 1, 1.0, 1.0, 1.0, 1);
  d += node_set_card(1, {1, 3, 5, 7});
  d += node_set_card(2, {1, 2, 5, 6});
  d += node_set_card(3, {1, 2, 3, 4});
  d += node_set_card(4, {5, 6, 7, 8});
  d += "*BOUNDARY_SPC_SET\n         1         0         1\n"
       "         2         0         0         1\n"
       "         3         0         0         0         1\n";
  d += "*BOUNDARY_PRESCRIBED_MOTION_SET\n         4         3         2         1       1.0\n";
  // u(t): 0 -> 0.5 -> -0.3 with zero velocity at the ends of each leg (sin^2 ramps, 200 points
  // each), so that the load starts without a velocity jump: a jump dv rings the nearly
  // incompressible element at rho c dv (0.04 MPa for 50 mm/s, 7% of the stress at 10% strain).
  d += "*DEFINE_CURVE\n         1\n";
  for (int leg = 0; leg < 2; ++leg)
    for (int k = leg; k <= 200; ++k) {
      const double t = 0.01 * (leg + k / 200.0);
      const double w = std::pow(std::sin(0.5 * M_PI * k / 200.0), 2);
      const double u = leg == 0 ? 0.5 * w : 0.5 - 0.8 * w;
      d += fmt::format("{:20.10e}{:20.10e}\n", t, u);
    }
  d += "*END\n";
  Model model = read_deck_text("rubber_uniaxial", d);
  RunOptions opt = quiet_run("rubber_uniaxial");
  const LocalId top = model.node_index(8);
  double worst = 0, lmin = 1, lmax = 1;
  int samples = 0;
  opt.on_cycle = [&](const Domain& dom, const GlobalStats&) {
    const double l = dom.x[3 * top + 2];
    const double s = dom.solids[0].blk.sig[2];
    const double ref = incompressible_uniaxial(l);
    const double err = std::abs(s - ref);
    worst = std::max(worst, err / (0.01 * std::abs(ref) + 0.002));
    lmin = std::min(lmin, l);
    lmax = std::max(lmax, l);
    ++samples;
    EXPECT_LT(err, 0.01 * std::abs(ref) + 0.002) << "stretch " << l;
    return err < 0.01 * std::abs(ref) + 0.002 + 1.0; // stop a hopeless run early
  };
  const RunSummary sum = run_explicit(model, opt);
  ASSERT_TRUE(sum.normal_termination) << sum.error;
  EXPECT_GT(lmax, 1.49);
  EXPECT_LT(lmin, 0.71);
  std::printf("%d samples, stretch %.3f..%.3f, worst error %.2f of the tolerance\n", samples, lmin,
              lmax, worst);
}

// A 12 mm rubber cube (6^3 elements, deck units mm, ms, kg, GPa) spun about its vertical axis
// at 3 rad/ms (rim speed 18 mm/ms, half the shear wave speed): the corners move out by ~4%
// (peak stored energy ~6% of the kinetic) and it turns through ~2 revolutions in 4 ms. No contact,
// no plasticity: the total energy (kinetic + stored + hourglass) must stay constant. Measured ratio
// 1 - 3e-5; tolerance 1e-3. TSSFAC 0.6: with PR = 0.49 and the step V/A_max, a free cube of regular
// hexahedra is unstable at 0.9 for *MAT_ELASTIC as well (see the report), a time-step question
// outside *MAT_027.
TEST(Rubber, SpinningCubeConservesEnergy) {
  std::string d = "*KEYWORD\n*CONTROL_TERMINATION\n       4.0\n";
  d += "*CONTROL_TIMESTEP\n       0.0       0.6\n";
  d += "*PART\ncube\n         1         1         1\n*SECTION_SOLID\n         1         1\n";
  d += "*MAT_MOONEY-RIVLIN_RUBBER\n         1   9.20E-7      0.49   5.40E-4   4.75E-5       0.0\n";
  d += hex_block_cards(6, 6, 6, 12.0, 12.0, 12.0, 1);
  d += "*INITIAL_VELOCITY_GENERATION\n"
       "         1         2       3.0       0.0       0.0       0.0         0         0\n"
       "       6.0       6.0       6.0       0.0       0.0       1.0         0         0\n";
  d += "*END\n";
  Model model = read_deck_text("rubber_spin", d);
  RunOptions opt = quiet_run("rubber_spin");
  double max_internal = 0, e0 = 0, max_radius = 0;
  opt.on_cycle = [&](const Domain& dom, const GlobalStats& s) {
    if (e0 == 0) e0 = s.kinetic;
    max_internal = std::max(max_internal, s.internal);
    for (std::size_t n = 0; n < dom.x.size() / 3; ++n)
      max_radius = std::max(max_radius, std::hypot(dom.x[3 * n] - 6.0, dom.x[3 * n + 1] - 6.0));
    return true;
  };
  const RunSummary sum = run_explicit(model, opt);
  ASSERT_TRUE(sum.normal_termination) << sum.error;
  std::printf("energy error %.2e, peak internal energy %.2f%% of the initial kinetic, corner "
              "radius %.2f mm (initially %.2f)\n",
              sum.energy_error, 100 * max_internal / e0, max_radius, 6 * std::sqrt(2.0));
  EXPECT_GT(max_radius, 1.03 * 6 * std::sqrt(2.0)); // a large deformation, not a rigid spin
  EXPECT_GT(max_internal, 0.02 * e0);
  EXPECT_LT(sum.energy_error, 1e-3);
}

// The public deck: a rubber ball (875 hexahedra, PR = 0.49) dropped at 30 mm/ms onto a
// stonewall. Measured: energy ratio 1.0047 (the wall's energy accounting on impact; an elastic
// cube bouncing on a stonewall shows 1-2% with *MAT_ELASTIC too), rebound at 21 mm/ms (hourglass
// and wall losses). Tolerances: ratio within 1%, the ball comes back up at 15-30 mm/ms.
TEST(Rubber, PublicBouncingBallDeck) {
  const auto path =
      source_dir().parent_path() / "shared" / "decks" / "rubber_ball_rigidwall" / "bouncyball_v2.k";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " not present";
  Model model = read_deck(path.string());
  RunOptions opt = quiet_run("rubber_ball");
  opt.write_d3plot = false;
  const RunSummary sum = run_explicit(model, opt);
  ASSERT_TRUE(sum.normal_termination) << sum.error;
  std::printf("bouncing ball: energy error %.3f%%, final vy %.2f\n", 100 * sum.energy_error,
              sum.final_stats.vy);
  EXPECT_LT(sum.energy_error, 0.01);
  EXPECT_GT(sum.final_stats.vy, 15.0);
  EXPECT_LT(sum.final_stats.vy, 30.0);
}
