#pragma once
// Time histories from the solver state: per-part energies and momentum (matsum), history nodes
// (nodout), rigid wall forces (rwforc) and history.csv, written by rank 0 with the writers of
// output/ascii_hist.hpp.
//
// Every sum is an exact sum over this rank's own elements / owned nodes, reduced over ranks, so
// the values do not depend on the number of ranks or threads. Part kinetic energy and momentum
// are element based (as LS-DYNA's matsum): each element corner carries the mass the element
// lumps to its node (incl. mass scaling) with that node's velocity, so the parts' kinetic
// energies add up to glstat's (nodes of rigid bodies count in the body's part, as in glstat).
#include <memory>
#include <string>
#include <vector>

#include "mesh/model.hpp"
#include "output/ascii_hist.hpp"
#include "output/global_stats.hpp"
#include "par/comm.hpp"
#include "solvers/common/checkpoint.hpp"
#include "solvers/common/domain.hpp"
#include "solvers/common/rigid_wall.hpp"

namespace parcae {

/// The acceleration reported for node n (local index), component i, at the current time (nodout,
/// d3plot): f/m; 0 along a fixed dof; a rigid body's node: the body's translational
/// acceleration (its resultant over its mass), which does not depend on the decomposition (a
/// rigid node's own f holds only the corners of this rank's elements).
Real reported_acceleration(const Domain& d, std::size_t n, int i);

/// The deck's history nodes in output order: *DATABASE_HISTORY_NODE ids and the members of the
/// *DATABASE_HISTORY_NODE_SET sets, in deck order, each node once. Throws InputError at the field
/// that names a node or node set that does not exist (file, line, card).
std::vector<GlobalId> history_node_ids(const Model& model);

/// Computes what the writers need. Every member function except the accessors is collective:
/// all ranks call it, in the same order.
class HistoryRecorder {
public:
  /// d: this rank's domain at t = 0 (element masses are taken from it). Collective.
  HistoryRecorder(const Model& model, const Domain& d, const par::Comm& comm);

  /// Every part of the model, by increasing id (with titles, for legends).
  [[nodiscard]] const std::vector<LegendEntry>& part_legend() const { return part_legend_; }
  [[nodiscard]] std::vector<GlobalId> part_ids() const;
  [[nodiscard]] const std::vector<GlobalId>& node_ids() const { return node_ids_; }

  /// Per-part sums (same on every rank).
  [[nodiscard]] std::vector<PartSummary> parts(const Domain& d) const;
  /// The history nodes at time t, gathered from their owners: complete on rank 0, empty on the
  /// other ranks. Rotations are integrated from the angular velocities at the calls (exact for
  /// constant angular velocity; the finer the nodout interval, the closer; they restart from 0
  /// after a restart).
  std::vector<NodeHistory> nodes(const Domain& d, Real t);
  /// Time from which the next nodes() call integrates rotations (restart).
  void set_rotation_time(Real t) { rot_time_ = t; }
  /// Checkpoint: the integrated rotations and their time (restored exactly on restart).
  void visit_state(StateArchive& ar) {
    ar.pod(rot_time_);
    ar.vec(rot_);
  }
  /// Rigid wall forces of the last step (same on every rank).
  [[nodiscard]] std::vector<WallForce> walls(const std::vector<RigidWallState>& walls) const;

private:
  const Model& model_;
  const par::Comm& comm_;
  std::vector<LegendEntry> part_legend_;
  std::vector<std::size_t> solid_part_index_, shell_part_index_; ///< domain part -> legend index
  std::vector<std::vector<Real>>
      solid_corner_mass_; ///< per solid part: 1 per element (corners equal)
  std::vector<std::vector<Real>> shell_corner_mass_, shell_corner_inertia_; ///< 4 per element
  std::vector<std::size_t> truss_part_index_;        ///< domain truss part -> legend index
  std::vector<std::vector<Real>> truss_corner_mass_; ///< 2 per element
  std::vector<std::size_t> beam_part_index_;         ///< domain beam part -> legend index
  std::vector<std::vector<Real>> beam_corner_mass_, beam_corner_inertia_; ///< 2 per element
  std::vector<GlobalId> node_ids_;
  std::vector<LocalId> node_model_index_; ///< model node index of each history node
  std::vector<std::array<Real, 3>> rot_;  ///< integrated rotations (owner rank)
  Real rot_time_ = 0;                     ///< time of the last nodes() call
};

/// The history files of a run and their schedules: matsum, nodout (when there are history
/// nodes) and rwforc (when there are rigid walls) every *DATABASE_<name> DT (0 or no card: the
/// glstat interval), history.csv at every glstat state. Files are written by rank 0; every rank
/// must make the same calls. append (restart): the files are continued, and each output is
/// written at the first call and then on its interval's grid again.
class HistoryOutput {
public:
  HistoryOutput(const Model& model, const Domain& d, const std::vector<RigidWallState>& walls,
                const par::Comm& comm, const std::string& outdir, Real glstat_dt,
                bool append = false);
  /// Whether matsum, nodout or rwforc is due at time t, the end of the step that started at
  /// t_prev (depends only on the times: the same on all ranks). After a restart (append) the
  /// first call puts the schedules where the original run had them at t_prev.
  [[nodiscard]] bool due(Real t, Real t_prev);
  /// Writes the outputs that are due at time t, and a history.csv row when glstat is given (a
  /// glstat state was written at this time). Collective.
  void write(const Domain& d, const std::vector<RigidWallState>& walls, int cycle, Real t,
             const GlobalStats* glstat);
  /// Checkpoint: schedules and recorder state; a restored state replaces the resume guess.
  void visit_state(StateArchive& ar) {
    for (Schedule* s : {&matsum_, &nodout_, &rwforc_}) ar.pod(*s);
    rec_.visit_state(ar);
    if (ar.loading()) resume_ = false;
  }

  /// The per-part sums (the d3plot's part records share them).
  [[nodiscard]] const HistoryRecorder& recorder() const { return rec_; }

private:
  struct Schedule {
    Real interval = 0;
    Real next = 0;
    bool on = false;
    [[nodiscard]] bool due(Real t, Real endtim) const;
    void advance(Real t);
  };
  HistoryRecorder rec_;
  const par::Comm& comm_;
  Real endtim_ = 0;
  Schedule matsum_, nodout_, rwforc_;
  bool resume_ = false; ///< restart: put the schedules in place at the first due() call
  std::unique_ptr<MatsumWriter> matsum_file_;
  std::unique_ptr<NodoutWriter> nodout_file_;
  std::unique_ptr<RwforcWriter> rwforc_file_;
  std::unique_ptr<HistoryCsvWriter> csv_file_;
};

} // namespace parcae
