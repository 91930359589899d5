#pragma once
// Shared helpers for the verification tests: build a deck from text, run it in memory.
#include <string>

#include <fmt/format.h>

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

/// The unit cube of one hexahedron (part 1, nodes 1-8) on rollers at x = 0, y = 0, z = 0 whose
/// top face follows the displacement curve 1: (0, 0), (tend, utop), a constant velocity. With
/// uniaxial_strain the sides are held too (every node fixed in x and y: V / V0 is the height).
inline std::string roller_cube_cards(double tend, double utop, bool uniaxial_strain = false) {
  std::string d = hex_block_cards(1, 1, 1, 1.0, 1.0, 1.0, 1);
  const std::vector<long> all{1, 2, 3, 4, 5, 6, 7, 8};
  d += node_set_card(1, uniaxial_strain ? all : std::vector<long>{1, 3, 5, 7});
  d += node_set_card(2, uniaxial_strain ? all : std::vector<long>{1, 2, 5, 6});
  d += node_set_card(3, {1, 2, 3, 4});
  d += node_set_card(4, {5, 6, 7, 8});
  d += "*BOUNDARY_SPC_SET\n         1         0         1\n"
       "         2         0         0         1\n"
       "         3         0         0         0         1\n";
  d += "*BOUNDARY_PRESCRIBED_MOTION_SET\n         4         3         2         1       1.0\n";
  d += fmt::format("*DEFINE_CURVE\n         1\n{:20.10e}{:20.10e}\n{:20.10e}{:20.10e}\n", 0.0, 0.0,
                   tend, utop);
  return d;
}

/// A mass-on-a-bar oscillator (tests of lumped masses and damping): an elastic truss (E = 2e5,
/// rho = 7.85e-9, *SECTION_BEAM ELFORM 3 of area A) from node 1 (fixed) to node 2 at x = L,
/// which may move along x only, carries *ELEMENT_MASS tip and starts at v0. `extra` cards are
/// added before *END.
inline std::string bar_with_tip_mass_deck(double len, double area, double tip, double v0,
                                          double tend, const std::string& extra = "") {
  std::string d = "*KEYWORD\n";
  d += fmt::format("*CONTROL_TERMINATION\n{:10.4e}\n", tend);
  d += "*PART\nbar\n         1         1         1\n";
  d += fmt::format("*SECTION_BEAM\n         1         3\n{:10.4f}\n", area);
  d += "*MAT_ELASTIC\n         1 7.850e-09  200000.0       0.3\n";
  d += fmt::format("*NODE\n       1             0.0             0.0             0.0\n"
                   "       2{:16.4f}             0.0             0.0\n",
                   len);
  d += "*ELEMENT_BEAM\n       1       1       1       2\n";
  d += "*BOUNDARY_SPC_NODE\n         1         0         1         1         1\n"
       "         2         0         0         1         1\n";
  d += fmt::format("*ELEMENT_MASS\n     101       2{:16.6e}\n", tip);
  d += fmt::format("*INITIAL_VELOCITY_NODE\n         2{:10.4f}\n", v0);
  return d + extra + "*END\n";
}

} // namespace parcae::test
