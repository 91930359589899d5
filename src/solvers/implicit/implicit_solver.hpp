#pragma once
// The implicit structural solver (docs/implicit.md): small-strain statics with Newton-Raphson,
// line search and automatic load stepping, Newmark dynamics, and eigenvalues, on N ranks, from
// an LS-DYNA deck with *CONTROL_IMPLICIT_GENERAL IMFLAG = 1. Linear algebra from src/linalg
// (PETSc, MUMPS in or out of core, SLEPc).
#include <memory>
#include <string>
#include <vector>

#include "mesh/model.hpp"
#include "solvers/common/run_options.hpp"
#include "solvers/common/solver.hpp"

namespace parcae {

struct ImplicitOptions {
  /// Where MUMPS' out-of-core files go (per-rank subfolders of a per-run folder; removed after a
  /// normal run, kept and named after a failure). Empty: the output directory.
  std::string scratch_dir;
  /// Model node indices whose displacements are kept after every step (ImplicitResult::history).
  std::vector<std::size_t> history_nodes;
};

/// One Newton iteration as logged in the convergence history.
struct IterationRecord {
  int step = 0, iteration = 0;
  double time = 0, dt = 0;
  double residual_norm = 0; ///< ||f_ext - f_int|| before the iteration's solve
  double displacement_ratio = 0;
  double energy_ratio = 0;
  double line_search = 1;
  double solve_seconds = 0; ///< assembly + factorisation + solve
};

/// What an implicit run produced besides its files (for tests and benchmarks).
struct ImplicitResult {
  RunSummary summary;
  std::vector<double> u; ///< final displacements, 3 per model node (all ranks)
  std::vector<std::array<double, 6>>
      stress;                             ///< final stress per model solid and Gauss point (8 each)
  std::vector<double> eigenvalues;        ///< omega^2
  std::vector<std::vector<double>> modes; ///< 3 per model node per mode (all ranks)
  std::vector<IterationRecord> iterations;
  std::vector<double> history_time;         ///< time of each state (t = 0 first)
  std::vector<std::vector<double>> history; ///< per state: 3 per ImplicitOptions::history_nodes
  std::vector<std::array<double, 2>> history_energy; ///< per state: kinetic, internal
  int steps = 0;
  double factor_seconds = 0, solve_seconds = 0, assembly_seconds = 0;
  double factor_memory_mb = 0;    ///< largest MUMPS INFOG(22) of the run
  std::int64_t scratch_bytes = 0; ///< largest out-of-core file total of the run
  bool out_of_core = false;
  std::int64_t equations = 0;
  std::string scratch_run_dir; ///< the per-run scratch folder (removed after a normal run)
};

/// The solver behind the Solver interface.
std::unique_ptr<Solver> make_implicit_solver(const Model& model, const RunOptions& opt,
                                             const ImplicitOptions& iopt,
                                             ImplicitResult* result = nullptr);

/// Runs an implicit deck (setup to finish); throws InputError for what it cannot run and
/// RuntimeError when the run fails (the scratch folder then kept and named).
ImplicitResult run_implicit(const Model& model, const RunOptions& opt, const ImplicitOptions& iopt);

} // namespace parcae
