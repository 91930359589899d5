// The _STOCHASTIC option (and *MAT_024's _2D form, last test) of *MAT_015, 024, 098 and 123:
// LS-DYNA varies the yield and failure of such a material element by element only where
// *DEFINE_STOCHASTIC_VARIATION gives a distribution; the card itself is the law's own. parcae reads
// the option on the law's card and refuses *DEFINE_STOCHASTIC_VARIATION, so a deck that reads is
// one in which no element varies:
//  - each law read with the option (by number and by name) drives a shell point in uniaxial
//    stress past yield to the same stresses and plastic strain, bit for bit, as the law without
//    it;
//  - *DEFINE_STOCHASTIC_VARIATION is an error naming the file and line (so a varying deck is not
//    run as a uniform one).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../input/keyword_test_util.hpp"
#include "mat_test_util.hpp"
#include "materials/material.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

std::string shell_with(const std::string& mat, const std::string& extra = "") {
  return deck("*NODE\n1,0,0,0\n2,1,0,0\n3,1,1,0\n4,0,1,0\n"
              "*ELEMENT_SHELL\n1,1,1,2,3,4\n*PART\nplate\n1,1,1\n*SECTION_SHELL\n1,2\n"
              "0.001,0.001,0.001,0.001\n" +
              mat + termination() + extra);
}

struct Law {
  std::string number, name, cards;
};

// Card bodies (after the keyword line) of each law, steel- or aluminium-like, free format.
const std::vector<Law> kLaws = {
    {"*MAT_024", "*MAT_PIECEWISE_LINEAR_PLASTICITY", "1,7850,200e9,0.3,250e6,2.2e9\n"},
    {"*MAT_123", "*MAT_MODIFIED_PIECEWISE_LINEAR_PLASTICITY", "1,7850,200e9,0.3,250e6,2.2e9\n"},
    {"*MAT_098", "*MAT_SIMPLIFIED_JOHNSON_COOK", "1,7850,200e9,0.3\n350e6,275e6,0.36,0.022\n"},
    {"*MAT_015", "*MAT_JOHNSON_COOK",
     "1,2700,26e9,70e9,0.33\n300e6,430e6,0.35,0.0,1.0,900,293,1.0\n0.0\n"},
};

} // namespace

TEST(StochasticOption, EachLawReadsAsItselfBitForBit) {
  for (const Law& law : kLaws) {
    const Model base = read_text(shell_with(law.number + "\n" + law.cards));
    const MaterialParams pb = make_material_params(base.materials.at(0), base);
    ShellUniaxial ref(pb);
    ref.go(0.03, 40);
    ASSERT_GT(ref.eps_p, 0.01) << law.number << ": the path must reach the plastic range";
    for (const std::string& kw :
         {law.number + "_STOCHASTIC", law.name + "_STOCHASTIC", law.name + "_STOCHASTIC_TITLE"}) {
      const bool titled = kw.ends_with("_TITLE");
      const Model m = read_text(shell_with(kw + "\n" + (titled ? "a title\n" : "") + law.cards));
      ASSERT_EQ(m.materials.at(0).kind, base.materials.at(0).kind) << kw;
      const MaterialParams p = make_material_params(m.materials.at(0), m);
      ShellUniaxial s(p);
      s.go(0.03, 40);
      EXPECT_EQ(s.eps_p, ref.eps_p) << kw;
      for (int i = 0; i < 5; ++i) EXPECT_EQ(s.sig[i], ref.sig[i]) << kw << " component " << i;
    }
  }
}

TEST(StochasticOption, AVariationCardIsRefusedAtItsLine) {
  const std::string err = read_error(shell_with("*MAT_024_STOCHASTIC\n" + kLaws[0].cards,
                                                "*DEFINE_STOCHASTIC_VARIATION\n1,1,0,0,0.0,1,0\n"));
  EXPECT_NE(err.find("*DEFINE_STOCHASTIC_VARIATION"), std::string::npos) << err;
  EXPECT_NE(err.find("deck.k:"), std::string::npos) << err;
}

// _2D (*MAT_024 only): LS-DYNA's plane-stress form of the law for shells, with the same card: a
// shell point gives *MAT_024's stresses bit for bit, also with _LOG_INTERPOLATION_2D.
TEST(StochasticOption, The2DFormOf024IsTheLawOnShells) {
  const Model base = read_text(shell_with("*MAT_024\n" + kLaws[0].cards));
  const MaterialParams pb = make_material_params(base.materials.at(0), base);
  ShellUniaxial ref(pb);
  ref.go(0.03, 40);
  ASSERT_GT(ref.eps_p, 0.01);
  for (const std::string& kw : {"*MAT_024_2D", "*MAT_PIECEWISE_LINEAR_PLASTICITY_2D",
                                "*MAT_PIECEWISE_LINEAR_PLASTICITY_LOG_INTERPOLATION_2D"}) {
    const Model m = read_text(shell_with(kw + "\n" + kLaws[0].cards));
    ASSERT_EQ(m.materials.at(0).kind, MaterialKind::PiecewiseLinear) << kw;
    const MaterialParams p = make_material_params(m.materials.at(0), m);
    ShellUniaxial s(p);
    s.go(0.03, 40);
    EXPECT_EQ(s.eps_p, ref.eps_p) << kw;
    for (int i = 0; i < 5; ++i) EXPECT_EQ(s.sig[i], ref.sig[i]) << kw << " component " << i;
  }
}
