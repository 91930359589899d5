#pragma once
// A symmetric positive (semi-)definite 5-point (2D) or 7-point (3D) system on a block-decomposed
// structured grid, solved by hypre's Struct PCG preconditioned with PFMG (or SMG) multigrid.
// Plain C++ types only: cells are given by global (i, j, k) index boxes, one box per rank, and
// values in the box's order (i fastest, then j, then k). The pressure Poisson equation of the
// CFD solver is the user. Collective over the communicator (construction, set_matrix, solve).
#include <array>
#include <memory>
#include <span>
#include <string>

#include "par/comm.hpp"

namespace parcae::linalg {

struct StructPoissonOptions {
  double rel_tol = 1e-8;        ///< PCG stop: ||r|| / ||b|| (two-norm)
  int max_iter = 500;           ///< PCG iterations before giving up (reported, not thrown)
  std::string precond = "pfmg"; ///< "pfmg", "smg" or "none"
  /// PFMG smoother: symmetric red/black Gauss-Seidel (2) or weighted Jacobi (1). Red/black
  /// Gauss-Seidel breaks PCG down (an indefinite preconditioner) on matrices with decoupled
  /// rows (cells closed by obstacles); weighted Jacobi does not.
  int pfmg_relax = 2;
};

struct StructSolveInfo {
  int iterations = 0;
  double rel_residual = 0;
  bool converged = false;
};

/// Stencil entries per cell: 0 centre, then -x, +x, -y, +y (, -z, +z).
class StructPoisson {
public:
  /// dim 2 or 3; lower/upper: this rank's cells (inclusive global indices; upper < lower in
  /// some direction for a rank without cells is not supported). Unused k for dim 2.
  StructPoisson(const par::Comm& comm, int dim, std::array<int, 3> lower, std::array<int, 3> upper,
                StructPoissonOptions options = {});
  ~StructPoisson();
  StructPoisson(const StructPoisson&) = delete;
  StructPoisson& operator=(const StructPoisson&) = delete;

  [[nodiscard]] int dim() const { return dim_; }
  [[nodiscard]] int stencil_size() const { return 2 * dim_ + 1; }
  /// Number of this rank's cells.
  [[nodiscard]] std::size_t local_cells() const { return cells_; }

  /// Coefficients (stencil_size() per cell, in cell order). Entries that reach outside the
  /// global grid must be zero. The preconditioner is set up again on the next solve.
  void set_matrix(std::span<const double> coefficients);
  /// Solves A x = b; x holds the initial guess on entry. A singular (pure Neumann) system
  /// needs a consistent b (sum zero).
  StructSolveInfo solve(std::span<const double> b, std::span<double> x);

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  int dim_ = 2;
  std::size_t cells_ = 0;
};

} // namespace parcae::linalg
