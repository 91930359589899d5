// Loads, constraints, rigid walls and mass scaling against closed-form motion.
#include <gtest/gtest.h>

#include <cmath>

#include <fmt/format.h>

#include "input/keyword_reader.hpp"
#include "solvers/explicit/solver.hpp"
#include "test_support.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

constexpr double kG = 9810.0; // mm/s^2
// A lone element has 1/8 of an interior node's mass at each corner: its dilatational mode is
// ~1.4x faster than the L/c estimate assumes (12K vs 4(lambda+2G) over rho h^2), as in LS-DYNA.
// Free one- and few-element models therefore run with TSSFAC 0.6.
const std::string kSmallStep = "*CONTROL_TIMESTEP\n              0.6\n";
const std::string kConstantCurve =
    "*DEFINE_CURVE\n         1\n                 0.0                 1.0\n"
    "                 1.0                 1.0\n";

Model deck(const std::string& tag, const std::string& body) {
  const auto dir = make_temp_dir(tag);
  write_file(dir / "deck.k", "*KEYWORD\n" + body + "*END\n");
  return read_deck((dir / "deck.k").string());
}

std::string elastic_part(int pid = 1, double rho = 7.85e-9) {
  return fmt::format("*PART\nblock\n{:10d}         1         1\n*SECTION_SOLID\n         1         "
                     "1\n*MAT_ELASTIC\n         1{:10.3e}  210000.0       0.3\n",
                     pid, rho);
}

struct Trace {
  std::vector<double> t, vx, vz, xc, zc, ke;
  GlobalStats last;
};

Trace run(const Model& m) {
  RunOptions opt;
  opt.outdir = make_temp_dir("run").string();
  opt.write_vtk = false;
  opt.write_glstat = false;
  Trace tr;
  opt.on_cycle = [&](const Domain& d, const GlobalStats& s) {
    tr.t.push_back(s.time);
    tr.vx.push_back(s.vx);
    tr.vz.push_back(s.vz);
    double x = 0, z = 0, mass = 0;
    for (std::size_t n = 0; n < d.nnode; ++n) {
      x += d.mass[n] * d.x[3 * n];
      z += d.mass[n] * d.x[3 * n + 2];
      mass += d.mass[n];
    }
    tr.xc.push_back(x / mass);
    tr.zc.push_back(z / mass);
    tr.ke.push_back(s.kinetic);
    tr.last = s;
    return true;
  };
  const RunSummary sum = run_explicit(m, opt);
  EXPECT_TRUE(sum.normal_termination) << sum.error;
  return tr;
}

} // namespace

TEST(Loads, BodyLoadGivesFreeFallAndExternalWorkBalancesKineticEnergy) {
  // *LOAD_BODY_Z with a constant curve g: the inertial load -m g makes the free block fall with
  // z_c(t) = z0 - g t^2 / 2 exactly (uniform acceleration of every node, no strain); the work
  // of the load equals the kinetic energy gained.
  const Model m = deck("fall", "*CONTROL_TERMINATION\n    1.0e-2\n" + elastic_part() +
                                   hex_block_cards(2, 2, 2, 10, 10, 10, 1) +
                                   "*LOAD_BODY_Z\n         1    9810.0\n*DEFINE_CURVE\n         1\n"
                                   "                 0.0                 1.0\n"
                                   "                 1.0                 1.0\n");
  const Trace tr = run(m);
  const double t = tr.t.back();
  // Central differences integrate constant acceleration exactly at the steps (1e-9 relative).
  EXPECT_NEAR(tr.zc.back() - 5.0, -0.5 * kG * t * t, 1e-9 * 0.5 * kG * t * t + 1e-12);
  EXPECT_NEAR(tr.last.external_work, tr.last.kinetic, 1e-3 * tr.last.kinetic);
}

TEST(Loads, BodyLoadPartsLoadsOnlyTheirParts) {
  // *LOAD_BODY_PARTS = part set {1}: block 1 (part 1) falls as above, block 2 (part 2, apart,
  // no contact) is not loaded and stays at rest; the system's mass centre falls by the loaded
  // mass's share of g t^2 / 2.
  const Model m =
      deck("fall_parts", "*CONTROL_TERMINATION\n    1.0e-2\n" + elastic_part() +
                             "*PART\nother\n         2         1         1\n" +
                             hex_block_cards(2, 2, 2, 10, 10, 10, 1) +
                             hex_block_cards(2, 2, 2, 10, 10, 10, 2, 101, 101, 50, 0, 0) +
                             "*LOAD_BODY_PARTS\n         7\n*SET_PART_LIST\n7\n1\n"
                             "*LOAD_BODY_Z\n         1    9810.0\n*DEFINE_CURVE\n         1\n"
                             "                 0.0                 1.0\n"
                             "                 1.0                 1.0\n");
  EXPECT_EQ(m.body_load_parts, 7);
  const Trace tr = run(m);
  const double t = tr.t.back();
  // two equal blocks: the mass centre falls half as far
  EXPECT_NEAR(tr.zc.back() - 5.0, -0.25 * kG * t * t, 1e-9 * 0.25 * kG * t * t + 1e-12);
  EXPECT_NEAR(tr.last.external_work, tr.last.kinetic, 1e-3 * tr.last.kinetic);
  // the part set must exist; the keyword once
  const auto dir = make_temp_dir("fall_parts_bad");
  write_file(dir / "deck.k", "*KEYWORD\n*CONTROL_TERMINATION\n    1.0e-2\n" + elastic_part() +
                                 hex_block_cards(1, 1, 1, 1, 1, 1, 1) +
                                 "*LOAD_BODY_PARTS\n         8\n*END\n");
  try {
    (void)read_deck((dir / "deck.k").string());
    ADD_FAILURE() << "a missing part set was accepted";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("part set 8"), std::string::npos) << e.what();
  }
}

TEST(Loads, BodyLoadVectorActsAlongTheUnitVector) {
  // *LOAD_BODY_VECTOR with V = (3, 0, 4): V gives the direction only (|V| = 5 is normalised,
  // with a note), so the free block's mass centre moves by -(0.6, 0, 0.8) g t^2 / 2 exactly.
  const Model m = deck("vector", "*CONTROL_TERMINATION\n    1.0e-2\n" + elastic_part() +
                                     hex_block_cards(2, 2, 2, 10, 10, 10, 1) +
                                     "*LOAD_BODY_VECTOR\n         1    9810.0\n"
                                     "       3.0       0.0       4.0\n" +
                                     kConstantCurve);
  bool noted = false;
  for (const KeywordNote& n : m.notes)
    noted |= n.keyword == "*LOAD_BODY_VECTOR" && n.message.find("|V| = 5") != std::string::npos;
  EXPECT_TRUE(noted);
  const Trace tr = run(m);
  const double t = tr.t.back(), s = 0.5 * kG * t * t;
  EXPECT_NEAR(tr.xc.back() - 5.0, -0.6 * s, 1e-9 * s + 1e-12);
  EXPECT_NEAR(tr.zc.back() - 5.0, -0.8 * s, 1e-9 * s + 1e-12);
  EXPECT_NEAR(tr.last.external_work, tr.last.kinetic, 1e-3 * tr.last.kinetic);
  // in a local system (CID 3: local x = global y, local y = global -x, local z = global z),
  // V = (0, 1, 1) is the global direction (-1, 0, 1) / sqrt 2
  const Model ml = deck("vector_cid", "*CONTROL_TERMINATION\n    1.0e-2\n" + elastic_part() +
                                          hex_block_cards(2, 2, 2, 10, 10, 10, 1) +
                                          "*DEFINE_COORDINATE_SYSTEM\n3,0.,0.,0.,0.,1.,0.\n"
                                          "-1.,0.,0.\n"
                                          "*LOAD_BODY_VECTOR\n         1    9810.0" +
                                          std::string(40, ' ') + "         3\n" +
                                          "       0.0       1.0       1.0\n" + kConstantCurve);
  const Trace tl = run(ml);
  const double tt = tl.t.back(), sl = 0.5 * kG * tt * tt / std::sqrt(2.0);
  EXPECT_NEAR(tl.xc.back() - 5.0, sl, 1e-9 * sl + 1e-12);
  EXPECT_NEAR(tl.zc.back() - 5.0, -sl, 1e-9 * sl + 1e-12);
}

TEST(Loads, GravityPartLoadsItsPartOnlyWhateverLoadBodyPartsSays) {
  // *LOAD_GRAVITY_PART on part 1 (DOF 3, ACCEL g): block 1 falls, block 2 stays; the mass centre
  // of the two equal blocks falls by g t^2 / 4. *LOAD_BODY_PARTS (part 2 only) restricts the
  // *LOAD_BODY_* loads (none here), not this one.
  const Model m =
      deck("gravity_part", "*CONTROL_TERMINATION\n    1.0e-2\n" + elastic_part() +
                               "*PART\nother\n         2         1         1\n" +
                               hex_block_cards(2, 2, 2, 10, 10, 10, 1) +
                               hex_block_cards(2, 2, 2, 10, 10, 10, 2, 101, 101, 50, 0, 0) +
                               "*LOAD_BODY_PARTS\n         7\n*SET_PART_LIST\n7\n2\n"
                               "*LOAD_GRAVITY_PART\n         1         3         1    9810.0\n" +
                               kConstantCurve);
  const Trace tr = run(m);
  const double t = tr.t.back(), s = 0.25 * kG * t * t;
  EXPECT_NEAR(tr.zc.back() - 5.0, -s, 1e-9 * s + 1e-12);
  EXPECT_NEAR(tr.last.external_work, tr.last.kinetic, 1e-3 * tr.last.kinetic);
  // the same through a part set
  const Model ms = deck("gravity_part_set",
                        "*CONTROL_TERMINATION\n    1.0e-2\n" + elastic_part() +
                            "*PART\nother\n         2         1         1\n" +
                            hex_block_cards(2, 2, 2, 10, 10, 10, 1) +
                            hex_block_cards(2, 2, 2, 10, 10, 10, 2, 101, 101, 50, 0, 0) +
                            "*SET_PART_LIST\n7\n1\n"
                            "*LOAD_GRAVITY_PART_SET\n         7         3         1    9810.0\n" +
                            kConstantCurve);
  EXPECT_NEAR(run(ms).zc.back() - 5.0, -s, 1e-9 * s + 1e-12);
  // refused: a missing part, a direction that is not 1-3, construction stages
  const std::string base = "*CONTROL_TERMINATION\n    1.0e-2\n" + elastic_part() +
                           hex_block_cards(1, 1, 1, 1, 1, 1, 1) + kConstantCurve;
  for (const auto& [card, what] : std::vector<std::pair<std::string, std::string>>{
           {"*LOAD_GRAVITY_PART\n         9         3         1    9810.0\n", "part 9"},
           {"*LOAD_GRAVITY_PART\n         1         4         1    9810.0\n", "DOF = 4"},
           {"*LOAD_GRAVITY_PART\n         1         3         1    9810.0         0         2\n",
            "construction stages"}}) {
    try {
      (void)deck("gravity_part_bad", base + card);
      ADD_FAILURE() << card;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("deck.k:"), std::string::npos) << e.what();
    }
  }
}

TEST(Loads, SpinLoadDrivesTheMassCentreOutAsCosh) {
  // *LOAD_BODY_RZ: angular velocity omega about the z axis through (0, 0, 0). Each node feels
  // m omega^2 r (its x and y from the axis); the internal forces cancel in the sum, so the free
  // block's mass centre obeys x'' = omega^2 x exactly: x_c(t) = x_c0 cosh(omega t), z_c fixed.
  // Central differences: error O((omega dt)^2) ~ 1e-8 here. The work of the load is the
  // kinetic plus the internal energy.
  const double omega = 100.0, x0 = 105.0;
  const Model m = deck("spin", "*CONTROL_TERMINATION\n    5.0e-3\n" + elastic_part() +
                                   hex_block_cards(2, 2, 2, 10, 10, 10, 1, 1, 1, 100, -5, 0) +
                                   "*LOAD_BODY_RZ\n         1     100.0\n" + kConstantCurve);
  const Trace tr = run(m);
  const double t = tr.t.back();
  EXPECT_NEAR(tr.xc.back(), x0 * std::cosh(omega * t), 1e-6 * x0);
  EXPECT_NEAR(tr.zc.back(), 5.0, 1e-9);
  EXPECT_GT(tr.last.internal, 0.0); // the block is stretched radially
  EXPECT_NEAR(tr.last.external_work, tr.last.kinetic + tr.last.internal + tr.last.hourglass,
              1e-3 * tr.last.external_work);
  // the centre of rotation moves the axis: about x = 105 the block's centre does not move
  const Model c =
      deck("spin_centre", "*CONTROL_TERMINATION\n    5.0e-3\n" + elastic_part() +
                              hex_block_cards(2, 2, 2, 10, 10, 10, 1, 1, 1, 100, -5, 0) +
                              "*LOAD_BODY_RZ\n         1     100.0         0     "
                              "105.0\n" +
                              kConstantCurve);
  EXPECT_NEAR(run(c).xc.back(), x0, 1e-9 * x0);
}

TEST(Loads, NodalForceChangesMomentumAtTheRateOfTheForce) {
  // *LOAD_NODE_SET: 4 nodes x 10 N in x for 1 ms on a free block: momentum F t.
  const Model m = deck(
      "force", "*CONTROL_TERMINATION\n    1.0e-3\n" + kSmallStep + elastic_part() +
                   hex_block_cards(1, 1, 1, 10, 10, 10, 1) + node_set_card(1, {2, 4, 6, 8}) +
                   "*LOAD_NODE_SET\n         1         1         1      10.0\n" + kConstantCurve);
  const Trace tr = run(m);
  const double mass = tr.last.mass;
  // Momentum after the last full step: the force acts from t = 0 (half-step velocities lag by
  // dt/2, far below the 1e-3 tolerance).
  EXPECT_NEAR(mass * tr.vx.back(), 40.0 * tr.t.back(), 2e-3 * 40.0 * tr.t.back());
}

TEST(RigidWall, FrictionDeceleratesASlidingBlockAtMuG) {
  // An elastic block resting on a planar wall under gravity, sliding with FRIC 0.3:
  // the wall removes mu times the normal velocity correction (g dt per step) from the
  // tangential velocity, so v(t) = v0 - mu g t (0.2 m/s here).
  const double mu = 0.3, v0 = 200.0; // stops at v0 / (mu g) = 0.068 s
  const Model m = deck(
      "friction",
      "*CONTROL_TERMINATION\n    0.1\n" + kSmallStep + elastic_part() +
          hex_block_cards(2, 2, 1, 10, 10, 5, 1) +
          fmt::format("*INITIAL_VELOCITY_GENERATION\n         1         2       0.0{:10.1f}"
                      "       0.0       0.0\n       0.0       0.0       0.0       0.0       0.0"
                      "       0.0\n",
                      v0) +
          "*LOAD_BODY_Z\n         1    9810.0\n" + kConstantCurve +
          "*RIGIDWALL_PLANAR\n         0\n       0.0       0.0       0.0       0.0       0.0"
          "       1.0       0.3\n");
  const Trace tr = run(m);
  int checked = 0;
  for (std::size_t k = 0; k < tr.t.size(); k += 50) {
    const double expect = v0 - mu * kG * tr.t[k];
    if (expect < 0.1 * v0) break;
    EXPECT_NEAR(tr.vx[k], expect, 0.01 * v0) << "t = " << tr.t[k];
    ++checked;
  }
  EXPECT_GT(checked, 10);
  // It stops (friction cannot reverse the motion) and stays on the wall.
  EXPECT_NEAR(tr.vx.back(), 0.0, 1e-3 * v0);
  EXPECT_NEAR(tr.zc.back(), 2.5, 0.01);
}

// _ORTHO: the same block on a wall whose friction is 0.3 along a = (1, 1, 0) and 0.1 along b:
// sliding along x (45 degrees to both) the stick change is scaled back onto the ellipse along the
// motion, so the block keeps its direction and decelerates at mu g with mu = (cos^2 / mu_a^2 +
// sin^2 / mu_b^2)^-1/2 = 0.134; along a it decelerates at 0.3 g. The direction from two nodes.
TEST(RigidWall, OrthotropicFrictionFollowsItsEllipse) {
  auto slide = [](const std::string& dir_card, double vx0, double vy0) {
    return deck("ortho",
                "*CONTROL_TERMINATION\n    0.04\n" + kSmallStep + elastic_part() +
                    hex_block_cards(2, 2, 1, 10, 10, 5, 1) +
                    fmt::format("*INITIAL_VELOCITY_GENERATION\n         1         2       0.0"
                                "{:10.1f}{:10.1f}       0.0\n       0.0       0.0       0.0"
                                "       0.0       0.0       0.0\n",
                                vx0, vy0) +
                    "*LOAD_BODY_Z\n         1    9810.0\n" + kConstantCurve +
                    "*RIGIDWALL_PLANAR_ORTHO\n         0\n       0.0       0.0       0.0       "
                    "0.0       0.0       1.0\n       0.3       0.1       0.3       0.1\n" +
                    dir_card);
  };
  const double v0 = 200.0, mu_x = 1 / std::sqrt(0.5 / 0.09 + 0.5 / 0.01);
  const Trace tx = run(slide("         0         0       1.0       1.0       0.0\n", v0, 0));
  int checked = 0;
  for (std::size_t k = 0; k < tx.t.size(); k += 50) {
    EXPECT_NEAR(tx.vx[k], v0 - mu_x * kG * tx.t[k], 0.01 * v0) << "t = " << tx.t[k];
    ++checked;
  }
  EXPECT_GT(checked, 10);
  // along a, given by nodes 1 (0, 0, 0) and 9 (10, 10, 0) of the block: 0.3 g
  const double c = std::sqrt(0.5);
  const Trace ta = run(slide("         1         9\n", c * v0, c * v0));
  EXPECT_GT(ta.t.size(), 500u);
  for (std::size_t k = 0; k < ta.t.size(); k += 50) {
    EXPECT_NEAR(ta.vx[k], c * (v0 - 0.3 * kG * ta.t[k]), 0.01 * v0) << "t = " << ta.t[k];
  }
}

TEST(RigidWall, CylinderStopsNodesAtItsRadius) {
  // A block falls at 5 m/s onto a cylinder of radius 20 along x through the origin
  // (*RIGIDWALL_GEOMETRIC_CYLINDER): no node may end up inside the cylinder.
  const Model m = deck(
      "cylinder", "*CONTROL_TERMINATION\n    2.0e-3\n" + elastic_part() +
                      hex_block_cards(4, 4, 2, 20, 20, 5, 1, 1, 1, -10, -10, 20.5) +
                      "*INITIAL_VELOCITY_GENERATION\n         1         2       0.0       0.0"
                      "       0.0   -5000.0\n       0.0       0.0       0.0       0.0       0.0"
                      "       0.0\n"
                      "*RIGIDWALL_GEOMETRIC_CYLINDER\n         0\n"
                      "     -50.0       0.0       0.0      50.0       0.0       0.0       0.0\n"
                      "      20.0     100.0\n");
  RunOptions opt;
  opt.outdir = make_temp_dir("cyl").string();
  opt.write_vtk = false;
  opt.write_glstat = false;
  double min_r = 1e30;
  opt.on_cycle = [&](const Domain& d, const GlobalStats&) {
    for (std::size_t n = 0; n < d.nnode; ++n)
      min_r = std::min(min_r, std::hypot(d.x[3 * n + 1], d.x[3 * n + 2]));
    return true;
  };
  const RunSummary sum = run_explicit(m, opt);
  ASSERT_TRUE(sum.normal_termination) << sum.error;
  EXPECT_GE(min_r, 20.0 - 1e-9);
  EXPECT_LT(min_r, 20.0 + 0.01) << "the block must have reached the cylinder";
  EXPECT_GT(sum.final_stats.rigidwall, 0.0);
}

TEST(MassScaling, AddsMassToReachTheTargetStepAndReportsIt) {
  // DT2MS = -2e-6 with TSSFAC 0.9: elements whose stable step is below 2e-6 get density
  // (2e-6/dt_e)^2 times larger; the run's step becomes 0.9 * 2e-6 and the added mass is
  // reported (a 1 mm steel cube has dt_e ~ 1.7e-7 s: mass grows ~140 x).
  const Model m = deck("ms", "*CONTROL_TERMINATION\n    1.0e-4\n*CONTROL_TIMESTEP\n"
                             "              0.9                         -2.0e-6\n" +
                                 elastic_part() + hex_block_cards(2, 2, 2, 2, 2, 2, 1));
  RunOptions opt;
  opt.outdir = make_temp_dir("ms").string();
  opt.write_vtk = false;
  opt.write_glstat = false;
  const RunSummary sum = run_explicit(m, opt);
  ASSERT_TRUE(sum.normal_termination) << sum.error;
  EXPECT_NEAR(sum.dt_initial, 0.9 * 2e-6, 1e-9 * 2e-6);
  const double physical = 7.85e-9 * 8.0;
  EXPECT_GT(sum.final_stats.added_mass, 50 * physical);
  EXPECT_NEAR(sum.final_stats.mass, physical + sum.final_stats.added_mass, 1e-9 * physical);
}

TEST(RigidBody, PrescribedVelocityMovesTheBody) {
  // *BOUNDARY_PRESCRIBED_MOTION_RIGID: x velocity 2 m/s (curve 1 x SF 2000) for 1 ms.
  const Model m =
      deck("rigidpm", "*CONTROL_TERMINATION\n    1.0e-3\n*CONTROL_TIMESTEP\n    1.0e-6\n"
                      "*PART\nbody\n         1         1         1\n*SECTION_SOLID\n         1"
                      "         1\n*MAT_RIGID\n         1   7.85e-9  210000.0       0.3\n" +
                          hex_block_cards(2, 2, 2, 2, 2, 2, 1) +
                          "*BOUNDARY_PRESCRIBED_MOTION_RIGID\n         1         1         0"
                          "         1    2000.0\n*DEFINE_CURVE\n         1\n"
                          "                 0.0                 1.0\n"
                          "                 1.0                 1.0\n");
  RunOptions opt;
  opt.outdir = make_temp_dir("rigidpm").string();
  opt.write_vtk = false;
  opt.write_glstat = false;
  double xc = 0, t = 0;
  opt.on_cycle = [&](const Domain& d, const GlobalStats& s) {
    xc = d.bodies.at(0).xc[0];
    t = s.time;
    return true;
  };
  const RunSummary sum = run_explicit(m, opt);
  ASSERT_TRUE(sum.normal_termination) << sum.error;
  EXPECT_NEAR(xc, 1.0 + 2000.0 * t, 1e-9);
}

/// A 2 mm rigid cube (centre (3, 1, 1): offset so that the centre is not at the origin) with
/// an initial z velocity of 500 mm/s and one *BOUNDARY_PRESCRIBED_MOTION_RIGID card.
Model rigid_cube_with_motion(const std::string& tag, const std::string& motion) {
  return deck(tag, "*CONTROL_TERMINATION\n    1.0e-3\n*CONTROL_TIMESTEP\n    1.0e-6\n"
                   "*PART\nbody\n         1         1         1\n*SECTION_SOLID\n         1"
                   "         1\n*MAT_RIGID\n         1   7.85e-9  210000.0       0.3\n" +
                       hex_block_cards(2, 2, 2, 2, 2, 2, 1, 1, 1, 2.0) +
                       "*INITIAL_VELOCITY\n         0\n       0.0       0.0     500.0\n"
                       "*DEFINE_VECTOR\n$#     vid        xt        yt        zt        xh"
                       "        yh        zh       cid\n         7       1.0       1.0       5.0"
                       "       2.0       2.0       5.0         0\n"
                       "*DEFINE_CURVE\n         1\n                 0.0                 0.0\n"
                       "                 1.0                 1.0\n" +
                       motion);
}

struct BodyTrace {
  std::array<double, 3> xc{};
  std::array<double, 9> rot{};
  double t = 0;
};

BodyTrace run_body(const Model& m, const std::string& tag) {
  RunOptions opt;
  opt.outdir = make_temp_dir(tag).string();
  opt.write_vtk = false;
  opt.write_glstat = false;
  BodyTrace tr;
  opt.on_cycle = [&](const Domain& d, const GlobalStats& s) {
    tr.xc = d.bodies.at(0).xc;
    tr.rot = d.bodies.at(0).rot;
    tr.t = s.time;
    return true;
  };
  const RunSummary sum = run_explicit(m, opt);
  EXPECT_TRUE(sum.normal_termination) << sum.error;
  return tr;
}

TEST(RigidBody, PrescribedDisplacementAlongAVector) {
  // DOF 4, VAD 2: the centre moves 2000 t along (1,1,0)/sqrt(2) from its initial position;
  // the motion normal to the vector stays free (z velocity 500 mm/s; no motion along (1,-1,0)).
  const BodyTrace tr = run_body(
      rigid_cube_with_motion("pm4", "*BOUNDARY_PRESCRIBED_MOTION_RIGID_ID\n         3dof 4\n"
                                    "         1         4         2         1    2000.0         7"
                                    "       0.0       0.0\n"),
      "pm4_run");
  const double s = 2000.0 * tr.t / std::sqrt(2.0);
  EXPECT_NEAR(tr.xc[0], 3.0 + s, 1e-9);
  EXPECT_NEAR(tr.xc[1], 1.0 + s, 1e-9);
  EXPECT_NEAR(tr.xc[2], 1.0 + 500.0 * tr.t, 1e-9);
  EXPECT_GT(tr.t, 0.99e-3);
}

TEST(RigidBody, PrescribedVelocityAlongAVectorOnly) {
  // DOF -4, VAD 0: velocity 2000 mm/s along the vector and none normal to it (z stays).
  const BodyTrace tr =
      run_body(rigid_cube_with_motion(
                   "pm4n", "*BOUNDARY_PRESCRIBED_MOTION_RIGID\n"
                           "         1        -4         0         2    2000.0         7\n"
                           "*DEFINE_CURVE\n         2\n                 0.0"
                           "                 1.0\n                 1.0"
                           "                 1.0\n"),
               "pm4n_run");
  const double s = 2000.0 * tr.t / std::sqrt(2.0);
  EXPECT_NEAR(tr.xc[0], 3.0 + s, 1e-9);
  EXPECT_NEAR(tr.xc[1], 1.0 + s, 1e-9);
  EXPECT_NEAR(tr.xc[2], 1.0, 1e-9);
}

TEST(RigidBody, PrescribedAngularVelocityAboutAVector) {
  // DOF 8, VAD 0: 1000 rad/s about the vector (0,0,1) (tail (0,0,1), head (0,0,3)) through the
  // centre of mass: after t the body has turned 1000 t about z; the centre keeps moving in z.
  const BodyTrace tr = run_body(
      rigid_cube_with_motion("pm8", "*DEFINE_VECTOR\n         8       0.0       0.0       1.0"
                                    "       0.0       0.0       3.0\n"
                                    "*BOUNDARY_PRESCRIBED_MOTION_RIGID\n"
                                    "         1         8         0         2    1000.0         8\n"
                                    "*DEFINE_CURVE\n         2\n                 0.0"
                                    "                 1.0\n                 1.0"
                                    "                 1.0\n"),
      "pm8_run");
  const double a = 1000.0 * tr.t;
  EXPECT_NEAR(tr.rot[0], std::cos(a), 1e-9);
  EXPECT_NEAR(tr.rot[1], -std::sin(a), 1e-9);
  EXPECT_NEAR(tr.rot[3], std::sin(a), 1e-9);
  EXPECT_NEAR(tr.rot[8], 1.0, 1e-12);
  EXPECT_NEAR(tr.xc[0], 3.0, 1e-9);
  EXPECT_NEAR(tr.xc[2], 1.0 + 500.0 * tr.t, 1e-9);
}

TEST(PrescribedMotion, NodeSetDisplacementAlongAVector) {
  // DOF 4, VAD 2 on every node of an elastic block: each node moves 2000 t along (1,1,0)/sqrt(2)
  // (a rigid translation, so no stress); the z motion stays free (500 mm/s).
  const Model m =
      deck("pm4set", "*CONTROL_TERMINATION\n    1.0e-4\n" + kSmallStep + elastic_part() +
                         hex_block_cards(1, 1, 1, 2, 2, 2, 1) +
                         "*SET_NODE_GENERAL\n         5\nALL\n"
                         "*INITIAL_VELOCITY\n         0\n       0.0       0.0     500.0\n"
                         "*DEFINE_VECTOR\n         7       0.0       0.0       0.0"
                         "       1.0       1.0       0.0\n"
                         "*DEFINE_CURVE\n         1\n                 0.0"
                         "                 0.0\n                 1.0"
                         "                 1.0\n"
                         "*BOUNDARY_PRESCRIBED_MOTION_SET\n"
                         "         5         4         2         1    2000.0         7\n");
  RunOptions opt;
  opt.outdir = make_temp_dir("pm4set_run").string();
  opt.write_vtk = false;
  opt.write_glstat = false;
  double err = 0, t = 0;
  opt.on_cycle = [&](const Domain& d, const GlobalStats& st) {
    t = st.time;
    const double s = 2000.0 * t / std::sqrt(2.0);
    err = 0;
    for (std::size_t n = 0; n < d.nnode; ++n) {
      err = std::max(err, std::abs(d.x[3 * n] - d.x0[3 * n] - s));
      err = std::max(err, std::abs(d.x[3 * n + 1] - d.x0[3 * n + 1] - s));
      err = std::max(err, std::abs(d.x[3 * n + 2] - d.x0[3 * n + 2] - 500.0 * t));
    }
    return true;
  };
  const RunSummary sum = run_explicit(m, opt);
  ASSERT_TRUE(sum.normal_termination) << sum.error;
  EXPECT_GT(t, 0.99e-4);
  EXPECT_LT(err, 1e-9);
}

TEST(RigidWall, FiniteWallStopsOnlyNodesOverItsArea) {
  // *RIGIDWALL_PLANAR_FINITE at z = 0 spanning x in [0, 10], y in [0, 10] (LENL x LENM along the
  // local l axis (1,0,0) and m = n x l = (0,1,0)): block A over it stops, block B beside it
  // (x in [20, 25]) falls through.
  const Model m =
      deck("finite",
           "*CONTROL_TERMINATION\n    2.0e-4\n" + kSmallStep + elastic_part() +
               hex_block_cards(1, 1, 1, 5, 5, 5, 1, 1, 1, 2, 2, 0.5) +
               hex_block_cards(1, 1, 1, 5, 5, 5, 1, 101, 101, 20, 2, 0.5) +
               "*INITIAL_VELOCITY_GENERATION\n         1         2       0.0       0.0       0.0"
               "  -10000.0\n       0.0       0.0       0.0       0.0       0.0       0.0\n"
               "*RIGIDWALL_PLANAR_FINITE\n         0\n"
               "       0.0       0.0       0.0       0.0       0.0       1.0       0.0\n"
               "      10.0       0.0       0.0      10.0      10.0\n");
  RunOptions opt;
  opt.outdir = make_temp_dir("finite").string();
  opt.write_vtk = false;
  opt.write_glstat = false;
  double zmin_a = 1e30, zmin_b = 1e30;
  opt.on_cycle = [&](const Domain& d, const GlobalStats&) {
    for (std::size_t n = 0; n < d.nnode; ++n) {
      const double z = d.x[3 * n + 2];
      if (d.node_id[n] < 100)
        zmin_a = std::min(zmin_a, z);
      else
        zmin_b = std::min(zmin_b, z);
    }
    return true;
  };
  const RunSummary sum = run_explicit(m, opt);
  ASSERT_TRUE(sum.normal_termination) << sum.error;
  EXPECT_GE(zmin_a, -1e-12);
  // B moves 10000 mm/s * 2e-4 s = 2 mm: from z = 0.5 to about -1.5.
  EXPECT_NEAR(zmin_b, -1.5, 0.05);
}

TEST(RigidBody, MatRigidConstraintsFixTheChosenDegreesOfFreedom) {
  // *MAT_RIGID CMO = 1, CON1 = 4 (x and y translations fixed), CON2 = 7 (all rotations fixed):
  // given velocity (1000, 2000, 3000) and a spin, only the z translation survives.
  const Model m =
      deck("rigidcon", "*CONTROL_TERMINATION\n    1.0e-3\n*CONTROL_TIMESTEP\n    1.0e-6\n"
                       "*PART\nbody\n         1         1         1\n*SECTION_SOLID\n         1"
                       "         1\n*MAT_RIGID\n         1   7.85e-9  210000.0       0.3\n"
                       "       1.0       4.0       7.0\n\n" +
                           hex_block_cards(2, 2, 2, 2, 2, 2, 1) +
                           "*INITIAL_VELOCITY_GENERATION\n         1         2     100.0    1000.0"
                           "    2000.0    3000.0\n       1.0       1.0       1.0       0.0       "
                           "0.0       1.0\n");
  RunOptions opt;
  opt.outdir = make_temp_dir("rigidcon").string();
  opt.write_vtk = false;
  opt.write_glstat = false;
  std::array<Real, 3> xc{};
  std::array<Real, 9> rot{};
  double t = 0;
  opt.on_cycle = [&](const Domain& d, const GlobalStats& s) {
    xc = d.bodies.at(0).xc;
    rot = d.bodies.at(0).rot;
    t = s.time;
    return true;
  };
  const RunSummary sum = run_explicit(m, opt);
  ASSERT_TRUE(sum.normal_termination) << sum.error;
  EXPECT_NEAR(xc[0], 1.0, 1e-12);
  EXPECT_NEAR(xc[1], 1.0, 1e-12);
  EXPECT_NEAR(xc[2], 1.0 + 3000.0 * t, 1e-9);
  for (int i = 0; i < 9; ++i) EXPECT_NEAR(rot[i], (i % 4 == 0) ? 1.0 : 0.0, 1e-12);
}

TEST(InitialVelocity, BoxAndLocalFrameSelectAndOrientTheVelocity) {
  // Two free blocks 10 mm apart; *INITIAL_VELOCITY with BOXID around the second block only and
  // ICID a frame turned 90 degrees about z (local x = global y). Each block moves rigidly (no
  // strain, no force), so the velocities stay exactly as set: (0, 2000, 0) in the box, zero
  // outside. Compared to 1e-9 relative (round-off of a rigid translation).
  const Model m =
      deck("ivbox", "*CONTROL_TERMINATION\n    1.0e-4\n" + kSmallStep + elastic_part() +
                        hex_block_cards(1, 1, 1, 10, 10, 10, 1) +
                        hex_block_cards(1, 1, 1, 10, 10, 10, 1, 101, 101, 20, 0, 0) +
                        "*DEFINE_BOX\n         5      15.0      35.0      -1.0      11.0      -1.0"
                        "      11.0\n"
                        "*DEFINE_COORDINATE_SYSTEM\n         2       0.0       0.0       0.0"
                        "       0.0       1.0       0.0\n      -1.0       0.0       0.0\n"
                        "*INITIAL_VELOCITY\n         0         0         5         0         2\n"
                        "    2000.0       0.0       0.0\n");
  RunOptions opt;
  opt.outdir = make_temp_dir("ivbox_run").string();
  opt.write_vtk = false;
  opt.write_glstat = false;
  int cycles = 0;
  opt.on_cycle = [&](const Domain& d, const GlobalStats&) {
    for (std::size_t n = 0; n < d.nnode; ++n) {
      const bool in_box = d.x0[3 * n] > 15.0;
      EXPECT_NEAR(d.v[3 * n], 0.0, 1e-9 * 2000.0);
      EXPECT_NEAR(d.v[3 * n + 1], in_box ? 2000.0 : 0.0, 1e-9 * 2000.0) << "node " << n;
      EXPECT_NEAR(d.v[3 * n + 2], 0.0, 1e-9 * 2000.0);
    }
    ++cycles;
    return cycles < 20;
  };
  run_explicit(m, opt);
  EXPECT_EQ(cycles, 20);
}

TEST(Tetrahedra, Elform10IsTheConstantStrainTetrahedronWithLumpedMass) {
  // A unit cube split into five tetrahedra (ELFORM 10), elastic, initial velocity v_x = a x.
  // Lumped mass: rho V / 4 per tetrahedron node, so the nodal masses sum to rho (cube volume 1)
  // and the corner nodes touched by one tetrahedron get rho / 24 (1/6 volume / 4). Constant
  // strain: after the first cycle every tetrahedron has the same stress C : (L dt) with
  // L = diag(a, 0, 0): sigma_xx = (lambda + 2G) a dt, sigma_yy = sigma_zz = lambda a dt, no
  // shear, to 1e-6 relative (the kernel's strain increment uses the mid-step geometry, which
  // differs from the initial one by a dt / 2 ~ 1e-7 here; a wrong mean strain would be off by
  // O(1)) -- what a one-point hexahedron collapsed to a tetrahedron must give; no hourglass
  // energy (a tetrahedron has no hourglass modes).
  const double a = 1.0, rho = 7.85e-9, e = 210000.0, nu = 0.3;
  const std::string nodes = "*NODE\n1,0,0,0\n2,1,0,0\n3,1,1,0\n4,0,1,0\n5,0,0,1\n6,1,0,1\n"
                            "7,1,1,1\n8,0,1,1\n";
  // Five-tetrahedron split of the cube: four corner tetrahedra and the central one.
  const std::string tets = "*ELEMENT_SOLID\n1,1,1,2,4,5\n2,1,3,4,2,7\n3,1,6,5,7,2\n"
                           "4,1,8,7,5,4\n5,1,2,4,5,7\n";
  std::string vel;
  for (int n = 1; n <= 8; ++n) {
    const double x = (n == 2 || n == 3 || n == 6 || n == 7) ? 1.0 : 0.0;
    vel += fmt::format("{},{},0,0\n", n, a * x);
  }
  const Model m = deck("tet10", "*CONTROL_TERMINATION\n    1.0e-5\n" + nodes + tets +
                                    "*PART\ntets\n1,1,1\n*SECTION_SOLID\n1,10\n"
                                    "*MAT_ELASTIC\n1,7.85e-9,210000.0,0.3\n"
                                    "*INITIAL_VELOCITY_NODE\n" +
                                    vel);
  RunOptions opt;
  opt.outdir = make_temp_dir("tet10_run").string();
  opt.write_vtk = false;
  opt.write_glstat = false;
  const double lambda = e * nu / ((1 + nu) * (1 - 2 * nu)), g = e / (2 * (1 + nu));
  int cycles = 0;
  opt.on_cycle = [&](const Domain& d, const GlobalStats& s) {
    ++cycles;
    double total = 0;
    for (std::size_t n = 0; n < d.nnode; ++n) total += d.mass[n];
    EXPECT_NEAR(total, rho, 1e-12 * rho);
    EXPECT_NEAR(d.mass[0], rho / 24, 1e-12 * rho); // node 1: corner tetrahedron 1 only
    EXPECT_NEAR(d.mass[1], 3 * rho / 24 + rho / 12, 1e-12 * rho); // node 2: 3 corners + centre
    const auto& blk = d.solids.at(0).blk;
    EXPECT_TRUE(d.solids.at(0).opt.tetrahedra);
    const double dt = s.dt;
    const double tol = 1e-6 * (lambda + 2 * g) * a * dt;
    for (std::size_t k = 0; k < blk.size(); ++k) {
      EXPECT_NEAR(blk.sig[6 * k], (lambda + 2 * g) * a * dt, tol) << "tetrahedron " << k;
      EXPECT_NEAR(blk.sig[6 * k + 1], lambda * a * dt, tol);
      EXPECT_NEAR(blk.sig[6 * k + 2], lambda * a * dt, tol);
      EXPECT_NEAR(blk.sig[6 * k + 3], 0.0, tol);
      EXPECT_NEAR(blk.sig[6 * k + 4], 0.0, tol);
    }
    EXPECT_EQ(s.hourglass, 0.0);
    return false;
  };
  run_explicit(m, opt);
  EXPECT_EQ(cycles, 1);
  // A hexahedron in an ELFORM 10 part is refused, naming the element.
  const auto dir = make_temp_dir("tet10_bad");
  write_file(dir / "deck.k", "*KEYWORD\n*CONTROL_TERMINATION\n1e-5\n" + nodes +
                                 "*ELEMENT_SOLID\n9,1,1,2,3,4,5,6,7,8\n*PART\nhex\n1,1,1\n"
                                 "*SECTION_SOLID\n1,10\n*MAT_ELASTIC\n1,7.85e-9,2.1e5,0.3\n*END\n");
  try {
    read_deck((dir / "deck.k").string());
    ADD_FAILURE() << "hexahedron accepted as ELFORM 10";
  } catch (const InputError& err) {
    EXPECT_NE(std::string(err.what()).find("solid element 9 of part 1"), std::string::npos)
        << err.what();
  }
}
