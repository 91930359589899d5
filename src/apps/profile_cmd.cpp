#include "apps/profile_cmd.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace parcae {

namespace {

namespace fs = std::filesystem;

#ifndef PARCAE_PYTHON_DIR
#define PARCAE_PYTHON_DIR ""
#endif
#ifndef PARCAE_MPIPROF_OPENMPI_SO
#define PARCAE_MPIPROF_OPENMPI_SO ""
#endif
#ifndef PARCAE_MPIPROF_MPICH_SO
#define PARCAE_MPIPROF_MPICH_SO ""
#endif

const char* kUsage =
    "usage:\n"
    "  parcae profile [-o DIR] [--mpi openmpi|mpich] [--interval S] -- mpirun -np N PROGRAM ...\n"
    "      run any MPI program under the profiler (LD_PRELOAD of libparcae-mpiprof.so built\n"
    "      for its MPI library), write DIR/profile.json and profile.csv (default DIR:\n"
    "      parcae-profile), then print the report; a PROGRAM started without a launcher\n"
    "      that never initialises MPI still gets a profile of its POSIX I/O\n"
    "  parcae profile report PATH [--png DIR] [--top N]\n"
    "      tables (per function, per rank, per phase) and PNG figures of a profile\n"
    "  parcae profile compare A B [--png DIR] [--labels a,b]\n"
    "      two profiles side by side (e.g. shared memory vs TCP)\n"
    "  parcae run DECK --profile [DIR]   profiles a parcae run (DIR default: OUTDIR/profile)\n";

/// Exec a module of the Python tools (python/parcae_tools) with the source tree's python/ on
/// PYTHONPATH and PARCAE_EXE naming this binary (does not return unless exec fails).
int exec_python_module(const std::string& module, const std::vector<std::string>& args) {
  std::string path = PARCAE_PYTHON_DIR;
  if (const char* old = std::getenv("PYTHONPATH"); old && *old) path += std::string(":") + old;
  ::setenv("PYTHONPATH", path.c_str(), 1);
  // The system Python has the Debian packages (numpy, matplotlib); PARCAE_PYTHON overrides.
  std::string python = ::access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
  if (const char* e = std::getenv("PARCAE_PYTHON"); e && *e) python = e;
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec && !std::getenv("PARCAE_EXE")) ::setenv("PARCAE_EXE", self.c_str(), 1);
  std::vector<std::string> cmd = {python, "-m", module};
  cmd.insert(cmd.end(), args.begin(), args.end());
  std::vector<char*> cargv;
  for (auto& s : cmd) cargv.push_back(s.data());
  cargv.push_back(nullptr);
  ::execvp(python.c_str(), cargv.data());
  std::cerr << "parcae: cannot run " << python << ": " << std::strerror(errno) << "\n";
  return 3;
}

int exec_python_tool(const std::vector<std::string>& args) {
  return exec_python_module("parcae_tools.profile", args);
}

/// openmpi / mpich from the launcher's name (mpirun.openmpi, mpiexec.hydra, ...), following
/// symbolic links (Debian's mpirun -> /etc/alternatives/mpirun -> mpirun.openmpi).
std::string flavour_of_launcher(const std::string& launcher) {
  std::string path = launcher;
  if (launcher.find('/') == std::string::npos) {
    const char* p = std::getenv("PATH");
    std::string dirs = p ? p : "/usr/bin";
    std::size_t start = 0;
    while (start <= dirs.size()) {
      const std::size_t end = std::min(dirs.find(':', start), dirs.size());
      const fs::path cand = fs::path(dirs.substr(start, end - start)) / launcher;
      if (::access(cand.c_str(), X_OK) == 0) {
        path = cand.string();
        break;
      }
      start = end + 1;
    }
  }
  std::error_code ec;
  const std::string real = fs::weakly_canonical(path, ec).filename().string();
  for (const std::string& name : {real, fs::path(launcher).filename().string()}) {
    if (name.find("mpich") != std::string::npos || name.find("hydra") != std::string::npos)
      return "mpich";
    if (name.find("openmpi") != std::string::npos || name.find("orterun") != std::string::npos ||
        name.find("prterun") != std::string::npos)
      return "openmpi";
  }
  return "";
}

bool is_launcher(const std::string& exe) {
  const std::string n = fs::path(exe).filename().string();
  return n.rfind("mpirun", 0) == 0 || n.rfind("mpiexec", 0) == 0 || n == "orterun";
}

int run_profiled(int argc, char** argv, int first) {
  std::string outdir = "parcae-profile", mpi, interval;
  int i = first;
  for (; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--") {
      ++i;
      break;
    }
    if ((a == "-o" || a == "--outdir" || a == "--mpi" || a == "--interval") && i + 1 < argc) {
      (a == "--mpi" ? mpi : a == "--interval" ? interval : outdir) = argv[++i];
    } else if (a == "-h" || a == "--help") {
      std::cout << kUsage;
      return 0;
    } else {
      std::cerr << "parcae profile: unexpected argument \"" << a << "\"\n" << kUsage;
      return 1;
    }
  }
  if (i >= argc) {
    std::cerr << "parcae profile: no command after --\n" << kUsage;
    return 1;
  }
  std::vector<std::string> cmd(argv + i, argv + argc);
  if (mpi.empty()) mpi = is_launcher(cmd[0]) ? flavour_of_launcher(cmd[0]) : "openmpi";
  if (mpi != "openmpi" && mpi != "mpich") {
    std::cerr << fmt::format("parcae profile: cannot tell which MPI library \"{}\" starts; give "
                             "--mpi openmpi or --mpi mpich\n",
                             cmd[0]);
    return 1;
  }
  std::string lib = mpi == "mpich" ? PARCAE_MPIPROF_MPICH_SO : PARCAE_MPIPROF_OPENMPI_SO;
  if (const char* e = std::getenv("PARCAE_MPIPROF_LIB"); e && *e) lib = e;
  if (lib.empty() || !fs::exists(lib)) {
    std::cerr << fmt::format("parcae profile: the profiler library for {} was not built ({}); "
                             "install {} and rebuild\n",
                             mpi, lib.empty() ? "no path" : lib,
                             mpi == "mpich" ? "libmpich-dev" : "libopenmpi-dev");
    return 1;
  }
  const std::string dir = fs::absolute(outdir).string();
  fs::create_directories(dir);
  // The launcher gets the variables for the ranks only (LD_PRELOAD in mpirun itself would load
  // the MPI library into the launcher); a program started without a launcher gets them directly.
  std::vector<std::string> vars = {"LD_PRELOAD=" + lib, "PARCAE_PROFILE_DIR=" + dir};
  std::vector<std::string> child_env; // variables for the program only (no launcher)
  if (!interval.empty()) vars.push_back("PARCAE_PROFILE_INTERVAL=" + interval);
  if (is_launcher(cmd[0])) {
    std::vector<std::string> opts;
    for (const auto& v : vars) {
      const auto eq = v.find('=');
      if (mpi == "openmpi") {
        opts.push_back("-x");
        opts.push_back(v);
      } else {
        opts.push_back("-genv");
        opts.push_back(v.substr(0, eq));
        opts.push_back(v.substr(eq + 1));
      }
    }
    cmd.insert(cmd.begin() + 1, opts.begin(), opts.end());
  } else {
    // Without a launcher the program may never start MPI (a serial tool): it then writes a
    // one-rank profile of its POSIX I/O at exit (docs/profile.md, "POSIX I/O").
    // Set in the child only: this front end and the report it starts carry the library too,
    // and must not write a profile of their own over the program's.
    vars.push_back("PARCAE_PROFILE_SERIAL=1");
    child_env = vars;
  }
  std::string line;
  for (const auto& c : cmd) line += (line.empty() ? "" : " ") + c;
  std::cerr << "parcae profile: " << line << "\n";
  const pid_t pid = ::fork();
  if (pid == 0) {
    for (const auto& v : child_env) ::putenv(strdup(v.c_str()));
    std::vector<char*> cargv;
    for (auto& s : cmd) cargv.push_back(s.data());
    cargv.push_back(nullptr);
    ::execvp(cargv[0], cargv.data());
    std::cerr << "parcae profile: cannot run " << cmd[0] << ": " << std::strerror(errno) << "\n";
    std::_Exit(127);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  const int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  if (!fs::exists(fs::path(dir) / "profile.json")) {
    std::cerr << fmt::format("parcae profile: no profile was written to {} (exit status {}; "
                             "partial dumps, if any, are in {}/partial)\n",
                             dir, rc, dir);
    return rc != 0 ? rc : 1;
  }
  std::cerr << fmt::format("parcae profile: wrote {}/profile.json and profile.csv\n", dir);
  std::cout << std::flush;
  const pid_t rep = ::fork();
  if (rep == 0) std::_Exit(exec_python_tool({"report", dir}));
  ::waitpid(rep, nullptr, 0);
  return rc;
}

} // namespace

int maybe_run_python_command(int argc, char** argv) {
  if (argc < 2) return -1;
  const std::string cmd = argv[1];
  const char* module = cmd == "bench"           ? "parcae_tools.campaign"
                       : cmd == "whatif"        ? "parcae_tools.whatif"
                       : cmd == "cluster"       ? "parcae_tools.cluster"
                       : cmd == "generate"      ? "parcae_tools.generate"
                       : cmd == "storage-study" ? "parcae_tools.storage_study"
                                                : nullptr;
  if (!module) return -1;
  return exec_python_module(module, std::vector<std::string>(argv + 2, argv + argc));
}

int maybe_run_profile_command(int argc, char** argv) {
  if (argc < 2 || std::string(argv[1]) != "profile") return -1;
  if (argc >= 3 && (std::string(argv[2]) == "report" || std::string(argv[2]) == "compare"))
    return exec_python_tool(std::vector<std::string>(argv + 2, argv + argc));
  if (argc == 2) {
    std::cout << kUsage;
    return 1;
  }
  return run_profiled(argc, argv, 2);
}

} // namespace parcae
