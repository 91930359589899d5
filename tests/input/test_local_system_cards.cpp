// Cards with a local coordinate system (CID) or a box (BOXID), *LOAD_RIGID_BODY, and the
// erosion controls (*CONTROL_TIMESTEP ERODE, *MAT_NULL TEROD / CEROD): what the reader makes of
// them, and one error per bad value naming the file and the field.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

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

TEST(LocalSystemCards, LumpedMasses) {
  // *ELEMENT_MASS in its 8/8/16/8 columns, _NODE_SET split equally, *ELEMENT_INERTIA with a
  // system turned 90 degrees about z (local x = global y): IXX local becomes global yy.
  const Model m = read_text(cube_deck("*ELEMENT_MASS\n"
                                      "$    EID     NID            MASS     PID\n"
                                      "     101       3          0.0025       1\n"
                                      "*SET_NODE_LIST\n9\n5,6,7,8\n"
                                      "*ELEMENT_MASS_NODE_SET\n     102       9            0.01\n"
                                      "*DEFINE_COORDINATE_VECTOR\n4,0,1,0,-1,0,0\n"
                                      "*ELEMENT_INERTIA\n     103       2       4\n"
                                      "       1.0       0.0       0.0       2.0       0.0       "
                                      "3.0       0.5\n"
                                      "     104       3\n0,0,0,0,0,0,0.25\n"));
  ASSERT_EQ(m.lumped_masses.size(), 7u); // (several elements under one *ELEMENT_INERTIA)
  EXPECT_TRUE(m.part_masses.empty());
  EXPECT_EQ(m.nodes.id[m.lumped_masses[0].node], 3);
  EXPECT_DOUBLE_EQ(m.lumped_masses[0].mass, 0.0025);
  for (std::size_t k = 1; k <= 4; ++k) EXPECT_DOUBLE_EQ(m.lumped_masses[k].mass, 0.0025);
  const NodeMass& in = m.lumped_masses[5];
  EXPECT_EQ(m.nodes.id[in.node], 2);
  EXPECT_DOUBLE_EQ(in.mass, 0.5);
  EXPECT_NEAR(in.inertia[0], 2.0, 1e-12); // global xx = local yy
  EXPECT_NEAR(in.inertia[1], 1.0, 1e-12); // global yy = local xx
  EXPECT_NEAR(in.inertia[2], 3.0, 1e-12);
  EXPECT_EQ(m.nodes.id[m.lumped_masses[6].node], 3);
  EXPECT_DOUBLE_EQ(m.lumped_masses[6].mass, 0.25);
  for (const auto& [cards, expect] : std::vector<std::pair<std::string, std::string>>{
           {"*ELEMENT_MASS\n     101      99             1.0\n", "node 99"},
           {"*ELEMENT_MASS\n     101       1            -1.0\n", "MASS = -1"},
           {"*ELEMENT_MASS_NODE_SET\n     101       7             1.0\n", "NSID = 7"},
           {"*ELEMENT_INERTIA\n     103       2       6\n1,0,0,1,0,1,1\n",
            "coordinate system CID = 6"},
           {"*ELEMENT_MASS_PART\n9,1.0\n", "part 9 is not defined"},
           {"*ELEMENT_MASS_PART\n1,1.0,0,3\n", "LCID = 3"},
           {"*ELEMENT_MASS_PART\n1,-1.0\n", "ADDMASS = -1"},
           {"*ELEMENT_MASS_PART_SET\n4,1.0\n", "part set 4"}}) {
    const std::string e = read_error(cube_deck(cards));
    EXPECT_NE(e.find(expect), std::string::npos) << cards << " -> " << e;
    EXPECT_NE(e.find("deck.k"), std::string::npos) << e;
  }
}

TEST(LocalSystemCards, PartMasses) {
  const Model m = read_text(cube_deck("*ELEMENT_MASS_PART\n1,0.5\n*SET_PART_LIST\n4\n1\n"
                                      "*ELEMENT_MASS_PART_SET\n4,0,2.0\n"));
  ASSERT_EQ(m.part_masses.size(), 2u);
  EXPECT_EQ(m.part_masses[0].pids, (std::vector<GlobalId>{1}));
  EXPECT_DOUBLE_EQ(m.part_masses[0].addmass, 0.5);
  EXPECT_EQ(m.part_masses[1].pids, (std::vector<GlobalId>{1}));
  EXPECT_DOUBLE_EQ(m.part_masses[1].finmass, 2.0);
}

TEST(LocalSystemCards, SymmetryPlanesAndBirthDeathConstraints) {
  // The plane x = 0 (normal along x, two planes: the second with its TOL card) holds the cube's
  // nodes 1, 4, 5, 8 along x and in rotation about y and z; a plane along (1, 1, 0) through node
  // 2 gives a skew constraint there.
  const Model m = read_text(cube_deck("*BOUNDARY_SPC_SYMMETRY_PLANE\n"
                                      "         1         1       0.0       0.0       0.0       "
                                      "1.0       0.0       0.0\n"
                                      "       0.1\n"
                                      "         2         1       1.0       0.0       0.0       "
                                      "1.0       1.0       0.0\n"
                                      "\n"));
  std::vector<GlobalId> held;
  for (const Spc& s : m.spcs)
    if (!s.skew) {
      EXPECT_EQ(s.dof, (std::array<bool, 6>{true, false, false, false, true, true}));
      held.push_back(m.nodes.id[s.node]);
    }
  std::sort(held.begin(), held.end());
  EXPECT_EQ(held, (std::vector<GlobalId>{1, 4, 5, 8}));
  const Spc* skew = spc_of(m, 2, true);
  ASSERT_NE(skew, nullptr);
  EXPECT_NEAR(skew->axes[0][0], std::sqrt(0.5), 1e-15);
  EXPECT_EQ(skew->dof, (std::array<bool, 6>{true, false, false, false, true, true}));
  // _BIRTH_DEATH: over the whole run (ENDTIM 1e-3) it is an ordinary constraint ...
  const Model bd = read_text(cube_deck("*BOUNDARY_SPC_NODE_BIRTH_DEATH_ID\n"
                                       "         2\n       1         0         1\n"
                                       "        0.      38.\n"));
  ASSERT_NE(spc_of(bd, 1, false), nullptr);
  // ... one that ends inside it is refused at its BIRTH field
  const std::string e = read_error(cube_deck("*BOUNDARY_SPC_NODE_BIRTH_DEATH\n"
                                             "1,0,1\n0,5e-4\n"));
  EXPECT_NE(e.find("DEATH = 0.0005"), std::string::npos) << e;
  EXPECT_NE(e.find("deck.k"), std::string::npos) << e;
}

TEST(LocalSystemCards, ConstrainedGlobalPlanes) {
  // The AFC lattice deck's layout (TC 3 on the plane z = 0), a second plane x = 1 with TC 1 and
  // RC 7, and a plane z = 0.9995 that needs its TOL to catch the top nodes.
  const auto nodes_with = [](const Model& m, const std::array<bool, 6>& dof) {
    std::vector<GlobalId> ids;
    for (const Spc& s : m.spcs)
      if (s.dof == dof) ids.push_back(m.nodes.id[s.node]);
    std::sort(ids.begin(), ids.end());
    return ids;
  };
  const Model m = read_text(cube_deck("*CONSTRAINED_GLOBAL\n"
                                      "$#      tc        rc       dir         x         y         z"
                                      "       tol\n"
                                      "         3         0         3       0.0       0.0       0.0"
                                      "      10.0\n"
                                      "         1         7         1       1.0\n"
                                      "         2         0         3                     0.9995"
                                      "     0.001\n"));
  // TOL 10 on the first plane would take every node: it is a user's tolerance, used as given
  EXPECT_EQ(nodes_with(m, {false, false, true, false, false, false}).size(), 8u);
  EXPECT_EQ(nodes_with(m, {true, false, false, true, true, true}),
            (std::vector<GlobalId>{2, 3, 6, 7}));
  EXPECT_EQ(nodes_with(m, {false, true, false, false, false, false}),
            (std::vector<GlobalId>{5, 6, 7, 8}));
  // without TOL the default (1e-6 of the model's size) misses the plane at 0.9995: a warning
  const Model off = read_text(cube_deck("*CONSTRAINED_GLOBAL\n2,0,3,,,0.9995\n"));
  EXPECT_TRUE(off.spcs.empty());
  EXPECT_TRUE(std::any_of(off.notes.begin(), off.notes.end(), [](const KeywordNote& n) {
    return n.message.find("constrains nothing") != std::string::npos;
  }));
  const std::string e = read_error(cube_deck("*CONSTRAINED_GLOBAL\n1,0,4\n"));
  EXPECT_NE(e.find("DIR = 4"), std::string::npos) << e;
  EXPECT_NE(read_error(cube_deck("*CONSTRAINED_GLOBAL\n8,0,1\n")).find("TC = 8"),
            std::string::npos);
}

TEST(LocalSystemCards, GlobalDamping) {
  const Model a = read_text(cube_deck("*DAMPING_GLOBAL\n         0      25.0\n"));
  EXPECT_TRUE(a.control.damping.on);
  EXPECT_DOUBLE_EQ(a.control.damping.valdmp, 25.0);
  EXPECT_EQ(a.control.damping.scale, (std::array<Real, 6>{1, 1, 1, 1, 1, 1})); // all blank: 1
  const Model b = read_text(cube_deck("*DEFINE_CURVE\n7\n0,1\n1,1\n"
                                      "*DAMPING_GLOBAL\n7,0,1.0,0.5\n"));
  EXPECT_EQ(b.control.damping.lcid, 7);
  EXPECT_EQ(b.control.damping.scale, (std::array<Real, 6>{1, 0.5, 0, 0, 0, 0}));
  for (const auto& [cards, expect] : std::vector<std::pair<std::string, std::string>>{
           {"*DAMPING_GLOBAL\n8\n", "LCID = 8"},
           {"*DAMPING_GLOBAL\n0,1,-1\n", "STX = -1"},
           {"*DAMPING_GLOBAL\n0,-2\n", "VALDMP = -2"},
           {"*DAMPING_GLOBAL\n0,1\n*DAMPING_GLOBAL\n0,2\n", "given twice"}}) {
    const std::string e = read_error(cube_deck(cards));
    EXPECT_NE(e.find(expect), std::string::npos) << cards << " -> " << e;
    EXPECT_NE(e.find("deck.k"), std::string::npos) << e;
  }
}
