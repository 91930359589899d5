#pragma once
// Helpers for the keyword reader tests: small decks written to a temporary directory.
#include <filesystem>
#include <string>

#include "input/keyword_reader.hpp"
#include "test_support.hpp"

namespace parcae::test {

/// A unit cube of one hexahedron (nodes 1-8, element 1, part 1, section 1, elastic material 1)
/// in free format, without *CONTROL_TERMINATION.
inline std::string cube_mesh() {
  return "*NODE\n"
         "1,0,0,0\n2,1,0,0\n3,1,1,0\n4,0,1,0\n5,0,0,1\n6,1,0,1\n7,1,1,1\n8,0,1,1\n"
         "*ELEMENT_SOLID\n1,1,1,2,3,4,5,6,7,8\n"
         "*PART\ncube\n1,1,1\n"
         "*SECTION_SOLID\n1,1\n"
         "*MAT_ELASTIC\n1,7.85e-9,210000.,0.3\n";
}

inline std::string termination() {
  return "*CONTROL_TERMINATION\n1.0e-3\n";
}

/// *KEYWORD + body + *END.
inline std::string deck(const std::string& body) {
  return "*KEYWORD\n" + body + "*END\n";
}

/// The cube deck with `extra` keywords added before *END.
inline std::string cube_deck(const std::string& extra = "") {
  return deck(cube_mesh() + termination() + extra);
}

/// Write `text` as deck.k in a fresh directory and read it.
inline Model read_text(const std::string& text, const ReadOptions& options = {}) {
  const auto dir = make_temp_dir("keyword");
  write_file(dir / "deck.k", text);
  return read_deck((dir / "deck.k").string(), options);
}

/// The message of the InputError or DeckErrors thrown by read_text, or "" if none.
inline std::string read_error(const std::string& text, const ReadOptions& options = {}) {
  try {
    read_text(text, options);
  } catch (const InputError& e) {
    return e.what();
  } catch (const DeckErrors& e) {
    return e.what();
  }
  return "";
}

} // namespace parcae::test
