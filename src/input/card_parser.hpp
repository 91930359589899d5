#pragma once
// The generic card parser: reads the data lines of one keyword according to its KeywordSpec
// (fixed-width fields in standard, I10 or long format, or comma-separated free format), with
// defaults for blank fields and &name parameter substitution in numeric fields.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cards/fields.hpp"
#include "core/error.hpp"
#include "input/card_spec.hpp"
#include "input/deck_expression.hpp"

namespace parcae::io {

/// One non-comment line after a keyword (a view into the file's text).
struct DataLine {
  std::string_view text;
  int line = 0;
};

/// A keyword line and its data lines, before parsing.
struct RawBlock {
  std::string file;
  int line = 0;         ///< line of the keyword
  std::string keyword;  ///< upper case, format suffix removed: "*SECTION_SHELL_TITLE"
  std::string trailing; ///< text after the keyword ("LONG=Y", "(ten nodes format)")
  LineFormat format = LineFormat::Standard;
  std::vector<DataLine> lines;
};

/// Reads a RawBlock against its spec: the head cards on construction, then the row groups
/// (all at once, or in chunks so that huge *NODE / *ELEMENT blocks are applied piecewise).
/// Throws InputError (missing card, unreadable number, undefined parameter,
/// unexpected extra line).
class BlockParser {
public:
  BlockParser(const KeywordMatch& match, const RawBlock& raw, const Parameters& params);
  /// The head fields, and the rows read by the last read_rows().
  [[nodiscard]] Block& block() { return block_; }
  /// Replaces block().rows by up to max_groups further row groups; false when none are left.
  bool read_rows(std::size_t max_groups);
  /// After the last read_rows(): checks the number of row groups and leftover lines.
  void finish();

private:
  const KeywordSpec& spec_;
  const RawBlock& raw_;
  const Parameters& params_;
  std::shared_ptr<const Fields::Origin> origin_;
  SourceLoc loc_; ///< reused for every card (only the line changes)
  Block block_;
  std::vector<const CardSpec*> rows_;   ///< the repeated cards (pointers into the spec)
  std::vector<std::string_view> texts_; ///< the field texts of the line being read (reused)
  std::size_t row_fields_ = 0;          ///< fields of one row group (all its cards)
  std::size_t pos_ = 0;
  std::size_t row_count_ = 0;

  void read_card(const CardSpec& card, const DataLine& line, Fields& into);
  [[noreturn]] void missing_card(const CardSpec& card, int line) const;
  void read_head_card(const CardSpec& card);
  [[nodiscard]] bool use_alt_rows() const;
  void skip_blank_lines();
  [[nodiscard]] bool only_blank_lines_left() const;
};

/// The whole block at once.
Block parse_block(const KeywordMatch& match, const RawBlock& raw, const Parameters& params);

/// Split one line into the texts of the card's fields (fixed or free format). Exposed for
/// tests. Fixed format is read by columns; throws InputError on too many free-format values.
std::vector<std::string_view> split_card_line(const CardSpec& card, std::string_view line,
                                              LineFormat format, const SourceLoc& loc);
/// The same into out (reused: no allocation once it has grown); free: whether the line is in
/// free format (is_free_format, known to the caller).
void split_card_line(const CardSpec& card, std::string_view line, LineFormat format,
                     const SourceLoc& loc, bool free, std::vector<std::string_view>& out);

/// Whether a line is in comma-separated free format for this card.
bool is_free_format(const CardSpec& card, std::string_view line, LineFormat format);

/// Convert one field's text to a Value (default if blank, &name substitution). Throws
/// InputError naming the field.
Value parse_field(const FieldSpec& field, std::string_view text, const Parameters& params,
                  const SourceLoc& loc);

} // namespace parcae::io
