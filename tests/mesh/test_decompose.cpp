// Domain decomposition: RCB and METIS balance, determinism, cut direction under
// transformations, shared-node symmetry, the communication report, errors and the VTK file.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "mesh/decompose.hpp"
#include "mesh_test_util.hpp"
#include "test_support.hpp"

namespace parcae::test {
namespace {

DecompOptions opts(int nparts, DecompMethod method = DecompMethod::Rcb) {
  DecompOptions o;
  o.nparts = nparts;
  o.method = method;
  return o;
}

Model hex_block_model() {
  Model m;
  add_hex_block(m, 24, 12, 10, 24, 12, 10); // 2880 elements
  return m;
}

Model shell_grid_model() {
  Model m;
  add_shell_grid(m, 60, 40, 60, 40); // 2400 elements
  return m;
}

/// Solids, shells and a rigid part side by side (different element costs).
Model mixed_model() {
  Model m;
  add_hex_block(m, 20, 10, 6, 20, 10, 6, 1);
  add_shell_grid(m, 40, 20, 20, 10, 2, MaterialKind::Elastic, 6);
  add_hex_block(m, 10, 10, 4, 10, 10, 4, 3, MaterialKind::Rigid, 20);
  return m;
}

/// Every element has exactly one rank in [0, nparts) and every rank has elements.
void expect_complete(const Model& m, const Decomposition& d, int nparts) {
  ASSERT_EQ(d.nparts, nparts);
  ASSERT_EQ(d.solid_rank.size(), m.solids.size());
  ASSERT_EQ(d.shell_rank.size(), m.shells.size());
  std::vector<std::size_t> count(static_cast<std::size_t>(nparts), 0);
  for (const auto* ranks : {&d.solid_rank, &d.shell_rank})
    for (int r : *ranks) {
      ASSERT_GE(r, 0);
      ASSERT_LT(r, nparts);
      ++count[static_cast<std::size_t>(r)];
    }
  std::size_t total = 0;
  for (std::size_t r = 0; r < count.size(); ++r) {
    EXPECT_GT(count[r], 0U) << "rank " << r << " is empty";
    total += count[r];
  }
  EXPECT_EQ(total, m.solids.size() + m.shells.size());
  const DecompReport rep = analyse_decomposition(m, d);
  std::size_t s = 0, sh = 0;
  for (const auto& r : rep.ranks) {
    s += r.solids;
    sh += r.shells;
  }
  EXPECT_EQ(s, m.solids.size());
  EXPECT_EQ(sh, m.shells.size());
}

// ---------------------------------------------------------------------------------------------
// RCB

TEST(DecomposeRcb, BalancedOnHexBlock) {
  const Model m = hex_block_model();
  for (int np : {2, 3, 4, 8}) {
    const Decomposition d = decompose(m, opts(np));
    expect_complete(m, d, np);
    const DecompReport rep = analyse_decomposition(m, d);
    EXPECT_LT(rep.imbalance, 0.02) << np << " ranks\n" << format_decomposition_report(rep);
  }
}

TEST(DecomposeRcb, BalancedOnShellGrid) {
  const Model m = shell_grid_model();
  for (int np : {2, 3, 4, 8}) {
    const Decomposition d = decompose(m, opts(np));
    expect_complete(m, d, np);
    EXPECT_LT(analyse_decomposition(m, d).imbalance, 0.02) << np << " ranks";
  }
}

TEST(DecomposeRcb, BalancedByCostOnMixedModel) {
  const Model m = mixed_model();
  for (int np : {2, 3, 4, 5, 7, 8}) {
    const Decomposition d = decompose(m, opts(np));
    expect_complete(m, d, np);
    const DecompReport rep = analyse_decomposition(m, d);
    EXPECT_LT(rep.imbalance, 0.02) << np << " ranks\n" << format_decomposition_report(rep);
  }
}

TEST(DecomposeRcb, AnyRankCountOnOddBlock) {
  Model m;
  add_hex_block(m, 17, 13, 7, 17, 13, 7); // 1547 elements
  for (int np : {5, 6, 7, 11, 13}) {
    const Decomposition d = decompose(m, opts(np));
    expect_complete(m, d, np);
    EXPECT_LT(analyse_decomposition(m, d).imbalance, 0.02) << np << " ranks";
  }
}

TEST(DecomposeRcb, Deterministic) {
  const Model m = mixed_model();
  for (int np : {3, 8}) {
    const Decomposition a = decompose(m, opts(np));
    const Decomposition b = decompose(m, opts(np));
    EXPECT_EQ(a.solid_rank, b.solid_rank);
    EXPECT_EQ(a.shell_rank, b.shell_rank);
  }
}

TEST(DecomposeRcb, OneRankPerElement) {
  Model m;
  add_hex_block(m, 3, 2, 1, 3, 2, 1);
  const Decomposition d = decompose(m, opts(6));
  expect_complete(m, d, 6);
  std::set<int> ranks(d.solid_rank.begin(), d.solid_rank.end());
  EXPECT_EQ(ranks.size(), 6U);
}

TEST(DecomposeRcb, SingleRankIsTrivial) {
  const Model m = mixed_model();
  for (DecompMethod method : {DecompMethod::Rcb, DecompMethod::Metis}) {
    const Decomposition d = decompose(m, opts(1, method));
    expect_complete(m, d, 1);
    EXPECT_EQ(analyse_decomposition(m, d).ranks[0].shared_nodes, 0U);
  }
}

// A block long in x is cut across x; stretched 10 times in y it is cut across y.
TEST(DecomposeRcb, TransformationChangesCutDirection) {
  Model m;
  add_hex_block(m, 8, 4, 2, 8, 4, 2);
  auto cut_axis = [&](const DecompOptions& o) {
    const Decomposition d = decompose(m, o);
    // The axis along which the two ranks' centroids are separated.
    for (int axis = 0; axis < 3; ++axis) {
      Real lo[2] = {1e30, 1e30}, hi[2] = {-1e30, -1e30};
      for (std::size_t e = 0; e < m.solids.size(); ++e) {
        const Real c = solid_centroid(m, e)[static_cast<std::size_t>(axis)];
        const int r = d.solid_rank[e];
        lo[r] = std::min(lo[r], c);
        hi[r] = std::max(hi[r], c);
      }
      if (hi[0] < lo[1] || hi[1] < lo[0]) return axis;
    }
    return -1;
  };
  EXPECT_EQ(cut_axis(opts(2)), 0);

  Model stretched = m;
  stretched.control.mpp_decomposition_transforms.push_back({"SY", {10}, {}});
  DecompOptions o = decomp_options_from_model(stretched, 2);
  EXPECT_EQ(o.transform[4], 10);
  EXPECT_EQ(cut_axis(o), 1);

  // Rotated by 90 degrees about z after the stretch: the long (y) direction is still cut.
  stretched.control.mpp_decomposition_transforms.push_back({"RZ", {90}, {}});
  o = decomp_options_from_model(stretched, 2);
  EXPECT_EQ(cut_axis(o), 1);
}

TEST(DecompOptionsFromModel, ComposesCardsInOrder) {
  Model m;
  EXPECT_EQ(decomp_options_from_model(m, 4).method, DecompMethod::Rcb);
  EXPECT_EQ(decomp_options_from_model(m, 4).nparts, 4);
  const std::array<Real, 9> identity{1, 0, 0, 0, 1, 0, 0, 0, 1};
  EXPECT_EQ(decomp_options_from_model(m, 4).transform, identity);

  // SY 10 then RZ 90: x' = Rz * Sy * x = (-10 y, x, z).
  m.control.mpp_decomposition_transforms = {{"SY", {10}, {}}, {"RZ", {90}, {}}};
  std::array<Real, 9> t = decomp_options_from_model(m, 2).transform;
  const std::array<Real, 9> rz_sy{0, -10, 0, 1, 0, 0, 0, 0, 1};
  for (int i = 0; i < 9; ++i) EXPECT_NEAR(t[i], rz_sy[i], 1e-12) << i;
  // RZ 90 then SY 10: x' = Sy * Rz * x = (-y, 10 x, z).
  m.control.mpp_decomposition_transforms = {{"RZ", {90}, {}}, {"SY", {10}, {}}};
  t = decomp_options_from_model(m, 2).transform;
  const std::array<Real, 9> sy_rz{0, -1, 0, 10, 0, 0, 0, 0, 1};
  for (int i = 0; i < 9; ++i) EXPECT_NEAR(t[i], sy_rz[i], 1e-12) << i;
  // RX 90: (x, -z, y); SX 2 then SZ 3.
  m.control.mpp_decomposition_transforms = {{"RX", {90}, {}}};
  t = decomp_options_from_model(m, 2).transform;
  const std::array<Real, 9> rx{1, 0, 0, 0, 0, -1, 0, 1, 0};
  for (int i = 0; i < 9; ++i) EXPECT_NEAR(t[i], rx[i], 1e-12) << i;
  m.control.mpp_decomposition_transforms = {{"RY", {90}, {}}};
  t = decomp_options_from_model(m, 2).transform;
  const std::array<Real, 9> ry{0, 0, 1, 0, 1, 0, -1, 0, 0};
  for (int i = 0; i < 9; ++i) EXPECT_NEAR(t[i], ry[i], 1e-12) << i;
  m.control.mpp_decomposition_transforms = {{"SX", {2}, {}}, {"SZ", {3}, {}}};
  t = decomp_options_from_model(m, 2).transform;
  const std::array<Real, 9> sxz{2, 0, 0, 0, 1, 0, 0, 0, 3};
  EXPECT_EQ(t, sxz);

  m.control.mpp_decomposition_method = "METIS";
  EXPECT_EQ(decomp_options_from_model(m, 2).method, DecompMethod::Metis);
  m.control.mpp_decomposition_method = "GREEDY";
  EXPECT_THROW(decomp_options_from_model(m, 2), InputError);
  m.control.mpp_decomposition_method = "RCB";
  m.control.mpp_decomposition_transforms = {{"VEC3", {1, 0, 0}, {}}};
  EXPECT_THROW(decomp_options_from_model(m, 2), InputError);
}

// ---------------------------------------------------------------------------------------------
// METIS

TEST(DecomposeMetis, BalancedOnHexBlockAndShellGrid) {
  for (const Model& m : {hex_block_model(), shell_grid_model(), mixed_model()}) {
    for (int np : {2, 3, 4, 8}) {
      const Decomposition d = decompose(m, opts(np, DecompMethod::Metis));
      expect_complete(m, d, np);
      const DecompReport rep = analyse_decomposition(m, d);
      // UFACTOR 10: METIS keeps every part within 1% of the mean weight (integer weights).
      EXPECT_LT(rep.imbalance, 0.02) << np << " ranks\n" << format_decomposition_report(rep);
    }
  }
}

TEST(DecomposeMetis, Deterministic) {
  const Model m = mixed_model();
  const Decomposition a = decompose(m, opts(4, DecompMethod::Metis));
  const Decomposition b = decompose(m, opts(4, DecompMethod::Metis));
  EXPECT_EQ(a.solid_rank, b.solid_rank);
  EXPECT_EQ(a.shell_rank, b.shell_rank);
}

TEST(DecomposeMetis, CutsFewerNodesThanStripes) {
  // A cube in 8 parts: METIS (like RCB) makes compact parts; both share far fewer nodes than the
  // whole model has.
  Model m;
  add_hex_block(m, 16, 16, 16, 16, 16, 16);
  for (DecompMethod method : {DecompMethod::Rcb, DecompMethod::Metis}) {
    const DecompReport rep = analyse_decomposition(m, decompose(m, opts(8, method)));
    std::size_t shared = 0;
    for (const auto& r : rep.ranks) shared += r.shared_nodes;
    EXPECT_LT(shared, m.nodes.size() / 2);
  }
}

// ---------------------------------------------------------------------------------------------
// Shared nodes and the report

TEST(DecompositionReport, SharedNodeListsAreSymmetric) {
  const Model m = mixed_model();
  for (DecompMethod method : {DecompMethod::Rcb, DecompMethod::Metis}) {
    const Decomposition d = decompose(m, opts(5, method));
    const auto lists = shared_node_lists(m, d);
    const DecompReport rep = analyse_decomposition(m, d);
    ASSERT_EQ(lists.size(), 5U);
    for (std::size_t a = 0; a < lists.size(); ++a) {
      std::set<LocalId> all;
      int prev = -1;
      for (const RankNeighbour& nb : lists[a]) {
        EXPECT_NE(nb.rank, static_cast<int>(a));
        EXPECT_GT(nb.rank, prev);
        prev = nb.rank;
        EXPECT_TRUE(std::is_sorted(nb.nodes.begin(), nb.nodes.end()));
        EXPECT_FALSE(nb.nodes.empty());
        const auto& back = lists[static_cast<std::size_t>(nb.rank)];
        const auto it = std::find_if(back.begin(), back.end(), [&](const RankNeighbour& x) {
          return x.rank == static_cast<int>(a);
        });
        ASSERT_NE(it, back.end()) << a << " shares with " << nb.rank << " but not back";
        EXPECT_EQ(it->nodes, nb.nodes);
        all.insert(nb.nodes.begin(), nb.nodes.end());
      }
      EXPECT_EQ(rep.ranks[a].shared_nodes, all.size());
      EXPECT_EQ(rep.ranks[a].neighbours, static_cast<int>(lists[a].size()));
    }
  }
}

// Two unit hexahedra side by side in x, one per rank: worked out by hand.
TEST(DecompositionReport, TwoHexesByHand) {
  Model m;
  add_hex_block(m, 2, 1, 1, 2, 1, 1);
  const Decomposition d = decompose(m, opts(2));
  EXPECT_NE(d.solid_rank[0], d.solid_rank[1]);
  const DecompReport rep = analyse_decomposition(m, d);
  ASSERT_EQ(rep.ranks.size(), 2U);
  for (const auto& r : rep.ranks) {
    EXPECT_EQ(r.solids, 1U);
    EXPECT_EQ(r.shells, 0U);
    EXPECT_DOUBLE_EQ(r.cost, 1.0);
    EXPECT_EQ(r.shared_nodes, 4U); // the middle face
    EXPECT_EQ(r.neighbours, 1);
    EXPECT_EQ(r.bytes_per_cycle, 96U); // 4 corners x 3 doubles x 8 bytes
  }
  EXPECT_DOUBLE_EQ(rep.imbalance, 0.0);
  const std::string text = format_decomposition_report(rep);
  EXPECT_NE(text.find("2 ranks"), std::string::npos) << text;
  EXPECT_NE(text.find("96"), std::string::npos) << text;
  EXPECT_NE(text.find("shared nodes"), std::string::npos) << text;
}

// Two shells side by side: 2 shared nodes, force and moment per corner.
TEST(DecompositionReport, TwoShellsByHand) {
  Model m;
  add_shell_grid(m, 2, 1, 2, 1);
  const DecompReport rep = analyse_decomposition(m, decompose(m, opts(2)));
  for (const auto& r : rep.ranks) {
    EXPECT_EQ(r.shells, 1U);
    EXPECT_EQ(r.shared_nodes, 2U);
    EXPECT_EQ(r.neighbours, 1);
    EXPECT_EQ(r.bytes_per_cycle, 96U); // 2 corners x 6 doubles x 8 bytes
  }
}

// Four hexes around a vertical edge (2 x 2 x 1), one per rank: the 2 edge nodes are shared by
// all four ranks; each rank sends its corner at each of them to the 3 others.
TEST(DecompositionReport, FourRanksAroundAnEdge) {
  Model m;
  add_hex_block(m, 2, 2, 1, 2, 2, 1);
  const Decomposition d = decompose(m, opts(4));
  const DecompReport rep = analyse_decomposition(m, d);
  for (const auto& r : rep.ranks) {
    EXPECT_EQ(r.solids, 1U);
    EXPECT_EQ(r.neighbours, 3);
    EXPECT_EQ(r.shared_nodes, 6U); // 2 on the axis + 2 x 2 on the two faces
    // axis nodes: 2 corners x 3 neighbours; face nodes: 4 corners x 1 neighbour each.
    EXPECT_EQ(r.bytes_per_cycle, (2 * 3 + 4) * 24U);
  }
}

TEST(DecompositionReport, RigidElementsSendNoForces) {
  Model m;
  add_hex_block(m, 2, 1, 1, 2, 1, 1, 1, MaterialKind::Rigid);
  const DecompReport rep = analyse_decomposition(m, decompose(m, opts(2)));
  for (const auto& r : rep.ranks) {
    EXPECT_EQ(r.shared_nodes, 4U);
    EXPECT_EQ(r.bytes_per_cycle, 0U);
    EXPECT_DOUBLE_EQ(r.cost, DecompOptions{}.cost_rigid);
  }
}

TEST(DecompositionReport, ImbalanceIsMaxOverMeanMinusOne) {
  Model m;
  add_hex_block(m, 3, 1, 1, 3, 1, 1);
  Decomposition d;
  d.nparts = 2;
  d.solid_rank = {0, 0, 1};
  const DecompReport rep = analyse_decomposition(m, d);
  EXPECT_NEAR(rep.imbalance, 2.0 / 1.5 - 1, 1e-12);
}

// ---------------------------------------------------------------------------------------------
// Errors and output

TEST(Decompose, TooManyRanksIsAClearError) {
  Model m;
  add_hex_block(m, 2, 1, 1, 2, 1, 1);
  for (DecompMethod method : {DecompMethod::Rcb, DecompMethod::Metis}) {
    try {
      decompose(m, opts(3, method));
      FAIL() << "no error";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("cannot run 3 ranks with only 2 elements"),
                std::string::npos)
          << e.what();
    }
    EXPECT_THROW(decompose(m, opts(0, method)), InputError);
  }
  EXPECT_THROW(decompose(Model{}, opts(1)), InputError);
}

TEST(Decompose, WritesVtk) {
  Model m;
  add_hex_block(m, 2, 1, 1, 2, 1, 1, 1);
  add_shell_grid(m, 2, 1, 2, 1, 2, MaterialKind::Elastic, 1);
  // A triangle (n3 == n4).
  m.shells.id.push_back(3);
  m.shells.part.push_back(2);
  m.shells.nodes.push_back({0, 1, 3, 3});
  m.shells.thickness.push_back({0, 0, 0, 0});
  m.shells.line.push_back(0);
  const Decomposition d = decompose(m, opts(2));
  const auto dir = make_temp_dir("decompose");
  const std::string path = (dir / "decomp.vtu").string();
  write_decomposition_vtk(path, m, d);
  const std::string text = read_file(path);
  EXPECT_NE(text.find("NumberOfPoints=\"18\" NumberOfCells=\"5\""), std::string::npos) << text;
  EXPECT_NE(text.find("Name=\"rank\""), std::string::npos);
  EXPECT_NE(text.find("Name=\"part_id\""), std::string::npos);
  EXPECT_NE(text.find("12 12 9 9 5"), std::string::npos) << text;   // cell types
  EXPECT_NE(text.find("8 16 20 24 27"), std::string::npos) << text; // offsets
  EXPECT_NE(text.find("1 1 2 2 2"), std::string::npos) << text;     // part ids
  EXPECT_NE(text.find("</VTKFile>"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
}

} // namespace
} // namespace parcae::test
