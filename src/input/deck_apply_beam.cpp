// Apply functions of the beam keywords (card tables in card_tables_beam.cpp).
#include <fmt/format.h>

#include "input/deck_apply.hpp"

namespace parcae::io {

namespace {

std::string_view beam_formulation_name(int elform) {
  switch (elform) {
  case 1:
    return "Hughes-Liu integrated beam";
  case 2:
    return "Belytschko-Schwer resultant beam";
  case 3:
    return "truss";
  case 4:
    return "Belytschko-Schwer full cross-section integration";
  case 5:
    return "Belytschko-Schwer tubular beam";
  case 6:
    return "discrete beam/cable";
  case 7:
    return "2D plane strain shell element";
  case 8:
    return "2D axisymmetric shell element";
  case 9:
    return "spot weld beam";
  case 11:
    return "integrated warped beam";
  case 12:
    return "resultant warped beam";
  case 13:
    return "small displacement linear Timoshenko beam";
  case 14:
    return "elastic beam with an arbitrary cross section";
  default:
    return "unknown formulation";
  }
}

} // namespace

std::string beam_formulation_message(const Section& s, GlobalId pid) {
  return fmt::format("*SECTION_BEAM {} (part {}): ELFORM {} ({}) is not supported: parcae has "
                     "the truss (ELFORM 3: axial force, area A) and the integrated beams "
                     "ELFORM 1 (Hughes-Liu) and 9 (spot weld beam)",
                     s.id, pid, s.elform, beam_formulation_name(s.elform));
}

void apply_section_beam(const Block& b, DeckBuilder& d) {
  for (const Fields& row : b.rows) {
    Section s;
    s.id = row.id("SECID");
    s.kind = SectionKind::Beam;
    s.title = b.has("TITLE") ? row.text("TITLE") : std::string();
    s.elform = row.integer("ELFORM");
    s.loc = row.loc("SECID");
    s.elform_loc = row.loc("ELFORM");
    if (s.id <= 0) fail(s.loc, fmt::format("section id SECID = {} must be positive", s.id));
    s.cst = row.integer("CST");
    s.shrf = row.real("SHRF");
    s.nsm = row.real("NSM");
    if (s.nsm < 0)
      fail(row.loc("NSM"), fmt::format("*SECTION_BEAM {}: negative NSM = {}", s.id, s.nsm));
    if (s.elform == 3) {
      s.area = row.real("A");
      if (s.area < 0)
        fail(row.loc("A"), fmt::format("*SECTION_BEAM {}: negative area A = {}", s.id, s.area));
    }
    if (s.elform == 1 || s.elform == 9) {
      s.qr_irid = row.integer("QR/IRID");
      s.ts1 = row.real("TS1");
      s.ts2 = row.real("TS2");
      s.tt1 = row.real("TT1");
      s.tt2 = row.real("TT2");
      if (s.qr_irid < 0 || s.qr_irid > 5)
        fail(row.loc("QR/IRID"),
             fmt::format("*SECTION_BEAM {}: QR = {} is not supported (1: one point, 2: 2x2 "
                         "Gauss, 3: 3x3 Gauss, 4: 3x3 Lobatto, 5: 4x4 Gauss; user-defined rules "
                         "QR < 0 are not available)",
                         s.id, s.qr_irid));
      if (s.cst != 0 && s.cst != 1)
        fail(row.loc("CST"), fmt::format("*SECTION_BEAM {}: CST = {} is not supported (0: "
                                         "rectangular, 1: tubular)",
                                         s.id, s.cst));
      for (std::string_view f : {"TS1", "TS2", "TT1", "TT2"})
        if (row.real(f) < 0)
          fail(row.loc(f), fmt::format("*SECTION_BEAM {}: negative {} = {}", s.id, f, row.real(f)));
      if (!(s.ts1 > 0))
        fail(row.loc("TS1"), fmt::format("*SECTION_BEAM {}: TS1 = {} must be positive "
                                         "(ELFORM {})",
                                         s.id, s.ts1, s.elform));
      if (s.cst == 0 && !(s.tt1 > 0))
        fail(row.loc("TT1"), fmt::format("*SECTION_BEAM {}: TT1 = {} must be positive for a "
                                         "rectangular section (CST 0)",
                                         s.id, s.tt1));
      if (s.cst == 1 && !(s.tt1 < s.ts1 && (s.tt2 == 0 || s.tt2 < (s.ts2 > 0 ? s.ts2 : s.ts1))))
        fail(row.loc("TT1"), fmt::format("*SECTION_BEAM {}: the inner diameter TT must be "
                                         "smaller than the outer TS (CST 1)",
                                         s.id));
      if (s.elform == 1)
        for (std::string_view f : {"NSLOC/PRINT", "NTLOC"})
          if (row.real(f) != 0)
            fail(row.loc(f), fmt::format("*SECTION_BEAM {}: {} = {}: offset reference axes are "
                                         "not supported",
                                         s.id, f == "NTLOC" ? "NTLOC" : "NSLOC", row.real(f)));
    }
    d.claim_id("section", s.id, s.loc);
    d.model.sections.push_back(std::move(s));
  }
}

void apply_element_beam(const Block& b, DeckBuilder& d) {
  for (std::string_view opt : {"SCALAR", "SECTION", "PID", "WARPAGE", "ELBOW"})
    if (b.has(opt))
      fail(b.rows.empty() ? SourceLoc{} : b.rows.front().loc(),
           fmt::format("*ELEMENT_BEAM_{}: not supported (parcae has trusses: *ELEMENT_BEAM, "
                       "_THICKNESS, _OFFSET, _ORIENTATION)",
                       opt));
  for (const Fields& row : b.rows) {
    PendingBeam e;
    e.id = row.id("EID");
    e.pid = row.id("PID");
    if (e.id <= 0)
      fail(row.loc("EID"), fmt::format("beam element id EID = {} must be positive", e.id));
    e.nodes = {row.id("N1"), row.id("N2")};
    for (std::string_view f : {"N1", "N2"})
      if (row.id(f) == 0) fail(row.loc(f), fmt::format("beam element {}: {} is blank", e.id, f));
    e.n3 = row.id("N3");
    for (std::string_view f : {"RT1", "RR1", "RT2", "RR2"})
      if (e.unsupported_field.empty() && row.integer(f) != 0)
        e.unsupported_field = fmt::format("{} = {} (releases)", f, row.integer(f));
    if (b.has("ORIENTATION")) e.orientation = {row.real("VX"), row.real("VY"), row.real("VZ")};
    if (b.has("THICKNESS")) {
      e.area = row.real("PARM1");
      if (e.area < 0)
        fail(row.loc("PARM1"),
             fmt::format("beam element {}: negative area PARM1 = {}", e.id, e.area));
    }
    if (b.has("OFFSET"))
      for (std::string_view f : {"WX1", "WY1", "WZ1", "WX2", "WY2", "WZ2"})
        if (row.real(f) != 0)
          fail(row.loc(f), fmt::format("beam element {}: offset {} = {}: beam offsets are not "
                                       "supported (trusses join their nodes)",
                                       e.id, f, row.real(f)));
    e.src = d.ref(row.file(), row.line());
    d.claim_id("beam element", e.id, e.src, "*ELEMENT_BEAM");
    d.beams.push_back(e);
  }
}

void apply_initial_axial_force_beam(const Block& b, DeckBuilder& d) {
  for (const Fields& row : b.rows) {
    InitialAxialForceBeam af;
    af.bsid = row.id("BSID");
    af.lcid = row.id("LCID");
    af.scale = row.real("SCALE");
    af.kbend = row.integer("KBEND");
    af.loc = row.loc("BSID");
    if (af.bsid <= 0) fail(af.loc, fmt::format("beam set BSID = {} must be positive", af.bsid));
    if (af.lcid <= 0)
      fail(row.loc("LCID"), fmt::format("load curve LCID = {} must be positive (the axial force "
                                        "follows it)",
                                        af.lcid));
    if (af.kbend == 2)
      fail(row.loc("KBEND"), "KBEND = 2 (several beams lined up with a prescribed axial force) is "
                             "not supported (0 and 1 are)");
    if (af.kbend != 0 && af.kbend != 1)
      fail(row.loc("KBEND"), fmt::format("KBEND = {} must be 0, 1 or 2", af.kbend));
    d.model.axial_force_beams.push_back(af);
  }
}

} // namespace parcae::io
