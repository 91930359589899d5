// par::Comm / par::Exchange on 1, 2 and 4 ranks (run under mpirun by ctest; see
// cmake/ParcaeMpiTest.cmake). GoogleTest with its own main: every rank runs every test in the
// same order, so collectives inside tests match up. Tests must not skip collectives on
// failure (use EXPECT_*, not ASSERT_*, before a collective), or the job hangs until the ctest
// timeout.
//
//   test_par            the test suite
//   test_par --abort    the last rank calls Comm::abort while the others wait in a barrier:
//                       the job must end (non-zero, "parcae: rank R: ..." on stderr)
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/exact_sum.hpp"
#include "par/comm.hpp"

using parcae::ExactSum;
using parcae::par::Comm;
using parcae::par::CycleReduction;
using parcae::par::Exchange;

namespace {

const Comm* g_world = nullptr;
const Comm& world() {
  return *g_world;
}

std::uint64_t bits(double x) {
  return std::bit_cast<std::uint64_t>(x);
}

/// The values "owned" by rank r: reproducible on every rank, so each rank can compute the
/// serial reference of the whole job. Wide exponent range, both signs, cancellation.
std::vector<double> rank_values(int r, std::size_t n) {
  std::mt19937_64 rng(1000 + static_cast<std::uint64_t>(r));
  std::normal_distribution<double> g(0.0, 1.0);
  std::uniform_int_distribution<int> e(-60, 60);
  std::vector<double> v(n);
  for (auto& x : v) x = std::ldexp(g(rng), e(rng));
  v[0] = 1e300; // cancels exactly with v[n/2], not in floating-point partial sums
  v[n / 2] = -1e300;
  v[1] = std::ldexp(1.0, -1070) * (r + 1);
  return v;
}

double encode(int from, int to, std::size_t i) {
  return 1e6 * from + 1e3 * to + static_cast<double>(i);
}

} // namespace

TEST(Par, RankAndSize) {
  const Comm& c = world();
  EXPECT_GE(c.size(), 1);
  EXPECT_GE(c.rank(), 0);
  EXPECT_LT(c.rank(), c.size());
  EXPECT_EQ(c.sum(std::int64_t{1}), c.size());
  EXPECT_EQ(c.sum(std::int64_t{c.rank()}), std::int64_t{c.size()} * (c.size() - 1) / 2);
  const std::string lib = parcae::par::mpi_library_version();
  EXPECT_FALSE(lib.empty());
#if PARCAE_WITH_MPI
  EXPECT_TRUE(lib.find("Open MPI") != std::string::npos || lib.find("MPICH") != std::string::npos)
      << lib;
  EXPECT_NE(parcae::par::world_handle(), nullptr);
#else
  EXPECT_EQ(lib, "none");
  EXPECT_EQ(parcae::par::world_handle(), nullptr);
  EXPECT_EQ(c.size(), 1);
#endif
}

TEST(Par, SerialCommIsIdentity) {
  const Comm self; // single-process stand-in, also in MPI builds: no communication
  EXPECT_EQ(self.rank(), 0);
  EXPECT_EQ(self.size(), 1);
  EXPECT_EQ(self.handle(), nullptr);
  EXPECT_EQ(self.min(3.5), 3.5);
  EXPECT_EQ(self.max(-2.0), -2.0);
  EXPECT_EQ(self.min(std::int64_t{7}), 7);
  EXPECT_EQ(self.sum(std::int64_t{-9}), -9);
  EXPECT_TRUE(self.any(true));
  EXPECT_FALSE(self.any(false));
  ExactSum s;
  s.add(1e20);
  s.add(1.0);
  EXPECT_EQ(self.sum(s).result(), 1e20 + 1.0);
  const std::vector<double> v{1, 2, 3};
  EXPECT_EQ(self.gatherv(std::span<const double>(v)), v);
  Exchange ex(self, {{0, 2, 2}});
  ex.send_buffer()[0] = 4;
  ex.send_buffer()[1] = 5;
  ex.begin();
  ex.end();
  EXPECT_EQ(ex.recv_buffer()[0], 4);
  EXPECT_EQ(ex.recv_buffer()[1], 5);
  self.barrier();
}

TEST(Par, MinMaxSum) {
  const Comm& c = world();
  const int r = c.rank(), p = c.size();
  EXPECT_EQ(c.min(1.5 * r - 2.0), -2.0);
  EXPECT_EQ(c.max(1.5 * r - 2.0), 1.5 * (p - 1) - 2.0);
  EXPECT_EQ(c.min(-0.25 * r), -0.25 * (p - 1));
  const std::int64_t big = std::int64_t{1} << 40;
  EXPECT_EQ(c.min(big + r), big);
  EXPECT_EQ(c.max(big + r), big + p - 1);
  EXPECT_EQ(c.min(std::int64_t{-big} * r), -big * (p - 1));
  EXPECT_EQ(c.sum(big + r), big * p + std::int64_t{p} * (p - 1) / 2);
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(c.max(r == p - 1 ? inf : 0.0), inf);
}

TEST(Par, CycleReductionCombinesEverySlotInOneCall) {
  const Comm& c = world();
  const int np = c.size(), me = c.rank();
  CycleReduction red(c);
  for (int round = 0; round < 3; ++round) { // the buffer is reused; its length changes
    red.clear();
    // Step limit with a tie: ranks 0 and np-1 hold the smallest value, the larger rank holds
    // the smaller key; the others hold a larger value with a smaller key.
    const double dt = me == 0 || me == np - 1 ? 1.5e-7 : 2e-7;
    const std::int64_t key = me == np - 1 ? 10 : (me == 0 ? 40 : 1);
    const std::size_t s_dt = red.add_min(dt, key);
    const std::size_t s_max = red.add_max(me == np / 2 ? 7 : -3);
    const std::size_t s_sum = red.add_sum(std::int64_t{me} + 1);
    // Exact sums: this rank's block of the reference values, and a cancelling pair.
    const std::size_t n = 500;
    std::vector<ExactSum> accs(2 + static_cast<std::size_t>(round));
    const std::vector<double> mine = rank_values(me, n);
    accs[0].add(std::span<const double>(mine));
    accs[1].add(1e20 * (me + 1));
    accs[1].add(static_cast<double>(me) * 0.25);
    accs[1].add(-1e20 * (me + 1));
    const std::size_t s_exact = red.add_exact(accs);
    const std::size_t s_empty = red.add_exact({});
    const std::size_t s_err = red.add_min(me == np - 1 ? -1.0 : 1.0, me);
    if (round == 1) red.add_max(1); // an extra slot: another buffer length
    const std::int64_t before = red.calls();
    red.reduce();
    EXPECT_EQ(red.calls() - before, c.handle() ? 1 : 0);
    EXPECT_EQ(bits(red.min_value(s_dt)), bits(1.5e-7));
    EXPECT_EQ(red.min_key(s_dt), 10);
    EXPECT_EQ(red.max(s_max), 7);
    EXPECT_EQ(red.sum(s_sum), std::int64_t{np} * (np + 1) / 2);
    EXPECT_EQ(red.min_value(s_err), -1.0);
    EXPECT_EQ(red.min_key(s_err), np - 1);
    const std::vector<ExactSum> g = red.exact(s_exact);
    EXPECT_EQ(g.size(), accs.size());
    EXPECT_TRUE(red.exact(s_empty).empty());
    ExactSum serial, quarters;
    for (int r = 0; r < np; ++r) {
      const auto v = rank_values(r, n);
      serial.add(std::span<const double>(v));
      quarters.add(static_cast<double>(r) * 0.25);
    }
    // The same as the Comm::sum of the same accumulators, and as the serial sum.
    std::vector<ExactSum> ref = accs;
    c.sum(std::span<ExactSum>(ref));
    for (std::size_t a = 0; a < g.size(); ++a)
      EXPECT_EQ(bits(g[a].result()), bits(ref[a].result()));
    EXPECT_EQ(bits(g[0].result()), bits(serial.result()));
    EXPECT_EQ(bits(g[1].result()), bits(quarters.result()));
    for (std::size_t a = 2; a < g.size(); ++a) EXPECT_EQ(g[a].result(), 0.0);
    // Reading a slot as another kind, adding after reduce(), reducing twice: errors.
    EXPECT_THROW((void)red.max(s_sum), std::logic_error);
    EXPECT_THROW((void)red.exact(s_dt), std::logic_error);
    EXPECT_THROW(red.add_sum(1), std::logic_error);
    EXPECT_THROW(red.reduce(), std::logic_error);
  }
}

TEST(Par, CycleReductionGathersOwnedValuesBitForBit) {
  // Each value held by one rank (value k by rank k % np), the others giving zero (also -0.0,
  // which a non-owner may hold): every rank gets every value, bit for bit.
  const Comm& c = world();
  const int np = c.size(), me = c.rank();
  CycleReduction red(c);
  const std::vector<double> ref = rank_values(7, 40);
  std::vector<double> mine(ref.size(), 0.0);
  for (std::size_t k = 0; k < ref.size(); ++k)
    mine[k] = static_cast<int>(k) % np == me ? ref[k] : (k % 3 == 0 ? -0.0 : 0.0);
  const std::size_t s_min = red.add_min(1.0, me);
  const std::size_t s = red.add_owned(mine);
  red.reduce();
  const std::vector<double> got = red.owned(s);
  ASSERT_EQ(got.size(), ref.size());
  for (std::size_t k = 0; k < ref.size(); ++k) EXPECT_EQ(bits(got[k]), bits(ref[k])) << k;
  EXPECT_EQ(red.min_key(s_min), 0);
  EXPECT_THROW((void)red.owned(s_min), std::logic_error);
}

TEST(Par, CycleReductionOnSerialCommIsLocal) {
  const Comm serial;
  CycleReduction red(serial);
  const std::size_t s = red.add_min(3.0, 5);
  ExactSum a;
  a.add(0.1);
  a.add(0.2);
  const std::size_t e = red.add_exact(std::span<const ExactSum>(&a, 1));
  red.reduce();
  EXPECT_EQ(red.calls(), 0);
  EXPECT_EQ(red.min_value(s), 3.0);
  EXPECT_EQ(red.min_key(s), 5);
  EXPECT_EQ(bits(red.exact(e)[0].result()), bits(a.result()));
}

TEST(Par, ExactSumReductionEqualsSerialSum) {
  const Comm& c = world();
  const std::size_t n = 4000;
  const std::vector<double> mine = rank_values(c.rank(), n);
  ExactSum local;
  local.add(std::span<const double>(mine));
  const ExactSum global = c.sum(local);

  // Serial reference: all ranks' values, summed here in one accumulator, in reverse order.
  ExactSum serial;
  std::vector<double> all;
  for (int r = 0; r < c.size(); ++r) {
    const auto v = rank_values(r, n);
    all.insert(all.end(), v.begin(), v.end());
  }
  for (auto it = all.rbegin(); it != all.rend(); ++it) serial.add(*it);
  EXPECT_EQ(bits(global.result()), bits(serial.result()))
      << std::hexfloat << global.result() << " vs " << serial.result();
  EXPECT_EQ(bits(global.result()), bits(parcae::exact_sum(all)));

  // A different decomposition of the same values (round-robin instead of blocks): same bits.
  ExactSum strided;
  for (std::size_t i = static_cast<std::size_t>(c.rank()); i < all.size();
       i += static_cast<std::size_t>(c.size())) {
    strided.add(all[i]);
  }
  EXPECT_EQ(bits(c.sum(strided).result()), bits(serial.result()));

  // Several accumulators in one reduction; one of them carries an infinity from one rank only.
  std::vector<ExactSum> accs(3);
  accs[0].add(1e20);
  accs[0].add(static_cast<double>(c.rank() + 1));
  accs[0].add(-1e20);
  accs[1] = local;
  if (c.rank() == c.size() - 1) accs[2].add(std::numeric_limits<double>::infinity());
  accs[2].add(1.0);
  c.sum(std::span<ExactSum>(accs));
  EXPECT_EQ(accs[0].result(), c.size() * (c.size() + 1) / 2.0);
  EXPECT_EQ(bits(accs[1].result()), bits(serial.result()));
  EXPECT_EQ(accs[2].result(), std::numeric_limits<double>::infinity());

  // NaN on one rank and +inf/-inf on different ranks give NaN everywhere.
  ExactSum nan_acc;
  if (c.rank() == 0) nan_acc.add(std::numeric_limits<double>::infinity());
  if (c.rank() == c.size() - 1) nan_acc.add(-std::numeric_limits<double>::infinity());
  EXPECT_TRUE(std::isnan(c.sum(nan_acc).result()));
}

TEST(Par, Gatherv) {
  const Comm& c = world();
  const int r = c.rank(), p = c.size();
  // Rank r sends r + 1 values, except the last rank (of several), which sends none.
  const std::size_t count = (p > 1 && r == p - 1) ? 0 : static_cast<std::size_t>(r + 1);
  std::vector<double> mine(count);
  std::vector<std::int64_t> mine_i(count);
  for (std::size_t i = 0; i < count; ++i) {
    mine[i] = encode(r, 0, i);
    mine_i[i] = (std::int64_t{1} << 40) * r + static_cast<std::int64_t>(i);
  }
  std::vector<double> expect;
  std::vector<std::int64_t> expect_i;
  for (int q = 0; q < p; ++q) {
    const std::size_t nq = (p > 1 && q == p - 1) ? 0 : static_cast<std::size_t>(q + 1);
    for (std::size_t i = 0; i < nq; ++i) {
      expect.push_back(encode(q, 0, i));
      expect_i.push_back((std::int64_t{1} << 40) * q + static_cast<std::int64_t>(i));
    }
  }
  for (int root : {0, p - 1}) {
    const auto got = c.gatherv(std::span<const double>(mine), root);
    const auto got_i = c.gatherv(std::span<const std::int64_t>(mine_i), root);
    if (r == root) {
      EXPECT_EQ(got, expect) << "root " << root;
      EXPECT_EQ(got_i, expect_i) << "root " << root;
    } else {
      EXPECT_TRUE(got.empty());
      EXPECT_TRUE(got_i.empty());
    }
  }
}

TEST(Par, ElementwiseMaxAndSumOfIntegerArrays) {
  const Comm& c = world();
  const int r = c.rank(), p = c.size();
  std::vector<std::int64_t> mx = {r, -r, (r == p - 1) ? std::int64_t{1} << 50 : 0};
  std::vector<std::int64_t> sm = {1, r, std::int64_t{1} << 40};
  c.max(mx);
  c.sum(sm);
  EXPECT_EQ(mx, (std::vector<std::int64_t>{p - 1, 0, std::int64_t{1} << 50}));
  EXPECT_EQ(sm, (std::vector<std::int64_t>{p, p * (p - 1) / 2, p * (std::int64_t{1} << 40)}));
}

TEST(Par, AlltoallvVaryingCounts) {
  const Comm& c = world();
  const int r = c.rank(), p = c.size();
  // rank r sends (r + t) % 3 values to rank t (some messages empty, one to itself)
  std::vector<std::vector<double>> send(static_cast<std::size_t>(p));
  for (int t = 0; t < p; ++t)
    for (std::size_t i = 0; i < static_cast<std::size_t>((r + t) % 3); ++i)
      send[static_cast<std::size_t>(t)].push_back(encode(r, t, i));
  const auto got = c.alltoallv(send);
  ASSERT_EQ(got.size(), static_cast<std::size_t>(p));
  for (int f = 0; f < p; ++f) {
    std::vector<double> expect;
    for (std::size_t i = 0; i < static_cast<std::size_t>((f + r) % 3); ++i)
      expect.push_back(encode(f, r, i));
    EXPECT_EQ(got[static_cast<std::size_t>(f)], expect) << "from " << f;
  }
}

TEST(Par, SparseVariableExchange) {
  const Comm& c = world();
  const int r = c.rank(), p = c.size();
  // ring plus self: r sends to itself and to r + 1 (sizes vary by sender), receives from itself
  // and from r - 1; a rank may also send an empty array
  std::vector<int> to = {r}, from = {r};
  if (p > 1) {
    to.push_back((r + 1) % p);
    from.insert(from.begin(), (r + p - 1) % p);
  }
  std::vector<std::vector<double>> send;
  for (int t : to) {
    std::vector<double> m;
    for (std::size_t i = 0; i < static_cast<std::size_t>(r == 1 ? 0 : 2 * r + 1); ++i)
      m.push_back(encode(r, t, i));
    send.push_back(m);
  }
  const auto got = c.exchange_v(to, send, from);
  ASSERT_EQ(got.size(), from.size());
  for (std::size_t j = 0; j < from.size(); ++j) {
    const int f = from[j];
    std::vector<double> expect;
    for (std::size_t i = 0; i < static_cast<std::size_t>(f == 1 ? 0 : 2 * f + 1); ++i)
      expect.push_back(encode(f, r, i));
    EXPECT_EQ(got[j], expect) << "from " << f;
  }
}

TEST(Par, Broadcast) {
  const Comm& c = world();
  const int root = c.size() - 1;
  std::vector<double> data(5, -1.0);
  if (c.rank() == root) {
    for (std::size_t i = 0; i < data.size(); ++i) data[i] = 0.5 * static_cast<double>(i) + root;
  }
  c.broadcast(data, root);
  for (std::size_t i = 0; i < data.size(); ++i) {
    EXPECT_EQ(data[i], 0.5 * static_cast<double>(i) + root);
  }
}

TEST(Par, Any) {
  const Comm& c = world();
  EXPECT_FALSE(c.any(false));
  EXPECT_TRUE(c.any(true));
  EXPECT_TRUE(c.any(c.rank() == c.size() - 1));
  EXPECT_TRUE(c.any(c.rank() == 0));
  c.barrier();
}

TEST(Par, ExchangeRingWithOverlap) {
  const Comm& c = world();
  const int r = c.rank(), p = c.size();
  const int right = (r + 1) % p, left = (r + p - 1) % p;
  // Counts differ per direction and per rank: to the right 3 + r values, to the left 5 + 2 r.
  auto to_right = [](int from) { return static_cast<std::size_t>(3 + from); };
  auto to_left = [](int from) { return static_cast<std::size_t>(5 + 2 * from); };
  std::vector<Exchange::Neighbour> nbrs;
  if (p == 1) {
    nbrs.push_back({0, 4, 4});
  } else if (p == 2) {
    nbrs.push_back({right, to_right(r), to_right(right)}); // left == right: one message each way
  } else {
    nbrs.push_back({right, to_right(r), to_left(right)});
    nbrs.push_back({left, to_left(r), to_right(left)});
  }
  Exchange ex(c, nbrs);
  for (int iter = 0; iter < 20; ++iter) {
    auto send = ex.send_buffer();
    std::size_t off = 0;
    for (const auto& n : ex.neighbours()) {
      for (std::size_t i = 0; i < n.send_count; ++i) send[off + i] = encode(r, n.rank, i) + iter;
      off += n.send_count;
    }
    ex.begin();
    // Overlapped work while the messages are in flight.
    ExactSum work;
    for (int i = 0; i < 20000; ++i) work.add(std::sin(0.001 * i + iter));
    EXPECT_TRUE(std::isfinite(work.result()));
    ex.end();
    const auto recv = ex.recv_buffer();
    off = 0;
    for (const auto& n : ex.neighbours()) {
      for (std::size_t i = 0; i < n.recv_count; ++i) {
        EXPECT_EQ(recv[off + i], encode(n.rank, r, i) + iter)
            << "iteration " << iter << " from rank " << n.rank << " value " << i;
      }
      off += n.recv_count;
    }
  }
}

TEST(Par, ExchangeAllPairsVaryingCounts) {
  // Every rank exchanges with every rank (itself included); the count from a to b is
  // (a + 2 b) % 3 values, zero for some pairs.
  const Comm& c = world();
  const int r = c.rank(), p = c.size();
  auto count = [](int a, int b) { return static_cast<std::size_t>((a + 2 * b) % 3); };
  if (p == 1) GTEST_SKIP() << "single-process: only the self exchange exists";
  std::vector<Exchange::Neighbour> nbrs;
  for (int q = p - 1; q >= 0; --q) nbrs.push_back({q, count(r, q), count(q, r)});
  Exchange ex(c, nbrs);
  std::size_t off = 0;
  for (const auto& n : ex.neighbours()) {
    for (std::size_t i = 0; i < n.send_count; ++i) ex.send_buffer()[off + i] = encode(r, n.rank, i);
    off += n.send_count;
  }
  ex.begin();
  ex.end();
  ex.end(); // a second end() is a no-op
  off = 0;
  for (const auto& n : ex.neighbours()) {
    for (std::size_t i = 0; i < n.recv_count; ++i) {
      EXPECT_EQ(ex.recv_buffer()[off + i], encode(n.rank, r, i));
    }
    off += n.recv_count;
  }
}

int main(int argc, char** argv) {
  parcae::par::Environment env(argc, argv);
  const Comm comm = Comm::from_handle(parcae::par::world_handle());
  g_world = &comm;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--abort") == 0) {
      if (comm.rank() == comm.size() - 1) {
        comm.abort("deliberate abort from test_par (" + std::to_string(comm.size()) + " ranks)", 3);
      }
      comm.barrier(); // the other ranks wait here until the abort ends the job
      std::fprintf(stderr, "test_par: rank %d passed the barrier: abort did not end the job\n",
                   comm.rank());
      return 0;
    }
  }
  // Defaults (command-line flags override): no colour codes through mpirun's forwarded
  // output; ranks other than 0 print failures only.
  GTEST_FLAG_SET(color, "no");
  if (comm.rank() != 0) GTEST_FLAG_SET(brief, true);
  ::testing::InitGoogleTest(&argc, argv);
  const int rc = RUN_ALL_TESTS();
  // One verdict for the whole job: a failure on any rank fails every rank.
  const bool failed = comm.any(rc != 0);
  if (comm.rank() == 0) {
    std::printf("test_par: %d rank(s), MPI: %s: %s\n", comm.size(),
                parcae::par::mpi_library_version().c_str(), failed ? "FAILED" : "passed");
  }
  return failed ? 1 : 0;
}
