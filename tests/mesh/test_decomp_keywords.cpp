// *CONTROL_MPP_DECOMPOSITION_METHOD and *CONTROL_MPP_DECOMPOSITION_TRANSFORMATION: reading
// good and bad decks, and the options they give.
#include <gtest/gtest.h>

#include "input/keyword_reader.hpp"
#include "mesh/decompose.hpp"
#include "test_support.hpp"

namespace parcae::test {
namespace {

/// A 4 x 1 x 1 bar of unit hexahedra (free format) with `extra` keywords.
std::string bar_deck(const std::string& extra) {
  std::string s = "*KEYWORD\n*NODE\n";
  int id = 1;
  for (int k = 0; k <= 1; ++k)
    for (int j = 0; j <= 1; ++j)
      for (int i = 0; i <= 4; ++i)
        s += std::to_string(id++) + "," + std::to_string(i) + "," + std::to_string(j) + "," +
             std::to_string(k) + "\n";
  s += "*ELEMENT_SOLID\n";
  auto n = [](int i, int j, int k) { return std::to_string(1 + i + 5 * (j + 2 * k)); };
  for (int i = 0; i < 4; ++i)
    s += std::to_string(i + 1) + ",1," + n(i, 0, 0) + "," + n(i + 1, 0, 0) + "," + n(i + 1, 1, 0) +
         "," + n(i, 1, 0) + "," + n(i, 0, 1) + "," + n(i + 1, 0, 1) + "," + n(i + 1, 1, 1) + "," +
         n(i, 1, 1) + "\n";
  s += "*PART\nbar\n1,1,1\n*SECTION_SOLID\n1,1\n*MAT_ELASTIC\n1,7.85e-9,210000.,0.3\n"
       "*CONTROL_TERMINATION\n1.0e-3\n";
  return s + extra + "*END\n";
}

Model read_text(const std::string& text) {
  const auto dir = make_temp_dir("decomp_keywords");
  write_file(dir / "deck.k", text);
  return read_deck((dir / "deck.k").string());
}

std::string read_error(const std::string& text) {
  try {
    read_text(text);
  } catch (const InputError& e) {
    return e.what();
  } catch (const DeckErrors& e) {
    return e.what();
  }
  return "";
}

TEST(DecompKeywords, DefaultIsRcbWithoutTransformation) {
  const Model m = read_text(bar_deck(""));
  EXPECT_EQ(m.control.mpp_decomposition_method, "RCB");
  EXPECT_TRUE(m.control.mpp_decomposition_transforms.empty());
  const DecompOptions o = decomp_options_from_model(m, 2);
  EXPECT_EQ(o.method, DecompMethod::Rcb);
  EXPECT_EQ(o.nparts, 2);
}

TEST(DecompKeywords, MethodNameIsCaseInsensitive) {
  for (const char* name : {"METIS", "metis", "  Metis"}) {
    const Model m =
        read_text(bar_deck(std::string("*CONTROL_MPP_DECOMPOSITION_METHOD\n") + name + "\n"));
    EXPECT_EQ(m.control.mpp_decomposition_method, "METIS") << name;
    EXPECT_EQ(decomp_options_from_model(m, 2).method, DecompMethod::Metis);
  }
  for (const char* name : {"rcb", "RCB", ""}) {
    const Model m =
        read_text(bar_deck(std::string("*CONTROL_MPP_DECOMPOSITION_METHOD\n") + name + "\n"));
    EXPECT_EQ(decomp_options_from_model(m, 2).method, DecompMethod::Rcb) << name;
  }
}

TEST(DecompKeywords, UnknownMethodIsAnError) {
  const std::string err = read_error(bar_deck("*CONTROL_MPP_DECOMPOSITION_METHOD\nGREEDY\n"));
  EXPECT_NE(err.find("GREEDY"), std::string::npos) << err;
  EXPECT_NE(err.find("not supported"), std::string::npos) << err;
  EXPECT_NE(err.find("*CONTROL_MPP_DECOMPOSITION_METHOD"), std::string::npos) << err;
}

TEST(DecompKeywords, TransformationCardsComposeInOrder) {
  // Fixed format (TYPE in columns 1-10, V1 in 11-20) and free format; two keywords append.
  const Model m = read_text(bar_deck("*CONTROL_MPP_DECOMPOSITION_TRANSFORMATION\n"
                                     "$   TYPE        V1\n"
                                     "sy              10.0\n"
                                     "*CONTROL_MPP_DECOMPOSITION_TRANSFORMATION\n"
                                     "RZ,90.\n"));
  ASSERT_EQ(m.control.mpp_decomposition_transforms.size(), 2U);
  EXPECT_EQ(m.control.mpp_decomposition_transforms[0].type, "SY");
  EXPECT_EQ(m.control.mpp_decomposition_transforms[0].v[0], 10.0);
  EXPECT_EQ(m.control.mpp_decomposition_transforms[1].type, "RZ");
  EXPECT_EQ(m.control.mpp_decomposition_transforms[1].v[0], 90.0);
  const DecompOptions o = decomp_options_from_model(m, 2);
  const std::array<Real, 9> expected{0, -10, 0, 1, 0, 0, 0, 0, 1};
  for (int i = 0; i < 9; ++i) EXPECT_NEAR(o.transform[i], expected[i], 1e-12) << i;
}

TEST(DecompKeywords, SeveralCardsInOneKeyword) {
  const Model m = read_text(bar_deck("*CONTROL_MPP_DECOMPOSITION_TRANSFORMATION\n"
                                     "SX,2.\nSY,3.\nSZ,4.\nRX,0.\n"));
  ASSERT_EQ(m.control.mpp_decomposition_transforms.size(), 4U);
  const std::array<Real, 9> expected{2, 0, 0, 0, 3, 0, 0, 0, 4};
  const DecompOptions o = decomp_options_from_model(m, 2);
  for (int i = 0; i < 9; ++i) EXPECT_NEAR(o.transform[i], expected[i], 1e-12) << i;
}

// The bar is long in x: RCB cuts it across x, low x to rank 0. Rotated by 90 degrees about z
// it lies along y' and is still cut across its length; mirrored (SX -1) rank 0 gets high x.
TEST(DecompKeywords, TransformationFromDeckChangesTheCut) {
  const Model plain = read_text(bar_deck(""));
  EXPECT_EQ(decompose(plain, decomp_options_from_model(plain, 2)).solid_rank,
            (std::vector<int>{0, 0, 1, 1}));
  const Model rotated = read_text(bar_deck("*CONTROL_MPP_DECOMPOSITION_TRANSFORMATION\nRZ,90.\n"));
  EXPECT_EQ(decompose(rotated, decomp_options_from_model(rotated, 2)).solid_rank,
            (std::vector<int>{0, 0, 1, 1}));
  const Model mirrored = read_text(bar_deck("*CONTROL_MPP_DECOMPOSITION_TRANSFORMATION\nSX,-1.\n"));
  EXPECT_EQ(decompose(mirrored, decomp_options_from_model(mirrored, 2)).solid_rank,
            (std::vector<int>{1, 1, 0, 0}));
}

TEST(DecompKeywords, UnsupportedTransformationIsAnError) {
  std::string err = read_error(bar_deck("*CONTROL_MPP_DECOMPOSITION_TRANSFORMATION\n"
                                        "VEC3,0.,0.,0.,1.,0.,0.\n0.,0.,0.\n"));
  EXPECT_NE(err.find("VEC3"), std::string::npos) << err;
  EXPECT_NE(err.find("not supported"), std::string::npos) << err;

  err = read_error(bar_deck("*CONTROL_MPP_DECOMPOSITION_TRANSFORMATION\nSY\n"));
  EXPECT_NE(err.find("V1"), std::string::npos) << err;

  err = read_error(bar_deck("*CONTROL_MPP_DECOMPOSITION_TRANSFORMATION\nRX,abc\n"));
  EXPECT_NE(err.find("V1"), std::string::npos) << err;

  err = read_error(bar_deck("*CONTROL_MPP_DECOMPOSITION_TRANSFORMATION\n"));
  EXPECT_FALSE(err.empty());
}

TEST(DecompKeywords, ListedInKeywordDocs) {
  const std::string md = keyword_coverage_markdown();
  EXPECT_NE(md.find("## *CONTROL_MPP_DECOMPOSITION_METHOD"), std::string::npos);
  EXPECT_NE(md.find("## *CONTROL_MPP_DECOMPOSITION_TRANSFORMATION"), std::string::npos);
}

} // namespace
} // namespace parcae::test
