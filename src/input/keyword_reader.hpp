#pragma once
// LS-DYNA keyword deck reader. Cards are described as data (io/card_tables.*): each keyword has
// a list of cards, each card a list of fields (name, type, width, default). The reader handles
// fixed-width fields (10/8/16-character, long format), comma-separated free format, $ comments,
// case-insensitive keywords, _TITLE/_ID options, *INCLUDE, *PARAMETER(_EXPRESSION) with &name,
// and builds a validated parcae::Model.
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "mesh/model.hpp"

namespace parcae {

struct ReadOptions {
  /// Unsupported keywords become warnings instead of one error listing all of them.
  bool ignore_unsupported = false;
  /// *CASE_BEGIN_n ... *CASE_END_n blocks read (LS-DYNA's `case` run); 0: none of them, the
  /// base model.
  int case_id = 0;
};

/// Several input errors at once (e.g. every unsupported keyword, each with file:line).
class DeckErrors : public std::runtime_error {
public:
  explicit DeckErrors(std::vector<InputError> errors);
  [[nodiscard]] const std::vector<InputError>& errors() const { return errors_; }

private:
  std::vector<InputError> errors_;
};

/// Read, resolve and validate a deck. Throws InputError (one problem) or DeckErrors (a list).
/// Warnings (ignored *DATABASE_* / *CONTROL_* cards, ...) are left in model.notes.
Model read_deck(const std::string& path, const ReadOptions& options = {});

/// The keyword coverage table (supported keywords, their cards and fields with defaults), as
/// Markdown, generated from the card tables.
std::string keyword_coverage_markdown();

/// For each keyword name in `names` (one per line, as written in a deck: "*MAT_024_TITLE"), one
/// tab-separated line: the name, then the card table that reads it (its canonical name) or "-"
/// when parcae has none, then "warn" for an unsupported keyword read with one warning and
/// ignored (ignored_keyword_note) or "refuse" (an error unless --ignore-unsupported) or "read".
/// `parcae keywords --match` (scripts/keywords_vs_openradioss.py).
std::string keyword_match_table(std::string_view names);

/// The warning an unsupported keyword is read with when parcae ignores it (output and control
/// cards, thermal materials, sensors, the deck's id card); empty when it is refused.
std::string_view ignored_keyword_note(std::string_view keyword);

} // namespace parcae
