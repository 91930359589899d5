// keyword_coverage_markdown(): docs/keywords.md, generated from the card tables.
#include <cctype>
#include <fmt/format.h>

#include "input/card_spec.hpp"
#include "input/keyword_reader.hpp"

namespace parcae {

namespace {

using io::CardSpec;
using io::FieldSpec;
using io::FieldType;
using io::KeywordSpec;

constexpr std::string_view kIntro = R"(# Supported LS-DYNA keywords

<!-- Generated from the card tables in src/input/card_tables.cpp by keyword_coverage_markdown().
     Do not edit by hand: run scripts/gen_keyword_docs.sh (test_input checks that this file is
     up to date). -->

parcae reads LS-DYNA keyword decks. General syntax:

- Keywords start in column 1 with `*` and are case-insensitive. Text after the keyword on the
  keyword line (for example `*ELEMENT_SOLID (ten nodes format)`) is a comment.
- Lines starting with `$` are comments. A blank line in place of a card is a card of defaults,
  and cards left out at the end of a keyword's data (the next line starts a keyword) take their
  defaults too; only the cards marked "required" below must be given.
  Cards marked "repeated" below form a record that repeats until the next keyword (several
  nodes, parts or sections under one keyword); blank lines between such records are skipped,
  except where a record starts with a title card.
- Fixed-width fields, widths as listed below (standard format), read by columns: values may
  touch (`     12353.535533905932723.5355339059327` is NID 123, X 53.5355339059327, Y
  23.5355339059327 in `*NODE`). A line containing a comma is free format: comma-separated
  values in field order, an empty value meaning the default.
- `*KEYWORD LONG=Y` makes every field 20 characters wide (`I10=Y`: fields narrower than 10
  become 10) for the rest of the file and the files it includes. A `+` right after a keyword
  (`*NODE+`) selects the long format for that keyword only, `%` the I10 format, `-` the
  standard format.
- A blank field takes the default listed. Numbers may be written `1.0e3`, `1.0d3`, `1e+03`,
  `.5`, `5.`, and with Fortran's letterless exponents `2.00000-3`, `1.5+4`; integer fields
  accept integral reals such as `2.`.
- Options are appended to the keyword: `_TITLE` adds a title card before the data, `_ID` an id
  card (id and heading); other options as listed per keyword.
- `&name` (or `-&name`) in a numeric field is the value of a `*PARAMETER`.
- Unsupported `*CONTROL_...` and `*DATABASE_...` keywords are ignored with a warning. Any other
  unsupported keyword is an error; all of them are reported together, with file and line (or
  are warnings with `--ignore-unsupported`).
)";

std::string type_name(FieldType t) {
  switch (t) {
  case FieldType::Int:
    return "int";
  case FieldType::Real:
    return "real";
  case FieldType::String:
    return "text";
  }
  return "";
}

std::string code_list(const std::vector<std::string_view>& items, std::string_view prefix) {
  std::string out;
  for (auto item : items) out += fmt::format("{}`{}{}`", out.empty() ? "" : ", ", prefix, item);
  return out;
}

std::string card_label(const CardSpec& card, bool repeated) {
  std::string label(card.label);
  if (repeated) label += ", repeated";
  if (!card.may_be_omitted()) label += ", required";
  return label;
}

void card_rows(std::string& out, const std::vector<CardSpec>& cards, bool repeated) {
  for (const CardSpec& card : cards)
    for (const FieldSpec& f : card.fields) {
      const std::string width = f.width == 0 ? "rest of line" : std::to_string(f.width);
      const std::string def = f.default_text();
      out += fmt::format("| {} | {} | {} | {} | {} |\n", card_label(card, repeated), f.name,
                         type_name(f.type), width, def.empty() ? "" : "`" + def + "`");
    }
}

void keyword_section(std::string& out, const KeywordSpec& k) {
  out += fmt::format("\n## {}\n\n{}\n", k.name, k.summary);
  if (!k.aliases.empty()) out += fmt::format("\nAlso: {}.\n", code_list(k.aliases, ""));
  if (!k.options.empty()) out += fmt::format("\nOptions: {}.\n", code_list(k.options, "_"));
  if (k.head.empty() && k.rows.empty()) {
    out += "\nNo data cards.\n";
    return;
  }
  if (k.ignore_extra) out += "\nFurther cards are accepted and ignored.\n";
  out += "\n| Card | Field | Type | Width | Default |\n|---|---|---|---|---|\n";
  card_rows(out, k.head, false);
  card_rows(out, k.rows, true);
  if (!k.alt_rows.empty()) {
    out += fmt::format("\nAlternative format (keyword line containing `{}`, or a first data line "
                       "with at most {} values):\n\n",
                       k.alt_marker, k.alt_rows.front().fields.size());
    out += "| Card | Field | Type | Width | Default |\n|---|---|---|---|---|\n";
    card_rows(out, k.alt_rows, true);
  }
}

} // namespace

std::string keyword_coverage_markdown() {
  std::string out(kIntro);
  out += "\n## Summary\n\n| Keyword | Also | Options |\n|---|---|---|\n";
  for (const KeywordSpec& k : io::keyword_table())
    out += fmt::format("| `{}` | {} | {} |\n", k.name, code_list(k.aliases, ""),
                       code_list(k.options, "_"));
  for (const KeywordSpec& k : io::keyword_table()) keyword_section(out, k);
  return out;
}

std::string keyword_match_table(std::string_view names) {
  std::string out;
  while (!names.empty()) {
    const std::size_t eol = names.find('\n');
    std::string_view line = names.substr(0, eol);
    names = eol == std::string_view::npos ? std::string_view{} : names.substr(eol + 1);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
    while (!line.empty() && line.front() == ' ') line.remove_prefix(1);
    if (line.empty()) continue;
    std::string upper(line);
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (const auto m = io::match_keyword(upper)) {
      out += fmt::format("{}\t{}\tread\n", line, m->spec->name);
    } else {
      // as the reader treats an unsupported keyword (keyword_reader.cpp)
      const bool warn = !ignored_keyword_note(upper).empty();
      out += fmt::format("{}\t-\t{}\n", line, warn ? "warn" : "refuse");
    }
  }
  return out;
}

} // namespace parcae
