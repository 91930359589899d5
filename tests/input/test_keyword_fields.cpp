// Unit tests of the generic card parser: numbers, fixed/free/long formats, parameters,
// expressions.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numbers>

#include "input/card_number.hpp"
#include "input/card_parser.hpp"
#include "input/card_spec.hpp"
#include "input/deck_expression.hpp"
#include "input/deck_source.hpp"

namespace parcae::io {
namespace {

const SourceLoc kLoc{"test.k", 7, "*TEST"};

CardSpec node_card() {
  return {"Node",
          {FieldSpec{"NID", FieldType::Int, 8}, FieldSpec{"X", FieldType::Real, 16},
           FieldSpec{"Y", FieldType::Real, 16}, FieldSpec{"Z", FieldType::Real, 16},
           FieldSpec{"TC", FieldType::Int, 8}, FieldSpec{"RC", FieldType::Int, 8}}};
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(KeywordNumbers, FortranStyleReals) {
  EXPECT_DOUBLE_EQ(parse_real("1.0e3").value(), 1000.0);
  EXPECT_DOUBLE_EQ(parse_real("1.0d3").value(), 1000.0);
  EXPECT_DOUBLE_EQ(parse_real("1.0D-3").value(), 1e-3);
  EXPECT_DOUBLE_EQ(parse_real("1e+03").value(), 1000.0);
  EXPECT_DOUBLE_EQ(parse_real(".5").value(), 0.5);
  EXPECT_DOUBLE_EQ(parse_real("5.").value(), 5.0);
  EXPECT_DOUBLE_EQ(parse_real("+2.5").value(), 2.5);
  EXPECT_DOUBLE_EQ(parse_real("  -7  ").value(), -7.0);
  EXPECT_FALSE(parse_real("1.2.3"));
  EXPECT_FALSE(parse_real("abc"));
  EXPECT_FALSE(parse_real("1 2"));
  EXPECT_FALSE(parse_real("inf"));
  EXPECT_FALSE(parse_real("nan"));
  EXPECT_FALSE(parse_real(""));
}

TEST(KeywordNumbers, Integers) {
  std::int64_t v = 0;
  EXPECT_EQ(parse_int("42", v), IntStatus::Ok);
  EXPECT_EQ(v, 42);
  EXPECT_EQ(parse_int("+3", v), IntStatus::Ok);
  EXPECT_EQ(v, 3);
  EXPECT_EQ(parse_int("2.", v), IntStatus::Ok);
  EXPECT_EQ(v, 2);
  EXPECT_EQ(parse_int("1.2e1", v), IntStatus::Ok);
  EXPECT_EQ(v, 12);
  EXPECT_EQ(parse_int("2.5", v), IntStatus::NotInteger);
  EXPECT_EQ(parse_int("x1", v), IntStatus::NotNumber);
  EXPECT_EQ(parse_int("99999999999999999999", v), IntStatus::TooLarge);
  EXPECT_EQ(parse_int("9223372036854775807", v), IntStatus::Ok);
}

TEST(KeywordNumbers, FormatRealRoundTrips) {
  EXPECT_EQ(format_real(0.1), "0.1");
  EXPECT_EQ(format_real(20), "20.0");
  EXPECT_EQ(parse_real(format_real(1e28)).value(), 1e28);
}

TEST(KeywordFields, FixedWidthNode) {
  const auto t = split_card_line(
      node_card(), "       5             1.5            -2.0          3.0e+2       1       7",
      LineFormat::Standard, kLoc);
  ASSERT_EQ(t.size(), 6u);
  EXPECT_EQ(t[0], "       5");
  EXPECT_EQ(trim(t[3]), "3.0e+2");
  EXPECT_EQ(trim(t[5]), "7");
}

TEST(KeywordFields, ShortLineLeavesBlankFields) {
  const auto t = split_card_line(node_card(), "       5", LineFormat::Standard, kLoc);
  ASSERT_EQ(t.size(), 6u);
  EXPECT_EQ(t[1], "");
  EXPECT_EQ(t[5], "");
}

TEST(KeywordFields, PackedFieldsWithSignsAreFine) {
  const auto t =
      split_card_line(node_card(), "12345678-1.2345678901e+0", LineFormat::Standard, kLoc);
  EXPECT_EQ(t[0], "12345678");
  EXPECT_EQ(t[1], "-1.2345678901e+0");
}

// Fixed format is positional (issue 11): LS-PrePost writes full-width values that touch.
TEST(KeywordFields, TouchingFieldsAreReadByColumns) {
  const auto t =
      split_card_line(node_card(), "     12353.535533905932723.5355339059327              5.",
                      LineFormat::Standard, kLoc);
  EXPECT_EQ(trim(t[0]), "123");
  EXPECT_EQ(t[1], "53.5355339059327");
  EXPECT_EQ(t[2], "23.5355339059327");
  EXPECT_EQ(trim(t[3]), "5.");
  const auto n = split_card_line(node_card(), "1234567890", LineFormat::Standard, kLoc);
  EXPECT_EQ(n[0], "12345678");
  EXPECT_EQ(n[1], "90");
}

TEST(KeywordFields, FortranExponentsWithoutLetter) {
  EXPECT_DOUBLE_EQ(*parse_real("2.00000-3"), 2.0e-3);
  EXPECT_DOUBLE_EQ(*parse_real("1.5+4"), 1.5e4);
  EXPECT_DOUBLE_EQ(*parse_real("7.00000-4"), 7.0e-4);
  EXPECT_DOUBLE_EQ(*parse_real("-3.-2"), -0.03);
  EXPECT_DOUBLE_EQ(*parse_real("5-12"), 5e-12);
  EXPECT_FALSE(parse_real("1.0e+5-3"));
  EXPECT_FALSE(parse_real("1-"));
  EXPECT_FALSE(parse_real("1--3"));
  EXPECT_FALSE(parse_real("1.5+"));
  std::int64_t i = 0;
  EXPECT_EQ(parse_int("1.0+3", i), IntStatus::Ok);
  EXPECT_EQ(i, 1000);
}

TEST(KeywordFields, FreeFormat) {
  const CardSpec card = node_card();
  EXPECT_TRUE(is_free_format(card, "1,2,3", LineFormat::Standard));
  const auto t = split_card_line(card, "12345678901, 1.5,,3", LineFormat::Standard, kLoc);
  ASSERT_EQ(t.size(), 6u);
  EXPECT_EQ(trim(t[0]), "12345678901");
  EXPECT_EQ(trim(t[1]), "1.5");
  EXPECT_EQ(t[2], "");
  EXPECT_EQ(t[3], "3");
  EXPECT_EQ(t[4], "");
}

TEST(KeywordFields, FreeFormatTooManyValues) {
  const std::string msg =
      error_of([] { split_card_line(node_card(), "1,2,3,4,5,6,7", LineFormat::Standard, kLoc); });
  EXPECT_NE(msg.find("too many values"), std::string::npos) << msg;
  // a trailing comma is fine
  EXPECT_EQ(split_card_line(node_card(), "1,2,3,4,5,6,", LineFormat::Standard, kLoc).size(), 6u);
}

TEST(KeywordFields, LongFormatIsTwentyWide) {
  const std::string line = "         12345678901                 1.5                -2.0"
                           "                 3.0                   1                   2";
  const auto t = split_card_line(node_card(), line, LineFormat::Long, kLoc);
  EXPECT_EQ(trim(t[0]), "12345678901");
  EXPECT_EQ(trim(t[1]), "1.5");
  EXPECT_EQ(trim(t[4]), "1");
  EXPECT_EQ(trim(t[5]), "2");
}

TEST(KeywordFields, I10Format) {
  EXPECT_EQ(FieldSpec("NID", FieldType::Int, 8).width_in(LineFormat::I10), 10);
  EXPECT_EQ(FieldSpec("X", FieldType::Real, 16).width_in(LineFormat::I10), 16);
  EXPECT_EQ(FieldSpec("X", FieldType::Real, 16).width_in(LineFormat::Long), 20);
}

TEST(KeywordFields, RestOfLineFieldKeepsCommas) {
  const CardSpec card{
      "Expr",
      {FieldSpec{"PRMR1", FieldType::String, 10}, FieldSpec{"EXPRESSION1", FieldType::String, 0}}};
  auto t = split_card_line(card, "R result  max(a,b)*2", LineFormat::Standard, kLoc);
  EXPECT_EQ(trim(t[0]), "R result");
  EXPECT_EQ(t[1], "max(a,b)*2");
  t = split_card_line(card, "R x,min(1,2)", LineFormat::Standard, kLoc);
  EXPECT_EQ(t[0], "R x");
  EXPECT_EQ(t[1], "min(1,2)");
}

TEST(KeywordFields, BlankFieldTakesDefault) {
  Parameters params;
  const FieldSpec f{"SF", FieldType::Real, 10, "1.0"};
  const Value v = parse_field(f, "          ", params, kLoc);
  EXPECT_TRUE(v.blank);
  EXPECT_DOUBLE_EQ(v.r, 1.0);
  const FieldSpec n{"N", FieldType::Int, 10, "-1"};
  EXPECT_EQ(parse_field(n, "", params, kLoc).i, -1);
}

TEST(KeywordFields, RequiredFieldMustNotBeBlank) {
  Parameters params;
  const FieldSpec f = FieldSpec{"MID", FieldType::Int, 10}.req();
  const std::string msg = error_of([&] { parse_field(f, "   ", params, kLoc); });
  EXPECT_NE(msg.find("field MID is required"), std::string::npos) << msg;
}

TEST(KeywordFields, UnreadableNumberNamesFieldAndText) {
  Parameters params;
  const std::string msg = error_of([&] {
    parse_field(FieldSpec{"RO", FieldType::Real}, " 7.8.5", params, kLoc);
  });
  EXPECT_NE(msg.find("field RO"), std::string::npos) << msg;
  EXPECT_NE(msg.find("\"7.8.5\""), std::string::npos) << msg;
  const std::string imsg = error_of([&] {
    parse_field(FieldSpec{"PID", FieldType::Int}, "1.5", params, kLoc);
  });
  EXPECT_NE(imsg.find("field PID: \"1.5\" is not an integer"), std::string::npos) << imsg;
}

TEST(KeywordFields, ParameterSubstitution) {
  Parameters params;
  params.set("thick", Parameter{'R', 2.5, {}, {}});
  params.set("N", Parameter{'I', 4, {}, {}});
  params.set("name", Parameter{'C', 0, "steel", {}});
  EXPECT_DOUBLE_EQ(parse_field(FieldSpec{"T1", FieldType::Real}, "&thick", params, kLoc).r, 2.5);
  EXPECT_DOUBLE_EQ(parse_field(FieldSpec{"T1", FieldType::Real}, "-&THICK", params, kLoc).r, -2.5);
  EXPECT_EQ(parse_field(FieldSpec{"NIP", FieldType::Int}, "&n", params, kLoc).i, 4);
  EXPECT_NE(error_of([&] {
              parse_field(FieldSpec{"NIP", FieldType::Int}, "&thick", params, kLoc);
            }).find("not an integer"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              parse_field(FieldSpec{"E", FieldType::Real}, "&nope", params, kLoc);
            }).find("undefined parameter &nope"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              parse_field(FieldSpec{"E", FieldType::Real}, "&name", params, kLoc);
            }).find("character parameter"),
            std::string::npos);
}

TEST(KeywordExpressions, Arithmetic) {
  Parameters p;
  p.set("a", Parameter{'R', 3, {}, {}});
  p.set("b", Parameter{'R', 4, {}, {}});
  EXPECT_DOUBLE_EQ(evaluate_expression("1 + 2 * 3", p), 7);
  EXPECT_DOUBLE_EQ(evaluate_expression("(1 + 2) * 3", p), 9);
  EXPECT_DOUBLE_EQ(evaluate_expression("2^3^2", p), 512);
  EXPECT_DOUBLE_EQ(evaluate_expression("2**3", p), 8);
  EXPECT_DOUBLE_EQ(evaluate_expression("-2^2", p), -4);
  EXPECT_DOUBLE_EQ(evaluate_expression("10/4", p), 2.5);
  EXPECT_DOUBLE_EQ(evaluate_expression("1.0d3 + .5", p), 1000.5);
  EXPECT_DOUBLE_EQ(evaluate_expression("sqrt(a*a + b*b)", p), 5);
  EXPECT_DOUBLE_EQ(evaluate_expression("&a * -&b", p), -12);
  EXPECT_DOUBLE_EQ(evaluate_expression("max(a, b, 2) - min(a, b)", p), 1);
  EXPECT_DOUBLE_EQ(evaluate_expression("abs(-2) + exp(0) + log(1) + cos(0) + sin(0)", p), 4);
  EXPECT_NEAR(evaluate_expression("atan2(1, 1) * 4", p), std::numbers::pi, 1e-15);
  EXPECT_NEAR(evaluate_expression("sin(pi/2)", p), 1.0, 1e-15);
}

TEST(KeywordExpressions, Errors) {
  Parameters p;
  EXPECT_THROW(evaluate_expression("1 +", p), ExpressionError);
  EXPECT_THROW(evaluate_expression("(1 + 2", p), ExpressionError);
  EXPECT_THROW(evaluate_expression("1 / 0", p), ExpressionError);
  EXPECT_THROW(evaluate_expression("foo(1)", p), ExpressionError);
  EXPECT_THROW(evaluate_expression("undefined_name * 2", p), ExpressionError);
  EXPECT_THROW(evaluate_expression("sqrt(-1)", p), ExpressionError);
  EXPECT_THROW(evaluate_expression("1 2", p), ExpressionError);
}

TEST(KeywordSource, KeywordLine) {
  auto k = parse_keyword_line("*element_solid (ten nodes format)");
  EXPECT_EQ(k.keyword, "*ELEMENT_SOLID");
  EXPECT_EQ(k.trailing, "(ten nodes format)");
  EXPECT_FALSE(k.format);
  k = parse_keyword_line("*NODE+");
  EXPECT_EQ(k.keyword, "*NODE");
  EXPECT_EQ(k.format, LineFormat::Long);
  k = parse_keyword_line("*NODE %");
  EXPECT_EQ(k.keyword, "*NODE");
  EXPECT_EQ(k.format, LineFormat::I10);
  k = parse_keyword_line("*KEYWORD LONG=Y");
  EXPECT_EQ(k.trailing, "LONG=Y");
}

TEST(KeywordSource, LinesAndText) {
  const auto lines = split_lines("\xEF\xBB\xBF*KEYWORD\r\n$ c\r\n*END");
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], "*KEYWORD");
  EXPECT_EQ(lines[2], "*END");
  EXPECT_NO_THROW(check_text("*KEYWORD\n$ température 20°C\n", "f.k"));
  EXPECT_THROW(check_text(std::string("*KEYWORD\n\0\0", 11), "f.k"), InputError);
  std::string noise;
  for (int i = 0; i < 400; ++i) noise += static_cast<char>(0x80 + (i * 37) % 120);
  EXPECT_THROW(check_text(noise, "f.k"), InputError);
}

TEST(KeywordTable, MatchesOptionsAndAliases) {
  auto m = match_keyword("*MAT_024_TITLE");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->spec->name, "*MAT_PIECEWISE_LINEAR_PLASTICITY");
  EXPECT_EQ(m->options, std::vector<std::string>{"TITLE"});
  m = match_keyword("*SET_NODE_LIST_GENERATE");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->spec->name, "*SET_NODE_LIST_GENERATE");
  m = match_keyword("*RIGIDWALL_PLANAR_MOVING_FINITE_ID");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->options.size(), 3u);
  EXPECT_FALSE(match_keyword("*MAT_ELASTIC_FLUID"));
  EXPECT_FALSE(match_keyword("*NODES"));
  EXPECT_FALSE(match_keyword("*PART_AVERAGED"));
  m = match_keyword("*PART_INERTIA");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->options, std::vector<std::string>{"INERTIA"});
}

TEST(KeywordTable, FieldNamesAreUniquePerKeyword) {
  for (const KeywordSpec& k : keyword_table()) {
    std::vector<std::string_view> head, row;
    for (const auto& c : k.head)
      for (const auto& f : c.fields) head.push_back(f.name);
    for (const auto* group : {&k.rows, &k.alt_rows}) {
      row.clear();
      for (const auto& c : *group)
        for (const auto& f : c.fields) row.push_back(f.name);
      std::sort(row.begin(), row.end());
      EXPECT_EQ(std::adjacent_find(row.begin(), row.end()), row.end()) << k.name;
    }
    std::sort(head.begin(), head.end());
    EXPECT_EQ(std::adjacent_find(head.begin(), head.end()), head.end()) << k.name;
    EXPECT_NE(k.apply, nullptr) << k.name;
    EXPECT_FALSE(k.summary.empty()) << k.name;
  }
}

} // namespace
} // namespace parcae::io
