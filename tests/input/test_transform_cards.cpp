// *DEFINE_TRANSFORMATION and *NODE_TRANSFORM: the nodes of a set move by the lines of the
// transformation in order (TRANSL, ROTATE about an axis through a point, SCALE), against hand
// values; a coordinate system defined by moved nodes follows them; the errors name the card.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "keyword_test_util.hpp"

namespace parcae::test {
namespace {

std::array<Real, 3> at(const Model& m, GlobalId nid) {
  const auto n = static_cast<std::size_t>(m.node_index(nid));
  return {m.nodes.x[n], m.nodes.y[n], m.nodes.z[n]};
}

// the cube's top face (nodes 5-8, z = 1)
const std::string kTop = "*SET_NODE_LIST\n3\n5,6,7,8\n";

} // namespace

TEST(NodeTransform, TranslateRotateScaleInOrder) {
  // node 6 (1, 0, 1): + (1, 0, 0) -> (2, 0, 1); 90 degrees about z through (1, 0, 0) ->
  // (1, 1, 1); scaled by (2, 3, 1) -> (2, 3, 1)
  const Model m =
      read_text(cube_deck(kTop + "*DEFINE_TRANSFORMATION_TITLE\nmove the top\n"
                                 "$# tranid\n        10\n"
                                 "$# option        a1        a2        a3        a4        a5"
                                 "        a6        a7\n"
                                 "TRANSL           1.0       0.0       0.0\n"
                                 "ROTATE           0.0       0.0       2.0       1.0       0.0"
                                 "       0.0      90.0\n"
                                 "SCALE            2.0       3.0       1.0\n"
                                 "*NODE_TRANSFORM\n        10         3\n"));
  const auto p6 = at(m, 6);
  EXPECT_NEAR(p6[0], 2.0, 1e-12);
  EXPECT_NEAR(p6[1], 3.0, 1e-12);
  EXPECT_NEAR(p6[2], 1.0, 1e-12);
  // node 5 (0, 0, 1): (1, 0, 1) -> on the axis, stays -> (2, 0, 1)
  const auto p5 = at(m, 5);
  EXPECT_NEAR(p5[0], 2.0, 1e-12);
  EXPECT_NEAR(p5[1], 0.0, 1e-12);
  // the bottom face does not move
  EXPECT_EQ(at(m, 2), (std::array<Real, 3>{1, 0, 0}));
}

TEST(NodeTransform, SystemsOfMovedNodesFollowThem) {
  // a system on nodes 5 (origin), 6 (x axis), 8 (x-y plane), turned 90 degrees about z
  const Model m = read_text(cube_deck(kTop + "*DEFINE_COORDINATE_NODES\n7,5,6,8\n"
                                             "*DEFINE_TRANSFORMATION\n11\n"
                                             "ROTATE,0.,0.,1.,0.,0.,0.,90.\n"
                                             "*NODE_TRANSFORM\n11,3\n"));
  const CoordinateSystem& cs = m.coordinate_systems.at(7);
  EXPECT_NEAR(cs.axes[0][0], 0.0, 1e-12); // the local x axis is now the global y axis
  EXPECT_NEAR(cs.axes[0][1], 1.0, 1e-12);
}

TEST(NodeTransform, BadCardsAreRefused) {
  for (const auto& [extra, what] : std::vector<std::pair<std::string, std::string>>{
           {"*DEFINE_TRANSFORMATION\n10\nMIRROR,1.\n", "MIRROR is not supported"},
           {"*DEFINE_TRANSFORMATION\n10\nROTATE,0.,0.,0.,0.,0.,0.,90.\n", "axis direction"},
           {"*DEFINE_TRANSFORMATION\n10\nROTATE,1.,2.,30.\n", "A4-A7 blank"},
           {"*DEFINE_TRANSFORMATION\n10\nTRANSL,1.\n*NODE_TRANSFORM\n12,3\n", "TRSID = 12"},
           {"*DEFINE_TRANSFORMATION\n10\nTRANSL,1.\n*NODE_TRANSFORM\n10,4\n", "NSID = 4"}}) {
    const std::string err = read_error(cube_deck(kTop + extra));
    EXPECT_NE(err.find(what), std::string::npos) << err;
    EXPECT_NE(err.find("deck.k:"), std::string::npos) << err;
  }
}

} // namespace parcae::test

namespace parcae::test {

// *DEFINE_BOX_LOCAL: bounds in the box's own axes. A thin box along the cube's face diagonal
// (local x along (1, 1, 0), local y along (-1, 1, 0)) holds the nodes on the diagonal edges
// (1, 3, 5, 7) and no other: no global box can pick them.
TEST(BoxLocal, NodesAreTestedInTheBoxAxes) {
  const Model m =
      read_text(cube_deck("*DEFINE_BOX_LOCAL\n"
                          "$#  boxid       xmn       xmx       ymn       ymx       zmn"
                          "       zmx\n"
                          "         4     -0.01       1.5     -0.01      0.01      -1.0"
                          "       2.0\n"
                          "       1.0       1.0       0.0      -1.0       1.0       0.0\n"
                          "       0.0       0.0       0.0\n"
                          "*SET_NODE_GENERAL\n9\nBOX,4\n"));
  std::vector<GlobalId> got = m.node_sets.at(9).members;
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, (std::vector<GlobalId>{1, 3, 5, 7}));
  // parallel axes are refused at the card
  const std::string err = read_error(cube_deck("*DEFINE_BOX_LOCAL\n4,0.,1.,0.,1.,0.,1.\n"
                                               "1.,0.,0.,2.,0.,0.\n0.,0.,0.\n"));
  EXPECT_NE(err.find("not parallel"), std::string::npos) << err;
}

} // namespace parcae::test
