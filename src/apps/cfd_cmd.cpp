// parcae cfd cavity --re RE --cells N [--dim 2|3] [--np N] [--threads T] [--bind socket|node|core]
// [-o OUT] parcae cfd dambreak [--cells-per-a N] [--end-time T] [...] parcae cfd run CASE.yaml
// parcae cfd preview CASE.yaml [-o OUT]
// [--np N] [--threads T] [-o OUT] Common: --profile [DIR], --checkpoint-every N, --restart DIR,
// --end-time T.
#include "apps/cfd_cmd.hpp"

#include <csignal>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sched.h>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "core/error.hpp"
#include "prof/phase.hpp"
#ifdef PARCAE_WITH_LINALG
#include "solvers/cfd/cfd_solver.hpp"
#endif

namespace parcae {

#ifdef PARCAE_WITH_LINALG
namespace {

volatile int g_cfd_stop = 0;
extern "C" void on_cfd_stop(int sig) {
  g_cfd_stop = 1;
  std::signal(sig, SIG_DFL);
}

/// This process's CPU affinity as "0-3,8" style text.
std::string affinity_text() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return "?";
  std::string out;
  int start = -1, prev = -2;
  auto flush = [&] {
    if (start < 0) return;
    out += (out.empty() ? "" : ",") +
           (prev == start ? std::to_string(start) : fmt::format("{}-{}", start, prev));
  };
  for (int c = 0; c < CPU_SETSIZE; ++c) {
    if (!CPU_ISSET(c, &set)) continue;
    if (c != prev + 1) {
      flush();
      start = c;
    }
    prev = c;
  }
  flush();
  return out;
}

} // namespace
#endif

int maybe_run_cfd_command(int argc, char** argv, const par::Comm& comm) {
  if (argc < 2 || std::string(argv[1]) != "cfd") return -1;
#ifndef PARCAE_WITH_LINALG
  (void)comm;
  std::cerr
      << "parcae: this build has no CFD solver (needs hypre on Open MPI: PARCAE_WITH_LINALG)\n";
  return 1;
#else
  const bool root = comm.rank() == 0;
  CLI::App app{"parcae cfd: incompressible free-surface CFD (docs/cfd.md)"};
  app.require_subcommand(1);
  std::string outdir, case_path, bind = "node", profile_dir, restart;
  double re = 100, end_time = 0;
  int cells = 64, dim = 2, threads = 0, np = 1, checkpoint_every = 0, cells_per_a = 16;
  auto common = [&](CLI::App* s) {
    s->add_option("-o,--outdir", outdir, "output directory");
    s->add_option("--threads", threads, "OpenMP threads per rank")->check(CLI::Range(1, 1024));
    s->add_option("--np", np, "MPI ranks: starts mpirun for you (prints the command)");
    s->add_option("--bind", bind,
                  "placement with --np: socket (each rank and its threads on one socket/NUMA "
                  "domain), core (each rank on --threads cores) or node (no binding)")
        ->check(CLI::IsMember({"socket", "node", "core"}));
    s->add_option("--mpi", "MPI library for --np (openmpi)");
    s->add_option("--transport", "Open MPI transport for --np: shm or tcp");
    s->add_option("--end-time", end_time, "end time (overrides the case)")
        ->check(CLI::PositiveNumber);
    s->add_option("--checkpoint-every", checkpoint_every,
                  "write a restart checkpoint every N steps");
    s->add_option("--restart", restart, "continue from a checkpoint (a run's output directory)");
    return s
        ->add_option("--profile", profile_dir,
                     "write an MPI profile with the CFD phases into DIR "
                     "(default OUTDIR/profile)")
        ->expected(0, 1);
  };
  auto* cav = app.add_subcommand("cavity", "lid-driven cavity (writes OUT/case.yaml and runs it)");
  cav->add_option("--re", re, "Reynolds number U L / nu")->check(CLI::PositiveNumber);
  cav->add_option("--cells", cells, "cells per side")->check(CLI::Range(4, 1 << 16));
  cav->add_option("--dim", dim, "2 or 3")->check(CLI::IsMember({2, 3}));
  auto* cav_prof = common(cav);
  auto* dam =
      app.add_subcommand("dambreak", "Martin & Moyce dam break (writes OUT/case.yaml and runs it)");
  dam->add_option("--cells", cells_per_a, "cells across the water column width a")
      ->check(CLI::Range(4, 4096));
  auto* dam_prof = common(dam);
  auto* run = app.add_subcommand("run", "run a case file (YAML)");
  run->add_option("case", case_path, "case file (.yaml)")->required();
  auto* run_prof = common(run);
  auto* preview = app.add_subcommand(
      "preview", "write what the solver sees of a case (open fractions, initial liquid) as VTK");
  preview->add_option("case", case_path, "case file (.yaml)")->required();
  preview->add_option("-o,--outdir", outdir, "output directory");
  try {
    app.parse(argc - 1, argv + 1);
  } catch (const CLI::ParseError& e) {
    return root ? app.exit(e) : (e.get_exit_code() == 0 ? 0 : 1);
  }
  namespace fs = std::filesystem;
  try {
    cfd::CfdCase c;
    std::string path;
    if (*preview) {
      c = cfd::read_cfd_case(case_path);
      if (outdir.empty()) outdir = fs::path(case_path).stem().string() + ".preview";
      if (root) fs::create_directories(outdir);
      comm.barrier();
      cfd::write_cfd_preview(c, comm, outdir, root ? &std::cout : nullptr);
      return 0;
    }
    if (*run) {
      path = case_path;
      c = cfd::read_cfd_case(path);
      if (outdir.empty()) outdir = fs::path(path).stem().string() + ".out";
    } else {
      if (*cav) {
        c = cfd::cavity_case(re, cells, dim);
        if (outdir.empty()) outdir = fmt::format("cavity_re{}_{}", re, cells);
      } else {
        c = cfd::dambreak_case(cells_per_a, end_time > 0 ? end_time : 0.2);
        if (outdir.empty()) outdir = "dambreak";
      }
      path = (fs::path(outdir) / "case.yaml").string();
      if (root) {
        fs::create_directories(outdir);
        std::ofstream(path) << cfd::cfd_case_yaml(c);
      }
      comm.barrier();
      c = cfd::read_cfd_case(path); // the file is the case: run what was written
    }
    if (end_time > 0) c.end_time = end_time;
    if (*run && root && restart.empty()) {
      // The case as run, beside its results (reports read it; STL paths made absolute).
      fs::create_directories(outdir);
      const auto copy = fs::path(outdir) / "case.yaml";
      if (!fs::exists(copy) || !fs::equivalent(copy, path))
        std::ofstream(copy) << cfd::cfd_case_yaml(c);
    }
    const bool profile = cav_prof->count() + dam_prof->count() + run_prof->count() > 0;
    RunOptions opt;
    opt.outdir = outdir;
    opt.threads = threads;
    opt.comm = &comm;
    opt.log = root ? &std::cout : nullptr;
    opt.deck_path = fs::absolute(path).string();
    opt.checkpoint_every_cycles = checkpoint_every;
    opt.restart_from = restart;
    opt.stop_request = &g_cfd_stop;
    std::signal(SIGTERM, on_cfd_stop);
    std::signal(SIGINT, on_cfd_stop);
    if (profile) {
      const std::string dir =
          profile_dir.empty() ? (fs::path(outdir) / "profile").string() : profile_dir;
      prof::set_output(dir);
      prof::set_metadata("program", "parcae cfd");
      prof::set_metadata("case", opt.deck_path);
      prof::set_metadata("bind", bind);
      if (root) std::cout << fmt::format("MPI profile -> {}/profile.json\n", dir);
    }
    // Run header: the placement of every rank (its CPU set) as the launcher arranged it.
    const std::string aff = affinity_text();
    std::vector<double> mine(aff.begin(), aff.end());
    mine.push_back(-1);
    const auto all = comm.gatherv(mine, 0);
    if (root) {
      const char* env_threads = std::getenv("OMP_NUM_THREADS");
      std::cout << fmt::format("parcae cfd {} -> {}\n", path, outdir);
      std::cout << fmt::format(
          "placement: {} rank(s) x {} thread(s), --bind {}{}\n", comm.size(),
          threads > 0 ? std::to_string(threads) : (env_threads ? env_threads : "default"), bind,
          std::getenv("OMP_PROC_BIND")
              ? fmt::format(" (OMP_PROC_BIND={}, OMP_PLACES={})", std::getenv("OMP_PROC_BIND"),
                            std::getenv("OMP_PLACES") ? std::getenv("OMP_PLACES") : "")
              : "");
      int r = 0;
      std::string cur;
      for (double ch : all) {
        if (ch < 0) {
          std::cout << fmt::format("  rank {}: CPUs {}\n", r++, cur);
          cur.clear();
        } else {
          cur += static_cast<char>(ch);
        }
      }
    }
    cfd::CfdRunInfo info;
    const RunSummary s = cfd::run_cfd(c, opt, &info);
    if (s.interrupted) {
      if (root)
        std::cerr << fmt::format("parcae: stopped on request; continue with --restart {}\n",
                                 outdir);
      return 4;
    }
    if (!s.normal_termination && root) std::cerr << "parcae: run stopped: " << s.error << "\n";
    return s.normal_termination ? 0 : 2;
  } catch (const InputError& e) {
    if (root) std::cerr << "parcae: input error\n  " << e.what() << "\n";
    return 1;
  } catch (const RuntimeError& e) {
    if (root) std::cerr << "parcae: error: " << e.what() << "\n";
    return 2;
  }
#endif
}

} // namespace parcae
