#include "core/error.hpp"

namespace parcae {

std::string SourceLoc::str() const {
  std::string s = file.empty() ? std::string("<input>") : file;
  if (line > 0) s += ":" + std::to_string(line);
  if (!card.empty()) s += " (" + card + ")";
  return s;
}

InputError::InputError(SourceLoc loc, const std::string& message)
    : std::runtime_error(loc.str() + ": " + message), loc_(std::move(loc)), message_(message) {}

} // namespace parcae
