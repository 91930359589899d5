// *MAT_MOONEY-RIVLIN_RUBBER (*MAT_027): cards, refused options named at their field, shell
// parts (membranes); the public bouncing-ball deck (../shared/decks) reads.
#include <gtest/gtest.h>

#include <filesystem>

#include "keyword_test_util.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

std::string rubber_cube(const std::string& mat) {
  return deck("*NODE\n"
              "1,0,0,0\n2,1,0,0\n3,1,1,0\n4,0,1,0\n5,0,0,1\n6,1,0,1\n7,1,1,1\n8,0,1,1\n"
              "*ELEMENT_SOLID\n1,1,1,2,3,4,5,6,7,8\n"
              "*PART\ncube\n1,1,1\n"
              "*SECTION_SOLID\n1,1\n" +
              mat + termination());
}

} // namespace

TEST(Mat027Cards, FreeAndFixedFormatAndAlias) {
  for (const std::string& mat :
       {std::string("*MAT_MOONEY-RIVLIN_RUBBER\n1,9.2e-7,0.49,5.4e-4,4.75e-5,0.0\n0,0,0,0\n"),
        std::string("*MAT_027_TITLE\nrubber\n"
                    "         1   9.2e-7      0.49    5.4e-4   4.75e-5       0.0\n"
                    "       0.0       0.0       0.0         0\n"),
        // card 2 left out: SGL SW ST LCID take their defaults
        std::string("*MAT_MOONEY-RIVLIN_RUBBER\n1,9.2e-7,0.49,5.4e-4,4.75e-5\n")}) {
    const Model m = read_text(rubber_cube(mat));
    ASSERT_EQ(m.materials.size(), 1u) << mat;
    const Material& r = m.materials[0];
    EXPECT_EQ(r.kind, MaterialKind::MooneyRivlin);
    EXPECT_DOUBLE_EQ(r.ro, 9.2e-7);
    EXPECT_DOUBLE_EQ(r.pr, 0.49);
    EXPECT_DOUBLE_EQ(r.mr_a, 5.4e-4);
    EXPECT_DOUBLE_EQ(r.mr_b, 4.75e-5);
    // the small-strain Young's modulus 2G(1 + PR), G = 2(A + B), for contact stiffness
    EXPECT_DOUBLE_EQ(r.e, 4 * (5.4e-4 + 4.75e-5) * 1.49);
  }
}

TEST(Mat027Cards, RefusedOptionsNameTheirField) {
  const std::string lcid =
      read_error(rubber_cube("*MAT_027\n1,9.2e-7,0.49,5.4e-4,4.75e-5\n10.,2.,1.,5\n"));
  EXPECT_NE(lcid.find("LCID = 5"), std::string::npos) << lcid;
  EXPECT_NE(lcid.find("not supported"), std::string::npos) << lcid;
  const std::string ref = read_error(rubber_cube("*MAT_027\n1,9.2e-7,0.49,5.4e-4,4.75e-5,1.0\n"));
  EXPECT_NE(ref.find("REF = 1"), std::string::npos) << ref;
  const std::string pr = read_error(rubber_cube("*MAT_027\n1,9.2e-7,0.5,5.4e-4,4.75e-5\n"));
  EXPECT_NE(pr.find("PR = 0.5"), std::string::npos) << pr;
  const std::string g = read_error(rubber_cube("*MAT_027\n1,9.2e-7,0.49,1e-3,-1e-3\n"));
  EXPECT_NE(g.find("A + B"), std::string::npos) << g;
}

TEST(Mat027Cards, ShellPartIsAMembrane) {
  const Model m = read_text(
      deck("*NODE\n1,0,0,0\n2,1,0,0\n3,1,1,0\n4,0,1,0\n"
           "*ELEMENT_SHELL\n1,1,1,2,3,4\n*PART\nmembrane\n1,1,1\n*SECTION_SHELL\n1,2\n0.5\n"
           "*MAT_027\n1,9.2e-7,0.49,5.4e-4,4.75e-5\n" +
           termination()));
  ASSERT_EQ(m.shells.size(), 1u);
  EXPECT_EQ(m.materials[0].kind, MaterialKind::MooneyRivlin);
}

TEST(Mat027Cards, PublicBouncingBallDeckReads) {
  const auto path =
      source_dir().parent_path() / "shared" / "decks" / "rubber_ball_rigidwall" / "bouncyball_v2.k";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " not present";
  const Model m = read_deck(path.string());
  ASSERT_EQ(m.materials.size(), 1u);
  // "         19.20000E-7      0.495.40000E-44.75000E-5       0.0": touching fixed fields
  EXPECT_EQ(m.materials[0].kind, MaterialKind::MooneyRivlin);
  EXPECT_DOUBLE_EQ(m.materials[0].ro, 9.2e-7);
  EXPECT_DOUBLE_EQ(m.materials[0].pr, 0.49);
  EXPECT_DOUBLE_EQ(m.materials[0].mr_a, 5.4e-4);
  EXPECT_DOUBLE_EQ(m.materials[0].mr_b, 4.75e-5);
  EXPECT_EQ(m.solids.size(), 875u);
}
