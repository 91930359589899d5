// The work of a prescribed rigid-body motion is external work (as LS-DYNA's glstat counts the
// work of prescribed motion). (1) An elastic column, fixed at its base, compressed through a
// rigid shell cap on its top nodes (*BOUNDARY_PRESCRIBED_MOTION_RIGID) against the same column
// driven through its top nodes directly (*BOUNDARY_PRESCRIBED_MOTION_SET, whose work parcae
// already counted): the same external work, and the same energy balance (measured: rigid
// 5.19e-3, nodal 5.14e-3 of the work: the scheme's half-step kinetic energy on this coarse wave
// problem); without the constraint's work the rigid case's external work would be zero.
// (2) A free rigid body spun up by a prescribed angular velocity: the work is its kinetic
// energy (exact sums of the same quantities: 1e-12).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include <fmt/format.h>

#include "input/keyword_reader.hpp"
#include "solvers/explicit/solver.hpp"
#include "test_support.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

GlobalStats run_deck(const std::string& tag, const std::string& body) {
  const auto dir = make_temp_dir(tag);
  write_file(dir / "deck.k", "*KEYWORD\n" + body + "*END\n");
  const Model m = read_deck((dir / "deck.k").string());
  RunOptions opt;
  opt.outdir = make_temp_dir(tag).string();
  opt.write_vtk = false;
  opt.write_glstat = false;
  const RunSummary sum = run_explicit(m, opt);
  EXPECT_TRUE(sum.normal_termination) << sum.error;
  return sum.final_stats;
}

/// The column (1 x 1 x 4 mm, 4 hexahedra, base fixed), its top nodes 17-20 driven down at
/// 1 m/s (after a 10 us ramp) for 20 us, either through a rigid shell cap on those nodes
/// (*BOUNDARY_PRESCRIBED_MOTION_RIGID) or directly (*BOUNDARY_PRESCRIBED_MOTION_SET).
std::string column_deck(bool rigid_cap) {
  // (few-element models need TSSFAC 0.6: see test_loads_and_walls.cpp)
  std::string d = "*CONTROL_TERMINATION\n    2.0e-5\n*CONTROL_TIMESTEP\n              0.6\n";
  d += "*PART\ncolumn\n         1         1         1\n*SECTION_SOLID\n         1         1\n"
       "*MAT_ELASTIC\n         1   7.85e-9  210000.0       0.3\n";
  d += hex_block_cards(1, 1, 4, 1.0, 1.0, 4.0, 1);
  d += node_set_card(1, {1, 2, 3, 4});
  d += node_set_card(2, {17, 18, 19, 20});
  d += "*BOUNDARY_SPC_SET\n         1         0         1         1         1\n";
  d += "*DEFINE_CURVE\n         1\n                 0.0                 0.0\n"
       "              1.0e-5                 1.0\n                 1.0                 1.0\n";
  if (rigid_cap) {
    d += "*PART\ncap\n         2         2         2\n*SECTION_SHELL\n         2         2\n"
         "      0.01      0.01      0.01      0.01\n"
         "*MAT_RIGID\n         2   7.85e-9  210000.0       0.3\n";
    d += "*ELEMENT_SHELL\n     100       2      17      18      20      19\n";
    d += "*BOUNDARY_PRESCRIBED_MOTION_RIGID\n         2         3         0         1   -1000.0\n";
  } else {
    d += "*BOUNDARY_PRESCRIBED_MOTION_SET\n         2         3         0         1   -1000.0\n";
  }
  return d;
}

} // namespace

TEST(PrescribedRigidMotionWork, ColumnCompressedThroughARigidCap) {
  const GlobalStats r = run_deck("rigidwork", column_deck(true));
  const GlobalStats n = run_deck("nodalwork", column_deck(false));
  ASSERT_GT(r.external_work, 0.0);
  ASSERT_GT(r.internal, 0.1 * r.external_work); // the column was really compressed
  // the same compression either way (the cap's 0.01 mm shell adds 1 % to the top nodes'
  // mass): the same work within 2 %
  EXPECT_NEAR(r.external_work, n.external_work, 0.02 * n.external_work);
  // and the same energy balance: the explicit scheme's half-step kinetic energy against
  // the integer-step internal energy leaves ~0.5 % here (coarse wave problem, TSSFAC 0.6)
  // for the nodal motion too; 1 % for both
  EXPECT_NEAR(n.total, n.external_work, 0.01 * n.external_work);
  EXPECT_NEAR(r.total, r.external_work, 0.01 * r.external_work);
  char buf[96];
  std::snprintf(buf, sizeof buf, "rigid %.3e nodal %.3e", std::abs(r.total / r.external_work - 1),
                std::abs(n.total / n.external_work - 1));
  RecordProperty("energy_balance_error", buf);
}

TEST(PrescribedRigidMotionWork, SpinUpOfAFreeBody) {
  // a rigid 2 mm cube spun about z at 2000 rad/s from rest: the work is 1/2 I w^2, the kinetic
  // energy at the end
  std::string d = "*CONTROL_TERMINATION\n    1.0e-4\n*CONTROL_TIMESTEP\n    1.0e-6\n";
  d += "*PART\nbody\n         1         1         1\n*SECTION_SOLID\n         1         1\n"
       "*MAT_RIGID\n         1   7.85e-9  210000.0       0.3\n";
  d += hex_block_cards(2, 2, 2, 2.0, 2.0, 2.0, 1);
  d += "*BOUNDARY_PRESCRIBED_MOTION_RIGID\n         1         7         0         1    2000.0\n";
  d += "*DEFINE_CURVE\n         1\n                 0.0                 1.0\n"
       "                 1.0                 1.0\n";
  const GlobalStats s = run_deck("rigidspin", d);
  ASSERT_GT(s.kinetic, 0.0);
  EXPECT_NEAR(s.external_work, s.kinetic, 1e-12 * s.kinetic);
  EXPECT_NEAR(s.total, s.external_work, 1e-12 * s.kinetic);
}
