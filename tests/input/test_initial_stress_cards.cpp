// *INITIAL_STRESS_SOLID (_SET) cards in their layouts: one point (10-column fields), eight points
// of a fully integrated hexahedron (the mean, with a note), LARGE = 1 (16-column fields on two
// lines) with the history values that follow each point skipped, a solid set, the last card for
// an element winning; the refusals name the field, and the implicit solver refuses the keyword.
#include <gtest/gtest.h>

#include <algorithm>

#include "keyword_test_util.hpp"

namespace parcae::test {
namespace {

bool has_note(const Model& m, const std::string& text) {
  return std::any_of(m.notes.begin(), m.notes.end(), [&](const KeywordNote& n) {
    return n.message.find(text) != std::string::npos;
  });
}

} // namespace

TEST(InitialStressCards, OnePointEightPointsAndLargeFormat) {
  std::string eight;
  for (int k = 0; k < 8; ++k) // sigxx 10, 20, ... 80: mean 45; eps 0.01 k: mean 0.035
    eight += std::to_string(10 * (k + 1)) + ",0,0,0,0,0," + std::to_string(0.01 * k) + "\n";
  const Model m = read_text(
      cube_deck("*INITIAL_STRESS_SOLID\n"
                "$     eid      nint     nhisv     large\n"
                "         1         1\n"
                "    -100.0      20.0       0.0       5.0       0.0       0.0      0.02\n" +
                std::string("*INITIAL_STRESS_SOLID\n1,8\n") + eight +
                "*INITIAL_STRESS_SOLID\n"
                "         1         1         6         1\n"
                "       -123.5000         45.2500          0.0000         -7.7500          1.2500\n"
                "          2.5000          0.0125\n"
                "          1.0000          2.0000          3.0000          4.0000          5.0000\n"
                "          6.0000\n"));
  ASSERT_EQ(m.initial_stresses.size(), 1u) << "one element: the last card wins";
  const InitialStress& s = m.initial_stresses[0];
  EXPECT_EQ(m.solids.id[s.solid], 1);
  EXPECT_EQ(s.sig, (std::array<Real, 6>{-123.5, 45.25, 0.0, -7.75, 1.25, 2.5}));
  EXPECT_DOUBLE_EQ(s.eps_p, 0.0125);
  EXPECT_TRUE(has_note(m, "NHISV = 6"));
  EXPECT_TRUE(has_note(m, "NINT = 8"));
  // the eight-point card alone: the mean
  const Model e = read_text(cube_deck("*INITIAL_STRESS_SOLID\n1,8\n" + eight));
  EXPECT_DOUBLE_EQ(e.initial_stresses.at(0).sig[0], 45.0);
  EXPECT_NEAR(e.initial_stresses.at(0).eps_p, 0.035, 1e-15);
}

TEST(InitialStressCards, SetsAndRefusals) {
  const Model m = read_text(cube_deck("*SET_SOLID_LIST\n3\n1\n"
                                      "*INITIAL_STRESS_SOLID_SET\n3,1\n-5,-5,-5,0,0,0,0\n"));
  ASSERT_EQ(m.initial_stresses.size(), 1u);
  EXPECT_DOUBLE_EQ(m.initial_stresses[0].sig[2], -5.0);
  EXPECT_NE(read_error(cube_deck("*INITIAL_STRESS_SOLID\n99,1\n1,0,0,0,0,0,0\n"))
                .find("solid element 99 is not defined"),
            std::string::npos);
  EXPECT_NE(read_error(cube_deck("*INITIAL_STRESS_SOLID\n1,2\n1,0,0,0,0,0,0\n1,0,0,0,0,0,0\n"))
                .find("NINT = 2"),
            std::string::npos);
  const std::string t = read_error(cube_deck("*INITIAL_STRESS_SOLID\n1,1,0,0,0,0,1\n1\n"));
  EXPECT_NE(t.find("NTHINT = 1 is not supported"), std::string::npos) << t;
  EXPECT_NE(t.find("deck.k:"), std::string::npos) << t;
  EXPECT_NE(read_error(cube_deck("*INITIAL_STRESS_SOLID_SET\n8,1\n1\n")).find("solid set 8"),
            std::string::npos);
}

namespace {

/// The cube plus a shell plate (part 2, element 2, nodes 11-14, NIP 3).
std::string with_plate(const std::string& extra) {
  return cube_deck("*NODE\n11,0,0,2\n12,1,0,2\n13,1,1,2\n14,0,1,2\n"
                   "*ELEMENT_SHELL\n2,2,11,12,13,14\n*PART\nplate\n2,2,1\n"
                   "*SECTION_SHELL\n2,2,,3\n0.1\n" +
                   extra);
}

} // namespace

TEST(InitialStressCards, ShellPointsMergedByThicknessCoordinate) {
  // NPLANE 2 x NTHICK 2: the two in-plane points at T = -1 and at T = +1 averaged; the points
  // given out of order come out sorted by T
  const Model m = read_text(with_plate("*INITIAL_STRESS_SHELL\n"
                                       "$     eid    nplane    nthick     nhisv\n"
                                       "         2         2         2         3\n"
                                       "1.0,10,0,0,0,0,0,0.01\n1,2,3\n"
                                       "-1.0,-10,0,0,0,0,0,0.0\n4,5,6\n"
                                       "1.0,30,0,0,4,0,0,0.03\n7,8,9\n"
                                       "-1.0,-30,0,0,0,0,0,0.0\n1,1,1\n"));
  ASSERT_EQ(m.initial_shell_stresses.size(), 1u);
  const InitialShellStress& s = m.initial_shell_stresses[0];
  EXPECT_EQ(m.shells.id[s.shell], 2);
  ASSERT_EQ(s.points.size(), 2u);
  EXPECT_EQ(s.points[0], (std::array<Real, 8>{-1, -20, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(s.points[1], (std::array<Real, 8>{1, 20, 0, 0, 2, 0, 0, 0.02}));
  // LARGE = 1: T .. SIGXY on one line, SIGYZ SIGZX EPS on the next
  const Model l = read_text(with_plate("*INITIAL_STRESS_SHELL\n"
                                       "         2         1         1         0         0"
                                       "         1\n"
                                       "          0.0000        -50.2500          1.0000"
                                       "          2.0000          3.0000\n"
                                       "          4.0000          5.0000          0.0100\n"));
  EXPECT_EQ(l.initial_shell_stresses.at(0).points.at(0),
            (std::array<Real, 8>{0, -50.25, 1, 2, 3, 4, 5, 0.01}));
  const std::string t = read_error(with_plate("*INITIAL_STRESS_SHELL\n2,1,1\n1.5,1,0,0,0,0,0,0\n"));
  EXPECT_NE(t.find("T = 1.5"), std::string::npos) << t;
  EXPECT_NE(read_error(with_plate("*INITIAL_STRESS_SHELL\n2,1,1,0,6\n0,1,0,0,0,0,0,0\n"))
                .find("NTENSR = 6"),
            std::string::npos);
  EXPECT_NE(read_error(with_plate("*INITIAL_STRESS_SHELL\n1,1,1\n0,1,0,0,0,0,0,0\n"))
                .find("shell element 1 is not defined"),
            std::string::npos);
}

TEST(InitialStressCards, InitialStrainTensorsAreReadPastWithANote) {
  // a dynain's strain cards beside its stresses: the stresses are applied, the strains noted
  const Model m = read_text(with_plate("*INITIAL_STRESS_SHELL\n2,1,1\n0,7,0,0,0,0,0,0\n"
                                       "*INITIAL_STRAIN_SHELL\n"
                                       "         2         2         0\n"
                                       "  1.00E-03  2.00E-04       0.0       0.0       0.0       "
                                       "0.0      -1.0\n"
                                       "  1.00E-03  2.00E-04       0.0       0.0       0.0       "
                                       "0.0       1.0\n"
                                       "*INITIAL_STRAIN_SOLID\n1,1\n0.001,0,0,0,0,0\n"));
  EXPECT_EQ(m.initial_shell_stresses.size(), 1u);
  EXPECT_TRUE(has_note(m, "initial strain tensors are not used"));
}

} // namespace parcae::test
