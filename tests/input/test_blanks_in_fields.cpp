// Blanks inside a fixed-format numeric field: LS-DYNA reads fixed fields with Fortran's
// formatted read, which ignores blanks inside a number, so a line whose columns do not match the
// card's widths still reads (often not as its author meant). parcae reads what LS-DYNA reads and
// warns once per keyword, naming file, line, field, the text and the value read.
#include <gtest/gtest.h>

#include <array>

#include "keyword_test_util.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

const KeywordNote* note_of(const Model& m, std::string_view keyword) {
  for (const KeywordNote& n : m.notes)
    if (n.keyword == keyword && n.message.find("blanks inside") != std::string::npos) return &n;
  return nullptr;
}

} // namespace

TEST(BlanksInFields, NineDigitNodeIdRunsIntoXAndIsReadAsLsDynaReadsIt) {
  // *NODE: NID is 8 wide, X 16: the ninth digit lands in X, "9             0." is 90.
  const Model m = read_text(deck("*NODE\n"
                                 "123456789             0.0             0.0             0.0\n"
                                 "       2             1.0             0.0             0.0\n" +
                                 termination()));
  ASSERT_EQ(m.nodes.size(), 2u);
  EXPECT_EQ(m.nodes.id[0], 12345678);
  EXPECT_DOUBLE_EQ(m.nodes.x[0], 90.0);
  EXPECT_DOUBLE_EQ(m.nodes.x[1], 1.0); // an aligned line is unchanged
  const KeywordNote* n = note_of(m, "*NODE");
  ASSERT_NE(n, nullptr);
  EXPECT_FALSE(n->error);
  EXPECT_EQ(n->loc.line, 3);
  EXPECT_NE(n->message.find("field X"), std::string::npos) << n->message;
  EXPECT_NE(n->message.find("\"9             0.\""), std::string::npos) << n->message;
  EXPECT_NE(n->message.find("read as 90.0"), std::string::npos) << n->message;
}

TEST(BlanksInFields, EightWideValuesInTenWideFieldsWarnOncePerKeyword) {
  // A script wrote 8-wide values into *BOUNDARY_SPC_NODE's 10-wide fields: DOFX's columns hold
  // "0       1" (read as 1), DOFY's "       0  " (0), ...
  const std::string spc = "*BOUNDARY_SPC_NODE\n"
                          "         1         0" // NID 1, CID 0 (aligned)
                          "0       1"
                          "0       0"
                          "0       1"
                          "0       0"
                          "0       0"
                          "0       0\n"
                          "         2         0"
                          "0       1"
                          "0       1\n";
  const Model m = read_text(cube_deck(spc));
  // node 1: DOFX 1, DOFY 0, DOFZ 1, rotations 0; node 2: x and y fixed
  std::array<bool, 6> d1{}, d2{};
  for (const Spc& c : m.spcs)
    for (int k = 0; k < 6; ++k) {
      if (m.nodes.id[c.node] == 1) d1[k] = d1[k] || c.dof[k];
      if (m.nodes.id[c.node] == 2) d2[k] = d2[k] || c.dof[k];
    }
  EXPECT_EQ(d1, (std::array<bool, 6>{true, false, true, false, false, false}));
  EXPECT_EQ(d2, (std::array<bool, 6>{true, true, false, false, false, false}));
  const KeywordNote* n = note_of(m, "*BOUNDARY_SPC_NODE");
  ASSERT_NE(n, nullptr);
  EXPECT_NE(n->message.find("field DOFX"), std::string::npos) << n->message;
  EXPECT_NE(n->message.find("read as 1"), std::string::npos) << n->message;
  EXPECT_NE(n->message.find("more such fields"), std::string::npos) << n->message;
  int notes = 0;
  for (const KeywordNote& k : m.notes)
    notes += k.message.find("blanks inside") != std::string::npos;
  EXPECT_EQ(notes, 1);
}

TEST(BlanksInFields, FreeFormatAndTextAreNotSqueezed) {
  // comma-separated: a blank inside a value is still an error at the field
  const std::string e = read_error(deck("*NODE\n1, 1 2, 0, 0\n"));
  EXPECT_NE(e.find("cannot read \"1 2\""), std::string::npos) << e;
  // a non-number with blanks inside is an error, not a silent squeeze to something else
  const std::string f =
      read_error(deck("*NODE\n       1         1.0 x           0.0             0.0\n"));
  EXPECT_NE(f.find("cannot read"), std::string::npos) << f;
}

TEST(BlanksInFields, ShiftedLineWithABareExponentReadsAsLsDynaReadsIt) {
  // A public deck's *CONTROL_TERMINATION line is shifted one column to the right: ENDMAS's
  // columns hold "01.000000E" (the exponent digit went to the next field). LS-DYNA (Intel
  // Fortran) reads a missing exponent as 0: ENDMAS = 1.0, and DTMIN's "0       0." is 0.
  const Model m = read_text(deck(cube_mesh() + "*CONTROL_TERMINATION\n"
                                               "       10.0         0       0.0       "
                                               "0.01.000000E8         0\n"));
  EXPECT_DOUBLE_EQ(m.control.endtim, 10.0);
  EXPECT_DOUBLE_EQ(m.control.dtmin, 0.0);
  EXPECT_DOUBLE_EQ(m.control.endmas, 1.0);
  bool noted = false;
  for (const KeywordNote& n : m.notes)
    noted = noted || (n.keyword == "*CONTROL_TERMINATION" &&
                      n.message.find("more such fields") != std::string::npos);
  EXPECT_TRUE(noted);
  // a bare exponent letter alone, or after a non-digit, is still an error at the field
  EXPECT_NE(
      read_error(deck(cube_mesh() + "*CONTROL_TERMINATION\n         E\n")).find("cannot read"),
      std::string::npos);
}

TEST(BlanksInFields, ParameterNamesEndingInAnExponentLetterAreParameters) {
  // "&tE" is the parameter tE, not the number "&t" with an exponent
  const Model m = read_text(deck(cube_mesh() + "*PARAMETER\nR tE        2.5\n"
                                               "*CONTROL_TERMINATION\n       &tE\n"));
  EXPECT_DOUBLE_EQ(m.control.endtim, 2.5);
}
