// *CONTACT_*, *CONTROL_CONTACT and *SET_SEGMENT cards: fields into the Model (fixed and free
// format, _ID / _TITLE), defaults, *CONTROL_CONTACT friction defaults, triangles in segment
// sets, optional cards, warnings for fields that are not supported, set-type errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <initializer_list>

#include "keyword_test_util.hpp"

namespace parcae::test {
namespace {

using Kind = ContactDef::Kind;

/// The cube (solid part 1, nodes 1-8) plus a shell plate (part 2, nodes 11-14, section 2 with
/// T1 = 1.5), part set 5 = {1, 2}, node set 6 = plate nodes, segment set 7 = the cube's top.
std::string plate_deck(const std::string& extra) {
  return cube_deck("*NODE\n11,0,0,2\n12,1,0,2\n13,1,1,2\n14,0,1,2\n"
                   "*ELEMENT_SHELL\n2,2,11,12,13,14\n*PART\nplate\n2,2,1\n"
                   "*SECTION_SHELL\n2\n1.5\n*SET_PART_LIST\n5\n1,2\n"
                   "*SET_NODE_LIST\n6\n11,12,13,14\n*SET_SEGMENT\n7\n5,6,7,8\n" +
                   extra);
}

/// One fixed-format card: each value right-justified in 10 columns.
std::string fixed(std::initializer_list<std::string> values) {
  std::string line;
  for (const std::string& v : values) line += std::string(10 - v.size(), ' ') + v;
  return line + "\n";
}

bool has_note(const Model& m, const std::string& text) {
  return std::any_of(m.notes.begin(), m.notes.end(), [&](const KeywordNote& n) {
    return n.message.find(text) != std::string::npos && !n.error;
  });
}

TEST(ContactCards, SurfaceToSurfaceFixedFormatWithIdAndAllCards) {
  const Model m = read_text(
      plate_deck("*CONTACT_AUTOMATIC_SURFACE_TO_SURFACE_ID\n" + fixed({"42"}).substr(0, 10) +
                 " bumper to plate\n" + fixed({"2", "7", "3", "0", "", "", "1", "1"}) +
                 fixed({"0.3", "0.2", "5.0", "10.0", "", "", "1.0e-4", "2.0e-3"}) +
                 fixed({"2.0", "3.0", "0.5", "0.6", "1.1", "1.2", "", ""}) +
                 fixed({"1", "0.2", "", "", "", "3", "25", ""}) + fixed({"0.7"})));
  ASSERT_EQ(m.contacts.size(), 1u);
  const ContactDef& c = m.contacts[0];
  EXPECT_EQ(c.kind, Kind::SurfaceToSurface);
  EXPECT_TRUE(c.automatic);
  EXPECT_EQ(c.id, 42);
  EXPECT_EQ(c.title, "bumper to plate");
  EXPECT_EQ(c.keyword, "*CONTACT_AUTOMATIC_SURFACE_TO_SURFACE_ID");
  EXPECT_EQ(c.ssid, 2);
  EXPECT_EQ(c.sstyp, 3);
  EXPECT_EQ(c.msid, 7);
  EXPECT_EQ(c.mstyp, 0);
  EXPECT_EQ(c.ssid_loc.line, c.loc.line + 2);
  EXPECT_EQ(c.msid_loc.line, c.loc.line + 2);
  EXPECT_NE(c.ssid_loc.card.find("*CONTACT_AUTOMATIC_SURFACE_TO_SURFACE"), std::string::npos);
  EXPECT_DOUBLE_EQ(c.fs, 0.3);
  EXPECT_DOUBLE_EQ(c.fd, 0.2);
  EXPECT_DOUBLE_EQ(c.dc, 5.0);
  EXPECT_DOUBLE_EQ(c.vc, 10.0);
  EXPECT_DOUBLE_EQ(c.bt, 1.0e-4);
  EXPECT_DOUBLE_EQ(c.dt, 2.0e-3);
  EXPECT_DOUBLE_EQ(c.sfs, 2.0);
  EXPECT_DOUBLE_EQ(c.sfm, 3.0);
  EXPECT_DOUBLE_EQ(c.sst, 0.5);
  EXPECT_DOUBLE_EQ(c.mst, 0.6);
  EXPECT_DOUBLE_EQ(c.sfst, 1.1);
  EXPECT_DOUBLE_EQ(c.sfmt, 1.2);
  EXPECT_EQ(c.soft, 1);
  EXPECT_DOUBLE_EQ(c.sofscl, 0.2);
  EXPECT_EQ(c.depth, 3);
  EXPECT_EQ(c.bsort, 25);
  EXPECT_DOUBLE_EQ(c.penmax, 0.7);
  EXPECT_FALSE(has_note(m, "SPR")) << "SPR/MPR are ignored without a warning";
}

TEST(ContactCards, TiebreakCard4FromThePaperboardLayout) {
  // Boundary_v5.K of the paperboard folding box (LS-PrePost): card 4 (OPTION NFLS SFLS PARAM
  // ERATEN ERATES CT2CN CN) after card 3, OPTION 1 with NFLS = SFLS = 0.
  const Model m = read_text(plate_deck(
      "*CONTACT_AUTOMATIC_SURFACE_TO_SURFACE_TIEBREAK_ID\n"
      "         4tibebreak contact\n"
      "         2         1         3         3         0         0         0         0\n"
      "       0.0       0.0       0.0       0.0       0.0         0       0.01.00000E20\n"
      "       1.0       1.0       0.0       0.0       1.0       1.0       1.0       1.0\n"
      "         1       0.0       0.0       0.0       0.0       0.0       0.0       0.0\n"
      "*CONTACT_AUTOMATIC_SURFACE_TO_SURFACE_TIEBREAK\n" +
      fixed({"2", "1", "3", "3"}) + fixed({}) + fixed({}) +
      fixed({"3", "25.0", "12.5", "", "", "", "", ""}) + fixed({"1", "0.2"})));
  ASSERT_EQ(m.contacts.size(), 2u);
  const ContactDef& a = m.contacts[0];
  EXPECT_EQ(a.id, 4);
  EXPECT_EQ(a.kind, Kind::SurfaceToSurface);
  EXPECT_TRUE(a.automatic);
  EXPECT_EQ(a.ssid, 2);
  EXPECT_EQ(a.msid, 1);
  EXPECT_EQ(a.tiebreak_option, 1);
  EXPECT_DOUBLE_EQ(a.nfls, 0.0);
  EXPECT_DOUBLE_EQ(a.sfls, 0.0);
  EXPECT_DOUBLE_EQ(a.dt, 1e20);
  const ContactDef& b = m.contacts[1];
  EXPECT_EQ(b.tiebreak_option, 3);
  EXPECT_DOUBLE_EQ(b.nfls, 25.0);
  EXPECT_DOUBLE_EQ(b.sfls, 12.5);
  EXPECT_EQ(b.soft, 1); // card A after card 4
  EXPECT_DOUBLE_EQ(b.sofscl, 0.2);
  EXPECT_FALSE(has_note(m, "CT2CN")) << "0 and 1 (the default) are not warned about";
}

TEST(ContactCards, RepeatedContactIdsAreRenumberedWithAWarning) {
  // The paperboard deck repeats CID 4 (three tiebreak contacts) and 5: the later contacts take
  // the next ids no contact uses (here 8, 9: above the largest, 7), with a warning each.
  const std::string card = fixed({"2", "1", "3", "3"}) + fixed({}) + fixed({});
  const Model m =
      read_text(plate_deck("*CONTACT_AUTOMATIC_SURFACE_TO_SURFACE_ID\n         4a\n" + card +
                           "*CONTACT_AUTOMATIC_SURFACE_TO_SURFACE_ID\n" + "         4b\n" + card +
                           "*CONTACT_AUTOMATIC_SURFACE_TO_SURFACE_ID\n         7c\n" + card +
                           "*CONTACT_AUTOMATIC_SURFACE_TO_SURFACE\n" + card));
  ASSERT_EQ(m.contacts.size(), 4u);
  EXPECT_EQ(m.contacts[0].id, 4);
  EXPECT_EQ(m.contacts[1].id, 8);
  EXPECT_EQ(m.contacts[2].id, 7);
  EXPECT_EQ(m.contacts[3].id, 9); // its position (4) is taken: the next free id
  EXPECT_TRUE(has_note(m, "duplicate contact id 4"));
  EXPECT_TRUE(has_note(m, "numbered 8 in the outputs"));
}

TEST(ContactCards, TiebreakOptionsNotSupportedAreErrorsAtTheField) {
  auto deck = [](const std::string& card4) {
    return plate_deck("*CONTACT_AUTOMATIC_SURFACE_TO_SURFACE_TIEBREAK\n" +
                      fixed({"2", "1", "3", "3"}) + fixed({}) + fixed({}) + card4);
  };
  const std::string opt = read_error(deck(fixed({"9", "1.0", "1.0"})));
  EXPECT_NE(opt.find("deck.k:"), std::string::npos) << opt;
  EXPECT_NE(opt.find("OPTION = 9: tiebreak response not supported"), std::string::npos) << opt;
  const std::string nfls = read_error(deck(fixed({"2", "0.0", "1.0"})));
  EXPECT_NE(nfls.find("NFLS = 0: OPTION = 2 needs a positive failure stress"), std::string::npos)
      << nfls;
  const Model m = read_text(deck(fixed({"2", "1.0", "2.0", "0.5"})));
  EXPECT_TRUE(has_note(m, "PARAM = 0.5: not used"));
}

TEST(ContactCards, BlankFieldsTakeTheManualDefaults) {
  const Model m = read_text(plate_deck("*CONTACT_SURFACE_TO_SURFACE\n1,2,3,3\n\n\n"));
  ASSERT_EQ(m.contacts.size(), 1u);
  const ContactDef& c = m.contacts[0];
  EXPECT_EQ(c.kind, Kind::SurfaceToSurface);
  EXPECT_FALSE(c.automatic);
  EXPECT_EQ(c.id, 1);
  EXPECT_TRUE(c.title.empty());
  EXPECT_DOUBLE_EQ(c.fs, 0.0);
  EXPECT_DOUBLE_EQ(c.fd, 0.0);
  EXPECT_DOUBLE_EQ(c.dc, 0.0);
  EXPECT_DOUBLE_EQ(c.bt, 0.0);
  EXPECT_DOUBLE_EQ(c.dt, 1.0e20);
  for (double v : {c.sfs, c.sfm, c.sfst, c.sfmt, c.fsf, c.vsf}) EXPECT_DOUBLE_EQ(v, 1.0);
  EXPECT_DOUBLE_EQ(c.sst, 0.0);
  EXPECT_DOUBLE_EQ(c.mst, 0.0);
  EXPECT_EQ(c.soft, 0);
  EXPECT_DOUBLE_EQ(c.sofscl, 0.1);
  EXPECT_EQ(c.depth, 2);
  EXPECT_EQ(c.bsort, 0);
  EXPECT_DOUBLE_EQ(c.penmax, 0.0);
  EXPECT_TRUE(m.notes.empty() || !has_note(m, "ignored"));
}

TEST(ContactCards, ExplicitZerosMeanDefaults) {
  const Model m = read_text(
      plate_deck("*CONTACT_SURFACE_TO_SURFACE\n1,2,3,3\n0,0,0,0,0,0,0,0\n0,0,0,0,0,0,0,0\n"
                 "0,0,0,0,0,0,0,0\n"));
  const ContactDef& c = m.contacts.at(0);
  EXPECT_DOUBLE_EQ(c.dt, 1.0e20);
  for (double v : {c.sfs, c.sfm, c.sfst, c.sfmt, c.fsf, c.vsf}) EXPECT_DOUBLE_EQ(v, 1.0);
  EXPECT_DOUBLE_EQ(c.sofscl, 0.1);
  EXPECT_EQ(c.depth, 2);
  EXPECT_FALSE(has_note(m, "MAXPAR"));
  EXPECT_FALSE(has_note(m, "SBOPT"));
}

TEST(ContactCards, EveryKeywordFreeFormatWithTitleAndPositionIds) {
  const Model m = read_text(plate_deck("*CONTACT_AUTOMATIC_SINGLE_SURFACE_TITLE\n9,all parts\n"
                                       "0\n0.1\n\n"
                                       "*CONTACT_SINGLE_SURFACE\n5,,2\n\n\n"
                                       "*CONTACT_AUTOMATIC_NODES_TO_SURFACE\n6,1,4,3\n\n\n"
                                       "*CONTACT_NODES_TO_SURFACE_ID\n11\n2,7,3,0\n\n\n"
                                       "*CONTACT_SURFACE_TO_SURFACE_TITLE\n,s2s\n7,5,0,2\n\n\n"
                                       "*CONTACT_SINGLE_SURFACE\n2,,3\n\n\n"));
  ASSERT_EQ(m.contacts.size(), 6u);
  const auto& c = m.contacts;
  EXPECT_EQ(c[0].kind, Kind::SingleSurface);
  EXPECT_TRUE(c[0].automatic);
  EXPECT_EQ(c[0].id, 9);
  EXPECT_EQ(c[0].title, "all parts");
  EXPECT_EQ(c[0].ssid, 0); // all parts
  EXPECT_EQ(c[0].sstyp, 5);
  EXPECT_DOUBLE_EQ(c[0].fs, 0.1);

  EXPECT_EQ(c[1].kind, Kind::SingleSurface);
  EXPECT_FALSE(c[1].automatic);
  EXPECT_EQ(c[1].id, 2); // position among the contacts
  EXPECT_EQ(c[1].ssid, 5);
  EXPECT_EQ(c[1].sstyp, 2);

  EXPECT_EQ(c[2].kind, Kind::NodesToSurface);
  EXPECT_TRUE(c[2].automatic);
  EXPECT_EQ(c[2].id, 3);
  EXPECT_EQ(c[2].ssid, 6);
  EXPECT_EQ(c[2].sstyp, 4);
  EXPECT_EQ(c[2].msid, 1);
  EXPECT_EQ(c[2].mstyp, 3);

  EXPECT_EQ(c[3].kind, Kind::NodesToSurface);
  EXPECT_FALSE(c[3].automatic);
  EXPECT_EQ(c[3].id, 11);
  EXPECT_EQ(c[3].sstyp, 3);
  EXPECT_EQ(c[3].mstyp, 0);

  EXPECT_EQ(c[4].kind, Kind::SurfaceToSurface);
  EXPECT_EQ(c[4].id, 5); // blank CID: the position
  EXPECT_EQ(c[4].title, "s2s");
  EXPECT_EQ(c[4].ssid, 7);
  EXPECT_EQ(c[4].msid, 5);
  EXPECT_EQ(c[4].mstyp, 2);

  EXPECT_EQ(c[5].id, 6);
  EXPECT_EQ(c[5].ssid, 2);
  EXPECT_EQ(c[5].sstyp, 3);
}

TEST(ContactCards, SingleSurfaceIgnoresTheMainSurface) {
  const Model m = read_text(plate_deck("*CONTACT_AUTOMATIC_SINGLE_SURFACE\n5,99,2,1\n\n\n"));
  const ContactDef& c = m.contacts.at(0);
  EXPECT_EQ(c.ssid, 5);
  EXPECT_EQ(c.sstyp, 2);
  EXPECT_EQ(c.msid, 0);
  EXPECT_EQ(c.mstyp, 0);
  EXPECT_TRUE(has_note(m, "MSID = 99"));
}

TEST(ContactCards, ControlContactDefaultsAppliedToFrictionlessContacts) {
  // *CONTROL_CONTACT after the contacts: its defaults still apply.
  const Model m = read_text(plate_deck("*CONTACT_AUTOMATIC_SINGLE_SURFACE\n\n\n\n"
                                       "*CONTACT_AUTOMATIC_SINGLE_SURFACE_ID\n2\n\n0.4,0.3,,\n\n"
                                       "*CONTACT_AUTOMATIC_SINGLE_SURFACE_ID\n3\n\n,,7.0\n\n"
                                       "*CONTROL_CONTACT\n0.2,,,1\n,,10,,2.5\n0.25,0.15,3.0\n"
                                       "1\n"));
  const Controls& ctl = m.control;
  EXPECT_TRUE(ctl.contact_control_given);
  EXPECT_DOUBLE_EQ(ctl.contact_slsfac, 0.2);
  EXPECT_EQ(ctl.contact_shlthk, 1);
  EXPECT_EQ(ctl.contact_nsbcs, 10);
  EXPECT_DOUBLE_EQ(ctl.contact_xpene, 2.5);
  EXPECT_DOUBLE_EQ(ctl.contact_sfric, 0.25);
  EXPECT_DOUBLE_EQ(ctl.contact_dfric, 0.15);
  EXPECT_DOUBLE_EQ(ctl.contact_edc, 3.0);
  EXPECT_EQ(ctl.contact_ignore, 1);
  ASSERT_EQ(m.contacts.size(), 3u);
  EXPECT_DOUBLE_EQ(m.contacts[0].fs, 0.25); // FS = FD = 0: the defaults
  EXPECT_DOUBLE_EQ(m.contacts[0].fd, 0.15);
  EXPECT_DOUBLE_EQ(m.contacts[0].dc, 3.0);
  EXPECT_DOUBLE_EQ(m.contacts[1].fs, 0.4); // given: kept
  EXPECT_DOUBLE_EQ(m.contacts[1].fd, 0.3);
  EXPECT_DOUBLE_EQ(m.contacts[1].dc, 3.0); // DC = 0: EDC
  EXPECT_DOUBLE_EQ(m.contacts[2].fs, 0.25);
  EXPECT_DOUBLE_EQ(m.contacts[2].dc, 7.0);
}

TEST(ContactCards, ControlContactCardOneOnlyAndFixedFormat) {
  const Model m = read_text(plate_deck("*CONTROL_CONTACT\n" + fixed({"0.05", "", "1", "", "1"})));
  const Controls& ctl = m.control;
  EXPECT_TRUE(ctl.contact_control_given);
  EXPECT_DOUBLE_EQ(ctl.contact_slsfac, 0.05);
  EXPECT_EQ(ctl.contact_nsbcs, 0);
  EXPECT_DOUBLE_EQ(ctl.contact_xpene, 4.0);
  EXPECT_DOUBLE_EQ(ctl.contact_sfric, 0.0);
  EXPECT_EQ(ctl.contact_ignore, 0);
  EXPECT_FALSE(has_note(m, "ISLCHK")) << "defaults are not warned about";
}

// PENOPT and ORIEN (card 1, fields 5 and 7): LS-DYNA's defaults 1; PENOPT 3-5 (node-based
// weighted stiffness) fall back to 2 with a warning; ORIEN 3 switches the reorientation off.
TEST(ContactCards, ControlContactPenoptAndOrien) {
  const Model d = read_text(plate_deck("*CONTROL_CONTACT\n" + fixed({"0.1"})));
  EXPECT_EQ(d.control.contact_penopt, 1);
  EXPECT_EQ(d.control.contact_orien, 1);
  const Model m =
      read_text(plate_deck("*CONTROL_CONTACT\n" + fixed({"0.1", "", "", "", "2", "", "3"})));
  EXPECT_EQ(m.control.contact_penopt, 2);
  EXPECT_EQ(m.control.contact_orien, 3);
  EXPECT_FALSE(has_note(m, "PENOPT"));
  const Model w = read_text(plate_deck("*CONTROL_CONTACT\n" + fixed({"0.1", "", "", "", "4"})));
  EXPECT_EQ(w.control.contact_penopt, 2);
  EXPECT_TRUE(has_note(w, "PENOPT = 4"));
  const std::string e =
      read_error(plate_deck("*CONTROL_CONTACT\n" + fixed({"0.1", "", "", "", "", "", "7"})));
  EXPECT_NE(e.find("ORIEN = 7"), std::string::npos) << e;
}

TEST(ContactCards, NoControlContact) {
  const Model m = read_text(plate_deck(""));
  EXPECT_FALSE(m.control.contact_control_given);
  EXPECT_DOUBLE_EQ(m.control.contact_slsfac, 0.1);
  EXPECT_TRUE(m.contacts.empty());
}

TEST(ContactCards, ControlContactIgnoredFieldsAreListed) {
  const Model m = read_text(plate_deck("*CONTROL_CONTACT\n0.1,0.5,,,,1\n,,,,,,,\n,,,4.0\n"
                                       ",,,,,,,\n1,2,3\n"));
  EXPECT_TRUE(has_note(m, "RWPNAL = 0.5"));
  EXPECT_TRUE(has_note(m, "THKCHG = 1"));
  EXPECT_TRUE(has_note(m, "VFC = 4"));
}

TEST(ContactCards, SegmentSetsWithTrianglesFixedAndFree) {
  const Model m = read_text(plate_deck(
      "*SET_SEGMENT_TITLE\nplate segments\n" + fixed({"8"}) + fixed({"11", "12", "13", "14"}) +
      fixed({"11", "12", "13", ""}) + fixed({"11", "12", "13", "0", "1.0", "2.0", "3.0", "4.0"}) +
      "\n12,13,14\n*SET_SEGMENT\n9,1.0,2.0,3.0,4.0,MECH\n1,2,3,3\n"));
  ASSERT_EQ(m.segment_sets.size(), 3u);
  const SegmentSet& s = m.segment_sets.at(8);
  EXPECT_EQ(s.id, 8);
  ASSERT_EQ(s.segments.size(), 4u);
  EXPECT_EQ(s.segments[0], (std::array<GlobalId, 4>{11, 12, 13, 14}));
  EXPECT_EQ(s.segments[1], (std::array<GlobalId, 4>{11, 12, 13, 13}));
  EXPECT_EQ(s.segments[2], (std::array<GlobalId, 4>{11, 12, 13, 13}));
  EXPECT_EQ(s.segments[3], (std::array<GlobalId, 4>{12, 13, 14, 14}));
  ASSERT_EQ(s.lines.size(), 4u);
  EXPECT_EQ(s.lines[1], s.lines[0] + 1);
  EXPECT_EQ(s.lines[3], s.lines[2] + 2); // a blank line between
  EXPECT_GT(s.loc.line, 0);
  EXPECT_EQ(m.segment_sets.at(9).segments.at(0), (std::array<GlobalId, 4>{1, 2, 3, 3}));
  EXPECT_EQ(m.segment_sets.at(7).segments.at(0), (std::array<GlobalId, 4>{5, 6, 7, 8}));
}

TEST(ContactCards, OptionalCardsAbsentOrPresentAndExtraCardsSkipped) {
  // No card A / B.
  Model m = read_text(plate_deck("*CONTACT_AUTOMATIC_SINGLE_SURFACE\n5,,2\n\n\n"));
  EXPECT_EQ(m.contacts.at(0).depth, 2);
  EXPECT_DOUBLE_EQ(m.contacts.at(0).penmax, 0.0);
  // Card A only.
  m = read_text(plate_deck("*CONTACT_AUTOMATIC_SINGLE_SURFACE\n5,,2\n\n\n1,0.3,,,,5,10\n"));
  EXPECT_EQ(m.contacts.at(0).soft, 1);
  EXPECT_DOUBLE_EQ(m.contacts.at(0).sofscl, 0.3);
  EXPECT_EQ(m.contacts.at(0).depth, 5);
  EXPECT_EQ(m.contacts.at(0).bsort, 10);
  EXPECT_DOUBLE_EQ(m.contacts.at(0).penmax, 0.0);
  // Cards A, B, C, D: C is read (IGNORE; the others warned about), D is skipped.
  m = read_text(plate_deck("*CONTACT_AUTOMATIC_SINGLE_SURFACE\n5,,2\n\n\n\n0.9\n"
                           "1,2,3,4,5,6,7,8\n1,2,3\n*CONTACT_SINGLE_SURFACE_ID\n8\n5,,2\n\n\n"));
  ASSERT_EQ(m.contacts.size(), 2u);
  EXPECT_DOUBLE_EQ(m.contacts[0].penmax, 0.9);
  EXPECT_EQ(m.contacts[0].ignore, 2);
  EXPECT_EQ(m.contacts[1].ignore, 0);
  for (const char* text : {"DPRFAC = 3", "EDGEK = 5", "FLANGL = 7", "CID_RCF = 8"})
    EXPECT_TRUE(has_note(m, text)) << text;
  // DTSTIF > 0 is read (the step of the SOFT = 1 stiffness); 0 keeps the solution's
  EXPECT_FALSE(has_note(m, "DTSTIF")) << "DTSTIF = 4 is read";
  EXPECT_DOUBLE_EQ(m.contacts[0].dtstif, 4.0);
  EXPECT_DOUBLE_EQ(m.contacts[1].dtstif, 0.0);
  EXPECT_FALSE(has_note(m, "IGAP")) << "IGAP 1 is the default";
  EXPECT_EQ(m.contacts[1].id, 8);
  // IGNORE on card C: 1 kept; a negative value is used as |IGNORE| with a warning; 3 is an
  // error at the field.
  m = read_text(plate_deck("*CONTACT_AUTOMATIC_SINGLE_SURFACE\n5,,2\n\n\n\n\n,-1\n"));
  EXPECT_EQ(m.contacts.at(0).ignore, 1);
  EXPECT_TRUE(has_note(m, "IGNORE = -1"));
  // a negative DTSTIF (moving average, curve) is not supported: warning, the solution step
  m = read_text(plate_deck("*CONTACT_AUTOMATIC_SINGLE_SURFACE\n5,,2\n\n\n1\n\n,,,-5\n"));
  EXPECT_TRUE(has_note(m, "DTSTIF = -5"));
  EXPECT_DOUBLE_EQ(m.contacts.at(0).dtstif, 0.0);
  const std::string msg =
      read_error(plate_deck("*CONTACT_AUTOMATIC_SINGLE_SURFACE\n5,,2\n\n\n\n\n,3\n"));
  EXPECT_NE(msg.find("IGNORE = 3"), std::string::npos) << msg;
}

TEST(ContactCards, WarningsForFieldsThatAreNotSupported) {
  const Model m = read_text(plate_deck("*CONTACT_AUTOMATIC_SURFACE_TO_SURFACE\n"
                                       "2,1,3,3,4,5,1,1\n"
                                       "0.1,0.1,0,0,20.0,1\n"
                                       "1,1,0,0,1,1,2.0,3.0\n"
                                       "2,0.1,12,1.5,3,2,,4\n"
                                       "0,1,1,1,1,1,1.0,1.0\n"));
  for (const char* text :
       {"SBOXID = 4", "MBOXID = 5", "PENCHK = 1", "FSF = 2", "VSF = 3", "SOFT = 2", "LCIDAB = 12",
        "MAXPAR = 1.5", "SBOPT = 3", "FRCFRQ = 4", "THKOPT = 1", "SHLTHK = 1", "SNLOG = 1",
        "ISYM = 1", "I2D3D = 1", "SLDTHK = 1", "SLDSTF = 1"})
    EXPECT_TRUE(has_note(m, text)) << text;
  EXPECT_FALSE(has_note(m, "SPR")) << "SPR/MPR need no warning";
  EXPECT_EQ(m.contacts.at(0).soft, 0) << "an unsupported SOFT falls back to 0";
  EXPECT_DOUBLE_EQ(m.contacts.at(0).vdc, 20.0) << "VDC (viscous damping) is modelled";
  EXPECT_FALSE(has_note(m, "VDC"));
  const auto it = std::find_if(m.notes.begin(), m.notes.end(), [](const KeywordNote& n) {
    return n.message.find("PENCHK") != std::string::npos;
  });
  ASSERT_NE(it, m.notes.end());
  EXPECT_EQ(it->keyword, "*CONTACT_AUTOMATIC_SURFACE_TO_SURFACE");
  EXPECT_EQ(it->loc.line, m.contacts[0].loc.line + 2);
}

TEST(ContactCards, UnsupportedSetTypesAreErrorsAtTheField) {
  struct Case {
    std::string keyword, card1, expect;
  };
  const Case cases[] = {
      {"*CONTACT_SURFACE_TO_SURFACE", "3,1,1,3", "SSTYP = 1"},
      {"*CONTACT_SURFACE_TO_SURFACE", "3,1,3,6", "MSTYP = 6"},
      {"*CONTACT_SURFACE_TO_SURFACE", "6,1,4,3", "only allowed as SSTYP of a NODES_TO_SURFACE"},
      {"*CONTACT_NODES_TO_SURFACE", "6,6,4,4", "a node set cannot be a main surface"},
      {"*CONTACT_AUTOMATIC_NODES_TO_SURFACE", "6,1,5,3", "SSTYP = 5"},
      {"*CONTACT_SINGLE_SURFACE", "6,,4", "SSTYP = 4"},
  };
  for (const Case& c : cases) {
    const std::string msg = read_error(plate_deck(c.keyword + "\n" + c.card1 + "\n\n\n"));
    EXPECT_NE(msg.find(c.expect), std::string::npos) << c.card1 << ": " << msg;
    EXPECT_NE(msg.find("supported: 0 segment set, 2 part set, 3 part"), std::string::npos) << msg;
    EXPECT_NE(msg.find(c.keyword), std::string::npos) << msg;
  }
}

TEST(ContactCards, MissingCardsAndBadValues) {
  EXPECT_NE(read_error(plate_deck("*CONTACT_SINGLE_SURFACE\n5,,2\n")).find("missing card"),
            std::string::npos);
  EXPECT_NE(read_error(plate_deck("*CONTACT_SINGLE_SURFACE\n5,,2\n-0.1\n\n")).find("FS = -0.1"),
            std::string::npos);
  EXPECT_NE(read_error(plate_deck("*CONTACT_SINGLE_SURFACE\n5,,2\n,,,,,,2.0,1.0\n\n"))
                .find("must be after birth time"),
            std::string::npos);
  EXPECT_NE(read_error(plate_deck("*SET_SEGMENT\n10\n1,2,2,3\n")).find("repeats node 2"),
            std::string::npos);
}

TEST(ContactCards, ZeroThicknessAllowedWithContactThickness) {
  // Part 3: shells with nodal thicknesses and section T1 = 0; SST > 0 overrides.
  const std::string plate3 = "*NODE\n21,0,0,3\n22,1,0,3\n23,1,1,3\n24,0,1,3\n"
                             "*ELEMENT_SHELL_THICKNESS\n3,3,21,22,23,24\n1.0,1.0,1.0,1.0\n"
                             "*PART\nthin\n3,3,1\n*SECTION_SHELL\n3\n0.0\n";
  const Model m = read_text(plate_deck(plate3 + "*CONTACT_SURFACE_TO_SURFACE\n3,2,3,3\n\n,,0.8\n"));
  EXPECT_DOUBLE_EQ(m.contacts.at(0).sst, 0.8);
  const std::string msg =
      read_error(plate_deck(plate3 + "*CONTACT_SURFACE_TO_SURFACE\n3,2,3,3\n\n\n"));
  EXPECT_NE(msg.find("zero-thickness shells in contact 1: part 3"), std::string::npos) << msg;
}

/// The cube plus two truss parts (part 100: one beam, part 310: two beams, *PART_CONTACT OPTT
/// 10 and 0.5) and part set 10013 = {100, 310}, as in the public bolted-connection deck.
std::string beam_deck(const std::string& extra) {
  return cube_deck("*NODE\n11,0,0,5\n12,0,0,15\n21,-1,-1,0\n22,1,-1,0\n23,1,1,0\n"
                   "*ELEMENT_BEAM\n1,100,11,12\n2,310,21,22\n3,310,22,23\n"
                   "*PART_CONTACT\nbolt\n100,2,1\n,,,,10.0\n"
                   "*PART_CONTACT\nhole lining\n310,2,1\n,,,,0.5\n"
                   "*SECTION_BEAM\n2,3\n10.0\n*SET_PART_LIST\n10013\n100,310\n" +
                   extra);
}

TEST(ContactCards, AutomaticGeneralMppIdInThePublicDeckLayout) {
  // The bolted connection deck's card, verbatim: ID card, MPP card 1 (CPARM8 = 2 in columns
  // 71-80), card 1 (SSID 10013, SSTYP 2), card 2 (FS FD DC, VDC = 20), card 3, card A.
  const std::string card =
      "*CONTACT_AUTOMATIC_GENERAL_MPP_ID\n"
      "     10013 Beam Contact\n"
      "                                                                               2\n"
      "     10013                   2                                                  \n"
      "      0.15       0.1       1.0                20.0                 0.0     1e+20\n"
      "       1.0       1.0       0.0       0.0       1.0       1.0       1.0       1.0\n"
      "         1       0.1                                                            \n";
  const Model m = read_text(beam_deck(card));
  ASSERT_EQ(m.contacts.size(), 1u);
  const ContactDef& c = m.contacts[0];
  EXPECT_TRUE(c.general);
  EXPECT_TRUE(c.automatic);
  EXPECT_EQ(c.kind, Kind::SingleSurface);
  EXPECT_EQ(c.id, 10013);
  EXPECT_EQ(c.title, "Beam Contact");
  EXPECT_EQ(c.cparm8, 2);
  EXPECT_EQ(c.ssid, 10013);
  EXPECT_EQ(c.sstyp, 2);
  EXPECT_EQ(c.ssid_loc.line, c.loc.line + 3) << "card 1 follows the ID and MPP cards";
  EXPECT_DOUBLE_EQ(c.fs, 0.15);
  EXPECT_DOUBLE_EQ(c.fd, 0.1);
  EXPECT_DOUBLE_EQ(c.dc, 1.0);
  EXPECT_DOUBLE_EQ(c.vdc, 20.0);
  EXPECT_DOUBLE_EQ(c.dt, 1e20);
  EXPECT_EQ(c.soft, 1);
  EXPECT_DOUBLE_EQ(c.sofscl, 0.1);
  EXPECT_DOUBLE_EQ(m.find_part(100)->contact_optt, 10.0);
  EXPECT_DOUBLE_EQ(m.find_part(310)->contact_optt, 0.5);
  EXPECT_FALSE(has_note(m, "OPTT")) << "OPTT is used, not ignored";
  // the other spellings: plain, _ID, _TITLE, _MPP, _ID_MPP (the same cards, ID and MPP cards
  // present only with their options)
  const Model plain = read_text(beam_deck("*CONTACT_AUTOMATIC_GENERAL\n10013,,2\n\n\n"));
  EXPECT_TRUE(plain.contacts.at(0).general);
  EXPECT_EQ(plain.contacts.at(0).id, 1);
  EXPECT_EQ(plain.contacts.at(0).cparm8, 0);
  const Model titled =
      read_text(beam_deck("*CONTACT_AUTOMATIC_GENERAL_TITLE\n         7 lining\n10013,,2\n\n\n"));
  EXPECT_EQ(titled.contacts.at(0).id, 7);
  const Model mpp =
      read_text(beam_deck("*CONTACT_AUTOMATIC_GENERAL_MPP\n,,,,,,,1\n10013,,2\n\n\n"));
  EXPECT_EQ(mpp.contacts.at(0).cparm8, 1);
  const Model id_mpp =
      read_text(beam_deck("*CONTACT_AUTOMATIC_GENERAL_ID_MPP\n8\n,,,,,,,2\n10013,,2\n\n\n"));
  EXPECT_EQ(id_mpp.contacts.at(0).id, 8);
  EXPECT_EQ(id_mpp.contacts.at(0).cparm8, 2);
  // all parts: SSID = 0
  const Model all = read_text(beam_deck("*CONTACT_AUTOMATIC_GENERAL\n\n\n\n"));
  EXPECT_EQ(all.contacts.at(0).sstyp, 5);
}

TEST(ContactCards, MppOptionOnEveryContactWithTheAmpersandCard) {
  // The human-body-model layout (ANSA): ID card, MPP card 1 (IGNORE = 1 in columns 1-10), MPP
  // card 2 starting with '&', then cards 1-3. The '&' line is MPP card 2, not card 1.
  const std::string s2s = "*CONTACT_AUTOMATIC_SURFACE_TO_SURFACE_ID_MPP\n"
                          "200002    NE_Dens_ligaments\n"
                          "         1       200                   3         2    1.0005        "
                          "           0\n"
                          "&                  0        1.         0\n" +
                          fixed({"2", "7", "3", "0"}) + fixed({"0.3"}) + fixed({});
  const Model m = read_text(plate_deck(s2s));
  ASSERT_EQ(m.contacts.size(), 1u);
  const ContactDef& c = m.contacts[0];
  EXPECT_EQ(c.id, 200002);
  EXPECT_EQ(c.title, "NE_Dens_ligaments");
  EXPECT_EQ(c.ssid, 2);
  EXPECT_EQ(c.msid, 7);
  EXPECT_EQ(c.ssid_loc.line, c.loc.line + 4) << "card 1 follows the ID and both MPP cards";
  EXPECT_DOUBLE_EQ(c.fs, 0.3);
  EXPECT_EQ(c.ignore, 1) << "MPP card 1's IGNORE stands in for card C's";
  // Without the '&' line card 1 follows MPP card 1; _MPP alone, _MPP_ID and _TITLE_MPP.
  for (const std::string kw :
       {"*CONTACT_AUTOMATIC_SINGLE_SURFACE_MPP", "*CONTACT_AUTOMATIC_SINGLE_SURFACE_MPP_ID",
        "*CONTACT_AUTOMATIC_SINGLE_SURFACE_TITLE_MPP", "*CONTACT_ERODING_SINGLE_SURFACE_MPP",
        "*CONTACT_TIED_NODES_TO_SURFACE_OFFSET_MPP"}) {
    const bool id = kw.find("_ID") != std::string::npos || kw.find("TITLE") != std::string::npos;
    const bool tied = kw.find("TIED") != std::string::npos;
    const bool eroding = kw.find("ERODING") != std::string::npos;
    const Model o =
        read_text(plate_deck(kw + "\n" + (id ? "         9 lining\n" : "") + ",,,,,,,\n" +
                             (tied ? "6,7,4,0\n" : "5,,2\n") + "\n\n" + (eroding ? "\n" : "")));
    ASSERT_EQ(o.contacts.size(), 1u) << kw;
    EXPECT_EQ(o.contacts[0].id, id ? 9 : 1) << kw;
    EXPECT_EQ(o.contacts[0].ssid, tied ? 6 : 5) << kw;
    EXPECT_EQ(o.contacts[0].ssid_loc.line, o.contacts[0].loc.line + (id ? 3 : 2)) << kw;
  }
  // Only '&' in column 1 marks MPP card 2: a card 1 whose right-justified SSID is a parameter
  // reference ("      &ss") is card 1.
  const Model p = read_text(plate_deck("*PARAMETER\nI ss             5\n"
                                       "*CONTACT_AUTOMATIC_SINGLE_SURFACE_MPP\n,,,,,,,\n"
                                       "       &ss         0         2\n\n\n"));
  ASSERT_EQ(p.contacts.size(), 1u);
  EXPECT_EQ(p.contacts[0].ssid, 5);
  EXPECT_EQ(p.contacts[0].sstyp, 2);
  // MPP card 1 is read as a card: a bad value in it is an error at its line.
  EXPECT_THROW(read_text(plate_deck("*CONTACT_AUTOMATIC_SINGLE_SURFACE_MPP\nx\n5,,2\n\n\n")),
               InputError);
}

TEST(ContactCards, OptionsInsideTheNameAndBeamOffsetTies) {
  // The panel include's spelling: _ID inside the name, before BEAM_OFFSET, then _MPP.
  const std::string tie = "*CONTACT_TIED_SHELL_EDGE_TO_SURFACE_ID_BEAM_OFFSET_MPP\n"
                          "  14299997 CONN_INCLUDE_FRONTEND_STF\n"
                          "                                                         2.0\n" +
                          fixed({"6", "7", "4", "0"}) + fixed({}) + fixed({});
  const Model m = read_text(plate_deck(tie));
  ASSERT_EQ(m.contacts.size(), 1u);
  const ContactDef& c = m.contacts[0];
  EXPECT_EQ(c.id, 14299997);
  EXPECT_EQ(c.title, "CONN_INCLUDE_FRONTEND_STF");
  EXPECT_EQ(c.ssid, 6);
  EXPECT_EQ(c.tied, 2) << "run as the constraint tie";
  EXPECT_TRUE(c.tie_rotations);
  EXPECT_TRUE(has_note(m, "_BEAM_OFFSET"));
  // the plain _OFFSET form stays LS-DYNA's penalty tie of the translations
  const Model off =
      read_text(plate_deck("*CONTACT_TIED_SHELL_EDGE_TO_SURFACE_OFFSET\n6,7,4,0\n\n\n"));
  EXPECT_EQ(off.contacts.at(0).tied, 1);
  EXPECT_FALSE(off.contacts.at(0).tie_rotations);
  // only _ID, _TITLE and _MPP move: other words out of place are still refused
  EXPECT_THROW(read_text(plate_deck("*CONTACT_TIED_ID_SHELL_EDGE_TO_SURFACE_BEAM\n6,7,4,0\n\n\n")),
               DeckErrors);
}

TEST(ContactCards, AutomaticGeneralErrors) {
  // a segment set has no beams
  std::string msg = read_error(beam_deck("*SET_SEGMENT\n7\n5,6,7,8\n"
                                         "*CONTACT_AUTOMATIC_GENERAL\n7,,0\n\n\n"));
  EXPECT_NE(msg.find("SSTYP = 0: a segment set has no beams"), std::string::npos) << msg;
  msg = read_error(beam_deck("*CONTACT_AUTOMATIC_GENERAL_MPP\n,,,,,,,3\n10013,,2\n\n\n"));
  EXPECT_NE(msg.find("CPARM8 = 3"), std::string::npos) << msg;
  // the other variants of general contact stay unsupported, with the keyword named
  for (const std::string kw : {"*CONTACT_AUTOMATIC_GENERAL_INTERIOR", "*CONTACT_GENERAL",
                               "*CONTACT_AUTOMATIC_GENERAL_TIEBREAK"}) {
    msg = read_error(beam_deck(kw + "\n10013,,2\n\n\n"));
    EXPECT_NE(msg.find(kw), std::string::npos) << msg;
  }
  // a part without beams, shells or solids is still an empty surface
  msg = read_error(beam_deck("*PART\nempty\n5,2,1\n*CONTACT_AUTOMATIC_GENERAL\n5,,3\n\n\n"));
  EXPECT_NE(msg.find("has no elements"), std::string::npos) << msg;
}

} // namespace
} // namespace parcae::test

// An ID card written as LS-PrePost writes it, the heading right after the id ("         5gen"),
// is the id 5 and the heading "gen" (no field overflow: the heading is free text).
TEST(ContactCards, HeadingRightAfterTheId) {
  const std::string deck = R"(*KEYWORD
*CONTROL_TERMINATION
    1.0e-3
*NODE
       1             0.0             0.0             0.0
       2             1.0             0.0             0.0
       3             1.0             1.0             0.0
       4             0.0             1.0             0.0
*ELEMENT_SHELL
       1       1       1       2       3       4
*PART
plate
         1         1         1
*SECTION_SHELL
         1         2
       1.0       1.0       1.0       1.0
*MAT_ELASTIC
         1    7.8e-9  210000.0       0.3
*CONTACT_AUTOMATIC_SINGLE_SURFACE_ID
         5gen
         1         0         3


*END
)";
  const auto dir = parcae::test::make_temp_dir("contact_heading");
  parcae::test::write_file(dir / "deck.k", deck);
  const parcae::Model m = parcae::read_deck((dir / "deck.k").string());
  ASSERT_EQ(m.contacts.size(), 1u);
  EXPECT_EQ(m.contacts[0].id, 5);
  EXPECT_EQ(m.contacts[0].title, "gen");
}

namespace parcae::test {
namespace {

// One-way automatic surface-to-surface is automatic nodes-to-surface with the secondary side
// given as a surface; *CONTACT_SPOTWELD_CONSTRAINED_OFFSET is the spot weld's constraint ties.
TEST(ContactCards, OneWaySurfaceToSurfaceAndSpotweldConstrainedOffset) {
  const Model m = read_text(plate_deck("*CONTACT_AUTOMATIC_ONE_WAY_SURFACE_TO_SURFACE_ID\n" +
                                       fixed({"9"}) + fixed({"1", "2", "3", "3"}) + "\n\n" +
                                       "*CONTACT_SPOTWELD_CONSTRAINED_OFFSET\n" +
                                       fixed({"1", "2", "3", "3"}) + "\n\n"));
  ASSERT_EQ(m.contacts.size(), 2u);
  const ContactDef& c = m.contacts[0];
  EXPECT_EQ(c.kind, Kind::NodesToSurface);
  EXPECT_TRUE(c.automatic);
  EXPECT_EQ(c.tied, 0);
  EXPECT_EQ(c.id, 9);
  EXPECT_EQ(c.ssid, 1);
  EXPECT_EQ(c.sstyp, 3);
  EXPECT_EQ(c.msid, 2);
  EXPECT_EQ(m.contacts[1].tied, 3); // the spot weld's constraint ties
}

// _SMOOTH: the automatic contact of the same kind on the facetted surface, with one warning.
TEST(ContactCards, SmoothVariantsAreTheAutomaticContactsWithAWarning) {
  const std::string card2 = "\n\n";
  for (const auto& [name, kind] : std::vector<std::pair<std::string, ContactDef::Kind>>{
           {"*CONTACT_AUTOMATIC_SURFACE_TO_SURFACE_SMOOTH", ContactDef::Kind::SurfaceToSurface},
           {"*CONTACT_AUTOMATIC_NODES_TO_SURFACE_SMOOTH", ContactDef::Kind::NodesToSurface},
           {"*CONTACT_AUTOMATIC_ONE_WAY_SURFACE_TO_SURFACE_SMOOTH",
            ContactDef::Kind::NodesToSurface},
           {"*CONTACT_AUTOMATIC_SINGLE_SURFACE_SMOOTH", ContactDef::Kind::SingleSurface}}) {
    const Model m = read_text(plate_deck(name + "\n" + fixed({"2", "1", "3", "3"}) + card2));
    ASSERT_EQ(m.contacts.size(), 1U) << name;
    EXPECT_EQ(m.contacts[0].kind, kind) << name;
    EXPECT_TRUE(m.contacts[0].automatic) << name;
    EXPECT_TRUE(has_note(m, "facetted surface")) << name;
  }
  // the _ID form reads its ID card first
  const Model m = read_text(plate_deck("*CONTACT_AUTOMATIC_SURFACE_TO_SURFACE_SMOOTH_ID\n" +
                                       fixed({"7"}) + fixed({"2", "1", "3", "3"}) + card2));
  EXPECT_EQ(m.contacts.at(0).id, 7);
}

// _MORTAR: the automatic contact of the same kind (node-to-segment penalty), with one warning
// that says so; the same contact definition, field for field, as the keyword without _MORTAR.
TEST(ContactCards, MortarVariantsAreTheAutomaticContactsWithAWarning) {
  const std::string cards = fixed({"2", "1", "3", "3"}) + fixed({"0.2", "0.1"}) + "\n";
  for (const auto& [name, kind] : std::vector<std::pair<std::string, ContactDef::Kind>>{
           {"*CONTACT_AUTOMATIC_SURFACE_TO_SURFACE", ContactDef::Kind::SurfaceToSurface},
           {"*CONTACT_AUTOMATIC_SINGLE_SURFACE", ContactDef::Kind::SingleSurface}}) {
    const Model mortar = read_text(plate_deck(name + "_MORTAR\n" + cards));
    const Model plain = read_text(plate_deck(name + "\n" + cards));
    ASSERT_EQ(mortar.contacts.size(), 1U) << name;
    const ContactDef &a = mortar.contacts[0], &b = plain.contacts.at(0);
    EXPECT_EQ(a.kind, kind) << name;
    EXPECT_TRUE(a.automatic) << name;
    EXPECT_EQ(a.ssid, b.ssid) << name;
    EXPECT_EQ(a.sstyp, b.sstyp) << name;
    EXPECT_EQ(a.msid, b.msid) << name;
    EXPECT_EQ(a.mstyp, b.mstyp) << name;
    EXPECT_EQ(a.fs, b.fs) << name;
    EXPECT_EQ(a.fd, b.fd) << name;
    EXPECT_EQ(a.fs, 0.2) << name;
    EXPECT_TRUE(has_note(mortar, "_MORTAR")) << name;
    EXPECT_FALSE(has_note(plain, "_MORTAR")) << name;
  }
  const Model m = read_text(plate_deck("*CONTACT_AUTOMATIC_SINGLE_SURFACE_MORTAR_TITLE\n" +
                                       fixed({"9", "skin"}) + cards));
  EXPECT_EQ(m.contacts.at(0).id, 9);
}

} // namespace
} // namespace parcae::test
