#include "input/deck_expression.hpp"

#include <cctype>
#include <cmath>
#include <functional>
#include <numbers>
#include <vector>

#include <fmt/format.h>

#include "input/card_number.hpp"

namespace parcae::io {

void Parameters::set(std::string_view name, Parameter p) {
  map_[to_upper(name)] = std::move(p);
}

void Parameters::overlay(const Parameters& other) {
  for (const auto& [name, p] : other.map_) map_[name] = p;
}

const Parameter* Parameters::find(std::string_view name) const {
  const auto it = map_.find(to_upper(name));
  return it == map_.end() ? nullptr : &it->second;
}

namespace {

bool is_name_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool is_name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}
bool is_digit(char c) {
  return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

double call_function(const std::string& name, const std::vector<double>& a) {
  using F1 = double (*)(double);
  static const std::pair<const char*, F1> unary[] = {
      {"SIN", [](double x) { return std::sin(x); }},
      {"COS", [](double x) { return std::cos(x); }},
      {"TAN", [](double x) { return std::tan(x); }},
      {"ASIN", [](double x) { return std::asin(x); }},
      {"ACOS", [](double x) { return std::acos(x); }},
      {"ATAN", [](double x) { return std::atan(x); }},
      {"SQRT", [](double x) { return std::sqrt(x); }},
      {"EXP", [](double x) { return std::exp(x); }},
      {"LOG", [](double x) { return std::log(x); }},
      {"LOG10", [](double x) { return std::log10(x); }},
      {"ABS", [](double x) { return std::abs(x); }},
      {"INT", [](double x) { return std::trunc(x); }},
      {"SIGN", [](double x) { return x > 0 ? 1.0 : (x < 0 ? -1.0 : 0.0); }},
  };
  for (const auto& [fname, f] : unary) {
    if (name != fname) continue;
    if (a.size() != 1) throw ExpressionError(fmt::format("{}() takes one argument", name));
    return f(a[0]);
  }
  if (name == "MIN" || name == "MAX") {
    if (a.empty()) throw ExpressionError(fmt::format("{}() needs arguments", name));
    double v = a[0];
    for (double x : a) v = name == "MIN" ? std::min(v, x) : std::max(v, x);
    return v;
  }
  if (name == "ATAN2" || name == "POW") {
    if (a.size() != 2) throw ExpressionError(fmt::format("{}() takes two arguments", name));
    return name == "POW" ? std::pow(a[0], a[1]) : std::atan2(a[0], a[1]);
  }
  throw ExpressionError(fmt::format("unknown function {}()", name));
}

/// Recursive descent: expr = term {+- term}; term = unary {*/ unary};
/// unary = [+-] unary | power; power = primary [^ unary].
class ExpressionParser {
public:
  ExpressionParser(std::string_view text, const Parameters& params) : s_(text), params_(params) {}

  double parse() {
    const double v = expr();
    skip_blanks();
    if (pos_ < s_.size()) fail(fmt::format("unexpected '{}'", s_[pos_]));
    return v;
  }

private:
  std::string_view s_;
  std::size_t pos_ = 0;
  const Parameters& params_;
  int depth_ = 0;

  /// Bounds the recursion (nested parentheses, repeated signs) so no input overflows the stack.
  struct DepthGuard {
    ExpressionParser& p;
    explicit DepthGuard(ExpressionParser& parser) : p(parser) {
      if (++p.depth_ > 200) p.fail("expression nested too deeply");
    }
    ~DepthGuard() { --p.depth_; }
  };

  [[noreturn]] void fail(const std::string& what) const {
    throw ExpressionError(fmt::format("{} at position {} of \"{}\"", what, pos_ + 1, s_));
  }
  void skip_blanks() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t')) ++pos_;
  }
  bool accept(std::string_view tok) {
    skip_blanks();
    if (s_.substr(pos_, tok.size()) != tok) return false;
    pos_ += tok.size();
    return true;
  }
  char peek() {
    skip_blanks();
    return pos_ < s_.size() ? s_[pos_] : '\0';
  }

  double expr() {
    double v = term();
    for (;;) {
      if (accept("+"))
        v += term();
      else if (accept("-"))
        v -= term();
      else
        return v;
    }
  }
  double term() {
    double v = unary();
    for (;;) {
      if (peek() == '*' && s_.substr(pos_, 2) != "**") {
        ++pos_;
        v *= unary();
      } else if (accept("/")) {
        const double d = unary();
        if (d == 0) fail("division by zero");
        v /= d;
      } else {
        return v;
      }
    }
  }
  double unary() {
    const DepthGuard guard(*this);
    if (accept("-")) return -unary();
    if (accept("+")) return unary();
    return power();
  }
  double power() {
    const double base = primary();
    if (accept("^") || accept("**")) return std::pow(base, unary());
    return base;
  }
  double primary() {
    const char c = peek();
    if (c == '(') {
      ++pos_;
      const double v = expr();
      if (!accept(")")) fail("missing ')'");
      return v;
    }
    if (is_digit(c) || c == '.') return number();
    if (c == '&') ++pos_;
    if (pos_ < s_.size() && is_name_start(s_[pos_])) return name_or_call();
    fail(c == '\0' ? std::string("unexpected end") : fmt::format("unexpected '{}'", c));
  }
  double number() {
    const std::size_t start = pos_;
    while (pos_ < s_.size() && (is_digit(s_[pos_]) || s_[pos_] == '.')) ++pos_;
    if (pos_ < s_.size() && std::string_view("eEdD").find(s_[pos_]) != std::string_view::npos) {
      std::size_t p = pos_ + 1;
      if (p < s_.size() && (s_[p] == '+' || s_[p] == '-')) ++p;
      if (p < s_.size() && is_digit(s_[p])) {
        pos_ = p;
        while (pos_ < s_.size() && is_digit(s_[pos_])) ++pos_;
      }
    }
    const auto v = parse_real(s_.substr(start, pos_ - start));
    if (!v) fail(fmt::format("bad number \"{}\"", s_.substr(start, pos_ - start)));
    return *v;
  }
  double name_or_call() {
    const std::size_t start = pos_;
    while (pos_ < s_.size() && is_name_char(s_[pos_])) ++pos_;
    const std::string name = to_upper(s_.substr(start, pos_ - start));
    if (accept("(")) return call_function(name, arguments());
    if (const Parameter* p = params_.find(name)) {
      if (p->type == 'C') fail(fmt::format("parameter {} is a character parameter", name));
      return p->number;
    }
    if (name == "PI") return std::numbers::pi;
    fail(fmt::format("undefined parameter {}", name));
  }
  std::vector<double> arguments() {
    std::vector<double> args;
    if (accept(")")) return args;
    do args.push_back(expr());
    while (accept(","));
    if (!accept(")")) fail("missing ')' after function arguments");
    return args;
  }
};

} // namespace

double evaluate_expression(std::string_view text, const Parameters& params) {
  const double v = ExpressionParser(trim(text), params).parse();
  if (!std::isfinite(v)) throw ExpressionError(fmt::format("\"{}\" is not finite", trim(text)));
  return v;
}

} // namespace parcae::io
