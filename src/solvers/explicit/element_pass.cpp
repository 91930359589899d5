// Element pass of the explicit cycle: element forces (boundary elements first, then the interior
// while the halo exchange is in flight) and the local step limit.
#include "solvers/explicit/integrator.hpp"

namespace parcae::explicit_detail {

/// Element forces of the boundary (touching shared nodes) or interior elements of every part;
/// updates the local step limit. Instabilities are recorded, not thrown, so that every rank
/// reaches the collective calls that follow.
void Integrator::compute_elements(bool boundary, Real dt) {
  const std::span<const Real> x(d_.x), v(d_.v), w(d_.w), x0(d_.x0);
  constexpr std::size_t kChunk = 128;
  auto consider = [&](Real dte, const char* kind, GlobalId elem, GlobalId part) {
    // Ties go to the lower element id (solids before shells) so that every decomposition
    // names the same controlling element.
    const int kind_rank = kind[1] == 'o' ? 0 : 1; // "solid" / "shell"
    const int cur_rank = step_.limit.kind.empty() ? 2 : (step_.limit.kind[1] == 'o' ? 0 : 1);
    if (dte < step_.limit.dt ||
        (dte == step_.limit.dt &&
         std::pair(kind_rank, elem) < std::pair(cur_rank, step_.limit.elem))) {
      step_.limit.dt = dte;
      step_.limit.kind = kind;
      step_.limit.elem = elem;
      step_.limit.part = part;
    }
  };
  for (std::size_t p = 0; p < d_.solids.size(); ++p) {
    auto& sp = d_.solids[p];
    const std::size_t first = boundary ? 0 : sp.n_boundary;
    const std::size_t last = boundary ? sp.n_boundary : sp.blk.size();
    if (last <= first) continue;
    const std::size_t nchunk = (last - first + kChunk - 1) / kChunk;
    std::vector<HexPassResult> res(nchunk);
    std::vector<std::vector<std::int64_t>> gone(erosion_.on ? nchunk : 0);
    std::span<Real> fe(d_.corner_f_solid.data() + 3 * sp.corner_offset, 24 * sp.blk.size());
#pragma omp parallel for schedule(static) if (nchunk > 1)
    for (std::size_t c = 0; c < nchunk; ++c) {
      const std::size_t b = first + c * kChunk, e = std::min(last, b + kChunk);
      res[c] = opt_.use_reference_kernels
                   ? compute_hex_forces_reference(sp.opt, sp.mat, sp.blk, b, e, x, v, dt, fe, x0)
                   : compute_hex_forces(sp.opt, sp.mat, sp.blk, b, e, x, v, dt, fe, x0);
      if (erosion_.on && erode_solids(p, b, e, gone[c])) {
        // the step of the elements left (the kernel's rule: first smallest in element order)
        res[c].min_dt = 1e300;
        res[c].min_dt_element = -1;
        for (std::size_t k = b; k < e; ++k)
          if (!sp.blk.failed[k] && sp.blk.dt[k] < res[c].min_dt) {
            res[c].min_dt = sp.blk.dt[k];
            res[c].min_dt_element = static_cast<std::int64_t>(k);
          }
      }
    }
    for (const auto& g : gone)
      erosion_.eroded_now.insert(erosion_.eroded_now.end(), g.begin(), g.end());
    for (const auto& r : res) {
      if (r.bad_element >= 0)
        fail_local(fmt::format("negative or invalid volume in {}",
                               describe_solid(p, static_cast<std::size_t>(r.bad_element))));
      if (r.min_dt_element >= 0)
        consider(r.min_dt, "solid", sp.elem_id[static_cast<std::size_t>(r.min_dt_element)], sp.pid);
    }
  }
  for (std::size_t p = 0; p < d_.shells.size(); ++p) {
    auto& sp = d_.shells[p];
    const std::size_t first = boundary ? 0 : sp.n_boundary;
    const std::size_t last = boundary ? sp.n_boundary : sp.blk.size();
    if (last <= first) continue;
    const std::size_t nchunk = (last - first + kChunk - 1) / kChunk;
    std::span<Real> fe(d_.corner_f_shell.data() + 3 * sp.corner_offset, 12 * sp.blk.size());
    std::span<Real> me(d_.corner_m_shell.data() + 3 * sp.corner_offset, 12 * sp.blk.size());
    std::vector<std::pair<Real, std::size_t>> best(nchunk, {1e300, 0});
    std::vector<std::vector<std::int64_t>> gone(erosion_.on ? nchunk : 0);
#pragma omp parallel for schedule(static) if (nchunk > 1)
    for (std::size_t c = 0; c < nchunk; ++c) {
      const std::size_t b = first + c * kChunk, e = std::min(last, b + kChunk);
      // The kernel also returns the smallest critical step of the range (first element with
      // it, in element order).
      const ShellPassResult r =
          opt_.use_reference_kernels
              ? compute_shell_forces_reference(sp.opt, sp.mat, sp.blk, b, e, x, v, w, dt, fe, me)
              : compute_shell_forces(sp.opt, sp.mat, sp.blk, b, e, x, v, w, dt, fe, me);
      if (r.min_dt_element >= 0) best[c] = {r.min_dt, static_cast<std::size_t>(r.min_dt_element)};
      if (erosion_.on && erode_shells(p, b, e, gone[c])) {
        best[c] = {1e300, 0};
        for (std::size_t k = b; k < e; ++k) {
          if (sp.blk.failed[k]) continue;
          const Real dte = shell_critical_dt(sp.mat, sp.blk, k, x);
          if (dte < best[c].first) best[c] = {dte, k};
        }
      }
    }
    for (const auto& g : gone)
      erosion_.eroded_now.insert(erosion_.eroded_now.end(), g.begin(), g.end());
    for (const auto& [dte, k] : best) {
      if (dte == 1e300) continue;
      if (!std::isfinite(dte) || dte <= 0) {
        fail_local(fmt::format("shell element {} of part {} ({}) is degenerate (time step {})",
                               sp.elem_id[k], sp.pid, sp.title, dte));
        continue;
      }
      consider(dte, "shell", sp.elem_id[k], sp.pid);
    }
  }
}

void Integrator::exchange_begin() {
  if (!exchange_) return;
  auto buf = exchange_->send_buffer();
  std::size_t pos = 0;
  for (const auto& h : d_.halo) {
    for (std::int64_t c : h.send_solid)
      for (int i = 0; i < 3; ++i) buf[pos++] = d_.corner_f_solid[3 * c + i];
    for (std::int64_t c : h.send_shell) {
      for (int i = 0; i < 3; ++i) buf[pos++] = d_.corner_f_shell[3 * c + i];
      for (int i = 0; i < 3; ++i) buf[pos++] = d_.corner_m_shell[3 * c + i];
    }
  }
  exchange_->begin();
}

void Integrator::exchange_end() {
  if (!exchange_) return;
  exchange_->end();
  const auto buf = exchange_->recv_buffer();
  std::size_t pos = 0;
  std::size_t gs = 3 * d_.n_local_solid_corners, gh = 3 * d_.n_local_shell_corners;
  for (const auto& h : d_.halo) {
    for (std::size_t k = 0; k < 3 * h.recv_solid; ++k) d_.corner_f_solid[gs++] = buf[pos++];
    for (std::size_t k = 0; k < h.recv_shell; ++k) {
      for (int i = 0; i < 3; ++i) d_.corner_f_shell[gh + i] = buf[pos++];
      for (int i = 0; i < 3; ++i) d_.corner_m_shell[gh + i] = buf[pos++];
      gh += 3;
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
