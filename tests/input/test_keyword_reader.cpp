// Good decks: values land in the Model (including defaults for blank fields and _TITLE titles);
// syntax features (formats, comments, parameters, includes); the shared Taylor bar mesh.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>

#include "keyword_test_util.hpp"

namespace parcae::test {
namespace {

bool used(const Model& m, const std::string& kw) {
  return std::find(m.keywords_used.begin(), m.keywords_used.end(), kw) != m.keywords_used.end();
}

TEST(KeywordReader, CubeDeck) {
  const Model m = read_text(cube_deck());
  ASSERT_EQ(m.nodes.size(), 8u);
  EXPECT_DOUBLE_EQ(m.nodes.x[1], 1.0);
  EXPECT_DOUBLE_EQ(m.nodes.z[7], 1.0);
  ASSERT_EQ(m.solids.size(), 1u);
  EXPECT_EQ(m.solids.part[0], 1);
  EXPECT_EQ(m.solids.nodes[0][6], 6); // node 7 is local index 6
  EXPECT_EQ(m.solids.line[0], 12);
  ASSERT_EQ(m.parts.size(), 1u);
  EXPECT_EQ(m.parts[0].title, "cube");
  EXPECT_EQ(m.parts[0].loc.line, 15);
  ASSERT_EQ(m.materials.size(), 1u);
  EXPECT_EQ(m.materials[0].kind, MaterialKind::Elastic);
  EXPECT_DOUBLE_EQ(m.materials[0].e, 210000.0);
  EXPECT_DOUBLE_EQ(m.control.endtim, 1e-3);
  EXPECT_TRUE(used(m, "*NODE"));
  EXPECT_TRUE(used(m, "*MAT_ELASTIC"));
  EXPECT_TRUE(used(m, "*CONTROL_TERMINATION"));
  EXPECT_TRUE(m.spcs.empty());
  EXPECT_TRUE(m.notes.empty());
}

TEST(KeywordReader, FixedFormatNodeAndElement) {
  const std::string mesh =
      "*NODE\n"
      "$#   nid               x               y               z      tc      rc\n"
      "       1             0.0             0.0             0.0       7       0\n"
      "       2             1.0             0.0             0.0\n"
      "       3             1.0             1.0             0.0       0       7\n"
      "       4             0.0             1.0             0.0\n"
      "       5             0.0             0.0             1.0\n"
      "       6             1.0             0.0             1.0\n"
      "       7             1.0             1.0             1.0\n"
      "       8         0.0e+00            1.D0          1.0e+0\n"
      "*ELEMENT_SOLID\n"
      "      10       1       1       2       3       4       5       6       7       8\n"
      "*PART\ncube\n         1         1         1\n"
      "*SECTION_SOLID\n         1\n"
      "*MAT_ELASTIC\n         1   7.85e-9    210000       0.3\n";
  const Model m = read_text(deck(mesh + termination()));
  EXPECT_DOUBLE_EQ(m.nodes.y[7], 1.0);
  EXPECT_EQ(m.nodes.tc[0], 7);
  EXPECT_EQ(m.nodes.rc[2], 7);
  EXPECT_EQ(m.solids.id[0], 10);
  EXPECT_EQ(m.sections[0].elform, 1); // blank ELFORM: default
  ASSERT_EQ(m.spcs.size(), 2u);
  EXPECT_EQ(m.spcs[0].node, 0);
  EXPECT_EQ(m.spcs[0].dof, (std::array<bool, 6>{true, true, true, false, false, false}));
  EXPECT_EQ(m.spcs[1].dof, (std::array<bool, 6>{false, false, false, true, true, true}));
}

TEST(KeywordReader, LongFormatKeyword) {
  const std::string text =
      "*KEYWORD LONG=Y\n"
      "*NODE\n"
      "         12345678901                 0.0                 0.0                 0.0\n"
      "                   2                 1.0                 0.0                 0.0\n"
      "                   3                 1.0                 1.0                 0.0\n"
      "                   4                 0.0                 1.0                 0.0\n"
      "                   5                 0.0                 0.0                 1.0\n"
      "                   6                 1.0                 0.0                 1.0\n"
      "                   7                 1.0                 1.0                 1.0\n"
      "                   8                 0.0                 1.0                 1.0\n"
      "*ELEMENT_SOLID\n"
      "                   1                   1         12345678901                   2"
      "                   3                   4                   5                   6"
      "                   7                   8\n"
      "*PART\ncube\n"
      "                   1                   1                   1\n"
      "*SECTION_SOLID\n                   1\n"
      "*MAT_ELASTIC\n                   1             7.85e-9              210000"
      "                 0.3\n"
      "*CONTROL_TERMINATION\n               0.001\n*END\n";
  const Model m = read_text(text);
  EXPECT_EQ(m.nodes.id[0], 12345678901LL);
  EXPECT_EQ(m.solids.nodes[0][0], 0);
  EXPECT_DOUBLE_EQ(m.control.endtim, 0.001);
}

TEST(KeywordReader, PlusSuffixSelectsLongFormatForOneKeyword) {
  const std::string extra = "*DEFINE_CURVE+\n"
                            "                   7\n"
                            "                 0.0                 0.0\n"
                            "                 1.0                 5.0\n";
  const Model m = read_text(cube_deck(extra));
  ASSERT_EQ(m.curves.size(), 1u);
  EXPECT_EQ(m.curves[0].id, 7);
  EXPECT_DOUBLE_EQ(m.curves[0].y[1], 5.0);
}

TEST(KeywordReader, CommentsCaseAndTrailingText) {
  const std::string extra = "$ a comment\n"
                            "*control_timestep   $ lower case, trailing text\n"
                            "$ comment inside the keyword\n"
                            "0.0,0.67\n";
  const Model m = read_text(cube_deck(extra));
  EXPECT_DOUBLE_EQ(m.control.tssfac, 0.67);
}

TEST(KeywordReader, ParametersAndExpressions) {
  const std::string text = deck("*PARAMETER\n"
                                "R endt    0.002     I npt     4\n"
                                "*PARAMETER_EXPRESSION\n"
                                "R half    &endt / 2\n"
                                "R e       2.1e5*max(1, npt-3)\n" +
                                cube_mesh() +
                                "*CONTROL_TERMINATION\n&half\n"
                                "*DATABASE_BINARY_D3PLOT\n-&half\n"
                                "*DATABASE_GLSTAT\n,\n");
  const Model m = read_text(text);
  EXPECT_DOUBLE_EQ(m.control.endtim, 0.001);
  EXPECT_DOUBLE_EQ(m.control.d3plot_dt, -0.001);
}

TEST(KeywordReader, IncludeRelativeToIncludingFile) {
  const auto dir = make_temp_dir("include");
  write_file(dir / "main.k", "*KEYWORD\n*INCLUDE\nsub/mesh.k\n" + termination() + "*END\n");
  write_file(dir / "sub" / "mesh.k",
             "*KEYWORD\n*INCLUDE\n../mat.k\n" + cube_mesh() + "*END\n*NOT_READ_AFTER_END\n");
  write_file(dir / "mat.k", "*MAT_RIGID\n2,7.85e-9,2.1e5,0.3\n");
  const Model m = read_deck((dir / "main.k").string());
  EXPECT_EQ(m.materials.size(), 2u);
  EXPECT_EQ(m.materials[0].kind, MaterialKind::Rigid);
  EXPECT_EQ(m.parts[0].loc.file, (dir / "sub" / "mesh.k").string());
}

// A file name longer than a line goes on in the next line after " +" (LS-DYNA's continuation):
// "sub/me +" then "sh.k" names sub/mesh.k; two names in one *INCLUDE stay two files; a name that
// does not end in " +" ("a+" without the space) is a name of its own.
TEST(KeywordReader, IncludeNameContinuedOnTheNextLine) {
  const auto dir = make_temp_dir("include_cont");
  write_file(dir / "main.k", "*KEYWORD\n*INCLUDE_PATH\nli +\nb\n*INCLUDE\nsub/me +  \nsh.k\n"
                             "mat.k\n" +
                                 termination() + "*END\n");
  write_file(dir / "sub" / "mesh.k", cube_mesh());
  write_file(dir / "lib" / "mat.k", "*MAT_RIGID\n2,7.85e-9,2.1e5,0.3\n");
  const Model m = read_deck((dir / "main.k").string());
  EXPECT_EQ(m.nodes.size(), 8u);
  EXPECT_EQ(m.materials.size(), 2u);
  write_file(dir / "plus.k", "*KEYWORD\n*INCLUDE\nsub/mesh.k+\n*END\n");
  try {
    (void)read_deck((dir / "plus.k").string());
    ADD_FAILURE() << "\"sub/mesh.k+\" was read as sub/mesh.k";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("\"sub/mesh.k+\" not found"), std::string::npos)
        << e.what();
  }
}

// *INCLUDE_PATH_RELATIVE (a directory relative to the main deck's) and *INCLUDE_PATH: an
// included file not beside its including file is looked for there, in order; when it is found
// nowhere the message lists every place looked at.
TEST(KeywordReader, IncludePathsAreSearchedInOrder) {
  const auto dir = make_temp_dir("include_path");
  // main in run/case; the mesh in run/mesh (../mesh from the main deck); sub/part.k includes
  // mat.k, found in lib/ (an absolute *INCLUDE_PATH), not beside sub/part.k
  write_file(dir / "run" / "case" / "main.k",
             "*KEYWORD\n*INCLUDE_PATH_RELATIVE\n../mesh\n*INCLUDE_PATH\n" + (dir / "lib").string() +
                 "\n*INCLUDE\nmesh.k\n*INCLUDE\n../sub/part.k\n" + termination() + "*END\n");
  write_file(dir / "run" / "mesh" / "mesh.k",
             "*NODE\n1,0,0,0\n2,1,0,0\n3,1,1,0\n4,0,1,0\n5,0,0,1\n6,1,0,1\n7,1,1,1\n8,0,1,1\n"
             "*ELEMENT_SOLID\n1,1,1,2,3,4,5,6,7,8\n");
  write_file(dir / "run" / "sub" / "part.k",
             "*PART\ncube\n1,1,1\n*SECTION_SOLID\n1\n*INCLUDE\nmat.k\n");
  write_file(dir / "lib" / "mat.k", "*MAT_ELASTIC\n1,7.85e-9,2.1e5,0.3\n");
  const Model m = read_deck((dir / "run" / "case" / "main.k").string());
  EXPECT_EQ(m.nodes.size(), 8u);
  EXPECT_EQ(m.materials.size(), 1u);
  // not found anywhere: the message lists every place looked at
  write_file(dir / "run" / "case" / "bare.k",
             "*KEYWORD\n*INCLUDE_PATH_RELATIVE\n../mesh\n*INCLUDE\nmissing.k\n*END\n");
  try {
    (void)read_deck((dir / "run" / "case" / "bare.k").string());
    ADD_FAILURE() << "a missing include was accepted";
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("included file \"missing.k\" not found"), std::string::npos) << msg;
    EXPECT_NE(msg.find((dir / "run" / "mesh" / "missing.k").string()), std::string::npos) << msg;
    EXPECT_NE(msg.find("bare.k:5"), std::string::npos) << msg;
  }
}

// Parameters across files (issue 11): all parameters are read before the rest, so an included
// file may use one the including file defines after the *INCLUDE, and expressions may name
// parameters defined further on.
TEST(KeywordReader, ParametersAcrossFilesLocalAndDuplicates) {
  const auto dir = make_temp_dir("params");
  write_file(dir / "main.k", "*KEYWORD\n*PARAMETER_EXPRESSION\nR dt      2*half\n"
                             "*INCLUDE\nsub.k\n"
                             "*PARAMETER\nR half    0.0005    I mid     1\n"
                             "*CONTROL_TERMINATION\n&half\n*DATABASE_BINARY_D3PLOT\n&dt\n*END\n");
  write_file(dir / "sub.k",
             "*PARAMETER_LOCAL\nR e       1000.0\n"
             "*NODE\n1,0,0,0\n2,1,0,0\n3,1,1,0\n4,0,1,0\n5,0,0,1\n6,1,0,1\n7,1,1,1\n8,0,1,1\n"
             "*ELEMENT_SOLID\n1,1,1,2,3,4,5,6,7,8\n*PART\ncube\n1,1,&mid\n*SECTION_SOLID\n1\n"
             "*MAT_ELASTIC\n&mid,7.85e-9,&e,0.3\n"
             "*PARAMETER\nR half    0.25\n");
  const Model m = read_deck((dir / "main.k").string());
  EXPECT_DOUBLE_EQ(m.materials[0].e, 1000.0);
  // half is defined twice: by default the first definition (in sub.k, read first) is kept;
  // dt names half before any definition of it (a second round of the parameter pass).
  EXPECT_DOUBLE_EQ(m.control.endtim, 0.25);
  EXPECT_DOUBLE_EQ(m.control.d3plot_dt, 0.5);
  const auto dup = std::find_if(m.notes.begin(), m.notes.end(), [](const KeywordNote& n) {
    return n.message.find("parameter half defined again") != std::string::npos;
  });
  ASSERT_NE(dup, m.notes.end());
  EXPECT_EQ(dup->loc.line, 7); // the second definition, in main.k
  EXPECT_NE(dup->loc.file.find("main.k"), std::string::npos);
  // DFLAG 4: the new value is used silently; 3: an error naming both places.
  const std::string with4 =
      "*KEYWORD\n*PARAMETER_DUPLICATION\n4\n" + read_file(dir / "main.k").substr(9);
  write_file(dir / "main4.k", with4);
  EXPECT_DOUBLE_EQ(read_deck((dir / "main4.k").string()).control.endtim, 0.0005);
  write_file(dir / "main3.k",
             "*KEYWORD\n*PARAMETER_DUPLICATION\n3\n" + read_file(dir / "main.k").substr(9));
  try {
    read_deck((dir / "main3.k").string());
    ADD_FAILURE() << "duplicate with DFLAG 3 accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("main3.k:9"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("first at"), std::string::npos) << e.what();
  }
  // A local parameter is not known in the including file.
  write_file(dir / "main_local.k", "*KEYWORD\n*INCLUDE\nsub.k\n*PARAMETER\nI mid     1\n"
                                   "*CONTROL_TERMINATION\n&e\n*END\n");
  try {
    read_deck((dir / "main_local.k").string());
    ADD_FAILURE() << "local parameter visible outside its file";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("undefined parameter &e"), std::string::npos) << e.what();
  }
  // A definition that can never be evaluated is an error at its line.
  const std::string msg = read_error(cube_deck("*PARAMETER_EXPRESSION\nR x       nowhere*2\n"));
  EXPECT_NE(msg.find("parameter x"), std::string::npos) << msg;
}

TEST(KeywordReader, CaseBlocksAndEmptyInclude) {
  const std::string body = cube_mesh() + termination() +
                           "*CASE\n       101 LOW\n"
                           "*INITIAL_VELOCITY_GENERATION\n1,2,0,1.0,0,0\n0,0,0,0,0,0\n"
                           "*CASE_BEGIN_1\n"
                           "*INITIAL_VELOCITY_GENERATION\n1,2,0,2.0,0,0\n0,0,0,0,0,0\n"
                           "*CASE_END_1\n"
                           "*CASE_BEGIN_2\n*NOT_A_KEYWORD\ngarbage\n*CASE_END_2\n"
                           "*INCLUDE\n$nothing.k\n";
  const Model base = read_text(deck(body));
  ASSERT_EQ(base.initial_velocities.size(), 1u);
  EXPECT_DOUBLE_EQ(base.initial_velocities[0].v[0], 1.0);
  ReadOptions case1;
  case1.case_id = 1;
  const Model one = read_text(deck(body), case1);
  ASSERT_EQ(one.initial_velocities.size(), 2u);
  EXPECT_DOUBLE_EQ(one.initial_velocities[1].v[0], 2.0);
  const bool warned = std::any_of(base.notes.begin(), base.notes.end(), [](const KeywordNote& n) {
    return n.keyword == "*INCLUDE" && n.message.find("nothing included") != std::string::npos;
  });
  EXPECT_TRUE(warned);
  ReadOptions case2;
  case2.case_id = 2;
  EXPECT_NE(read_error(deck(body), case2).find("*NOT_A_KEYWORD"), std::string::npos);
}

TEST(KeywordReader, TaylorBarMesh) {
  if (!std::filesystem::exists(reference_dir() / "decks" / "taylor_bar_mesh.k"))
    GTEST_SKIP() << "../shared/reference not present (" << reference_dir() << ")";
  const auto dir = make_temp_dir("taylor");
  const std::string mesh = (reference_dir() / "decks" / "taylor_bar_mesh.k").string();
  write_file(dir / "taylor.k", "*KEYWORD\n*TITLE\nTaylor bar\n*INCLUDE\n" + mesh +
                                   "\n*PART\nbar\n1,1,1\n*SECTION_SOLID\n1,1\n"
                                   "*MAT_PLASTIC_KINEMATIC\n1,8.93e-9,117000.,0.35,400.,100.\n\n" +
                                   termination() + "*END\n");
  const Model m = read_deck((dir / "taylor.k").string());
  EXPECT_EQ(m.nodes.size(), 1122u);
  EXPECT_EQ(m.solids.size(), 768u);
  const LocalId n = m.node_index(1119);
  ASSERT_NE(n, kInvalidLocal);
  EXPECT_DOUBLE_EQ(m.nodes.x[n], 0.8);
  EXPECT_DOUBLE_EQ(m.nodes.y[n], 40.0);
  EXPECT_DOUBLE_EQ(m.nodes.z[n], 0.0);
  EXPECT_EQ(m.control.title, "Taylor bar");
  EXPECT_EQ(m.solids.id[767], 768);
  EXPECT_EQ(m.nodes.id[m.solids.nodes[0][0]], 4);
  EXPECT_EQ(m.nodes.id[m.solids.nodes[0][7]], 501);
  // MAT_003 card 2 blank: defaults
  EXPECT_DOUBLE_EQ(m.materials[0].src, 0.0);
  EXPECT_DOUBLE_EQ(m.materials[0].fs, 0.0);
}

// Decks written elsewhere (issue 11): LS-PrePost's full-width fixed fields that touch, Fortran
// exponents without a letter, and optional cards left out before the next keyword.
TEST(KeywordReader, FullWidthFieldsAsLsPrePostWritesThem) {
  const std::string body =
      "*NODE\n"
      "       1             0.0             0.0             0.0\n"
      "       2             1.0             0.0             0.0\n"
      "       3             1.0             1.0             0.0\n"
      "       4             0.0             1.0             0.0\n"
      "       5             0.0             0.0             1.0\n"
      "       6             1.0             0.0             1.0\n"
      "       7             1.0             1.0             1.0\n"
      "12345678-1.234567890123423.5355339059327              5.\n"
      "*ELEMENT_SOLID\n"
      "12345678       1       1       2       3       4       5       6       712345678\n"
      "*PART\ncube\n         1         1         1\n"
      "*SECTION_SOLID\n         1\n"
      "*MAT_PLASTIC_KINEMATIC\n"
      "         17.85000-9     2.1+5       0.3     250.0       0.0       0.0\n"
      "*SET_PART_LIST\n"
      "         1       0.0       0.0       0.0       0.0MECH\n"
      "         1\n"
      "*CONTROL_TERMINATION\n"
      "    1.0E-3         0       0.0       0.01.000000E8\n";
  const Model m = read_text(deck(body));
  const LocalId n = m.node_index(12345678);
  ASSERT_NE(n, kInvalidLocal);
  EXPECT_DOUBLE_EQ(m.nodes.x[n], -1.2345678901234);
  EXPECT_DOUBLE_EQ(m.nodes.y[n], 23.5355339059327);
  EXPECT_DOUBLE_EQ(m.nodes.z[n], 5.0);
  ASSERT_EQ(m.solids.size(), 1u);
  EXPECT_EQ(m.solids.id[0], 12345678);
  EXPECT_EQ(m.solids.part[0], 1);
  EXPECT_EQ(m.nodes.id[m.solids.nodes[0][6]], 7);
  EXPECT_EQ(m.nodes.id[m.solids.nodes[0][7]], 12345678);
  EXPECT_DOUBLE_EQ(m.materials[0].ro, 7.85e-9);
  EXPECT_DOUBLE_EQ(m.materials[0].e, 2.1e5);
  // Card 2 of *MAT_003 left out: its defaults.
  EXPECT_DOUBLE_EQ(m.materials[0].src, 0.0);
  EXPECT_DOUBLE_EQ(m.materials[0].fs, 0.0);
  EXPECT_EQ(m.part_sets.at(1).members, (std::vector<GlobalId>{1}));
  EXPECT_DOUBLE_EQ(m.control.endtim, 1e-3);
}

TEST(KeywordReader, OptionalCardsLeftOutTakeDefaults) {
  // *MAT_024 with card 1 only (cards 2-4 left out), *MAT_RIGID with card 1 only.
  const std::string mesh =
      "*NODE\n1,0,0,0\n2,1,0,0\n3,1,1,0\n4,0,1,0\n5,0,0,1\n6,1,0,1\n7,1,1,1\n8,0,1,1\n"
      "*ELEMENT_SOLID\n1,1,1,2,3,4,5,6,7,8\n"
      "*PART\ncube\n1,1,1\n"
      "*SECTION_SOLID\n1\n"
      "*MAT_PIECEWISE_LINEAR_PLASTICITY\n1,7.85e-9,2.1e5,0.3,250.,1000.\n"
      "*MAT_RIGID\n2,7.85e-9,2.1e5,0.3\n";
  const Model m = read_text(deck(mesh + termination()));
  ASSERT_EQ(m.materials.size(), 2u);
  EXPECT_DOUBLE_EQ(m.materials[0].sigy, 250.0);
  EXPECT_DOUBLE_EQ(m.materials[0].etan, 1000.0);
  EXPECT_EQ(m.materials[0].lcss, 0);
  EXPECT_DOUBLE_EQ(m.materials[1].cmo, 0.0);
  // A card with a required field is still demanded.
  const std::string msg = read_error(deck(mesh + "*MAT_ELASTIC\n" + termination()));
  EXPECT_NE(msg.find("missing card \"Card 1\""), std::string::npos) << msg;
}

TEST(KeywordReader, TenNodeFormatDetectedFromFirstLine) {
  const std::string mesh =
      "*NODE\n1,0,0,0\n2,1,0,0\n3,1,1,0\n4,0,1,0\n5,0,0,1\n6,1,0,1\n7,1,1,1\n8,0,1,1\n"
      "*ELEMENT_SOLID\n"
      "       1       1\n"
      "       1       2       3       4       5       6       7       8       0       0\n"
      "       2       1\n"
      "       1       2       3       4\n"
      "*PART\ncube\n1,1,1\n*SECTION_SOLID\n1\n*MAT_ELASTIC\n1,1,1,0\n";
  const Model m = read_text(deck(mesh + termination()));
  ASSERT_EQ(m.solids.size(), 2u);
  // tetrahedron: N5-N8 = N4
  EXPECT_EQ(m.solids.nodes[1][7], 3);
  EXPECT_EQ(m.solids.line[1], 14);
}

// 8-digit ids fill the 8-wide columns with no blank between them (LS-PrePost writes them so):
// the line is one "word", but longer than the ten-node format's EID PID card, so it is the
// one-line layout.
TEST(KeywordReader, PackedEightDigitSolidIdsAreTheOneLineLayout) {
  std::string nodes = "*NODE\n";
  for (int k = 0; k < 8; ++k)
    nodes += fmt::format("{},{},{},{}\n", 10058957 + k, k & 1, (k >> 1) & 1, k >> 2);
  const std::string mesh =
      nodes + "*ELEMENT_SOLID\n"
              "10076725       11005895710058958100589601005895910058961100589621005896410058963\n"
              "*PART\ncube\n1,1,1\n*SECTION_SOLID\n1\n*MAT_ELASTIC\n1,1,1,0\n";
  const Model m = read_text(deck(mesh + termination()));
  ASSERT_EQ(m.solids.size(), 1u);
  EXPECT_EQ(m.solids.id[0], 10076725);
  EXPECT_EQ(m.nodes.id[m.solids.nodes[0][0]], 10058957);
  EXPECT_EQ(m.nodes.id[m.solids.nodes[0][7]], 10058963);
}

TEST(KeywordReader, ShellsSectionsAndThickness) {
  const std::string text = deck("*NODE\n1,0,0,0\n2,1,0,0\n3,1,1,0\n4,0,1,0\n"
                                "*ELEMENT_SHELL\n1,1,1,2,3,4\n2,1,1,2,3\n"
                                "*ELEMENT_SHELL_THICKNESS\n3,2,1,2,3,4\n0.1,0.2,0.3,0.4\n"
                                "*PART\nplate\n1,1,1\nplate2\n2,2,1,0,5\n"
                                "*SECTION_SHELL_TITLE\nthin shell\n1,,0.8333,5\n2.0\n"
                                "*SECTION_SHELL\n2,0\n\n"
                                "*HOURGLASS\n5,4,0.05\n"
                                "*MAT_ELASTIC\n1,7.85e-9,2.1e5,0.3\n" +
                                termination());
  const Model m = read_text(text);
  ASSERT_EQ(m.shells.size(), 3u);
  EXPECT_EQ(m.shells.nodes[1][3], m.shells.nodes[1][2]); // triangle
  EXPECT_DOUBLE_EQ(m.shells.thickness[2][3], 0.4);
  EXPECT_DOUBLE_EQ(m.shells.thickness[0][0], 0.0);
  ASSERT_EQ(m.sections.size(), 2u);
  const Section& s = m.sections[0];
  EXPECT_EQ(s.kind, SectionKind::Shell);
  EXPECT_EQ(s.title, "thin shell");
  EXPECT_EQ(s.elform, 2); // default
  EXPECT_DOUBLE_EQ(s.shrf, 0.8333);
  EXPECT_EQ(s.nip, 5);
  EXPECT_EQ(s.t, (std::array<Real, 4>{2.0, 2.0, 2.0, 2.0}));
  EXPECT_EQ(m.sections[1].elform, 0);
  EXPECT_EQ(m.sections[1].nip, 2);
  EXPECT_DOUBLE_EQ(m.sections[1].shrf, 1.0);
  EXPECT_EQ(m.parts[1].hgid, 5);
  EXPECT_EQ(m.hourglass[0].ihq, 4);
  EXPECT_DOUBLE_EQ(m.hourglass[0].qm, 0.05);
  EXPECT_DOUBLE_EQ(m.hourglass[0].bulk_quadratic, 1.5);
  EXPECT_DOUBLE_EQ(m.hourglass[0].bulk_linear, 0.06);
  // Formulations parcae does not have are refused by `check`, naming the section and part.
  std::string t16 = text;
  t16.replace(t16.find("*SECTION_SHELL\n2,0"), 18, "*SECTION_SHELL\n2,4");
  const std::string msg = read_error(t16);
  EXPECT_NE(msg.find("*SECTION_SHELL 2 (part 2): ELFORM 4 is not supported"), std::string::npos)
      << msg;
}

TEST(KeywordReader, Materials) {
  const std::string extra =
      "*MAT_PLASTIC_KINEMATIC_TITLE\nsteel\n"
      "2,7.85e-9,2.1e5,0.3,250.,1000.,1.0\n40.,5.,0.8\n"
      "*MAT_020\n3,7.85e-9,2.1e5,0.3\n1.0,7,7\n"
      "*MAT_PIECEWISE_LINEAR_PLASTICITY\n4,7.85e-9,2.1e5,0.3,200.\n1e3,4.0,9\n\n\n"
      "*MAT_024_TITLE\ntable\n5,7.85e-9,2.1e5,0.3,200.,,0.5\n\n"
      "0.0,0.1,0.2\n200.,300.,350.\n"
      "*DEFINE_CURVE_TITLE\nhardening\n9,,2.0,3.0,1.0,0.5\n0.0,100.\n1.0,200.\n";
  const Model m = read_text(cube_deck(extra));
  const Material& pk = *m.find_material(2);
  EXPECT_EQ(pk.kind, MaterialKind::PlasticKinematic);
  EXPECT_EQ(pk.title, "steel");
  EXPECT_DOUBLE_EQ(pk.sigy, 250.0);
  EXPECT_DOUBLE_EQ(pk.etan, 1000.0);
  EXPECT_DOUBLE_EQ(pk.beta, 1.0);
  EXPECT_DOUBLE_EQ(pk.src, 40.0);
  EXPECT_DOUBLE_EQ(pk.srp, 5.0);
  EXPECT_DOUBLE_EQ(pk.fs, 0.8);
  const Material& rigid = *m.find_material(3);
  EXPECT_EQ(rigid.kind, MaterialKind::Rigid);
  EXPECT_DOUBLE_EQ(rigid.cmo, 1.0);
  EXPECT_DOUBLE_EQ(rigid.con1, 7.0);
  const Material& pl = *m.find_material(4);
  EXPECT_EQ(pl.kind, MaterialKind::PiecewiseLinear);
  EXPECT_EQ(pl.lcss, 9);
  EXPECT_DOUBLE_EQ(pl.src, 1000.0);
  EXPECT_DOUBLE_EQ(pl.srp, 4.0);
  EXPECT_DOUBLE_EQ(pl.fs, 0.0); // FAIL default 1e21: no failure
  const Material& tab = *m.find_material(5);
  EXPECT_EQ(tab.lcss, -5);
  EXPECT_DOUBLE_EQ(tab.fs, 0.5);
  const Curve& c = *m.find_curve(-5);
  EXPECT_EQ(c.x, (std::vector<Real>{0.0, 0.1, 0.2}));
  EXPECT_EQ(c.y, (std::vector<Real>{200.0, 300.0, 350.0}));
  const Curve& h = *m.find_curve(9);
  EXPECT_EQ(h.title, "hardening");
  EXPECT_EQ(h.x, (std::vector<Real>{2.0, 4.0}));     // 2 * (a + 1)
  EXPECT_EQ(h.y, (std::vector<Real>{301.5, 601.5})); // 3 * (o + 0.5)
}

TEST(KeywordReader, Controls) {
  const std::string extra = "*CONTROL_TIMESTEP\n1e-7,0.8,,,-1e-6,\n"
                            "*CONTROL_HOURGLASS\n4,0.05\n"
                            "*CONTROL_BULK_VISCOSITY\n1.2,0.05,-2\n"
                            "*CONTROL_ENERGY\n2,2,2,2\n"
                            "*CONTROL_SHELL\n10.,,,1,2\n,1\n"
                            "*CONTROL_SOLID\n"
                            "*CONTROL_UNITS\nmm,s,tonne\n"
                            "*DATABASE_GLSTAT\n1e-5\n"
                            "*DATABASE_BINARY_D3PLOT\n,,,10\n"
                            "*HOURGLASS\n3\n"
                            "*CONTROL_CPU\n0\n"
                            "*DATABASE_SECFORC\n1e-5\n";
  const Model m = read_text(cube_deck(extra));
  const Controls& c = m.control;
  EXPECT_DOUBLE_EQ(c.dtinit, 1e-7);
  EXPECT_DOUBLE_EQ(c.tssfac, 0.8);
  EXPECT_DOUBLE_EQ(c.dt2ms, -1e-6);
  EXPECT_EQ(c.ihq, 4);
  EXPECT_DOUBLE_EQ(c.qh, 0.05);
  EXPECT_DOUBLE_EQ(c.q2, 1.2);  // LS-DYNA Q1: quadratic
  EXPECT_DOUBLE_EQ(c.q1, 0.05); // LS-DYNA Q2: linear
  EXPECT_EQ(c.bulk_type, -2);
  EXPECT_EQ(c.hgen, 2);
  EXPECT_DOUBLE_EQ(c.shell_wrpang, 10.0);
  EXPECT_EQ(c.shell_istupd, 1);
  EXPECT_EQ(c.shell_theory, 2);
  EXPECT_EQ(c.shell_intgrd, 1);
  EXPECT_DOUBLE_EQ(c.glstat_dt, 1e-5);
  EXPECT_DOUBLE_EQ(c.d3plot_dt, 1e-4); // ENDTIM / NPLTC
  EXPECT_EQ(m.hourglass[0].ihq, 4);    // IHQ 0: *CONTROL_HOURGLASS
  EXPECT_DOUBLE_EQ(m.hourglass[0].qm, 0.1);
  ASSERT_EQ(m.notes.size(), 2u);
  EXPECT_EQ(m.notes[0].keyword, "*CONTROL_CPU");
  EXPECT_FALSE(m.notes[0].error);
  EXPECT_EQ(m.notes[1].keyword, "*DATABASE_SECFORC");
  EXPECT_TRUE(used(m, "*CONTROL_UNITS"));
  EXPECT_FALSE(used(m, "*CONTROL_CPU"));
}

TEST(KeywordReader, ControlDefaults) {
  const Model m = read_text(cube_deck("*CONTROL_TIMESTEP\n\n*CONTROL_BULK_VISCOSITY\n\n"));
  EXPECT_EQ(m.control.isdo, 0);
  EXPECT_EQ(read_text(cube_deck("*CONTROL_TIMESTEP\n,,2\n")).control.isdo, 2);
  const std::string msg = read_error(cube_deck("*CONTROL_TIMESTEP\n,,3\n"));
  EXPECT_NE(msg.find("ISDO = 3"), std::string::npos) << msg;
  EXPECT_DOUBLE_EQ(m.control.tssfac, 0.9);
  EXPECT_DOUBLE_EQ(m.control.q1, 0.06);
  EXPECT_DOUBLE_EQ(m.control.q2, 1.5);
  EXPECT_EQ(m.control.bulk_type, 1);
}

TEST(KeywordReader, Sets) {
  const std::string extra = "*SET_NODE_LIST_TITLE\nbottom\n1\n1,2,3,4\n"
                            "*SET_NODE_LIST_GENERATE\n2\n5,8\n"
                            "*SET_NODE_GENERAL\n3\nNODE,1,8\nPART,1\n"
                            "*SET_NODE_GENERAL\n4\nALL\n"
                            "*SET_PART_LIST\n1\n1\n"
                            "*SET_PART_LIST_GENERATE\n2\n1,100\n"
                            "*SET_PART_GENERAL\n3\nALL\n"
                            "*SET_SOLID\n1\n1\n";
  const Model m = read_text(cube_deck(extra));
  EXPECT_EQ(m.node_sets.at(1).title, "bottom");
  EXPECT_EQ(m.node_sets.at(1).members, (std::vector<GlobalId>{1, 2, 3, 4}));
  EXPECT_EQ(m.node_sets.at(2).members, (std::vector<GlobalId>{5, 6, 7, 8}));
  EXPECT_EQ(m.node_sets.at(3).members.size(), 8u); // 1, 8, then the rest of part 1
  EXPECT_EQ(m.node_sets.at(3).members[1], 8);
  EXPECT_EQ(m.node_sets.at(4).members.size(), 8u);
  EXPECT_EQ(m.part_sets.at(1).members, (std::vector<GlobalId>{1}));
  EXPECT_EQ(m.part_sets.at(2).members, (std::vector<GlobalId>{1}));
  EXPECT_EQ(m.part_sets.at(3).members, (std::vector<GlobalId>{1}));
  EXPECT_EQ(m.solid_sets.at(1).members, (std::vector<GlobalId>{1}));
}

// *DEFINE_BOX with *SET_NODE_GENERAL BOX and *INITIAL_VELOCITY BOXID; local frames for ICID
// (issue 11: the PyDyna decks select nodes by box and give velocities in a local system).
TEST(KeywordReader, BoxesAndLocalCoordinateSystems) {
  const std::string extra =
      "*DEFINE_BOX\n1,-1,2,-1,2,0.5,2\n2,-1,0.5,-1,0.5,-1,2\n"
      "*SET_NODE_GENERAL\n7\nBOX,1\n"
      "*SET_NODE_GENERAL\n8\nBOX,1,2\n"
      // local x = global y, local y = -global x (rotation of 90 degrees about z)
      "*DEFINE_COORDINATE_SYSTEM\n3,0,0,0,0,1,0\n-1,0,0\n"
      "*DEFINE_COORDINATE_VECTOR\n4,0,0,1,1,0,0,5\n"
      "*DEFINE_COORDINATE_NODES\n5,1,2,4\n"
      "*INITIAL_VELOCITY\n0,,1,,3\n10,20,30\n"
      "*INITIAL_VELOCITY_GENERATION\n1,2,5.0,1,0,0,,4\n0,0,0,1,0,0\n";
  const Model m = read_text(cube_deck(extra));
  EXPECT_EQ(m.node_sets.at(7).members, (std::vector<GlobalId>{5, 6, 7, 8}));    // z = 1
  EXPECT_EQ(m.node_sets.at(8).members, (std::vector<GlobalId>{1, 5, 6, 7, 8})); // + node 1
  const auto& cs3 = m.coordinate_systems.at(3);
  EXPECT_NEAR(cs3.axes[1][0], -1.0, 1e-15);
  EXPECT_NEAR(cs3.axes[2][2], 1.0, 1e-15);
  const auto& cs4 = m.coordinate_systems.at(4); // x along global z, y along global x
  EXPECT_NEAR(cs4.axes[0][2], 1.0, 1e-15);
  EXPECT_NEAR(cs4.axes[1][0], 1.0, 1e-15);
  EXPECT_NEAR(cs4.origin[2], 1.0, 1e-15);       // node 5
  const auto& cs5 = m.coordinate_systems.at(5); // nodes 1 -> 2 is x, 4 in the x-y plane: global
  EXPECT_NEAR(cs5.axes[0][0], 1.0, 1e-15);
  EXPECT_NEAR(cs5.axes[1][1], 1.0, 1e-15);
  ASSERT_EQ(m.initial_velocities.size(), 2u);
  const InitialVelocity& a = m.initial_velocities[0];
  EXPECT_EQ(a.box, 1);
  EXPECT_EQ(a.cid, 0); // resolved
  EXPECT_NEAR(a.v[0], -20.0, 1e-12);
  EXPECT_NEAR(a.v[1], 10.0, 1e-12);
  EXPECT_NEAR(a.v[2], 30.0, 1e-12);
  const InitialVelocity& g = m.initial_velocities[1];
  EXPECT_NEAR(g.v[2], 1.0, 1e-15);    // local x = global z
  EXPECT_NEAR(g.axis[2], 1.0, 1e-15); // axis (1,0,0) local
  // Undefined boxes and frames are named.
  EXPECT_NE(read_error(cube_deck("*SET_NODE_GENERAL\n9\nBOX,6\n")).find("references box 6"),
            std::string::npos);
  EXPECT_NE(read_error(cube_deck("*INITIAL_VELOCITY\n0,,4\n1,0,0\n")).find("references box 4"),
            std::string::npos);
  EXPECT_NE(read_error(cube_deck("*INITIAL_VELOCITY\n0,,,,9\n1,0,0\n")).find("ICID = 9"),
            std::string::npos);
  EXPECT_NE(read_error(cube_deck("*DEFINE_COORDINATE_SYSTEM\n3,0,0,0,1,0,0\n2,0,0\n"))
                .find("do not span a plane"),
            std::string::npos);
}

// *MAT_024 EPS/ES tables as LS-DYNA reads them: the table ends at the first zero strain after
// EPS1, whatever stresses follow (the LSTC thick-offset deck writes EPS all 0 and ES filled).
TEST(KeywordReader, PiecewiseTableEndsAtTrailingZeroStrains) {
  const std::string mats = "*MAT_024\n2,7.8e-9,2.1e5,0.3,121.,0.,0.,0.\n0,0,0,0\n"
                           "0.,0.,0.,0.,0.,0.,0.,0.\n121.,215.,257.,287.,301.,320.,346.,378.\n"
                           "*MAT_024\n3,7.8e-9,2.1e5,0.3,200.\n0,0,0,0\n"
                           "0.,0.1,0.2,0.,0.,0.,0.,0.\n200.,250.,280.,999.,0.,0.,0.,0.\n";
  const Model m = read_text(cube_deck(mats));
  const Material* single = m.find_material(2);
  ASSERT_NE(single, nullptr);
  EXPECT_EQ(single->lcss, 0); // one point: SIGY/ETAN
  EXPECT_DOUBLE_EQ(single->sigy, 121.0);
  const Material* three = m.find_material(3);
  ASSERT_EQ(three->lcss, -3);
  const Curve* c = m.find_curve(-3);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->x, (std::vector<Real>{0.0, 0.1, 0.2}));
  EXPECT_EQ(c->y, (std::vector<Real>{200.0, 250.0, 280.0}));
  // A nonzero strain after a zero one is not a trailing zero: an error at that field.
  const std::string msg = read_error(
      cube_deck("*MAT_024\n3,7.8e-9,2.1e5,0.3,200.\n0,0,0,0\n0.,0.1,0.,0.3\n200.,250.,0,290.\n"));
  EXPECT_NE(msg.find("EPS4 = 0.3 follows a zero strain"), std::string::npos) << msg;
}

// *DEFORMABLE_TO_RIGID (the PyDyna pipe deck): the part gets a rigid copy of its material; LRB
// merges it into another rigid part.
TEST(KeywordReader, DeformableToRigid) {
  const std::string extra = "*PART\nsecond\n2,1,7\n*MAT_RIGID\n7,7.85e-9,2.1e5,0.3\n"
                            "*DEFORMABLE_TO_RIGID\n         1         2PART\n";
  const Model m = read_text(cube_deck(extra));
  const Part* p = m.find_part(1);
  ASSERT_NE(p, nullptr);
  const Material* mat = m.find_material(p->mid);
  ASSERT_NE(mat, nullptr);
  EXPECT_EQ(mat->kind, MaterialKind::Rigid);
  EXPECT_DOUBLE_EQ(mat->ro, 7.85e-9);
  EXPECT_NE(p->mid, 1); // a new material: material 1 is still elastic for other parts
  EXPECT_EQ(m.find_material(1)->kind, MaterialKind::Elastic);
  ASSERT_EQ(m.rigid_merges.size(), 1u);
  EXPECT_EQ(m.rigid_merges[0].lead, 2);
  EXPECT_EQ(m.rigid_merges[0].follower, 1);
  EXPECT_NE(read_error(cube_deck("*DEFORMABLE_TO_RIGID\n9\n")).find("part 9"), std::string::npos);
  EXPECT_NE(read_error(cube_deck("*DEFORMABLE_TO_RIGID\n1,0,NODE\n")).find("PTYPE = NODE"),
            std::string::npos);
}

TEST(KeywordReader, ConstraintsAndMotion) {
  const std::string extra = "*SET_NODE_LIST\n1\n5,6,7,8\n"
                            "*BOUNDARY_SPC_NODE\n1,0,1,1,1\n2,,0,0,1,1,1,1\n"
                            "*BOUNDARY_SPC_SET_ID\n10,symmetry\n1,0,0,0,1\n"
                            "*DEFINE_CURVE\n1\n0,0\n1,1\n"
                            "*BOUNDARY_PRESCRIBED_MOTION_NODE\n3,3,2,1,-0.5\n"
                            "*BOUNDARY_PRESCRIBED_MOTION_SET\n1,1,0,1\n";
  const Model m = read_text(cube_deck(extra));
  ASSERT_EQ(m.spcs.size(), 6u); // nodes 1, 2, 5, 6, 7, 8
  EXPECT_EQ(m.spcs[0].dof, (std::array<bool, 6>{true, true, true, false, false, false}));
  EXPECT_EQ(m.spcs[1].dof, (std::array<bool, 6>{false, false, true, true, true, true}));
  EXPECT_EQ(m.spcs[2].node, 4);
  EXPECT_EQ(m.spcs[2].dof, (std::array<bool, 6>{false, false, true, false, false, false}));
  ASSERT_EQ(m.motions.size(), 2u);
  EXPECT_EQ(m.motions[0].target, MotionTarget::Node);
  EXPECT_EQ(m.motions[0].dof, 3);
  EXPECT_EQ(m.motions[0].vad, MotionKind::Displacement);
  EXPECT_DOUBLE_EQ(m.motions[0].sf, -0.5);
  EXPECT_DOUBLE_EQ(m.motions[0].death, 1e28);
  EXPECT_EQ(m.motions[1].target, MotionTarget::NodeSet);
  EXPECT_DOUBLE_EQ(m.motions[1].sf, 1.0);
}

TEST(KeywordReader, RigidMotionAndWalls) {
  const std::string extra =
      "*PART\nplate\n2,1,2\n*MAT_RIGID\n2,7.85e-9,2.1e5,0.3\n"
      "*DEFINE_CURVE\n1\n0,1\n"
      "*BOUNDARY_PRESCRIBED_MOTION_RIGID\n2,1,0,1\n"
      "*SET_NODE_LIST\n1\n1,2,3,4\n"
      "*RIGIDWALL_PLANAR\n1\n0,0,0,0,0,1,0.2\n"
      "*RIGIDWALL_PLANAR_FINITE_MOVING_ID\n7,moving wall\n\n0,0,2,0,0,1\n1,0,0,5,5\n100.,-3.\n"
      "*RIGIDWALL_GEOMETRIC_CYLINDER_DISPLAY\n\n0,0,0,0,1,0\n2.5,10.\n3,1e-9,100,0.3\n";
  const Model m = read_text(cube_deck(extra));
  EXPECT_EQ(m.motions[0].target, MotionTarget::Rigid);
  ASSERT_EQ(m.rigid_walls.size(), 3u);
  const RigidWall& w = m.rigid_walls[0];
  EXPECT_EQ(w.id, 1);
  EXPECT_EQ(w.nsid, 1);
  EXPECT_EQ(w.head, (std::array<Real, 3>{0, 0, 1}));
  EXPECT_DOUBLE_EQ(w.fric, 0.2);
  EXPECT_DOUBLE_EQ(w.death, 1e20);
  const RigidWall& f = m.rigid_walls[1];
  EXPECT_EQ(f.id, 7);
  EXPECT_EQ(f.title, "moving wall");
  EXPECT_TRUE(f.finite);
  EXPECT_TRUE(f.moving);
  EXPECT_DOUBLE_EQ(f.lenm, 5.0);
  EXPECT_DOUBLE_EQ(f.mass, 100.0);
  EXPECT_DOUBLE_EQ(f.v0, -3.0);
  const RigidWall& c = m.rigid_walls[2];
  EXPECT_EQ(c.shape, RigidWall::Shape::Cylinder);
  EXPECT_EQ(c.id, 3);
  EXPECT_DOUBLE_EQ(c.radius, 2.5);
  EXPECT_DOUBLE_EQ(c.length, 10.0);
}

TEST(KeywordReader, InitialVelocitiesAndLoads) {
  const std::string extra = "*SET_NODE_LIST\n1\n1,2\n*SET_PART_LIST\n2\n1\n"
                            "*INITIAL_VELOCITY\n0,1\n0,0,-227000.\n0,0,0\n"
                            "*INITIAL_VELOCITY_NODE\n3,1,2,3,0.1\n"
                            "*INITIAL_VELOCITY_GENERATION\n2,1,10.,1,0,0\n0,0,0,0,0,1\n"
                            "*INITIAL_VELOCITY_GENERATION\n0,2\n\n"
                            "*DEFINE_CURVE\n5\n0,0\n1,1\n"
                            "*LOAD_NODE_POINT\n7,3,5,-100.\n"
                            "*LOAD_NODE_SET\n1,1,5\n"
                            "*LOAD_BODY_Z\n5,9.81\n";
  const Model m = read_text(cube_deck(extra));
  using Target = InitialVelocity::Target;
  ASSERT_EQ(m.initial_velocities.size(), 4u);
  EXPECT_EQ(m.initial_velocities[0].target, Target::All);
  EXPECT_EQ(m.initial_velocities[0].exclude_set, 1);
  EXPECT_DOUBLE_EQ(m.initial_velocities[0].v[2], -227000.0);
  EXPECT_EQ(m.initial_velocities[1].target, Target::Node);
  EXPECT_DOUBLE_EQ(m.initial_velocities[1].omega_node[0], 0.1);
  EXPECT_EQ(m.initial_velocities[2].target, Target::PartSet);
  EXPECT_TRUE(m.initial_velocities[2].generation);
  EXPECT_DOUBLE_EQ(m.initial_velocities[2].omega, 10.0);
  EXPECT_EQ(m.initial_velocities[2].axis, (std::array<Real, 3>{0, 0, 1}));
  EXPECT_EQ(m.initial_velocities[3].target, Target::All);
  ASSERT_EQ(m.nodal_loads.size(), 2u);
  EXPECT_EQ(m.nodal_loads[0].target_id, 7);
  EXPECT_DOUBLE_EQ(m.nodal_loads[0].sf, -100.0);
  EXPECT_TRUE(m.nodal_loads[1].is_set);
  EXPECT_DOUBLE_EQ(m.nodal_loads[1].sf, 1.0);
  ASSERT_EQ(m.body_loads.size(), 1u);
  EXPECT_EQ(m.body_loads[0].dir, 2);
  EXPECT_DOUBLE_EQ(m.body_loads[0].sf, 9.81);
}

TEST(KeywordReader, IgnoreUnsupported) {
  const std::string extra = "*CONTACT_AIRBAG_SINGLE_SURFACE\n1\n\n\n"
                            "*EOS_IDEAL_GAS\n1\n";
  const std::string msg = read_error(cube_deck(extra));
  EXPECT_NE(msg.find("*CONTACT_AIRBAG_SINGLE_SURFACE"), std::string::npos) << msg;
  EXPECT_NE(msg.find("deck.k:22"), std::string::npos) << msg;
  EXPECT_NE(msg.find("*EOS_IDEAL_GAS"), std::string::npos) << msg;
  EXPECT_NE(msg.find("deck.k:26"), std::string::npos) << msg;
  ReadOptions options;
  options.ignore_unsupported = true;
  const Model m = read_text(cube_deck(extra), options);
  ASSERT_EQ(m.notes.size(), 2u);
  EXPECT_FALSE(m.notes[0].error);
  EXPECT_EQ(m.notes[1].loc.line, 26);
}

TEST(KeywordReader, DeckErrorsListsEveryUnsupportedKeyword) {
  try {
    read_text(cube_deck("*FOO\n*BAR_BAZ\n1,2\n*FOO\n"));
    FAIL() << "no exception";
  } catch (const DeckErrors& e) {
    ASSERT_EQ(e.errors().size(), 3u);
    EXPECT_EQ(e.errors()[1].loc().line, 23);
    EXPECT_EQ(e.errors()[2].loc().card, "*FOO");
  }
}

} // namespace
} // namespace parcae::test
