// End-to-end tests of the `parcae` command: examples run, bad decks fail cleanly, unstable runs
// stop with a named element and keep their last good state.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <sstream>

#include <unistd.h>

#include <fmt/format.h>

#include "test_support.hpp"

using namespace parcae::test;
namespace fs = std::filesystem;

namespace {

std::string parcae_exe() {
  return parcae_binary().string();
}

std::vector<fs::path> files_in(const fs::path& dir, const std::string& ext) {
  std::vector<fs::path> out;
  if (!fs::is_directory(dir)) return out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ext) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

/// The Taylor bar example's deck text, with its mesh include copied into dir (edit the text,
/// write it into dir, run it there).
std::string taylor_bar_in(const fs::path& dir) {
  fs::copy_file(source_dir() / "examples" / "taylor_bar" / "taylor_bar_mesh.k",
                dir / "taylor_bar_mesh.k");
  return read_file(source_dir() / "examples" / "taylor_bar" / "taylor_bar.k");
}

} // namespace

TEST(Cli, EveryExampleRunsToNormalTermination) {
  // Each examples/<name>/<name>.k is documentation: it must run as its header says.
  int count = 0;
  for (const auto& e : fs::directory_iterator(source_dir() / "examples")) {
    if (!e.is_directory()) continue;
    const fs::path deck = e.path() / (e.path().filename().string() + ".k");
    if (!fs::exists(deck)) continue;
    const std::string text = read_file(deck);
    EXPECT_NE(text.find("parcae run"), std::string::npos)
        << deck << ": the header must show the command that runs it";
    const auto out = make_temp_dir("example");
    const auto r = run_command(parcae_exe() + " run " + deck.string() + " -o " + out.string(), 600);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("normal termination"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("initial dt"), std::string::npos) << "model summary missing";
    EXPECT_TRUE(fs::exists(out / "glstat"));
    // What the deck asks: the d3plot (ParaView and LS-PrePost open it); VTK only with --vtk.
    EXPECT_TRUE(fs::exists(out / "d3plot"));
    EXPECT_TRUE(fs::exists(out / "d3plot01"));
    EXPECT_FALSE(fs::exists(out / "parcae.pvd"));
    EXPECT_FALSE(fs::exists(out / "states"));
    ++count;
  }
  EXPECT_GE(count, 1);
}

TEST(Cli, EndCycleStopsTheRunAndTheSummaryGivesPeakMemory) {
  // --end-cycle N: LS-DYNA's ENDCYC on the command line (a benchmark window); the summary ends
  // with the peak resident memory per rank and bytes per element.
  const fs::path deck = source_dir() / "examples" / "taylor_bar" / "taylor_bar.k";
  const auto out = make_temp_dir("end_cycle");
  const auto r = run_command(parcae_exe() + " run " + deck.string() + " -o " + out.string() +
                                 " --end-cycle 25 --no-vtk --no-d3plot",
                             300);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("end cycle 25 (--end-cycle"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("normal termination at cycle 25,"), std::string::npos) << r.output;
  const std::regex mem(
      R"(peak memory per rank (\d+) MiB \(largest, rank 0\); all ranks \d+ MiB, (\d+) bytes per element)");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.output, m, mem)) << r.output;
  EXPECT_GT(std::stoi(m[1].str()), 1); // a process takes more than 1 MiB
  EXPECT_NE(r.output.find("memory of rank 0 at its stages (resident MiB): deck read"),
            std::string::npos)
      << r.output;
  const auto bad = run_command(
      parcae_exe() + " run " + deck.string() + " -o " + out.string() + " --end-cycle 0", 60);
  EXPECT_NE(bad.exit_code, 0) << bad.output;
}

TEST(Cli, EveryMalformedDeckFailsWithFileLineAndNoCrash) {
  // The corpus in tests/input/bad_decks: `parcae check` must exit 1 (input error), never crash
  // (signal), never report an internal error (3), never hang (timeout 30 s), and name the file.
  const auto corpus = files_in(source_dir() / "tests" / "input" / "bad_decks", ".k");
  ASSERT_GE(corpus.size(), 30u);
  for (const auto& deck : corpus) {
    const auto r = run_command(parcae_exe() + " check " + deck.string(), 30);
    EXPECT_EQ(r.exit_code, 1) << deck << "\n" << r.output;
    EXPECT_NE(r.output.find(deck.filename().string()), std::string::npos)
        << deck << ": message must name the file\n"
        << r.output;
    EXPECT_TRUE(std::regex_search(r.output, std::regex(R"(\.k:\d+)")))
        << deck << ": message must name the line\n"
        << r.output;
  }
}

TEST(Cli, UnsupportedKeywordsAreListedTogetherOrIgnoredOnRequest) {
  const auto dir = make_temp_dir("unsupported");
  std::string deck = taylor_bar_in(dir);
  deck.replace(deck.find("*END"), 4,
               "*CONTACT_AIRBAG_SINGLE_SURFACE\n         1\n*AIRBAG_HYBRID\n"
               "         1\n*DATABASE_MATSUM\n    1.0e-6\n*CONTROL_TERMINATION\n    1.0e-6\n"
               "*END");
  write_file(dir / "deck.k", deck);
  auto r = run_command(parcae_exe() + " run " + (dir / "deck.k").string() + " -o " +
                       (dir / "out").string());
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("*CONTACT_AIRBAG_SINGLE_SURFACE"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("*AIRBAG_HYBRID"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir / "out" / "glstat")) << "nothing may run";
  r = run_command(parcae_exe() + " run " + (dir / "deck.k").string() + " -o " +
                  (dir / "out").string() + " --ignore-unsupported");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("warning"), std::string::npos) << r.output;
}

TEST(Cli, PlotStatesAreWhatTheDeckAsksFor) {
  // Write what the deck asks: the Taylor bar's *DATABASE_BINARY_D3PLOT DT = 8e-6 over ENDTIM
  // 8e-5 gives 11 states; without the card the initial and the final state only (no invented
  // interval). --vtk writes the VTK series at the same times; without it there is none.
  const auto dir = make_temp_dir("plot_states");
  std::string deck = taylor_bar_in(dir);
  write_file(dir / "with.k", deck);
  const std::string card = "*DATABASE_BINARY_D3PLOT\n    8.0e-6\n";
  ASSERT_NE(deck.find(card), std::string::npos);
  deck.erase(deck.find(card), card.size());
  write_file(dir / "without.k", deck);
  auto r = run_command(parcae_exe() + " run " + (dir / "with.k").string() + " -o " +
                           (dir / "with").string() + " --vtk",
                       300);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(files_in(dir / "with" / "states", ".vtu").size(), 11u);
  EXPECT_TRUE(fs::exists(dir / "with" / "d3plot01"));
  r = run_command(parcae_exe() + " run " + (dir / "without.k").string() + " -o " +
                      (dir / "without").string() + " --vtk",
                  300);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("the initial and the final state only"), std::string::npos) << r.output;
  EXPECT_EQ(files_in(dir / "without" / "states", ".vtu").size(), 2u);
  EXPECT_TRUE(fs::exists(dir / "without" / "d3plot01"));
  // The d3plot holds the same two states: its state member (states, then a one-word end
  // marker; 4-byte words) is 2 states where the other has 11.
  const auto with_bytes = fs::file_size(dir / "with" / "d3plot01") - 4;
  const auto without_bytes = fs::file_size(dir / "without" / "d3plot01") - 4;
  EXPECT_EQ(with_bytes % 11, 0u);
  EXPECT_EQ(with_bytes / 11 * 2, without_bytes);
  // A run that stops before ENDTIM (--end-cycle) ends with a state too: initial + final.
  r = run_command(parcae_exe() + " run " + (dir / "without.k").string() + " -o " +
                      (dir / "endcyc").string() + " --vtk --end-cycle 25",
                  300);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(files_in(dir / "endcyc" / "states", ".vtu").size(), 2u);
  // LCDT: the interval as a curve of time (2e-5 throughout: states at 0, 2, 4, 6, 8 e-5).
  std::string lcdt = deck;
  lcdt.replace(lcdt.find("*END"), 4,
               "*DATABASE_BINARY_D3PLOT\n       0.0       777\n*DEFINE_CURVE\n       777\n"
               "                 0.0              2.0e-5\n                 1.0              "
               "2.0e-5\n*END");
  write_file(dir / "lcdt.k", lcdt);
  r = run_command(parcae_exe() + " run " + (dir / "lcdt.k").string() + " -o " +
                      (dir / "lcdt").string() + " --vtk",
                  300);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(files_in(dir / "lcdt" / "states", ".vtu").size(), 5u);
}

TEST(Cli, RestartWithOtherElementStateIsRefused) {
  // Hexahedra keep hourglass forces only for the stiffness forms (IHQ 4-5): a checkpoint written
  // with IHQ 1 must not be loaded into a run of IHQ 4 (its arrays would be short); the restart
  // stops with a message naming the array and the part.
  const auto dir = make_temp_dir("restart_ihq");
  std::string deck = taylor_bar_in(dir);
  write_file(dir / "deck.k", deck);
  auto r = run_command(parcae_exe() + " run " + (dir / "deck.k").string() + " -o " +
                           (dir / "out").string() + " --checkpoint-every 20 --end-cycle 40",
                       300);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  deck.replace(deck.find("*END"), 4, "*CONTROL_HOURGLASS\n         4\n*END");
  write_file(dir / "deck.k", deck);
  r = run_command(parcae_exe() + " run --restart " +
                      (dir / "out" / "checkpoints" / "cycle-000000020").string(),
                  300);
  EXPECT_NE(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("'hourglass forces' for part 1"), std::string::npos) << r.output;
}

namespace {

/// glstat without its timing lines (the only ones a restart may change).
std::string glstat_without_timing(const fs::path& p) {
  std::istringstream in(read_file(p));
  std::string out, line;
  while (std::getline(in, line))
    if (line.find("time per zone cycle") == std::string::npos &&
        line.find("date") == std::string::npos)
      out += line + "\n";
  return out;
}

std::uintmax_t bytes_under(const fs::path& dir) {
  std::uintmax_t n = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) n += e.file_size();
  return n;
}

} // namespace

// The disk fills up while a checkpoint is written: the run stops with an error naming the file
// and the cause, the half-written checkpoint is removed, the previous one is kept and named; with
// room again, the run restarts from it and ends with the uninterrupted run's glstat. The full
// disk is a tmpfs sized from a reference run: the outputs at the end plus 1.5 checkpoints, so the
// first checkpoint fits and the second does not (needs root to mount; skipped otherwise).
TEST(Cli, FullDiskAtACheckpointKeepsThePreviousOneForRestart) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to mount a small tmpfs";
  const auto dir = make_temp_dir("full_disk");
  const std::string deck = (source_dir() / "examples" / "taylor_bar" / "taylor_bar.k").string();
  const std::string opts = " --checkpoint-every 1000 --no-d3plot";
  const fs::path ref = dir / "ref";
  ASSERT_EQ(run_command(parcae_exe() + " run " + deck + " -o " + ref.string() + opts).exit_code, 0);
  const fs::path cp1 = ref / "checkpoints" / "cycle-000004000";
  ASSERT_TRUE(fs::exists(cp1 / "manifest.json"));
  const std::uintmax_t checkpoint = bytes_under(cp1);
  const std::uintmax_t outputs = bytes_under(ref) - 2 * checkpoint; // two checkpoints are kept
  const std::uintmax_t size_kib = (outputs + 3 * checkpoint / 2) / 1024 + 1;
  const fs::path mnt = dir / "small";
  fs::create_directories(mnt);
  if (run_command(fmt::format("mount -t tmpfs -o size={}k tmpfs {}", size_kib, mnt.string()))
          .exit_code != 0)
    GTEST_SKIP() << "cannot mount a tmpfs here";
  struct Unmount {
    fs::path p;
    ~Unmount() { run_command("umount " + p.string()); }
  } unmount{mnt};
  const fs::path out = mnt / "o";
  const auto r = run_command(parcae_exe() + " run " + deck + " -o " + out.string() + opts);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(std::regex_search(
      r.output,
      std::regex(R"(cannot write \S+/checkpoints/cycle-0+2000/rank-00000\.bin: No space)")))
      << r.output;
  EXPECT_NE(r.output.find("the previous checkpoint cycle-000001000 is kept"), std::string::npos)
      << r.output;
  EXPECT_FALSE(fs::exists(out / "checkpoints" / "cycle-000002000")) << "half-written: removed";
  ASSERT_TRUE(fs::exists(out / "checkpoints" / "cycle-000001000" / "manifest.json"));
  // room again: the restart from cycle 1000 ends as the uninterrupted run
  ASSERT_EQ(run_command("mount -o remount,size=64m " + mnt.string()).exit_code, 0);
  const auto again = run_command(parcae_exe() + " run " + deck + " --restart " + out.string() +
                                 " -o " + out.string() + opts);
  ASSERT_EQ(again.exit_code, 0) << again.output;
  EXPECT_NE(again.output.find("cycle 1000"), std::string::npos) << again.output;
  EXPECT_EQ(glstat_without_timing(out / "glstat"), glstat_without_timing(ref / "glstat"));
}

TEST(Cli, CheckListsKeywords) {
  const auto r = run_command(parcae_exe() + " check " +
                             (source_dir() / "examples" / "taylor_bar" / "taylor_bar.k").string());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("*MAT_PLASTIC_KINEMATIC"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("*RIGIDWALL_PLANAR"), std::string::npos) << r.output;
}

namespace {
/// A soft cube hit at 1 km/s against a rigid wall with a huge time step (DTINIT far above
/// the stable step and TSSFAC 5): its elements invert within a few cycles.
std::string unstable_cube_deck() {
  std::string d = "*KEYWORD\n*CONTROL_TERMINATION\n    1.0e-3\n";
  d += "*CONTROL_TIMESTEP\n    1.0e-5       5.0\n";
  d += "*PART\nblob\n         7         1         1\n*SECTION_SOLID\n         1         1\n";
  d += "*MAT_ELASTIC\n         1   1.0e-9     100.0       0.3\n";
  d += hex_block_cards(2, 2, 2, 1.0, 1.0, 1.0, 7);
  d += "*INITIAL_VELOCITY_GENERATION\n         7         2       0.0       0.0       0.0"
       "   -1.0e+6\n       0.0       0.0       0.0       0.0       0.0       0.0\n";
  d += "*RIGIDWALL_PLANAR\n         0\n       0.0       0.0       0.0       0.0       0.0"
       "       1.0\n*END\n";
  return d;
}
} // namespace

TEST(Cli, UnstableRunStopsNamingElementAndKeepsLastGoodState) {
  const auto dir = make_temp_dir("unstable");
  write_file(dir / "deck.k", unstable_cube_deck());
  const auto r = run_command(parcae_exe() + " run " + (dir / "deck.k").string() + " -o " +
                                 (dir / "out").string() + " --vtk",
                             60);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(std::regex_search(r.output, std::regex(R"(element \d+ of part 7)"))) << r.output;
  EXPECT_NE(r.output.find("last good state"), std::string::npos) << r.output;
  EXPECT_TRUE(fs::exists(dir / "out" / "parcae.pvd"));
  EXPECT_GE(files_in(dir / "out" / "states", ".vtu").size(), 2u)
      << "initial state and the last good state";
}

TEST(Cli, TimeStepCollapseStopsTheRunNamingTheElement) {
  // The Taylor bar's step falls to ~1/5 of its initial value as the foot flattens; with
  // *CONTROL_TERMINATION DTMIN = 0.5 (stop below half the initial step) the run must stop with
  // a message naming the controlling element and part, exit 2, and keep its last good state.
  const auto dir = make_temp_dir("collapse");
  std::string deck = taylor_bar_in(dir);
  const std::string endtim = "    8.0e-5\n";
  deck.replace(deck.find(endtim), endtim.size(), "    8.0e-5                 0.5\n");
  write_file(dir / "deck.k", deck);
  const auto r = run_command(parcae_exe() + " run " + (dir / "deck.k").string() + " -o " +
                                 (dir / "out").string() + " --vtk",
                             120);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(
      std::regex_search(r.output, std::regex(R"(time step collapsed.*solid \d+ of part 1)")))
      << r.output;
  EXPECT_GE(files_in(dir / "out" / "states", ".vtu").size(), 2u);
}

TEST(CliMpp, MoreRanksThanElementsIsAClearError) {
  const auto dir = make_temp_dir("too_many_ranks");
  write_file(dir / "deck.k", unstable_cube_deck()); // 8 elements
  const auto r = run_command(parcae_exe() + " run " + (dir / "deck.k").string() + " -o " +
                                 (dir / "out").string() + " --np 9",
                             120);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("cannot run 9 ranks with only 8 elements"), std::string::npos)
      << r.output;
}

TEST(CliMpp, BadInputWithNpIsOneErrorBeforeMpirunStarts) {
  // `run DECK --np 2` and `cfd run CASE --np 2` read the input before starting mpirun: a bad
  // deck or case gets its error once (not once per rank), exit code 1, and no launcher text.
  const auto dir = make_temp_dir("bad_np");
  std::string deck = unstable_cube_deck();
  deck.replace(deck.find("*END"), 4, "*FOO_BAR\n1\n*END");
  write_file(dir / "deck.k", deck);
  const auto r = run_command(parcae_exe() + " run --profile -o " + (dir / "out").string() +
                                 " --threads 1 " + (dir / "deck.k").string() + " --np 2",
                             120);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  const std::regex where(R"(deck\.k:\d+ \(\*FOO_BAR\): unsupported keyword)");
  const auto hits = std::distance(std::sregex_iterator(r.output.begin(), r.output.end(), where),
                                  std::sregex_iterator());
  EXPECT_EQ(hits, 1) << r.output;
  EXPECT_EQ(r.output.find("launching"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("mpirun"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir / "out")) << "nothing may run";
  // the same deck with --ignore-unsupported is launched (and runs)
  const auto ok = run_command(parcae_exe() + " run " + (dir / "deck.k").string() +
                                  " --ignore-unsupported --end-cycle 2 -o " +
                                  (dir / "out").string() + " --np 2",
                              120);
  EXPECT_NE(ok.output.find("launching"), std::string::npos) << ok.output;
  // a CFD case with a YAML syntax error
  write_file(dir / "case.yaml", "grid: {cells: [8, 8]\n");
  const auto c = run_command(parcae_exe() + " cfd run " + (dir / "case.yaml").string() +
                                 " --np 2 -o " + (dir / "cfd").string(),
                             120);
  EXPECT_EQ(c.exit_code, 1) << c.output;
  EXPECT_NE(c.output.find("case.yaml"), std::string::npos) << c.output;
  EXPECT_EQ(c.output.find("launching"), std::string::npos) << c.output;
}

// A rank killed with SIGKILL in the middle of a run: the whole job stops within seconds (no
// hang), with a non-zero exit code and a message naming the rank and the host (Open MPI's
// launcher reports the dead process; parcae's other rank is killed by it). The Taylor bar with
// its end time raised to 1 s (about 10^8 cycles) runs until rank 1 is killed.
TEST(CliMpp, KilledRankStopsTheJobWithinSecondsNamingRankAndHost) {
  const auto dir = make_temp_dir("killed_rank");
  std::string deck = taylor_bar_in(dir);
  const auto at = deck.find("    8.0e-5");
  ASSERT_NE(at, std::string::npos);
  deck.replace(at, 10, "       1.0");
  write_file(dir / "deck.k", deck);
  const std::string out = (dir / "out").string();
  // the job in the background; rank 1 found by its environment, killed once glstat has lines
  write_file(dir / "kill.sh", fmt::format(R"SH(set -u
( "{exe}" run "{dir}/deck.k" -o "{out}" --no-d3plot --np 2 > "{dir}/log" 2>&1; echo $? > "{dir}/rc" ) &
for i in $(seq 600); do [ -s "{out}/glstat" ] && grep -q "time" "{out}/glstat" && break; sleep 0.1; done
victim=""
for d in /proc/[0-9]*; do
  tr '\0' ' ' < $d/cmdline 2>/dev/null | grep -qF -- "-o {out} " || continue
  tr '\0' '\n' < $d/environ 2>/dev/null | grep -qx 'OMPI_COMM_WORLD_RANK=1' && victim=${{d#/proc/}}
done
[ -n "$victim" ] || {{ echo "NO VICTIM"; cat "{dir}/log"; exit 1; }}
start=$(date +%s.%N)
kill -9 "$victim"
for i in $(seq 600); do [ -s "{dir}/rc" ] && break; sleep 0.05; done
end=$(date +%s.%N)
echo "ELAPSED $(awk "BEGIN {{ print $end - $start }}")"
echo "RC $(cat "{dir}/rc" 2>/dev/null || echo none)"
cat "{dir}/log"
)SH",
                                          fmt::arg("exe", parcae_exe()),
                                          fmt::arg("dir", dir.string()), fmt::arg("out", out)));
  const auto r = run_command("bash " + (dir / "kill.sh").string(), 120);
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.output, m, std::regex(R"(ELAPSED ([0-9.]+))"))) << r.output;
  EXPECT_LT(std::stod(m[1].str()), 10.0) << r.output;
  ASSERT_TRUE(std::regex_search(r.output, m, std::regex(R"(RC (\S+))"))) << r.output;
  EXPECT_NE(m[1].str(), "0") << r.output;
  EXPECT_NE(m[1].str(), "none") << "the job did not stop\n" << r.output;
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  EXPECT_TRUE(std::regex_search(r.output, std::regex(R"(rank 1\b)"))) << r.output;
  EXPECT_NE(r.output.find(host), std::string::npos) << "host " << host << "\n" << r.output;
}

TEST(CliMpp, UnstableRankEndsTheWholeJobNamingRankAndElement) {
  // The same inverting cube as above on 2 ranks: every rank stops (no hang: ctest timeout),
  // the failing rank names itself and the element, the exit code is 2, and the last good
  // state is written.
  const auto dir = make_temp_dir("unstable_mpp");
  write_file(dir / "deck.k", unstable_cube_deck());
  const auto r = run_command(parcae_exe() + " run " + (dir / "deck.k").string() + " -o " +
                                 (dir / "out").string() + " --np 2 --vtk",
                             120);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(std::regex_search(
      r.output,
      std::regex(R"(rank \d+: negative or invalid volume in solid element \d+ of part 7)")))
      << r.output;
  // MPP: one .pvtu per state (pieces per rank in states/state_N/)
  EXPECT_GE(files_in(dir / "out" / "states", ".pvtu").size(), 2u);
}

// A public deck written elsewhere (PyDyna's John Reid pendulum, MIT, copied unchanged into
// tests/decks with its source): two shell spheres on beams swinging into each other under
// gravity, single-surface contact (they do not meet before the deck's end time). It runs at its
// own end time at 1 and 2 ranks, with the energy ratio within 1 % (the corpus band; 1.0008
// measured), gravity doing work, and glstat identical but for its timing lines.
TEST(CliMpp, PublicPendulumDeckRunsUnmodifiedAtOneAndTwoRanks) {
  const fs::path deck = source_dir() / "tests" / "decks" / "pydyna_john_reid_pendulum" / "main.k";
  ASSERT_TRUE(fs::exists(deck));
  const auto dir = make_temp_dir("pendulum");
  std::string glstat[2];
  for (int np : {1, 2}) {
    const fs::path out = dir / ("np" + std::to_string(np));
    const auto r = run_command(parcae_exe() + " run " + deck.string() + " -o " + out.string() +
                                   " --no-vtk --np " + std::to_string(np),
                               300);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const std::string text = read_file(out / "glstat");
    // the last value of a glstat line
    auto last = [&](const char* pattern) {
      const std::regex re(pattern);
      std::string value;
      for (auto it = std::sregex_iterator(text.begin(), text.end(), re);
           it != std::sregex_iterator(); ++it)
        value = (*it)[1];
      return value;
    };
    const std::string ratio = last(R"(total energy / initial energy\.+\s+(\S+))");
    ASSERT_FALSE(ratio.empty()) << text.substr(0, 2000);
    EXPECT_NEAR(std::stod(ratio), 1.0, 0.01) << "np " << np;
    // the spheres move under gravity: it did work
    const std::string work = last(R"(external work\.+\s+(\S+))");
    ASSERT_FALSE(work.empty());
    EXPECT_GT(std::stod(work), 0.0);
    std::string kept;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
      if (line.find("time per zone cycle") == std::string::npos) kept += line + "\n";
    glstat[np - 1] = kept;
  }
  EXPECT_EQ(glstat[0], glstat[1]) << "glstat differs between 1 and 2 ranks";
}

TEST(CliMpp, DecomposeWritesReportAndVtk) {
  const auto dir = make_temp_dir("decompose");
  const auto r =
      run_command(parcae_exe() + " decompose " +
                      (source_dir() / "examples" / "taylor_bar" / "taylor_bar.k").string() +
                      " --np 4 -o " + dir.string(),
                  120);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("imbalance"), std::string::npos) << r.output;
  const std::string vtu = read_file(dir / "decomposition.vtu");
  EXPECT_NE(vtu.find("Name=\"rank\""), std::string::npos);
}

TEST(CliMpp, DecompositionTransformChangesTheCut) {
  // The Taylor bar is long in y: RCB on 2 ranks cuts across y (a small interface). Stretching
  // x by 100 (--decomp-transform sx=100, LS-DYNA's "decomp { sx 100 }") makes x the longest
  // extent, so the cut runs along the bar and the interface grows.
  const auto deck = (source_dir() / "examples" / "taylor_bar" / "taylor_bar.k").string();
  const auto dir = make_temp_dir("decomp_transform");
  const auto a = run_command(parcae_exe() + " decompose " + deck + " --np 2 -o " + dir.string());
  const auto b = run_command(parcae_exe() + " decompose " + deck + " --np 2 -o " + dir.string() +
                             " --decomp-transform sx=100");
  ASSERT_EQ(a.exit_code, 0) << a.output;
  ASSERT_EQ(b.exit_code, 0) << b.output;
  EXPECT_NE(a.output, b.output);
  const auto bad =
      run_command(parcae_exe() + " decompose " + deck + " --np 2 --decomp-transform qq=1");
  EXPECT_EQ(bad.exit_code, 1) << bad.output;
  EXPECT_NE(bad.output.find("--decomp-transform"), std::string::npos) << bad.output;
}
