#pragma once
// Number and text helpers for keyword cards: Fortran-style reals, checked integers.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace parcae::io {

/// Leading and trailing blanks (space, tab, CR) removed.
std::string_view trim(std::string_view s);
std::string to_upper(std::string_view s);

/// A real in any Fortran style: "1.0e3", "1.0d3", "1e+03", ".5", "5.", "-2". nullopt if the
/// text is not exactly one finite number.
std::optional<double> parse_real(std::string_view text);

enum class IntStatus : std::uint8_t { Ok, NotNumber, NotInteger, TooLarge };

/// A 64-bit integer. "12", "+12" and integral reals ("12.", "1.2e1") are accepted.
IntStatus parse_int(std::string_view text, std::int64_t& out);

/// Shortest text that reads back to the same double ("0.1", "1e+28").
std::string format_real(double v);

} // namespace parcae::io
