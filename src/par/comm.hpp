#pragma once
// The only door to MPI. Physics code never sees an MPI type: it gets a par::Comm (passed
// explicitly) and par::Exchange for split-phase neighbour communication. Built without MPI
// (PARCAE_WITH_MPI off) a Comm is the single-process stand-in.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/exact_sum.hpp"

namespace parcae::par {

/// MPI initialisation for the lifetime of the object (MPI_Init_thread FUNNELED; no-op without
/// MPI or when MPI is already initialised). Only apps create one.
class Environment {
public:
  Environment(int& argc, char**& argv);
  ~Environment();
  Environment(const Environment&) = delete;
  Environment& operator=(const Environment&) = delete;
  [[nodiscard]] bool mpi() const { return mpi_; }

private:
  bool mpi_ = false;
  bool owns_ = false;
};

/// A communicator. Copyable handle (shares the underlying MPI_Comm, does not free it).
class Comm {
public:
  /// Single-process communicator (rank 0 of 1).
  Comm();
  /// Wrap an MPI communicator given as an opaque handle (apps pass MPI_COMM_WORLD through
  /// par::world_handle()).
  static Comm from_handle(const void* mpi_comm_handle);

  [[nodiscard]] int rank() const { return rank_; }
  [[nodiscard]] int size() const { return size_; }

  // Collectives (all ranks must call them in the same order).
  void barrier() const;
  [[nodiscard]] double min(double x) const;
  [[nodiscard]] double max(double x) const;
  [[nodiscard]] std::int64_t min(std::int64_t x) const;
  [[nodiscard]] std::int64_t max(std::int64_t x) const;
  [[nodiscard]] std::int64_t sum(std::int64_t x) const;
  /// Elementwise sum of an accumulator's words across ranks; returns the global exact sum.
  [[nodiscard]] ExactSum sum(const ExactSum& local) const;
  /// Several accumulators at once (one reduction).
  void sum(std::span<ExactSum> accs) const;
  /// Gather variable-length arrays on root (returned only on root, concatenated in rank order).
  [[nodiscard]] std::vector<double> gatherv(std::span<const double> local, int root = 0) const;
  /// Every rank's array, concatenated in rank order, on every rank.
  [[nodiscard]] std::vector<double> allgatherv(std::span<const double> local) const;
  [[nodiscard]] std::vector<std::int64_t> gatherv(std::span<const std::int64_t> local,
                                                  int root = 0) const;
  void broadcast(std::span<double> data, int root = 0) const;
  /// Elementwise maximum / sum of integer arrays across ranks (in place, one reduction).
  void max(std::span<std::int64_t> values) const;
  void sum(std::span<std::int64_t> values) const;
  /// Personalised all-to-all of variable-length arrays: send[r] goes to rank r (send.size() ==
  /// size()); returns, indexed by source rank, what every rank sent to this one.
  [[nodiscard]] std::vector<std::vector<double>>
  alltoallv(const std::vector<std::vector<double>>& send) const;
  /// Sparse exchange of variable-length arrays with known partners: send[i] goes to send_to[i];
  /// one array is received from each rank of recv_from (returned in that order). Both sides
  /// must agree on the pattern (a sends to b iff b receives from a). Sizes travel first, then
  /// the data (non-blocking, then wait). A rank may list itself: the array is copied.
  [[nodiscard]] std::vector<std::vector<double>>
  exchange_v(std::span<const int> send_to, const std::vector<std::vector<double>>& send,
             std::span<const int> recv_from) const;
  /// True on every rank if any rank passed true (error agreement without hangs).
  [[nodiscard]] bool any(bool flag) const;
  /// End the whole job: print "parcae: rank R: message" to stderr and MPI_Abort (exit without
  /// MPI).
  [[noreturn]] void abort(const std::string& message, int code = 2) const;

  /// Opaque MPI_Comm (for par/ internals only).
  [[nodiscard]] const void* handle() const { return handle_.get(); }

private:
  std::shared_ptr<const void> handle_;
  int rank_ = 0;
  int size_ = 1;
};

/// Pointer to MPI_COMM_WORLD as an opaque handle (nullptr without MPI). Called only by apps.
const void* world_handle();

/// Split-phase exchange of double arrays with a fixed set of neighbours:
///   ex.begin(send)  posts receives and sends; work can be done meanwhile;
///   ex.end()        waits; the received values are then in recv_buffer().
/// Counts are fixed at construction (values per neighbour, in the order given). Each neighbour
/// rank appears at most once (one message per direction and pair; the tag is fixed). Without
/// MPI (or on a single-process Comm) the only possible neighbour is rank 0 itself, with equal
/// counts: end() copies the send buffer to the receive buffer. Destroying an Exchange between
/// begin() and end() waits for the pending messages.
class Exchange {
public:
  struct Neighbour {
    int rank = 0;
    std::size_t send_count = 0; ///< doubles sent to this neighbour per exchange
    std::size_t recv_count = 0; ///< doubles received from it
  };
  Exchange(const Comm& comm, std::vector<Neighbour> neighbours);
  ~Exchange();
  Exchange(const Exchange&) = delete;
  Exchange& operator=(const Exchange&) = delete;

  /// Send buffer layout: neighbour 0's values, then neighbour 1's, ... (send_count each).
  std::span<double> send_buffer() { return send_; }
  /// Receive buffer layout: same, with recv_count each. Valid after end().
  [[nodiscard]] std::span<const double> recv_buffer() const { return recv_; }
  void begin();
  void end();
  [[nodiscard]] const std::vector<Neighbour>& neighbours() const { return neighbours_; }

private:
  Comm comm_; ///< a copy (shares the MPI_Comm): the exchange may outlive the caller's Comm
  std::vector<Neighbour> neighbours_;
  std::vector<double> send_, recv_;
  struct Requests;
  std::unique_ptr<Requests> req_;
};

/// All of one cycle's reductions in one collective call. Contributors append slots to the
/// buffer (every rank the same slots in the same order), then reduce() combines every slot over
/// the ranks with one MPI_Allreduce and a user-defined commutative operation:
///   add_min(value, key)  lexicographic minimum of (value, key) pairs: the smallest value, and
///                        among the ranks holding it the smallest key (a step limit and the
///                        element that controls it; NaN values are not allowed)
///   add_max / add_sum    64-bit integer maximum / sum (flags, counts)
///   add_exact(accs)      exact sums of ExactSum accumulators (elementwise sum of their
///                        normalised words: the result does not depend on the rank count)
///   add_owned(values)    values each held by one rank, the others giving +0.0 (a gather of
///                        owned nodal values): combined by OR of the bit patterns, so every rank
///                        gets the owner's value bit for bit, at 8 bytes a value
/// The slot numbers returned index the results, valid after reduce() until clear(). Without
/// MPI (or on a single-process Comm) reduce() makes no call and the results are the local
/// values (exact sums normalised, hence the same result()).
class CycleReduction {
public:
  explicit CycleReduction(const Comm& comm);
  ~CycleReduction();
  CycleReduction(const CycleReduction&) = delete;
  CycleReduction& operator=(const CycleReduction&) = delete;

  /// Empty the buffer for a new cycle.
  void clear();
  std::size_t add_min(double value, std::int64_t key);
  std::size_t add_max(std::int64_t value);
  std::size_t add_sum(std::int64_t value);
  /// One slot for all of accs (in order); empty spans are allowed.
  std::size_t add_exact(std::span<const ExactSum> accs);
  /// One slot for all of values (in order); each value nonzero on one rank at most.
  std::size_t add_owned(std::span<const double> values);
  /// Collective: combine every slot over the ranks (one MPI_Allreduce, none for one process).
  void reduce();

  [[nodiscard]] double min_value(std::size_t slot) const;
  [[nodiscard]] std::int64_t min_key(std::size_t slot) const;
  [[nodiscard]] std::int64_t max(std::size_t slot) const { return int_at(slot, kMax); }
  [[nodiscard]] std::int64_t sum(std::size_t slot) const { return int_at(slot, kSum); }
  /// The global accumulators of an add_exact slot (as many as were added).
  [[nodiscard]] std::vector<ExactSum> exact(std::size_t slot) const;
  /// The gathered values of an add_owned slot.
  [[nodiscard]] std::vector<double> owned(std::size_t slot) const;
  /// MPI_Allreduce calls made by this object (0 on one process).
  [[nodiscard]] std::int64_t calls() const { return calls_; }

private:
  enum Kind : std::int64_t { kMin = 1, kMax = 2, kSum = 3, kOr = 4 };
  [[nodiscard]] std::int64_t int_at(std::size_t slot, Kind kind) const;
  std::size_t append(Kind kind, std::size_t count);

  Comm comm_;
  /// Word 0: the buffer length; then per slot a header word (kind << 48 | payload words) and
  /// its payload. Self-describing, so the combining operation needs no other state.
  std::vector<std::int64_t> buf_;
  std::vector<std::size_t> slots_; ///< slot -> offset of its header word
  bool reduced_ = false;
  std::int64_t calls_ = 0;
  struct MpiObjects;
  std::unique_ptr<MpiObjects> mpi_;
};

/// Description of the MPI library (name and version string), "none" without MPI.
std::string mpi_library_version();

} // namespace parcae::par
