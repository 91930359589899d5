#include "solvers/common/histories.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <unordered_set>

#include <fmt/format.h>

#include "core/exact_sum.hpp"
#include "fem/hex8.hpp"
#include "fem/shell_bt.hpp"
#include "solvers/common/rigid_body.hpp"

namespace parcae {

std::vector<GlobalId> history_node_ids(const Model& model) {
  std::vector<GlobalId> out;
  std::unordered_set<GlobalId> seen;
  auto add = [&](GlobalId id) {
    if (seen.insert(id).second) out.push_back(id);
  };
  for (const auto& h : model.control.history_nodes) {
    if (h.is_set) {
      const auto it = model.node_sets.find(h.id);
      if (it == model.node_sets.end())
        throw InputError(
            h.loc, fmt::format("history node set {}: node set {} is not defined", h.id, h.id));
      for (GlobalId n : it->second.members) add(n);
    } else {
      if (model.node_index(h.id) == kInvalidLocal)
        throw InputError(h.loc, fmt::format("history node {}: node {} is not defined", h.id, h.id));
      add(h.id);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// HistoryRecorder

namespace {

enum Quantity { kIe, kKe, kHg, kPx, kPy, kPz, kMass, kAdded, kQuantities };

} // namespace

HistoryRecorder::HistoryRecorder(const Model& model, const Domain& d, const par::Comm& comm)
    : model_(model), comm_(comm) {
  for (const Part& p : model.parts) part_legend_.push_back({p.id, p.title});
  std::sort(part_legend_.begin(), part_legend_.end(),
            [](const LegendEntry& a, const LegendEntry& b) { return a.id < b.id; });
  std::map<GlobalId, std::size_t> index;
  for (std::size_t k = 0; k < part_legend_.size(); ++k) index[part_legend_[k].id] = k;
  auto part_index = [&](GlobalId pid) {
    const auto it = index.find(pid);
    if (it != index.end()) return it->second;
    // An element part without a *PART card cannot get here (the reader checks it); keep going.
    index[pid] = part_legend_.size();
    part_legend_.push_back({pid, ""});
    return part_legend_.size() - 1;
  };

  // Element corner masses as build_domain lumps them, from the initial coordinates, before
  // mass scaling: parts() multiplies them by each element's current scale factor
  // (density_scale, which mass scaling during the run (DT2MS < 0) raises).
  for (const SolidPart& sp : d.solids) {
    solid_part_index_.push_back(part_index(sp.pid));
    std::vector<Real> cm(sp.blk.size()); // the eight corners' shares are equal
    for (std::size_t e = 0; e < sp.blk.size(); ++e) {
      Real x[8], y[8], zz[8], bx[8], by[8], bz[8];
      for (int a = 0; a < 8; ++a) {
        const LocalId n = sp.blk.conn[e][a];
        x[a] = d.x0[3 * n];
        y[a] = d.x0[3 * n + 1];
        zz[a] = d.x0[3 * n + 2];
      }
      const Real vol = hex_volume_gradient(x, y, zz, bx, by, bz);
      cm[e] = sp.mat.ro * vol / 8.0;
    }
    solid_corner_mass_.push_back(std::move(cm));
  }
  for (const ShellPart& sp : d.shells) {
    shell_part_index_.push_back(part_index(sp.pid));
    std::vector<Real> cm(4 * sp.blk.size()), ci(4 * sp.blk.size());
    for (std::size_t e = 0; e < sp.blk.size(); ++e) {
      std::array<Real, 4> m{}, i{};
      shell_lumped_mass(sp.mat, sp.blk, e, d.x0, m, i);
      for (int a = 0; a < 4; ++a) {
        cm[4 * e + a] = m[a];
        ci[4 * e + a] = i[a];
      }
    }
    shell_corner_mass_.push_back(std::move(cm));
    shell_corner_inertia_.push_back(std::move(ci));
  }
  for (const TrussPart& tp : d.trusses) {
    truss_part_index_.push_back(part_index(tp.pid));
    std::vector<Real> cm(2 * tp.blk.size());
    for (std::size_t e = 0; e < tp.blk.size(); ++e)
      cm[2 * e] = cm[2 * e + 1] = 0.5 * (tp.mat.ro * tp.blk.area[e] + tp.opt.nsm) * tp.blk.l0[e];
    truss_corner_mass_.push_back(std::move(cm));
  }
  for (const BeamPart& bp : d.beams) {
    beam_part_index_.push_back(part_index(bp.pid));
    std::vector<Real> cm(2 * bp.blk.size()), ci(2 * bp.blk.size());
    for (std::size_t e = 0; e < bp.blk.size(); ++e) {
      Real m = 0, j = 0;
      beam_lumped_mass(bp.blk.sec, bp.mat, bp.blk.l0[e], m, j);
      cm[2 * e] = cm[2 * e + 1] = m;
      ci[2 * e] = ci[2 * e + 1] = j;
    }
    beam_corner_mass_.push_back(std::move(cm));
    beam_corner_inertia_.push_back(std::move(ci));
  }
  for (const RigidBody& b : d.bodies) part_index(b.pid);

  node_ids_ = history_node_ids(model);
  for (GlobalId id : node_ids_) node_model_index_.push_back(model.node_index(id));
  rot_.assign(node_ids_.size(), {0, 0, 0});
}

std::vector<GlobalId> HistoryRecorder::part_ids() const {
  std::vector<GlobalId> out;
  for (const auto& p : part_legend_) out.push_back(p.id);
  return out;
}

Real reported_acceleration(const Domain& d, std::size_t n, int i) {
  const int body = d.rigid_of[n];
  if (body >= 0) {
    const RigidBody& b = d.bodies[static_cast<std::size_t>(body)];
    return b.mass > 0 ? b.force[static_cast<std::size_t>(i)] / b.mass : 0.0;
  }
  return d.spc[n][static_cast<std::size_t>(i)] ? 0.0 : d.a[3 * n + static_cast<std::size_t>(i)];
}

std::vector<PartSummary> HistoryRecorder::parts(const Domain& d) const {
  const std::size_t np = part_legend_.size();
  std::vector<ExactSum> acc(kQuantities * np);
  auto add_part = [&](std::size_t p, const Real(&q)[kQuantities]) {
    for (int k = 0; k < kQuantities; ++k) acc[kQuantities * p + k].add(q[k]);
  };
  // Per element: its corners' share of kinetic energy, momentum and mass, summed in a fixed
  // order (deterministic), then added exactly.
  for (std::size_t s = 0; s < d.solids.size(); ++s) {
    const SolidPart& sp = d.solids[s];
    const std::vector<Real>& cm = solid_corner_mass_[s];
    for (std::size_t e = 0; e < sp.blk.size(); ++e) {
      const Real scale = sp.blk.density_scale[e];
      // an eroded element's energy is no longer the part's (glstat: eroded energy)
      const bool live = sp.blk.failed[e] == 0;
      Real q[kQuantities] = {
          live ? sp.blk.e_int[e] : 0, 0, live ? sp.blk.e_hg[e] : 0, 0, 0, 0, 0, 0};
      for (int a = 0; a < 8; ++a) {
        const Real m = scale * cm[e];
        q[kAdded] += (scale - 1.0) * cm[e];
        const LocalId n = sp.blk.conn[e][a];
        if (d.rigid_of[n] >= 0) continue;
        const Real* v = &d.v[3 * n];
        q[kKe] += 0.5 * m * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        q[kPx] += m * v[0];
        q[kPy] += m * v[1];
        q[kPz] += m * v[2];
        q[kMass] += m;
      }
      add_part(solid_part_index_[s], q);
    }
  }
  for (std::size_t s = 0; s < d.shells.size(); ++s) {
    const ShellPart& sp = d.shells[s];
    const std::vector<Real>& cm = shell_corner_mass_[s];
    const std::vector<Real>& ci = shell_corner_inertia_[s];
    for (std::size_t e = 0; e < sp.blk.size(); ++e) {
      const Real scale = sp.blk.density_scale[e];
      // an eroded element's energy is no longer the part's (glstat: eroded energy)
      const bool live = sp.blk.failed[e] == 0;
      Real q[kQuantities] = {
          live ? sp.blk.e_int[e] : 0, 0, live ? sp.blk.e_hg[e] : 0, 0, 0, 0, 0, 0};
      for (int a = 0; a < 4; ++a) {
        const Real m = scale * cm[4 * e + a];
        q[kAdded] += (scale - 1.0) * cm[4 * e + a];
        const LocalId n = sp.blk.conn[e][a];
        if (d.rigid_of[n] >= 0) continue;
        const Real* v = &d.v[3 * n];
        const Real* w = &d.w[3 * n];
        q[kKe] += 0.5 * m * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) +
                  0.5 * scale * ci[4 * e + a] * (w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
        q[kPx] += m * v[0];
        q[kPy] += m * v[1];
        q[kPz] += m * v[2];
        q[kMass] += m;
      }
      add_part(shell_part_index_[s], q);
    }
  }
  for (std::size_t s = 0; s < d.trusses.size(); ++s) {
    const TrussPart& tp = d.trusses[s];
    const std::vector<Real>& cm = truss_corner_mass_[s];
    for (std::size_t e = 0; e < tp.blk.size(); ++e) {
      const Real scale = tp.blk.density_scale[e];
      Real q[kQuantities] = {tp.blk.e_int[e], 0, 0, 0, 0, 0, 0, 0};
      for (int a = 0; a < 2; ++a) {
        const Real m = scale * cm[2 * e + a];
        q[kAdded] += (scale - 1.0) * cm[2 * e + a];
        const LocalId n = tp.blk.conn[e][a];
        if (d.rigid_of[n] >= 0) continue;
        const Real* v = &d.v[3 * n];
        q[kKe] += 0.5 * m * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        q[kPx] += m * v[0];
        q[kPy] += m * v[1];
        q[kPz] += m * v[2];
        q[kMass] += m;
      }
      add_part(truss_part_index_[s], q);
    }
  }
  for (std::size_t s = 0; s < d.beams.size(); ++s) {
    const BeamPart& bp = d.beams[s];
    const std::vector<Real>& cm = beam_corner_mass_[s];
    const std::vector<Real>& ci = beam_corner_inertia_[s];
    for (std::size_t e = 0; e < bp.blk.size(); ++e) {
      const Real scale = bp.blk.density_scale[e];
      Real q[kQuantities] = {bp.blk.e_int[e], 0, 0, 0, 0, 0, 0, 0};
      for (int a = 0; a < 2; ++a) {
        const Real m = scale * cm[2 * e + a];
        q[kAdded] += (scale - 1.0) * cm[2 * e + a];
        const LocalId n = bp.blk.conn[e][a];
        if (d.rigid_of[n] >= 0) continue;
        const Real* v = &d.v[3 * n];
        const Real* w = &d.w[3 * n];
        q[kKe] += 0.5 * m * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) +
                  0.5 * scale * ci[2 * e + a] * (w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
        q[kPx] += m * v[0];
        q[kPy] += m * v[1];
        q[kPz] += m * v[2];
        q[kMass] += m;
      }
      add_part(beam_part_index_[s], q);
    }
  }
  std::map<GlobalId, std::size_t> index;
  for (std::size_t k = 0; k < np; ++k) index[part_legend_[k].id] = k;
  if (comm_.rank() == 0) // rigid bodies are replicated on every rank: count them once
    for (const RigidBody& b : d.bodies) {
      const Real q[kQuantities] = {0,
                                   rigid_body_kinetic_energy(b),
                                   0,
                                   b.mass * b.v[0],
                                   b.mass * b.v[1],
                                   b.mass * b.v[2],
                                   b.mass,
                                   0};
      add_part(index.at(b.pid), q);
    }
  comm_.sum(acc);
  std::vector<PartSummary> out(np);
  for (std::size_t p = 0; p < np; ++p) {
    PartSummary& s = out[p];
    const ExactSum* a = &acc[kQuantities * p];
    s.id = part_legend_[p].id;
    s.internal = a[kIe].result();
    s.kinetic = a[kKe].result();
    s.hourglass = a[kHg].result();
    s.momentum = {a[kPx].result(), a[kPy].result(), a[kPz].result()};
    s.mass = a[kMass].result();
    s.added_mass = a[kAdded].result();
  }
  for (const RigidBody& b : d.bodies) out[index.at(b.pid)].rb_velocity = b.v;
  return out;
}

std::vector<NodeHistory> HistoryRecorder::nodes(const Domain& d, Real t) {
  constexpr std::size_t kRow = 23; // k, has_rot, disp, vel, acc, coord, rot, rot vel, rot acc
  const Real dt = t - rot_time_;
  rot_time_ = t;
  std::vector<Real> rows;
  for (std::size_t k = 0; k < node_ids_.size(); ++k) {
    const LocalId n = d.local_of_global[node_model_index_[k]];
    if (n == kInvalidLocal || !d.owned[n]) continue;
    const std::size_t i3 = 3 * static_cast<std::size_t>(n);
    const int body = d.rigid_of[n];
    rows.push_back(static_cast<Real>(k));
    rows.push_back(d.has_rot[n] ? 1.0 : 0.0);
    for (int i = 0; i < 3; ++i) rows.push_back(d.x[i3 + i] - d.x0[i3 + i]);
    for (int i = 0; i < 3; ++i) rows.push_back(d.v[i3 + i]);
    for (int i = 0; i < 3; ++i)
      rows.push_back(reported_acceleration(d, static_cast<std::size_t>(n), i));
    for (int i = 0; i < 3; ++i) rows.push_back(d.x[i3 + i]);
    for (int i = 0; i < 3; ++i) {
      rot_[k][i] += dt * d.w[i3 + i];
      rows.push_back(rot_[k][i]);
    }
    for (int i = 0; i < 3; ++i) rows.push_back(d.w[i3 + i]);
    for (int i = 0; i < 3; ++i) {
      const bool free = body < 0 && !d.spc[n][3 + i] && d.inertia[n] > 0;
      rows.push_back(free ? d.m_ext[i3 + i] / d.inertia[n] : 0.0);
    }
  }
  const std::vector<Real> all = comm_.gatherv(rows);
  if (comm_.rank() != 0) return {};
  std::vector<NodeHistory> out(node_ids_.size());
  for (std::size_t k = 0; k < node_ids_.size(); ++k) {
    // Initial coordinates until an owner reports (every node has exactly one owner).
    NodeHistory& h = out[k];
    h.id = node_ids_[k];
    const LocalId g = node_model_index_[k];
    h.coord = {model_.nodes.x[g], model_.nodes.y[g], model_.nodes.z[g]};
  }
  for (std::size_t r = 0; r + kRow <= all.size(); r += kRow) {
    NodeHistory& h = out[static_cast<std::size_t>(all[r])];
    h.has_rot = all[r + 1] != 0;
    for (int i = 0; i < 3; ++i) {
      h.disp[i] = all[r + 2 + i];
      h.vel[i] = all[r + 5 + i];
      h.acc[i] = all[r + 8 + i];
      h.coord[i] = all[r + 11 + i];
      h.rot[i] = all[r + 14 + i];
      h.rot_vel[i] = all[r + 17 + i];
      h.rot_acc[i] = all[r + 20 + i];
    }
  }
  return out;
}

std::vector<WallForce> HistoryRecorder::walls(const std::vector<RigidWallState>& walls) const {
  // The last step's impulses on each rank's owned nodes (exact sums), summed over the ranks and
  // divided by the step: the same force at any rank count. Friction is in x/y/z.
  std::vector<ExactSum> acc;
  for (const auto& w : walls) acc.insert(acc.end(), w.impulse_last.begin(), w.impulse_last.end());
  comm_.sum(acc);
  std::vector<WallForce> out(walls.size());
  for (std::size_t k = 0; k < walls.size(); ++k) {
    const RigidWallState& w = walls[k];
    WallForce& f = out[k];
    f.id = w.wall.id;
    const Real inv_dt = w.dt_last > 0 ? 1.0 / w.dt_last : 0.0;
    f.normal = acc[4 * k].result() * inv_dt;
    for (int i = 0; i < 3; ++i) f.force[i] = acc[4 * k + 1 + i].result() * inv_dt;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// HistoryOutput

bool HistoryOutput::Schedule::due(Real t, Real endtim) const {
  return on && (t >= next * (1 - 1e-9) || t >= endtim * (1 - 1e-12));
}

void HistoryOutput::Schedule::advance(Real t) {
  while (next <= t * (1 + 1e-9)) next += interval;
}

HistoryOutput::HistoryOutput(const Model& model, const Domain& d,
                             const std::vector<RigidWallState>& walls, const par::Comm& comm,
                             const std::string& outdir, Real glstat_dt, bool append)
    : rec_(model, d, comm), comm_(comm), endtim_(model.control.endtim), resume_(append) {
  namespace fs = std::filesystem;
  const Controls& c = model.control;
  const Real fallback = glstat_dt > 0 ? glstat_dt : c.endtim / 100.0;
  auto schedule = [&](const Controls::AsciiOutput& o, bool on) {
    Schedule s;
    s.interval = o.dt > 0 ? o.dt : fallback;
    s.on = on && s.interval > 0;
    return s;
  };
  matsum_ = schedule(c.matsum, true);
  nodout_ = schedule(c.nodout, !rec_.node_ids().empty());
  rwforc_ = schedule(c.rwforc, !walls.empty());
  if (comm_.rank() != 0) return;
  const fs::path dir(outdir);
  if (matsum_.on)
    matsum_file_ = std::make_unique<MatsumWriter>((dir / "matsum").string(), c.title,
                                                  rec_.part_legend(), append);
  if (nodout_.on)
    nodout_file_ = std::make_unique<NodoutWriter>((dir / "nodout").string(), c.title,
                                                  std::vector<LegendEntry>{}, append);
  std::vector<LegendEntry> wall_legend;
  std::vector<GlobalId> wall_ids;
  for (const auto& w : walls) {
    wall_legend.push_back({w.wall.id, w.wall.title});
    wall_ids.push_back(w.wall.id);
  }
  if (rwforc_.on)
    rwforc_file_ =
        std::make_unique<RwforcWriter>((dir / "rwforc").string(), c.title, wall_legend, append);
  csv_file_ = std::make_unique<HistoryCsvWriter>((dir / "history.csv").string(), rec_.part_ids(),
                                                 wall_ids, append);
}

bool HistoryOutput::due(Real t, Real t_prev) {
  if (resume_) {
    // The original run had written every output due up to t_prev (the checkpoint's time) and
    // advanced its schedules from 0 in the same steps.
    matsum_.advance(t_prev);
    nodout_.advance(t_prev);
    rwforc_.advance(t_prev);
    rec_.set_rotation_time(t_prev);
    resume_ = false;
  }
  return matsum_.due(t, endtim_) || nodout_.due(t, endtim_) || rwforc_.due(t, endtim_);
}

void HistoryOutput::write(const Domain& d, const std::vector<RigidWallState>& walls, int cycle,
                          Real t, const GlobalStats* glstat) {
  const bool want_matsum = matsum_.due(t, endtim_);
  const bool want_nodout = nodout_.due(t, endtim_);
  const bool want_rwforc = rwforc_.due(t, endtim_);
  const bool want_csv = glstat != nullptr;
  std::vector<PartSummary> parts;
  std::vector<WallForce> forces;
  if (want_matsum || want_csv) parts = rec_.parts(d);
  if (want_rwforc || want_csv) forces = rec_.walls(walls);
  if (want_nodout) {
    NodoutState s{cycle, t, rec_.nodes(d, t)};
    if (nodout_file_) nodout_file_->write(s);
    nodout_.advance(t);
  }
  if (want_matsum) {
    if (matsum_file_) matsum_file_->write(MatsumState{t, parts});
    matsum_.advance(t);
  }
  if (want_rwforc) {
    if (rwforc_file_) rwforc_file_->write(RwforcState{t, forces});
    rwforc_.advance(t);
  }
  if (want_csv && csv_file_) csv_file_->write(*glstat, parts, forces);
}

} // namespace parcae
