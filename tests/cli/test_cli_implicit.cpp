// `parcae run` on implicit decks (IMFLAG = 1): dispatch, --np, --scratch (per-run folder removed
// after a normal run, kept and named after a failure). Skipped in builds without the implicit
// solver (MPICH preset), where the deck must be refused with a clear message instead.
#include <gtest/gtest.h>

#include <filesystem>

#include "test_support.hpp"

using namespace parcae::test;
namespace fs = std::filesystem;

namespace {

std::string parcae_exe() {
  return parcae_binary().string();
}

bool has_implicit(const CommandResult& r) {
  return r.output.find("has no implicit solver") == std::string::npos;
}

} // namespace

TEST(CliImplicit, StaticDeckRunsOnTwoRanksWithScratchRemoved) {
  const auto out = make_temp_dir("implicit_cli");
  const auto scratch = make_temp_dir("implicit_cli_scratch");
  const auto deck = source_dir() / "examples" / "implicit" / "cantilever_static.k";
  const auto r = run_command(parcae_exe() + " run " + deck.string() + " --np 2 -o " + out.string() +
                                 " --scratch " + scratch.string(),
                             120);
  if (!has_implicit(r)) {
    EXPECT_EQ(r.exit_code, 1) << r.output;
    GTEST_SKIP() << "no implicit solver in this build";
  }
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("normal termination"), std::string::npos) << r.output;
  EXPECT_TRUE(fs::exists(out / "d3plot"));
  EXPECT_TRUE(fs::exists(out / "convergence.csv"));
  EXPECT_TRUE(fs::is_empty(scratch)) << "the per-run scratch folder must be removed";
}

TEST(CliImplicit, FailedRunKeepsAndNamesItsScratch) {
  // Plastic bending in one step with one Newton iteration allowed and no automatic stepping:
  // the step cannot converge; the run exits 2 and names the scratch folder it kept.
  const auto dir = make_temp_dir("implicit_fail");
  std::string deck = read_file(source_dir() / "examples" / "implicit" / "plastic_bending.k");
  const auto pos = deck.find("*CONTROL_IMPLICIT_AUTO");
  deck.replace(pos, deck.find("*CONTROL_IMPLICIT_SOLUTION") - pos, "");
  deck.replace(deck.find("         7        11        15"), 30, "         7        11         1");
  deck.replace(deck.find("1,0.25\n"), 7, "1,1.0\n");
  write_file(dir / "deck.k", deck);
  const auto scratch = dir / "scratch";
  fs::create_directories(scratch);
  const auto r = run_command(parcae_exe() + " run " + (dir / "deck.k").string() + " -o " +
                                 (dir / "out").string() + " --scratch " + scratch.string(),
                             120);
  if (!has_implicit(r)) GTEST_SKIP() << "no implicit solver in this build";
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("no convergence"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("scratch files kept in " + scratch.string()), std::string::npos)
      << r.output;
  EXPECT_FALSE(fs::is_empty(scratch));
}
