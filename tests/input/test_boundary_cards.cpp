// *BOUNDARY_* and *DEFINE_VECTOR cards in the manual's layout (full-width fixed fields, as
// LS-PrePost writes them): _ID records (an ID card before each record's data), card 2 of
// *BOUNDARY_PRESCRIBED_MOTION (|DOF| 9-11: OFFSET1/OFFSET2, or VAD 4), DOF 4 / 8 with a vector.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "keyword_test_util.hpp"

namespace parcae::test {
namespace {

std::string with_sets(const std::string& extra) {
  return cube_deck("*SET_NODE_LIST\n1\n1,2,3,4\n*SET_NODE_LIST\n2\n5,6\n*DEFINE_CURVE\n1\n0,0\n"
                   "1,1\n" +
                   extra);
}

TEST(BoundaryCards, SpcSetIdRecordsEachStartWithTheirIdCard) {
  const Model m = read_text(with_sets(
      "*BOUNDARY_SPC_SET_ID\n"
      "$#      id                                                               heading\n"
      "         2top plate\n"
      "$#    nsid       cid      dofx      dofy      dofz     dofrx     dofry     dofrz\n"
      "         1         0         1         0         1         1         1         1\n"
      "$#      id                                                               heading\n"
      "         3Bottom plate\n"
      "$#    nsid       cid      dofx      dofy      dofz     dofrx     dofry     dofrz\n"
      "         2         0         1         1         1         1         1         1\n"));
  // nodes 1-4 fix x, z; nodes 5, 6 fix x, y, z
  ASSERT_EQ(m.spcs.size(), 6u);
  for (const Spc& s : m.spcs) {
    const GlobalId nid = m.nodes.id[s.node];
    EXPECT_TRUE(s.dof[0]);
    EXPECT_EQ(s.dof[1], nid >= 5) << nid;
    EXPECT_TRUE(s.dof[2]);
  }
}

TEST(BoundaryCards, AnEmptySpcRowIsSkippedWithANote) {
  // LS-PrePost's layout: an all-zero row (no set, no dof) before the real one. It constrains
  // nothing and is skipped; a row naming no set but constraining dofs is still an error.
  const Model m = read_text(with_sets(
      "*BOUNDARY_SPC_SET\n"
      "$#    nsid       cid      dofx      dofy      dofz     dofrx     dofry     dofrz\n"
      "         0         0         0         0         0         0         0         0\n"
      "         1         0         1         0         1         0         0         0\n"));
  ASSERT_EQ(m.spcs.size(), 4u);
  for (const Spc& s : m.spcs) EXPECT_TRUE(s.dof[0] && !s.dof[1] && s.dof[2]);
  EXPECT_TRUE(std::any_of(m.notes.begin(), m.notes.end(), [](const KeywordNote& n) {
    return n.message.find("empty row, skipped") != std::string::npos && n.loc.line > 0;
  }));
  EXPECT_THROW(read_text(with_sets("*BOUNDARY_SPC_SET\n0,0,1\n")), std::exception);
  EXPECT_THROW(read_text(with_sets("*BOUNDARY_SPC_NODE\n0,0,0,1\n")), std::exception);
}

TEST(BoundaryCards, PrescribedMotionIdRecordsAndCard2) {
  // Records with DOF 1-3 have no card 2; each _ID record starts with its ID card.
  const Model m = read_text(
      with_sets("*BOUNDARY_PRESCRIBED_MOTION_SET_ID\n"
                "$#      id                                                               heading\n"
                "         1first\n"
                "$#    nsid       dof       vad      lcid        sf       vid     death     birth\n"
                "         1         1         2         1       1.0         0       0.0       0.0\n"
                "$#      id                                                               heading\n"
                "         2second\n"
                "$#    nsid       dof       vad      lcid        sf       vid     death     birth\n"
                "         2         3         0         1      -2.0         0       0.51.00000E-3\n"
                "*BOUNDARY_PRESCRIBED_MOTION_NODE\n"
                "         7         2         1         1\n"
                "         8         2         1         1\n"));
  ASSERT_EQ(m.motions.size(), 4u);
  EXPECT_EQ(m.motions[0].target_id, 1);
  EXPECT_EQ(m.motions[0].dof, 1);
  EXPECT_DOUBLE_EQ(m.motions[0].death, 1.0e28); // 0 = the default
  EXPECT_EQ(m.motions[1].target_id, 2);
  EXPECT_EQ(m.motions[1].dof, 3);
  EXPECT_DOUBLE_EQ(m.motions[1].sf, -2.0);
  EXPECT_DOUBLE_EQ(m.motions[1].death, 0.5);
  EXPECT_DOUBLE_EQ(m.motions[1].birth, 1.0e-3);
  EXPECT_EQ(m.motions[3].target_id, 8);
}

TEST(BoundaryCards, Dof9To11ReadCard2Offsets) {
  // The paperboard folding box layout (LS-PrePost, Boundary_v5.K): card 2 (OFFSET1 OFFSET2 MRB
  // NODE1 NODE2) follows card 1 for DOF 9-11, with negated parameters; DEATH is a parameter.
  const Model m = read_text(with_sets("*PARAMETER\nR creasew2      0.25\nR finfold       2.1\n"
                                      "*BOUNDARY_PRESCRIBED_MOTION_SET_ID\n"
                                      "         1folding left plate\n"
                                      "         1        10         2         1       1.0         0"
                                      "&finfold         0.0\n"
                                      "&creasew2 -&creasew2         0         0         0\n"
                                      "         5folding top plate\n"
                                      "         2         9         2         1      -1.0         0"
                                      "       3.1       1.0\n"
                                      "-&creasew2      81.0         0         0         0\n"
                                      "         6\n"
                                      "         2        11         0         1       2.0\n"
                                      "       1.5      -2.5\n"
                                      "         7after\n"
                                      "         1         1         2         1       1.0\n"));
  ASSERT_EQ(m.motions.size(), 4u);
  EXPECT_EQ(m.motions[0].dof, 10);
  EXPECT_DOUBLE_EQ(m.motions[0].death, 2.1);
  EXPECT_DOUBLE_EQ(m.motions[0].birth, 0.0);
  EXPECT_DOUBLE_EQ(m.motions[0].offset1, 0.25);
  EXPECT_DOUBLE_EQ(m.motions[0].offset2, -0.25);
  EXPECT_EQ(m.motions[1].dof, 9);
  EXPECT_DOUBLE_EQ(m.motions[1].sf, -1.0);
  EXPECT_DOUBLE_EQ(m.motions[1].birth, 1.0);
  EXPECT_DOUBLE_EQ(m.motions[1].offset1, -0.25);
  EXPECT_DOUBLE_EQ(m.motions[1].offset2, 81.0);
  EXPECT_EQ(m.motions[2].dof, 11);
  EXPECT_EQ(m.motions[2].vad, MotionKind::Velocity);
  EXPECT_DOUBLE_EQ(m.motions[2].offset1, 1.5);
  EXPECT_DOUBLE_EQ(m.motions[2].offset2, -2.5);
  EXPECT_EQ(m.motions[3].dof, 1); // no card 2 for DOF 1
  EXPECT_DOUBLE_EQ(m.motions[3].offset1, 0.0);
}

TEST(BoundaryCards, Dof9To11RadialFreeAndRigidAreClearErrors) {
  const std::string neg = read_error(with_sets("*BOUNDARY_PRESCRIBED_MOTION_SET\n"
                                               "         1       -10         2         1\n"
                                               "       1.0       2.0\n"));
  EXPECT_NE(neg.find("deck.k:"), std::string::npos) << neg;
  EXPECT_NE(neg.find("DOF = -10 (rotation about an axis with radial motion permitted)"),
            std::string::npos)
      << neg;
  const std::string rigid = read_error(with_sets("*BOUNDARY_PRESCRIBED_MOTION_RIGID\n"
                                                 "         1        11         2         1\n"
                                                 "       1.0       2.0\n"));
  EXPECT_NE(rigid.find("for nodes and node sets only"), std::string::npos) << rigid;
}

TEST(BoundaryCards, Dof4ReadsTheVector) {
  const Model m =
      read_text(with_sets("*DEFINE_VECTOR_TITLE\nalong xy\n"
                          "         7       1.0       1.0       5.0       4.0       "
                          "5.0       5.0         0\n"
                          "*BOUNDARY_PRESCRIBED_MOTION_SET\n"
                          "         1         4         2         1       1.0         7\n"
                          "         2        -4         0         1       1.0         7\n"));
  ASSERT_EQ(m.motions.size(), 2u);
  EXPECT_EQ(m.motions[0].vid, 7);
  EXPECT_NEAR(m.motions[0].dir[0], 0.6, 1e-15);
  EXPECT_NEAR(m.motions[0].dir[1], 0.8, 1e-15);
  EXPECT_NEAR(m.motions[0].dir[2], 0.0, 1e-15);
  EXPECT_EQ(m.motions[1].dof, -4);
}

TEST(BoundaryCards, VectorErrors) {
  EXPECT_NE(read_error(with_sets("*BOUNDARY_PRESCRIBED_MOTION_SET\n1,4,2,1,1.0\n"))
                .find("DOF = 4 needs a vector: VID = 0"),
            std::string::npos);
  EXPECT_NE(read_error(with_sets("*BOUNDARY_PRESCRIBED_MOTION_SET\n1,4,2,1,1.0,9\n"))
                .find("references vector VID = 9, which is not defined"),
            std::string::npos);
  EXPECT_NE(read_error(with_sets("*BOUNDARY_PRESCRIBED_MOTION_SET\n1,8,0,1,1.0,9\n"))
                .find("DOF = 8 (rotation about a vector) is supported for rigid parts only"),
            std::string::npos);
  EXPECT_NE(read_error(with_sets("*DEFINE_VECTOR\n9,1,1,1,1,1,1\n"
                                 "*BOUNDARY_PRESCRIBED_MOTION_SET\n1,4,2,1,1.0,9\n"))
                .find("vector 9: tail and head coincide"),
            std::string::npos);
}

} // namespace
} // namespace parcae::test
