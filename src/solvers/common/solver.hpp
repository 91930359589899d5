#pragma once
// The interface every parcae solver implements (explicit today; implicit and CFD next), and the
// driver that runs one. A solver owns its state (built from the Model and RunOptions in its
// constructor) and is driven in four steps: setup (initial state, outputs opened, restart
// applied), advance (one step or cycle) until it reports the end, finish (outputs closed, the
// summary). Checkpoints go through visit_state, so the checkpoint/restart machinery
// (checkpoint.hpp) serves every solver. All calls are collective in an MPP run.
#include <string_view>

#include "output/global_stats.hpp"
#include "solvers/common/checkpoint.hpp"
#include "solvers/common/run_options.hpp"

namespace parcae {

class Solver {
public:
  virtual ~Solver() = default;
  Solver() = default;
  Solver(const Solver&) = delete;
  Solver& operator=(const Solver&) = delete;

  /// Short name for logs ("explicit", "implicit", "cfd").
  [[nodiscard]] virtual std::string_view name() const = 0;
  /// Initial state, first outputs, restart from RunOptions::restart_from. Throws InputError /
  /// RuntimeError when the run cannot start.
  virtual void setup() = 0;
  /// One step (cycle). Returns false once the run is over: end time or cycle reached, a stop
  /// request honoured (checkpoint written), or an instability (recorded for finish()).
  virtual bool advance() = 0;
  /// Everything that evolves in time, saved to or loaded from a checkpoint (ar.loading()).
  virtual void visit_state(StateArchive& ar) = 0;
  /// The global statistics of the current state.
  [[nodiscard]] virtual GlobalStats global_stats() const = 0;
  /// Write the current state to the solver's outputs now (besides their own schedule).
  virtual void write_output() = 0;
  /// Closes the outputs; the run's summary.
  virtual RunSummary finish() = 0;
};

/// Runs a solver from setup to finish.
inline RunSummary run_solver(Solver& solver) {
  solver.setup();
  while (solver.advance()) {
  }
  return solver.finish();
}

} // namespace parcae
