// *CONTROL_SOLUTION and *CONTROL_STAGED_CONSTRUCTION: the control keywords that say which
// problem a deck is. A structural deck reads; a thermal-only one is refused at SOLN's line; a
// coupled one reads with a warning; staged construction is refused even with
// --ignore-unsupported (ignoring it would run another problem), where the other unread
// *CONTROL_ keywords are warned about.
#include <gtest/gtest.h>

#include "keyword_test_util.hpp"

using namespace parcae;
using namespace parcae::test;

TEST(ControlSolution, StructuralReadsThermalIsRefusedCoupledWarns) {
  const Model s = read_text(cube_deck("*CONTROL_SOLUTION\n         0\n"));
  for (const KeywordNote& n : s.notes) EXPECT_NE(n.keyword, "*CONTROL_SOLUTION") << n.message;
  const std::string thermal = read_error(cube_deck("*CONTROL_SOLUTION\n         1\n"));
  EXPECT_NE(thermal.find("SOLN = 1"), std::string::npos) << thermal;
  EXPECT_NE(thermal.find("deck.k:"), std::string::npos) << thermal;
  const Model c = read_text(cube_deck("*CONTROL_SOLUTION\n         2\n"));
  bool warned = false;
  for (const KeywordNote& n : c.notes)
    warned |= n.keyword == "*CONTROL_SOLUTION" && n.message.find("SOLN = 2") == 0;
  EXPECT_TRUE(warned);
  EXPECT_NE(read_error(cube_deck("*CONTROL_SOLUTION\n         3\n")).find("SOLN = 3"),
            std::string::npos);
}

TEST(ControlSolution, StagedConstructionIsRefusedEvenWhenUnsupportedKeywordsAreIgnored) {
  ReadOptions o;
  o.ignore_unsupported = true;
  const std::string err = read_error(
      cube_deck("*CONTROL_STAGED_CONSTRUCTION\n       0.0       0.0       0.0      9.81\n"), o);
  EXPECT_NE(err.find("staged construction"), std::string::npos) << err;
  // an unread *CONTROL_ keyword that only tunes the solution is still a warning
  const Model m = read_text(cube_deck("*CONTROL_OUTPUT\n         1\n"));
  bool warned = false;
  for (const KeywordNote& n : m.notes) warned |= n.keyword == "*CONTROL_OUTPUT" && !n.error;
  EXPECT_TRUE(warned);
}
