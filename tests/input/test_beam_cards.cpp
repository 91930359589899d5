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
// the formulations parcae does not compute are refused at the ELFORM field when a part with
// elements uses them; the integrated beams (ELFORM 1, 9) read TS1 TS2 TT1 TT2 and QR.
TEST(BeamCards, OtherFormulationsAreReadAndRefused) {
  struct Case {
    int elform;
    std::string card2;
  };
  const Case cases[] = {
      {2, "      10.0      20.0      20.0      40.0       0.0       0.0\n"}, // A ISS ITT J SA IST
      {6, "       1.0       0.0         0       0.0       0.0       0.0\n"}, // VOL INER CID CA
  };
  for (const Case& c : cases) {
    const std::string section = fmt::format("         2{:10d}\n", c.elform) + c.card2;
    const std::string msg = read_error(beam_deck(section));
    EXPECT_NE(msg.find(fmt::format("*SECTION_BEAM 2 (part 2): ELFORM {}", c.elform)),
              std::string::npos)
        << msg;
    EXPECT_NE(msg.find("the truss (ELFORM 3"), std::string::npos) << msg;
    EXPECT_NE(msg.find("deck.k:"), std::string::npos) << msg; // file:line
  }
  // ELFORM 1 and 9: the cross-section dimensions (TS2/TT2 as given; the solver defaults them)
  for (int elform : {1, 9}) {
    const Model m =
        read_text(beam_deck(fmt::format("         2{:10d}       1.0         3         0\n"
                                        "       2.0       2.5       1.0       1.5\n",
                                        elform)));
    const Section* s = m.find_section(2);
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(s->elform, elform);
    EXPECT_EQ(s->qr_irid, 3);
    EXPECT_DOUBLE_EQ(s->ts1, 2.0);
    EXPECT_DOUBLE_EQ(s->ts2, 2.5);
    EXPECT_DOUBLE_EQ(s->tt1, 1.0);
    EXPECT_DOUBLE_EQ(s->tt2, 1.5);
  }
  // ELFORM blank is the manual's default 1 (Hughes-Liu); QR blank is 2; rigid beams read too
  const Model mb = read_text(beam_deck("         2\n       2.0       2.0       1.0\n"));
  EXPECT_EQ(mb.find_section(2)->elform, 1);
  EXPECT_EQ(mb.find_section(2)->qr_irid, 2);
  std::string rigid = beam_deck("         2         1\n       2.0       2.0       1.0\n");
  rigid.replace(rigid.find("*MAT_ELASTIC\n         2"), 23, "*MAT_RIGID\n         2");
  EXPECT_EQ(read_error(rigid), "");
  // refused: a user integration rule, an unknown cross-section type, a missing dimension
  const std::string qr = read_error(beam_deck("         2         1       1.0        -1         0\n"
                                              "       2.0       2.0       1.0\n"));
  EXPECT_NE(qr.find("QR = -1 is not supported"), std::string::npos) << qr;
  const std::string cst =
      read_error(beam_deck("         2         1       1.0         2         5\n"
                           "       2.0       2.0       1.0\n"));
  EXPECT_NE(cst.find("CST = 5 is not supported"), std::string::npos) << cst;
  const std::string tt = read_error(beam_deck("         2         1       1.0         2         0\n"
                                              "       2.0       2.0\n"));
  EXPECT_NE(tt.find("TT1 = 0 must be positive"), std::string::npos) << tt;
  // releases: refused for integrated beams, ignored by trusses
  const std::string integrated = "         2         1       1.0         2         0\n"
                                 "       2.0       2.0       1.0\n";
  const std::string rel = read_error(
      beam_deck(integrated, "",
                "   45000       2       1       2       3       0       1       0       0\n"));
  EXPECT_NE(rel.find("RR1 = 1 (releases) is not supported for integrated beams"), std::string::npos)
      << rel;
  EXPECT_EQ(read_error(beam_deck(kTrussSection, "",
                                 "   45000       2       1       2       3       0       1\n")),
            "");
  // the _ORIENTATION vector is read for every beam (it stands for N3 when N3 is blank)
  const Model ori =
      read_text(beam_deck(integrated, "_ORIENTATION",
                          "   45000       2       1       2\n       0.0       1.0       2.0\n"));
  EXPECT_EQ(ori.beams.orientation.at(0), (std::array<Real, 3>{0.0, 1.0, 2.0}));
  EXPECT_EQ(ori.beams.n3.at(0), kInvalidLocal);
}

// The bolt of the public deck bolted_connection_b_explicit (DYNAmore, ../shared/decks), its
// lines as they are: *PART_CONTACT, *SECTION_BEAM ELFORM 9 (CST 1, TS1 = TS2 = 10) with
// *MAT_SPOTWELD and its blank card 2, the null contact beams (ELFORM 1, *MAT_NULL with YM PR and
// no EOS), *INITIAL_AXIAL_FORCE_BEAM with its beam set, the parameterised curve and
// *DATABASE_HISTORY_BEAM.
TEST(BeamCards, BoltedConnectionDeckLayout) {
  const std::string bolt =
      "*PARAMETER\nR bltForce      28.8\nR dtPreStr       1.0\n"
      "*NODE\n"
      " 1100002    2.743171e-05       -7.900001    7.740204e-07                \n"
      " 1200000    2.625248e-05             4.7    7.740204e-07                \n"
      " 1200057       -12.59997        4.699999    7.740204e-07                \n"
      "*DATABASE_HISTORY_BEAM\n   1000000                                                    "
      "                  \n"
      "*PART_CONTACT\nBolt\n"
      "       100       100       100                                                  \n"
      "                                              10.0                    \n"
      "*SECTION_BEAM\n"
      "       100         9       1.0         2         1                    \n"
      "      10.0      10.0                              \n"
      "*MAT_SPOTWELD\n"
      "       100   7.85e-6     210.0       0.3      0.64       9.5                    \n"
      "                                                                                \n"
      "*PART_CONTACT\nContact Beam Bolt (imp only)\n"
      "       101       101       310                                                  \n"
      "                                              10.0                    \n"
      "*SECTION_BEAM\n$\n"
      "       101         1       1.0         2         1                    \n"
      "      10.0      10.0                                        \n"
      "*MAT_NULL\n"
      "       310   7.85e-6                                             210.0       0.3\n"
      "*ELEMENT_BEAM\n"
      " 1000000     100 1200000 1100002 1200057                                       \n"
      " 1000001     101 1200000 1100002 1200057                                       \n"
      "*INITIAL_AXIAL_FORCE_BEAM\n"
      "$#    bsid      lcid     scale     kbend     \n"
      "       100       100                   0\n"
      "*SET_BEAM\n       100\n   1000000                                                      "
      "                \n"
      "*DEFINE_CURVE\n"
      "       100           &dtPreStr &bltForce                                        \n"
      "                 0.0                 0.0\n"
      "                 1.0                 1.0\n";
  const Model m = read_text(cube_deck(bolt));
  const Section* s = m.find_section(100);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->elform, 9);
  EXPECT_EQ(s->cst, 1);
  EXPECT_EQ(s->qr_irid, 2);
  EXPECT_DOUBLE_EQ(s->ts1, 10.0);
  EXPECT_DOUBLE_EQ(s->ts2, 10.0);
  EXPECT_DOUBLE_EQ(s->tt1, 0.0);
  EXPECT_DOUBLE_EQ(m.find_section(101)->ts1, 10.0);
  const Material* weld = m.find_material(100);
  ASSERT_NE(weld, nullptr);
  EXPECT_EQ(weld->kind, MaterialKind::Spotweld);
  EXPECT_DOUBLE_EQ(weld->ro, 7.85e-6);
  EXPECT_DOUBLE_EQ(weld->e, 210.0);
  EXPECT_DOUBLE_EQ(weld->pr, 0.3);
  EXPECT_DOUBLE_EQ(weld->sigy, 0.64);
  EXPECT_DOUBLE_EQ(weld->eh, 9.5);
  const Material* null = m.find_material(310);
  ASSERT_NE(null, nullptr);
  EXPECT_EQ(null->kind, MaterialKind::Null);
  EXPECT_DOUBLE_EQ(null->e, 210.0); // YM: contact stiffness of null beams
  EXPECT_DOUBLE_EQ(null->pr, 0.3);
  ASSERT_EQ(m.axial_force_beams.size(), 1u);
  EXPECT_EQ(m.axial_force_beams[0].bsid, 100);
  EXPECT_EQ(m.axial_force_beams[0].lcid, 100);
  EXPECT_DOUBLE_EQ(m.axial_force_beams[0].scale, 1.0); // blank: the manual's default
  EXPECT_EQ(m.axial_force_beams[0].kbend, 0);
  EXPECT_EQ(m.beam_sets.at(100).members, std::vector<GlobalId>{1000000});
  ASSERT_EQ(m.beams.size(), 2u);
  EXPECT_EQ(m.beams.n3[0], m.node_index(1200057));
  const Curve* c = nullptr;
  for (const Curve& k : m.curves)
    if (k.id == 100) c = &k;
  ASSERT_NE(c, nullptr);
  EXPECT_DOUBLE_EQ(c->eval(0.5), 14.4);
  // the failure fields of *MAT_SPOTWELD are refused on beams (they do not erode)
  std::string failing = bolt;
  failing.replace(failing.find("       100   7.85e-6     210.0       0.3      0.64       9.5    "
                               "                "),
                  80,
                  "       100   7.85e-6     210.0       0.3      0.64       9.5       0.0"
                  "       1.0");
  const std::string msg = read_error(cube_deck(failing));
  EXPECT_NE(msg.find("beam elements (part"), std::string::npos) << msg;
  EXPECT_NE(msg.find("deck.k:"), std::string::npos) << msg;
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
