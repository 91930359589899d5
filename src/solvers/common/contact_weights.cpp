#include "solvers/common/contact_weights.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "solvers/common/contact_setup.hpp"

namespace parcae {

namespace {

/// Distinct nodes of one element that are contact nodes, over its distinct nodes.
template <std::size_t N>
Real fraction(const std::array<LocalId, N>& nodes, const std::vector<std::uint8_t>& in_contact) {
  int distinct = 0, contact = 0;
  for (std::size_t a = 0; a < N; ++a) {
    bool repeat = false;
    for (std::size_t b = 0; b < a; ++b) repeat = repeat || nodes[b] == nodes[a];
    if (repeat) continue;
    ++distinct;
    if (in_contact[static_cast<std::size_t>(nodes[a])] != 0) ++contact;
  }
  return distinct > 0 ? static_cast<Real>(contact) / distinct : 0;
}

} // namespace

void set_contact_fractions(const Model& model, DecompOptions& o) {
  o.contact_fraction_solid.clear();
  o.contact_fraction_shell.clear();
  if (model.contacts.empty()) return;
  const ContactModel cm = build_contact_model(model);
  // Contact nodes: the nodes of the interfaces' segments and their secondary nodes (compact
  // indices, ContactModel::node_model maps them back). Not node_model itself: for a solid part
  // it holds every node of the part's elements, interior ones included, which do no contact
  // work.
  std::vector<std::uint8_t> in_contact(model.nodes.size(), 0);
  auto mark = [&](LocalId compact) {
    in_contact[static_cast<std::size_t>(cm.node_model[static_cast<std::size_t>(compact)])] = 1;
  };
  for (const contact::Interface& ifc : cm.interfaces) {
    for (const contact::Surface* s : {&ifc.secondary, &ifc.main})
      for (const contact::Segment& q : s->seg)
        for (LocalId n : q) mark(n);
    for (LocalId n : ifc.secondary_nodes) mark(n);
  }
  o.contact_fraction_solid.resize(model.solids.size());
  for (std::size_t e = 0; e < model.solids.size(); ++e)
    o.contact_fraction_solid[e] = fraction(model.solids.nodes[e], in_contact);
  o.contact_fraction_shell.resize(model.shells.size());
  for (std::size_t e = 0; e < model.shells.size(); ++e)
    o.contact_fraction_shell[e] = fraction(model.shells.nodes[e], in_contact);
}

} // namespace parcae
