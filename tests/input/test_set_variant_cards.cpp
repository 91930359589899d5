// Set variants (keywords_set_variants.cpp): _INTERSECT, _GENERATE_INCREMENT, the shell and solid
// GENERATE forms, _COLUMN and the discrete element sets, resolved with the other sets once the
// deck is read.
#include <gtest/gtest.h>

#include <algorithm>

#include "keyword_test_util.hpp"

namespace parcae::test {
namespace {

std::vector<GlobalId> sorted(std::vector<GlobalId> v) {
  std::sort(v.begin(), v.end());
  return v;
}

// Three hexahedra (nodes 1-16, solids 1-3, part 1), two shells (nodes 101-106, shells 11-12,
// part 2) and two discrete springs (21, 22 between nodes 1-2 and 3-4, part 3).
std::string mesh() {
  return hex_block_cards(3, 1, 1, 3.0, 1.0, 1.0, 1) + shell_grid_cards(2, 1, 2.0, 1.0, 2, 101, 11) +
         "*PART\nsolids\n1,1,1\n*SECTION_SOLID\n1,1\n*MAT_ELASTIC\n1,7.85e-9,210000.,0.3\n"
         "*PART\nshells\n2,2,1\n*SECTION_SHELL\n2,2\n1.0,1.0,1.0,1.0\n"
         "*PART\nsprings\n3,3,3\n*SECTION_DISCRETE\n3,0\n*MAT_SPRING_ELASTIC\n3,1000.0\n"
         "*ELEMENT_DISCRETE\n      21       3       1       2\n      22       3       3       4\n" +
         termination();
}

TEST(SetVariants, IntersectIncrementGenerateAndColumn) {
  const Model m = read_text(deck(
      mesh() +
      // 3 = the nodes of 1 that 2 also holds, defined before both; 4 adds 3 and 6
      "*SET_NODE_INTERSECT_TITLE\ncommon\n3\n1,2\n*SET_NODE_ADD\n4\n3,6\n"
      "*SET_NODE_LIST\n1\n1,2,3,4\n*SET_NODE_LIST\n2\n3,4,5\n*SET_NODE_LIST\n6\n8\n"
      "*SET_NODE_LIST_GENERATE_INCREMENT\n"
      "$#     sid       da1       da2       da3       da4    solver\n"
      "        10\n"
      "$#    bbeg      bend      incr\n"
      "         1         8         3\n"
      "        14        15\n"
      "*SET_SOLID_GENERATE\n20\n1,2\n*SET_SOLID_GENERATE_INCREMENT\n21\n1,3,2\n"
      "*SET_SHELL_LIST_GENERATE\n30\n11,12\n*SET_SHELL_INTERSECT\n31\n30,32\n*SET_SHELL\n32\n12\n"
      "*SET_NODE_COLUMN\n40\n         5       1.0\n         6\n"
      "*SET_PART_COLUMN\n41\n2\n3\n"));
  EXPECT_EQ(sorted(m.node_sets.at(3).members), (std::vector<GlobalId>{3, 4}));
  EXPECT_EQ(m.node_sets.at(3).title, "common");
  EXPECT_EQ(sorted(m.node_sets.at(4).members), (std::vector<GlobalId>{3, 4, 8}));
  EXPECT_EQ(sorted(m.node_sets.at(10).members), (std::vector<GlobalId>{1, 4, 7, 14, 15}));
  EXPECT_EQ(sorted(m.solid_sets.at(20).members), (std::vector<GlobalId>{1, 2}));
  EXPECT_EQ(sorted(m.solid_sets.at(21).members), (std::vector<GlobalId>{1, 3}));
  EXPECT_EQ(sorted(m.shell_sets.at(30).members), (std::vector<GlobalId>{11, 12}));
  EXPECT_EQ(m.shell_sets.at(31).members, (std::vector<GlobalId>{12}));
  EXPECT_EQ(m.node_sets.at(40).members, (std::vector<GlobalId>{5, 6}));
  EXPECT_EQ(m.part_sets.at(41).members, (std::vector<GlobalId>{2, 3}));
  EXPECT_TRUE(std::any_of(m.notes.begin(), m.notes.end(), [](const KeywordNote& n) {
    return n.message.find("node set 40: the attributes A1-A4 are not used") != std::string::npos;
  }));
}

TEST(SetVariants, DiscreteSets) {
  const Model m = read_text(deck(mesh() + "*SET_DISCRETE\n50\n22\n"
                                          "*SET_DISCRETE_GENERAL\n51\nALL\n"
                                          "*SET_DISCRETE_GENERAL\n52\nPART,3\nDELEM,21\n"
                                          "*SET_DISCRETE_GENERATE\n53\n1,100\n"
                                          "*SET_DISCRETE_ADD\n54\n50,52\n"
                                          "*SET_DISCRETE_INTERSECT\n55\n51,53\n"));
  EXPECT_EQ(m.discrete_sets.at(50).members, (std::vector<GlobalId>{22}));
  EXPECT_EQ(sorted(m.discrete_sets.at(51).members), (std::vector<GlobalId>{21, 22}));
  EXPECT_EQ(m.discrete_sets.at(52).members, (std::vector<GlobalId>{22}));
  // the range 1-100 holds the discrete elements only (not the solids 1-3 or shells 11-12)
  EXPECT_EQ(sorted(m.discrete_sets.at(53).members), (std::vector<GlobalId>{21, 22}));
  EXPECT_EQ(m.discrete_sets.at(54).members, (std::vector<GlobalId>{22}));
  EXPECT_EQ(sorted(m.discrete_sets.at(55).members), (std::vector<GlobalId>{21, 22}));
}

TEST(SetVariants, ErrorsNameTheSet) {
  std::string msg = read_error(deck(mesh() + "*SET_DISCRETE\n50\n1\n"));
  EXPECT_NE(msg.find("references discrete element 1"), std::string::npos) << msg;
  msg = read_error(deck(mesh() + "*SET_NODE_INTERSECT\n3\n1,4\n*SET_NODE_INTERSECT\n4\n3,1\n"
                                 "*SET_NODE_LIST\n1\n1\n"));
  EXPECT_NE(msg.find("makes a cycle"), std::string::npos) << msg;
  msg = read_error(deck(mesh() + "*SET_NODE_INTERSECT\n3\n1,9\n*SET_NODE_LIST\n1\n1\n"));
  EXPECT_NE(msg.find("node set 9"), std::string::npos) << msg;
  msg = read_error(deck(mesh() + "*SET_NODE_LIST_GENERATE_INCREMENT\n10\n8,1,1\n"));
  EXPECT_NE(msg.find("is not valid"), std::string::npos) << msg;
}

} // namespace
} // namespace parcae::test
