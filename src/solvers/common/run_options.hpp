#pragma once
// What a run is asked to do (outputs, threads, MPP communicator, checkpoints, restart) and what
// it reports when it ends: the same for every solver.
#include <functional>
#include <iosfwd>
#include <string>

#include "core/types.hpp"
#include "output/global_stats.hpp"
#include "par/comm.hpp"
#include "solvers/common/domain.hpp"

namespace parcae {

struct RunOptions {
  std::string outdir = "."; ///< glstat, parcae.pvd and states/ are written here
  int threads = 0;          ///< OpenMP threads (0 = leave the runtime's default)
  bool write_vtk = false;   ///< VTK series of the plot states (parcae run --vtk)
  bool write_glstat = true;
  bool write_d3plot = true;    ///< LS-DYNA d3plot family (outdir/d3plot, d3plot01, ...)
  int d3plot_word_bytes = 4;   ///< 4 (single precision) or 8
  bool write_histories = true; ///< matsum, nodout, rwforc (see histories.hpp) and history.csv
  bool use_reference_kernels = false; ///< plain kernels instead of optimised (for testing)
  std::ostream* log = nullptr;        ///< progress and summaries (nullptr = silent)
  /// Called after every cycle (tests use it to sample histories). Return false to stop (in an
  /// MPP run every rank must return the same).
  std::function<bool(const Domain&, const GlobalStats&)> on_cycle;
  /// MPP: the communicator (nullptr = this process alone) and the element -> rank maps.
  const par::Comm* comm = nullptr;
  const ElementRanks* ranks = nullptr;
  bool stats_every_cycle = false; ///< compute full GlobalStats every cycle (for on_cycle)
  // --- restart (checkpoints under outdir/checkpoints, see checkpoint.hpp) ---
  int checkpoint_every_cycles = 0;     ///< write a checkpoint every N cycles (0 = never)
  double checkpoint_every_seconds = 0; ///< ... or every T seconds of wall time (0 = never)
  /// Set (to non-zero) by a SIGTERM/SIGINT handler: write a checkpoint, then stop.
  const volatile int* stop_request = nullptr;
  std::string restart_from; ///< checkpoint directory to continue from (empty = fresh start)
  std::string deck_path;    ///< recorded in checkpoints
};

struct RunSummary {
  bool normal_termination = false;
  std::string error; ///< why the run stopped early (empty on normal termination)
  int cycles = 0;
  Real time = 0;
  Real elapsed_s = 0;
  Real element_cycles_per_s = 0;
  GlobalStats initial;
  GlobalStats final_stats;
  Real energy_error = 0; ///< |energy ratio - 1| at the end
  Real dt_initial = 0;
  bool interrupted = false;    ///< stopped on request (signal) after writing a checkpoint
  std::string last_checkpoint; ///< directory of the last checkpoint written (empty if none)
  int restarted_from_cycle = -1;
  int relaxation_cycles = 0;     ///< cycles of the dynamic relaxation phase (0: none)
  std::int64_t peak_rss_max = 0; ///< largest peak resident memory of a rank, bytes
  std::int64_t peak_rss_sum = 0; ///< the ranks' peak resident memories summed, bytes
};

} // namespace parcae
