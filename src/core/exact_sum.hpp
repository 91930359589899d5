#pragma once
// Order-independent (exact) summation of doubles: a fixed-point superaccumulator. Adding the
// same set of numbers in any order, on any number of threads or MPI ranks (by adding the
// accumulators' integer words), gives the same correctly-rounded result bit for bit. parcae
// uses it for every global sum that reaches the output (energies, momentum, work), so results
// do not depend on the decomposition.
#include <array>
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
  /// Add one finite double exactly (NaN/inf are recorded and make result() NaN/inf).
  void add(double x);
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
  std::array<std::int64_t, kWords + 1> words_{}; ///< last word: count of NaN/inf seen (encoded)
  int pending_ = 0;
};

/// Convenience: exact sum of a span.
double exact_sum(std::span<const double> values);

} // namespace parcae
