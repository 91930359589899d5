// *BOUNDARY_PRESCRIBED_MOTION DOF 9, 10, 11: nodes rotated about an axis parallel to x, y, z
// through (OFFSET1, OFFSET2). Closed forms: a frame whose every node is prescribed turns
// rigidly, so each node keeps its distance from the axis and turns by exactly theta(t); the
// motion along the axis stays free; outside [BIRTH, DEATH] the nodes move freely; the work of
// the constraint balances the kinetic energy.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>

#include <fmt/format.h>

#include "input/keyword_reader.hpp"
#include "solvers/explicit/solver.hpp"
#include "test_support.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kEnd = 1.0e-4; // s (mm, t, s, MPa units)
// The scale factors as written in the decks' 10-column fields (the expected angles use them).
constexpr double kHalfPi7 = 1.5707963, kPi7 = 3.1415927;

Model deck(const std::string& tag, const std::string& body) {
  const auto dir = make_temp_dir(tag);
  write_file(dir / "deck.k", "*KEYWORD\n" + body + "*END\n");
  return read_deck((dir / "deck.k").string());
}

// A 2 x 2 x 2 mm lattice of 27 nodes (spacing 1 mm) joined by steel trusses along x, y and z
// (*SECTION_BEAM ELFORM 3), every node in set 5, with an initial velocity. Trusses only resist
// a change of length, which a rigid rotation of all their nodes about one axis does not make:
// the frame carries no force while it is turned (a block of hexahedra would: its one-point
// strain rate sees a spurious O(dtheta^2) strain per step under large rotation increments).
std::string block(double vx, double vy, double vz) {
  std::string s =
      fmt::format("*CONTROL_TERMINATION\n{:10.3e}\n*CONTROL_TIMESTEP\n              0.6\n"
                  "*PART\nframe\n         1         1         1\n*SECTION_BEAM\n"
                  "         1         3       1.0         1         0\n       1.0\n"
                  "*MAT_ELASTIC\n         1 7.850e-09  210000.0       0.3\n*NODE\n",
                  kEnd);
  auto id = [](int i, int j, int k) { return 1 + i + 3 * j + 9 * k; };
  for (int k = 0; k < 3; ++k)
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 3; ++i)
        s += fmt::format("{:8d}{:16.6f}{:16.6f}{:16.6f}\n", id(i, j, k), 1.0 * i, 1.0 * j, 1.0 * k);
  s += "*ELEMENT_BEAM\n";
  int e = 1;
  for (int k = 0; k < 3; ++k)
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 3; ++i) {
        if (i < 2) s += fmt::format("{:8d}{:8d}{:8d}{:8d}\n", e++, 1, id(i, j, k), id(i + 1, j, k));
        if (j < 2) s += fmt::format("{:8d}{:8d}{:8d}{:8d}\n", e++, 1, id(i, j, k), id(i, j + 1, k));
        if (k < 2) s += fmt::format("{:8d}{:8d}{:8d}{:8d}\n", e++, 1, id(i, j, k), id(i, j, k + 1));
      }
  s += fmt::format("*SET_NODE_GENERAL\n         5\nALL\n"
                   "*INITIAL_VELOCITY\n         0\n{:10.1f}{:10.1f}{:10.1f}\n",
                   vx, vy, vz);
  return s;
}

// Curve 1: 0 at t = 0 rising linearly to 1 at t = kEnd (then constant).
const std::string kRamp = fmt::format("*DEFINE_CURVE\n         1\n                 0.0"
                                      "                 0.0\n{:20.6e}                 1.0\n",
                                      kEnd);

RunOptions options(const std::string& tag) {
  RunOptions opt;
  opt.outdir = make_temp_dir(tag).string();
  opt.write_vtk = false;
  opt.write_glstat = false;
  opt.stats_every_cycle = true;
  return opt;
}

} // namespace

TEST(PrescribedRotation, Dof9To11KeepTheRadiusAndReachTheExactAngle) {
  // theta(t) = pi/2 t / kEnd about the axis through (OFFSET1, OFFSET2) = (y, z), (z, x), (x, y)
  // for DOF 9, 10, 11 (right-handed: the angle of (u1, u2) = (p_i1 - OFFSET1, p_i2 - OFFSET2)
  // grows by theta). Every node is prescribed: a rigid rotation, so the distance from the axis
  // is that at t = 0 up to the round-off of the steps (~1e-16 per cycle, < 1e-13 over the ~700
  // cycles: checked to 1e-12), the final angle is pi/2 (the curve is constant from kEnd on; the
  // increments telescope: 1e-12), and the axial velocity (500 mm/s, no force along the axis)
  // stays what it was (1e-9 mm over the run: round-off only).
  for (int dof : {9, 10, 11}) {
    SCOPED_TRACE(fmt::format("DOF {}", dof));
    const int ax = dof - 9, i1 = (ax + 1) % 3, i2 = (ax + 2) % 3;
    const double off1 = 5.0, off2 = -3.0;
    double v0[3] = {0, 0, 0};
    v0[ax] = 500.0;
    const Model m = deck(
        "pmrot", block(v0[0], v0[1], v0[2]) + kRamp + "*BOUNDARY_PRESCRIBED_MOTION_SET\n" +
                     fmt::format("         5{:10d}         2         1{:10.7f}\n", dof, kHalfPi7) +
                     fmt::format("{:10.1f}{:10.1f}\n", off1, off2));
    ASSERT_EQ(m.motions.size(), 1u);
    RunOptions opt = options("pmrot_run");
    double radius_err = 0, axial_err = 0, t_last = 0, work = 0, ke = 0, ie = 0;
    std::vector<double> angle_err;
    opt.on_cycle = [&](const Domain& d, const GlobalStats& s) {
      t_last = s.time;
      work = s.external_work;
      ke = s.kinetic;
      ie = s.internal + s.hourglass;
      double worst_angle = 0;
      for (std::size_t n = 0; n < d.nnode; ++n) {
        const double* x = &d.x[3 * n];
        const double* x0 = &d.x0[3 * n];
        const double r = std::hypot(x[i1] - off1, x[i2] - off2);
        const double r0 = std::hypot(x0[i1] - off1, x0[i2] - off2);
        radius_err = std::max(radius_err, std::abs(r - r0) / r0);
        axial_err = std::max(axial_err, std::abs(x[ax] - x0[ax] - 500.0 * s.time));
        double dphi =
            std::atan2(x[i2] - off2, x[i1] - off1) - std::atan2(x0[i2] - off2, x0[i1] - off1);
        while (dphi < -kPi) dphi += 2 * kPi;
        while (dphi > kPi) dphi -= 2 * kPi;
        const double theta = kHalfPi7 * std::min(s.time / kEnd, 1.0);
        worst_angle = std::max(worst_angle, std::abs(dphi - theta));
      }
      angle_err.push_back(worst_angle);
      return true;
    };
    const RunSummary sum = run_explicit(m, opt);
    ASSERT_TRUE(sum.normal_termination) << sum.error;
    EXPECT_GE(t_last, kEnd);
    EXPECT_LT(radius_err, 1e-12);
    EXPECT_LT(axial_err, 1e-9);
    ASSERT_FALSE(angle_err.empty());
    EXPECT_LT(angle_err.back(), 1e-12); // the exact end angle
    // during the ramp, positions are those at the end of each step (theta of that time)
    for (double e : angle_err) EXPECT_LT(e, 1e-10);
    // The constraint's work is the kinetic energy gained (the frame is not strained: internal
    // energy stays at round-off). KE0 = 1/2 m 500^2 with m = 54 trusses x 1 mm x 1 mm^2 x rho.
    const double mass = 54.0 * 7.85e-9;
    const double ke0 = 0.5 * mass * 500.0 * 500.0;
    EXPECT_LT(std::abs(ie), 1e-9 * ke);
    EXPECT_NEAR(ke - ke0, work, 1e-9 * ke) << "energy balance";
  }
}

TEST(PrescribedRotation, FreeOutsideBirthAndDeathAndMeasuredFromBirth) {
  // DOF 11 about z through (x, y) = (1, 1) (the frame's centre line) with BIRTH = kEnd/4 and
  // DEATH = 3 kEnd/4, VAD 2, the ramp curve scaled to pi: the curve is read from BIRTH on
  // (theta(t) = pi (t - BIRTH) / kEnd), and the nodes turn from where they are at BIRTH.
  //  - before BIRTH the frame moves freely at its initial velocity (100, 0, 300) mm/s: x = x0 +
  //    v t exactly (no force on an unstrained frame);
  //  - during [BIRTH, DEATH] each node's angle about the axis is its angle at BIRTH + theta(t),
  //    its distance from the axis that at BIRTH (1e-12), z free (300 mm/s, 1e-9 mm);
  //  - after DEATH it moves freely: no external force, so the momentum stays what it was at
  //    DEATH (exact sums of the free nodal forces: 1e-9 relative).
  const double tb = 0.25 * kEnd, td = 0.75 * kEnd;
  const Model m =
      deck("pmrotbd", block(100.0, 0.0, 300.0) + kRamp + "*BOUNDARY_PRESCRIBED_MOTION_SET\n" +
                          fmt::format("         5        11         2         1"
                                      "{:10.7f}         0{:10.3e}{:10.3e}\n",
                                      kPi7, td, tb) +
                          "       1.0       1.0\n");
  RunOptions opt = options("pmrotbd_run");
  double free_err = 0, radius_err = 0, angle_err = 0, axial_err = 0;
  std::vector<double> xb, mom_after;
  double mom_death = std::nan("");
  bool birth_seen = false;
  opt.on_cycle = [&](const Domain& d, const GlobalStats& s) {
    const double t = s.time;
    if (t <= tb) { // the cycle that ends at or before BIRTH: free
      for (std::size_t n = 0; n < d.nnode; ++n)
        free_err = std::max(free_err, std::abs(d.x[3 * n] - d.x0[3 * n] - 100.0 * t));
      xb = d.x;
      return true;
    }
    if (!birth_seen) birth_seen = true;
    if (t <= td) {
      // The step that straddles BIRTH starts from the positions of the last free cycle (xb) and
      // turns them by theta(t1) - theta(BIRTH): from then on each node's angle about the axis
      // is its angle in xb + theta(t) and its radius that in xb, to round-off (the increments
      // telescope; 1e-12).
      for (std::size_t n = 0; n < d.nnode; ++n)
        axial_err = std::max(axial_err, std::abs(d.x[3 * n + 2] - d.x0[3 * n + 2] - 300.0 * t));
      for (std::size_t n = 0; n < d.nnode; ++n) {
        const double ux = d.x[3 * n] - 1.0, uy = d.x[3 * n + 1] - 1.0;
        const double bx = xb[3 * n] - 1.0, by = xb[3 * n + 1] - 1.0;
        const double r = std::hypot(ux, uy), rb = std::hypot(bx, by);
        if (rb < 1e-9) continue; // on the axis
        double dphi = std::atan2(uy, ux) - std::atan2(by, bx);
        while (dphi < -kPi) dphi += 2 * kPi;
        while (dphi > kPi) dphi -= 2 * kPi;
        radius_err = std::max(radius_err, std::abs(r - rb));
        angle_err = std::max(angle_err, std::abs(dphi - kPi7 * (t - tb) / kEnd));
      }
      return true;
    }
    // after DEATH: momentum constant
    double p[3] = {0, 0, 0};
    for (std::size_t n = 0; n < d.nnode; ++n)
      for (int i = 0; i < 3; ++i) p[i] += d.mass[n] * d.v[3 * n + i];
    const double pn = std::hypot(p[0], p[1], p[2]);
    if (std::isnan(mom_death)) mom_death = pn;
    mom_after.push_back(pn);
    return true;
  };
  const RunSummary sum = run_explicit(m, opt);
  ASSERT_TRUE(sum.normal_termination) << sum.error;
  EXPECT_TRUE(birth_seen);
  EXPECT_LT(free_err, 1e-12);
  EXPECT_LT(radius_err, 1e-12);
  EXPECT_LT(angle_err, 1e-12);
  EXPECT_LT(axial_err, 1e-9);
  ASSERT_GT(mom_after.size(), 10u);
  for (double p : mom_after) EXPECT_NEAR(p, mom_death, 1e-9 * mom_death);
}

TEST(PrescribedRotation, AngularVelocityAndAccelerationCurves) {
  // DOF 11 about (x, y) = (5, -3): VAD 0 with a constant angular velocity w (the angle w t) and
  // VAD 1 with a constant angular acceleration a from rest (the angle a t^2 / 2). Central
  // differences are exact for both (the step is constant: trusses of fixed length), so the
  // angle at the end is exact to round-off of the steps (1e-9 rad, with the angular velocity
  // recovered each step from the node's last move); the radius is kept (1e-12).
  // the rates as the 10-column fields hold them
  const double w = std::stod(fmt::format("{:10.4e}", kHalfPi7 / kEnd));
  const double a = std::stod(fmt::format("{:10.4e}", 2 * kHalfPi7 / (kEnd * kEnd)));
  for (int vad : {0, 1}) {
    SCOPED_TRACE(fmt::format("VAD {}", vad));
    const Model m =
        deck("pmrotva", block(0.0, 0.0, 0.0) +
                            "*DEFINE_CURVE\n         2\n                 0.0"
                            "                 1.0\n                 1.0"
                            "                 1.0\n"
                            "*BOUNDARY_PRESCRIBED_MOTION_SET\n" +
                            fmt::format("         5        11{:10d}         2{:10.4e}\n", vad,
                                        vad == 0 ? w : a) +
                            "       5.0      -3.0\n");
    RunOptions opt = options("pmrotva_run");
    double radius_err = 0, angle_err = 0, t_last = 0;
    opt.on_cycle = [&](const Domain& d, const GlobalStats& s) {
      t_last = s.time;
      const double theta = vad == 0 ? w * s.time : 0.5 * a * s.time * s.time;
      angle_err = 0;
      for (std::size_t n = 0; n < d.nnode; ++n) {
        const double* x = &d.x[3 * n];
        const double* x0 = &d.x0[3 * n];
        const double r = std::hypot(x[0] - 5.0, x[1] + 3.0);
        const double r0 = std::hypot(x0[0] - 5.0, x0[1] + 3.0);
        radius_err = std::max(radius_err, std::abs(r - r0) / r0);
        double dphi = std::atan2(x[1] + 3.0, x[0] - 5.0) - std::atan2(x0[1] + 3.0, x0[0] - 5.0);
        while (dphi < -kPi) dphi += 2 * kPi;
        while (dphi > kPi) dphi -= 2 * kPi;
        angle_err = std::max(angle_err, std::abs(dphi - theta));
      }
      return true;
    };
    const RunSummary sum = run_explicit(m, opt);
    ASSERT_TRUE(sum.normal_termination) << sum.error;
    EXPECT_GE(t_last, kEnd);
    EXPECT_LT(radius_err, 1e-12);
    EXPECT_LT(angle_err, 1e-9);
  }
}
