// The malformed-deck corpus: every tests/input/bad_decks/*.k starts with
//   $ EXPECT: <part of the expected message>
//   $ LINE: <line the message must name>
// and read_deck must reject it with an InputError or DeckErrors whose message names the file,
// the line and contains the expected text.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <regex>

#include "keyword_test_util.hpp"

namespace parcae::test {
namespace {

namespace fs = std::filesystem;

fs::path corpus_dir() {
  return fs::path(PARCAE_SOURCE_DIR) / "tests" / "input" / "bad_decks";
}

std::vector<std::string> corpus() {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(corpus_dir()))
    if (entry.path().extension() == ".k") names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

/// The text after "$ <key>: " in the file's header lines.
std::string header_value(const std::string& text, const std::string& key) {
  const std::string tag = "$ " + key + ": ";
  const std::size_t start = text.find(tag);
  if (start == std::string::npos || start > 400) return "";
  const std::size_t end = text.find('\n', start);
  return text.substr(start + tag.size(), end - start - tag.size());
}

class BadDeck : public ::testing::TestWithParam<std::string> {};

TEST_P(BadDeck, IsRejectedWithFileLineAndMessage) {
  const fs::path path = corpus_dir() / GetParam();
  const std::string text = read_file(path);
  const std::string expect = header_value(text, "EXPECT");
  const std::string line = header_value(text, "LINE");
  ASSERT_FALSE(expect.empty()) << "missing $ EXPECT: line";
  ASSERT_FALSE(line.empty()) << "missing $ LINE: line";
  std::string msg;
  try {
    read_deck(path.string());
  } catch (const InputError& e) {
    msg = e.what();
  } catch (const DeckErrors& e) {
    msg = e.what();
  }
  ASSERT_FALSE(msg.empty()) << "read_deck accepted " << path;
  EXPECT_NE(msg.find(GetParam()), std::string::npos) << msg;
  EXPECT_TRUE(std::regex_search(msg, std::regex(":" + line + "([^0-9]|$)")))
      << "expected line " << line << " in: " << msg;
  EXPECT_NE(msg.find(expect), std::string::npos) << "expected \"" << expect << "\" in: " << msg;
}

std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = fs::path(info.param).stem().string();
  std::replace_if(
      name.begin(), name.end(), [](char c) { return !std::isalnum(c); }, '_');
  return name;
}

INSTANTIATE_TEST_SUITE_P(Corpus, BadDeck, ::testing::ValuesIn(corpus()), test_name);

TEST(BadDeckCorpus, HasAtLeast35Decks) {
  EXPECT_GE(corpus().size(), 35u);
}

TEST(BadDeckCorpus, BinaryBytesWrittenByTheTest) {
  const auto dir = make_temp_dir("binary");
  std::string bytes = "*KEYWORD\n";
  for (int i = 0; i < 2000; ++i) bytes += static_cast<char>((i * 7919) % 256);
  write_file(dir / "garbage.k", bytes);
  try {
    read_deck((dir / "garbage.k").string());
    FAIL() << "binary file accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("not a text keyword file"), std::string::npos);
    EXPECT_EQ(e.loc().line, 2);
  }
}

TEST(BadDeckCorpus, MissingMainFile) {
  EXPECT_THROW(read_deck("/nonexistent/deck.k"), InputError);
}

TEST(BadDeckCorpus, DeepIncludeChainIsCapped) {
  const auto dir = make_temp_dir("deep");
  for (int i = 0; i < 40; ++i)
    write_file(dir / ("f" + std::to_string(i) + ".k"),
               "*INCLUDE\nf" + std::to_string(i + 1) + ".k\n");
  write_file(dir / "f40.k", "*KEYWORD\n");
  try {
    read_deck((dir / "f0.k").string());
    FAIL() << "no exception";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("nested deeper than 32"), std::string::npos) << e.what();
  }
}

} // namespace
} // namespace parcae::test
