#pragma once
// Plot states of the explicit solver: the d3plot family (rank 0, from the whole model gathered
// there) and VTK (one .vtu in a one-rank run; in MPP one piece per rank joined by a .pvtu),
// both written from the typed per-node and per-element records below.
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/types.hpp"
#include "mesh/model.hpp"
#include "output/d3plot.hpp"
#include "output/global_stats.hpp"
#include "par/comm.hpp"
#include "solvers/common/checkpoint.hpp"
#include "solvers/common/domain.hpp"
#include "solvers/common/histories.hpp"
#include "solvers/common/run_options.hpp"

namespace parcae {

/// What a plot state needs of one owned node.
struct NodeRecord {
  Real index = 0; ///< model node index
  Real x[3] = {0, 0, 0};
  Real v[3] = {0, 0, 0};
  Real a[3] = {0, 0, 0}; ///< as reported (histories.hpp: reported_acceleration)
};

/// What a plot state needs of one element (solids leave the shell fields zero).
struct ElementRecord {
  Real shell = 0; ///< 0 solid, 1 shell, 2 truss (beam)
  Real index = 0; ///< index in model.solids / model.shells / model.beams
  /// Trusses: sig[0] the axial stress, resultants[0] the axial force.
  /// VTK stress: solids their stress; shells the mean of the through-thickness points in the
  /// element's local frame [xx yy 0 xy yz zx].
  Real sig[6] = {0, 0, 0, 0, 0, 0};
  Real eps_p = 0;  ///< VTK effective plastic strain (shells: the largest of the points)
  Real active = 1; ///< 0 once eroded
  Real e_int = 0, e_hg = 0;
  // --- shells (d3plot) ---
  Real point_sig[3][6] = {}; ///< lowest, middle, highest point, global frame [xx yy zz xy yz zx]
  Real point_eps_p[3] = {0, 0, 0};
  Real resultants[8] = {}; ///< Mxx Myy Mxy Qyz Qxz Nxx Nyy Nxy per unit width
  Real thickness = 0;
  Real energy_density = 0; ///< internal energy per unit current volume
};

/// The plot-state writer of one run (collective calls: every rank calls open and write).
class StateOutput {
public:
  StateOutput(const Model& model, const RunOptions& opt, const par::Comm& comm)
      : model_(model), opt_(opt), comm_(comm) {}

  /// Opens the d3plot family (rank 0; restarting: continue the family rewound to the checkpoint)
  /// and the per-part sums of the d3plot global record (collective): those of parts when given
  /// (the run's histories; it must outlive this object), else its own.
  void open(const Domain& d, bool restarting, const HistoryRecorder* parts = nullptr);
  /// One plot state at time t (collective). now: the global energies of this state;
  /// previous_positions: write x - dt v (the last good state of a run that went unstable).
  void write(const Domain& d, Real t, const GlobalStats& now, bool previous_positions = false,
             Real dt = 0);
  /// Time of the last state written by this object (-infinity before the first).
  [[nodiscard]] Real last_time() const { return last_time_; }
  /// Closes the d3plot family.
  void close();
  /// The VTK series written so far (checkpoints restore it; parcae.pvd is rewritten from it).
  void visit_state(StateArchive& ar);
  /// Rank 0: parcae.pvd for the series restored from a checkpoint.
  void rewrite_pvd() const;

private:
  /// The one-rank .vtu's arrays, filled on rank 0 as the records arrive.
  struct WholeVtuState {
    std::vector<Real> pts, vel, stress, epsp;
  };
  void open_d3plot(bool append);
  // Rank 0 builds a plot state from the records as they arrive, chunk by chunk.
  void start_d3plot_state(D3plotState& ds, Real t, const GlobalStats& now) const;
  static void add_d3plot_nodes(D3plotState& ds, const std::vector<NodeRecord>& nodes);
  static void add_d3plot_elements(D3plotState& ds, const std::vector<ElementRecord>& elems);
  void add_d3plot_parts(D3plotState& ds, const std::vector<PartSummary>& parts) const;
  void start_vtu_state(WholeVtuState& vs) const;
  static void add_vtu_nodes(WholeVtuState& vs, const std::vector<NodeRecord>& nodes);
  void add_vtu_elements(WholeVtuState& vs, const std::vector<ElementRecord>& elems) const;
  void write_whole_vtu(Real t, WholeVtuState vs);
  void write_vtk_piece(const Domain& d, bool previous_positions, Real dt,
                       const std::vector<ElementRecord>& elems);

  const Model& model_;
  const RunOptions& opt_;
  const par::Comm& comm_;
  std::vector<std::pair<Real, std::string>> states_; ///< VTK series: time, file
  std::unique_ptr<D3plotWriter> d3plot_;             ///< rank 0, when opt_.write_d3plot
  Real last_time_ = -std::numeric_limits<Real>::infinity();
  const HistoryRecorder* plot_parts_ = nullptr; ///< d3plot per-part energies, mass, velocity
  std::unique_ptr<HistoryRecorder> own_parts_;  ///< plot_parts_ when the run has no histories
};

/// The element records of this rank's elements (solids then shells, in domain order).
std::vector<ElementRecord> element_records(const Domain& d, bool previous_positions, Real dt);

} // namespace parcae
