#include "input/card_parser.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

#include "input/card_number.hpp"

namespace parcae::io {

// ---------------------------------------------------------------------------------------------
// Splitting a line into field texts

namespace {

bool is_blank_char(char c) {
  return c == ' ' || c == '\t' || c == '\r';
}

/// Column where the rest-of-line field starts, or -1 when the card has none.
int rest_of_line_column(const CardSpec& card, LineFormat format) {
  int col = 0;
  for (const FieldSpec& f : card.fields) {
    if (f.width_in(format) == 0) return col;
    col += f.width_in(format);
  }
  return -1;
}

/// Fixed format is positional: a field is its columns, whatever touches it ("0.0MECH" is a DA4
/// of 0.0 and a SOLVER of MECH; "12353.5355339059327" is an 8-column NID and a 16-column X). A
/// value wider than its field cannot be told apart from two touching values, so none is
/// guessed at.
void split_fixed(const CardSpec& card, std::string_view line, LineFormat format,
                 std::vector<std::string_view>& out) {
  out.clear();
  int col = 0;
  const int n = static_cast<int>(line.size());
  for (const FieldSpec& f : card.fields) {
    const int w = f.width_in(format);
    if (w == 0) {
      out.push_back(col < n ? line.substr(static_cast<std::size_t>(col)) : std::string_view{});
      continue;
    }
    out.push_back(col < n ? line.substr(static_cast<std::size_t>(col), static_cast<std::size_t>(w))
                          : std::string_view{});
    col += w;
  }
}

void split_free(const CardSpec& card, std::string_view line, const SourceLoc& loc,
                std::vector<std::string_view>& out) {
  out.clear();
  const std::size_t nfields = card.fields.size();
  const bool rest = card.fields.back().width == 0;
  std::size_t start = 0;
  while (true) {
    if (rest && out.size() + 1 == nfields) {
      out.push_back(line.substr(start));
      break;
    }
    const std::size_t comma = line.find(',', start);
    out.push_back(line.substr(start, comma == std::string_view::npos ? comma : comma - start));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  while (out.size() > nfields && trim(out.back()).empty()) out.pop_back();
  if (out.size() > nfields)
    throw InputError(loc, fmt::format("too many values: {} comma-separated values for the {} "
                                      "fields of this card ({})",
                                      out.size(), nfields, card.field_list()));
  out.resize(nfields);
}

} // namespace

bool is_free_format(const CardSpec& card, std::string_view line, LineFormat format) {
  const std::size_t comma = line.find(',');
  if (comma == std::string_view::npos) return false;
  const int rest_col = rest_of_line_column(card, format);
  return rest_col < 0 || static_cast<int>(comma) < rest_col;
}

void split_card_line(const CardSpec& card, std::string_view line, LineFormat format,
                     const SourceLoc& loc, bool free, std::vector<std::string_view>& out) {
  if (free)
    split_free(card, line, loc, out);
  else
    split_fixed(card, line, format, out);
}

std::vector<std::string_view> split_card_line(const CardSpec& card, std::string_view line,
                                              LineFormat format, const SourceLoc& loc) {
  std::vector<std::string_view> out;
  split_card_line(card, line, format, loc, is_free_format(card, line, format), out);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Field values

namespace {

Value default_value(const FieldSpec& f, int line) {
  Value v{&f, line, false, true, 0, 0.0, {}};
  if (f.type == FieldType::String)
    v.s = f.def;
  else if (f.type == FieldType::Real)
    v.r = f.def.empty() ? 0.0 : parse_real(f.def).value();
  else if (!f.def.empty())
    parse_int(f.def, v.i);
  return v;
}

/// "&name" or "-&name" in a numeric field.
void substitute_parameter(const FieldSpec& f, std::string_view t, const Parameters& params,
                          const SourceLoc& loc, Value& v) {
  const bool negate = t.front() == '-';
  const std::string_view name = t.substr(negate ? 2 : 1);
  const Parameter* p = params.find(name);
  if (!p) throw InputError(loc, fmt::format("field {}: undefined parameter &{}", f.name, name));
  if (p->type == 'C')
    throw InputError(loc, fmt::format("field {}: parameter &{} is a character parameter, not a "
                                      "number",
                                      f.name, name));
  const double x = negate ? -p->number : p->number;
  v.r = x;
  if (f.type == FieldType::Int) {
    if (std::trunc(x) != x)
      throw InputError(
          loc, fmt::format("field {}: parameter &{} = {} is not an integer", f.name, name, x));
    // Checked before the conversion, which is undefined out of range (found with the fuzz target).
    if (std::abs(x) >= 9.2e18)
      throw InputError(loc, fmt::format("field {}: parameter &{} = {} does not fit in a 64-bit "
                                        "integer",
                                        f.name, name, x));
    v.i = static_cast<std::int64_t>(x);
  }
}

void parse_int_field(const FieldSpec& f, std::string_view t, const SourceLoc& loc, Value& v) {
  switch (parse_int(t, v.i)) {
  case IntStatus::Ok:
    return;
  case IntStatus::NotNumber:
    throw InputError(loc, fmt::format("field {}: cannot read \"{}\" as an integer", f.name, t));
  case IntStatus::NotInteger:
    throw InputError(loc, fmt::format("field {}: \"{}\" is not an integer", f.name, t));
  case IntStatus::TooLarge:
    throw InputError(loc,
                     fmt::format("field {}: \"{}\" does not fit in a 64-bit integer", f.name, t));
  }
}

} // namespace

Value parse_field(const FieldSpec& f, std::string_view text, const Parameters& params,
                  const SourceLoc& loc) {
  const std::string_view t = trim(text);
  if (t.empty()) {
    if (f.required) throw InputError(loc, fmt::format("field {} is required", f.name));
    Value v = default_value(f, loc.line);
    v.present = true;
    return v;
  }
  Value v{&f, loc.line, true, false, 0, 0.0, {}};
  if (f.type == FieldType::String) {
    v.s = t;
  } else if (t.front() == '&' || (t.size() > 1 && t[0] == '-' && t[1] == '&')) {
    substitute_parameter(f, t, params, loc, v);
  } else if (f.type == FieldType::Int) {
    parse_int_field(f, t, loc, v);
  } else {
    const auto x = parse_real(t);
    if (!x)
      throw InputError(loc, fmt::format("field {}: cannot read \"{}\" as a number", f.name, t));
    v.r = *x;
  }
  return v;
}

// ---------------------------------------------------------------------------------------------
// Blocks

namespace {

bool is_blank_line(const DataLine& l) {
  return trim(l.text).empty();
}

/// Number of values on a line (free-format tokens, or blank-separated words).
std::size_t count_values(std::string_view line) {
  std::size_t n = 0;
  if (line.find(',') != std::string_view::npos) {
    std::size_t start = 0;
    for (std::size_t comma = 0; comma != std::string_view::npos; start = comma + 1) {
      comma = line.find(',', start);
      if (!trim(line.substr(start, comma == std::string_view::npos ? comma : comma - start))
               .empty())
        ++n;
    }
    return n;
  }
  bool in_word = false;
  for (char c : line) {
    if (!is_blank_char(c) && !in_word) ++n;
    in_word = !is_blank_char(c);
  }
  return n;
}

} // namespace

namespace {

/// Whether a field's text has a blank or tab inside it.
bool has_blank(std::string_view t) {
  for (const char c : t)
    if (c == ' ' || c == '\t') return true;
  return false;
}

} // namespace

BlockParser::BlockParser(const KeywordMatch& m, const RawBlock& raw, const Parameters& params)
    : spec_(*m.spec), raw_(raw), params_(params),
      origin_(std::make_shared<const Fields::Origin>(Fields::Origin{raw.file, raw.keyword})),
      loc_{raw.file, raw.line, raw.keyword} {
  block_.spec = m.spec;
  block_.options = m.options;
  block_.loc = loc_;
  block_.trailing = raw.trailing;
  block_.head = Fields(origin_);
  block_.head.set_line(raw.line);
  for (const CardSpec& card : spec_.head)
    if (card.active(block_.options)) read_head_card(card);
  for (const CardSpec& c : use_alt_rows() ? spec_.alt_rows : spec_.rows)
    if (c.active(block_.options)) {
      rows_.push_back(&c);
      row_fields_ += c.fields.size();
    }
}

void BlockParser::read_card(const CardSpec& card, const DataLine& line, Fields& into) {
  loc_.line = line.line;
  const bool fixed = !is_free_format(card, line.text, raw_.format);
  split_card_line(card, line.text, raw_.format, loc_, !fixed, texts_);
  const std::vector<std::string_view>& texts = texts_;
  for (std::size_t k = 0; k < card.fields.size(); ++k) {
    const FieldSpec& f = card.fields[k];
    const std::string_view t = trim(texts[k]);
    // (plain loops and comparisons: find_first_of on a two-character set calls memchr once per
    // character of the field, which was 5 % of reading a vehicle deck)
    const bool blanks = fixed && f.type != FieldType::String && has_blank(t) && t.front() != '&' &&
                        !(t.size() > 1 && t[0] == '-' && t[1] == '&');
    // An exponent letter with no digits after it ("1.000000E", a line shifted one column):
    // Intel Fortran, which LS-DYNA is built with, reads the missing exponent as 0.
    const char last = t.empty() ? '\0' : t.back();
    const bool bare_exponent =
        f.type == FieldType::Real && t.size() > 1 &&
        (last == 'e' || last == 'E' || last == 'd' || last == 'D') &&
        (std::isdigit(static_cast<unsigned char>(t[t.size() - 2])) || t[t.size() - 2] == '.') &&
        t.find('&') == std::string_view::npos;
    if (blanks || bare_exponent) {
      // LS-DYNA reads fixed-format fields with Fortran's formatted read, which ignores blanks
      // inside a numeric field ("0       1" is 1): read what it reads, and say so.
      std::string squeezed;
      for (char c : t)
        if (!is_blank_char(c) || !fixed) squeezed += c;
      if (bare_exponent) squeezed += '0';
      const Value v = parse_field(f, squeezed, params_, loc_);
      if (block_.blanks_inside++ == 0) {
        block_.blanks_loc = loc_;
        block_.blanks_note = fmt::format(
            "field {}: \"{}\" {} and is read as {}, as LS-DYNA's fixed-format read does ({}); "
            "the line's columns probably do not match the card's field widths",
            f.name, t, blanks ? "has blanks inside it" : "ends in an exponent letter",
            f.type == FieldType::Int ? std::to_string(v.i) : format_real(v.r),
            blanks ? "blanks in a number are ignored" : "a missing exponent is 0");
      }
      into.add(v);
      continue;
    }
    into.add(parse_field(f, texts[k], params_, loc_));
  }
}

void BlockParser::missing_card(const CardSpec& card, int line) const {
  throw InputError(
      {raw_.file, line, raw_.keyword},
      fmt::format("{}: missing card \"{}\" ({})", raw_.keyword, card.label, card.field_list()));
}

void BlockParser::read_head_card(const CardSpec& card) {
  // (column 1, LS-DYNA's rule: a card 1 whose right-justified first field is "&name" is not it)
  const bool led =
      card.lead == 0 || (pos_ < raw_.lines.size() && raw_.lines[pos_].text.starts_with(card.lead));
  if ((card.read_if && !card.read_if(block_.head)) || !led) {
    for (const FieldSpec& f : card.fields) block_.head.add(default_value(f, raw_.line));
  } else if (pos_ < raw_.lines.size()) {
    read_card(card, raw_.lines[pos_++], block_.head);
  } else if (card.may_be_omitted()) {
    for (const FieldSpec& f : card.fields) block_.head.add(default_value(f, raw_.line));
  } else {
    missing_card(card, raw_.line);
  }
}

bool BlockParser::use_alt_rows() const {
  if (spec_.alt_rows.empty()) return false;
  if (!spec_.alt_marker.empty() &&
      to_upper(raw_.trailing).find(spec_.alt_marker) != std::string::npos)
    return true;
  const CardSpec& alt = spec_.alt_rows.front();
  for (std::size_t p = pos_; p < raw_.lines.size(); ++p) {
    if (is_blank_line(raw_.lines[p])) continue;
    const std::string_view text = raw_.lines[p].text;
    // A fixed-format line longer than the alternative's first card is the main layout, however
    // few blanks separate its fields (8-digit ids packed into 8-wide columns: one "word").
    if (!is_free_format(alt, text, raw_.format)) {
      int alt_width = 0;
      for (const FieldSpec& f : alt.fields) alt_width += f.width_in(raw_.format);
      const std::size_t used = text.find_last_not_of(" \t\r") + 1;
      if (alt_width > 0 && used > static_cast<std::size_t>(alt_width)) return false;
    }
    return count_values(text) <= alt.fields.size();
  }
  return false;
}

void BlockParser::skip_blank_lines() {
  while (pos_ < raw_.lines.size() && is_blank_line(raw_.lines[pos_])) ++pos_;
}

bool BlockParser::only_blank_lines_left() const {
  return std::all_of(raw_.lines.begin() + static_cast<long>(pos_), raw_.lines.end(), is_blank_line);
}

// Blank lines between groups are skipped unless a group starts with a title card (a blank
// title is a title); inside a group a blank line is a card of defaults; trailing blank lines
// are ignored.
bool BlockParser::read_rows(std::size_t max_groups) {
  block_.rows.clear();
  if (rows_.empty()) return false;
  const bool titled = rows_.front()->fields.front().width == 0;
  while (block_.rows.size() < max_groups && !only_blank_lines_left()) {
    if (!titled) skip_blank_lines();
    Fields group(origin_);
    group.reserve(row_fields_);
    const int first_line = raw_.lines[pos_].line;
    group.set_line(first_line);
    for (const CardSpec* card : rows_) {
      if (card->read_if && !card->read_if(group)) {
        for (const FieldSpec& f : card->fields) group.add(default_value(f, first_line));
      } else if (pos_ < raw_.lines.size()) {
        read_card(*card, raw_.lines[pos_++], group);
      } else if (card->may_be_omitted()) {
        for (const FieldSpec& f : card->fields) group.add(default_value(f, first_line));
      } else {
        missing_card(*card, first_line);
      }
    }
    block_.rows.push_back(std::move(group));
  }
  row_count_ += block_.rows.size();
  return !block_.rows.empty();
}

void BlockParser::finish() {
  if (!rows_.empty() && row_count_ < static_cast<std::size_t>(spec_.min_rows))
    missing_card(*rows_.front(), raw_.line);
  skip_blank_lines();
  if (pos_ >= raw_.lines.size() || spec_.ignore_extra) return;
  throw InputError({raw_.file, raw_.lines[pos_].line, raw_.keyword},
                   fmt::format("unexpected data line for {} (all its cards have been read): "
                               "\"{}\"",
                               raw_.keyword, trim(raw_.lines[pos_].text)));
}

Block parse_block(const KeywordMatch& match, const RawBlock& raw, const Parameters& params) {
  BlockParser parser(match, raw, params);
  Block block;
  std::vector<Fields> rows;
  while (parser.read_rows(4096))
    for (Fields& f : parser.block().rows) rows.push_back(std::move(f));
  parser.finish();
  block = std::move(parser.block());
  block.rows = std::move(rows);
  return block;
}

} // namespace parcae::io
