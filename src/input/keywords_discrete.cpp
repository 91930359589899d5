// Discrete springs and dampers, card tables beside their apply functions: *SECTION_DISCRETE and
// *ELEMENT_DISCRETE. The elements join Model::beams (as LS-DYNA writes them to d3plot) with their
// scale factor S as the area and their OFFSET; their part's material is a spring or damper law
// (*MAT_SPRING_ELASTIC ... in src/materials); the explicit solver runs them as trusses whose force
// comes from the law (fem/truss.hpp).
#include <fmt/format.h>

#include "input/card_spec.hpp"
#include "input/deck_apply.hpp"
#include "input/deck_builder.hpp"

namespace parcae::io {

namespace {

using namespace card_fields;

void apply_section_discrete(const Block& b, DeckBuilder& d) {
  for (const Fields& row : b.rows) {
    Section s;
    s.id = row.id("SECID");
    s.kind = SectionKind::Discrete;
    s.title = b.has("TITLE") ? row.text("TITLE") : std::string();
    s.loc = row.loc("SECID");
    s.elform_loc = s.loc;
    if (s.id <= 0) fail(s.loc, fmt::format("section id SECID = {} must be positive", s.id));
    if (row.real("DRO") != 0)
      fail(row.loc("DRO"), fmt::format("*SECTION_DISCRETE {}: DRO = {}: torsional springs and "
                                       "dampers are not supported (0: translational)",
                                       s.id, row.real("DRO")));
    for (const auto& [field, what] :
         {std::pair<std::string_view, std::string_view>{"KD", "dynamic magnification"},
          {"CL", "clearance"},
          {"FD", "failure deflection"},
          {"CDL", "compressive deflection limit"},
          {"TDL", "tensile deflection limit"}})
      if (row.real(field) != 0)
        fail(row.loc(field), fmt::format("*SECTION_DISCRETE {}: {} = {} ({}) is not supported "
                                         "(leave it 0)",
                                         s.id, field, row.real(field), what));
    d.claim_id("section", s.id, s.loc);
    d.model.sections.push_back(std::move(s));
  }
}

void apply_element_discrete(const Block& b, DeckBuilder& d) {
  for (const Fields& row : b.rows) {
    PendingBeam e;
    e.discrete = true;
    e.id = row.id("EID");
    e.pid = row.id("PID");
    if (e.id <= 0)
      fail(row.loc("EID"), fmt::format("discrete element id EID = {} must be positive", e.id));
    e.nodes = {row.id("N1"), row.id("N2")};
    for (std::string_view f : {"N1", "N2"})
      if (row.id(f) == 0)
        fail(row.loc(f), fmt::format("discrete element {}: {} is blank", e.id, f));
    if (row.id("VID") != 0)
      fail(row.loc("VID"), fmt::format("discrete element {}: VID = {}: orientations "
                                       "(*DEFINE_SD_ORIENTATION) are not supported (0: the "
                                       "element acts along N1-N2)",
                                       e.id, row.id("VID")));
    e.area = row.real("S") != 0 ? row.real("S") : 1.0; // a blank (0) scale factor is 1
    e.offset = row.real("OFFSET");
    e.src = d.ref(row.file(), row.line());
    // beams and discrete elements share Model::beams and its ids (d3plot's beam section)
    d.claim_id("beam element", e.id, e.src, "*ELEMENT_DISCRETE");
    d.beams.push_back(e);
  }
}

std::vector<KeywordSpec> discrete_cards() {
  return {
      {.name = "*SECTION_DISCRETE",
       .options = {"TITLE"},
       .rows = {{"Title (_TITLE)", {Line("TITLE")}, "TITLE"},
                {"Card 1", {I("SECID").req(), R("DRO"), R("KD"), R("V0"), R("CL"), R("FD")}},
                {"Card 2", {R("CDL"), R("TDL")}}},
       .min_rows = 1,
       .summary = "Sections of discrete springs and dampers (*ELEMENT_DISCRETE) with a spring or "
                  "damper law (*MAT_S01 to *MAT_S05). Translational elements (DRO = 0) acting "
                  "along N1-N2. DRO = 1 (torsional) and nonzero KD, CL, FD, CDL, TDL are "
                  "refused at their field; V0 is used only with KD and is ignored.",
       .apply = apply_section_discrete},
      {.name = "*ELEMENT_DISCRETE",
       .rows = {{"Card 1",
                 {I("EID").w(8).req(), I("PID").w(8), I("N1").w(8), I("N2").w(8), I("VID").w(8),
                  R("S", "1.0").w(16), I("PF").w(8), R("OFFSET").w(16)}}},
       .summary = "Discrete springs and dampers between N1 and N2 (in Model::beams, written to "
                  "d3plot as beams). The axial force is S times the law's force of the "
                  "elongation (current length - initial length + OFFSET) and its rate; S blank "
                  "or 0 is 1. They add no mass: their nodes need some (*ELEMENT_MASS, or other "
                  "elements), unless fixed. Their step, 2 / omega (sqrt(1 + xi^2) - xi) with the "
                  "nodes' reduced mass, is fixed at set-up and not mass-scaled. VID (an "
                  "orientation) is refused; PF is ignored.",
       .apply = apply_element_discrete},
  };
}

} // namespace

KeywordFile keywords_discrete() {
  return {discrete_cards(), nullptr};
}

} // namespace parcae::io
