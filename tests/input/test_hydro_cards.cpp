// *MAT_NULL, *MAT_ELASTIC_PLASTIC_HYDRO, *MAT_JOHNSON_COOK, *EOS_LINEAR_POLYNOMIAL and
// *EOS_GRUNEISEN cards, *PART EOSID, and what is refused (named at the field or the part).
#include <gtest/gtest.h>

#include "keyword_test_util.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

std::string hydro_cube(const std::string& mat_and_eos, const std::string& part = "1,1,1,1") {
  return deck("*NODE\n"
              "1,0,0,0\n2,1,0,0\n3,1,1,0\n4,0,1,0\n5,0,0,1\n6,1,0,1\n7,1,1,1\n8,0,1,1\n"
              "*ELEMENT_SOLID\n1,1,1,2,3,4,5,6,7,8\n"
              "*PART\ncube\n" +
              part + "\n*SECTION_SOLID\n1,1\n" + mat_and_eos + termination());
}

const std::string kGruneisen = "*EOS_GRUNEISEN\n1,3.94e6,1.49,0.1,0.2,2.02,0.47,5.0\n1.0,0,0\n";

} // namespace

TEST(HydroCards, NullWithLinearPolynomial) {
  const Model m = read_text(hydro_cube(
      "*MAT_NULL_TITLE\nwater\n         1     1e-9     -0.01     1e-9\n"
      "*EOS_LINEAR_POLYNOMIAL\n         1       0.0    2200.0       1.0       2.0       0.3"
      "       0.4       0.5\n       1.5\n"));
  ASSERT_EQ(m.materials.size(), 1u);
  const Material& w = m.materials[0];
  EXPECT_EQ(w.kind, MaterialKind::Null);
  EXPECT_DOUBLE_EQ(w.ro, 1e-9);
  EXPECT_DOUBLE_EQ(w.pc, -0.01);
  EXPECT_DOUBLE_EQ(w.null_mu, 1e-9);
  ASSERT_EQ(m.eos.size(), 1u);
  const Eos& e = m.eos[0];
  EXPECT_EQ(e.kind, EosKind::LinearPolynomial);
  const std::array<Real, 7> c{0, 2200, 1, 2, 0.3, 0.4, 0.5};
  for (int k = 0; k < 7; ++k)
    EXPECT_DOUBLE_EQ(e.c[static_cast<std::size_t>(k)], c[static_cast<std::size_t>(k)]);
  EXPECT_DOUBLE_EQ(e.e0, 1.5);
  EXPECT_DOUBLE_EQ(e.v0, 1.0);
  EXPECT_EQ(m.parts[0].eosid, 1);
}

TEST(HydroCards, JohnsonCookWithGruneisenAndAliases) {
  for (const std::string& mat :
       {std::string("*MAT_JOHNSON_COOK\n1,8.93e-9,46000,117000,0.35\n"
                    "90,292,0.31,0.025,1.09,1356,293,1\n3.83e8,-1000,1\n"),
        std::string("*MAT_015\n1,8.93e-9,46000,117000,0.35\n"
                    "90,292,0.31,0.025,1.09,1356,293\n3.83e8,-1000,1,0\n0\n")}) {
    const Model m = read_text(hydro_cube(mat + kGruneisen));
    ASSERT_EQ(m.materials.size(), 1u) << mat;
    const Material& j = m.materials[0];
    EXPECT_EQ(j.kind, MaterialKind::JohnsonCook);
    EXPECT_DOUBLE_EQ(j.g, 46000);
    EXPECT_DOUBLE_EQ(j.jc_a, 90);
    EXPECT_DOUBLE_EQ(j.jc_b, 292);
    EXPECT_DOUBLE_EQ(j.jc_n, 0.31);
    EXPECT_DOUBLE_EQ(j.jc_c, 0.025);
    EXPECT_DOUBLE_EQ(j.jc_m, 1.09);
    EXPECT_DOUBLE_EQ(j.jc_tm, 1356);
    EXPECT_DOUBLE_EQ(j.jc_tr, 293);
    EXPECT_DOUBLE_EQ(j.jc_epso, 1.0); // blank EPSO: 1
    EXPECT_DOUBLE_EQ(j.jc_cp, 3.83e8);
    EXPECT_DOUBLE_EQ(j.pc, -1000);
    ASSERT_EQ(m.eos.size(), 1u);
    const Eos& e = m.eos[0];
    EXPECT_EQ(e.kind, EosKind::Gruneisen);
    EXPECT_DOUBLE_EQ(e.gr_c, 3.94e6);
    EXPECT_DOUBLE_EQ(e.s1, 1.49);
    EXPECT_DOUBLE_EQ(e.s2, 0.1);
    EXPECT_DOUBLE_EQ(e.s3, 0.2);
    EXPECT_DOUBLE_EQ(e.gamma0, 2.02);
    EXPECT_DOUBLE_EQ(e.gr_a, 0.47);
    EXPECT_DOUBLE_EQ(e.e0, 5.0);
  }
}

TEST(HydroCards, ElasticPlasticHydroTable) {
  const Model m = read_text(hydro_cube(
      "*MAT_ELASTIC_PLASTIC_HYDRO\n1,7.85e-9,80000,250,1000\n0,0.1,0.5\n\n300,350,400\n\n" +
      kGruneisen));
  const Material& h = m.materials[0];
  EXPECT_EQ(h.kind, MaterialKind::ElasticPlasticHydro);
  EXPECT_EQ(h.lcss, -1);
  const Curve* c = m.find_curve(-1);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->x, (std::vector<Real>{0, 0.1, 0.5}));
  EXPECT_EQ(c->y, (std::vector<Real>{300, 350, 400}));
  // without the table: SIGY and EH
  const Model l = read_text(hydro_cube("*MAT_010\n1,7.85e-9,80000,250,1000\n" + kGruneisen));
  EXPECT_EQ(l.materials[0].lcss, 0);
  EXPECT_DOUBLE_EQ(l.materials[0].eh, 1000);
}

TEST(HydroCards, EosidRules) {
  const std::string jc = "*MAT_015\n1,8.93e-9,46000\n90,292,0.31\n";
  const std::string none = read_error(hydro_cube(jc + kGruneisen, "1,1,1"));
  EXPECT_NE(none.find("needs an equation of state"), std::string::npos) << none;
  const std::string undefined = read_error(hydro_cube(jc + kGruneisen, "1,1,1,7"));
  EXPECT_NE(undefined.find("7"), std::string::npos) << undefined;
  const std::string elastic =
      read_error(hydro_cube("*MAT_ELASTIC\n1,7.85e-9,2.1e5,0.3\n" + kGruneisen));
  EXPECT_NE(elastic.find("equations of state apply to"), std::string::npos) << elastic;
  const std::string shell = read_error(
      deck("*NODE\n1,0,0,0\n2,1,0,0\n3,1,1,0\n4,0,1,0\n"
           "*ELEMENT_SHELL\n1,1,1,2,3,4\n*PART\nplate\n1,1,1,1\n*SECTION_SHELL\n1,2\n0.5\n"
           "*MAT_NULL\n1,8.93e-9\n" +
           kGruneisen + termination()));
  EXPECT_NE(shell.find("solids only"), std::string::npos) << shell;
  // *MAT_015 has a plane-stress form for shells (E, PR; no EOS needed): read
  read_text(deck("*NODE\n1,0,0,0\n2,1,0,0\n3,1,1,0\n4,0,1,0\n"
                 "*ELEMENT_SHELL\n1,1,1,2,3,4\n*PART\nplate\n1,1,1\n*SECTION_SHELL\n1,2\n0.5\n"
                 "*MAT_015\n1,8.93e-9,46000,120000,0.34\n90,292,0.31\n" +
                 termination()));
}

TEST(HydroCards, RefusedFieldsAreNamed) {
  auto err = [&](const std::string& mat_and_eos) { return read_error(hydro_cube(mat_and_eos)); };
  EXPECT_NE(err("*MAT_015\n1,8.93e-9,46000,0,0,0,2\n90\n" + kGruneisen).find("VP = 2"),
            std::string::npos);
  // VP = 1 needs C >= 0 (a yield stress that does not fall with the plastic rate)
  EXPECT_NE(err("*MAT_015\n1,8.93e-9,46000,0,0,0,1\n90,0,0,-0.01\n" + kGruneisen).find("C = -0.01"),
            std::string::npos);
  // VP = 1 (viscoplastic) is read
  EXPECT_EQ(read_text(hydro_cube("*MAT_015\n1,8.93e-9,46000,0,0,0,1\n90\n" + kGruneisen))
                .materials.at(0)
                .vp,
            1.0);
  EXPECT_NE(err("*MAT_015\n1,8.93e-9,46000,0,0,0,0,3\n90\n" + kGruneisen).find("RATEOP = 3"),
            std::string::npos);
  EXPECT_NE(err("*MAT_015\n1,8.93e-9,46000\n-5\n" + kGruneisen).find("A = -5"), std::string::npos);
  EXPECT_NE(err("*MAT_NULL\n1,1e-9,0.5\n" + kGruneisen).find("PC = 0.5"), std::string::npos);
  EXPECT_NE(err("*MAT_NULL\n1,1e-9\n*EOS_GRUNEISEN\n1,3.94e6\n1,0,4\n").find("LCID = 4"),
            std::string::npos);
  EXPECT_NE(err("*MAT_NULL\n1,1e-9\n*EOS_LINEAR_POLYNOMIAL\n1,0,1\n0,0.9\n").find("V0 = 0.9"),
            std::string::npos);
}

// *EOS_TABULATED (and _COMPACTION): the points sorted by ln V, the trailing blank ones left out
// (free format here; the 16-column layout is read by Hydro.OneElementTabulatedCompaction...);
// repeated EV, a negative K, the curve options and energy deposition are errors at the field.
TEST(HydroCards, TabulatedPointsAndErrors) {
  const Model m = read_text(hydro_cube("*MAT_NULL\n1,1e-9\n*EOS_009_TITLE\nsand\n1,0.5,2.0\n"
                                       "0,-0.1,-0.3\n\n0,10,50\n\n1,1,2\n\n"));
  ASSERT_EQ(m.eos.size(), 1u);
  const Eos& e = m.eos[0];
  EXPECT_EQ(e.kind, EosKind::Tabulated);
  EXPECT_EQ(e.tab_ev, (std::vector<Real>{-0.3, -0.1, 0.0}));
  EXPECT_EQ(e.tab_c, (std::vector<Real>{50, 10, 0}));
  EXPECT_EQ(e.tab_t, (std::vector<Real>{2, 1, 1}));
  EXPECT_DOUBLE_EQ(e.tab_gamma, 0.5);
  EXPECT_DOUBLE_EQ(e.e0, 2.0);
  // listed in ascending order, its last point at 0 is kept (the trailing zeros are left out)
  const Model a = read_text(hydro_cube("*MAT_NULL\n1,1e-9\n*EOS_TABULATED\n1\n-0.3,-0.1,0,0,0\n"
                                       "\n50,10,0\n\n2,1,1\n\n"));
  EXPECT_EQ(a.eos.at(0).tab_ev, (std::vector<Real>{-0.3, -0.1, 0.0}));
  EXPECT_EQ(a.eos.at(0).tab_c, (std::vector<Real>{50, 10, 0}));
  auto err = [&](const std::string& eos) {
    return read_error(hydro_cube("*MAT_NULL\n1,1e-9\n" + eos));
  };
  std::string msg = err("*EOS_TABULATED\n1\n0,-0.1,-0.1\n\n0,1,2\n\n\n\n");
  EXPECT_NE(msg.find("EV2 = EV3 = -0.1"), std::string::npos) << msg;
  EXPECT_NE(msg.find("deck.k:"), std::string::npos) << msg;
  msg = err("*EOS_TABULATED\n1\n\n\n\n\n\n\n");
  EXPECT_NE(msg.find("must differ"), std::string::npos) << msg;
  msg = err("*EOS_TABULATED_COMPACTION\n1\n0,-0.1\n\n0,1\n\n\n\n1,-2\n\n");
  EXPECT_NE(msg.find("K2 = -2"), std::string::npos) << msg;
  msg = err("*EOS_008\n1,,,,7\n0,-0.1\n\n0,1\n\n\n\n1,2\n\n");
  EXPECT_NE(msg.find("LCC = 7"), std::string::npos) << msg;
  msg = err("*EOS_TABULATED\n1,,,,,,,3\n0,-0.1\n\n0,1\n\n\n\n");
  EXPECT_NE(msg.find("LCID = 3"), std::string::npos) << msg;
}

TEST(HydroCards, IgnoredFieldsWarn) {
  const Model m =
      read_text(hydro_cube("*MAT_015\n1,8.93e-9,46000\n90\n0,-1000,2,0,0.5\n" + kGruneisen));
  int spall = 0, d1 = 0;
  for (const KeywordNote& n : m.notes) {
    spall += n.message.find("SPALL = 2") != std::string::npos;
    d1 += n.message.find("D1 = 0.5") != std::string::npos;
  }
  EXPECT_EQ(spall, 1);
  EXPECT_EQ(d1, 1);
}
