// Integrated beams (*SECTION_BEAM ELFORM 1 and 9) through the explicit solver, against closed
// forms: the axial wave of a fixed-free bar (reflection at 2L/c), the static tip deflection of
// cantilevers (rectangular and circular) against Timoshenko's beam, the first bending frequency
// against Euler-Bernoulli, the plastic axial force sigma_y A of *MAT_SPOTWELD, a free-flying
// spinning beam (energy and angular momentum), the bolt pretension of
// *INITIAL_AXIAL_FORCE_BEAM (the force follows the curve, then is held), and *MAT_NULL beams
// (mass, no force). Units: mm, s, t, N, MPa.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

#include <fmt/format.h>

#include "verification_util.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

constexpr double kE = 210000.0;
constexpr double kNu = 0.3;
constexpr double kRho = 7.85e-9;
constexpr double kG = kE / (2 * (1 + kNu));

/// A chain of n beams along x from the origin to (len, 0, 0), nodes 1..n+1, orientation node
/// 1000 at (0, 100, 0) (s axis = y, t axis = z); part 1, section 1 (section_card2: card 2),
/// material text mat (id 1). With `orient` the elements are *ELEMENT_BEAM_ORIENTATION with N3
/// blank and that vector instead.
std::string beam_chain(int n, double len, int elform, int cst, int qr, double shrf, double ts,
                       double tt, const std::string& mat,
                       const std::array<double, 3>* orient = nullptr) {
  std::string d = "*NODE\n";
  for (int k = 0; k <= n; ++k)
    d += fmt::format("{:8d}{:16.8f}{:16.8f}{:16.8f}\n", k + 1, len * k / n, 0.0, 0.0);
  d += fmt::format("{:8d}{:16.8f}{:16.8f}{:16.8f}\n", 1000, 0.0, 100.0, 0.0);
  d += orient ? "*ELEMENT_BEAM_ORIENTATION\n" : "*ELEMENT_BEAM\n";
  for (int k = 0; k < n; ++k)
    if (orient)
      d += fmt::format("{:8d}{:8d}{:8d}{:8d}\n{:10.4f}{:10.4f}{:10.4f}\n", k + 1, 1, k + 1, k + 2,
                       (*orient)[0], (*orient)[1], (*orient)[2]);
    else
      d += fmt::format("{:8d}{:8d}{:8d}{:8d}{:8d}\n", k + 1, 1, k + 1, k + 2, 1000);
  d += "*PART\nbeams\n         1         1         1\n";
  d += fmt::format("*SECTION_BEAM\n         1{:10d}{:10.6f}{:10d}{:10d}\n{:10.4f}{:10.4f}{:10.4f}"
                   "{:10.4f}\n",
                   elform, shrf, qr, cst, ts, ts, tt, tt);
  d += mat;
  return d;
}

std::string elastic() {
  return fmt::format("*MAT_ELASTIC\n         1{:10.3e}{:10.1f}{:10.2f}\n", kRho, kE, kNu);
}

std::string fixed_node(int id) {
  return fmt::format("*BOUNDARY_SPC_NODE\n{:10d}         0         1         1         1         1"
                     "         1         1\n",
                     id);
}

} // namespace

// A fixed-free bar given a uniform axial velocity: the wave that stops it starts at the fixed end;
// when it reaches the free end (t = L/c) the tip's velocity turns from v to -v, and back at 3L/c
// (the bar's period 4L/c, first axial frequency c / 4L). The half period between the two
// reversals, 2L/c, within 0.5 % (the front's delay cancels in the difference; a wrong wave
// speed, mass or stiffness is off by far more); the first reversal within 3 % of L/c (the
// free end's velocity crosses zero one element transit, 2 % of L/c for 50 elements, after the
// front's arrival).
TEST(BeamVerification, AxialWaveHalfPeriodIsTwoLOverC) {
  constexpr double kL = 200.0, kV = 1000.0;
  constexpr int kN = 50;
  const double c = std::sqrt(kE / kRho);
  std::string d = "*KEYWORD\n*TITLE\naxial bar of beams\n";
  d += fmt::format("*CONTROL_TERMINATION\n{:10.4e}\n", 4.5 * kL / c);
  d += beam_chain(kN, kL, 1, 1, 2, 1.0, 10.0, 0.0, elastic()) + fixed_node(1);
  d += fmt::format("*INITIAL_VELOCITY_GENERATION\n         1         2       0.0{:10.1f}       0.0"
                   "       0.0\n       0.0       0.0       0.0       0.0       0.0       0.0\n",
                   kV);
  d += "*END\n";
  Model model = read_deck_text("beam_axial", d);
  RunOptions opt = quiet_run("beam_axial");
  std::vector<double> t, vtip;
  opt.on_cycle = [&](const Domain& dom, const GlobalStats& s) {
    t.push_back(s.time);
    vtip.push_back(dom.v[3 * kN]);
    return true;
  };
  const RunSummary sum = run_explicit(model, opt);
  ASSERT_TRUE(sum.normal_termination) << sum.error;
  const auto zc = zero_crossings(t, vtip);
  ASSERT_GE(zc.size(), 2u);
  fmt::print("beam axial wave: first reversal {:.4e} s (L/c {:.4e}), half period {:.4e} s "
             "(2L/c {:.4e})\n",
             zc[0], kL / c, zc[1] - zc[0], 2 * kL / c);
  EXPECT_NEAR(zc[0], kL / c, 0.03 * kL / c);
  EXPECT_NEAR(zc[1] - zc[0], 2 * kL / c, 0.005 * 2 * kL / c);
  EXPECT_LT(sum.energy_error, 0.01);
}

namespace {

struct Cantilever {
  int cst;
  double ts, tt, shrf;
  double area() const { return cst == 0 ? ts * tt : std::numbers::pi * ts * ts / 4; }
  /// second moment for deflection along y (bending about t = z: the depth is TS)
  double inertia() const {
    return cst == 0 ? tt * ts * ts * ts / 12 : std::numbers::pi * std::pow(ts, 4) / 64;
  }
};

/// Tip deflection along y of a clamped cantilever (length kL, n elements) under a tip force P
/// ramped over t_ramp and held; the mean over the hold (an integer number of first-mode
/// periods) and the samples.
double cantilever_tip(const Cantilever& c, double len, int n, double p, double t_ramp, double t_end,
                      double t_avg0, std::vector<double>* t_out, std::vector<double>* y_out,
                      const std::string& tag, const std::array<double, 3>* orient = nullptr) {
  std::string d = "*KEYWORD\n*TITLE\ncantilever of beams\n";
  d += fmt::format("*CONTROL_TERMINATION\n{:10.4e}\n", t_end);
  d += beam_chain(n, len, 1, c.cst, 2, c.shrf, c.ts, c.tt, elastic(), orient) + fixed_node(1);
  d += fmt::format("*LOAD_NODE_POINT\n{:10d}         2         1{:10.4f}\n", n + 1, p);
  d += fmt::format(
      "*DEFINE_CURVE\n         1\n{:20.6e}{:20.6e}\n{:20.6e}{:20.6e}\n{:20.6e}{:20.6e}\n", 0.0, 0.0,
      t_ramp, 1.0, 100.0, 1.0);
  d += "*END\n";
  Model model = read_deck_text(tag, d);
  RunOptions opt = quiet_run(tag);
  double acc = 0;
  long count = 0;
  opt.on_cycle = [&](const Domain& dom, const GlobalStats& s) {
    const double y = dom.x[3 * static_cast<std::size_t>(n) + 1];
    if (s.time >= t_avg0) {
      acc += y;
      ++count;
    }
    if (t_out) {
      t_out->push_back(s.time);
      y_out->push_back(y);
    }
    return true;
  };
  const RunSummary sum = run_explicit(model, opt);
  EXPECT_TRUE(sum.normal_termination) << sum.error;
  return count > 0 ? acc / count : 0.0;
}

} // namespace

// Static tip deflection of clamped cantilevers under a tip force, rectangular (CST 0, SHRF 5/6)
// and solid circular (CST 1, SHRF 1) sections: Timoshenko's P L^3 / (3 E I) + P L / (SHRF G A).
// The force is ramped over 10 first-mode periods and held; the deflection is averaged over the
// next 10 periods (the residual vibration, 1/(2 pi 10) of the static value at most, averages
// out over whole periods to well below 0.1 %). The one-point elements get the nodal rotations
// exactly and the deflection with an error L^3 P / (12 E I N^2) (trapezoidal rule on the
// quadratic rotation in each element): 1/(4 N^2) = 0.06 % for N = 20. Tolerance 0.5 %: a wrong
// second moment, shear area or moment arm is off by far more.
TEST(BeamVerification, CantileverTipDeflectionMatchesTimoshenko) {
  constexpr double kL = 100.0, kP = 10.0;
  constexpr int kN = 20;
  for (const Cantilever& c : {Cantilever{0, 5.0, 4.0, 5.0 / 6.0}, Cantilever{1, 6.0, 0.0, 1.0}}) {
    const double ei = kE * c.inertia();
    const double exact = kP * kL * kL * kL / (3 * ei) + kP * kL / (c.shrf * kG * c.area());
    const double f1 =
        1.8751 * 1.8751 / (2 * std::numbers::pi * kL * kL) * std::sqrt(ei / (kRho * c.area()));
    const double period = 1.0 / f1;
    const double tip = cantilever_tip(c, kL, kN, kP, 10 * period, 20 * period, 10 * period, nullptr,
                                      nullptr, fmt::format("beam_cantilever{}", c.cst));
    fmt::print("beam cantilever CST {}: tip {:.6f} mm, Timoshenko {:.6f} mm ({:+.3f} %)\n", c.cst,
               tip, exact, 100 * (tip / exact - 1));
    EXPECT_NEAR(tip / exact, 1.0, 0.005)
        << "CST " << c.cst << ": tip " << tip << " Timoshenko " << exact;
  }
}

// *ELEMENT_BEAM_ORIENTATION with N3 blank: the vector orients the section as N3 would. Along z
// it turns the rectangular section a quarter turn (s = z, t = -y): the tip force along y then
// bends it about s, over the depth TT, and the deflection is Timoshenko's with I = TS TT^3 / 12
// (the default axes, s = y, would give TT TS^3 / 12: 56 % less for TS/TT = 5/4). Same 0.5 %.
TEST(BeamVerification, OrientationVectorTurnsTheSection) {
  constexpr double kL = 100.0, kP = 10.0;
  constexpr int kN = 20;
  const Cantilever c{0, 5.0, 4.0, 5.0 / 6.0};
  const double ei = kE * c.ts * c.tt * c.tt * c.tt / 12; // bending about s = z ... over TT
  const double exact = kP * kL * kL * kL / (3 * ei) + kP * kL / (c.shrf * kG * c.area());
  const double f1 =
      1.8751 * 1.8751 / (2 * std::numbers::pi * kL * kL) * std::sqrt(ei / (kRho * c.area()));
  const std::array<double, 3> along_z{0.0, 0.0, 3.0};
  const double tip = cantilever_tip(c, kL, kN, kP, 10 / f1, 20 / f1, 10 / f1, nullptr, nullptr,
                                    "beam_orientation", &along_z);
  fmt::print("beam cantilever, orientation vector along z: tip {:.6f} mm, Timoshenko {:.6f} mm "
             "({:+.3f} %)\n",
             tip, exact, 100 * (tip / exact - 1));
  EXPECT_NEAR(tip / exact, 1.0, 0.005);
}

// First bending frequency of a clamped cantilever (rectangular, slender L/h = 25) against
// Euler-Bernoulli's f1 = 1.8751^2 / (2 pi L^2) sqrt(E I / (rho A)): the tip force applied at
// once (and held) sets the beam vibrating about the static deflection, mostly in the first mode;
// the period is the mean spacing of the up-crossings of the static value over 8 periods. 1.5 %:
// the one-point Timoshenko elements (N = 20), the shear and rotary inertia of the real beam
// (h/L = 0.04: 0.3 %), the scaled rotary inertia of the lumped masses (m L_e^2 / 4 per node:
// (1.875 / N)^2 / 8 = 0.1 %), and the higher modes' share of the crossings (a few 0.1 %).
TEST(BeamVerification, FirstBendingFrequencyMatchesEulerBernoulli) {
  constexpr double kL = 100.0, kP = 1.0;
  constexpr int kN = 20;
  const Cantilever c{0, 4.0, 4.0, 5.0 / 6.0};
  const double f1 = 1.8751 * 1.8751 / (2 * std::numbers::pi * kL * kL) *
                    std::sqrt(kE * c.inertia() / (kRho * c.area()));
  const double period = 1.0 / f1;
  std::vector<double> t, y;
  const double mean =
      cantilever_tip(c, kL, kN, kP, 1e-12, 8.5 * period, 0.0, &t, &y, "beam_frequency");
  std::vector<double> dy(y.size());
  for (std::size_t k = 0; k < y.size(); ++k) dy[k] = y[k] - mean;
  std::vector<double> up;
  for (std::size_t k = 1; k < dy.size(); ++k)
    if (dy[k - 1] < 0 && dy[k] >= 0)
      up.push_back(t[k - 1] + (t[k] - t[k - 1]) * (-dy[k - 1]) / (dy[k] - dy[k - 1]));
  ASSERT_GE(up.size(), 6u);
  const double measured = (up.back() - up.front()) / static_cast<double>(up.size() - 1);
  fmt::print("beam first bending frequency: {:.2f} Hz, Euler-Bernoulli {:.2f} Hz ({:+.3f} %)\n",
             1 / measured, f1, 100 * (period / measured - 1));
  EXPECT_NEAR(measured / period, 1.0, 0.015) << "period " << measured << " vs " << period;
}

// *MAT_SPOTWELD (100) on a spot weld beam (ELFORM 9), EH = 0: a bar pulled at a slow constant
// velocity (strain rate 5 /s; the force settles within a few wave transits) reaches the plastic
// axial force sigma_y A and stays there. 0.5 %: the stress wave's ringing about the plateau,
// sampled at the end of the run.
TEST(BeamVerification, SpotweldBeamYieldsAtSigmaYTimesArea) {
  constexpr double kL = 50.0, kSigy = 640.0;
  constexpr int kN = 5;
  const double area = std::numbers::pi * 100.0 / 4;
  std::string mat = fmt::format("*MAT_SPOTWELD\n         1{:10.3e}{:10.1f}{:10.2f}{:10.1f}       "
                                "0.0\n\n",
                                kRho, kE, kNu, kSigy);
  std::string d = "*KEYWORD\n*TITLE\nspot weld beam in tension\n";
  d += "*CONTROL_TERMINATION\n     0.004\n";
  d += beam_chain(kN, kL, 9, 1, 2, 1.0, 10.0, 0.0, mat) + fixed_node(1);
  d += fmt::format("*BOUNDARY_PRESCRIBED_MOTION_NODE\n{:10d}         1         0         2"
                   "       1.0\n",
                   kN + 1);
  d += "*DEFINE_CURVE\n         2\n                 0.0               250.0\n"
       "               100.0               250.0\n*END\n";
  Model model = read_deck_text("beam_spotweld", d);
  RunOptions opt = quiet_run("beam_spotweld");
  double force = 0;
  opt.on_cycle = [&](const Domain& dom, const GlobalStats&) {
    force = dom.beams.at(0).blk.res[0];
    return true;
  };
  const RunSummary sum = run_explicit(model, opt);
  ASSERT_TRUE(sum.normal_termination) << sum.error;
  fmt::print("spot weld beam: axial force {:.2f} N, sigma_y A {:.2f} N\n", force, kSigy * area);
  EXPECT_NEAR(force / (kSigy * area), 1.0, 0.005) << force;
}

// A free beam (chain of 10 elements, no supports) spinning about an axis through its centre
// normal to it, with a transverse velocity of its own: 3 turns. The central difference scheme
// conserves the angular momentum sum m x_n x v_(n+1/2) + J w (about the moving centre of mass)
// exactly when the element forces and moments balance about the current geometry: 1e-4 leaves
// room for round-off only (an unbalanced moment, or the rotary inertia left out, changes it by
// percents per turn). Energy (kinetic + internal) within 0.5 %: a missing frame update turns the
// spin into strain energy within a fraction of a turn.
TEST(BeamVerification, SpinningFreeBeamConservesEnergyAndAngularMomentum) {
  constexpr double kL = 100.0, kOmega = 2000.0; // rad/s: tip speed 1e5 mm/s
  constexpr int kN = 10;
  std::string d = "*KEYWORD\n*TITLE\nspinning beam\n";
  d += fmt::format("*CONTROL_TERMINATION\n{:10.4e}\n", 3 * 2 * std::numbers::pi / kOmega);
  std::string chain = beam_chain(kN, kL, 1, 0, 2, 5.0 / 6.0, 4.0, 3.0, elastic());
  d += chain;
  d += fmt::format("*INITIAL_VELOCITY_GENERATION\n         1         2{:10.1f}       0.0      "
                   "50.0       0.0\n{:10.1f}       0.0       0.0       0.0       0.0       1.0\n",
                   kOmega, kL / 2);
  d += "*END\n";
  Model model = read_deck_text("beam_spin", d);
  RunOptions opt = quiet_run("beam_spin");
  std::vector<double> lz, energy;
  opt.on_cycle = [&](const Domain& dom, const GlobalStats& s) {
    double m = 0, cx = 0, cy = 0, px = 0, py = 0, l = 0;
    for (std::size_t n = 0; n < dom.nnode; ++n) {
      m += dom.mass[n];
      cx += dom.mass[n] * dom.x[3 * n];
      cy += dom.mass[n] * dom.x[3 * n + 1];
      px += dom.mass[n] * dom.v[3 * n];
      py += dom.mass[n] * dom.v[3 * n + 1];
    }
    cx /= m;
    cy /= m;
    for (std::size_t n = 0; n < dom.nnode; ++n) {
      const double rx = dom.x[3 * n] - cx, ry = dom.x[3 * n + 1] - cy;
      l += dom.mass[n] * (rx * dom.v[3 * n + 1] - ry * dom.v[3 * n]) +
           dom.inertia[n] * dom.w[3 * n + 2];
    }
    lz.push_back(l);
    energy.push_back(s.kinetic + s.internal);
    (void)px;
    (void)py;
    return true;
  };
  const RunSummary sum = run_explicit(model, opt);
  ASSERT_TRUE(sum.normal_termination) << sum.error;
  ASSERT_GT(lz.size(), 100u);
  double dl = 0, de = 0;
  for (double l : lz) dl = std::max(dl, std::abs(l / lz.front() - 1));
  for (double e : energy) de = std::max(de, std::abs(e / energy.front() - 1));
  fmt::print("spinning beam: largest relative change of L_z {:.2e}, of the energy {:.2e}\n", dl,
             de);
  for (double l : lz) EXPECT_NEAR(l / lz.front(), 1.0, 1e-4);
  for (double e : energy) EXPECT_NEAR(e / energy.front(), 1.0, 0.005);
}

// *INITIAL_AXIAL_FORCE_BEAM: a bolt (ELFORM 9, *MAT_SPOTWELD, 10 mm) clamping a sleeve (a truss
// of area 200 mm^2 between the same nodes). The curve ramps the force to 28.8 kN over 2 ms and
// ends there. While it runs the bolt's axial force is the curve's value exactly (it is imposed);
// afterwards the bolt keeps the force it has: the sleeve holds it within 1 % (the residual
// vibration of the slow ramp), and the bolt's energy balances the sleeve's (total energy 0.5 %
// of the sleeve's strain energy).
TEST(BeamVerification, PretensionFollowsTheCurveAndIsHeld) {
  constexpr double kF = 28800.0, kRamp = 0.002;
  std::string d = "*KEYWORD\n*TITLE\nbolt and sleeve\n*CONTROL_TERMINATION\n     0.004\n";
  d += "*NODE\n       1             0.0             0.0             0.0\n"
       "       2             0.0             0.0            20.0\n"
       "       3            10.0             0.0             0.0\n";
  d += fixed_node(1);
  d += "*BOUNDARY_SPC_NODE\n         2         0         1         1         0         1"
       "         1         1\n";
  d += "*PART\nbolt\n         1         1         1\n"
       "*SECTION_BEAM\n         1         9       1.0         2         1\n      10.0      10.0\n";
  d += fmt::format("*MAT_SPOTWELD\n         1{:10.3e}{:10.1f}{:10.2f}     640.0    9500.0\n\n",
                   kRho, kE, kNu);
  d += "*PART\nsleeve\n         2         2         2\n"
       "*SECTION_BEAM\n         2         3\n     200.0\n";
  d += fmt::format("*MAT_ELASTIC\n         2{:10.3e}{:10.1f}{:10.2f}\n", kRho, kE, kNu);
  d +=
      "*ELEMENT_BEAM\n       1       1       1       2       3\n       2       2       1       2\n";
  d += "*INITIAL_AXIAL_FORCE_BEAM\n       100       100\n*SET_BEAM\n       100\n         1\n";
  d += fmt::format(
      "*DEFINE_CURVE\n       100         0{:10.4f}{:10.1f}\n"
      "                 0.0                 0.0\n                 1.0                 1.0\n",
      kRamp, kF);
  d += "*END\n";
  Model model = read_deck_text("beam_pretension", d);
  RunOptions opt = quiet_run("beam_pretension");
  double max_dev_ramp = 0, bolt_end = 0, sleeve_end = 0, total_end = 0, sleeve_ie = 0;
  opt.on_cycle = [&](const Domain& dom, const GlobalStats& s) {
    const double n = dom.beams.at(0).blk.res[0];
    if (s.time > 0 && s.time <= kRamp)
      max_dev_ramp = std::max(max_dev_ramp, std::abs(n - kF * s.time / kRamp));
    bolt_end = n;
    sleeve_end = dom.trusses.at(0).blk.force[0];
    sleeve_ie = dom.trusses.at(0).blk.e_int[0];
    total_end = s.kinetic + s.internal;
    return true;
  };
  const RunSummary sum = run_explicit(model, opt);
  ASSERT_TRUE(sum.normal_termination) << sum.error;
  fmt::print("pretension: largest deviation from the curve {:.2e} N; at the end bolt {:.1f} N, "
             "sleeve {:.1f} N (F {:.1f}); sleeve energy {:.2f} N mm, total {:.2e}\n",
             max_dev_ramp, bolt_end, sleeve_end, kF, sleeve_ie, total_end);
  EXPECT_LT(max_dev_ramp, 1e-9 * kF); // imposed exactly while the curve runs
  EXPECT_NEAR(bolt_end / kF, 1.0, 0.01);
  EXPECT_NEAR(-sleeve_end / kF, 1.0, 0.01);
  // sleeve energy F^2 L / (2 E A) = 197.5 N mm; the bolt's work balances it
  EXPECT_NEAR(sleeve_ie, kF * kF * 20.0 / (2 * kE * 200.0), 0.02 * 197.5);
  EXPECT_LT(std::abs(total_end), 0.005 * sleeve_ie);
}

// *MAT_NULL beams (LS-DYNA's contact beams): no equation of state needed, mass rho A L / 2 per
// node, and no force: a node pulled away at constant velocity keeps it, the resultants stay 0.
// (Null beams have no stiffness, hence no step limit: DTINIT gives the step.)
TEST(BeamVerification, NullBeamsCarryNoForce) {
  constexpr double kL = 40.0;
  constexpr int kN = 4;
  std::string mat = fmt::format("*MAT_NULL\n         1{:10.3e}                              "
                                "          {:10.1f}{:10.2f}\n",
                                kRho, kE, kNu);
  std::string d = "*KEYWORD\n*TITLE\nnull beams\n*CONTROL_TIMESTEP\n   1.0e-07\n"
                  "*CONTROL_TERMINATION\n    0.0001\n";
  d += beam_chain(kN, kL, 1, 1, 2, 1.0, 2.0, 0.0, mat) + fixed_node(1);
  d += fmt::format("*INITIAL_VELOCITY_NODE\n{:10d}    1000.0     500.0    -200.0\n", kN + 1);
  d += "*END\n";
  Model model = read_deck_text("beam_null", d);
  ASSERT_EQ(model.beams.size(), static_cast<std::size_t>(kN));
  RunOptions opt = quiet_run("beam_null");
  double vmax_dev = 0, rmax = 0, mass_tip = 0;
  opt.on_cycle = [&](const Domain& dom, const GlobalStats&) {
    const auto tip = static_cast<std::size_t>(kN);
    vmax_dev =
        std::max({vmax_dev, std::abs(dom.v[3 * tip] - 1000.0), std::abs(dom.v[3 * tip + 1] - 500.0),
                  std::abs(dom.v[3 * tip + 2] + 200.0)});
    for (double r : dom.beams.at(0).blk.res) rmax = std::max(rmax, std::abs(r));
    mass_tip = dom.mass[tip];
    return true;
  };
  const RunSummary sum = run_explicit(model, opt);
  ASSERT_TRUE(sum.normal_termination) << sum.error;
  EXPECT_EQ(vmax_dev, 0.0);
  EXPECT_EQ(rmax, 0.0);
  const double area = std::numbers::pi; // D = 2
  EXPECT_NEAR(mass_tip, kRho * area * (kL / kN) / 2, 1e-12 * kRho * area * kL);
}
