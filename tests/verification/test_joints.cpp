// Penalty joints between rigid bodies (*CONSTRAINED_JOINT_*), through the whole solver:
// a revolute pendulum against the small-amplitude period 2 pi sqrt(I_pivot / (M g d)) with a
// gravity component along the hinge that a spherical joint could not resist; a spherical
// pendulum that conserves its angular momentum about the vertical through the pivot and its
// energy; cylindrical and translational sliders that fall along their axis as 1/2 g t^2, the
// cylindrical one free to spin about the axis, the translational one held.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <sstream>
#include <vector>

#include <fmt/format.h>

#include "verification_util.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

constexpr double kG = 9810.0; // mm/s^2

/// Body 1: a fixed rigid cube above the origin; body 2 (`body`, part 2, elements from 11, nodes
/// from 101): `body` cards; joint nodes 1001, 1003, 1005 on body 1 and 1002, 1004, 1006 on
/// body 2 at `points` (pairs coincident).
std::string joint_deck(const std::string& joint, const std::string& body,
                       const std::vector<std::array<double, 3>>& points, const std::string& extra,
                       double tend, double dt) {
  std::string d = fmt::format("*KEYWORD\n*CONTROL_TERMINATION\n{:10.4g}\n"
                              "*CONTROL_TIMESTEP\n{:10.4g}       0.9\n",
                              tend, dt);
  d += "*PART\nsupport\n         1         1         1\n*PART\nbody\n         2         1         "
       "2\n"
       "*SECTION_SOLID\n         1         1\n"
       "*MAT_RIGID\n         1   7.85e-9  210000.0       0.3       0.0       0.0       0.0\n"
       "       1.0         7         7\n"
       "*MAT_RIGID\n         2   7.85e-9  210000.0       0.3\n";
  d += hex_block_cards(1, 1, 1, 1.0, 1.0, 1.0, 1, 1, 1, -0.5, -0.5, 1.0);
  d += body;
  d += "*NODE\n";
  for (std::size_t k = 0; k < points.size(); ++k)
    for (int side = 0; side < 2; ++side)
      d += fmt::format("{:8d}{:16.9g}{:16.9g}{:16.9g}\n", 1001 + 2 * k + side, points[k][0],
                       points[k][1], points[k][2]);
  d += "*CONSTRAINED_EXTRA_NODES_NODE\n";
  for (std::size_t k = 0; k < points.size(); ++k)
    d += fmt::format("{:10d}{:10d}\n{:10d}{:10d}\n", 1, 1001 + 2 * k, 2, 1002 + 2 * k);
  d += joint;
  d += "*DEFINE_CURVE\n         1\n                 0.0                 1.0\n"
       "                 1.0                 1.0\n";
  return d + extra + "*END\n";
}

const std::string kBar = hex_block_cards(1, 1, 4, 0.2, 0.2, 4.0, 2, 101, 11, -0.1, -0.1, -4.5);
/// A 0.2 x 2 x 4 mm plate hanging from the hinge line x = z = 0, y in [-1, 1].
const std::string kPlate = hex_block_cards(1, 2, 4, 0.2, 2.0, 4.0, 2, 101, 11, -0.1, -1.0, -4.5);

std::array<double, 3> cross(const std::array<double, 3>& a, const std::array<double, 3>& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

} // namespace

// A 0.2 x 2 x 4 mm plate hinged about y along its top edge (N1 (0,-1,0), N3 (0,1,0)), its
// centre 2.5 mm below, started at 2 rad/s about the hinge, under gravity g_z = -9810 and
// g_y = 3000 mm/s^2 along the hinge (the joint must take the moment of g_y about x: on a
// spherical joint the plate would hang out of plane by atan(3000/9810) = 0.3 rad). Measured:
// the period against 2 pi sqrt(I_pivot / (M g d)) (I_pivot from the body's inertia and M d^2,
// the amplitude correction 1 + theta^2/16 included) to 0.5 % (1e-6 measured), the out-of-plane
// angle under 3e-4 rad (5e-5), the hinge gap under 5e-4 mm (1e-4), and the energy balance
// total - external work = E0 to 1e-2 of E0 (4.8e-3: the joint springs, excited by the sudden
// g_y, oscillate at omega dt = 1/2, where the central difference's energy differs from
// 1/2 k gap^2 + kinetic by O((omega dt)^2) of theirs; glstat's ratio total / (E0 + W) is
// ill-conditioned here, the pendulum's energy passing through the small E0 + W).
TEST(Joints, RevolutePendulumPeriodAndHinge) {
  const std::string joint = "*CONSTRAINED_JOINT_REVOLUTE_ID\n         7hinge\n"
                            "      1001      1002      1003      1004\n";
  const std::string loads = "*LOAD_BODY_Z\n         1    9810.0\n"
                            "*LOAD_BODY_Y\n         1   -3000.0\n"
                            "*INITIAL_VELOCITY_GENERATION\n"
                            "         2         2       2.0       0.0       0.0       0.0\n"
                            "       0.0       0.0       0.0       0.0       1.0       0.0\n";
  Model model = read_deck_text(
      "joint_rev", joint_deck(joint, kPlate, {{0, -1, 0}, {0, 1, 0}}, loads, 0.25, 1e-5));
  ASSERT_EQ(model.joints.size(), 1u);
  EXPECT_EQ(model.joints[0].id, 7);
  RunOptions opt = quiet_run("joint_rev");
  double i_pivot = 0, mass = 0, d = 0, theta_max = 0, tilt_max = 0, gap_max = 0, e0 = -1,
         balance = 0;
  std::vector<double> crossings;
  double prev_theta = 0, prev_t = 0;
  opt.on_cycle = [&](const Domain& dom, const GlobalStats& s) {
    const RigidBody& b = dom.bodies.at(1);
    if (e0 < 0) e0 = s.total;
    balance = std::max(balance, std::abs(s.total - s.external_work - e0));
    if (mass == 0) {
      mass = b.mass;
      d = -b.xc[2];
      i_pivot = b.inertia0[4] + mass * d * d;
    }
    const double theta = std::atan2(b.xc[0], -b.xc[2]);
    const double tilt = std::atan2(b.xc[1], -b.xc[2]);
    theta_max = std::max(theta_max, std::abs(theta));
    tilt_max = std::max(tilt_max, std::abs(tilt));
    if (prev_theta < 0 && theta >= 0) // upward crossing, interpolated
      crossings.push_back(prev_t + (s.time - prev_t) * (-prev_theta) / (theta - prev_theta));
    prev_theta = theta;
    prev_t = s.time;
    const auto& jt = dom.joints.at(0);
    for (int q = 0; q < 2; ++q) {
      std::array<double, 3> p[2];
      for (int side = 0; side < 2; ++side) {
        const RigidBody& body = dom.bodies.at(static_cast<std::size_t>(jt.body[side]));
        const auto& r = jt.r0[q][side];
        for (int i = 0; i < 3; ++i)
          p[side][i] = body.xc[i] + body.rot[3 * i] * r[0] + body.rot[3 * i + 1] * r[1] +
                       body.rot[3 * i + 2] * r[2];
      }
      gap_max =
          std::max(gap_max, std::hypot(p[1][0] - p[0][0], p[1][1] - p[0][1], p[1][2] - p[0][2]));
    }
    return true;
  };
  const RunSummary sum = run_explicit(model, opt);
  ASSERT_TRUE(sum.normal_termination) << sum.error;
  ASSERT_GE(crossings.size(), 2u);
  const double period = crossings[1] - crossings[0];
  const double t0 = 2 * M_PI * std::sqrt(i_pivot / (mass * kG * d));
  const double expected = t0 * (1 + theta_max * theta_max / 16);
  std::printf("revolute: period %.6f s (expected %.6f, small-amplitude %.6f), amplitude %.4f rad, "
              "tilt %.1e rad, gap %.1e mm, energy balance %.1e of E0\n",
              period, expected, t0, theta_max, tilt_max, gap_max, balance / e0);
  EXPECT_NEAR(period / expected, 1.0, 5e-3);
  EXPECT_GT(theta_max, 0.02);
  EXPECT_LT(tilt_max, 3e-4);
  EXPECT_LT(gap_max, 5e-4);
  EXPECT_LT(balance, 1e-2 * e0);
}

// The same bar on a spherical joint at the origin, started spinning about (1, 2, 3) through the
// pivot, gravity along -z only: gravity has no moment about z and the joint force acts at the
// pivot, so L_z about the pivot (L_c + M x_c x v) is conserved (to 1e-3: v lags x_c by half a
// step); the pivot gap stays under 1e-4 mm and the energy balance closes to 1e-3.
TEST(Joints, SphericalPendulumConservesVerticalAngularMomentum) {
  const std::string joint = "*CONSTRAINED_JOINT_SPHERICAL\n      1001      1002\n";
  const std::string loads = "*LOAD_BODY_Z\n         1    9810.0\n"
                            "*INITIAL_VELOCITY_GENERATION\n"
                            "         2         2      20.0       0.0       0.0       0.0\n"
                            "       0.0       0.0       0.0       1.0       2.0       3.0\n";
  Model model = read_deck_text("joint_sph", joint_deck(joint, kBar, {{0, 0, 0}}, loads, 0.1, 1e-5));
  RunOptions opt = quiet_run("joint_sph");
  double lz0 = 0, dlz = 0, lnorm = 0, swing = 0;
  bool first = true;
  opt.on_cycle = [&](const Domain& dom, const GlobalStats&) {
    const RigidBody& b = dom.bodies.at(1);
    const auto mv = cross(b.xc, {b.mass * b.v[0], b.mass * b.v[1], b.mass * b.v[2]});
    const double lz = b.l[2] + mv[2];
    if (first) {
      lz0 = lz;
      lnorm = std::hypot(b.l[0] + mv[0], b.l[1] + mv[1], lz);
      first = false;
    }
    dlz = std::max(dlz, std::abs(lz - lz0));
    swing = std::max(swing, std::hypot(b.xc[0], b.xc[1]));
    return true;
  };
  const RunSummary sum = run_explicit(model, opt);
  ASSERT_TRUE(sum.normal_termination) << sum.error;
  std::printf("spherical: |dLz| / |L| %.1e, swing %.3f mm, energy error %.1e, joint energy at the "
              "end %.2e\n",
              dlz / lnorm, swing, sum.energy_error, sum.final_stats.spring_damper);
  EXPECT_GT(swing, 0.5) << "the bar swung out";
  EXPECT_LT(dlz, 1e-3 * lnorm);
  EXPECT_LT(std::abs(sum.energy_error), 1e-3);
}

// A 0.4 mm cube centred on the axis x (N1 (0,0,0), N3 (1,0,0); translational: N5 (0,1,0)),
// spinning at 10 rad/s about x, under gravity (4000, 0, -9810) mm/s^2: it slides along x as
// x = 1/2 g_x t^2 (to 1e-3) while y and z stay under 3e-4 mm (measured 1.6e-5 and 8.2e-5:
// the penalty gaps under the weight and the stopped spin). Cylindrical: the spin goes on
// (omega_x = 10 to 1e-3); translational: the joint holds the body's orientation (rotation
// under 1e-3 rad).
TEST(Joints, CylindricalAndTranslationalSlideAlongTheAxis) {
  const std::string cube = hex_block_cards(1, 1, 1, 0.4, 0.4, 0.4, 2, 101, 11, -0.2, -0.2, -0.2);
  const std::string loads = "*LOAD_BODY_Z\n         1    9810.0\n"
                            "*LOAD_BODY_X\n         1   -4000.0\n"
                            "*INITIAL_VELOCITY_GENERATION\n"
                            "         2         2      10.0       0.0       0.0       0.0\n"
                            "       0.0       0.0       0.0       1.0       0.0       0.0\n";
  for (const bool translational : {false, true}) {
    const std::string joint = translational ? "*CONSTRAINED_JOINT_TRANSLATIONAL\n      1001      "
                                              "1002      1003      1004      1005      1006\n"
                                            : "*CONSTRAINED_JOINT_CYLINDRICAL\n      1001      "
                                              "1002      1003      1004\n";
    std::vector<std::array<double, 3>> pts{{0, 0, 0}, {1, 0, 0}};
    if (translational) pts.push_back({0, 1, 0});
    Model model = read_deck_text("joint_slide", joint_deck(joint, cube, pts, loads, 0.02, 1e-5));
    RunOptions opt = quiet_run("joint_slide");
    double dx = 0, off_axis = 0, spin_err = 0, turn = 0, x_end = 0;
    opt.on_cycle = [&](const Domain& dom, const GlobalStats& s) {
      const RigidBody& b = dom.bodies.at(1);
      dx = std::max(dx, std::abs(b.xc[0] - 0.5 * 4000.0 * s.time * s.time));
      x_end = b.xc[0];
      off_axis = std::max(off_axis, std::hypot(b.xc[1], b.xc[2]));
      spin_err = std::max(spin_err, std::abs(b.omega[0] - 10.0));
      turn = std::max(turn, std::hypot(b.rot[5], b.rot[7])); // sin of the turn about x
      return true;
    };
    const RunSummary sum = run_explicit(model, opt);
    ASSERT_TRUE(sum.normal_termination) << sum.error;
    std::printf("%s: x = %.4f mm at the end, |x - g t^2/2| %.1e, off axis %.1e mm, spin error "
                "%.1e, turn %.1e rad, energy error %.1e\n",
                translational ? "translational" : "cylindrical", x_end, dx, off_axis, spin_err,
                turn, sum.energy_error);
    EXPECT_GT(x_end, 0.7);
    EXPECT_LT(dx, 1e-3 * x_end);
    EXPECT_LT(off_axis, 3e-4);
    if (translational)
      EXPECT_LT(turn, 1e-3);
    else {
      EXPECT_LT(spin_err, 1e-3 * 10.0);
      EXPECT_GT(turn, 0.1) << "the cylindrical joint lets it spin";
    }
  }
}

// Two free bodies (no support held) on a cylindrical joint along x (RPS 0.25), the second
// started at (1000, 300, 0) mm/s: the sideways part is stopped by the joint, the sliding goes
// on. No external force: the total momentum, and the total angular momentum about the origin
// (sum of L_c + M x_c x v, against |p| x 1 mm: L0 is ~0), are conserved to round-off (1e-15
// measured; the joint's force acts on body 0 at the point of its axis facing body 1's node,
// the two points differ along the force: with it at body 0's node the couple gives 0.5), the
// energy to 2e-2 (the joint spring's oscillation, as in the revolute test).
TEST(Joints, FreeBodiesOnACylindricalJointConserveMomenta) {
  const std::string cube = hex_block_cards(1, 1, 1, 0.4, 0.4, 0.4, 2, 101, 11, -0.2, -0.2, -0.2);
  const std::string loads = "*INITIAL_VELOCITY_GENERATION\n"
                            "         2         2       0.0    1000.0     300.0       0.0\n"
                            "       0.0       0.0       0.0       0.0       0.0       0.0\n";
  std::string deck =
      joint_deck("*CONSTRAINED_JOINT_CYLINDRICAL\n      1001      1002      1003      "
                 "1004                          0.25\n",
                 cube, {{0, 0, 0}, {1, 0, 0}}, loads, 0.002, 1e-6);
  const std::string fixed = "       1.0         7         7\n";
  deck.replace(deck.find(fixed), fixed.size(), "\n");
  Model model = read_deck_text("joint_free", deck);
  RunOptions opt = quiet_run("joint_free");
  std::array<double, 3> p0{}, l0{};
  double dp = 0, dl = 0, pn = 0, ln = 0, e0 = -1, de = 0;
  opt.on_cycle = [&](const Domain& dom, const GlobalStats& s) {
    std::array<double, 3> p{}, l{};
    for (const RigidBody& b : dom.bodies) {
      const auto m = cross(b.xc, {b.mass * b.v[0], b.mass * b.v[1], b.mass * b.v[2]});
      for (int i = 0; i < 3; ++i) {
        p[i] += b.mass * b.v[i];
        l[i] += b.l[i] + m[i];
      }
    }
    if (e0 < 0) {
      e0 = s.total;
      p0 = p;
      l0 = l;
      pn = std::hypot(p[0], p[1], p[2]);
      ln = pn * 1.0; // L's scale: |p| times the joint's length, 1 mm (L0 itself is ~0)
    }
    for (int i = 0; i < 3; ++i) {
      dp = std::max(dp, std::abs(p[i] - p0[i]));
      dl = std::max(dl, std::abs(l[i] - l0[i]));
    }
    de = std::max(de, std::abs(s.total - e0));
    return true;
  };
  const RunSummary sum = run_explicit(model, opt);
  ASSERT_TRUE(sum.normal_termination) << sum.error;
  std::printf("free cylindrical: |dp|/|p| %.1e, |dL|/|L| %.1e, |dE|/E0 %.1e\n", dp / pn, dl / ln,
              de / e0);
  EXPECT_LT(dp, 1e-12 * pn);
  EXPECT_LT(dl, 1e-9 * ln);
  EXPECT_LT(de, 2e-2 * e0);
}

// A joint whose node is not on a rigid body is an input error naming the joint's card.
TEST(Joints, NodeOffRigidBodiesIsAnInputError) {
  std::string deck =
      joint_deck("*CONSTRAINED_JOINT_SPHERICAL_ID\n         3\n         1       101\n", kBar, {},
                 "", 1e-3, 1e-5);
  deck.replace(deck.find("*MAT_RIGID\n         2"), 21, "*MAT_ELASTIC\n         2");
  Model model = read_deck_text("joint_bad", deck);
  try {
    run_explicit(model, quiet_run("joint_bad"));
    ADD_FAILURE() << "a joint on a deformable node must be refused";
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("spherical joint 3: node 101 (N2) is not on a rigid body"),
              std::string::npos)
        << msg;
    EXPECT_NE(msg.find("deck.k:"), std::string::npos) << msg;
  }
  // node pairs apart at time 0, and a translational joint's N5 on its axis
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"*CONSTRAINED_JOINT_SPHERICAL\n      1001      1004\n", "N1 and N2 are 1 apart"},
      {"*CONSTRAINED_JOINT_TRANSLATIONAL\n      1001      1002      1003      1004      1005"
       "      1006\n",
       "N5 lies on the axis"}};
  for (const auto& [joint, text] : bad) {
    Model m = read_deck_text(
        "joint_bad2", joint_deck(joint, kBar, {{0, 0, 0}, {0, 1, 0}, {0, 2, 0}}, "", 1e-3, 1e-5));
    try {
      run_explicit(m, quiet_run("joint_bad2"));
      ADD_FAILURE() << text;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
    }
  }
}

// *CONSTRAINED_JOINT_SPHERICAL_LOCAL_FAILURE_ID: a bar hanging at rest from a spherical joint
// under gravity is released at TFAIL = 5 ms and falls freely from there: its centre drops by
// g (t - TFAIL)^2 / 2 (to 3e-3 of the drop at the end, measured 9e-4: the penalty spring's own
// oscillation, omega dt = 1/2, leaves the bar a velocity of order g dt when it is released, so
// the step is 2e-6 here; at 1e-5 the drop is 5e-3 short); before TFAIL it stays within 1e-4 mm
// of where it hung. _LOCAL's RAID (an output system) is read with a note; force and moment limits
// are refused at their field.
TEST(Joints, FailureTimeReleasesTheJoint) {
  const double tfail = 5e-3, tend = 1.5e-2;
  const std::string joint = "*CONSTRAINED_JOINT_SPHERICAL_LOCAL_FAILURE_ID\n         7\n"
                            "      1001      1002\n         1         0\n"
                            "         0    0.0050\n\n";
  const std::string gravity = "*LOAD_BODY_Z\n         1    9810.0\n";
  Model model =
      read_deck_text("joint_tfail", joint_deck(joint, kBar, {{0, 0, -0.5}}, gravity, tend, 2e-6));
  bool raid_noted = false;
  for (const KeywordNote& n : model.notes)
    raid_noted |= n.message.find("RAID = 1") != std::string::npos;
  EXPECT_TRUE(raid_noted);
  ASSERT_EQ(model.joints.size(), 1U);
  EXPECT_EQ(model.joints[0].id, 7);
  EXPECT_DOUBLE_EQ(model.joints[0].tfail, tfail);
  RunOptions opt = quiet_run("joint_tfail");
  double z0 = 0, before = 0, z_end = 0;
  bool first = true;
  opt.on_cycle = [&](const Domain& dom, const GlobalStats& s) {
    const RigidBody& b = dom.bodies.at(1);
    if (first) z0 = b.xc[2];
    first = false;
    if (s.time < tfail) before = std::max(before, std::abs(b.xc[2] - z0));
    z_end = b.xc[2];
    return true;
  };
  std::ostringstream log;
  opt.log = &log;
  const RunSummary sum = run_explicit(model, opt);
  ASSERT_TRUE(sum.normal_termination) << sum.error;
  const double drop = 0.5 * kG * (tend - tfail) * (tend - tfail);
  std::printf("joint released: before TFAIL within %.2e mm, drop %.6f mm against %.6f\n", before,
              z0 - z_end, drop);
  EXPECT_LT(before, 1e-4);
  EXPECT_NEAR(z0 - z_end, drop, 3e-3 * drop);
  EXPECT_NE(log.str().find("joint 7 released at time"), std::string::npos) << log.str();
  // a force limit is refused at its field
  const std::string limited = "*CONSTRAINED_JOINT_SPHERICAL_FAILURE\n      1001      1002\n"
                              "         0    0.0050\n     100.0\n";
  try {
    read_deck_text("joint_nxx", joint_deck(limited, kBar, {{0, 0, -0.5}}, "", tend, 1e-5));
    ADD_FAILURE() << "NXX must be refused";
  } catch (const std::exception& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("NXX = 100"), std::string::npos) << msg;
    EXPECT_NE(msg.find("deck.k:"), std::string::npos) << msg;
  }
}

// A universal joint (the cross at the origin; the fixed body's arm along x to N3, the bar's
// along y to N4) and no gravity: the bar (along -z from the cross) started turning about x keeps
// turning about x (1e-3), with its twist about its own axis held (under 1e-3 rad); started with a
// twist about z alone, it is stopped: its twist stays under 2 % of the free body's turn.
TEST(Joints, UniversalJointTurnsAboutBothArmsNotTheThird) {
  for (const bool twist : {false, true}) {
    const std::string joint =
        "*CONSTRAINED_JOINT_UNIVERSAL\n      1001      1002      1003      1006\n";
    const std::string spin = twist
                                 ? "*INITIAL_VELOCITY_GENERATION\n         2         2      10.0\n"
                                   "       0.0       0.0      -0.5       0.0       0.0       1.0\n"
                                 : "*INITIAL_VELOCITY_GENERATION\n         2         2      10.0\n"
                                   "       0.0       0.0      -0.5       1.0       0.0       0.0\n";
    Model model = read_deck_text(
        "joint_universal",
        joint_deck(joint, kBar, {{0, 0, -0.5}, {1, 0, -0.5}, {0, 1, -0.5}}, spin, 0.1, 1e-5));
    RunOptions opt = quiet_run("joint_universal");
    double wx_err = 0, twist_max = 0, wz_max = 0;
    opt.on_cycle = [&](const Domain& dom, const GlobalStats&) {
      const RigidBody& b = dom.bodies.at(1);
      // the twist: rot[3] (the y component of the body's x axis), which a turn about x leaves
      // 0 and a turn about z makes the sine of its angle
      twist_max = std::max(twist_max, std::abs(b.rot[3]));
      wx_err = std::max(wx_err, std::abs(b.omega[0] - (twist ? 0.0 : 10.0)));
      wz_max = std::max(wz_max, std::abs(b.omega[2]));
      return true;
    };
    const RunSummary sum = run_explicit(model, opt);
    ASSERT_TRUE(sum.normal_termination) << sum.error;
    std::printf("universal (%s): omega_x error %.2e, twist up to %.2e rad, omega_z up to %.2e, "
                "energy error %.1e\n",
                twist ? "twist" : "turn about x", wx_err, twist_max, wz_max, sum.energy_error);
    if (!twist) {
      EXPECT_LT(wx_err, 1e-3 * 10.0);
      EXPECT_LT(twist_max, 1e-3);
    } else {
      EXPECT_LT(twist_max, 0.02 * 10.0 * 0.1); // a free bar would turn 1 rad
    }
  }
}

// A planar joint (plane z = -0.5 through N1, normal N1 -> N3 along z): a cube under it, pulled by
// gravity along -z and started sliding at (100, 50) mm/s while spinning at 5 rad/s about the
// normal through its centre: it slides and spins freely (x, y to 1e-3 of the travel; omega_z to
// 1e-3), and stays on the plane (z within 1e-3 mm, tilt under 1e-3 rad). Started spinning about
// an axis tilted from the normal (0.1 rad, so 0.5 rad/s of tilt), its tilt is stopped: under 5 %
// of the 1e-2 rad a free cube would tilt.
TEST(Joints, PlanarJointSlidesAndSpinsInItsPlane) {
  const std::string cube = hex_block_cards(1, 1, 1, 0.4, 0.4, 0.4, 2, 101, 11, -0.2, -0.2, -0.9);
  const std::string joint = "*CONSTRAINED_JOINT_PLANAR\n      1001      1002      1003      1004\n";
  const double tend = 0.02;
  for (const bool tilted : {false, true}) {
    const std::string loads =
        std::string("*LOAD_BODY_Z\n         1    9810.0\n*INITIAL_VELOCITY_GENERATION\n"
                    "         2         2       5.0     100.0      50.0       0.0\n") +
        (tilted ? "       0.0       0.0      -0.7       0.1       0.0       1.0\n"
                : "       0.0       0.0      -0.7       0.0       0.0       1.0\n");
    Model model = read_deck_text(
        "joint_planar", joint_deck(joint, cube, {{0, 0, -0.5}, {0, 0, 0.5}}, loads, tend, 1e-5));
    RunOptions opt = quiet_run("joint_planar");
    double z_dev = 0, tilt = 0, wz_err = 0, x_end = 0, y_end = 0;
    bool first = true;
    double z0 = 0;
    opt.on_cycle = [&](const Domain& dom, const GlobalStats&) {
      const RigidBody& b = dom.bodies.at(1);
      if (first) z0 = b.xc[2];
      first = false;
      z_dev = std::max(z_dev, std::abs(b.xc[2] - z0));
      tilt = std::max(tilt, std::hypot(b.rot[6], b.rot[7])); // the body's z axis off the normal
      wz_err = std::max(wz_err, std::abs(b.omega[2] - 5.0));
      x_end = b.xc[0];
      y_end = b.xc[1];
      return true;
    };
    const RunSummary sum = run_explicit(model, opt);
    ASSERT_TRUE(sum.normal_termination) << sum.error;
    std::printf("planar (%s): centre at (%.5f, %.5f) against (%.5f, %.5f), z within %.2e, tilt "
                "%.2e, omega_z error %.2e, energy error %.1e\n",
                tilted ? "tilted spin" : "spin", x_end, y_end, 100 * tend, 50 * tend, z_dev, tilt,
                wz_err, sum.energy_error);
    if (tilted) {
      EXPECT_LT(tilt, 0.05 * 0.5 * tend);
      continue;
    }
    EXPECT_NEAR(x_end, 100 * tend, 1e-3 * 100 * tend);
    EXPECT_NEAR(y_end, 50 * tend, 1e-3 * 100 * tend);
    EXPECT_LT(z_dev, 1e-3);
    EXPECT_LT(tilt, 1e-3);
    EXPECT_LT(wz_err, 1e-3 * 5.0);
  }
}

// *CONSTRAINED_JOINT_STIFFNESS_GENERALIZED on a revolute hinge (the plate of the pendulum test,
// hinged about y, no gravity, started at 2 rad/s): the hinge angle is theta (CIDA's y axis along
// the hinge).
//  - A linear LCIDT (M = K theta): a torsional oscillator, period 2 pi sqrt(I_pivot / K) (to
//    3e-3, measured 1.7e-3: the hinge's penalty springs and the steps), the spring's energy in
//    glstat's (the balance to 1e-2 of the kinetic energy, measured 6e-3).
//  - No curve, stops at +-10 degrees with EST = K: free rotation to the stop, then
//    the stop's spring: the largest angle 10 deg + omega0 / sqrt(K_stop / I_pivot) (to 2 %).
TEST(Joints, GeneralizedStiffnessActsOnTheHingeAngle) {
  const std::string joint =
      "*CONSTRAINED_JOINT_REVOLUTE\n      1001      1002      1003      1004\n"
      "*DEFINE_COORDINATE_VECTOR\n5,1.0,0.0,0.0,0.0,1.0,0.0\n";
  const std::string spin = "*INITIAL_VELOCITY_GENERATION\n"
                           "         2         2       2.0       0.0       0.0       0.0\n"
                           "       0.0       0.0       0.0       0.0       1.0       0.0\n";
  for (const bool stops : {false, true}) {
    const double k = 0.15;
    const std::string stiffness =
        stops ? fmt::format("*CONSTRAINED_JOINT_STIFFNESS_GENERALIZED\n9,1,2,5\n0,0,0\n"
                            "0,0,{},0,0,0\n0,0,-10.0,10.0,0,0\n",
                            k)
              : "*CONSTRAINED_JOINT_STIFFNESS_GENERALIZED\n9,1,2,5\n0,8,0\n0,0,0,0,0,0\n"
                "0,0,0,0,0,0\n*DEFINE_CURVE\n8\n-1.0,-0.15\n1.0,0.15\n";
    Model model =
        read_deck_text("joint_stiff", joint_deck(joint + stiffness, kPlate, {{0, -1, 0}, {0, 1, 0}},
                                                 spin, stops ? 0.2 : 0.02, 1e-5));
    ASSERT_EQ(model.joint_stiffnesses.size(), 1u);
    RunOptions opt = quiet_run("joint_stiff");
    opt.stats_every_cycle = true;
    double i_pivot = 0, theta_max = 0, prev = 0, prev_t = 0, balance = 0, ke_max = 0, e0 = -1;
    std::vector<double> crossings;
    opt.on_cycle = [&](const Domain& dom, const GlobalStats& s) {
      const RigidBody& b = dom.bodies.at(1);
      if (i_pivot == 0) i_pivot = b.inertia0[4] + b.mass * b.xc[2] * b.xc[2];
      const double theta = std::asin(std::clamp(b.rot[2], -1.0, 1.0));
      theta_max = std::max(theta_max, std::abs(theta));
      if (prev < 0 && theta >= 0 && s.time > 1e-4)
        crossings.push_back(prev_t + (s.time - prev_t) * (-prev) / (theta - prev));
      prev = theta;
      prev_t = s.time;
      if (e0 < 0) e0 = s.total;
      ke_max = std::max(ke_max, s.kinetic);
      balance = std::max(balance, std::abs(s.total - s.external_work - e0));
      return true;
    };
    const RunSummary sum = run_explicit(model, opt);
    ASSERT_TRUE(sum.normal_termination) << sum.error;
    if (!stops) {
      ASSERT_GE(crossings.size(), 2u);
      const double period = (crossings.back() - crossings.front()) / (crossings.size() - 1);
      const double expect = 2 * std::numbers::pi * std::sqrt(i_pivot / k);
      std::printf("joint stiffness: period %.6e against %.6e (%.1e), balance %.1e of the kinetic "
                  "energy\n",
                  period, expect, period / expect - 1, balance / ke_max);
      EXPECT_NEAR(period, expect, 3e-3 * expect);
      EXPECT_LT(balance, 1e-2 * ke_max);
    } else {
      const double expect = 10 * std::numbers::pi / 180 + 2.0 / std::sqrt(k / i_pivot);
      std::printf("joint stops: largest angle %.5f rad against %.5f\n", theta_max, expect);
      EXPECT_NEAR(theta_max, expect, 0.02 * expect);
    }
  }
}

// The same hinge with CIDB turned 90 degrees about z from CIDA (B's system's axes are not A's):
// the angles count from the relative orientation at time 0, so theta is still the hinge angle and
// the torsional period the same (to 3e-3). And a hinge spun past half a turn against a friction
// spring (FM = 1e-6, EST = 100, no curve): the bar slows at the constant FM / I_pivot (to 1 %)
// over 1.25 turns, the angle followed continuously (a jump of 2 pi would flip the friction and
// take 2 pi FM from its energy), the friction's energy FM times the angle turned (1e-3).
TEST(Joints, GeneralizedStiffnessAnglesCountFromTimeZeroAndPastHalfATurn) {
  const std::string joint =
      "*CONSTRAINED_JOINT_REVOLUTE\n      1001      1002      1003      1004\n"
      "*DEFINE_COORDINATE_VECTOR\n5,1.0,0.0,0.0,0.0,1.0,0.0\n"
      "*DEFINE_COORDINATE_VECTOR\n6,0.0,1.0,0.0,-1.0,0.0,0.0\n";
  const double k = 0.15;
  {
    const std::string spin = "*INITIAL_VELOCITY_GENERATION\n"
                             "         2         2       2.0       0.0       0.0       0.0\n"
                             "       0.0       0.0       0.0       0.0       1.0       0.0\n";
    const std::string stiffness =
        "*CONSTRAINED_JOINT_STIFFNESS_GENERALIZED\n9,1,2,5,6\n0,8,0\n"
        "0,0,0,0,0,0\n0,0,0,0,0,0\n*DEFINE_CURVE\n8\n-1.0,-0.15\n1.0,0.15\n";
    Model model =
        read_deck_text("joint_stiff_b", joint_deck(joint + stiffness, kPlate,
                                                   {{0, -1, 0}, {0, 1, 0}}, spin, 0.02, 1e-5));
    RunOptions opt = quiet_run("joint_stiff_b");
    double i_pivot = 0, prev = 0, prev_t = 0;
    std::vector<double> crossings;
    opt.on_cycle = [&](const Domain& dom, const GlobalStats& s) {
      const RigidBody& b = dom.bodies.at(1);
      if (i_pivot == 0) i_pivot = b.inertia0[4] + b.mass * b.xc[2] * b.xc[2];
      const double theta = std::asin(std::clamp(b.rot[2], -1.0, 1.0));
      if (prev < 0 && theta >= 0 && s.time > 1e-4)
        crossings.push_back(prev_t + (s.time - prev_t) * (-prev) / (theta - prev));
      prev = theta;
      prev_t = s.time;
      return true;
    };
    const RunSummary sum = run_explicit(model, opt);
    ASSERT_TRUE(sum.normal_termination) << sum.error;
    ASSERT_GE(crossings.size(), 2u);
    const double period = (crossings.back() - crossings.front()) / (crossings.size() - 1);
    const double expect = 2 * std::numbers::pi * std::sqrt(i_pivot / k);
    std::printf("joint stiffness, CIDB turned: period %.6e against %.6e (%.1e)\n", period, expect,
                period / expect - 1);
    EXPECT_NEAR(period, expect, 3e-3 * expect);
  }
  {
    const double fm = 1e-6, w0 = 20.0, tend = 0.45;
    const std::string spin = fmt::format("*INITIAL_VELOCITY_GENERATION\n"
                                         "         2         2{:10.1f}       0.0       0.0       "
                                         "0.0\n       0.0       0.0       0.0       0.0       1.0"
                                         "       0.0\n",
                                         w0);
    const std::string stiffness = fmt::format("*CONSTRAINED_JOINT_STIFFNESS_GENERALIZED\n9,1,2,5\n"
                                              "0,0,0\n0,0,100.0,{},0,0\n0,0,0,0,0,0\n",
                                              fm);
    Model model =
        read_deck_text("joint_friction", joint_deck(joint + stiffness, kPlate,
                                                    {{0, -1, 0}, {0, 1, 0}}, spin, tend, 1e-5));
    RunOptions opt = quiet_run("joint_friction");
    double i_pivot = 0, w_end = 0, turned = 0, last_energy = 0;
    bool energy_drops = false;
    opt.stats_every_cycle = true;
    opt.on_cycle = [&](const Domain& dom, const GlobalStats& s) {
      const RigidBody& b = dom.bodies.at(1);
      if (i_pivot == 0) i_pivot = b.inertia0[4] + b.mass * b.xc[2] * b.xc[2];
      w_end = b.omega[1];
      turned += b.omega[1] * s.dt;
      const double w = dom.joint_stiffness.at(0).work;
      energy_drops |= w < last_energy - 1e-12 * fm;
      last_energy = w;
      return true;
    };
    const RunSummary sum = run_explicit(model, opt);
    ASSERT_TRUE(sum.normal_termination) << sum.error;
    const double expect = w0 - fm / i_pivot * tend;
    std::printf("joint friction past half a turn: turned %.3f rad, omega %.5f against %.5f, "
                "friction energy %.4e\n",
                turned, w_end, expect, last_energy);
    EXPECT_GT(turned, 1.2 * 2 * std::numbers::pi);
    EXPECT_NEAR(w_end, expect, 0.01 * (w0 - expect));
    EXPECT_FALSE(energy_drops) << "the friction's energy fell (an angle jump)";
    EXPECT_NEAR(last_energy, fm * turned, 1e-3 * fm * turned); // FM times the angle slipped
  }
}
