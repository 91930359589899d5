#include "solvers/explicit/solver.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <ostream>
#include <string_view>
#include <thread>

#include <fmt/format.h>
#include <omp.h>

#include "core/exact_sum.hpp"
#include "materials/catalogue.hpp"
#include "output/d3plot.hpp"
#include "output/glstat.hpp"
#include "output/vtk_writer.hpp"
#include "par/comm.hpp"
#include "prof/phase.hpp"
#include "solvers/common/checkpoint.hpp"
#include "solvers/common/contact_setup.hpp"
#include "solvers/common/histories.hpp"
#include "solvers/common/rigid_body.hpp"
#include "solvers/common/rigid_wall.hpp"
#include "solvers/explicit/contact_mpp.hpp"
#include "solvers/explicit/erosion.hpp"

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

/// Profile phases (prof/phase.hpp): MPI time and wall time are attributed to them.
struct Phases {
  int setup = prof::phase_id("setup");
  int element_forces = prof::phase_id("element_forces");
  int halo_exchange = prof::phase_id("halo_exchange");
  int time_step = prof::phase_id("time_step");
  int nodal_update = prof::phase_id("nodal_update");
  int output = prof::phase_id("output");
  int checkpoint = prof::phase_id("checkpoint");
};
const Phases& phases() {
  static const Phases p;
  return p;
}
using prof::PhaseScope;

/// The time loop's variables: saved in checkpoints with the domain.
struct LoopVars {
  Real t = 0, dt_old = 0;
  Real next_glstat = 0, next_plot = 0, next_print_time = 0;
  int cycle = 0;
};

class Integrator {
public:
  Integrator(const Model& model, const RunOptions& opt)
      : model_(model), opt_(opt), comm_(opt.comm ? *opt.comm : serial_comm_) {
    Domain global = build_domain(model);
    build_contacts(global);
    if (comm_.size() > 1) {
      if (!opt.ranks) throw RuntimeError("an MPP run needs a decomposition (RunOptions::ranks)");
      d_ = restrict_domain(global, *opt.ranks, comm_.size(), comm_.rank());
    } else {
      d_ = std::move(global);
    }
    contact_local_.resize(contact_.node_model.size());
    for (std::size_t k = 0; k < contact_.node_model.size(); ++k)
      contact_local_[k] =
          d_.local_of_global.empty()
              ? contact_.node_model[k]
              : d_.local_of_global[static_cast<std::size_t>(contact_.node_model[k])];
    if (!contact_state_.empty()) f_contact_.assign(3 * d_.nnode, 0.0);
    for (std::size_t k = 0; k < contact_local_.size(); ++k)
      if (contact_local_[k] != kInvalidLocal)
        contact_local_list_.push_back(static_cast<LocalId>(k));
    if (comm_.size() > 1 && !contact_state_.empty()) {
      std::vector<std::uint8_t> local(contact_local_.size(), 0), owned(contact_local_.size(), 0);
      for (std::size_t k = 0; k < contact_local_.size(); ++k) {
        const LocalId l = contact_local_[k];
        local[k] = l != kInvalidLocal;
        owned[k] = l != kInvalidLocal && d_.owned[static_cast<std::size_t>(l)];
      }
      mpp_contact_ = std::make_unique<MppContact>(comm_, contact_, contact_state_, std::move(local),
                                                  std::move(owned));
      const double mine = static_cast<double>(mpp_contact_->evaluated_nodes());
      const auto all = comm_.gatherv(std::span<const double>(&mine, 1));
      std::string per_rank;
      for (double v : all) per_rank += fmt::format("{}{}", per_rank.empty() ? "" : " / ", v);
      contact_report_.push_back(fmt::format(
          "  contact (MPP)    contact nodes searched and evaluated per rank: {}", per_rank));
    }
    for (const auto& c : model.curves) curves_[c.id] = &c;
    for (std::size_t e = 0; e < model.solids.size(); ++e)
      part_of_solid_[model.solids.id[e]] = model.solids.part[e];
    for (std::size_t e = 0; e < model.shells.size(); ++e)
      part_of_shell_[model.shells.id[e]] = model.shells.part[e];
    f_ext_.assign(3 * d_.nnode, 0.0);
    m_app_.assign(3 * d_.nnode, 0.0);
    walls_ = make_rigid_walls(model, d_);
    init_erosion();
    std::vector<par::Exchange::Neighbour> nb;
    for (const auto& h : d_.halo)
      nb.push_back({h.rank, 3 * h.send_solid.size() + 6 * h.send_shell.size(),
                    3 * h.recv_solid + 6 * h.recv_shell});
    if (!nb.empty()) exchange_ = std::make_unique<par::Exchange>(comm_, std::move(nb));
  }

  RunSummary run();

private:
  Real curve(GlobalId id, Real t) const {
    if (id == 0) return 1.0;
    return curves_.at(id)->eval(t);
  }
  std::vector<LocalId> nodes_of(bool is_set, GlobalId id) const;
  void compute_elements(bool boundary, Real dt);
  void exchange_begin();
  void exchange_end();
  void element_pass(Real dt);
  void assemble_and_accelerate(Real t);
  void external_forces(Real t);
  void update_velocities(Real dt_avg, Real dt_new, Real t);
  GlobalStats stats(int cycle, Real t, Real dt) const;
  /// One plot state (VTK and d3plot, collective); now: the global energies of this state.
  void write_state(Real t, const GlobalStats& now, bool previous_positions = false, Real dt = 0);
  void write_vtk_piece(bool previous_positions, Real dt, const std::vector<Real>& elems,
                       std::size_t rec);
  /// Rank 0: the d3plot writer with the model's geometry (opt_.outdir/d3plot); append: continue
  /// the family of the run being restarted (rewound to the checkpoint).
  void open_d3plot(bool append);
  void check_finite(int cycle);
  /// Contact interfaces from the deck, their initial search and initial penetrations (moved
  /// nodes are moved in the global domain before it is split up).
  void build_contacts(Domain& global);
  /// Contact forces at time t (positions x^n, velocities v^{n-1/2}, step dt) into f_contact_.
  void contact_pass(int cycle, Real t, Real dt);
  /// Everything that evolves in time (domain and integrator state), for checkpoints.
  void visit_state(StateArchive& ar, LoopVars& lv);
  /// Collective: write a checkpoint of the current state; returns its directory.
  std::string write_checkpoint_now(const LoopVars& lv);
  /// Collective: find and check the checkpoint opt_.restart_from, rewind the output files.
  CheckpointInfo prepare_restart();
  /// Load the checkpoint into the state (after the initial set-up).
  void restore_checkpoint(const CheckpointInfo& info, LoopVars& lv);
  // --- erosion: element deletion (erosion.hpp). Every rank keeps the global state (which
  // model elements are alive, which nodes lost all their elements) so that contact surfaces
  // and free nodes are the same on every rank. ---
  void init_erosion();
  /// Post-pass failure tests (TDEL, *MAT_ADD_EROSION) and deletion of the elements of [b, e)
  /// that failed in this pass (forces zeroed, no time step); their model references go to out.
  /// Returns true when some element of the range was deleted.
  bool erode_solids(std::size_t p, std::size_t b, std::size_t e, std::vector<std::int64_t>& out);
  bool erode_shells(std::size_t p, std::size_t b, std::size_t e, std::vector<std::int64_t>& out);
  /// Collective: the elements deleted on every rank in this pass, applied to the global state.
  void erosion_sync();
  /// Collective: the global state rebuilt from the blocks' failure flags (after a restart).
  void erosion_rebuild();
  void kill_element(std::int64_t ref);
  [[nodiscard]] std::size_t model_node(std::size_t n) const {
    return d_.global_index.empty() ? n : static_cast<std::size_t>(d_.global_index[n]);
  }
  void fail_local(std::string message) {
    if (local_error_.empty()) local_error_ = std::move(message);
  }
  std::string describe_solid(std::size_t part, std::size_t e) const {
    return fmt::format("solid element {} of part {} ({})", d_.solids[part].elem_id[e],
                       d_.solids[part].pid, d_.solids[part].title);
  }

  const Model& model_;
  const RunOptions& opt_;
  par::Comm serial_comm_;
  const par::Comm& comm_;
  Domain d_;
  std::map<GlobalId, const Curve*> curves_;
  std::map<GlobalId, GlobalId> part_of_solid_, part_of_shell_;
  std::vector<Real> f_ext_, m_app_; ///< applied loads (forces, moments) at the current time
  std::vector<RigidWallState> walls_;
  std::unique_ptr<par::Exchange> exchange_;
  StepLimit limit_;
  ExactSum ext_work_;  ///< work of loads and prescribed motion on this rank's owned nodes
  ExactSum wall_work_; ///< work of fixed walls on owned nodes (the energy they absorb, negated)
  int weld_cycle_ = 0; ///< the cycle being computed (for the weld failure messages)
  std::string local_error_;
  std::vector<std::pair<Real, std::string>> states_;
  std::unique_ptr<GlstatWriter> glstat_;
  std::unique_ptr<D3plotWriter> d3plot_;        ///< rank 0, when opt_.write_d3plot
  std::unique_ptr<HistoryOutput> hist_;         ///< matsum, nodout, rwforc, history.csv (all ranks)
  std::unique_ptr<HistoryRecorder> plot_parts_; ///< d3plot per-part energies, mass, velocity
  // --- contact over compact node arrays (contact_setup.hpp). One rank: contact::contact_forces
  // on every interface; MPP: each rank searches and evaluates its own contact nodes with
  // imported ghosts and gathers the forces in the one-rank order (contact_mpp.hpp), so the
  // contact forces are the same for any decomposition.
  ContactModel contact_;
  std::vector<contact::ContactState> contact_state_;
  std::vector<LocalId> contact_local_; ///< compact -> local node (kInvalidLocal: not on this rank)
  std::vector<LocalId> contact_local_list_; ///< compact nodes on this rank, ascending
  std::unique_ptr<MppContact> mpp_contact_; ///< MPP: contact distributed over the ranks
  std::vector<Real> cx_, cv_, cm_, cf_;     ///< compact positions, velocities, masses, forces
  std::vector<Real> f_contact_;             ///< contact force per local node (3 each)
  std::vector<std::string> contact_report_; ///< initial penetrations, for the log
  bool erosion_ = false;                    ///< some part can erode (the same on every rank)
  std::vector<ErosionRule> solid_rule_, shell_rule_;               ///< per part of d_
  std::vector<std::vector<std::uint8_t>> solid_gone_, shell_gone_; ///< deletion applied
  std::vector<std::uint8_t> solid_alive_, shell_alive_;            ///< per model element
  std::vector<std::int32_t> node_live_;  ///< per model node: live elements holding it
  std::vector<std::uint8_t> node_free_;  ///< per model node: lost all its elements to erosion
  std::vector<std::int64_t> eroded_now_; ///< this rank's deletions in this pass (model refs)
  std::size_t n_eroded_ = 0, n_erosion_lines_ = 0;
  Real t_pass_ = 0;                      ///< time of the force pass (FAILTM)
  std::unique_ptr<RcforcWriter> rcforc_; ///< rank 0, runs with contact
  std::unique_ptr<SleoutWriter> sleout_;
  void write_contact_histories(Real t);
};

std::vector<LocalId> Integrator::nodes_of(bool is_set, GlobalId id) const {
  std::vector<LocalId> out;
  if (!is_set) {
    const LocalId n = d_.local_node(id);
    if (n != kInvalidLocal) out.push_back(n);
    return out;
  }
  const auto it = model_.node_sets.find(id);
  if (it == model_.node_sets.end()) return out;
  for (GlobalId g : it->second.members) {
    const LocalId n = d_.local_node(g);
    if (n != kInvalidLocal) out.push_back(n);
  }
  return out;
}

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
    const int cur_rank = limit_.kind.empty() ? 2 : (limit_.kind[1] == 'o' ? 0 : 1);
    if (dte < limit_.dt ||
        (dte == limit_.dt && std::pair(kind_rank, elem) < std::pair(cur_rank, limit_.elem))) {
      limit_.dt = dte;
      limit_.kind = kind;
      limit_.elem = elem;
      limit_.part = part;
    }
  };
  for (std::size_t p = 0; p < d_.solids.size(); ++p) {
    auto& sp = d_.solids[p];
    const std::size_t first = boundary ? 0 : sp.n_boundary;
    const std::size_t last = boundary ? sp.n_boundary : sp.blk.size();
    if (last <= first) continue;
    const std::size_t nchunk = (last - first + kChunk - 1) / kChunk;
    std::vector<HexPassResult> res(nchunk);
    std::vector<std::vector<std::int64_t>> gone(erosion_ ? nchunk : 0);
    std::span<Real> fe(d_.corner_f_solid.data() + 3 * sp.corner_offset, 24 * sp.blk.size());
#pragma omp parallel for schedule(static) if (nchunk > 1)
    for (std::size_t c = 0; c < nchunk; ++c) {
      const std::size_t b = first + c * kChunk, e = std::min(last, b + kChunk);
      res[c] = opt_.use_reference_kernels
                   ? compute_hex_forces_reference(sp.opt, sp.mat, sp.blk, b, e, x, v, dt, fe, x0)
                   : compute_hex_forces(sp.opt, sp.mat, sp.blk, b, e, x, v, dt, fe, x0);
      if (erosion_ && erode_solids(p, b, e, gone[c])) {
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
    for (const auto& g : gone) eroded_now_.insert(eroded_now_.end(), g.begin(), g.end());
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
    std::vector<std::vector<std::int64_t>> gone(erosion_ ? nchunk : 0);
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
      if (erosion_ && erode_shells(p, b, e, gone[c])) {
        best[c] = {1e300, 0};
        for (std::size_t k = b; k < e; ++k) {
          if (sp.blk.failed[k]) continue;
          const Real dte = shell_critical_dt(sp.mat, sp.blk, k, x);
          if (dte < best[c].first) best[c] = {dte, k};
        }
      }
    }
    for (const auto& g : gone) eroded_now_.insert(eroded_now_.end(), g.begin(), g.end());
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
  limit_ = StepLimit{};
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
  // The global time step (and the agreement on errors): reductions over the ranks.
  PhaseScope p(ph.time_step);
  const Real local = local_error_.empty() ? limit_.dt : -1.0;
  const Real global = comm_.min(local);
  if (global < 0) {
    const std::int64_t bad = comm_.min(local < 0 ? std::int64_t{comm_.rank()} : INT64_MAX);
    if (!local_error_.empty() && comm_.size() > 1)
      std::fprintf(stderr, "parcae: rank %d: %s\n", comm_.rank(), local_error_.c_str());
    throw Unstable{local_error_.empty() || comm_.rank() != bad
                       ? fmt::format("rank {} stopped the run (see its message)", bad)
                       : local_error_};
  }
  if (comm_.size() > 1) {
    // Controlling element: the lowest (kind, id) among the ranks holding the global minimum.
    const bool mine = limit_.dt == global && !limit_.kind.empty();
    const std::int64_t key =
        mine ? (limit_.kind == "solid" ? 0 : (std::int64_t{1} << 62)) + limit_.elem : INT64_MAX;
    const std::int64_t best = comm_.min(key);
    limit_.dt = global;
    if (best != INT64_MAX) {
      const bool shell = best >= (std::int64_t{1} << 62);
      limit_.kind = shell ? "shell" : "solid";
      limit_.elem = shell ? best - (std::int64_t{1} << 62) : best;
      const auto& parts = shell ? part_of_shell_ : part_of_solid_;
      const auto it = parts.find(limit_.elem);
      limit_.part = it == parts.end() ? 0 : it->second;
    }
  }
  erosion_sync();
}

void Integrator::external_forces(Real t) {
  if (model_.nodal_loads.empty() && model_.body_loads.empty()) return; // stay zero
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
    if (!f_contact_.empty())
      for (int i = 0; i < 3; ++i) f[i] += f_contact_[3 * n + i];
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
  // The previous half-step velocities, needed only where loads or constraints do work
  // (f_ext(t) . (v_old + v_new)/2 * dt_avg, summed once v_new is known).
  const bool loads = !model_.nodal_loads.empty() || !model_.body_loads.empty();
  const bool track = loads || !model_.motions.empty() || !walls_.empty();
  // Welds (spotwelds, weld spots): failure decided from reduced (global) constraint forces,
  // before the nodal update, so that released nodes move as free nodes from this step on.
  if (failable_body_count(d_) > 0) {
    std::vector<ExactSum> weld_sums = weld_force_sums(d_);
    comm_.sum(weld_sums);
    for (const WeldFailure& wf : fail_welds(d_, weld_sums, t))
      if (opt_.log)
        *opt_.log << fmt::format(
            "  {} {} failed at cycle {}, time {:.6e}: fn = {:.6e}, fs = "
            "{:.6e}{}\n",
            d_.bodies[wf.body].kind == RigidKind::Spotweld ? "spotweld" : "weld spot", wf.id,
            weld_cycle_, t, wf.fn, wf.fs, wf.by_time ? " (failure time)" : "");
  }
  std::vector<Real> v_old;
  if (track) v_old = d_.v;
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
  std::vector<std::vector<DirectedMotion>> presc_dir(d_.bodies.size());
  for (const auto& pm : model_.motions) {
    if (t + dt_new < pm.birth || t > pm.death) continue;
    // DOF 4 / -4: translation along the unit vector dir; 8: rotation about it (rigid bodies).
    const bool directed = pm.dof == 4 || pm.dof == -4 || pm.dof == 8;
    const bool rot = (pm.dof >= 5 && pm.dof <= 7) || pm.dof == 8;
    const int comp = directed ? 0 : rot ? pm.dof - 5 : pm.dof - 1;
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
    auto along = [&](const Real* u) {
      return u[0] * pm.dir[0] + u[1] * pm.dir[1] + u[2] * pm.dir[2];
    };
    if (pm.target == MotionTarget::Rigid) {
      for (std::size_t b = 0; b < d_.bodies.size(); ++b) {
        const RigidBody& body = d_.bodies[b];
        if (body.pid != pm.target_id) continue;
        const std::array<Real, 3> xc0 = initial_centre(body, d_);
        const std::array<Real, 3> disp{body.xc[0] - xc0[0], body.xc[1] - xc0[1],
                                       body.xc[2] - xc0[2]};
        if (directed)
          presc_dir[b].push_back({pm.dir,
                                  target_velocity(along(rot ? body.omega.data() : body.v.data()),
                                                  rot ? 0.0 : along(disp.data())),
                                  rot, pm.dof == -4});
        else if (rot)
          presc_w[b][comp] = target_velocity(body.omega[comp], 0.0);
        else
          presc_v[b][comp] = target_velocity(body.v[comp], disp[comp]);
      }
      continue;
    }
    for (LocalId n : nodes_of(pm.target == MotionTarget::NodeSet, pm.target_id)) {
      if (directed) { // translation (DOF 8 on nodes is refused when the deck is read)
        const std::size_t k = 3 * static_cast<std::size_t>(n);
        const Real u[3] = {d_.x[k] - d_.x0[k], d_.x[k + 1] - d_.x0[k + 1],
                           d_.x[k + 2] - d_.x0[k + 2]};
        const Real vt = target_velocity(along(&v_old[k]), along(u));
        const Real va = along(&d_.v[k]);
        for (int i = 0; i < 3; ++i) {
          const Real vfree = d_.v[k + i];
          const Real vnew = pm.dof == -4 ? vt * pm.dir[i] : vfree + (vt - va) * pm.dir[i];
          d_.v[k + i] = vnew;
          if (d_.owned[n]) ext_work_.add(d_.mass[n] * (vnew - vfree) * 0.5 * (v_old[k + i] + vnew));
        }
        continue;
      }
      if (rot) {
        d_.w[3 * n + comp] = target_velocity(d_.w[3 * n + comp], 0.0);
        continue;
      }
      const std::size_t k = 3 * static_cast<std::size_t>(n) + comp;
      const Real vfree = d_.v[k];
      const Real vnew = target_velocity(v_old[k] /*previous half step*/, d_.x[k] - d_.x0[k]);
      d_.v[k] = vnew;
      if (d_.owned[n]) ext_work_.add(d_.mass[n] * (vnew - vfree) * 0.5 * (v_old[k] + vnew));
    }
  }
  // Rigid walls. A fixed wall absorbs energy (glstat's rigid wall energy); a moving wall does
  // work on the structure, which is external work, and takes the total impulse.
  for (auto& wall : walls_) {
    ExactSum impulse;
    apply_rigid_wall(wall, d_, v_old, dt_new, wall.wall.moving ? ext_work_ : wall_work_, impulse);
    const Real total = wall.wall.moving ? comm_.sum(impulse).result() : impulse.result();
    advance_rigid_wall(wall, total, dt_new);
  }
  // Work of the applied loads (owned nodes; exact sum, so independent of the decomposition).
  if (loads)
    for (std::int64_t n = 0; n < nn; ++n) {
      if (!d_.owned[n]) continue;
      for (int i = 0; i < 3; ++i) {
        const Real fe = f_ext_[3 * n + i];
        if (fe != 0) ext_work_.add(dt_avg * fe * 0.5 * (v_old[3 * n + i] + d_.v[3 * n + i]));
      }
    }
  // Rigid bodies: resultant force and moment as exact sums of per-node loads and per-corner
  // element forces (each counted by exactly one rank: owned nodes' loads, own corners only;
  // ghost corners exist at weld nodes), reduced over ranks in one reduction, then the motion.
  // Failed welds (inactive) are skipped.
  std::vector<ExactSum> rb_acc(6 * d_.bodies.size());
  for (std::size_t b = 0; b < d_.bodies.size(); ++b) {
    RigidBody& body = d_.bodies[b];
    if (!body.active) continue;
    ExactSum* acc = &rb_acc[6 * b];
    auto add = [&](const Real* r, const Real* f, Real sign) {
      const Real c[3] = {r[1] * f[2] - r[2] * f[1], r[2] * f[0] - r[0] * f[2],
                         r[0] * f[1] - r[1] * f[0]};
      for (int i = 0; i < 3; ++i) {
        acc[i].add(sign * f[i]);
        acc[3 + i].add(sign * c[i]);
      }
    };
    const auto own_solid = static_cast<std::int64_t>(d_.n_local_solid_corners);
    const auto own_shell = static_cast<std::int64_t>(d_.n_local_shell_corners);
    for (LocalId n : body.nodes) {
      const Real r[3] = {d_.x[3 * n] - body.xc[0], d_.x[3 * n + 1] - body.xc[1],
                         d_.x[3 * n + 2] - body.xc[2]};
      if (d_.owned[n]) {
        add(r, &f_ext_[3 * n], 1.0);
        if (!f_contact_.empty()) add(r, &f_contact_[3 * n], 1.0);
        for (int i = 0; i < 3; ++i) acc[3 + i].add(m_app_[3 * n + i]);
      }
      for (auto k = d_.solid_corner_start[n]; k < d_.solid_corner_start[n + 1]; ++k)
        if (d_.solid_corner_list[k] < own_solid)
          add(r, &d_.corner_f_solid[3 * d_.solid_corner_list[k]], -1.0);
      for (auto k = d_.shell_corner_start[n]; k < d_.shell_corner_start[n + 1]; ++k) {
        if (d_.shell_corner_list[k] >= own_shell) continue;
        add(r, &d_.corner_f_shell[3 * d_.shell_corner_list[k]], -1.0);
        for (int i = 0; i < 3; ++i)
          acc[3 + i].add(-d_.corner_m_shell[3 * d_.shell_corner_list[k] + i]);
      }
    }
  }
  if (!rb_acc.empty()) comm_.sum(rb_acc);
  for (std::size_t b = 0; b < d_.bodies.size(); ++b) {
    RigidBody& body = d_.bodies[b];
    if (!body.active) continue;
    const ExactSum* acc = &rb_acc[6 * b];
    const std::array<Real, 3> force{acc[0].result(), acc[1].result(), acc[2].result()};
    const std::array<Real, 3> moment{acc[3].result(), acc[4].result(), acc[5].result()};
    advance_rigid_body(body, d_, dt_avg, dt_new, force, moment, presc_v[b], presc_w[b],
                       presc_dir[b]);
  }
}

/// Global statistics (collective): every sum is exact, so the result does not depend on how
/// the nodes and elements are split over ranks or threads.
GlobalStats Integrator::stats(int cycle, Real t, Real dt) const {
  GlobalStats s;
  s.cycle = cycle;
  s.time = t;
  s.dt = dt;
  s.dt_element_kind = limit_.kind;
  s.dt_element = limit_.elem;
  s.dt_part = limit_.part;
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
    kCount
  };
  std::array<ExactSum, kCount> acc;
  for (std::size_t n = 0; n < d_.nnode; ++n) {
    if (d_.rigid_of[n] >= 0 || !d_.owned[n]) continue;
    const Real m = d_.mass[n];
    const Real* v = &d_.v[3 * n];
    // a free node (all its elements eroded): its kinetic energy is eroded kinetic energy
    const int ke = erosion_ && node_free_[model_node(n)] ? kEroKe : kKe;
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
  for (const auto& sp : d_.solids)
    for (std::size_t e = 0; e < sp.blk.size(); ++e) {
      const bool gone = sp.blk.failed[e] != 0;
      acc[gone ? kEroIe : kIe].add(sp.blk.e_int[e]);
      acc[gone ? kEroHg : kHg].add(sp.blk.e_hg[e]);
    }
  for (const auto& sp : d_.shells)
    for (std::size_t e = 0; e < sp.blk.size(); ++e) {
      const bool gone = sp.blk.failed[e] != 0;
      acc[gone ? kEroIe : kIe].add(sp.blk.e_int[e]);
      acc[gone ? kEroHg : kHg].add(sp.blk.e_hg[e]);
    }
  acc[kExt] = ext_work_;
  acc[kWall] = wall_work_;
  // contact energies: per rank partial sums in MPP (the rank's own nodes), the whole in a
  // one-rank run
  for (const auto& cs : contact_state_) {
    acc[kSliding].add(cs.e_interface);
    acc[kFriction].add(cs.e_friction);
  }
  comm_.sum(acc);
  s.kinetic = acc[kKe].result();
  s.internal = acc[kIe].result();
  s.hourglass = acc[kHg].result();
  s.external_work = acc[kExt].result();
  s.rigidwall = -acc[kWall].result();
  s.sliding = acc[kSliding].result();
  s.friction = acc[kFriction].result();
  s.eroded_kinetic = acc[kEroKe].result();
  s.eroded_internal = acc[kEroIe].result();
  s.eroded_hourglass = acc[kEroHg].result();
  // As LS-DYNA's glstat: the total includes the eroded energies (the "energy ratio w/o eroded
  // energy" leaves them out).
  s.total = s.kinetic + s.internal + s.hourglass + s.rigidwall + s.sliding + s.eroded_kinetic +
            s.eroded_internal + s.eroded_hourglass;
  const Real mass = acc[kMass].result();
  s.mass = mass;
  s.added_mass = d_.added_mass;
  if (mass > 0) {
    s.vx = acc[kPx].result() / mass;
    s.vy = acc[kPy].result() / mass;
    s.vz = acc[kPz].result() / mass;
  }
  s.nodes = model_.nodes.size();
  s.elements = model_.solids.size() + model_.shells.size();
  return s;
}

/// Write one plot state (collective): every rank sends its owned nodes and its elements to
/// rank 0, which writes the whole model exactly as a one-rank run would: a VTK state and a
/// d3plot state.
///
/// d3plot shells: the three points written are the lowest, the middle and the highest
/// through-thickness integration point (for an even NIP the middle is the mean of the two
/// points next to the mid-surface; NIP = 1 writes its one point three times), each stress
/// turned from the element's corotational frame (built from the current corner coordinates as
/// the Belytschko-Tsay kernel builds it) to the global frame. The resultants are integrated in
/// the local frame with the kernel's through-thickness rule, per unit width: M = int sigma z dz,
/// Q = int tau dz, N = int sigma dz, written as Mxx Myy Mxy Qyz Qxz Nxx Nyy Nxy. The "internal
/// energy" word is the element's internal energy per unit (current) volume.
void Integrator::write_state(Real t, const GlobalStats& now, bool previous_positions, Real dt) {
  if (!opt_.write_vtk && !opt_.write_d3plot) return;
  namespace fs = std::filesystem;
  // VTK: one .vtu of the whole model from rank 0 in a one-rank run; in MPP every rank writes
  // its own piece and rank 0 the .pvtu that joins them (nothing gathered for VTK). The d3plot
  // and the one-rank .vtu need the whole model on rank 0.
  const bool pieces = opt_.write_vtk && comm_.size() > 1;
  const bool gather = opt_.write_d3plot || (opt_.write_vtk && !pieces);
  // Nodes: model index, position (3), velocity (3), acceleration (3).
  constexpr std::size_t kNodeRec = 10;
  std::vector<Real> nodes_local;
  for (std::size_t n = 0; n < d_.nnode && gather; ++n) {
    if (!d_.owned[n]) continue;
    nodes_local.push_back(static_cast<Real>(d_.global_index[n]));
    for (int i = 0; i < 3; ++i)
      nodes_local.push_back(d_.x[3 * n + i] - (previous_positions ? dt * d_.v[3 * n + i] : 0.0));
    for (int i = 0; i < 3; ++i) nodes_local.push_back(d_.v[3 * n + i]);
    for (int i = 0; i < 3; ++i) nodes_local.push_back(reported_acceleration(d_, n, i));
  }
  // Elements: kind (0 solid, 1 shell), model index, VTK stress (6), VTK effective plastic
  // strain, active, internal energy, hourglass energy; shells also: 3 points x (global stress
  // (6)), 3 plastic strains, 8 resultants, thickness, internal energy density.
  constexpr std::size_t kElemRec = 43;
  std::vector<Real> elems_local;
  for (const auto& sp : d_.solids)
    for (std::size_t k = 0; k < sp.blk.size(); ++k) {
      elems_local.push_back(0);
      elems_local.push_back(static_cast<Real>(sp.model_index[k]));
      for (int i = 0; i < 6; ++i) elems_local.push_back(sp.blk.sig[6 * k + i]);
      elems_local.push_back(sp.blk.eps_p[k]);
      elems_local.push_back(sp.blk.failed.empty() || !sp.blk.failed[k] ? 1.0 : 0.0);
      elems_local.push_back(sp.blk.e_int[k]);
      elems_local.push_back(sp.blk.e_hg[k]);
      elems_local.resize(elems_local.size() + kElemRec - 12, 0.0);
    }
  for (const auto& sp : d_.shells) {
    const int nip = sp.opt.nip;
    std::vector<Real> zeta(static_cast<std::size_t>(nip)), wt(static_cast<std::size_t>(nip));
    shell_thickness_rule(nip, sp.opt.lobatto, zeta, wt);
    for (std::size_t k = 0; k < sp.blk.size(); ++k) {
      // Mid-surface average of the through-thickness points, local frame [xx yy 0 xy yz zx].
      Real sig[6] = {0, 0, 0, 0, 0, 0};
      Real ep = 0;
      for (int ip = 0; ip < nip; ++ip) {
        const Real* st = &sp.blk.sig[(k * nip + ip) * 5];
        sig[0] += st[0] / nip;
        sig[1] += st[1] / nip;
        sig[3] += st[2] / nip;
        sig[4] += st[3] / nip;
        sig[5] += st[4] / nip;
        ep = std::max(ep, sp.blk.eps_p[k * nip + ip]);
      }
      elems_local.push_back(1);
      elems_local.push_back(static_cast<Real>(sp.model_index[k]));
      for (int i = 0; i < 6; ++i) elems_local.push_back(sig[i]);
      elems_local.push_back(ep);
      elems_local.push_back(sp.blk.failed.empty() || !sp.blk.failed[k] ? 1.0 : 0.0);
      elems_local.push_back(sp.blk.e_int[k]);
      elems_local.push_back(sp.blk.e_hg[k]);
      // Corotational frame from the corner positions (rows e1, e2, e3: local = R global).
      Real X[4][3];
      for (int c = 0; c < 4; ++c)
        for (int i = 0; i < 3; ++i) {
          const auto n = static_cast<std::size_t>(sp.blk.conn[k][c]);
          X[c][i] = d_.x[3 * n + i] - (previous_positions ? dt * d_.v[3 * n + i] : 0.0);
        }
      Real r31[3], r42[3], r21[3], R[3][3];
      for (int i = 0; i < 3; ++i) {
        r31[i] = X[2][i] - X[0][i];
        r42[i] = X[3][i] - X[1][i];
        r21[i] = X[1][i] - X[0][i];
      }
      Real nrm[3] = {r31[1] * r42[2] - r31[2] * r42[1], r31[2] * r42[0] - r31[0] * r42[2],
                     r31[0] * r42[1] - r31[1] * r42[0]};
      const Real nlen = std::sqrt(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
      const Real area = 0.5 * nlen;
      for (int i = 0; i < 3; ++i) R[2][i] = nlen > 0 ? nrm[i] / nlen : (i == 2 ? 1.0 : 0.0);
      const Real d = r21[0] * R[2][0] + r21[1] * R[2][1] + r21[2] * R[2][2];
      Real s1[3];
      for (int i = 0; i < 3; ++i) s1[i] = r21[i] - d * R[2][i];
      const Real slen = std::sqrt(s1[0] * s1[0] + s1[1] * s1[1] + s1[2] * s1[2]);
      for (int i = 0; i < 3; ++i) R[0][i] = slen > 0 ? s1[i] / slen : (i == 0 ? 1.0 : 0.0);
      R[1][0] = R[2][1] * R[0][2] - R[2][2] * R[0][1];
      R[1][1] = R[2][2] * R[0][0] - R[2][0] * R[0][2];
      R[1][2] = R[2][0] * R[0][1] - R[2][1] * R[0][0];
      // Points written: lowest, middle, highest.
      auto point = [&](int which, Real out[5], Real& eps) {
        const auto at = [&](int ip) { return &sp.blk.sig[(k * nip + ip) * 5]; };
        const auto ep_at = [&](int ip) { return sp.blk.eps_p[k * nip + ip]; };
        int p0 = which == 0 ? 0 : (which == 2 ? nip - 1 : (nip - 1) / 2);
        int p1 = which == 1 && nip % 2 == 0 ? nip / 2 : p0;
        for (int i = 0; i < 5; ++i) out[i] = 0.5 * (at(p0)[i] + at(p1)[i]);
        eps = 0.5 * (ep_at(p0) + ep_at(p1));
      };
      Real eps3[3];
      for (int which = 0; which < 3; ++which) {
        Real l[5];
        point(which, l, eps3[which]);
        // local tensor [xx xy zx; xy yy yz; zx yz 0] -> global R^T S R
        const Real S[3][3] = {{l[0], l[2], l[4]}, {l[2], l[1], l[3]}, {l[4], l[3], 0.0}};
        Real G[3][3];
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j) {
            Real acc = 0;
            for (int p = 0; p < 3; ++p)
              for (int q = 0; q < 3; ++q) acc += R[p][i] * S[p][q] * R[q][j];
            G[i][j] = acc;
          }
        for (Real v : {G[0][0], G[1][1], G[2][2], G[0][1], G[1][2], G[2][0]})
          elems_local.push_back(v);
      }
      for (Real e : eps3) elems_local.push_back(e);
      const Real th = sp.blk.t[k];
      Real Nr[3] = {0, 0, 0}, Mr[3] = {0, 0, 0}, Qr[2] = {0, 0};
      for (int ip = 0; ip < nip; ++ip) {
        const Real* sg = &sp.blk.sig[(k * nip + ip) * 5];
        const Real tw = wt[static_cast<std::size_t>(ip)] * th / 2;
        const Real z = zeta[static_cast<std::size_t>(ip)] * th / 2;
        for (int i = 0; i < 3; ++i) {
          Nr[i] += tw * sg[i];
          Mr[i] += tw * z * sg[i];
        }
        Qr[0] += tw * sg[3];
        Qr[1] += tw * sg[4];
      }
      for (Real v : {Mr[0], Mr[1], Mr[2], Qr[0], Qr[1], Nr[0], Nr[1], Nr[2]})
        elems_local.push_back(v);
      elems_local.push_back(th);
      elems_local.push_back(area * th > 0 ? sp.blk.e_int[k] / (area * th) : 0.0);
    }
  }
  if (opt_.write_vtk) {
    const std::size_t index = states_.size();
    states_.emplace_back(t, fmt::format("states/state_{:05d}.{}", index, pieces ? "pvtu" : "vtu"));
    fs::create_directories(fs::path(opt_.outdir) / "states");
  }
  if (pieces) write_vtk_piece(previous_positions, dt, elems_local, kElemRec);
  if (!gather) return;
  const std::vector<Real> nodes_all = comm_.gatherv(nodes_local);
  const std::vector<Real> elems_all = comm_.gatherv(elems_local);
  // Per-part energies, mass and velocity as matsum has them (exact sums: rank-independent).
  std::vector<PartSummary> part_sums;
  if (opt_.write_d3plot && plot_parts_) part_sums = plot_parts_->parts(d_);
  if (comm_.rank() != 0) return;

  if (d3plot_) {
    const std::size_t nn = model_.nodes.size(), ns = model_.solids.size();
    const std::size_t nsh = model_.shells.size(), np = model_.parts.size();
    D3plotState ds;
    ds.time = t;
    ds.kinetic = now.kinetic;
    ds.internal = now.internal;
    ds.total = now.total;
    ds.velocity = {now.vx, now.vy, now.vz};
    ds.x.resize(3 * nn);
    ds.v.assign(3 * nn, 0.0);
    ds.a.assign(3 * nn, 0.0);
    for (std::size_t n = 0; n < nn; ++n) {
      ds.x[3 * n] = model_.nodes.x[n];
      ds.x[3 * n + 1] = model_.nodes.y[n];
      ds.x[3 * n + 2] = model_.nodes.z[n];
    }
    for (std::size_t k = 0; k + kNodeRec <= nodes_all.size(); k += kNodeRec) {
      const auto n = static_cast<std::size_t>(nodes_all[k]);
      for (int i = 0; i < 3; ++i) {
        ds.x[3 * n + i] = nodes_all[k + 1 + i];
        ds.v[3 * n + i] = nodes_all[k + 4 + i];
        ds.a[3 * n + i] = nodes_all[k + 7 + i];
      }
    }
    std::map<GlobalId, std::size_t> part_index;
    for (std::size_t p = 0; p < np; ++p) part_index[model_.parts[p].id] = p;
    ds.part_internal.assign(np, 0.0);
    ds.part_hourglass.assign(np, 0.0);
    ds.part_kinetic.assign(np, 0.0);
    ds.part_mass.assign(np, 0.0);
    ds.part_velocity.assign(3 * np, 0.0);
    for (const PartSummary& ps : part_sums) {
      const auto it = part_index.find(ps.id);
      if (it == part_index.end()) continue;
      const std::size_t p = it->second;
      ds.part_internal[p] = ps.internal;
      ds.part_hourglass[p] = ps.hourglass;
      ds.part_kinetic[p] = ps.kinetic;
      ds.part_mass[p] = ps.mass;
      for (int i = 0; i < 3; ++i)
        ds.part_velocity[3 * p + i] = ps.mass > 0 ? ps.momentum[i] / ps.mass : 0.0;
    }
    ds.solid_sig.assign(6 * ns, 0.0);
    ds.solid_epsp.assign(ns, 0.0);
    ds.solid_active.assign(ns, 1);
    ds.shell_sig.assign(18 * nsh, 0.0);
    ds.shell_epsp.assign(3 * nsh, 0.0);
    ds.shell_resultants.assign(8 * nsh, 0.0);
    ds.shell_thickness.assign(nsh, 0.0);
    ds.shell_energy.assign(nsh, 0.0);
    ds.shell_active.assign(nsh, 1);
    for (std::size_t k = 0; k + kElemRec <= elems_all.size(); k += kElemRec) {
      const Real* r = &elems_all[k];
      const auto e = static_cast<std::size_t>(r[1]);
      const bool shell = r[0] != 0;
      if (!shell) {
        for (int i = 0; i < 6; ++i) ds.solid_sig[6 * e + i] = r[2 + i];
        ds.solid_epsp[e] = r[8];
        ds.solid_active[e] = r[9] != 0 ? 1 : 0;
        continue;
      }
      for (int i = 0; i < 18; ++i) ds.shell_sig[18 * e + i] = r[12 + i];
      for (int i = 0; i < 3; ++i) ds.shell_epsp[3 * e + i] = r[30 + i];
      for (int i = 0; i < 8; ++i) ds.shell_resultants[8 * e + i] = r[33 + i];
      ds.shell_thickness[e] = r[41];
      ds.shell_energy[e] = r[42];
      ds.shell_active[e] = r[9] != 0 ? 1 : 0;
    }
    d3plot_->write_state(ds);
  }
  if (!opt_.write_vtk || pieces) return;

  const std::size_t nn = model_.nodes.size();
  std::vector<Real> pts(3 * nn), vel(3 * nn), disp(3 * nn);
  for (std::size_t n = 0; n < nn; ++n) {
    pts[3 * n] = model_.nodes.x[n];
    pts[3 * n + 1] = model_.nodes.y[n];
    pts[3 * n + 2] = model_.nodes.z[n];
  }
  for (std::size_t k = 0; k + kNodeRec <= nodes_all.size(); k += kNodeRec) {
    const auto n = static_cast<std::size_t>(nodes_all[k]);
    for (int i = 0; i < 3; ++i) {
      pts[3 * n + i] = nodes_all[k + 1 + i];
      vel[3 * n + i] = nodes_all[k + 4 + i];
    }
  }
  for (std::size_t n = 0; n < nn; ++n) {
    disp[3 * n] = pts[3 * n] - model_.nodes.x[n];
    disp[3 * n + 1] = pts[3 * n + 1] - model_.nodes.y[n];
    disp[3 * n + 2] = pts[3 * n + 2] - model_.nodes.z[n];
  }
  const std::size_t ns = model_.solids.size(), nsh = model_.shells.size();
  std::vector<Real> stress(6 * (ns + nsh), 0.0), epsp(ns + nsh, 0.0), pid, eid;
  for (std::size_t k = 0; k + kElemRec <= elems_all.size(); k += kElemRec) {
    const std::size_t e = static_cast<std::size_t>(elems_all[k + 1]) + (elems_all[k] != 0 ? ns : 0);
    for (int i = 0; i < 6; ++i) stress[6 * e + i] = elems_all[k + 2 + i];
    epsp[e] = elems_all[k + 8];
  }
  VtkGrid g;
  g.points = pts;
  for (std::size_t e = 0; e < ns; ++e) {
    for (LocalId n : model_.solids.nodes[e]) g.connectivity.push_back(n);
    g.offsets.push_back(static_cast<std::int64_t>(g.connectivity.size()));
    g.types.push_back(12);
    pid.push_back(static_cast<Real>(model_.solids.part[e]));
    eid.push_back(static_cast<Real>(model_.solids.id[e]));
  }
  for (std::size_t e = 0; e < nsh; ++e) {
    const auto& cn = model_.shells.nodes[e];
    const bool tri = cn[2] == cn[3];
    for (int a = 0; a < (tri ? 3 : 4); ++a) g.connectivity.push_back(cn[a]);
    g.offsets.push_back(static_cast<std::int64_t>(g.connectivity.size()));
    g.types.push_back(tri ? 5 : 9);
    pid.push_back(static_cast<Real>(model_.shells.part[e]));
    eid.push_back(static_cast<Real>(model_.shells.id[e]));
  }
  g.point_data.push_back({"displacement", 3, std::move(disp)});
  g.point_data.push_back({"velocity", 3, std::move(vel)});
  g.cell_data.push_back({"stress", 6, std::move(stress)});
  g.cell_data.push_back({"effective_plastic_strain", 1, std::move(epsp)});
  g.cell_data.push_back({"part_id", 1, std::move(pid)});
  g.cell_data.push_back({"element_id", 1, std::move(eid)});
  write_vtu((fs::path(opt_.outdir) / states_.back().second).string(), g, t);
  write_pvd((fs::path(opt_.outdir) / "parcae.pvd").string(), states_);
}

/// MPP VTK (collective): this rank's elements and the nodes they use as one .vtu piece of
/// states/state_N/, rank 0 writes states/state_N.pvtu and parcae.pvd. Pieces carry the model
/// node and element indices (node_index, element_index) so that tools can put the pieces back
/// together in the order of a one-rank run. elems: the element records of write_state
/// (rec values each, solids then shells in domain order).
void Integrator::write_vtk_piece(bool previous_positions, Real dt, const std::vector<Real>& elems,
                                 std::size_t rec) {
  namespace fs = std::filesystem;
  const std::size_t index = states_.size() - 1;
  const Real t = states_.back().first;
  std::vector<std::int64_t> piece_of(d_.nnode, -1);
  std::vector<LocalId> nodes;
  auto use = [&](LocalId n) {
    auto& p = piece_of[static_cast<std::size_t>(n)];
    if (p < 0) {
      p = static_cast<std::int64_t>(nodes.size());
      nodes.push_back(n);
    }
    return p;
  };
  VtkGrid g;
  std::vector<Real> stress, epsp, pid, eid, eidx;
  std::size_t r = 0;
  auto cell_values = [&](GlobalId part, GlobalId id, std::size_t model_index) {
    const Real* v = &elems[r * rec];
    for (int i = 0; i < 6; ++i) stress.push_back(v[2 + i]);
    epsp.push_back(v[8]);
    pid.push_back(static_cast<Real>(part));
    eid.push_back(static_cast<Real>(id));
    eidx.push_back(static_cast<Real>(model_index));
    g.offsets.push_back(static_cast<std::int64_t>(g.connectivity.size()));
    ++r;
  };
  const std::size_t ns = model_.solids.size();
  for (const auto& sp : d_.solids)
    for (std::size_t k = 0; k < sp.blk.size(); ++k) {
      for (LocalId n : sp.blk.conn[k]) g.connectivity.push_back(use(n));
      g.types.push_back(12);
      cell_values(sp.pid, sp.elem_id[k], sp.model_index[k]);
    }
  for (const auto& sp : d_.shells)
    for (std::size_t k = 0; k < sp.blk.size(); ++k) {
      const auto& cn = sp.blk.conn[k];
      const bool tri = cn[2] == cn[3];
      for (int a = 0; a < (tri ? 3 : 4); ++a) g.connectivity.push_back(use(cn[a]));
      g.types.push_back(tri ? 5 : 9);
      cell_values(sp.pid, sp.elem_id[k], ns + sp.model_index[k]);
    }
  // Rigid parts have no element blocks (their nodes follow the bodies, on every rank): rank 0
  // writes their elements, with zero stress as the one-rank .vtu has them.
  if (comm_.rank() == 0) {
    std::map<GlobalId, bool> rigid_part;
    for (const auto& p : model_.parts) {
      const Material* m = model_.find_material(p.mid);
      rigid_part[p.id] = m && m->kind == MaterialKind::Rigid;
    }
    auto rigid_cell = [&](GlobalId part, GlobalId id, std::size_t model_index) {
      stress.insert(stress.end(), 6, 0.0);
      epsp.push_back(0.0);
      pid.push_back(static_cast<Real>(part));
      eid.push_back(static_cast<Real>(id));
      eidx.push_back(static_cast<Real>(model_index));
      g.offsets.push_back(static_cast<std::int64_t>(g.connectivity.size()));
    };
    auto local = [&](LocalId model_node) {
      return use(d_.local_of_global[static_cast<std::size_t>(model_node)]);
    };
    for (std::size_t e = 0; e < ns; ++e) {
      if (!rigid_part[model_.solids.part[e]]) continue;
      for (LocalId n : model_.solids.nodes[e]) g.connectivity.push_back(local(n));
      g.types.push_back(12);
      rigid_cell(model_.solids.part[e], model_.solids.id[e], e);
    }
    for (std::size_t e = 0; e < model_.shells.size(); ++e) {
      if (!rigid_part[model_.shells.part[e]]) continue;
      const auto& cn = model_.shells.nodes[e];
      const bool tri = cn[2] == cn[3];
      for (int a = 0; a < (tri ? 3 : 4); ++a) g.connectivity.push_back(local(cn[a]));
      g.types.push_back(tri ? 5 : 9);
      rigid_cell(model_.shells.part[e], model_.shells.id[e], ns + e);
    }
  }
  std::vector<Real> pts, disp, vel, nidx, nid;
  for (LocalId n : nodes) {
    const auto i3 = 3 * static_cast<std::size_t>(n);
    for (int i = 0; i < 3; ++i) {
      const Real x = d_.x[i3 + i] - (previous_positions ? dt * d_.v[i3 + i] : 0.0);
      pts.push_back(x);
      disp.push_back(x - d_.x0[i3 + i]);
      vel.push_back(d_.v[i3 + i]);
    }
    nidx.push_back(static_cast<Real>(d_.global_index[static_cast<std::size_t>(n)]));
    nid.push_back(static_cast<Real>(d_.node_id[static_cast<std::size_t>(n)]));
  }
  g.points = pts;
  g.point_data.push_back({"displacement", 3, std::move(disp)});
  g.point_data.push_back({"velocity", 3, std::move(vel)});
  g.point_data.push_back({"node_id", 1, std::move(nid)});
  g.point_data.push_back({"node_index", 1, std::move(nidx)});
  g.cell_data.push_back({"stress", 6, std::move(stress)});
  g.cell_data.push_back({"effective_plastic_strain", 1, std::move(epsp)});
  g.cell_data.push_back({"part_id", 1, std::move(pid)});
  g.cell_data.push_back({"element_id", 1, std::move(eid)});
  g.cell_data.push_back({"element_index", 1, std::move(eidx)});
  const std::string dir = fmt::format("state_{:05d}", index);
  const fs::path states = fs::path(opt_.outdir) / "states";
  fs::create_directories(states / dir);
  write_vtu((states / dir / fmt::format("piece_{:05d}.vtu", comm_.rank())).string(), g, t);
  comm_.barrier(); // every piece is in place before the .pvtu names it
  if (comm_.rank() != 0) return;
  std::vector<std::string> names;
  for (int q = 0; q < comm_.size(); ++q)
    names.push_back(fmt::format("{}/piece_{:05d}.vtu", dir, q));
  write_pvtu((fs::path(opt_.outdir) / states_.back().second).string(), names, g);
  write_pvd((fs::path(opt_.outdir) / "parcae.pvd").string(), states_);
}

void Integrator::open_d3plot(bool append) {
  D3plotGeometry g;
  g.title = model_.control.title;
  const std::size_t nn = model_.nodes.size();
  g.x0.resize(3 * nn);
  for (std::size_t n = 0; n < nn; ++n) {
    g.x0[3 * n] = model_.nodes.x[n];
    g.x0[3 * n + 1] = model_.nodes.y[n];
    g.x0[3 * n + 2] = model_.nodes.z[n];
  }
  g.node_id = model_.nodes.id;
  std::map<GlobalId, std::int32_t> part_index;
  for (const auto& p : model_.parts) {
    part_index[p.id] = static_cast<std::int32_t>(g.parts.size());
    g.parts.push_back({p.id, p.title});
  }
  auto index_of = [&](GlobalId pid) {
    const auto it = part_index.find(pid);
    if (it == part_index.end())
      throw RuntimeError(fmt::format("d3plot: element of undefined part {}", pid));
    return it->second;
  };
  for (std::size_t e = 0; e < model_.solids.size(); ++e) {
    std::array<std::int32_t, 8> c{};
    for (int a = 0; a < 8; ++a) c[a] = model_.solids.nodes[e][a];
    g.solid_nodes.push_back(c);
    g.solid_part.push_back(index_of(model_.solids.part[e]));
  }
  g.solid_id = model_.solids.id;
  for (std::size_t e = 0; e < model_.shells.size(); ++e) {
    std::array<std::int32_t, 4> c{};
    for (int a = 0; a < 4; ++a) c[a] = model_.shells.nodes[e][a];
    g.shell_nodes.push_back(c);
    g.shell_part.push_back(index_of(model_.shells.part[e]));
  }
  g.shell_id = model_.shells.id;
  D3plotOptions o;
  o.word_bytes = opt_.d3plot_word_bytes;
  o.shell_layers = 3; // bottom, middle, top (see write_state); other MAXINT values write 3 too
  const auto& ext = model_.control.extent; // *DATABASE_EXTENT_BINARY: 2 = leave out
  o.shell_stress = ext.sigflg != 2;
  o.shell_plastic_strain = ext.epsflg != 2;
  o.shell_resultants = ext.rltflg != 2;
  o.shell_thickness_energy = ext.engflg != 2;
  if (ext.ieverp == 1) o.family_file_words = 1; // one state per family member
  o.append = append;
  const std::string base = (std::filesystem::path(opt_.outdir) / "d3plot").string();
  if (!append) {
    d3plot_ = std::make_unique<D3plotWriter>(base, std::move(g), o);
    return;
  }
  try {
    d3plot_ = std::make_unique<D3plotWriter>(base, std::move(g), o);
  } catch (const RuntimeError& e) { // keep what is there; the run goes on without d3plot
    if (opt_.log) *opt_.log << "warning: no d3plot after the restart: " << e.what() << "\n";
  }
}

void Integrator::check_finite(int cycle) {
  for (std::size_t n = 0; n < d_.nnode; ++n)
    for (int i = 0; i < 3; ++i)
      if (!std::isfinite(d_.v[3 * n + i]) || !std::isfinite(d_.x[3 * n + i])) {
        fail_local(
            fmt::format("NaN or infinite velocity at node {} in cycle {}", d_.node_id[n], cycle));
        return;
      }
}

void Integrator::init_erosion() {
  check_add_erosions(model_);
  const auto nsolid = static_cast<std::int64_t>(model_.solids.size());
  for (const auto& sp : d_.solids) {
    const Material* m = model_.find_material(sp.mat.id);
    solid_rule_.push_back(m ? make_erosion_rule(model_, *m, false, 1, sp.pid) : ErosionRule{});
    solid_gone_.emplace_back(sp.blk.size(), 0);
  }
  for (const auto& sp : d_.shells) {
    const Material* m = model_.find_material(sp.mat.id);
    shell_rule_.push_back(m ? make_erosion_rule(model_, *m, true, sp.opt.nip, sp.pid)
                            : ErosionRule{});
    shell_gone_.emplace_back(sp.blk.size(), 0);
  }
  // Whether the model can erode at all, from the model alone (every rank decides the same).
  for (const auto& p : model_.parts) {
    const Material* m = model_.find_material(p.mid);
    if (!m) continue;
    const bool fails =
        (m->kind == MaterialKind::PlasticKinematic || m->kind == MaterialKind::PiecewiseLinear) &&
        m->fs > 0;
    const bool tdel = m->kind == MaterialKind::PiecewiseLinear && m->tdel > 0;
    bool add = false;
    for (const auto& a : model_.add_erosions) add |= a.mid == m->id;
    erosion_ |= fails || tdel || add;
  }
  if (!erosion_) return;
  solid_alive_.assign(model_.solids.size(), 1);
  shell_alive_.assign(model_.shells.size(), 1);
  node_live_.assign(model_.nodes.size(), 0);
  node_free_.assign(model_.nodes.size(), 0);
  for (std::int64_t ref = 0; ref < nsolid + static_cast<std::int64_t>(model_.shells.size());
       ++ref) {
    LocalId nodes[8];
    int nn = 0;
    if (ref < nsolid) {
      for (LocalId n : model_.solids.nodes[static_cast<std::size_t>(ref)]) nodes[nn++] = n;
    } else {
      for (LocalId n : model_.shells.nodes[static_cast<std::size_t>(ref - nsolid)]) nodes[nn++] = n;
    }
    for (int a = 0; a < nn; ++a) {
      bool seen = false;
      for (int b = 0; b < a; ++b) seen |= nodes[b] == nodes[a];
      if (!seen) ++node_live_[static_cast<std::size_t>(nodes[a])];
    }
  }
}

bool Integrator::erode_solids(std::size_t p, std::size_t b, std::size_t e,
                              std::vector<std::int64_t>& out) {
  auto& sp = d_.solids[p];
  auto& gone = solid_gone_[p];
  const ErosionRule& rule = solid_rule_[p];
  const Real tssfac = model_.control.tssfac;
  bool any = false;
  for (std::size_t k = b; k < e; ++k) {
    if (gone[k]) continue;
    bool f = sp.blk.failed[k] != 0; // the kernel's FS / FAIL test
    if (!f && rule.tdel > 0 && sp.blk.dt[k] * tssfac < rule.tdel) f = true;
    if (!f && rule.add) {
      Real strain[3];
      const Real* sp_strain = nullptr;
      if (rule.needs_strain) {
        // F = 1 + sum_a (x_a - X_a) B0_a with the uniform gradient of the initial geometry
        Real X[8], Y[8], Z[8], bx[8], by[8], bz[8];
        const auto& cn = sp.blk.conn[k];
        for (int a = 0; a < 8; ++a) {
          const std::size_t n = 3 * static_cast<std::size_t>(cn[a]);
          X[a] = d_.x0[n];
          Y[a] = d_.x0[n + 1];
          Z[a] = d_.x0[n + 2];
        }
        const Real v0 = hex_volume_gradient(X, Y, Z, bx, by, bz);
        Real fg[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
        for (int a = 0; a < 8; ++a) {
          const std::size_t n = 3 * static_cast<std::size_t>(cn[a]);
          const Real bb[3] = {bx[a] / v0, by[a] / v0, bz[a] / v0};
          for (int i = 0; i < 3; ++i) {
            const Real u = d_.x[n + i] - d_.x0[n + i];
            for (int j = 0; j < 3; ++j) fg[3 * i + j] += u * bb[j];
          }
        }
        log_principal_strains(fg, strain);
        sp_strain = strain;
      }
      f = point_fails(rule.crit, &sp.blk.sig[6 * k], t_pass_, sp_strain);
    }
    if (!f) continue;
    sp.blk.failed[k] = 1;
    gone[k] = 1;
    Real* fe = &d_.corner_f_solid[3 * sp.corner_offset + 24 * k];
    std::fill(fe, fe + 24, 0.0);
    sp.blk.dt[k] = 1e300;
    out.push_back(static_cast<std::int64_t>(sp.model_index[k]));
    any = true;
  }
  return any;
}

bool Integrator::erode_shells(std::size_t p, std::size_t b, std::size_t e,
                              std::vector<std::int64_t>& out) {
  auto& sp = d_.shells[p];
  auto& gone = shell_gone_[p];
  const ErosionRule& rule = shell_rule_[p];
  const Real tssfac = model_.control.tssfac;
  const int nip = sp.opt.nip;
  const auto nsolid = static_cast<std::int64_t>(model_.solids.size());
  bool any = false;
  for (std::size_t k = b; k < e; ++k) {
    if (gone[k]) continue;
    bool f = sp.blk.failed[k] != 0; // the kernel's FS / FAIL test (all points)
    if (!f && rule.tdel > 0 && shell_critical_dt(sp.mat, sp.blk, k, d_.x) * tssfac < rule.tdel)
      f = true;
    if (!f && rule.add) {
      int nf = 0;
      for (int ip = 0; ip < nip; ++ip) {
        const Real* s5 = &sp.blk.sig[5 * (static_cast<std::size_t>(nip) * k + ip)];
        const Real s6[6] = {s5[0], s5[1], 0.0, s5[2], s5[3], s5[4]};
        if (point_fails(rule.crit, s6, t_pass_, nullptr)) ++nf;
      }
      f = nf >= rule.fip_needed;
    }
    if (!f) continue;
    sp.blk.failed[k] = 1;
    gone[k] = 1;
    Real* fe = &d_.corner_f_shell[3 * sp.corner_offset + 12 * k];
    Real* me = &d_.corner_m_shell[3 * sp.corner_offset + 12 * k];
    std::fill(fe, fe + 12, 0.0);
    std::fill(me, me + 12, 0.0);
    out.push_back(nsolid + static_cast<std::int64_t>(sp.model_index[k]));
    any = true;
  }
  return any;
}

void Integrator::kill_element(std::int64_t ref) {
  const auto nsolid = static_cast<std::int64_t>(model_.solids.size());
  LocalId nodes[8];
  int nn = 0;
  if (ref < nsolid) {
    if (!solid_alive_[static_cast<std::size_t>(ref)]) return;
    solid_alive_[static_cast<std::size_t>(ref)] = 0;
    for (LocalId n : model_.solids.nodes[static_cast<std::size_t>(ref)]) nodes[nn++] = n;
  } else {
    if (!shell_alive_[static_cast<std::size_t>(ref - nsolid)]) return;
    shell_alive_[static_cast<std::size_t>(ref - nsolid)] = 0;
    for (LocalId n : model_.shells.nodes[static_cast<std::size_t>(ref - nsolid)]) nodes[nn++] = n;
  }
  ++n_eroded_;
  for (int a = 0; a < nn; ++a) {
    bool seen = false;
    for (int b = 0; b < a; ++b) seen |= nodes[b] == nodes[a];
    if (seen) continue;
    const auto g = static_cast<std::size_t>(nodes[a]);
    if (--node_live_[g] == 0) node_free_[g] = 1;
  }
}

void Integrator::erosion_sync() {
  if (!erosion_) return;
  std::vector<double> mine(eroded_now_.begin(), eroded_now_.end());
  eroded_now_.clear();
  std::vector<double> all =
      comm_.size() > 1 ? comm_.allgatherv(std::span<const double>(mine)) : std::move(mine);
  if (all.empty()) return;
  std::sort(all.begin(), all.end()); // the same order on every rank
  for (double r : all) kill_element(static_cast<std::int64_t>(r));
  for (std::size_t i = 0; i < contact_.interfaces.size(); ++i)
    update_contact_life(contact_, i, contact_.interfaces[i], solid_alive_, shell_alive_,
                        node_free_);
  if (opt_.log && comm_.rank() == 0) {
    constexpr std::size_t kMaxLines = 50;
    const auto nsolid = static_cast<std::int64_t>(model_.solids.size());
    const auto first = static_cast<std::int64_t>(all.front());
    const std::string what =
        first < nsolid
            ? fmt::format("solid {}", model_.solids.id[static_cast<std::size_t>(first)])
            : fmt::format("shell {}", model_.shells.id[static_cast<std::size_t>(first - nsolid)]);
    if (n_erosion_lines_ < kMaxLines)
      *opt_.log << fmt::format("  cycle {}: {} element(s) eroded at time {:.6e} (first: {}); {} "
                               "in all\n",
                               weld_cycle_, all.size(), t_pass_, what, n_eroded_);
    else if (n_erosion_lines_ == kMaxLines)
      *opt_.log << "  (further erosion messages are not written)\n";
    ++n_erosion_lines_;
  }
}

void Integrator::erosion_rebuild() {
  if (!erosion_) return;
  std::vector<double> mine;
  const auto nsolid = static_cast<std::int64_t>(model_.solids.size());
  for (std::size_t p = 0; p < d_.solids.size(); ++p)
    for (std::size_t k = 0; k < d_.solids[p].blk.size(); ++k) {
      solid_gone_[p][k] = d_.solids[p].blk.failed[k];
      if (solid_gone_[p][k]) mine.push_back(static_cast<double>(d_.solids[p].model_index[k]));
    }
  for (std::size_t p = 0; p < d_.shells.size(); ++p)
    for (std::size_t k = 0; k < d_.shells[p].blk.size(); ++k) {
      shell_gone_[p][k] = d_.shells[p].blk.failed[k];
      if (shell_gone_[p][k])
        mine.push_back(
            static_cast<double>(nsolid + static_cast<std::int64_t>(d_.shells[p].model_index[k])));
    }
  eroded_now_.clear();
  for (double r : mine) eroded_now_.push_back(static_cast<std::int64_t>(r));
  const std::size_t lines = n_erosion_lines_;
  n_erosion_lines_ = 1000000; // no log lines for the replay
  erosion_sync();
  n_erosion_lines_ = lines;
}

std::string format_duration(Real s) {
  if (!std::isfinite(s) || s < 0) return "--";
  if (s < 60) return fmt::format("{:.1f}s", s);
  if (s < 3600)
    return fmt::format("{}m{:02d}s", static_cast<int>(s / 60), static_cast<int>(s) % 60);
  return fmt::format("{}h{:02d}m", static_cast<int>(s / 3600), static_cast<int>(s / 60) % 60);
}

void Integrator::build_contacts(Domain& global) {
  contact_ = build_contact_model(model_);
  if (contact_.interfaces.empty()) return;
  const std::size_t nc = contact_.node_model.size();
  cx_.resize(3 * nc);
  cv_.resize(3 * nc);
  cm_.resize(nc);
  cf_.assign(3 * nc, 0.0);
  for (std::size_t k = 0; k < nc; ++k) {
    const auto n = static_cast<std::size_t>(contact_.node_model[k]);
    for (int i = 0; i < 3; ++i) {
      cx_[3 * k + i] = global.x[3 * n + i];
      cv_[3 * k + i] = global.v[3 * n + i];
    }
    cm_[k] = global.mass[n];
  }
  for (std::size_t i = 0; i < contact_.interfaces.size(); ++i) {
    const auto& ifc = contact_.interfaces[i];
    const ContactDef& def = *contact_.defs[i];
    contact_state_.push_back(contact::init_state(ifc, nc, cx_));
    const std::vector<Real> before = cx_;
    const auto pen = contact::initial_penetrations(ifc, contact_state_.back(), cx_);
    if (pen.empty()) continue;
    Real deepest = 0;
    GlobalId deepest_node = 0;
    for (const auto& r : pen)
      if (r.depth > deepest) {
        deepest = r.depth;
        deepest_node = model_.nodes.id[contact_.node_model[r.node]];
      }
    contact_report_.push_back(fmt::format(
        "  contact {} ({}): {} initially penetrating node(s), deepest {:.4e} at node {}: {}",
        def.id, def.keyword, pen.size(), deepest, deepest_node,
        ifc.p.ignore == 0 ? "moved back onto the surface (IGNORE = 0)"
                          : "penetration kept as an offset (IGNORE = 1)"));
  }
  // IGNORE = 0 moved nodes: the initial geometry is the corrected one.
  for (std::size_t k = 0; k < nc; ++k) {
    const auto n = static_cast<std::size_t>(contact_.node_model[k]);
    for (int i = 0; i < 3; ++i) global.x[3 * n + i] = global.x0[3 * n + i] = cx_[3 * k + i];
  }
}

void Integrator::contact_pass(int cycle, Real t, Real dt) {
  static const int search_phase = prof::phase_id("contact_search");
  static const int force_phase = prof::phase_id("contact_forces");
  {
    // This rank's contact nodes: current positions and velocities into the compact arrays.
    PhaseScope p(search_phase);
    for (LocalId k : contact_local_list_) {
      const auto l = static_cast<std::size_t>(contact_local_[static_cast<std::size_t>(k)]);
      for (int i = 0; i < 3; ++i) {
        cx_[3 * static_cast<std::size_t>(k) + i] = d_.x[3 * l + i];
        cv_[3 * static_cast<std::size_t>(k) + i] = d_.v[3 * l + i];
      }
    }
    if (mpp_contact_)
      mpp_contact_->begin_cycle(cycle, cx_, cv_); // searches, plan, ghost import
    else
      for (std::size_t i = 0; i < contact_state_.size(); ++i)
        contact::update_search(contact_.interfaces[i], contact_state_[i], cx_, cycle);
  }
  PhaseScope p(force_phase);
  std::vector<contact::ContactStatus> status(contact_state_.size());
  if (mpp_contact_) {
    for (std::size_t i = 0; i < contact_state_.size(); ++i)
      status[i] = contact::evaluate_contacts(contact_.interfaces[i], contact_state_[i], cx_, cv_,
                                             cm_, t, dt);
    status = mpp_contact_->finish_cycle(status, cv_, dt, cf_);
  } else {
    std::fill(cf_.begin(), cf_.end(), 0.0);
    for (std::size_t i = 0; i < contact_state_.size(); ++i)
      status[i] = contact::contact_forces(contact_.interfaces[i], contact_state_[i], cx_, cv_, cm_,
                                          t, dt, cf_);
  }
  for (std::size_t i = 0; i < contact_state_.size(); ++i) {
    const ContactDef& def = *contact_.defs[i];
    auto node_id = [&](LocalId k) { return model_.nodes.id[contact_.node_model[k]]; };
    if (!status[i].ok) {
      std::string nodes;
      for (std::size_t j = 0; j < status[i].blowup.size() && j < 8; ++j)
        nodes += fmt::format("{}node {} (penetration {:.3e})", j ? ", " : "",
                             node_id(status[i].blowup[j].node), status[i].blowup[j].depth);
      throw Unstable{fmt::format("contact {} ({}) blew up in cycle {}: {}{}", def.id, def.keyword,
                                 cycle, nodes, status[i].blowup.size() > 8 ? ", ..." : "")};
    }
    if (!status[i].released.empty() && opt_.log)
      *opt_.log << fmt::format("  warning: contact {}: {} node(s) released beyond the maximum "
                               "penetration in cycle {} (first: node {})\n",
                               def.id, status[i].released.size(), cycle,
                               node_id(status[i].released.front().node));
  }
  for (LocalId k : contact_local_list_) {
    const auto l = static_cast<std::size_t>(contact_local_[static_cast<std::size_t>(k)]);
    for (int i = 0; i < 3; ++i) f_contact_[3 * l + i] = cf_[3 * static_cast<std::size_t>(k) + i];
  }
}

void Integrator::write_contact_histories(Real t) {
  // MPP: energies reduced, resultants gathered on rank 0 (collective)
  std::vector<MppContact::InterfaceEnergies> energies;
  if (mpp_contact_) energies = mpp_contact_->gather_for_output();
  if (!rcforc_) return;
  InterfaceState s;
  s.time = t;
  for (std::size_t i = 0; i < contact_state_.size(); ++i) {
    const auto& cs = contact_state_[i];
    InterfaceForce f;
    f.id = contact_.defs[i]->id;
    f.secondary = cs.resultant_secondary;
    f.main = cs.resultant_main;
    f.e_secondary = mpp_contact_ ? energies[i].secondary : cs.e_secondary.result();
    f.e_main = mpp_contact_ ? energies[i].main : cs.e_main.result();
    f.e_friction = mpp_contact_ ? energies[i].friction : cs.e_friction.result();
    s.interfaces.push_back(f);
  }
  rcforc_->write(s);
  sleout_->write(s);
}

void Integrator::visit_state(StateArchive& ar, LoopVars& lv) {
  std::uint64_t fp = domain_fingerprint(d_);
  const std::uint64_t mine = fp;
  ar.pod(fp);
  if (ar.loading() && fp != mine)
    throw RuntimeError("the checkpoint was written for another model or decomposition (mesh "
                       "fingerprint differs): restart with the same deck and rank count");
  ar.pod(lv);
  visit_domain_state(ar, d_);
  ar.vec(f_ext_);
  ar.vec(m_app_);
  for (auto& w : walls_) {
    ar.pod(w.p);
    ar.pod(w.velocity);
    ar.pod(w.normal_force);
    ar.pod(w.impulse_last);
    ar.pod(w.dt_last);
  }
  ar.pod(limit_.dt);
  ar.str(limit_.kind);
  ar.pod(limit_.elem);
  ar.pod(limit_.part);
  ar.pod(ext_work_);
  ar.pod(wall_work_);
  bool has_hist = hist_ != nullptr;
  ar.pod(has_hist);
  if (has_hist != (hist_ != nullptr))
    throw RuntimeError("the checkpoint and this run differ in their history outputs");
  if (hist_) hist_->visit_state(ar);
  std::uint64_t ncontact = contact_state_.size();
  ar.pod(ncontact);
  if (ncontact != contact_state_.size())
    throw RuntimeError("the checkpoint and this run differ in their contacts");
  for (auto& cs : contact_state_) {
    for (auto& ps : cs.passes) {
      for (auto* v : {&ps.node_half_t, &ps.seg_half_t, &ps.ft, &ps.pen_prev, &ps.offset, &ps.fn,
                      &ps.shape, &ps.diss, &ps.flag_depth})
        ar.vec(*v);
      for (auto* v : {&ps.nodes, &ps.cand_seg, &ps.adj_seg, &ps.tracked, &ps.seg_of, &ps.flag_seg})
        ar.vec(*v);
      ar.vec(ps.cand_start);
      ar.vec(ps.adj_start);
      ar.vec(ps.contact_side);
      ar.vec(ps.released);
      ar.vec(ps.flag);
      ar.pod(ps.on_main);
      ar.pod(ps.sf);
    }
    ar.vec(cs.all_nodes);
    ar.vec(cs.slot_of);
    for (auto* v : {&cs.x_search, &cs.f_prev, &cs.f_now, &cs.work}) ar.vec(*v);
    ar.vec(cs.slot_main);
    ar.pod(cs.margin);
    ar.pod(cs.dt_c);
    ar.pod(cs.last_search_cycle);
    ar.pod(cs.n_searches);
    ar.pod(cs.e_interface);
    ar.pod(cs.e_friction);
    ar.pod(cs.e_secondary);
    ar.pod(cs.e_main);
    ar.pod(cs.resultant_secondary);
    ar.pod(cs.resultant_main);
  }
  std::uint64_t nstates = states_.size();
  ar.pod(nstates);
  if (ar.loading()) states_.resize(nstates);
  for (auto& [t, name] : states_) {
    ar.pod(t);
    ar.str(name);
  }
  ar.expect_end();
}

std::string Integrator::write_checkpoint_now(const LoopVars& lv) {
  namespace fs = std::filesystem;
  StateArchive ar;
  LoopVars copy = lv;
  visit_state(ar, copy);
  CheckpointInfo info;
  info.cycle = lv.cycle;
  info.time = lv.t;
  info.deck = opt_.deck_path;
  info.fingerprint = domain_fingerprint(d_);
  if (comm_.rank() == 0) {
    info.outputs = output_file_sizes(opt_.outdir);
    info.outputs.erase("parcae.pvd"); // rewritten whole at every state, not appended
  }
  return write_checkpoint(comm_, opt_.outdir, info, ar.bytes()).string();
}

CheckpointInfo Integrator::prepare_restart() {
  std::string error;
  CheckpointInfo info;
  try {
    // Rank 0 checks every rank's file (present, complete, checksum) before anything is touched.
    if (comm_.rank() == 0) info = find_checkpoint(opt_.restart_from);
  } catch (const std::exception& e) {
    error = e.what();
  }
  if (comm_.any(!error.empty()))
    throw RuntimeError(error.empty() ? "restart failed on rank 0" : error);
  if (comm_.rank() != 0) info = find_checkpoint(opt_.restart_from, /*verify=*/false);
  if (info.ranks != comm_.size())
    throw RuntimeError(fmt::format("checkpoint {} was written by {} rank(s); restart it on {} "
                                   "(--np {})",
                                   info.dir.string(), info.ranks, info.ranks, info.ranks));
  // Outputs back to their state at the checkpoint, before any writer opens them.
  if (comm_.rank() == 0) rewind_outputs(opt_.outdir, info);
  comm_.barrier();
  return info;
}

void Integrator::restore_checkpoint(const CheckpointInfo& info, LoopVars& lv) {
  namespace fs = std::filesystem;
  std::string error;
  try {
    const fs::path file = info.dir / fmt::format("rank-{:05d}.bin", comm_.rank());
    StateArchive ar(read_checkpoint_file(file), file.string());
    visit_state(ar, lv);
  } catch (const std::exception& e) {
    error = e.what();
  }
  if (comm_.any(!error.empty()))
    throw RuntimeError(error.empty() ? "restart failed on another rank" : error);
  if (mpp_contact_) mpp_contact_->invalidate_plan();
  if (comm_.rank() == 0 && !states_.empty() && opt_.write_vtk)
    write_pvd((fs::path(opt_.outdir) / "parcae.pvd").string(), states_);
}

RunSummary Integrator::run() {
  using clock = std::chrono::steady_clock;
  RunSummary sum;
  std::ostream* log = opt_.log;
  const Controls& c = model_.control;
  namespace fs = std::filesystem;
  fs::create_directories(opt_.outdir);
  if (opt_.threads > 0) omp_set_num_threads(opt_.threads);
  std::optional<PhaseScope> setup_phase(std::in_place, phases().setup);
  const bool restarting = !opt_.restart_from.empty();
  CheckpointInfo restart_info;
  if (restarting) restart_info = prepare_restart();

  // Initial force pass: stresses are zero, hourglass viscosity acts on the initial velocities.
  try {
    element_pass(0.0);
  } catch (const Unstable& u) {
    throw RuntimeError("the initial state is invalid: " + u.message);
  }
  assemble_and_accelerate(0.0);
  const Real dt_crit0 = limit_.dt;
  Real dt = c.tssfac * dt_crit0;
  if (c.dtinit > 0) dt = std::min(dt, c.dtinit);
  if (!std::isfinite(dt) && d_.element_count() == 0 && !d_.bodies.empty())
    dt = c.dtinit > 0 ? c.dtinit : c.endtim / 1000.0; // rigid bodies only
  if (!(dt > 0) || !std::isfinite(dt))
    throw RuntimeError("cannot determine a time step (no deformable elements and no DTINIT)");
  sum.dt_initial = dt;
  if (log) {
    *log << model_summary(model_, d_, dt, limit_.kind, limit_.elem, limit_.part);
    if (!contact_.interfaces.empty())
      *log << fmt::format("  contacts         {} interface(s), {} contact nodes\n",
                          contact_.interfaces.size(), contact_.node_model.size());
    for (const auto& line : contact_report_) *log << line << "\n";
    *log << std::flush;
  }

  if (opt_.write_glstat && comm_.rank() == 0) {
    glstat_ = std::make_unique<GlstatWriter>((fs::path(opt_.outdir) / "glstat").string(), c.title,
                                             restarting);
    if (!walls_.empty()) glstat_->set_rigidwall_output(true);
    if (!contact_state_.empty()) glstat_->set_friction_output(true);
  }
  // d3plot (rank 0); a restart appends to the family rewound to the checkpoint.
  if (opt_.write_d3plot && comm_.rank() == 0) open_d3plot(restarting);
  if (opt_.write_d3plot) plot_parts_ = std::make_unique<HistoryRecorder>(model_, d_, comm_);
  const auto nelem =
      static_cast<std::size_t>(comm_.sum(static_cast<std::int64_t>(d_.element_count())));
  const Real endtim = c.endtim;
  const Real glstat_dt = c.glstat_dt > 0 ? c.glstat_dt : endtim / 100.0;
  const Real plot_dt = c.d3plot_dt > 0 ? c.d3plot_dt : endtim / 20.0;
  Real next_glstat = 0, next_plot = 0;
  GlobalStats st = stats(0, 0.0, dt);
  st.initial_total = st.total;
  sum.initial = st;
  const Real e0 = st.total;
  if (!contact_state_.empty() && comm_.rank() == 0) {
    std::vector<LegendEntry> legend;
    for (const ContactDef* def : contact_.defs) legend.push_back({def->id, def->title});
    rcforc_ = std::make_unique<RcforcWriter>((fs::path(opt_.outdir) / "rcforc").string(), c.title,
                                             legend, restarting);
    sleout_ = std::make_unique<SleoutWriter>((fs::path(opt_.outdir) / "sleout").string(), c.title,
                                             legend, restarting);
  }
  if (!restarting) {
    write_contact_histories(0.0);
    if (glstat_) glstat_->write(st);
    write_state(0.0, st);
  }
  if (opt_.write_histories) {
    hist_ = std::make_unique<HistoryOutput>(model_, d_, walls_, comm_, opt_.outdir, glstat_dt,
                                            restarting);
    if (!restarting) hist_->write(d_, walls_, 0, 0.0, &st);
  }
  next_glstat += glstat_dt;
  next_plot += plot_dt;

  const auto t_start = clock::now();
  Real next_print_time = 0.1 * endtim;
  constexpr int kPrintEveryCycles = 5000; // and at every 10% of the termination time
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
  if (restarting) {
    // The set-up above ran on the initial state (same dt and initial energy as the original
    // run); now the state at the checkpoint replaces it.
    LoopVars lv;
    restore_checkpoint(restart_info, lv);
    erosion_rebuild();
    t = lv.t;
    dt_old = lv.dt_old;
    cycle = lv.cycle;
    next_glstat = lv.next_glstat;
    next_plot = lv.next_plot;
    next_print_time = lv.next_print_time;
    sum.restarted_from_cycle = cycle;
    if (log)
      *log << fmt::format("\nrestarting from {} (cycle {}, time {:.6e})\n",
                          restart_info.dir.string(), cycle, t);
  }
  // Checkpoints on a stop request (signal or stop file) or a wall-clock interval: ranks agree on
  // those (local) events
  // every kAgreeEvery cycles with one reduction.
  constexpr int kAgreeEvery = 16;
  const fs::path stop_file = fs::path(opt_.outdir) / "d3kil";
  if (comm_.rank() == 0) {
    std::error_code ec;
    fs::remove(stop_file, ec); // a stale request from an earlier run
  }
  auto last_checkpoint = clock::now();
  // Test hook: PARCAE_TEST_CYCLE_SLEEP_US=N sleeps N microseconds every cycle, so that the
  // restart tests can interrupt a run part-way however fast the machine is.
  const long cycle_sleep_us = [] {
    const char* s = std::getenv("PARCAE_TEST_CYCLE_SLEEP_US");
    return s ? std::atol(s) : 0L;
  }();
  auto checkpoint = [&]() {
    PhaseScope checkpoint_phase(phases().checkpoint);
    LoopVars lv{t, dt_old, next_glstat, next_plot, next_print_time, cycle};
    sum.last_checkpoint = write_checkpoint_now(lv);
    last_checkpoint = clock::now();
    if (log)
      *log << fmt::format("  checkpoint at cycle {} written to {}\n", cycle, sum.last_checkpoint)
           << std::flush;
  };
  try {
    setup_phase.reset();
    while (t < endtim * (1 - 1e-12) && (c.endcyc <= 0 || cycle < c.endcyc)) {
      // Time not in a nested phase (velocity and position updates, loads, constraints, rigid
      // bodies) is the cycle's nodal update.
      PhaseScope cycle_phase(phases().nodal_update);
      // Only rigid bodies (no element limits the step): keep the initial step.
      // (after erosion has deleted every element: the last step)
      const bool no_limit = !std::isfinite(limit_.dt) || limit_.dt >= 1e299;
      Real dt_new = cycle == 0 || no_limit ? (cycle == 0 ? dt : dt_old) : c.tssfac * limit_.dt;
      if (c.dtinit > 0 && cycle == 0) dt_new = dt;
      if (t + dt_new > endtim) dt_new = endtim - t;
      if (dt_new < dtmin_abs && t + dt_new < endtim * (1 - 1e-9))
        throw Unstable{fmt::format("time step collapsed to {:.4e} (below {:.4e}) in {} {} of "
                                   "part {}",
                                   dt_new, dtmin_abs, limit_.kind, limit_.elem, limit_.part)};
      const Real dt_avg = cycle == 0 ? 0.5 * dt_new : 0.5 * (dt_old + dt_new);
      weld_cycle_ = cycle;
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
      t_pass_ = t;
      element_pass(dt_new);
      if (!contact_state_.empty()) contact_pass(cycle, t, dt_new);
      assemble_and_accelerate(t);
      if (cycle % 100 == 0) check_finite(cycle);
      if (cycle_sleep_us > 0)
        std::this_thread::sleep_for(std::chrono::microseconds(cycle_sleep_us));

      const bool want_glstat = t >= next_glstat * (1 - 1e-9) || t >= endtim * (1 - 1e-12);
      const bool want_plot = t >= next_plot * (1 - 1e-9) || t >= endtim * (1 - 1e-12);
      // Decisions that lead to collective calls depend only on t and the cycle (never on the
      // clock or on the rank), so every rank makes the same ones.
      const bool want_print = t >= next_print_time * (1 - 1e-9) || cycle % kPrintEveryCycles == 0;
      const bool want_hist = hist_ && hist_->due(t, t - dt_new);
      if (want_glstat || want_plot || want_print || want_hist || opt_.stats_every_cycle ||
          opt_.on_cycle) {
        PhaseScope output_phase(phases().output);
        st = stats(cycle, t, dt_new);
        st.initial_total = e0;
        const Real el = std::chrono::duration<Real>(clock::now() - t_start).count();
        st.time_per_zone_cycle_ns = nelem > 0 ? 1e9 * el / (static_cast<Real>(cycle) * nelem) : 0;
        if (!std::isfinite(st.total))
          throw Unstable{fmt::format("energy became NaN/infinite in cycle {}", cycle)};
        if (want_glstat) {
          if (glstat_) glstat_->write(st);
          write_contact_histories(t);
          while (next_glstat <= t * (1 + 1e-9)) next_glstat += glstat_dt;
        }
        if (hist_ && (want_hist || want_glstat))
          hist_->write(d_, walls_, cycle, t, want_glstat ? &st : nullptr);
        if (want_plot) {
          write_state(t, st);
          while (next_plot <= t * (1 + 1e-9)) next_plot += plot_dt;
        }
        if (want_print) {
          if (log) print_progress(cycle, t, dt_new, st);
          while (next_print_time <= t * (1 + 1e-9)) next_print_time += 0.1 * endtim;
        }
        if (opt_.on_cycle && !opt_.on_cycle(d_, st)) break;
      }
      bool want_checkpoint =
          opt_.checkpoint_every_cycles > 0 && cycle % opt_.checkpoint_every_cycles == 0;
      bool stop = false;
      if (cycle % kAgreeEvery == 0) {
        constexpr std::int64_t kTimeBit = std::int64_t{1} << 32;
        std::int64_t flags = opt_.stop_request && *opt_.stop_request ? 1 : 0;
        // LS-DYNA's "sw1" stop file: <outdir>/d3kil asks for a checkpoint and a clean stop.
        if (comm_.rank() == 0 && fs::exists(stop_file)) {
          flags = 1;
          std::error_code ec;
          fs::remove(stop_file, ec);
        }
        if (opt_.checkpoint_every_seconds > 0 &&
            std::chrono::duration<Real>(clock::now() - last_checkpoint).count() >=
                opt_.checkpoint_every_seconds)
          flags += kTimeBit;
        flags = comm_.size() > 1 ? comm_.sum(flags) : flags;
        stop = (flags % kTimeBit) != 0;
        want_checkpoint = want_checkpoint || stop || flags >= kTimeBit;
      }
      if (want_checkpoint) {
        check_finite(cycle);
        if (comm_.any(!local_error_.empty()))
          throw Unstable{local_error_.empty() ? "another rank found NaN/infinite values"
                                              : local_error_};
        checkpoint();
      }
      if (stop) {
        sum.interrupted = true;
        if (log) *log << "  stop requested: checkpoint written, stopping\n";
        break;
      }
    }
    check_finite(cycle);
    if (comm_.any(!local_error_.empty()))
      throw Unstable{local_error_.empty() ? "another rank found NaN/infinite values"
                                          : local_error_};
    sum.normal_termination = !sum.interrupted;
  } catch (const Unstable& u) {
    sum.error = u.message;
    // The last good state: positions before this step's update.
    write_state(t - dt_old, st, true, dt_old); // energies: the last computed ones
    if (log)
      *log << "\n*** error: " << u.message
           << "\n    last good state written at t = " << fmt::format("{:.6e}", t - dt_old) << "\n";
  }
  setup_phase.reset();
  PhaseScope final_phase(phases().output); // closing outputs and the summary
  if (d3plot_) d3plot_->close();
  sum.elapsed_s = std::chrono::duration<Real>(clock::now() - t_start).count();
  sum.cycles = cycle;
  sum.time = t;
  st = stats(cycle, t, dt_old);
  st.initial_total = e0;
  sum.final_stats = st;
  sum.energy_error = std::abs(st.energy_ratio() - 1.0);
  std::string contact_mpp_line;
  if (mpp_contact_) { // collective: every rank gets here
    const double mine[2] = {static_cast<double>(mpp_contact_->max_ghost_nodes()),
                            static_cast<double>(mpp_contact_->plans())};
    const auto all = comm_.gatherv(std::span<const double>(mine, 2));
    std::string ghosts;
    for (std::size_t r = 0; r + 1 < all.size(); r += 2)
      ghosts += fmt::format("{}{}", r ? " / " : "", all[r]);
    if (!all.empty())
      contact_mpp_line = fmt::format("  contact (MPP): ghost nodes imported per cycle per rank "
                                     "(largest plan) {}; {} plans\n",
                                     ghosts, all[1]);
  }
  sum.element_cycles_per_s =
      sum.elapsed_s > 0 ? static_cast<Real>(cycle) * static_cast<Real>(nelem) / sum.elapsed_s : 0;
  if (log) {
    *log << fmt::format("\n{} termination at cycle {}, time {:.6e}\n",
                        sum.normal_termination ? "normal"
                        : sum.interrupted      ? "interrupted"
                                               : "error",
                        cycle, t);
    *log << fmt::format("  elapsed {:.3f} s, {:.4g} element-cycles/s ({} thread(s))\n",
                        sum.elapsed_s, sum.element_cycles_per_s, omp_get_max_threads());
    *log << fmt::format("  kinetic {:.6e}  internal {:.6e}  hourglass {:.6e}\n", st.kinetic,
                        st.internal, st.hourglass);
    *log << fmt::format("  external work {:.6e}  rigid wall {:.6e}  total {:.6e}\n",
                        st.external_work, st.rigidwall, st.total);
    *log << fmt::format("  energy ratio {:.6f}  (energy error {:.3f}%)\n", st.energy_ratio(),
                        100 * sum.energy_error);
    *log << contact_mpp_line;
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
    // e.g. "PLASTIC_KINEMATIC (003)": the card name without *MAT_ and the law number
    const std::string mat_name =
        m ? fmt::format("{} ({})", std::string_view(material_law(m->kind).card).substr(5),
                        material_law(m->kind).number)
          : "?";
    s += fmt::format("    part {:>6} {:<24} mat {} {:<34} sec {} {} elform {}\n", p.id,
                     p.title.empty() ? "-" : p.title, p.mid, mat_name, p.secid,
                     sec ? (sec->kind == SectionKind::Solid ? "solid" : "shell") : "?",
                     sec ? sec->elform : 0);
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
  std::optional<PhaseScope> setup_phase(std::in_place, phases().setup);
  Integrator integ(model, opt);
  setup_phase.reset();
  return integ.run();
}

} // namespace parcae
