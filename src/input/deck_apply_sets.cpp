// Apply functions: node, part, shell and solid sets. List members are checked, and GENERATE
// ranges and GENERAL options resolved, once the whole deck is read (resolve_model).
#include <algorithm>

#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "input/card_number.hpp"
#include "input/deck_apply.hpp"

namespace parcae::io {

namespace {

std::string_view set_kind_name(SetKind kind) {
  switch (kind) {
  case SetKind::Node:
    return "node set";
  case SetKind::Part:
    return "part set";
  case SetKind::Shell:
    return "shell set";
  case SetKind::Solid:
    return "solid set";
  case SetKind::Beam:
    return "beam set";
  }
  return "set";
}

std::map<GlobalId, IdSet>& sets_of(Model& m, SetKind kind) {
  switch (kind) {
  case SetKind::Node:
    return m.node_sets;
  case SetKind::Part:
    return m.part_sets;
  case SetKind::Shell:
    return m.shell_sets;
  case SetKind::Solid:
    return m.solid_sets;
  case SetKind::Beam:
    return m.beam_sets;
  }
  return m.node_sets;
}

IdSet& new_set(const Block& b, SetKind kind, DeckBuilder& d) {
  const Fields& h = b.head;
  IdSet s;
  s.id = h.id("SID");
  s.title = b.has("TITLE") ? h.text("TITLE") : std::string();
  s.loc = h.loc("SID");
  if (s.id <= 0)
    fail(s.loc, fmt::format("{} id SID = {} must be positive", set_kind_name(kind), s.id));
  // _COLLECT: the cards of one id, all _COLLECT, make one set (their members and operations
  // joined); without it a repeated id is an error
  auto& collected = d.extension<std::set<std::pair<int, GlobalId>>>("collected sets");
  const std::pair<int, GlobalId> key{static_cast<int>(kind), s.id};
  if (b.has("COLLECT") && collected.count(key)) return sets_of(d.model, kind).at(s.id);
  d.claim_id(set_kind_name(kind), s.id, s.loc);
  if (b.has("COLLECT")) collected.insert(key);
  return sets_of(d.model, kind).emplace(s.id, std::move(s)).first->second;
}

/// A set's operations (RANGE, options, SET): joined to the ones of an earlier _COLLECT card of
/// the same id.
void push_pending(DeckBuilder& d, PendingGeneralSet&& pending) {
  for (PendingGeneralSet& g : d.general_sets)
    if (g.kind == pending.kind && g.sid == pending.sid) {
      g.ops.insert(g.ops.end(), pending.ops.begin(), pending.ops.end());
      return;
    }
  d.general_sets.push_back(std::move(pending));
}

/// Every nonzero id of every row (list sets).
void apply_list(const Block& b, SetKind kind, DeckBuilder& d) {
  IdSet& set = new_set(b, kind, d);
  auto& src = d.set_member_src[{kind, set.id}];
  for (const Fields& row : b.rows)
    for (const Value& v : row.values()) {
      if (v.i == 0) continue;
      set.members.push_back(v.i);
      src.push_back(d.ref(SourceLoc{row.file(), v.line, {}}));
    }
}

/// B1BEG-B1END ... ranges, kept as RANGE operations.
void apply_generate(const Block& b, SetKind kind, DeckBuilder& d) {
  static constexpr std::string_view beg[] = {"B1BEG", "B2BEG", "B3BEG", "B4BEG"};
  static constexpr std::string_view end[] = {"B1END", "B2END", "B3END", "B4END"};
  const IdSet& set = new_set(b, kind, d);
  PendingGeneralSet pending{kind, set.id, {}};
  for (const Fields& row : b.rows)
    for (int k = 0; k < 4; ++k) {
      const GlobalId lo = row.id(beg[k]), hi = row.id(end[k]);
      if (lo == 0 && hi == 0) continue;
      if (lo <= 0 || hi < lo)
        fail(row.loc(beg[k]), fmt::format("{} {}: range {}-{} = {}-{} is not valid",
                                          set_kind_name(kind), set.id, beg[k], end[k], lo, hi));
      pending.ops.push_back({"RANGE", {lo, hi}, d.ref(row.loc(beg[k]))});
    }
  push_pending(d, std::move(pending));
}

/// OPTION E1..E7 lines; `allowed` lists the supported options.
void apply_general(const Block& b, SetKind kind, std::initializer_list<std::string_view> allowed,
                   DeckBuilder& d) {
  static constexpr std::string_view e[] = {"E1", "E2", "E3", "E4", "E5", "E6", "E7"};
  const IdSet& set = new_set(b, kind, d);
  PendingGeneralSet pending{kind, set.id, {}};
  for (const Fields& row : b.rows) {
    SetOperation op{to_upper(row.text("OPTION")), {}, d.ref(row.loc("OPTION"))};
    if (std::find(allowed.begin(), allowed.end(), op.option) == allowed.end())
      fail(row.loc("OPTION"),
           fmt::format("{} {}: OPTION {} is not supported (supported: {})", set_kind_name(kind),
                       set.id, op.option, fmt::join(allowed, ", ")));
    for (std::string_view f : e)
      if (row.id(f) != 0) op.ids.push_back(row.id(f));
    pending.ops.push_back(std::move(op));
  }
  push_pending(d, std::move(pending));
}

/// *SET_..._ADD: the union of the listed sets of the same kind (an operation SET).
void apply_add(const Block& b, SetKind kind, DeckBuilder& d) {
  const IdSet& set = new_set(b, kind, d);
  PendingGeneralSet pending{kind, set.id, {}};
  for (const Fields& row : b.rows)
    for (const Value& v : row.values())
      if (v.i != 0) pending.ops.push_back({"SET", {v.i}, d.ref(SourceLoc{row.file(), v.line, {}})});
  push_pending(d, std::move(pending));
}

} // namespace

void apply_set_node_add(const Block& b, DeckBuilder& d) {
  apply_add(b, SetKind::Node, d);
}
void apply_set_part_add(const Block& b, DeckBuilder& d) {
  apply_add(b, SetKind::Part, d);
}
void apply_set_shell_add(const Block& b, DeckBuilder& d) {
  apply_add(b, SetKind::Shell, d);
}
void apply_set_solid_add(const Block& b, DeckBuilder& d) {
  apply_add(b, SetKind::Solid, d);
}

void apply_set_node_list(const Block& b, DeckBuilder& d) {
  apply_list(b, SetKind::Node, d);
}
void apply_set_node_generate(const Block& b, DeckBuilder& d) {
  apply_generate(b, SetKind::Node, d);
}
void apply_set_node_general(const Block& b, DeckBuilder& d) {
  apply_general(b, SetKind::Node, {"ALL", "NODE", "PART", "BOX", "DNODE", "DPART", "DBOX"}, d);
}
void apply_set_part_list(const Block& b, DeckBuilder& d) {
  apply_list(b, SetKind::Part, d);
}
void apply_set_part_generate(const Block& b, DeckBuilder& d) {
  apply_generate(b, SetKind::Part, d);
}
void apply_set_part_general(const Block& b, DeckBuilder& d) {
  apply_general(b, SetKind::Part, {"ALL", "PART", "DPART"}, d);
}
void apply_set_shell(const Block& b, DeckBuilder& d) {
  apply_list(b, SetKind::Shell, d);
}
void apply_set_solid(const Block& b, DeckBuilder& d) {
  apply_list(b, SetKind::Solid, d);
}
void apply_set_beam(const Block& b, DeckBuilder& d) {
  apply_list(b, SetKind::Beam, d);
}
void apply_set_beam_generate(const Block& b, DeckBuilder& d) {
  apply_generate(b, SetKind::Beam, d);
}
void apply_set_beam_add(const Block& b, DeckBuilder& d) {
  apply_add(b, SetKind::Beam, d);
}
void apply_set_shell_general(const Block& b, DeckBuilder& d) {
  apply_general(b, SetKind::Shell, {"ALL", "ELEM", "PART", "DELEM", "DPART"}, d);
}
void apply_set_solid_general(const Block& b, DeckBuilder& d) {
  apply_general(b, SetKind::Solid, {"ALL", "ELEM", "PART", "DELEM", "DPART"}, d);
}
void apply_set_beam_general(const Block& b, DeckBuilder& d) {
  apply_general(b, SetKind::Beam, {"ALL", "ELEM", "PART", "DELEM", "DPART"}, d);
}

} // namespace parcae::io
