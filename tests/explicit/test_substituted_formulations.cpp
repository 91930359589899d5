// Formulations of decks written elsewhere that the explicit solver runs as one of its own, with
// one warning each (the public bolted-connection deck has both):
// - *SECTION_SOLID ELFORM 2, -1, -2 (fully integrated selective-reduced hexahedra) and 3 (with
//   nodal rotations, not modelled) run as the one-point hexahedron ELFORM 1 with the part's
//   hourglass control;
// - *CONTROL_HOURGLASS IHQ 8 (LS-DYNA: warping stiffness of the fully integrated shell ELFORM 16)
//   is the stiffness form IHQ 4.
// Checked: the substituted run is bitwise the run of the formulation it stands for, the warning
// names the section, and the hourglass type matters in this test (IHQ 4 and 1 differ), so the
// comparisons are not vacuous.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <fmt/format.h>

#include "input/keyword_reader.hpp"
#include "solvers/explicit/solver.hpp"
#include "test_support.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

// A 3 x 3 x 1 block of steel hexahedra (1 mm), twisted by an initial velocity field (vx = w z,
// vy = -w z with z the height, plus a spin about z) so that hourglass modes are excited.
std::string block(int elform, int ihq) {
  std::string s = fmt::format(
      "*KEYWORD\n*CONTROL_TERMINATION\n   2.0e-06\n*CONTROL_HOURGLASS\n{:10d}       0.1\n"
      "*PART\nblock\n         1         1         1\n*SECTION_SOLID\n{:10d}{:10d}\n"
      "*MAT_ELASTIC\n         1 7.850e-09  210000.0       0.3\n*NODE\n",
      ihq, 1, elform);
  auto id = [](int i, int j, int k) { return 1 + i + 4 * j + 16 * k; };
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 4; ++j)
      for (int i = 0; i < 4; ++i)
        s += fmt::format("{:8d}{:16.6f}{:16.6f}{:16.6f}\n", id(i, j, k), 1.0 * i, 1.0 * j, 1.0 * k);
  s += "*ELEMENT_SOLID\n";
  int e = 1;
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i)
      s += fmt::format("{:8d}{:8d}{:8d}{:8d}{:8d}{:8d}{:8d}{:8d}{:8d}{:8d}\n", e++, 1, id(i, j, 0),
                       id(i + 1, j, 0), id(i + 1, j + 1, 0), id(i, j + 1, 0), id(i, j, 1),
                       id(i + 1, j, 1), id(i + 1, j + 1, 1), id(i, j + 1, 1));
  s += "*INITIAL_VELOCITY_NODE\n";
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 4; ++j)
      for (int i = 0; i < 4; ++i)
        s += fmt::format("{:8d}{:16.3f}{:16.3f}{:16.3f}\n", id(i, j, k),
                         2000.0 * k - 300.0 * (j - 1.5) + 500.0 * ((i + j) % 2),
                         -2000.0 * k + 300.0 * (i - 1.5), 400.0 * ((i + j + k) % 2));
  return s + "*END\n";
}

struct Outcome {
  std::vector<double> x; ///< final positions
  double hourglass = 0;  ///< final hourglass energy
  std::vector<KeywordNote> notes;
};

Outcome run(const std::string& tag, int elform, int ihq) {
  const auto dir = make_temp_dir(tag);
  write_file(dir / "deck.k", block(elform, ihq));
  const Model m = read_deck((dir / "deck.k").string());
  RunOptions opt;
  opt.outdir = make_temp_dir(tag + "_out").string();
  opt.write_vtk = false;
  opt.write_glstat = false;
  Outcome r;
  r.notes = m.notes;
  opt.on_cycle = [&](const Domain& d, const GlobalStats& s) {
    r.x = d.x;
    r.hourglass = s.hourglass;
    return true;
  };
  const RunSummary sum = run_explicit(m, opt);
  EXPECT_TRUE(sum.normal_termination) << sum.error;
  return r;
}

bool has_note(const std::vector<KeywordNote>& notes, const std::string& keyword,
              const std::string& text) {
  for (const KeywordNote& n : notes)
    if (n.keyword == keyword && n.message.find(text) != std::string::npos) return true;
  return false;
}

} // namespace

TEST(SubstitutedFormulations, FullyIntegratedSolidsRunAsElform1) {
  const Outcome one = run("subst_e1", 1, 4);
  EXPECT_FALSE(has_note(one.notes, "*SECTION_SOLID", "fully integrated"));
  for (int elform : {2, -1, -2, 3}) {
    SCOPED_TRACE(fmt::format("ELFORM {}", elform));
    const Outcome sub = run(fmt::format("subst_e{}", elform < 0 ? 10 - elform : elform), elform, 4);
    EXPECT_TRUE(
        has_note(sub.notes, "*SECTION_SOLID", fmt::format("ELFORM {} (fully integrated", elform)));
    ASSERT_EQ(sub.x.size(), one.x.size());
    EXPECT_EQ(sub.x, one.x); // bitwise: the same element
    EXPECT_EQ(sub.hourglass, one.hourglass);
  }
}

TEST(SubstitutedFormulations, Ihq8IsTheStiffnessForm) {
  const Outcome four = run("subst_hq4", 1, 4);
  const Outcome eight = run("subst_hq8", 1, 8);
  const Outcome viscous = run("subst_hq1", 1, 1);
  EXPECT_EQ(eight.x, four.x);
  EXPECT_EQ(eight.hourglass, four.hourglass);
  // not vacuous: the hourglass forms act, and differently
  EXPECT_GT(four.hourglass, 0.0);
  EXPECT_NE(viscous.x, four.x);
}
