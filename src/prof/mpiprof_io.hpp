#pragma once
// POSIX I/O accounting of the profiler (libparcae-mpiprof.so): read/write and their positional,
// vectored and 64-bit variants, open/close/fsync, intercepted with dlsym(RTLD_NEXT) in
// mpiprof_io.cpp. Per function: calls, time, bytes and a log2 histogram of operation sizes;
// per phase: calls, time, bytes. Optionally only files opened under a directory prefix count
// (PARCAE_PROFILE_IO_PREFIX or parcae_prof_set_io_prefix): an out-of-core solver's scratch
// directory, apart from stdout and the result files.
//
// Unlike the MPI counters these are updated with atomic read-modify-write: an I/O thread (MUMPS
// can run one) may write while the main thread does. Phase attribution uses the main thread's
// current phase. No MPI call is made here: the accounting works in a process that never
// initialises MPI.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "prof/mpiprof_state.hpp"

namespace parcae::mpiprof {

// POSIX functions as reported (the 64-bit variants count under their base name).
// clang-format off
#define PARCAE_MPIPROF_IO_FUNCTIONS(X)                                                             \
  X(read) X(pread) X(readv) X(preadv) X(write) X(pwrite) X(writev) X(pwritev)                      \
  X(open) X(close) X(fsync) X(fdatasync)
// clang-format on

enum IoFn : int {
#define PARCAE_MPIPROF_IO_ENUM(name) kIo_##name,
  PARCAE_MPIPROF_IO_FUNCTIONS(PARCAE_MPIPROF_IO_ENUM)
#undef PARCAE_MPIPROF_IO_ENUM
      kNumIoFns
};

inline constexpr const char* kIoFnNames[kNumIoFns] = {
#define PARCAE_MPIPROF_IO_NAME(name) #name,
    PARCAE_MPIPROF_IO_FUNCTIONS(PARCAE_MPIPROF_IO_NAME)
#undef PARCAE_MPIPROF_IO_NAME
};

/// True for the functions that move data out of a file (histogram "read" direction).
inline constexpr bool io_is_read(int fn) {
  return fn == kIo_read || fn == kIo_pread || fn == kIo_readv || fn == kIo_preadv;
}
inline constexpr bool io_is_write(int fn) {
  return fn == kIo_write || fn == kIo_pwrite || fn == kIo_writev || fn == kIo_pwritev;
}

struct IoCounters {
  FnStat fn[kNumIoFns];
  PhaseFnStat phase_fn[kPhaseSlots][kNumIoFns];
  std::uint64_t phase_io_ns[kPhaseSlots];
  std::uint64_t io_ns;
};

extern IoCounters g_io;

/// The prefixes in force (colon-separated as given; empty: every file counts).
std::string io_prefix();

/// This rank's "io" record: {"prefix", "time_s", "functions": {name: {calls, time_s, bytes,
/// hist}}} (functions called at least once; hist as for MPI functions).
nlohmann::ordered_json io_rank_json();
/// The I/O of phase slot p: {"time_s", "functions": {name: {calls, time_s, bytes}}}, or null
/// when the phase made no counted I/O call.
nlohmann::ordered_json io_phase_json(int p);
/// Summary of the ranks' "io" records (statistics as for the MPI functions).
nlohmann::ordered_json io_summary(const nlohmann::ordered_json& ranks);

/// Stops the calling thread's own I/O from being counted while alive (the profiler's output,
/// its dump pipe). Nests.
class IoSelfScope {
public:
  IoSelfScope();
  ~IoSelfScope();
  IoSelfScope(const IoSelfScope&) = delete;
  IoSelfScope& operator=(const IoSelfScope&) = delete;
};

} // namespace parcae::mpiprof
