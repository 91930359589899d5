// Segment pressures in the explicit solver (*LOAD_SEGMENT, _SET, *LOAD_SHELL_ELEMENT, _SET),
// through the whole solver against closed forms:
//   - an open thin cylinder under internal pressure: hoop stress p R / t, radial displacement
//     u = p R^2 / (E t) (free ends: no axial stress);
//   - the same load written as shell loads on inward shells and as segment loads on outward
//     segments with SF < 0 gives the same run bit for bit (the sign convention);
//   - a free plate spinning about an in-plane axis under a constant pressure: a follower load
//     turns with the plate, so its impulse is p A (1 - cos wT) / w across and p A sin(wT) / w
//     along the first normal (a load fixed in space would give 0 and p A T);
//   - a free solid block pushed on one face: momentum p A T, and the work of the pressure is
//     the energy the block takes.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include <fmt/format.h>

#include "verification_util.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

constexpr double kE = 2.0e5, kNu = 0.3, kRho = 7.85e-9; // mm, t, s, MPa

std::string elastic_part(int pid, bool shell, double t) {
  std::string d = fmt::format("*PART\npart {}\n{:10d}{:10d}{:10d}\n", pid, pid, pid, pid);
  if (shell)
    d += fmt::format("*SECTION_SHELL\n{:10d}         2\n{:10.4f}{:10.4f}{:10.4f}{:10.4f}\n", pid, t,
                     t, t, t);
  else
    d += fmt::format("*SECTION_SOLID\n{:10d}         1\n", pid);
  d += fmt::format("*MAT_ELASTIC\n{:10d}{:10.3e}{:10.1f}{:10.2f}\n", pid, kRho, kE, kNu);
  return d;
}

// ------------------------------------------------------------------------------------------
// Open cylinder, radius R, length L, thickness t: n around, m along. inward: shell normals
// point into the cylinder.
constexpr double kR = 100.0, kL = 40.0, kT = 1.0, kP = 1.0;
constexpr int kAround = 48, kAlong = 4;

int cyl_node(int i, int j) {
  return 1 + (i % kAround) + kAround * j;
}

std::string cylinder_deck(const std::string& load, bool inward) {
  std::string d = "*KEYWORD\n*CONTROL_TERMINATION\n     0.003\n";
  d += elastic_part(1, true, kT);
  // ramp to p over 2 ms (about 17 breathing periods), then held
  d += "*DEFINE_CURVE\n         7\n0.0,0.0\n0.002,1.0\n1.0,1.0\n";
  d += "*NODE\n";
  for (int j = 0; j <= kAlong; ++j)
    for (int i = 0; i < kAround; ++i) {
      const double th = 2 * std::numbers::pi * i / kAround;
      d += fmt::format("{:8d}{:16.9f}{:16.9f}{:16.9f}\n", cyl_node(i, j), kR * std::cos(th),
                       kR * std::sin(th), kL * j / kAlong);
    }
  d += "*ELEMENT_SHELL\n";
  std::string segs = "*SET_SEGMENT\n         3\n";
  int eid = 0;
  for (int j = 0; j < kAlong; ++j)
    for (int i = 0; i < kAround; ++i) {
      // (theta, z) order: e_theta x e_z = e_r, the outward normal
      const int out[4] = {cyl_node(i, j), cyl_node(i + 1, j), cyl_node(i + 1, j + 1),
                          cyl_node(i, j + 1)};
      const int in[4] = {out[0], out[3], out[2], out[1]};
      const int* q = inward ? in : out;
      d += fmt::format("{:8d}{:8d}{:8d}{:8d}{:8d}{:8d}\n", ++eid, 1, q[0], q[1], q[2], q[3]);
      segs += fmt::format("{:10d}{:10d}{:10d}{:10d}\n", out[0], out[1], out[2], out[3]);
    }
  d += segs;
  d += "*SET_SHELL_GENERAL\n         4\nPART               1\n";
  return d + load + "*END\n";
}

/// Runs the deck to its end time (a failure otherwise) and returns the statistics of its last
/// cycle.
GlobalStats run_to_end(const std::string& tag, const std::string& deck) {
  Model model = read_deck_text(tag, deck);
  RunOptions opt = quiet_run(tag);
  opt.stats_every_cycle = true;
  GlobalStats last;
  opt.on_cycle = [&](const Domain&, const GlobalStats& st) {
    last = st;
    return true;
  };
  const RunSummary sum = run_explicit(model, opt);
  EXPECT_TRUE(sum.normal_termination) << sum.error;
  return last;
}

struct Cylinder {
  double mean_u = 0; ///< time-mean of the mean radial displacement after the ramp
  double last_u = 0;
  double energy_ratio = 0;
  double max_momentum = 0;
};

Cylinder run_cylinder(const std::string& tag, const std::string& deck) {
  Model model = read_deck_text(tag, deck);
  RunOptions opt = quiet_run(tag);
  opt.stats_every_cycle = true;
  Cylinder c;
  int samples = 0;
  opt.on_cycle = [&](const Domain& dom, const GlobalStats& st) {
    double u = 0;
    for (std::size_t n = 0; n < dom.nnode; ++n)
      u += std::hypot(dom.x[3 * n], dom.x[3 * n + 1]) - kR;
    u /= static_cast<double>(dom.nnode);
    c.last_u = u;
    if (st.time >= 0.002) {
      c.mean_u += u;
      ++samples;
    }
    c.max_momentum = std::max(c.max_momentum, st.mass * std::hypot(st.vx, st.vy, st.vz));
    c.energy_ratio = st.energy_ratio();
    return true;
  };
  const RunSummary sum = run_explicit(model, opt);
  EXPECT_TRUE(sum.normal_termination) << sum.error;
  c.mean_u /= std::max(samples, 1);
  return c;
}

} // namespace

// u = p R^2 / (E t) = 0.05 mm (hoop strain 5e-4). The 48-sided polygon differs from the circle
// in its chord by (pi/48)^2 / 6 = 7e-4; the breathing left after the 2 ms ramp is below 2 % of
// u and averages out over the last ms (8 periods): tolerance 1 % on the time mean. The pressure
// forces of a closed ring sum to zero: the momentum stays at round-off.
TEST(SegmentPressure, OpenCylinderHoopDisplacement) {
  const double u = kP * kR * kR / (kE * kT);
  const Cylinder shells =
      run_cylinder("press_cyl_shell", cylinder_deck(fmt::format("*LOAD_SHELL_SET\n"
                                                                "         4         7{:10.4f}\n",
                                                                kP),
                                                    true));
  std::printf("open cylinder: mean u %.6e (closed form %.6e, %.3f %%), energy ratio %.6f\n",
              shells.mean_u, u, 100 * (shells.mean_u - u) / u, shells.energy_ratio);
  EXPECT_NEAR(shells.mean_u, u, 0.01 * u);
  EXPECT_NEAR(shells.energy_ratio, 1.0, 1e-2);
  EXPECT_LT(shells.max_momentum, 1e-9 * kP * 2 * std::numbers::pi * kR * kL * 0.003);
  // The same pressure as segments of outward normal and SF < 0: the same forces bit for bit
  // (reversing a face's node order negates its area vector exactly).
  const Cylinder segs =
      run_cylinder("press_cyl_seg", cylinder_deck(fmt::format("*LOAD_SEGMENT_SET\n"
                                                              "         3         7{:10.4f}\n",
                                                              -kP),
                                                  true));
  EXPECT_EQ(segs.last_u, shells.last_u);
  EXPECT_EQ(segs.mean_u, shells.mean_u);
}

// A 20 x 20 mm plate spinning at w = 1000 rad/s about the x axis, pressure p on its shells for
// a quarter turn (T = pi / (2 w)). The normal turns from +z towards -y and the load acts
// against it: P_y = p A (1 - cos wT) / w, P_z = -p A sin(wT) / w. The load is applied at x^n on the
// step: O(w dt) = 1e-3 errors; tolerance 1 % of p A / w. A load fixed in space would give P_y = 0.
TEST(SegmentPressure, FollowerLoadTurnsWithASpinningPlate) {
  constexpr double w = 1000.0, p = 0.5, side = 20.0;
  const double tend = std::numbers::pi / (2 * w);
  std::string d = "*KEYWORD\n";
  d += fmt::format("*CONTROL_TERMINATION\n{:10.4e}\n", tend);
  d += elastic_part(1, true, 1.0);
  d += "*DEFINE_CURVE\n         7\n0.0,1.0\n1.0,1.0\n";
  d += "*NODE\n";
  constexpr int n = 4;
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i)
      d += fmt::format("{:8d}{:16.9f}{:16.9f}{:16.9f}\n", 1 + i + (n + 1) * j,
                       -side / 2 + side * i / n, -side / 2 + side * j / n, 0.0);
  d += "*ELEMENT_SHELL\n";
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const int a = 1 + i + (n + 1) * j;
      d += fmt::format("{:8d}{:8d}{:8d}{:8d}{:8d}{:8d}\n", 1 + i + n * j, 1, a, a + 1, a + n + 2,
                       a + n + 1);
    }
  d += "*SET_SHELL_GENERAL\n         4\nPART               1\n";
  d += fmt::format("*LOAD_SHELL_SET\n         4         7{:10.4f}\n", p);
  d += fmt::format("*INITIAL_VELOCITY_GENERATION\n         1         2{:10.4f}\n"
                   "       0.0       0.0       0.0       1.0       0.0       0.0\n",
                   w);
  d += "*END\n";
  const GlobalStats last = run_to_end("press_spin", d);
  const double area = side * side, scale = p * area / w;
  const double py = last.mass * last.vy, pz = last.mass * last.vz;
  // the velocities of the last cycle are those of its half step: the angle there is w (t - dt/2)
  const double th = w * (last.time - 0.5 * last.dt);
  const double py_exact = scale * (1 - std::cos(th)), pz_exact = -scale * std::sin(th);
  std::printf("spinning plate: P_y %.6e (follower %.6e), P_z %.6e (%.6e); p A / w %.6e\n", py,
              py_exact, pz, pz_exact, scale);
  EXPECT_NEAR(py, py_exact, 0.01 * scale);
  EXPECT_NEAR(pz, pz_exact, 0.01 * scale);
}

// A free 10 x 10 x 20 mm block (2 x 2 x 4 hexahedra) pushed by p = 10 MPa on its z = 0 face for
// 200 us (270 cycles), the face given by *LOAD_SEGMENT cards on its four quadrilaterals (outward
// normal -z, so positive p pushes +z). Momentum p A T: the face's area changes by the lateral
// strain nu p / E ~ 1.5e-5, tolerance 1e-4. The pressure's work is the energy the block takes
// (kinetic + internal; the half-step staggering of the kinetic energy of a body accelerated
// for n cycles is O(1/n): tolerance 1e-3, measured 3e-5).
TEST(SegmentPressure, FreeBlockTakesTheImpulseAndTheWork) {
  constexpr double p = 10.0, a = 10.0, h = 20.0, tend = 2.0e-4;
  std::string d = "*KEYWORD\n";
  d += fmt::format("*CONTROL_TERMINATION\n{:10.4e}\n", tend);
  d += elastic_part(1, false, 0);
  d += "*DEFINE_CURVE\n         7\n0.0,1.0\n1.0,1.0\n";
  d += "*NODE\n";
  auto id = [](int i, int j, int k) { return 1 + i + 3 * j + 9 * k; };
  for (int k = 0; k <= 4; ++k)
    for (int j = 0; j <= 2; ++j)
      for (int i = 0; i <= 2; ++i)
        d += fmt::format("{:8d}{:16.9f}{:16.9f}{:16.9f}\n", id(i, j, k), a * i / 2, a * j / 2,
                         h * k / 4);
  d += "*ELEMENT_SOLID\n";
  int eid = 0;
  for (int k = 0; k < 4; ++k)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 2; ++i)
        d += fmt::format("{:8d}{:8d}{:8d}{:8d}{:8d}{:8d}{:8d}{:8d}{:8d}{:8d}\n", ++eid, 1,
                         id(i, j, k), id(i + 1, j, k), id(i + 1, j + 1, k), id(i, j + 1, k),
                         id(i, j, k + 1), id(i + 1, j, k + 1), id(i + 1, j + 1, k + 1),
                         id(i, j + 1, k + 1));
  d += "*LOAD_SEGMENT\n";
  for (int j = 0; j < 2; ++j)
    for (int i = 0; i < 2; ++i) // (y, x) order: e_y x e_x = -e_z, outward on z = 0
      d += fmt::format("         7{:10.4f}       0.0{:10d}{:10d}{:10d}{:10d}\n", p, id(i, j, 0),
                       id(i, j + 1, 0), id(i + 1, j + 1, 0), id(i + 1, j, 0));
  d += "*END\n";
  const GlobalStats last = run_to_end("press_block", d);
  const double pz = last.mass * last.vz;
  const double exact = p * a * a * (last.time - 0.5 * last.dt); // velocities at the half step
  std::printf("free block: %d cycles, dt %.4e, P_z %.8e (p A T %.8e, %.2e), energy ratio %.6f\n",
              last.cycle, last.dt, pz, exact, (pz - exact) / exact, last.energy_ratio());
  EXPECT_NEAR(pz, exact, 1e-4 * exact);
  EXPECT_LT(std::abs(last.mass * last.vx) + std::abs(last.mass * last.vy), 1e-9 * exact);
  EXPECT_NEAR(last.energy_ratio(), 1.0, 1e-3);
  EXPECT_GT(last.external_work, 0.0);
}

// A tetrahedron (written as LS-DYNA writes it: N1 N2 N3 N4 N4 N4 N4 N4) pushed on its face
// 1-3-4, which is none of the faces of that node list read as a hexahedron: the reader
// finds the triangle, and the free element takes the impulse p A t along the face's inward
// normal (20 cycles: 1e-4 of it, the face turning with the element's strain).
TEST(SegmentPressure, TetrahedronFacesTakePressure) {
  constexpr double p = 5.0;
  std::string d = "*KEYWORD\n*CONTROL_TERMINATION\n 2.000e-06\n";
  d += elastic_part(1, false, 0);
  d += "*NODE\n       1             0.0             0.0             0.0\n"
       "       2            10.0             0.0             0.0\n"
       "       3             0.0            10.0             0.0\n"
       "       4             0.0             0.0            10.0\n";
  d += "*ELEMENT_SOLID\n       1       1       1       2       3       4       4       4       4"
       "       4\n";
  d += "*DEFINE_CURVE\n         7\n0.0,1.0\n1.0,1.0\n";
  // face 1-3-4 is the x = 0 plane; node order 1 4 3: normal (x4 - x1) x (x3 - x1) = -x, the
  // outward normal: positive pressure pushes +x
  d += fmt::format("*LOAD_SEGMENT\n         7{:10.4f}       0.0         1         4         3\n"
                   "*END\n",
                   p);
  const GlobalStats last = run_to_end("press_tet", d);
  const double area = 0.5 * 10 * 10, t = last.time - 0.5 * last.dt;
  std::printf("tetrahedron face: P_x %.8e (p A t %.8e)\n", last.mass * last.vx, p * area * t);
  EXPECT_NEAR(last.mass * last.vx, p * area * t, 1e-4 * p * area * t);
  EXPECT_NEAR(last.mass * last.vy, 0.0, 1e-4 * p * area * t);
}
