#include "solvers/explicit/solver.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <ostream>

#include <fmt/format.h>
#include <omp.h>

#include "io/vtk_writer.hpp"
#include "solvers/explicit/rigid_body.hpp"
#include "solvers/explicit/rigid_wall.hpp"

namespace parcae {

namespace {

constexpr Real kNaN = std::numeric_limits<Real>::quiet_NaN();
/// Below this many nodes the nodal loops run serially (a parallel region costs more).
constexpr std::int64_t kParallelNodes = 4096;

/// Where the controlling time step came from.
struct StepLimit {
  Real dt = std::numeric_limits<Real>::infinity();
  std::string kind;
  GlobalId elem = 0;
  GlobalId part = 0;
};

struct Unstable {
  std::string message;
};

class Integrator {
public:
  Integrator(const Model& model, const RunOptions& opt)
      : model_(model), opt_(opt), d_(build_domain(model)) {
    for (const auto& c : model.curves) curves_[c.id] = &c;
    f_ext_.assign(3 * d_.nnode, 0.0);
    m_app_.assign(3 * d_.nnode, 0.0);
    walls_ = make_rigid_walls(model, d_);
  }

  RunSummary run();

private:
  Real curve(GlobalId id, Real t) const {
    if (id == 0) return 1.0;
    return curves_.at(id)->eval(t);
  }
  std::vector<LocalId> nodes_of(bool is_set, GlobalId id) const;
  void element_pass(Real dt);
  void assemble_and_accelerate(Real t);
  void external_forces(Real t);
  void update_velocities(Real dt_avg, Real dt_new, Real t);
  GlobalStats stats(int cycle, Real t, Real dt) const;
  void write_state(Real t, bool previous_positions = false, Real dt = 0);
  void check_finite(int cycle) const;
  std::string describe_solid(std::size_t part, std::size_t e) const {
    return fmt::format("solid element {} of part {} ({})", d_.solids[part].elem_id[e],
                       d_.solids[part].pid, d_.solids[part].title);
  }

  const Model& model_;
  const RunOptions& opt_;
  Domain d_;
  std::map<GlobalId, const Curve*> curves_;
  std::vector<Real> f_ext_, m_app_; ///< applied loads (forces, moments) at the current time
  std::vector<RigidWallState> walls_;
  StepLimit limit_;
  Real ext_work_ = 0;
  Real wall_energy_ = 0;
  std::vector<std::pair<Real, std::string>> states_;
  std::unique_ptr<GlstatWriter> glstat_;
};

std::vector<LocalId> Integrator::nodes_of(bool is_set, GlobalId id) const {
  std::vector<LocalId> out;
  if (!is_set) {
    const LocalId n = model_.node_index(id);
    if (n != kInvalidLocal) out.push_back(n);
    return out;
  }
  const auto it = model_.node_sets.find(id);
  if (it == model_.node_sets.end()) return out;
  for (GlobalId g : it->second.members) {
    const LocalId n = model_.node_index(g);
    if (n != kInvalidLocal) out.push_back(n);
  }
  return out;
}

void Integrator::element_pass(Real dt) {
  limit_ = StepLimit{};
  const std::span<const Real> x(d_.x), v(d_.v), w(d_.w);
  constexpr std::size_t kChunk = 128;
  for (std::size_t p = 0; p < d_.solids.size(); ++p) {
    auto& sp = d_.solids[p];
    const std::size_t n = sp.blk.size();
    const std::size_t nchunk = (n + kChunk - 1) / kChunk;
    std::vector<HexPassResult> res(nchunk);
    std::span<Real> fe(d_.corner_f_solid.data() + 3 * sp.corner_offset, 24 * n);
#pragma omp parallel for schedule(static) if (nchunk > 1)
    for (std::size_t c = 0; c < nchunk; ++c) {
      const std::size_t b = c * kChunk, e = std::min(n, b + kChunk);
      res[c] = opt_.use_reference_kernels
                   ? compute_hex_forces_reference(sp.opt, sp.mat, sp.blk, b, e, x, v, dt, fe)
                   : compute_hex_forces(sp.opt, sp.mat, sp.blk, b, e, x, v, dt, fe);
    }
    for (const auto& r : res) {
      if (r.bad_element >= 0)
        throw Unstable{fmt::format("negative or invalid volume in {}",
                                   describe_solid(p, static_cast<std::size_t>(r.bad_element)))};
      if (r.min_dt < limit_.dt) {
        limit_.dt = r.min_dt;
        limit_.kind = "solid";
        limit_.elem = sp.elem_id[static_cast<std::size_t>(r.min_dt_element)];
        limit_.part = sp.pid;
      }
    }
  }
  for (auto& sp : d_.shells) {
    const std::size_t n = sp.blk.size();
    const std::size_t nchunk = (n + kChunk - 1) / kChunk;
    std::span<Real> fe(d_.corner_f_shell.data() + 3 * sp.corner_offset, 12 * n);
    std::span<Real> me(d_.corner_m_shell.data() + 3 * sp.corner_offset, 12 * n);
    std::vector<std::pair<Real, std::size_t>> best(nchunk, {1e300, 0});
#pragma omp parallel for schedule(static) if (nchunk > 1)
    for (std::size_t c = 0; c < nchunk; ++c) {
      const std::size_t b = c * kChunk, e = std::min(n, b + kChunk);
      if (opt_.use_reference_kernels)
        compute_shell_forces_reference(sp.opt, sp.mat, sp.blk, b, e, x, v, w, dt, fe, me);
      else
        compute_shell_forces(sp.opt, sp.mat, sp.blk, b, e, x, v, w, dt, fe, me);
      for (std::size_t k = b; k < e; ++k) {
        if (sp.blk.failed[k]) continue;
        const Real dte = shell_critical_dt(sp.mat, sp.blk, k, x);
        if (dte < best[c].first) best[c] = {dte, k};
      }
    }
    for (const auto& [dte, k] : best) {
      if (!std::isfinite(dte) || dte <= 0)
        throw Unstable{fmt::format("shell element {} of part {} ({}) is degenerate (time step "
                                   "{})",
                                   sp.elem_id[k], sp.pid, sp.title, dte)};
      if (dte < limit_.dt) {
        limit_.dt = dte;
        limit_.kind = "shell";
        limit_.elem = sp.elem_id[k];
        limit_.part = sp.pid;
      }
    }
  }
}

void Integrator::external_forces(Real t) {
  std::fill(f_ext_.begin(), f_ext_.end(), 0.0);
  std::fill(m_app_.begin(), m_app_.end(), 0.0);
  for (const auto& ld : model_.nodal_loads) {
    const Real val = ld.sf * curve(ld.lcid, t);
    for (LocalId n : nodes_of(ld.is_set, ld.target_id)) {
      if (ld.dof >= 1 && ld.dof <= 3) f_ext_[3 * n + ld.dof - 1] += val;
      if (ld.dof >= 5 && ld.dof <= 7) m_app_[3 * n + ld.dof - 5] += val;
    }
  }
  for (const auto& bl : model_.body_loads) {
    const Real acc = bl.sf * curve(bl.lcid, t);
    for (std::size_t n = 0; n < d_.nnode; ++n) f_ext_[3 * n + bl.dir] -= d_.mass[n] * acc;
  }
}

void Integrator::assemble_and_accelerate(Real t) {
  external_forces(t);
  const std::int64_t nn = static_cast<std::int64_t>(d_.nnode);
#pragma omp parallel for schedule(static) if (nn > kParallelNodes)
  for (std::int64_t n = 0; n < nn; ++n) {
    Real f[3] = {f_ext_[3 * n], f_ext_[3 * n + 1], f_ext_[3 * n + 2]};
    for (std::int64_t k = d_.solid_corner_start[n]; k < d_.solid_corner_start[n + 1]; ++k) {
      const Real* c = &d_.corner_f_solid[3 * d_.solid_corner_list[k]];
      f[0] -= c[0];
      f[1] -= c[1];
      f[2] -= c[2];
    }
    Real m[3] = {m_app_[3 * n], m_app_[3 * n + 1], m_app_[3 * n + 2]};
    for (std::int64_t k = d_.shell_corner_start[n]; k < d_.shell_corner_start[n + 1]; ++k) {
      const std::int64_t c = 3 * d_.shell_corner_list[k];
      for (int i = 0; i < 3; ++i) {
        f[i] -= d_.corner_f_shell[c + i];
        m[i] -= d_.corner_m_shell[c + i];
      }
    }
    const Real inv_m = d_.mass[n] > 0 ? 1.0 / d_.mass[n] : 0.0;
    for (int i = 0; i < 3; ++i) {
      d_.f[3 * n + i] = f[i];
      d_.m_ext[3 * n + i] = m[i];
      d_.a[3 * n + i] = f[i] * inv_m;
    }
  }
}

void Integrator::update_velocities(Real dt_avg, Real dt_new, Real t) {
  // t is the time at the start of the step; velocities live at t + dt_new / 2.
  const std::int64_t nn = static_cast<std::int64_t>(d_.nnode);
  std::vector<Real> v_old; // only needed where constraints do work
  const bool track = !model_.motions.empty() || !walls_.empty();
  if (track) v_old = d_.v;
  // External work of the applied loads over the step: f_ext(t) . (v_old + v_new)/2 * dt_avg,
  // summed below once v_new is known.
  std::vector<Real> v_before = d_.v;
#pragma omp parallel for schedule(static) if (nn > kParallelNodes)
  for (std::int64_t n = 0; n < nn; ++n) {
    if (d_.rigid_of[n] >= 0) continue;
    for (int i = 0; i < 3; ++i) d_.v[3 * n + i] += dt_avg * d_.a[3 * n + i];
    if (d_.has_rot[n] && d_.inertia[n] > 0)
      for (int i = 0; i < 3; ++i) d_.w[3 * n + i] += dt_avg * d_.m_ext[3 * n + i] / d_.inertia[n];
    const auto& fix = d_.spc[n];
    for (int i = 0; i < 3; ++i) {
      if (fix[i]) d_.v[3 * n + i] = 0;
      if (fix[i + 3]) d_.w[3 * n + i] = 0;
    }
  }
  // Prescribed motion on nodes (work done by the constraint is external work).
  std::vector<std::array<Real, 3>> presc_v(d_.bodies.size(), {kNaN, kNaN, kNaN});
  std::vector<std::array<Real, 3>> presc_w(d_.bodies.size(), {kNaN, kNaN, kNaN});
  for (const auto& pm : model_.motions) {
    if (t + dt_new < pm.birth || t > pm.death) continue;
    const bool rot = pm.dof >= 5 && pm.dof <= 7;
    const int comp = rot ? pm.dof - 5 : pm.dof - 1;
    auto target_velocity = [&](Real vold, Real disp) {
      switch (pm.vad) {
      case MotionKind::Velocity:
        return pm.sf * curve(pm.lcid, t + 0.5 * dt_new);
      case MotionKind::Acceleration:
        return vold + dt_avg * pm.sf * curve(pm.lcid, t);
      case MotionKind::Displacement:
        return (pm.sf * curve(pm.lcid, t + dt_new) - disp) / dt_new;
      }
      return vold;
    };
    if (pm.target == MotionTarget::Rigid) {
      for (std::size_t b = 0; b < d_.bodies.size(); ++b) {
        if (d_.bodies[b].pid != pm.target_id) continue;
        if (rot)
          presc_w[b][comp] = target_velocity(d_.bodies[b].omega[comp], 0.0);
        else
          presc_v[b][comp] = target_velocity(d_.bodies[b].v[comp], d_.bodies[b].xc[comp] - 0.0);
      }
      continue;
    }
    for (LocalId n : nodes_of(pm.target == MotionTarget::NodeSet, pm.target_id)) {
      if (rot) {
        d_.w[3 * n + comp] = target_velocity(d_.w[3 * n + comp], 0.0);
        continue;
      }
      const std::size_t k = 3 * static_cast<std::size_t>(n) + comp;
      const Real vfree = d_.v[k];
      const Real vnew = target_velocity(v_old[k] /*previous half step*/, d_.x[k] - d_.x0[k]);
      d_.v[k] = vnew;
      ext_work_ += d_.mass[n] * (vnew - vfree) * 0.5 * (v_old[k] + vnew);
    }
  }
  // Rigid walls.
  // A fixed wall absorbs energy (glstat's rigid wall energy); a moving wall does work on the
  // structure, which is external work.
  for (auto& wall : walls_) {
    const Real work = apply_rigid_wall(wall, d_, v_old, dt_new, t);
    if (wall.wall.moving)
      ext_work_ += work;
    else
      wall_energy_ -= work;
  }
  // Work of the applied loads.
  Real dw = 0;
  for (std::int64_t n = 0; n < nn; ++n)
    for (int i = 0; i < 3; ++i) {
      const Real fe = f_ext_[3 * n + i];
      if (fe != 0) dw += fe * 0.5 * (v_before[3 * n + i] + d_.v[3 * n + i]);
    }
  ext_work_ += dw * dt_avg;
  // Rigid bodies: velocities and positions.
  for (std::size_t b = 0; b < d_.bodies.size(); ++b)
    advance_rigid_body(d_.bodies[b], d_, dt_avg, dt_new, presc_v[b], presc_w[b]);
}

GlobalStats Integrator::stats(int cycle, Real t, Real dt) const {
  GlobalStats s;
  s.cycle = cycle;
  s.time = t;
  s.dt = dt;
  s.dt_element_kind = limit_.kind;
  s.dt_element = limit_.elem;
  s.dt_part = limit_.part;
  Real ke = 0, px = 0, py = 0, pz = 0, mass = 0;
  for (std::size_t n = 0; n < d_.nnode; ++n) {
    if (d_.rigid_of[n] >= 0) continue;
    const Real m = d_.mass[n];
    const Real* v = &d_.v[3 * n];
    ke += 0.5 * m * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (d_.has_rot[n]) {
      const Real* w = &d_.w[3 * n];
      ke += 0.5 * d_.inertia[n] * (w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    }
    px += m * v[0];
    py += m * v[1];
    pz += m * v[2];
    mass += m;
  }
  for (const auto& b : d_.bodies) {
    ke += rigid_body_kinetic_energy(b);
    px += b.mass * b.v[0];
    py += b.mass * b.v[1];
    pz += b.mass * b.v[2];
    mass += b.mass;
  }
  Real ie = 0, hg = 0;
  for (const auto& sp : d_.solids)
    for (std::size_t e = 0; e < sp.blk.size(); ++e) {
      ie += sp.blk.e_int[e];
      hg += sp.blk.e_hg[e];
    }
  for (const auto& sp : d_.shells)
    for (std::size_t e = 0; e < sp.blk.size(); ++e) {
      ie += sp.blk.e_int[e];
      hg += sp.blk.e_hg[e];
    }
  s.kinetic = ke;
  s.internal = ie;
  s.hourglass = hg;
  s.external_work = ext_work_;
  s.rigidwall = wall_energy_;
  s.total = ke + ie + hg + wall_energy_;
  s.mass = mass;
  s.added_mass = d_.added_mass;
  if (mass > 0) {
    s.vx = px / mass;
    s.vy = py / mass;
    s.vz = pz / mass;
  }
  s.nodes = d_.nnode;
  s.elements = model_.solids.size() + model_.shells.size();
  return s;
}

void Integrator::write_state(Real t, bool previous_positions, Real dt) {
  if (!opt_.write_vtk) return;
  namespace fs = std::filesystem;
  fs::create_directories(fs::path(opt_.outdir) / "states");
  std::vector<Real> pts = d_.x;
  if (previous_positions)
    for (std::size_t k = 0; k < pts.size(); ++k) pts[k] -= dt * d_.v[k];
  VtkGrid g;
  g.points = pts;
  std::vector<Real> stress, epsp, pid, eid;
  // Cell data looked up per deck element: map (part id) -> block.
  std::map<GlobalId, const SolidPart*> sp_of;
  std::map<GlobalId, const ShellPart*> sh_of;
  for (const auto& p : d_.solids) sp_of[p.pid] = &p;
  for (const auto& p : d_.shells) sh_of[p.pid] = &p;
  std::map<GlobalId, std::size_t> counter;
  auto push_cell = [&](GlobalId part, GlobalId id, const Real* sig, Real ep) {
    for (int k = 0; k < 6; ++k) stress.push_back(sig ? sig[k] : 0.0);
    epsp.push_back(ep);
    pid.push_back(static_cast<Real>(part));
    eid.push_back(static_cast<Real>(id));
  };
  for (std::size_t e = 0; e < model_.solids.size(); ++e) {
    for (LocalId n : model_.solids.nodes[e]) g.connectivity.push_back(n);
    g.offsets.push_back(static_cast<std::int64_t>(g.connectivity.size()));
    g.types.push_back(12);
    const GlobalId part = model_.solids.part[e];
    const auto it = sp_of.find(part);
    if (it == sp_of.end()) {
      push_cell(part, model_.solids.id[e], nullptr, 0.0);
      continue;
    }
    const std::size_t k = counter[part]++;
    push_cell(part, model_.solids.id[e], &it->second->blk.sig[6 * k], it->second->blk.eps_p[k]);
  }
  for (std::size_t e = 0; e < model_.shells.size(); ++e) {
    const auto& cn = model_.shells.nodes[e];
    const bool tri = cn[2] == cn[3];
    for (int a = 0; a < (tri ? 3 : 4); ++a) g.connectivity.push_back(cn[a]);
    g.offsets.push_back(static_cast<std::int64_t>(g.connectivity.size()));
    g.types.push_back(tri ? 5 : 9);
    const GlobalId part = model_.shells.part[e];
    const auto it = sh_of.find(part);
    if (it == sh_of.end()) {
      push_cell(part, model_.shells.id[e], nullptr, 0.0);
      continue;
    }
    const auto& blk = it->second->blk;
    const int nip = it->second->opt.nip;
    const std::size_t k = counter[-part - 1]++;
    // Mid-surface average of the through-thickness points, local frame [xx yy 0 xy yz zx].
    Real sig[6] = {0, 0, 0, 0, 0, 0};
    Real ep = 0;
    for (int ip = 0; ip < nip; ++ip) {
      const Real* s = &blk.sig[(k * nip + ip) * 5];
      sig[0] += s[0] / nip;
      sig[1] += s[1] / nip;
      sig[3] += s[2] / nip;
      sig[4] += s[3] / nip;
      sig[5] += s[4] / nip;
      ep = std::max(ep, blk.eps_p[k * nip + ip]);
    }
    push_cell(part, model_.shells.id[e], sig, ep);
  }
  std::vector<Real> disp(pts.size());
  for (std::size_t k = 0; k < pts.size(); ++k) disp[k] = pts[k] - d_.x0[k];
  g.point_data.push_back({"displacement", 3, std::move(disp)});
  g.point_data.push_back({"velocity", 3, d_.v});
  g.cell_data.push_back({"stress", 6, std::move(stress)});
  g.cell_data.push_back({"effective_plastic_strain", 1, std::move(epsp)});
  g.cell_data.push_back({"part_id", 1, std::move(pid)});
  g.cell_data.push_back({"element_id", 1, std::move(eid)});
  const std::string name = fmt::format("states/state_{:05d}.vtu", states_.size());
  write_vtu((fs::path(opt_.outdir) / name).string(), g, t);
  states_.emplace_back(t, name);
  write_pvd((fs::path(opt_.outdir) / "parcae.pvd").string(), states_);
}

void Integrator::check_finite(int cycle) const {
  for (std::size_t n = 0; n < d_.nnode; ++n)
    for (int i = 0; i < 3; ++i)
      if (!std::isfinite(d_.v[3 * n + i]) || !std::isfinite(d_.x[3 * n + i]))
        throw Unstable{
            fmt::format("NaN or infinite velocity at node {} in cycle {}", d_.node_id[n], cycle)};
}

std::string format_duration(Real s) {
  if (!std::isfinite(s) || s < 0) return "--";
  if (s < 60) return fmt::format("{:.1f}s", s);
  if (s < 3600)
    return fmt::format("{}m{:02d}s", static_cast<int>(s / 60), static_cast<int>(s) % 60);
  return fmt::format("{}h{:02d}m", static_cast<int>(s / 3600), static_cast<int>(s / 60) % 60);
}

RunSummary Integrator::run() {
  using clock = std::chrono::steady_clock;
  RunSummary sum;
  std::ostream* log = opt_.log;
  const Controls& c = model_.control;
  namespace fs = std::filesystem;
  fs::create_directories(opt_.outdir);
  if (opt_.threads > 0) omp_set_num_threads(opt_.threads);

  // Initial force pass: stresses are zero, hourglass viscosity acts on the initial velocities.
  element_pass(0.0);
  assemble_and_accelerate(0.0);
  const Real dt_crit0 = limit_.dt;
  Real dt = c.tssfac * dt_crit0;
  if (c.dtinit > 0) dt = std::min(dt, c.dtinit);
  if (!std::isfinite(dt) && d_.element_count() == 0 && !d_.bodies.empty())
    dt = c.dtinit > 0 ? c.dtinit : c.endtim / 1000.0; // rigid bodies only
  if (!(dt > 0) || !std::isfinite(dt))
    throw RuntimeError("cannot determine a time step (no deformable elements and no DTINIT)");
  sum.dt_initial = dt;
  if (log)
    *log << model_summary(model_, d_, dt, limit_.kind, limit_.elem, limit_.part) << std::flush;

  if (opt_.write_glstat) {
    glstat_ = std::make_unique<GlstatWriter>((fs::path(opt_.outdir) / "glstat").string(), c.title);
    if (!walls_.empty()) glstat_->set_rigidwall_output(true);
  }
  const std::size_t nelem = d_.element_count();
  const Real endtim = c.endtim;
  const Real glstat_dt = c.glstat_dt > 0 ? c.glstat_dt : endtim / 100.0;
  const Real plot_dt = c.d3plot_dt > 0 ? c.d3plot_dt : endtim / 20.0;
  Real next_glstat = 0, next_plot = 0;
  GlobalStats st = stats(0, 0.0, dt);
  st.initial_total = st.total;
  sum.initial = st;
  const Real e0 = st.total;
  if (glstat_) glstat_->write(st);
  write_state(0.0);
  next_glstat += glstat_dt;
  next_plot += plot_dt;

  const auto t_start = clock::now();
  auto last_print = t_start;
  Real next_print_time = 0.1 * endtim;
  if (log)
    *log << fmt::format("\n{:>9} {:>12} {:>11} {:>6} {:>9} {:>9} {:>10}\n", "cycle", "time", "dt",
                        "done", "elapsed", "ETA", "E ratio");
  auto print_progress = [&](int cycle, Real t, Real dtc, const GlobalStats& s) {
    const Real el = std::chrono::duration<Real>(clock::now() - t_start).count();
    const Real frac = endtim > 0 ? t / endtim : 0;
    const Real eta = frac > 0 ? el * (1 - frac) / frac : -1;
    *log << fmt::format("{:>9} {:>12.5e} {:>11.4e} {:>5.1f}% {:>9} {:>9} {:>10.5f}\n", cycle, t,
                        dtc, 100 * frac, format_duration(el), format_duration(eta),
                        s.energy_ratio())
         << std::flush;
  };

  Real t = 0, dt_old = 0;
  int cycle = 0;
  const Real dtmin_abs = (c.dtmin > 0 ? c.dtmin : 1e-6) * dt;
  try {
    while (t < endtim * (1 - 1e-12) && (c.endcyc <= 0 || cycle < c.endcyc)) {
      // Only rigid bodies (no element limits the step): keep the initial step.
      Real dt_new = cycle == 0 || !std::isfinite(limit_.dt) ? dt : c.tssfac * limit_.dt;
      if (c.dtinit > 0 && cycle == 0) dt_new = dt;
      if (t + dt_new > endtim) dt_new = endtim - t;
      if (dt_new < dtmin_abs && t + dt_new < endtim * (1 - 1e-9))
        throw Unstable{fmt::format("time step collapsed to {:.4e} (below {:.4e}) in {} {} of "
                                   "part {}",
                                   dt_new, dtmin_abs, limit_.kind, limit_.elem, limit_.part)};
      const Real dt_avg = cycle == 0 ? 0.5 * dt_new : 0.5 * (dt_old + dt_new);
      update_velocities(dt_avg, dt_new, t);
      const std::int64_t nn = static_cast<std::int64_t>(d_.nnode);
#pragma omp parallel for schedule(static) if (nn > kParallelNodes)
      for (std::int64_t n = 0; n < nn; ++n) {
        if (d_.rigid_of[n] >= 0) continue;
        for (int i = 0; i < 3; ++i) d_.x[3 * n + i] += dt_new * d_.v[3 * n + i];
      }
      t += dt_new;
      ++cycle;
      dt_old = dt_new;
      element_pass(dt_new);
      assemble_and_accelerate(t);
      if (cycle % 100 == 0) check_finite(cycle);

      const bool want_glstat = t >= next_glstat * (1 - 1e-9) || t >= endtim * (1 - 1e-12);
      const bool want_plot = t >= next_plot * (1 - 1e-9) || t >= endtim * (1 - 1e-12);
      const bool want_print =
          log && (t >= next_print_time * (1 - 1e-9) ||
                  std::chrono::duration<Real>(clock::now() - last_print).count() > 10.0);
      if (want_glstat || want_plot || want_print || opt_.stats_every_cycle || opt_.on_cycle) {
        st = stats(cycle, t, dt_new);
        st.initial_total = e0;
        const Real el = std::chrono::duration<Real>(clock::now() - t_start).count();
        st.time_per_zone_cycle_ns = nelem > 0 ? 1e9 * el / (static_cast<Real>(cycle) * nelem) : 0;
        if (!std::isfinite(st.total))
          throw Unstable{fmt::format("energy became NaN/infinite in cycle {}", cycle)};
        if (want_glstat && glstat_) {
          glstat_->write(st);
          while (next_glstat <= t * (1 + 1e-9)) next_glstat += glstat_dt;
        }
        if (want_plot) {
          write_state(t);
          while (next_plot <= t * (1 + 1e-9)) next_plot += plot_dt;
        }
        if (want_print) {
          print_progress(cycle, t, dt_new, st);
          last_print = clock::now();
          while (next_print_time <= t * (1 + 1e-9)) next_print_time += 0.1 * endtim;
        }
        if (opt_.on_cycle && !opt_.on_cycle(d_, st)) break;
      }
    }
    check_finite(cycle);
    sum.normal_termination = true;
  } catch (const Unstable& u) {
    sum.error = u.message;
    // The last good state: positions before this step's update.
    write_state(t - dt_old, true, dt_old);
    if (log)
      *log << "\n*** error: " << u.message
           << "\n    last good state written at t = " << fmt::format("{:.6e}", t - dt_old) << "\n";
  }
  sum.elapsed_s = std::chrono::duration<Real>(clock::now() - t_start).count();
  sum.cycles = cycle;
  sum.time = t;
  st = stats(cycle, t, dt_old);
  st.initial_total = e0;
  sum.final_stats = st;
  sum.energy_error = std::abs(st.energy_ratio() - 1.0);
  sum.element_cycles_per_s =
      sum.elapsed_s > 0 ? static_cast<Real>(cycle) * static_cast<Real>(nelem) / sum.elapsed_s : 0;
  if (log) {
    *log << fmt::format("\n{} termination at cycle {}, time {:.6e}\n",
                        sum.normal_termination ? "normal" : "error", cycle, t);
    *log << fmt::format("  elapsed {:.3f} s, {:.4g} element-cycles/s ({} thread(s))\n",
                        sum.elapsed_s, sum.element_cycles_per_s, omp_get_max_threads());
    *log << fmt::format("  kinetic {:.6e}  internal {:.6e}  hourglass {:.6e}\n", st.kinetic,
                        st.internal, st.hourglass);
    *log << fmt::format("  external work {:.6e}  rigid wall {:.6e}  total {:.6e}\n",
                        st.external_work, st.rigidwall, st.total);
    *log << fmt::format("  energy ratio {:.6f}  (energy error {:.3f}%)\n", st.energy_ratio(),
                        100 * sum.energy_error);
  }
  return sum;
}

} // namespace

std::string model_summary(const Model& model, const Domain& d, Real dt0, const std::string& dt_kind,
                          GlobalId dt_elem, GlobalId dt_part) {
  std::string s;
  s += fmt::format("model: {}\n", model.control.title.empty() ? "(untitled)" : model.control.title);
  s += fmt::format("  nodes            {}\n", model.nodes.size());
  s += fmt::format("  solid elements   {}\n", model.solids.size());
  s += fmt::format("  shell elements   {}\n", model.shells.size());
  s += fmt::format("  rigid bodies     {}\n", d.bodies.size());
  s += "  parts:\n";
  for (const auto& p : model.parts) {
    const Material* m = model.find_material(p.mid);
    const Section* sec = model.find_section(p.secid);
    static const char* kMat[] = {"ELASTIC (001)", "PLASTIC_KINEMATIC (003)", "RIGID (020)",
                                 "PIECEWISE_LINEAR_PLASTICITY (024)"};
    s += fmt::format(
        "    part {:>6} {:<24} mat {} {:<34} sec {} {} elform {}\n", p.id,
        p.title.empty() ? "-" : p.title, p.mid, m ? kMat[static_cast<int>(m->kind)] : "?", p.secid,
        sec ? (sec->kind == SectionKind::Solid ? "solid" : "shell") : "?", sec ? sec->elform : 0);
  }
  s += fmt::format("  total mass       {:.6e}\n", d.physical_mass + d.added_mass);
  if (d.added_mass > 0)
    s += fmt::format("  added mass       {:.6e} ({:.3f}% by mass scaling, DT2MS)\n", d.added_mass,
                     100 * d.added_mass / d.physical_mass);
  s += fmt::format("  initial dt       {:.6e} (TSSFAC {}), controlled by {} {} of part {}\n", dt0,
                   model.control.tssfac, dt_kind.empty() ? "-" : dt_kind, dt_elem, dt_part);
  s += fmt::format("  termination time {:.6e}\n", model.control.endtim);
  return s;
}

RunSummary run_explicit(const Model& model, const RunOptions& opt) {
  Integrator integ(model, opt);
  return integ.run();
}

} // namespace parcae
