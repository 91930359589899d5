#pragma once
// The deck's *CONTACT_... definitions turned into penalty-contact interfaces (contact/contact.hpp)
// over a compact node numbering: every node that takes part in some contact, in model order.
// The solver keeps the positions, velocities and masses of these nodes in compact arrays (in
// MPP every rank has the index structures of every interface, but current positions only for
// the nodes it holds or imports, and evaluates only the nodes it owns: contact_mpp.hpp).
#include <span>
#include <vector>

#include "contact/contact.hpp"
#include "contact/edges.hpp"
#include "mesh/model.hpp"

namespace parcae {

/// Erosion bookkeeping of one surface. Elements are referred to as model solid index e, or
/// model.solids.size() + model shell index. Segment k is active while one of its owners
/// (owner[owner_start[k] .. owner_start[k+1]), the elements it is a face of) is alive and none
/// of its blockers (elements of the same side sharing the face: the face is interior) is; a
/// segment without owners (a segment-set segment no element holds) is always active.
struct SurfaceLife {
  std::vector<std::int64_t> owner_start{0}, owner;
  std::vector<std::int64_t> blocker_start{0}, blocker;
};

/// Erosion bookkeeping of one interface: its surfaces' and the NODES_TO_SURFACE secondary
/// nodes (a secondary node takes part while some live element holds it; a surface node while
/// it is on an active segment).
struct InterfaceLife {
  SurfaceLife main, secondary;
};

struct ContactModel {
  std::vector<LocalId> node_model;            ///< compact index -> model node index
  std::vector<contact::Interface> interfaces; ///< node and segment indices are compact
  std::vector<const ContactDef*> defs;        ///< the deck card of each interface
  std::vector<InterfaceLife> life;            ///< per interface
  /// *CONTACT_AUTOMATIC_GENERAL: the beam edges of each such card (compact node indices), and
  /// the card. A card whose part set also holds shells or solids has, in addition, a
  /// single-surface interface over those in `interfaces` (the same card in `defs`).
  std::vector<contact::EdgeSet> edge_sets;
  std::vector<const ContactDef*> edge_defs;
};

/// Recompute the active flags of the interface's segments and nodes from the live elements
/// (solid_alive / shell_alive per model element; node_free per model node: a node that lost
/// all its elements to erosion).
void update_contact_life(const ContactModel& cm, std::size_t i, contact::Interface& ifc,
                         std::span<const std::uint8_t> solid_alive,
                         std::span<const std::uint8_t> shell_alive,
                         std::span<const std::uint8_t> node_free);

/// Build the interfaces of every *CONTACT card. Surfaces from parts (shells: segments with the
/// section or element thickness; solids: exterior faces), part sets, all parts, segment sets and
/// node sets (secondary of NODES_TO_SURFACE). Penalty stiffness from the material's bulk
/// modulus K = E / (3 (1 - 2 nu)) (segment-set segments: the largest K of the parts around
/// their first node). Throws InputError (the contact card) for empty surfaces.
ContactModel build_contact_model(const Model& model);

/// The contact parameters of a card, with *CONTROL_CONTACT defaults.
contact::ContactParams contact_params(const ContactDef& def, const Controls& control);

/// The beam edges of a *CONTACT_AUTOMATIC_GENERAL card over model beams `beams` (model node
/// indices mapped through `compact`; x: the compact positions). Contact diameter: SST > 0, else
/// *PART_CONTACT OPTT > 0, else the section's (integrated beams ELFORM 1, 4, 5, 9, 11: TS1;
/// trusses and resultant beams: sqrt(A), LS-DYNA's rule) x SFST. Stiffness SLSFAC SFS E A / L.
/// Throws InputError (the card's SSID) for a beam without a contact thickness.
contact::EdgeSet beam_edge_set(const Model& model, const ContactDef& def,
                               std::span<const std::size_t> beams, std::span<const LocalId> compact,
                               std::span<const Real> x);

} // namespace parcae
