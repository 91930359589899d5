// Keywords of keywords_plain.cpp: *KEYWORD_JOBID and *COMMENT (ignored), *ELEMENT_PLOTEL (nodes
// checked, ignored), *DEFINE_VECTOR_NODES (a direction between two nodes, used as a VID).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>

#include "keyword_test_util.hpp"

namespace parcae::test {
namespace {

TEST(PlainCards, JobidCommentPlotelAndVectorNodes) {
  // node 8 = (0,1,1), node 5 = (0,0,1): VID 3 points along +y; a prescribed velocity along it
  const Model m = read_text("*KEYWORD\n*KEYWORD_JOBID\nmyjob\n" +
                            cube_deck("*COMMENT\nany text, with $ and * inside\n  and more\n"
                                      "*ELEMENT_PLOTEL\n1,1,7\n"
                                      "*DEFINE_VECTOR_NODES_TITLE\nup\n3,5,8\n"
                                      "*BOUNDARY_PRESCRIBED_MOTION_NODE\n7,4,0,1,1.0,3\n"
                                      "*DEFINE_CURVE\n1\n0,1\n1,1\n")
                                .substr(std::string("*KEYWORD\n").size()));
  ASSERT_EQ(m.motions.size(), 1u);
  EXPECT_NEAR(m.motions[0].dir[0], 0.0, 1e-15);
  EXPECT_NEAR(m.motions[0].dir[1], 1.0, 1e-15);
  EXPECT_NEAR(m.motions[0].dir[2], 0.0, 1e-15);
  EXPECT_TRUE(std::any_of(m.notes.begin(), m.notes.end(), [](const KeywordNote& n) {
    return n.keyword == "*ELEMENT_PLOTEL" && !n.error;
  }));
  std::string msg = read_error(cube_deck("*ELEMENT_PLOTEL\n1,1,99\n"));
  EXPECT_NE(msg.find("plotting element 1 references node 99"), std::string::npos) << msg;
  msg = read_error(cube_deck("*DEFINE_VECTOR_NODES\n3,5,5\n"));
  EXPECT_NE(msg.find("two different nodes"), std::string::npos) << msg;
}

// 2-D solids on *ELEMENT_SHELL: ELFORM 13 and 15 (plane strain, axisymmetric) are read without
// a thickness (they need none); 12 and 14 (plane stress, area-weighted axisymmetric) are
// refused by their formulation.
TEST(PlainCards, TwoDimensionalShellFormulationsAreNamed) {
  auto deck_with = [](int elform) {
    return cube_deck(fmt::format("*NODE\n11,0,0,2\n12,1,0,2\n13,1,1,2\n14,0,1,2\n"
                                 "*ELEMENT_SHELL\n2,2,11,12,13,14\n*PART\nplate\n2,2,2\n"
                                 "*SECTION_SHELL\n2,{}\n*MAT_ELASTIC\n2,7.85e-9,210000.,0.3\n",
                                 elform));
  };
  for (int elform : {12, 14}) {
    const std::string msg = read_error(deck_with(elform));
    EXPECT_NE(msg.find(fmt::format("ELFORM {} is not supported", elform)), std::string::npos)
        << msg;
    EXPECT_NE(msg.find("2-D solids ELFORM 13 (plane strain) and 15"), std::string::npos) << msg;
  }
  for (int elform : {13, 15}) EXPECT_EQ(read_text(deck_with(elform)).shells.size(), 1u);
}

} // namespace
} // namespace parcae::test
