#include "mesh/model.hpp"

#include <algorithm>
#include <functional>

namespace parcae {

Real Curve::eval(Real t) const {
  if (x.empty()) return 0;
  if (t <= x.front()) return y.front();
  if (t >= x.back()) return y.back();
  const auto it = std::upper_bound(x.begin(), x.end(), t);
  const std::size_t i = static_cast<std::size_t>(it - x.begin());
  const Real x0 = x[i - 1], x1 = x[i];
  const Real w = x1 > x0 ? (t - x0) / (x1 - x0) : 1.0;
  return y[i - 1] + w * (y[i] - y[i - 1]);
}

namespace {
template <class T> const T* find_by_id(const std::vector<T>& v, GlobalId id) {
  for (const auto& item : v)
    if (item.id == id) return &item;
  return nullptr;
}
} // namespace

const Part* Model::find_part(GlobalId id) const {
  return find_by_id(parts, id);
}
const Section* Model::find_section(GlobalId id) const {
  return find_by_id(sections, id);
}
const Material* Model::find_material(GlobalId id) const {
  return find_by_id(materials, id);
}
const Hourglass* Model::find_hourglass(GlobalId id) const {
  return find_by_id(hourglass, id);
}
const Eos* Model::find_eos(GlobalId id) const {
  return find_by_id(eos, id);
}
const Curve* Model::find_curve(GlobalId id) const {
  return find_by_id(curves, id);
}
const Table* Model::find_table(GlobalId id) const {
  return find_by_id(tables, id);
}

void Model::index_nodes() {
  node_indexed_ = nodes.size();
  node_order_.clear();
  if (std::adjacent_find(nodes.id.begin(), nodes.id.end(), std::greater_equal<GlobalId>()) ==
      nodes.id.end()) {
    node_order_.shrink_to_fit();
    return; // strictly ascending ids: nodes.id is its own index
  }
  node_order_.resize(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) node_order_[i] = static_cast<LocalId>(i);
  std::stable_sort(node_order_.begin(), node_order_.end(), [&](LocalId a, LocalId b) {
    return nodes.id[static_cast<std::size_t>(a)] < nodes.id[static_cast<std::size_t>(b)];
  });
}

LocalId Model::node_index(GlobalId id) const {
  if (node_order_.empty()) {
    const auto end =
        nodes.id.begin() + static_cast<std::ptrdiff_t>(std::min(node_indexed_, nodes.size()));
    const auto it = std::lower_bound(nodes.id.begin(), end, id);
    return it == end || *it != id ? kInvalidLocal : static_cast<LocalId>(it - nodes.id.begin());
  }
  const auto it =
      std::lower_bound(node_order_.begin(), node_order_.end(), id, [&](LocalId a, GlobalId v) {
        return nodes.id[static_cast<std::size_t>(a)] < v;
      });
  return it == node_order_.end() || nodes.id[static_cast<std::size_t>(*it)] != id ? kInvalidLocal
                                                                                  : *it;
}

} // namespace parcae
