// Layered shells and shells' own material angles and reference surfaces: *PART_COMPOSITE (a
// part's layers), *ELEMENT_SHELL_COMPOSITE (an element's layers; _OFFSET, _BETA, _THICKNESS
// variants), *ELEMENT_SHELL_BETA and *ELEMENT_SHELL_OFFSET. Each layer is one integration point
// at its middle, with its own material and angle; the explicit solver runs them
// (solvers/common/shell_layup.cpp), the implicit solver refuses them.
#include <cmath>
#include <numeric>

#include <fmt/format.h>

#include "input/card_spec.hpp"
#include "input/deck_apply.hpp"

namespace parcae::io {

namespace {

using namespace card_fields;

const std::vector<FieldSpec> kShellNodes =
    ints({"N1", "N2", "N3", "N4", "N5", "N6", "N7", "N8"}, 8);

CardSpec element_card() {
  return {"Element", join({I("EID").req().w(8), I("PID").req().w(8)}, kShellNodes)};
}
CardSpec thickness_card() {
  return {"Thickness (_THICKNESS, _BETA)", reals({"THIC1", "THIC2", "THIC3", "THIC4", "BETA"}, 16)};
}
CardSpec offset_card() {
  return {"Offset (_OFFSET)", reals({"OFFSET"}, 16)};
}

/// The variant of an *ELEMENT_SHELL keyword: which of the optional cards it has.
struct ShellVariant {
  bool thickness = false, beta = false, offset = false, composite = false;
};

ShellVariant variant_of(const Block& b) {
  const std::string_view n = b.spec->name;
  auto has = [&](std::string_view w) { return n.find(w) != std::string_view::npos; };
  return {has("_THICKNESS"), has("_BETA"), has("_OFFSET"), has("_COMPOSITE")};
}

/// The element card and the thickness / offset cards of one element, its layup started.
PendingShell read_element(const Fields& f, const ShellVariant& v, ShellLayup& lay, DeckBuilder& d) {
  PendingShell s = read_shell_card(f, d);
  lay.loc = f.loc("EID");
  if (v.thickness || v.beta) {
    static constexpr std::string_view thic[] = {"THIC1", "THIC2", "THIC3", "THIC4"};
    for (int k = 0; k < 4; ++k) {
      s.thickness[k] = f.real(thic[k]);
      if (s.thickness[k] < 0)
        fail(f.loc(thic[k]), fmt::format("shell element {}: negative thickness {} = {}", s.id,
                                         thic[k], s.thickness[k]));
    }
    if (v.beta) {
      lay.has_beta = true;
      lay.beta = f.real("BETA");
    } else if (f.real("BETA") != 0 && !d.parameter_pass) {
      d.model.notes.push_back({std::string(f.file()), f.loc("BETA"), false,
                               fmt::format("shell element {}: BETA = {} is read with the _BETA "
                                           "option only (ignored)",
                                           s.id, f.real("BETA"))});
    }
  }
  if (v.offset) {
    lay.has_offset = true;
    lay.offset = f.real("OFFSET");
  }
  return s;
}

void apply_element_shell_extra(const Block& b, DeckBuilder& d) {
  const ShellVariant v = variant_of(b);
  for (const Fields& row : b.rows) {
    ShellLayup lay;
    PendingShell s = read_element(row, v, lay, d);
    s.layup = static_cast<std::int32_t>(d.model.shell_layups.size());
    d.model.shell_layups.push_back(std::move(lay));
    d.shells.push_back(s);
  }
}

/// Layer cards: MIDi, THICKi, Bi (and an unused or thermal field) twice per line. A layer with
/// MID and THICK blank ends the list (a half-filled last line).
void read_layers(const Block& b, std::string_view who, bool part, ShellLayup& lay) {
  bool ended = false; // a blank MID and THICK end the list
  for (const Fields& row : b.rows)
    for (int k = 1; k <= 2; ++k) {
      if (const Value* u = row.find(fmt::format("UNUSED{}", k)); u && u->i != 0)
        fail(row.loc(fmt::format("UNUSED{}", k)),
             fmt::format("{}: the layer card has a value in its unused field {} (a second "
                         "element card? parcae reads one element per *ELEMENT_SHELL_..."
                         "COMPOSITE keyword, its layer cards up to the next keyword)",
                         who, 4 * k));
      const std::string mid = fmt::format("MID{}", k), th = fmt::format("THICK{}", k),
                        ang = fmt::format("B{}", k);
      if (row.id(mid) == 0 && row.real(th) == 0 && row.real(ang) == 0) {
        ended = true;
        continue;
      }
      if (ended)
        fail(row.loc(mid), fmt::format("{}: a layer after a blank one (a blank MID and THICK end "
                                       "the layers)",
                                       who));
      if (row.id(mid) < 0 || (part && row.id(mid) == 0))
        fail(row.loc(mid), fmt::format("{}: {} = {} must be a material id", who, mid, row.id(mid)));
      if (!(row.real(th) > 0))
        fail(row.loc(th), fmt::format("{}: layer {} has thickness {} = {} (must be > 0)", who,
                                      lay.thick.size() + 1, th, row.real(th)));
      lay.mid.push_back(row.id(mid));
      lay.thick.push_back(row.real(th));
      lay.angle.push_back(row.real(ang));
    }
  if (lay.mid.empty()) fail(b.loc, fmt::format("{}: no layer (MID1, THICK1 are blank)", who));
}

void apply_element_shell_composite(const Block& b, DeckBuilder& d) {
  const ShellVariant v = variant_of(b);
  ShellLayup lay;
  PendingShell s = read_element(b.head, v, lay, d);
  read_layers(b, fmt::format("composite shell element {}", s.id), false, lay);
  // the element's thickness is its layers' (nodal thicknesses, if given, are replaced)
  const Real t = std::accumulate(lay.thick.begin(), lay.thick.end(), 0.0);
  s.thickness = {t, t, t, t};
  s.layup = static_cast<std::int32_t>(d.model.shell_layups.size());
  d.model.shell_layups.push_back(std::move(lay));
  d.shells.push_back(s);
}

void apply_part_composite(const Block& b, DeckBuilder& d) {
  const Fields& h = b.head;
  Part p;
  p.id = h.id("PID");
  p.title = h.text("HEADING");
  p.loc = h.loc("PID");
  if (p.id <= 0)
    fail(h.loc("PID"), fmt::format("*PART_COMPOSITE: PID = {} must be positive", p.id));
  p.hgid = h.id("HGID");
  ShellLayup lay;
  lay.loc = p.loc;
  const std::string who = fmt::format("*PART_COMPOSITE {}", p.id);
  if (b.spec->name == "*PART_COMPOSITE_LONG") { // one layer per card, with its ply id
    bool ended = false;
    for (const Fields& row : b.rows) {
      if (row.id("MID") == 0 && row.real("THICK") == 0) {
        ended = true;
        continue;
      }
      if (ended) fail(row.loc("MID"), fmt::format("{}: a layer after a blank one", who));
      if (row.id("MID") <= 0)
        fail(row.loc("MID"), fmt::format("{}: MID = {} must be a material id", who, row.id("MID")));
      if (!(row.real("THICK") > 0))
        fail(row.loc("THICK"),
             fmt::format("{}: THICK = {} must be positive", who, row.real("THICK")));
      if (row.real("SHRFAC") != 0 && row.real("SHRFAC") != 1)
        fail(row.loc("SHRFAC"), fmt::format("{}: SHRFAC = {} (a layer's transverse shear "
                                            "factor) is not supported",
                                            who, row.real("SHRFAC")));
      lay.mid.push_back(row.id("MID"));
      lay.thick.push_back(row.real("THICK"));
      lay.angle.push_back(row.real("B"));
    }
    if (lay.mid.empty()) fail(b.loc, fmt::format("{}: no layer", who));
  } else {
    read_layers(b, who, true, lay);
  }
  if (b.has("CONTACT")) read_part_contact(b, h, who, !d.parameter_pass, p, d); // *PART_CONTACT's
  if (h.real("MAREA") != 0)
    fail(h.loc("MAREA"), fmt::format("*PART_COMPOSITE {}: MAREA = {} (non-structural mass) is "
                                     "not supported",
                                     p.id, h.real("MAREA")));
  // The part's own section: its form, shear factor and reference surface, its thickness the
  // layers' (negative id: never one of the deck's sections).
  Section sec;
  sec.id = -p.id;
  sec.kind = SectionKind::Shell;
  sec.title = fmt::format("*PART_COMPOSITE {}", p.id);
  sec.elform = h.integer("ELFORM");
  sec.shrf = h.real("SHRF");
  sec.nip = 1; // not used: every element takes the part's layers
  sec.nloc = h.real("NLOC");
  const Real t = std::accumulate(lay.thick.begin(), lay.thick.end(), 0.0);
  sec.t = {t, t, t, t};
  sec.loc = h.loc("ELFORM");
  sec.elform_loc = h.loc("ELFORM");
  p.secid = sec.id;
  p.mid = lay.mid.front();
  p.layup = static_cast<std::int32_t>(d.model.shell_layups.size());
  d.model.shell_layups.push_back(std::move(lay));
  d.claim_id("part", p.id, p.loc);
  d.model.sections.push_back(std::move(sec));
  d.model.parts.push_back(std::move(p));
}

void apply_integration_shell(const Block& b, DeckBuilder& d) {
  const Fields& h = b.head;
  IntegrationShell r;
  r.id = h.id("IRID");
  r.loc = h.loc("IRID");
  if (r.id <= 0)
    fail(h.loc("IRID"), fmt::format("*INTEGRATION_SHELL: IRID = {} must be positive", r.id));
  const int nip = h.integer("NIP");
  if (nip < 1 || nip > kMaxShellLayers)
    fail(h.loc("NIP"),
         fmt::format("*INTEGRATION_SHELL {}: NIP = {} must be 1-{}", r.id, nip, kMaxShellLayers));
  const int esop = h.integer("ESOP");
  if (esop != 0 && esop != 1)
    fail(h.loc("ESOP"), fmt::format("*INTEGRATION_SHELL {}: ESOP = {} must be 0 (points given) or "
                                    "1 (equally spaced)",
                                    r.id, esop));
  r.failopt = h.integer("FAILOPT");
  if (r.failopt != 0 && r.failopt != 1)
    fail(h.loc("FAILOPT"),
         fmt::format("*INTEGRATION_SHELL {}: FAILOPT = {} must be 0 or 1", r.id, r.failopt));
  if (esop == 1) { // NIP layers of equal thickness, each point at its middle; point cards,
                   // if given, only lend their PIDs (S and WF are not read)
    if (!b.rows.empty() && static_cast<int>(b.rows.size()) != nip)
      fail(b.loc, fmt::format("*INTEGRATION_SHELL {}: NIP = {} but {} point cards are given (ESOP "
                              "= 1: none, or NIP for their PIDs)",
                              r.id, nip, b.rows.size()));
    for (int i = 0; i < nip; ++i) {
      r.s.push_back(-1.0 + (2.0 * i + 1.0) / nip);
      r.wf.push_back(1.0 / nip);
      const GlobalId pid = b.rows.empty() ? 0 : b.rows[static_cast<std::size_t>(i)].id("PID");
      if (pid < 0)
        fail(b.rows[static_cast<std::size_t>(i)].loc("PID"),
             fmt::format("*INTEGRATION_SHELL {}: PID = {} must not be negative", r.id, pid));
      r.pid.push_back(pid);
    }
  } else {
    if (static_cast<int>(b.rows.size()) != nip)
      fail(b.loc, fmt::format("*INTEGRATION_SHELL {}: NIP = {} but {} point cards are given", r.id,
                              nip, b.rows.size()));
    Real sum = 0;
    for (const Fields& row : b.rows) {
      const Real s = row.real("S"), wf = row.real("WF");
      if (s < -1 || s > 1)
        fail(row.loc("S"),
             fmt::format("*INTEGRATION_SHELL {}: S = {} must lie in [-1, 1]", r.id, s));
      if (!(wf > 0))
        fail(row.loc("WF"),
             fmt::format("*INTEGRATION_SHELL {}: WF = {} must be positive", r.id, wf));
      if (row.id("PID") < 0)
        fail(row.loc("PID"), fmt::format("*INTEGRATION_SHELL {}: PID = {} must not be negative",
                                         r.id, row.id("PID")));
      r.s.push_back(s);
      r.wf.push_back(wf);
      r.pid.push_back(row.id("PID"));
      sum += wf;
    }
    if (std::abs(sum - 1) > 1e-3 && !d.parameter_pass)
      d.model.notes.push_back({"*INTEGRATION_SHELL", r.loc, false,
                               fmt::format("*INTEGRATION_SHELL {}: the weights WF sum to {} (the "
                                           "shares of the thickness normally sum to 1)",
                                           r.id, sum)});
  }
  for (const auto& o : d.model.integration_shells)
    if (o.id == r.id)
      fail(r.loc, fmt::format("*INTEGRATION_SHELL {} is defined twice (first at {}:{})", r.id,
                              o.loc.file, o.loc.line));
  d.model.integration_shells.push_back(std::move(r));
}

/// Two layers per card; the fourth field of each is TMID on *PART_COMPOSITE and unused on the
/// elements.
CardSpec layer_card(bool part) {
  return {"Layers (two per card)",
          {I("MID1"), R("THICK1"), R("B1"), I(part ? "TMID1" : "UNUSED1"), I("MID2"), R("THICK2"),
           R("B2"), I(part ? "TMID2" : "UNUSED2")}};
}

std::string_view composite_summary() {
  return "A shell (one element per keyword, as LS-PrePost and Workbench write them; the "
         "layer cards run to the next keyword) whose layers are given on the element: MIDi, "
         "THICKi, Bi two per card (a blank MID and THICK end the list). "
         "Each layer is one through-thickness integration point at its middle, bottom to top, "
         "with its material (laws with material axes turn by the layer's angle B from the "
         "element's axes, node 1 to 2, plus the element's BETA or else the material's own); the "
         "element's thickness is the sum of its layers'. _OFFSET: OFFSET moves the reference "
         "surface from the nodes along the normal (bending and membrane couple through it). "
         "_BETA: BETA replaces the materials' own angle. _THICKNESS's nodal thicknesses are "
         "replaced by the layers'. The part's section gives the form (ELFORM 2, 16 run as 2), "
         "SHRF and the hourglass control; its NIP and T1-T4 are not used. The part's MID gives "
         "the hourglass stiffness and the ISDO 2 Poisson ratio; with ISTUPD the offset scales with "
         "the thickness. Explicit solver only.";
}

KeywordSpec composite_spec(std::string_view name, bool thickness, bool offset) {
  KeywordSpec k{.name = name, .head = {element_card()}};
  if (thickness) k.head.push_back(thickness_card());
  if (offset) k.head.push_back(offset_card());
  k.rows = {layer_card(false)};
  k.min_rows = 1;
  k.summary = composite_summary();
  k.apply = apply_element_shell_composite;
  return k;
}

KeywordSpec extra_spec(std::string_view name, bool thickness, bool offset,
                       std::string_view summary) {
  KeywordSpec k{.name = name, .rows = {element_card()}};
  if (thickness) k.rows.push_back(thickness_card());
  if (offset) k.rows.push_back(offset_card());
  k.stream_rows = true;
  k.summary = summary;
  k.apply = apply_element_shell_extra;
  return k;
}

KeywordSpec part_composite_spec(bool long_layers) {
  KeywordSpec k{
      .name = long_layers ? "*PART_COMPOSITE_LONG" : "*PART_COMPOSITE",
      .options = {"CONTACT"},
      .head = {{"Heading", {Line("HEADING")}},
               {"Card 2",
                {I("PID").req(), I("ELFORM", "2"), R("SHRF", "1.0"), R("NLOC"), R("MAREA"),
                 I("HGID"), I("ADPOPT"), I("THSHEL")}},
               {"Contact (_CONTACT)",
                {R("FS"), R("FD"), R("DC"), R("VC"), R("OPTT"), R("SFT"), R("SSF"), R("CPARM8")},
                "CONTACT"}},
      .min_rows = 1,
      .apply = apply_part_composite};
  k.rows = {long_layers
                ? CardSpec{"Layer (one per card)",
                           {I("MID"), R("THICK"), R("B"), I("TMID"), I("PLYID"), R("SHRFAC")}}
                : layer_card(true)};
  k.summary =
      long_layers
          ? "*PART_COMPOSITE with one layer per card: MID, THICK, B as there; TMID and PLYID (a "
            "ply id for output) are not used; SHRFAC other than 0 and 1 is refused."
          : "A shell part whose layers are given on the part (no *SECTION_SHELL): ELFORM (2; 16 "
            "runs as 2), SHRF, NLOC (the reference surface: 1 top, -1 bottom), HGID; then MIDi, "
            "THICKi, Bi two per card (TMIDi, the thermal material, is not used; a blank MID and "
            "THICK end the list). Each layer is one through-thickness integration point at its "
            "middle, bottom to top, with its own material and angle (laws with material axes turn "
            "by Bi plus the element's BETA or else the material's own); the part's thickness is "
            "the sum of the layers' (elements with nodal thicknesses keep the layers' fractions). "
            "The first layer's material gives the hourglass stiffness. `_CONTACT`: OPTT is used "
            "as *PART_CONTACT's, the other fields are noted and ignored. MAREA is refused; ADPOPT "
            "and THSHEL are ignored. Explicit solver only.";
  return k;
}

std::vector<KeywordSpec> composite_cards() {
  constexpr std::string_view beta =
      "Shells with their own material angle: BETA (degrees) replaces the material's for the "
      "laws with material axes (*MAT_002, 034, 054, 058), added to the section's ICOMP angles; "
      "THIC1-THIC4 as in _THICKNESS (zero: the section's). Explicit solver only.";
  constexpr std::string_view offset =
      "Shells whose reference surface lies OFFSET from the nodes along the normal: the "
      "through-thickness points move with it, so membrane and bending couple (an eccentric "
      "stiffener or skin). Contact still sees the nodal surface. Explicit solver only.";
  std::vector<KeywordSpec> out = {
      extra_spec("*ELEMENT_SHELL_BETA", true, false, beta),
      extra_spec("*ELEMENT_SHELL_BETA_OFFSET", true, true, beta),
      extra_spec("*ELEMENT_SHELL_OFFSET", false, true, offset),
      extra_spec("*ELEMENT_SHELL_THICKNESS_OFFSET", true, true, offset),
      composite_spec("*ELEMENT_SHELL_COMPOSITE", false, false),
      composite_spec("*ELEMENT_SHELL_OFFSET_COMPOSITE", false, true),
      composite_spec("*ELEMENT_SHELL_BETA_COMPOSITE", true, false),
      composite_spec("*ELEMENT_SHELL_BETA_OFFSET_COMPOSITE", true, true),
      composite_spec("*ELEMENT_SHELL_THICKNESS_COMPOSITE", true, false),
      composite_spec("*ELEMENT_SHELL_THICKNESS_OFFSET_COMPOSITE", true, true),
      {.name = "*INTEGRATION_SHELL",
       .head = {{"Card 1", {I("IRID").req(), I("NIP").req(), I("ESOP"), I("FAILOPT")}}},
       .rows = {{"Point (ESOP = 0)", {R("S"), R("WF"), I("PID")}}},
       .summary = "A user through-thickness rule for *SECTION_SHELL QR/IRID = -IRID: NIP points "
                  "(up to 64) at S in [-1, 1] (bottom to top) with weights WF, their shares of "
                  "the thickness (a note when they do not sum to 1), and each its part PID "
                  "whose material it takes (0: the element's; the element's section and angles "
                  "otherwise); ESOP = 1: NIP layers of equal thickness, each point at its "
                  "middle (point cards, if given, only lend their PIDs). The shell's density is "
                  "the points' "
                  "weighted average. FAILOPT 0: the "
                  "shell erodes when its points whose laws can fail have failed; 1: when all "
                  "have. Explicit solver only.",
       .apply = apply_integration_shell},
      part_composite_spec(false),
      part_composite_spec(true),
  };
  return out;
}

} // namespace

KeywordFile keywords_composite() {
  return {composite_cards(), nullptr};
}

} // namespace parcae::io
