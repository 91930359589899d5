// *MAT_ISOTROPIC_ELASTIC_PLASTIC (*MAT_012) card: fields, the _TITLE option and the alias, and
// the refused values named at the field.
#include <gtest/gtest.h>

#include "keyword_test_util.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

/// The one-hexahedron cube with material 1 given by `mat`.
std::string cube_with(const std::string& mat) {
  return deck("*NODE\n"
              "1,0,0,0\n2,1,0,0\n3,1,1,0\n4,0,1,0\n5,0,0,1\n6,1,0,1\n7,1,1,1\n8,0,1,1\n"
              "*ELEMENT_SOLID\n1,1,1,2,3,4,5,6,7,8\n*PART\ncube\n1,1,1\n*SECTION_SOLID\n1,1\n" +
              mat + termination());
}

} // namespace

TEST(Mat012Card, FieldsTitleAndAlias) {
  const Model m = read_text(cube_with("*MAT_ISOTROPIC_ELASTIC_PLASTIC_TITLE\nsteel\n"
                                      "         1   7.85e-9   80000.0     250.0    2100.0  "
                                      "175000.0\n"));
  ASSERT_EQ(m.materials.size(), 1u);
  const Material& mat = m.materials[0];
  EXPECT_EQ(mat.kind, MaterialKind::IsotropicElasticPlastic);
  EXPECT_EQ(mat.id, 1);
  EXPECT_EQ(mat.title, "steel");
  EXPECT_DOUBLE_EQ(mat.ro, 7.85e-9);
  EXPECT_DOUBLE_EQ(mat.g, 80000.0);
  EXPECT_DOUBLE_EQ(mat.sigy, 250.0);
  EXPECT_DOUBLE_EQ(mat.etan, 2100.0);
  EXPECT_DOUBLE_EQ(mat.bulk, 175000.0);
  const Model a = read_text(cube_with("*MAT_012\n1,7.85e-9,80000,250,0,175000\n"));
  EXPECT_EQ(a.materials[0].kind, MaterialKind::IsotropicElasticPlastic);
  EXPECT_DOUBLE_EQ(a.materials[0].etan, 0.0);
}

TEST(Mat012Card, RefusedValuesNameTheField) {
  const std::string g = read_error(cube_with("*MAT_012\n1,7.85e-9,0,250,0,175000\n"));
  EXPECT_NE(g.find("shear modulus G"), std::string::npos) << g;
  const std::string k = read_error(cube_with("*MAT_012\n1,7.85e-9,80000,250,0,0\n"));
  EXPECT_NE(k.find("BULK"), std::string::npos) << k;
  const std::string sy = read_error(cube_with("*MAT_012\n1,7.85e-9,80000,0,0,175000\n"));
  EXPECT_NE(sy.find("SIGY"), std::string::npos) << sy;
  const std::string et = read_error(cube_with("*MAT_012\n1,7.85e-9,80000,250,-1,175000\n"));
  EXPECT_NE(et.find("ETAN"), std::string::npos) << et;
  const std::string ro = read_error(cube_with("*MAT_012\n1,0,80000,250,0,175000\n"));
  EXPECT_NE(ro.find("RO"), std::string::npos) << ro;
}
