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
                     "the truss only (ELFORM 3: axial force, area A)",
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

} // namespace parcae::io
