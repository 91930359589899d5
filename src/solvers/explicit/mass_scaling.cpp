// Mass scaling during the run (*CONTROL_TIMESTEP DT2MS < 0): LS-DYNA's rule, "TSSFAC |DT2MS| is
// the smallest step permitted, and mass is added only where it is needed to reach it". The
// set-up has already scaled the elements whose initial step is below |DT2MS| (domain.cpp); here
// the elements whose step falls below it during the run (distortion, thinning) are scaled
// after their force pass. Element e with step dte < |DT2MS| gets its mass and rotary inertia
// multiplied by (|DT2MS| / dte)^2: its frequencies fall by |DT2MS| / dte, so its step is
// |DT2MS| again. The velocities are kept (as LS-DYNA does): the kinetic energy the added mass
// brings raises glstat's total, and the run log reports it (MassScaling::ke_added).
#include "solvers/explicit/integrator.hpp"

#include <type_traits>

namespace parcae::explicit_detail {

void Integrator::init_mass_scaling() {
  const Real dt2ms = model_.control.dt2ms;
  ms_.on = dt2ms < 0 && model_.control.ms1st == 0;
  if (!ms_.on) return;
  ms_.target = -dt2ms;
  ms_.endmas = model_.control.endmas > 0 && model_.control.endmas < 1e8;
  // Round-off margin: a scaled element's step is the target to a few ulps; without the margin
  // it would be scaled again by 1 + 1e-16 every cycle.
  ms_.trigger = ms_.target * (1.0 - 1e-9);
  ms_.base_mass = d_.mass;
  ms_.base_inertia = d_.inertia;
  ms_.dirty.assign(d_.nnode, 0);
  const std::array<std::size_t, MassScaling::kFamilies> ncorner = {
      d_.n_solid_corners, d_.n_shell_corners, d_.n_truss_corners, d_.n_beam_corners};
  const std::array<const std::vector<std::int64_t>*, MassScaling::kFamilies> start = {
      &d_.solid_corner_start, &d_.shell_corner_start, &d_.truss_corner_start,
      &d_.beam_corner_start};
  const std::array<const std::vector<std::int64_t>*, MassScaling::kFamilies> list = {
      &d_.solid_corner_list, &d_.shell_corner_list, &d_.truss_corner_list, &d_.beam_corner_list};
  for (std::size_t f = 0; f < MassScaling::kFamilies; ++f) {
    ms_.dm[f].assign(ncorner[f], 0.0);
    ms_.di[f].assign(ncorner[f], 0.0);
    ms_.corner_node[f].assign(ncorner[f], kInvalidLocal);
    for (std::size_t n = 0; n < d_.nnode; ++n)
      for (auto k = (*start[f])[n]; k < (*start[f])[n + 1]; ++k)
        ms_.corner_node[f][static_cast<std::size_t>((*list[f])[static_cast<std::size_t>(k)])] =
            static_cast<LocalId>(n);
  }
}

template <class Family>
void Integrator::scale_element_masses(Family family, std::size_t p, std::size_t b, std::size_t e,
                                      ElementPassResult& r) {
  auto& part = parts_of(d_, family)[p];
  auto& blk = part.blk;
  if constexpr (std::is_same_v<Family, TrussFamily>)
    if (blk.discrete()) return; // springs and dampers have no mass to scale (truss.hpp)
  const std::size_t f = Family::kIndex;
  std::span<const Real> x = d_.x;
  bool scaled = false;
  for (std::size_t k = b; k < e; ++k) {
    if (blk.failed[k]) continue;
    const Real dte = Family::critical_dt(part.mat, blk, k, x);
    if (!(dte > 0) || !(dte < ms_.trigger)) continue; // invalid steps are reported by the pass
    const Real s_old = blk.density_scale[k];
    const Rescaled rs = Family::rescale_for_step(part.opt, part.mat, blk, k, x, ms_.target);
    const auto lm_old = Family::lump_mass(part.opt, part.mat, blk, k, d_.x0, s_old);
    const auto lm_new = Family::lump_mass(part.opt, part.mat, blk, k, d_.x0, rs.scale);
    if constexpr (std::is_same_v<Family, SolidFamily>)
      blk.dt[k] = rs.dt; // the solid kernel's stored step, with the new density
    if constexpr (std::is_same_v<Family, ShellFamily>)
      if (blk.planar != Planar::None) blk.dt2d[k] = rs.dt; // 2-D solids store theirs too
    for (std::size_t a = 0; a < static_cast<std::size_t>(Family::kNodes); ++a) {
      const std::size_t c = part.corner_offset + Family::kNodes * k + a;
      const Real gain = lm_new.mass[a] - lm_old.mass[a];
      ms_.dm[f][c] += gain;
      ms_.di[f][c] += lm_new.inertia[a] - lm_old.inertia[a];
      ms_.added.add(gain);
      ms_.mark(static_cast<std::size_t>(blk.conn[k][a]));
    }
    scaled = true;
  }
  if (!scaled) return;
  // the range's step after scaling (the kernels' rule: first smallest in element order)
  r.min_dt = 1e300;
  r.min_dt_element = -1;
  for (std::size_t k = b; k < e; ++k) {
    if (blk.failed[k]) continue;
    const Real dte = Family::critical_dt(part.mat, blk, k, x);
    if (dte < r.min_dt) { // the kernels' comparison (a NaN step is not taken)
      r.min_dt = dte;
      r.min_dt_element = static_cast<std::int64_t>(k);
    }
  }
}

template void Integrator::scale_element_masses(SolidFamily, std::size_t, std::size_t, std::size_t,
                                               ElementPassResult&);
template void Integrator::scale_element_masses(ShellFamily, std::size_t, std::size_t, std::size_t,
                                               ElementPassResult&);
template void Integrator::scale_element_masses(TrussFamily, std::size_t, std::size_t, std::size_t,
                                               ElementPassResult&);
template void Integrator::scale_element_masses(BeamFamily, std::size_t, std::size_t, std::size_t,
                                               ElementPassResult&);

void Integrator::mark_scaled_nodes(std::span<const LocalId> nodes) {
  if (!ms_.on) return;
  for (LocalId node : nodes) ms_.mark(static_cast<std::size_t>(node));
}

void Integrator::update_scaled_masses() {
  if (!ms_.on || ms_.dirty_nodes.empty()) return;
  // In the corner order of the force assembly (nodal_update.cpp): solids, trusses, beams,
  // shells.
  auto sum = [](Real m, const std::vector<std::int64_t>& start,
                const std::vector<std::int64_t>& list, const std::vector<Real>& gain,
                std::size_t n) {
    for (auto k = start[n]; k < start[n + 1]; ++k)
      m += gain[static_cast<std::size_t>(list[static_cast<std::size_t>(k)])];
    return m;
  };
  constexpr std::size_t kSolid = SolidFamily::kIndex, kShell = ShellFamily::kIndex,
                        kTruss = TrussFamily::kIndex, kBeam = BeamFamily::kIndex;
  for (LocalId node : ms_.dirty_nodes) {
    const auto n = static_cast<std::size_t>(node);
    ms_.dirty[n] = 0;
    if (d_.rigid_of[n] >= 0) continue; // a rigid body's mass is the body's
    Real m = ms_.base_mass[n];
    m = sum(m, d_.solid_corner_start, d_.solid_corner_list, ms_.dm[kSolid], n);
    m = sum(m, d_.truss_corner_start, d_.truss_corner_list, ms_.dm[kTruss], n);
    m = sum(m, d_.beam_corner_start, d_.beam_corner_list, ms_.dm[kBeam], n);
    m = sum(m, d_.shell_corner_start, d_.shell_corner_list, ms_.dm[kShell], n);
    if (d_.owned[n]) {
      const Real* v = &d_.v[3 * n];
      ms_.ke_added.add(0.5 * (m - d_.mass[n]) * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]));
    }
    d_.mass[n] = m;
    if (d_.has_rot[n]) {
      Real j = ms_.base_inertia[n];
      j = sum(j, d_.beam_corner_start, d_.beam_corner_list, ms_.di[kBeam], n);
      j = sum(j, d_.shell_corner_start, d_.shell_corner_list, ms_.di[kShell], n);
      d_.inertia[n] = j;
    }
  }
  ms_.dirty_nodes.clear();
}

} // namespace parcae::explicit_detail
