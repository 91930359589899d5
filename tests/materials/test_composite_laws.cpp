// *MAT_ENHANCED_COMPOSITE_DAMAGE (054/055) and *MAT_LAMINATED_COMPOSITE_FABRIC (058), read from
// their cards as a deck gives them, driven at one shell point in the material axes:
//  - 054: each Chang-Chang mode fails where its closed form says, on proportional strain paths
//    (fibre tension at XT, matrix tension and compression with shear, Tsai-Wu for CRIT 55), to
//    one strain increment; a failed mode keeps at most SLIM times its strength; the fibre
//    compressive strength becomes YCFAC YC once the matrix has failed in compression; the layer
//    fails on fibre tension (DFAILT 0) or on the strain limits;
//  - 058: the uniaxial curve is E e exp(-(e / ef)^m / m) with m = 1 / ln(E ef / X) at every
//    step, peaking at (E11T, XT); SLIM floors the softening; unloading runs down the secant; the
//    shear curve is the damage law to (GAMMA1, TAU1), a line to (GMS, SC), then SLIMS SC; a
//    failure strain without a peak is raised to 1.1 X / E with a note; ERODS fails the layer.
#include <gtest/gtest.h>

#include <array>
#include <cmath>

#include <fmt/format.h>

#include "../input/keyword_test_util.hpp"
#include "materials/catalogue.hpp"
#include "materials/material.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

constexpr Real kEa = 120000, kEb = 9000, kPrba = 0.02, kGab = 4500;
constexpr Real kXt = 2000, kXc = 1200, kYt = 50, kYc = 200, kSc = 80;

Model read_card(const std::string& card) {
  std::string mesh = cube_mesh();
  mesh.replace(mesh.find("*MAT_ELASTIC"), std::string::npos, card);
  return read_text(deck(mesh + termination()));
}

/// A *MAT_054 card: card 5 and 6 fields given, card 8 (SLIM) optional.
std::string card054(const std::string& card5 = "", Real crit = 54, Real beta = 0,
                    const std::string& card8 = "") {
  std::string c = fmt::format("*MAT_ENHANCED_COMPOSITE_DAMAGE\n{:10d}{:10.3e}{:10.1f}{:10.1f}"
                              "{:10.1f}{:10.4f}\n{:10.1f}\n\n\n",
                              1, 1.5e-9, kEa, kEb, kEb, kPrba, kGab);
  c += card5 + "\n";
  c += fmt::format("{:10.1f}{:10.1f}{:10.1f}{:10.1f}{:10.1f}{:10.1f}{:10.3f}\n", kXc, kXt, kYc, kYt,
                   kSc, crit, beta);
  if (!card8.empty()) c += "\n" + card8 + "\n";
  return c;
}

MaterialParams params_of(const std::string& card) {
  const Model m = read_card(card);
  return make_material_params(m.materials.at(0), m);
}

struct Point {
  Real sig[5] = {0, 0, 0, 0, 0};
  Real back[6] = {0, 0, 0, 0, 0, 0};
  Real eps_p = 0;
  void step(const MaterialParams& m, Real da, Real db, Real dg) {
    const Real d[5] = {da, db, dg, 0, 0};
    Real dzz = 0;
    update_stress_shell(m, d, 1e-7, sig, back, eps_p, dzz);
  }
};

Real q11() {
  return kEa / (1 - kPrba * kPrba * kEa / kEb);
}
Real q22() {
  return kEb / (1 - kPrba * kPrba * kEa / kEb);
}

/// Strain (the path's parameter) at which the flags first include `flag`, stepping by h along
/// (da, db, dg) per unit; -1 if never within `limit`.
Real strain_at_flag(const MaterialParams& m, int flag, Real da, Real db, Real dg, Real h,
                    Real limit) {
  Point p;
  for (Real s = h; s <= limit; s += h) {
    p.step(m, da * h, db * h, dg * h);
    if (static_cast<int>(p.eps_p) & flag) return s;
  }
  return -1;
}

} // namespace

TEST(Mat054, FibreTensionFailsTheLayerAtXt) {
  const MaterialParams m = params_of(card054());
  const Real h = 1e-6;
  const Real s = strain_at_flag(m, 16, 1, 0, 0, h, 0.05); // eps_b = 0: sigma_a = Q11 eps_a
  EXPECT_NEAR(s, kXt / q11(), 1.01 * h);
  // the layer has failed: no stress, and none after
  Point p;
  for (Real e = 0; e < s + 5 * h; e += h) p.step(m, h, 0, 0);
  for (Real v : p.sig) EXPECT_EQ(v, 0);
  EXPECT_TRUE(m.failed(p.eps_p));
}

TEST(Mat054, MatrixModesFollowTheirCriteria) {
  const MaterialParams m = params_of(card054());
  const Real h = 1e-7;
  // tension with shear (gamma = 2 eps_b): (Q22 e / YT)^2 + (G 2 e / SC)^2 = 1
  const Real et = 1 / std::hypot(q22() / kYt, kGab * 2 / kSc);
  EXPECT_NEAR(strain_at_flag(m, 2, 0, 1, 2, h, 0.05), et, 1.01 * h);
  // compression with shear: a s^2 + b s - 1 = 0 for s = |eps_b|, sigma_b = -Q22 s, tau = G s
  const Real a = std::pow(q22() / (2 * kSc), 2) + std::pow(kGab / kSc, 2);
  const Real b = -(std::pow(kYc / (2 * kSc), 2) - 1) * q22() / kYc;
  const Real ec = (-b + std::sqrt(b * b + 4 * a)) / (2 * a);
  EXPECT_NEAR(strain_at_flag(m, 4, 0, -1, 1, h, 0.05), ec, 1.01 * h);
  // CRIT 55: Tsai-Wu, sigma_b^2/(YC YT) + (tau/SC)^2 + (YC - YT) sigma_b/(YC YT) = 1
  const MaterialParams tw = params_of(card054("", 55));
  const Real a2 = q22() * q22() / (kYc * kYt) + std::pow(kGab / kSc, 2);
  const Real b2 = (kYc - kYt) * q22() / (kYc * kYt);
  const Real e55 = (-b2 + std::sqrt(b2 * b2 + 4 * a2)) / (2 * a2);
  EXPECT_NEAR(strain_at_flag(tw, 2, 0, 1, 1, h, 0.05), e55, 1.01 * h);
  // after matrix failure the layer carries its fibres only: sigma_b and tau drop to SLIM 0
  Point p;
  for (Real e = 0; e < 2 * et; e += h) p.step(m, 0, h, 2 * h);
  EXPECT_EQ(static_cast<int>(p.eps_p), 2);
  EXPECT_EQ(p.sig[1], 0);
  EXPECT_EQ(p.sig[2], 0);
  const Real before = p.sig[0];
  p.step(m, 1e-3, 0, 0); // the fibres still work, without the Poisson coupling: EA, not Q11
  EXPECT_NEAR(p.sig[0] - before, kEa * 1e-3, 1e-9 * kEa * 1e-3);
  EXPECT_EQ(p.sig[1], 0);
}

TEST(Mat054, ResidualLimitsAndCompressiveStrengthReduction) {
  // SLIMT2 = 0.4: matrix tension failure keeps 0.4 YT while loading continues
  const MaterialParams m = params_of(card054("", 54, 0, "       0.0       0.0       0.4"));
  Point p;
  for (int k = 0; k < 20000; ++k) p.step(m, 0, 1e-6, 0); // to twice YT / Q22
  EXPECT_EQ(static_cast<int>(p.eps_p) & 2, 2);
  EXPECT_NEAR(p.sig[1], 0.4 * kYt, 1e-9);
  // YCFAC: after matrix compression failure the fibres fail in compression at YCFAC YC = 400
  const MaterialParams y = params_of(card054("         0         0         0         0       2.0"));
  Point q;
  while (!(static_cast<int>(q.eps_p) & 4)) q.step(y, 0, -1e-6, 0);
  for (int k = 0; k < 20000 && !(static_cast<int>(q.eps_p) & 1); ++k) {
    q.step(y, -1e-6, 0, 0);
  }
  EXPECT_TRUE(static_cast<int>(q.eps_p) & 1);
  EXPECT_NEAR(q.sig[0], 0, 1e-12); // SLIMC1 0
  // the last stress before failure is within one increment of -YCFAC YC, far below XC
  Point r;
  while (!(static_cast<int>(r.eps_p) & 4)) r.step(y, 0, -1e-6, 0);
  Real last = 0;
  while (!(static_cast<int>(r.eps_p) & 1)) {
    last = r.sig[0];
    r.step(y, -1e-6, 0, 0);
  }
  EXPECT_NEAR(last, -2.0 * kYc, kEa * 1e-6 * 1.01);
}

TEST(Mat054, StrainLimitsFailTheLayerWhenDfailtIsGiven) {
  // DFAILT 0.03, DFAILC -0.02: fibre tension failure now only caps sigma_a (SLIMT1 0.5); the
  // layer fails at eps_a = 0.03
  const MaterialParams m =
      params_of(card054("         0         0         0         0         0      0.03     -0.02",
                        54, 0, "       0.5"));
  Point p;
  Real e = 0;
  while (!m.failed(p.eps_p) && e < 0.1) {
    p.step(m, 1e-5, 0, 0);
    e += 1e-5;
    if (e > kXt / q11() * 1.01 && e < 0.0299) EXPECT_NEAR(p.sig[0], 0.5 * kXt, 1e-9);
  }
  EXPECT_NEAR(e, 0.03, 1.01e-5);
  EXPECT_EQ(static_cast<int>(p.eps_p) & 8, 8);
}

TEST(Mat054, CardChecks) {
  EXPECT_NE(read_error(deck([] {
              std::string mesh = cube_mesh();
              mesh.replace(mesh.find("*MAT_ELASTIC"), std::string::npos,
                           card054("         0      0.01"));
              return mesh + termination();
            }()))
                .find("ALPH"),
            std::string::npos);
  EXPECT_NE(read_error(deck([] {
              std::string mesh = cube_mesh();
              mesh.replace(mesh.find("*MAT_ELASTIC"), std::string::npos, card054("", 56));
              return mesh + termination();
            }()))
                .find("CRIT"),
            std::string::npos);
  const MaterialParams m = params_of(card054());
  EXPECT_TRUE(m.law().oriented);
  EXPECT_EQ(m.law().update_solid, nullptr); // shells only
}

namespace {

constexpr Real kE11t = 0.025, kE11c = 0.02, kE22t = 0.012, kE22c = 0.03, kGms = 0.06;

/// A *MAT_058 card (PRBA 0: the directions uncouple, so uniaxial strain is uniaxial stress).
std::string card058(Real fs = -1, Real tau1 = 0, Real gamma1 = 0, const std::string& slim = "",
                    Real erods = 0, Real e11t = kE11t) {
  std::string c = fmt::format("*MAT_LAMINATED_COMPOSITE_FABRIC\n{:10d}{:10.3e}{:10.1f}{:10.1f}"
                              "{:10.1f}{:10.4f}{:10.3f}{:10.4f}\n",
                              1, 1.5e-9, kEa, kEb, kEb, 0.0, tau1, gamma1);
  c += fmt::format("{:10.1f}{:10.1f}{:10.1f}{}\n", kGab, kGab, kGab, slim);
  c += fmt::format("{:10.1f}{:10.1f}{:10.4f}{:10.1f}{:10.1f}\n", 0.0, 0.0, erods, 0.0, fs);
  c += "\n\n";
  c += fmt::format("{:10.4f}{:10.4f}{:10.4f}{:10.4f}{:10.4f}\n", kE11c, e11t, kE22c, kE22t, kGms);
  c += fmt::format("{:10.1f}{:10.1f}{:10.1f}{:10.1f}{:10.1f}\n", kXc, kXt, kYc, kYt, kSc);
  return c;
}

Real damage_curve(Real e, Real E, Real x, Real ef) {
  const Real m = 1 / std::log(E * ef / x);
  return E * e * std::exp(-std::pow(e / ef, m) / m);
}

} // namespace

TEST(Mat058, UniaxialCurvesPeakAtTheirStrengthAndStrain) {
  const MaterialParams m = params_of(card058());
  struct Dir {
    int i;
    Real sign, E, x, ef;
  } dirs[] = {{0, 1, kEa, kXt, kE11t},
              {0, -1, kEa, kXc, kE11c},
              {1, 1, kEb, kYt, kE22t},
              {1, -1, kEb, kYc, kE22c}};
  for (const Dir& d : dirs) {
    Point p;
    const Real h = d.ef / 2000;
    Real peak = 0, at = 0;
    for (int k = 1; k <= 6000; ++k) {
      p.step(m, d.i == 0 ? d.sign * h : 0, d.i == 1 ? d.sign * h : 0, 0);
      const Real e = k * h;
      const Real want = damage_curve(e, d.E, d.x, d.ef);
      ASSERT_NEAR(d.sign * p.sig[d.i], want, 1e-9 * d.x) << "dir " << d.i << " e " << e;
      if (std::abs(p.sig[d.i]) > peak) {
        peak = std::abs(p.sig[d.i]);
        at = e;
      }
    }
    EXPECT_NEAR(peak, d.x, 1e-6 * d.x);
    EXPECT_NEAR(at, d.ef, 1.01 * h);
  }
}

TEST(Mat058, ResidualFloorUnloadingAndShear) {
  // SLIMT1 0.3: beyond the peak sigma_a = max(curve, 0.3 XT)
  const MaterialParams m = params_of(card058(-1, 0, 0, "       0.3"));
  Point p;
  const Real h = kE11t / 1000;
  for (int k = 1; k <= 4000; ++k) {
    p.step(m, h, 0, 0);
    const Real e = k * h;
    EXPECT_NEAR(p.sig[0], std::max(damage_curve(e, kEa, kXt, kE11t), e > kE11t ? 0.3 * kXt : 0.0),
                1e-9 * kXt);
  }
  // unloading from 4 E11T runs down the secant to the origin
  const Real secant = p.sig[0] / (4000 * h);
  for (int k = 0; k < 2000; ++k) p.step(m, -h, 0, 0);
  EXPECT_NEAR(p.sig[0], secant * 2000 * h, 1e-9 * kXt);
  // shear with TAU1 40 at GAMMA1 0.015: the damage law, then the line to (GMS, SC), then SLIMS
  const MaterialParams s = params_of(card058(-1, 40, 0.015,
                                             "       0.0       0.0       0.0"
                                             "       0.0       0.5"));
  Point q;
  const Real g1 = 0.015, hg = 0.7e-5; // no step lands on a knee
  for (int k = 1; k <= 13000; ++k) {
    q.step(s, 0, 0, hg);
    const Real g = k * hg;
    Real want = 0;
    if (g <= g1)
      want = damage_curve(g, kGab, 40, g1);
    else if (g < kGms)
      want = 40 + (kSc - 40) * (g - g1) / (kGms - g1);
    else
      want = 0.5 * kSc;
    ASSERT_NEAR(q.sig[2], want, 1e-7 * kSc) << "gamma " << g;
  }
}

TEST(Mat058, NoPeakIsRaisedWithANoteAndErodsFailsTheLayer) {
  // E11T below XT / EA = 0.01667: raised to 1.1 times it, with a note at the field
  const Model model = read_card(card058(-1, 0, 0, "", 0, 0.012));
  bool noted = false;
  for (const auto& n : model.notes)
    if (n.message.find("E11T") != std::string::npos) noted = true;
  EXPECT_TRUE(noted);
  const MaterialParams m = make_material_params(model.materials.at(0), model);
  Point p;
  Real peak = 0, at = 0;
  const Real h = 1e-6;
  for (int k = 1; k <= 40000; ++k) {
    p.step(m, h, 0, 0);
    if (p.sig[0] > peak) {
      peak = p.sig[0];
      at = k * h;
    }
  }
  EXPECT_NEAR(peak, kXt, 1e-6 * kXt);
  EXPECT_NEAR(at, 1.1 * kXt / kEa, 1.01 * h);
  // ERODS 0.05: uniaxial eps_a: sqrt(4/3) eps_a = 0.05
  const MaterialParams e = params_of(card058(-1, 0, 0, "", 0.05));
  Point q;
  Real s = 0;
  while (!e.failed(q.eps_p) && s < 0.2) {
    q.step(e, 1e-5, 0, 0);
    s += 1e-5;
  }
  EXPECT_NEAR(s, 0.05 / std::sqrt(4.0 / 3.0), 1.01e-5);
  for (Real v : q.sig) EXPECT_EQ(v, 0);
  // FS 0 is refused at its field
  std::string mesh = cube_mesh();
  mesh.replace(mesh.find("*MAT_ELASTIC"), std::string::npos, card058(0));
  EXPECT_NE(read_error(deck(mesh + termination())).find("FS = 0"), std::string::npos);
}

namespace {

constexpr Real kAlph = 1e-7; // MPa^-3: a visibly nonlinear shear below SC = 80

std::string card022(Real alph) {
  std::string c = fmt::format("*MAT_COMPOSITE_DAMAGE\n{:10d}{:10.3e}{:10.1f}{:10.1f}{:10.1f}"
                              "{:10.4f}\n{:10.1f}\n\n\n",
                              1, 1.5e-9, kEa, kEb, kEb, kPrba, kGab);
  c += fmt::format("{:10.1f}{:10.1f}{:10.1f}{:10.1f}{:10.3e}\n", kSc, kXt, kYt, kYc, alph);
  return c;
}

} // namespace

// *MAT_022: the shear follows gamma = tau / G + ALPH tau^3; fibre
// breakage with shear fails the layer where (sigma_a / XT)^2 + tau_bar = 1; matrix cracking in
// tension at YT; Chang-Chang's compression criterion; the flags and the lost stiffnesses.
TEST(Mat022, NonlinearShearAndTheThreeModes) {
  const MaterialParams m = params_of(card022(kAlph));
  Point s;
  for (int k = 1; k <= 400; ++k) {
    s.step(m, 0, 0, 1e-5);
    const Real tau = s.sig[2], g = k * 1e-5;
    ASSERT_NEAR(tau / kGab + kAlph * tau * tau * tau, g, 1e-12) << "gamma " << g;
  }
  EXPECT_LT(s.sig[2], kGab * 4e-3 * 0.99); // softer than linear
  // fibre breakage on (eps_a, 0, gamma = 2 eps_a), linear shear (ALPH 0): closed form
  const MaterialParams lin = params_of(card022(0));
  const Real h = 1e-7;
  const Real ef = 1 / std::hypot(q11() / kXt, kGab * 2 / kSc);
  Point f;
  Real at = -1;
  for (Real e = h; e < 0.05; e += h) {
    f.step(lin, h, 0, 2 * h);
    if (lin.failed(f.eps_p)) {
      at = e;
      break;
    }
  }
  // (eps_b = 0: sigma_a = Q11 eps_a, tau = G gamma)
  EXPECT_NEAR(at, ef, 1.01 * h);
  for (Real v : f.sig) EXPECT_EQ(v, 0);
  // matrix cracking in tension: at Q22 eps_b = YT; then sigma_b and tau are held at zero
  Point c;
  int steps = 0;
  while (!(static_cast<int>(c.eps_p) & 2) && steps < 1000000) {
    c.step(lin, 0, h, 0);
    ++steps;
  }
  EXPECT_NEAR(steps * h, kYt / q22(), 1.01 * h);
  c.step(lin, 0, 1e-4, 1e-4);
  EXPECT_EQ(c.sig[1], 0);
  EXPECT_EQ(c.sig[2], 0);
  // compression with shear (gamma = |eps_b|): the 054 CRIT 54 compression criterion
  const Real a = std::pow(q22() / (2 * kSc), 2) + std::pow(kGab / kSc, 2);
  const Real b = -(std::pow(kYc / (2 * kSc), 2) - 1) * q22() / kYc;
  const Real ec = (-b + std::sqrt(b * b + 4 * a)) / (2 * a);
  Point q;
  steps = 0;
  while (!(static_cast<int>(q.eps_p) & 4) && steps < 1000000) {
    q.step(lin, 0, -h, h);
    ++steps;
  }
  EXPECT_NEAR(steps * h, ec, 1.01 * h);
  EXPECT_EQ(q.sig[1], 0);
  EXPECT_GT(q.sig[2], 0); // the shear modulus stays
}
