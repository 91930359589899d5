// ExactSum: order independence, exactness against an integer reference, correct rounding
// (ties to even, subnormals, overflow), NaN/inf propagation, merging and word reductions.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "core/exact_sum.hpp"

using parcae::exact_sum;
using parcae::ExactSum;

namespace {

std::uint64_t bits(double x) {
  return std::bit_cast<std::uint64_t>(x);
}

/// Same double, bit for bit (distinguishes +0/-0; any NaN equals any NaN).
::testing::AssertionResult same_double(double a, double b) {
  if (std::isnan(a) && std::isnan(b)) return ::testing::AssertionSuccess();
  if (!std::isnan(a) && !std::isnan(b) && bits(a) == bits(b)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << std::hexfloat << a << " vs " << b;
}
#define EXPECT_SAME_DOUBLE(a, b) EXPECT_TRUE(same_double((a), (b)))

double sum_of(std::initializer_list<double> v) {
  return exact_sum(std::span<const double>(v.begin(), v.size()));
}

/// Doubles spread over the whole exponent range, both signs, some subnormals and zeros.
std::vector<double> wide_random(std::mt19937_64& rng, std::size_t n) {
  std::vector<double> v(n);
  std::uniform_int_distribution<std::uint64_t> mant(0, (std::uint64_t{1} << 52) - 1);
  std::uniform_int_distribution<int> expo(0, 2046);
  std::uniform_int_distribution<int> coin(0, 1);
  for (auto& x : v) {
    const std::uint64_t b =
        (std::uint64_t(coin(rng)) << 63) | (std::uint64_t(expo(rng)) << 52) | mant(rng);
    x = std::bit_cast<double>(b);
  }
  return v;
}

/// Correctly rounded reference for values k * 2^(e - scale) with the exact integer total S
/// (in units of 2^-scale) held in __int128: GCC's __int128 -> double conversion rounds to
/// nearest even; ldexp is exact while the result stays normal.
double reference(__int128 total, int scale) {
  return std::ldexp(static_cast<double>(total), -scale);
}

} // namespace

TEST(ExactSum, EmptyAndZeros) {
  ExactSum s;
  EXPECT_SAME_DOUBLE(s.result(), 0.0);
  s.add(0.0);
  s.add(-0.0);
  EXPECT_SAME_DOUBLE(s.result(), 0.0);
  EXPECT_SAME_DOUBLE(sum_of({1.5, -1.5}), 0.0);
  EXPECT_SAME_DOUBLE(sum_of({-0.0, -0.0}), 0.0); // the exact sum is zero: +0
}

TEST(ExactSum, SingleValuesRoundTrip) {
  std::mt19937_64 rng(7);
  for (double x : wide_random(rng, 20000)) {
    ExactSum s;
    s.add(x);
    if (x == 0) {
      EXPECT_SAME_DOUBLE(s.result(), 0.0);
    } else {
      EXPECT_SAME_DOUBLE(s.result(), x);
    }
  }
  for (double x : {DBL_MAX, -DBL_MAX, DBL_MIN, -DBL_MIN, DBL_TRUE_MIN, -DBL_TRUE_MIN, 1.0, -1.0,
                   std::nextafter(1.0, 2.0), std::nextafter(DBL_MIN, 0.0)}) {
    EXPECT_SAME_DOUBLE(sum_of({x}), x);
  }
}

TEST(ExactSum, CatastrophicCancellation) {
  EXPECT_SAME_DOUBLE(sum_of({1e20, 1.0, -1e20}), 1.0);
  EXPECT_SAME_DOUBLE(sum_of({1.0, 1e100, 1.0, -1e100}), 2.0);
  EXPECT_SAME_DOUBLE(sum_of({1e308, 1e308, -1e308, -1e308, 1e-300}), 1e-300);
  // Intermediate beyond DBL_MAX, exact total in range.
  EXPECT_SAME_DOUBLE(sum_of({DBL_MAX, DBL_MAX, -DBL_MAX}), DBL_MAX);
  EXPECT_SAME_DOUBLE(sum_of({DBL_MAX, DBL_TRUE_MIN, -DBL_MAX}), DBL_TRUE_MIN);
  EXPECT_SAME_DOUBLE(sum_of({-DBL_MAX, -DBL_MAX, DBL_MAX, -DBL_TRUE_MIN, DBL_MAX}), -DBL_TRUE_MIN);
  // 0.1 + 0.2 - 0.3 is the exact residual of the three doubles.
  const double residual = sum_of({0.1, 0.2, -0.3});
  EXPECT_SAME_DOUBLE(residual, std::ldexp(1.0, -55));
}

TEST(ExactSum, TiesToEven) {
  const double two53 = std::ldexp(1.0, 53);
  EXPECT_SAME_DOUBLE(sum_of({two53, 1.0}), two53);                             // tie -> even (down)
  EXPECT_SAME_DOUBLE(sum_of({two53, 3.0}), two53 + 4.0);                       // tie -> even (up)
  EXPECT_SAME_DOUBLE(sum_of({two53, 1.0, std::ldexp(1.0, -60)}), two53 + 2.0); // above tie
  EXPECT_SAME_DOUBLE(sum_of({two53, 1.0, -std::ldexp(1.0, -60)}), two53);      // below tie
  EXPECT_SAME_DOUBLE(sum_of({-two53, -1.0}), -two53);
  EXPECT_SAME_DOUBLE(sum_of({-two53, -3.0}), -two53 - 4.0);
  EXPECT_SAME_DOUBLE(sum_of({-two53, -1.0, -std::ldexp(1.0, -1074)}), -two53 - 2.0);
  // Sticky bits far below the window (different words).
  EXPECT_SAME_DOUBLE(sum_of({1.0, std::ldexp(1.0, -53), DBL_TRUE_MIN}), std::nextafter(1.0, 2.0));
  EXPECT_SAME_DOUBLE(sum_of({1.0, std::ldexp(1.0, -53)}), 1.0);
  EXPECT_SAME_DOUBLE(sum_of({1.0, -std::ldexp(1.0, -54), -DBL_TRUE_MIN}), std::nextafter(1.0, 0.0));
  // Rounding carries into the next binade.
  const double below2 = std::nextafter(2.0, 0.0);
  EXPECT_SAME_DOUBLE(sum_of({below2, std::ldexp(1.0, -53)}), 2.0);
}

TEST(ExactSum, Overflow) {
  const double inf = std::numeric_limits<double>::infinity();
  const double half_ulp = std::ldexp(1.0, 970); // half an ulp of DBL_MAX
  EXPECT_SAME_DOUBLE(sum_of({DBL_MAX, DBL_MAX}), inf);
  EXPECT_SAME_DOUBLE(sum_of({-DBL_MAX, -DBL_MAX}), -inf);
  EXPECT_SAME_DOUBLE(sum_of({DBL_MAX, half_ulp}), inf); // tie, DBL_MAX is odd -> 2^1024
  EXPECT_SAME_DOUBLE(sum_of({DBL_MAX, half_ulp, -DBL_TRUE_MIN}), DBL_MAX);
  EXPECT_SAME_DOUBLE(sum_of({-DBL_MAX, -half_ulp}), -inf);
  // Many huge values: the top words take the carries.
  ExactSum s;
  for (int i = 0; i < 100000; ++i) s.add(DBL_MAX);
  EXPECT_SAME_DOUBLE(s.result(), inf);
  for (int i = 0; i < 100000; ++i) s.add(-DBL_MAX);
  s.add(0.25);
  EXPECT_SAME_DOUBLE(s.result(), 0.25);
}

TEST(ExactSum, Subnormals) {
  EXPECT_SAME_DOUBLE(sum_of({DBL_TRUE_MIN, DBL_TRUE_MIN}), 2 * DBL_TRUE_MIN);
  EXPECT_SAME_DOUBLE(sum_of({DBL_MIN, -DBL_TRUE_MIN}), std::nextafter(DBL_MIN, 0.0));
  EXPECT_SAME_DOUBLE(sum_of({std::nextafter(DBL_MIN, 0.0), DBL_TRUE_MIN}), DBL_MIN);
  EXPECT_SAME_DOUBLE(sum_of({-DBL_MIN, DBL_MIN / 2}), -DBL_MIN / 2);
  // Integer reference at the scale of the smallest subnormal: values k * 2^-1074 crossing
  // from subnormal into normal numbers.
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 200; ++trial) {
    const int bitsk = 1 + trial % 60;
    std::uniform_int_distribution<std::int64_t> k(-(std::int64_t{1} << bitsk),
                                                  std::int64_t{1} << bitsk);
    std::vector<double> v(1 + trial % 17);
    __int128 total = 0;
    for (auto& x : v) {
      const std::int64_t kk = k(rng);
      // k * 2^-1074 as a double, exactly (|k| < 2^61 fits 53 bits only when it does: round k).
      const double d = std::ldexp(static_cast<double>(kk), -1074);
      const auto back = static_cast<std::int64_t>(std::ldexp(d, 1074));
      x = d;
      total += back;
    }
    EXPECT_SAME_DOUBLE(exact_sum(v), reference(total, 1074)) << "trial " << trial;
  }
}

TEST(ExactSum, MatchesIntegerReference) {
  // Values k * 2^e with |k| <= 2^40 and e in [-50, 20]: the exact total in units of 2^-50
  // fits in 127 bits; the reference rounds it once.
  std::mt19937_64 rng(3);
  std::uniform_int_distribution<int> expo(-50, 20);
  std::uniform_int_distribution<int> kbits(1, 40);
  for (int trial = 0; trial < 3000; ++trial) {
    const int n = 1 + trial % 40;
    std::vector<double> v(n);
    __int128 total = 0;
    for (auto& x : v) {
      const int kb = kbits(rng);
      std::uniform_int_distribution<std::int64_t> k(-(std::int64_t{1} << kb),
                                                    std::int64_t{1} << kb);
      const std::int64_t kk = k(rng);
      const int e = expo(rng);
      x = std::ldexp(static_cast<double>(kk), e);
      total += static_cast<__int128>(kk) << (e + 50);
    }
    const double expect = reference(total, 50);
    EXPECT_SAME_DOUBLE(exact_sum(v), expect) << "trial " << trial;
    std::shuffle(v.begin(), v.end(), rng);
    EXPECT_SAME_DOUBLE(exact_sum(v), expect) << "trial " << trial << " (shuffled)";
  }
}

TEST(ExactSum, OrderIndependentBitForBit) {
  std::mt19937_64 rng(42);
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<double> v = wide_random(rng, 5000);
    if (trial % 2 == 1) {
      // Narrow range with heavy cancellation (the common case: energies of mixed sign).
      std::normal_distribution<double> g(0.0, 1.0);
      for (auto& x : v) x = g(rng) * std::pow(10.0, static_cast<int>(rng() % 30) - 15);
    }
    const double first = exact_sum(v);
    for (int k = 0; k < 5; ++k) {
      std::shuffle(v.begin(), v.end(), rng);
      EXPECT_SAME_DOUBLE(exact_sum(v), first);
    }
    std::sort(v.begin(), v.end());
    EXPECT_SAME_DOUBLE(exact_sum(v), first);
    std::reverse(v.begin(), v.end());
    EXPECT_SAME_DOUBLE(exact_sum(v), first);
  }
}

TEST(ExactSum, MergeEqualsAddingAll) {
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<double> v = wide_random(rng, 3000);
    if (trial % 2) {
      std::uniform_real_distribution<double> u(-1e3, 1e3);
      for (auto& x : v) x = u(rng);
    }
    ExactSum all;
    all.add(std::span<const double>(v));
    // Split into chunks (like threads or ranks), merge in two different ways.
    std::vector<ExactSum> parts(7);
    for (std::size_t i = 0; i < v.size(); ++i) parts[(i * 2654435761u) % parts.size()].add(v[i]);
    ExactSum merged;
    for (const auto& p : parts) merged.add(p);
    EXPECT_SAME_DOUBLE(merged.result(), all.result());
    ExactSum reverse_merged;
    for (auto it = parts.rbegin(); it != parts.rend(); ++it) reverse_merged.add(*it);
    EXPECT_SAME_DOUBLE(reverse_merged.result(), all.result());
    // Word reduction, as across MPI ranks: normalise each, add words elementwise.
    std::vector<std::int64_t> words(ExactSum::kWords + 1, 0);
    for (auto p : parts) {
      p.normalise();
      for (std::size_t i = 0; i < words.size(); ++i) words[i] += p.words()[i];
    }
    EXPECT_SAME_DOUBLE(ExactSum::from_words(words).result(), all.result());
    // Self-merge doubles the sum exactly.
    ExactSum twice = all;
    twice.add(twice);
    ExactSum doubled;
    for (double x : v) doubled.add(2 * x);
    if (std::isfinite(doubled.result())) {
      EXPECT_SAME_DOUBLE(twice.result(), doubled.result());
    }
  }
}

TEST(ExactSum, NormaliseKeepsValue) {
  std::mt19937_64 rng(9);
  const std::vector<double> v = wide_random(rng, 1000);
  ExactSum a, b;
  for (double x : v) {
    a.add(x);
    b.add(x);
    b.normalise();
  }
  EXPECT_SAME_DOUBLE(a.result(), b.result());
  // Normalised words: all but the top one (and the flag word) in [0, 2^32).
  const auto w = b.words();
  for (int i = 0; i < ExactSum::kWords - 1; ++i) {
    EXPECT_GE(w[i], 0);
    EXPECT_LT(w[i], std::int64_t{1} << 32);
  }
}

TEST(ExactSum, NaNAndInfinity) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_SAME_DOUBLE(sum_of({1.0, inf, -1e300}), inf);
  EXPECT_SAME_DOUBLE(sum_of({1.0, -inf}), -inf);
  EXPECT_SAME_DOUBLE(sum_of({inf, inf}), inf);
  EXPECT_TRUE(std::isnan(sum_of({inf, -inf})));
  EXPECT_TRUE(std::isnan(sum_of({1.0, nan, 2.0})));
  EXPECT_TRUE(std::isnan(sum_of({inf, nan})));
  // Propagated through merges and word reductions.
  ExactSum a, b, c;
  a.add(1.0);
  b.add(inf);
  c.add(-inf);
  ExactSum ab = a;
  ab.add(b);
  EXPECT_SAME_DOUBLE(ab.result(), inf);
  ExactSum abc = ab;
  abc.add(c);
  EXPECT_TRUE(std::isnan(abc.result()));
  std::vector<std::int64_t> words(ExactSum::kWords + 1, 0);
  for (ExactSum p : {a, b, b, b}) {
    p.normalise();
    for (std::size_t i = 0; i < words.size(); ++i) words[i] += p.words()[i];
  }
  ExactSum red = ExactSum::from_words(words);
  EXPECT_SAME_DOUBLE(red.result(), inf);
  red.add(-1.0);
  EXPECT_SAME_DOUBLE(red.result(), inf);
  red.add(nan);
  EXPECT_TRUE(std::isnan(red.result()));
}

TEST(ExactSum, ManyAddsWithCarries) {
  // Values whose chunks are all ones: the words grow fastest. 3e6 adds of x and then of -x.
  const double x = std::bit_cast<double>(std::uint64_t{0x4FFFFFFFFFFFFFFF});
  ExactSum s;
  for (int i = 0; i < 3000000; ++i) s.add(x);
  s.add(0.5);
  for (int i = 0; i < 3000000; ++i) s.add(-x);
  EXPECT_SAME_DOUBLE(s.result(), 0.5);
  // Integer multiples are exact: n * x for n = 2^20 is a shift.
  ExactSum t;
  for (int i = 0; i < (1 << 20); ++i) t.add(x);
  EXPECT_SAME_DOUBLE(t.result(), std::ldexp(x, 20));
}
