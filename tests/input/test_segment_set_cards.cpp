// Segment sets made of other sets: *SET_SEGMENT_ADD (union), *SET_SEGMENT_INTERSECT (common
// faces, whatever corner or sense they are written from), *SET_SEGMENT_COLLECT (cards of one id
// joined), and *SET_NODE_LIST_SMOOTH read as a node list; the errors name the card.
#include <gtest/gtest.h>

#include <algorithm>

#include "keyword_test_util.hpp"

namespace parcae::test {
namespace {

using Seg = std::array<GlobalId, 4>;

std::vector<Seg> sorted(std::vector<Seg> v) {
  for (Seg& s : v) std::sort(s.begin(), s.end());
  std::sort(v.begin(), v.end());
  return v;
}

// The cube's six faces, in three sets: 1 = bottom, top; 2 = top (from another corner, reversed),
// side x = 0; 3 = side x = 0, side y = 0.
const std::string kSets = "*SET_SEGMENT\n1\n1,2,3,4\n5,6,7,8\n"
                          "*SET_SEGMENT\n2\n6,5,8,7\n1,4,8,5\n"
                          "*SET_SEGMENT\n3\n1,4,8,5\n1,2,6,5\n";

} // namespace

TEST(SegmentSets, AddIsTheUnionDefinedAnywhere) {
  // 30 adds 20 (an _ADD set defined later) and 3: bottom, top, x = 0, y = 0; the top face of sets
  // 1 and 2 is kept once
  const Model m =
      read_text(cube_deck("*SET_SEGMENT_ADD\n"
                          "$#     sid       da1       da2       da3       da4    solver\n"
                          "        30       0.0       0.0       0.0       0.0MECH\n"
                          "        20         3\n" +
                          kSets + "*SET_SEGMENT_ADD_TITLE\nfirst two\n20\n1,2\n"));
  EXPECT_EQ(m.segment_sets.at(20).segments.size(), 3U);
  EXPECT_EQ(sorted(m.segment_sets.at(30).segments),
            sorted({{1, 2, 3, 4}, {5, 6, 7, 8}, {1, 4, 8, 5}, {1, 2, 6, 5}}));
}

TEST(SegmentSets, IntersectKeepsTheCommonFaces) {
  const Model m = read_text(
      cube_deck(kSets + "*SET_SEGMENT_INTERSECT\n40\n1,2\n"
                        "*SET_SEGMENT_INTERSECT\n41\n2,3\n*SET_SEGMENT_INTERSECT\n42\n1,3\n"));
  // the top face, as set 1 writes it
  EXPECT_EQ(m.segment_sets.at(40).segments, (std::vector<Seg>{{5, 6, 7, 8}}));
  EXPECT_EQ(m.segment_sets.at(41).segments, (std::vector<Seg>{{1, 4, 8, 5}}));
  EXPECT_TRUE(m.segment_sets.at(42).segments.empty());
}

TEST(SegmentSets, TrianglesMatchFromAnyCorner) {
  // the triangle 1 2 3 written as (1, 2, 3, 3) and as (2, 3, 1) (N4 blank) is one face
  const Model m = read_text(cube_deck("*SET_SEGMENT\n1\n1,2,3,3\n*SET_SEGMENT\n2\n2,3,1\n"
                                      "*SET_SEGMENT_INTERSECT\n3\n1,2\n"
                                      "*SET_SEGMENT_ADD\n4\n1,2\n"));
  EXPECT_EQ(m.segment_sets.at(3).segments.size(), 1U);
  EXPECT_EQ(m.segment_sets.at(4).segments.size(), 1U);
}

TEST(SegmentSets, CollectJoinsTheCardsOfOneId) {
  const Model m = read_text(cube_deck("*SET_SEGMENT_COLLECT\n9\n1,2,3,4\n"
                                      "*SET_SEGMENT_COLLECT\n9\n5,6,7,8\n"));
  EXPECT_EQ(m.segment_sets.at(9).segments.size(), 2U);
  // without _COLLECT a second card of the id is a duplicate
  const std::string err =
      read_error(cube_deck("*SET_SEGMENT\n9\n1,2,3,4\n*SET_SEGMENT\n9\n5,6,7,8\n"));
  EXPECT_NE(err.find("duplicate segment set id 9"), std::string::npos) << err;
}

TEST(SegmentSets, SmoothNodeListIsANodeList) {
  const Model m = read_text(cube_deck("*SET_NODE_LIST_SMOOTH\n4\n1,2,3\n"));
  EXPECT_EQ(m.node_sets.at(4).members, (std::vector<GlobalId>{1, 2, 3}));
}

TEST(SegmentSets, BadCompositeSetsAreRefusedAtTheirCard) {
  for (const auto& [extra, what] : std::vector<std::pair<std::string, std::string>>{
           {"*SET_SEGMENT_ADD\n50\n1,77\n", "segment set 77, which is not defined"},
           {"*SET_SEGMENT_ADD\n50\n51\n*SET_SEGMENT_ADD\n51\n50\n", "contains itself"},
           {"*SET_SEGMENT_INTERSECT\n50\n\n", "no sets are named"}}) {
    const std::string err = read_error(cube_deck(kSets + extra));
    EXPECT_NE(err.find(what), std::string::npos) << err;
    EXPECT_NE(err.find("deck.k:"), std::string::npos) << err;
  }
}

} // namespace parcae::test
