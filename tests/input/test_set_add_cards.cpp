// *SET_..._ADD unions, *SET_NODE_GENERAL / *SET_PART_GENERAL delete options, and keywords that
// are read with a warning (*SENSOR_*, *KEYWORD_ID, *PART_CONTACT's contact card).
#include <gtest/gtest.h>

#include <algorithm>

#include "input/keyword_reader.hpp"
#include "keyword_test_util.hpp"

namespace parcae::test {
namespace {

std::vector<GlobalId> sorted(std::vector<GlobalId> v) {
  std::sort(v.begin(), v.end());
  return v;
}

bool has_warning(const Model& m, const std::string& keyword, const std::string& text) {
  return std::any_of(m.notes.begin(), m.notes.end(), [&](const KeywordNote& n) {
    return n.keyword == keyword && n.message.find(text) != std::string::npos && !n.error;
  });
}

TEST(SetAdd, UnionOfSetsDefinedAnywhereAlsoOtherAddSets) {
  // Set 30 adds 20 (itself an _ADD set, defined later) and 3; full-width fixed fields.
  const Model m = read_text(cube_deck(
      "*SET_NODE_ADD\n"
      "$#     sid       da1       da2       da3       da4    solver\n"
      "        30       0.0       0.0       0.0       0.0MECH\n"
      "$#    dsid1     dsid2     dsid3     dsid4     dsid5     dsid6     dsid7     dsid8\n"
      "        20         3\n"
      "*SET_NODE_LIST\n1\n1,2\n*SET_NODE_LIST\n2\n2,3\n*SET_NODE_LIST\n3\n8\n"
      "*SET_NODE_ADD_TITLE\nboth\n20\n1,2\n"
      "*SET_PART_LIST\n5\n1\n*SET_PART_ADD\n6\n5\n"
      "*SET_SOLID\n7\n1\n*SET_SOLID_ADD\n8\n7\n"));
  EXPECT_EQ(sorted(m.node_sets.at(20).members), (std::vector<GlobalId>{1, 2, 3}));
  EXPECT_EQ(sorted(m.node_sets.at(30).members), (std::vector<GlobalId>{1, 2, 3, 8}));
  EXPECT_EQ(m.node_sets.at(20).title, "both");
  EXPECT_EQ(m.part_sets.at(6).members, (std::vector<GlobalId>{1}));
  EXPECT_EQ(m.solid_sets.at(8).members, (std::vector<GlobalId>{1}));
}

TEST(SetAdd, MissingSetAndCycleAreErrors) {
  EXPECT_NE(read_error(cube_deck("*SET_NODE_ADD\n30\n4\n")).find("node set 30"), std::string::npos);
  const std::string msg = read_error(cube_deck("*SET_NODE_ADD\n30\n31\n*SET_NODE_ADD\n31\n30\n"));
  EXPECT_NE(msg.find("makes a cycle of _ADD/_INTERSECT sets"), std::string::npos) << msg;
}

// _COLLECT: the cards of one id make one set (ANSA writes large sets this way); list, GENERATE
// and GENERAL cards alike. Without _COLLECT a repeated id stays an error.
TEST(SetCollect, CardsOfOneIdMakeOneSet) {
  const Model m = read_text(cube_deck("*SET_NODE_LIST_COLLECT\n50\n1,2\n"
                                      "*SET_NODE_LIST_COLLECT\n50\n3\n"
                                      "*SET_NODE_LIST_GENERATE_COLLECT\n51\n1,2\n"
                                      "*SET_NODE_LIST_GENERATE_COLLECT\n51\n7,8\n"
                                      "*SET_NODE_GENERAL_COLLECT\n52\nNODE,1\n"
                                      "*SET_NODE_GENERAL_COLLECT\n52\nNODE,5\n"
                                      "*SET_PART_LIST_COLLECT\n53\n1\n"
                                      "*SET_PART_LIST_COLLECT\n53\n1\n"
                                      "*SET_SOLID_COLLECT\n54\n1\n"));
  EXPECT_EQ(sorted(m.node_sets.at(50).members), (std::vector<GlobalId>{1, 2, 3}));
  EXPECT_EQ(sorted(m.node_sets.at(51).members), (std::vector<GlobalId>{1, 2, 7, 8}));
  EXPECT_EQ(sorted(m.node_sets.at(52).members), (std::vector<GlobalId>{1, 5}));
  EXPECT_EQ(m.part_sets.at(53).members, (std::vector<GlobalId>{1, 1})); // as listed
  EXPECT_EQ(m.solid_sets.at(54).members, (std::vector<GlobalId>{1}));
  const std::string msg =
      read_error(cube_deck("*SET_NODE_LIST\n60\n1\n*SET_NODE_LIST_COLLECT\n60\n2\n"));
  EXPECT_NE(msg.find("node set"), std::string::npos) << msg;
  EXPECT_NE(msg.find("60"), std::string::npos) << msg;
}

TEST(SetGeneral, DeleteOptionsRemoveMembers) {
  const Model m = read_text(cube_deck("*DEFINE_BOX\n1,-0.5,0.5,-0.5,0.5,-0.5,1.5\n"
                                      "*SET_NODE_GENERAL\n40\nALL\nDNODE,2,3\nDBOX,1\n"
                                      "*SET_NODE_GENERAL\n41\nNODE,1,2\nDPART,1\n"
                                      "*SET_PART_GENERAL\n42\nALL\nDPART,1\n"));
  // box 1 holds nodes 1 (0,0,0) and 5 (0,0,1)
  EXPECT_EQ(sorted(m.node_sets.at(40).members), (std::vector<GlobalId>{4, 6, 7, 8}));
  EXPECT_TRUE(m.node_sets.at(41).members.empty());
  EXPECT_TRUE(m.part_sets.at(42).members.empty());
}

// Element sets by option: shells, solids and beams of two parts each.
std::string element_sets_deck(const std::string& sets) {
  return cube_deck("*NODE\n9,0,0,2\n10,1,0,2\n11,1,1,2\n12,0,1,2\n"
                   "*ELEMENT_SOLID\n2,2,5,6,7,8,9,10,11,12\n*PART\nsolid 2\n2,1,1\n"
                   "*ELEMENT_SHELL\n11,3,1,2,3,4\n12,4,5,6,7,8\n13,3,9,10,11,12\n"
                   "*PART\nshell 3\n3,2,1\n*PART\nshell 4\n4,2,1\n"
                   "*SECTION_SHELL\n2,2\n0.1,0.1,0.1,0.1\n"
                   "*ELEMENT_BEAM\n21,5,1,2\n22,6,3,4\n23,5,5,6\n"
                   "*PART\nbeam 5\n5,3,1\n*PART\nbeam 6\n6,3,1\n*SECTION_BEAM\n3,3\n1.0\n" +
                   sets);
}

TEST(SetGeneral, ShellSolidAndBeamSetsByOption) {
  const Model m = read_text(element_sets_deck("*SET_SHELL_GENERAL\n50\nALL\nDELEM,12\n"
                                              "*SET_SHELL_GENERAL_TITLE\nfour\n51\nPART,4\n"
                                              "ELEM,13\n"
                                              "*SET_SOLID_GENERAL\n52\nPART,1,2\nDPART,1\n"
                                              "*SET_BEAM_GENERAL\n53\nPART,5\n"
                                              "*SET_BEAM\n54\n22\n*SET_BEAM_ADD\n55\n53,54\n"
                                              "*SET_BEAM_GENERAL\n56\nALL\nDPART,5,6\n"));
  EXPECT_EQ(sorted(m.shell_sets.at(50).members), (std::vector<GlobalId>{11, 13}));
  EXPECT_EQ(sorted(m.shell_sets.at(51).members), (std::vector<GlobalId>{12, 13}));
  EXPECT_EQ(m.shell_sets.at(51).title, "four");
  EXPECT_EQ(m.solid_sets.at(52).members, (std::vector<GlobalId>{2}));
  EXPECT_EQ(sorted(m.beam_sets.at(53).members), (std::vector<GlobalId>{21, 23}));
  EXPECT_EQ(sorted(m.beam_sets.at(55).members), (std::vector<GlobalId>{21, 22, 23}));
  EXPECT_TRUE(m.beam_sets.at(56).members.empty());
  // a missing element or part and an option that is not supported are errors at the line
  std::string msg = read_error(element_sets_deck("*SET_SHELL_GENERAL\n57\nELEM,11,99\n"));
  EXPECT_NE(msg.find("shell element 99"), std::string::npos) << msg;
  msg = read_error(element_sets_deck("*SET_SOLID_GENERAL\n58\nPART,7\n"));
  EXPECT_NE(msg.find("part 7"), std::string::npos) << msg;
  msg = read_error(element_sets_deck("*SET_SHELL_GENERAL\n59\nBOX,1\n"));
  EXPECT_NE(msg.find("OPTION BOX is not supported"), std::string::npos) << msg;
  EXPECT_NE(msg.find("deck.k:"), std::string::npos) << msg;
}

// *PART_INERTIA's three cards; a mass that is not positive, a local frame (IRCS = 1) and an
// inertia tensor that is not positive definite are errors at the field.
TEST(PartInertiaCards, ReadAndRefused) {
  const Model m = read_text(cube_deck("*PART_INERTIA\nbody\n2,1,1\n1,2,3,0.5,0,7\n"
                                      "4,0.1,0.2,5,0.3,6\n1,2,3,4,5,6\n"));
  ASSERT_EQ(m.parts.size(), 2u);
  ASSERT_TRUE(m.parts[1].inertia.has_value());
  const PartInertia& in = *m.parts[1].inertia;
  EXPECT_EQ(in.xc, (std::array<Real, 3>{1, 2, 3}));
  EXPECT_DOUBLE_EQ(in.tm, 0.5);
  EXPECT_EQ(in.nodeid, 7);
  EXPECT_EQ(in.inertia, (std::array<Real, 6>{4, 0.1, 0.2, 5, 0.3, 6}));
  EXPECT_EQ(in.vel, (std::array<Real, 6>{1, 2, 3, 4, 5, 6}));
  EXPECT_FALSE(m.parts[0].inertia.has_value());
  auto err = [](const std::string& cards) {
    return read_error(cube_deck("*PART_INERTIA\nbody\n2,1,1\n" + cards));
  };
  EXPECT_NE(err("0,0,0,0\n1,0,0,1,0,1\n\n").find("TM = 0"), std::string::npos);
  EXPECT_NE(err("0,0,0,1,1\n1,0,0,1,0,1\n\n").find("IRCS = 1"), std::string::npos);
  const std::string msg = err("0,0,0,1\n1,2,0,1,0,1\n\n");
  EXPECT_NE(msg.find("not positive definite"), std::string::npos) << msg;
  EXPECT_NE(msg.find("deck.k:"), std::string::npos) << msg;
}

// The option cards in LS-DYNA's order: _INERTIA's three, then _CONTACT's, then _PRINT's PRBF
// (read and ignored).
TEST(PartInertiaCards, InertiaThenContactThenPrint) {
  const Model m = read_text(cube_deck("*PART_INERTIA_CONTACT_PRINT\nbody\n2,1,1\n1,2,3,0.5,0,7\n"
                                      "4,0.1,0.2,5,0.3,6\n1,2,3,4,5,6\n"
                                      "0.3,0.2,0,0,1.5\n1\n"
                                      "*PART_PRINT\nplain\n3,1,1\n2\n"));
  ASSERT_EQ(m.parts.size(), 3u);
  ASSERT_TRUE(m.parts[1].inertia.has_value());
  EXPECT_DOUBLE_EQ(m.parts[1].inertia->tm, 0.5);
  EXPECT_EQ(m.parts[1].inertia->vel, (std::array<Real, 6>{1, 2, 3, 4, 5, 6}));
  EXPECT_DOUBLE_EQ(m.parts[1].contact_optt, 1.5);
  EXPECT_EQ(m.parts[2].id, 3);
  EXPECT_FALSE(m.parts[2].inertia.has_value());
}

// *CONSTRAINED_JOINT_*: the nodes each kind needs, RPS (0 means 1, negative refused), DAMP
// (warning unless 0 or 1), JID of _ID, nodes that do not exist.
TEST(JointCards, NodesRpsDampAndIds) {
  const Model m = read_text(cube_deck("*CONSTRAINED_JOINT_REVOLUTE_ID\n9,hinge\n1,2,3,4,,,2.0\n"
                                      "*CONSTRAINED_JOINT_SPHERICAL\n5,6,,,,,,0.5\n"
                                      "*CONSTRAINED_JOINT_TRANSLATIONAL\n1,2,3,4,5,6\n"));
  ASSERT_EQ(m.joints.size(), 3u);
  EXPECT_EQ(m.joints[0].kind, Joint::Kind::Revolute);
  EXPECT_EQ(m.joints[0].id, 9);
  EXPECT_DOUBLE_EQ(m.joints[0].rps, 2.0);
  EXPECT_EQ(m.joints[0].nodes, (std::array<GlobalId, 6>{1, 2, 3, 4, 0, 0}));
  EXPECT_EQ(m.joints[1].id, 2);
  EXPECT_DOUBLE_EQ(m.joints[1].rps, 1.0);
  EXPECT_EQ(m.joints[1].pairs(), 1);
  EXPECT_EQ(m.joints[2].pairs(), 3);
  EXPECT_TRUE(has_warning(m, "*CONSTRAINED_JOINT_SPHERICAL", "DAMP = 0.5"));
  std::string msg = read_error(cube_deck("*CONSTRAINED_JOINT_CYLINDRICAL\n1,2,3\n"));
  EXPECT_NE(msg.find("N4 = 0: this joint needs nodes N1-N4"), std::string::npos) << msg;
  msg = read_error(cube_deck("*CONSTRAINED_JOINT_SPHERICAL\n1,2,,,,,-1\n"));
  EXPECT_NE(msg.find("RPS = -1"), std::string::npos) << msg;
  msg = read_error(cube_deck("*CONSTRAINED_JOINT_SPHERICAL\n1,99\n"));
  EXPECT_NE(msg.find("node 99"), std::string::npos) << msg;
  EXPECT_NE(msg.find("deck.k:"), std::string::npos) << msg;
}

TEST(WarnOnly, SensorsKeywordIdAndPartContact) {
  const Model m = read_text(deck("*KEYWORD_ID\nproject 1\n" + cube_mesh() + termination() +
                                 "*SENSOR_DEFINE_NODE\n1,1,2\n*SENSOR_SWITCH\n1,1,1\n"
                                 "*PART_CONTACT\nsecond\n2,1,1\n0.2,0.1\n"));
  EXPECT_TRUE(has_warning(m, "*SENSOR_DEFINE_NODE", "sensors are not supported"));
  EXPECT_TRUE(has_warning(m, "*SENSOR_SWITCH", "sensors are not supported"));
  EXPECT_TRUE(has_warning(m, "*KEYWORD_ID", "ignored"));
  ASSERT_EQ(m.parts.size(), 2u);
  EXPECT_EQ(m.parts[1].id, 2);
  EXPECT_TRUE(has_warning(m, "*PART", "part 2: _CONTACT FS = 0.2 ignored"));
  EXPECT_TRUE(has_warning(m, "*PART", "part 2: _CONTACT FD = 0.1 ignored"));
}

TEST(WarnOnly, ThermalMaterialsInAStructuralRun) {
  // *MAT_THERMAL_* cards (a part's TMID) are not used by a structural run: read with one
  // warning each, as LS-DYNA does with SOLN 0; the coverage table calls them "warn"
  const Model m = read_text(deck(cube_mesh() + termination() +
                                 "*MAT_THERMAL_ISOTROPIC\n101,7.85e-9\n460.0,0.05\n"
                                 "*MAT_THERMAL_ORTHOTROPIC\n102,7.85e-9\n460.0,0.05,0.05,0.02\n"));
  EXPECT_TRUE(has_warning(m, "*MAT_THERMAL_ISOTROPIC", "not used by a structural run"));
  EXPECT_TRUE(has_warning(m, "*MAT_THERMAL_ORTHOTROPIC", "not used by a structural run"));
  EXPECT_EQ(ignored_keyword_note("*MAT_THERMAL_ISOTROPIC_TD").empty(), false);
  EXPECT_EQ(keyword_match_table("*MAT_THERMAL_ISOTROPIC\n"), "*MAT_THERMAL_ISOTROPIC\t-\twarn\n");
  EXPECT_TRUE(ignored_keyword_note("*ELEMENT_SPH").empty());
}

} // namespace
} // namespace parcae::test
