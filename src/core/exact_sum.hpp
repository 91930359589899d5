#pragma once
// Order-independent (exact) summation of doubles: a fixed-point superaccumulator. Adding the
// same set of numbers in any order, on any number of threads or MPI ranks (by adding the
// accumulators' integer words), gives the same correctly-rounded result bit for bit. parcae
// uses it for every global sum that reaches the output (energies, momentum, work), so results
// do not depend on the decomposition.
#include <array>
#include <bit>
#include <cstdint>
#include <span>

namespace parcae {

class ExactSum {
public:
  /// Number of 64-bit words of the accumulator (each holds kBitsPerWord bits of the fixed-point
  /// value plus carry headroom). Covers every finite double.
  static constexpr int kWords = 67;
  static constexpr int kBitsPerWord = 32;

  ExactSum() { words_.fill(0); }
  /// Add one finite double exactly (NaN/inf are recorded and make result() NaN/inf). Inline:
  /// it sits in the hot loops of the energy, contact and rigid-body sums.
  inline void add(double x);
  /// Add every value of a span (same as add(double) for each).
  void add(std::span<const double> values);
  /// Add another accumulator (exact).
  void add(const ExactSum& other);
  /// The correctly rounded sum.
  [[nodiscard]] double result() const;
  /// The raw words, for reduction across processes (sum the words elementwise, then
  /// normalise with from_words()).
  [[nodiscard]] std::span<const std::int64_t> words() const { return words_; }
  std::span<std::int64_t> words() { return words_; }
  /// Carry-propagate so that the words can take more additions without overflow.
  void normalise();
  /// Accumulator from raw words (kWords + 1 of them), e.g. the elementwise sum of the words of
  /// normalised accumulators from up to 2^21 processes. Normalises.
  [[nodiscard]] static ExactSum from_words(std::span<const std::int64_t> words);

private:
  /// Adds between normalisations (each changes a word by less than 2^32; see exact_sum.cpp).
  static constexpr int kNormaliseEvery = 1 << 30;
  void add_special(std::uint64_t mantissa, bool negative); ///< NaN / inf: the flag word
  std::array<std::int64_t, kWords + 1> words_{}; ///< last word: count of NaN/inf seen (encoded)
  int pending_ = 0;
};

void ExactSum::add(double x) {
  // x = m * 2^(s - 1074): m << (s mod 32) (at most 84 bits) goes as three 32-bit chunks into
  // words s/32 .. s/32 + 2
  const auto bits = std::bit_cast<std::uint64_t>(x);
  const auto biased = static_cast<int>((bits >> 52) & 0x7FF);
  std::uint64_t m = bits & ((std::uint64_t{1} << 52) - 1);
  const bool negative = (bits >> 63) != 0;
  if (biased == 0x7FF) {
    add_special(m, negative);
    return;
  }
  int s = 0;
  if (biased != 0) {
    m |= std::uint64_t{1} << 52;
    s = biased - 1;
  }
  if (m == 0) return; // +-0
  if (pending_ >= kNormaliseEvery) normalise();
  ++pending_;
  const int i = s >> 5;
  const int r = s & 31;
  const std::uint64_t lo = m << r;                     // bits 0..63 of m * 2^r
  const std::uint64_t hi = r != 0 ? m >> (64 - r) : 0; // bits 64..83
  const auto c0 = static_cast<std::int64_t>(lo & 0xFFFFFFFFu);
  const auto c1 = static_cast<std::int64_t>(lo >> 32);
  const auto c2 = static_cast<std::int64_t>(hi);
  if (negative) {
    words_[i] -= c0;
    words_[i + 1] -= c1;
    words_[i + 2] -= c2;
  } else {
    words_[i] += c0;
    words_[i + 1] += c1;
    words_[i + 2] += c2;
  }
}

/// Convenience: exact sum of a span.
double exact_sum(std::span<const double> values);

} // namespace parcae
