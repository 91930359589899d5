// *CONSTRAINED_* cards: fields into the Model, defaults, warnings for what is not supported.
#include <gtest/gtest.h>

#include <algorithm>

#include "keyword_test_util.hpp"

namespace parcae::test {
namespace {

/// The cube (nodes 1-8) plus a rigid cube (part 2, nodes 11-18, material 2) and node sets 1
/// (nodes 1-4) and 2 (nodes 5, 6).
std::string two_cubes(const std::string& extra) {
  return cube_deck("*NODE\n11,2,0,0\n12,3,0,0\n13,3,1,0\n14,2,1,0\n15,2,0,1\n16,3,0,1\n17,3,1,1\n"
                   "18,2,1,1\n*ELEMENT_SOLID\n2,2,11,12,13,14,15,16,17,18\n*PART\nrigid\n2,1,2\n"
                   "*MAT_RIGID\n2,7.85e-9,210000.,0.3\n*SET_NODE_LIST\n1\n1,2,3,4\n"
                   "*SET_NODE_LIST\n2\n5,6\n" +
                   extra);
}

bool has_note(const Model& m, const std::string& keyword, const std::string& text) {
  return std::any_of(m.notes.begin(), m.notes.end(), [&](const KeywordNote& n) {
    return n.keyword == keyword && n.message.find(text) != std::string::npos && !n.error;
  });
}

TEST(ConstraintCards, NodalRigidBodyFieldsAndInertia) {
  const Model m = read_text(two_cubes("*CONSTRAINED_NODAL_RIGID_BODY\n7,0,1\n8,0,2,5\n"
                                      "*CONSTRAINED_NODAL_RIGID_BODY_INERTIA\n9,0,1000\n"
                                      "0,0,0,2.5,0,7\n1,0,0,2,0,3\n0,0,0,0,0,0\n"
                                      "*SET_NODE_LIST\n1000\n7,8\n"));
  ASSERT_EQ(m.nodal_rigid_bodies.size(), 3u);
  EXPECT_EQ(m.nodal_rigid_bodies[0].pid, 7);
  EXPECT_EQ(m.nodal_rigid_bodies[0].nsid, 1);
  EXPECT_EQ(m.nodal_rigid_bodies[1].pid, 8);
  EXPECT_EQ(m.nodal_rigid_bodies[1].nsid, 2);
  EXPECT_EQ(m.nodal_rigid_bodies[2].nsid, 1000);
  EXPECT_GT(m.nodal_rigid_bodies[1].loc.line, m.nodal_rigid_bodies[0].loc.line);
  EXPECT_TRUE(has_note(m, "*CONSTRAINED_NODAL_RIGID_BODY", "PNODE = 5"));
  // _INERTIA: the mass properties are read (and used: RigidBody.NodalRigidBodyInertia...)
  ASSERT_TRUE(m.nodal_rigid_bodies[2].inertia.has_value());
  EXPECT_DOUBLE_EQ(m.nodal_rigid_bodies[2].inertia->tm, 2.5);
  EXPECT_EQ(m.nodal_rigid_bodies[2].inertia->nodeid, 7);
  EXPECT_EQ(m.nodal_rigid_bodies[2].inertia->inertia, (std::array<Real, 6>{1, 0, 0, 2, 0, 3}));
  EXPECT_FALSE(m.nodal_rigid_bodies[0].inertia.has_value());
  const std::string msg = read_error(two_cubes("*CONSTRAINED_NODAL_RIGID_BODY_INERTIA\n9,0,1\n"
                                               "0,0,0,0\n1,0,0,1,0,1\n\n"));
  EXPECT_NE(msg.find("nodal rigid body 9: _INERTIA TM = 0"), std::string::npos) << msg;
}

// _SPC: the card after card 1 (before _INERTIA's), CON1 / CON2 coded as *MAT_RIGID's; CMO = -1
// and codes outside 0..7 refused at the field.
TEST(ConstraintCards, NodalRigidBodySpc) {
  const Model m = read_text(two_cubes("*CONSTRAINED_NODAL_RIGID_BODY_SPC_INERTIA\n9,0,1000\n"
                                      "1,3,4\n0,0,0,2.5,0,7\n1,0,0,2,0,3\n0,0,0,0,0,0\n"
                                      "*CONSTRAINED_NODAL_RIGID_BODY_SPC\n8,0,2\n0,7,7\n"
                                      "*SET_NODE_LIST\n1000\n7,8\n"));
  ASSERT_EQ(m.nodal_rigid_bodies.size(), 2u);
  EXPECT_EQ(m.nodal_rigid_bodies[0].fix_t, (std::array<bool, 3>{false, false, true}));
  EXPECT_EQ(m.nodal_rigid_bodies[0].fix_r, (std::array<bool, 3>{true, true, false}));
  ASSERT_TRUE(m.nodal_rigid_bodies[0].inertia.has_value());
  EXPECT_DOUBLE_EQ(m.nodal_rigid_bodies[0].inertia->tm, 2.5);
  EXPECT_EQ(m.nodal_rigid_bodies[0].inertia->nodeid, 7);
  EXPECT_EQ(m.nodal_rigid_bodies[1].fix_t, (std::array<bool, 3>{false, false, false})); // CMO 0
  std::string msg = read_error(two_cubes("*CONSTRAINED_NODAL_RIGID_BODY_SPC\n8,0,2\n-1,7,7\n"));
  EXPECT_NE(msg.find("CMO = -1"), std::string::npos) << msg;
  msg = read_error(two_cubes("*CONSTRAINED_NODAL_RIGID_BODY_SPC\n8,0,2\n1,9,0\n"));
  EXPECT_NE(msg.find("CON1 = 9"), std::string::npos) << msg;
}

TEST(ConstraintCards, ExtraNodesAndMerges) {
  const Model m = read_text(two_cubes("*PART\nrigid 3\n3,1,2\n"
                                      "*CONSTRAINED_EXTRA_NODES_NODE\n2,5\n2,6\n"
                                      "*CONSTRAINED_EXTRA_NODES_SET\n2,1\n"
                                      "*CONSTRAINED_RIGID_BODIES\n2,3\n"));
  ASSERT_EQ(m.extra_nodes.size(), 3u);
  EXPECT_EQ(m.extra_nodes[1].pid, 2);
  EXPECT_EQ(m.extra_nodes[1].id, 6);
  EXPECT_FALSE(m.extra_nodes[1].is_set);
  EXPECT_TRUE(m.extra_nodes[2].is_set);
  EXPECT_EQ(m.extra_nodes[2].id, 1);
  ASSERT_EQ(m.rigid_merges.size(), 1u);
  EXPECT_EQ(m.rigid_merges[0].lead, 2);
  EXPECT_EQ(m.rigid_merges[0].follower, 3);
}

TEST(ConstraintCards, SpotweldFieldsDefaultsAndIds) {
  const Model m = read_text(two_cubes("*CONSTRAINED_SPOTWELD\n1,5,100.0,200.0,2.0,3.0,1.0e-3\n"
                                      "2,6\n*CONSTRAINED_SPOTWELD_ID\n77\n3,7,0,50\n"
                                      "*CONSTRAINED_SPOTWELD\n4,8,,,,,,0.2\n"));
  ASSERT_EQ(m.spot_welds.size(), 4u);
  const SpotWeld& a = m.spot_welds[0];
  EXPECT_EQ(a.id, 1);
  EXPECT_EQ(a.nodes, (std::vector<GlobalId>{1, 5}));
  EXPECT_DOUBLE_EQ(a.sn, 100.0);
  EXPECT_DOUBLE_EQ(a.ss, 200.0);
  EXPECT_DOUBLE_EQ(a.n, 2.0);
  EXPECT_DOUBLE_EQ(a.m, 3.0);
  EXPECT_DOUBLE_EQ(a.tf, 1.0e-3);
  const SpotWeld& b = m.spot_welds[1]; // defaults
  EXPECT_EQ(b.id, 2);
  EXPECT_DOUBLE_EQ(b.sn, 0.0);
  EXPECT_DOUBLE_EQ(b.n, 1.0);
  EXPECT_DOUBLE_EQ(b.m, 1.0);
  EXPECT_DOUBLE_EQ(b.tf, 1.0e20);
  EXPECT_EQ(m.spot_welds[2].id, 77);
  EXPECT_EQ(m.spot_welds[3].id, 78); // after the largest id so far
  EXPECT_TRUE(has_note(m, "*CONSTRAINED_SPOTWELD", "EP = 0.2"));
  EXPECT_FALSE(m.spot_welds[0].generalized);
}

TEST(ConstraintCards, GeneralizedWeldSpotFields) {
  const Model m = read_text(two_cubes("*CONSTRAINED_GENERALIZED_WELD_SPOT_ID\n5\n2\n"
                                      "2.0e-3,0.1,10.0,20.0,2.0\n"));
  ASSERT_EQ(m.spot_welds.size(), 1u);
  const SpotWeld& w = m.spot_welds[0];
  EXPECT_TRUE(w.generalized);
  EXPECT_EQ(w.id, 5);
  EXPECT_EQ(w.nsid, 2);
  EXPECT_DOUBLE_EQ(w.tf, 2.0e-3);
  EXPECT_DOUBLE_EQ(w.sn, 10.0);
  EXPECT_DOUBLE_EQ(w.ss, 20.0);
  EXPECT_DOUBLE_EQ(w.n, 2.0);
  EXPECT_DOUBLE_EQ(w.m, 1.0);
  EXPECT_TRUE(has_note(m, "*CONSTRAINED_GENERALIZED_WELD_SPOT", "EPSF = 0.1"));
}

// Card layout audit (LS-DYNA manual; LS-PrePost writes full-width fixed fields). Without _ID
// the first field of card 1 is NSID; with _ID an ID card (WID) comes first, per weld.
TEST(ConstraintCards, GeneralizedWeldSpotManualLayout) {
  const Model m =
      read_text(two_cubes("*CONSTRAINED_GENERALIZED_WELD_SPOT\n"
                          "$#    nsid       cid    filter    window       npr      nprt\n"
                          "         2         0         0       0.0         0         0\n"
                          "$#   tfail      epsf        sn        ss         n         m\n"
                          "       0.0       0.0       0.0       0.0       0.0       0.0\n"
                          "*CONSTRAINED_GENERALIZED_WELD_SPOT_ID\n"
                          "$#     wid\n"
                          "        40\n"
                          "$#    nsid       cid    filter    window       npr      nprt\n"
                          "         1         0         0       0.0         0         0\n"
                          "$#   tfail      epsf        sn        ss         n         m\n"
                          "    1.0E-3       0.0     100.0       0.0       2.0       0.0\n"
                          "$#     wid\n"
                          "        41\n"
                          "$#    nsid       cid    filter    window       npr      nprt\n"
                          "      1000         0         0       0.0         0         0\n"
                          "$#   tfail      epsf        sn        ss         n         m\n"
                          "\n"
                          "*SET_NODE_LIST\n1000\n7,8\n"));
  ASSERT_EQ(m.spot_welds.size(), 3u);
  const SpotWeld& a = m.spot_welds[0];
  EXPECT_EQ(a.nsid, 2);
  EXPECT_EQ(a.id, 1);
  EXPECT_DOUBLE_EQ(a.sn, 0.0); // no force failure
  EXPECT_DOUBLE_EQ(a.ss, 0.0);
  EXPECT_DOUBLE_EQ(a.n, 1.0); // 0 = the default
  EXPECT_DOUBLE_EQ(a.m, 1.0);
  EXPECT_DOUBLE_EQ(a.tf, 1.0e20); // TFAIL 0 = never
  const SpotWeld& b = m.spot_welds[1];
  EXPECT_EQ(b.id, 40);
  EXPECT_EQ(b.nsid, 1);
  EXPECT_DOUBLE_EQ(b.tf, 1.0e-3);
  EXPECT_DOUBLE_EQ(b.sn, 100.0);
  EXPECT_DOUBLE_EQ(b.n, 2.0);
  EXPECT_DOUBLE_EQ(b.m, 1.0);
  EXPECT_EQ(m.spot_welds[2].id, 41);
  EXPECT_EQ(m.spot_welds[2].nsid, 1000);
  EXPECT_DOUBLE_EQ(m.spot_welds[2].tf, 1.0e20);
}

TEST(ConstraintCards, SpotweldManualLayout) {
  const Model m = read_text(
      two_cubes("*CONSTRAINED_SPOTWELD\n"
                "$#      n1        n2        sn        ss         n         m        tf        ep\n"
                "         1         5       0.0       0.0       0.0       0.0       0.0       0.0\n"
                "*CONSTRAINED_SPOTWELD_ID\n"
                "$#     wid\n"
                "        12\n"
                "$#      n1        n2        sn        ss         n         m        tf        ep\n"
                "         2         6       0.0     250.0       0.0       3.0    2.0E-3       0.0\n"
                "        13\n"
                "         3         7\n"));
  ASSERT_EQ(m.spot_welds.size(), 3u);
  EXPECT_EQ(m.spot_welds[0].nodes, (std::vector<GlobalId>{1, 5}));
  EXPECT_DOUBLE_EQ(m.spot_welds[0].n, 1.0);
  EXPECT_DOUBLE_EQ(m.spot_welds[0].tf, 1.0e20);
  EXPECT_EQ(m.spot_welds[1].id, 12);
  EXPECT_DOUBLE_EQ(m.spot_welds[1].ss, 250.0);
  EXPECT_DOUBLE_EQ(m.spot_welds[1].m, 3.0);
  EXPECT_DOUBLE_EQ(m.spot_welds[1].tf, 2.0e-3);
  EXPECT_EQ(m.spot_welds[2].id, 13);
  EXPECT_EQ(m.spot_welds[2].nodes, (std::vector<GlobalId>{3, 7}));
  EXPECT_FALSE(has_note(m, "*CONSTRAINED_SPOTWELD", "EP"));
}

TEST(ConstraintCards, SpotweldTemperatureCurveIsRefused) {
  const std::string msg = read_error(two_cubes("*CONSTRAINED_SPOTWELD\n1,5,-3\n"));
  EXPECT_NE(msg.find("SN = -3: a failure force given as a curve"), std::string::npos) << msg;
}

TEST(ConstraintCards, OtherGeneralizedWeldsAreUnsupported) {
  for (const char* kw : {"FILLET", "BUTT", "CROSS_FILLET", "COMBINED"}) {
    const std::string msg = read_error(
        two_cubes(std::string("*CONSTRAINED_GENERALIZED_WELD_") + kw + "\n1,2\n1.0e20\n"));
    EXPECT_NE(msg.find("unsupported keyword"), std::string::npos) << kw << ": " << msg;
  }
}

TEST(ConstraintCards, ExtraNodeOfItsOwnRigidPartIsAccepted) {
  const Model m = read_text(two_cubes("*CONSTRAINED_EXTRA_NODES_NODE\n2,11\n"));
  EXPECT_EQ(m.extra_nodes.size(), 1u);
}

TEST(ConstraintCards, WeldSpotNeedsTwoNodes) {
  const std::string msg = read_error(
      two_cubes("*SET_NODE_LIST\n9\n1\n*CONSTRAINED_GENERALIZED_WELD_SPOT_ID\n5\n9\n1.0e20\n"));
  EXPECT_NE(msg.find("weld spot 5: node set 9 has fewer than two nodes"), std::string::npos) << msg;
}

} // namespace
} // namespace parcae::test
