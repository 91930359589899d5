#include "apps/launch.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

#include <fmt/format.h>

#include "input/keyword_reader.hpp"
#include "par/comm.hpp"
#ifdef PARCAE_WITH_LINALG
#include "solvers/cfd/cfd_case.hpp"
#endif

namespace parcae {

namespace {

bool inside_mpi_job() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMI_RANK", "PMIX_RANK",
                        "MPI_LOCALNRANKS", "HYDRA_CONTROL_FD"})
    if (std::getenv(v)) return true;
  return false;
}

/// Sockets (distinct "physical id"s in /proc/cpuinfo; 1 when unknown).
int socket_count() {
  std::ifstream in("/proc/cpuinfo");
  std::set<std::string> ids;
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("physical id", 0) == 0) ids.insert(line.substr(line.find(':') + 1));
  return ids.empty() ? 1 : static_cast<int>(ids.size());
}

std::string self_path() {
  std::error_code ec;
  const auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("parcae") : p.string();
}

/// The parcae binary built against the requested library: this one, or its sibling build
/// (build/release <-> build/release-mpich).
std::string binary_for(const std::string& mpi) {
  const std::string self = self_path();
  const bool self_mpich = par::mpi_library_version().find("MPICH") != std::string::npos;
  if ((mpi == "mpich") == self_mpich) return self;
  std::string other = self;
  const std::string a = "/release/bin/", b = "/release-mpich/bin/";
  if (mpi == "mpich" && other.find(a) != std::string::npos)
    other.replace(other.find(a), a.size(), b);
  else if (mpi != "mpich" && other.find(b) != std::string::npos)
    other.replace(other.find(b), b.size(), a);
  if (other != self && std::filesystem::exists(other)) return other;
  return {};
}

} // namespace

void add_launch_options(CLI::App& run) {
  run.add_option("--np", "number of MPI ranks: starts mpirun for you (prints the command)");
  run.add_option("--mpi", "MPI library for --np: openmpi (default) or mpich")
      ->check(CLI::IsMember({"openmpi", "mpich"}));
  run.add_option("--transport", "Open MPI transport for --np: shm (default) or tcp (loopback)")
      ->check(CLI::IsMember({"shm", "tcp"}));
}

void print_input_error(const std::exception& e) {
  std::cerr << "parcae: input error\n";
  if (const auto* many = dynamic_cast<const DeckErrors*>(&e)) {
    for (const auto& err : many->errors()) std::cerr << "  " << err.what() << "\n";
    std::cerr << fmt::format("{} problem(s); nothing was run.\n", many->errors().size());
  } else {
    std::cerr << "  " << e.what() << "\n";
  }
}

namespace {

/// The input file of a launched command line (`run DECK ...`, `cfd run CASE ...`; rest without
/// the launcher's own options) and how it is read; path empty when it has none (a restart
/// without a deck, `cfd cavity`).
struct LaunchInput {
  std::string path;
  bool cfd = false;
  ReadOptions read;
};

LaunchInput launch_input(const std::vector<std::string>& rest) {
  LaunchInput in;
  std::size_t i = 1;
  if (rest.at(0) == "cfd") {
    if (rest.size() < 2 || rest[1] != "run") return in;
    in.cfd = true;
    i = 2;
  }
  // the options of `run` / `cfd run` that take a value (--profile: an optional one)
  // (--threads and --bind arrive here as --threads=T, --bind=B)
  static const std::set<std::string> valued = {
      "-o",        "--outdir",  "--end-time",         "--end-cycle",
      "--case",    "--decomp",  "--decomp-transform", "--checkpoint-every",
      "--restart", "--scratch", "--d3plot-words"};
  for (; i < rest.size(); ++i) {
    const std::string& a = rest[i];
    if (a == "--ignore-unsupported") in.read.ignore_unsupported = true;
    if (a.rfind("--case=", 0) == 0) in.read.case_id = std::atoi(a.c_str() + 7);
    if (a == "--case" && i + 1 < rest.size()) in.read.case_id = std::atoi(rest[i + 1].c_str());
    if (valued.count(a)) {
      ++i;
    } else if (a == "--profile") {
      if (i + 1 < rest.size() && rest[i + 1].rfind('-', 0) != 0) ++i;
    } else if (!a.empty() && a[0] != '-' && in.path.empty()) {
      in.path = a;
    }
  }
  return in;
}

/// Reads the deck or case once before mpirun starts: a bad input gets its one clear error and
/// exit code 1 here, not N ranks' copies followed by the launcher's abort report. 0 when it reads.
int check_before_launch(const LaunchInput& in) {
  if (in.path.empty()) return 0;
  try {
    if (in.cfd) {
#ifdef PARCAE_WITH_LINALG // (a build without the CFD solver says so when the command runs)
      (void)cfd::read_cfd_case(in.path);
#endif
    } else {
      (void)read_deck(in.path, in.read);
    }
  } catch (const InputError& e) {
    print_input_error(e);
    return 1;
  } catch (const DeckErrors& e) {
    print_input_error(e);
    return 1;
  } catch (const std::exception& e) { // e.g. a YAML syntax error the case reader passes on
    print_input_error(InputError({in.path, 0, ""}, e.what()));
    return 1;
  }
  return 0;
}

} // namespace

int maybe_launch_mpirun(int argc, char** argv) {
  if (argc < 2 || (std::string(argv[1]) != "run" && std::string(argv[1]) != "cfd")) return -1;
  int np = 0, threads = 1;
  std::string mpi = "openmpi", transport = "shm", bind;
  std::vector<std::string> rest;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](const std::string& flag) -> std::string {
      if (a.rfind(flag + "=", 0) == 0) return a.substr(flag.size() + 1);
      if (a == flag && i + 1 < argc) return argv[++i];
      return {};
    };
    if (a == "--np" || a.rfind("--np=", 0) == 0) {
      np = std::atoi(value("--np").c_str());
      continue;
    }
    if (a == "--mpi" || a.rfind("--mpi=", 0) == 0) {
      mpi = value("--mpi");
      continue;
    }
    if (a == "--transport" || a.rfind("--transport=", 0) == 0) {
      transport = value("--transport");
      continue;
    }
    if (a == "--bind" || a.rfind("--bind=", 0) == 0) {
      bind = value("--bind"); // also passed on: the run header prints the placement
      rest.push_back("--bind=" + bind);
      continue;
    }
    if (a == "--threads" || a.rfind("--threads=", 0) == 0) {
      const std::string v = value("--threads");
      threads = std::max(1, std::atoi(v.c_str()));
      rest.push_back("--threads=" + v);
      continue;
    }
    rest.push_back(a);
  }
  if (np <= 0) return -1;
  if (inside_mpi_job()) return -1; // already under mpirun: --np is informational
  if (mpi != "openmpi" && mpi != "mpich") {
    std::cerr << "parcae: --mpi must be openmpi or mpich\n";
    return 1;
  }
  const std::string exe = binary_for(mpi);
  if (exe.empty()) {
    std::cerr << fmt::format("parcae: this parcae is built with {}; build the {} one first "
                             "(cmake --preset {} && cmake --build --preset {})\n",
                             par::mpi_library_version(), mpi,
                             mpi == "mpich" ? "release-mpich" : "release",
                             mpi == "mpich" ? "release-mpich" : "release");
    return 1;
  }
  if (const int rc = check_before_launch(launch_input(rest)); rc != 0) return rc;
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const bool oversubscribed = static_cast<unsigned>(np * threads) > cores;
  std::vector<std::string> cmd;
  if (mpi == "openmpi") {
    cmd = {"mpirun.openmpi", "-np", std::to_string(np)};
    if (::geteuid() == 0) cmd.push_back("--allow-run-as-root");
    if (oversubscribed) cmd.push_back("--oversubscribe");
    // PARCAE_MPI_BIND=none (without --bind): concurrent jobs on one node (parcae storage-study)
    // must not all pin their ranks to the same first cores.
    const char* env_bind = std::getenv("PARCAE_MPI_BIND");
    if (bind.empty() && env_bind && std::string(env_bind) == "none") bind = "node";
    if (oversubscribed) {
      if (!bind.empty() && bind != "node")
        std::cerr << fmt::format("parcae: {} ranks x {} threads exceed the {} cores: --bind {} "
                                 "ignored (no binding)\n",
                                 np, threads, cores, bind);
      cmd.insert(cmd.end(), {"--bind-to", "none"});
    } else if (bind == "socket") {
      // Hybrid placement: each rank and its threads on one socket (NUMA domain), ranks spread
      // over the sockets round-robin; threads placed close to each other inside it. With more
      // ranks than sockets, ranks share a socket: their threads are then left to float in it
      // (pinning them "close" would put every rank's first thread on the same core).
      cmd.insert(cmd.end(), {"--map-by", "socket", "--bind-to", "socket"});
      if (np <= socket_count())
        cmd.insert(cmd.end(), {"-x", "OMP_PLACES=cores", "-x", "OMP_PROC_BIND=close"});
      else
        std::cerr << fmt::format("parcae: {} ranks on {} socket(s): ranks share sockets, threads "
                                 "not pinned inside them\n",
                                 np, socket_count());
    } else if (bind == "core") {
      cmd.insert(cmd.end(), {"--map-by", fmt::format("slot:PE={}", threads), "--bind-to", "core",
                             "-x", "OMP_PLACES=cores", "-x", "OMP_PROC_BIND=close"});
    } else if (bind == "node" || threads > 1) {
      cmd.insert(cmd.end(), {"--bind-to", "none"});
    } else {
      cmd.insert(cmd.end(), {"--bind-to", "core"});
    }
    if (transport == "tcp")
      cmd.insert(cmd.end(), {"--mca", "btl", "self,tcp", "--mca", "btl_tcp_if_include", "lo"});
    else
      cmd.insert(cmd.end(), {"--mca", "btl", "self,vader"});
    cmd.insert(cmd.end(), {"-x", "OMP_NUM_THREADS=" + std::to_string(threads)});
  } else {
    if (oversubscribed) {
      std::cerr << fmt::format("parcae: MPICH busy-polls: {} ranks x {} threads on {} cores "
                               "would crawl; use --mpi openmpi to oversubscribe\n",
                               np, threads, cores);
      return 1;
    }
    cmd = {"mpirun.mpich",         "-np", std::to_string(np), "-genv", "OMP_NUM_THREADS",
           std::to_string(threads)};
    // hydra's -iface only picks the interface: ranks of one host would still use shared
    // memory. NOLOCAL sends them through the network module (Debian's MPICH is ch4:ucx),
    // and UCX_TLS keeps UCX on TCP over loopback.
    if (transport == "tcp")
      cmd.insert(cmd.end(), {"-iface", "lo", "-genv", "MPIR_CVAR_NOLOCAL", "1", "-genv", "UCX_TLS",
                             "tcp,self", "-genv", "UCX_NET_DEVICES", "lo"});
  }
  cmd.push_back(exe);
  cmd.insert(cmd.end(), rest.begin(), rest.end());
  std::string line;
  for (const auto& c : cmd) line += (line.empty() ? "" : " ") + c;
  std::cout << "parcae: launching: " << line << std::endl;
  std::vector<char*> args;
  for (auto& c : cmd) args.push_back(c.data());
  args.push_back(nullptr);
  ::execvp(args[0], args.data());
  std::cerr << "parcae: cannot start " << cmd[0] << " (is it installed?)\n";
  return 1;
}

} // namespace parcae
