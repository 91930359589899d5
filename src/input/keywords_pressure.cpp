// Pressure loads, each keyword's card table beside its apply function: *LOAD_SEGMENT,
// *LOAD_SEGMENT_SET, *LOAD_SHELL_ELEMENT (and bare *LOAD_SHELL), *LOAD_SHELL_SET. Every one
// becomes Model::segment_loads entries (one per segment) once the deck is read
// (resolve_segment_loads). Positive pressure acts against the segment normal of N1-N2-N3 (the
// shell normal for shells), as in LS-DYNA. The implicit solver applies them as consistent
// nodal forces on the initial geometry; the explicit solver as follower forces through the
// element whose face the segment is (solvers/explicit/pressure_pass.cpp).
#include <fmt/format.h>

#include <unordered_map>

#include "input/card_spec.hpp"
#include "input/deck_apply.hpp"
#include "materials/catalogue.hpp"
#include "mesh/faces.hpp"

namespace parcae::io {

namespace {

using namespace card_fields;

void apply_load_segment(const Block& b, DeckBuilder& d) {
  for (const Fields& row : b.rows) {
    if (row.id("N5") != 0)
      fail(row.loc("N5"),
           fmt::format("N5 = {}: higher-order (8-node) segments are not supported", row.id("N5")));
    SegmentLoad l;
    l.lcid = row.id("LCID");
    l.sf = row.real("SF");
    l.at = row.real("AT");
    l.nodes = {row.id("N1"), row.id("N2"), row.id("N3"), row.id("N4")};
    if (l.nodes[3] == 0) l.nodes[3] = l.nodes[2];
    l.loc = row.loc("LCID");
    d.model.segment_loads.push_back(l);
  }
}

void apply_load_segment_set(const Block& b, DeckBuilder& d) {
  for (const Fields& row : b.rows) {
    SegmentLoad l;
    l.ssid = row.id("SSID");
    l.lcid = row.id("LCID");
    l.sf = row.real("SF");
    l.at = row.real("AT");
    l.loc = row.loc("SSID");
    d.model.segment_loads.push_back(l);
  }
}

void apply_load_shell(const Block& b, DeckBuilder& d, bool is_set) {
  const std::string_view id = is_set ? "ESID" : "EID";
  for (const Fields& row : b.rows)
    d.shell_loads.push_back({.is_set = is_set,
                             .id = row.id(id),
                             .lcid = row.id("LCID"),
                             .sf = row.real("SF"),
                             .at = row.real("AT"),
                             .loc = row.loc(id)});
}

void apply_load_shell_element(const Block& b, DeckBuilder& d) {
  apply_load_shell(b, d, false);
}
void apply_load_shell_set(const Block& b, DeckBuilder& d) {
  apply_load_shell(b, d, true);
}

/// *LOAD_SHELL_ELEMENT / _SET as segment loads on each shell's corner nodes (deck ids).
void expand_shell_loads(DeckBuilder& d) {
  if (d.shell_loads.empty()) return;
  Model& m = d.model;
  std::unordered_map<GlobalId, std::size_t> shell_at;
  for (std::size_t e = 0; e < m.shells.size(); ++e) shell_at.emplace(m.shells.id[e], e);
  for (const PendingShellLoad& pl : d.shell_loads) {
    std::vector<GlobalId> ids;
    if (pl.is_set) {
      const auto it = m.shell_sets.find(pl.id);
      if (it == m.shell_sets.end())
        fail(pl.loc, fmt::format("*LOAD_SHELL_SET references shell set ESID = {}, which is not "
                                 "defined",
                                 pl.id));
      ids = it->second.members;
    } else {
      ids.push_back(pl.id);
    }
    for (GlobalId id : ids) {
      const auto e = shell_at.find(id);
      if (e == shell_at.end())
        fail(pl.loc, fmt::format("{} references shell element {}, which is not defined",
                                 pl.is_set ? "*LOAD_SHELL_SET" : "*LOAD_SHELL_ELEMENT", id));
      SegmentLoad l;
      for (int a = 0; a < 4; ++a)
        l.nodes[static_cast<std::size_t>(a)] =
            m.nodes.id[static_cast<std::size_t>(m.shells.nodes[e->second][a])];
      l.lcid = pl.lcid;
      l.sf = pl.sf;
      l.at = pl.at;
      l.loc = pl.loc;
      m.segment_loads.push_back(l);
    }
  }
}

/// Explicit decks: every segment must be a face of a deformable element (the solver applies
/// the pressure through it); others are refused at their card (dropped with a note under
/// --ignore-unsupported).
void check_explicit_faces(DeckBuilder& d) {
  Model& m = d.model;
  std::vector<std::array<LocalId, 4>> segs;
  segs.reserve(m.segment_loads.size());
  for (const SegmentLoad& l : m.segment_loads) {
    std::array<LocalId, 4> s{};
    for (int a = 0; a < 4; ++a)
      s[static_cast<std::size_t>(a)] = m.node_index(l.nodes[static_cast<std::size_t>(a)]);
    segs.push_back(s);
  }
  const std::vector<FaceElement> faces = find_face_elements(m, segs);
  std::vector<SegmentLoad> kept;
  for (std::size_t s = 0; s < faces.size(); ++s) {
    const SegmentLoad& l = m.segment_loads[s];
    std::string why;
    if (faces[s].family == FaceElement::Family::None) {
      why = fmt::format("pressure segment {} {} {} {} is not a face of any shell or solid "
                        "element: the explicit solver applies a pressure through the element "
                        "it loads",
                        l.nodes[0], l.nodes[1], l.nodes[2], l.nodes[3]);
    } else {
      const bool solid = faces[s].family == FaceElement::Family::Solid;
      const GlobalId pid = solid ? m.solids.part[faces[s].index] : m.shells.part[faces[s].index];
      const Part* part = m.find_part(pid);
      const Material* mat = part ? m.find_material(part->mid) : nullptr;
      if (mat && material_law(mat->kind).rigid)
        why = fmt::format("pressure segment {} {} {} {} lies on {} element {} of part {}, which "
                          "is rigid: pressures on rigid parts are not applied yet",
                          l.nodes[0], l.nodes[1], l.nodes[2], l.nodes[3], solid ? "solid" : "shell",
                          solid ? m.solids.id[faces[s].index] : m.shells.id[faces[s].index], pid);
    }
    if (why.empty()) {
      kept.push_back(l);
      continue;
    }
    if (!d.options.ignore_unsupported) fail(l.loc, why + " (--ignore-unsupported drops it)");
    m.notes.push_back({"*LOAD_SEGMENT", l.loc, false, why + ": dropped"});
  }
  m.segment_loads = std::move(kept);
}

std::vector<KeywordSpec> pressure_cards() {
  return {
      {.name = "*LOAD_SEGMENT",
       .options = {"ID"},
       .head = {{"ID (_ID)", {I("ID"), Line("HEADING")}, "ID"}},
       .rows = {{"Card 1",
                 {I("LCID").req(), R("SF", "1.0"), R("AT"), I("N1").req(), I("N2").req(),
                  I("N3").req(), I("N4"), I("N5")}}},
       .summary = "Pressure SF * curve(t - AT) (0 before AT) on a segment N1-N4 (a triangle when "
                  "N4 is 0 or N3); positive pressure acts against the normal of N1-N2-N3 "
                  "(right-hand rule). Implicit: consistent nodal forces on the initial geometry. "
                  "Explicit: a follower load p A / 4 per corner on the current geometry, applied "
                  "through the shell or solid whose face the segment is (a segment that is no "
                  "deformable element's face is refused). N5-N8 (higher-order segments) are "
                  "refused.",
       .apply = apply_load_segment},
      {.name = "*LOAD_SEGMENT_SET",
       .options = {"ID"},
       .head = {{"ID (_ID)", {I("ID"), Line("HEADING")}, "ID"}},
       .rows = {{"Card 1", {I("SSID").req(), I("LCID").req(), R("SF", "1.0"), R("AT")}}},
       .summary = "As *LOAD_SEGMENT on every segment of a *SET_SEGMENT.",
       .apply = apply_load_segment_set},
      {.name = "*LOAD_SHELL_ELEMENT",
       .aliases = {"*LOAD_SHELL"},
       .options = {"ID"},
       .head = {{"ID (_ID)", {I("ID"), Line("HEADING")}, "ID"}},
       .rows = {{"Card 1", {I("EID").req(), I("LCID").req(), R("SF", "1.0"), R("AT")}}},
       .summary = "As *LOAD_SEGMENT on the corner nodes of shell EID: positive pressure acts "
                  "against the shell normal.",
       .apply = apply_load_shell_element},
      {.name = "*LOAD_SHELL_SET",
       .options = {"ID"},
       .head = {{"ID (_ID)", {I("ID"), Line("HEADING")}, "ID"}},
       .rows = {{"Card 1", {I("ESID").req(), I("LCID").req(), R("SF", "1.0"), R("AT")}}},
       .summary = "As *LOAD_SHELL_ELEMENT on every shell of a *SET_SHELL.",
       .apply = apply_load_shell_set},
  };
}

/// Set and shell loads expanded to segments, every segment's nodes and curve checked; in an
/// explicit deck every segment must be a face of a deformable shell or solid.
void resolve_segment_loads(DeckBuilder& d) {
  Model& m = d.model;
  expand_shell_loads(d);
  std::vector<SegmentLoad> out;
  for (const SegmentLoad& l : m.segment_loads) {
    if (!d.is_curve(l.lcid))
      fail(l.loc,
           fmt::format("pressure load references curve LCID = {}, which is not defined", l.lcid));
    if (l.ssid == 0) {
      out.push_back(l);
      continue;
    }
    const auto it = m.segment_sets.find(l.ssid);
    if (it == m.segment_sets.end())
      fail(l.loc, fmt::format("*LOAD_SEGMENT_SET references segment set SSID = {}, which is not "
                              "defined",
                              l.ssid));
    for (const auto& seg : it->second.segments) {
      SegmentLoad s = l;
      s.ssid = 0;
      s.nodes = seg;
      if (s.nodes[3] == 0) s.nodes[3] = s.nodes[2];
      out.push_back(s);
    }
  }
  for (const SegmentLoad& l : out)
    for (GlobalId n : l.nodes)
      if (m.node_index(n) == kInvalidLocal)
        fail(l.loc,
             fmt::format("pressure load segment references node {}, which is not defined", n));
  m.segment_loads = std::move(out);
  if (m.control.implicit.imflag != 1 && !m.segment_loads.empty()) check_explicit_faces(d);
}

} // namespace

KeywordFile keywords_pressure() {
  return {pressure_cards(), resolve_segment_loads};
}

} // namespace parcae::io
