// *MAT_CRUSHABLE_FOAM (063), read from its card as a deck gives it, at one material point against
// closed forms (PR = 0, so that Hooke's law is sigma = E eps component by component and the
// principal directions of the strain are those of the stress):
//  - uniaxial compression: elastic at E until the stress reaches the curve, then
//    sigma_xx = -Y(gamma), gamma = 1 - V = 1 - exp(-n d) after n increments -d (the integrated
//    volumetric strain), lateral stresses zero;
//  - unloading: elastic at E from -Y, then in tension capped at TSC;
//  - hydrostatic compression: every principal stress -Y(1 - exp(-3 n d));
//  - the same uniaxial path in a rotated frame gives the rotated stress (the law works on
//    principal stresses, so it is frame invariant);
//  - the eigen-decomposition it uses, on random symmetric matrices;
//  - the card: alias, LCID required, MODEL refused, DAMP noted.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include <fmt/format.h>

#include "../input/keyword_test_util.hpp"
#include "mat_test_util.hpp"
#include "materials/catalogue.hpp"
#include "materials/law_support.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

// A polyurethane-like foam in mm, t, s, MPa: E = 20 MPa, a plateau of 0.3 MPa rising to 1 MPa at
// 60 % and densifying beyond.
constexpr Real kEf = 20.0, kTsc = 0.05;
const std::vector<Real> kGx = {0.0, 0.05, 0.6, 0.8}, kGy = {0.2, 0.3, 1.0, 5.0};

std::string foam_deck(const std::string& card) {
  std::string curve = "*DEFINE_CURVE\n7\n";
  for (std::size_t i = 0; i < kGx.size(); ++i) curve += fmt::format("{},{}\n", kGx[i], kGy[i]);
  return deck("*NODE\n"
              "1,0,0,0\n2,1,0,0\n3,1,1,0\n4,0,1,0\n5,0,0,1\n6,1,0,1\n7,1,1,1\n8,0,1,1\n"
              "*ELEMENT_SOLID\n1,1,1,2,3,4,5,6,7,8\n*PART\nfoam\n1,1,1\n*SECTION_SOLID\n1,1\n" +
              card + curve + termination());
}

Model foam_model(Real tsc = kTsc, Real pr = 0.0) {
  return read_text(
      foam_deck(fmt::format("*MAT_CRUSHABLE_FOAM\n{:>10}{:>10}{:>10}{:>10}{:>10}{:>10}\n", 1,
                            "3.0e-11", kEf, pr, 7, tsc)));
}

MaterialParams foam(Real tsc = kTsc) {
  const Model m = foam_model(tsc);
  return make_material_params(m.materials.at(0), m);
}

/// Y(gamma) of the test curve: constant below 0, linear between the points, the last segment
/// extended.
Real yield(Real g) {
  if (g <= kGx.front()) return kGy.front();
  std::size_t i = 1;
  while (i + 1 < kGx.size() && g > kGx[i]) ++i;
  return kGy[i - 1] + (g - kGx[i - 1]) * (kGy[i] - kGy[i - 1]) / (kGx[i] - kGx[i - 1]);
}

struct Point {
  Real sig[6] = {0, 0, 0, 0, 0, 0}, back[6] = {0, 0, 0, 0, 0, 0}, eps_v = 0;
  void step(const MaterialParams& m, const Real d[6]) {
    update_stress_solid(m, d, 1e-6, sig, back, eps_v);
  }
};

} // namespace

TEST(Mat063, UniaxialCompressionFollowsTheCurveOfTheVolumetricStrain) {
  const MaterialParams m = foam();
  Point p;
  const Real d = 1e-3;
  const Real deps[6] = {-d, 0, 0, 0, 0, 0};
  for (int n = 1; n <= 700; ++n) {
    p.step(m, deps);
    const Real gamma = 1 - std::exp(-n * d);
    const Real expect = -std::min(kEf * n * d, yield(gamma));
    ASSERT_NEAR(p.sig[0], expect, 1e-12 * kGy.back()) << "step " << n;
    ASSERT_EQ(p.sig[1], 0.0);
    ASSERT_EQ(p.sig[2], 0.0);
  }
  EXPECT_NEAR(p.eps_v, 0.7, 1e-12); // the integrated volumetric strain -ln V
  // beyond the last point the curve's last segment goes on (densification): gamma = 0.8 at
  // n d = ln 5
  Point q;
  const int n_dense = static_cast<int>(std::ceil(std::log(1 / (1 - 0.85)) / d));
  for (int n = 0; n < n_dense; ++n) q.step(m, deps);
  EXPECT_GT(-q.sig[0], kGy.back());
  EXPECT_NEAR(-q.sig[0], yield(1 - std::exp(-n_dense * d)), 1e-9);
}

TEST(Mat063, UnloadingIsElasticAndTensionIsCutOff) {
  const MaterialParams m = foam();
  Point p;
  const Real d = 1e-3;
  const Real load[6] = {-d, 0, 0, 0, 0, 0}, unload[6] = {d, 0, 0, 0, 0, 0};
  for (int n = 0; n < 300; ++n) p.step(m, load);
  const Real s0 = p.sig[0];
  ASSERT_NEAR(s0, -yield(1 - std::exp(-0.3)), 1e-12);
  // elastic unloading at E: no yield on the way (|sigma| falls faster than Y(gamma))
  for (int k = 1; k <= 10; ++k) {
    p.step(m, unload);
    ASSERT_NEAR(p.sig[0], s0 + kEf * k * d, 1e-12) << k;
  }
  // through zero into tension: capped at TSC, and the compaction is kept
  for (int k = 0; k < 100; ++k) p.step(m, unload);
  EXPECT_NEAR(p.sig[0], kTsc, 1e-15);
  EXPECT_NEAR(p.eps_v, 0.3 - 0.11, 1e-12);
  // TSC = 0: the tensile limit is the yield stress
  const MaterialParams m0 = foam(0.0);
  Point t;
  for (int k = 0; k < 100; ++k) t.step(m0, unload);
  EXPECT_NEAR(t.sig[0], yield(1 - std::exp(0.1)), 1e-12);
}

TEST(Mat063, HydrostaticCompressionYieldsInEveryDirection) {
  const MaterialParams m = foam();
  Point p;
  const Real d = 1e-3;
  const Real deps[6] = {-d, -d, -d, 0, 0, 0};
  for (int n = 1; n <= 200; ++n) {
    p.step(m, deps);
    const Real expect = -std::min(kEf * n * d, yield(1 - std::exp(-3 * n * d)));
    for (int i = 0; i < 3; ++i) ASSERT_NEAR(p.sig[i], expect, 1e-12) << n;
    for (int i = 3; i < 6; ++i) ASSERT_NEAR(p.sig[i], 0.0, 1e-15);
  }
}

TEST(Mat063, RotatedUniaxialPathGivesTheRotatedStress) {
  const MaterialParams m = foam();
  // Q: a rotation about (1, 2, 3) by 0.7 rad
  Real ax[3] = {1, 2, 3};
  const Real nrm = std::sqrt(14.0);
  for (Real& a : ax) a /= nrm;
  const Real c = std::cos(0.7), s = std::sin(0.7);
  Real q[3][3];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) q[i][j] = (i == j ? c : 0) + (1 - c) * ax[i] * ax[j];
  q[0][1] -= s * ax[2];
  q[0][2] += s * ax[1];
  q[1][0] += s * ax[2];
  q[1][2] -= s * ax[0];
  q[2][0] -= s * ax[1];
  q[2][1] += s * ax[0];
  // the tensor diag(a, b, c) turned by Q, in Voigt order (shear as given by `eng`)
  auto turned = [&](const Real diag[3], bool eng, Real out[6]) {
    Real t[3][3];
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        t[i][j] = 0;
        for (int k = 0; k < 3; ++k) t[i][j] += q[i][k] * diag[k] * q[j][k];
      }
    const Real f = eng ? 2.0 : 1.0;
    out[0] = t[0][0], out[1] = t[1][1], out[2] = t[2][2];
    out[3] = f * t[0][1], out[4] = f * t[1][2], out[5] = f * t[2][0];
  };
  const Real d = 1e-3;
  const Real strain[3] = {-d, 0.2 * d, 0}; // compression with a lateral stretch
  Real deps_rot[6], deps[6] = {strain[0], strain[1], strain[2], 0, 0, 0};
  turned(strain, true, deps_rot);
  Point a, b;
  for (int n = 0; n < 400; ++n) {
    a.step(m, deps);
    b.step(m, deps_rot);
  }
  ASSERT_LT(a.sig[0], -0.5); // it has yielded in compression and is capped in tension
  ASSERT_NEAR(a.sig[1], kTsc, 1e-12);
  const Real principal[3] = {a.sig[0], a.sig[1], a.sig[2]};
  Real expect[6];
  turned(principal, false, expect);
  for (int k = 0; k < 6; ++k) EXPECT_NEAR(b.sig[k], expect[k], 1e-12) << k;
  EXPECT_NEAR(b.eps_v, a.eps_v, 1e-15);
}

TEST(Mat063, SymmetricEigenDecomposesRandomMatrices) {
  std::mt19937 rng(63);
  std::uniform_real_distribution<Real> u(-1, 1);
  for (int trial = 0; trial < 1000; ++trial) {
    Real s[6];
    for (Real& x : s) x = u(rng);
    if (trial % 3 == 0) s[1] = s[0];            // repeated diagonal entries
    if (trial % 5 == 0) s[3] = s[4] = s[5] = 0; // already diagonal
    Real lam[3], v[3][3];
    symmetric_eigen(s, lam, v);
    ASSERT_LE(lam[0], lam[1]);
    ASSERT_LE(lam[1], lam[2]);
    const Real a[3][3] = {{s[0], s[3], s[5]}, {s[3], s[1], s[4]}, {s[5], s[4], s[2]}};
    for (int k = 0; k < 3; ++k) {
      for (int i = 0; i < 3; ++i) {
        Real av = 0;
        for (int j = 0; j < 3; ++j) av += a[i][j] * v[j][k];
        ASSERT_NEAR(av, lam[k] * v[i][k], 1e-14) << trial;
      }
      for (int l = 0; l < 3; ++l) {
        Real dot = 0;
        for (int i = 0; i < 3; ++i) dot += v[i][k] * v[i][l];
        ASSERT_NEAR(dot, k == l ? 1.0 : 0.0, 1e-14);
      }
    }
  }
}

TEST(Mat063Card, FieldsAliasAndRefusedValues) {
  const Model m = foam_model();
  const Material& mat = m.materials.at(0);
  EXPECT_EQ(mat.kind, MaterialKind::CrushableFoam);
  EXPECT_STREQ(material_law(mat.kind).number, "063");
  EXPECT_DOUBLE_EQ(mat.e, kEf);
  // DAMP blank: LS-DYNA's default 0.1, not applied either: said so
  bool default_damp = false;
  for (const KeywordNote& n : m.notes)
    default_damp |= n.message.find("DAMP = 0.1 (the default)") == 0;
  EXPECT_TRUE(default_damp);
  const Model a = read_text(foam_deck("*MAT_063_TITLE\nfoam\n1,3e-11,20,0,7,0.05,0.2\n"));
  EXPECT_EQ(a.materials.at(0).kind, MaterialKind::CrushableFoam);
  bool damp_noted = false;
  for (const KeywordNote& n : a.notes) damp_noted |= n.message.find("DAMP = 0.2") == 0;
  EXPECT_TRUE(damp_noted);
  const std::string lcid = read_error(foam_deck("*MAT_063\n1,3e-11,20,0\n"));
  EXPECT_NE(lcid.find("LCID"), std::string::npos) << lcid;
  EXPECT_NE(lcid.find("deck.k:"), std::string::npos) << lcid;
  const std::string model = read_error(foam_deck("*MAT_063\n1,3e-11,20,0,7,0,0,1\n"));
  EXPECT_NE(model.find("MODEL = 1"), std::string::npos) << "[" << model << "]";
  // a curve that is not defined is named when the material is prepared
  const Model undefined = read_text(foam_deck("*MAT_063\n1,3e-11,20,0,8\n"));
  EXPECT_THROW(make_material_params(undefined.materials.at(0), undefined), InputError);
}
