// *SECTION_BEAM, *ELEMENT_BEAM and *SET_BEAM read from real-layout lines (the PyDyna pendulum
// deck's, and the manual's card 2 for each ELFORM); the refusals name the line and what is
// supported.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "keyword_test_util.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

/// The cube deck plus two beams (nodes 1-2, 2-3) of part 2 with *SECTION_BEAM 2 given by
/// `section` (its data lines) and *ELEMENT_BEAM`option` lines `elements`.
std::string beam_deck(const std::string& section, const std::string& option = "",
                      const std::string& elements = "") {
  const std::string elems = elements.empty() ? "   45000       2       1       2       3\n"
                                               "   45001       2       2       3\n"
                                             : elements;
  return cube_deck("*PART\nwire\n         2         2         2\n*SECTION_BEAM\n" + section +
                   "*MAT_ELASTIC\n         2  7.86e-06     210.0       0.3\n*ELEMENT_BEAM" +
                   option + "\n" + elems);
}

// The layout of the PyDyna pendulum deck: card 1 with NAUPD, card 2 "A RAMPT STRESS".
const std::string kTrussSection = "$#   secid    elform      shrf   qr/irid       cst     scoor"
                                  "       nsm     naupd\n"
                                  "         2         3       1.0         1         0       0.0"
                                  "       0.0         0\n"
                                  "$#       a     rampt    stress\n"
                                  "      10.0                    \n";

} // namespace

TEST(BeamCards, TrussSectionAndElements) {
  const Model m = read_text(beam_deck(kTrussSection));
  const Section* s = m.find_section(2);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->kind, SectionKind::Beam);
  EXPECT_EQ(s->elform, 3);
  EXPECT_DOUBLE_EQ(s->area, 10.0);
  ASSERT_EQ(m.beams.size(), 2u);
  EXPECT_EQ(m.beams.id[0], 45000);
  EXPECT_EQ(m.beams.part[1], 2);
  EXPECT_EQ(m.beams.nodes[0], (std::array<LocalId, 2>{m.node_index(1), m.node_index(2)}));
  EXPECT_EQ(m.beams.n3[0], m.node_index(3));
  EXPECT_EQ(m.beams.n3[1], kInvalidLocal); // N3 blank
  EXPECT_DOUBLE_EQ(m.beams.area[0], 0.0);  // the section's A
}

TEST(BeamCards, ElementOptions) {
  // _THICKNESS: PARM1 is the truss area; _ORIENTATION: read, unused; _OFFSET: zero offsets.
  const Model m =
      read_text(beam_deck(kTrussSection, "_THICKNESS_OFFSET_ORIENTATION",
                          "   45000       2       1       2\n"
                          "       2.5\n"
                          "       0.0       0.0       0.0       0.0       0.0       0.0\n"
                          "       1.0       0.0       0.0\n"));
  ASSERT_EQ(m.beams.size(), 1u);
  EXPECT_DOUBLE_EQ(m.beams.area[0], 2.5);
  const std::string off = read_error(beam_deck(kTrussSection, "_OFFSET",
                                               "   45000       2       1       2\n"
                                               "       0.0       1.0\n"));
  EXPECT_NE(off.find("offset WY1 = 1"), std::string::npos) << off;
  const std::string sc = read_error(
      beam_deck(kTrussSection, "_SCALAR", "   45000       2       1       2\n       1.0\n"));
  EXPECT_NE(sc.find("*ELEMENT_BEAM_SCALAR: not supported"), std::string::npos) << sc;
}

// Card 2 of every formulation is read by its layout (so that decks with other beams parse);
// the formulation is refused at the ELFORM field when a part with elements uses it.
TEST(BeamCards, OtherFormulationsAreReadAndRefused) {
  struct Case {
    int elform;
    std::string card2;
  };
  const Case cases[] = {
      {1, "       2.0       2.0       1.0       1.0       0.0       0.0\n"}, // TS1 TS2 TT1 TT2
      {2, "      10.0      20.0      20.0      40.0       0.0       0.0\n"}, // A ISS ITT J SA IST
      {6, "       1.0       0.0         0       0.0       0.0       0.0\n"}, // VOL INER CID CA
      {9, "       2.0       2.0       0.0       0.0       0.0\n"},           // TS1 TS2 TT1 TT2
  };
  for (const Case& c : cases) {
    const std::string section = fmt::format("         2{:10d}\n", c.elform) + c.card2;
    const std::string msg = read_error(beam_deck(section));
    EXPECT_NE(msg.find(fmt::format("*SECTION_BEAM 2 (part 2): ELFORM {}", c.elform)),
              std::string::npos)
        << msg;
    EXPECT_NE(msg.find("truss only (ELFORM 3"), std::string::npos) << msg;
    EXPECT_NE(msg.find("deck.k:"), std::string::npos) << msg; // file:line
  }
  // rigid beams too: their mass needs the truss area
  std::string rigid = beam_deck("         2         1\n       2.0       2.0\n");
  rigid.replace(rigid.find("*MAT_ELASTIC\n         2"), 23, "*MAT_RIGID\n         2");
  EXPECT_NE(read_error(rigid).find("ELFORM 1 (Hughes-Liu"), std::string::npos) << rigid;
  // ELFORM blank is the manual's default 1 (Hughes-Liu)
  const std::string msg = read_error(beam_deck("         2\n       2.0       2.0\n"));
  EXPECT_NE(msg.find("ELFORM 1 (Hughes-Liu"), std::string::npos) << msg;
}

TEST(BeamCards, BeamSetsAndWrongSections) {
  const std::string with_set = beam_deck(kTrussSection, "", "   45000       2       1       2\n");
  const std::string deck_set =
      with_set.substr(0, with_set.size() - 5) + "*SET_BEAM\n         7\n     45000\n*END\n";
  const Model ms = read_text(deck_set);
  ASSERT_EQ(ms.beam_sets.count(7), 1u);
  EXPECT_EQ(ms.beam_sets.at(7).members, std::vector<GlobalId>{45000});
  // _GENERATE: the ids of the range that are beams
  const std::string gen = beam_deck(kTrussSection);
  const Model mg = read_text(gen.substr(0, gen.size() - 5) +
                             "*SET_BEAM_GENERATE\n         8\n     44000     45000\n*END\n");
  EXPECT_EQ(mg.beam_sets.at(8).members, std::vector<GlobalId>{45000});
  const std::string bad_set =
      with_set.substr(0, with_set.size() - 5) + "*SET_BEAM\n         7\n     45009\n*END\n";
  EXPECT_NE(read_error(bad_set).find("beam element 45009"), std::string::npos)
      << read_error(bad_set);
  // A beam in a part whose section is a solid section.
  const std::string wrong = cube_deck("*ELEMENT_BEAM\n       9       1       1       2\n");
  EXPECT_NE(read_error(wrong).find("beam element 9 is in part 1, whose section 1 is a solid"),
            std::string::npos)
      << read_error(wrong);
}
