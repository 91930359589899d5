// PMPI profiler core: phases, metadata, JSON/CSV output, the part-way dump thread and the
// MPI_Init / MPI_Finalize hooks. Nothing here is on the hot path (see mpiprof_state.hpp).
#include <mpi.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <poll.h>
#include <sstream>
#include <string>
#include <thread>
#include <unistd.h>
#include <utility>
#include <vector>

#include "prof/mpiprof_io.hpp"
#include "prof/mpiprof_state.hpp"

#ifndef PARCAE_GIT_REVISION
#define PARCAE_GIT_REVISION "unknown"
#endif

namespace parcae::mpiprof {

Counters g_counters{};

namespace {

using Json = nlohmann::ordered_json;
namespace fs = std::filesystem;

// ---- configuration and cached metadata (guarded by g_mutex unless noted) ----------------------
// Heap objects that are never destroyed: a process that never initialises MPI writes its
// profile from a destructor at exit (on_exit_serial), after static objects are gone.
std::mutex& g_mutex = *new std::mutex;
std::array<std::string, kPhaseSlots>& g_phase_names =
    *new std::array<std::string, kPhaseSlots>{"(none)"};
int g_num_phases = 0; // registered user phases (ids 1..g_num_phases)
std::string& g_out_dir = *new std::string;
std::vector<std::pair<std::string, std::string>>& g_extra =
    *new std::vector<std::pair<std::string, std::string>>;

// Set once in on_init (before the dump thread starts), read-only afterwards.
struct Meta {
  int rank = 0;
  int size = 1;
  std::string host;
  std::string library;
  std::string version;
  std::string transport;
  std::string command;
  std::string start_time;
  int threads = 1;
};
Meta& g_meta = *new Meta;
std::atomic<bool> g_initialised{false};
std::atomic<bool> g_finalised{false};

// Dump thread and SIGUSR1 self-pipe.
int g_pipe[2] = {-1, -1};
std::thread* g_thread = nullptr; // leaked on purpose if MPI_Finalize is never called
double g_interval_s = 0.0;
std::atomic<unsigned> g_tmp_counter{0};

const char* flavour() {
#if defined(OPEN_MPI)
  return "OpenMPI";
#elif defined(MPICH_VERSION)
  return "MPICH";
#else
  return "other";
#endif
}

std::string compiler() {
#if defined(__clang__)
  return std::string("Clang ") + __clang_version__;
#elif defined(__GNUC__)
  return std::string("GCC ") + __VERSION__;
#else
  return "unknown";
#endif
}

std::string env_or(const char* name, const char* fallback = nullptr) {
  const char* v = std::getenv(name);
  if (v && *v) return v;
  return fallback ? fallback : "";
}

std::string transport() {
#if defined(OPEN_MPI)
  for (const char* v : {"OMPI_MCA_btl", "OMPI_MCA_pml"}) {
    std::string s = env_or(v);
    if (!s.empty()) return s;
  }
#else
  for (const char* v : {"MPIR_CVAR_CH4_NETMOD", "MPIR_CVAR_NEMESIS_NETMOD", "MPIR_CVAR_CH3_NETMOD",
                        "MPIR_CVAR_DEVICE", "FI_PROVIDER"}) {
    std::string s = env_or(v);
    if (!s.empty()) return s;
  }
#endif
  return "default";
}

std::string command_line() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::string raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  while (!raw.empty() && raw.back() == '\0') raw.pop_back();
  std::replace(raw.begin(), raw.end(), '\0', ' ');
  return raw;
}

std::string utc_now_iso() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

double secs(std::uint64_t ns) {
  return static_cast<double>(ns) * 1e-9;
}

// ---- output --------------------------------------------------------------------------------

// Writes content to path atomically: temporary file in the same directory, fsync, rename.
bool write_atomic(const fs::path& path, const std::string& content) {
  IoSelfScope self; // the profile's own output is not counted
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  const std::string tmp =
      (path.parent_path() / ("." + path.filename().string() + ".tmp." + std::to_string(::getpid()) +
                             "." + std::to_string(g_tmp_counter.fetch_add(1))))
          .string();
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return false;
  const char* p = content.data();
  std::size_t left = content.size();
  bool ok = true;
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      ok = false;
      break;
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  if (ok && ::fsync(fd) != 0) ok = false;
  if (::close(fd) != 0) ok = false;
  if (ok && ::rename(tmp.c_str(), path.c_str()) != 0) ok = false;
  if (!ok) {
    ::unlink(tmp.c_str());
    return false;
  }
  const int dfd = ::open(path.parent_path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
  return true;
}

// This rank's record ("ranks" entry) at time t_now.
Json rank_record(std::uint64_t t_now) {
  Counters& c = g_counters;
  std::array<std::string, kPhaseSlots> names;
  int nphases = 0;
  {
    std::lock_guard lock(g_mutex);
    names = g_phase_names;
    nphases = g_num_phases;
  }
  const std::uint64_t t0 = rd(c.t_init);
  const std::uint64_t elapsed = t_now > t0 ? t_now - t0 : 0;
  const std::uint64_t mpi = rd(c.mpi_ns);
  Json r;
  r["rank"] = g_meta.rank;
  r["host"] = g_meta.host;
  r["elapsed_s"] = secs(elapsed);
  r["mpi_s"] = secs(mpi);
  r["app_s"] = secs(elapsed > mpi ? elapsed - mpi : 0);
  Json fns = Json::object();
  for (int f = 0; f < kNumFns; ++f) {
    FnStat& s = c.fn[f];
    const std::uint64_t calls = rd(s.calls);
    if (calls == 0) continue;
    Json h = Json::array();
    int last = -1;
    std::uint64_t hist[kHistBins];
    for (int k = 0; k < kHistBins; ++k) {
      hist[k] = rd(s.hist[k]);
      if (hist[k] != 0) last = k;
    }
    for (int k = 0; k <= last; ++k) h.push_back(hist[k]);
    fns[kFnNames[f]] = Json{{"calls", calls},
                            {"time_s", secs(rd(s.ns))},
                            {"bytes", rd(s.bytes)},
                            {"hist", std::move(h)}};
  }
  r["functions"] = std::move(fns);
  const int cur = rd(c.cur_phase);
  const std::uint64_t start = rd(c.phase_start);
  Json phases = Json::object();
  for (int p = 0; p <= nphases; ++p) {
    const std::uint64_t entries = rd(c.phase_entries[p]);
    std::uint64_t ns = rd(c.phase_ns[p]);
    if (p == cur && t_now > start) ns += t_now - start;
    if (p != 0 && entries == 0 && ns == 0) continue;
    Json pf = Json::object();
    for (int f = 0; f < kNumFns; ++f) {
      PhaseFnStat& s = c.phase_fn[p][f];
      const std::uint64_t calls = rd(s.calls);
      if (calls == 0) continue;
      pf[kFnNames[f]] = Json{{"calls", calls}, {"time_s", secs(rd(s.ns))}, {"bytes", rd(s.bytes)}};
    }
    phases[names[p]] = Json{{"entries", entries},
                            {"time_s", secs(ns)},
                            {"mpi_s", secs(rd(c.phase_mpi_ns[p]))},
                            {"functions", std::move(pf)}};
    if (Json io = io_phase_json(p); !io.is_null()) phases[names[p]]["io"] = std::move(io);
  }
  r["phases"] = std::move(phases);
  r["io"] = io_rank_json();
  return r;
}

Json metadata(const std::vector<std::string>& hosts) {
  Json extra = Json::object();
  {
    std::lock_guard lock(g_mutex);
    for (const auto& [k, v] : g_extra) extra[k] = v;
  }
  return Json{{"mpi_library", g_meta.library},
              {"mpi_flavour", flavour()},
              {"mpi_version", g_meta.version},
              {"transport", g_meta.transport},
              {"ranks", g_meta.size},
              {"threads", g_meta.threads},
              {"hosts", hosts},
              {"compiler", compiler()},
              {"git_revision", PARCAE_GIT_REVISION},
              {"command", g_meta.command},
              {"start_time", g_meta.start_time},
              {"extra", std::move(extra)}};
}

std::string out_dir() {
  std::lock_guard lock(g_mutex);
  return g_out_dir;
}

// Part-way dump of this rank, no MPI call. trigger: "signal", "periodic" or "api".
bool write_partial(const char* trigger) {
  const std::string dir = out_dir();
  if (dir.empty() || !g_initialised.load()) return false;
  try {
    Json top{{"schema", "parcae-profile"}, {"version", 1}, {"partial", true}, {"trigger", trigger}};
    top["metadata"] = metadata({g_meta.host});
    top["ranks"] = Json::array({rank_record(now_ns())});
    char name[32];
    std::snprintf(name, sizeof name, "rank-%05d.json", g_meta.rank);
    return write_atomic(fs::path(dir) / "partial" / name, top.dump() + "\n");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "parcae-mpiprof: partial dump failed: %s\n", e.what());
    return false;
  }
}

Json stat_of(const std::vector<double>& v) {
  double mn = v.empty() ? 0.0 : v[0], mx = mn, sum = 0.0;
  for (double x : v) {
    mn = std::min(mn, x);
    mx = std::max(mx, x);
    sum += x;
  }
  return Json{{"min", mn},
              {"avg", v.empty() ? 0.0 : sum / static_cast<double>(v.size())},
              {"max", mx},
              {"sum", sum}};
}

Json stat_of(const std::vector<std::uint64_t>& v) {
  std::uint64_t mn = v.empty() ? 0 : v[0], mx = mn, sum = 0;
  for (std::uint64_t x : v) {
    mn = std::min(mn, x);
    mx = std::max(mx, x);
    sum += x;
  }
  return Json{{"min", mn},
              {"avg", v.empty() ? 0.0 : static_cast<double>(sum) / static_cast<double>(v.size())},
              {"max", mx},
              {"sum", sum}};
}

// Summary across ranks; a function or phase absent on a rank counts as 0 there.
Json summary(const Json& ranks) {
  const std::size_t n = ranks.size();
  Json s;
  for (const char* key : {"elapsed_s", "mpi_s", "app_s"}) {
    std::vector<double> v;
    for (const auto& r : ranks) v.push_back(r[key].get<double>());
    s[key] = stat_of(v);
  }
  std::vector<std::string> fnames, pnames;
  for (int f = 0; f < kNumFns; ++f)
    for (const auto& r : ranks)
      if (r["functions"].contains(kFnNames[f])) {
        fnames.push_back(kFnNames[f]);
        break;
      }
  for (const auto& r : ranks)
    for (const auto& [name, _] : r["phases"].items())
      if (std::find(pnames.begin(), pnames.end(), name) == pnames.end()) pnames.push_back(name);
  Json fs = Json::object();
  for (const auto& name : fnames) {
    std::vector<std::uint64_t> calls(n, 0), bytes(n, 0);
    std::vector<double> time(n, 0.0);
    std::vector<std::uint64_t> hist;
    for (std::size_t i = 0; i < n; ++i) {
      const Json& fr = ranks[i]["functions"];
      if (!fr.contains(name)) continue;
      const Json& f = fr[name];
      calls[i] = f["calls"].get<std::uint64_t>();
      bytes[i] = f["bytes"].get<std::uint64_t>();
      time[i] = f["time_s"].get<double>();
      const Json& h = f["hist"];
      if (hist.size() < h.size()) hist.resize(h.size(), 0);
      for (std::size_t k = 0; k < h.size(); ++k) hist[k] += h[k].get<std::uint64_t>();
    }
    fs[name] = Json{{"calls", stat_of(calls)},
                    {"time_s", stat_of(time)},
                    {"bytes", stat_of(bytes)},
                    {"hist", hist}};
  }
  s["functions"] = std::move(fs);
  Json ps = Json::object();
  for (const auto& name : pnames) {
    std::vector<double> time(n, 0.0), mpi(n, 0.0);
    for (std::size_t i = 0; i < n; ++i) {
      const Json& pr = ranks[i]["phases"];
      if (!pr.contains(name)) continue;
      time[i] = pr[name]["time_s"].get<double>();
      mpi[i] = pr[name]["mpi_s"].get<double>();
    }
    ps[name] = Json{{"time_s", stat_of(time)}, {"mpi_s", stat_of(mpi)}};
  }
  s["phases"] = std::move(ps);
  s["io"] = io_summary(ranks);
  return s;
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char ch : s) {
    if (ch == '"') q += '"';
    q += ch;
  }
  return q + "\"";
}

std::string fmt_double(double x) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", x);
  return buf;
}

std::string csv(const Json& ranks) {
  std::ostringstream o;
  o << "rank,kind,name,calls,time_s,bytes\n";
  for (const auto& r : ranks) {
    const int rank = r["rank"].get<int>();
    std::uint64_t tcalls = 0, tbytes = 0;
    for (const auto& [name, f] : r["functions"].items()) {
      o << rank << ",function," << csv_field(name) << ',' << f["calls"].get<std::uint64_t>() << ','
        << fmt_double(f["time_s"].get<double>()) << ',' << f["bytes"].get<std::uint64_t>() << '\n';
      tcalls += f["calls"].get<std::uint64_t>();
      tbytes += f["bytes"].get<std::uint64_t>();
    }
    for (const auto& [name, p] : r["phases"].items())
      o << rank << ",phase," << csv_field(name) << ',' << p["entries"].get<std::uint64_t>() << ','
        << fmt_double(p["time_s"].get<double>()) << ",0\n";
    if (r.contains("io"))
      for (const auto& [name, f] : r["io"]["functions"].items())
        o << rank << ",io," << csv_field(name) << ',' << f["calls"].get<std::uint64_t>() << ','
          << fmt_double(f["time_s"].get<double>()) << ',' << f["bytes"].get<std::uint64_t>()
          << '\n';
    o << rank << ",total,elapsed,0," << fmt_double(r["elapsed_s"].get<double>()) << ",0\n";
    o << rank << ",total,mpi," << tcalls << ',' << fmt_double(r["mpi_s"].get<double>()) << ','
      << tbytes << '\n';
  }
  return o.str();
}

// ---- dump thread ---------------------------------------------------------------------------

// SIGUSR1 disposition before PMPI_Init (the program's own) and the MPI library's handler that
// ours chains to (MPICH installs one in MPI_Init).
struct sigaction g_sig_before {};
bool g_sig_before_known = false;
struct sigaction g_sig_chain {};

// Async-signal-safe: one write() to the self-pipe, then the MPI library's handler, if any.
void on_sigusr1(int sig, siginfo_t* info, void* ctx) {
  const int saved = errno;
  const char c = 's';
  {
    IoSelfScope self;
    if (g_pipe[1] >= 0) {
      [[maybe_unused]] ssize_t n = ::write(g_pipe[1], &c, 1);
    }
  }
  errno = saved;
  if (g_sig_chain.sa_flags & SA_SIGINFO) {
    if (g_sig_chain.sa_sigaction) g_sig_chain.sa_sigaction(sig, info, ctx);
  } else if (g_sig_chain.sa_handler != SIG_DFL && g_sig_chain.sa_handler != SIG_IGN &&
             g_sig_chain.sa_handler != nullptr) {
    g_sig_chain.sa_handler(sig);
  }
}

bool is_default(const struct sigaction& sa) {
  return !(sa.sa_flags & SA_SIGINFO) && sa.sa_handler == SIG_DFL;
}

void dump_thread_main() {
  IoSelfScope self;
  const int timeout_ms =
      g_interval_s > 0.0 ? std::max(1, static_cast<int>(g_interval_s * 1000.0)) : -1;
  for (;;) {
    pollfd pfd{g_pipe[0], POLLIN, 0};
    const int rc = ::poll(&pfd, 1, timeout_ms);
    if (rc < 0) {
      if (errno == EINTR) continue;
      return;
    }
    if (rc == 0) {
      write_partial("periodic");
      continue;
    }
    char buf[64];
    bool quit = false, signalled = false;
    for (;;) {
      const ssize_t n = ::read(g_pipe[0], buf, sizeof buf);
      if (n <= 0) break;
      for (ssize_t i = 0; i < n; ++i) {
        if (buf[i] == 'q') quit = true;
        if (buf[i] == 's') signalled = true;
      }
    }
    if (quit) return;
    if (signalled) write_partial("signal");
  }
}

void start_dump_thread() {
  if (g_thread) return;
  if (::pipe2(g_pipe, O_CLOEXEC | O_NONBLOCK) != 0) return;
  const std::string interval = env_or("PARCAE_PROFILE_INTERVAL");
  g_interval_s = interval.empty() ? 0.0 : std::atof(interval.c_str());
  // Only when the program itself had no SIGUSR1 handler when it called MPI_Init; a handler
  // the MPI library installed in MPI_Init is chained to.
  struct sigaction now {};
  if (::sigaction(SIGUSR1, nullptr, &now) == 0 &&
      (g_sig_before_known ? is_default(g_sig_before) : is_default(now))) {
    g_sig_chain = now;
    struct sigaction sa {};
    sa.sa_sigaction = on_sigusr1;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART | SA_SIGINFO;
    ::sigaction(SIGUSR1, &sa, nullptr);
  }
  // The dump thread must not take SIGUSR1 itself (it would interrupt its own poll).
  sigset_t block, prev;
  sigemptyset(&block);
  sigaddset(&block, SIGUSR1);
  pthread_sigmask(SIG_BLOCK, &block, &prev);
  g_thread = new std::thread(dump_thread_main);
  pthread_sigmask(SIG_SETMASK, &prev, nullptr);
}

void stop_dump_thread() {
  if (!g_thread) return;
  IoSelfScope self;
  const char c = 'q';
  [[maybe_unused]] ssize_t n = ::write(g_pipe[1], &c, 1);
  g_thread->join();
  delete g_thread;
  g_thread = nullptr;
}

// Writes the final profile.json and profile.csv of these rank records into dir.
void write_final(const std::string& dir, Json ranks) {
  std::vector<std::string> hosts;
  for (const auto& r : ranks) hosts.push_back(r["host"].get<std::string>());
  std::sort(hosts.begin(), hosts.end());
  hosts.erase(std::unique(hosts.begin(), hosts.end()), hosts.end());
  Json sum = summary(ranks);
  // Key order as in the schema: ranks before summary.
  Json out{{"schema", "parcae-profile"},
           {"version", 1},
           {"partial", false},
           {"trigger", "finalize"},
           {"metadata", metadata(hosts)},
           {"ranks", std::move(ranks)},
           {"summary", std::move(sum)}};
  const fs::path d(dir);
  bool ok = write_atomic(d / "profile.json", out.dump() + "\n");
  ok = write_atomic(d / "profile.csv", csv(out["ranks"])) && ok;
  if (!ok) std::fprintf(stderr, "parcae-mpiprof: cannot write the profile into %s\n", dir.c_str());
}

} // namespace

void before_init() {
  g_sig_before_known = ::sigaction(SIGUSR1, nullptr, &g_sig_before) == 0;
}

void on_init(std::uint64_t t_entry) {
  IoSelfScope self;
  Counters& c = g_counters;
  wr(c.t_init, t_entry);
  wr(c.phase_start, t_entry);
  for (int p = 0; p < kPhaseSlots; ++p) wr(c.phase_ns[p], std::uint64_t{0});
  PMPI_Comm_rank(MPI_COMM_WORLD, &g_meta.rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &g_meta.size);
  char host[MPI_MAX_PROCESSOR_NAME + 1] = {};
  int len = 0;
  PMPI_Get_processor_name(host, &len);
  g_meta.host.assign(host, static_cast<std::size_t>(std::max(0, len)));
  char lib[MPI_MAX_LIBRARY_VERSION_STRING + 1] = {};
  PMPI_Get_library_version(lib, &len);
  std::string libs(lib, static_cast<std::size_t>(std::max(0, len)));
  libs = libs.substr(0, libs.find_first_of(std::string("\n\0", 2)));
  while (!libs.empty() && (libs.back() == ' ' || libs.back() == '\t' || libs.back() == '\r'))
    libs.pop_back();
  g_meta.library = libs;
  int major = 0, minor = 0;
  PMPI_Get_version(&major, &minor);
  g_meta.version = std::to_string(major) + "." + std::to_string(minor);
  g_meta.transport = transport();
  g_meta.command = command_line();
  g_meta.start_time = utc_now_iso();
  const std::string omp = env_or("OMP_NUM_THREADS");
  g_meta.threads = omp.empty() ? 1 : std::max(1, std::atoi(omp.c_str()));
  {
    std::lock_guard lock(g_mutex);
    if (g_out_dir.empty()) g_out_dir = env_or("PARCAE_PROFILE_DIR");
  }
  g_initialised.store(true);
  if (!out_dir().empty()) start_dump_thread();
}

void on_finalize() {
  const std::uint64_t t_end = now_ns();
  if (!g_initialised.load() || g_finalised.exchange(true)) return;
  IoSelfScope self;
  stop_dump_thread();
  const std::string dir = out_dir();
  int enabled = dir.empty() ? 0 : 1, any = 0;
  PMPI_Allreduce(&enabled, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (!any) return;
  std::string mine;
  try {
    mine = rank_record(t_end).dump();
  } catch (const std::exception& e) {
    mine = "{}";
  }
  int len = static_cast<int>(mine.size());
  const int rank = g_meta.rank, size = g_meta.size;
  std::vector<int> lens(rank == 0 ? size : 0), displs(rank == 0 ? size : 0);
  PMPI_Gather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<char> all;
  if (rank == 0) {
    long total = 0;
    for (int i = 0; i < size; ++i) {
      displs[i] = static_cast<int>(total);
      total += lens[i];
    }
    all.resize(static_cast<std::size_t>(std::max(1L, total)));
  }
  PMPI_Gatherv(mine.data(), len, MPI_CHAR, all.data(), lens.data(), displs.data(), MPI_CHAR, 0,
               MPI_COMM_WORLD);
  if (rank != 0 || dir.empty()) return;
  try {
    Json ranks = Json::array();
    for (int i = 0; i < size; ++i)
      ranks.push_back(Json::parse(all.begin() + displs[i], all.begin() + displs[i] + lens[i]));
    write_final(dir, std::move(ranks));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "parcae-mpiprof: profile output failed: %s\n", e.what());
  }
}

namespace {

std::uint64_t g_load_ns = 0;
char g_load_time[32] = {};

// Library load: the clock of a process that never initialises MPI starts here.
__attribute__((constructor)) void on_load() {
  g_load_ns = now_ns();
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  std::strftime(g_load_time, sizeof g_load_time, "%Y-%m-%dT%H:%M:%SZ", &tm);
  if (rd(g_counters.t_init) == 0) {
    wr(g_counters.t_init, g_load_ns);
    wr(g_counters.phase_start, g_load_ns);
  }
}

// A process that never initialised MPI (a serial program under LD_PRELOAD, the storage study's
// stand-in workload) writes DIR/profile.json at exit when PARCAE_PROFILE_SERIAL=1 and an output
// directory is set: one rank, its phases and POSIX I/O, no MPI functions. Opt-in, so that a
// launcher or front end that carries the library never overwrites its ranks' profile.
__attribute__((destructor)) void on_unload() {
  const std::uint64_t t_end = now_ns();
  if (g_initialised.load() || env_or("PARCAE_PROFILE_SERIAL") != "1") return;
  if (g_finalised.exchange(true)) return;
  IoSelfScope self;
  std::string dir = out_dir();
  if (dir.empty()) dir = env_or("PARCAE_PROFILE_DIR");
  if (dir.empty()) return;
  try {
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    g_meta.rank = 0;
    g_meta.size = 1;
    g_meta.host = host;
    g_meta.library = "none (MPI not initialised)";
    g_meta.version = "";
    g_meta.transport = "none";
    g_meta.command = command_line();
    g_meta.start_time = g_load_time;
    const std::string omp = env_or("OMP_NUM_THREADS");
    g_meta.threads = omp.empty() ? 1 : std::max(1, std::atoi(omp.c_str()));
    write_final(dir, Json::array({rank_record(t_end)}));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "parcae-mpiprof: profile output failed: %s\n", e.what());
  }
}

} // namespace

} // namespace parcae::mpiprof

using namespace parcae::mpiprof;

#pragma GCC visibility push(default)
extern "C" {

int parcae_prof_phase_register(const char* name) {
  if (!name || !*name) return -1;
  std::lock_guard lock(g_mutex);
  for (int p = 1; p <= g_num_phases; ++p)
    if (g_phase_names[p] == name) return p;
  if (g_num_phases >= PARCAE_PROF_MAX_PHASES) return -1;
  g_phase_names[++g_num_phases] = name;
  return g_num_phases;
}

void parcae_prof_phase_push(int id) {
  Counters& c = g_counters;
  if (c.depth >= kMaxDepth || c.overflow > 0) {
    ++c.overflow;
    return;
  }
  if (id < 1 || id > PARCAE_PROF_MAX_PHASES) { // unknown id: stay in the current phase
    c.stack[c.depth++] = c.cur_phase;
    return;
  }
  const std::uint64_t t = now_ns();
  const int cur = c.cur_phase;
  bump(c.phase_ns[cur], t - c.phase_start);
  c.stack[c.depth++] = cur;
  bump(c.phase_entries[id], std::uint64_t{1});
  wr(c.phase_start, t);
  wr(c.cur_phase, id);
}

void parcae_prof_phase_pop(void) {
  Counters& c = g_counters;
  if (c.overflow > 0) {
    --c.overflow;
    return;
  }
  if (c.depth == 0) return;
  const std::uint64_t t = now_ns();
  bump(c.phase_ns[c.cur_phase], t - c.phase_start);
  wr(c.phase_start, t);
  wr(c.cur_phase, c.stack[--c.depth]);
}

void parcae_prof_set_output(const char* dir) {
  {
    std::lock_guard lock(g_mutex);
    g_out_dir = dir ? dir : "";
  }
  if (g_initialised.load() && !g_finalised.load() && dir && *dir) start_dump_thread();
}

void parcae_prof_set_metadata(const char* key, const char* value) {
  if (!key) return;
  std::lock_guard lock(g_mutex);
  for (auto& kv : g_extra)
    if (kv.first == key) {
      kv.second = value ? value : "";
      return;
    }
  g_extra.emplace_back(key, value ? value : "");
}

int parcae_prof_dump(void) {
  if (g_finalised.load()) return -1;
  return write_partial("api") ? 0 : -1;
}

} // extern "C"
#pragma GCC visibility pop
