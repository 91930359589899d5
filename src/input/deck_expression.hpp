#pragma once
// *PARAMETER values and *PARAMETER_EXPRESSION arithmetic.
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>

#include "core/error.hpp"

namespace parcae::io {

/// A *PARAMETER: type 'R' (real), 'I' (integer) or 'C' (character).
struct Parameter {
  char type = 'R';
  double number = 0;
  std::string text;
  SourceLoc loc;
};

/// Parameters by name. Names are case-insensitive (stored upper case). What a second
/// definition of a name does is the reader's business (*PARAMETER_DUPLICATION); set() replaces.
class Parameters {
public:
  void set(std::string_view name, Parameter p);
  [[nodiscard]] const Parameter* find(std::string_view name) const;
  /// Adds (replacing) every parameter of `other`.
  void overlay(const Parameters& other);
  [[nodiscard]] std::size_t size() const { return map_.size(); }

private:
  std::map<std::string, Parameter, std::less<>> map_;
};

/// A malformed expression or an unknown name in it.
class ExpressionError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Evaluate an arithmetic expression: numbers (Fortran styles), parameter names (with or
/// without a leading &), + - * / ^ (also **), parentheses, and the functions sin cos tan asin
/// acos atan atan2 sqrt exp log log10 abs min max pow int sign, and the constant pi.
/// Throws ExpressionError.
double evaluate_expression(std::string_view text, const Parameters& params);

} // namespace parcae::io
