// *AIRBAG_SIMPLE_PRESSURE_VOLUME and *CONTROL_DYNAMIC_RELAXATION cards: fields read from
// fixed-width lines (as LS-PrePost writes them), defaults, and the refused options named at
// their field (file:line).
#include <gtest/gtest.h>

#include "keyword_test_util.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

std::string bag(const std::string& airbag) {
  return deck("*NODE\n1,0,0,0\n2,1,0,0\n3,1,1,0\n4,0,1,0\n"
              "*ELEMENT_SHELL\n1,1,1,2,3,4\n*PART\nbag\n1,1,1\n*SECTION_SHELL\n1,2\n0.2\n"
              "*MAT_027\n1,1.13e-4,0.495,100.0,10.0\n*SET_PART_LIST\n3\n1\n" +
              airbag + termination());
}

} // namespace

TEST(AirbagCards, FixedWidthCardsAndDefaults) {
  const Model m = read_text(bag("*AIRBAG_SIMPLE_PRESSURE_VOLUME_ID\n        11sphere\n"
                                "         3         1         0 0.0000000 0.0000000 0.0000000 "
                                "150.00000 0.0000000\n 3.0000000\n"));
  ASSERT_EQ(m.airbags.size(), 1u);
  const Airbag& a = m.airbags[0];
  EXPECT_EQ(a.id, 11);
  EXPECT_EQ(a.title, "sphere");
  EXPECT_EQ(a.sid, 3);
  EXPECT_DOUBLE_EQ(a.mwd, 150.0);
  EXPECT_DOUBLE_EQ(a.cn, 3.0);
  EXPECT_DOUBLE_EQ(a.beta, 1.0); // blank BETA: 1
  EXPECT_EQ(a.lcid, 0);
}

TEST(AirbagCards, UnsupportedOptionsNameTheirField) {
  const std::string seg =
      read_error(bag("*AIRBAG_SIMPLE_PRESSURE_VOLUME\n         3         0\n       3.0\n"));
  EXPECT_NE(seg.find("SIDTYP = 0"), std::string::npos) << seg;
  EXPECT_NE(seg.find("deck.k:21 (*AIRBAG_SIMPLE_PRESSURE_VOLUME)"), std::string::npos) << seg;
  const std::string vini = read_error(
      bag("*AIRBAG_SIMPLE_PRESSURE_VOLUME\n         3         1         0       1.0       1.0"
          "      10.0\n       3.0\n"));
  EXPECT_NE(vini.find("VINI"), std::string::npos) << vini;
  const std::string nop =
      read_error(bag("*AIRBAG_SIMPLE_PRESSURE_VOLUME\n         3         1\n       0.0\n"));
  EXPECT_NE(nop.find("no pressure"), std::string::npos) << nop;
  const std::string noset =
      read_error(bag("*AIRBAG_SIMPLE_PRESSURE_VOLUME\n         9         1\n       3.0\n"));
  EXPECT_NE(noset.find("part set"), std::string::npos) << noset;
}

TEST(DynamicRelaxationCards, ControlCardAndCurveFlag) {
  const Model m = read_text(bag("*AIRBAG_SIMPLE_PRESSURE_VOLUME\n         3         1\n       3.0\n"
                                "*CONTROL_DYNAMIC_RELAXATION\n       100     0.002      0.99\n"
                                "*DEFINE_CURVE\n         5         1\n0.0,1.0\n1.0,1.0\n"));
  EXPECT_EQ(m.control.dr_nrcyck, 100);
  EXPECT_DOUBLE_EQ(m.control.dr_drtol, 0.002);
  EXPECT_DOUBLE_EQ(m.control.dr_drfctr, 0.99);
  ASSERT_EQ(m.curves.size(), 1u);
  EXPECT_EQ(m.curves[0].sidr, 1);
  const std::string bad = read_error(bag("*AIRBAG_SIMPLE_PRESSURE_VOLUME\n         3         1\n"
                                         "       3.0\n*DEFINE_CURVE\n         5         3\n0,1\n"));
  EXPECT_NE(bad.find("SIDR = 3"), std::string::npos) << bad;
}

// Older decks append the airbag id to the keyword (*AIRBAG_SIMPLE_PRESSURE_VOLUME_1, the public
// air-filled sphere deck); other suffixes stay unsupported keywords.
TEST(AirbagCards, NumericSuffixIsTheId) {
  const Model m =
      read_text(bag("*AIRBAG_SIMPLE_PRESSURE_VOLUME_7\n         3         1\n       3.0\n"));
  ASSERT_EQ(m.airbags.size(), 1u);
  EXPECT_EQ(m.airbags[0].id, 7);
  const std::string e =
      read_error(bag("*AIRBAG_SIMPLE_PRESSURE_VOLUME_X\n         3         1\n       3.0\n"));
  EXPECT_NE(e.find("unsupported keyword"), std::string::npos) << e;
}
