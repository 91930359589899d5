// The implicit keywords (*CONTROL_IMPLICIT_...) and the pressure loads (*LOAD_SEGMENT / _SET,
// *LOAD_SHELL_ELEMENT / _SET):
// fields in the manual's layout, defaults, and one refusal per unsupported option, named at
// the field.
#include <gtest/gtest.h>

#include <algorithm>

#include "keyword_test_util.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

/// The one-hexahedron cube (ELFORM 2) with `extra` cards.
std::string implicit_cube(const std::string& extra) {
  return deck("*NODE\n"
              "1,0,0,0\n2,1,0,0\n3,1,1,0\n4,0,1,0\n5,0,0,1\n6,1,0,1\n7,1,1,1\n8,0,1,1\n"
              "*ELEMENT_SOLID\n1,1,1,2,3,4,5,6,7,8\n*PART\ncube\n1,1,1\n*SECTION_SOLID\n1,2\n"
              "*MAT_ELASTIC\n1,7.85e-9,210000.,0.3\n*DEFINE_CURVE\n7\n0,0\n1,1\n" +
              termination() + extra);
}

} // namespace

TEST(ImplicitCards, FixedFormatFieldsAndDefaults) {
  const Model m = read_text(implicit_cube(
      "*CONTROL_IMPLICIT_GENERAL\n"
      "$   IMFLAG       DT0\n"
      "         1    1.0E-4\n"
      "*CONTROL_IMPLICIT_SOLVER\n"
      "        12         1\n"
      "*CONTROL_IMPLICIT_AUTO\n"
      "         1         8         3    1.0E-6    1.0E-3\n"
      "*CONTROL_IMPLICIT_DYNAMICS\n"
      "         1      0.60    0.3025\n"
      "*CONTROL_IMPLICIT_EIGENVALUE\n"
      "         3     100.0\n"
      "*CONTROL_IMPLICIT_SOLUTION\n"
      "         7        11        20    1.0E-4    1.0E-3    1.0E-6       0.5   1.0E-12\n"));
  const ImplicitControls& c = m.control.implicit;
  EXPECT_EQ(c.imflag, 1);
  EXPECT_DOUBLE_EQ(c.dt0, 1e-4);
  EXPECT_EQ(c.lsolvr, 12);
  EXPECT_EQ(c.lprint, 1);
  EXPECT_DOUBLE_EQ(c.absmem, 0);
  EXPECT_EQ(c.iauto, 1);
  EXPECT_EQ(c.iteopt, 8);
  EXPECT_EQ(c.itewin, 3);
  EXPECT_DOUBLE_EQ(c.dtmin, 1e-6);
  EXPECT_DOUBLE_EQ(c.dtmax, 1e-3);
  EXPECT_EQ(c.imass, 1);
  EXPECT_DOUBLE_EQ(c.gamma, 0.6);
  EXPECT_DOUBLE_EQ(c.beta, 0.3025);
  EXPECT_EQ(c.neig, 3);
  EXPECT_DOUBLE_EQ(c.center, 100.0);
  EXPECT_EQ(c.nsolvr, 7);
  EXPECT_EQ(c.maxref, 20);
  EXPECT_DOUBLE_EQ(c.dctol, 1e-4);
  EXPECT_DOUBLE_EQ(c.ectol, 1e-3);
  EXPECT_DOUBLE_EQ(c.rctol, 1e-6);
  EXPECT_DOUBLE_EQ(c.lstol, 0.5);
  EXPECT_DOUBLE_EQ(c.abstol, 1e-12);

  // Blank cards take the manual's defaults.
  const Model d =
      read_text(implicit_cube("*CONTROL_IMPLICIT_GENERAL\n1\n*CONTROL_IMPLICIT_SOLUTION\n"
                              "\n*CONTROL_IMPLICIT_DYNAMICS\n\n"));
  const ImplicitControls& e = d.control.implicit;
  EXPECT_EQ(e.nsolvr, 12);
  EXPECT_EQ(e.maxref, 15);
  EXPECT_DOUBLE_EQ(e.dctol, 1e-3);
  EXPECT_DOUBLE_EQ(e.ectol, 1e-2);
  EXPECT_DOUBLE_EQ(e.lstol, 0.9);
  EXPECT_DOUBLE_EQ(e.gamma, 0.5);
  EXPECT_DOUBLE_EQ(e.beta, 0.25);
  EXPECT_EQ(e.lsolvr, 2);
  // NSOLVR 12 (BFGS) runs as full Newton: said in a warning.
  bool warned = false;
  for (const KeywordNote& n : d.notes) warned |= n.message.find("BFGS") != std::string::npos;
  EXPECT_TRUE(warned);
}

TEST(ImplicitCards, StabilizationIsWarned) {
  const Model m = read_text(implicit_cube("*CONTROL_IMPLICIT_GENERAL\n1\n"
                                          "*CONTROL_IMPLICIT_STABILIZATION\n1,1.0\n"));
  ASSERT_FALSE(m.notes.empty());
  EXPECT_EQ(m.notes.back().keyword, "*CONTROL_IMPLICIT_STABILIZATION");
  EXPECT_FALSE(m.notes.back().error);
}

TEST(ImplicitCards, EachUnsupportedOptionIsRefusedAtItsField) {
  const struct {
    std::string cards, expect;
  } cases[] = {
      {"*CONTROL_IMPLICIT_GENERAL\n2\n", "IMFLAG = 2"},
      {"*CONTROL_IMPLICIT_GENERAL\n1,0.1,1\n", "IMFORM = 1"},
      {"*CONTROL_IMPLICIT_SOLVER\n3\n", "LSOLVR = 3"},
      {"*CONTROL_IMPLICIT_SOLVER\n2\n\n0,0.85,-5\n", "ABSMEM = -5"},
      {"*CONTROL_IMPLICIT_AUTO\n2\n", "IAUTO = 2"},
      {"*CONTROL_IMPLICIT_DYNAMICS\n2\n", "IMASS = 2"},
      {"*CONTROL_IMPLICIT_DYNAMICS\n1,0.5,0.25,0,1e28,1e28,0,-0.05\n", "ALPHA = -0.05"},
      {"*CONTROL_IMPLICIT_DYNAMICS\n1,0.4\n", "GAMMA = 0.4"},
      {"*CONTROL_IMPLICIT_EIGENVALUE\n-5\n", "NEIG = -5"},
      {"*CONTROL_IMPLICIT_EIGENVALUE\n5,0,1\n", "LFLAG = 1"},
      {"*CONTROL_IMPLICIT_EIGENVALUE\n5,0,0,0,0,0,102\n", "EIGMTH = 102"},
      {"*CONTROL_IMPLICIT_SOLUTION\n8\n", "NSOLVR = 8"},
      {"*LOAD_SEGMENT\n7,1,0,1,2,3,4,9\n", "N5 = 9"},
      {"*CONTROL_IMPLICIT_GENERAL\n1\n"
       "*LOAD_SEGMENT\n99,1,0,1,2,3,4\n",
       "LCID = 99"},
      {"*CONTROL_IMPLICIT_GENERAL\n1\n"
       "*LOAD_SEGMENT\n7,1,0,1,2,3,44\n",
       "node 44"},
      {"*CONTROL_IMPLICIT_GENERAL\n1\n"
       "*LOAD_SEGMENT_SET\n5,7\n",
       "SSID = 5"},
  };
  for (const auto& c : cases) {
    const std::string e = read_error(implicit_cube(c.cards));
    EXPECT_NE(e.find(c.expect), std::string::npos) << c.cards << " -> " << e;
    EXPECT_NE(e.find("deck.k"), std::string::npos) << e; // the file (and line) are named
  }
  // Implicit decks: ELFORM 1 is not an implicit element; explicit decks run ELFORM 2 as the
  // one-point hexahedron, with a warning.
  std::string one = implicit_cube("*CONTROL_IMPLICIT_GENERAL\n1\n");
  one.replace(one.find("*SECTION_SOLID\n1,2"), 18, "*SECTION_SOLID\n1,1");
  EXPECT_NE(read_error(one).find("ELFORM 1 is not supported by the implicit solver"),
            std::string::npos);
  const Model expl = read_text(implicit_cube(""));
  EXPECT_TRUE(std::any_of(expl.notes.begin(), expl.notes.end(), [](const KeywordNote& n) {
    return n.message.find("ELFORM 2 (fully integrated") != std::string::npos;
  }));
}

TEST(ImplicitCards, SegmentPressures) {
  const Model m =
      read_text(implicit_cube("*CONTROL_IMPLICIT_GENERAL\n1\n"
                              "*LOAD_SEGMENT\n7,2.5,0.1,5,6,7,8\n7,1,0,1,2,3\n"
                              "*SET_SEGMENT\n3\n1,4,3,2\n5,6,7,8\n*LOAD_SEGMENT_SET\n3,7,-1\n"));
  ASSERT_EQ(m.segment_loads.size(), 4u);
  EXPECT_EQ(m.segment_loads[0].nodes, (std::array<GlobalId, 4>{5, 6, 7, 8}));
  EXPECT_DOUBLE_EQ(m.segment_loads[0].sf, 2.5);
  EXPECT_DOUBLE_EQ(m.segment_loads[0].at, 0.1);
  EXPECT_EQ(m.segment_loads[1].nodes, (std::array<GlobalId, 4>{1, 2, 3, 3})); // triangle
  EXPECT_EQ(m.segment_loads[2].nodes, (std::array<GlobalId, 4>{1, 4, 3, 2}));
  EXPECT_DOUBLE_EQ(m.segment_loads[3].sf, -1);
  EXPECT_EQ(m.segment_loads[3].ssid, 0);
}

TEST(ImplicitCards, ExplicitDecksTakeFacePressuresAndNoteImplicitControls) {
  // An explicit deck applies a pressure through the element whose face the segment is: a face
  // of the cube reads (in any node order); a segment that is no element's face is refused at
  // its card (dropped with a note under --ignore-unsupported); the implicit controls are noted
  // as unused.
  std::string deck = implicit_cube(
      "*CONTROL_IMPLICIT_SOLUTION\n12\n*LOAD_SEGMENT\n7,1,0,5,6,7,8\n7,1,0,8,4,1,5\n");
  deck.replace(deck.find("*SECTION_SOLID\n1,2"), 18, "*SECTION_SOLID\n1,1");
  const Model ok = read_text(deck);
  EXPECT_EQ(ok.segment_loads.size(), 2u);
  bool noted = false;
  for (const KeywordNote& n : ok.notes) noted |= n.keyword == "*CONTROL_IMPLICIT_SOLUTION";
  EXPECT_TRUE(noted);
  std::string bad = deck;
  bad.replace(bad.find("7,1,0,8,4,1,5"), 13, "7,1,0,1,2,7,8"); // a diagonal plane
  const std::string e = read_error(bad);
  EXPECT_NE(e.find("pressure segment 1 2 7 8 is not a face of any shell or solid element"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("deck.k"), std::string::npos) << e;
  ReadOptions o;
  o.ignore_unsupported = true;
  const Model m = read_text(bad, o);
  EXPECT_EQ(m.segment_loads.size(), 1u);
  bool dropped = false;
  for (const KeywordNote& n : m.notes) dropped |= n.message.find("dropped") != std::string::npos;
  EXPECT_TRUE(dropped);
  // A rigid part's face is refused (pressures on rigid bodies are not applied yet).
  std::string rigid = deck;
  rigid.replace(rigid.find("*MAT_ELASTIC\n1,7.85e-9,210000.,0.3"), 34,
                "*MAT_RIGID\n1,7.85e-9,210000.,0.3");
  EXPECT_NE(read_error(rigid).find("which is rigid"), std::string::npos) << read_error(rigid);
}

TEST(ImplicitCards, ShellPressuresBecomeSegmentLoads) {
  // *LOAD_SHELL_ELEMENT (bare *LOAD_SHELL too) and *LOAD_SHELL_SET: one segment per shell, on
  // its corner nodes in the element's order (a triangle repeats N3), SF default 1.
  const std::string shells =
      "*NODE\n1,0,0,0\n2,1,0,0\n3,1,1,0\n4,0,1,0\n5,2,0,0\n"
      "*ELEMENT_SHELL\n10,1,1,2,3,4\n11,1,2,5,3,3\n*PART\nplate\n1,1,1\n"
      "*SECTION_SHELL\n1,2\n1.0,1.0,1.0,1.0\n*MAT_ELASTIC\n1,7.85e-9,210000.,0.3\n"
      "*DEFINE_CURVE\n7\n0,0\n1,1\n";
  const Model m = read_text(deck(shells + termination() +
                                 "*LOAD_SHELL_ELEMENT\n10,7,2.5,0.1\n*LOAD_SHELL\n11,7\n"
                                 "*SET_SHELL\n4\n11,10\n*LOAD_SHELL_SET\n4,7,-3\n"));
  ASSERT_EQ(m.segment_loads.size(), 4u);
  EXPECT_EQ(m.segment_loads[0].nodes, (std::array<GlobalId, 4>{1, 2, 3, 4}));
  EXPECT_DOUBLE_EQ(m.segment_loads[0].sf, 2.5);
  EXPECT_DOUBLE_EQ(m.segment_loads[0].at, 0.1);
  EXPECT_EQ(m.segment_loads[1].nodes, (std::array<GlobalId, 4>{2, 5, 3, 3}));
  EXPECT_DOUBLE_EQ(m.segment_loads[1].sf, 1.0);
  EXPECT_EQ(m.segment_loads[2].nodes, (std::array<GlobalId, 4>{2, 5, 3, 3}));
  EXPECT_EQ(m.segment_loads[3].nodes, (std::array<GlobalId, 4>{1, 2, 3, 4}));
  EXPECT_DOUBLE_EQ(m.segment_loads[3].sf, -3.0);
  for (const auto& [cards, expect] : std::vector<std::pair<std::string, std::string>>{
           {"*LOAD_SHELL_ELEMENT\n99,7\n", "shell element 99"},
           {"*LOAD_SHELL_SET\n5,7\n", "ESID = 5"},
           {"*LOAD_SHELL_ELEMENT\n10,8\n", "LCID = 8"}}) {
    const std::string e = read_error(deck(shells + termination() + cards));
    EXPECT_NE(e.find(expect), std::string::npos) << cards << " -> " << e;
    EXPECT_NE(e.find("deck.k"), std::string::npos) << e;
  }
}
