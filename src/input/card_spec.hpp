#pragma once
// The table of every supported keyword (the card types are in cards/card_spec.hpp): the rows of
// input/card_tables*.cpp and the material laws' own cards (materials/catalogue.hpp).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cards/card_spec.hpp"

namespace parcae::io {

/// Every supported keyword (input/card_tables.cpp).
const std::vector<KeywordSpec>& keyword_table();

struct KeywordMatch {
  const KeywordSpec* spec = nullptr;
  std::vector<std::string> options; ///< the _OPTION suffixes given, upper case
};

/// The spec for an upper-case keyword name such as "*SECTION_SHELL_TITLE": the longest
/// name or alias that is followed only by allowed options. nullopt when unsupported.
std::optional<KeywordMatch> match_keyword(std::string_view name);

} // namespace parcae::io
