#include "linalg/struct_poisson.hpp"

#include <HYPRE_struct_ls.h>
#include <HYPRE_struct_mv.h>
#include <fmt/format.h>
#include <vector>

#include "core/error.hpp"

namespace parcae::linalg {

struct StructPoisson::Impl {
  MPI_Comm comm = MPI_COMM_SELF;
  HYPRE_StructGrid grid = nullptr;
  HYPRE_StructStencil stencil = nullptr;
  HYPRE_StructMatrix a = nullptr;
  HYPRE_StructVector b = nullptr, x = nullptr;
  HYPRE_StructSolver pcg = nullptr, pre = nullptr;
  std::array<HYPRE_Int, 3> lo{}, hi{};
  std::vector<HYPRE_Int> entries;
  StructPoissonOptions options;
  bool needs_setup = true;

  void destroy_solver() {
    if (pcg) HYPRE_StructPCGDestroy(pcg);
    if (pre && options.precond == "pfmg") HYPRE_StructPFMGDestroy(pre);
    if (pre && options.precond == "smg") HYPRE_StructSMGDestroy(pre);
    pcg = pre = nullptr;
  }
};

namespace {
void check(HYPRE_Int err, const char* what) {
  if (err != 0) {
    HYPRE_ClearAllErrors();
    throw RuntimeError(fmt::format("hypre: {} failed (error {})", what, static_cast<int>(err)));
  }
}
} // namespace

StructPoisson::StructPoisson(const par::Comm& comm, int dim, std::array<int, 3> lower,
                             std::array<int, 3> upper, StructPoissonOptions options)
    : impl_(std::make_unique<Impl>()), dim_(dim) {
  if (dim != 2 && dim != 3) throw RuntimeError("StructPoisson: dim must be 2 or 3");
  if (options.precond != "pfmg" && options.precond != "smg" && options.precond != "none")
    throw InputError({"pressure.preconditioner", 0, ""},
                     "unknown preconditioner \"" + options.precond + "\" (pfmg, smg or none)");
  Impl& m = *impl_;
  m.options = options;
  if (comm.handle() != nullptr) m.comm = *static_cast<const MPI_Comm*>(comm.handle());
  cells_ = 1;
  for (int d = 0; d < dim; ++d) {
    m.lo[d] = lower[d];
    m.hi[d] = upper[d];
    cells_ *= static_cast<std::size_t>(upper[d] - lower[d] + 1);
  }
  check(HYPRE_StructGridCreate(m.comm, dim, &m.grid), "StructGridCreate");
  check(HYPRE_StructGridSetExtents(m.grid, m.lo.data(), m.hi.data()), "StructGridSetExtents");
  check(HYPRE_StructGridAssemble(m.grid), "StructGridAssemble");
  const int n = stencil_size();
  check(HYPRE_StructStencilCreate(dim, n, &m.stencil), "StructStencilCreate");
  for (int e = 0; e < n; ++e) {
    std::array<HYPRE_Int, 3> off{0, 0, 0};
    if (e > 0) off[(e - 1) / 2] = (e % 2 == 1) ? -1 : 1;
    check(HYPRE_StructStencilSetElement(m.stencil, e, off.data()), "StructStencilSetElement");
    m.entries.push_back(e);
  }
  check(HYPRE_StructMatrixCreate(m.comm, m.grid, m.stencil, &m.a), "StructMatrixCreate");
  check(HYPRE_StructMatrixInitialize(m.a), "StructMatrixInitialize");
  check(HYPRE_StructVectorCreate(m.comm, m.grid, &m.b), "StructVectorCreate");
  check(HYPRE_StructVectorCreate(m.comm, m.grid, &m.x), "StructVectorCreate");
  check(HYPRE_StructVectorInitialize(m.b), "StructVectorInitialize");
  check(HYPRE_StructVectorInitialize(m.x), "StructVectorInitialize");
}

StructPoisson::~StructPoisson() {
  Impl& m = *impl_;
  m.destroy_solver();
  if (m.x) HYPRE_StructVectorDestroy(m.x);
  if (m.b) HYPRE_StructVectorDestroy(m.b);
  if (m.a) HYPRE_StructMatrixDestroy(m.a);
  if (m.stencil) HYPRE_StructStencilDestroy(m.stencil);
  if (m.grid) HYPRE_StructGridDestroy(m.grid);
}

void StructPoisson::set_matrix(std::span<const double> coefficients) {
  Impl& m = *impl_;
  const int n = stencil_size();
  if (coefficients.size() != cells_ * static_cast<std::size_t>(n))
    throw RuntimeError(fmt::format("StructPoisson::set_matrix: {} values for {} cells x {}",
                                   coefficients.size(), cells_, n));
  std::vector<HYPRE_Complex> v(coefficients.begin(), coefficients.end());
  check(
      HYPRE_StructMatrixSetBoxValues(m.a, m.lo.data(), m.hi.data(), n, m.entries.data(), v.data()),
      "StructMatrixSetBoxValues");
  check(HYPRE_StructMatrixAssemble(m.a), "StructMatrixAssemble");
  m.needs_setup = true;
}

StructSolveInfo StructPoisson::solve(std::span<const double> b, std::span<double> x) {
  Impl& m = *impl_;
  if (b.size() != cells_ || x.size() != cells_)
    throw RuntimeError("StructPoisson::solve: vector sizes do not match the local cells");
  std::vector<HYPRE_Complex> bv(b.begin(), b.end()), xv(x.begin(), x.end());
  check(HYPRE_StructVectorSetBoxValues(m.b, m.lo.data(), m.hi.data(), bv.data()),
        "StructVectorSetBoxValues");
  check(HYPRE_StructVectorSetBoxValues(m.x, m.lo.data(), m.hi.data(), xv.data()),
        "StructVectorSetBoxValues");
  check(HYPRE_StructVectorAssemble(m.b), "StructVectorAssemble");
  check(HYPRE_StructVectorAssemble(m.x), "StructVectorAssemble");
  if (m.needs_setup) {
    m.destroy_solver();
    check(HYPRE_StructPCGCreate(m.comm, &m.pcg), "StructPCGCreate");
    HYPRE_StructPCGSetTol(m.pcg, m.options.rel_tol);
    HYPRE_StructPCGSetMaxIter(m.pcg, m.options.max_iter);
    HYPRE_StructPCGSetTwoNorm(m.pcg, 1);
    HYPRE_StructPCGSetRelChange(m.pcg, 0);
    HYPRE_StructPCGSetPrintLevel(m.pcg, 0);
    if (m.options.precond == "pfmg") {
      check(HYPRE_StructPFMGCreate(m.comm, &m.pre), "StructPFMGCreate");
      // One symmetric V(1,1) cycle per PCG iteration (symmetric red/black Gauss-Seidel, or
      // weighted Jacobi, keeps the preconditioner symmetric, as PCG needs).
      HYPRE_StructPFMGSetMaxIter(m.pre, 1);
      HYPRE_StructPFMGSetTol(m.pre, 0.0);
      HYPRE_StructPFMGSetZeroGuess(m.pre);
      HYPRE_StructPFMGSetRelaxType(m.pre, m.options.pfmg_relax);
      HYPRE_StructPFMGSetNumPreRelax(m.pre, 1);
      HYPRE_StructPFMGSetNumPostRelax(m.pre, 1);
      HYPRE_StructPCGSetPrecond(m.pcg, HYPRE_StructPFMGSolve, HYPRE_StructPFMGSetup, m.pre);
    } else if (m.options.precond == "smg") {
      check(HYPRE_StructSMGCreate(m.comm, &m.pre), "StructSMGCreate");
      HYPRE_StructSMGSetMemoryUse(m.pre, 0);
      HYPRE_StructSMGSetMaxIter(m.pre, 1);
      HYPRE_StructSMGSetTol(m.pre, 0.0);
      HYPRE_StructSMGSetZeroGuess(m.pre);
      HYPRE_StructSMGSetNumPreRelax(m.pre, 1);
      HYPRE_StructSMGSetNumPostRelax(m.pre, 1);
      HYPRE_StructPCGSetPrecond(m.pcg, HYPRE_StructSMGSolve, HYPRE_StructSMGSetup, m.pre);
    }
    check(HYPRE_StructPCGSetup(m.pcg, m.a, m.b, m.x), "StructPCGSetup");
    m.needs_setup = false;
  }
  // PCG reports non-convergence through the error flag: read the residual instead.
  HYPRE_StructPCGSolve(m.pcg, m.a, m.b, m.x);
  HYPRE_ClearAllErrors();
  StructSolveInfo info;
  HYPRE_Int iters = 0;
  HYPRE_StructPCGGetNumIterations(m.pcg, &iters);
  HYPRE_Real res = 0;
  HYPRE_StructPCGGetFinalRelativeResidualNorm(m.pcg, &res);
  info.iterations = static_cast<int>(iters);
  info.rel_residual = static_cast<double>(res);
  info.converged = iters < m.options.max_iter || res <= m.options.rel_tol;
  check(HYPRE_StructVectorGetBoxValues(m.x, m.lo.data(), m.hi.data(), xv.data()),
        "StructVectorGetBoxValues");
  std::copy(xv.begin(), xv.end(), x.begin());
  return info;
}

} // namespace parcae::linalg
