// Card tables of the beam keywords: *SECTION_BEAM (card 2 by ELFORM, as in the LS-DYNA keyword
// manual), *ELEMENT_BEAM with its option cards, *SET_BEAM, *MAT_SPOTWELD and
// *INITIAL_AXIAL_FORCE_BEAM. Trusses (ELFORM 3) and integrated beams (ELFORM 1, 9) are
// computed; the other formulations are read so that real decks parse, and refused with one
// message (beam_formulation_message) when a part with elements uses them. Apply functions in
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
/// Card 2 with an area first: truss (3: A RAMPT STRESS), resultant beams (2, 12, 13: A ISS ITT
/// J SA IST) and ELFORM 14 (A ISS ITT IRR SA).
bool has_area_card(const Fields& f) {
  const int e = elform_of(f);
  return e == 2 || e == 3 || e == 12 || e == 13 || e == 14;
}
/// Card 2 with cross-section dimensions: integrated beams (1, 4, 5, 11: TS1 TS2 TT1 TT2 NSLOC
/// NTLOC), 2D (7, 8: TS1 TS2 TT1 TT2) and the spot weld beam (9: TS1 TS2 TT1 TT2 PRINT).
bool has_dimension_card(const Fields& f) {
  const int e = elform_of(f);
  return e == 1 || e == 4 || e == 5 || e == 7 || e == 8 || e == 9 || e == 11;
}
bool is_discrete(const Fields& f) {
  return elform_of(f) == 6;
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
  // Card 2 by ELFORM (the manual's layouts; fields at the same place share one name, as
  // ISS/RAMPT: the truss's A RAMPT STRESS are the resultant beam's A ISS ITT).
  std::vector<CardSpec> section_rows{
      {"Title (_TITLE)", {Line("TITLE")}, "TITLE"},
      {"Card 1",
       {I("SECID").req(), I("ELFORM", "1"), R("SHRF", "1.0"), I("QR/IRID", "2"), I("CST"),
        R("SCOOR"), R("NSM"), I("NAUPD")}},
      when_elform({"Card 2 (ELFORM 2, 3, 12, 13, 14; truss: A RAMPT STRESS)",
                   {R("A"), R("ISS/RAMPT"), R("ITT/STRESS"), R("J/IRR"), R("SA"), R("IST")}},
                  has_area_card),
      when_elform({"Card 2 (ELFORM 1, 4, 5, 7, 8, 9, 11)",
                   {R("TS1"), R("TS2"), R("TT1"), R("TT2"), R("NSLOC/PRINT"), R("NTLOC")}},
                  has_dimension_card),
      when_elform({"Card 2 (ELFORM 6: discrete)",
                   {R("VOL"), R("INER"), I("CID"), R("CA"), R("OFFSET"), R("RRCON"), R("SRCON"),
                    R("TRCON")}},
                  is_discrete),
  };
  return {
      {.name = "*SECTION_BEAM",
       .options = {"TITLE"},
       .rows = section_rows,
       .min_rows = 1,
       .summary = "Beam sections. Card 2 depends on ELFORM (as in the manual: A RAMPT STRESS for "
                  "the truss, TS1 TS2 TT1 TT2 NSLOC NTLOC for integrated beams, A ISS ITT J SA "
                  "IST for resultant beams, VOL INER CID CA ... for discrete beams). Computed: "
                  "the truss (ELFORM 3: axial force, area A) and the integrated beams ELFORM 1 "
                  "(Hughes-Liu, run as a co-rotational Timoshenko beam with the same one-point "
                  "axial rule and cross-section integration) and 9 (spot weld beam, same "
                  "kinematics): CST 0 rectangular (TS, TT thicknesses in s and t) and 1 tubular "
                  "(TS outer, TT inner diameter, 0 = solid; TS2/TT2 0 = TS1/TT1, tapers use the "
                  "mean), QR 1 (one point), 2 (2x2 Gauss, default), 3 (3x3 Gauss), 4 (3x3 "
                  "Lobatto), 5 (4x4 Gauss); circles: the rule in r^2 times 8 angles. Other CST, "
                  "user rules (QR < 0) and nonzero NSLOC/NTLOC are refused; SHRF scales the "
                  "transverse shear modulus. A part with elements and another ELFORM is "
                  "refused at its section. NSM (mass per unit length) is lumped with rho A; "
                  "SCOOR, NAUPD, PRINT, RAMPT and STRESS are ignored.",
       .apply = apply_section_beam},
      {.name = "*ELEMENT_BEAM",
       .options = {"THICKNESS", "SCALAR", "SECTION", "PID", "OFFSET", "ORIENTATION", "WARPAGE",
                   "ELBOW"},
       .rows = {{"Card 1",
                 i8({"EID", "PID", "N1", "N2", "N3", "RT1", "RR1", "RT2", "RR2", "LOCAL"})},
                {"Thickness (_THICKNESS)",
                 {R("PARM1"), R("PARM2"), R("PARM3"), R("PARM4"), R("PARM5")},
                 "THICKNESS"},
                {"Scalar (_SCALAR)",
                 {R("VOL"), R("INER"), I("CID1"), I("DOFN1"), I("DOFN2")},
                 "SCALAR"},
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
       .summary = "Beam elements (two nodes N1 N2; N3, the orientation node: the s axis of "
                  "integrated beams lies in the plane of N1 N2 N3, towards N3; N3 = 0: the "
                  "global axis least aligned with the beam, orthogonalised). `_THICKNESS`: "
                  "PARM1 is the truss area (0: the section's A); nonzero PARM values are refused "
                  "for integrated beams. `_OFFSET` is read, nonzero offsets are refused. Releases "
                  "(RT1 RR1 RT2 RR2) are refused for integrated beams (ignored by trusses). "
                  "`_ORIENTATION`: when N3 is blank, the vector VX VY VZ from N1 orients the s "
                  "axis as N3 would (N3 wins when both are given); LOCAL is ignored. `_SCALAR` "
                  "(discrete "
                  "beams), `_SECTION`, `_PID`, `_WARPAGE` and `_ELBOW` are read and "
                  "refused (`_SCALR` is not read).",
       .apply = apply_element_beam},
      {.name = "*INITIAL_AXIAL_FORCE_BEAM",
       .rows = {{"Card 1", {I("BSID").req(), I("LCID").req(), R("SCALE", "1.0"), I("KBEND")}}},
       .summary = "Bolt pretension in integrated beams (ELFORM 1 or 9; LS-DYNA names ELFORM 9 "
                  "with *MAT_100): while the curve LCID runs (up to its last abscissa, or until "
                  "it returns to zero) the axial force of the beams of set BSID is SCALE * "
                  "LCID(t); afterwards each beam goes on from the stress it has (the force is "
                  "held as long as the bolt's length does not change). KBEND 0: every "
                  "integration point gets the same axial stress (no bending stiffness while "
                  "the force is imposed); 1: the force is imposed keeping the bending stresses; 2 "
                  "(beams lined up) is refused.",
       .apply = apply_initial_axial_force_beam},
      {.name = "*SET_BEAM",
       .aliases = {"*SET_BEAM_LIST"},
       .options = {"TITLE", "COLLECT"},
       .head = {{"Title (_TITLE)", {Line("TITLE")}, "TITLE"}, {"Card 1", {I("SID").req()}}},
       .rows = {{"Elements",
                 {I("K1"), I("K2"), I("K3"), I("K4"), I("K5"), I("K6"), I("K7"), I("K8")}}},
       .summary = "Beam element set (members checked once the deck is read).",
       .apply = apply_set_beam},
      {.name = "*SET_BEAM_GENERATE",
       .options = {"TITLE", "COLLECT"},
       .head = {{"Title (_TITLE)", {Line("TITLE")}, "TITLE"}, {"Card 1", {I("SID").req()}}},
       .rows = {{"Ranges",
                 {I("B1BEG"), I("B1END"), I("B2BEG"), I("B2END"), I("B3BEG"), I("B3END"),
                  I("B4BEG"), I("B4END")}}},
       .summary = "Beam set from ranges BnBEG-BnEND (ids in a range that are not beams are "
                  "skipped).",
       .apply = apply_set_beam_generate},
      {.name = "*SET_BEAM_GENERAL",
       .options = {"TITLE", "COLLECT"},
       .head = {{"Title (_TITLE)", {Line("TITLE")}, "TITLE"}, {"Card 1", {I("SID").req()}}},
       .rows = {{"Option",
                 {S("OPTION").req(), I("E1"), I("E2"), I("E3"), I("E4"), I("E5"), I("E6"),
                  I("E7")}}},
       .summary = "As *SET_SHELL_GENERAL, for beam elements (ALL, ELEM, PART, DELEM, DPART).",
       .apply = apply_set_beam_general},
      {.name = "*SET_BEAM_ADD",
       .options = {"TITLE"},
       .head = {{"Title (_TITLE)", {Line("TITLE")}, "TITLE"}, {"Card 1", {I("SID").req()}}},
       .rows = {{"Sets",
                 {I("DSID1"), I("DSID2"), I("DSID3"), I("DSID4"), I("DSID5"), I("DSID6"),
                  I("DSID7"), I("DSID8")}}},
       .summary = "Beam set: the union of beam sets DSID1-DSID8, as *SET_NODE_ADD.",
       .apply = apply_set_beam_add},
  };
}

} // namespace parcae::io
