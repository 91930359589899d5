// Cards with a local coordinate system (CID) or a box (BOXID), *LOAD_RIGID_BODY, and the
// erosion controls (*CONTROL_TIMESTEP ERODE, *MAT_NULL TEROD / CEROD): what the reader makes of
// them, and one error per bad value naming the file and the field.
#include <gtest/gtest.h>

#include <algorithm>

#include "keyword_test_util.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

/// System 5: local x = global y, local y = global z (so local z = global x); system 6: turned
/// 30 degrees about z.
std::string systems() {
  return "*DEFINE_COORDINATE_VECTOR\n5,0,1,0,0,0,1\n"
         "*DEFINE_COORDINATE_VECTOR\n6,0.8660254037844387,0.5,0,-0.5,0.8660254037844387,0\n"
         "*DEFINE_CURVE\n7\n0,1\n1,1\n";
}

const Spc* spc_of(const Model& m, GlobalId node, bool skew) {
  for (const Spc& s : m.spcs)
    if (m.nodes.id[s.node] == node && s.skew == skew) return &s;
  return nullptr;
}

} // namespace

TEST(LocalSystemCards, SpcInALocalSystem) {
  // Axes along the global ones: the flags move to the global dofs (local z = global x, local
  // rotation about x = about global y); a turned system gives a skew constraint with its axes.
  const Model m = read_text(cube_deck(systems() + "*BOUNDARY_SPC_NODE\n1,5,0,0,1,1,0,0\n"
                                                  "*BOUNDARY_SPC_NODE\n2,6,1,0,0,0,0,1\n"));
  const Spc* a = spc_of(m, 1, false);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->dof, (std::array<bool, 6>{true, false, false, false, true, false}));
  const Spc* b = spc_of(m, 2, true);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->dof, (std::array<bool, 6>{true, false, false, false, false, true}));
  EXPECT_NEAR(b->axes[0][0], 0.8660254037844387, 1e-15);
  EXPECT_NEAR(b->axes[0][1], 0.5, 1e-15);
  EXPECT_NEAR(b->axes[2][2], 1.0, 1e-15);
  const std::string e = read_error(cube_deck(systems() + "*BOUNDARY_SPC_NODE\n1,9,1\n"));
  EXPECT_NE(e.find("CID = 9"), std::string::npos) << e;
  EXPECT_NE(e.find("deck.k"), std::string::npos) << e;
}

TEST(LocalSystemCards, LoadsAlongLocalAxesBecomeGlobalComponents) {
  const Model m = read_text(cube_deck(systems() + "*LOAD_NODE_POINT\n3,1,7,2.0,6\n"
                                                  "*LOAD_BODY_Y\n7,3.0,0,0,0,0,5\n"));
  // local x of system 6 is (cos 30, sin 30, 0): two global loads
  std::vector<std::pair<int, double>> nodal;
  for (const NodalLoad& l : m.nodal_loads) nodal.emplace_back(l.dof, l.sf);
  std::sort(nodal.begin(), nodal.end());
  ASSERT_EQ(nodal.size(), 2u);
  EXPECT_EQ(nodal[0].first, 1);
  EXPECT_NEAR(nodal[0].second, 2.0 * 0.8660254037844387, 1e-14);
  EXPECT_EQ(nodal[1].first, 2);
  EXPECT_NEAR(nodal[1].second, 1.0, 1e-14);
  // local y of system 5 is global z
  ASSERT_EQ(m.body_loads.size(), 1u);
  EXPECT_EQ(m.body_loads[0].dir, 2);
  EXPECT_DOUBLE_EQ(m.body_loads[0].sf, 3.0);
  const std::string e = read_error(cube_deck(systems() + "*LOAD_NODE_POINT\n3,1,7,2.0,8\n"));
  EXPECT_NE(e.find("CID = 8"), std::string::npos) << e;
}

TEST(LocalSystemCards, RigidWallBox) {
  const Model m = read_text(cube_deck("*DEFINE_BOX\n3,-1,1,-1,1,-1,1\n"
                                      "*RIGIDWALL_PLANAR\n0,0,3\n0,0,0,0,0,1\n"));
  ASSERT_EQ(m.rigid_walls.size(), 1u);
  EXPECT_EQ(m.rigid_walls[0].boxid, 3);
  const std::string e = read_error(cube_deck("*RIGIDWALL_PLANAR\n0,0,4\n0,0,0,0,0,1\n"));
  EXPECT_NE(e.find("box 4"), std::string::npos) << e;
}

TEST(LocalSystemCards, RigidBodyLoads) {
  std::string rigid = cube_deck(systems() + "*LOAD_RIGID_BODY\n1,2,7,4.0\n1,5,7,1.5,6\n");
  rigid.replace(rigid.find("*MAT_ELASTIC"), 12, "*MAT_RIGID");
  const Model m = read_text(rigid);
  ASSERT_EQ(m.rigid_body_loads.size(), 2u);
  EXPECT_EQ(m.rigid_body_loads[0].dof, 2);
  EXPECT_EQ(m.rigid_body_loads[0].dir, (std::array<Real, 3>{0, 1, 0}));
  EXPECT_DOUBLE_EQ(m.rigid_body_loads[0].sf, 4.0);
  EXPECT_EQ(m.rigid_body_loads[1].dof, 5);
  EXPECT_NEAR(m.rigid_body_loads[1].dir[0], 0.8660254037844387, 1e-15);
  for (const auto& [cards, expect] : std::vector<std::pair<std::string, std::string>>{
           {"*LOAD_RIGID_BODY\n1,4,7\n", "DOF = 4"},
           {"*LOAD_RIGID_BODY\n1,9,7\n", "DOF = 9"},
           {"*LOAD_RIGID_BODY\n2,1,7\n", "part PID = 2"},
           {"*LOAD_RIGID_BODY\n1,1,8\n", "LCID = 8"}}) {
    std::string d = cube_deck(systems() + cards);
    d.replace(d.find("*MAT_ELASTIC"), 12, "*MAT_RIGID");
    const std::string e = read_error(d);
    EXPECT_NE(e.find(expect), std::string::npos) << cards << " -> " << e;
    EXPECT_NE(e.find("deck.k"), std::string::npos) << e;
  }
  // a deformable part is refused
  const std::string e = read_error(cube_deck(systems() + "*LOAD_RIGID_BODY\n1,1,7\n"));
  EXPECT_NE(e.find("is not rigid"), std::string::npos) << e;
}

TEST(LocalSystemCards, ErosionControls) {
  const Model m = read_text(cube_deck("*CONTROL_TIMESTEP\n0,0.9,0,0,0,0,1\n"));
  EXPECT_EQ(m.control.erode, 1);
  const std::string e = read_error(cube_deck("*CONTROL_TIMESTEP\n0,0.9,0,0,0,0,2\n"));
  EXPECT_NE(e.find("ERODE = 2"), std::string::npos) << e;
  const std::string null_part = "*NODE\n1,0,0,0\n2,1,0,0\n3,1,1,0\n4,0,1,0\n5,0,0,1\n6,1,0,1\n"
                                "7,1,1,1\n8,0,1,1\n*ELEMENT_SOLID\n1,1,1,2,3,4,5,6,7,8\n"
                                "*PART\ncube\n1,1,1,1\n*SECTION_SOLID\n1,1\n"
                                "*EOS_LINEAR_POLYNOMIAL\n1,0,2000\n";
  const Model n = read_text(deck(null_part + "*MAT_NULL\n1,1e-9,0,0,1.5,0.6\n" + termination()));
  EXPECT_DOUBLE_EQ(n.materials.at(0).terod, 1.5);
  EXPECT_DOUBLE_EQ(n.materials.at(0).cerod, 0.6);
  EXPECT_NE(read_error(deck(null_part + "*MAT_NULL\n1,1e-9,0,0,0.5\n" + termination()))
                .find("TEROD = 0.5"),
            std::string::npos);
  EXPECT_NE(read_error(deck(null_part + "*MAT_NULL\n1,1e-9,0,0,0,1.5\n" + termination()))
                .find("CEROD = 1.5"),
            std::string::npos);
}
