// Sets once the whole deck is read (resolve_model): GENERATE ranges and their increments,
// GENERAL options, _ADD unions and _INTERSECT intersections of sets defined anywhere in the deck,
// then every member of a list set checked. Each problem is an InputError at the line that
// refers to the missing thing.
#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <unordered_set>

#include <fmt/format.h>

#include "input/deck_apply.hpp"
#include "input/deck_resolve_sets.hpp"

namespace parcae::io {

void missing(const SourceLoc& loc, std::string_view what, GlobalId id, std::string_view kind,
             GlobalId ref) {
  fail(loc, fmt::format("{} {} references {} {}, which is not defined", what, id, kind, ref));
}

const Box& referenced_box(const Model& m, GlobalId id, const SourceLoc& loc, std::string_view what,
                          GlobalId what_id) {
  const auto it = m.boxes.find(id);
  if (it == m.boxes.end()) missing(loc, what, what_id, "box", id);
  return it->second;
}

namespace {

class SetResolver {
public:
  SetResolver(DeckBuilder& d, const NodeLookup& node,
              const std::unordered_map<GlobalId, const Part*>& parts)
      : d_(d), m_(d.model), node_(node), parts_(parts) {}

  void run() {
    resolve_general_sets();
    check_list_sets();
  }

private:
  DeckBuilder& d_;
  Model& m_;
  const NodeLookup& node_;
  const std::unordered_map<GlobalId, const Part*>& parts_;
  mutable std::unordered_set<GlobalId> discrete_; ///< discrete element ids (filled on demand)
  mutable bool discrete_known_ = false;           ///< discrete_ filled (it may be empty)

  /// The discrete elements (*ELEMENT_DISCRETE, kept in the beam table): the beams whose part
  /// has a *SECTION_DISCRETE, in table order.
  std::vector<GlobalId> discrete_ids() const {
    std::unordered_set<GlobalId> discrete_parts;
    for (const auto& [pid, part] : parts_) {
      const Section* sec = m_.find_section(part->secid);
      if (sec != nullptr && sec->kind == SectionKind::Discrete) discrete_parts.insert(pid);
    }
    std::vector<GlobalId> out;
    for (std::size_t e = 0; e < m_.beams.size(); ++e)
      if (discrete_parts.count(m_.beams.part[e])) out.push_back(m_.beams.id[e]);
    discrete_.insert(out.begin(), out.end());
    discrete_known_ = true;
    return out;
  }

  std::vector<GlobalId> nodes_of_parts(const std::vector<GlobalId>& pids) const {
    const std::unordered_set<GlobalId> wanted(pids.begin(), pids.end());
    std::vector<char> used(m_.nodes.size(), 0);
    for (std::size_t e = 0; e < m_.solids.size(); ++e)
      if (wanted.count(m_.solids.part[e]))
        for (LocalId n : m_.solids.nodes[e]) used[n] = 1;
    for (std::size_t e = 0; e < m_.shells.size(); ++e)
      if (wanted.count(m_.shells.part[e]))
        for (LocalId n : m_.shells.nodes[e]) used[n] = 1;
    for (std::size_t e = 0; e < m_.beams.size(); ++e)
      if (wanted.count(m_.beams.part[e]))
        for (LocalId n : m_.beams.nodes[e]) used[n] = 1;
    std::vector<GlobalId> out;
    for (std::size_t n = 0; n < used.size(); ++n)
      if (used[n]) out.push_back(m_.nodes.id[n]);
    return out;
  }

  /// Ids of the elements of set kind `kind` (shell, solid, beam) whose part is in pids.
  std::vector<GlobalId> elements_of_parts(SetKind kind, const std::vector<GlobalId>& pids) const {
    const std::unordered_set<GlobalId> wanted(pids.begin(), pids.end());
    const auto pick = [&](const auto& table) {
      std::vector<GlobalId> out;
      for (std::size_t e = 0; e < table.size(); ++e)
        if (wanted.count(table.part[e])) out.push_back(table.id[e]);
      return out;
    };
    if (kind == SetKind::Shell) return pick(m_.shells);
    if (kind == SetKind::Solid) return pick(m_.solids);
    std::vector<GlobalId> out = pick(m_.beams);
    if (kind == SetKind::Discrete) { // the discrete elements of those parts, not their beams
      if (!discrete_known_) (void)discrete_ids();
      std::erase_if(out, [&](GlobalId id) { return !discrete_.count(id); });
    }
    return out;
  }

  static bool element_kind(SetKind kind) {
    return kind == SetKind::Shell || kind == SetKind::Solid || kind == SetKind::Beam ||
           kind == SetKind::Discrete;
  }

  std::vector<GlobalId> all_ids(SetKind kind) const {
    if (kind == SetKind::Node) return m_.nodes.id;
    if (kind == SetKind::Beam) return m_.beams.id;
    if (kind == SetKind::Shell) return m_.shells.id;
    if (kind == SetKind::Solid) return m_.solids.id;
    if (kind == SetKind::Discrete) return discrete_ids();
    std::vector<GlobalId> out;
    for (const Part& p : m_.parts) out.push_back(p.id);
    return out;
  }

  bool exists(SetKind kind, GlobalId id) const {
    switch (kind) {
    case SetKind::Node:
      return node_(id) != kInvalidLocal;
    case SetKind::Part:
      return parts_.count(id) != 0;
    case SetKind::Shell:
      return d_.defined("shell element", id) != nullptr;
    case SetKind::Solid:
      return d_.defined("solid element", id) != nullptr;
    case SetKind::Beam:
      return d_.defined("beam element", id) != nullptr;
    case SetKind::Discrete:
      if (!discrete_known_) (void)discrete_ids();
      return discrete_.count(id) != 0;
    }
    return false;
  }

  static std::string_view member_kind(SetKind kind) {
    switch (kind) {
    case SetKind::Node:
      return "node";
    case SetKind::Part:
      return "part";
    case SetKind::Shell:
      return "shell element";
    case SetKind::Solid:
      return "solid element";
    case SetKind::Beam:
      return "beam element";
    case SetKind::Discrete:
      return "discrete element";
    }
    return "";
  }

  std::map<GlobalId, IdSet>& sets(SetKind kind) { return sets_of(m_, kind); }

  std::vector<GlobalId> expand(const PendingGeneralSet& g, const SetOperation& op) const {
    if (op.option == "ALL") return all_ids(g.kind);
    if (op.option == "RANGE") { // lo, hi and (_GENERATE_INCREMENT) the step
      const GlobalId lo = op.ids[0], hi = op.ids[1], inc = op.ids.size() > 2 ? op.ids[2] : 1;
      std::vector<GlobalId> out;
      for (GlobalId id : all_ids(g.kind))
        if (id >= lo && id <= hi && (id - lo) % inc == 0) out.push_back(id);
      std::sort(out.begin(), out.end());
      return out;
    }
    for (GlobalId id : op.option == "BOX" ? std::vector<GlobalId>{} : op.ids) {
      const SetKind kind = op.option == "PART"    ? SetKind::Part
                           : element_kind(g.kind) ? g.kind
                                                  : SetKind::Node;
      if (!exists(kind, id))
        missing(d_.loc(op.src), set_name(g.kind), g.sid, member_kind(kind), id);
    }
    if (op.option == "BOX") return nodes_in_boxes(g, op);
    if (op.option == "PART" && g.kind == SetKind::Node) return nodes_of_parts(op.ids);
    if (op.option == "PART" && element_kind(g.kind)) return elements_of_parts(g.kind, op.ids);
    return op.ids;
  }

  /// Nodes inside any of the boxes (deck order).
  std::vector<GlobalId> nodes_in_boxes(const PendingGeneralSet& g, const SetOperation& op) const {
    std::vector<const Box*> boxes;
    for (GlobalId id : op.ids)
      boxes.push_back(&referenced_box(m_, id, d_.loc(op.src), set_name(g.kind), g.sid));
    std::vector<GlobalId> out;
    const NodeTable& n = m_.nodes;
    for (std::size_t k = 0; k < n.size(); ++k)
      for (const Box* b : boxes)
        if (b->contains(n.x[k], n.y[k], n.z[k])) {
          out.push_back(n.id[k]);
          break;
        }
    return out;
  }

  /// GENERATE ranges, GENERAL options (the D... options remove their members after all others
  /// are added) and _ADD unions (operation SET; a set added before its own members are known
  /// is resolved first, a cycle is an error).
  void resolve_general_sets() {
    std::map<std::pair<SetKind, GlobalId>, const PendingGeneralSet*> pending;
    for (const PendingGeneralSet& g : d_.general_sets) pending[{g.kind, g.sid}] = &g;
    std::set<std::pair<SetKind, GlobalId>> done, busy;
    std::function<void(const PendingGeneralSet&)> resolve = [&](const PendingGeneralSet& g) {
      const std::pair<SetKind, GlobalId> key{g.kind, g.sid};
      if (done.count(key)) return;
      busy.insert(key);
      IdSet& set = sets(g.kind).at(g.sid);
      std::unordered_set<GlobalId> removed;
      // the members of another set of the same kind, resolved first (a cycle is an error)
      auto members_of = [&](const SetOperation& op, GlobalId other) -> const auto& {
        if (!sets(g.kind).count(other))
          missing(d_.loc(op.src), set_name(g.kind), g.sid, set_name(g.kind), other);
        if (busy.count({g.kind, other}))
          fail(d_.loc(op.src),
               fmt::format("{} {}: adding {} {} makes a cycle of _ADD/_INTERSECT sets",
                           set_name(g.kind), g.sid, set_name(g.kind), other));
        const auto it = pending.find({g.kind, other});
        if (it != pending.end()) resolve(*it->second);
        return sets(g.kind).at(other).members;
      };
      for (const SetOperation& op : g.ops) {
        if (op.option == "SET") {
          const auto& m = members_of(op, op.ids[0]);
          set.members.insert(set.members.end(), m.begin(), m.end());
          continue;
        }
        if (op.option == "INTERSECT") { // the members of the first set that all others hold
          std::vector<GlobalId> common = members_of(op, op.ids[0]);
          for (std::size_t k = 1; k < op.ids.size(); ++k) {
            const auto& m = members_of(op, op.ids[k]);
            const std::unordered_set<GlobalId> in(m.begin(), m.end());
            std::erase_if(common, [&](GlobalId id) { return !in.count(id); });
          }
          set.members.insert(set.members.end(), common.begin(), common.end());
          continue;
        }
        if (op.option.size() > 1 && op.option[0] == 'D') {
          SetOperation add = op;
          add.option = op.option.substr(1);
          for (GlobalId id : expand(g, add)) removed.insert(id);
          continue;
        }
        const auto ids = expand(g, op);
        set.members.insert(set.members.end(), ids.begin(), ids.end());
      }
      std::unordered_set<GlobalId> seen;
      std::erase_if(set.members,
                    [&](GlobalId id) { return removed.count(id) || !seen.insert(id).second; });
      busy.erase(key);
      done.insert(key);
    };
    for (const PendingGeneralSet& g : d_.general_sets) resolve(g);
  }

  static std::string_view set_name(SetKind kind) { return set_kind_name(kind); }

  void check_list_sets() {
    for (const auto& [key, src] : d_.set_member_src) {
      const auto [kind, sid] = key;
      const IdSet& set = sets(kind).at(sid);
      for (std::size_t k = 0; k < set.members.size() && k < src.size(); ++k)
        if (!exists(kind, set.members[k]))
          missing(d_.loc(src[k]), set_name(kind), sid, member_kind(kind), set.members[k]);
    }
  }
};

} // namespace

void resolve_sets(DeckBuilder& d, const NodeLookup& node,
                  const std::unordered_map<GlobalId, const Part*>& parts) {
  SetResolver(d, node, parts).run();
}

} // namespace parcae::io
