#pragma once
// A distributed sparse linear system (PETSc MPIAIJ matrix and vectors behind plain C++ types):
// created from each rank's contiguous range of owned rows and the nonzero counts of those rows,
// filled with element matrices and vectors by global dof (contributions to rows owned by other
// ranks travel at assemble()), solved by MUMPS (in core or out of core, into a per-rank scratch
// directory) or by conjugate gradients with PETSc GAMG or hypre BoomerAMG. Eigenpairs of
// K x = lambda M x come from SLEPc (solve_eigen). All calls are collective over the communicator
// unless said otherwise. Needs a live linalg::Libraries.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "par/comm.hpp"

namespace parcae::linalg {

enum class SolverMethod : std::uint8_t {
  Direct,      ///< MUMPS Cholesky (LDL^T) factorisation
  CgGamg,      ///< conjugate gradients, PETSc algebraic multigrid (GAMG)
  CgBoomerAmg, ///< conjugate gradients, hypre BoomerAMG
};

struct SolverOptions {
  SolverMethod method = SolverMethod::Direct;
  /// Direct: factors on disk (MUMPS ICNTL(22) = 1) in scratch_dir.
  bool out_of_core = false;
  /// Direct: > 0 switches to out of core when MUMPS' in-core estimate (INFOG(17), all ranks)
  /// exceeds this many bytes.
  double in_core_limit_bytes = 0;
  /// This rank's directory for MUMPS' out-of-core files (must exist; MUMPS_OOC_TMPDIR).
  std::string scratch_dir;
  double rtol = 1e-10;       ///< iterative: relative residual tolerance
  int max_iterations = 2000; ///< iterative
  /// Direct: keep the factors and reuse them in the next solve (the matrix did not change).
  bool reuse_factors = false;
};

/// What one solve did (the same values on every rank).
struct SolveStats {
  bool factorised = false;   ///< a new factorisation (direct)
  bool out_of_core = false;  ///< the factorisation ran out of core
  double factor_seconds = 0; ///< symbolic + numeric factorisation
  double solve_seconds = 0;
  int iterations = 0;             ///< iterative
  double residual_norm = 0;       ///< iterative: final preconditioned residual norm
  double memory_estimate_mb = 0;  ///< MUMPS INFOG(17): in-core estimate, all ranks
  double memory_used_mb = 0;      ///< MUMPS INFOG(22): memory used by the factorisation, all ranks
  double factor_entries = 0;      ///< MUMPS INFOG(29): entries in the factors
  std::int64_t scratch_bytes = 0; ///< bytes of MUMPS out-of-core files, all ranks
};

class SparseSystem {
public:
  /// Rows [row_begin, row_end) of an n_global x n_global matrix are owned here; d_nnz / o_nnz:
  /// per owned row, the nonzero columns inside / outside the owned range.
  SparseSystem(const par::Comm& comm, std::int64_t row_begin, std::int64_t row_end,
               std::int64_t n_global, std::span<const int> d_nnz, std::span<const int> o_nnz);
  ~SparseSystem();
  SparseSystem(const SparseSystem&) = delete;
  SparseSystem& operator=(const SparseSystem&) = delete;

  [[nodiscard]] std::int64_t row_begin() const;
  [[nodiscard]] std::int64_t row_end() const;
  [[nodiscard]] std::int64_t size() const;

  /// Matrix and right-hand side set to zero (the pattern is kept). Local.
  void zero_matrix();
  void zero_vector();
  /// Adds an n x n element matrix (row major) at global dofs; negative dofs are skipped. Local
  /// (any rank may add to any row).
  void add_matrix(std::span<const std::int64_t> dofs, std::span<const double> k);
  /// Adds to the right-hand side; negative dofs skipped. Local.
  void add_vector(std::span<const std::int64_t> dofs, std::span<const double> f);
  /// Finishes the additions (communicates off-rank contributions). Collective.
  void assemble();
  /// Rows (global) become identity rows and columns (values moved to the right-hand side so that
  /// x = values there). Collective; after assemble().
  void apply_dirichlet(std::span<const std::int64_t> rows, std::span<const double> values);
  /// The near null space of the operator for the algebraic multigrid preconditioners (for
  /// elasticity: the six rigid-body modes): each vector given at the owned rows. Orthonormalised
  /// here; used by GAMG (MatSetNearNullSpace) and ignored by the direct solver.
  void set_near_null_space(const std::vector<std::vector<double>>& owned_vectors);
  /// Euclidean norm of the assembled right-hand side.
  [[nodiscard]] double vector_norm() const;
  /// Values of the assembled right-hand side at global dofs (any rank's; negative: 0).
  [[nodiscard]] std::vector<double> vector_values(std::span<const std::int64_t> dofs) const;
  /// y = A x for x given at the owned rows; returns y at the owned rows.
  [[nodiscard]] std::vector<double> multiply(std::span<const double> x_owned) const;
  /// Solves A x = b (b the assembled right-hand side); returns x at the global dofs asked for
  /// (negative: 0). Throws RuntimeError when the solver fails (naming the reason).
  SolveStats solve(const SolverOptions& options, std::span<const std::int64_t> dofs,
                   std::vector<double>& x);

  struct Impl;
  [[nodiscard]] Impl& impl() { return *impl_; }

private:
  std::unique_ptr<Impl> impl_;
};

struct EigenResult {
  std::vector<double> eigenvalues;          ///< lambda (omega^2), ascending
  std::vector<std::vector<double>> vectors; ///< per pair: values at the dofs asked for
  int iterations = 0;
  double seconds = 0;
};

/// The nev eigenpairs of K x = lambda M x (K, M symmetric, M positive definite) nearest
/// `shift`: SLEPc Krylov-Schur with shift-and-invert, the shifted matrix factorised by MUMPS
/// (options.out_of_core as in solve). Vectors M-normalised (x^T M x = 1) at the dofs asked for.
EigenResult solve_eigen(SparseSystem& k, SparseSystem& m, int nev, double shift,
                        const SolverOptions& options, std::span<const std::int64_t> dofs);

} // namespace parcae::linalg
