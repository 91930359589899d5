// SparseSystem on PETSc (MPIAIJ, MUMPS through PETSc's factor interface, KSP CG with GAMG or
// hypre BoomerAMG). The out-of-core directory reaches MUMPS through MUMPS_OOC_TMPDIR: PETSc
// 3.18 does not expose MUMPS' ooc_tmpdir field, and MUMPS reads the variable (per process)
// when the field is left unset, at the factorisation.
#include "linalg/sparse_system.hpp"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <petscksp.h>
#include <petscmat.h>

#include "core/error.hpp"
#include "linalg/petsc_internal.hpp"

namespace parcae::linalg {

SparseSystem::SparseSystem(const par::Comm& comm, std::int64_t row_begin, std::int64_t row_end,
                           std::int64_t n_global, std::span<const int> d_nnz,
                           std::span<const int> o_nnz)
    : impl_(std::make_unique<Impl>()) {
  Impl& s = *impl_;
  s.comm = comm;
  s.mpi_comm = comm.handle() ? *static_cast<const MPI_Comm*>(comm.handle()) : PETSC_COMM_SELF;
  s.row_begin = row_begin;
  s.row_end = row_end;
  s.n_global = n_global;
  const auto nloc = static_cast<PetscInt>(row_end - row_begin);
  std::vector<PetscInt> d(d_nnz.begin(), d_nnz.end()), o(o_nnz.begin(), o_nnz.end());
  check(MatCreateAIJ(s.mpi_comm, nloc, nloc, n_global, n_global, 0, d.data(), 0, o.data(), &s.a),
        "MatCreateAIJ");
  // The pattern is computed from the mesh; a mistake costs speed, not correctness.
  check(MatSetOption(s.a, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE), "MatSetOption");
  check(VecCreateMPI(s.mpi_comm, nloc, n_global, &s.b), "VecCreateMPI");
  check(VecSetOption(s.b, VEC_IGNORE_NEGATIVE_INDICES, PETSC_TRUE), "VecSetOption");
  check(VecDuplicate(s.b, &s.x), "VecDuplicate");
}

SparseSystem::~SparseSystem() {
  Impl& s = *impl_;
  s.destroy_solvers();
  if (s.near_null) MatNullSpaceDestroy(&s.near_null);
  VecDestroy(&s.x);
  VecDestroy(&s.b);
  MatDestroy(&s.a);
}

void SparseSystem::Impl::destroy_solvers() {
  if (factor) MatDestroy(&factor);
  if (ksp) KSPDestroy(&ksp);
  factor = nullptr;
  ksp = nullptr;
}

std::int64_t SparseSystem::row_begin() const {
  return impl_->row_begin;
}
std::int64_t SparseSystem::row_end() const {
  return impl_->row_end;
}
std::int64_t SparseSystem::size() const {
  return impl_->n_global;
}

void SparseSystem::zero_matrix() {
  check(MatZeroEntries(impl_->a), "MatZeroEntries");
}
void SparseSystem::zero_vector() {
  check(VecZeroEntries(impl_->b), "VecZeroEntries");
}

void SparseSystem::add_matrix(std::span<const std::int64_t> dofs, std::span<const double> k) {
  // PETSc skips negative row and column indices.
  std::vector<PetscInt> idx(dofs.begin(), dofs.end());
  const auto n = static_cast<PetscInt>(idx.size());
  check(MatSetValues(impl_->a, n, idx.data(), n, idx.data(), k.data(), ADD_VALUES), "MatSetValues");
}

void SparseSystem::add_vector(std::span<const std::int64_t> dofs, std::span<const double> f) {
  std::vector<PetscInt> idx(dofs.begin(), dofs.end());
  check(VecSetValues(impl_->b, static_cast<PetscInt>(idx.size()), idx.data(), f.data(), ADD_VALUES),
        "VecSetValues");
}

void SparseSystem::assemble() {
  Impl& s = *impl_;
  check(MatAssemblyBegin(s.a, MAT_FINAL_ASSEMBLY), "MatAssemblyBegin");
  check(MatAssemblyEnd(s.a, MAT_FINAL_ASSEMBLY), "MatAssemblyEnd");
  check(MatSetOption(s.a, MAT_SYMMETRIC, PETSC_TRUE), "MatSetOption");
  check(VecAssemblyBegin(s.b), "VecAssemblyBegin");
  check(VecAssemblyEnd(s.b), "VecAssemblyEnd");
}

void SparseSystem::apply_dirichlet(std::span<const std::int64_t> rows,
                                   std::span<const double> values) {
  Impl& s = *impl_;
  std::vector<PetscInt> idx(rows.begin(), rows.end());
  check(VecZeroEntries(s.x), "VecZeroEntries");
  check(VecSetValues(s.x, static_cast<PetscInt>(idx.size()), idx.data(), values.data(),
                     INSERT_VALUES),
        "VecSetValues");
  check(VecAssemblyBegin(s.x), "VecAssemblyBegin");
  check(VecAssemblyEnd(s.x), "VecAssemblyEnd");
  check(MatZeroRowsColumns(s.a, static_cast<PetscInt>(idx.size()), idx.data(), 1.0, s.x, s.b),
        "MatZeroRowsColumns");
}

void SparseSystem::set_near_null_space(const std::vector<std::vector<double>>& owned_vectors) {
  Impl& s = *impl_;
  std::vector<Vec> vecs;
  for (const auto& v : owned_vectors) {
    Vec w = nullptr;
    check(VecDuplicate(s.b, &w), "VecDuplicate");
    PetscScalar* a = nullptr;
    check(VecGetArray(w, &a), "VecGetArray");
    std::copy(v.begin(), v.end(), a);
    VecRestoreArray(w, &a);
    // Modified Gram-Schmidt against the vectors kept so far; dependent vectors are dropped.
    for (Vec q : vecs) {
      PetscScalar d = 0;
      check(VecDot(w, q, &d), "VecDot");
      check(VecAXPY(w, -d, q), "VecAXPY");
    }
    PetscReal n = 0;
    check(VecNormalize(w, &n), "VecNormalize");
    if (n > 1e-10)
      vecs.push_back(w);
    else
      VecDestroy(&w);
  }
  if (s.near_null) MatNullSpaceDestroy(&s.near_null);
  check(MatNullSpaceCreate(s.mpi_comm, PETSC_FALSE, static_cast<PetscInt>(vecs.size()), vecs.data(),
                           &s.near_null),
        "MatNullSpaceCreate");
  for (Vec& v : vecs) VecDestroy(&v);
  check(MatSetNearNullSpace(s.a, s.near_null), "MatSetNearNullSpace");
}

double SparseSystem::vector_norm() const {
  PetscReal n = 0;
  check(VecNorm(impl_->b, NORM_2, &n), "VecNorm");
  return n;
}

std::vector<double> SparseSystem::Impl::gather(Vec v, std::span<const std::int64_t> dofs) const {
  std::vector<PetscInt> valid;
  valid.reserve(dofs.size());
  for (std::int64_t d : dofs)
    if (d >= 0) valid.push_back(static_cast<PetscInt>(d));
  IS is = nullptr;
  Vec y = nullptr;
  VecScatter sc = nullptr;
  check(ISCreateGeneral(PETSC_COMM_SELF, static_cast<PetscInt>(valid.size()), valid.data(),
                        PETSC_USE_POINTER, &is),
        "ISCreateGeneral");
  check(VecCreateSeq(PETSC_COMM_SELF, static_cast<PetscInt>(valid.size()), &y), "VecCreateSeq");
  check(VecScatterCreate(v, is, y, nullptr, &sc), "VecScatterCreate");
  check(VecScatterBegin(sc, v, y, INSERT_VALUES, SCATTER_FORWARD), "VecScatterBegin");
  check(VecScatterEnd(sc, v, y, INSERT_VALUES, SCATTER_FORWARD), "VecScatterEnd");
  std::vector<double> out(dofs.size(), 0.0);
  const PetscScalar* a = nullptr;
  check(VecGetArrayRead(y, &a), "VecGetArrayRead");
  std::size_t k = 0;
  for (std::size_t i = 0; i < dofs.size(); ++i)
    if (dofs[i] >= 0) out[i] = a[k++];
  VecRestoreArrayRead(y, &a);
  VecScatterDestroy(&sc);
  VecDestroy(&y);
  ISDestroy(&is);
  return out;
}

std::vector<double> SparseSystem::vector_values(std::span<const std::int64_t> dofs) const {
  return impl_->gather(impl_->b, dofs);
}

std::vector<double> SparseSystem::multiply(std::span<const double> x_owned) const {
  const Impl& s = *impl_;
  Vec xin = nullptr, y = nullptr;
  check(VecDuplicate(s.b, &xin), "VecDuplicate");
  check(VecDuplicate(s.b, &y), "VecDuplicate");
  PetscScalar* a = nullptr;
  check(VecGetArray(xin, &a), "VecGetArray");
  std::copy(x_owned.begin(), x_owned.end(), a);
  VecRestoreArray(xin, &a);
  check(MatMult(s.a, xin, y), "MatMult");
  std::vector<double> out(x_owned.size());
  const PetscScalar* r = nullptr;
  check(VecGetArrayRead(y, &r), "VecGetArrayRead");
  std::copy(r, r + out.size(), out.begin());
  VecRestoreArrayRead(y, &r);
  VecDestroy(&xin);
  VecDestroy(&y);
  return out;
}

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::int64_t directory_bytes(const std::string& dir) {
  std::int64_t n = 0;
  std::error_code ec;
  if (dir.empty() || !std::filesystem::is_directory(dir, ec)) return 0;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec))
    if (e.is_regular_file(ec)) n += static_cast<std::int64_t>(e.file_size(ec));
  return n;
}

} // namespace

void SparseSystem::Impl::factorise(const SolverOptions& o, SolveStats& st) {
  const auto t0 = std::chrono::steady_clock::now();
  destroy_solvers();
  if (!o.scratch_dir.empty()) setenv("MUMPS_OOC_TMPDIR", o.scratch_dir.c_str(), 1);
  check(MatGetFactor(a, MATSOLVERMUMPS, MAT_FACTOR_CHOLESKY, &factor), "MatGetFactor(MUMPS)");
  bool ooc = o.out_of_core;
  if (ooc) check(MatMumpsSetIcntl(factor, 22, 1), "MatMumpsSetIcntl(22)");
  MatFactorInfo info;
  check(MatFactorInfoInitialize(&info), "MatFactorInfoInitialize");
  check(MatCholeskyFactorSymbolic(factor, a, nullptr, &info), "MUMPS analysis");
  PetscInt est = 0;
  check(MatMumpsGetInfog(factor, 17, &est), "MatMumpsGetInfog(17)");
  st.memory_estimate_mb = static_cast<double>(est);
  if (!ooc && o.in_core_limit_bytes > 0 && est * 1e6 > o.in_core_limit_bytes) {
    ooc = true;
    check(MatMumpsSetIcntl(factor, 22, 1), "MatMumpsSetIcntl(22)");
  }
  check(MatCholeskyFactorNumeric(factor, a, &info), "MUMPS factorisation");
  PetscInt infog1 = 0, used = 0, entries = 0;
  check(MatMumpsGetInfog(factor, 1, &infog1), "MatMumpsGetInfog(1)");
  if (infog1 < 0) {
    PetscInt infog2 = 0;
    MatMumpsGetInfog(factor, 2, &infog2);
    throw RuntimeError(fmt::format("MUMPS factorisation failed: INFOG(1) = {}, INFOG(2) = {}{}",
                                   infog1, infog2,
                                   infog1 == -10 ? " (the matrix is singular: a rigid-body mode "
                                                   "not constrained?)"
                                                 : ""));
  }
  check(MatMumpsGetInfog(factor, 22, &used), "MatMumpsGetInfog(22)");
  check(MatMumpsGetInfog(factor, 29, &entries), "MatMumpsGetInfog(29)");
  st.memory_used_mb = static_cast<double>(used);
  st.factor_entries = entries >= 0 ? static_cast<double>(entries) : -1e6 * entries;
  st.out_of_core = ooc;
  st.factorised = true;
  if (ooc) st.scratch_bytes = comm.sum(directory_bytes(o.scratch_dir));
  st.factor_seconds = seconds_since(t0);
  last_ooc = ooc;
}

SolveStats SparseSystem::solve(const SolverOptions& o, std::span<const std::int64_t> dofs,
                               std::vector<double>& out) {
  Impl& s = *impl_;
  SolveStats st;
  if (o.method == SolverMethod::Direct) {
    if (!o.reuse_factors || s.factor == nullptr)
      s.factorise(o, st);
    else
      st.out_of_core = s.last_ooc;
    const auto t0 = std::chrono::steady_clock::now();
    check(MatSolve(s.factor, s.b, s.x), "MUMPS solve");
    st.solve_seconds = seconds_since(t0);
  } else {
    const auto t0 = std::chrono::steady_clock::now();
    s.destroy_solvers();
    check(KSPCreate(s.mpi_comm, &s.ksp), "KSPCreate");
    check(KSPSetOperators(s.ksp, s.a, s.a), "KSPSetOperators");
    check(KSPSetType(s.ksp, KSPCG), "KSPSetType");
    PC pc = nullptr;
    check(KSPGetPC(s.ksp, &pc), "KSPGetPC");
    if (o.method == SolverMethod::CgGamg) {
      check(PCSetType(pc, PCGAMG), "PCSetType(gamg)");
    } else {
      check(PCSetType(pc, PCHYPRE), "PCSetType(hypre)");
      check(PCHYPRESetType(pc, "boomeramg"), "PCHYPRESetType");
    }
    check(KSPSetTolerances(s.ksp, o.rtol, 1e-300, PETSC_DEFAULT, o.max_iterations),
          "KSPSetTolerances");
    check(KSPSetUp(s.ksp), "KSPSetUp");
    st.factor_seconds = seconds_since(t0);
    const auto t1 = std::chrono::steady_clock::now();
    check(KSPSolve(s.ksp, s.b, s.x), "KSPSolve");
    st.solve_seconds = seconds_since(t1);
    KSPConvergedReason reason;
    PetscInt its = 0;
    PetscReal rn = 0;
    KSPGetConvergedReason(s.ksp, &reason);
    KSPGetIterationNumber(s.ksp, &its);
    KSPGetResidualNorm(s.ksp, &rn);
    st.iterations = static_cast<int>(its);
    st.residual_norm = rn;
    if (reason < 0)
      throw RuntimeError(fmt::format("conjugate gradients did not converge: reason {} after {} "
                                     "iterations (residual {:.3e}); try the direct solver "
                                     "(LSOLVR 2)",
                                     static_cast<int>(reason), its, rn));
  }
  out = s.gather(s.x, dofs);
  return st;
}

} // namespace parcae::linalg
