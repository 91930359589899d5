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

// A material of a law parcae does not support is read as LS-DYNA reads it: ignored with a
// warning when no part uses it (pre-processors write whole material libraries), refused naming
// its card when a part does, and its id still counts for duplicates.
TEST(UnsupportedMaterial, UnusedIsWarnedUsedIsRefused) {
  const std::string foam =
      "*MAT_FU_CHANG_FOAM_TITLE\npaper\n         3      0.09   10000.0       0.3\n"
      "       2.0       3.5       4.5\n";
  const Model m = read_text(cube_deck(foam));
  bool warned = false;
  for (const KeywordNote& n : m.notes)
    warned |= n.keyword == "*MAT_FU_CHANG_FOAM_TITLE" && !n.error &&
              n.message.find("material 3") != std::string::npos &&
              n.message.find("no part uses it") != std::string::npos;
  EXPECT_TRUE(warned);
  EXPECT_EQ(m.materials.size(), 1u); // the cube's own material
  // a part that uses it: refused, naming the part and the card's place
  const std::string used =
      read_error(deck("*NODE\n1,0,0,0\n2,1,0,0\n3,1,1,0\n4,0,1,0\n5,0,0,1\n6,1,0,1\n7,1,1,1\n"
                      "8,0,1,1\n*ELEMENT_SOLID\n1,1,1,2,3,4,5,6,7,8\n*PART\ncube\n1,1,3\n"
                      "*SECTION_SOLID\n1,1\n" +
                      foam + termination()));
  EXPECT_NE(used.find("part 1 uses material 3, a *MAT_FU_CHANG_FOAM_TITLE"), std::string::npos)
      << used;
  EXPECT_NE(used.find("deck.k:"), std::string::npos) << used;
  // same id as a supported material: a duplicate
  const std::string dup =
      read_error(cube_deck("*MAT_FU_CHANG_FOAM\n         1      0.09   10000.0       0.3\n"));
  EXPECT_NE(dup.find("duplicate material id 1"), std::string::npos) << dup;
  // a card whose MID cannot be read stays an unsupported keyword
  const std::string bad = read_error(cube_deck("*MAT_FU_CHANG_FOAM\n      &mid\n"));
  EXPECT_NE(bad.find("*MAT_FU_CHANG_FOAM"), std::string::npos) << bad;
}
