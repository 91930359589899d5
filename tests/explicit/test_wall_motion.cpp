// Geometric rigid walls: *RIGIDWALL_GEOMETRIC_FLAT (a finite plane), _MOTION (a prescribed
// translation, by velocity or displacement), the walls' BIRTH and DEATH, and *RIGIDWALL_PLANAR's
// _FORCES and _DISPLAY cards.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "input/keyword_reader.hpp"
#include "solvers/explicit/solver.hpp"
#include "test_support.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

Model deck(const std::string& tag, const std::string& body) {
  const auto dir = make_temp_dir(tag);
  write_file(dir / "deck.k", "*KEYWORD\n" + body + "*END\n");
  return read_deck((dir / "deck.k").string());
}

const std::string kElasticPart = "*PART\nblock\n         1         1         1\n*SECTION_SOLID\n"
                                 "         1         1\n*MAT_ELASTIC\n         1 7.850e-09"
                                 "  210000.0       0.3\n";
const std::string kSmallStep = "*CONTROL_TIMESTEP\n              0.6\n";

RunOptions quiet(const std::string& tag) {
  RunOptions opt;
  opt.outdir = make_temp_dir(tag).string();
  opt.write_vtk = false;
  opt.write_glstat = false;
  return opt;
}

/// A block resting on a flat wall at z = 0 that moves up along (0, 0, 2) (normalised) by the
/// given _MOTION card and curve 1; returns the worst penetration of the wall (its position by
/// wall_z(t)) and the final stats.
struct MotionRun {
  double worst_below = 0;
  double zmin_end = 0;
  GlobalStats last;
};

MotionRun run_motion(const std::string& tag, int opt, const std::string& curve,
                     const std::function<double(double)>& wall_z) {
  const Model m =
      deck(tag, "*CONTROL_TERMINATION\n    2.0e-4\n" + kSmallStep + kElasticPart +
                    hex_block_cards(2, 2, 1, 10, 10, 5, 1, 1, 1, 0, 0, 0) +
                    "*RIGIDWALL_GEOMETRIC_FLAT_MOTION_DISPLAY\n         0\n"
                    "     -10.0     -10.0       0.0     -10.0     -10.0       1.0       0.0\n"
                    "      10.0     -10.0       0.0      40.0      40.0\n" +
                    fmt::format("         1{:10d}       0.0       0.0       2.0\n", opt) +
                    "        99       0.0       0.0       0.0\n" + curve);
  RunOptions o = quiet(tag);
  MotionRun r;
  o.on_cycle = [&](const Domain& d, const GlobalStats& s) {
    double zmin = 1e30;
    for (std::size_t n = 0; n < d.nnode; ++n) zmin = std::min(zmin, d.x[3 * n + 2]);
    r.worst_below = std::max(r.worst_below, wall_z(s.time) - zmin);
    r.zmin_end = zmin;
    r.last = s;
    return true;
  };
  const RunSummary sum = run_explicit(m, o);
  EXPECT_TRUE(sum.normal_termination) << sum.error;
  std::printf("%s: base at %.6f, below the wall by %.2e at worst, vz %.2f, energy ratio %.6f\n",
              tag.c_str(), r.zmin_end, r.worst_below, r.last.vz, r.last.energy_ratio());
  return r;
}

} // namespace

// The wall starts from rest and accelerates steadily (a = 5e6 mm/s^2), so the block is pushed
// quasi-statically: the inertial stress at its base, rho h a ~ 0.2 MPa, strains it by 1e-6, so
// its lowest node stays on the wall (to 1e-4 mm) and its velocity is the wall's. (A wall that
// starts at full speed slams the block off itself, and the energy of such impulsive constraints
// is not balanced by central differences: the block's motion is then no closed form.)
TEST(WallMotion, FlatWallFollowsAVelocityCurve) {
  // OPT 0: LCID is the wall's speed along (0, 0, 2) normalised, ramping 0 -> 1000 mm/s over the
  // run: the wall, and the block's base, rise by 1000/2 * 2e-4 = 0.1 mm.
  const MotionRun r =
      run_motion("wall_motion_v", 0,
                 "*DEFINE_CURVE\n         1\n                 0.0                 0.0\n"
                 "              2.0e-4              1000.0\n",
                 [](double t) { return 0.5 * 1000.0 / 2e-4 * t * t; });
  EXPECT_LT(r.worst_below, 1e-9);
  EXPECT_NEAR(r.zmin_end, 0.1, 1e-4);
  EXPECT_NEAR(r.last.vz, 1000.0, 10.0);
  // the wall's work is external work, all of it in the block (no rigid-wall energy)
  EXPECT_GT(r.last.external_work, 0.0);
  EXPECT_EQ(r.last.rigidwall, 0.0);
  EXPECT_NEAR(r.last.energy_ratio(), 1.0, 1e-4); // measured: 1 - 1e-6
}

TEST(WallMotion, FlatWallFollowsADisplacementCurve) {
  // OPT 1: LCID is the wall's displacement, d = 0.5 (t / 2e-4)^2 (the speed ramps 0 -> 5000
  // mm/s): the block's base ends at the wall's final position, 0.5 mm.
  std::string curve = "*DEFINE_CURVE\n         1\n";
  for (int k = 0; k <= 40; ++k) {
    const double t = 2e-4 * k / 40.0;
    curve += fmt::format("{:20.10e}{:20.10e}\n", t, 0.5 * (k / 40.0) * (k / 40.0));
  }
  const MotionRun r =
      run_motion("wall_motion_d", 1, curve, [](double t) { return 0.5 * (t / 2e-4) * (t / 2e-4); });
  EXPECT_LT(r.worst_below, 1e-3); // the curve's chords against the parabola: 4e-5 mm
  // the wall's speed jumps at each of the curve's 40 points, which rings the block a little
  // (measured: base 1e-4 mm off the wall's position, energy ratio 1.0013)
  EXPECT_NEAR(r.zmin_end, 0.5, 3e-4);
  EXPECT_NEAR(r.last.vz, 5000.0, 150.0); // the last chord's slope: 4938 mm/s
  EXPECT_NEAR(r.last.energy_ratio(), 1.0, 0.005);
}

TEST(WallMotion, BirthAndDeathBoundTheWallsLife) {
  // Three blocks fall at 10 m/s from 0.5 mm above z = 0 (they reach it at 5e-5 s), each over
  // its own flat wall: A's wall lives throughout and stops it; B's dies at 1e-5 s (before the
  // block arrives); C's is born at 1e-4 s (after the block passed: a node behind a wall is left
  // alone, as in LS-DYNA). B and C fall 2 mm, to z = -1.5.
  auto flat = [](double x0, double birth, double death) {
    return fmt::format("*RIGIDWALL_GEOMETRIC_FLAT\n         0         0         0{:10.3e}{:10.3e}"
                       "\n{:10.1f}       0.0       0.0{:10.1f}       0.0       1.0       0.0\n"
                       "{:10.1f}       0.0       0.0      10.0      10.0\n",
                       birth, death, x0, x0, x0 + 10);
  };
  const Model m =
      deck("wall_life",
           "*CONTROL_TERMINATION\n    2.0e-4\n" + kSmallStep + kElasticPart +
               hex_block_cards(1, 1, 1, 5, 5, 5, 1, 1, 1, 2, 2, 0.5) +
               hex_block_cards(1, 1, 1, 5, 5, 5, 1, 101, 101, 22, 2, 0.5) +
               hex_block_cards(1, 1, 1, 5, 5, 5, 1, 201, 201, 42, 2, 0.5) +
               "*INITIAL_VELOCITY_GENERATION\n         1         2       0.0       0.0       0.0"
               "  -10000.0\n       0.0       0.0       0.0       0.0       0.0       0.0\n" +
               flat(0, 0, 0) + flat(20, 0, 1e-5) + flat(40, 1e-4, 0));
  RunOptions o = quiet("wall_life");
  double zmin[3] = {1e30, 1e30, 1e30};
  o.on_cycle = [&](const Domain& d, const GlobalStats&) {
    for (std::size_t n = 0; n < d.nnode; ++n) {
      const int k = static_cast<int>(d.node_id[n] / 100);
      zmin[k] = std::min(zmin[k], d.x[3 * n + 2]);
    }
    return true;
  };
  const RunSummary sum = run_explicit(m, o);
  ASSERT_TRUE(sum.normal_termination) << sum.error;
  EXPECT_GE(zmin[0], -1e-12);
  EXPECT_NEAR(zmin[1], -1.5, 0.05);
  EXPECT_NEAR(zmin[2], -1.5, 0.05);
}

TEST(WallMotion, PrismStopsNodesAtEachFace) {
  // *RIGIDWALL_GEOMETRIC_PRISM: the box x in [0, 10], y in [0, 10], z in [-5, 0] (normal +z,
  // l = +x, LENP = 5 below the top face). Block A falls onto its top face and stops there; block
  // B (part 2) moves in -x into its +x face and stops there; block C, beside it, falls past.
  const std::string part2 = "*PART\nB\n         2         1         1\n";
  const Model m =
      deck("wall_prism",
           "*CONTROL_TERMINATION\n    2.0e-4\n" + kSmallStep + kElasticPart + part2 +
               hex_block_cards(1, 1, 1, 5, 5, 5, 1, 1, 1, 2, 2, 0.5) +
               hex_block_cards(1, 1, 1, 1, 5, 3, 2, 101, 101, 10.5, 2, -4) +
               hex_block_cards(1, 1, 1, 5, 5, 5, 1, 201, 201, 20, 2, 0.5) +
               "*INITIAL_VELOCITY_GENERATION\n         1         2       0.0       0.0       0.0"
               "  -10000.0\n       0.0       0.0       0.0       0.0       0.0       0.0\n"
               "*INITIAL_VELOCITY_GENERATION\n         2         2       0.0  -10000.0       0.0"
               "       0.0\n       0.0       0.0       0.0       0.0       0.0       0.0\n"
               "*RIGIDWALL_GEOMETRIC_PRISM_ID\n        77 box\n         0\n"
               "       0.0       0.0       0.0       0.0       0.0       1.0       0.0\n"
               "       1.0       0.0       0.0      10.0      10.0       5.0\n");
  ASSERT_EQ(m.rigid_walls.size(), 1U);
  EXPECT_EQ(m.rigid_walls[0].id, 77);
  RunOptions o = quiet("wall_prism");
  double zmin_a = 1e30, xmin_b = 1e30, zmin_c = 1e30;
  o.on_cycle = [&](const Domain& d, const GlobalStats&) {
    for (std::size_t n = 0; n < d.nnode; ++n) {
      const GlobalId id = d.node_id[n];
      if (id < 100)
        zmin_a = std::min(zmin_a, d.x[3 * n + 2]);
      else if (id < 200)
        xmin_b = std::min(xmin_b, d.x[3 * n]);
      else
        zmin_c = std::min(zmin_c, d.x[3 * n + 2]);
    }
    return true;
  };
  const RunSummary sum = run_explicit(m, o);
  ASSERT_TRUE(sum.normal_termination) << sum.error;
  EXPECT_GE(zmin_a, -1e-12);
  EXPECT_LT(zmin_a, 1e-3); // it reached the top face
  EXPECT_GE(xmin_b, 10.0 - 1e-12);
  EXPECT_LT(xmin_b, 10.0 + 1e-3); // it reached the side face
  EXPECT_NEAR(zmin_c, -1.5, 0.05);
  EXPECT_GT(sum.final_stats.rigidwall, 0.0);
}

TEST(WallMotion, CardsAndErrors) {
  const std::string base = "*CONTROL_TERMINATION\n    2.0e-4\n" + kElasticPart +
                           hex_block_cards(1, 1, 1, 5, 5, 5, 1, 1, 1, 0, 0, 0.5);
  // *RIGIDWALL_PLANAR with every option card: _FORCES (SOFT 0; its output nodes: a warning) and
  // _DISPLAY (ignored)
  const Model m =
      deck("wall_cards", base + "*RIGIDWALL_PLANAR_FINITE_MOVING_FORCES_DISPLAY\n         0\n"
                                "       0.0       0.0       0.0       0.0       0.0       1.0\n"
                                "      10.0       0.0       0.0      10.0      10.0\n"
                                "       1.0       0.0\n"
                                "         0         0         1         2         3         4\n"
                                "        99       1.0       1.0       0.3\n");
  ASSERT_EQ(m.rigid_walls.size(), 1U);
  EXPECT_TRUE(m.rigid_walls[0].finite);
  EXPECT_TRUE(m.rigid_walls[0].moving);
  EXPECT_TRUE(std::any_of(m.notes.begin(), m.notes.end(), [](const KeywordNote& n) {
    return n.message.find("force-distribution output") != std::string::npos;
  }));
  auto error = [&](const std::string& tag, const std::string& wall) -> std::string {
    try {
      (void)deck(tag, base + wall);
    } catch (const std::exception& e) {
      return e.what();
    }
    return "";
  };
  std::string msg = error("wall_soft", "*RIGIDWALL_PLANAR_FORCES\n         0\n"
                                       "       0.0       0.0       0.0       0.0       0.0       "
                                       "1.0\n         5\n");
  EXPECT_NE(msg.find("SOFT = 5"), std::string::npos) << msg;
  msg = error("wall_lenl", "*RIGIDWALL_GEOMETRIC_FLAT\n         0\n"
                           "       0.0       0.0       0.0       0.0       0.0       1.0\n"
                           "       1.0       0.0       0.0       0.0      10.0\n");
  EXPECT_NE(msg.find("LENL = 0 must be positive"), std::string::npos) << msg;
  msg = error("wall_lenp", "*RIGIDWALL_GEOMETRIC_PRISM\n         0\n"
                           "       0.0       0.0       0.0       0.0       0.0       1.0\n"
                           "       1.0       0.0       0.0      10.0      10.0\n");
  EXPECT_NE(msg.find("LENP = 0 must be positive"), std::string::npos) << msg;
  // the edge vector along the normal: the rectangle has no direction
  msg = error("wall_edge", "*RIGIDWALL_GEOMETRIC_FLAT\n         0\n"
                           "       0.0       0.0       0.0       0.0       0.0       1.0\n"
                           "       0.0       0.0       5.0      10.0      10.0\n");
  EXPECT_NE(msg.find("edge vector"), std::string::npos) << msg;
  msg = error("wall_table", "*RIGIDWALL_GEOMETRIC_CYLINDER_MOTION\n         0\n"
                            "       0.0       0.0       0.0       1.0       0.0       0.0\n"
                            "       1.0       1.0\n         7         0       1.0\n"
                            "*DEFINE_CURVE\n8\n0,1\n1,1\n*DEFINE_TABLE\n7\n1.0,8\n");
  EXPECT_NE(msg.find("7 is a *DEFINE_TABLE; a curve is needed"), std::string::npos) << msg;
  msg = error("wall_dir", "*RIGIDWALL_GEOMETRIC_CYLINDER_MOTION\n         0\n"
                          "       0.0       0.0       0.0       1.0       0.0       0.0\n"
                          "       1.0       1.0\n         1\n");
  EXPECT_NE(msg.find("direction of motion"), std::string::npos) << msg;
  msg = error("wall_curve", "*RIGIDWALL_GEOMETRIC_CYLINDER_MOTION\n         0\n"
                            "       0.0       0.0       0.0       1.0       0.0       0.0\n"
                            "       1.0       1.0\n         7         0       1.0\n");
  EXPECT_NE(msg.find("curve 7"), std::string::npos) << msg;
}
