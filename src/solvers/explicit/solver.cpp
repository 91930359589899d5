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
#include <thread>
#include <utility>

#include <fmt/format.h>
#include <omp.h>

#include "core/exact_sum.hpp"
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
#include "solvers/explicit/state_output.hpp"

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
      : model_(model), opt_(opt), comm_(opt.comm ? *opt.comm : serial_comm_), reduction_(comm_) {
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
  /// Collective, once per cycle after the force assembly: the cycle's one reduction (step limit
  /// and controlling element, error agreement, weld and rigid-body resultants, moving-wall
  /// impulses, stop/checkpoint flags when given). Throws Unstable when some rank found an error.
  /// Returns the global stop flags (0 without them).
  std::int64_t cycle_reduce(std::optional<std::int64_t> stop_flags);
  /// This rank's share of every rigid body's resultant force and moment (6 exact sums per body).
  [[nodiscard]] std::vector<ExactSum> body_resultant_sums() const;
  GlobalStats stats(int cycle, Real t, Real dt) const;
  void check_finite(int cycle);
  /// Contact interfaces from the deck, their initial search and initial penetrations (moved
  /// nodes are moved in the global domain before it is split up).
  void build_contacts(Domain& global);
  /// Contact forces at time t (positions x^n, velocities v^{n-1/2}, step dt) into f_contact_.
  void contact_pass(int cycle, Real t, Real dt);
  /// Blow-ups (Unstable) and releases (log) of the contact pass of this cycle.
  void report_contact_status(const std::vector<contact::ContactStatus>& status, int cycle);
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
  StateOutput output_{model_, opt_, comm_}; ///< d3plot and VTK plot states
  par::CycleReduction reduction_;
  /// From the last cycle_reduce: global weld constraint-force sums and rigid-body resultants
  /// (for the next velocity update); moving walls' impulses of this cycle (local, to reduce).
  std::vector<ExactSum> weld_sums_, body_sums_, wall_impulse_;
  Real wall_dt_ = 0;
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
  std::unique_ptr<GlstatWriter> glstat_;
  std::unique_ptr<HistoryOutput> hist_; ///< matsum, nodout, rwforc, history.csv (all ranks)
  // --- contact over compact node arrays (contact_setup.hpp). One rank: contact::contact_forces
  // on every interface; MPP: each rank searches and evaluates its own contact nodes with
  // imported ghosts and gathers the forces in the one-rank order (contact_mpp.hpp), so the
  // contact forces are the same for any decomposition.
  ContactModel contact_;
  std::vector<contact::ContactState> contact_state_;
  std::vector<LocalId> contact_local_; ///< compact -> local node (kInvalidLocal: not on this rank)
  std::vector<LocalId> contact_local_list_; ///< compact nodes on this rank, ascending
  std::unique_ptr<MppContact> mpp_contact_; ///< MPP: contact distributed over the ranks
  int contact_cycle_ = -1; ///< MPP: cycle of a contact pass whose statuses await cycle_reduce
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
  // The global time step and the agreement on errors wait for the cycle's one reduction
  // (cycle_reduce); one process knows at once.
  if (!local_error_.empty() && comm_.size() == 1) throw Unstable{local_error_};
  erosion_sync();
}

std::int64_t Integrator::cycle_reduce(std::optional<std::int64_t> stop_flags) {
  PhaseScope p(phases().time_step);
  par::CycleReduction& r = reduction_;
  r.clear();
  // Step limit: the lexicographic minimum of (step, key) is the global step and, among the
  // ranks holding it, the lowest (kind, id) of a controlling element. A rank with an error
  // offers (-1, its rank): the lowest such rank reports.
  constexpr std::int64_t kShellKey = std::int64_t{1} << 62;
  const bool error = !local_error_.empty();
  const std::int64_t key =
      limit_.kind.empty() ? INT64_MAX : (limit_.kind == "solid" ? 0 : kShellKey) + limit_.elem;
  const std::size_t s_dt =
      r.add_min(error ? -1.0 : limit_.dt, error ? std::int64_t{comm_.rank()} : key);
  const bool welds = failable_body_count(d_) > 0;
  const std::size_t s_weld = welds ? r.add_exact(weld_force_sums(d_)) : 0;
  const std::size_t s_body = d_.bodies.empty() ? 0 : r.add_exact(body_resultant_sums());
  const std::size_t s_wall = wall_impulse_.empty() ? 0 : r.add_exact(wall_impulse_);
  const std::size_t s_flags = stop_flags ? r.add_sum(*stop_flags) : 0;
  const int contact_cycle = std::exchange(contact_cycle_, -1);
  if (contact_cycle >= 0) mpp_contact_->add_status(r);
  r.reduce();
  if (!wall_impulse_.empty()) { // moving walls take the total impulse of this cycle
    const std::vector<ExactSum> total = r.exact(s_wall);
    std::size_t j = 0;
    for (auto& wall : walls_)
      if (wall.wall.moving) advance_rigid_wall(wall, total[j++].result(), wall_dt_);
    wall_impulse_.clear();
  }
  if (r.min_value(s_dt) < 0) {
    const std::int64_t bad = r.min_key(s_dt);
    if (!local_error_.empty() && comm_.size() > 1)
      std::fprintf(stderr, "parcae: rank %d: %s\n", comm_.rank(), local_error_.c_str());
    throw Unstable{local_error_.empty() || comm_.rank() != bad
                       ? fmt::format("rank {} stopped the run (see its message)", bad)
                       : local_error_};
  }
  if (comm_.size() > 1) {
    const std::int64_t best = r.min_key(s_dt);
    limit_.dt = r.min_value(s_dt);
    if (best != INT64_MAX) {
      const bool shell = best >= kShellKey;
      limit_.kind = shell ? "shell" : "solid";
      limit_.elem = shell ? best - kShellKey : best;
      const auto& parts = shell ? part_of_shell_ : part_of_solid_;
      const auto it = parts.find(limit_.elem);
      limit_.part = it == parts.end() ? 0 : it->second;
    }
  }
  // After the element errors (reported first, as when the step was reduced before contact).
  if (contact_cycle >= 0) report_contact_status(mpp_contact_->statuses(r), contact_cycle);
  if (welds) weld_sums_ = r.exact(s_weld);
  if (!d_.bodies.empty()) body_sums_ = r.exact(s_body);
  return stop_flags ? r.sum(s_flags) : 0;
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
  // Welds (spotwelds, weld spots): failure decided from reduced (global) constraint forces
  // (of the last force pass, reduced by cycle_reduce), before the nodal update, so that released
  // nodes move as free nodes from this step on.
  if (failable_body_count(d_) > 0) {
    for (const WeldFailure& wf : fail_welds(d_, weld_sums_, t))
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
  // A moving wall advances with the total impulse in cycle_reduce (nothing reads the walls'
  // state before).
  wall_impulse_.clear();
  wall_dt_ = dt_new;
  for (auto& wall : walls_) {
    ExactSum impulse;
    apply_rigid_wall(wall, d_, v_old, dt_new, wall.wall.moving ? ext_work_ : wall_work_, impulse);
    if (wall.wall.moving)
      wall_impulse_.push_back(impulse);
    else
      advance_rigid_wall(wall, impulse.result(), dt_new);
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
  // Rigid bodies: the global resultants of the last force pass (body_resultant_sums, reduced
  // by cycle_reduce), then the motion. Failed welds (inactive) are skipped.
  for (std::size_t b = 0; b < d_.bodies.size(); ++b) {
    RigidBody& body = d_.bodies[b];
    if (!body.active) continue;
    const ExactSum* acc = &body_sums_[6 * b];
    const std::array<Real, 3> force{acc[0].result(), acc[1].result(), acc[2].result()};
    const std::array<Real, 3> moment{acc[3].result(), acc[4].result(), acc[5].result()};
    advance_rigid_body(body, d_, dt_avg, dt_new, force, moment, presc_v[b], presc_w[b],
                       presc_dir[b]);
  }
}

/// Rigid bodies: resultant force and moment as exact sums of per-node loads and per-corner
/// element forces (each counted by exactly one rank: owned nodes' loads, own corners only;
/// ghost corners exist at weld nodes). Inactive bodies (failed welds) stay zero.
std::vector<ExactSum> Integrator::body_resultant_sums() const {
  std::vector<ExactSum> rb_acc(6 * d_.bodies.size());
  for (std::size_t b = 0; b < d_.bodies.size(); ++b) {
    const RigidBody& body = d_.bodies[b];
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
  return rb_acc;
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
  // A rank that found an error says so (-1): nothing is deleted in this pass, the run stops in
  // cycle_reduce (as if the error had been agreed before the deletions).
  if (!local_error_.empty()) mine.push_back(-1.0);
  std::vector<double> all =
      comm_.size() > 1 ? comm_.allgatherv(std::span<const double>(mine)) : std::move(mine);
  if (all.empty() || std::any_of(all.begin(), all.end(), [](double r) { return r < 0; })) return;
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
    // Forces now; the statuses wait for the cycle's reduction (report_contact_status).
    mpp_contact_->finish_cycle(status, cv_, dt, cf_);
    contact_cycle_ = cycle;
  } else {
    std::fill(cf_.begin(), cf_.end(), 0.0);
    for (std::size_t i = 0; i < contact_state_.size(); ++i)
      status[i] = contact::contact_forces(contact_.interfaces[i], contact_state_[i], cx_, cv_, cm_,
                                          t, dt, cf_);
  }
  if (!mpp_contact_) report_contact_status(status, cycle);
  for (LocalId k : contact_local_list_) {
    const auto l = static_cast<std::size_t>(contact_local_[static_cast<std::size_t>(k)]);
    for (int i = 0; i < 3; ++i) f_contact_[3 * l + i] = cf_[3 * static_cast<std::size_t>(k) + i];
  }
}

void Integrator::report_contact_status(const std::vector<contact::ContactStatus>& status,
                                       int cycle) {
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
  output_.visit_state(ar);
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
  output_.rewrite_pvd();
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
    assemble_and_accelerate(0.0);
    cycle_reduce(std::nullopt);
  } catch (const Unstable& u) {
    throw RuntimeError("the initial state is invalid: " + u.message);
  }
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
  output_.open(d_, restarting);
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
    output_.write(d_, 0.0, st);
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
    cycle_reduce(std::nullopt); // the resultants of the restored state (same step limit)
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
  // those (local) events every kAgreeEvery cycles, in the cycle's reduction.
  constexpr int kAgreeEvery = 16;
  constexpr std::int64_t kTimeBit = std::int64_t{1} << 32;
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
      // The cycle's one reduction; every kAgreeEvery cycles it carries the ranks' (local) stop
      // and checkpoint requests.
      std::optional<std::int64_t> flags;
      if (cycle % kAgreeEvery == 0) {
        flags = opt_.stop_request && *opt_.stop_request ? 1 : 0;
        // LS-DYNA's "sw1" stop file: <outdir>/d3kil asks for a checkpoint and a clean stop.
        if (comm_.rank() == 0 && fs::exists(stop_file)) {
          flags = 1;
          std::error_code ec;
          fs::remove(stop_file, ec);
        }
        if (opt_.checkpoint_every_seconds > 0 &&
            std::chrono::duration<Real>(clock::now() - last_checkpoint).count() >=
                opt_.checkpoint_every_seconds)
          *flags += kTimeBit;
      }
      const std::int64_t global_flags = cycle_reduce(flags);
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
          output_.write(d_, t, st);
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
      if (flags) {
        stop = (global_flags % kTimeBit) != 0;
        want_checkpoint = want_checkpoint || stop || global_flags >= kTimeBit;
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
    output_.write(d_, t - dt_old, st, true, dt_old); // energies: the last computed ones
    if (log)
      *log << "\n*** error: " << u.message
           << "\n    last good state written at t = " << fmt::format("{:.6e}", t - dt_old) << "\n";
  }
  setup_phase.reset();
  PhaseScope final_phase(phases().output); // closing outputs and the summary
  output_.close();
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
    static const char* kMat[] = {"ELASTIC (001)",
                                 "PLASTIC_KINEMATIC (003)",
                                 "RIGID (020)",
                                 "PIECEWISE_LINEAR_PLASTICITY (024)",
                                 "MOONEY-RIVLIN_RUBBER (027)",
                                 "NULL (009)",
                                 "ELASTIC_PLASTIC_HYDRO (010)",
                                 "JOHNSON_COOK (015)"};
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
  std::optional<PhaseScope> setup_phase(std::in_place, phases().setup);
  Integrator integ(model, opt);
  setup_phase.reset();
  return integ.run();
}

} // namespace parcae
