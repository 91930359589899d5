#pragma once
// Reading a keyword file: text checks, lines, keyword lines.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "input/card_spec.hpp"

namespace parcae::io {

/// The whole file. Throws InputError at `from` if it cannot be read, and at the offending line
/// if it is not text (a NUL byte, or mostly non-printable bytes).
std::string load_deck_text(const std::string& path, const SourceLoc& from);

/// Throws InputError if `text` does not look like a text file.
void check_text(std::string_view text, const std::string& path);

/// Lines without their terminators (\n, \r\n or \r); a UTF-8 byte-order mark is dropped.
std::vector<std::string_view> split_lines(std::string_view text);

/// A line starting with '*': the keyword (upper case, without a format suffix), the text after
/// it, and the format a suffix asks for ('+' long, '%' I10, '-' standard).
struct KeywordLine {
  std::string keyword;
  std::string trailing;
  std::optional<LineFormat> format;
};
KeywordLine parse_keyword_line(std::string_view line);

} // namespace parcae::io
