// *INITIAL_STRESS_SOLID through the explicit solver: a free bar of hexahedra (nu = 0, so that
// uniaxial stress is uniaxial strain and the wave speed is c = sqrt(E / rho) exactly) released
// from a uniform compression S. The release waves start at the free ends: behind them the
// stress is 0 and the material moves outward at v = |S| / (rho c) (the jump conditions across
// the front), which is also where the stored energy S^2 / (2E) per volume turns into kinetic
// energy. Checked: the end nodes' velocity over the plateau (after the front's first elements,
// before the waves from the two ends meet) within 2 % (the one-point elements smear the front
// over a few elements; its overshoot averages out over the window); the energy balance: the
// internal energy counts from 0 at the initial state, so at the end (t = 0.45 L/c, the stored
// energy mostly kinetic) kinetic + internal + hourglass is 0 to 1 % of the kinetic energy (the
// first cycles' half-step offset between kinetic and internal energy is larger while the release
// starts, as in any central-difference run started from a loaded state); the middle element's
// first-cycle stress is S (the elements start from it).
#include <gtest/gtest.h>

#include <cmath>

#include <fmt/format.h>

#include "verification_util.hpp"

using namespace parcae;
using namespace parcae::test;

TEST(InitialStress, ReleasedBarEndsMoveAtSOverRhoC) {
  constexpr int kN = 40;
  constexpr double kL = 0.4, kA = 0.01, kE = 200e9, kRho = 7850, kS = -100e6;
  const double c = std::sqrt(kE / kRho), transit = kL / c;
  std::string d = "*KEYWORD\n*TITLE\nreleased bar\n";
  d += fmt::format("*CONTROL_TERMINATION\n{:10.4e}\n", 0.45 * transit);
  d += hex_block_cards(kN, 1, 1, kL, kA, kA, 1);
  d += "*PART\nbar\n         1         1         1\n*SECTION_SOLID\n         1         1\n";
  d += fmt::format("*MAT_ELASTIC\n         1{:10.1f}{:10.3e}       0.0\n", kRho, kE);
  d += "*SET_SOLID_GENERAL\n         5\nALL\n";
  d += fmt::format("*INITIAL_STRESS_SOLID_SET\n         5         1\n{:10.3e}       0.0       "
                   "0.0       0.0       0.0       0.0       0.0\n*END\n",
                   kS);
  Model model = read_deck_text("initial_stress_bar", d);
  ASSERT_EQ(model.initial_stresses.size(), static_cast<std::size_t>(kN));
  RunOptions opt = quiet_run("initial_stress_bar");
  // node kN (x = L, y = z = 0) is the right end's first corner
  const std::size_t end = static_cast<std::size_t>(model.node_index(kN + 1));
  double acc = 0, first_sig = 0;
  GlobalStats last;
  long count = 0;
  bool first = true;
  opt.on_cycle = [&](const Domain& dom, const GlobalStats& s) {
    if (first) { // the middle element: the release waves have not reached it
      const SolidPart& part = dom.solids.at(0);
      for (std::size_t k = 0; k < part.elem_id.size(); ++k)
        if (part.elem_id[k] == kN / 2) first_sig = part.blk.sig[6 * k];
      first = false;
    }
    last = s;
    if (s.time >= 0.15 * transit && s.time <= 0.4 * transit) {
      acc += dom.v[3 * end];
      ++count;
    }
    return true;
  };
  const RunSummary sum = run_explicit(model, opt);
  ASSERT_TRUE(sum.normal_termination) << sum.error;
  ASSERT_GT(count, 10);
  const double v = acc / static_cast<double>(count), expect = -kS / (kRho * c);
  fmt::print("released bar at t = {:.3e}: KE {:.4e} IE {:.4e} HG {:.4e} total {:.4e}\n", last.time,
             last.kinetic, last.internal, last.hourglass, last.total);
  fmt::print("released bar: end velocity {:.5f} m/s, |S|/(rho c) {:.5f} m/s ({:+.2f} %)\n", v,
             expect, 100 * (v / expect - 1));
  EXPECT_NEAR(v / expect, 1.0, 0.02);
  EXPECT_LT(std::abs(last.total), 0.01 * last.kinetic);
  // by t = 0.45 L/c the waves from both ends have released 90 % of the bar: 90 % of the stored
  // energy S^2 / (2E) V is kinetic (3 %: the smeared fronts)
  const double stored = kS * kS / (2 * kE) * kL * kA * kA;
  EXPECT_NEAR(last.kinetic / (0.9 * stored), 1.0, 0.03);
  EXPECT_NEAR(first_sig, kS, 0.01 * std::abs(kS)) << "the elements start from S";
}

namespace {

/// A strip of n shells (length len, width wd, thickness 1 mm) along the in-plane direction at
/// angle deg from x, *MAT_ELASTIC with nu = 0, every shell starting from the global stress of a
/// uniaxial stress s along the strip (*INITIAL_STRESS_SHELL_SET, one point at T = 0); returns
/// the far end's velocity along the strip averaged over 0.15-0.4 L/c.
double released_strip_end_speed(double deg, int n, double len, double wd, double e, double rho,
                                double s) {
  const double th = deg * 3.14159265358979323846 / 180, c = std::cos(th), sn = std::sin(th);
  const double wave = std::sqrt(e / rho), transit = len / wave;
  std::string d = "*KEYWORD\n*TITLE\nreleased strip\n";
  d += fmt::format("*CONTROL_TERMINATION\n{:10.4e}\n*NODE\n", 0.45 * transit);
  for (int j = 0; j < 2; ++j)
    for (int i = 0; i <= n; ++i) {
      const double x = len * i / n, y = wd * j;
      d += fmt::format("{:8d}{:16.9g}{:16.9g}{:16.9g}\n", 1 + i + (n + 1) * j, c * x - sn * y,
                       sn * x + c * y, 0.0);
    }
  d += "*ELEMENT_SHELL\n";
  for (int i = 0; i < n; ++i)
    d += fmt::format("{:8d}{:8d}{:8d}{:8d}{:8d}{:8d}\n", i + 1, 1, 1 + i, 2 + i, 2 + i + n + 1,
                     1 + i + n + 1);
  d += "*PART\nstrip\n         1         1         1\n*SECTION_SHELL\n         1         2"
       "       0.0         3\n     0.001     0.001     0.001     0.001\n";
  d += fmt::format("*MAT_ELASTIC\n         1{:10.1f}{:10.3e}       0.0\n", rho, e);
  d += "*SET_SHELL_GENERAL\n         5\nALL\n";
  d += fmt::format("*INITIAL_STRESS_SHELL_SET\n         5         1         1\n       0.0{:10.4g}"
                   "{:10.4g}       0.0{:10.4g}       0.0       0.0       0.0\n*END\n",
                   s * c * c, s * sn * sn, s * c * sn);
  Model model = read_deck_text("initial_stress_strip", d);
  EXPECT_EQ(model.initial_shell_stresses.size(), static_cast<std::size_t>(n));
  RunOptions opt = quiet_run("initial_stress_strip");
  const std::size_t end = static_cast<std::size_t>(model.node_index(n + 1));
  double acc = 0;
  long count = 0;
  opt.on_cycle = [&](const Domain& dom, const GlobalStats& st) {
    if (st.time >= 0.15 * transit && st.time <= 0.4 * transit) {
      acc += c * dom.v[3 * end] + sn * dom.v[3 * end + 1];
      ++count;
    }
    return true;
  };
  const RunSummary sum = run_explicit(model, opt);
  EXPECT_TRUE(sum.normal_termination) << sum.error;
  return count > 0 ? acc / static_cast<double>(count) : 0.0;
}

} // namespace

// *INITIAL_STRESS_SHELL: a strip of shells released from a uniaxial compression S along it, the
// strip along x and turned 30 degrees in the plane (the global stress then has xx, yy and xy
// components, turned into each element's frame): the far end moves at |S| / (rho c), c the bar
// speed sqrt(E / rho) (nu = 0), within 2 % in both.
TEST(InitialStress, ReleasedShellStripEndMovesAtSOverRhoCAtAnyAngle) {
  constexpr double kE = 200e9, kRho = 7850, kS = -100e6;
  const double expect = -kS / (kRho * std::sqrt(kE / kRho));
  for (double deg : {0.0, 30.0}) {
    const double v = released_strip_end_speed(deg, 40, 0.4, 0.01, kE, kRho, kS);
    fmt::print("released shell strip at {} degrees: end speed {:.5f} m/s, |S|/(rho c) {:.5f} "
               "({:+.2f} %)\n",
               deg, v, expect, 100 * (v / expect - 1));
    EXPECT_NEAR(v / expect, 1.0, 0.02) << deg;
  }
}
