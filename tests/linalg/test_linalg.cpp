// The linear-algebra layer (src/linalg) under mpirun, np 1 and 2: the libraries initialise on
// parcae's communicator and finalise without ending MPI, repeatedly. GoogleTest with its own
// main (as tests/par): every rank runs every test in the same order.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <numbers>
#include <string>
#include <unistd.h>

#include "linalg/libraries.hpp"
#include "linalg/sparse_system.hpp"
#include "par/comm.hpp"

namespace {

const parcae::par::Comm* g_world = nullptr;

TEST(Linalg, VersionsNameEveryLibrary) {
  const std::string v = parcae::linalg::library_versions();
  for (const char* lib : {"PETSc 3.", "SLEPc 3.", "MUMPS 5.", "hypre 2."}) {
    EXPECT_NE(v.find(lib), std::string::npos) << v;
  }
}

TEST(Linalg, InitialisesAgainAfterTheLastUserEnds) {
  for (int round = 0; round < 3; ++round) {
    parcae::linalg::Libraries outer(*g_world);
    parcae::linalg::Libraries inner(*g_world); // nested users share one initialisation
  }
  // MPI is still up: a collective still works.
  EXPECT_EQ(g_world->sum(std::int64_t{1}), g_world->size());
}

// The 1D Laplacian tridiag(-1, 2, -1) of order n assembled from 2x2 "element" matrices
// [1 -1; -1 1] on n + 1 elements with both ends fixed (rows 0..n-1 are the interior nodes),
// split into equal contiguous row ranges.
struct Laplacian {
  std::int64_t n, begin, end;
  std::unique_ptr<parcae::linalg::SparseSystem> sys;
};

Laplacian laplacian(std::int64_t n, double scale = 1.0) {
  const int p = g_world->size(), r = g_world->rank();
  Laplacian l{n, n * r / p, n * (r + 1) / p, nullptr};
  std::vector<int> d, o;
  for (std::int64_t i = l.begin; i < l.end; ++i) {
    int dn = 1, on = 0;
    for (std::int64_t j : {i - 1, i + 1}) {
      if (j < 0 || j >= n) continue;
      (j >= l.begin && j < l.end ? dn : on) += 1;
    }
    d.push_back(dn);
    o.push_back(on);
  }
  l.sys = std::make_unique<parcae::linalg::SparseSystem>(*g_world, l.begin, l.end, n, d, o);
  // Elements e = 0..n: nodes e-1, e (interior numbering; -1 and n are the fixed ends). Each
  // rank adds the elements ending at its rows (and the last rank the last element), so some
  // contributions go to rows of another rank.
  for (std::int64_t e = l.begin; e < l.end + (l.end == n ? 1 : 0); ++e) {
    const std::int64_t dofs[2] = {e - 1, e < n ? e : -1};
    const double k[4] = {scale, -scale, -scale, scale};
    l.sys->add_matrix(dofs, k);
  }
  return l;
}

TEST(SparseSystem, SolvesTheLaplacianWithEveryMethod) {
  parcae::linalg::Libraries libs(*g_world);
  const std::int64_t n = 200;
  // Load f = 1 at every node: u_i = (i+1)(n-i)/2 (discrete solution of -u'' = 1, h = 1).
  std::vector<std::int64_t> all(n);
  for (std::int64_t i = 0; i < n; ++i) all[i] = i;
  using parcae::linalg::SolverMethod;
  for (SolverMethod m : {SolverMethod::Direct, SolverMethod::CgGamg, SolverMethod::CgBoomerAmg}) {
    Laplacian l = laplacian(n);
    for (std::int64_t i = l.begin; i < l.end; ++i) {
      const std::int64_t dof[1] = {i};
      const double one[1] = {1.0};
      l.sys->add_vector(dof, one);
    }
    l.sys->assemble();
    EXPECT_NEAR(l.sys->vector_norm(), std::sqrt(double(n)), 1e-12);
    parcae::linalg::SolverOptions opt;
    opt.method = m;
    std::vector<double> u;
    const auto st = l.sys->solve(opt, all, u);
    // Direct: to round-off (condition number ~ n^2 = 4e4, values ~ 1e4). Iterative: rtol 1e-10
    // on the residual, amplified by the condition number: 1e-10 * 4e4 * 1e4 ~ 4e-2 absolute.
    const double tol = m == SolverMethod::Direct ? 1e-7 : 5e-2;
    for (std::int64_t i = 0; i < n; ++i) ASSERT_NEAR(u[i], 0.5 * (i + 1) * (n - i), tol) << i;
    if (m == SolverMethod::Direct)
      EXPECT_TRUE(st.factorised);
    else
      EXPECT_GT(st.iterations, 0);
  }
}

TEST(SparseSystem, OutOfCoreGivesTheInCoreAnswerAndWritesScratch) {
  parcae::linalg::Libraries libs(*g_world);
  const std::int64_t n = 3000;
  std::vector<std::int64_t> all(n);
  for (std::int64_t i = 0; i < n; ++i) all[i] = i;
  std::vector<double> u[2];
  const auto dir =
      std::filesystem::temp_directory_path() /
      ("parcae_test_ooc_" + std::to_string(getpid()) + "_" + std::to_string(g_world->rank()));
  std::filesystem::create_directories(dir);
  for (int ooc = 0; ooc < 2; ++ooc) {
    Laplacian l = laplacian(n, 3.0);
    for (std::int64_t i = l.begin; i < l.end; ++i) {
      const std::int64_t dof[1] = {i};
      const double f[1] = {std::sin(0.01 * double(i))};
      l.sys->add_vector(dof, f);
    }
    l.sys->assemble();
    parcae::linalg::SolverOptions opt;
    opt.out_of_core = ooc == 1;
    opt.scratch_dir = dir.string();
    const auto st = l.sys->solve(opt, all, u[ooc]);
    EXPECT_EQ(st.out_of_core, ooc == 1);
    if (ooc) EXPECT_GT(st.scratch_bytes, 0); // the factors went to the scratch directory
    EXPECT_GT(st.memory_estimate_mb, 0);
  }
  // Same factorisation, factors kept on disk instead of in memory: identical to round-off.
  for (std::int64_t i = 0; i < n; ++i)
    ASSERT_NEAR(u[0][i], u[1][i], 1e-9 * std::abs(u[0][i]) + 1e-12);
  std::filesystem::remove_all(dir);
}

TEST(SparseSystem, DirichletRowsFixTheValues) {
  parcae::linalg::Libraries libs(*g_world);
  const std::int64_t n = 50;
  Laplacian l = laplacian(n);
  l.sys->assemble();
  // u_0 = 1 and u_{n-1} = 1 as Dirichlet rows, no load: the interior is the linear
  // interpolation between the two, with the matrix's own fixed ends (0) beyond them:
  // u = 1 on the whole inside (a constant satisfies -u'' = 0 between rows 0 and n-1).
  const std::int64_t rows[2] = {0, n - 1};
  const double vals[2] = {1.0, 1.0};
  l.sys->apply_dirichlet(rows, vals);
  std::vector<std::int64_t> all(n);
  for (std::int64_t i = 0; i < n; ++i) all[i] = i;
  std::vector<double> u;
  l.sys->solve({}, all, u);
  for (std::int64_t i = 0; i < n; ++i) EXPECT_NEAR(u[i], 1.0, 1e-12) << i;
}

TEST(SparseSystem, EigenvaluesOfTheLaplacian) {
  parcae::linalg::Libraries libs(*g_world);
  const std::int64_t n = 100;
  Laplacian k = laplacian(n);
  k.sys->assemble();
  // M = 2 I (diagonal, through 1x1 element matrices): lambda_j = (2 - 2 cos(j pi/(n+1))) / 2.
  Laplacian m = laplacian(n, 0.0);
  for (std::int64_t i = m.begin; i < m.end; ++i) {
    const std::int64_t dof[1] = {i};
    const double two[1] = {2.0};
    m.sys->add_matrix(dof, two);
  }
  m.sys->assemble();
  std::vector<std::int64_t> all(n);
  for (std::int64_t i = 0; i < n; ++i) all[i] = i;
  const auto r = parcae::linalg::solve_eigen(*k.sys, *m.sys, 3, 0.0, {}, all);
  ASSERT_EQ(r.eigenvalues.size(), 3u);
  for (int j = 1; j <= 3; ++j) {
    const double exact = (2 - 2 * std::cos(j * std::numbers::pi / double(n + 1))) / 2;
    EXPECT_NEAR(r.eigenvalues[j - 1], exact, 1e-9 * exact); // converged to tolerance 1e-10
    double xmx = 0;
    for (double v : r.vectors[j - 1]) xmx += 2 * v * v;
    EXPECT_NEAR(xmx, 1.0, 1e-9); // M-normalised
  }
}

} // namespace

int main(int argc, char** argv) {
  parcae::par::Environment env(argc, argv);
  const parcae::par::Comm comm = parcae::par::Comm::from_handle(parcae::par::world_handle());
  g_world = &comm;
  GTEST_FLAG_SET(color, "no");
  if (comm.rank() != 0) GTEST_FLAG_SET(brief, true);
  ::testing::InitGoogleTest(&argc, argv);
  const int rc = RUN_ALL_TESTS();
  return comm.any(rc != 0) ? 1 : 0;
}
