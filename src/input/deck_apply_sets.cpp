// Apply functions: node, part, shell and solid sets. List members are checked, and GENERATE
// ranges and GENERAL options resolved, once the whole deck is read (resolve_model).
#include <algorithm>

#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "input/card_number.hpp"
#include "input/deck_apply.hpp"
#include "input/deck_resolve_sets.hpp"

namespace parcae::io {

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
  case SetKind::Discrete:
    return "discrete set";
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
  case SetKind::Discrete:
    return m.discrete_sets;
  }
  return m.node_sets;
}

namespace {

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

/// B1BEG-B1END ... ranges, or (_GENERATE_INCREMENT) one BBEG BEND INCR range per card, kept as
/// RANGE operations.
void apply_generate(const Block& b, SetKind kind, DeckBuilder& d) {
  static constexpr std::string_view beg[] = {"B1BEG", "B2BEG", "B3BEG", "B4BEG"};
  static constexpr std::string_view end[] = {"B1END", "B2END", "B3END", "B4END"};
  const IdSet& set = new_set(b, kind, d);
  PendingGeneralSet pending{kind, set.id, {}};
  auto add = [&](const Fields& row, std::string_view fb, std::string_view fe, GlobalId inc) {
    const GlobalId lo = row.id(fb), hi = row.id(fe);
    if (lo == 0 && hi == 0) return;
    if (lo <= 0 || hi < lo || inc <= 0)
      fail(row.loc(fb),
           fmt::format("{} {}: range {}-{} = {}-{}{} is not valid", set_kind_name(kind), set.id, fb,
                       fe, lo, hi, inc != 1 ? fmt::format(" by {}", inc) : ""));
    pending.ops.push_back({"RANGE", {lo, hi, inc}, d.ref(row.loc(fb))});
  };
  for (const Fields& row : b.rows) {
    if (row.find("BBEG") != nullptr) { // _GENERATE_INCREMENT (a blank INCR is 1)
      add(row, "BBEG", "BEND", row.blank("INCR") || row.id("INCR") == 0 ? 1 : row.id("INCR"));
      continue;
    }
    for (int k = 0; k < 4; ++k) add(row, beg[k], end[k], 1);
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

/// *SET_..._ADD (op SET, one per set: the union) or _INTERSECT (op INTERSECT: the members in
/// every listed set) of sets of the same kind.
void apply_combine(const Block& b, SetKind kind, std::string_view op, DeckBuilder& d) {
  const IdSet& set = new_set(b, kind, d);
  PendingGeneralSet pending{kind, set.id, {}};
  SetOperation all{std::string(op), {}, d.ref(b.head.loc("SID"))};
  for (const Fields& row : b.rows)
    for (const Value& v : row.values())
      if (v.i != 0) {
        if (op == "SET")
          pending.ops.push_back({"SET", {v.i}, d.ref(SourceLoc{row.file(), v.line, {}})});
        else
          all.ids.push_back(v.i);
      }
  if (op != "SET") {
    if (all.ids.empty())
      fail(b.head.loc("SID"),
           fmt::format("{} {}: _INTERSECT lists no sets", set_kind_name(kind), set.id));
    pending.ops.push_back(std::move(all));
  }
  push_pending(d, std::move(pending));
}

void apply_add(const Block& b, SetKind kind, DeckBuilder& d) {
  apply_combine(b, kind, "SET", d);
}

/// *SET_..._COLUMN: one member per card (its first field); the attributes A1-A4 are not used.
void apply_column(const Block& b, SetKind kind, DeckBuilder& d) {
  IdSet& set = new_set(b, kind, d);
  auto& src = d.set_member_src[{kind, set.id}];
  bool attributes = false;
  for (const Fields& row : b.rows) {
    const Value& id = row.values().front();
    if (id.i == 0) continue;
    set.members.push_back(id.i);
    src.push_back(d.ref(SourceLoc{row.file(), id.line, {}}));
    for (std::string_view a : {"A1", "A2", "A3", "A4"}) attributes |= row.real(a) != 0;
  }
  if (attributes)
    d.model.notes.push_back(
        {b.loc.card, b.loc, false,
         fmt::format("{} {}: the attributes A1-A4 are not used", set_kind_name(kind), set.id)});
}

} // namespace

void apply_set_kind(const Block& b, SetKind kind, SetForm form, DeckBuilder& d) {
  switch (form) {
  case SetForm::List:
    apply_list(b, kind, d);
    return;
  case SetForm::Generate:
    apply_generate(b, kind, d);
    return;
  case SetForm::General:
    apply_general(b, kind, {"ALL", "ELEM", "PART", "DELEM", "DPART"}, d);
    return;
  case SetForm::Add:
    apply_combine(b, kind, "SET", d);
    return;
  case SetForm::Intersect:
    apply_combine(b, kind, "INTERSECT", d);
    return;
  case SetForm::Column:
    apply_column(b, kind, d);
    return;
  }
}

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
