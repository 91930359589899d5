#pragma once
// The fields of a parsed keyword: one Value per field of its cards (the card tables of
// cards/card_spec.hpp say their names, types and defaults), looked up by name, each knowing the
// line it was read from so that errors name file, line and card.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cards/card_spec.hpp"
#include "core/error.hpp"

namespace parcae::io {

/// The value of one field. Text values view the deck's lines (or the table's defaults): a
/// Block is used while its RawBlock and the file text live.
struct Value {
  const FieldSpec* spec = nullptr;
  int line = 0;
  bool present = false; ///< the card was in the deck (false: optional card left out)
  bool blank = true;    ///< the field was blank (the default is in i/r/s)
  std::int64_t i = 0;
  double r = 0;
  std::string_view s;
};

/// Named fields of one or more cards (a keyword's head cards, or one row group). Not for
/// concurrent use: a look-up remembers where it ended (the reader is serial).
class Fields {
public:
  /// Where the cards come from: file and keyword (shared by all Fields of a block).
  struct Origin {
    std::string file;
    std::string card;
  };

  Fields() : origin_(std::make_shared<const Origin>()) {}
  explicit Fields(std::shared_ptr<const Origin> origin) : origin_(std::move(origin)) {}

  void add(Value v) { values_.push_back(std::move(v)); }
  void reserve(std::size_t n) { values_.reserve(n); }
  [[nodiscard]] const std::vector<Value>& values() const { return values_; }

  [[nodiscard]] std::int64_t id(std::string_view name) const { return get(name).i; }
  /// An integer field that must fit in 32 bits (flags, counts, formulations).
  [[nodiscard]] int integer(std::string_view name) const;
  [[nodiscard]] double real(std::string_view name) const { return get(name).r; }
  [[nodiscard]] std::string text(std::string_view name) const { return std::string(get(name).s); }
  [[nodiscard]] bool blank(std::string_view name) const { return get(name).blank; }
  /// Whether the card holding this field was in the deck.
  [[nodiscard]] bool present(std::string_view name) const { return get(name).present; }
  /// Where the field was read (the keyword line if its card was left out).
  [[nodiscard]] SourceLoc loc(std::string_view name) const;
  /// Where the first card was read.
  [[nodiscard]] SourceLoc loc() const;
  [[nodiscard]] int line() const { return values_.empty() ? line_ : values_.front().line; }
  [[nodiscard]] const Value& get(std::string_view name) const;
  /// nullptr when there is no such field (cards of another layout).
  [[nodiscard]] const Value* find(std::string_view name) const;
  [[nodiscard]] const std::string& file() const { return origin_->file; }
  /// Line reported by loc() when there are no values.
  void set_line(int line) { line_ = line; }

private:
  std::shared_ptr<const Origin> origin_;
  int line_ = 0;
  std::vector<Value> values_;
  /// Where the next lookup starts: apply functions mostly ask for the fields in card order.
  mutable std::size_t hint_ = 0;
};

/// A parsed keyword: head fields and row groups.
struct Block {
  const KeywordSpec* spec = nullptr;
  std::vector<std::string> options; ///< upper case, as given
  SourceLoc loc;                    ///< the keyword line
  std::string trailing;
  Fields head;
  std::vector<Fields> rows;
  /// Numeric fixed-format fields that had blanks inside them (read as LS-DYNA reads them, the
  /// blanks ignored): how many, and a note on the first (where, which field, the text, the
  /// value read). The reader warns once per keyword.
  int blanks_inside = 0;
  SourceLoc blanks_loc;
  std::string blanks_note;

  [[nodiscard]] bool has(std::string_view option) const;
};

} // namespace parcae::io
