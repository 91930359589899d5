// Global statistics of the explicit solver (exact sums: independent of ranks and threads).
#include "solvers/common/joints.hpp"
#include "solvers/explicit/integrator.hpp"

namespace parcae::explicit_detail {

/// Global statistics (collective): every sum is exact, so the result does not depend on how
/// the nodes and elements are split over ranks or threads.
GlobalStats Integrator::stats(int cycle, Real t, Real dt) const {
  GlobalStats s;
  s.cycle = cycle;
  s.time = t;
  s.dt = dt;
  s.dt_element_kind = step_.limit.kind;
  s.dt_element = step_.limit.elem;
  s.dt_part = step_.limit.part;
  enum {
    kKe,
    kPx,
    kPy,
    kPz,
    kMass,
    kIe,
    kHg,
    kExt,
    kWall,
    kSliding,
    kFriction,
    kEroKe,
    kEroIe,
    kEroHg,
    kAdded,
    kDamp,
    kCount
  };
  std::array<ExactSum, kCount> acc;
  for (std::size_t n = 0; n < d_.nnode; ++n) {
    if (d_.rigid_of[n] >= 0 || !d_.owned[n]) continue;
    const Real m = d_.mass[n];
    const Real* v = &d_.v[3 * n];
    // a free node (all its elements eroded): its kinetic energy is eroded kinetic energy
    const int ke = erosion_.on && erosion_.node_free[model_node(n)] ? kEroKe : kKe;
    acc[ke].add(0.5 * m * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]));
    if (d_.has_rot[n]) {
      const Real* w = &d_.w[3 * n];
      acc[ke].add(0.5 * d_.inertia[n] * (w[0] * w[0] + w[1] * w[1] + w[2] * w[2]));
    }
    acc[kPx].add(m * v[0]);
    acc[kPy].add(m * v[1]);
    acc[kPz].add(m * v[2]);
    acc[kMass].add(m);
  }
  if (comm_.rank() == 0) // rigid bodies are replicated: count them once
    for (const auto& b : d_.bodies) {
      acc[kKe].add(rigid_body_kinetic_energy(b));
      acc[kPx].add(b.mass * b.v[0]);
      acc[kPy].add(b.mass * b.v[1]);
      acc[kPz].add(b.mass * b.v[2]);
      acc[kMass].add(b.mass);
    }
  // eroded elements: their energy at deletion is eroded internal / hourglass energy
  for_each_element_family([&](auto family) {
    for (const auto& sp : parts_of(d_, family))
      for (std::size_t e = 0; e < sp.blk.size(); ++e) {
        const bool gone = sp.blk.failed[e] != 0;
        acc[gone ? kEroIe : kIe].add(sp.blk.e_int[e]);
        acc[gone ? kEroHg : kHg].add(sp.blk.e_hg[e]);
      }
  });
  acc[kExt] = loads_.work;
  acc[kDamp] = loads_.damp_work;
  acc[kWall] = rwalls_.work;
  acc[kAdded] = ms_.added; // mass scaling during the run (this rank's elements)
  // contact energies: per rank partial sums in MPP (the rank's own nodes), the whole in a
  // one-rank run
  for (const auto& cs : contacts_.state) {
    acc[kSliding].add(cs.e_interface);
    acc[kFriction].add(cs.e_friction);
  }
  // beam edge contacts: every rank holds the whole energies (all ranks compute every pair):
  // rank 0's count
  if (comm_.rank() == 0)
    for (const auto& es : contacts_.edge_state) {
      acc[kSliding].add(es.e_interface);
      acc[kFriction].add(es.e_friction);
    }
  comm_.sum(acc);
  s.kinetic = acc[kKe].result();
  s.internal = acc[kIe].result();
  s.hourglass = acc[kHg].result();
  s.external_work = acc[kExt].result();
  s.damping = -acc[kDamp].result(); // *DAMPING_GLOBAL: the energy it took
  s.rigidwall = -acc[kWall].result();
  s.sliding = acc[kSliding].result();
  s.friction = acc[kFriction].result();
  s.eroded_kinetic = acc[kEroKe].result();
  s.eroded_internal = acc[kEroIe].result();
  s.eroded_hourglass = acc[kEroHg].result();
  // As LS-DYNA's glstat: the total includes the eroded energies (the "energy ratio w/o eroded
  // energy" leaves them out).
  // joints: elastic energy of their penalty springs (replicated bodies: the same on every rank)
  s.spring_damper = d_.joints.empty() ? 0.0 : joint_energy(d_.joints, d_.bodies);
  for (const JointStiffnessState& js : d_.joint_stiffness) s.spring_damper += js.work;
  s.total = s.kinetic + s.internal + s.spring_damper + s.hourglass + s.damping + s.rigidwall +
            s.sliding + s.eroded_kinetic + s.eroded_internal + s.eroded_hourglass;
  const Real mass = acc[kMass].result();
  s.mass = mass;
  s.added_mass = d_.added_mass + acc[kAdded].result();
  if (mass > 0) {
    s.vx = acc[kPx].result() / mass;
    s.vy = acc[kPy].result() / mass;
    s.vz = acc[kPz].result() / mass;
  }
  s.nodes = model_.nodes.size();
  s.elements = model_.solids.size() + model_.shells.size() + model_.beams.size();
  return s;
}

} // namespace parcae::explicit_detail
