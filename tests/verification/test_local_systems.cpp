// Cards that take a local coordinate system (CID) or a box (BOXID), through the whole solver:
//   - *BOUNDARY_SPC_SET with a skewed CID: a cube held on a frictionless 30-degree incline
//     (its normal fixed) slides down under gravity at g sin(theta), never leaving the plane;
//   - *LOAD_NODE_SET and *LOAD_BODY_X with a CID: the impulse is along the local axis;
//   - *LOAD_RIGID_BODY: a rigid cube takes F T / M along the (local) axis, a moment about its
//     centre spins it at M T / I, and the loads' work is its kinetic energy;
//   - *RIGIDWALL_PLANAR with a BOXID: only the cube inside the box is stopped.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <numbers>

#include <fmt/format.h>

#include "verification_util.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

constexpr double kE = 210000.0, kRho = 7.85e-9;
const double kDeg = std::numbers::pi / 180;

std::string cube_part(int pid, const std::string& material) {
  return fmt::format("*PART\ncube {}\n{:10d}         1{:10d}\n", pid, pid, pid) +
         "*SECTION_SOLID\n         1         1\n" +
         fmt::format("*{}\n{:10d}{:10.3e}{:10.1f}       0.3\n", material, pid, kRho, kE);
}

/// *DEFINE_COORDINATE_VECTOR: local x along (xx, yx, zx), x-y plane through (xv, yv, zv).
std::string vector_system(int cid, std::array<double, 3> x, std::array<double, 3> v) {
  // free format: the full precision of the directions (the tests compare to round-off)
  return fmt::format(
      "*DEFINE_COORDINATE_VECTOR\n{},{:.17g},{:.17g},{:.17g},{:.17g},{:.17g},{:.17g}\n", cid, x[0],
      x[1], x[2], v[0], v[1], v[2]);
}

struct Last {
  GlobalStats st;
  std::vector<double> x;
  RunSummary sum;
};

Last run(const std::string& tag, const std::string& deck,
         const std::function<void(const Domain&)>& each = {}) {
  Model model = read_deck_text(tag, deck);
  RunOptions opt = quiet_run(tag);
  opt.stats_every_cycle = true;
  Last last;
  opt.on_cycle = [&](const Domain& dom, const GlobalStats& st) {
    last.st = st;
    last.x = dom.x;
    if (each) each(dom);
    return true;
  };
  last.sum = run_explicit(model, opt);
  EXPECT_TRUE(last.sum.normal_termination) << last.sum.error;
  return last;
}

std::vector<long> all_nodes() {
  std::vector<long> ids(27);
  for (long k = 0; k < 27; ++k) ids[static_cast<std::size_t>(k)] = k + 1;
  return ids;
}

} // namespace

// A cube of 2 x 2 x 2 hexahedra (one free hexahedron is not stable at TSSFAC 0.9: its
// dilatation mode has omega = sqrt(12 K / rho) / L = 2.73 c / L at nu = 0.3, above the
// 2 / (0.9 L / c) of the step): every node's velocity along the incline's normal
// n = (0, -sin, cos) is removed; gravity
// (*LOAD_BODY_Z, g = 9810 mm/s^2) has g_t = g - (g.n) n along the incline, |g_t| = g sin(30).
// Uniform load, lumped masses: the cube translates as a rigid body, so its momentum after T
// (velocities at T - dt/2) is M g_t (T - dt/2) to round-off (tolerance 1e-9), with no normal
// component; the constraint does no work: kinetic energy = gravity's work (1e-6).
TEST(LocalSystems, SkewConstraintSlidesDownAFrictionlessIncline) {
  const double th = 30 * kDeg, g = 9810.0, tend = 1e-3;
  std::string d = "*KEYWORD\n";
  d += fmt::format("*CONTROL_TERMINATION\n{:10.3e}\n", tend);
  d += cube_part(1, "MAT_ELASTIC");
  d += hex_block_cards(2, 2, 2, 1.0, 1.0, 1.0, 1);
  d += vector_system(5, {1, 0, 0}, {0, std::cos(th), std::sin(th)});
  d += node_set_card(1, all_nodes());
  d += "*BOUNDARY_SPC_SET\n         1         5         0         0         1\n";
  d += fmt::format("*LOAD_BODY_Z\n         7{:10.1f}\n", g);
  d += "*DEFINE_CURVE\n         7\n0.0,1.0\n1.0,1.0\n*END\n";
  const Last r = run("skew_incline", d);
  const double t = r.st.time - 0.5 * r.st.dt;
  const std::array<double, 3> n{0, -std::sin(th), std::cos(th)};
  const std::array<double, 3> gv{0, 0, -g};
  const double gn = gv[2] * n[2];
  const std::array<double, 3> gt{0, -gn * n[1], gv[2] - gn * n[2]};
  const std::array<double, 3> v{r.st.vx, r.st.vy, r.st.vz};
  std::printf("incline: v (%.9e, %.9e, %.9e), expected (0, %.9e, %.9e); |g_t| / g = %.6f\n", v[0],
              v[1], v[2], gt[1] * t, gt[2] * t, std::hypot(gt[1], gt[2]) / g);
  EXPECT_NEAR(std::hypot(gt[1], gt[2]), g * std::sin(th), 1e-9 * g);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(v[i], gt[i] * t, 1e-9 * g * t);
  EXPECT_NEAR(v[1] * n[1] + v[2] * n[2], 0.0, 1e-12 * g * t);
  EXPECT_NEAR(r.st.energy_ratio(), 1.0, 1e-6);
}

// Loads along the x axis of a system turned 30 degrees about z, on a free cube of 2 x 2 x 2
// hexahedra: F on each of its 27 nodes (*LOAD_NODE_SET DOF 1) and a body acceleration a
// (*LOAD_BODY_X) against it. Momentum (27 F - M a)(T - dt/2) along (cos 30, sin 30, 0) to
// round-off.
TEST(LocalSystems, NodalAndBodyLoadsAlongALocalAxis) {
  const double th = 30 * kDeg, f = 2.0, a = 1e8, tend = 1e-4;
  std::string d = "*KEYWORD\n";
  d += fmt::format("*CONTROL_TERMINATION\n{:10.3e}\n", tend);
  d += cube_part(1, "MAT_ELASTIC");
  d += hex_block_cards(2, 2, 2, 1.0, 1.0, 1.0, 1);
  d += vector_system(5, {std::cos(th), std::sin(th), 0}, {-std::sin(th), std::cos(th), 0});
  d += node_set_card(1, all_nodes());
  d += fmt::format("*LOAD_NODE_SET\n         1         1         7{:10.4f}         5\n", f);
  d += fmt::format("*LOAD_BODY_X\n         7{:10.3e}{:40}         5\n", a, ""); // CID 5
  d += "*DEFINE_CURVE\n         7\n0.0,1.0\n1.0,1.0\n*END\n";
  const Last r = run("local_loads", d);
  const double t = r.st.time - 0.5 * r.st.dt;
  const double m = r.st.mass;        // 7.85e-9 t
  const double net = 27 * f - m * a; // LS-DYNA's body load is the inertial -m a
  const std::array<double, 3> p{m * r.st.vx, m * r.st.vy, m * r.st.vz};
  std::printf("local loads: P (%.9e, %.9e, %.9e), expected %.9e along (%.4f, %.4f, 0)\n", p[0],
              p[1], p[2], net * t, std::cos(th), std::sin(th));
  EXPECT_NEAR(p[0], net * t * std::cos(th), 1e-9 * std::abs(net) * t);
  EXPECT_NEAR(p[1], net * t * std::sin(th), 1e-9 * std::abs(net) * t);
  EXPECT_NEAR(p[2], 0.0, 1e-12 * std::abs(net) * t);
}

// A rigid cube (*MAT_RIGID) with *LOAD_RIGID_BODY: a force along the local x axis of a system
// turned 30 degrees about z and a moment about the local z axis (= global z). v = F t / M along
// (cos 30, sin 30, 0), omega_z = Mz t / I_zz with the body's own inertia (t: the half step
// after the last force), to round-off; the loads' work is the body's kinetic energy (1e-9).
TEST(LocalSystems, RigidBodyLoadsAtTheCentreOfMass) {
  const double th = 30 * kDeg, force = 3.0, moment = 0.7, tend = 1e-4;
  std::string d = "*KEYWORD\n";
  d += fmt::format("*CONTROL_TERMINATION\n{:10.3e}\n*CONTROL_TIMESTEP\n{:10.3e}\n", tend, 1e-6);
  d += cube_part(1, "MAT_RIGID");
  d += hex_block_cards(1, 1, 1, 1.0, 1.0, 1.0, 1);
  d += vector_system(5, {std::cos(th), std::sin(th), 0}, {-std::sin(th), std::cos(th), 0});
  d += fmt::format("*LOAD_RIGID_BODY\n         1         1         7{:10.4f}         5\n"
                   "         1         7         7{:10.4f}         5\n",
                   force, moment);
  d += "*DEFINE_CURVE\n         7\n0.0,1.0\n1.0,1.0\n*END\n";
  RigidBody body;
  const Last r = run("rigid_loads", d, [&](const Domain& dom) { body = dom.bodies.at(0); });
  const double t = r.st.time - 0.5 * r.st.dt;
  const double izz = body.inertia0[8];
  std::printf("rigid loads: v (%.9e, %.9e, %.9e) vs F t / M %.9e; omega_z %.9e vs %.9e (I_zz "
              "%.4e, M %.4e)\n",
              body.v[0], body.v[1], body.v[2], force * t / body.mass, body.omega[2],
              moment * t / izz, izz, body.mass);
  EXPECT_NEAR(body.v[0], force * t / body.mass * std::cos(th), 1e-9 * force * t / body.mass);
  EXPECT_NEAR(body.v[1], force * t / body.mass * std::sin(th), 1e-9 * force * t / body.mass);
  EXPECT_NEAR(body.v[2], 0.0, 1e-12 * force * t / body.mass);
  EXPECT_NEAR(body.omega[2], moment * t / izz, 1e-9 * moment * t / izz);
  EXPECT_NEAR(r.st.energy_ratio(), 1.0, 1e-9);
  EXPECT_GT(r.st.external_work, 0.0);
}

// Two cubes (2 x 2 x 2 hexahedra each) move at 1000 mm/s towards a stonewall at x = 0; the wall's
// BOXID holds only the first (y < 5). The first stops at the wall (its x stays >= 0 less the step's
// overshoot), the second passes through it to x = 1 - 1000 T < 0.
TEST(LocalSystems, RigidWallTakesOnlyTheNodesInItsBox) {
  const double v = 1000.0, tend = 3e-3;
  std::string d = "*KEYWORD\n";
  d += fmt::format("*CONTROL_TERMINATION\n{:10.3e}\n", tend);
  d += cube_part(1, "MAT_ELASTIC");
  d += hex_block_cards(2, 2, 2, 1.0, 1.0, 1.0, 1, 1, 1, 1.0, 0.0, 0.0);
  d += hex_block_cards(2, 2, 2, 1.0, 1.0, 1.0, 1, 101, 101, 1.0, 10.0, 0.0);
  d += fmt::format("*INITIAL_VELOCITY\n         0\n{:10.1f}\n", -v);
  d += "*DEFINE_BOX\n         3     -10.0      10.0      -1.0       5.0     -10.0      10.0\n";
  d += "*RIGIDWALL_PLANAR\n         0         0         3\n"
       "       0.0       0.0       0.0       1.0       0.0       0.0\n*END\n";
  const Last r = run("wall_box", d);
  double min_a = 1e9, min_b = 1e9;
  for (std::size_t n = 0; n < r.x.size() / 3; ++n)
    (r.x[3 * n + 1] < 5 ? min_a : min_b) = std::min(r.x[3 * n + 1] < 5 ? min_a : min_b, r.x[3 * n]);
  std::printf("wall box: cube in the box down to x = %.4e, the other to %.4e\n", min_a, min_b);
  EXPECT_GT(min_a, -1e-3);
  EXPECT_NEAR(min_b, 1.0 - v * tend, 1e-6);
}
