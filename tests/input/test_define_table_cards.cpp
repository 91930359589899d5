// *DEFINE_TABLE (and _2D): both layouts LS-DYNA reads (VALUE with LCID; VALUE alone, its curve
// the next *DEFINE_CURVE after the table), *MAT_024 with LCSS = a table, and the errors.
#include <gtest/gtest.h>

#include "keyword_test_util.hpp"
#include "materials/material.hpp"

namespace parcae::test {
namespace {

// An elastic-plastic cube whose *MAT_024 (id 2) reads LCSS = 9 (or lcss, and LCSR = lcsr).
std::string table_deck(const std::string& table_and_curves, const std::string& lcss = "9",
                       const std::string& lcsr = "0") {
  return deck("*NODE\n"
              "1,0,0,0\n2,1,0,0\n3,1,1,0\n4,0,1,0\n5,0,0,1\n6,1,0,1\n7,1,1,1\n8,0,1,1\n"
              "*ELEMENT_SOLID\n1,1,1,2,3,4,5,6,7,8\n"
              "*PART\ncube\n1,1,2\n*SECTION_SOLID\n1,1\n"
              "*MAT_PIECEWISE_LINEAR_PLASTICITY\n2,7.85e-9,210000.,0.3,200.\n0.,0.," +
              lcss + "," + lcsr + ",0.\n" + termination() + table_and_curves);
}

const std::string kCurves = "*DEFINE_CURVE\n"
                            "$#    lcid      sidr       sfa       sfo      offa      offo\n"
                            "        11\n"
                            "                 0.0               200.0\n"
                            "                 0.2               300.0\n"
                            "*DEFINE_CURVE\n"
                            "        12\n"
                            "                 0.0               250.0\n"
                            "                 0.2               380.0\n";

TEST(DefineTable, ValueAndLcidFullWidthFields) {
  const Model m = read_text(table_deck(kCurves + "*DEFINE_TABLE_TITLE\nrates\n"
                                                 "$#    tbid       sfa      offa\n"
                                                 "         9       1.0       0.0\n"
                                                 "$#               value                lcid\n"
                                                 "               0.001                  11\n"
                                                 "               100.0                  12\n"));
  ASSERT_EQ(m.tables.size(), 1U);
  EXPECT_EQ(m.tables[0].title, "rates");
  EXPECT_EQ(m.tables[0].values, (std::vector<Real>{0.001, 100.0}));
  EXPECT_EQ(m.tables[0].curves, (std::vector<GlobalId>{11, 12}));
  const MaterialParams p = make_material_params(*m.find_material(2), m);
  EXPECT_EQ(p.table_rate, (std::vector<Real>{0.001, 100.0}));
  EXPECT_FALSE(p.table_log_rate);
  ASSERT_EQ(p.table_y.size(), 2U);
  EXPECT_EQ(p.table_y[1], (std::vector<Real>{250.0, 380.0}));
  // halfway in rate: halfway between the curves
  EXPECT_NEAR(yield_stress(p, 0.1, 0.5 * (0.001 + 100.0)), 0.5 * (250.0 + 315.0), 1e-9);
}

TEST(DefineTable, ValuesAloneTakeTheCurvesThatFollow) {
  // the older layout: SFA scales the values, the curves follow in the order of the values
  const Model m = read_text(table_deck("*DEFINE_TABLE\n9,10.0\n-2.0\n3.0\n" + kCurves));
  ASSERT_EQ(m.tables.size(), 1U);
  EXPECT_EQ(m.tables[0].values, (std::vector<Real>{-20.0, 30.0}));
  EXPECT_EQ(m.tables[0].curves, (std::vector<GlobalId>{11, 12}));
  const MaterialParams p = make_material_params(*m.find_material(2), m);
  EXPECT_TRUE(p.table_log_rate); // the first value is negative: values are ln(rate)
}

TEST(DefineTable, ErrorsNameTheTable) {
  auto err = [](const std::string& body, const std::string& lcss = "9",
                const std::string& lcsr = "0") { return read_error(table_deck(body, lcss, lcsr)); };
  std::string msg = err(kCurves + "*DEFINE_TABLE\n9\n1.0,11\n1.0,12\n");
  EXPECT_NE(msg.find("strictly increasing"), std::string::npos) << msg;
  msg = err(kCurves + "*DEFINE_TABLE\n9\n1.0,11\n2.0\n");
  EXPECT_NE(msg.find("no *DEFINE_CURVE follows the table"), std::string::npos) << msg;
  msg = err(kCurves + "*DEFINE_TABLE\n9\n1.0,11\n2.0,13\n");
  EXPECT_NE(msg.find("curve 13 (of value 2) is not defined"), std::string::npos) << msg;
  msg = err(kCurves + "*DEFINE_TABLE\n11\n1.0,11\n");
  EXPECT_NE(msg.find("11"), std::string::npos) << msg; // one id space with the curves
  EXPECT_NE(msg.find("curve"), std::string::npos) << msg;
  msg = err(kCurves + "*DEFINE_TABLE_2D\n9\n1.0\n");
  EXPECT_NE(msg.find("needs a curve LCID"), std::string::npos) << msg;
  // a table where a curve is needed (LCSR: a scale-factor curve)
  msg = err(kCurves + "*DEFINE_TABLE\n8\n1.0,11\n", "11", "8");
  EXPECT_NE(msg.find("8 is a *DEFINE_TABLE; a curve is needed"), std::string::npos) << msg;
  // a table where a load curve is needed (a prescribed motion's LCID)
  msg = err(kCurves + "*DEFINE_TABLE\n9\n1.0,11\n2.0,12\n"
                      "*BOUNDARY_PRESCRIBED_MOTION_NODE\n8,3,0,9,1.0\n");
  EXPECT_NE(msg.find("9 is a *DEFINE_TABLE; a curve is needed"), std::string::npos) << msg;
}

} // namespace
} // namespace parcae::test
