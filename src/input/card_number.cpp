#include "input/card_number.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

#include <fmt/format.h>

namespace parcae::io {

namespace {
bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/// "1.0d3" -> "1.0e3", without a leading '+' (std::from_chars does not take one).
std::string normalise_real(std::string_view t) {
  std::string s(t);
  for (char& c : s)
    if (c == 'd' || c == 'D') c = 'e';
  if (!s.empty() && s.front() == '+') s.erase(0, 1);
  return s;
}
} // namespace

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
  return s;
}

std::string to_upper(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return out;
}

std::optional<double> parse_real(std::string_view text) {
  const std::string s = normalise_real(trim(text));
  if (s.empty() || !(std::isdigit(static_cast<unsigned char>(s[0])) || s[0] == '.' || s[0] == '-'))
    return std::nullopt;
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec == std::errc() && end != s.data() + s.size()) {
    // Fortran writes exponents without a letter when they do not fit ("2.00000-3", "1.5+4",
    // "7.0-12"): a sign after a mantissa digit or point starts the exponent.
    const std::size_t k = static_cast<std::size_t>(end - s.data());
    const char prev = s[k - 1];
    if ((s[k] == '+' || s[k] == '-') &&
        (std::isdigit(static_cast<unsigned char>(prev)) || prev == '.')) {
      std::string e = s;
      e.insert(k, 1, 'e');
      if (e[k + 1] == '+') e.erase(k + 1, 1);
      const auto r = std::from_chars(e.data(), e.data() + e.size(), v);
      if (r.ec != std::errc() || r.ptr != e.data() + e.size() || !std::isfinite(v))
        return std::nullopt;
      return v;
    }
  }
  if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

IntStatus parse_int(std::string_view text, std::int64_t& out) {
  std::string_view t = trim(text);
  if (!t.empty() && t.front() == '+') t.remove_prefix(1);
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), out);
  if (ec == std::errc() && end == t.data() + t.size() && !t.empty()) return IntStatus::Ok;
  if (ec == std::errc::result_out_of_range && end == t.data() + t.size())
    return IntStatus::TooLarge;
  const auto real = parse_real(text);
  if (!real) return IntStatus::NotNumber;
  if (std::trunc(*real) != *real) return IntStatus::NotInteger;
  if (std::abs(*real) >= 9.2e18) return IntStatus::TooLarge;
  out = static_cast<std::int64_t>(*real);
  return IntStatus::Ok;
}

std::string format_real(double v) {
  std::string s = fmt::format("{}", v);
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  return s;
}

} // namespace parcae::io
