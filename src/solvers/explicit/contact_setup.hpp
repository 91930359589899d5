#pragma once
// The deck's *CONTACT_... definitions turned into penalty-contact interfaces (contact/contact.hpp)
// over a compact node numbering: every node that takes part in some contact, in model order.
// The solver keeps the positions, velocities and masses of these nodes in compact arrays (in
// MPP every rank has the index structures of every interface, but current positions only for
// the nodes it holds or imports, and evaluates only the nodes it owns: contact_mpp.hpp).
#include <vector>

#include "contact/contact.hpp"
#include "mesh/model.hpp"

namespace parcae {

struct ContactModel {
  std::vector<LocalId> node_model;            ///< compact index -> model node index
  std::vector<contact::Interface> interfaces; ///< node and segment indices are compact
  std::vector<const ContactDef*> defs;        ///< the deck card of each interface
};

/// Build the interfaces of every *CONTACT card. Surfaces from parts (shells: segments with the
/// section or element thickness; solids: exterior faces), part sets, all parts, segment sets and
/// node sets (secondary of NODES_TO_SURFACE). Penalty stiffness from the material's bulk
/// modulus K = E / (3 (1 - 2 nu)) (segment-set segments: the largest K of the parts around
/// their first node). Throws InputError (the contact card) for empty surfaces.
ContactModel build_contact_model(const Model& model);

/// The contact parameters of a card, with *CONTROL_CONTACT defaults.
contact::ContactParams contact_params(const ContactDef& def, const Controls& control);

} // namespace parcae
