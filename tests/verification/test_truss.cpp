// Trusses (*SECTION_BEAM ELFORM 3): an elastic bar made of a chain of trusses striking a rigid
// wall (wave speed c0 = sqrt(E/rho), stress plateau rho c0 v: ../shared/reference/README.md,
// "Elastic bar waves"), and a pendulum (a mass on a truss under gravity) against the small-angle
// period 2 pi sqrt(L/g), with energy conservation.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include <fmt/format.h>

#include "verification_util.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

constexpr double kE = 210000.0;  // MPa
constexpr double kRho = 7.85e-9; // t/mm^3
constexpr double kArea = 1.0;    // mm^2

/// A chain of n trusses from node 1 at p0 to node n+1 at p1 (part 1, section 1, material 1).
std::string truss_chain(int n, const double p0[3], const double p1[3]) {
  std::string d = "*NODE\n";
  for (int k = 0; k <= n; ++k) {
    const double s = static_cast<double>(k) / n;
    d += fmt::format("{:8d}{:16.8f}{:16.8f}{:16.8f}\n", k + 1, p0[0] + s * (p1[0] - p0[0]),
                     p0[1] + s * (p1[1] - p0[1]), p0[2] + s * (p1[2] - p0[2]));
  }
  d += "*ELEMENT_BEAM\n";
  for (int k = 0; k < n; ++k) d += fmt::format("{:8d}{:8d}{:8d}{:8d}\n", k + 1, 1, k + 1, k + 2);
  d += "*PART\ntruss\n         1         1         1\n";
  d += "*SECTION_BEAM\n$   secid    elform      shrf   qr/irid       cst\n"
       "         1         3       1.0         1         0\n";
  d += fmt::format("{:10.4f}\n", kArea);
  // nu = 0.3: a truss is uniaxial whatever nu (the 1-D bar speed is sqrt(E/rho) exactly)
  d += fmt::format("*MAT_ELASTIC\n         1{:10.3e}{:10.1f}       0.3\n", kRho, kE);
  return d;
}

} // namespace

TEST(TrussBar, StressPlateauAndWaveSpeedMatchOneDimensionalTheory) {
  constexpr double kL = 100.0; // mm
  constexpr double kV = 1.0e4; // mm/s
  constexpr int kN = 100;
  const double c0 = std::sqrt(kE / kRho);
  const double t_contact = 2 * kL / c0;
  const double p0[3] = {0, 0, 0}, p1[3] = {0, 0, kL};
  std::string d = "*KEYWORD\n*TITLE\ntruss bar on a rigid wall\n";
  d += fmt::format("*CONTROL_TERMINATION\n{:10.3e}\n", 1.3 * t_contact);
  d += truss_chain(kN, p0, p1);
  d += fmt::format("*INITIAL_VELOCITY_GENERATION\n         1         2       0.0       0.0"
                   "       0.0{:10.1f}\n       0.0       0.0       0.0       0.0       0.0"
                   "       0.0\n",
                   -kV);
  d += "*RIGIDWALL_PLANAR\n         0\n       0.0       0.0       0.0       0.0       0.0"
       "       1.0       0.0\n*END\n";
  Model model = read_deck_text("truss_bar", d);
  ASSERT_EQ(model.beams.size(), static_cast<std::size_t>(kN));
  RunOptions opt = quiet_run("truss_bar");
  std::vector<double> t, vz, sig_mid;
  opt.on_cycle = [&](const Domain& dom, const GlobalStats& s) {
    t.push_back(s.time);
    vz.push_back(s.vz);
    sig_mid.push_back(dom.trusses.at(0).blk.sig[kN / 2]);
    return true;
  };
  const RunSummary sum = run_explicit(model, opt);
  ASSERT_TRUE(sum.normal_termination) << sum.error;
  // The step is L_e / c0 (times TSSFAC 0.9): the truss's critical step.
  EXPECT_NEAR(sum.dt_initial, 0.9 * (kL / kN) / c0, 1e-9 * kL / c0);
  // Plateau at mid-bar between the arrival of the front (L / 2c0) and of the reflection from the
  // free end (3L / 2c0), middle 60 % of that window. 2 %: the lumped-mass chain rings around the
  // plateau (Gibbs) with a mean within a fraction of a percent; a wrong impedance or wave speed
  // moves it by tens of percent.
  const double sigma = kRho * c0 * kV;
  double acc = 0;
  int count = 0;
  for (std::size_t k = 0; k < t.size(); ++k)
    if (t[k] > 0.7 * kL / c0 && t[k] < 1.3 * kL / c0) {
      acc += -sig_mid[k];
      ++count;
    }
  ASSERT_GT(count, 10);
  EXPECT_NEAR(acc / count, sigma, 0.02 * sigma);
  // Constant wall force sigma A: the mean velocity goes linearly from -v to +v, through zero at
  // L / c0 (1.5 %: the front is smeared over a few elements, 1 % of the bar each).
  const auto zc = zero_crossings(t, vz);
  ASSERT_FALSE(zc.empty());
  EXPECT_NEAR(zc.front(), kL / c0, 0.015 * kL / c0);
  // Energy: kinetic + internal + wall work conserved (1 %, as for the solid bar).
  EXPECT_LT(sum.energy_error, 0.01);
}

// A pendulum: one truss from a fixed pivot (node 1) to node 2. The truss lumps rho A L / 2 on
// each node, so node 2 is a point mass on a massless rod of length L (the pivot's half does not
// move). Started hanging at rest with a horizontal velocity theta0 sqrt(g L).
TEST(TrussPendulum, PeriodIsTwoPiSqrtLOverGAndEnergyIsConserved) {
  constexpr double kL = 1000.0;    // mm
  constexpr double kG = 9810.0;    // mm/s^2
  constexpr double kTheta0 = 0.05; // amplitude (rad)
  const double period = 2 * std::numbers::pi * std::sqrt(kL / kG);
  const double v0 = kTheta0 * std::sqrt(kG * kL);
  const double p0[3] = {0, 0, 0}, p1[3] = {0, 0, -kL};
  std::string d = "*KEYWORD\n*TITLE\ntruss pendulum\n";
  d += fmt::format("*CONTROL_TERMINATION\n{:10.5f}\n", 1.3 * period);
  d += truss_chain(1, p0, p1);
  d += "*BOUNDARY_SPC_NODE\n         1         0         1         1         1\n";
  d += "*LOAD_BODY_Z\n         1    9810.0\n";
  d += "*DEFINE_CURVE\n         1\n                 0.0                 1.0\n"
       "               100.0                 1.0\n";
  d += fmt::format("*INITIAL_VELOCITY_NODE\n         2{:10.4f}       0.0       0.0\n*END\n", v0);
  Model model = read_deck_text("truss_pendulum", d);
  RunOptions opt = quiet_run("truss_pendulum");
  std::vector<double> t, x, stretch;
  opt.on_cycle = [&](const Domain& dom, const GlobalStats& s) {
    t.push_back(s.time);
    x.push_back(dom.x[3]); // node 2, x
    const double dx = dom.x[3], dz = dom.x[5];
    stretch.push_back(std::sqrt(dx * dx + dz * dz) - kL);
    return true;
  };
  const RunSummary sum = run_explicit(model, opt);
  ASSERT_TRUE(sum.normal_termination) << sum.error;
  // x(t) = theta0 L sin(2 pi t / T): zero crossings at T/2 and T. The finite amplitude lengthens
  // the period by theta0^2 / 16 = 1.6e-4; the static stretch of the rod (m g L / (E A) =
  // rho g L^2 / (2E) = 1.8e-4 mm, 1.8e-7 of L) and the central-difference period error
  // ((omega dt)^2 / 24, 1e-14 here) are far smaller. 5e-4 on the period: 3x the amplitude
  // correction. A rod force of the wrong sign or not along the rod gives no pendulum at all
  // (the mass falls away or drifts), and the stretch check below catches a soft rod.
  const auto zc = zero_crossings(t, x);
  ASSERT_GE(zc.size(), 2U);
  const double t_measured = zc[1];
  EXPECT_NEAR(t_measured, period * (1 + kTheta0 * kTheta0 / 16), 5e-4 * period);
  // Amplitude L sin(theta_max) = theta0 L (1 - theta0^2 / 8) (energy: v0^2 / 2 = g L (1 - cos
  // theta_max)); 1e-3 is 3x that correction.
  double amp = 0;
  for (double v : x) amp = std::max(amp, std::abs(v));
  EXPECT_NEAR(amp, kTheta0 * kL, 1e-3 * kTheta0 * kL);
  // The rod stays at its length: the stretch is the static m g L / (EA) plus the centripetal
  // part, both ~1e-4 mm; 1e-2 mm bounds it with room for the axial ringing of the release.
  for (double s : stretch) ASSERT_LT(std::abs(s), 1e-2);
  // Energy (kinetic + internal - work of gravity) conserved to 1e-3 of the kinetic energy
  // exchanged (the central-difference energy measured at half steps, and the axial ringing).
  EXPECT_LT(sum.energy_error, 1e-3);
}
