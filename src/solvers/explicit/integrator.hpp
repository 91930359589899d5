#pragma once
// The explicit solver's time integrator (private to src/solvers/explicit): its state and the
// passes of one cycle. The passes live in their own files:
//   element_pass.cpp   element forces, halo exchange, local step limit
//   pressure_pass.cpp  segment pressures into the loaded elements' corner forces
//   contact_driver.cpp contact interfaces: set-up, forces, histories
//   nodal_update.cpp   loads, force assembly, velocities (rigid bodies, constraints, walls)
//   cycle_reduce.cpp   the cycle's one reduction over the ranks
//   tie_pass.cpp       constraint-based tied contacts
//   interpolation_pass.cpp  *CONSTRAINED_INTERPOLATION (RBE3)
//   energy_stats.cpp   global statistics (glstat, histories)
//   erosion_pass.cpp   element deletion
//   checkpointing.cpp  checkpoint and restart
//   solver.cpp         the time loop (run) and run_explicit
// and the plot states in state_output.cpp.
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

#include "solvers/common/solver.hpp"
#include "solvers/explicit/solver.hpp"

namespace parcae::explicit_detail {

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
inline const Phases& phases() {
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

/// What the time loop keeps between cycles besides the checkpointed LoopVars: the run's
/// schedule (output intervals, step floor), its clocks and its summary so far.
struct RunState {
  using clock = std::chrono::steady_clock;
  RunSummary sum;
  LoopVars lv;
  GlobalStats st; ///< the last computed global statistics
  Real dt0 = 0;   ///< the first step
  Real e0 = 0;    ///< initial total energy
  Real glstat_dt = 0, plot_dt = 0, dtmin_abs = 0;
  const Curve* plot_curve = nullptr; ///< *DATABASE_BINARY_D3PLOT LCDT (interval over time)
  std::size_t nelem = 0;             ///< elements over all ranks
  clock::time_point t_start, last_checkpoint;
  long cycle_sleep_us = 0;         ///< test hook PARCAE_TEST_CYCLE_SLEEP_US
  std::filesystem::path stop_file; ///< <outdir>/d3kil: LS-DYNA's "sw1" stop request
  bool finished = false;
};

/// Loads applied to the nodes: curves by id, the forces and moments at the current time, and
/// their work.
struct AppliedLoads {
  std::map<GlobalId, const Curve*> curves;
  std::vector<Real> f, m; ///< applied forces, moments at the current time (3 per node)
  /// *LOAD_BODY_PARTS: the nodes the body loads act on (1 per node; empty: every node)
  std::vector<char> body_nodes;
  /// *LOAD_GRAVITY_PART (_SET): per body load, the nodes of its parts (empty for the others)
  std::vector<std::vector<char>> part_nodes;
  ExactSum work; ///< work of loads and prescribed motion on this rank's owned nodes
  /// *DAMPING_GLOBAL (damping_pass.cpp): the damping forces and moments of the cycle (3 per
  /// node; empty without damping), the current D, and their work (owned nodes; rank 0 for
  /// rigid bodies): glstat's system damping energy is its negative.
  std::vector<Real> damp_f, damp_m;
  Real damp_d = 0;
  ExactSum damp_work;
};

/// Rigid walls in the time loop.
struct WallCoupling {
  std::vector<RigidWallState> state;
  std::vector<ExactSum> impulse; ///< moving walls' impulses of this cycle (local, to reduce)
  Real dt = 0;                   ///< the step of those impulses
  ExactSum work; ///< work of fixed walls on owned nodes (the energy they absorb, negated)
};

/// Rigid bodies and welds: the sums of the last cycle_reduce (for the next velocity update).
struct BodyCoupling {
  std::vector<ExactSum> weld_sums; ///< global weld constraint-force sums
  std::vector<ExactSum> body_sums; ///< global rigid-body resultants
  int weld_cycle = 0;              ///< the cycle being computed (weld failure messages)
};

/// The step limit of the last element pass and where to find an element's part.
struct StepControl {
  StepLimit limit;
  /// Per element family (fem/element_family.hpp): (element id, part id), ascending ids; MPP
  /// runs only (one rank names the part from its own domain).
  std::array<std::vector<std::pair<GlobalId, GlobalId>>, kElementFamilies.size()> part_of;
};

/// Contact in the time loop, over compact node arrays (contact_setup.hpp). One rank:
/// contact::contact_forces on every interface; MPP: each rank searches and evaluates its own
/// contact nodes with imported ghosts and gathers the forces in the one-rank order
/// (contact_mpp.hpp), so the contact forces are the same for any decomposition.
struct ContactCoupling {
  ContactModel model;
  std::vector<contact::ContactState> state;
  std::vector<LocalId> local;      ///< compact -> local node (kInvalidLocal: not on this rank)
  std::vector<LocalId> local_list; ///< compact nodes on this rank, ascending
  std::unique_ptr<MppContact> mpp; ///< MPP: contact distributed over the ranks
  int pending_cycle = -1; ///< MPP: cycle of a contact pass whose statuses await cycle_reduce
  std::vector<Real> cx, cv, cm, cf; ///< compact positions, velocities, masses, forces
  std::vector<Real> f;              ///< contact force per local node (3 each)
  /// Beam edge-to-edge contact (*CONTACT_AUTOMATIC_GENERAL, contact/edges.hpp), one state per
  /// model.edge_sets entry. Over the compact numbering: ex, ev hold the positions and velocities
  /// of every edge node on every rank (MPP: gathered each cycle, edge_pass), ef the edge forces.
  std::vector<contact::EdgeState> edge_state;
  std::vector<Real> ex, ev, ef;
  std::vector<LocalId> edge_nodes; ///< compact nodes of the edge sets, ascending
  std::vector<LocalId> edge_owned; ///< MPP: those this rank owns
  [[nodiscard]] bool any() const { return !state.empty() || !edge_state.empty(); }
  std::vector<std::string> report;      ///< initial penetrations, for the log
  std::unique_ptr<RcforcWriter> rcforc; ///< rank 0, runs with contact
  std::unique_ptr<SleoutWriter> sleout;
};

/// Constraint-based tied contacts (*CONTACT_TIED_NODES_TO_SURFACE, _SURFACE_TO_SURFACE, their
/// _CONSTRAINED_OFFSET, *CONTACT_SPOTWELD; tie_pass.cpp). At set-up each tied (secondary) node's
/// mass moves to its segment's nodes by the shape functions N_a of its tie point, and its
/// velocity becomes sum N_a v_a. Each cycle the tie nodes' forces and masses are summed over the
/// ranks (exact sums, in cycle_reduce); every rank then gives the main nodes a_a = (f_a + sum N_a
/// f_s) / m_a (fixed dofs: 0) and the tied nodes a_s = sum N_a a_a, so a tied node keeps its
/// place (and offset) on its segment and the tie does no work. The data are the same on every
/// rank (model node indices).
struct TieConstraints {
  struct Tie {
    std::uint32_t node = 0;              ///< the tied node (index into nodes)
    std::array<std::uint32_t, 4> main{}; ///< its segment's nodes (index into nodes)
    std::array<Real, 4> n{};             ///< shape functions of the tie point
    bool rot = false; ///< the node's rotations are tied too (shell edges, beam welds)
  };
  std::vector<LocalId> nodes;                 ///< every tie node, model index, ascending
  std::vector<std::array<bool, 3>> fixed;     ///< their fixed translations (*BOUNDARY_SPC)
  std::vector<std::array<bool, 3>> fixed_rot; ///< their fixed rotations
  bool any_rot = false;                       ///< some tie has rot
  std::vector<Tie> ties;
  std::vector<LocalId> local; ///< per tie node: this rank's local index (kInvalidLocal: none)
  /// Tie nodes whose cluster (nodes joined by ties) is local on more than one rank: only
  /// their values travel in the cycle's reduction; a cluster local on one rank is owned there
  /// whole (classify_ties, at set-up).
  std::vector<std::uint32_t> shared;
};

/// *CONSTRAINED_INTERPOLATION (interpolation_pass.cpp). Every node of a constraint is in
/// `nodes`; each cycle their positions and the dependent nodes' forces travel in the cycle's
/// reduction (owners' values), every rank computes the same fits and adds the distributed
/// forces to its copies of the independent nodes; after the velocity update the independent
/// nodes' velocities travel in a second gather and the dependent nodes take the fit's velocity.
struct InterpolationCoupling {
  struct Constraint {
    const Interpolation* def = nullptr;
    std::uint32_t node = 0;             ///< the dependent node (index into nodes)
    bool rot = false;                   ///< its rotations follow the fit
    std::vector<std::uint32_t> ind;     ///< the independent nodes (index into nodes)
    std::vector<std::array<Real, 6>> w; ///< their weights (rotations 0 where a node has none)
    std::vector<Real> share;            ///< their shares of the dependent node's mass
    std::vector<std::array<Real, 3>> r; ///< x_i - x_dependent at the last force pass
    std::array<Real, 36> a_inv{};       ///< inverse of the fit's normal matrix, same time
  };
  std::vector<LocalId> nodes; ///< model index, ascending
  std::vector<char> rot;      ///< per node: it has rotational dofs
  std::vector<LocalId> local; ///< per node: this rank's local index (kInvalidLocal: none)
  std::vector<Constraint> list;
  std::unique_ptr<par::CycleReduction> gather; ///< the velocities' gather
};

/// Airbags (*AIRBAG_SIMPLE_PRESSURE_VOLUME, airbag_pass.cpp): each bag's volume from the shells
/// of its parts (each rank sums its own elements), its pressure on those shells (added to their
/// corner forces, so it travels with the halo exchange) and the damping of its nodes. One extra
/// reduction per cycle, only in decks with airbags.
struct AirbagCoupling {
  struct Bag {
    const Airbag* def = nullptr;
    std::vector<LocalId> nodes; ///< this rank's nodes of the bag (owned and ghosts), ascending
    Real v0 = 0;                ///< initial volume (> 0)
    Real sign = 1;              ///< +1: the shells' normals point out of the bag, -1: in
    Real volume = 0, pressure = 0;
    std::array<Real, 3> vcg{0, 0, 0}; ///< mass-weighted mean velocity of the bag's nodes
    Real prev_volume = 0, prev_pressure = 0;
    bool have_prev = false;
    /// *AIRBAG_SIMPLE_AIRBAG_MODEL: the gas's mass, internal energy, absolute pressure and
    /// (scaled) volume at time gas_t, and the mass it has taken in and let out so far.
    Real gas_m = 0, gas_e = 0, gas_p = 0, gas_v = 0, gas_t = 0, gas_in = 0, gas_out = 0;
  };
  std::vector<Bag> bags;
  std::vector<int> bag_of_part; ///< per shell part of the domain: its bag, -1 none
  /// per shell part of the domain and element: +1 / -1, the orientation that closes the bag
  std::vector<std::vector<std::int8_t>> face_sign;
  std::unique_ptr<par::CycleReduction> reduce;
  bool damped = false; ///< some bag has MWD > 0
};

/// Segment pressures (*LOAD_SEGMENT, _SET, *LOAD_SHELL_ELEMENT, _SET; pressure_pass.cpp): each
/// segment is applied through the shell or solid whose face it is (the reader checks there is
/// one), as p A / 4 per corner on the current geometry added to that element's corner forces, so
/// that it travels with them in the halo exchange: only the rank owning the element computes it,
/// and the nodal sums are those of the one-rank run.
struct SegmentPressures {
  struct Face {
    std::size_t elem = 0;                 ///< element of the part's block
    std::uint32_t load = 0;               ///< model.segment_loads entry
    std::array<LocalId, 4> nodes{};       ///< the segment's local nodes (triangle: n4 = n3)
    std::array<std::uint8_t, 4> corner{}; ///< the element's corner at each of those nodes
  };
  std::vector<std::vector<Face>> solid, shell; ///< per part of the domain, ascending elements
  std::vector<Real> p; ///< per model.segment_loads entry: pressure at the force pass's time
};

/// Element erosion (erosion.hpp). Every rank keeps the global state (which model elements are
/// alive, which nodes lost all their elements) so that contact surfaces and free nodes are the
/// same on every rank.
struct ErosionState {
  bool on = false;                                 ///< some part can erode (every rank)
  std::vector<ErosionRule> solid_rule, shell_rule; ///< per part of the domain
  std::vector<std::vector<std::uint8_t>> solid_gone, shell_gone; ///< deletion applied
  std::vector<std::uint8_t> solid_alive, shell_alive;            ///< per model element
  std::vector<std::int32_t> node_live;  ///< per model node: live elements holding it
  std::vector<std::uint8_t> node_free;  ///< per model node: lost all its elements to erosion
  std::vector<std::int64_t> eroded_now; ///< this rank's deletions in this pass (model refs)
  /// *CONTROL_TIMESTEP ERODE = 1: solids whose step x TSSFAC falls below this are eroded
  /// (DTMIN x the first step; 0: off)
  Real tsmin = 0;
  /// Per solid part of the domain whose rule erodes by volume: each element's initial volume.
  std::vector<std::vector<Real>> solid_v0;
  std::size_t n_eroded = 0, n_lines = 0;
  Real t_pass = 0; ///< time of the force pass (FAILTM)
};

/// Mass scaling during the run (DT2MS < 0, mass_scaling.cpp). An element whose critical step
/// falls below |DT2MS| gets mass (and rotary inertia, by the same factor) so that its step is
/// |DT2MS| again, and the run's step stays at least TSSFAC |DT2MS|. A node's mass is its set-up
/// mass plus the masses its element corners gained, summed in the corner order of the force
/// assembly, and the gains of other ranks' corners travel with their forces in the halo
/// exchange: the masses are those of the one-rank run, bit for bit.
struct MassScaling {
  static constexpr std::size_t kFamilies = kElementFamilies.size();
  bool on = false;
  Real target = 0;  ///< |DT2MS|: the smallest element step (before TSSFAC)
  Real trigger = 0; ///< elements whose step is below this are scaled (target less round-off)
  std::vector<Real> base_mass, base_inertia; ///< nodal mass and rotary inertia of the set-up
  /// Per family (fem/element_family.hpp) and corner (this rank's, then ghost corners): mass
  /// and rotary inertia gained during the run, and the corner's node.
  std::array<std::vector<Real>, kFamilies> dm, di;
  std::array<std::vector<LocalId>, kFamilies> corner_node;
  std::vector<std::uint8_t> dirty; ///< per node: a corner's gain changed this cycle
  std::vector<LocalId> dirty_nodes;
  ExactSum added;           ///< mass gained by this rank's elements during the run
  ExactSum ke_added;        ///< kinetic energy of that mass at the velocity of its node
  bool endmas = false;      ///< ENDMAS is on: the added mass is reduced every cycle
  Real global_added = 0;    ///< with endmas: the run's added mass over all ranks (last cycle)
  bool endmas_stop = false; ///< ENDMAS reached: the run ends
  /// Node n's mass is rebuilt by the next update_scaled_masses.
  void mark(std::size_t n) {
    if (!dirty[n]) {
      dirty[n] = 1;
      dirty_nodes.push_back(static_cast<LocalId>(n));
    }
  }
};

/// The explicit solver (Solver interface): central differences, one cycle per advance().
/// The run's output files: plot states (d3plot, VTK), glstat, and the histories (matsum,
/// nodout, rwforc, history.csv; on all ranks).
struct OutputFiles {
  OutputFiles(const Model& model, const RunOptions& opt, const par::Comm& comm)
      : plot(model, opt, comm) {}
  std::unique_ptr<HistoryOutput> hist; ///< before plot: plot uses its recorder (outlives it)
  StateOutput plot;
  std::unique_ptr<GlstatWriter> glstat;
};

/// The cycle's communication: the split-phase halo exchange of nodal forces (none on one rank
/// or without neighbours) and the cycle's one reduction.
struct Communication {
  explicit Communication(const par::Comm& comm) : cycle(comm) {}
  std::unique_ptr<par::Exchange> halo;
  par::CycleReduction cycle;
};

class Integrator final : public Solver {
public:
  /// Builds the domain (restricted to this rank's part in an MPP run), contact coupling, loads,
  /// walls, erosion and the halo exchange (integrator.cpp). Collective.
  Integrator(const Model& model, const RunOptions& opt);

  [[nodiscard]] std::string_view name() const override { return "explicit"; }
  void setup() override;
  bool advance() override;
  void visit_state(StateArchive& ar) override { visit_state(ar, run_.lv); }
  [[nodiscard]] GlobalStats global_stats() const override;
  void write_output() override;
  RunSummary finish() override;

private:
  /// The end of the loop (end time, cycle limit, on_cycle): last finiteness check. Throws
  /// Unstable.
  void conclude();
  /// The time of the plot state after one written at t (DT steps, or t + LCDT(t)).
  [[nodiscard]] Real next_plot_time(Real t) const;
  void print_progress(int cycle, Real t, Real dtc, const GlobalStats& s) const;
  void take_checkpoint(); ///< collective: write_checkpoint_now and log it
  void write_contact_histories(Real t);

  /// Load curve id at t (no curve: 1). Dynamic relaxation (relaxing_) applies only curves with
  /// SIDR 1 or 2, the transient only those with SIDR 0 or 2; the others give 0.
  Real curve(GlobalId id, Real t) const {
    if (id == 0) return 1.0;
    const Curve* c = loads_.curves.at(id);
    if (relaxing_ ? c->sidr == 0 : c->sidr == 1) return 0.0;
    return c->eval(t);
  }
  /// A curve read whatever its SIDR (LCIDDR fields: curves for the relaxation phase).
  Real raw_curve(GlobalId id, Real t) const { return loads_.curves.at(id)->eval(t); }
  // --- airbags (airbag_pass.cpp) ---
  void init_airbags();
  /// Collective (decks with airbags): every bag's volume, pressure and mean velocity at the
  /// current positions and velocities.
  void airbag_update(Real t);
  /// Pressure forces of bag shells [b, e) of shell part p added to their corners.
  void add_airbag_pressure(std::size_t p, std::size_t b, std::size_t e, CornerSpans corners);
  /// Mass-weighted damping of the bags' nodes into loads_.f.
  void airbag_damping();
  // --- *DAMPING_GLOBAL (damping_pass.cpp) ---
  /// The damping forces -D m v (moments -D I w) of the last half-step velocities at time t.
  void damping_forces(Real t);
  /// Their work over the velocity update (owned nodes) into loads_.damp_work.
  void damping_work(const std::vector<Real>& v_old, const std::vector<Real>& w_old, Real dt_avg);
  /// Work of the bags' pressure over the velocity update (this rank's shells; loads_.work).
  void airbag_work(const std::vector<Real>& v_old, Real dt_avg);
  // --- segment pressures (pressure_pass.cpp) ---
  void init_segment_pressures();
  /// Every segment load's pressure at time t (SF * curve(t - AT), 0 before AT).
  void update_segment_pressures(Real t);
  /// Pressure forces of the faces of elements [b, e) into their corners (k corners per element).
  void add_segment_pressures(const std::vector<SegmentPressures::Face>& faces, std::size_t b,
                             std::size_t e, std::size_t k, CornerSpans corners,
                             std::span<const std::uint8_t> failed);
  /// Work of the pressures over the velocity update (this rank's elements; loads_.work).
  void segment_pressure_work(const std::vector<Real>& v_old, Real dt_avg);
  /// The forces of a cycle at the new positions (time t, step dt): airbags, elements with the
  /// halo exchange, contact, loads and accelerations. Collective.
  void force_pass(int cycle, Real t, Real dt);
  // --- dynamic relaxation (solver.cpp) ---
  [[nodiscard]] bool wants_relaxation() const;
  /// The damped relaxation phase before the transient (*CONTROL_DYNAMIC_RELAXATION).
  void relax();
  std::vector<LocalId> nodes_of(bool is_set, GlobalId id) const;
  /// Skew constraints (*BOUNDARY_SPC with a CID): the velocity along each fixed local axis of
  /// the node (and, with its global constraints, along their span) is removed.
  void apply_skew_constraints();
  void rotate_about_axis(const PrescribedMotion& pm, Real t, Real dt_avg, Real dt_new,
                         const std::vector<Real>& v_old);
  void compute_elements(bool boundary, Real dt);
  // --- mass scaling during the run (mass_scaling.cpp) ---
  void init_mass_scaling();
  /// Scale the elements of [b, e) of part p whose step is below the target (after their force
  /// pass, serially) and update r, the range's step limit.
  template <class Family>
  void scale_element_masses(Family family, std::size_t p, std::size_t b, std::size_t e,
                            ElementPassResult& r);
  /// The nodal masses and inertias of the nodes whose corners gained mass this cycle.
  void update_scaled_masses();
  /// Nodes whose mass update_scaled_masses must rebuild (nodes released by a failed weld).
  void mark_scaled_nodes(std::span<const LocalId> nodes);
  template <class Family> void compute_family_elements(Family family, bool boundary, Real dt);
  void consider_step(Real dte, int family, std::string_view name, GlobalId elem, GlobalId part);
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
  /// Contact forces at time t (positions x^n, velocities v^{n-1/2}, step dt) into contacts_.f.
  void contact_pass(int cycle, Real t, Real dt);
  /// The beam edge contacts of this cycle into contacts_.ef (every rank computes all of them
  /// from the gathered edge nodes: the same forces bitwise at any rank count).
  void edge_pass(int cycle, Real t, Real dt);
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
  /// One of the *DEFINE_ELEMENT_DEATH cards of model list `list` (-1: none) deletes the element
  /// of these corners now.
  [[nodiscard]] bool death_due(std::int32_t list, const LocalId* nodes, int nn) const;
  bool erode_solids(std::size_t p, std::size_t b, std::size_t e, std::vector<std::int64_t>& out);
  bool erode_shells(std::size_t p, std::size_t b, std::size_t e, std::vector<std::int64_t>& out);
  bool erode_range(SolidFamily /*family*/, std::size_t p, std::size_t b, std::size_t e,
                   std::vector<std::int64_t>& out) {
    return erode_solids(p, b, e, out);
  }
  bool erode_range(ShellFamily /*family*/, std::size_t p, std::size_t b, std::size_t e,
                   std::vector<std::int64_t>& out) {
    return erode_shells(p, b, e, out);
  }
  /// Trusses are not eroded.
  bool erode_range(TrussFamily /*family*/, std::size_t /*p*/, std::size_t /*b*/, std::size_t /*e*/,
                   std::vector<std::int64_t>& /*out*/) {
    return false;
  }
  /// Integrated beams are not eroded.
  bool erode_range(BeamFamily /*family*/, std::size_t /*p*/, std::size_t /*b*/, std::size_t /*e*/,
                   std::vector<std::int64_t>& /*out*/) {
    return false;
  }
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

  const Model& model_;
  const RunOptions& opt_;
  par::Comm serial_comm_;
  const par::Comm& comm_;
  RunState run_;
  OutputFiles out_{model_, opt_, comm_};
  Communication comms_{comm_};
  Domain d_;
  AppliedLoads loads_;
  WallCoupling rwalls_;
  BodyCoupling bodies_;
  StepControl step_;
  std::string local_error_;
  Real model_size_ = -1; ///< diagonal of the initial nodes' box (check_finite; -1: not yet)
  ContactCoupling contacts_; ///< contact interfaces and their coupling to the nodes
  TieConstraints ties_;      ///< constraint-based tied contacts
  /// From build_contacts: the ties of interface i (a constraint-based tied contact) into ties_,
  /// their masses and velocities into the global domain (InputError for rigid or doubly tied
  /// nodes).
  void add_constraint_ties(std::size_t i, Domain& global);
  /// This rank's share of the tie nodes' forces and masses (4 per node: f, m; with rotational
  /// ties 8: f, m, moment, rotary inertia; owned nodes).
  [[nodiscard]] std::vector<Real> tie_sums() const;
  /// The tie nodes' accelerations from the global sums (local nodes).
  void apply_ties(std::span<const Real> sums);
  /// Collective, at set-up: which tie nodes' values must travel (TieConstraints::shared).
  void classify_ties();
  /// The values of the shared tie nodes out of tie_sums (w per node, in shared order), and
  /// back: the gathered ones written over the local ones.
  [[nodiscard]] std::vector<Real> shared_tie_values(std::span<const Real> all) const;
  void merge_shared_ties(std::span<Real> all, std::span<const Real> gathered) const;
  /// The rotations of the ties that have them (tie_sums with moments and inertias).
  void apply_rotation_ties(std::span<const Real> sums);
  /// Whether velocity constraints applied after the ties' accelerations (rigid walls,
  /// prescribed motions, skew constraints) can change tie nodes' velocities: the same on every
  /// rank (from the model).
  [[nodiscard]] bool ties_need_velocity_sync() const;
  /// The tie nodes' velocities (3 per node; with rotational ties 6: v, w) before those
  /// constraints (local nodes; zeros elsewhere).
  [[nodiscard]] std::vector<Real> tie_velocities() const;
  /// After those constraints: the tied nodes take their segments' velocity changes, so that
  /// they keep moving with their segments (one exchange of the changed nodes over the ranks).
  void sync_tied_velocities(std::span<const Real> before);
  InterpolationCoupling rbe3_; ///< *CONSTRAINED_INTERPOLATION
  /// At set-up, on the global domain (after the ties): checks, the dependent nodes' masses to
  /// their independent nodes, their initial velocities from the fit.
  void init_interpolations(Domain& global);
  /// The gathered values of the cycle's reduction: positions (3 per node), then per
  /// constraint the dependent node's force, moment and mass (owned nodes; zeros elsewhere).
  [[nodiscard]] std::vector<Real> interpolation_values() const;
  /// From the gathered values: the fits, the independent nodes' forces and accelerations.
  void apply_interpolations(std::span<const Real> gathered);
  /// After the velocity update (collective): the dependent nodes' velocities from the fits.
  void interpolate_velocities();
  ErosionState erosion_;   ///< element deletion
  AirbagCoupling airbags_; ///< control volumes
  SegmentPressures press_; ///< segment pressures
  MassScaling ms_;         ///< mass scaling during the run (DT2MS < 0)
  bool relaxing_ = false;  ///< in the dynamic relaxation phase
  /// *INITIAL_AXIAL_FORCE_BEAM: one entry per beam of this rank with an imposed axial force.
  struct AxialForce {
    std::size_t part = 0, elem = 0; ///< d_.beams[part], element elem
    const Curve* curve = nullptr;
    Real scale = 1;
  };
  std::vector<AxialForce> axial_forces_;
  /// *LOAD_RIGID_BODY: per rigid body of the domain, its loads (empty without any).
  std::vector<std::vector<const RigidBodyLoad*>> rigid_loads_;
  void init_rigid_body_loads();
  void init_axial_forces();
  void init_initial_stresses();
  void init_initial_shell_stresses();
  /// The imposed axial force of each such beam at time t (NaN once the curve has ended).
  void update_axial_forces(Real t);
};

} // namespace parcae::explicit_detail
