// Element pass of the explicit cycle: element forces (boundary elements first, then the interior
// while the halo exchange is in flight) and the local step limit.
#include "solvers/explicit/integrator.hpp"

#include <type_traits>

namespace parcae::explicit_detail {

/// The controlling element so far, if dte (element elem of part part, family family of the
/// family table) is smaller. Ties go to the lower family, then the lower element id (solids
/// before shells) so that every decomposition names the same controlling element.
void Integrator::consider_step(Real dte, int family, std::string_view name, GlobalId elem,
                               GlobalId part) {
  const int cur = find_element_family(step_.limit.kind);
  if (dte < step_.limit.dt ||
      (dte == step_.limit.dt && std::pair(family, elem) < std::pair(cur, step_.limit.elem))) {
    step_.limit.dt = dte;
    step_.limit.kind = name;
    step_.limit.elem = elem;
    step_.limit.part = part;
  }
}

/// Element forces of the boundary (touching shared nodes) or interior elements of every part of
/// one family, in chunks of elements (one kernel call each); updates the local step limit.
template <class Family>
void Integrator::compute_family_elements(Family family, bool boundary, Real dt) {
  const NodalKinematics kin{d_.x, d_.v, d_.w, d_.x0, dt};
  constexpr std::size_t kChunk = 128;
  auto& parts = parts_of(d_, family);
  for (std::size_t p = 0; p < parts.size(); ++p) {
    auto& sp = parts[p];
    const std::size_t first = boundary ? 0 : sp.n_boundary;
    const std::size_t last = boundary ? sp.n_boundary : sp.blk.size();
    if (last <= first) continue;
    const std::size_t nchunk = (last - first + kChunk - 1) / kChunk;
    const CornerSpans corners = corner_spans_of(d_, sp);
    std::vector<ElementPassResult> res(nchunk);
    std::vector<std::vector<std::int64_t>> gone(erosion_.on ? nchunk : 0);
#pragma omp parallel for schedule(static) if (nchunk > 1)
    for (std::size_t c = 0; c < nchunk; ++c) {
      const std::size_t b = first + c * kChunk, e = std::min(last, b + kChunk);
      // The kernel also returns the smallest critical step of the range (first element with
      // it, in element order).
      res[c] = Family::compute_forces(sp.opt, sp.mat, sp.blk, b, e, kin, corners,
                                      opt_.use_reference_kernels);
      if constexpr (std::is_same_v<Family, ShellFamily>) {
        if (!airbags_.bag_of_part.empty() && airbags_.bag_of_part[p] >= 0)
          add_airbag_pressure(p, b, e, corners);
        if (!press_.shell.empty())
          add_segment_pressures(press_.shell[p], b, e, Family::kNodes, corners, sp.blk.failed);
      }
      if constexpr (std::is_same_v<Family, SolidFamily>)
        if (!press_.solid.empty())
          add_segment_pressures(press_.solid[p], b, e, Family::kNodes, corners, sp.blk.failed);
      if (erosion_.on && erode_range(family, p, b, e, gone[c])) {
        // the step of the elements left (the kernel's rule: first smallest in element order)
        res[c].min_dt = 1e300;
        res[c].min_dt_element = -1;
        for (std::size_t k = b; k < e; ++k) {
          if (sp.blk.failed[k]) continue;
          const Real dte = Family::critical_dt(sp.mat, sp.blk, k, kin.x);
          if (dte < res[c].min_dt) {
            res[c].min_dt = dte;
            res[c].min_dt_element = static_cast<std::int64_t>(k);
          }
        }
      }
    }
    for (const auto& g : gone)
      erosion_.eroded_now.insert(erosion_.eroded_now.end(), g.begin(), g.end());
    // Mass scaling during the run: only ranges whose step is below the target are visited.
    if (ms_.on && !relaxing_)
      for (std::size_t c = 0; c < nchunk; ++c)
        if (res[c].bad_element < 0 && res[c].min_dt_element >= 0 && res[c].min_dt > 0 &&
            res[c].min_dt < ms_.trigger)
          scale_element_masses(family, p, first + c * kChunk,
                               std::min(last, first + (c + 1) * kChunk), res[c]);
    for (const auto& r : res) {
      if (r.bad_element >= 0) {
        const auto k = static_cast<std::size_t>(r.bad_element);
        fail_local(fmt::format("negative or invalid volume in {} element {} of part {} ({})",
                               Family::kName, sp.elem_id[k], sp.pid, sp.title));
      }
      if (r.min_dt_element < 0) continue;
      const auto k = static_cast<std::size_t>(r.min_dt_element);
      if constexpr (Family::kChecksStep) {
        if (!std::isfinite(r.min_dt) || r.min_dt <= 0) {
          fail_local(fmt::format("{} element {} of part {} ({}) is degenerate (time step {})",
                                 Family::kName, sp.elem_id[k], sp.pid, sp.title, r.min_dt));
          continue;
        }
      }
      consider_step(r.min_dt, Family::kIndex, Family::kName, sp.elem_id[k], sp.pid);
    }
  }
}

/// Element forces of the boundary (touching shared nodes) or interior elements of every part,
/// family after family (fem/element_family.hpp); updates the local step limit. Instabilities
/// are recorded, not thrown, so that every rank reaches the collective calls that follow.
void Integrator::compute_elements(bool boundary, Real dt) {
  for_each_element_family([&](auto family) { compute_family_elements(family, boundary, dt); });
}

void Integrator::exchange_begin() {
  if (!comms_.halo) return;
  auto buf = comms_.halo->send_buffer();
  std::size_t pos = 0;
  for (const auto& h : d_.halo) {
    for (std::int64_t c : h.send_solid)
      for (int i = 0; i < 3; ++i) buf[pos++] = d_.corner_f_solid[3 * c + i];
    for (std::int64_t c : h.send_shell) {
      for (int i = 0; i < 3; ++i) buf[pos++] = d_.corner_f_shell[3 * c + i];
      for (int i = 0; i < 3; ++i) buf[pos++] = d_.corner_m_shell[3 * c + i];
    }
    for (std::int64_t c : h.send_truss)
      for (int i = 0; i < 3; ++i) buf[pos++] = d_.corner_f_truss[3 * c + i];
    for (std::int64_t c : h.send_beam) {
      for (int i = 0; i < 3; ++i) buf[pos++] = d_.corner_f_beam[3 * c + i];
      for (int i = 0; i < 3; ++i) buf[pos++] = d_.corner_m_beam[3 * c + i];
    }
    if (ms_.on) { // the corners' mass (and inertia) gained by mass scaling, after the forces
      const std::array<const std::vector<std::int64_t>*, MassScaling::kFamilies> send = {
          &h.send_solid, &h.send_shell, &h.send_truss, &h.send_beam};
      for (std::size_t f = 0; f < MassScaling::kFamilies; ++f)
        for (std::int64_t c : *send[f]) {
          buf[pos++] = ms_.dm[f][static_cast<std::size_t>(c)];
          buf[pos++] = ms_.di[f][static_cast<std::size_t>(c)];
        }
    }
  }
  comms_.halo->begin();
}

void Integrator::exchange_end() {
  if (!comms_.halo) return;
  comms_.halo->end();
  const auto buf = comms_.halo->recv_buffer();
  std::size_t pos = 0;
  std::size_t gs = 3 * d_.n_local_solid_corners, gh = 3 * d_.n_local_shell_corners;
  std::size_t gt = 3 * d_.n_local_truss_corners, gb = 3 * d_.n_local_beam_corners;
  std::array<std::size_t, MassScaling::kFamilies> ghost = {
      d_.n_local_solid_corners, d_.n_local_shell_corners, d_.n_local_truss_corners,
      d_.n_local_beam_corners};
  for (const auto& h : d_.halo) {
    for (std::size_t k = 0; k < 3 * h.recv_solid; ++k) d_.corner_f_solid[gs++] = buf[pos++];
    for (std::size_t k = 0; k < h.recv_shell; ++k) {
      for (int i = 0; i < 3; ++i) d_.corner_f_shell[gh + i] = buf[pos++];
      for (int i = 0; i < 3; ++i) d_.corner_m_shell[gh + i] = buf[pos++];
      gh += 3;
    }
    for (std::size_t k = 0; k < 3 * h.recv_truss; ++k) d_.corner_f_truss[gt++] = buf[pos++];
    for (std::size_t k = 0; k < h.recv_beam; ++k) {
      for (int i = 0; i < 3; ++i) d_.corner_f_beam[gb + i] = buf[pos++];
      for (int i = 0; i < 3; ++i) d_.corner_m_beam[gb + i] = buf[pos++];
      gb += 3;
    }
    if (ms_.on) { // ghost corners' gains: a changed one marks its node for update_scaled_masses
      const std::array<std::size_t, MassScaling::kFamilies> recv = {h.recv_solid, h.recv_shell,
                                                                    h.recv_truss, h.recv_beam};
      for (std::size_t f = 0; f < MassScaling::kFamilies; ++f)
        for (std::size_t k = 0; k < recv[f]; ++k) {
          const std::size_t c = ghost[f]++;
          const Real dm = buf[pos++], di = buf[pos++];
          if (dm == ms_.dm[f][c] && di == ms_.di[f][c]) continue;
          ms_.dm[f][c] = dm;
          ms_.di[f][c] = di;
          ms_.mark(static_cast<std::size_t>(ms_.corner_node[f][c]));
        }
    }
  }
}

/// Element forces with communication overlapped: boundary elements, post the exchange of their
/// corner forces, interior elements, wait. Then the global step limit (one reduction that also
/// tells every rank whether any rank hit an error).
void Integrator::element_pass(Real dt) {
  const Phases& ph = phases();
  step_.limit = StepLimit{};
  {
    PhaseScope p(ph.element_forces);
    compute_elements(true, dt);
  }
  {
    PhaseScope p(ph.halo_exchange);
    exchange_begin();
  }
  {
    PhaseScope p(ph.element_forces);
    compute_elements(false, dt);
  }
  {
    PhaseScope p(ph.halo_exchange);
    exchange_end();
  }
  // The global time step and the agreement on errors wait for the cycle's one reduction
  // (cycle_reduce); one process knows at once.
  if (!local_error_.empty() && comm_.size() == 1) throw Unstable{local_error_};
  erosion_sync();
}

} // namespace parcae::explicit_detail
