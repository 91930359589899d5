// Robustness: randomly damaged decks must be read or rejected with InputError / DeckErrors,
// never crash, hang, or throw anything else.
#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "keyword_test_util.hpp"

namespace parcae::test {
namespace {

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

std::string join(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

std::string rich_deck() {
  return cube_deck("*PARAMETER\nR t       2.0\n"
                   "*SET_NODE_LIST_TITLE\nbottom\n1\n1,2,3,4\n"
                   "*SET_NODE_GENERAL\n2\nPART,1\n"
                   "*BOUNDARY_SPC_SET\n1,0,1,1,1\n"
                   "*DEFINE_CURVE\n3\n0,0\n1,&t\n"
                   "*BOUNDARY_PRESCRIBED_MOTION_SET\n2,3,0,3\n"
                   "*INITIAL_VELOCITY_GENERATION\n1,2,1.0,0,0,-1\n0,0,0,0,0,1\n"
                   "*RIGIDWALL_PLANAR_FINITE\n2\n0,0,-1,0,0,1\n1,0,-1,5,5\n"
                   "*MAT_024\n2,1e-9,1e3,0.3,1.\n\n0,0.1\n1,2\n"
                   "*HOURGLASS_TITLE\nhg\n4,4\n"
                   "*CONTROL_TIMESTEP\n,0.5\n");
}

void mutate(std::vector<std::string>& lines, std::mt19937& rng) {
  if (lines.empty()) return;
  std::uniform_int_distribution<std::size_t> pick(0, lines.size() - 1);
  const std::string alphabet = "0123456789.,-+eEdD*$&() \tabcXYZ_";
  std::uniform_int_distribution<std::size_t> ch(0, alphabet.size() - 1);
  const std::size_t i = pick(rng), j = pick(rng);
  switch (rng() % 6) {
  case 0:
    lines.erase(lines.begin() + static_cast<long>(i));
    break;
  case 1:
    lines.insert(lines.begin() + static_cast<long>(i), lines[j]);
    break;
  case 2:
    std::swap(lines[i], lines[j]);
    break;
  case 3:
    if (!lines[i].empty()) lines[i][rng() % lines[i].size()] = alphabet[ch(rng)];
    break;
  case 4:
    lines[i] = lines[i].substr(0, rng() % (lines[i].size() + 1));
    break;
  default:
    lines[i].insert(rng() % (lines[i].size() + 1), std::string(rng() % 30, '9'));
    break;
  }
}

TEST(KeywordFuzz, DamagedDecksFailCleanly) {
  std::mt19937 rng(12345);
  const std::vector<std::string> base = split(rich_deck());
  ASSERT_NO_THROW(read_text(join(base)));
  int accepted = 0;
  for (int iter = 0; iter < 600; ++iter) {
    std::vector<std::string> lines = base;
    for (unsigned k = 0; k <= rng() % 3; ++k) mutate(lines, rng);
    try {
      read_text(join(lines));
      ++accepted;
    } catch (const InputError&) {
    } catch (const DeckErrors&) {
    } catch (const std::exception& e) {
      ADD_FAILURE() << "unexpected exception " << e.what() << " for deck:\n" << join(lines);
    }
  }
  EXPECT_GT(accepted, 0);
}

TEST(KeywordFuzz, DeeplyNestedExpressionIsAnError) {
  const std::string expr = std::string(5000, '(') + "1" + std::string(5000, ')');
  const std::string msg = read_error(cube_deck("*PARAMETER_EXPRESSION\nR x       " + expr + "\n"));
  EXPECT_NE(msg.find("nested too deeply"), std::string::npos) << msg.substr(0, 300);
  EXPECT_NE(
      read_error(cube_deck("*PARAMETER_EXPRESSION\nR x       " + std::string(5000, '-') + "1\n"))
          .find("nested too deeply"),
      std::string::npos);
}

} // namespace
} // namespace parcae::test
