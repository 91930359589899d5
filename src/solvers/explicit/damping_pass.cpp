// *DAMPING_GLOBAL in the explicit cycle: mass-weighted damping F = -D ST m v of every
// deformable node (moments -D SR I w at nodes with rotations) from the velocities of the last
// half step, added to the nodal forces in the assembly; rigid bodies get -D ST M v and
// -D SR L (their angular momentum) in the nodal update (nodal_update.cpp). The work of these
// forces over each velocity update is summed exactly; glstat reports its negative as the system
// damping energy. Not applied during dynamic relaxation (it has its own damping).
#include "solvers/explicit/integrator.hpp"

namespace parcae::explicit_detail {

void Integrator::damping_forces(Real t) {
  const GlobalDamping& g = model_.control.damping;
  loads_.damp_d = relaxing_ ? 0.0 : (g.lcid != 0 ? curve(g.lcid, t) : g.valdmp);
  const Real dd = loads_.damp_d;
  const std::int64_t nn = static_cast<std::int64_t>(d_.nnode);
#pragma omp parallel for schedule(static) if (nn > kParallelNodes)
  for (std::int64_t n = 0; n < nn; ++n) {
    for (int i = 0; i < 3; ++i) {
      const std::size_t k = static_cast<std::size_t>(3 * n + i);
      const bool free = d_.rigid_of[n] < 0 && dd != 0;
      loads_.damp_f[k] =
          free ? -dd * g.scale[static_cast<std::size_t>(i)] * d_.mass[n] * d_.v[k] : 0.0;
      loads_.damp_m[k] = free && d_.has_rot[n] ? -dd * g.scale[static_cast<std::size_t>(3 + i)] *
                                                     d_.inertia[n] * d_.w[k]
                                               : 0.0;
    }
  }
}

void Integrator::damping_work(const std::vector<Real>& v_old, const std::vector<Real>& w_old,
                              Real dt_avg) {
  if (loads_.damp_d == 0) return;
  for (std::size_t n = 0; n < d_.nnode; ++n) {
    if (!d_.owned[n] || d_.rigid_of[n] >= 0) continue;
    for (std::size_t i = 0; i < 3; ++i) {
      const std::size_t k = 3 * n + i;
      if (loads_.damp_f[k] != 0)
        loads_.damp_work.add(dt_avg * loads_.damp_f[k] * 0.5 * (v_old[k] + d_.v[k]));
      if (loads_.damp_m[k] != 0)
        loads_.damp_work.add(dt_avg * loads_.damp_m[k] * 0.5 * (w_old[k] + d_.w[k]));
    }
  }
}

} // namespace parcae::explicit_detail
