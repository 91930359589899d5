// Card tables of the beam keywords: *SECTION_BEAM (card 2 by ELFORM, as in the LS-DYNA keyword
// manual), *ELEMENT_BEAM with its option cards, *SET_BEAM. Only trusses (ELFORM 3) are computed;
// the other formulations are read so that real decks parse, and refused with one message
// (beam_formulation_message) when a part with elements uses them. Apply functions in
// deck_apply_beam.cpp.
#include "input/card_parser.hpp"
#include "input/card_spec.hpp"
#include "input/deck_apply.hpp"

namespace parcae::io {

namespace {

using namespace card_fields;

int elform_of(const Fields& so_far) {
  const Value* v = so_far.find("ELFORM");
  return v ? static_cast<int>(v->i) : 1;
}
bool is_truss(const Fields& f) {
  return elform_of(f) == 3;
}
bool is_integrated(const Fields& f) {
  const int e = elform_of(f);
  return e == 1 || e == 4 || e == 5 || e == 11;
}
bool is_resultant(const Fields& f) {
  const int e = elform_of(f);
  return e == 2 || e == 12 || e == 13;
}
bool is_elform14(const Fields& f) {
  return elform_of(f) == 14;
}
bool is_discrete(const Fields& f) {
  return elform_of(f) == 6;
}
bool is_2d(const Fields& f) {
  const int e = elform_of(f);
  return e == 7 || e == 8;
}
bool is_spotweld(const Fields& f) {
  return elform_of(f) == 9;
}

CardSpec when_elform(CardSpec card, bool (*test)(const Fields&)) {
  card.read_if = test;
  return card;
}

std::vector<FieldSpec> i8(std::initializer_list<std::string_view> names) {
  std::vector<FieldSpec> out;
  for (auto n : names) out.push_back(I(n).w(8));
  return out;
}

} // namespace

std::vector<KeywordSpec> beam_keywords() {
  // The truss card comes first of the cards with a field A: a truss section reads its A there.
  std::vector<CardSpec> section_rows{
      {"Title (_TITLE)", {Line("TITLE")}, "TITLE"},
      {"Card 1",
       {I("SECID").req(), I("ELFORM", "1"), R("SHRF", "1.0"), I("QR/IRID", "2"), I("CST"),
        R("SCOOR"), R("NSM"), I("NAUPD")}},
      when_elform({"Card 2 (ELFORM 3, truss)", {R("A"), R("RAMPT"), R("STRESS")}}, is_truss),
      when_elform({"Card 2 (ELFORM 1, 4, 5, 11: integrated)",
                   {R("TS1"), R("TS2"), R("TT1"), R("TT2"), R("NSLOC"), R("NTLOC")}},
                  is_integrated),
      when_elform({"Card 2 (ELFORM 2, 12, 13: resultant)",
                   {R("A"), R("ISS"), R("ITT"), R("J"), R("SA"), R("IST")}},
                  is_resultant),
      when_elform({"Card 2 (ELFORM 14)", {R("A"), R("ISS"), R("ITT"), R("IRR"), R("SA")}},
                  is_elform14),
      when_elform({"Card 2 (ELFORM 6: discrete)",
                   {R("VOL"), R("INER"), I("CID"), R("CA"), R("OFFSET"), R("RRCON"), R("SRCON"),
                    R("TRCON")}},
                  is_discrete),
      when_elform({"Card 2 (ELFORM 7, 8: 2D)", {R("TS1"), R("TS2"), R("TT1"), R("TT2")}}, is_2d),
      when_elform({"Card 2 (ELFORM 9: spot weld beam)",
                   {R("TS1"), R("TS2"), R("TT1"), R("TT2"), R("PRINT")}},
                  is_spotweld),
  };
  return {
      {.name = "*SECTION_BEAM",
       .options = {"TITLE"},
       .rows = section_rows,
       .min_rows = 1,
       .summary = "Beam sections. Card 2 depends on ELFORM (as in the manual: A RAMPT STRESS for "
                  "the truss, TS1 TS2 TT1 TT2 NSLOC NTLOC for integrated beams, A ISS ITT J SA "
                  "IST for resultant beams, VOL INER CID CA ... for discrete beams). Only the "
                  "truss (ELFORM 3: axial force, area A) is computed; a part with elements and "
                  "another ELFORM is refused at its section. SHRF, QR/IRID, CST, SCOOR, NSM, "
                  "NAUPD, RAMPT and STRESS are ignored for trusses.",
       .apply = apply_section_beam},
      {.name = "*ELEMENT_BEAM",
       .options = {"THICKNESS", "SCALAR", "SCALR", "SECTION", "PID", "OFFSET", "ORIENTATION",
                   "WARPAGE", "ELBOW"},
       .rows =
           {{"Card 1", i8({"EID", "PID", "N1", "N2", "N3", "RT1", "RR1", "RT2", "RR2", "LOCAL"})},
            {"Thickness (_THICKNESS)",
             {R("PARM1"), R("PARM2"), R("PARM3"), R("PARM4"), R("PARM5")},
             "THICKNESS"},
            {"Scalar (_SCALAR)",
             {R("VOL"), R("INER"), I("CID1"), I("DOFN1"), I("DOFN2")},
             "SCALAR"},
            {"Scalar (_SCALR)", {R("VOL"), R("INER"), I("CID1"), I("CID2"), I("DOFNS")}, "SCALR"},
            {"Section (_SECTION)",
             {S("STYPE"), R("D1"), R("D2"), R("D3"), R("D4"), R("D5"), R("D6")},
             "SECTION"},
            {"PID (_PID)", {I("PID1"), I("PID2")}, "PID"},
            {"Offset (_OFFSET)",
             {R("WX1"), R("WY1"), R("WZ1"), R("WX2"), R("WY2"), R("WZ2")},
             "OFFSET"},
            {"Orientation (_ORIENTATION)", {R("VX"), R("VY"), R("VZ")}, "ORIENTATION"},
            {"Warpage (_WARPAGE)", {I("SN1"), I("SN2")}, "WARPAGE"},
            {"Elbow (_ELBOW)", {I("MN")}, "ELBOW"}},
       .stream_rows = true,
       .summary = "Beam elements (two nodes N1 N2; N3, the orientation node, is kept for d3plot "
                  "and unused by a truss). `_THICKNESS`: PARM1 is the truss area (0: the "
                  "section's A). `_ORIENTATION` is read and unused (a truss has no orientation); "
                  "`_OFFSET` is read, nonzero offsets are refused. Releases (RT1 RR1 RT2 RR2) "
                  "and LOCAL are ignored (a truss has no rotational dofs). `_SCALAR`, `_SCALR` "
                  "(discrete beams), `_SECTION`, `_PID`, `_WARPAGE` and `_ELBOW` are read and "
                  "refused.",
       .apply = apply_element_beam},
      {.name = "*SET_BEAM",
       .aliases = {"*SET_BEAM_LIST"},
       .options = {"TITLE"},
       .head = {{"Title (_TITLE)", {Line("TITLE")}, "TITLE"}, {"Card 1", {I("SID").req()}}},
       .rows = {{"Elements",
                 {I("K1"), I("K2"), I("K3"), I("K4"), I("K5"), I("K6"), I("K7"), I("K8")}}},
       .summary = "Beam element set (members checked once the deck is read).",
       .apply = apply_set_beam},
  };
}

} // namespace parcae::io
