// docs/keywords.md must be the text generated from the card tables.
#include <gtest/gtest.h>

#include <set>

#include <cstdlib>
#include <filesystem>

#include "input/card_spec.hpp"
#include "input/keyword_reader.hpp"
#include "test_support.hpp"

namespace parcae::test {
namespace {

TEST(KeywordDocs, CoverageTableIsUpToDate) {
  const std::filesystem::path path = PARCAE_SOURCE_DIR "/docs/keywords.md";
  const std::string generated = keyword_coverage_markdown();
  if (std::getenv("PARCAE_UPDATE_KEYWORD_DOCS")) write_file(path, generated);
  ASSERT_TRUE(std::filesystem::exists(path)) << path << " is missing";
  EXPECT_TRUE(read_file(path) == generated)
      << "docs/keywords.md differs from keyword_coverage_markdown(): run "
         "scripts/gen_keyword_docs.sh";
}

TEST(KeywordDocs, ListsEveryKeywordWithDefaults) {
  const std::string md = keyword_coverage_markdown();
  for (const char* kw : {"## *NODE", "## *ELEMENT_SOLID", "## *MAT_PIECEWISE_LINEAR_PLASTICITY",
                         "## *RIGIDWALL_PLANAR", "## *DATABASE_BINARY_D3PLOT"})
    EXPECT_NE(md.find(kw), std::string::npos) << kw;
  EXPECT_NE(md.find("| Card 1, repeated, required | SHRF | real | 10 | `1.0` |"),
            std::string::npos);
  EXPECT_NE(md.find("| Node, repeated, required | NID | int | 8 | `required` |"),
            std::string::npos);
  EXPECT_NE(md.find("`*MAT_024`"), std::string::npos);
  // Cards without required fields may be left out (defaults): not labelled required.
  EXPECT_NE(md.find("| Card 2 | SRC | real | 10 |"), std::string::npos);
}

} // namespace
} // namespace parcae::test

// Field names are unique within a keyword's head cards and within its row group (the cards of
// one row, either layout): Fields looks a name up from where the last lookup ended, which finds
// the same field as a scan from the start only when names do not repeat.
TEST(KeywordDocs, FieldNamesAreUniqueWithinHeadAndRows) {
  for (const parcae::io::KeywordSpec& k : parcae::io::keyword_table()) {
    auto check = [&](const std::vector<parcae::io::CardSpec>& cards, const char* what) {
      std::set<std::string_view> seen;
      for (const parcae::io::CardSpec& c : cards)
        for (const parcae::io::FieldSpec& f : c.fields)
          EXPECT_TRUE(seen.insert(f.name).second)
              << k.name << " " << what << ": field " << f.name << " twice";
    };
    check(k.head, "head");
    check(k.rows, "rows");
    check(k.alt_rows, "alternative rows");
  }
}
