#pragma once
// Error types. Input errors carry the file, line and card that caused them so the user can fix
// the deck; runtime errors (instability, ...) carry the element/part that triggered them.
#include <stdexcept>
#include <string>

namespace parcae {

/// Where in the input something came from.
struct SourceLoc {
  std::string file;  ///< path of the file as given (after include resolution)
  int line = 0;      ///< 1-based line number, 0 if unknown
  std::string card;  ///< keyword (e.g. "*SECTION_SHELL"), empty if unknown

  [[nodiscard]] std::string str() const;
};

/// Any error the user caused through the input deck.
class InputError : public std::runtime_error {
public:
  InputError(SourceLoc loc, const std::string& message);
  [[nodiscard]] const SourceLoc& loc() const { return loc_; }
  [[nodiscard]] const std::string& message() const { return message_; }

private:
  SourceLoc loc_;
  std::string message_;
};

/// A run that cannot continue (instability, negative volume, NaN, ...).
class RuntimeError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

} // namespace parcae
