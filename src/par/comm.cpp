// par::Environment, par::Comm and par::Exchange: the only translation unit that talks to MPI.
// Every operation has one serial path (no handle: a single-process communicator, in builds
// with and without MPI) and one MPI path (compiled only with PARCAE_WITH_MPI).
#include "par/comm.hpp"

#include <algorithm>
#include <bit>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <stdexcept>
#include <string>

#if PARCAE_WITH_MPI
#include <mpi.h>
#endif

namespace parcae::par {

namespace {

#if PARCAE_WITH_MPI
MPI_Comm mpi_comm(const void* handle) {
  return *static_cast<const MPI_Comm*>(handle);
}

bool mpi_active() {
  int initialised = 0, finalised = 0;
  MPI_Initialized(&initialised);
  MPI_Finalized(&finalised);
  return initialised != 0 && finalised == 0;
}

/// MPI counts are int: refuse anything larger instead of truncating.
int mpi_count(std::size_t n, const char* what) {
  if (n > static_cast<std::size_t>(INT_MAX)) {
    throw std::length_error(std::string("par: ") + what + ": count exceeds INT_MAX");
  }
  return static_cast<int>(n);
}

/// Any MPI error is fatal for the whole job (the default MPI_ERRORS_ARE_FATAL handler also
/// aborts; this makes the message say where).
void check(int rc, const char* call) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING] = {};
  int len = 0;
  MPI_Error_string(rc, text, &len);
  std::fprintf(stderr, "parcae: %s failed: %s\n", call, text);
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 3);
}

constexpr int kExchangeTag = 7301;

template <class T> MPI_Datatype mpi_type();
template <> MPI_Datatype mpi_type<double>() {
  return MPI_DOUBLE;
}
template <> MPI_Datatype mpi_type<std::int64_t>() {
  return MPI_INT64_T;
}

template <class T> T allreduce(const void* handle, T x, MPI_Op op) {
  T out{};
  check(MPI_Allreduce(&x, &out, 1, mpi_type<T>(), op, mpi_comm(handle)), "MPI_Allreduce");
  return out;
}

/// Elementwise in-place reduction of an integer array.
void allreduce_in_place(const void* handle, std::span<std::int64_t> values, MPI_Op op,
                        const char* what) {
  check(MPI_Allreduce(MPI_IN_PLACE, values.data(), mpi_count(values.size(), what), MPI_INT64_T, op,
                      mpi_comm(handle)),
        "MPI_Allreduce");
}

/// Displacements of concatenated per-rank blocks (checked to fit an int); returns the total.
std::size_t displacements(const std::vector<int>& counts, std::vector<int>& displs,
                          const char* what) {
  displs.resize(counts.size());
  std::size_t total = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    displs[r] = mpi_count(total, what);
    total += static_cast<std::size_t>(counts[r]);
  }
  mpi_count(total, what);
  return total;
}

#endif

template <class T>
std::vector<T> gatherv_impl(const Comm& comm, std::span<const T> local, int root) {
  if (root < 0 || root >= comm.size()) throw std::invalid_argument("par::gatherv: bad root");
  if (!comm.handle()) return {local.begin(), local.end()};
#if PARCAE_WITH_MPI
  const MPI_Comm c = mpi_comm(comm.handle());
  const int n = mpi_count(local.size(), "gatherv");
  const bool is_root = comm.rank() == root;
  std::vector<int> counts(is_root ? comm.size() : 0), displs(counts.size());
  check(MPI_Gather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, root, c), "MPI_Gather");
  std::vector<T> out;
  if (is_root) out.resize(displacements(counts, displs, "gatherv (total)"));
  check(MPI_Gatherv(local.data(), n, mpi_type<T>(), out.data(), counts.data(), displs.data(),
                    mpi_type<T>(), root, c),
        "MPI_Gatherv");
  return out;
#else
  return {};
#endif
}

} // namespace

// ---------------------------------------------------------------------------------------------
// Environment

Environment::Environment(int& argc, char**& argv) {
#if PARCAE_WITH_MPI
  int initialised = 0;
  MPI_Initialized(&initialised);
  if (initialised == 0) {
    int provided = MPI_THREAD_SINGLE;
    check(MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
    owns_ = true;
    if (provided < MPI_THREAD_FUNNELED) {
      // OpenMP threads run next to MPI calls made by the main thread: FUNNELED is the minimum.
      std::fprintf(stderr,
                   "parcae: the MPI library provides thread level %d, below "
                   "MPI_THREAD_FUNNELED (%d)\n",
                   provided, MPI_THREAD_FUNNELED);
      std::fflush(stderr);
      MPI_Abort(MPI_COMM_WORLD, 3);
    }
  }
  mpi_ = true;
#else
  (void)argc;
  (void)argv;
#endif
}

Environment::~Environment() {
#if PARCAE_WITH_MPI
  if (owns_) {
    int finalised = 0;
    MPI_Finalized(&finalised);
    if (finalised == 0) MPI_Finalize();
  }
#endif
}

// ---------------------------------------------------------------------------------------------
// Comm

Comm::Comm() = default;

Comm Comm::from_handle(const void* mpi_comm_handle) {
  Comm c;
#if PARCAE_WITH_MPI
  if (mpi_comm_handle == nullptr || !mpi_active()) return c;
  auto h = std::make_shared<const MPI_Comm>(*static_cast<const MPI_Comm*>(mpi_comm_handle));
  if (*h == MPI_COMM_NULL) return c;
  check(MPI_Comm_rank(*h, &c.rank_), "MPI_Comm_rank");
  check(MPI_Comm_size(*h, &c.size_), "MPI_Comm_size");
  c.handle_ = std::move(h);
#else
  (void)mpi_comm_handle;
#endif
  return c;
}

void Comm::barrier() const {
  if (!handle_) return;
#if PARCAE_WITH_MPI
  check(MPI_Barrier(mpi_comm(handle())), "MPI_Barrier");
#endif
}

double Comm::min(double x) const {
  if (!handle_) return x;
#if PARCAE_WITH_MPI
  return allreduce(handle(), x, MPI_MIN);
#else
  return x;
#endif
}

double Comm::max(double x) const {
  if (!handle_) return x;
#if PARCAE_WITH_MPI
  return allreduce(handle(), x, MPI_MAX);
#else
  return x;
#endif
}

std::int64_t Comm::min(std::int64_t x) const {
  if (!handle_) return x;
#if PARCAE_WITH_MPI
  return allreduce(handle(), x, MPI_MIN);
#else
  return x;
#endif
}

std::int64_t Comm::max(std::int64_t x) const {
  if (!handle_) return x;
#if PARCAE_WITH_MPI
  return allreduce(handle(), x, MPI_MAX);
#else
  return x;
#endif
}

std::int64_t Comm::sum(std::int64_t x) const {
  if (!handle_) return x;
#if PARCAE_WITH_MPI
  return allreduce(handle(), x, MPI_SUM);
#else
  return x;
#endif
}

ExactSum Comm::sum(const ExactSum& local) const {
  ExactSum out = local;
  sum(std::span<ExactSum>(&out, 1));
  return out;
}

void Comm::sum(std::span<ExactSum> accs) const {
  if (!handle_ || accs.empty()) return;
#if PARCAE_WITH_MPI
  // Normalised words are below 2^32 (flag counters 0/1), so the elementwise integer sum over
  // the ranks cannot overflow; integer addition is associative, so the reduction order of the
  // MPI library does not matter.
  constexpr std::size_t nw = ExactSum::kWords + 1;
  std::vector<std::int64_t> buf(nw * accs.size()), out(buf.size());
  for (std::size_t a = 0; a < accs.size(); ++a) {
    ExactSum t = accs[a];
    t.normalise();
    const auto w = t.words();
    std::copy(w.begin(), w.end(), buf.begin() + static_cast<std::ptrdiff_t>(a * nw));
  }
  check(MPI_Allreduce(buf.data(), out.data(), mpi_count(buf.size(), "sum(ExactSum)"), MPI_INT64_T,
                      MPI_SUM, mpi_comm(handle())),
        "MPI_Allreduce");
  for (std::size_t a = 0; a < accs.size(); ++a) {
    accs[a] = ExactSum::from_words(std::span<const std::int64_t>(out).subspan(a * nw, nw));
  }
#endif
}

std::vector<double> Comm::allgatherv(std::span<const double> local) const {
  if (!handle()) return {local.begin(), local.end()};
#if PARCAE_WITH_MPI
  const MPI_Comm c = mpi_comm(handle());
  const int n = mpi_count(local.size(), "allgatherv");
  std::vector<int> counts(static_cast<std::size_t>(size())), displs;
  check(MPI_Allgather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, c), "MPI_Allgather");
  std::vector<double> out(displacements(counts, displs, "allgatherv (total)"));
  check(MPI_Allgatherv(local.data(), n, MPI_DOUBLE, out.data(), counts.data(), displs.data(),
                       MPI_DOUBLE, c),
        "MPI_Allgatherv");
  return out;
#else
  return {local.begin(), local.end()};
#endif
}

std::vector<double> Comm::gatherv(std::span<const double> local, int root) const {
  return gatherv_impl(*this, local, root);
}

std::vector<std::int64_t> Comm::gatherv(std::span<const std::int64_t> local, int root) const {
  return gatherv_impl(*this, local, root);
}

void Comm::broadcast(std::span<double> data, int root) const {
  if (root < 0 || root >= size_) throw std::invalid_argument("par::broadcast: bad root");
  if (!handle_) return;
#if PARCAE_WITH_MPI
  check(MPI_Bcast(data.data(), mpi_count(data.size(), "broadcast"), MPI_DOUBLE, root,
                  mpi_comm(handle())),
        "MPI_Bcast");
#endif
}

void Comm::max(std::span<std::int64_t> values) const {
  if (!handle_ || values.empty()) return;
#if PARCAE_WITH_MPI
  allreduce_in_place(handle(), values, MPI_MAX, "max(span)");
#endif
}

void Comm::sum(std::span<std::int64_t> values) const {
  if (!handle_ || values.empty()) return;
#if PARCAE_WITH_MPI
  allreduce_in_place(handle(), values, MPI_SUM, "sum(span)");
#endif
}

std::vector<std::vector<double>>
Comm::alltoallv(const std::vector<std::vector<double>>& send) const {
  if (send.size() != static_cast<std::size_t>(size()))
    throw std::invalid_argument("par: alltoallv needs one array per rank");
  if (!handle_) return send;
#if PARCAE_WITH_MPI
  const MPI_Comm c = mpi_comm(handle());
  const auto np = static_cast<std::size_t>(size());
  std::vector<int> scount(np), rcount(np), sdispl, rdispl;
  for (std::size_t r = 0; r < np; ++r) scount[r] = mpi_count(send[r].size(), "alltoallv");
  check(MPI_Alltoall(scount.data(), 1, MPI_INT, rcount.data(), 1, MPI_INT, c), "MPI_Alltoall");
  std::vector<double> sbuf(displacements(scount, sdispl, "alltoallv (send)"));
  std::vector<double> rbuf(displacements(rcount, rdispl, "alltoallv (receive)"));
  for (std::size_t r = 0; r < np; ++r)
    std::copy(send[r].begin(), send[r].end(), sbuf.begin() + sdispl[r]);
  check(MPI_Alltoallv(sbuf.data(), scount.data(), sdispl.data(), MPI_DOUBLE, rbuf.data(),
                      rcount.data(), rdispl.data(), MPI_DOUBLE, c),
        "MPI_Alltoallv");
  std::vector<std::vector<double>> out(np);
  for (std::size_t r = 0; r < np; ++r)
    out[r].assign(rbuf.begin() + rdispl[r], rbuf.begin() + rdispl[r] + rcount[r]);
  return out;
#else
  return send;
#endif
}

std::vector<std::vector<double>> Comm::exchange_v(std::span<const int> send_to,
                                                  const std::vector<std::vector<double>>& send,
                                                  std::span<const int> recv_from) const {
  if (send.size() != send_to.size())
    throw std::invalid_argument("par: exchange_v needs one array per destination");
  std::vector<std::vector<double>> out(recv_from.size());
  // a rank's message to itself is a copy
  for (std::size_t j = 0; j < recv_from.size(); ++j)
    if (recv_from[j] == rank())
      for (std::size_t i = 0; i < send_to.size(); ++i)
        if (send_to[i] == rank()) out[j] = send[i];
  if (!handle_) return out;
#if PARCAE_WITH_MPI
  const MPI_Comm c = mpi_comm(handle());
  constexpr int kSizeTag = 7302, kDataTag = 7303;
  std::vector<std::int64_t> rsize(recv_from.size(), 0), ssize(send_to.size(), 0);
  std::vector<MPI_Request> req;
  req.reserve(2 * (send_to.size() + recv_from.size()));
  for (std::size_t j = 0; j < recv_from.size(); ++j)
    if (recv_from[j] != rank()) {
      req.emplace_back();
      check(MPI_Irecv(&rsize[j], 1, MPI_INT64_T, recv_from[j], kSizeTag, c, &req.back()),
            "MPI_Irecv");
    }
  for (std::size_t i = 0; i < send_to.size(); ++i)
    if (send_to[i] != rank()) {
      ssize[i] = static_cast<std::int64_t>(send[i].size());
      req.emplace_back();
      check(MPI_Isend(&ssize[i], 1, MPI_INT64_T, send_to[i], kSizeTag, c, &req.back()),
            "MPI_Isend");
    }
  check(MPI_Waitall(static_cast<int>(req.size()), req.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
  req.clear();
  for (std::size_t j = 0; j < recv_from.size(); ++j)
    if (recv_from[j] != rank() && rsize[j] > 0) {
      out[j].resize(static_cast<std::size_t>(rsize[j]));
      req.emplace_back();
      check(MPI_Irecv(out[j].data(), mpi_count(out[j].size(), "exchange_v"), MPI_DOUBLE,
                      recv_from[j], kDataTag, c, &req.back()),
            "MPI_Irecv");
    }
  for (std::size_t i = 0; i < send_to.size(); ++i)
    if (send_to[i] != rank() && !send[i].empty()) {
      req.emplace_back();
      check(MPI_Isend(send[i].data(), mpi_count(send[i].size(), "exchange_v"), MPI_DOUBLE,
                      send_to[i], kDataTag, c, &req.back()),
            "MPI_Isend");
    }
  check(MPI_Waitall(static_cast<int>(req.size()), req.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
#endif
  return out;
}

bool Comm::any(bool flag) const {
  if (!handle_) return flag;
#if PARCAE_WITH_MPI
  int in = flag ? 1 : 0, out = 0;
  check(MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_LOR, mpi_comm(handle())), "MPI_Allreduce");
  return out != 0;
#else
  return flag;
#endif
}

void Comm::abort(const std::string& message, int code) const {
  std::fprintf(stderr, "parcae: rank %d: %s\n", rank_, message.c_str());
  std::fflush(stderr);
  std::fflush(stdout);
#if PARCAE_WITH_MPI
  if (mpi_active()) {
    MPI_Abort(handle_ ? mpi_comm(handle()) : MPI_COMM_WORLD, code);
  }
#endif
  std::exit(code);
}

const void* world_handle() {
#if PARCAE_WITH_MPI
  static const MPI_Comm world = MPI_COMM_WORLD;
  return mpi_active() ? &world : nullptr;
#else
  return nullptr;
#endif
}

// ---------------------------------------------------------------------------------------------
// Exchange

struct Exchange::Requests {
#if PARCAE_WITH_MPI
  std::vector<MPI_Request> requests;
#endif
  bool active = false;
};

Exchange::Exchange(const Comm& comm, std::vector<Neighbour> neighbours)
    : comm_(comm), neighbours_(std::move(neighbours)), req_(std::make_unique<Requests>()) {
  std::size_t ns = 0, nr = 0;
  for (const auto& n : neighbours_) {
    if (n.rank < 0 || n.rank >= comm_.size()) {
      throw std::invalid_argument("par::Exchange: neighbour rank " + std::to_string(n.rank) +
                                  " outside the communicator (size " +
                                  std::to_string(comm_.size()) + ")");
    }
    if (!comm_.handle() && (n.rank != 0 || n.send_count != n.recv_count)) {
      throw std::invalid_argument("par::Exchange: single-process exchange with itself needs "
                                  "equal send and receive counts");
    }
    ns += n.send_count;
    nr += n.recv_count;
  }
  send_.assign(ns, 0.0);
  recv_.assign(nr, 0.0);
#if PARCAE_WITH_MPI
  req_->requests.reserve(2 * neighbours_.size());
#endif
}

Exchange::~Exchange() {
  // Buffers must outlive pending requests: complete them (only reached with a pending
  // exchange on an error path; the partners are expected to complete theirs too).
  if (req_ && req_->active) {
    try {
      end();
    } catch (...) {
    }
  }
}

void Exchange::begin() {
  if (req_->active) throw std::logic_error("par::Exchange::begin: previous exchange not ended");
  req_->active = true;
  if (!comm_.handle()) return; // self-exchange: copied in end()
#if PARCAE_WITH_MPI
  const MPI_Comm c = mpi_comm(comm_.handle());
  auto& reqs = req_->requests;
  reqs.clear();
  // Receives first, so that messages can land in place.
  std::size_t off = 0;
  for (const auto& n : neighbours_) {
    if (n.recv_count > 0) {
      reqs.emplace_back();
      check(MPI_Irecv(recv_.data() + off, mpi_count(n.recv_count, "Exchange"), MPI_DOUBLE, n.rank,
                      kExchangeTag, c, &reqs.back()),
            "MPI_Irecv");
    }
    off += n.recv_count;
  }
  off = 0;
  for (const auto& n : neighbours_) {
    if (n.send_count > 0) {
      reqs.emplace_back();
      check(MPI_Isend(send_.data() + off, mpi_count(n.send_count, "Exchange"), MPI_DOUBLE, n.rank,
                      kExchangeTag, c, &reqs.back()),
            "MPI_Isend");
    }
    off += n.send_count;
  }
#endif
}

void Exchange::end() {
  if (!req_->active) return;
  req_->active = false;
  if (!comm_.handle()) {
    std::copy(send_.begin(), send_.end(), recv_.begin());
    return;
  }
#if PARCAE_WITH_MPI
  auto& reqs = req_->requests;
  check(MPI_Waitall(static_cast<int>(reqs.size()), reqs.data(), MPI_STATUSES_IGNORE),
        "MPI_Waitall");
  reqs.clear();
#endif
}

// ---------------------------------------------------------------------------------------------
// CycleReduction

namespace {

constexpr int kKindShift = 48;
constexpr std::int64_t kLengthMask = (std::int64_t{1} << kKindShift) - 1;
constexpr std::size_t kExactWords = ExactSum::kWords + 1;

/// Combine the slots of one buffer into another (same layout: word 0 the length, then header
/// words and payloads). Every slot's operation is commutative and associative.
void combine_buffers(const std::int64_t* in, std::int64_t* io) {
  const auto n = static_cast<std::size_t>(io[0]);
  std::size_t i = 1;
  while (i < n) {
    const std::int64_t kind = io[i] >> kKindShift;
    const auto len = static_cast<std::size_t>(io[i] & kLengthMask);
    ++i;
    if (kind == 1) { // (value, key) lexicographic minimum
      for (std::size_t k = i; k + 1 < i + len; k += 2) {
        const double a = std::bit_cast<double>(in[k]), b = std::bit_cast<double>(io[k]);
        if (a < b || (a == b && in[k + 1] < io[k + 1])) {
          io[k] = in[k];
          io[k + 1] = in[k + 1];
        }
      }
    } else if (kind == 2) {
      for (std::size_t k = i; k < i + len; ++k) io[k] = std::max(io[k], in[k]);
    } else if (kind == 4) { // owned values: one rank's bit pattern, the others' zero
      for (std::size_t k = i; k < i + len; ++k) io[k] |= in[k];
    } else {
      // Integer addition (wrapping, never reached for normalised ExactSum words or counts).
      for (std::size_t k = i; k < i + len; ++k)
        io[k] = static_cast<std::int64_t>(static_cast<std::uint64_t>(io[k]) +
                                          static_cast<std::uint64_t>(in[k]));
    }
    i += len;
  }
}

#if PARCAE_WITH_MPI
void combine_op(void* in, void* inout, int* len, MPI_Datatype* /*type*/) {
  // One element is a whole buffer (a contiguous type of buf[0] words).
  auto* a = static_cast<const std::int64_t*>(in);
  auto* b = static_cast<std::int64_t*>(inout);
  for (int e = 0; e < *len; ++e) {
    const auto n = static_cast<std::size_t>(b[0]);
    combine_buffers(a, b);
    a += n;
    b += n;
  }
}
#endif

} // namespace

struct CycleReduction::MpiObjects {
#if PARCAE_WITH_MPI
  MPI_Op op = MPI_OP_NULL;
  std::map<std::size_t, MPI_Datatype> types; ///< buffer length -> contiguous type
#endif
};

CycleReduction::CycleReduction(const Comm& comm)
    : comm_(comm), mpi_(std::make_unique<MpiObjects>()) {
#if PARCAE_WITH_MPI
  if (comm_.handle()) check(MPI_Op_create(&combine_op, 1, &mpi_->op), "MPI_Op_create");
#endif
  clear();
}

CycleReduction::~CycleReduction() {
#if PARCAE_WITH_MPI
  if (mpi_ && mpi_active()) {
    for (auto& [n, t] : mpi_->types) MPI_Type_free(&t);
    if (mpi_->op != MPI_OP_NULL) MPI_Op_free(&mpi_->op);
  }
#endif
}

void CycleReduction::clear() {
  buf_.assign(1, 1);
  slots_.clear();
  reduced_ = false;
}

std::size_t CycleReduction::append(Kind kind, std::size_t count) {
  if (reduced_) throw std::logic_error("par::CycleReduction: add after reduce() (clear() first)");
  if (count > static_cast<std::size_t>(kLengthMask))
    throw std::length_error("par::CycleReduction: slot too large");
  slots_.push_back(buf_.size());
  buf_.push_back((static_cast<std::int64_t>(kind) << kKindShift) |
                 static_cast<std::int64_t>(count));
  buf_.resize(buf_.size() + count, 0);
  buf_[0] = static_cast<std::int64_t>(buf_.size());
  return slots_.size() - 1;
}

std::size_t CycleReduction::add_min(double value, std::int64_t key) {
  const std::size_t s = append(kMin, 2);
  buf_[slots_[s] + 1] = std::bit_cast<std::int64_t>(value);
  buf_[slots_[s] + 2] = key;
  return s;
}

std::size_t CycleReduction::add_max(std::int64_t value) {
  const std::size_t s = append(kMax, 1);
  buf_[slots_[s] + 1] = value;
  return s;
}

std::size_t CycleReduction::add_sum(std::int64_t value) {
  const std::size_t s = append(kSum, 1);
  buf_[slots_[s] + 1] = value;
  return s;
}

std::size_t CycleReduction::add_exact(std::span<const ExactSum> accs) {
  // Normalised words are below 2^32 (flag counters 0/1), so the elementwise sum over up to 2^21
  // ranks cannot overflow (as in Comm::sum).
  const std::size_t s = append(kSum, kExactWords * accs.size());
  auto out = buf_.begin() + static_cast<std::ptrdiff_t>(slots_[s] + 1);
  for (const ExactSum& a : accs) {
    ExactSum t = a;
    t.normalise();
    out = std::copy(t.words().begin(), t.words().end(), out);
  }
  return s;
}

std::size_t CycleReduction::add_owned(std::span<const double> values) {
  const std::size_t s = append(kOr, values.size());
  auto out = buf_.begin() + static_cast<std::ptrdiff_t>(slots_[s] + 1);
  for (double v : values) *out++ = std::bit_cast<std::int64_t>(v == 0.0 ? 0.0 : v);
  return s;
}

void CycleReduction::reduce() {
  if (reduced_) throw std::logic_error("par::CycleReduction: reduce() twice");
  reduced_ = true;
  if (!comm_.handle()) return;
#if PARCAE_WITH_MPI
  const std::size_t n = buf_.size();
  auto it = mpi_->types.find(n);
  if (it == mpi_->types.end()) {
    MPI_Datatype t = MPI_DATATYPE_NULL;
    check(MPI_Type_contiguous(mpi_count(n, "CycleReduction"), MPI_INT64_T, &t),
          "MPI_Type_contiguous");
    check(MPI_Type_commit(&t), "MPI_Type_commit");
    it = mpi_->types.emplace(n, t).first;
  }
  check(MPI_Allreduce(MPI_IN_PLACE, buf_.data(), 1, it->second, mpi_->op, mpi_comm(comm_.handle())),
        "MPI_Allreduce");
  ++calls_;
#endif
}

std::int64_t CycleReduction::int_at(std::size_t slot, Kind kind) const {
  const std::size_t h = slots_.at(slot);
  if ((buf_[h] >> kKindShift) != kind || (buf_[h] & kLengthMask) != 1)
    throw std::logic_error("par::CycleReduction: slot of another kind");
  return buf_[h + 1];
}

double CycleReduction::min_value(std::size_t slot) const {
  const std::size_t h = slots_.at(slot);
  if ((buf_[h] >> kKindShift) != kMin) throw std::logic_error("par::CycleReduction: not a min");
  return std::bit_cast<double>(buf_[h + 1]);
}

std::int64_t CycleReduction::min_key(std::size_t slot) const {
  const std::size_t h = slots_.at(slot);
  if ((buf_[h] >> kKindShift) != kMin) throw std::logic_error("par::CycleReduction: not a min");
  return buf_[h + 2];
}

std::vector<ExactSum> CycleReduction::exact(std::size_t slot) const {
  const std::size_t h = slots_.at(slot);
  const auto len = static_cast<std::size_t>(buf_[h] & kLengthMask);
  if ((buf_[h] >> kKindShift) != kSum || len % kExactWords != 0)
    throw std::logic_error("par::CycleReduction: not an exact-sum slot");
  std::vector<ExactSum> out(len / kExactWords);
  const std::span<const std::int64_t> words(buf_.data() + h + 1, len);
  for (std::size_t a = 0; a < out.size(); ++a)
    out[a] = ExactSum::from_words(words.subspan(a * kExactWords, kExactWords));
  return out;
}

std::vector<double> CycleReduction::owned(std::size_t slot) const {
  const std::size_t h = slots_.at(slot);
  if ((buf_[h] >> kKindShift) != kOr) throw std::logic_error("par::CycleReduction: not owned");
  const auto len = static_cast<std::size_t>(buf_[h] & kLengthMask);
  std::vector<double> out(len);
  for (std::size_t k = 0; k < len; ++k) out[k] = std::bit_cast<double>(buf_[h + 1 + k]);
  return out;
}

std::string mpi_library_version() {
#if PARCAE_WITH_MPI
  char text[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int len = 0;
  MPI_Get_library_version(text, &len);
  // First line only (MPICH continues with its configure options), whitespace runs collapsed:
  // "Open MPI v4.1.4, package: ...", "MPICH Version: 4.0.2".
  std::string out;
  for (int i = 0; i < len && text[i] != '\0' && text[i] != '\n'; ++i) {
    const char ch = text[i] == '\t' ? ' ' : text[i];
    if (ch == ' ' && (out.empty() || out.back() == ' ')) continue;
    out += ch;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out.empty() ? std::string("MPI (unknown library)") : out;
#else
  return "none";
#endif
}

} // namespace parcae::par
