// The CFD solver under mpirun (np 1, 2, 4): case files, the hypre Poisson wrapper, rank x
// thread independence and restart. Verification cases are in test_cfd_cases.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <omp.h>
#include <sstream>
#include <unistd.h>
#include <vector>

#include "cfd_test.hpp"
#include "core/error.hpp"
#include "linalg/libraries.hpp"
#include "linalg/struct_poisson.hpp"
#include "solvers/cfd/cfd_case.hpp"

namespace cfdtest {

const parcae::par::Comm* g_world = nullptr;
std::vector<std::filesystem::path> g_dirs; ///< removed by main when every test passed

std::filesystem::path shared_dir(const std::string& tag) {
  const auto p = std::filesystem::temp_directory_path() /
                 ("parcae_test_cfd_" + std::to_string(::getppid()) + "_" + tag);
  g_dirs.push_back(p);
  if (g_world->rank() == 0) {
    std::filesystem::remove_all(p);
    std::filesystem::create_directories(p);
  }
  g_world->barrier();
  return p;
}

parcae::RunSummary run_case(const parcae::cfd::CfdCase& c, const parcae::par::Comm& comm,
                            const std::string& outdir, int threads, parcae::cfd::CfdRunInfo* info,
                            parcae::cfd::CavityResults* cavity) {
  parcae::RunOptions opt;
  opt.outdir = outdir;
  opt.threads = threads;
  opt.comm = &comm;
  return parcae::cfd::run_cfd(c, opt, info, cavity);
}

std::vector<std::vector<double>> read_csv(const std::filesystem::path& p,
                                          std::vector<std::string>* header) {
  std::ifstream in(p);
  std::string line;
  std::vector<std::vector<double>> cols;
  if (!std::getline(in, line)) return cols;
  std::stringstream hs(line);
  std::string h;
  while (std::getline(hs, h, ',')) {
    if (header) header->push_back(h);
    cols.emplace_back();
  }
  while (std::getline(in, line)) {
    std::stringstream ls(line);
    for (auto& c : cols) {
      std::string v;
      std::getline(ls, v, ',');
      c.push_back(std::stod(v));
    }
  }
  return cols;
}

parcae::cfd::CfdCase water_tank(double depth) {
  parcae::cfd::CfdCase c;
  c.name = "tank";
  c.dim = 2;
  c.size = {1, 1, 0.05};
  c.cells = {20, 20, 1};
  c.free_surface = true;
  c.liquid = {1000, 1e-3};
  c.gas = {1.2, 1.8e-5};
  c.gravity = {0, -9.81, 0};
  if (depth > 0) c.initial_liquid.push_back({{0, 0, 0}, {1, depth, 0.05}});
  c.end_time = 0.3;
  c.pressure_tolerance = 1e-12;
  return c;
}

std::filesystem::path run_ok(const parcae::cfd::CfdCase& c, const std::string& tag,
                             parcae::cfd::CfdRunInfo* info) {
  const auto dir = shared_dir(tag);
  const parcae::RunSummary r = run_case(c, *g_world, dir.string(), 1, info);
  EXPECT_TRUE(r.normal_termination) << tag << ": " << r.error;
  return dir;
}

void expect_case_errors(const std::filesystem::path& dir,
                        const std::vector<std::pair<std::string, std::string>>& cases) {
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const auto path = dir / ("bad" + std::to_string(i) + ".yaml");
    if (g_world->rank() == 0) std::ofstream(path) << cases[i].first;
    g_world->barrier();
    try {
      (void)parcae::cfd::read_cfd_case(path.string());
      ADD_FAILURE() << "no error for case " << i << ": " << cases[i].second;
    } catch (const parcae::InputError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(cases[i].second), std::string::npos) << what;
      EXPECT_NE(what.find(path.filename().string()), std::string::npos) << what;
    }
  }
}

std::string clean_env() {
  return "env -i PATH=/usr/bin:/bin HOME=/tmp OMPI_ALLOW_RUN_AS_ROOT=1 "
         "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_WAIT_POLICY=PASSIVE ";
}

double interpolate(const std::vector<parcae::cfd::ProfilePoint>& prof, double s) {
  for (std::size_t i = 0; i + 1 < prof.size(); ++i)
    if (s >= prof[i].s && s <= prof[i + 1].s) {
      const double t = (s - prof[i].s) / (prof[i + 1].s - prof[i].s);
      return (1 - t) * prof[i].v + t * prof[i + 1].v;
    }
  return s < prof.front().s ? prof.front().v : prof.back().v;
}

} // namespace cfdtest

namespace {

using namespace parcae;
using namespace parcae::cfd;
using cfdtest::g_world;

TEST(CfdCaseFile, TemplateRoundTrips) {
  const auto dir = cfdtest::shared_dir("roundtrip");
  const CfdCase a = dambreak_case(8, 0.1);
  const auto path = dir / "case.yaml";
  if (g_world->rank() == 0) std::ofstream(path) << cfd_case_yaml(a);
  g_world->barrier();
  const CfdCase b = read_cfd_case(path.string());
  EXPECT_EQ(cfd_case_yaml(a), cfd_case_yaml(b));
  EXPECT_TRUE(b.free_surface);
  EXPECT_EQ(b.cells, a.cells);
  ASSERT_EQ(b.initial_liquid.size(), 1u);
  EXPECT_DOUBLE_EQ(b.initial_liquid[0].hi[1], 2 * 0.05715);
}

TEST(CfdCaseFile, ErrorsNameTheKey) {
  const auto dir = cfdtest::shared_dir("errors");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"dimension: 2\ndomain: {size: [1, 1], cells: [8, 8]}\nfluid: {density: 1, viscosity: 0.1}\n"
       "boundaries: {ymax: {type: wal}}\n",
       "boundaries.ymax.type"},
      {"dimension: 2\ndomain: {size: [1, 1], cells: [8]}\nfluid: {density: 1, viscosity: 0.1}\n",
       "domain.cells"},
      {"dimension: 2\ndomain: {size: [1, 1], cells: [8, 8]}\nfluid: {density: -1, viscosity: "
       "0.1}\n",
       "fluid.density"},
      {"dimension: 2\ndomain: {size: [1, 1], cells: [8, 8]}\nfluid: {density: 1, viscosity: 0.1}\n"
       "time: {end: 1, cfl: 0.5, ends: 3}\n",
       "time.ends"},
      {"dimension: 2\ndomain: {size: [1, 1], cells: [8, 8]}\nfluid: {density: 1, viscosity: 0.1}\n"
       "boundaries: {xmin: {type: wall, velocity: [1, 0]}}\n",
       "boundaries.xmin.velocity"},
  };
  cfdtest::expect_case_errors(dir, cases);
}

/// -lap p = f on the unit square with homogeneous Neumann walls, p = cos(pi x) cos(pi y):
/// second-order convergence of the cell-centred 5-point scheme solved by hypre PCG + PFMG.
double poisson_error(int n) {
  linalg::Libraries libs(*g_world);
  const Grid g =
      make_grid(2, {n, n, 1}, {1.0 / n, 1.0 / n, 1.0 / n}, g_world->rank(), g_world->size());
  linalg::StructPoissonOptions o;
  o.rel_tol = 1e-12;
  linalg::StructPoisson ps(*g_world, 2, g.offset,
                           {g.offset[0] + g.n[0] - 1, g.offset[1] + g.n[1] - 1, 0}, o);
  const double h = 1.0 / n, pi = M_PI;
  std::vector<double> coef(g.owned() * 5, 0.0), b(g.owned()), x(g.owned(), 0.0);
  for (int j = 0; j < g.n[1]; ++j)
    for (int i = 0; i < g.n[0]; ++i) {
      const std::size_t c = i + g.n[0] * j;
      const int gi = g.offset[0] + i, gj = g.offset[1] + j;
      double* a = &coef[5 * c];
      const bool nb[4] = {gi > 0, gi<n - 1, gj> 0, gj < n - 1};
      for (int s = 0; s < 4; ++s)
        if (nb[s]) {
          a[1 + s] = -1 / (h * h);
          a[0] += 1 / (h * h);
        }
      const double xc = (gi + 0.5) * h, yc = (gj + 0.5) * h;
      b[c] = 2 * pi * pi * std::cos(pi * xc) * std::cos(pi * yc);
    }
  ps.set_matrix(coef);
  const auto info = ps.solve(b, x);
  EXPECT_TRUE(info.converged) << info.iterations << " " << info.rel_residual;
  EXPECT_LT(info.iterations, 30); // multigrid-preconditioned: a few tens at most
  // The solution is fixed up to a constant: compare after removing the mean.
  ExactSum se, sx;
  for (int j = 0; j < g.n[1]; ++j)
    for (int i = 0; i < g.n[0]; ++i) sx.add(x[i + g.n[0] * j]);
  const double mean = g_world->sum(sx).result() / (double(n) * n);
  double err = 0;
  for (int j = 0; j < g.n[1]; ++j)
    for (int i = 0; i < g.n[0]; ++i) {
      const double xc = (g.offset[0] + i + 0.5) * h, yc = (g.offset[1] + j + 0.5) * h;
      err = std::max(err,
                     std::fabs(x[i + g.n[0] * j] - mean - std::cos(pi * xc) * std::cos(pi * yc)));
    }
  (void)se;
  return g_world->max(err);
}

TEST(StructPoisson, NeumannProblemConvergesAtSecondOrder) {
  const double e32 = poisson_error(32), e64 = poisson_error(64);
  // Second order: halving h divides the error by 4 (3.5..4.5 leaves room for the boundary
  // cells' first-order truncation, which is O(h^2) in the solution).
  EXPECT_LT(e64, 2e-3);
  EXPECT_GT(e32 / e64, 3.5);
  EXPECT_LT(e32 / e64, 4.5);
}

/// A short cavity run (Re = 100, 24 x 24 to t = 0.3, or 12^3 to t = 0.2) with a tight pressure
/// tolerance.
CfdCase small_cavity(int dim = 2) {
  CfdCase c = cavity_case(100, dim == 2 ? 24 : 12, dim);
  c.end_time = dim == 2 ? 0.3 : 0.2;
  c.steady_tolerance = 0;
  c.pressure_tolerance = 1e-12;
  c.output_interval = 0;
  return c;
}

std::vector<std::vector<double>> fields_of(const CfdSolver& s, int dim) {
  std::vector<std::vector<double>> out;
  for (const char* w : {"u", "v", "w", "p", "f"})
    if (std::string(w) != "w" || dim == 3) out.push_back(s.gather_cell_field(w));
  return out;
}

void expect_rank_thread_independent(const CfdCase& c, const std::string& tag) {
  const int dim = c.dim;
  const auto dir = cfdtest::shared_dir("ranks_" + tag);
  // Reference: rank 0 alone, one thread.
  std::vector<std::vector<double>> ref;
  if (g_world->rank() == 0) {
    par::Comm self;
    RunOptions opt;
    opt.outdir = (dir / "ref").string();
    opt.threads = 1;
    opt.comm = &self;
    CfdSolver s(c, opt);
    run_solver(s);
    ref = fields_of(s, dim);
  }
  g_world->barrier();
  for (int threads : {1, 2}) {
    RunOptions opt;
    opt.outdir = (dir / ("t" + std::to_string(threads))).string();
    opt.threads = threads;
    opt.comm = g_world;
    CfdSolver s(c, opt);
    run_solver(s);
    const auto got = fields_of(s, dim);
    if (g_world->rank() != 0) continue;
    // The decomposition changes only the order of hypre's inner products: the fields agree to
    // the pressure solver's tolerance (1e-12 relative, amplified by the steps to ~1e-10 of
    // the lid speed). 1e-8 is far below any physical difference and far above round-off.
    for (std::size_t f = 0; f < ref.size(); ++f) {
      ASSERT_EQ(got[f].size(), ref[f].size());
      double diff = 0, scale = 0;
      for (std::size_t i = 0; i < ref[f].size(); ++i) {
        diff = std::max(diff, std::fabs(got[f][i] - ref[f][i]));
        scale = std::max(scale, std::fabs(ref[f][i]));
      }
      EXPECT_LT(diff, 1e-8 * std::max(1.0, scale))
          << "field " << f << " np " << g_world->size() << " threads " << threads;
    }
  }
}

TEST(CfdParallel, RanksAndThreadsGiveTheSameCavity2D) {
  expect_rank_thread_independent(small_cavity(2), "cavity2d");
}
TEST(CfdParallel, RanksAndThreadsGiveTheSameCavity3D) {
  expect_rank_thread_independent(small_cavity(3), "cavity3d");
}
TEST(CfdParallel, RanksAndThreadsGiveTheSameDamBreak) {
  // Two fluids: VOF fluxes, the donor limiter and the variable-coefficient pressure matrix
  // across block boundaries (8 cells per column width, the first 0.05 s).
  CfdCase c = dambreak_case(8, 0.05);
  c.output_interval = 0;
  c.pressure_tolerance = 1e-12;
  expect_rank_thread_independent(c, "dambreak");
}

TEST(CfdParallel, RanksAndThreadsGiveTheSameDamBreakAroundObstacles) {
  // Open fractions (a block on the floor, a disc with cut cells) across block boundaries: the
  // area-weighted fluxes, the closed cells' rows and the pinned cell.
  CfdCase c = dambreak_case(8, 0.08);
  c.output_interval = 0;
  c.pressure_tolerance = 1e-12;
  Obstacle block;
  block.kind = ObstacleKind::Box;
  block.lo = {0.12, 0};
  block.hi = {0.15, 0.03};
  Obstacle disc;
  disc.kind = ObstacleKind::Cylinder;
  disc.center = {0.2, 0.06};
  disc.radius = 0.025;
  c.obstacles = {block, disc};
  c.probes = {{"H", ProbeKind::Height, {0.1, 0, 0}}};
  expect_rank_thread_independent(c, "dambreak_obstacles");
}

TEST(CfdParallel, RanksAndThreadsGiveTheSameChannelPier3D) {
  // The worked example, coarse (40 x 10 x 8): a closed STL surface, an inflow with a level, a
  // hydrostatic pressure outflow, an open roof and probes, in 3-D across 2 and 4 blocks.
  CfdCase c = read_cfd_case(PARCAE_SOURCE_DIR "/examples/cfd/channel_pier.yaml");
  c.cells = {40, 10, 8};
  c.end_time = 0.1;
  c.output_interval = 0;
  c.pressure_tolerance = 1e-12;
  expect_rank_thread_independent(c, "channel_pier3d");
}

TEST(CfdRestart, ContinuedRunEqualsUninterruptedRun) {
  const auto dir = cfdtest::shared_dir("restart");
  CfdCase c = small_cavity();
  c.end_time = 100;
  c.max_steps = 40;
  // Probes at an interval that does not fall on the checkpoint's step: the restarted run
  // writes the same rows (the probe schedule is part of the checkpoint, the file rewound).
  c.probes = {{"P", ProbeKind::Pressure, {0.5, 0.5, 0}}, {"U", ProbeKind::Velocity, {0.3, 0.7, 0}}};
  c.probe_interval = 0.0123;
  RunOptions opt;
  opt.comm = g_world;
  opt.threads = 1;
  opt.outdir = (dir / "full").string();
  CfdSolver full(c, opt);
  run_solver(full);
  const auto want = fields_of(full, 2);
  c.max_steps = 20;
  opt.outdir = (dir / "split").string();
  opt.checkpoint_every_cycles = 20;
  {
    CfdSolver first(c, opt);
    run_solver(first);
  }
  c.max_steps = 40;
  opt.checkpoint_every_cycles = 0;
  opt.restart_from = opt.outdir;
  CfdSolver second(c, opt);
  const RunSummary r = run_solver(second);
  EXPECT_EQ(r.restarted_from_cycle, 20);
  EXPECT_EQ(second.info().steps, 40);
  const auto got = fields_of(second, 2);
  if (g_world->rank() == 0) {
    for (std::size_t f = 0; f < want.size(); ++f) EXPECT_EQ(got[f], want[f]) << "field " << f;
    auto text = [](const std::filesystem::path& p) {
      std::ifstream in(p);
      return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    };
    const std::string a = text(dir / "full" / "probes.csv"), b = text(dir / "split" / "probes.csv");
    EXPECT_GT(std::count(a.begin(), a.end(), '\n'), 4);
    EXPECT_EQ(a, b);
  }
}

} // namespace

int main(int argc, char** argv) {
  parcae::par::Environment env(argc, argv);
  const parcae::par::Comm comm = parcae::par::Comm::from_handle(parcae::par::world_handle());
  cfdtest::g_world = &comm;
  // The libraries initialised once on the world for the whole program: a run on rank 0 alone
  // (the one-rank reference) then never initialises PETSc (collective) by itself.
  parcae::linalg::Libraries libs(comm);
  GTEST_FLAG_SET(color, "no");
  if (comm.rank() != 0) GTEST_FLAG_SET(brief, true);
  ::testing::InitGoogleTest(&argc, argv);
  const int rc = RUN_ALL_TESTS();
  const bool failed = comm.any(rc != 0);
  // the shared folders are kept for a failed run (to look at), removed otherwise
  if (!failed && comm.rank() == 0)
    for (const auto& p : cfdtest::g_dirs) std::filesystem::remove_all(p);
  return failed ? 1 : 0;
}
