// Lumped masses of the domain (split from domain.cpp by task): *ELEMENT_MASS_PART spread over
// its parts' nodes, *ELEMENT_MASS / _NODE_SET at nodes, and the rotary inertia of
// *ELEMENT_INERTIA (into rigid bodies, or the scalar inertia of deformable shell and beam
// nodes).
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "solvers/common/domain.hpp"
#include "solvers/common/rigid_body.hpp"

namespace parcae {

void add_lumped_masses(const Model& model, Domain& d, const PartShares& part_share) {
  // --- *ELEMENT_MASS_PART: ADDMASS (or FINMASS less the part's mass) over the part's nodes in
  // proportion to its own lumped masses (LS-DYNA's area weighting for a shell part of uniform
  // thickness and density) ---
  for (const PartMass& pm : model.part_masses) {
    Real part_mass = 0;
    for (GlobalId pid : pm.pids)
      for (const auto& nw : part_share.at(pid)) part_mass += nw.second;
    if (!(part_mass > 0))
      throw InputError(pm.loc, fmt::format("*ELEMENT_MASS_PART: part {} has no deformable "
                                           "elements to carry the mass (rigid parts: use "
                                           "*ELEMENT_MASS on their nodes or *PART_INERTIA)",
                                           pm.pids.front()));
    const Real add = pm.finmass > 0 ? pm.finmass - part_mass : pm.addmass;
    if (add < 0)
      throw InputError(pm.loc, fmt::format("*ELEMENT_MASS_PART: the part(s) weigh {:.6e} "
                                           "already, more than FINMASS = {:.6e}",
                                           part_mass, pm.finmass));
    for (GlobalId pid : pm.pids)
      for (const auto& [n, w] : part_share.at(pid))
        d.mass[static_cast<std::size_t>(n)] += add * (w / part_mass);
  }

  // --- *ELEMENT_MASS / *ELEMENT_INERTIA: lumped masses (rigid parts' nodes included, before
  // their bodies are formed) ---
  for (const NodeMass& lm : model.lumped_masses) d.mass[lm.node] += lm.mass;
}

void add_lumped_inertia(const Model& model, Domain& d) {
  // --- *ELEMENT_INERTIA: rotary inertia of rigid bodies' nodes joins the body's; a deformable
  // node with rotations takes an isotropic one (its rotary inertia is a scalar) ---
  for (const NodeMass& lm : model.lumped_masses) {
    const auto& t = lm.inertia;
    if (t == std::array<Real, 6>{}) continue;
    const auto n = static_cast<std::size_t>(lm.node);
    if (d.rigid_of[n] >= 0) {
      add_rigid_inertia(d.bodies[static_cast<std::size_t>(d.rigid_of[n])], t);
      continue;
    }
    if (!d.has_rot[n]) continue; // no rotations to act on (a solid's node)
    const Real scale = std::max({t[0], t[1], t[2]});
    const bool isotropic = std::abs(t[0] - t[1]) <= 1e-9 * scale &&
                           std::abs(t[1] - t[2]) <= 1e-9 * scale &&
                           std::abs(t[3]) + std::abs(t[4]) + std::abs(t[5]) <= 1e-9 * scale;
    if (!isotropic)
      throw InputError(lm.loc, fmt::format("*ELEMENT_INERTIA {}: node {} is a deformable shell or "
                                           "beam node, whose rotary inertia parcae keeps as a "
                                           "scalar: give IXX = IYY = IZZ and no products of "
                                           "inertia (or put the node in a rigid body)",
                                           lm.id, model.nodes.id[n]));
    d.inertia[n] += t[0];
  }
}

} // namespace parcae
