// Ties with rotations (*CONTACT_TIED_SHELL_EDGE_TO_SURFACE, beam welds in *CONTACT_SPOTWELD)
// through the explicit solver. A constraint tie of a node that coincides with a segment node is
// that node merged: the tied model must move as the merged mesh, to round-off (the forces are
// summed in another order), rotations included:
//   - a shell cantilever made of two strips whose second strip's root edge is tied to the
//     first strip's end: the tip's motion is the one-piece cantilever's. Tied by translations
//     only (*CONTACT_TIED_NODES_TO_SURFACE) the joint is a hinge and the tip falls much further;
//   - a lap joint of two sheets held by a *MAT_SPOTWELD beam (ELFORM 9) whose nodes are tied to
//     the sheets by *CONTACT_SPOTWELD: the sheets move as with the beam on the sheets' nodes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include <fmt/format.h>

#include "verification_util.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

constexpr double kRho = 7.85e-9, kE = 2.1e5; // mm, t, s, MPa

/// Shift the *NODE lines of `cards` by (dx, dz).
std::string shifted(const std::string& cards, double dx, double dz) {
  std::string out, line;
  std::istringstream in(cards);
  bool nodes = false;
  while (std::getline(in, line)) {
    if (line.rfind("*", 0) == 0) {
      nodes = line == "*NODE";
    } else if (nodes) {
      long id;
      double x, y, z;
      std::sscanf(line.c_str(), "%ld %lf %lf %lf", &id, &x, &y, &z);
      line = fmt::format("{:8d}{:16.9g}{:16.9g}{:16.9g}", id, x + dx, y, z + dz);
    }
    out += line + "\n";
  }
  return out;
}

std::vector<double> tip_history(const std::string& tag, const std::string& deck, long node,
                                int dir) {
  Model model = read_deck_text(tag, deck);
  RunOptions opt = quiet_run(tag);
  const auto n = static_cast<std::size_t>(model.node_index(node));
  std::vector<double> u;
  opt.on_cycle = [&](const Domain& d, const GlobalStats&) {
    u.push_back(d.x[3 * n + dir] - d.x0[3 * n + dir]);
    return true;
  };
  const RunSummary sum = run_explicit(model, opt);
  EXPECT_TRUE(sum.normal_termination) << sum.error;
  return u;
}

double max_abs(const std::vector<double>& v) {
  double m = 0;
  for (double x : v) m = std::max(m, std::abs(x));
  return m;
}

/// The largest difference between two histories over the larger's magnitude.
double relative_gap(const std::vector<double>& a, const std::vector<double>& b) {
  EXPECT_EQ(a.size(), b.size());
  double g = 0;
  for (std::size_t k = 0; k < std::min(a.size(), b.size()); ++k)
    g = std::max(g, std::abs(a[k] - b[k]));
  return g / std::max(max_abs(a), max_abs(b));
}

std::string cantilever_head() {
  std::string d = "*KEYWORD\n*CONTROL_TERMINATION\n 2.000e-03\n";
  for (int pid = 1; pid <= 2; ++pid)
    d += fmt::format("*PART\nstrip {}\n{:10d}         1         1\n", pid, pid);
  d += "*SECTION_SHELL\n         1         2\n       2.0       2.0       2.0       2.0\n";
  d += fmt::format("*MAT_ELASTIC\n         1{:10.3e}{:10.1f}       0.3\n", kRho, kE);
  return d;
}

/// Clamped at nodes 1 and root2; a 20 N z force shared by the tip nodes.
std::string cantilever_loads(long root2, long tip1, long tip2) {
  std::string d = node_set_card(1, {1, root2});
  d += node_set_card(2, {tip1, tip2});
  d += "*BOUNDARY_SPC_SET\n         1         0         1         1         1         1         "
       "1         1\n";
  d += "*LOAD_NODE_SET\n         2         3         7      10.0\n";
  d += "*DEFINE_CURVE\n         7\n0.0,1.0\n1.0,1.0\n*END\n";
  return d;
}

/// Two strips of the cantilever: A at x 0..40 (nodes 1-10), B at x 40..80 (nodes 101-110), B's
/// root nodes 101 and 106 (node set 3) on A's end nodes 5 and 10; no tie yet.
std::string two_strips() {
  const std::string a = shell_grid_cards(4, 1, 40.0, 10.0, 1, 1, 1);
  const std::string b = shifted(shell_grid_cards(4, 1, 40.0, 10.0, 2, 101, 101), 40.0, 0.0);
  std::string d = cantilever_head();
  d += a.substr(0, a.find("*ELEMENT_SHELL")) + b.substr(0, b.find("*ELEMENT_SHELL"));
  d += a.substr(a.find("*ELEMENT_SHELL")) + b.substr(b.find("*ELEMENT_SHELL"));
  return d + node_set_card(3, {101, 106});
}

} // namespace

TEST(TiedRotations, ShellEdgeTieIsTheMergedCantilever) {
  // strip A: x 0..40 (nodes 1-10), strip B: x 40..80 (nodes 101-110); B's nodes 101 and 106
  // sit on A's nodes 5 and 10
  const std::string tied = two_strips();
  const std::string edge = tied +
                           "*CONTACT_TIED_SHELL_EDGE_TO_SURFACE\n         3         1         "
                           "4         3\n\n\n" +
                           cantilever_loads(6, 105, 110);
  const std::string hinge = tied +
                            "*CONTACT_TIED_NODES_TO_SURFACE\n         3         1         "
                            "4         3\n\n\n" +
                            cantilever_loads(6, 105, 110);
  // the merged mesh: one strip of 8 elements (tip nodes 9 and 18)
  std::string merged = cantilever_head() + shell_grid_cards(8, 1, 80.0, 10.0, 1, 1, 1);
  merged += cantilever_loads(10, 9, 18);
  const auto u_edge = tip_history("edge_tie", edge, 105, 2);
  const auto u_merged = tip_history("edge_merged", merged, 9, 2);
  const auto u_hinge = tip_history("edge_hinge", hinge, 105, 2);
  const double gap = relative_gap(u_edge, u_merged);
  std::printf("tip deflection: tied edge %.6e, merged %.6e, hinge %.6e mm; gap %.2e\n",
              u_edge.back(), u_merged.back(), u_hinge.back(), gap);
  EXPECT_GT(max_abs(u_merged), 0.1);
  EXPECT_LT(gap, 1e-6);
  EXPECT_GT(max_abs(u_hinge), 3 * max_abs(u_merged)); // rotations free: a mechanism
}

TEST(TiedRotations, ShellEdgeOffsetTieIsAPenaltyHinge) {
  // _OFFSET is LS-DYNA's penalty tie of the translations: the edge is a hinge (the tip falls
  // as far as with the translational penalty tie of the nodes, and far below the merged
  // cantilever), and the penalty springs hold the tied nodes on their points
  const std::string tied = two_strips();
  auto with = [&](const std::string& kw) {
    return tied + kw + "\n         3         1         4         3\n\n\n" +
           cantilever_loads(6, 105, 110);
  };
  const auto u_edge =
      tip_history("edge_offset", with("*CONTACT_TIED_SHELL_EDGE_TO_SURFACE_OFFSET"), 105, 2);
  const auto u_nodes =
      tip_history("nodes_offset", with("*CONTACT_TIED_NODES_TO_SURFACE_OFFSET"), 105, 2);
  std::string merged = cantilever_head() + shell_grid_cards(8, 1, 80.0, 10.0, 1, 1, 1);
  merged += cantilever_loads(10, 9, 18);
  const auto u_merged = tip_history("offset_merged", merged, 9, 2);
  const auto u_hinge =
      tip_history("constraint_hinge", with("*CONTACT_TIED_NODES_TO_SURFACE"), 105, 2);
  std::printf("tip deflection: edge _OFFSET %.6e, nodes _OFFSET %.6e, constraint hinge %.6e, "
              "merged %.6e mm\n",
              u_edge.back(), u_nodes.back(), u_hinge.back(), u_merged.back());
  EXPECT_EQ(relative_gap(u_edge, u_nodes), 0.0);
  // the penalty hinge is the constraint hinge but for the springs' compliance (stable: the
  // springs are capped at what the step carries, contact/surface.cpp tie_stiffness)
  EXPECT_LT(relative_gap(u_edge, u_hinge), 1e-2);
  EXPECT_GT(max_abs(u_edge), 3 * max_abs(u_merged));
  // the tied root node 101 stays on strip A's end node 5 (penalty: within a small gap)
  Model model =
      read_deck_text("edge_offset_gap", with("*CONTACT_TIED_SHELL_EDGE_TO_SURFACE_OFFSET"));
  RunOptions opt = quiet_run("edge_offset_gap");
  const auto n101 = static_cast<std::size_t>(model.node_index(101));
  const auto n5 = static_cast<std::size_t>(model.node_index(5));
  double worst = 0, peak = 0;
  opt.on_cycle = [&](const Domain& d, const GlobalStats&) {
    worst = std::max(worst, std::abs(d.x[3 * n101 + 2] - d.x[3 * n5 + 2]));
    peak = std::max(peak, std::abs(d.x[3 * n5 + 2] - d.x0[3 * n5 + 2]));
    return true;
  };
  EXPECT_TRUE(run_explicit(model, opt).normal_termination);
  EXPECT_GT(peak, 0.05);
  EXPECT_LT(worst, 0.02 * peak);
}

TEST(TiedRotations, BeamSpotWeldTiedToTheSheetsIsTheBeamOnTheSheets) {
  // lower sheet x 0..40 (nodes 1-45), upper sheet x 20..60 at z = 6 (nodes 101-145); the weld
  // beam from (30, 10, 0) (lower node 25) to (30, 10, 6) (upper node 121)
  auto deck = [](bool tied) {
    std::string d = "*KEYWORD\n*CONTROL_TERMINATION\n 2.000e-04\n";
    d += "*PART\nlower\n         1         1         1\n*PART\nupper\n         2         1         "
         "1\n";
    d += "*SECTION_SHELL\n         1         2\n       1.0       1.0       1.0       1.0\n";
    d += fmt::format("*MAT_ELASTIC\n         1{:10.3e}{:10.1f}       0.3\n", kRho, kE);
    d += "*PART\nweld\n         3         2         2\n"
         "*SECTION_BEAM\n         2         9       1.0         2         1\n"
         "       5.0       5.0\n"
         "*MAT_SPOTWELD\n         2   7.85e-9  210000.0       0.3     400.0    1000.0\n\n";
    const std::string lower = shell_grid_cards(8, 4, 40.0, 20.0, 1, 1, 1);
    const std::string upper = shifted(shell_grid_cards(8, 4, 40.0, 20.0, 2, 101, 101), 20.0, 6.0);
    d += lower.substr(0, lower.find("*ELEMENT_SHELL"));
    d += upper.substr(0, upper.find("*ELEMENT_SHELL"));
    d += lower.substr(lower.find("*ELEMENT_SHELL")) + upper.substr(upper.find("*ELEMENT_SHELL"));
    if (tied) {
      d += "*NODE\n    1001            30.0            10.0             0.0\n"
           "    1002            30.0            10.0             6.0\n";
      d += "*ELEMENT_BEAM\n    1001       3    1001    1002\n";
      d += "*SET_PART_LIST\n        60\n         1         2\n";
      d += "*CONTACT_SPOTWELD\n         3        60         3         2\n\n\n";
    } else {
      d += "*ELEMENT_BEAM\n    1001       3      25     121\n";
    }
    // lower sheet: x = 0 edge fixed; upper sheet: x = 60 edge pulled along x and lifted (peel)
    d += node_set_card(1, {1, 10, 19, 28, 37});
    d += node_set_card(2, {109, 118, 127, 136, 145});
    d += "*BOUNDARY_SPC_SET\n         1         0         1         1         1         1         "
         "1         1\n";
    d += "*BOUNDARY_PRESCRIBED_MOTION_SET\n         2         1         0         7       1.0\n";
    d += "*BOUNDARY_PRESCRIBED_MOTION_SET\n         2         3         0         7       0.5\n";
    d += "*DEFINE_CURVE\n         7\n0.0,1000.0\n1.0,1000.0\n*END\n";
    return d;
  };
  for (int dir : {0, 2}) {
    const auto t = tip_history(fmt::format("weld_tied_{}", dir), deck(true), 25, dir);
    const auto m = tip_history(fmt::format("weld_merged_{}", dir), deck(false), 25, dir);
    const double gap = relative_gap(t, m);
    std::printf("lower sheet node 25, direction %d: tied weld %.6e, merged %.6e mm; gap %.2e\n",
                dir, t.back(), m.back(), gap);
    EXPECT_GT(max_abs(m), 1e-3);
    EXPECT_LT(gap, 1e-6);
  }
}

TEST(TiedRotations, ShellEdgeOnASolidFaceIsRefused) {
  // a shell strip's edge on a hexahedron's face: its rotations have nothing to follow
  std::string d = "*KEYWORD\n*CONTROL_TERMINATION\n 1.000e-05\n";
  d += "*PART\nstrip\n         1         1         1\n*PART\nblock\n         2         2         "
       "1\n";
  d += "*SECTION_SHELL\n         1         2\n       1.0       1.0       1.0       1.0\n"
       "*SECTION_SOLID\n         2         1\n";
  d += fmt::format("*MAT_ELASTIC\n         1{:10.3e}{:10.1f}       0.3\n", kRho, kE);
  d += shifted(shell_grid_cards(2, 1, 20.0, 10.0, 1, 1, 1), 10.0, 5.0);
  d += hex_block_cards(1, 1, 1, 10.0, 10.0, 10.0, 2, 101, 101, 0.0, 0.0, 0.0);
  d += node_set_card(3, {1, 4});
  d += "*CONTACT_TIED_SHELL_EDGE_TO_SURFACE\n         3         2         4         3\n\n\n*END\n";
  try {
    Model model = read_deck_text("edge_on_solid", d);
    const RunSummary sum = run_explicit(model, quiet_run("edge_on_solid"));
    ADD_FAILURE() << "a shell edge tied to a solid face was accepted: " << sum.error;
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("has no rotational dofs"), std::string::npos) << e.what();
  }
}
