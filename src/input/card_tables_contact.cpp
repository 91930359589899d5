// Card tables of the contact keywords: *CONTACT_[AUTOMATIC_]{SINGLE_SURFACE,
// SURFACE_TO_SURFACE, NODES_TO_SURFACE}[_ID|_TITLE], *CONTACT_AUTOMATIC_GENERAL[_ID|_TITLE]
// [_MPP], the tied contacts (*CONTACT_TIED_..., *CONTACT_SPOTWELD), *CONTROL_CONTACT and
// *SET_SEGMENT. The
// apply functions are in deck_apply_contact.cpp; cross references are checked in
// deck_resolve.cpp (check_contacts).
#include <deque>
#include <string>

#include "input/card_spec.hpp"
#include "input/deck_apply.hpp"

namespace parcae::io {

using namespace card_fields;

std::vector<CardSpec> contact_cards(bool eroding, bool tiebreak) {
  std::vector<CardSpec> cards{
      {"Card 1",
       {I("SSID"), I("MSID"), I("SSTYP"), I("MSTYP"), I("SBOXID"), I("MBOXID"), I("SPR"), I("MPR")},
       "",
       false,
       true},
      {"Card 2",
       {R("FS"), R("FD"), R("DC"), R("VC"), R("VDC"), I("PENCHK"), R("BT"), R("DT", "1.0E+20")},
       "",
       false,
       true},
      {"Card 3",
       {R("SFS", "1.0"), R("SFM", "1.0"), R("SST"), R("MST"), R("SFST", "1.0"), R("SFMT", "1.0"),
        R("FSF", "1.0"), R("VSF", "1.0")},
       "",
       false,
       true},
      {"Card A",
       {I("SOFT"), R("SOFSCL", "0.1"), I("LCIDAB"), R("MAXPAR", "1.025"), I("SBOPT", "2"),
        I("DEPTH", "2"), I("BSORT"), I("FRCFRQ", "1")},
       "",
       true},
      {"Card B",
       {R("PENMAX"), I("THKOPT"), I("SHLTHK"), I("SNLOG"), I("ISYM"), I("I2D3D"), R("SLDTHK"),
        R("SLDSTF")},
       "",
       true},
      {"Card C",
       {I("IGAP", "1"), I("IGNORE"), R("DPRFAC"), R("DTSTIF"), R("EDGEK"), S("UNUSED"), R("FLANGL"),
        I("CID_RCF")},
       "",
       true},
  };
  if (eroding) // *CONTACT_ERODING_...: the eroding card follows card 3
    cards.insert(cards.begin() + 3,
                 CardSpec{"Eroding card", {I("ISYM_ER"), I("EROSOP"), I("IADJ")}, "", true});
  if (tiebreak) // *CONTACT_..._TIEBREAK: card 4 follows card 3 (required)
    cards.insert(cards.begin() + 3, CardSpec{"Card 4 (tiebreak)",
                                             {I("OPTION"), R("NFLS"), R("SFLS"), R("PARAM"),
                                              R("ERATEN"), R("ERATES"), R("CT2CN", "1.0"), R("CN")},
                                             "",
                                             false,
                                             true});
  // The option cards come first, in LS-DYNA's order: the ID card (_ID or _TITLE), MPP card 1
  // (_MPP) and MPP card 2 (_MPP, only when its line starts with '&').
  CardSpec mpp2{"MPP card 2 (_MPP, a line starting with &)", {Line("MPP_CARD_2")}, "MPP"};
  mpp2.lead = '&';
  cards.insert(cards.begin(),
               {CardSpec{"ID (_ID or _TITLE)", {I("CID"), Line("HEADING")}, "ID|TITLE"},
                CardSpec{"MPP card 1 (_MPP)",
                         {I("IGNORE_MPP"), I("BCKT", "200"), I("LCBCKT"), I("NS2TRK", "3"),
                          I("INITITR", "2"), R("PARMAX", "1.0005"), S("UNUSED_MPP"), I("CPARM8")},
                         "MPP"},
                mpp2});
  return cards;
}

std::string_view contact_options_summary() {
  return " Options: _ID or _TITLE: an ID card first (CID, HEADING); _MPP (in either order "
         "with _ID): MPP card 1 (IGNORE, BCKT, LCBCKT, NS2TRK, INITITR, PARMAX, CPARM8) and, when "
         "the next line starts with '&', MPP card 2 (CHKSEGS, PENSF, GRPABLE). The MPP cards "
         "tune LS-DYNA's MPP contact search: read and not used, except MPP IGNORE, which is "
         "card C's IGNORE when that is 0 (as in LS-DYNA, either may be given).";
}

namespace {

constexpr std::string_view kContactCommon =
    " CID: the _ID/_TITLE card (blank or 0: the contact's 1-based position among all contacts; "
    "a repeated id is replaced by the next id no contact uses, with a warning). Set types "
    "SSTYP/MSTYP: 0 segment set, 2 part set, 3 part, 4 node set "
    "(SSTYP of NODES_TO_SURFACE only), 5 all parts (SSTYP of SINGLE_SURFACE only); other types "
    "are errors. FS = FD = 0 take SFRIC/DFRIC of *CONTROL_CONTACT, DC = 0 takes EDC; FS, FD < 0 "
    "and BT, DT < 0 are errors; BT = 0 and DT = 0 mean 0 and 1e20. SFS, SFM, SFST, SFMT, FSF, "
    "VSF, SOFSCL of 0 take their defaults; DEPTH 0 means 2. Stored: SSID, MSID, SSTYP, MSTYP, "
    "FS, FD, DC, VC, VDC, BT, DT, SFS, SFM, SST, MST, SFST, SFMT, SOFT, SOFSCL, DEPTH, BSORT, "
    "PENMAX, DTSTIF. The segments' penalty stiffness takes the bulk modulus of their part's "
    "material (E, PR; a hydrodynamic material without E, its equation of state's at the "
    "reference state). VDC: viscous normal damping in percent of critical (0-100), c = VDC/100 2 m "
    "w "
    "with m = min(m_node, m_segment), w = sqrt(k (m_node + m_segment)/(m_node m_segment)); "
    "the normal force stays compressive. Not supported (warning when set): SBOXID, MBOXID, "
    "PENCHK, FSF/VSF != 1, "
    "SOFT other than 0/1 (0 is used), LCIDAB, MAXPAR (other than 1.025), SBOPT (other than 2), "
    "FRCFRQ > 1, THKOPT, SHLTHK, SNLOG, ISYM, I2D3D, SLDTHK, SLDSTF. SPR/MPR are ignored. "
    "Card C: IGNORE (0: *CONTROL_CONTACT's; 1 or 2: initial penetrations kept as offsets; "
    "-1, -2: as 1, 2 with a warning); DTSTIF > 0: the step in the SOFT = 1 stiffness (0: the "
    "first solution step, raised when the step grows; negative values, a moving average or a "
    "curve, are not supported: warning, 0 used); IGAP, DPRFAC, EDGEK, FLANGL and CID_RCF are "
    "not supported (warning when set). "
    "Cards 1-3 must be present (blank lines take the defaults); further cards (D, E, ...) "
    "are skipped. Every part, part set, node set and segment set named must exist and be "
    "non-empty; shell parts in the surfaces need a positive section thickness (unless SST/MST "
    "> 0 on that side).";

/// One contact keyword with its _ID / _TITLE and _MPP options.
void add_contact(std::vector<KeywordSpec>& out, std::string_view name, std::string_view what,
                 ApplyFn apply, bool eroding = false, bool tiebreak = false) {
  static std::deque<std::string> summaries; // the docs text lives as long as the table
  summaries.push_back(std::string(what) + std::string(contact_options_summary()));
  out.push_back({.name = name,
                 .options = {"ID", "TITLE", "MPP"},
                 .head = contact_cards(eroding, tiebreak),
                 .ignore_extra = true,
                 .summary = summaries.back(),
                 .apply = apply});
}

} // namespace

std::vector<KeywordSpec> contact_keywords() {
  static const std::string single =
      std::string("Penalty contact of a surface with itself. SSID = 0 or SSTYP 5: all parts "
                  "(stored as SSID 0, SSTYP 5); MSID/MSTYP are ignored (warning when MSID is "
                  "set; stored as 0).") +
      std::string(kContactCommon);
  static const std::string s2s =
      std::string("Penalty contact between secondary surface SSID and main surface MSID "
                  "(types 0, 2, 3).") +
      std::string(kContactCommon);
  static const std::string n2s =
      std::string("Penalty contact of the nodes of SSID (types 0, 2, 3, 4) with main surface "
                  "MSID (types 0, 2, 3; a node set cannot be a main surface).") +
      std::string(kContactCommon);
  static const std::string single_auto = "Automatic (orientation-independent) version. " + single;
  static const std::string s2s_auto = "Automatic (orientation-independent) version. " + s2s;
  static const std::string n2s_auto = "Automatic (orientation-independent) version. " + n2s;
  std::vector<KeywordSpec> out;
  add_contact(out, "*CONTACT_AUTOMATIC_SINGLE_SURFACE", single_auto,
              apply_contact_automatic_single);
  add_contact(out, "*CONTACT_AUTOMATIC_SURFACE_TO_SURFACE", s2s_auto,
              apply_contact_automatic_surface_to_surface);
  static const std::string s2s_tiebreak =
      "Automatic surface-to-surface contact with tiebreak (card 4 after card 3: OPTION, NFLS, "
      "SFLS, PARAM, ERATEN, ERATES, CT2CN, CN). A tied node is held by a penalty spring (the "
      "contact's penalty stiffness, normal and tangential) at the point of the segment where it "
      "was tied. Nodes initially in contact (the gap, distance less the contact thicknesses, "
      "within 1 % of the segment size) are tied where they are. OPTION 1: nodes that come into "
      "contact later stick too, at the contact surface; ties never fail (NFLS, SFLS are not used; "
      "any value). OPTION 2: the initial ties fail when (sigma_n/NFLS)^2 + (sigma_s/SFLS)^2 >= 1 "
      "(sigma_n tension only; stresses = the tie force over the node's share of its surface's "
      "area); a failed node is in ordinary contact. OPTION 3: as 1, with the failure of 2. "
      "OPTION 2 and 3 need NFLS > 0 and SFLS > 0. Other OPTIONs are errors; PARAM, ERATEN, "
      "ERATES, CT2CN and CN are not used (warning when set). Restart keeps the ties. " +
      s2s;
  add_contact(out, "*CONTACT_AUTOMATIC_SURFACE_TO_SURFACE_TIEBREAK", s2s_tiebreak,
              apply_contact_automatic_surface_to_surface_tiebreak, false, true);
  add_contact(out, "*CONTACT_AUTOMATIC_NODES_TO_SURFACE", n2s_auto,
              apply_contact_automatic_nodes_to_surface);
  static const std::string one_way =
      "One-way automatic surface-to-surface contact: only the nodes of the secondary surface "
      "SSID are checked against the main surface MSID, which is the automatic nodes-to-surface "
      "contact with the secondary side given as a surface (parcae runs it as "
      "*CONTACT_AUTOMATIC_NODES_TO_SURFACE). " +
      n2s;
  add_contact(out, "*CONTACT_AUTOMATIC_ONE_WAY_SURFACE_TO_SURFACE", one_way,
              apply_contact_automatic_nodes_to_surface);
  static const std::string smooth =
      "As the automatic contact without _SMOOTH, on the facetted surface: the smoothed surface "
      "LS-DYNA fits to curved segments is not made (one warning); the contact forces are those "
      "of the flat segments. ";
  static const std::string smooth_single = smooth + single_auto;
  static const std::string smooth_s2s = smooth + s2s_auto;
  static const std::string smooth_n2s = smooth + n2s_auto;
  static const std::string smooth_one_way = smooth + one_way;
  add_contact(out, "*CONTACT_AUTOMATIC_SINGLE_SURFACE_SMOOTH", smooth_single, apply_contact_smooth);
  add_contact(out, "*CONTACT_AUTOMATIC_SURFACE_TO_SURFACE_SMOOTH", smooth_s2s,
              apply_contact_smooth);
  add_contact(out, "*CONTACT_AUTOMATIC_NODES_TO_SURFACE_SMOOTH", smooth_n2s, apply_contact_smooth);
  add_contact(out, "*CONTACT_AUTOMATIC_ONE_WAY_SURFACE_TO_SURFACE_SMOOTH", smooth_one_way,
              apply_contact_smooth);
  static const std::string mortar =
      "Run as the automatic contact without _MORTAR (one warning): parcae's penalty contact of "
      "nodes against segments, both ways, on the same surfaces with the same thickness offsets "
      "and friction, not LS-DYNA's segment-to-segment mortar (whose penalty stiffness and "
      "force distribution differ). ";
  static const std::string mortar_single =
      mortar +
      "Beams in the surface (LS-DYNA's mortar contact wraps them in cylinders) get the "
      "beam-to-beam contact of *CONTACT_AUTOMATIC_GENERAL (capsules, the same diameter rules). " +
      single_auto;
  static const std::string mortar_s2s = mortar + s2s_auto;
  add_contact(out, "*CONTACT_AUTOMATIC_SINGLE_SURFACE_MORTAR", mortar_single, apply_contact_mortar);
  add_contact(out, "*CONTACT_AUTOMATIC_SURFACE_TO_SURFACE_MORTAR", mortar_s2s,
              apply_contact_mortar);
  {
    // *CONTACT_AUTOMATIC_GENERAL[_ID|_TITLE][_MPP]: the ID card first, then the MPP card, then
    // cards 1-3 and the optional cards (LS-DYNA's order).
    const std::vector<CardSpec> cards = contact_cards();
    static const std::string general =
        "Automatic general contact; parcae computes its beam-to-beam part (edge-to-edge "
        "contact of the beams of SSID: part set, part, or all parts with SSID = 0 / SSTYP "
        "5). Every beam is a capsule around its axis (a cylinder with round ends) of "
        "diameter = the contact thickness: *PART_CONTACT OPTT of its part when > 0, else SST "
        "(card 3) when > 0, else the section's (ELFORM 1, 4, 5, 9, 11: TS1; trusses and "
        "resultant beams: sqrt(A), as LS-DYNA), times SFST unless SST or OPTT is given. "
        "Beams that share a node are never paired; MPP card CPARM8 = 1 or 2 leaves out "
        "pairs within one part. Penalty stiffness per beam SLSFAC x SFS x E A / L (E of "
        "the part's material, *MAT_NULL's E for null beams), the pair's the smaller "
        "(SOFT = 1: at least SOFSCL 0.5 m / dt^2, m the smallest of the four nodal "
        "masses); Coulomb friction FS FD DC and viscous damping VDC as in the other "
        "contacts (at the pair's closest points). Pairs that overlap "
        "at the start keep the overlap as an offset (no force until they go deeper). "
        "BSORT (or *CONTROL_CONTACT NSBCS; default 25 for the beam edges, 100 for the faces) sets "
        "the search interval; a search "
        "also runs when a node moved half the capture margin. MST, SFM, SFMT have no "
        "effect (single surface); MSID/MSTYP are ignored (warning when MSID is set). "
        "Shells and solids in SSID get their node-to-surface part, LS-DYNA's "
        "AUTOMATIC_SINGLE_SURFACE over those parts (the same interface as that keyword; "
        "rcforc and sleout add the beams' forces and energies to its line); beam nodes "
        "against shell or solid faces (and shell edges against beams) are not computed. "
        "Card C IGNORE is not used (initial overlaps are always offsets). Other fields as in "
        "the other contacts:" +
        std::string(kContactCommon) + std::string(contact_options_summary());
    out.push_back({.name = "*CONTACT_AUTOMATIC_GENERAL",
                   .options = {"ID", "TITLE", "MPP"},
                   .head = cards,
                   .ignore_extra = true,
                   .summary = general,
                   .apply = apply_contact_automatic_general});
  }
  add_contact(out, "*CONTACT_SINGLE_SURFACE", single, apply_contact_single);
  add_contact(out, "*CONTACT_SURFACE_TO_SURFACE", s2s, apply_contact_surface_to_surface);
  add_contact(out, "*CONTACT_NODES_TO_SURFACE", n2s, apply_contact_nodes_to_surface);
  static const std::string tied =
      std::string(
          "Tied contact, one way: a secondary node that lies within the normal projection of a "
          "main segment at time 0 and within the tie distance of it (SST < 0 or MST < 0: |SST|, "
          "|MST|; otherwise max(0.6 (secondary + main shell thickness), 5 % of the segment's "
          "size)) is tied to that point of the segment, at its initial distance, for the whole "
          "run; untied nodes take no part (the run's report counts them). _OFFSET: a penalty "
          "spring of the contact's stiffness (normal and tangential alike), as LS-DYNA's, "
          "capped at what the step carries (k dt^2 (1/m_node + sum N_a^2/m_a) <= 0.5: thin "
          "shell edges with little mass would otherwise go unstable). The "
          "plain and _CONSTRAINED_OFFSET variants are constraints: the tied node's mass goes to "
          "the segment's nodes by the shape functions, its force too, and it moves with the "
          "segment's point (the plain variant keeps its initial offset instead of moving onto "
          "the surface). A node can be in one constraint-based tie only, not on a rigid body; "
          "prescribed motions of the segments' nodes are not passed on to the tied nodes. "
          "Rotations are not tied (the constraint _SHELL_EDGE_ variants tie them). ") +
      std::string(kContactCommon);
  static const std::string rotations =
      "A tied node with rotational dofs (a shell or beam node) also turns with its segment: its "
      "angular velocity is the segment nodes' by the shape functions, its moment and rotary "
      "inertia go to them the same way, as its force and mass do (the segment's nodes must be "
      "shell nodes: a solid main surface is refused for such nodes; a rotational constraint on "
      "the tied node is refused). The lever arm of an offset (the tied node off the segment's "
      "surface) is not in the coupling: the rotation tie is exact for nodes on the surface. ";
  static const std::string spotweld =
      "Spot weld contact: the nodes of the welds (SSID) tied to the sheets (MSID) as the tied "
      "contacts tie them: solid (hexahedron) welds, and beam welds (*MAT_100 beams), whose "
      "nodes' rotations are tied too. " +
      rotations + "_WITH_TORSION adds nothing (the constraint holds the torsion). " + tied;
  static const std::string shell_edge =
      "Shell edges tied to a surface: the plain and _CONSTRAINED_OFFSET forms as "
      "*CONTACT_TIED_NODES_TO_SURFACE (constraints) with the rotations. " +
      rotations +
      "_CONSTRAINED_OFFSET is the same (the constraints keep the initial offsets). _OFFSET is "
      "LS-DYNA's penalty form: the nodes are held at their initial offsets by penalty springs "
      "of the contact's stiffness on the translations only (no moment passes: a shell edge "
      "tied this way is a hinge; it may be tied to rigid bodies and be in other ties). "
      "_BEAM_OFFSET (LS-DYNA's penalty beams, which carry moments) runs as "
      "_CONSTRAINED_OFFSET, their stiff limit (a note says so). " +
      tied;
  for (std::string_view name : {"*CONTACT_TIED_SHELL_EDGE_TO_SURFACE",
                                "*CONTACT_TIED_SHELL_EDGE_TO_SURFACE_CONSTRAINED_OFFSET",
                                "*CONTACT_TIED_SHELL_EDGE_TO_SURFACE_OFFSET",
                                "*CONTACT_TIED_SHELL_EDGE_TO_SURFACE_BEAM_OFFSET"})
    add_contact(out, name, shell_edge, apply_contact_tied_shell_edge);
  for (std::string_view name :
       {"*CONTACT_TIED_NODES_TO_SURFACE", "*CONTACT_TIED_NODES_TO_SURFACE_OFFSET",
        "*CONTACT_TIED_NODES_TO_SURFACE_CONSTRAINED_OFFSET", "*CONTACT_TIED_SURFACE_TO_SURFACE",
        "*CONTACT_TIED_SURFACE_TO_SURFACE_OFFSET",
        "*CONTACT_TIED_SURFACE_TO_SURFACE_CONSTRAINED_OFFSET"})
    add_contact(out, name, tied, apply_contact_tied);
  add_contact(out, "*CONTACT_SPOTWELD", spotweld, apply_contact_spotweld);
  add_contact(out, "*CONTACT_SPOTWELD_WITH_TORSION", spotweld, apply_contact_spotweld);
  // the constraint form that keeps the welds' offsets: parcae's constraint ties keep them
  static const std::string spotweld_offset =
      "As *CONTACT_SPOTWELD, whose constraint ties keep the weld nodes' initial offsets from the "
      "sheets. " +
      spotweld;
  add_contact(out, "*CONTACT_SPOTWELD_CONSTRAINED_OFFSET", spotweld_offset, apply_contact_spotweld);
  add_contact(out, "*CONTACT_FORCE_TRANSDUCER_PENALTY",
              "Force transducer: in LS-DYNA it records the contact forces that other contacts "
              "exert on its surfaces and adds no force of its own. parcae reads it and writes no "
              "output for it (warning): the model's forces are the same.",
              apply_contact_force_transducer);
  static const std::string eroding =
      "Eroding contact: as the AUTOMATIC contact of the same kind, with the eroding card "
      "(ISYM, EROSOP, IADJ; ISYM named ISYM_ER here, card B has an ISYM too) after card 3. Every "
      "contact drops the segments of eroded elements "
      "and the nodes no live element holds; EROSOP = 1 (solids) also makes the faces that "
      "erosion exposes inside a solid part contact segments (and their nodes contact nodes), "
      "EROSOP = 0 keeps the initial exterior only. ISYM_ER and IADJ other than 0 are not "
      "supported (warning). ";
  static const std::string single_er = eroding + single;
  static const std::string s2s_er = eroding + s2s;
  static const std::string n2s_er = eroding + n2s;
  add_contact(out, "*CONTACT_ERODING_SINGLE_SURFACE", single_er, apply_contact_eroding_single,
              true);
  add_contact(out, "*CONTACT_ERODING_SURFACE_TO_SURFACE", s2s_er,
              apply_contact_eroding_surface_to_surface, true);
  add_contact(out, "*CONTACT_ERODING_NODES_TO_SURFACE", n2s_er,
              apply_contact_eroding_nodes_to_surface, true);
  std::vector<KeywordSpec> rest{
      {.name = "*CONTROL_CONTACT",
       .head = {{"Card 1",
                 {R("SLSFAC", "0.1"), R("RWPNAL"), I("ISLCHK", "1"), I("SHLTHK"), I("PENOPT", "1"),
                  I("THKCHG"), I("ORIEN", "1"), I("ENMASS")}},
                {"Card 2",
                 {I("USRSTR"), I("USRFRC"), I("NSBCS"), I("INTERM"), R("XPENE", "4.0"), I("SSTHK"),
                  I("ECDT"), I("TIEDPRJ")},
                 "",
                 true},
                {"Card 3",
                 {R("SFRIC"), R("DFRIC"), R("EDC"), R("VFC"), R("TH"), R("TH_SF"), R("PEN_SF")},
                 "",
                 true},
                {"Card 4",
                 {I("IGNORE"), I("FRCENG"), I("SKIPRWG"), I("OUTSEG"), I("SPOTSTP"), I("SPOTDEL"),
                  R("SPOTHIN")},
                 "",
                 true}},
       .ignore_extra = true,
       .summary =
           "Defaults for every contact (model.control.contact_*): SLSFAC (0 means 0.1), "
           "NSBCS, XPENE (0 means 4), IGNORE, SHLTHK (stored only), SSTHK (0: single-surface "
           "contacts limit a shell's contact thickness to 0.4 x the element's shortest "
           "edge, unless SST or *PART_CONTACT OPTT give it; 1: the shell thickness), "
           "and SFRIC, DFRIC, "
           "EDC (used by contacts whose FS and FD are 0, EDC by those whose DC is 0), "
           "PENOPT (0/1: the pair stiffness is the smaller of the segment's and the "
           "node's own; 2: the segment's; 3-5 are taken as 2 with a warning) and ORIEN "
           "(0/1: the part input of non-automatic contacts is reoriented at set-up, "
           "consistently and facing the other side; 2: segment sets too; 3, 4: off). The "
           "other fields are ignored (one warning listing those that differ from their "
           "defaults); cards 5 and later are skipped.",
       .apply = apply_control_contact},
      {.name = "*SET_SEGMENT",
       .options = {"TITLE", "COLLECT"},
       .head = {{"Title (_TITLE)", {Line("TITLE")}, "TITLE"},
                {"Card 1",
                 {I("SID").req(), R("DA1"), R("DA2"), R("DA3"), R("DA4"), S("SOLVER", "MECH")}}},
       .rows = {{"Segment",
                 {I("N1").req(), I("N2").req(), I("N3").req(), I("N4"), R("A1"), R("A2"), R("A3"),
                  R("A4")}}},
       .summary = "Segment set (model.segment_sets): triangles with N4 blank, 0 or equal to N3 "
                  "(stored with N3 twice). DA1-DA4, SOLVER and A1-A4 are ignored. Every node "
                  "must exist. _COLLECT: the cards of one SID, all _COLLECT, make one set.",
       .apply = apply_set_segment},
  };
  out.insert(out.end(), rest.begin(), rest.end());
  return out;
}

} // namespace parcae::io
