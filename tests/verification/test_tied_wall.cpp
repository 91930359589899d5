// Tied nodes and velocity constraints: a rigid wall (or a prescribed motion) sets the velocity
// of single nodes after the ties have given the tied nodes their segments' accelerations. A
// tied node must still move with its segment when the wall stops the segment's nodes:
//   - two sheets joined by *MAT_SPOTWELD beams (ELFORM 9) whose nodes are tied to the sheets
//     by *CONTACT_SPOTWELD fall flat onto a rigid wall, with and without mass scaling (DT2MS <
//     0 scales the short welds' masses and rotary inertias several hundred times). The lower
//     sheet stops on the wall; the welds' lower nodes must stop with it (they used to fly on,
//     through the wall, the welds taking the upper sheet along), and energy is conserved.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

#include <fmt/format.h>

#include "verification_util.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

/// Sheets 40 x 20 mm (4 x 2 shells, 1 mm) at z = 0 (nodes 1-15) and z = 2 (nodes 101-115),
/// welds of 6 mm diameter at (13, 7) and (27, 13) between them (nodes 1001-1004), all moving
/// at 15 m/s towards the wall z = -0.1. Units t, mm, s.
std::string welded_sheets_on_a_wall(double dt2ms) {
  std::string d = "*KEYWORD\n*CONTROL_TERMINATION\n 1.000e-03\n";
  d += fmt::format("*CONTROL_TIMESTEP\n       0.0      0.90         0       0.0{:10.3e}\n", dt2ms);
  d += "*PART\nsheets\n         1         1         1\n*PART\nwelds\n         2         2         "
       "2\n";
  d += "*SECTION_SHELL\n         1         2    0.8333         3\n"
       "       1.0       1.0       1.0       1.0\n";
  d += "*SECTION_BEAM\n         2         9       1.0         2         1\n       6.0       6.0\n";
  d += "*MAT_ELASTIC\n         1   7.85e-9  210000.0       0.3\n";
  d += "*MAT_SPOTWELD\n         2   7.85e-9  210000.0       0.3     500.0    1000.0\n\n";
  d += "*NODE\n";
  for (int s = 0; s < 2; ++s)
    for (int j = 0; j <= 2; ++j)
      for (int i = 0; i <= 4; ++i)
        d += fmt::format("{:8d}{:16.6f}{:16.6f}{:16.6f}\n", 100 * s + 5 * j + i + 1, 10.0 * i,
                         10.0 * j, 2.0 * s);
  d += fmt::format("{:8d}{:16.6f}{:16.6f}{:16.6f}\n{:8d}{:16.6f}{:16.6f}{:16.6f}\n", 1001, 13.0,
                   7.0, 0.0, 1002, 13.0, 7.0, 2.0);
  d += fmt::format("{:8d}{:16.6f}{:16.6f}{:16.6f}\n{:8d}{:16.6f}{:16.6f}{:16.6f}\n", 1003, 27.0,
                   13.0, 0.0, 1004, 27.0, 13.0, 2.0);
  d += "*ELEMENT_SHELL\n";
  long e = 1;
  for (int s = 0; s < 2; ++s)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 4; ++i) {
        const long n = 100 * s + 5 * j + i + 1;
        d += fmt::format("{:8d}{:8d}{:8d}{:8d}{:8d}{:8d}\n", e++, 1, n, n + 1, n + 6, n + 5);
      }
  d += "*ELEMENT_BEAM\n     101       2    1001    1002\n     102       2    1003    1004\n";
  d += "*CONTACT_SPOTWELD\n         2         1         3         3\n\n\n";
  for (int pid = 1; pid <= 2; ++pid)
    d += fmt::format("*INITIAL_VELOCITY_GENERATION\n{:10d}         2       0.0       0.0       "
                     "0.0  -15000.0\n       0.0       0.0       0.0       0.0       0.0       "
                     "0.0\n",
                     pid);
  d += "*RIGIDWALL_PLANAR\n         0\n       0.0       0.0      -0.1       0.0       0.0       "
       "0.9       0.0\n*END\n";
  return d;
}

struct WallRun {
  double gap = 0;          ///< largest distance of a tied lower weld node from its tie point
  double weld_z = 1e300;   ///< lowest z of the lower weld nodes (the wall is at z = -0.1)
  double energy_error = 0; ///< largest |energy ratio - 1| after the landing
  double final_error = 0;  ///< |energy ratio - 1| at the end
  double added_pct = 0;
};

WallRun run_welded_sheets(const std::string& tag, double dt2ms) {
  Model model = read_deck_text(tag, welded_sheets_on_a_wall(dt2ms));
  RunOptions opt = quiet_run(tag);
  opt.write_d3plot = false;
  auto idx = [&](long id) { return static_cast<std::size_t>(model.node_index(id)); };
  // the lower weld nodes and their tie points on the lower sheet (bilinear shape functions of
  // the flat shells: (13, 7) in the shell 2-3-8-7, (27, 13) in the shell 8-9-14-13)
  struct Tie {
    std::size_t node;
    std::array<std::size_t, 4> seg;
    std::array<double, 4> n;
  };
  const std::array<Tie, 2> ties{
      Tie{idx(1001), {idx(2), idx(3), idx(8), idx(7)}, {0.21, 0.09, 0.21, 0.49}},
      Tie{idx(1003), {idx(8), idx(9), idx(14), idx(13)}, {0.21, 0.49, 0.21, 0.09}}};
  WallRun r;
  opt.on_cycle = [&](const Domain& d, const GlobalStats& st) {
    for (const Tie& t : ties) {
      double g2 = 0;
      for (int c = 0; c < 3; ++c) {
        double p = 0;
        for (int a = 0; a < 4; ++a) p += t.n[a] * d.x[3 * t.seg[a] + c];
        g2 += (d.x[3 * t.node + c] - p) * (d.x[3 * t.node + c] - p);
      }
      r.gap = std::max(r.gap, std::sqrt(g2));
      r.weld_z = std::min(r.weld_z, d.x[3 * t.node + 2]);
    }
    // (not the landing cycles: the ratio spikes for a cycle or two while the wall stops the sheet)
    if (st.time > 1e-4)
      r.energy_error = std::max(r.energy_error, std::abs(st.energy_ratio() - 1.0));
    r.added_pct = st.percent_mass_increase();
    return true;
  };
  const RunSummary sum = run_explicit(model, opt);
  EXPECT_TRUE(sum.normal_termination) << sum.error;
  r.final_error = sum.energy_error;
  std::printf("%s: tie gap %.3e mm, lower weld nodes down to z = %.3e mm, energy error %.3e "
              "(largest after the landing %.3e), added mass %.1f%%\n",
              tag.c_str(), r.gap, r.weld_z, r.final_error, r.energy_error, r.added_pct);
  return r;
}

} // namespace

TEST(TiedWall, SpotWeldsStopWithTheirSheetOnARigidWall) {
  const WallRun plain = run_welded_sheets("tied_wall_plain", 0.0);
  const WallRun scaled = run_welded_sheets("tied_wall_scaled", -1.0e-6);
  EXPECT_GT(scaled.added_pct, 20.0); // the welds' masses scaled
  for (const WallRun* r : {&plain, &scaled}) {
    EXPECT_LT(r->gap, 1e-6);           // the tied nodes stay on their (stopped) segments
    EXPECT_GT(r->weld_z, -0.1 - 1e-6); // not through the wall
    EXPECT_LT(r->final_error, 0.01);
  }
  EXPECT_LT(plain.energy_error, 0.01);
  // the scaled welds are crushed within a few cycles at their (scaled) stable step: the ratio
  // then oscillates by about 1 %, without a drift
  EXPECT_LT(scaled.energy_error, 0.02);
}
