// *INITIAL_VELOCITY_RIGID_BODY and *ELEMENT_SEATBELT_ACCELEROMETER through the solver:
//   - a free rigid block given (VX, VY, VZ) and (VXR, VYR, VZR) keeps them (no force acts): its
//     centre moves at V, it spins at omega, and every node starts at V + omega x r (r from the
//     centre of mass); in a local system (ICID) the components are those of its axes;
//   - it overrides the nodes' *INITIAL_VELOCITY_GENERATION;
//   - a deformable part is refused at the card;
//   - an accelerometer adds its MASS to its three nodes (a third each) and warns that its output
//     is not written.
#include <gtest/gtest.h>

#include <cmath>

#include <fmt/format.h>

#include "verification_util.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

constexpr double kRho = 7.85e-9, kE = 2.1e5;

/// A rigid 20 x 10 x 10 block (part 1, 2 x 1 x 1 hexahedra) with `extra` cards.
std::string rigid_block(const std::string& extra, bool rigid = true) {
  std::string d = "*KEYWORD\n*CONTROL_TERMINATION\n 1.000e-04\n";
  d += "*PART\nblock\n         1         1         1\n*SECTION_SOLID\n         1         1\n";
  d += fmt::format("{}\n         1{:10.3e}{:10.1f}       0.3\n",
                   rigid ? "*MAT_RIGID" : "*MAT_ELASTIC", kRho, kE);
  d += hex_block_cards(2, 1, 1, 20.0, 10.0, 10.0, 1);
  return d + extra + "*END\n";
}

struct BodyRun {
  RunSummary sum;
  RigidBody first, last;
  std::vector<Real> v0, x0; ///< the nodes' velocities and positions at the first cycle
  GlobalStats stats;
};

BodyRun run_body(const std::string& tag, const std::string& deck) {
  Model model = read_deck_text(tag, deck);
  RunOptions opt = quiet_run(tag);
  BodyRun r;
  bool first = true;
  opt.on_cycle = [&](const Domain& dom, const GlobalStats& s) {
    if (first) {
      r.first = dom.bodies.at(0);
      r.v0 = dom.v;
      r.x0 = dom.x;
      first = false;
    }
    r.last = dom.bodies.at(0);
    r.stats = s;
    return true;
  };
  r.sum = run_explicit(model, opt);
  return r;
}

} // namespace

// V = (1000, -200, 50) mm/s, omega = (0, 0, 30) rad/s, about the centre (10, 5, 5): free, the
// body keeps both (no moment about its centre; omega along a principal axis), every node starts
// at V + omega x r, and the generated velocity of the nodes (-500 along x) is overridden.
TEST(RigidBodyVelocity, FreeBlockKeepsTheGivenMotion) {
  const std::string cards = "*INITIAL_VELOCITY_GENERATION\n         1         2       0.0    -500.0"
                            "       0.0       0.0\n       0.0       0.0       0.0       0.0       "
                            "0.0       0.0\n"
                            "*INITIAL_VELOCITY_RIGID_BODY\n         1    1000.0    -200.0      50.0"
                            "       0.0       0.0      30.0\n";
  const BodyRun r = run_body("rigid_velocity", rigid_block(cards));
  ASSERT_TRUE(r.sum.normal_termination) << r.sum.error;
  const std::array<Real, 3> v{1000.0, -200.0, 50.0}, w{0.0, 0.0, 30.0};
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(r.first.v[i], v[i], 1e-12 * 1000);
    EXPECT_NEAR(r.first.omega[i], w[i], 1e-12 * 30);
    EXPECT_NEAR(r.last.v[i], v[i], 1e-9 * 1000);
    EXPECT_NEAR(r.last.omega[i], w[i], 1e-9 * 30);
  }
  EXPECT_NEAR(r.first.xc[0], 10.0, 1e-3); // (one step on: V dt = 1e-4)
  // node 1 at (0, 0, 0): r = (-10, -5, -5), omega x r = (150, -300, 0). The first cycle's
  // nodal velocity is the body's motion over that step (the chord, (x_new - x_old) / dt): it
  // differs from V + omega x r by O(omega dt) of omega r, 4.5e-4 mm/s here (checked to 5e-3).
  const Real rx = r.x0[0] - r.first.xc[0], ry = r.x0[1] - r.first.xc[1];
  EXPECT_NEAR(r.v0[0], 1000.0 - 30.0 * ry, 5e-3);
  EXPECT_NEAR(r.v0[1], -200.0 + 30.0 * rx, 5e-3);
  EXPECT_NEAR(r.v0[2], 50.0, 5e-3);
  EXPECT_NEAR(r.v0[0], 1150.0, 1.0); // (not the generated -500)
  EXPECT_NEAR(r.stats.energy_ratio(), 1.0, 1e-9);
}

// ICID: the same motion given in a system whose x axis is global y and y axis global -x
// (*DEFINE_COORDINATE_VECTOR: x along (0, 1, 0), xy-plane through (-1, 0, 0)): local
// (-200, -1000, 50) is global (1000, -200, 50).
TEST(RigidBodyVelocity, LocalSystemComponents) {
  const std::string cards = "*DEFINE_COORDINATE_VECTOR\n5,0.0,1.0,0.0,-1.0,0.0,0.0\n"
                            "*INITIAL_VELOCITY_RIGID_BODY\n1,-200.0,-1000.0,50.0,0.0,0.0,0.0,5\n";
  const BodyRun r = run_body("rigid_velocity_icid", rigid_block(cards));
  ASSERT_TRUE(r.sum.normal_termination) << r.sum.error;
  EXPECT_NEAR(r.first.v[0], 1000.0, 1e-9);
  EXPECT_NEAR(r.first.v[1], -200.0, 1e-9);
  EXPECT_NEAR(r.first.v[2], 50.0, 1e-9);
}

TEST(RigidBodyVelocity, DeformablePartIsRefused) {
  try {
    Model model = read_deck_text("rigid_velocity_bad",
                                 rigid_block("*INITIAL_VELOCITY_RIGID_BODY\n1,1.0\n", false));
    ADD_FAILURE() << "a deformable part was accepted";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("part 1 is not rigid"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("*INITIAL_VELOCITY_RIGID_BODY"), std::string::npos);
  }
}

// An accelerometer with MASS 3e-6 on nodes 1, 2, 3 of the rigid block: the body's mass grows by
// 3e-6 (the block is 2000 mm^3 of steel, 1.57e-5), and the reader warns that its output is not
// written.
TEST(RigidBodyVelocity, AccelerometerAddsItsMass) {
  const std::string cards = "*ELEMENT_SEATBELT_ACCELEROMETER\n         7         1         2"
                            "         3         0         1    3.0e-6\n";
  Model model = read_deck_text("accelerometer", rigid_block(cards));
  bool noted = false;
  for (const KeywordNote& n : model.notes)
    noted = noted || n.keyword == "*ELEMENT_SEATBELT_ACCELEROMETER";
  EXPECT_TRUE(noted);
  RunOptions opt = quiet_run("accelerometer");
  Real mass = 0;
  opt.on_cycle = [&](const Domain& dom, const GlobalStats&) {
    mass = dom.bodies.at(0).mass;
    return true;
  };
  const RunSummary sum = run_explicit(model, opt);
  ASSERT_TRUE(sum.normal_termination) << sum.error;
  EXPECT_NEAR(mass, kRho * 2000.0 + 3e-6, 1e-12 * mass);
}
