#pragma once
// Keyword cards described as data. Each supported keyword has a KeywordSpec: the cards read
// once (head), a group of cards that repeats until the next keyword (rows), and a small apply
// function that moves the named fields into the Model. The generic card parser
// (input/card_parser.hpp) reads lines according to these tables, and the keyword documentation
// (docs/keywords.md) is generated from them. This layer (src/cards) holds only the types, so that
// a material law's file (src/materials) can carry its own card table; the table of every
// keyword is input/card_spec.hpp's keyword_table().
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace parcae::io {

enum class FieldType : std::uint8_t { Int, Real, String };

/// Field widths of a card line: standard (8/10/16/20 as in the manual), I10 (fields narrower
/// than 10 become 10: `*KEYWORD I10=Y` or a `%` after the keyword) and long (every field 20:
/// `*KEYWORD LONG=Y` or a `+` after the keyword).
enum class LineFormat : std::uint8_t { Standard, I10, Long };

/// One field of a card.
struct FieldSpec {
  std::string_view name{}; ///< LS-DYNA manual name, upper case ("NID", "QR/IRID")
  FieldType type = FieldType::Real;
  int width = 10;         ///< characters in standard format; 0 = rest of the line
  std::string_view def{}; ///< default for a blank field, as text ("" = 0 / empty)
  bool required = false;  ///< a blank field is an error

  [[nodiscard]] FieldSpec w(int new_width) const;
  [[nodiscard]] FieldSpec req() const;
  /// Width of this field in the given format.
  [[nodiscard]] int width_in(LineFormat format) const;
  /// The default as shown in the documentation ("0", "0.0", "required", ...).
  [[nodiscard]] std::string default_text() const;
};

/// Short constructors for the card tables: a 10-character int, real or text field with an
/// optional default, and a text field running to the end of the line (titles, file names,
/// expressions).
namespace card_fields {
inline FieldSpec I(std::string_view name, std::string_view def = "") {
  return {name, FieldType::Int, 10, def};
}
inline FieldSpec R(std::string_view name, std::string_view def = "") {
  return {name, FieldType::Real, 10, def};
}
inline FieldSpec S(std::string_view name, std::string_view def = "") {
  return {name, FieldType::String, 10, def};
}
inline FieldSpec Line(std::string_view name) {
  return {name, FieldType::String, 0, ""};
}
/// Integer / real fields of the given names and width.
std::vector<FieldSpec> ints(std::initializer_list<std::string_view> names, int width = 10);
std::vector<FieldSpec> reals(std::initializer_list<std::string_view> names, int width = 10);
/// a followed by b.
std::vector<FieldSpec> join(std::vector<FieldSpec> a, const std::vector<FieldSpec>& b);
} // namespace card_fields

class Fields;

/// One card (one line of input).
struct CardSpec {
  std::string_view label{}; ///< shown in the docs: "Card 1", "Title", "Point", ...
  std::vector<FieldSpec> fields{};
  /// option that must be on the keyword ("TITLE"; "ID|TITLE": one of them); "" = always
  std::string_view when{};
  /// May be left out even though it has required fields. A card without required fields may
  /// always be left out when the keyword's data ends before it (the next line starts a
  /// keyword): its fields take their defaults, as in LS-DYNA.
  bool optional = false;
  /// Must be present although none of its fields is required (the manual marks the card as
  /// required: cards 1-3 of *CONTACT); blank lines take its defaults.
  bool required = false;
  /// Read only when this returns true for the fields read so far (the keyword's head, or the
  /// cards before it in the same row group), e.g. card 2 of *BOUNDARY_PRESCRIBED_MOTION that
  /// exists for DOF 9-11 only. When it returns false the card is not in the deck and its fields
  /// take their defaults. The label says when the card is read (docs). nullptr = always.
  bool (*read_if)(const Fields& so_far) = nullptr;
  /// Head cards: read only when the next data line starts with this character in column 1 (MPP
  /// card 2 of *CONTACT, whose line begins with '&'); otherwise the card is not in the deck and
  /// its fields take their defaults. 0 = no such condition.
  char lead = 0;

  /// Whether the card is read for a keyword with these options.
  [[nodiscard]] bool active(const std::vector<std::string>& options) const;
  /// Whether the card may be left out when the keyword's data ends before it.
  [[nodiscard]] bool may_be_omitted() const;
  /// "NID X Y Z TC RC", for messages.
  [[nodiscard]] std::string field_list() const;
};

struct Block;
class DeckBuilder;
using ApplyFn = void (*)(const Block&, DeckBuilder&);

/// One supported keyword.
struct KeywordSpec {
  std::string_view name{};                 ///< canonical name, "*MAT_ELASTIC"
  std::vector<std::string_view> aliases{}; ///< other names, "*MAT_001"
  std::vector<std::string_view> options{}; ///< allowed _OPTION suffixes ("TITLE", "ID", ...)
  std::vector<CardSpec> head{};            ///< cards read once, in order
  std::vector<CardSpec> rows{};            ///< group repeated until the next keyword
  int min_rows = 0;                        ///< fewer row groups is a missing-card error
  /// Alternative row group (the ten-node *ELEMENT_SOLID format), used when the keyword line
  /// contains alt_marker or the first data line has no more values than alt_rows[0] has fields.
  std::vector<CardSpec> alt_rows{};
  std::string_view alt_marker{};
  bool ignore_extra = false; ///< further cards (not modelled) are skipped silently
  /// apply() handles each row group on its own, so huge blocks are applied in chunks.
  bool stream_rows = false;
  std::string_view summary{}; ///< what parcae does with it (docs)
  ApplyFn apply = nullptr;
};

namespace card_fields {
/// The title card of a keyword's _TITLE option.
CardSpec title_card();
/// The card of an _ID option: the id field (named id_name) and a heading.
CardSpec id_card(std::string_view id_name = "ID");
} // namespace card_fields

} // namespace parcae::io
