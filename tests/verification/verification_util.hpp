#pragma once
// Shared helpers for the verification tests: build a deck from text, run it in memory.
#include <string>

#include "input/keyword_reader.hpp"
#include "solvers/explicit/solver.hpp"
#include "test_support.hpp"

namespace parcae::test {

/// Write the deck text to a fresh directory and read it.
inline Model read_deck_text(const std::string& tag, const std::string& text) {
  const auto dir = make_temp_dir(tag);
  write_file(dir / "deck.k", text);
  return read_deck((dir / "deck.k").string());
}

/// Options for an in-memory run without files.
inline RunOptions quiet_run(const std::string& tag) {
  RunOptions o;
  o.outdir = make_temp_dir(tag).string();
  o.write_vtk = false;
  o.write_glstat = false;
  return o;
}

/// Zero crossings (times, linearly interpolated) of a sampled signal.
inline std::vector<double> zero_crossings(const std::vector<double>& t,
                                          const std::vector<double>& y) {
  std::vector<double> out;
  for (std::size_t k = 1; k < y.size(); ++k)
    if ((y[k - 1] < 0) != (y[k] < 0) && y[k] != y[k - 1])
      out.push_back(t[k - 1] + (t[k] - t[k - 1]) * (-y[k - 1]) / (y[k] - y[k - 1]));
  return out;
}

} // namespace parcae::test
