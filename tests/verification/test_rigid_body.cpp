// Rigid body in free flight: linear and angular momentum are conserved (no external force or
// moment), kinetic energy is conserved, and the centre of mass moves in a straight line.
#include <gtest/gtest.h>

#include <cmath>

#include <fmt/format.h>

#include "verification_util.hpp"

using namespace parcae;
using namespace parcae::test;

TEST(RigidBody, FreeFlightConservesMomentumAndAngularMomentum) {
  // An asymmetric block (4 x 2 x 1 mm, so three distinct principal moments) spinning about an
  // axis that is not principal: the angular velocity precesses while L stays fixed.
  std::string d = "*KEYWORD\n";
  d += "*CONTROL_TERMINATION\n    2.0e-3\n";
  d += "*CONTROL_TIMESTEP\n    1.0e-6       0.9\n";
  d += "*PART\nrigid block\n         1         1         1\n";
  d += "*SECTION_SOLID\n         1         1\n";
  d += "*MAT_RIGID\n         1   7.85e-9  210000.0       0.3\n";
  d += hex_block_cards(4, 2, 1, 4.0, 2.0, 1.0, 1);
  d += "*INITIAL_VELOCITY_GENERATION\n"
       "         1         2    2000.0     100.0     -50.0      30.0\n"
       "       2.0       1.0       0.5       1.0       2.0       3.0\n";
  d += "*END\n";
  Model model = read_deck_text("rigid", d);
  RunOptions opt = quiet_run("rigid");
  std::array<Real, 3> l0{}, p0{}, x0{};
  std::array<Real, 3> w0{}, w1{};
  Real ke0 = 0, max_dl = 0, max_dp = 0, max_dke = 0, max_dx = 0;
  bool first = true;
  opt.on_cycle = [&](const Domain& dom, const GlobalStats& s) {
    const RigidBody& b = dom.bodies.at(0);
    if (first) {
      w0 = b.omega;
      l0 = b.l;
      p0 = {b.mass * b.v[0], b.mass * b.v[1], b.mass * b.v[2]};
      x0 = {b.xc[0] - s.time * b.v[0], b.xc[1] - s.time * b.v[1], b.xc[2] - s.time * b.v[2]};
      ke0 = s.kinetic;
      first = false;
    }
    w1 = b.omega;
    for (int i = 0; i < 3; ++i) {
      max_dl = std::max(max_dl, std::abs(b.l[i] - l0[i]));
      max_dp = std::max(max_dp, std::abs(b.mass * b.v[i] - p0[i]));
      max_dx = std::max(max_dx, std::abs(b.xc[i] - (x0[i] + s.time * p0[i] / b.mass)));
    }
    max_dke = std::max(max_dke, std::abs(s.kinetic - ke0));
    return true;
  };
  const RunSummary sum = run_explicit(model, opt);
  ASSERT_TRUE(sum.normal_termination) << sum.error;
  ASSERT_GT(sum.cycles, 1000);
  const Real lnorm = std::sqrt(l0[0] * l0[0] + l0[1] * l0[1] + l0[2] * l0[2]);
  const Real pnorm = std::sqrt(p0[0] * p0[0] + p0[1] * p0[1] + p0[2] * p0[2]);
  // Momentum and angular momentum are the integrator's state and change only by applied
  // forces and moments: conserved to round-off (1e-12 relative over 2000 steps).
  EXPECT_LT(max_dl, 1e-12 * lnorm);
  EXPECT_LT(max_dp, 1e-12 * pnorm);
  EXPECT_LT(max_dx, 1e-9);
  // The body turns ~4 rad about a non-principal axis; omega = I(t)^-1 L with the exponential
  // map: the rotational kinetic energy 0.5 omega.L drifts only by O(omega dt)^2 ~ 1e-6.
  EXPECT_LT(max_dke, 1e-4 * ke0);
  // And omega did change direction (the test really exercised precession): > 1 degree.
  const Real c = (w0[0] * w1[0] + w0[1] * w1[1] + w0[2] * w1[2]) /
                 std::sqrt((w0[0] * w0[0] + w0[1] * w0[1] + w0[2] * w0[2]) *
                           (w1[0] * w1[0] + w1[1] * w1[1] + w1[2] * w1[2]));
  EXPECT_LT(c, std::cos(1.0 * M_PI / 180.0));
}

namespace {

/// The 4 x 2 x 1 mm rigid block (mesh mass 6.28e-8 t) given *PART_INERTIA: TM = 1e-3 t, the
/// centre at (1, 1, 0.5) (not the block's (2, 1, 0.5)), a full inertia tensor and `vel`.
std::string part_inertia_deck(const std::string& vel, const std::string& extra = "") {
  std::string d = "*KEYWORD\n*CONTROL_TERMINATION\n    2.0e-3\n"
                  "*CONTROL_TIMESTEP\n    1.0e-6       0.9\n"
                  "*PART_INERTIA\nrigid block\n"
                  "$#     pid     secid       mid\n"
                  "         1         1         1\n"
                  "$#      xc        yc        zc        tm      ircs    nodeid\n"
                  "       1.0       1.0       0.5    1.0e-3         0         0\n"
                  "$#     ixx       ixy       ixz       iyy       iyz       izz\n"
                  "    2.0e-3    1.0e-4       0.0    3.0e-3    2.0e-4    4.0e-3\n" +
                  vel +
                  "*SECTION_SOLID\n         1         1\n"
                  "*MAT_RIGID\n         1   7.85e-9  210000.0       0.3\n";
  d += hex_block_cards(4, 2, 1, 4.0, 2.0, 1.0, 1);
  return d + extra + "*END\n";
}

} // namespace

// *PART_INERTIA: the body flies with the given mass properties, not its mesh's. Free flight
// with VTX..VRZ = (1000, -500, 0) mm/s, (10, 20, 30) rad/s: the centre starts at (1, 1, 0.5)
// and moves at v exactly; L = I omega0 with the given tensor, conserved to round-off; the
// kinetic energy is 1/2 TM v^2 + 1/2 omega.I omega from the first cycle and the glstat mass is
// TM. Then at rest under a 1 N nodal force: the centre accelerates at F / TM (the mesh's mass
// would give 1.6e4 times more).
TEST(RigidBody, PartInertiaGivesTheMassPropertiesOfTheBody) {
  const std::array<Real, 9> inertia{2e-3, 1e-4, 0, 1e-4, 3e-3, 2e-4, 0, 2e-4, 4e-3};
  const std::array<Real, 3> v0{1000, -500, 0}, w0{10, 20, 30};
  std::array<Real, 3> l0{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) l0[i] += inertia[3 * i + j] * w0[j];
  const Real ke0 = 0.5 * 1e-3 * (1000.0 * 1000 + 500.0 * 500) +
                   0.5 * (w0[0] * l0[0] + w0[1] * l0[1] + w0[2] * l0[2]);
  {
    Model model = read_deck_text(
        "rigid_inertia", part_inertia_deck("    1000.0    -500.0       0.0      10.0      20.0"
                                           "      30.0\n"));
    RunOptions opt = quiet_run("rigid_inertia");
    Real max_dx = 0, max_dl = 0, max_dke = 0, ke_first = -1, mass = 0;
    opt.on_cycle = [&](const Domain& dom, const GlobalStats& s) {
      const RigidBody& b = dom.bodies.at(0);
      mass = s.mass;
      if (ke_first < 0) ke_first = s.kinetic;
      const Real xc0[3] = {1.0, 1.0, 0.5};
      for (int i = 0; i < 3; ++i) {
        max_dx = std::max(max_dx, std::abs(b.xc[i] - (xc0[i] + s.time * v0[i])));
        max_dl = std::max(max_dl, std::abs(b.l[i] - l0[i]));
      }
      EXPECT_EQ(b.mass, 1e-3);
      max_dke = std::max(max_dke, std::abs(s.kinetic - ke0));
      return true;
    };
    const RunSummary sum = run_explicit(model, opt);
    ASSERT_TRUE(sum.normal_termination) << sum.error;
    std::printf("free flight: |dx| %.1e, |dL| %.1e (|L| %.3e), |dKE|/KE %.1e, mass %.6e\n", max_dx,
                max_dl, std::sqrt(l0[0] * l0[0] + l0[1] * l0[1] + l0[2] * l0[2]), max_dke / ke0,
                mass);
    EXPECT_LT(max_dx, 1e-9);
    EXPECT_LT(max_dl, 1e-12 * std::sqrt(l0[0] * l0[0] + l0[1] * l0[1] + l0[2] * l0[2]));
    EXPECT_NEAR(ke_first, ke0, 1e-4 * ke0);
    EXPECT_LT(max_dke, 1e-4 * ke0);
    EXPECT_NEAR(mass, 1e-3, 1e-15);
  }
  {
    Model model = read_deck_text(
        "rigid_inertia_f",
        part_inertia_deck("\n", "*LOAD_NODE_POINT\n         1         2         1       1.0\n"
                                "*DEFINE_CURVE\n         1\n"
                                "                 0.0                 1.0\n"
                                "                 1.0                 1.0\n"));
    RunOptions opt = quiet_run("rigid_inertia_f");
    Real worst = 0;
    opt.on_cycle = [&](const Domain& dom, const GlobalStats& s) {
      // v at the half step after t: F (t + dt/2) / TM; compare with 1e-6 of the final speed
      const RigidBody& b = dom.bodies.at(0);
      worst = std::max(worst, std::abs(b.v[1] - 1.0 * s.time / 1e-3) / 2.0);
      return true;
    };
    const RunSummary sum = run_explicit(model, opt);
    ASSERT_TRUE(sum.normal_termination) << sum.error;
    std::printf("under 1 N: worst |v - F t / TM| / v_end %.1e\n", worst);
    EXPECT_LT(worst, 1e-3);
  }
  // No VTX..VRZ: the rigid motion of the nodes (*INITIAL_VELOCITY_GENERATION, 10 rad/s about z
  // through the origin) is kept: omega = (0, 0, 10), the new centre (1, 1, 0.5) at
  // omega x x_c = (-10, 10, 0) mm/s.
  {
    Model model = read_deck_text(
        "rigid_inertia_n",
        part_inertia_deck("\n", "*INITIAL_VELOCITY_GENERATION\n"
                                "         1         2      10.0       0.0       0.0       0.0\n"
                                "       0.0       0.0       0.0       0.0       0.0       1.0\n"));
    RunOptions opt = quiet_run("rigid_inertia_n");
    std::array<Real, 3> w{}, v{};
    bool first = true;
    opt.on_cycle = [&](const Domain& dom, const GlobalStats&) {
      if (first) {
        w = dom.bodies.at(0).omega;
        v = dom.bodies.at(0).v;
        first = false;
      }
      return true;
    };
    const RunSummary sum = run_explicit(model, opt);
    ASSERT_TRUE(sum.normal_termination) << sum.error;
    // omega after the first step: the axis z is not principal here, so omega precesses by
    // ~omega^2 dt I_yz / I_zz ~ 5e-6 per step; the centre's velocity is exact (no force)
    EXPECT_NEAR(w[0], 0.0, 1e-3);
    EXPECT_NEAR(w[1], 0.0, 1e-3);
    EXPECT_NEAR(w[2], 10.0, 1e-3);
    EXPECT_NEAR(v[0], -10.0, 1e-9);
    EXPECT_NEAR(v[1], 10.0, 1e-9);
    EXPECT_NEAR(v[2], 0.0, 1e-9);
  }
  // Not a rigid part: an error at the _INERTIA card.
  std::string elastic = part_inertia_deck("\n");
  elastic.replace(elastic.find("*MAT_RIGID"), 10, "*MAT_ELASTIC");
  Model model = read_deck_text("rigid_inertia_e", elastic);
  try {
    run_explicit(model, quiet_run("rigid_inertia_e"));
    ADD_FAILURE() << "a deformable part with _INERTIA must be refused";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("rigid"), std::string::npos) << e.what();
  }
}

/// An elastic steel block of 4 x 2 x 1 hexahedra (4 x 2 x 1 mm, part 1) ending at endtim.
static std::string elastic_block_deck(const std::string& endtim) {
  std::string d = "*KEYWORD\n*CONTROL_TERMINATION\n    " + endtim +
                  "\n*CONTROL_TIMESTEP\n    1.0e-6       0.9\n"
                  "*PART\nblock\n         1         1         1\n"
                  "*SECTION_SOLID\n         1         1\n"
                  "*MAT_ELASTIC\n         1   7.85e-9  210000.0       0.3\n";
  return d + hex_block_cards(4, 2, 1, 4.0, 2.0, 1.0, 1);
}

// *CONSTRAINED_NODAL_RIGID_BODY_INERTIA: the nodes of an elastic block made one body with the
// given mass TM = 1e-3 t (the block's own is 6.28e-8 t), centre at node 1's position: under a
// 1 N nodal force the body's centre accelerates at F / TM, and glstat's mass is TM.
TEST(RigidBody, NodalRigidBodyInertiaGivesTheMass) {
  std::string d = elastic_block_deck("2.0e-3");
  d += "*SET_NODE_GENERAL\n         5\nALL\n"
       "*CONSTRAINED_NODAL_RIGID_BODY_INERTIA\n        77                   5\n"
       "       0.0       0.0       0.0    1.0e-3         0         1\n"
       "    2.0e-3       0.0       0.0    3.0e-3       0.0    4.0e-3\n\n"
       "*LOAD_NODE_POINT\n         1         2         1       1.0\n"
       "*DEFINE_CURVE\n         1\n                 0.0                 1.0\n"
       "                 1.0                 1.0\n*END\n";
  Model model = read_deck_text("cnrb_inertia", d);
  RunOptions opt = quiet_run("cnrb_inertia");
  Real worst = 0, mass = 0;
  opt.on_cycle = [&](const Domain& dom, const GlobalStats& s) {
    const RigidBody& b = dom.bodies.at(0);
    EXPECT_EQ(b.mass, 1e-3);
    mass = s.mass;
    worst = std::max(worst, std::abs(b.v[1] - 1.0 * s.time / 1e-3) / 2.0);
    return true;
  };
  const RunSummary sum = run_explicit(model, opt);
  ASSERT_TRUE(sum.normal_termination) << sum.error;
  std::printf("nodal rigid body under 1 N: worst |v - F t / TM| / v_end %.1e, mass %.3e\n", worst,
              mass);
  EXPECT_LT(worst, 1e-3);
  EXPECT_NEAR(mass, 1e-3, 1e-15);
}

// *CONSTRAINED_NODAL_RIGID_BODY_SPC (CMO = 1, CON1 = 3, CON2 = 7): an elastic block made one body
// with its z translation and every rotation fixed; a 1 N force at node 1 along (1, 0, 1)
// accelerates it along x only, at F / m (m the block's mass), and it does not turn.
TEST(RigidBody, NodalRigidBodySpcFixesItsDofs) {
  std::string d = elastic_block_deck("1.0e-3");
  d += "*SET_NODE_GENERAL\n         5\nALL\n"
       "*CONSTRAINED_NODAL_RIGID_BODY_SPC\n        77                   5\n"
       "       1.0         3         7\n"
       "*LOAD_NODE_POINT\n         1         1         1       1.0\n"
       "         1         3         1       1.0\n"
       "*DEFINE_CURVE\n         1\n                 0.0                 1.0\n"
       "                 1.0                 1.0\n*END\n";
  Model model = read_deck_text("cnrb_spc", d);
  RunOptions opt = quiet_run("cnrb_spc");
  Real worst = 0, vz = 0, w = 0;
  opt.on_cycle = [&](const Domain& dom, const GlobalStats& s) {
    const RigidBody& b = dom.bodies.at(0);
    worst = std::max(worst, std::abs(b.v[0] - s.time / b.mass) / (1e-3 / b.mass));
    vz = std::max(vz, std::abs(b.v[2]));
    for (Real o : b.omega) w = std::max(w, std::abs(o));
    return true;
  };
  const RunSummary sum = run_explicit(model, opt);
  ASSERT_TRUE(sum.normal_termination) << sum.error;
  EXPECT_LT(worst, 1e-3);
  EXPECT_EQ(vz, 0.0);
  EXPECT_EQ(w, 0.0);
}
