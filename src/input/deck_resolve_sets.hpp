#pragma once
// Internal to src/input: what resolve_model (deck_resolve.cpp) shares with the set resolution
// (deck_resolve_sets.cpp).
#include <map>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "input/deck_builder.hpp"

namespace parcae::io {

/// "<what> <id> references <kind> <ref>, which is not defined", at loc.
[[noreturn]] void missing(const SourceLoc& loc, std::string_view what, GlobalId id,
                          std::string_view kind, GlobalId ref);

/// The *DEFINE_BOX id, or an error at loc naming what refers to it.
const Box& referenced_box(const Model& m, GlobalId id, const SourceLoc& loc, std::string_view what,
                          GlobalId what_id);

/// Deck node id -> local index; a direct table when the ids are dense enough, else a hash map
/// (Model::node_index is a std::map, slow for millions of look-ups).
class NodeLookup {
public:
  explicit NodeLookup(const NodeTable& nodes) {
    GlobalId max_id = 0;
    for (GlobalId id : nodes.id) max_id = std::max(max_id, id);
    if (max_id <= 4 * static_cast<GlobalId>(nodes.size()) + 1024) {
      dense_.assign(static_cast<std::size_t>(max_id) + 1, kInvalidLocal);
      for (std::size_t i = 0; i < nodes.size(); ++i)
        dense_[static_cast<std::size_t>(nodes.id[i])] = static_cast<LocalId>(i);
    } else {
      for (std::size_t i = 0; i < nodes.size(); ++i)
        sparse_.emplace(nodes.id[i], static_cast<LocalId>(i));
    }
  }
  LocalId operator()(GlobalId id) const {
    if (!dense_.empty() || sparse_.empty()) {
      return id >= 0 && id < static_cast<GlobalId>(dense_.size())
                 ? dense_[static_cast<std::size_t>(id)]
                 : kInvalidLocal;
    }
    const auto it = sparse_.find(id);
    return it == sparse_.end() ? kInvalidLocal : it->second;
  }

private:
  std::vector<LocalId> dense_;
  std::unordered_map<GlobalId, LocalId> sparse_;
};

/// "node set", "part set", ... (messages).
std::string_view set_kind_name(SetKind kind);

/// The model's sets of this kind (deck_apply_sets.cpp).
std::map<GlobalId, IdSet>& sets_of(Model& m, SetKind kind);

/// Sets once the whole deck is read: GENERATE ranges (with increments), GENERAL options, _ADD
/// unions and _INTERSECT intersections, then every listed member checked.
void resolve_sets(DeckBuilder& d, const NodeLookup& node,
                  const std::unordered_map<GlobalId, const Part*>& parts);

} // namespace parcae::io
