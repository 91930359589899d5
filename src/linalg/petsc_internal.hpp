#pragma once
// Private to src/linalg (included only by its .cpp files; it includes PETSc, so no other layer
// may include it): the SparseSystem implementation
// struct and the PETSc error check.
#include <fmt/format.h>
#include <petscksp.h>

#include "core/error.hpp"
#include "linalg/sparse_system.hpp"

namespace parcae::linalg {

inline void check(PetscErrorCode ierr, const char* what) {
  if (ierr != 0)
    throw RuntimeError(fmt::format("{} failed (PETSc error {})", what, static_cast<int>(ierr)));
}

struct SparseSystem::Impl {
  par::Comm comm;
  MPI_Comm mpi_comm = MPI_COMM_NULL;
  std::int64_t row_begin = 0, row_end = 0, n_global = 0;
  Mat a = nullptr;
  Vec b = nullptr, x = nullptr;
  Mat factor = nullptr; ///< MUMPS factors (direct)
  KSP ksp = nullptr;    ///< iterative
  bool last_ooc = false;
  MatNullSpace near_null = nullptr; ///< rigid-body modes for GAMG
  void destroy_solvers();
  void factorise(const SolverOptions& o, SolveStats& st);
  [[nodiscard]] std::vector<double> gather(Vec v, std::span<const std::int64_t> dofs) const;
};

} // namespace parcae::linalg
