// Fixed-point superaccumulator (after R. M. Neal, "Fast exact summation using small and large
// superaccumulators", 2015).
//
// Representation. Every finite double is an integer multiple of 2^-1074 (the smallest
// subnormal), so the exact sum is an integer N in units of 2^-1074:
//     N = sum_i words_[i] * 2^(32 i),   i = 0 .. kWords-1.
// A double x = m * 2^(s - 1074) with a 53-bit integer mantissa m and s = max(biased exponent
// - 1, 0) in [0, 2045]; m << (s mod 32) has at most 84 bits and is added as three 32-bit
// chunks to words s/32, s/32+1, s/32+2 (at most word 65). Each add changes a word by less than
// 2^32, so a signed 64-bit word takes 2^31 adds before it can overflow; normalise() (carry
// propagation, words 0..kWords-2 back into [0, 2^32)) runs every kNormaliseEvery adds. After
// normalisation the top word (66, weight 2^2112) holds floor(N / 2^2112): the sign of the sum.
//
// NaN and infinities go to the extra word words_[kWords] as three 21-bit counters (NaN, +inf,
// -inf). Locally each counter is 0 or 1; reductions add the words elementwise (so a counter
// holds at most the number of accumulators merged) and normalise() clamps it back to 0/1.
//
// result() rounds N * 2^-1074 to nearest, ties to even, once: the result depends only on the
// exact sum, hence not on the order of the additions.
#include "core/exact_sum.hpp"

#include <bit>
#include <cassert>
#include <cmath>
#include <cstring>
#include <limits>

namespace parcae {

namespace {

constexpr int kTop = ExactSum::kWords - 1; // word with the sign / carry-out
constexpr int kFlags = ExactSum::kWords;   // NaN / inf counters
constexpr std::int64_t kLowMask = (std::int64_t{1} << 32) - 1;
// ExactSum::kNormaliseEvery: adds (of magnitude < 2^32 per word) between normalisations; |word|
// stays below 2^62 + 2^32.

constexpr int kFlagBits = 21;
constexpr std::int64_t kFlagMask = (std::int64_t{1} << kFlagBits) - 1;
constexpr int kNaNShift = 0;
constexpr int kPosInfShift = kFlagBits;
constexpr int kNegInfShift = 2 * kFlagBits;

std::int64_t clamp_flags(std::int64_t f) {
  std::int64_t out = 0;
  for (int shift : {kNaNShift, kPosInfShift, kNegInfShift}) {
    if (((f >> shift) & kFlagMask) != 0) out |= std::int64_t{1} << shift;
  }
  return out;
}

} // namespace

void ExactSum::add_special(std::uint64_t mantissa, bool negative) {
  const int shift = mantissa != 0 ? kNaNShift : (negative ? kNegInfShift : kPosInfShift);
  words_[kFlags] |= std::int64_t{1} << shift;
}

void ExactSum::add(std::span<const double> values) {
  for (double v : values) add(v);
}

void ExactSum::add(const ExactSum& other) {
  if (&other == this) {
    const ExactSum copy = other;
    add(copy);
    return;
  }
  const ExactSum* src = &other;
  ExactSum normalised;
  if (static_cast<std::int64_t>(pending_) + other.pending_ >= kNormaliseEvery) {
    normalise();
    normalised = other;
    normalised.normalise();
    src = &normalised;
  }
  for (int i = 0; i < kWords; ++i) words_[i] += src->words_[i];
  words_[kFlags] = clamp_flags(words_[kFlags] + src->words_[kFlags]);
  pending_ += src->pending_;
}

void ExactSum::normalise() {
  std::int64_t carry = 0;
  for (int i = 0; i < kTop; ++i) {
    const std::int64_t w = words_[i] + carry; // |w| < 2^63: |carry| < 2^31
    carry = w >> 32;                          // floor division (arithmetic shift)
    words_[i] = w & kLowMask;
  }
  words_[kTop] += carry;
  words_[kFlags] = clamp_flags(words_[kFlags]);
  pending_ = 1;
}

ExactSum ExactSum::from_words(std::span<const std::int64_t> words) {
  ExactSum s;
  assert(words.size() == s.words_.size());
  for (std::size_t i = 0; i < s.words_.size() && i < words.size(); ++i) s.words_[i] = words[i];
  s.normalise();
  return s;
}

double ExactSum::result() const {
  const std::int64_t flags = clamp_flags(words_[kFlags]);
  if (flags != 0) {
    const bool nan = (flags >> kNaNShift) & 1;
    const bool pos = (flags >> kPosInfShift) & 1;
    const bool neg = (flags >> kNegInfShift) & 1;
    if (nan || (pos && neg)) return std::numeric_limits<double>::quiet_NaN();
    return pos ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity();
  }

  ExactSum t = *this;
  t.normalise();
  std::uint64_t sign = 0;
  if (t.words_[kTop] < 0) {
    sign = std::uint64_t{1} << 63;
    for (int i = 0; i < kWords; ++i) t.words_[i] = -t.words_[i];
    t.normalise();
  }
  const std::uint64_t inf_bits = std::uint64_t{0x7FF} << 52;
  // Now words 0..kTop-1 are in [0, 2^32) and the top word is >= 0: the magnitude N.
  if (t.words_[kTop] != 0) return std::bit_cast<double>(sign | inf_bits); // N >= 2^2112
  int top = kTop - 1;
  while (top >= 0 && t.words_[top] == 0) --top;
  if (top < 0) return 0.0; // exact zero: +0

  const auto word = [&](int i) -> std::uint64_t {
    return i >= 0 && i < kTop ? static_cast<std::uint64_t>(t.words_[i]) : 0;
  };
  // Most significant bit of N: N in [2^p, 2^(p+1)).
  const int p = 32 * top + std::bit_width(word(top)) - 1;
  if (p >= 2098) return std::bit_cast<double>(sign | inf_bits); // N * 2^-1074 >= 2^1024

  std::uint64_t bits = 0;
  if (p < 64) {
    const std::uint64_t n = word(0) | (word(1) << 32);
    if (p <= 52) {
      // Exactly representable: a subnormal (n < 2^52) or the smallest binade, whose encoding
      // is n itself.
      bits = n;
    } else {
      const std::uint64_t w = n << (63 - p); // msb at bit 63
      const std::uint64_t m = w >> 11;
      const bool round = (w >> 10) & 1;
      const bool sticky = (w & 0x3FF) != 0;
      bits = (static_cast<std::uint64_t>(p - 52) << 52) + m;
      if (round && (sticky || (m & 1))) ++bits;
    }
  } else {
    // 64-bit window [p-63, p] of N, then round bit and sticky bits below.
    const int lo = p - 63;
    const int j = lo >> 5;
    const int o = lo & 31;
    const unsigned __int128 acc = static_cast<unsigned __int128>(word(j)) |
                                  (static_cast<unsigned __int128>(word(j + 1)) << 32) |
                                  (static_cast<unsigned __int128>(word(j + 2)) << 64);
    const auto w = static_cast<std::uint64_t>(acc >> o);
    bool sticky = (w & 0x3FF) != 0 || (word(j) & ((std::uint64_t{1} << o) - 1)) != 0;
    for (int i = 0; i < j && !sticky; ++i) sticky = word(i) != 0;
    const std::uint64_t m = w >> 11;
    const bool round = (w >> 10) & 1;
    // Exponent field p-51 (value m * 2^(p-52) units): adding m (with its hidden bit) to
    // (p-52) << 52 gives it; a rounding carry out of the mantissa bumps the exponent, up to
    // the infinity encoding.
    bits = (static_cast<std::uint64_t>(p - 52) << 52) + m;
    if (round && (sticky || (m & 1))) ++bits;
  }
  if (bits >= inf_bits) bits = inf_bits;
  return std::bit_cast<double>(sign | bits);
}

double exact_sum(std::span<const double> values) {
  ExactSum s;
  s.add(values);
  return s.result();
}

} // namespace parcae
