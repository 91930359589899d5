// *SET_SEGMENT_ADD and *SET_SEGMENT_INTERSECT: segment sets made of other segment sets, card
// tables beside their apply and resolve functions. The sets may be defined anywhere in the deck,
// also as _ADD or _INTERSECT sets; they are resolved before the contacts read them.
#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "input/card_spec.hpp"
#include "input/deck_apply.hpp"
#include "input/deck_builder.hpp"

namespace parcae::io {

namespace {

using namespace card_fields;

/// A set made of other sets, before they are known.
struct PendingSegmentSet {
  GlobalId sid = 0;
  bool intersect = false;
  std::vector<GlobalId> sets;
  SourceLoc loc;
};

void add_composite(const Block& b, bool intersect, DeckBuilder& d) {
  PendingSegmentSet p;
  p.sid = b.head.id("SID");
  p.intersect = intersect;
  p.loc = b.head.loc("SID");
  if (p.sid <= 0) fail(p.loc, fmt::format("segment set id SID = {} must be positive", p.sid));
  for (const Fields& row : b.rows)
    for (std::string_view f :
         {"DSID1", "DSID2", "DSID3", "DSID4", "DSID5", "DSID6", "DSID7", "DSID8"}) {
      const GlobalId id = row.id(f);
      if (id < 0)
        fail(row.loc(f), fmt::format("segment set {}: {} = {} is not a set", p.sid, f, id));
      if (id > 0) p.sets.push_back(id);
    }
  if (p.sets.empty())
    fail(p.loc, fmt::format("segment set {}: no sets are named (DSID1-DSID8)", p.sid));
  d.claim_id("segment set", p.sid, p.loc);
  SegmentSet s;
  s.id = p.sid;
  s.loc = p.loc;
  d.model.segment_sets.emplace(s.id, std::move(s));
  d.extension<std::vector<PendingSegmentSet>>("composite segment sets").push_back(std::move(p));
}

void apply_set_segment_add(const Block& b, DeckBuilder& d) {
  add_composite(b, false, d);
}
void apply_set_segment_intersect(const Block& b, DeckBuilder& d) {
  add_composite(b, true, d);
}

/// A segment by its nodes in a canonical order (the same face written from another corner or in
/// the other sense is the same segment).
std::array<GlobalId, 4> key_of(const std::array<GlobalId, 4>& n) {
  std::array<GlobalId, 4> k = n;
  std::sort(k.begin(), k.end());
  // a triangle (N4 = N3) written from another corner repeats another node: its distinct nodes
  const auto last = std::unique(k.begin(), k.end());
  std::fill(last, k.end(), 0);
  return k;
}

/// Fills the composite sets in dependency order (a cycle is an error).
void resolve_segment_sets(DeckBuilder& d) {
  auto& pending = d.extension<std::vector<PendingSegmentSet>>("composite segment sets");
  if (pending.empty()) return;
  std::map<GlobalId, const PendingSegmentSet*> by_id;
  for (const auto& p : pending) by_id[p.sid] = &p;
  std::map<GlobalId, int> state; // 1 being resolved, 2 done
  auto resolve = [&](auto&& self, const PendingSegmentSet& p) -> void {
    if (state[p.sid] == 2) return;
    if (state[p.sid] == 1)
      fail(p.loc, fmt::format("segment set {} contains itself (through its _ADD / _INTERSECT "
                              "sets)",
                              p.sid));
    state[p.sid] = 1;
    SegmentSet& out = d.model.segment_sets.at(p.sid);
    std::map<std::array<GlobalId, 4>, int> count; // in how many of the sets a segment is
    bool first = true;
    for (GlobalId id : p.sets) {
      const auto it = d.model.segment_sets.find(id);
      if (it == d.model.segment_sets.end())
        fail(p.loc, fmt::format("segment set {} references segment set {}, which is not defined",
                                p.sid, id));
      if (const auto sub = by_id.find(id); sub != by_id.end()) self(self, *sub->second);
      std::set<std::array<GlobalId, 4>> seen; // a segment counts once per set
      for (const auto& seg : it->second.segments) {
        const auto key = key_of(seg);
        if (!seen.insert(key).second) continue;
        if (++count[key] == 1 && (first || !p.intersect)) out.segments.push_back(seg);
      }
      first = false;
    }
    if (p.intersect) { // keep the segments of the first set that every set has
      const auto n = static_cast<int>(p.sets.size());
      std::erase_if(out.segments, [&](const auto& seg) { return count[key_of(seg)] != n; });
    }
    // (segment lines of a composite set point into other cards: messages name the set's card)
    out.lines.assign(out.segments.size(), p.loc.line);
    state[p.sid] = 2;
  };
  for (const auto& p : pending) resolve(resolve, p);
}

std::vector<KeywordSpec> segment_set_cards() {
  const std::vector<FieldSpec> sets = {I("DSID1"), I("DSID2"), I("DSID3"), I("DSID4"),
                                       I("DSID5"), I("DSID6"), I("DSID7"), I("DSID8")};
  const std::vector<FieldSpec> header = {I("SID").req(), R("DA1"), R("DA2"),
                                         R("DA3"),       R("DA4"), S("SOLVER", "MECH")};
  return {
      {.name = "*SET_SEGMENT_ADD",
       .options = {"TITLE"},
       .head = {title_card(), {"Card 1", header}},
       .rows = {{"Sets", sets}},
       .summary = "Segment set: the union of segment sets DSID1-DSID8 (cards repeated; zero ids "
                  "skipped; a face named twice, from any corner or in either sense, is kept "
                  "once). The sets may be defined anywhere in the deck, also as _ADD or "
                  "_INTERSECT sets (a cycle is an error). DA1-DA4 and SOLVER are ignored.",
       .apply = apply_set_segment_add},
      {.name = "*SET_SEGMENT_INTERSECT",
       .options = {"TITLE"},
       .head = {title_card(), {"Card 1", header}},
       .rows = {{"Sets", sets}},
       .summary = "Segment set: the segments common to segment sets DSID1-DSID8 (a face is the "
                  "same from any corner and in either sense; it is kept as the first set has "
                  "it), as *SET_SEGMENT_ADD.",
       .apply = apply_set_segment_intersect},
  };
}

} // namespace

KeywordFile keywords_segment_sets() {
  return {segment_set_cards(), resolve_segment_sets};
}

} // namespace parcae::io
