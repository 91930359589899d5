// Discrete springs and dampers (*ELEMENT_DISCRETE of *SECTION_DISCRETE parts) in the domain: a
// truss part whose forces come from the discrete law (fem/truss.hpp), and the step each element
// allows with its nodes' masses.
#include <algorithm>
#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"
#include "materials/catalogue.hpp"
#include "solvers/common/domain.hpp"

namespace parcae {

void add_discrete_part(const Model& model, const Part& part, const Section& sec,
                       const Material& mat, const std::vector<std::size_t>& elems, Domain& d) {
  TrussPart tp;
  tp.pid = part.id;
  tp.title = part.title;
  tp.mat = make_material_params(mat, model);
  const std::size_t n = elems.size();
  tp.blk.conn.resize(n);
  tp.blk.area.resize(n);
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t e = elems[k];
    tp.blk.conn[k] = model.beams.nodes[e];
    tp.blk.area[k] = model.beams.area[e]; // the force scale factor S
    tp.elem_id.push_back(model.beams.id[e]);
    tp.model_index.push_back(e);
  }
  tp.blk.init(n);
  tp.blk.offset.resize(n);
  tp.blk.dt_fixed.assign(n, 1e300); // set by set_discrete_steps once the masses are known
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t e = elems[k];
    tp.blk.l0[k] = truss_length(tp.blk, k, d.x0);
    if (!(tp.blk.l0[k] > 0))
      throw InputError(sec.loc, fmt::format("discrete element {} of part {} has zero length (N1 "
                                            "and N2 coincide): its direction would come from an "
                                            "orientation VID, which is not supported",
                                            model.beams.id[e], part.id));
    tp.blk.offset[k] = model.beams.offset.empty() ? 0.0 : model.beams.offset[e];
    // The force at time zero: an OFFSET preloads the element, loaded from 0 to OFFSET at rest
    // (the work stored so, by the trapezoidal rule in 64 steps, is its initial internal energy).
    Real hist[2] = {0, 0}, f = 0;
    const auto force_of = tp.mat.law().discrete_force;
    constexpr int kSteps = 64;
    for (int i = 1; i <= (tp.blk.offset[k] != 0 ? kSteps : 1); ++i) {
      const Real prev = f;
      f = force_of(tp.mat, tp.blk.offset[k] * i / kSteps, 0.0, hist);
      tp.blk.e_int[k] += 0.5 * (prev + f) * tp.blk.area[k] * tp.blk.offset[k] / kSteps;
    }
    tp.blk.sig[k] = f;
    tp.blk.back[k] = hist[0];
    tp.blk.eps_p[k] = hist[1];
    tp.blk.force[k] = tp.blk.sig[k] * tp.blk.area[k];
  }
  d.trusses.push_back(std::move(tp));
}

Real discrete_critical_dt(Real m1, Real m2, Real stiffness, Real damping) {
  // a node that cannot move (no mass, every translation fixed) is an infinite mass
  const Real m = m1 <= 0 ? m2 : m2 <= 0 ? m1 : m1 * m2 / (m1 + m2);
  if (!(m > 0)) return 1e300;
  if (stiffness > 0) {
    // central differences with the damping force of the lagged velocity are stable for
    // omega dt <= 2 (sqrt(1 + xi^2) - xi), omega^2 = k / m, xi = c / (2 sqrt(k m))
    const Real omega = std::sqrt(stiffness / m);
    const Real xi = damping / (2.0 * std::sqrt(stiffness * m));
    return 2.0 / omega * (std::sqrt(1.0 + xi * xi) - xi);
  }
  return damping > 0 ? 2.0 * m / damping : 1e300;
}

void set_discrete_steps(const Model& model, Domain& d) {
  // A node's springs and dampers act together (a spring and a damper in parallel, a chain of
  // springs): each element's step uses the largest sums of stiffness and damping over the
  // discrete elements at either of its nodes. For equal masses in a chain this is the chain's
  // highest frequency, 4 k / m.
  std::vector<Real> k_node(d.mass.size(), 0.0), c_node(d.mass.size(), 0.0);
  for (const TrussPart& tp : d.trusses) {
    if (!tp.blk.discrete()) continue;
    Real k = 0, c = 0;
    tp.mat.law().discrete_bounds(tp.mat, k, c);
    for (std::size_t e = 0; e < tp.blk.size(); ++e)
      for (LocalId node : tp.blk.conn[e]) {
        k_node[node] += std::abs(tp.blk.area[e]) * k;
        c_node[node] += std::abs(tp.blk.area[e]) * c;
      }
  }
  for (TrussPart& tp : d.trusses) {
    if (!tp.blk.discrete()) continue;
    for (std::size_t e = 0; e < tp.blk.size(); ++e) {
      Real m[2];
      for (int a = 0; a < 2; ++a) {
        const LocalId node = tp.blk.conn[e][a];
        const int body = d.rigid_of[node]; // a rigid body's node moves with the body's mass
        m[a] = body >= 0 ? d.bodies[static_cast<std::size_t>(body)].mass : d.mass[node];
        const auto& fixed = d.spc[node];
        if (!(m[a] > 0) && !(fixed[0] && fixed[1] && fixed[2]) && d.rigid_of[node] < 0)
          throw InputError({}, fmt::format("discrete element {} of part {}: node {} has no mass "
                                           "(a spring or damper adds none: give the node a "
                                           "mass with *ELEMENT_MASS, or fix it)",
                                           tp.elem_id[e], tp.pid,
                                           model.nodes.id[static_cast<std::size_t>(node)]));
      }
      const LocalId a = tp.blk.conn[e][0], b = tp.blk.conn[e][1];
      tp.blk.dt_fixed[e] = discrete_critical_dt(m[0], m[1], std::max(k_node[a], k_node[b]),
                                                std::max(c_node[a], c_node[b]));
    }
  }
}

} // namespace parcae
