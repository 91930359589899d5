#pragma once
// Contact work in the domain decomposition: which share of every element's nodes takes part in
// some contact (DecompOptions::contact_fraction_solid / _shell, mesh/decompose.hpp). Lives with
// the solver because the contact surfaces come from the contact setup (mesh may not depend on
// solvers).
#include "mesh/decompose.hpp"
#include "mesh/model.hpp"

namespace parcae {

/// Fill o.contact_fraction_solid / _shell: per element, (distinct element nodes that are contact
/// nodes) / (distinct element nodes). Contact nodes: the nodes of the segments of every contact
/// interface (build_contact_model: shells, exterior faces of solids, segment sets) and the
/// secondary nodes of NODES_TO_SURFACE contacts; interior nodes of solid parts are not. Without
/// *CONTACT cards both vectors are left empty (no contact cost). Throws InputError for bad
/// contact cards (as build_contact_model does).
void set_contact_fractions(const Model& model, DecompOptions& o);

} // namespace parcae
