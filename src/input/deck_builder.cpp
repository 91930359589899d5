#include "input/deck_builder.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace parcae::io {

void fail(const SourceLoc& loc, const std::string& message) {
  throw InputError(loc, message);
}

SrcRef DeckBuilder::ref(const std::string& file, int line) {
  if (last_file_ >= 0 && files_[static_cast<std::size_t>(last_file_)] == file)
    return {last_file_, line};
  auto [it, inserted] = file_index_.try_emplace(file, static_cast<int>(files_.size()));
  if (inserted) files_.push_back(file);
  last_file_ = it->second;
  return {it->second, line};
}

SourceLoc DeckBuilder::loc(SrcRef r, std::string card) const {
  const std::string file = r.file < static_cast<int>(files_.size()) ? files_[r.file] : "";
  return {file, r.line, std::move(card)};
}

void DeckBuilder::claim_id(std::string_view kind, GlobalId id, const SourceLoc& where) {
  claim_id(kind, id, ref(where), where.card);
}

bool DeckBuilder::bulk_kind(std::string_view kind) {
  return kind == "node" || kind == "shell element" || kind == "solid element";
}

void DeckBuilder::sort_bulk(BulkIds& b) const {
  if (b.sorted == b.id.size()) return;
  b.order.resize(b.id.size());
  for (std::size_t k = 0; k < b.id.size(); ++k) b.order[k] = static_cast<std::uint32_t>(k);
  std::sort(b.order.begin(), b.order.end(), [&](std::uint32_t x, std::uint32_t y) {
    return b.id[x] != b.id[y] ? b.id[x] < b.id[y] : x < y;
  });
  b.sorted = b.id.size();
}

void DeckBuilder::check_bulk_ids() {
  for (auto& [kind, b] : bulk_) {
    sort_bulk(b);
    // the repeated definition read first: the smallest position that follows an equal id
    std::size_t worst = b.id.size(), first = 0;
    for (std::size_t k = 1; k < b.order.size(); ++k)
      if (b.id[b.order[k]] == b.id[b.order[k - 1]] && b.order[k] < worst) {
        worst = b.order[k];
        std::size_t f = k - 1;
        while (f > 0 && b.id[b.order[f - 1]] == b.id[b.order[k]]) --f;
        first = b.order[f];
      }
    if (worst < b.id.size())
      fail(loc(b.src[worst], b.card), fmt::format("duplicate {} id {} (first defined at {})", kind,
                                                  b.id[worst], loc(b.src[first]).str()));
  }
}

void DeckBuilder::claim_id(std::string_view kind, GlobalId id, SrcRef where,
                           std::string_view card) {
  if (bulk_kind(kind)) {
    auto bit = bulk_.find(kind);
    if (bit == bulk_.end()) bit = bulk_.emplace(std::string(kind), BulkIds{}).first;
    BulkIds& b = bit->second;
    if (b.card.empty()) b.card = std::string(card);
    b.id.push_back(id);
    b.src.push_back(where);
    return;
  }
  auto it = ids_.find(kind);
  if (it == ids_.end())
    it = ids_.emplace(std::string(kind), std::unordered_map<GlobalId, SrcRef>{}).first;
  const auto [pos, inserted] = it->second.try_emplace(id, where);
  if (!inserted)
    fail(loc(where, std::string(card)),
         fmt::format("duplicate {} id {} (first defined at {})", kind, id, loc(pos->second).str()));
}

const SrcRef* DeckBuilder::defined(std::string_view kind, GlobalId id) const {
  if (bulk_kind(kind)) {
    const auto bit = bulk_.find(kind);
    if (bit == bulk_.end()) return nullptr;
    auto& b = const_cast<BulkIds&>(bit->second); // the sorted order is a cache
    sort_bulk(b);
    const auto pos = std::lower_bound(b.order.begin(), b.order.end(), id,
                                      [&](std::uint32_t k, GlobalId v) { return b.id[k] < v; });
    return pos == b.order.end() || b.id[*pos] != id ? nullptr : &b.src[*pos];
  }
  const auto it = ids_.find(kind);
  if (it == ids_.end()) return nullptr;
  const auto pos = it->second.find(id);
  return pos == it->second.end() ? nullptr : &pos->second;
}

void DeckBuilder::define_parameter(const std::string& name, Parameter p, bool local) {
  Parameters& into = local ? local_params[file] : params;
  const Parameter* old = into.find(name);
  // A repeated parameter pass meets the same definition again: not a duplicate.
  if (!old || (old->loc.file == p.loc.file && old->loc.line == p.loc.line)) {
    into.set(name, std::move(p));
    if (local) refresh_scope();
    return;
  }
  const std::string where =
      fmt::format("parameter {} defined again (first at {})", name, old->loc.str());
  switch (duplication) {
  case 3:
    fail(p.loc, where + " (*PARAMETER_DUPLICATION DFLAG = 3: duplicates are errors)");
  case 2:
    model.notes.push_back({p.loc.card, p.loc, false, where + "; the new value is used"});
    into.set(name, std::move(p));
    if (local) refresh_scope();
    return;
  case 4:
    into.set(name, std::move(p));
    if (local) refresh_scope();
    return;
  case 5:
    return;
  default:
    model.notes.push_back({p.loc.card, p.loc, false, where + "; the first value is kept"});
    return;
  }
}

void DeckBuilder::refresh_scope() {
  bool any = false;
  for (const std::string& f : file_chain) any = any || local_params.count(f) != 0;
  if (!any) {
    scope_params = &params;
    return;
  }
  scoped_params_ = params;
  for (const std::string& f : file_chain)
    if (const auto it = local_params.find(f); it != local_params.end())
      scoped_params_.overlay(it->second);
  scope_params = &scoped_params_;
}

void DeckBuilder::use_keyword(std::string_view name) {
  auto& used = model.keywords_used;
  if (std::find(used.begin(), used.end(), name) == used.end()) used.emplace_back(name);
}

} // namespace parcae::io
