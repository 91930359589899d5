// POSIX I/O interposition of the profiler (see mpiprof_io.hpp, docs/profile.md "POSIX I/O").
// Every wrapper resolves the next definition with dlsym(RTLD_NEXT) once, and only times and
// counts a call on a counted descriptor: any descriptor when no prefix is set, else those whose
// file (as the kernel names it, /proc/self/fd/N) lies under a prefix.
//
// Built without _FILE_OFFSET_BITS=64 and without _FORTIFY_SOURCE so that the names defined here
// are the plain glibc symbols (open, pread, ...) and their 64-bit twins (open64, pread64, ...).
#undef _FILE_OFFSET_BITS
#undef _FORTIFY_SOURCE
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "prof/mpiprof_io.hpp"

namespace parcae::mpiprof {

IoCounters g_io{};

namespace {

thread_local int t_io_self __attribute__((tls_model("initial-exec"))) = 0;

// ---- the next definitions (libc's) ------------------------------------------------------------
struct Real {
  ssize_t (*read)(int, void*, size_t);
  ssize_t (*write)(int, const void*, size_t);
  ssize_t (*pread)(int, void*, size_t, off_t);
  ssize_t (*pread64)(int, void*, size_t, off64_t);
  ssize_t (*pwrite)(int, const void*, size_t, off_t);
  ssize_t (*pwrite64)(int, const void*, size_t, off64_t);
  ssize_t (*readv)(int, const iovec*, int);
  ssize_t (*writev)(int, const iovec*, int);
  ssize_t (*preadv)(int, const iovec*, int, off_t);
  ssize_t (*preadv64)(int, const iovec*, int, off64_t);
  ssize_t (*pwritev)(int, const iovec*, int, off_t);
  ssize_t (*pwritev64)(int, const iovec*, int, off64_t);
  ssize_t (*read_chk)(int, void*, size_t, size_t);
  ssize_t (*pread_chk)(int, void*, size_t, off_t, size_t);
  ssize_t (*pread64_chk)(int, void*, size_t, off64_t, size_t);
  int (*open)(const char*, int, ...);
  int (*open64)(const char*, int, ...);
  int (*openat)(int, const char*, int, ...);
  int (*openat64)(int, const char*, int, ...);
  int (*open_2)(const char*, int);
  int (*open64_2)(const char*, int);
  int (*openat_2)(int, const char*, int);
  int (*openat64_2)(int, const char*, int);
  int (*creat)(const char*, mode_t);
  int (*creat64)(const char*, mode_t);
  FILE* (*fopen)(const char*, const char*);
  FILE* (*fopen64)(const char*, const char*);
  int (*close)(int);
  int (*fclose)(FILE*);
  int (*fsync)(int);
  int (*fdatasync)(int);
};

template <class F> void next(F& f, const char* name) {
  f = reinterpret_cast<F>(::dlsym(RTLD_NEXT, name));
}

const Real& real() {
  static const Real r = [] {
    Real x{};
    next(x.read, "read");
    next(x.write, "write");
    next(x.pread, "pread");
    next(x.pread64, "pread64");
    next(x.pwrite, "pwrite");
    next(x.pwrite64, "pwrite64");
    next(x.readv, "readv");
    next(x.writev, "writev");
    next(x.preadv, "preadv");
    next(x.preadv64, "preadv64");
    next(x.pwritev, "pwritev");
    next(x.pwritev64, "pwritev64");
    next(x.read_chk, "__read_chk");
    next(x.pread_chk, "__pread_chk");
    next(x.pread64_chk, "__pread64_chk");
    next(x.open, "open");
    next(x.open64, "open64");
    next(x.openat, "openat");
    next(x.openat64, "openat64");
    next(x.open_2, "__open_2");
    next(x.open64_2, "__open64_2");
    next(x.openat_2, "__openat_2");
    next(x.openat64_2, "__openat64_2");
    next(x.creat, "creat");
    next(x.creat64, "creat64");
    next(x.fopen, "fopen");
    next(x.fopen64, "fopen64");
    next(x.close, "close");
    next(x.fclose, "fclose");
    next(x.fsync, "fsync");
    next(x.fdatasync, "fdatasync");
    return x;
  }();
  return r;
}

// ---- configuration: enabled, prefixes (heap objects, never destroyed: I/O goes on during exit)
constexpr int kMaxFds = 1 << 16;
std::uint8_t g_fd_tracked[kMaxFds]; // 1: the file lies under a prefix
std::atomic<int> g_state{0};        // 0 unknown, 1 off, 2 all files, 3 prefixes
std::mutex* g_prefix_mutex = nullptr;
struct Prefix {
  std::string given;     // as set, lexically normal, no trailing '/'
  std::string canonical; // realpath once the directory exists
};
std::vector<Prefix>* g_prefixes = nullptr;
std::string* g_prefix_text = nullptr;

std::string normal_dir(const std::string& p) {
  std::string s = p;
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  if (!s.empty() && s[0] != '/') {
    char cwd[PATH_MAX];
    if (::getcwd(cwd, sizeof cwd)) s = std::string(cwd) + "/" + s;
  }
  return s;
}

// Caller holds g_prefix_mutex.
void set_prefixes_locked(const char* text) {
  g_prefixes->clear();
  *g_prefix_text = text ? text : "";
  std::string all = *g_prefix_text;
  std::size_t start = 0;
  while (start <= all.size()) {
    const std::size_t end = std::min(all.find(':', start), all.size());
    const std::string item = all.substr(start, end - start);
    if (!item.empty()) g_prefixes->push_back({normal_dir(item), {}});
    start = end + 1;
  }
}

int state() {
  int s = g_state.load(std::memory_order_acquire);
  if (s != 0) return s;
  static std::once_flag once;
  std::call_once(once, [] {
    g_prefix_mutex = new std::mutex;
    g_prefixes = new std::vector<Prefix>;
    g_prefix_text = new std::string;
    const char* off = std::getenv("PARCAE_PROFILE_IO");
    if (off && std::strcmp(off, "0") == 0) {
      g_state.store(1);
      return;
    }
    std::lock_guard lock(*g_prefix_mutex);
    set_prefixes_locked(std::getenv("PARCAE_PROFILE_IO_PREFIX"));
    g_state.store(g_prefixes->empty() ? 2 : 3);
  });
  return g_state.load(std::memory_order_acquire);
}

bool under(const std::string& path, const std::string& dir) {
  if (dir.empty()) return false;
  if (dir == "/") return true;
  return path.size() >= dir.size() && path.compare(0, dir.size(), dir) == 0 &&
         (path.size() == dir.size() || path[dir.size()] == '/');
}

// Whether descriptor fd (just opened) names a file under a prefix.
bool fd_under_prefix(int fd) {
  char link[64], target[PATH_MAX + 1];
  std::snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  const ssize_t n = ::readlink(link, target, PATH_MAX);
  if (n <= 0) return false;
  const std::string path(target, static_cast<std::size_t>(n));
  std::lock_guard lock(*g_prefix_mutex);
  for (Prefix& p : *g_prefixes) {
    if (p.canonical.empty()) {
      char buf[PATH_MAX];
      if (::realpath(p.given.c_str(), buf)) p.canonical = buf;
    }
    if (under(path, p.canonical) || under(path, p.given)) return true;
  }
  return false;
}

inline bool tracked(int fd) {
  return fd >= 0 && fd < kMaxFds &&
         std::atomic_ref<std::uint8_t>(g_fd_tracked[fd]).load(std::memory_order_relaxed) != 0;
}

inline void set_tracked(int fd, bool on) {
  if (fd >= 0 && fd < kMaxFds)
    std::atomic_ref<std::uint8_t>(g_fd_tracked[fd]).store(on ? 1 : 0, std::memory_order_relaxed);
}

/// Whether an operation on fd is counted.
inline bool counted(int fd) {
  if (t_io_self) return false;
  const int s = state();
  return s == 2 || (s == 3 && tracked(fd));
}

template <class T> inline void add(T& x, T v) {
  std::atomic_ref<T>(x).fetch_add(v, std::memory_order_relaxed);
}

void io_record(IoFn fn, std::uint64_t bytes, std::uint64_t dt) {
  IoCounters& c = g_io;
  FnStat& s = c.fn[fn];
  add(s.calls, std::uint64_t{1});
  add(s.ns, dt);
  add(s.bytes, bytes);
  add(s.hist[size_bin(bytes)], std::uint64_t{1});
  const int ph = rd(g_counters.cur_phase);
  PhaseFnStat& p = c.phase_fn[ph][fn];
  add(p.calls, std::uint64_t{1});
  add(p.ns, dt);
  add(p.bytes, bytes);
  add(c.phase_io_ns[ph], dt);
  add(c.io_ns, dt);
}

/// Times a data transfer on fd; bytes are those actually moved (the return value).
template <class Call> ssize_t transfer(IoFn fn, int fd, Call call) {
  if (!counted(fd)) return call();
  const std::uint64_t t0 = now_ns();
  const ssize_t n = call();
  const int saved = errno;
  io_record(fn, n > 0 ? static_cast<std::uint64_t>(n) : 0, now_ns() - t0);
  errno = saved;
  return n;
}

/// Times an open; a descriptor it returns is tracked when it lies under a prefix.
template <class Call> int opened(Call call) {
  if (t_io_self) return call();
  const int s = state();
  if (s == 1) return call();
  const std::uint64_t t0 = now_ns();
  const int fd = call();
  const std::uint64_t dt = now_ns() - t0;
  if (fd < 0) return fd;
  const int saved = errno;
  const bool on = s == 2 || fd_under_prefix(fd);
  set_tracked(fd, on && s == 3);
  if (on) io_record(kIo_open, 0, dt);
  errno = saved;
  return fd;
}

FILE* opened_file(FILE* (*fn)(const char*, const char*), const char* path, const char* mode) {
  if (t_io_self || state() == 1) return fn(path, mode);
  const std::uint64_t t0 = now_ns();
  FILE* f = fn(path, mode);
  const std::uint64_t dt = now_ns() - t0;
  if (!f) return f;
  const int saved = errno;
  const int fd = ::fileno(f);
  const bool on = state() == 2 || fd_under_prefix(fd);
  set_tracked(fd, on && state() == 3);
  if (on) io_record(kIo_open, 0, dt);
  errno = saved;
  return f;
}

template <class Call> int simple(IoFn fn, int fd, Call call) {
  if (!counted(fd)) return call();
  const std::uint64_t t0 = now_ns();
  const int rc = call();
  const int saved = errno;
  io_record(fn, 0, now_ns() - t0);
  errno = saved;
  return rc;
}

inline bool wants_mode(int flags) {
  return (flags & O_CREAT) != 0 || (flags & O_TMPFILE) == O_TMPFILE;
}

} // namespace

IoSelfScope::IoSelfScope() {
  ++t_io_self;
}
IoSelfScope::~IoSelfScope() {
  --t_io_self;
}

std::string io_prefix() {
  if (state() == 1) return {};
  std::lock_guard lock(*g_prefix_mutex);
  return *g_prefix_text;
}

} // namespace parcae::mpiprof

using namespace parcae::mpiprof;

#define PARCAE_IO_MODE(flags)                                                                      \
  mode_t mode = 0;                                                                                 \
  if (wants_mode(flags)) {                                                                         \
    va_list ap;                                                                                    \
    va_start(ap, flags);                                                                           \
    mode = static_cast<mode_t>(va_arg(ap, unsigned int));                                          \
    va_end(ap);                                                                                    \
  }

#pragma GCC visibility push(default)
extern "C" {

ssize_t read(int fd, void* buf, size_t n) {
  return transfer(kIo_read, fd, [&] { return real().read(fd, buf, n); });
}
ssize_t __read_chk(int fd, void* buf, size_t n, size_t buflen) {
  return transfer(kIo_read, fd, [&] { return real().read_chk(fd, buf, n, buflen); });
}
ssize_t write(int fd, const void* buf, size_t n) {
  return transfer(kIo_write, fd, [&] { return real().write(fd, buf, n); });
}
ssize_t pread(int fd, void* buf, size_t n, off_t off) {
  return transfer(kIo_pread, fd, [&] { return real().pread(fd, buf, n, off); });
}
ssize_t pread64(int fd, void* buf, size_t n, off64_t off) {
  return transfer(kIo_pread, fd, [&] { return real().pread64(fd, buf, n, off); });
}
ssize_t __pread_chk(int fd, void* buf, size_t n, off_t off, size_t buflen) {
  return transfer(kIo_pread, fd, [&] { return real().pread_chk(fd, buf, n, off, buflen); });
}
ssize_t __pread64_chk(int fd, void* buf, size_t n, off64_t off, size_t buflen) {
  return transfer(kIo_pread, fd, [&] { return real().pread64_chk(fd, buf, n, off, buflen); });
}
ssize_t pwrite(int fd, const void* buf, size_t n, off_t off) {
  return transfer(kIo_pwrite, fd, [&] { return real().pwrite(fd, buf, n, off); });
}
ssize_t pwrite64(int fd, const void* buf, size_t n, off64_t off) {
  return transfer(kIo_pwrite, fd, [&] { return real().pwrite64(fd, buf, n, off); });
}
ssize_t readv(int fd, const struct iovec* iov, int cnt) {
  return transfer(kIo_readv, fd, [&] { return real().readv(fd, iov, cnt); });
}
ssize_t writev(int fd, const struct iovec* iov, int cnt) {
  return transfer(kIo_writev, fd, [&] { return real().writev(fd, iov, cnt); });
}
ssize_t preadv(int fd, const struct iovec* iov, int cnt, off_t off) {
  return transfer(kIo_preadv, fd, [&] { return real().preadv(fd, iov, cnt, off); });
}
ssize_t preadv64(int fd, const struct iovec* iov, int cnt, off64_t off) {
  return transfer(kIo_preadv, fd, [&] { return real().preadv64(fd, iov, cnt, off); });
}
ssize_t pwritev(int fd, const struct iovec* iov, int cnt, off_t off) {
  return transfer(kIo_pwritev, fd, [&] { return real().pwritev(fd, iov, cnt, off); });
}
ssize_t pwritev64(int fd, const struct iovec* iov, int cnt, off64_t off) {
  return transfer(kIo_pwritev, fd, [&] { return real().pwritev64(fd, iov, cnt, off); });
}

int open(const char* path, int flags, ...) {
  PARCAE_IO_MODE(flags)
  return opened([&] { return real().open(path, flags, mode); });
}
int open64(const char* path, int flags, ...) {
  PARCAE_IO_MODE(flags)
  return opened([&] { return real().open64(path, flags, mode); });
}
int openat(int dirfd, const char* path, int flags, ...) {
  PARCAE_IO_MODE(flags)
  return opened([&] { return real().openat(dirfd, path, flags, mode); });
}
int openat64(int dirfd, const char* path, int flags, ...) {
  PARCAE_IO_MODE(flags)
  return opened([&] { return real().openat64(dirfd, path, flags, mode); });
}
int __open_2(const char* path, int flags) {
  return opened([&] { return real().open_2(path, flags); });
}
int __open64_2(const char* path, int flags) {
  return opened([&] { return real().open64_2(path, flags); });
}
int __openat_2(int dirfd, const char* path, int flags) {
  return opened([&] { return real().openat_2(dirfd, path, flags); });
}
int __openat64_2(int dirfd, const char* path, int flags) {
  return opened([&] { return real().openat64_2(dirfd, path, flags); });
}
int creat(const char* path, mode_t mode) {
  return opened([&] { return real().creat(path, mode); });
}
int creat64(const char* path, mode_t mode) {
  return opened([&] { return real().creat64(path, mode); });
}
FILE* fopen(const char* path, const char* mode) {
  return opened_file(real().fopen, path, mode);
}
FILE* fopen64(const char* path, const char* mode) {
  return opened_file(real().fopen64, path, mode);
}

int close(int fd) {
  const bool was = counted(fd);
  set_tracked(fd, false);
  if (!was) return real().close(fd);
  const std::uint64_t t0 = now_ns();
  const int rc = real().close(fd);
  const int saved = errno;
  io_record(kIo_close, 0, now_ns() - t0);
  errno = saved;
  return rc;
}
int fclose(FILE* f) {
  const int fd = f ? ::fileno(f) : -1;
  const bool was = fd >= 0 && counted(fd);
  set_tracked(fd, false);
  if (!was) return real().fclose(f);
  const std::uint64_t t0 = now_ns();
  const int rc = real().fclose(f);
  const int saved = errno;
  io_record(kIo_close, 0, now_ns() - t0);
  errno = saved;
  return rc;
}
int fsync(int fd) {
  return simple(kIo_fsync, fd, [&] { return real().fsync(fd); });
}
int fdatasync(int fd) {
  return simple(kIo_fdatasync, fd, [&] { return real().fdatasync(fd); });
}

/* Restricts the POSIX I/O accounting to files under these directories (colon-separated; empty
 * or NULL: every file). Applies to files opened afterwards. */
void parcae_prof_set_io_prefix(const char* dirs) {
  if (state() == 1) return;
  std::lock_guard lock(*g_prefix_mutex);
  set_prefixes_locked(dirs);
  g_state.store(g_prefixes->empty() ? 2 : 3, std::memory_order_release);
}

} // extern "C"
#pragma GCC visibility pop

namespace parcae::mpiprof {

namespace {

using Json = nlohmann::ordered_json;

double secs_of(std::uint64_t ns) {
  return static_cast<double>(ns) * 1e-9;
}

template <class T> Json stats(const std::vector<T>& v) {
  T mn = v.empty() ? T{} : v[0], mx = mn, sum{};
  for (T x : v) {
    mn = std::min(mn, x);
    mx = std::max(mx, x);
    sum += x;
  }
  const double avg = v.empty() ? 0.0 : static_cast<double>(sum) / static_cast<double>(v.size());
  return Json{{"min", mn}, {"avg", avg}, {"max", mx}, {"sum", sum}};
}

} // namespace

Json io_rank_json() {
  IoSelfScope self;
  Json fns = Json::object();
  for (int f = 0; f < kNumIoFns; ++f) {
    FnStat& s = g_io.fn[f];
    const std::uint64_t calls = rd(s.calls);
    if (calls == 0) continue;
    std::uint64_t hist[kHistBins];
    int last = 0;
    for (int k = 0; k < kHistBins; ++k) {
      hist[k] = rd(s.hist[k]);
      if (hist[k] != 0) last = k;
    }
    Json h = Json::array();
    for (int k = 0; k <= last; ++k) h.push_back(hist[k]);
    fns[kIoFnNames[f]] = Json{{"calls", calls},
                              {"time_s", secs_of(rd(s.ns))},
                              {"bytes", rd(s.bytes)},
                              {"hist", std::move(h)}};
  }
  return Json{
      {"prefix", io_prefix()}, {"time_s", secs_of(rd(g_io.io_ns))}, {"functions", std::move(fns)}};
}

Json io_phase_json(int p) {
  Json fns = Json::object();
  for (int f = 0; f < kNumIoFns; ++f) {
    PhaseFnStat& s = g_io.phase_fn[p][f];
    const std::uint64_t calls = rd(s.calls);
    if (calls == 0) continue;
    fns[kIoFnNames[f]] =
        Json{{"calls", calls}, {"time_s", secs_of(rd(s.ns))}, {"bytes", rd(s.bytes)}};
  }
  if (fns.empty()) return nullptr;
  return Json{{"time_s", secs_of(rd(g_io.phase_io_ns[p]))}, {"functions", std::move(fns)}};
}

Json io_summary(const Json& ranks) {
  const std::size_t n = ranks.size();
  std::vector<double> time(n, 0.0);
  for (std::size_t i = 0; i < n; ++i)
    if (ranks[i].contains("io")) time[i] = ranks[i]["io"]["time_s"].get<double>();
  Json fs = Json::object();
  for (int f = 0; f < kNumIoFns; ++f) {
    const char* name = kIoFnNames[f];
    bool any = false;
    std::vector<std::uint64_t> calls(n, 0), bytes(n, 0), hist;
    std::vector<double> t(n, 0.0);
    for (std::size_t i = 0; i < n; ++i) {
      if (!ranks[i].contains("io") || !ranks[i]["io"]["functions"].contains(name)) continue;
      const Json& r = ranks[i]["io"]["functions"][name];
      any = true;
      calls[i] = r["calls"].get<std::uint64_t>();
      bytes[i] = r["bytes"].get<std::uint64_t>();
      t[i] = r["time_s"].get<double>();
      const Json& h = r["hist"];
      if (hist.size() < h.size()) hist.resize(h.size(), 0);
      for (std::size_t k = 0; k < h.size(); ++k) hist[k] += h[k].get<std::uint64_t>();
    }
    if (!any) continue;
    fs[name] = Json{
        {"calls", stats(calls)}, {"time_s", stats(t)}, {"bytes", stats(bytes)}, {"hist", hist}};
  }
  return Json{{"time_s", stats(time)}, {"functions", std::move(fs)}};
}

} // namespace parcae::mpiprof
