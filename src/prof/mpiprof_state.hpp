#pragma once
// Internal state of the PMPI profiler (libparcae-mpiprof.so). Counters live in fixed,
// zero-initialised arrays indexed by a compile-time function enum and a phase slot. The main
// thread updates them with relaxed atomic load + store (one writer, no read-modify-write), the
// dump thread reads them with relaxed loads: no locks, no allocation, no syscalls on the hot
// path other than clock_gettime.
#include <atomic>
#include <bit>
#include <cstdint>
#include <ctime>

#include "prof/parcae_prof.h"

namespace parcae::mpiprof {

// X-macro list of the wrapped functions (name without the MPI_ prefix).
#define PARCAE_MPIPROF_FUNCTIONS(X)                                                                \
  X(Init)                                                                                          \
  X(Init_thread) X(Send) X(Recv) X(Ssend) X(Bsend) X(Rsend) X(Sendrecv) X(Sendrecv_replace)        \
      X(Probe) X(Iprobe) X(Isend) X(Irecv) X(Issend) X(Irsend) X(Ibsend) X(Send_init) X(Recv_init) \
          X(Start) X(Startall) X(Wait) X(Waitall) X(Waitany) X(Waitsome) X(Test) X(Testall)        \
              X(Testany) X(Testsome) X(Barrier) X(Bcast) X(Reduce) X(Allreduce) X(Gather)          \
                  X(Gatherv) X(Scatter) X(Scatterv) X(Allgather) X(Allgatherv) X(Alltoall)         \
                      X(Alltoallv) X(Alltoallw) X(Reduce_scatter) X(Reduce_scatter_block) X(Scan)  \
                          X(Exscan) X(Ibarrier) X(Ibcast) X(Ireduce) X(Iallreduce) X(Iallgather)   \
                              X(Ialltoall) X(File_open) X(File_close) X(File_read) X(File_read_at) \
                                  X(File_read_all) X(File_read_at_all) X(File_write)               \
                                      X(File_write_at) X(File_write_all) X(File_write_at_all)      \
                                          X(File_set_view) X(File_sync)

enum Fn : int {
#define PARCAE_MPIPROF_ENUM(name) k_##name,
  PARCAE_MPIPROF_FUNCTIONS(PARCAE_MPIPROF_ENUM)
#undef PARCAE_MPIPROF_ENUM
      kNumFns
};

inline constexpr const char* kFnNames[kNumFns] = {
#define PARCAE_MPIPROF_NAME(name) "MPI_" #name,
    PARCAE_MPIPROF_FUNCTIONS(PARCAE_MPIPROF_NAME)
#undef PARCAE_MPIPROF_NAME
};

inline constexpr int kHistBins = 64;
inline constexpr int kPhaseSlots = PARCAE_PROF_MAX_PHASES + 1; // slot 0: "(none)"
inline constexpr int kMaxDepth = PARCAE_PROF_MAX_DEPTH;

struct FnStat {
  std::uint64_t calls;
  std::uint64_t ns;
  std::uint64_t bytes;
  std::uint64_t hist[kHistBins];
};

struct PhaseFnStat {
  std::uint64_t calls;
  std::uint64_t ns;
  std::uint64_t bytes;
};

struct Counters {
  FnStat fn[kNumFns];
  PhaseFnStat phase_fn[kPhaseSlots][kNumFns];
  std::uint64_t phase_ns[kPhaseSlots];     // closed exclusive time per phase
  std::uint64_t phase_mpi_ns[kPhaseSlots]; // MPI time of calls made while the phase was innermost
  std::uint64_t phase_entries[kPhaseSlots];
  std::uint64_t mpi_ns;
  std::uint64_t phase_start; // when the current phase last became innermost
  std::uint64_t t_init;      // MPI_Init entry
  int cur_phase;
  int depth;    // stack entries in use
  int overflow; // pushes ignored beyond kMaxDepth (or with unknown ids), balanced by pops
  int stack[kMaxDepth];
};

extern Counters g_counters;

static_assert(std::atomic_ref<std::uint64_t>::required_alignment <= alignof(std::uint64_t));
static_assert(std::atomic_ref<int>::required_alignment <= alignof(int));

// Relaxed single-writer accumulate: load + store, not a locked read-modify-write.
template <class T> inline void bump(T& x, T v) {
  std::atomic_ref<T> r(x);
  r.store(r.load(std::memory_order_relaxed) + v, std::memory_order_relaxed);
}
template <class T> inline T rd(T& x) {
  return std::atomic_ref<T>(x).load(std::memory_order_relaxed);
}
template <class T> inline void wr(T& x, T v) {
  std::atomic_ref<T>(x).store(v, std::memory_order_relaxed);
}

inline std::uint64_t now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000u +
         static_cast<std::uint64_t>(ts.tv_nsec);
}

/// log2 size bin: 0 for 0 bytes, else floor(log2(b)) + 1 (clamped to the last bin).
inline int size_bin(std::uint64_t b) {
  const int k = 64 - std::countl_zero(b);
  return k < kHistBins ? k : kHistBins - 1;
}

/// Hot path: one completed call of fn that took dt nanoseconds and moved `bytes`.
inline void record(Fn fn, std::uint64_t bytes, std::uint64_t dt) {
  Counters& c = g_counters;
  FnStat& s = c.fn[fn];
  bump(s.calls, std::uint64_t{1});
  bump(s.ns, dt);
  bump(s.bytes, bytes);
  bump(s.hist[size_bin(bytes)], std::uint64_t{1});
  const int ph = c.cur_phase; // written by this thread only
  PhaseFnStat& p = c.phase_fn[ph][fn];
  bump(p.calls, std::uint64_t{1});
  bump(p.ns, dt);
  bump(p.bytes, bytes);
  bump(c.phase_mpi_ns[ph], dt);
  bump(c.mpi_ns, dt);
}

// Lifecycle hooks called by the MPI_Init*/MPI_Finalize wrappers (mpiprof_core.cpp).
void before_init(); // before PMPI_Init*: remembers the program's SIGUSR1 disposition
void on_init(std::uint64_t t_entry);
void on_finalize();

} // namespace parcae::mpiprof
