#include "input/deck_source.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "input/card_number.hpp"

namespace parcae::io {

namespace {

bool is_control_byte(unsigned char c) {
  return (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v') || c == 0x7f;
}

int line_of(std::string_view text, std::size_t pos) {
  return 1 +
         static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(pos), '\n'));
}

[[noreturn]] void not_text(std::string_view text, std::size_t pos, const std::string& path,
                           const std::string& why) {
  const int line = line_of(text, pos);
  throw InputError({path, line, {}}, fmt::format("not a text keyword file ({} at line {}, byte "
                                                 "{}); is this a binary file?",
                                                 why, line, pos + 1));
}

} // namespace

void check_text(std::string_view text, const std::string& path) {
  const std::size_t nul = text.find('\0');
  if (nul != std::string_view::npos) not_text(text, nul, path, "NUL byte");
  const std::size_t n = std::min<std::size_t>(text.size(), 65536);
  std::size_t control = 0, high = 0, first = n;
  for (std::size_t i = 0; i < n; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    const bool ctl = is_control_byte(c);
    control += ctl;
    high += c >= 0x80;
    if ((ctl || c >= 0x80) && first == n) first = i;
  }
  if (n > 0 && (control * 20 > n || (control + high) * 10 > n * 3))
    not_text(text, first, path, fmt::format("{}% non-printable bytes", (control + high) * 100 / n));
}

std::string load_deck_text(const std::string& path, const SourceLoc& from) {
  std::ifstream f(path, std::ios::binary);
  if (!f)
    throw InputError(from, from.line > 0 ? fmt::format("cannot open file \"{}\"", path)
                                         : std::string("cannot open the deck file"));
  // one read into a string of the file's size (a stream copy would copy it twice); what has
  // no size (a pipe) is copied from the stream
  std::string text;
  f.seekg(0, std::ios::end);
  const std::streamoff size = f.tellg();
  f.seekg(0, std::ios::beg);
  if (size >= 0 && f) {
    text.resize(static_cast<std::size_t>(size));
    f.read(text.data(), size);
    text.resize(static_cast<std::size_t>(f.gcount()));
  } else {
    f.clear();
    std::ostringstream ss;
    ss << f.rdbuf();
    text = ss.str();
  }
  check_text(text, path);
  return text;
}

std::vector<std::string_view> split_lines(std::string_view text) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  // Old Mac files end lines with a lone \r.
  const char eol = text.find('\n') == std::string_view::npos ? '\r' : '\n';
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(eol, start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.emplace_back(line);
    start = end + 1;
  }
  return lines;
}

KeywordLine parse_keyword_line(std::string_view line) {
  line = trim(line);
  const std::size_t end = line.find_first_of(" \t");
  KeywordLine k{
      to_upper(line.substr(0, end)),
      std::string(end == std::string_view::npos ? std::string_view{} : trim(line.substr(end))),
      std::nullopt};
  // A format suffix on the keyword ("*NODE+") or alone after it ("*NODE +").
  auto take_suffix = [&](char c) -> std::optional<LineFormat> {
    if (c == '+') return LineFormat::Long;
    if (c == '%') return LineFormat::I10;
    if (c == '-') return LineFormat::Standard;
    return std::nullopt;
  };
  if (k.keyword.size() > 1 && (k.format = take_suffix(k.keyword.back())))
    k.keyword.pop_back();
  else if (k.trailing.size() == 1 && (k.format = take_suffix(k.trailing[0])))
    k.trailing.clear();
  return k;
}

} // namespace parcae::io
