// The Solver interface (solvers/common/solver.hpp) on the explicit solver: driven by hand it
// gives what run_explicit gives; visit_state saves and restores the state exactly;
// write_output adds a glstat state at the current time.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <string>

#include "input/keyword_reader.hpp"
#include "solvers/explicit/integrator.hpp"
#include "test_support.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

Model block_model(const std::filesystem::path& dir) {
  write_file(dir / "deck.k",
             "*KEYWORD\n*CONTROL_TERMINATION\n2.0e-5\n"
             "*PART\nblock\n1,1,1\n*SECTION_SOLID\n1,1\n*MAT_ELASTIC\n1,7.85e-9,210000.0,0.3\n" +
                 hex_block_cards(3, 2, 2, 30, 20, 20, 1) +
                 "*INITIAL_VELOCITY_GENERATION\n1,2,2000.0,1000.0,-500.0,300.0\n"
                 "15.0,10.0,10.0,0.0,0.0,1.0\n*END\n");
  return read_deck((dir / "deck.k").string());
}

int glstat_states(const std::filesystem::path& file) {
  std::ifstream in(file);
  int n = 0;
  for (std::string line; std::getline(in, line);)
    if (line.find("dt of cycle") != std::string::npos) ++n;
  return n;
}

bool same_bits(Real a, Real b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

} // namespace

TEST(SolverInterface, DrivenByHandItMatchesRunExplicit) {
  const auto dir = make_temp_dir("solver_interface");
  const Model m = block_model(dir);
  RunOptions ref_opt;
  ref_opt.outdir = (dir / "ref").string();
  ref_opt.write_vtk = ref_opt.write_d3plot = ref_opt.write_histories = false;
  const RunSummary ref = run_explicit(m, ref_opt);
  ASSERT_TRUE(ref.normal_termination) << ref.error;
  ASSERT_GT(ref.cycles, 10);

  RunOptions opt = ref_opt;
  opt.outdir = (dir / "byhand").string();
  explicit_detail::Integrator s(m, opt);
  EXPECT_EQ(s.name(), "explicit");
  s.setup();
  int steps = 0;
  while (s.advance()) ++steps;
  const RunSummary got = s.finish();
  EXPECT_EQ(steps, got.cycles); // one cycle per advance() that returns true
  EXPECT_EQ(got.cycles, ref.cycles);
  EXPECT_TRUE(same_bits(got.final_stats.total, ref.final_stats.total));
  EXPECT_TRUE(same_bits(got.final_stats.kinetic, ref.final_stats.kinetic));
}

TEST(SolverInterface, VisitStateRestoresTheStateAndWriteOutputAddsAState) {
  const auto dir = make_temp_dir("solver_interface_state");
  const Model m = block_model(dir);
  RunOptions opt;
  opt.outdir = (dir / "out").string();
  opt.write_vtk = opt.write_d3plot = opt.write_histories = false;
  explicit_detail::Integrator s(m, opt);
  s.setup();
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(s.advance());
  const GlobalStats at5 = s.global_stats();
  EXPECT_EQ(at5.cycle, 5);
  StateArchive saved;
  s.visit_state(saved);

  for (int i = 0; i < 5; ++i) ASSERT_TRUE(s.advance());
  const GlobalStats at10 = s.global_stats();
  EXPECT_EQ(at10.cycle, 10);
  EXPECT_FALSE(same_bits(at10.time, at5.time));

  StateArchive load(saved.bytes(), "in-memory checkpoint");
  s.visit_state(load);
  const GlobalStats back = s.global_stats();
  EXPECT_EQ(back.cycle, 5);
  EXPECT_TRUE(same_bits(back.time, at5.time));
  EXPECT_TRUE(same_bits(back.kinetic, at5.kinetic));
  EXPECT_TRUE(same_bits(back.internal, at5.internal));

  const int before = glstat_states(dir / "out" / "glstat");
  s.write_output();
  EXPECT_EQ(glstat_states(dir / "out" / "glstat"), before + 1);
  s.finish();
}
