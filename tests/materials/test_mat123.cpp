// *MAT_MODIFIED_PIECEWISE_LINEAR_PLASTICITY (123) and the _LOG_INTERPOLATION option of *MAT_024
// and 123, read from their cards as a deck gives them:
//  - 123's stress update is 024's: the same card gives the same stresses, bit for bit, on a
//    uniaxial-stress shell path past yield (its failure control is tested through the solver,
//    tests/verification/test_mat123.cpp);
//  - the card: alias, NUMINT, the refused EPSTHIN / EPSMAJ and NUMINT values named at their
//    field;
//  - _LOG_INTERPOLATION: an LCSS table's rates (100 and 1000 /s) are interpolated between their
//    logarithms: at 550 /s the yield stress is (1 - w) A + w B with w = ln 5.5 / ln 10, where
//    without the option w = 0.5.
#include <gtest/gtest.h>

#include <cmath>

#include "../input/keyword_test_util.hpp"
#include "mat_test_util.hpp"
#include "materials/material.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

std::string cube_with(const std::string& mat, const std::string& extra = "") {
  return deck("*NODE\n"
              "1,0,0,0\n2,1,0,0\n3,1,1,0\n4,0,1,0\n5,0,0,1\n6,1,0,1\n7,1,1,1\n8,0,1,1\n"
              "*ELEMENT_SOLID\n1,1,1,2,3,4,5,6,7,8\n*PART\ncube\n1,1,1\n*SECTION_SOLID\n1,1\n" +
              mat + termination() + extra);
}

const std::string kCard1 =
    "         1   7.85e-9  210000.0       0.3     200.0    1000.0       0.2\n";

std::string mat123(const std::string& card2) {
  return "*MAT_123\n" + kCard1 + card2;
}

const std::string kTable = "*DEFINE_TABLE\n         9\n"
                           "               100.0                  11\n"
                           "              1000.0                  12\n"
                           "*DEFINE_CURVE\n        11\n"
                           "                 0.0               200.0\n"
                           "                 0.2               300.0\n"
                           "*DEFINE_CURVE\n        12\n"
                           "                 0.0               250.0\n"
                           "                 0.2               380.0\n";

} // namespace

TEST(Mat123Card, AliasNumintAndTheUpdateOf024) {
  const Model m =
      read_text(cube_with(mat123("       0.0       0.0         0         0       0.0       0.0"
                                 "       0.0       2.0\n")));
  const Material& mat = m.materials.at(0);
  EXPECT_EQ(mat.kind, MaterialKind::ModifiedPiecewiseLinear);
  EXPECT_EQ(mat.fail_points, 2.0);
  EXPECT_DOUBLE_EQ(mat.fs, 0.2);
  const Model m24 = read_text(cube_with("*MAT_024\n" + kCard1));
  const MaterialParams p123 = make_material_params(mat, m);
  const MaterialParams p024 = make_material_params(m24.materials.at(0), m24);
  ShellUniaxial a(p123), b(p024);
  a.go(0.02, 40);
  b.go(0.02, 40);
  EXPECT_GT(a.eps_p, 0.01);
  EXPECT_EQ(a.eps_p, b.eps_p);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(a.sig[i], b.sig[i]) << i;
}

TEST(Mat123Card, RefusedValuesNameTheField) {
  const std::string pre = "       0.0       0.0         0         0       0.0";
  for (const auto& [card2, what] : std::vector<std::pair<std::string, std::string>>{
           {pre + "      0.15\n", "EPSTHIN = 0.15"},
           {pre + "       0.0       0.3\n", "EPSMAJ = 0.3"},
           {pre + "       0.0       0.0       1.5\n", "NUMINT = 1.5"},
           {pre + "       0.0       0.0    -150.0\n", "NUMINT = -150"}}) {
    const std::string err = read_error(cube_with(mat123(card2)));
    EXPECT_NE(err.find(what), std::string::npos) << err;
    EXPECT_NE(err.find("deck.k:"), std::string::npos) << err;
  }
}

TEST(Mat024, LogInterpolationOptionInterpolatesBetweenLogRates) {
  const std::string card2 = "       0.0       0.0         9\n";
  for (const std::string& name :
       {"*MAT_024_LOG_INTERPOLATION", "*MAT_PIECEWISE_LINEAR_PLASTICITY_LOG_INTERPOLATION",
        "*MAT_123_LOG_INTERPOLATION"}) {
    const Model m = read_text(cube_with(name + "\n" + kCard1 + card2, kTable));
    const MaterialParams p = make_material_params(m.materials.at(0), m);
    EXPECT_TRUE(p.table_log_rate) << name;
    const Real w = std::log(5.5) / std::log(10.0), ep = 0.1;
    const Real a = 200.0 + 500.0 * ep, b = 250.0 + 650.0 * ep;
    EXPECT_NEAR(yield_stress(p, ep, 550.0), (1 - w) * a + w * b, 1e-9 * a) << name;
  }
  // without the option: linear in the rate
  const Model lin = read_text(cube_with("*MAT_024\n" + kCard1 + card2, kTable));
  const MaterialParams p = make_material_params(lin.materials.at(0), lin);
  EXPECT_FALSE(p.table_log_rate);
  EXPECT_NEAR(yield_stress(p, 0.1, 550.0), 0.5 * (250.0 + 315.0), 1e-9 * 250.0);
  // the rates must be positive to take their logarithm
  const std::string neg = "*DEFINE_TABLE\n         9\n"
                          "                -1.0                  11\n"
                          "              1000.0                  12\n" +
                          kTable.substr(kTable.find("*DEFINE_CURVE"));
  const Model bad = read_text(cube_with("*MAT_024_LOG_INTERPOLATION\n" + kCard1 + card2, neg));
  try {
    (void)make_material_params(bad.materials.at(0), bad); // when the run sets up its parts
    ADD_FAILURE() << "a negative rate was taken";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("must be positive"), std::string::npos) << e.what();
  }
}
