// solve_eigen: SLEPc Krylov-Schur on K x = lambda M x (generalised Hermitian), spectral
// transformation shift-and-invert with the shifted matrix factorised by MUMPS (Cholesky).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <slepceps.h>

#include "linalg/petsc_internal.hpp"

namespace parcae::linalg {

EigenResult solve_eigen(SparseSystem& k, SparseSystem& m, int nev, double shift,
                        const SolverOptions& options, std::span<const std::int64_t> dofs) {
  const auto t0 = std::chrono::steady_clock::now();
  SparseSystem::Impl& ks = k.impl();
  SparseSystem::Impl& ms = m.impl();
  if (!options.scratch_dir.empty()) setenv("MUMPS_OOC_TMPDIR", options.scratch_dir.c_str(), 1);
  // The factorisation inside the spectral transformation reads MUMPS options from the database
  // under the ST's prefix: out of core there through ICNTL(22).
  check(PetscOptionsSetValue(nullptr, "-parcae_eig_st_mat_mumps_icntl_22",
                             options.out_of_core ? "1" : "0"),
        "PetscOptionsSetValue");
  EPS eps = nullptr;
  check(EPSCreate(ks.mpi_comm, &eps), "EPSCreate");
  check(EPSSetOptionsPrefix(eps, "parcae_eig_"), "EPSSetOptionsPrefix");
  check(EPSSetOperators(eps, ks.a, ms.a), "EPSSetOperators");
  check(EPSSetProblemType(eps, EPS_GHEP), "EPSSetProblemType");
  check(EPSSetType(eps, EPSKRYLOVSCHUR), "EPSSetType");
  check(EPSSetDimensions(eps, nev, PETSC_DEFAULT, PETSC_DEFAULT), "EPSSetDimensions");
  check(EPSSetTarget(eps, shift), "EPSSetTarget");
  check(EPSSetWhichEigenpairs(eps, EPS_TARGET_MAGNITUDE), "EPSSetWhichEigenpairs");
  check(EPSSetTolerances(eps, 1e-10, 500), "EPSSetTolerances");
  ST st = nullptr;
  check(EPSGetST(eps, &st), "EPSGetST");
  check(STSetType(st, STSINVERT), "STSetType");
  KSP ksp = nullptr;
  check(STGetKSP(st, &ksp), "STGetKSP");
  check(KSPSetType(ksp, KSPPREONLY), "KSPSetType");
  PC pc = nullptr;
  check(KSPGetPC(ksp, &pc), "KSPGetPC");
  check(PCSetType(pc, PCCHOLESKY), "PCSetType");
  check(PCFactorSetMatSolverType(pc, MATSOLVERMUMPS), "PCFactorSetMatSolverType");
  check(EPSSetFromOptions(eps), "EPSSetFromOptions");
  check(EPSSolve(eps), "EPSSolve");
  PetscInt nconv = 0, its = 0;
  check(EPSGetConverged(eps, &nconv), "EPSGetConverged");
  check(EPSGetIterationNumber(eps, &its), "EPSGetIterationNumber");
  if (nconv < nev)
    throw RuntimeError(fmt::format("eigenvalue solver: {} of {} eigenpairs converged", nconv, nev));
  EigenResult r;
  r.iterations = static_cast<int>(its);
  Vec xr = nullptr, mx = nullptr;
  check(MatCreateVecs(ks.a, &xr, nullptr), "MatCreateVecs");
  check(VecDuplicate(xr, &mx), "VecDuplicate");
  std::vector<std::pair<double, std::vector<double>>> pairs;
  for (PetscInt i = 0; i < nev; ++i) {
    PetscScalar kr = 0, ki = 0;
    check(EPSGetEigenpair(eps, i, &kr, &ki, xr, nullptr), "EPSGetEigenpair");
    check(MatMult(ms.a, xr, mx), "MatMult");
    PetscScalar xmx = 0;
    check(VecDot(xr, mx, &xmx), "VecDot");
    check(VecScale(xr, 1.0 / std::sqrt(xmx)), "VecScale");
    pairs.emplace_back(kr, ks.gather(xr, dofs));
  }
  std::sort(pairs.begin(), pairs.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [lambda, v] : pairs) {
    r.eigenvalues.push_back(lambda);
    r.vectors.push_back(std::move(v));
  }
  VecDestroy(&mx);
  VecDestroy(&xr);
  EPSDestroy(&eps);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

} // namespace parcae::linalg
