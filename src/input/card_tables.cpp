// The card tables: every supported keyword, its cards and fields (LS-DYNA manual names,
// widths and defaults), and the function that applies it to the Model. docs/keywords.md is
// generated from these tables (keyword_coverage_markdown()).
//
// Conventions: widths are the standard-format widths (10 unless given); a blank field takes
// the default shown; `req()` fields must not be blank. Where parcae's default differs from the
// manual it is said in the keyword's summary.
#include <algorithm>
#include <deque>

#include <fmt/format.h>

#include "input/card_number.hpp"
#include "input/card_parser.hpp"
#include "input/card_spec.hpp"
#include "input/deck_apply.hpp"
#include "materials/catalogue.hpp"

namespace parcae::io {

namespace {

using namespace card_fields;

// Field groups shared by several keywords.
/// name: a literal (KeywordSpec keeps views); the summaries live in a deque (stable storage).
KeywordSpec joint_keyword(std::string_view name, std::string_view what, ApplyFn apply) {
  static std::deque<std::string> summaries;
  summaries.push_back(
      std::string(what) +
      " Penalty joint between two rigid bodies (*MAT_RIGID parts, nodes added with "
      "*CONSTRAINED_EXTRA_NODES): N1, N3, N5 on one body, N2, N4, N6 on the other, each pair "
      "coincident at time 0 (the universal joint's N3 and N4 excepted); a spring k (gap) pulls "
      "each pair together, k = RPS/4 m_eff / (n "
      "dt^2) for each of the n pairs, dt the largest step so far and m_eff the pair's effective "
      "mass in "
      "its lightest direction (stable for RPS < 16; RPS 0 means 1). Its energy is glstat's spring "
      "and damper energy. DAMP: the penalty is "
      "undamped (LS-DYNA's joint damping is not applied; a warning when DAMP is neither 0 nor "
      "1). JID (_ID): blank or 0 is the joint's position among the joints. _LOCAL: RAID and "
      "LST choose the system of the joint force output (jntforc), which parcae does not "
      "write: read, with a note when RAID is set. _FAILURE: the joint fails (its penalty is "
      "removed, and with it its stored energy) at time TFAIL (0: never); the force and moment "
      "limits NXX-MZZ are refused when set (CID and COUPL only go with them). The other joint "
      "types are not supported.");
  return {.name = name,
          .options = {"ID", "LOCAL", "FAILURE"},
          .rows = {id_card("JID"),
                   {"Card 1",
                    {I("N1").req(), I("N2").req(), I("N3"), I("N4"), I("N5"), I("N6"),
                     R("RPS", "1.0"), R("DAMP", "1.0")}},
                   {"Local (_LOCAL)", {I("RAID"), I("LST")}, "LOCAL"},
                   {"Failure 1 (_FAILURE)", {I("CID"), R("TFAIL"), R("COUPL")}, "FAILURE"},
                   {"Failure 2 (_FAILURE)",
                    {R("NXX"), R("NYY"), R("NZZ"), R("MXX"), R("MYY"), R("MZZ")},
                    "FAILURE"}},
          .summary = summaries.back(),
          .apply = apply};
}

CardSpec tabulated_eos_card1() {
  return {"Card 1",
          {I("EOSID").req(), R("GAMA"), R("E0"), R("V0", "1.0"), I("LCC"), I("LCT"), I("LCK"),
           I("LCID")}};
}

std::vector<FieldSpec> set_header(bool with_solver = true) {
  std::vector<FieldSpec> f{I("SID").req(), R("DA1"), R("DA2"), R("DA3"), R("DA4")};
  if (with_solver) f.push_back(S("SOLVER", "MECH"));
  return f;
}
const std::vector<FieldSpec> kGenerateRanges =
    ints({"B1BEG", "B1END", "B2BEG", "B2END", "B3BEG", "B3END", "B4BEG", "B4END"});
const std::vector<FieldSpec> kGeneralOption =
    join({S("OPTION").req()}, ints({"E1", "E2", "E3", "E4", "E5", "E6", "E7"}));
const std::vector<FieldSpec> kSpcDofs = ints({"DOFX", "DOFY", "DOFZ", "DOFRX", "DOFRY", "DOFRZ"});
const std::vector<FieldSpec> kElementNodes8 =
    ints({"N1", "N2", "N3", "N4", "N5", "N6", "N7", "N8"}, 8);

/// Card 1 of the ASCII time-history databases (*DATABASE_MATSUM, _NODOUT, _RWFORC, ...).
const std::vector<FieldSpec> kAsciiOutputCard = {R("DT"), I("BINARY"), I("LCUR"), I("IOOPT", "1")};

std::vector<FieldSpec> motion_card(std::string_view target) {
  return {I(target).req(), I("DOF").req(),        I("VAD"),  I("LCID").req(), R("SF", "1.0"),
          I("VID"),        R("DEATH", "1.0E+28"), R("BIRTH")};
}
/// Card 2 of *BOUNDARY_PRESCRIBED_MOTION exists for |DOF| 9-11 and for VAD 4.
bool motion_card2_read(const Fields& so_far) {
  const Value* dof = so_far.find("DOF");
  const Value* vad = so_far.find("VAD");
  const std::int64_t d = dof ? (dof->i < 0 ? -dof->i : dof->i) : 0;
  return (d >= 9 && d <= 11) || (vad && vad->i == 4);
}
std::vector<CardSpec> motion_rows(std::string_view target) {
  CardSpec card2{"Card 2 (|DOF| 9-11 or VAD 4)",
                 {R("OFFSET1"), R("OFFSET2"), I("MRB"), I("NODE1"), I("NODE2")}};
  card2.read_if = motion_card2_read;
  return {id_card(), {"Card 1", motion_card(target)}, card2};
}
std::vector<FieldSpec> nodal_load_card(std::string_view target) {
  return {I(target).req(), I("DOF").req(), I("LCID").req(), R("SF", "1.0"),
          I("CID"),        I("M1"),        I("M2"),         I("M3")};
}
std::vector<FieldSpec> body_load_card() {
  return {I("LCID").req(), R("SF", "1.0"), I("LCIDDR"), R("XC"), R("YC"), R("ZC"), I("CID")};
}
/// LCID OPT VX VY VZ: a geometric wall's prescribed translation (_MOTION).
std::vector<FieldSpec> wall_motion_card() {
  return {I("LCID"), I("OPT"), R("VX"), R("VY"), R("VZ")};
}

std::vector<FieldSpec> wall_normal_card(bool with_wvel) {
  std::vector<FieldSpec> f = reals({"XT", "YT", "ZT", "XH", "YH", "ZH", "FRIC"});
  if (with_wvel) f.push_back(R("WVEL"));
  return f;
}

// ---------------------------------------------------------------------------------------------
// File structure and parameters

std::vector<KeywordSpec> structure_keywords() {
  return {
      {.name = "*KEYWORD",
       .ignore_extra = true,
       .summary = "Start of the deck. `LONG=Y` on the keyword line: 20-character fields for the "
                  "rest of this file (and files it includes); `I10=Y`: fields narrower than 10 "
                  "become 10.",
       .apply = apply_keyword},
      {.name = "*TITLE",
       .head = {{"Title", {Line("TITLE")}}},
       .summary = "Run title (model.control.title).",
       .apply = apply_title},
      {.name = "*INCLUDE",
       .rows = {{"File", {Line("FILENAME")}}},
       .summary = "Reads the named file here; a relative path is relative to the including "
                  "file's directory. Missing files, cycles and nesting deeper than 32 are errors. "
                  "An *INCLUDE without a file name (its lines commented out) includes nothing "
                  "(warning). A name line ending in \" +\" goes on in the next line (long names, "
                  "as LS-DYNA reads them; also for *INCLUDE_PATH).",
       .apply = apply_include},
      {.name = "*INCLUDE_PATH",
       .rows = {{"Directory", {Line("PATH")}}},
       .summary = "Directories (one per line) searched, in the order given, for an included "
                  "file that is not beside the file that includes it; a relative directory is "
                  "relative to the main deck's directory. It applies to the *INCLUDE cards that "
                  "follow it (in this file and the files read after it).",
       .apply = apply_include_path},
      {.name = "*INCLUDE_PATH_RELATIVE",
       .rows = {{"Directory", {Line("PATH")}}},
       .summary = "As *INCLUDE_PATH, the directories relative to the main deck's directory.",
       .apply = apply_include_path},
      {.name = "*PARAMETER",
       .options = {"LOCAL"},
       .rows = {{"Parameters",
                 {S("PRMR1"), S("VAL1"), S("PRMR2"), S("VAL2"), S("PRMR3"), S("VAL3"), S("PRMR4"),
                  S("VAL4")}}},
       .summary = "PRMRn is a type letter (R real, I integer, C character) and a name, e.g. "
                  "`R thick`. Numeric fields may use `&name` or `-&name`. As in LS-DYNA, every "
                  "parameter of every file is read before the rest of the deck, so a file may use "
                  "a parameter that the including or a later file defines, and definitions may "
                  "name parameters defined further on. Names are case-insensitive; a second "
                  "definition follows *PARAMETER_DUPLICATION (default: the first value is kept, "
                  "with a warning). _LOCAL: known only in this file and the files it includes.",
       .apply = apply_parameter},
      {.name = "*PARAMETER_EXPRESSION",
       .options = {"LOCAL"},
       .rows = {{"Expression", {S("PRMR1").req(), Line("EXPRESSION1")}}},
       .summary = "Type letter and name, then an expression: numbers, parameters (with or without "
                  "&), + - * / ^ ( ), sin cos tan asin acos atan atan2 sqrt exp log log10 abs "
                  "min max pow int sign, pi. Integer parameters are truncated. _LOCAL as for "
                  "*PARAMETER.",
       .apply = apply_parameter_expression},
      {.name = "*PARAMETER_DUPLICATION",
       .head = {{"Card 1", {I("DFLAG", "1")}}},
       .summary = "What a second definition of a parameter does: 1 warning, the first value is "
                  "kept; 2 warning, the new value is used; 3 error; 4 the new value is used; 5 the "
                  "first value is kept.",
       .apply = apply_parameter_duplication},
      {.name = "*CASE",
       .ignore_extra = true,
       .summary = "Case definitions (CASEID, JOBID and command-line arguments) are not run as "
                  "jobs. parcae reads the base model, leaving out every *CASE_BEGIN_n ... "
                  "*CASE_END_n block, or the base model with case n's blocks with `parcae run "
                  "--case n`.",
       .apply = apply_nothing},
      {.name = "*END",
       .ignore_extra = true,
       .summary = "Stops reading the current file.",
       .apply = apply_end},
  };
}

// ---------------------------------------------------------------------------------------------
// Mesh, parts, sections

namespace {

bool icomp_set(const Fields& f) {
  return f.integer("ICOMP") == 1;
}
bool icomp_nip9(const Fields& f) {
  return f.integer("ICOMP") == 1 && f.integer("NIP") > 8;
}
CardSpec shell_angle_card(std::string_view label, std::initializer_list<std::string_view> names,
                          bool (*test)(const Fields&)) {
  CardSpec c{label, card_fields::reals(names)};
  c.read_if = test;
  return c;
}

} // namespace

std::vector<KeywordSpec> mesh_keywords() {
  return {
      {.name = "*NODE",
       .rows = {{"Node",
                 {I("NID").req().w(8), R("X").w(16), R("Y").w(16), R("Z").w(16), I("TC").w(8),
                  I("RC").w(8)}}},
       .stream_rows = true,
       .summary = "Nodes. TC/RC (0-7) become constraints in model.spcs.",
       .apply = apply_node},
      {.name = "*ELEMENT_SOLID",
       .rows = {{"Element", join({I("EID").req().w(8), I("PID").req().w(8)}, kElementNodes8)}},
       .alt_rows = {{"Card 1 (ten-node format)", {I("EID").req().w(8), I("PID").req().w(8)}},
                    {"Card 2 (ten-node format)",
                     join({I("N1").req().w(8)},
                          ints({"N2", "N3", "N4", "N5", "N6", "N7", "N8", "N9", "N10"}, 8))}},
       .alt_marker = "TEN NODES",
       .stream_rows = true,
       .summary = "8-node hexahedra; tetrahedra (N5-N8 blank, or N4 repeated) and wedges as "
                  "degenerate hexahedra. The two-line ten-node format is used when the keyword "
                  "line says `(ten nodes format)` or the first data line has only EID and PID; "
                  "N9/N10 must be 0.",
       .apply = apply_element_solid},
      {.name = "*ELEMENT_SHELL",
       .rows = {{"Element", join({I("EID").req().w(8), I("PID").req().w(8)}, kElementNodes8)}},
       .stream_rows = true,
       .summary = "4-node shells; triangles with N4 blank or N4 = N3. N5-N8 must be 0.",
       .apply = apply_element_shell},
      {.name = "*ELEMENT_SHELL_THICKNESS",
       .rows = {{"Element", join({I("EID").req().w(8), I("PID").req().w(8)}, kElementNodes8)},
                {"Thickness", reals({"THIC1", "THIC2", "THIC3", "THIC4", "BETA"}, 16)}},
       .stream_rows = true,
       .summary = "Shells with nodal thicknesses (zero thicknesses: the section's). BETA is "
                  "not read (a warning when it is set: the material axes of *MAT_002 and "
                  "*MAT_034 are the element's turned by the material's BETA and the section's "
                  "ICOMP angles).",
       .apply = apply_element_shell_thickness},
      {.name = "*PART",
       .options = {"TITLE", "CONTACT", "INERTIA", "PRINT"},
       .rows = {{"Heading", {Line("HEADING")}},
                {"Card 1",
                 {I("PID").req(), I("SECID").req(), I("MID").req(), I("EOSID"), I("HGID"),
                  I("GRAV"), I("ADPOPT"), I("TMID")}},
                {"Card 3 (_INERTIA)",
                 {R("XC"), R("YC"), R("ZC"), R("TM"), I("IRCS"), I("NODEID")},
                 "INERTIA"},
                {"Card 4 (_INERTIA)", reals({"IXX", "IXY", "IXZ", "IYY", "IYZ", "IZZ"}), "INERTIA"},
                {"Card 5 (_INERTIA)", reals({"VTX", "VTY", "VTZ", "VRX", "VRY", "VRZ"}), "INERTIA"},
                {"Contact (_CONTACT)",
                 {R("FS"), R("FD"), R("DC"), R("VC"), R("OPTT"), R("SFT"), R("SSF"), R("CPARM8")},
                 "CONTACT"},
                {"Print (_PRINT)", {I("PRBF")}, "PRINT"}},
       .min_rows = 1,
       .summary =
           "Parts (several per keyword allowed). EOSID: the *EOS of a hydrodynamic "
           "material (*MAT_NULL, 010, 015; required there, refused elsewhere); GRAV, "
           "ADPOPT, TMID are ignored. `_TITLE` is accepted and changes nothing (the heading "
           "card is always read). `_CONTACT`: the part's contact card is read; OPTT (contact "
           "thickness) is used by the shells of contact surfaces and the nodes of "
           "NODES_TO_SURFACE contacts (as it is: before SST, without SFST or the "
           "single-surface limit; not for rigid tools of forming contacts, as their shell "
           "thickness) and by the beams of *CONTACT_AUTOMATIC_GENERAL, the other "
           "fields are ignored (a warning when one is nonzero; the *CONTACT cards' values "
           "are used). `_INERTIA` (rigid parts only): the body's mass TM (> 0), centre of mass "
           "(XC, YC, ZC, or node NODEID), inertia tensor about it in the global frame (IXX ... "
           "IZZ, positive definite) and initial velocity (VTX ... VRZ: translational, angular "
           "about the centre; all 0: from the nodes, *INITIAL_VELOCITY) replace those of its "
           "mesh; the part's nodal masses are scaled to sum to TM (contact, outputs). IRCS = 1 "
           "(inertia in a local frame, card 5a) is refused. The cards come in LS-DYNA's order: "
           "_INERTIA's, then _CONTACT's, then _PRINT's (PRBF, an output flag: read and "
           "ignored).",
       .apply = apply_part},
      {.name = "*SECTION_SOLID",
       .options = {"TITLE"},
       .rows = {title_card(), {"Card 1", {I("SECID").req(), I("ELFORM", "1"), I("AET")}}},
       .min_rows = 1,
       .summary = "Solid sections. AET is ignored. The explicit solver runs ELFORM 2, -1 and -2 "
                  "(fully integrated selective-reduced hexahedra) and 3 (fully integrated, with "
                  "nodal rotations, which are not modelled) as ELFORM 1, with a warning.",
       .apply = apply_section_solid},
      {.name = "*SECTION_SHELL",
       .options = {"TITLE"},
       .rows = {title_card(),
                {"Card 1",
                 {I("SECID").req(), I("ELFORM", "2"), R("SHRF", "1.0"), I("NIP", "2"),
                  R("PROPT", "1.0"), I("QR/IRID"), I("ICOMP"), I("SETYP", "1")}},
                {"Card 2",
                 {R("T1"), R("T2"), R("T3"), R("T4"), R("NLOC"), R("MAREA"), R("IDOF"),
                  I("EDGSET")}},
                shell_angle_card("Card 3 (ICOMP = 1)",
                                 {"B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8"}, icomp_set),
                shell_angle_card("Card 4 (ICOMP = 1, NIP > 8)", {"B9", "B10"}, icomp_nip9)},
       .min_rows = 1,
       .summary = "Shell sections. NIP 0 means 2; NIP must be 1-10. T2-T4 of 0 take T1. "
                  "PROPT, SETYP, MAREA, IDOF, EDGSET are ignored. QR/IRID: 0 Gauss (Lobatto with "
                  "*CONTROL_SHELL INTGRD 1), 1 trapezoidal (points on both surfaces), < 0 the "
                  "*INTEGRATION_SHELL -QR/IRID. NLOC moves the reference surface (1 top, -1 "
                  "bottom; the nodes lie on it). ICOMP = 1: the material angle "
                  "B1..B<NIP> (degrees) of each through-thickness point, added to the material's "
                  "own axes (laws with material axes: *MAT_FABRIC; isotropic laws do not depend "
                  "on it). ELFORM 0 and "
                  "2 are the Belytschko-Tsay shell (16 runs as 2, with a warning); ELFORM 5 and 9 "
                  "(membranes) run as its membrane part: every point on the mid-surface (no "
                  "bending), no transverse shear, in-plane hourglass control (9, fully "
                  "integrated in LS-DYNA, with a warning). ELFORM 13 "
                  "(plane strain, unit thickness) and 15 (axisymmetric about y, volume weighted, "
                  "per radian) are 2-D solids in the x-y plane: one-point quadrilaterals with the "
                  "solid laws, bulk viscosity and hourglass control; T1-T4 and NIP are unused; "
                  "12 and 14 are refused. In implicit decks (IMFLAG 1) ELFORM 0, 2 and 16 run as "
                  "the MITC4 shell (docs/implicit.md).",
       .apply = apply_section_shell},
      {.name = "*HOURGLASS",
       .options = {"TITLE"},
       .rows = {title_card(),
                {"Card 1",
                 {I("HGID").req(), I("IHQ"), R("QM", "0.1"), I("IBQ"), R("Q1", "1.5"),
                  R("Q2", "0.06"), R("QB/VDC"), R("QW")}}},
       .min_rows = 1,
       .summary = "Hourglass control sets. IHQ 0 takes *CONTROL_HOURGLASS IHQ. IHQ 1-3: viscous "
                  "(Flanagan-Belytschko), 4-5: stiffness (Flanagan-Belytschko), 6: assumed-strain "
                  "stiffness in the element's corotational frame for solids (Belytschko-Bindeman: "
                  "with QM = 1 a rectangular element bends exactly, so one element through the "
                  "thickness carries beam bending; shells take type 4), 8: type 4. Q1 (quadratic) "
                  "and Q2 (linear) go to bulk_quadratic / bulk_linear; QB and QW are stored as "
                  "given (0 means QM in LS-DYNA).",
       .apply = apply_hourglass},
  };
}

// ---------------------------------------------------------------------------------------------
// Materials

std::vector<KeywordSpec> material_keywords() {
  return {
      {.name = "*MAT_ADD_EROSION",
       .options = {"TITLE"},
       .head = {title_card(),
                {"Card 1",
                 {I("MID").req(), R("EXCL"), R("MXPRES"), R("MNEPS"), R("EFFEPS"), R("VOLEPS"),
                  R("NUMFIP", "1.0"), R("NCS", "1.0")}},
                {"Card 2", reals({"MNPRES", "SIGP1", "SIGVM", "MXEPS", "EPSSH", "SIGTH", "IMPULSE",
                                  "FAILTM"})},
                {"Card 3",
                 reals({"IDAM", "DMGTYP", "LCSDG", "ECRIT", "DMGEXP", "DCRIT", "FADEXP", "LCREGD"}),
                 "", true},
                {"Card 4",
                 reals({"LCFLD", "NSFF", "EPSTHIN", "ENGCRT", "RADCRT", "LCEPS12", "LCEPS13",
                        "LCEPSMX"}),
                 "", true},
                {"Card 5", reals({"DTEFLT", "VOLFRAC", "MXTMP", "DTMIN"}), "", true}},
       .summary = "Failure criteria added to material MID (model.add_erosions, one per "
                  "material). A criterion is used when its field is nonzero and differs from "
                  "EXCL. Supported: MXPRES (p >= MXPRES), MNPRES (p <= MNPRES), SIGP1 (largest "
                  "principal stress >= SIGP1), SIGVM (von Mises stress >= SIGVM), FAILTM (time "
                  ">= FAILTM), and on solids MXEPS and EFFEPS (largest principal / effective "
                  "logarithmic strain of the element's deformation gradient >= the value); a "
                  "point fails when NCS of its criteria are met. Solids (one point) erode when "
                  "the point fails; shells when NUMFIP through-thickness points have failed "
                  "(NUMFIP < 0: that percentage of the points; larger than NIP: all points). "
                  "MNEPS, VOLEPS, EPSSH, SIGTH, IMPULSE and every field of cards 3 to 5 are "
                  "errors when used; MXEPS and EFFEPS on a shell part are errors.",
       .apply = apply_mat_add_erosion},
      {.name = "*EOS_LINEAR_POLYNOMIAL",
       .aliases = {"*EOS_001"},
       .options = {"TITLE"},
       .head = {title_card(),
                {"Card 1",
                 {I("EOSID").req(), R("C0"), R("C1"), R("C2"), R("C3"), R("C4"), R("C5"), R("C6")}},
                {"Card 2", {R("E0"), R("V0", "1.0")}}},
       .summary = "p = C0 + C1 mu + C2 mu^2 + C3 mu^3 + (C4 + C5 mu + C6 mu^2) E, mu = V0/V - 1, "
                  "E the internal energy per unit initial volume (E0 at time 0); C2 and C6 are "
                  "dropped in tension (mu < 0). V0 must be 1 (or blank).",
       .apply = apply_eos_linear_polynomial},
      {.name = "*EOS_GRUNEISEN",
       .aliases = {"*EOS_004"},
       .options = {"TITLE"},
       .head = {title_card(),
                {"Card 1",
                 {I("EOSID").req(), R("C"), R("S1"), R("S2"), R("S3"), R("GAMAO"), R("A"),
                  R("E0")}},
                {"Card 2", {R("V0", "1.0"), R("UNUSED"), I("LCID")}}},
       .summary = "Mie-Gruneisen EOS with a cubic shock velocity - particle velocity fit: "
                  "compressed p = rho0 C^2 mu [1 + (1 - GAMAO/2) mu - A mu^2/2] / [1 - (S1 - 1) "
                  "mu - S2 mu^2/(mu + 1) - S3 mu^3/(mu + 1)^2]^2 + (GAMAO + A mu) E, expanded "
                  "p = rho0 C^2 mu + (GAMAO + A mu) E. V0 must be 1 (or blank); LCID (energy "
                  "deposition) is not supported.",
       .apply = apply_eos_gruneisen},
      {.name = "*EOS_TABULATED",
       .aliases = {"*EOS_009"},
       .options = {"TITLE"},
       .head = {title_card(),
                tabulated_eos_card1(),
                {"Card 2", reals({"EV1", "EV2", "EV3", "EV4", "EV5"}, 16)},
                {"Card 3", reals({"EV6", "EV7", "EV8", "EV9", "EV10"}, 16)},
                {"Card 4", reals({"C1", "C2", "C3", "C4", "C5"}, 16)},
                {"Card 5", reals({"C6", "C7", "C8", "C9", "C10"}, 16)},
                {"Card 6", reals({"T1", "T2", "T3", "T4", "T5"}, 16)},
                {"Card 7", reals({"T6", "T7", "T8", "T9", "T10"}, 16)}},
       .summary = "p = C(eps_v) + GAMA T(eps_v) E, eps_v = ln V (the volumetric strain, negative "
                  "in compression), E the internal energy per unit initial volume (E0 at time "
                  "0); C and T piecewise linear through the points (EV_i, C_i, T_i), extended "
                  "linearly beyond the first and last. Points after the second whose EV, C and "
                  "T are all 0 (blank) are left out (a table listed in ascending order keeps its "
                  "final point at 0); the EV must differ (any order). V0 must be "
                  "1 (or blank); the curves LCC, LCT, LCK and the energy deposition LCID are not "
                  "supported (errors).",
       .apply = apply_eos_tabulated},
      {.name = "*EOS_TABULATED_COMPACTION",
       .aliases = {"*EOS_008"},
       .options = {"TITLE"},
       .head = {title_card(),
                tabulated_eos_card1(),
                {"Card 2", reals({"EV1", "EV2", "EV3", "EV4", "EV5"}, 16)},
                {"Card 3", reals({"EV6", "EV7", "EV8", "EV9", "EV10"}, 16)},
                {"Card 4", reals({"C1", "C2", "C3", "C4", "C5"}, 16)},
                {"Card 5", reals({"C6", "C7", "C8", "C9", "C10"}, 16)},
                {"Card 6", reals({"T1", "T2", "T3", "T4", "T5"}, 16)},
                {"Card 7", reals({"T6", "T7", "T8", "T9", "T10"}, 16)},
                {"Card 8", reals({"K1", "K2", "K3", "K4", "K5"}, 16)},
                {"Card 9", reals({"K6", "K7", "K8", "K9", "K10"}, 16)}},
       .summary = "As *EOS_TABULATED while loading (eps_v = ln V at or below the least value "
                  "eps_min reached so far); unloading and reloading follow the unloading bulk "
                  "modulus K (tabulated like C, K_i >= 0): p = C(eps_min) + GAMA T(eps_min) E + "
                  "K(eps_min) (eps_min - eps_v), back to the loading curve at eps_min. The "
                  "material's pressure cutoff applies.",
       .apply = apply_eos_tabulated_compaction},
  };
}

// ---------------------------------------------------------------------------------------------
// Controls, output, curves

std::vector<KeywordSpec> control_keywords() {
  return {
      {.name = "*CONTROL_TERMINATION",
       .head = {{"Card 1",
                 {R("ENDTIM"), I("ENDCYC"), R("DTMIN"), R("ENDENG"), R("ENDMAS", "1.0E+8"),
                  I("NOSOL")}}},
       .summary =
           "Required, with ENDTIM > 0. DTMIN: the run stops when the step falls below "
           "DTMIN x the first step (0: 1e-6), unless *CONTROL_TIMESTEP ERODE = 1 erodes "
           "the solids that would bring it there. ENDMAS: a normal stop once mass scaling during "
           "the run (DT2MS < 0) has added that percentage of the physical mass (0 or "
           "the default 1e8: off). ENDENG and NOSOL are ignored.",
       .apply = apply_control_termination},
      {.name = "*CONTROL_TIMESTEP",
       .head = {{"Card 1",
                 {R("DTINIT"), R("TSSFAC", "0.9"), I("ISDO"), R("TSLIMT"), R("DT2MS"), I("LCTM"),
                  I("ERODE"), I("MS1ST")}}},
       .ignore_extra = true,
       .summary = "TSSFAC 0 means 0.9. DT2MS: mass scaling of the elements whose step is below "
                  "|DT2MS| (their step becomes |DT2MS|): at set-up for either sign, and during "
                  "the run too when DT2MS < 0 and MS1ST = 0 (nodes keep their velocity, as in "
                  "LS-DYNA; glstat and matsum report the added mass). A positive DT2MS only "
                  "adds mass (LS-DYNA also removes it from elements above |DT2MS|). ERODE = 1: "
                  "solids whose step (x TSSFAC) falls below *CONTROL_TERMINATION DTMIN x the "
                  "first step are eroded instead of stopping the run. ISDO: the length of the "
                  "step of 4-node shells, 0 area / longest side, 1 area / longest diagonal, 2 "
                  "max(shortest side, area / longest side) with the bar wave speed sqrt(E / "
                  "rho). TSLIMT and further cards are ignored. Solid (hexahedron) length: "
                  "LS-DYNA's V / A_max, or where smaller the bound from the element's stiffness, "
                  "which gives every shape at least a cube's stability margin (a box keeps its "
                  "least edge; a hexahedron with a short body diagonal gets less, 20 % at the "
                  "corners of a cube mapped onto a ball, which V / A_max made unstable).",
       .apply = apply_control_timestep},
      {.name = "*CONTROL_HOURGLASS",
       .head = {{"Card 1", {I("IHQ", "1"), R("QH", "0.1")}}},
       .summary = "Default hourglass type and coefficient (types as for *HOURGLASS; IHQ 6, the "
                  "assumed-strain form, on solids). IHQ 8 (warping stiffness of the fully "
                  "integrated shell, which runs as ELFORM 2) is the stiffness form IHQ 4.",
       .apply = apply_control_hourglass},
      {.name = "*CONTROL_BULK_VISCOSITY",
       .head = {{"Card 1",
                 {R("Q1", "1.5"), R("Q2", "0.06"), I("TYPE", "1"), I("BTYPE"), I("TSTYPE")}}},
       .ignore_extra = true,
       .summary = "Q1 is the quadratic coefficient (model.control.q2), Q2 the linear one "
                  "(model.control.q1). Solids: q = rho l (Q1 l e^2 - Q2 c e) for a volume strain "
                  "rate e < 0, with l the element's time-step length (V / A_max or less: "
                  "*CONTROL_TIMESTEP; LS-DYNA's manual: the cube root of the volume; the same "
                  "for a cube), so that the "
                  "critical step l / (Q + sqrt(Q^2 + c^2)), Q = Q2 c + Q1 l |e|, is this "
                  "viscosity's stability limit also in flattened elements.",
       .apply = apply_control_bulk_viscosity},
      {.name = "*CONTROL_DYNAMIC_RELAXATION",
       .head = {{"Card 1",
                 {I("NRCYCK", "250"), R("DRTOL", "0.001"), R("DRFCTR", "0.995"), R("DRTERM"),
                  R("TSSFDR"), I("IRELAL"), R("EDTTL", "0.04"), I("IDRFLG")}}},
       .ignore_extra = true,
       .summary = "Dynamic relaxation (a damped phase before the transient that brings the "
                  "model to rest under the loads of curves with SIDR 1 or 2 and the airbags): "
                  "velocities scaled by DRFCTR every cycle; converged when the kinetic energy, "
                  "checked every NRCYCK cycles, is below DRTOL times its peak, or at DRTERM; "
                  "TSSFDR scales the step (0: TSSFAC). It runs when a *DEFINE_CURVE has SIDR 1 "
                  "or 2 or IDRFLG = 1; IDRFLG < 0 and other values, IRELAL = 1 and EDTTL are not "
                  "supported (IRELAL, EDTTL ignored with a warning).",
       .apply = apply_control_dynamic_relaxation},
      {.name = "*CONTROL_ENERGY",
       .head = {{"Card 1", {I("HGEN", "1"), I("RWEN", "2"), I("SLNTEN", "1"), I("RYLEN", "1")}}},
       .ignore_extra = true,
       .summary = "Energy options (parcae always computes hourglass energy).",
       .apply = apply_control_energy},
      {.name = "*CONTROL_SHELL",
       .head = {{"Card 1",
                 {R("WRPANG", "20.0"), I("ESORT"), I("IRNXX", "-1"), I("ISTUPD"), I("THEORY", "2"),
                  I("BWC", "2"), I("MITER", "1"), I("PROJ")}},
                {"Card 2",
                 {R("ROTASCL", "1.0"), I("INTGRD"), I("LAMSHT"), I("CSTYP6", "1"), I("THSHEL")},
                 "",
                 true}},
       .ignore_extra = true,
       .summary = "Only WRPANG, ISTUPD, THEORY and INTGRD are stored.",
       .apply = apply_control_shell},
      {.name = "*CONTROL_SOLID",
       .head = {{"Card 1",
                 {I("ESORT"), I("FMATRX"), I("NIPTETS", "4"), I("SWLOCL", "1"), I("PSFAIL"),
                  R("T10JTOL"), I("ICOH"), I("TET13K")},
                 "",
                 true}},
       .ignore_extra = true,
       .summary = "Accepted; nothing is stored.",
       .apply = apply_nothing},
      {.name = "*CONTROL_UNITS",
       .head = {{"Card 1",
                 {S("LENGTH", "m"), S("TIME", "sec"), S("MASS", "kg"), S("TEMP", "k")},
                 "",
                 true}},
       .ignore_extra = true,
       .summary = "Accepted; nothing is converted (the deck must be in consistent units).",
       .apply = apply_nothing},
      {.name = "*CONTROL_MPP_DECOMPOSITION_METHOD",
       .head = {{"Card 1", {FieldSpec{"NAME", FieldType::String, 0, "RCB"}}}},
       .summary = "Decomposition method for MPP runs (model.control.mpp_decomposition_method): "
                  "RCB (recursive coordinate bisection, the default) or METIS "
                  "(graph partitioning), case-insensitive. Other names are errors.",
       .apply = apply_control_mpp_decomposition_method},
      {.name = "*CONTROL_MPP_DECOMPOSITION_TRANSFORMATION",
       .rows = {{"Card 1", join({S("TYPE").req()}, reals({"V1", "V2", "V3", "V4", "V5", "V6"}))}},
       .min_rows = 1,
       .summary = "Transformations of the element centroids before the decomposition, one card "
                  "each, applied in the order given (several keywords append): SX, SY, SZ scale "
                  "x, y, z by V1 (V1 = 0 is an error); RX, RY, RZ rotate by V1 degrees about the "
                  "x, y, z axis. Other types (VEC3, C2R, S2R, MAT, ... and their card 2 with "
                  "V7-V9) are errors.",
       .apply = apply_control_mpp_decomposition_transformation},
      {.name = "*DATABASE_GLSTAT",
       .head = {{"Card 1", {R("DT"), I("BINARY"), I("LCUR"), I("IOOPT", "1")}}},
       .summary = "Global statistics output interval (model.control.glstat_dt).",
       .apply = apply_database_glstat},
      {.name = "*DATABASE_BINARY_D3PLOT",
       .head = {{"Card 1", {R("DT"), I("LCDT"), I("BEAM"), I("NPLTC"), I("PSETID")}},
                {"Card 2", {I("IOOPT")}, "", true}},
       .ignore_extra = true,
       .summary = "Plot state interval (model.control.d3plot_dt); NPLTC > 0 sets it to "
                  "ENDTIM/NPLTC; LCDT: a curve of the interval over time. A deck that sets "
                  "none gets the initial and the final state. BEAM, PSETID and IOOPT are "
                  "stored (model.control.d3plot_*).",
       .apply = apply_database_d3plot},
      {.name = "*DATABASE_MATSUM",
       .head = {{"Card 1", kAsciiOutputCard}},
       .summary = "Part energies, momentum and rigid-body velocities in LS-DYNA's ASCII matsum "
                  "layout, every DT (0 = the glstat interval; parcae writes matsum in every "
                  "run). BINARY 2 or 3 (binout) gives a warning; ASCII is written. LCUR is "
                  "not supported (warning; DT is used).",
       .apply = apply_database_matsum},
      {.name = "*DATABASE_NODOUT",
       .head = {{"Card 1", join(kAsciiOutputCard, {R("DTHF"), I("BINHF")})}},
       .summary = "Displacement, velocity, acceleration and coordinates (and rotations of shell "
                  "nodes) of the *DATABASE_HISTORY_NODE nodes in LS-DYNA's ASCII nodout "
                  "layout, every DT (0 = the glstat interval). BINARY and LCUR as "
                  "*DATABASE_MATSUM; DTHF/BINHF (high-frequency output) are ignored.",
       .apply = apply_database_nodout},
      {.name = "*DATABASE_RWFORC",
       .head = {{"Card 1", kAsciiOutputCard}},
       .summary = "Rigid wall forces (normal and x, y, z) in LS-DYNA's ASCII rwforc layout, "
                  "every DT (0 = the glstat interval; written when the model has rigid "
                  "walls). BINARY and LCUR as *DATABASE_MATSUM.",
       .apply = apply_database_rwforc},
      {.name = "*DATABASE_HISTORY_NODE",
       .rows = {{"Nodes", ints({"ID1", "ID2", "ID3", "ID4", "ID5", "ID6", "ID7", "ID8"})}},
       .summary = "Nodes written to nodout, up to 8 per card, cards repeated; zero ids are "
                  "skipped, an id given twice is written once. An id that is not a node is an "
                  "error.",
       .apply = apply_database_history_node},
      {.name = "*DATABASE_HISTORY_NODE_SET",
       .rows = {{"Sets", ints({"ID1", "ID2", "ID3", "ID4", "ID5", "ID6", "ID7", "ID8"})}},
       .summary = "Node sets whose nodes are written to nodout (in set order), up to 8 per card; "
                  "zero ids are skipped. An id that is not a node set is an error.",
       .apply = apply_database_history_node_set},
      {.name = "*DATABASE_EXTENT_BINARY",
       .head = {{"Card 1",
                 {I("NEIPH"), I("NEIPS"), I("MAXINT", "3"), I("STRFLG"), I("SIGFLG", "1"),
                  I("EPSFLG", "1"), I("RLTFLG", "1"), I("ENGFLG", "1")}},
                {"Card 2",
                 {I("CMPFLG"), I("IEVERP"), I("BEAMIP"), I("DCOMP", "1"), I("SHGE", "1"),
                  I("STSSZ", "1"), I("N3THDT", "2"), I("IALEMAT", "1")},
                 "",
                 true},
                {"Card 3",
                 {I("NINTSLD"), I("PKP_SEN"), R("SCLP", "1.0"), I("HYDRO"), I("MSSCL"), I("THERM"),
                  S("INTOUT"), S("NODOUT")},
                 "",
                 true},
                {"Card 4",
                 {I("DTDT"), I("RESPLT"), I("NEIPB"), I("QUADSLD"), I("CUBSLD"), I("DELERES")},
                 "",
                 true}},
       .ignore_extra = true,
       .summary = "What the d3plot states contain; every field is stored as given "
                  "(model.control.extent) for the plot writer.",
       .apply = apply_database_extent_binary},
      {.name = "*DEFINE_CURVE",
       .options = {"TITLE"},
       .head = {title_card(),
                {"Card 1",
                 {I("LCID").req(), I("SIDR"), R("SFA", "1.0"), R("SFO", "1.0"), R("OFFA"),
                  R("OFFO"), I("DATTYP"), I("LCINT")}}},
       .rows = {{"Point", {R("A1").w(20), R("O1").w(20)}}},
       .summary =
           "Load curves: x = SFA*(A1 + OFFA), y = SFO*(O1 + OFFO); SFA or SFO of 0 means 1. At "
           "least one point; abscissae strictly increasing. SIDR 1 or 2 starts dynamic "
           "relaxation (*CONTROL_DYNAMIC_RELAXATION), where curves of SIDR 0 give 0 and the "
           "others are read at the relaxation time. DATTYP, LCINT are ignored.",
       .apply = apply_define_curve},
      {.name = "*DEFINE_BOX",
       .options = {"TITLE"},
       .head = {title_card()},
       .rows = {{"Card 1",
                 {I("BOXID").req(), R("XMN"), R("XMX"), R("YMN"), R("YMX"), R("ZMN"), R("ZMX")}}},
       .summary = "Axis-aligned box (bounds inclusive), used by *SET_NODE_GENERAL option BOX and "
                  "*INITIAL_VELOCITY BOXID.",
       .apply = apply_define_box},
      {.name = "*DEFINE_VECTOR",
       .options = {"TITLE"},
       .head = {title_card()},
       .rows = {{"Card 1",
                 {I("VID").req(), R("XT"), R("YT"), R("ZT"), R("XH"), R("YH"), R("ZH"), I("CID")}}},
       .summary = "Direction from tail (XT,YT,ZT) to head (XH,YH,ZH), given in system CID (0: "
                  "global). Used by VID of *BOUNDARY_PRESCRIBED_MOTION (DOF 4, -4, 8).",
       .apply = apply_define_vector},
      {.name = "*DEFINE_COORDINATE_SYSTEM",
       .options = {"TITLE"},
       .head = {title_card()},
       .rows = {{"Card 1",
                 {I("CID").req(), R("XO"), R("YO"), R("ZO"), R("XL"), R("YL"), R("ZL"), I("CIDL")}},
                {"Card 2", {R("XP"), R("YP"), R("ZP")}}},
       .summary = "Local frame: origin O, local x axis towards L, x-y plane through P. CIDL must "
                  "be 0. Used by ICID of *INITIAL_VELOCITY and *INITIAL_VELOCITY_GENERATION.",
       .apply = apply_define_coordinate_system},
      {.name = "*DEFINE_COORDINATE_NODES",
       .options = {"TITLE"},
       .head = {title_card()},
       .rows = {{"Card 1", {I("CID").req(), I("N1"), I("N2"), I("N3"), I("FLAG"), S("DIR", "X")}}},
       .summary = "Local frame from nodes at time 0: origin N1, x axis towards N2, x-y plane "
                  "through N3. FLAG (update with the nodes) is ignored: parcae uses local frames "
                  "at time 0 only. DIR must be X.",
       .apply = apply_define_coordinate_nodes},
      {.name = "*DEFINE_COORDINATE_VECTOR",
       .options = {"TITLE"},
       .head = {title_card()},
       .rows = {{"Card 1",
                 {I("CID").req(), R("XX"), R("YX"), R("ZX"), R("XV"), R("YV"), R("ZV"), I("NID")}}},
       .summary = "Local frame: x axis along (XX,YX,ZX), x-y plane containing (XV,YV,ZV), origin "
                  "at node NID (0: the global origin).",
       .apply = apply_define_coordinate_vector},
  };
}

// ---------------------------------------------------------------------------------------------
// Sets

std::vector<KeywordSpec> set_keywords() {
  const CardSpec header{"Card 1", set_header()};
  const CardSpec generate{"Ranges", kGenerateRanges};
  const CardSpec general{"Option", kGeneralOption};
  return {
      {.name = "*SET_NODE_LIST",
       .aliases = {"*SET_NODE"},
       .options = {"TITLE", "COLLECT", "SMOOTH"},
       .head = {title_card(), header},
       .rows = {{"Nodes", ints({"NID1", "NID2", "NID3", "NID4", "NID5", "NID6", "NID7", "NID8"})}},
       .summary = "Node set; DA1-DA4 and SOLVER are ignored, zero ids skipped. _SMOOTH (a set for "
                  "the smoothing of forming tools) is read as the plain list: it is a node set "
                  "like any other for the keywords that name it.",
       .apply = apply_set_node_list},
      {.name = "*SET_NODE_LIST_GENERATE",
       .options = {"TITLE", "COLLECT"},
       .head = {title_card(), header},
       .rows = {generate},
       .summary =
           "Node set from ranges BnBEG-BnEND (ids in a range that are not nodes are skipped).",
       .apply = apply_set_node_generate},
      {.name = "*SET_NODE_GENERAL",
       .options = {"TITLE", "COLLECT"},
       .head = {title_card(), header},
       .rows = {general},
       .summary = "OPTION ALL (every node), NODE (E1-E7 node ids), BOX (nodes inside boxes E1-E7, "
                  "at time 0), PART (nodes of the elements "
                  "of parts E1-E7); DNODE, DBOX, DPART remove those nodes (after all the others "
                  "are added). Other options are errors.",
       .apply = apply_set_node_general},
      {.name = "*SET_PART_LIST",
       .aliases = {"*SET_PART"},
       .options = {"TITLE", "COLLECT"},
       .head = {title_card(), header},
       .rows = {{"Parts", ints({"PID1", "PID2", "PID3", "PID4", "PID5", "PID6", "PID7", "PID8"})}},
       .summary = "Part set.",
       .apply = apply_set_part_list},
      {.name = "*SET_PART_LIST_GENERATE",
       .options = {"TITLE", "COLLECT"},
       .head = {title_card(), header},
       .rows = {generate},
       .summary = "Part set from ranges (ids in the range that are not parts are skipped).",
       .apply = apply_set_part_generate},
      {.name = "*SET_PART_GENERAL",
       .options = {"TITLE", "COLLECT"},
       .head = {title_card(), header},
       .rows = {general},
       .summary = "OPTION ALL (every part), PART (E1-E7), DPART (removes parts E1-E7, after all "
                  "the others are added). Other options are errors.",
       .apply = apply_set_part_general},
      {.name = "*SET_NODE_ADD",
       .options = {"TITLE"},
       .head = {title_card(), header},
       .rows = {{"Sets",
                 ints({"DSID1", "DSID2", "DSID3", "DSID4", "DSID5", "DSID6", "DSID7", "DSID8"})}},
       .summary = "Node set: the union of node sets DSID1-DSID8 (cards repeated; zero ids "
                  "skipped). The sets may be defined anywhere in the deck, also as _ADD sets (a "
                  "cycle is an error).",
       .apply = apply_set_node_add},
      {.name = "*SET_PART_ADD",
       .options = {"TITLE"},
       .head = {title_card(), header},
       .rows = {{"Sets",
                 ints({"DSID1", "DSID2", "DSID3", "DSID4", "DSID5", "DSID6", "DSID7", "DSID8"})}},
       .summary = "Part set: the union of part sets DSID1-DSID8, as *SET_NODE_ADD.",
       .apply = apply_set_part_add},
      {.name = "*SET_SHELL_ADD",
       .options = {"TITLE"},
       .head = {title_card(), {"Card 1", set_header(false)}},
       .rows = {{"Sets",
                 ints({"DSID1", "DSID2", "DSID3", "DSID4", "DSID5", "DSID6", "DSID7", "DSID8"})}},
       .summary = "Shell set: the union of shell sets DSID1-DSID8, as *SET_NODE_ADD.",
       .apply = apply_set_shell_add},
      {.name = "*SET_SOLID_ADD",
       .options = {"TITLE"},
       .head = {title_card(), {"Card 1", {I("SID").req(), S("SOLVER", "MECH")}}},
       .rows = {{"Sets",
                 ints({"DSID1", "DSID2", "DSID3", "DSID4", "DSID5", "DSID6", "DSID7", "DSID8"})}},
       .summary = "Solid set: the union of solid sets DSID1-DSID8, as *SET_NODE_ADD.",
       .apply = apply_set_solid_add},
      {.name = "*SET_SHELL",
       .aliases = {"*SET_SHELL_LIST"},
       .options = {"TITLE", "COLLECT"},
       .head = {title_card(), {"Card 1", set_header(false)}},
       .rows = {{"Elements", ints({"K1", "K2", "K3", "K4", "K5", "K6", "K7", "K8"})}},
       .summary = "Shell element set.",
       .apply = apply_set_shell},
      {.name = "*SET_SOLID",
       .aliases = {"*SET_SOLID_LIST"},
       .options = {"TITLE", "COLLECT"},
       .head = {title_card(), {"Card 1", {I("SID").req(), S("SOLVER", "MECH")}}},
       .rows = {{"Elements", ints({"K1", "K2", "K3", "K4", "K5", "K6", "K7", "K8"})}},
       .summary = "Solid element set.",
       .apply = apply_set_solid},
      {.name = "*SET_SHELL_GENERAL",
       .options = {"TITLE", "COLLECT"},
       .head = {title_card(), {"Card 1", set_header(false)}},
       .rows = {general},
       .summary = "OPTION ALL (every shell), ELEM (shells E1-E7), PART (the shells of parts "
                  "E1-E7); DELEM, DPART remove those shells (after all the others are added). "
                  "Other options (BOX, ...) are errors.",
       .apply = apply_set_shell_general},
      {.name = "*SET_SOLID_GENERAL",
       .options = {"TITLE", "COLLECT"},
       .head = {title_card(), {"Card 1", {I("SID").req(), S("SOLVER", "MECH")}}},
       .rows = {general},
       .summary = "As *SET_SHELL_GENERAL, for solid elements.",
       .apply = apply_set_solid_general},
  };
}

// ---------------------------------------------------------------------------------------------
// Boundary conditions, initial conditions, loads, rigid walls

std::vector<KeywordSpec> boundary_keywords() {
  return {
      {.name = "*BOUNDARY_SPC_NODE",
       .options = {"ID", "BIRTH_DEATH"},
       .rows = {id_card(),
                {"Card 1", join({I("NID").req(), I("CID")}, kSpcDofs)},
                {"Card 2 (_BIRTH_DEATH)", {R("BIRTH"), R("DEATH", "1.0E+20")}, "BIRTH_DEATH"}},
       .stream_rows = true,
       .summary = "Nodal constraints (DOF flags nonzero = fixed), merged into model.spcs. CID: "
                  "the flags fix the velocities along that local system's axes (its axes at time "
                  "0; axes along the global ones in any order are merged as global flags, others "
                  "are skew constraints: the explicit solver removes the velocity along each "
                  "fixed axis, the implicit solver refuses them). _BIRTH_DEATH: "
                  "a constraint active over the whole run (BIRTH <= 0, DEATH >= ENDTIM) is "
                  "taken; one that starts or ends inside the run is refused.",
       .apply = apply_spc_node},
      {.name = "*BOUNDARY_SPC_SET",
       .options = {"ID", "BIRTH_DEATH"},
       .rows = {id_card(),
                {"Card 1", join({I("NSID").req(), I("CID")}, kSpcDofs)},
                {"Card 2 (_BIRTH_DEATH)", {R("BIRTH"), R("DEATH", "1.0E+20")}, "BIRTH_DEATH"}},
       .stream_rows = true,
       .summary = "Constraints on every node of a node set (CID and _BIRTH_DEATH as "
                  "*BOUNDARY_SPC_NODE). With _ID every record starts with its ID card.",
       .apply = apply_spc_set},
      {.name = "*BOUNDARY_PRESCRIBED_MOTION_NODE",
       .options = {"ID"},
       .rows = motion_rows("NID"),
       .summary = "DOF 1-3 (x, y, z), 5-7 (rotations), 4 (translation along *DEFINE_VECTOR VID; "
                  "motion normal to it stays free), -4 (along VID only: the normal velocity is "
                  "zero), 8 (rotation about VID through the centre of mass: rigid parts only, "
                  "VAD 0 or 1). VAD 0 velocity, 1 acceleration, 2 displacement (of a rigid "
                  "part: of its centre of mass from its initial position); VAD 3 and 4 are not "
                  "supported. DEATH 0 means never (the default). Card 2 (|DOF| 9-11, VAD 4) is "
                  "read. DOF 9, 10, 11 (nodes and node sets): the nodes rotate about an axis "
                  "parallel to x, y, z through (OFFSET1, OFFSET2) = (y, z), (z, x), (x, y), "
                  "right-handed; their distance from the axis is kept (radial motion "
                  "prescribed), the motion along the axis is free. The curve gives the angle "
                  "(VAD 2, radians), the angular velocity (0) or acceleration (1) and is read "
                  "from BIRTH on, starting at its first abscissa (LS-DYNA: the motion is "
                  "activated at BIRTH starting from the initial abscissa of the curve): "
                  "theta(t) = SF f(t - BIRTH + x_1); the nodes turn by theta(t) - theta(BIRTH) "
                  "from where they are at BIRTH. -9, -10, -11 (radial motion free) are not "
                  "supported. With _ID every record starts with its ID card.",
       .apply = apply_motion_node},
      {.name = "*BOUNDARY_PRESCRIBED_MOTION_SET",
       .options = {"ID"},
       .rows = motion_rows("NSID"),
       .summary = "As _NODE, for a node set.",
       .apply = apply_motion_set},
      {.name = "*BOUNDARY_PRESCRIBED_MOTION_RIGID",
       .options = {"ID"},
       .rows = motion_rows("PID"),
       .summary = "As _NODE, for a rigid part.",
       .apply = apply_motion_rigid},
      {.name = "*INITIAL_VELOCITY",
       .head = {{"Card 1", {I("NSID"), I("NSIDEX"), I("BOXID"), I("IRIGID"), I("ICID")}},
                {"Card 2", reals({"VX", "VY", "VZ", "VXR", "VYR", "VZR"})},
                {"Card 3 (NSIDEX)", reals({"VXE", "VYE", "VZE", "VXRE", "VYRE", "VZRE"}), "",
                 true}},
       .summary = "Velocity of node set NSID (0: all nodes); nodes of NSIDEX get card 3. BOXID: "
                  "only nodes inside that *DEFINE_BOX. ICID: velocities given in that local "
                  "system. IRIGID is ignored.",
       .apply = apply_initial_velocity},
      {.name = "*INITIAL_VELOCITY_NODE",
       .rows = {{"Card 1",
                 join({I("NID").req()},
                      join(reals({"VX", "VY", "VZ", "VXR", "VYR", "VZR"}), {I("ICID")}))}},
       .stream_rows = true,
       .summary = "Velocity of single nodes; with ICID, VX-VZR are given in that local system.",
       .apply = apply_initial_velocity_node},
      {.name = "*INITIAL_VELOCITY_GENERATION",
       .rows = {{"Card 1",
                 {I("ID"), I("STYP").req(), R("OMEGA"), R("VX"), R("VY"), R("VZ"), I("IVATN"),
                  I("ICID")}},
                {"Card 2",
                 {R("XC"), R("YC"), R("ZC"), R("NX"), R("NY"), R("NZ"), I("PHASE"), I("IRIGID")}}},
       .summary = "Translation plus rigid rotation OMEGA about the axis through (XC,YC,ZC) along "
                  "(NX,NY,NZ). STYP 1 part set, 2 part, 3 node set; ID 0 means everything. "
                  "IVATN, PHASE, IRIGID are ignored. ICID: VX-VZ and NX-NZ are given in that "
                  "local system (XC-ZC stay global).",
       .apply = apply_initial_velocity_generation},
      {.name = "*LOAD_NODE_POINT",
       .rows = {{"Card 1", nodal_load_card("NID")}},
       .stream_rows = true,
       .summary = "Nodal force (DOF 1-3) or moment (5-7) = SF * curve(t), along the global axis "
                  "or, with CID, along that local system's axis (its axes at time 0). M1-M3 are "
                  "ignored (DOF 4 and 8, follower loads, are refused).",
       .apply = apply_load_node_point},
      {.name = "*LOAD_NODE_SET",
       .rows = {{"Card 1", nodal_load_card("NSID")}},
       .stream_rows = true,
       .summary = "As *LOAD_NODE_POINT on every node of a node set.",
       .apply = apply_load_node_set},
      {.name = "*LOAD_BODY_X",
       .head = {{"Card 1", body_load_card()}},
       .summary = "Body acceleration SF * curve(t) in x; during dynamic relaxation SF * "
                  "LCIDDR(t) (none when LCIDDR = 0, unless LCID has SIDR 1 or 2); with CID, "
                  "along that local system's x axis. XC-ZC are ignored.",
       .apply = apply_load_body_x},
      {.name = "*LOAD_BODY_Y",
       .head = {{"Card 1", body_load_card()}},
       .summary = "As *LOAD_BODY_X, in y.",
       .apply = apply_load_body_y},
      {.name = "*LOAD_BODY_Z",
       .head = {{"Card 1", body_load_card()}},
       .summary = "As *LOAD_BODY_X, in z.",
       .apply = apply_load_body_z},
      {.name = "*AIRBAG_SIMPLE_PRESSURE_VOLUME",
       .options = {"ID", "#"},
       .head = {{"ID", {I("ABID"), Line("HEADING").w(70)}, "ID"},
                {"Card 1",
                 {I("SID").req(), I("SIDTYP"), I("RBID"), R("VSCA", "1.0"), R("PSCA", "1.0"),
                  R("VINI"), R("MWD"), R("SPSF")}},
                {"Card 2", {R("CN"), R("BETA", "1.0"), I("LCID"), I("LCIDDR")}}},
       .summary = "A closed bag of shell parts (SIDTYP != 0: part set SID; normals may point in "
                  "or out) whose pressure follows its volume V: p = BETA CN / (V/V0) with V0 "
                  "the initial volume (CN < 0: -CN is a curve of CN over time), or p = "
                  "LCID(V/V0); LCIDDR: CN over time during dynamic relaxation. The pressure acts "
                  "on the shells (its work is external work); MWD damps the bag's nodes with F = "
                  "-MWD m (v - v_cg) (their mass-weighted mean velocity). Segment sets "
                  "(SIDTYP 0), RBID, VINI, SPSF and VSCA, PSCA other than 1 are not supported. "
                  "The shells' normals are oriented consistently and outwards, as LS-DYNA "
                  "does. A numeric option (*AIRBAG_SIMPLE_PRESSURE_VOLUME_1, older decks) is "
                  "the airbag id.",
       .apply = apply_airbag_simple_pressure_volume},
      {.name = "*RIGIDWALL_PLANAR",
       .options = {"ID", "ORTHO", "FINITE", "MOVING", "FORCES", "DISPLAY"},
       .head = {id_card("RWID"),
                {"Card 1",
                 {I("NSID"), I("NSIDEX"), I("BOXID"), R("OFFSET"), R("BIRTH"),
                  R("DEATH", "1.0E+20"), R("RWKSF", "1.0")}},
                {"Card 2", wall_normal_card(true)},
                {"Card 2.1 (_ORTHO)",
                 reals({"SFRICA", "SFRICB", "DFRICA", "DFRICB", "DECAYA", "DECAYB"}), "ORTHO"},
                {"Card 2.2 (_ORTHO)", {I("NODE1"), I("NODE2"), R("D1"), R("D2"), R("D3")}, "ORTHO"},
                {"Card 3 (_FINITE)", reals({"XHEV", "YHEV", "ZHEV", "LENL", "LENM"}), "FINITE"},
                {"Card 4 (_MOVING)", {R("MASS"), R("V0")}, "MOVING"},
                {"Card 5 (_FORCES)",
                 {I("SOFT"), I("SSID"), I("N1"), I("N2"), I("N3"), I("N4")},
                 "FORCES"},
                {"Card 6 (_DISPLAY)", {I("PID"), R("RO"), R("E"), R("PR")}, "DISPLAY"}},
       .summary = "Planar rigid wall; NSID 0 means all nodes. _ORTHO: orthotropic Coulomb "
                  "friction in place of FRIC, coefficient mu = DFRIC + (SFRIC - DFRIC) "
                  "exp(-DECAY v) along the wall's a axis (NODE1 -> NODE2 at time 0, else D1-D3, "
                  "projected on the wall) and b = n x a, the tangential velocity change bounded "
                  "by the ellipse of semi-axes mu_a and mu_b times the normal one (scaled back "
                  "along the stick change; both decays use the tangential speed; LS-DYNA's exact "
                  "combination is not documented here). BOXID: only those of the nodes "
                  "inside the *DEFINE_BOX at time 0. RWKSF is ignored. _FORCES: SOFT must be 0 "
                  "(the soft release of the wall force is not modelled); the force-distribution "
                  "output of SSID and N1-N4 is not written (one warning; the wall's total force "
                  "is in rwforc). _DISPLAY (a part to draw the wall with) is read and ignored.",
       .apply = apply_rigidwall_planar},
      {.name = "*RIGIDWALL_GEOMETRIC_CYLINDER",
       .options = {"ID", "MOTION", "DISPLAY"},
       .head = {id_card("RWID"),
                {"Card 1", {I("NSID"), I("NSIDEX"), I("BOXID"), R("BIRTH"), R("DEATH", "1.0E+20")}},
                {"Card 2", wall_normal_card(false)},
                {"Card 3", {R("RADCYL"), R("LENCYL"), I("NSEGS")}},
                {"Card 4 (_MOTION)", wall_motion_card(), "MOTION"},
                {"Card 5 (_DISPLAY)", {I("PID"), R("RO"), R("E"), R("PR")}, "DISPLAY"}},
       .summary = "Cylindrical rigid wall, axis from tail to head. BOXID as *RIGIDWALL_PLANAR. "
                  "NSEGS must be 0; the _DISPLAY card is accepted and ignored. _MOTION: the wall "
                  "translates along (VX, VY, VZ) with the velocity (OPT 0) or displacement (OPT "
                  "1) of curve LCID; the work it does is external work.",
       .apply = apply_rigidwall_cylinder},
      {.name = "*RIGIDWALL_GEOMETRIC_FLAT",
       .options = {"ID", "MOTION", "DISPLAY"},
       .head = {id_card("RWID"),
                {"Card 1", {I("NSID"), I("NSIDEX"), I("BOXID"), R("BIRTH"), R("DEATH", "1.0E+20")}},
                {"Card 2", wall_normal_card(false)},
                {"Card 3", reals({"XHEV", "YHEV", "ZHEV", "LENL", "LENM"})},
                {"Card 4 (_MOTION)", wall_motion_card(), "MOTION"},
                {"Card 5 (_DISPLAY)", {I("PID"), R("RO"), R("E"), R("PR")}, "DISPLAY"}},
       .summary = "A flat rectangular rigid wall: normal from tail to head, the edge l towards "
                  "(XHEV, YHEV, ZHEV), LENL by LENM from the tail (both must be positive; an "
                  "infinite plane is *RIGIDWALL_PLANAR). It acts as *RIGIDWALL_PLANAR_FINITE. "
                  "_MOTION and _DISPLAY as for the cylinder.",
       .apply = apply_rigidwall_flat},
      {.name = "*RIGIDWALL_GEOMETRIC_PRISM",
       .options = {"ID", "MOTION", "DISPLAY"},
       .head = {id_card("RWID"),
                {"Card 1", {I("NSID"), I("NSIDEX"), I("BOXID"), R("BIRTH"), R("DEATH", "1.0E+20")}},
                {"Card 2", wall_normal_card(false)},
                {"Card 3", reals({"XHEV", "YHEV", "ZHEV", "LENL", "LENM", "LENP"})},
                {"Card 4 (_MOTION)", wall_motion_card(), "MOTION"},
                {"Card 5 (_DISPLAY)", {I("PID"), R("RO"), R("E"), R("PR")}, "DISPLAY"}},
       .summary = "A rigid box: the flat wall's LENL by LENM rectangle (as "
                  "*RIGIDWALL_GEOMETRIC_FLAT) extended LENP against the normal (all three must be "
                  "positive). Each of its six faces stops the nodes in front of it, as a finite "
                  "planar wall (a node beside an edge, outside two faces' rectangles, is "
                  "stopped by neither); nodes inside it at the start are left alone. _MOTION and "
                  "_DISPLAY as for the cylinder.",
       .apply = apply_rigidwall_prism},
  };
}

// ---------------------------------------------------------------------------------------------
// Constraints: nodal rigid bodies, extra nodes, merged rigid bodies, spotwelds

std::vector<KeywordSpec> constraint_keywords() {
  return {
      {.name = "*DEFORMABLE_TO_RIGID",
       .rows = {{"Card 1", {I("PID").req(), I("LRB"), S("PTYPE", "PART")}}},
       .summary = "Parts made rigid from time 0: each part (PTYPE PART) or every part of the "
                  "part set (PSET) gets a *MAT_RIGID with its material's density, E and PR "
                  "(the part's material is kept for the others). LRB > 0: merged into the rigid "
                  "body of that part, as *CONSTRAINED_RIGID_BODIES. Switching during the run "
                  "(*DEFORMABLE_TO_RIGID_AUTOMATIC) is not supported.",
       .apply = apply_deformable_to_rigid},
      {.name = "*CONSTRAINED_NODAL_RIGID_BODY",
       .options = {"SPC", "INERTIA", "TITLE"},
       .rows = {title_card(),
                {"Card 1",
                 {I("PID"), I("CID"), I("NSID").req(), I("PNODE"), I("IPRT"), I("DRFLAG"),
                  I("RRFLAG")}},
                {"Card 1a (_SPC)", {R("CMO"), I("CON1"), I("CON2")}, "SPC"},
                {"Card 2 (_INERTIA)",
                 {R("XC"), R("YC"), R("ZC"), R("TM"), I("IRCS"), I("NODEID")},
                 "INERTIA"},
                {"Card 3 (_INERTIA)", reals({"IXX", "IXY", "IXZ", "IYY", "IYZ", "IZZ"}), "INERTIA"},
                {"Card 4 (_INERTIA)", reals({"VTX", "VTY", "VTZ", "VRX", "VRY", "VRZ"}),
                 "INERTIA"}},
       .summary = "The nodes of NSID move as one rigid body; mass, centre and inertia from the "
                  "nodes' lumped masses (and the rotary inertia of shell nodes). A node may be "
                  "in one rigid constraint only, and not a *MAT_RIGID node (error). DRFLAG and "
                  "RRFLAG must be 0; CID, PNODE and IPRT are ignored (warning when nonzero). "
                  "_SPC: CMO = 1 fixes the body's translations CON1 and rotations CON2 (global, "
                  "coded as *MAT_RIGID's: 1 x, 2 y, 3 z, 4 xy, 5 yz, 6 zx, 7 all); CMO = -1 "
                  "(local) is refused. "
                  "_INERTIA: the body's mass TM, centre (XC YC ZC, or node NODEID), inertia tensor "
                  "and initial velocity replace the nodes' ones, as *PART_INERTIA (IRCS = 1 is "
                  "refused). _TITLE: a title line before each body's card 1.",
       .apply = apply_constrained_nodal_rigid_body},
      {.name = "*CONSTRAINED_EXTRA_NODES_NODE",
       .rows = {{"Card 1", {I("PID").req(), I("NID").req(), I("IFLAG")}}},
       .summary = "Node NID becomes part of rigid part PID (a *MAT_RIGID part); its lumped mass "
                  "is added to the body. IFLAG is ignored.",
       .apply = apply_constrained_extra_nodes_node},
      {.name = "*CONSTRAINED_EXTRA_NODES_SET",
       .rows = {{"Card 1", {I("PID").req(), I("NSID").req(), I("IFLAG")}}},
       .summary = "As _NODE, for every node of node set NSID.",
       .apply = apply_constrained_extra_nodes_set},
      {.name = "*CONSTRAINED_RIGID_BODIES",
       .rows = {{"Card 1", {I("PIDL").req(), I("PIDF").req(), I("IFLAG")}}},
       .summary = "Rigid part PIDF is merged into rigid part PIDL: one body with the combined "
                  "mass, centre and inertia (the constraints of both *MAT_RIGID cards apply). "
                  "A part merged into itself (also through a chain) is an error. IFLAG is "
                  "ignored.",
       .apply = apply_constrained_rigid_bodies},
      joint_keyword("*CONSTRAINED_JOINT_SPHERICAL",
                    "Spherical joint: N1 (first rigid body) and N2 (second) stay together.",
                    apply_constrained_joint_spherical),
      joint_keyword("*CONSTRAINED_JOINT_REVOLUTE",
                    "Revolute joint (a hinge about the axis N1 -> N3): the pairs N1-N2 and N3-N4 "
                    "stay together.",
                    apply_constrained_joint_revolute),
      joint_keyword("*CONSTRAINED_JOINT_CYLINDRICAL",
                    "Cylindrical joint: as revolute, but the bodies may also slide along the "
                    "axis N1 -> N3 (the pairs are held together normal to it only).",
                    apply_constrained_joint_cylindrical),
      joint_keyword("*CONSTRAINED_JOINT_TRANSLATIONAL",
                    "Translational joint: the bodies slide along the axis N1 -> N3 without "
                    "turning (the pairs N1-N2, N3-N4 and N5-N6, N5 off the axis, are held "
                    "together normal to it).",
                    apply_constrained_joint_translational),
      joint_keyword("*CONSTRAINED_JOINT_UNIVERSAL",
                    "Universal joint (a cross): N1 (first body) and N2 (second) stay together, "
                    "and the arms N1 -> N3 (on the first body) and N2 -> N4 (on the second, "
                    "N3 and N4 not coincident) keep the angle they make at time 0 (at right "
                    "angles for a cross): the bodies turn freely about both arms, not about the "
                    "third axis. The angle is held by a penalty couple on the change of the "
                    "arms' dot product.",
                    apply_constrained_joint_universal),
      joint_keyword("*CONSTRAINED_JOINT_PLANAR",
                    "Planar joint: the bodies slide on the plane through N1 normal to N1 -> N3 "
                    "(N2 coincident with N1, N4 with N3) and turn about its normal: the pair N1-N2 "
                    "is held together along the normal only, and the second body's axis N2 -> "
                    "N4 is held along the normal (a penalty couple on its part in the plane).",
                    apply_constrained_joint_planar),
      {.name = "*CONSTRAINED_SPOTWELD",
       .options = {"ID"},
       .rows = {{"ID (_ID)", {I("WID")}, "ID"},
                {"Card 1",
                 {I("N1").req(), I("N2").req(), R("SN"), R("SS"), R("N", "1.0"), R("M", "1.0"),
                  R("TF", "1.0E+20"), R("EP", "1.0E+20")}}},
       .summary = "Rigid massless weld between nodes N1 and N2 (a two-node rigid body). It "
                  "fails when (|fn|/SN)^N + (|fs|/SS)^M >= 1 (SN or SS 0: no such term), fn and "
                  "fs the constraint force along and across N1->N2, or at time TF (0: never); "
                  "its nodes then continue as free nodes. N or M 0 means 1 (a blank field is 0 "
                  "in LS-DYNA); negative SN or SS (curves of temperature) are not supported. EP "
                  "is not supported (warning when given).",
       .apply = apply_constrained_spotweld},
      {.name = "*CONSTRAINED_GENERALIZED_WELD_SPOT",
       .options = {"ID"},
       .rows =
           {{"ID (_ID)", {I("WID")}, "ID"},
            {"Card 1", {I("NSID").req(), I("CID"), I("FILTER"), R("WINDOW"), I("NPR"), I("NPRT")}},
            {"Card 2",
             {R("TFAIL", "1.0E+20"), R("EPSF"), R("SN"), R("SS"), R("N", "1.0"), R("M", "1.0")}}},
       .summary = "The nodes of NSID welded as a rigid body, failing as *CONSTRAINED_SPOTWELD "
                  "(weld axis: first to last node of the set) or at TFAIL (0: never). EPSF is "
                  "not supported (warning when nonzero); CID, FILTER, WINDOW, NPR, NPRT are "
                  "ignored (warning when nonzero). Without _ID the welds are numbered after the "
                  "largest weld id so far. Only the SPOT option is supported.",
       .apply = apply_constrained_generalized_weld_spot},
  };
}

/// Every material law's card table, from its own file (materials/catalogue.hpp), read by the
/// one apply function of all laws.
std::vector<KeywordSpec> material_law_keywords() {
  std::vector<KeywordSpec> out;
  for (const MaterialLaw* law : material_laws()) {
    KeywordSpec k = law->keyword;
    k.apply = apply_material;
    out.push_back(std::move(k));
  }
  return out;
}

std::vector<KeywordSpec> build_table() {
  std::vector<KeywordSpec> all;
  for (auto group :
       {structure_keywords(), mesh_keywords(), material_law_keywords(), material_keywords(),
        control_keywords(), set_keywords(), boundary_keywords(), constraint_keywords(),
        contact_keywords(), implicit_keywords(), forming_keywords(), beam_keywords()})
    all.insert(all.end(), group.begin(), group.end());
  for (const KeywordFile& f : keyword_files())
    all.insert(all.end(), f.keywords.begin(), f.keywords.end());
  return all;
}

/// Options after `name` in `keyword` ("_TITLE_ID" -> {TITLE, ID}) if all are allowed.
std::optional<std::vector<std::string>>
options_after(std::string_view keyword, std::string_view name, const KeywordSpec& spec) {
  if (keyword.substr(0, name.size()) != name) return std::nullopt;
  std::string_view rest = keyword.substr(name.size());
  std::vector<std::string> options;
  while (!rest.empty()) {
    if (rest.front() != '_') return std::nullopt;
    rest.remove_prefix(1);
    // the longest option the rest starts with (options may hold '_': BIRTH_DEATH)
    std::string_view opt;
    for (const auto& o : spec.options) {
      const std::string_view ov(o);
      if (ov != "#" && ov.size() > opt.size() && rest.substr(0, ov.size()) == ov &&
          (rest.size() == ov.size() || rest[ov.size()] == '_'))
        opt = ov;
    }
    if (opt.empty()) {
      // "#" among the options: a number (the id suffix of older *AIRBAG decks)
      opt = rest.substr(0, rest.find('_'));
      const bool number =
          !opt.empty() && opt.find_first_not_of("0123456789") == opt.npos &&
          std::find(spec.options.begin(), spec.options.end(), "#") != spec.options.end();
      if (!number) return std::nullopt;
    }
    options.emplace_back(opt);
    rest.remove_prefix(opt.size());
  }
  return options;
}

} // namespace

const std::vector<KeywordSpec>& keyword_table() {
  static const std::vector<KeywordSpec> table = build_table();
  return table;
}

namespace {

/// LS-DYNA reads a contact's _ID / _TITLE and _MPP options wherever they stand after "*CONTACT"
/// (*CONTACT_TIED_SHELL_EDGE_TO_SURFACE_ID_BEAM_OFFSET_MPP, *CONTACT_AUTOMATIC_GENERAL_MPP_ID):
/// the name with those words moved to its end, or "" when there is nothing to move.
std::string contact_options_last(std::string_view keyword) {
  if (!keyword.starts_with("*CONTACT_")) return {};
  std::string head = "*CONTACT", tail;
  std::string_view rest = keyword.substr(9);
  while (!rest.empty()) {
    const std::size_t bar = rest.find('_');
    const std::string_view word = rest.substr(0, bar);
    (word == "ID" || word == "TITLE" || word == "MPP" ? tail : head) += "_" + std::string(word);
    rest = bar == std::string_view::npos ? std::string_view{} : rest.substr(bar + 1);
  }
  std::string moved = head + tail;
  return moved == keyword ? std::string{} : moved;
}

std::optional<KeywordMatch> match_keyword_as_written(std::string_view keyword);

} // namespace

std::optional<KeywordMatch> match_keyword(std::string_view keyword) {
  auto best = match_keyword_as_written(keyword);
  if (!best) {
    const std::string moved = contact_options_last(keyword);
    if (!moved.empty()) best = match_keyword_as_written(moved);
  }
  return best;
}

namespace {

std::optional<KeywordMatch> match_keyword_as_written(std::string_view keyword) {
  std::optional<KeywordMatch> best;
  std::size_t best_len = 0;
  for (const KeywordSpec& spec : keyword_table()) {
    std::vector<std::string_view> names{spec.name};
    names.insert(names.end(), spec.aliases.begin(), spec.aliases.end());
    for (std::string_view name : names) {
      if (name.size() <= best_len) continue;
      if (auto opts = options_after(keyword, name, spec)) {
        best = KeywordMatch{&spec, std::move(*opts)};
        best_len = name.size();
      }
    }
  }
  return best;
}

} // namespace

std::vector<KeywordFile> keyword_files() {
  return {
#define PARCAE_KEYWORD_FILE(name) keywords_##name(),
#include "input/keyword_files.def"
#undef PARCAE_KEYWORD_FILE
  };
}

} // namespace parcae::io
