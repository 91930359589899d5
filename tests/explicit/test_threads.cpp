// Thread-count independence: element forces are written per element and summed per node in a
// fixed order, so a run with 2 threads must be bitwise identical to a run with 1 thread. And the
// optimised kernels must follow the plain reference kernels through a whole run.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "input/keyword_reader.hpp"
#include "solvers/explicit/solver.hpp"
#include "test_support.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

struct Result {
  std::vector<Real> x, v;
  GlobalStats stats;
};

Result run(const Model& model, int threads, bool reference = false) {
  RunOptions opt;
  opt.outdir = make_temp_dir("threads").string();
  opt.write_vtk = false;
  opt.write_glstat = false;
  opt.threads = threads;
  opt.use_reference_kernels = reference;
  Result r;
  opt.on_cycle = [&](const Domain& d, const GlobalStats& s) {
    r.x = d.x;
    r.v = d.v;
    r.stats = s;
    return true;
  };
  const RunSummary sum = run_explicit(model, opt);
  EXPECT_TRUE(sum.normal_termination) << sum.error;
  return r;
}

bool bitwise_equal(const std::vector<Real>& a, const std::vector<Real>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(Real)) == 0;
}

Model taylor_bar(int cycles) {
  Model m = read_deck((source_dir() / "examples" / "taylor_bar" / "taylor_bar.k").string());
  m.control.endcyc = cycles;
  return m;
}

Model shell_plate() {
  // Clamped 24 x 24 plate of *MAT_024 shells hit by a velocity pulse: bending, membrane and
  // plasticity in every element; 576 shells = 5 chunks for the threads to share.
  std::string d = "*KEYWORD\n*CONTROL_TERMINATION\n    2.0e-4\n";
  d += "*PART\nplate\n         1         1         1\n";
  d += "*SECTION_SHELL\n         1         2     0.833         3\n       1.0       1.0       1.0"
       "       1.0\n";
  d += "*MAT_PIECEWISE_LINEAR_PLASTICITY\n         1   7.85e-9  210000.0       0.3     250.0"
       "    1000.0\n\n\n\n";
  d += shell_grid_cards(24, 24, 240.0, 240.0, 1);
  std::vector<long> edge, all;
  for (int j = 0; j <= 24; ++j)
    for (int i = 0; i <= 24; ++i) {
      const long id = 1 + i + 25 * j;
      all.push_back(id);
      if (i == 0 || j == 0 || i == 24 || j == 24) edge.push_back(id);
    }
  d += node_set_card(1, edge);
  d += node_set_card(2, all);
  d += "*BOUNDARY_SPC_SET\n         1         0         1         1         1         1"
       "         1         1\n";
  d += "*INITIAL_VELOCITY\n         2\n       0.0       0.0   50000.0\n";
  d += "*END\n";
  const auto dir = make_temp_dir("plate");
  write_file(dir / "plate.k", d);
  return read_deck((dir / "plate.k").string());
}

} // namespace

TEST(Threads, HexRunIsBitwiseIdenticalWithOneAndTwoThreads) {
  const Model m = taylor_bar(400);
  const Result a = run(m, 1), b = run(m, 2);
  EXPECT_TRUE(bitwise_equal(a.x, b.x));
  EXPECT_TRUE(bitwise_equal(a.v, b.v));
  EXPECT_EQ(a.stats.internal, b.stats.internal);
  EXPECT_EQ(a.stats.kinetic, b.stats.kinetic);
  EXPECT_EQ(a.stats.cycle, b.stats.cycle);
}

TEST(Threads, ShellRunIsBitwiseIdenticalWithOneAndTwoThreads) {
  const Model m = shell_plate();
  const Result a = run(m, 1), b = run(m, 2);
  ASSERT_GT(a.stats.internal, 0.0);
  EXPECT_TRUE(bitwise_equal(a.x, b.x));
  EXPECT_TRUE(bitwise_equal(a.v, b.v));
  EXPECT_EQ(a.stats.internal, b.stats.internal);
}

TEST(Kernels, OptimisedKernelsFollowReferenceKernelsThroughARun) {
  // Same physics, different arithmetic order: the runs agree to round-off growth over a few
  // hundred cycles of plastic flow (1e-9 relative on displacements).
  for (const Model& m : {taylor_bar(300), shell_plate()}) {
    const Result a = run(m, 1, false), b = run(m, 1, true);
    ASSERT_EQ(a.x.size(), b.x.size());
    Real scale = 0, diff = 0;
    for (std::size_t k = 0; k < a.x.size(); ++k) {
      scale = std::max(scale, std::abs(a.v[k]));
      diff = std::max(diff, std::abs(a.v[k] - b.v[k]));
    }
    EXPECT_LT(diff, 1e-9 * scale);
    EXPECT_NEAR(a.stats.internal, b.stats.internal, 1e-9 * std::abs(a.stats.internal));
  }
}
