// parcae: command-line front end.
//   parcae run DECK [-o OUTDIR] [--threads T] [--ignore-unsupported] [--decomp rcb|metis]
//              [--np N [--mpi openmpi|mpich] [--transport shm|tcp]]
//   mpirun -np N parcae run DECK ...          (MPP: one rank per MPI process)
//   parcae run [DECK] --restart DIR [--checkpoint-every N|Ts]   (continue from a checkpoint)
//   parcae check DECK [--ignore-unsupported]
//   parcae decompose DECK --np N [-o OUTDIR]  (decomposition report + VTK coloured by rank)
//   parcae run DECK --profile [DIR]           (MPI profile: profile.json, profile.csv)
//   parcae profile [-o DIR] -- mpirun -np N PROGRAM ...   (profile any MPI program)
//   parcae profile report DIR | compare A B    (tables and PNG figures)
//   parcae keywords [--match]                 (keyword coverage table, Markdown; --match: which
//                                               card table reads each name on stdin)
//   parcae cfd cavity|dambreak|run ...         (incompressible free-surface CFD, docs/cfd.md)
//   parcae bench CAMPAIGN.yaml -o RESULTS | report | compare   (benchmark campaigns)
//   parcae generate cylinders --scale S [-o cyl.k] [--ccx cyl.inp]  (implicit benchmark model)
//   parcae generate crash --class neon|3cars|car2car [--elements N] -o DIR  (vehicle crash)
//   parcae storage-study DECK --jobs 1,2,4 --np N --target NAME=DIR ... -o RESULTS.json | report
//   parcae whatif PROFILE_DIR --network NAME | calibrate      (interconnect what-if)
//   parcae cluster up|down|status|run ...     (hosts as network namespaces, root)
// Exit codes: 0 normal termination / valid deck, 1 input error, 2 run stopped with an error
// (instability, unusable checkpoint), 3 internal error, 4 stopped by SIGTERM/SIGINT after
// writing a checkpoint (continue with --restart).
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "apps/cfd_cmd.hpp"
#include "apps/launch.hpp"
#include "apps/profile_cmd.hpp"
#include "core/memory.hpp"
#include "input/keyword_reader.hpp"
#include "mesh/decompose.hpp"
#ifdef PARCAE_WITH_LINALG
#include "solvers/implicit/implicit_solver.hpp"
#endif
#include "par/comm.hpp"
#include "prof/phase.hpp"
#include "solvers/common/checkpoint.hpp"
#include "solvers/common/contact_weights.hpp"
#include "solvers/explicit/solver.hpp"

namespace {

using namespace parcae;

int report_input_error(const std::exception& e, const par::Comm& comm) {
  if (comm.rank() != 0) return 1; // every rank read the same deck: rank 0 speaks for all
  print_input_error(e);
  return 1;
}

void print_notes(const Model& model) {
  for (const auto& n : model.notes)
    std::cerr << fmt::format("warning: {}: {}: {}{}\n", n.loc.str(), n.keyword,
                             n.message.empty() ? "accepted but not used" : n.message,
                             n.error ? " (ignored: --ignore-unsupported)" : "");
}

int cmd_check(const std::string& deck, const ReadOptions& read) {
  Model model = read_deck(deck, read);
  std::cout << fmt::format("{}: deck is valid\n", deck);
  std::cout << fmt::format("  {} nodes, {} solids, {} shells, {} beams, {} parts, {} materials\n",
                           model.nodes.size(), model.solids.size(), model.shells.size(),
                           model.beams.size(), model.parts.size(), model.materials.size());
  std::cout << "keywords used:\n";
  for (const auto& k : model.keywords_used) std::cout << "  " << k << "\n";
  // One line per keyword and message (the first place it was seen, and how often).
  std::map<std::pair<std::string, std::string>, std::pair<const KeywordNote*, int>> seen;
  std::vector<const KeywordNote*> order;
  for (const auto& n : model.notes) {
    auto [it, fresh] = seen.try_emplace({n.keyword, n.message}, &n, 0);
    ++it->second.second;
    if (fresh) order.push_back(&n);
  }
  std::cout << (order.empty() ? "warnings: none\n" : "warnings:\n");
  for (const KeywordNote* n : order) {
    const int count = seen.at({n->keyword, n->message}).second;
    std::cout << fmt::format("  {}: {}: {}{}\n", n->loc.str(), n->keyword,
                             n->message.empty() ? "accepted but not used" : n->message,
                             count > 1 ? fmt::format(" ({} times)", count) : "");
  }
  return 0;
}

/// The command-line transformation ("sy=2,rz=30": scale or rotate, in order), applied after
/// the deck's *CONTROL_MPP_DECOMPOSITION_TRANSFORMATION cards.
std::array<Real, 9> parse_transform(const std::string& text) {
  std::array<Real, 9> m{1, 0, 0, 0, 1, 0, 0, 0, 1};
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    const auto eq = item.find('=');
    if (eq == std::string::npos || eq != 2)
      throw InputError({"--decomp-transform", 0, ""},
                       "expected items like sx=2 or rz=30 (degrees), got \"" + item + "\"");
    const std::string key = item.substr(0, 2);
    char* end = nullptr;
    const Real v = std::strtod(item.c_str() + 3, &end);
    if (end == item.c_str() + 3 || *end != '\0')
      throw InputError({"--decomp-transform", 0, ""}, "not a number in \"" + item + "\"");
    std::array<Real, 9> t{1, 0, 0, 0, 1, 0, 0, 0, 1};
    const int axis = key[1] - 'x';
    if ((key[0] != 's' && key[0] != 'r') || axis < 0 || axis > 2)
      throw InputError({"--decomp-transform", 0, ""}, "unknown transformation \"" + key + "\"");
    if (key[0] == 's') {
      if (!(v != 0)) throw InputError({"--decomp-transform", 0, ""}, "scale factor 0");
      t[4 * axis] = v;
    } else {
      const Real a = v * M_PI / 180.0, c = std::cos(a), sn = std::sin(a);
      const int i = (axis + 1) % 3, j = (axis + 2) % 3;
      t[3 * i + i] = c;
      t[3 * i + j] = -sn;
      t[3 * j + i] = sn;
      t[3 * j + j] = c;
    }
    std::array<Real, 9> r{};
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b)
        for (int k = 0; k < 3; ++k) r[3 * a + b] += t[3 * a + k] * m[3 * k + b];
    m = r;
  }
  return m;
}

DecompOptions decomp_options(const Model& model, int nparts, const std::string& method,
                             const std::string& transform) {
  DecompOptions o = decomp_options_from_model(model, nparts);
  if (method == "rcb") o.method = DecompMethod::Rcb;
  if (method == "metis") o.method = DecompMethod::Metis;
  if (!transform.empty()) {
    const auto t = parse_transform(transform);
    std::array<Real, 9> r{};
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b)
        for (int k = 0; k < 3; ++k) r[3 * a + b] += t[3 * a + k] * o.transform[3 * k + b];
    o.transform = r;
  }
  // Elements on contact surfaces weigh more (contact search and forces per contact node).
  if (!model.contacts.empty()) set_contact_fractions(model, o);
  return o;
}

int cmd_decompose(const std::string& deck, int np, const std::string& method,
                  const std::string& transform, const std::string& outdir) {
  Model model = read_deck(deck, ReadOptions{true});
  const DecompOptions o = decomp_options(model, np, method, transform);
  const Decomposition d = decompose(model, o);
  const DecompReport r = analyse_decomposition(model, d, o);
  std::cout << format_decomposition_report(r);
  const std::string dir =
      outdir.empty() ? std::filesystem::path(deck).stem().string() + ".decomp" : outdir;
  std::filesystem::create_directories(dir);
  const std::string vtu = (std::filesystem::path(dir) / "decomposition.vtu").string();
  write_decomposition_vtk(vtu, model, d);
  std::cout << "wrote " << vtu << " (cell array \"rank\")\n";
  return 0;
}

/// Output switches of `parcae run`.
struct OutputFlags {
  bool vtk = false;    ///< --vtk: the VTK series is written only when asked
  bool no_vtk = false; ///< --no-vtk: the default, kept for scripts that say it
  bool no_d3plot = false;
  int d3plot_words = 4;
};

/// SIGTERM / SIGINT: ask the run to write a checkpoint and stop; a second signal ends the
/// process at once (default action).
volatile int g_stop_request = 0;
extern "C" void on_stop_signal(int sig) {
  g_stop_request = 1;
  std::signal(sig, SIG_DFL);
}

/// "500" (cycles) or "30s" / "5m" / "2h" (wall-clock seconds) for --checkpoint-every.
void parse_checkpoint_every(const std::string& text, RunOptions& opt) {
  if (text.empty()) return;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  const std::string unit = end ? std::string(end) : "";
  if (end == text.c_str() || !(v > 0))
    throw InputError({"--checkpoint-every", 0, ""},
                     "expected a cycle count (500) or a time (30s, 5m, 2h), got \"" + text + "\"");
  if (unit.empty()) {
    if (v != std::floor(v))
      throw InputError({"--checkpoint-every", 0, ""}, "a cycle count must be a whole number");
    opt.checkpoint_every_cycles = static_cast<int>(v);
  } else if (unit == "s" || unit == "m" || unit == "h") {
    opt.checkpoint_every_seconds = v * (unit == "s" ? 1 : unit == "m" ? 60 : 3600);
  } else {
    throw InputError({"--checkpoint-every", 0, ""},
                     "unknown unit \"" + unit + "\" (use s, m or h, or no unit for cycles)");
  }
}

/// An implicit deck (*CONTROL_IMPLICIT_GENERAL IMFLAG = 1): statics, dynamics or eigenvalues.
int run_implicit_deck(const Model& model, const RunOptions& opt, const std::string& scratch,
                      const par::Comm& comm) {
#ifdef PARCAE_WITH_LINALG
  ImplicitOptions iopt;
  iopt.scratch_dir = scratch;
  const ImplicitResult r = run_implicit(model, opt, iopt);
  const bool root = comm.rank() == 0;
  if (r.summary.interrupted) {
    if (root)
      std::cerr << fmt::format("parcae: stopped on request; continue with: parcae run --restart "
                               "{}\n",
                               opt.outdir);
    return 4;
  }
  if (!r.summary.normal_termination) {
    if (root) std::cerr << "parcae: run stopped: " << r.summary.error << "\n";
    return 2;
  }
  if (root)
    std::cout << fmt::format(
        "normal termination: {} steps, {} equations, {:.2f} s (factorisation "
        "{:.2f} s, MUMPS memory {:.0f} MB{})\n",
        r.steps, r.equations, r.summary.elapsed_s, r.factor_seconds, r.factor_memory_mb,
        r.out_of_core ? fmt::format(", out of core: {} bytes of scratch", r.scratch_bytes) : "");
  return 0;
#else
  (void)opt;
  (void)scratch;
  (void)comm;
  throw InputError(model.control.implicit.general_loc,
                   "*CONTROL_IMPLICIT_GENERAL IMFLAG = 1: this parcae build has no implicit "
                   "solver (it needs PETSc/MUMPS/SLEPc on Open MPI: build with the release "
                   "preset, not release-mpich)");
#endif
}

int cmd_run(std::string deck, std::string outdir, int threads, const ReadOptions& read,
            double end_time, int end_cycle, const std::string& method, const std::string& transform,
            const std::string& checkpoint_every, const std::string& restart, bool profile,
            const std::string& profile_dir, const OutputFlags& out, const std::string& scratch,
            const par::Comm& comm) {
  const bool root = comm.rank() == 0;
  // Reading, checking and decomposing the deck: the profile's "setup" phase.
  std::optional<prof::PhaseScope> setup(std::in_place, prof::phase_id("setup"));
  RunOptions opt;
  parse_checkpoint_every(checkpoint_every, opt);
  if (!restart.empty()) {
    // The checkpoint names its deck and lives in <outdir>/checkpoints/cycle-N.
    namespace fs = std::filesystem;
    const CheckpointInfo info = find_checkpoint(restart, /*verify=*/false);
    if (deck.empty()) deck = info.deck;
    if (deck.empty())
      throw RuntimeError("restart: the checkpoint does not name its deck; give the deck");
    if (outdir.empty())
      outdir = fs::exists(fs::path(restart) / "manifest.json")
                   ? fs::path(restart).parent_path().parent_path().string()
                   : restart;
    opt.restart_from = restart;
  }
  if (deck.empty()) throw InputError({"parcae run", 0, ""}, "no deck given");
  Model model = read_deck(deck, read);
  mark_memory("deck read");
  if (root) print_notes(model);
  if (end_cycle > 0) {
    if (root)
      std::cout << fmt::format("end cycle {} (--end-cycle, LS-DYNA's ENDCYC; the deck's is {})\n",
                               end_cycle, model.control.endcyc);
    model.control.endcyc = end_cycle;
  }
  if (end_time > 0) {
    if (root)
      std::cout << fmt::format("end time {} (--end-time; the deck's ENDTIM is {})\n", end_time,
                               model.control.endtim);
    model.control.endtim = end_time;
  }
  opt.deck_path = std::filesystem::absolute(deck).string();
  opt.outdir = outdir.empty() ? (std::filesystem::path(deck).stem().string() + ".out") : outdir;
  opt.stop_request = &g_stop_request;
  opt.write_vtk = out.vtk && !out.no_vtk;
  opt.write_d3plot = !out.no_d3plot;
  opt.d3plot_word_bytes = out.d3plot_words;
  if (profile) {
    const std::string dir = profile_dir.empty()
                                ? (std::filesystem::path(opt.outdir) / "profile").string()
                                : profile_dir;
    prof::set_output(dir);
    prof::set_metadata("program", "parcae run");
    prof::set_metadata("deck", opt.deck_path);
    if (threads > 0) ::setenv("OMP_NUM_THREADS", std::to_string(threads).c_str(), 1);
    if (root) std::cout << fmt::format("MPI profile -> {}/profile.json\n", dir);
  }
  std::signal(SIGTERM, on_stop_signal);
  std::signal(SIGINT, on_stop_signal);
  opt.threads = threads;
  opt.log = root ? &std::cout : nullptr;
  opt.comm = &comm;
  ElementRanks ranks;
  if (comm.size() > 1) {
    const Decomposition d = decompose(model, decomp_options(model, comm.size(), method, transform));
    ranks.solid = d.solid_rank;
    ranks.shell = d.shell_rank;
    ranks.beam = d.beam_rank;
    opt.ranks = &ranks;
  }
  if (root) {
    std::cout << fmt::format("parcae run {} -> {}\n", deck, opt.outdir);
    if (comm.size() > 1)
      std::cout << fmt::format("MPP: {} ranks ({}), decomposition {}\n", comm.size(),
                               par::mpi_library_version(), method.empty() ? "from deck" : method);
  }
  setup.reset();
  if (model.control.implicit.imflag == 1) return run_implicit_deck(model, opt, scratch, comm);
  const RunSummary s = run_explicit(model, opt);
  if (s.interrupted) {
    if (root)
      std::cerr << fmt::format("parcae: stopped on request; continue with: parcae run --restart "
                               "{}\n",
                               opt.outdir);
    return 4;
  }
  if (!s.normal_termination) {
    if (root) std::cerr << "parcae: run stopped: " << s.error << "\n";
    return 2;
  }
  return 0;
}

/// `parcae check DECK [--ignore-unsupported] [--case N]` and `parcae keywords`, without MPI.
int run_serial_command(int argc, char** argv) {
  CLI::App app{"parcae: parallel explicit dynamics for LS-DYNA keyword decks"};
  app.require_subcommand(1);
  std::string deck;
  ReadOptions read;
  auto* check = app.add_subcommand("check", "read and validate a deck without running it");
  check->add_option("deck", deck, "keyword deck (.k)")->required();
  check->add_flag("--ignore-unsupported", read.ignore_unsupported,
                  "warn about unsupported keywords");
  check->add_option("--case", read.case_id, "check the base model with case n's blocks")
      ->check(CLI::Range(1, 1 << 30));
  auto* kw = app.add_subcommand("keywords", "print the keyword coverage table (Markdown)");
  bool match = false;
  kw->add_flag("--match", match,
               "read keyword names from standard input; print which card table reads each");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  const par::Comm self; // single-process: messages are printed as on rank 0
  try {
    if (*kw) {
      if (match) {
        std::stringstream names;
        names << std::cin.rdbuf();
        std::cout << keyword_match_table(names.str());
      } else {
        std::cout << keyword_coverage_markdown();
      }
      return 0;
    }
    return cmd_check(deck, read);
  } catch (const InputError& e) {
    return report_input_error(e, self);
  } catch (const DeckErrors& e) {
    return report_input_error(e, self);
  } catch (const std::exception& e) {
    std::cerr << "parcae: internal error: " << e.what() << "\n";
    return 3;
  }
}

} // namespace

int main(int argc, char** argv) {
  // OpenMP workers that spin while waiting steal the cores from the serial phases of a cycle
  // and from the other MPI ranks (measured on the 51,200-hexahedron scaling deck with 2
  // threads: 2.84 s spinning, 0.76 s passive). The runtime reads the policy when it loads, so
  // set it and start again, unless the user chose one.
  // `check` and `keywords` run no threads: they skip the second start (loading the libraries
  // again costs about 40 ms).
  const bool serial = argc >= 2 && (std::string_view(argv[1]) == "check" ||
                                    std::string_view(argv[1]) == "keywords");
  if (!std::getenv("OMP_WAIT_POLICY") && !serial) {
    ::setenv("OMP_WAIT_POLICY", "PASSIVE", 1);
    ::execv("/proc/self/exe", argv);
  }
  // `parcae profile ...` starts other programs; it never initialises MPI itself.
  if (const int rc = parcae::maybe_run_profile_command(argc, argv); rc >= 0) return rc;
  // `parcae bench|whatif|cluster|generate|storage-study ...` are Python tools
  // (python/parcae_tools).
  if (const int rc = parcae::maybe_run_python_command(argc, argv); rc >= 0) return rc;
  // A run with --np starts mpirun on this same program (and does not return).
  if (const int rc = parcae::maybe_launch_mpirun(argc, argv); rc >= 0) return rc;
  // `check` and `keywords` read files and print: they never start MPI (starting it costs more
  // than checking a small deck).
  if (argc >= 2 &&
      (std::string_view(argv[1]) == "check" || std::string_view(argv[1]) == "keywords"))
    return run_serial_command(argc, argv);

  par::Environment env(argc, argv);
  const par::Comm comm = par::Comm::from_handle(par::world_handle());
  // `parcae cfd cavity|dambreak|run ...` (apps/cfd_cmd.cpp).
  if (const int rc = maybe_run_cfd_command(argc, argv, comm); rc >= 0) return rc;
  CLI::App app{"parcae: parallel explicit dynamics for LS-DYNA keyword decks"};
  app.require_subcommand(1);
  std::string deck, outdir, method, transform, checkpoint_every, restart, profile_dir;
  int threads = 0, np = 1;
  ReadOptions read;
  bool& ignore = read.ignore_unsupported;
  double end_time = 0;
  int end_cycle = 0;
  auto* run = app.add_subcommand("run", "run a keyword deck");
  run->add_option("deck", deck, "keyword deck (.k); optional with --restart");
  run->add_option("-o,--outdir", outdir, "output directory (default: <deck stem>.out)");
  run->add_option("--threads", threads, "OpenMP threads per rank")->check(CLI::Range(1, 1024));
  run->add_flag("--ignore-unsupported", ignore, "warn about unsupported keywords, do not stop");
  run->add_option("--end-time", end_time,
                  "stop at this time instead of the deck's ENDTIM (a shortened run of a long "
                  "deck; the deck is not changed)")
      ->check(CLI::PositiveNumber);
  run->add_option("--end-cycle", end_cycle,
                  "stop after this many cycles (LS-DYNA's ENDCYC of *CONTROL_TERMINATION, on "
                  "the command line: a benchmark window; the deck is not changed)")
      ->check(CLI::Range(1, 2147483647));
  run->add_option("--case", read.case_id,
                  "read the deck's *CASE_BEGIN_n ... *CASE_END_n blocks of case n (default: "
                  "none, the base model)")
      ->check(CLI::Range(1, 1 << 30));
  run->add_option("--decomp", method, "decomposition method (default: the deck's, else rcb)")
      ->check(CLI::IsMember({"rcb", "metis"}));
  run->add_option("--decomp-transform", transform,
                  "transform element centroids before bisection, e.g. sy=2,rz=30 (LS-DYNA's "
                  "decomp { sy 2 }); applied after the deck's transformation cards");
  bool deterministic = true;
  run->add_flag("--deterministic", deterministic,
                "results bitwise identical for any rank and thread count (always the case in "
                "parcae: fixed-order force assembly and exact global sums)");
  run->add_option("--checkpoint-every", checkpoint_every,
                  "write a restart checkpoint every N cycles (500) or every interval of wall "
                  "time (30s, 5m, 2h); SIGTERM/SIGINT always write one and stop");
  run->add_option("--restart", restart,
                  "continue from a checkpoint: a run's output directory (its newest checkpoint) "
                  "or <outdir>/checkpoints/cycle-N");
  auto* profile = run->add_option("--profile", profile_dir,
                                  "write an MPI profile (profile.json, profile.csv) into DIR "
                                  "(default OUTDIR/profile); see `parcae profile report`")
                      ->expected(0, 1);
  OutputFlags out_flags;
  std::string scratch;
  run->add_option("--scratch", scratch,
                  "implicit decks: directory for the out-of-core solver's scratch files "
                  "(default: the output directory; per-rank subfolders, removed after a normal "
                  "run, kept after a failure)");
  run->add_flag("--vtk", out_flags.vtk,
                "also write the plot states as a VTK time series (parcae.pvd, states/) for "
                "ParaView; the d3plot, which ParaView and LS-PrePost open too, is always written");
  run->add_flag("--no-vtk", out_flags.no_vtk, "no VTK time series (the default)");
  run->add_flag("--no-d3plot", out_flags.no_d3plot, "do not write the d3plot family");
  run->add_option("--d3plot-words", out_flags.d3plot_words,
                  "d3plot word size: 4 (single precision, LS-DYNA's default) or 8")
      ->check(CLI::IsMember({4, 8}));
  add_launch_options(*run);
  auto* check = app.add_subcommand("check", "read and validate a deck without running it");
  check->add_option("deck", deck, "keyword deck (.k)")->required();
  check->add_flag("--ignore-unsupported", ignore, "warn about unsupported keywords");
  check->add_option("--case", read.case_id, "check the base model with case n's blocks")
      ->check(CLI::Range(1, 1 << 30));
  auto* dec = app.add_subcommand("decompose", "decompose a deck for N ranks and report");
  dec->add_option("deck", deck, "keyword deck (.k)")->required();
  dec->add_option("--np", np, "number of ranks")->required()->check(CLI::Range(1, 1 << 20));
  dec->add_option("--decomp", method, "rcb or metis")->check(CLI::IsMember({"rcb", "metis"}));
  dec->add_option("--decomp-transform", transform, "e.g. sy=2,rz=30 (see run --help)");
  dec->add_option("-o,--outdir", outdir, "where to write decomposition.vtu");
  auto* kw = app.add_subcommand("keywords", "print the keyword coverage table (Markdown)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return comm.rank() == 0 ? app.exit(e) : (e.get_exit_code() == 0 ? 0 : 1);
  }
  try {
    if (*kw) {
      std::cout << keyword_coverage_markdown();
      return 0;
    }
    if (*check) return cmd_check(deck, read);
    if (*dec) return cmd_decompose(deck, np, method, transform, outdir);
    return cmd_run(deck, outdir, threads, read, end_time, end_cycle, method, transform,
                   checkpoint_every, restart, profile->count() > 0, profile_dir, out_flags, scratch,
                   comm);
  } catch (const InputError& e) {
    return report_input_error(e, comm);
  } catch (const DeckErrors& e) {
    return report_input_error(e, comm);
  } catch (const RuntimeError& e) {
    if (comm.rank() == 0) std::cerr << "parcae: error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    // Something only this rank saw: end the whole job rather than leave the others waiting.
    if (comm.size() > 1) comm.abort(std::string("internal error: ") + e.what(), 3);
    std::cerr << "parcae: internal error: " << e.what() << "\n";
    return 3;
  }
}
