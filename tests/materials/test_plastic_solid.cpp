// *MAT_003 solid stress update: radial return with mixed linear hardening, Cowper-Symonds.
// For paths whose deviatoric direction is fixed (uniaxial strain, uniaxial stress, simple shear)
// the radial return with linear hardening is exact whatever the step size, so the references
// are exact closed forms; tolerance 1e-10 relative (round-off accumulated over up to a few
// hundred steps, and the uniaxial-stress driver's lateral-stress tolerance of 1e-14 * scale).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "mat_test_util.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {
constexpr Real kRel = 1e-10;
const Real kG = kE / (2 * (1 + kNu));
const Real kK = kE / (3 * (1 - 2 * kNu));
const Real kLam = kE * kNu / ((1 + kNu) * (1 - 2 * kNu));
const Real kEp = kE * kEt / (kE - kEt);

/// Drive uniaxial strain [d, 0, 0] in n steps of dt.
void uniaxial_strain(const MaterialParams& m, Real d, int n, Real dt, Real sig[6], Real back[6],
                     Real& ep) {
  const Real deps[6] = {d, 0, 0, 0, 0, 0};
  for (int i = 0; i < n; ++i) update_stress_solid(m, deps, dt, sig, back, ep);
}
} // namespace

TEST(Mat003Solid, UniaxialStrainIsotropic) {
  const MaterialParams m = params(mat003_card(1));
  // yield when sigma_xx - sigma_yy = 2G eps = sigy
  const Real ey = kSigy / (2 * kG);
  {
    Real sig[6] = {}, back[6] = {}, ep = 0;
    uniaxial_strain(m, ey, 1, 1e-6, sig, back, ep);
    EXPECT_NEAR(sig[0], (kLam + 2 * kG) * ey, kRel * kSigy);
    EXPECT_NEAR(sig[1], kLam * ey, kRel * kSigy);
    EXPECT_NEAR(ep, 0.0, 1e-14);
  }
  // beyond: eps_p = (2G eps - sigy)/(3G + Ep), q = sigy + Ep eps_p, p = K eps
  Real sig[6] = {}, back[6] = {}, ep = 0;
  Real eps = 0;
  for (Real target : {0.003, 0.008, 0.02}) { // eps_y = 1.625e-3
    const int n = 37;
    uniaxial_strain(m, (target - eps) / n, n, 1e-6, sig, back, ep);
    eps = target;
    const Real epr = (2 * kG * eps - kSigy) / (3 * kG + kEp);
    const Real q = kSigy + kEp * epr, p = kK * eps;
    EXPECT_NEAR(ep, epr, kRel * epr) << eps;
    EXPECT_NEAR(sig[0], p + 2.0 / 3.0 * q, kRel * std::abs(sig[0]));
    EXPECT_NEAR(sig[1], p - 1.0 / 3.0 * q, kRel * std::abs(sig[0]));
    EXPECT_NEAR(sig[2], p - 1.0 / 3.0 * q, kRel * std::abs(sig[0]));
    EXPECT_NEAR(yield_stress(m, ep, 0), q, kRel * q);
  }
}

TEST(Mat003Solid, UniaxialStressIsotropicLoadUnload) {
  const MaterialParams m = params(mat003_card(1));
  SolidUniaxial pt(m);
  // elastic: sigma = E eps; lateral increment -nu d
  pt.go(0.5 * kSigy / kE, 3);
  EXPECT_NEAR(pt.sig[0], 0.5 * kSigy, kRel * kSigy);
  EXPECT_NEAR(pt.lat, -kNu * pt.eps / 3, 1e-9 * pt.eps);
  EXPECT_EQ(pt.eps_p, 0.0);
  for (Real target : {0.002, 0.01, 0.05}) {
    pt.go(target, 40);
    const Real s = bilinear_stress(target); // sigy + Et (eps - sigy/E)
    EXPECT_NEAR(pt.sig[0], s, kRel * s) << target;
    EXPECT_NEAR(pt.sig[1], 0.0, 1e-12 * s);
    EXPECT_NEAR(pt.sig[2], 0.0, 1e-12 * s);
    // eps_p = eps - sigma/E
    EXPECT_NEAR(pt.eps_p, target - s / kE, kRel * pt.eps_p);
  }
  // a plastic step: lateral increment = elastic (-nu dsig/E) + plastic (-dep/2)
  {
    const Real d = 1e-4;
    pt.step(d);
    const Real dsig = kEt * d, dep = d - dsig / kE;
    EXPECT_NEAR(pt.dep, dep, kRel * dep);
    EXPECT_NEAR(pt.lat, -kNu * dsig / kE - 0.5 * dep, kRel * d);
  }
  // tangent slope Et in the plastic range
  const Real s0 = pt.sig[0];
  pt.go(pt.eps + 0.01, 10);
  EXPECT_NEAR((pt.sig[0] - s0) / 0.01, kEt, 1e-8 * kEt);
  // unloading is elastic with slope E; eps_p frozen
  const Real ep0 = pt.eps_p, s1 = pt.sig[0];
  pt.go(pt.eps - 1.5 * kSigy / kE, 7);
  EXPECT_NEAR(pt.sig[0], s1 - 1.5 * kSigy, kRel * s1);
  EXPECT_EQ(pt.eps_p, ep0);
}

namespace {
/// Uniaxial stress: load to eps1, then reverse. Returns (sigma_max, eps_p at eps1) and checks
/// the reverse path against: elastic until sigma_max - 2 R1, then slope Et, where R1 is the yield
/// radius at eps1 (beta-weighted) and the back stress alpha1 = (1-beta) Ep eps_p1.
void reverse_test(Real beta) {
  const MaterialParams m = params(mat003_card(beta));
  SolidUniaxial pt(m);
  const Real eps1 = 0.01;
  pt.go(eps1, 100);
  const Real smax = bilinear_stress(eps1);
  const Real ep1 = eps1 - smax / kE;
  ASSERT_NEAR(pt.sig[0], smax, kRel * smax);
  const Real r1 = kSigy + beta * kEp * ep1; // current radius
  const Real a1 = (1 - beta) * kEp * ep1;   // uniaxial back stress (alpha_xx - alpha_yy)
  ASSERT_NEAR(smax, a1 + r1, 1e-12 * smax); // consistency of the hand formulas
  // back stress is deviatoric: alpha_xx = 2/3 a1, alpha_yy = alpha_zz = -1/3 a1
  EXPECT_NEAR(pt.back[0], 2.0 / 3.0 * a1, kRel * smax);
  EXPECT_NEAR(pt.back[1], -1.0 / 3.0 * a1, kRel * smax);
  // reverse elastically almost to the reverse yield point a1 - r1 = smax - 2 r1
  const Real dre = 2 * r1 / kE;
  pt.go(eps1 - 0.999 * dre, 9);
  EXPECT_NEAR(pt.sig[0], smax - 0.999 * 2 * r1, kRel * smax);
  EXPECT_NEAR(pt.eps_p, ep1, kRel * ep1);
  // past the reverse yield point by 0.005: sigma = smax - 2 r1 - Et 0.005
  pt.go(eps1 - dre - 0.005, 50);
  const Real s = smax - 2 * r1 - kEt * 0.005;
  EXPECT_NEAR(pt.sig[0], s, kRel * std::abs(s)) << "beta " << beta;
  EXPECT_NEAR(pt.eps_p, ep1 + 0.005 * (1 - kEt / kE), kRel * ep1);
}
} // namespace

TEST(Mat003Solid, KinematicBauschinger) {
  // beta = 0: reverse yield at sigma_max - 2 sigy
  reverse_test(0.0);
}

TEST(Mat003Solid, IsotropicReverseYieldAtMinusSigmaMax) {
  reverse_test(1.0);
}

TEST(Mat003Solid, MixedHardening) {
  reverse_test(0.4);
}

TEST(Mat003Solid, KinematicReverseYieldValue) {
  // Explicit numbers for beta = 0 (independent of the helper's algebra):
  // eps1 = 0.01: sigma_max = 250e6 + 2.2e9 (0.01 - 1.25e-3) = 269.25e6,
  // reverse yield at 269.25e6 - 500e6 = -230.75e6.
  const MaterialParams m = params(mat003_card(0.0));
  SolidUniaxial pt(m);
  pt.go(0.01, 50);
  EXPECT_NEAR(pt.sig[0], 269.25e6, 1e-10 * 269.25e6);
  const Real ep1 = pt.eps_p;
  // just before: elastic (reverse strain 499.9e6/E)
  pt.go(0.01 - 499.9e6 / kE, 10);
  EXPECT_NEAR(pt.sig[0], 269.25e6 - 499.9e6, 1e-9 * 269.25e6);
  EXPECT_EQ(pt.eps_p, ep1);
  // just after (reverse strain 500.1e6/E): plastic again at about -230.75e6
  pt.go(0.01 - 500.1e6 / kE, 1);
  EXPECT_GT(pt.eps_p, ep1);
  EXPECT_NEAR(pt.sig[0], -230.75e6 - kEt * 0.1e6 / kE, 1e-9 * 269.25e6);
}

TEST(Mat003Solid, CowperSymondsUniaxialStrain) {
  // Steel: C = 40.4 /s, P = 5. Uniaxial strain [d,0,0] per dt: effective strain rate
  // sqrt(2/3 e:e)/dt with e = d (2/3, -1/3, -1/3): rate = 2/3 d/dt.
  Material c = mat003_card(1);
  c.src = 40.4;
  c.srp = 5;
  const MaterialParams m = params(c);
  const Real dt = 1e-6, d = 1.5e-4; // d/dt = 150 /s -> rate 100 /s
  const Real s = 1 + std::pow(100.0 / 40.4, 1.0 / 5.0);
  EXPECT_NEAR(s, 2.1987, 1e-4); // (100/40.4)^0.2 = 1.1987: yield more than doubles
  Real sig[6] = {}, back[6] = {}, ep = 0;
  const int n = 200;
  uniaxial_strain(m, d, n, dt, sig, back, ep);
  const Real eps = n * d;
  // q = S (sigy + Ep eps_p) and q = 2G (eps - 3/2 eps_p)
  const Real epr = (2 * kG * eps - s * kSigy) / (3 * kG + s * kEp);
  EXPECT_NEAR(ep, epr, kRel * epr);
  EXPECT_NEAR(sig[0] - sig[1], s * (kSigy + kEp * epr), kRel * sig[0]);
  EXPECT_NEAR(yield_stress(m, ep, 100.0), sig[0] - sig[1], kRel * sig[0]);

  // the same path with rates 10x higher: different scale factor
  const Real s10 = 1 + std::pow(1000.0 / 40.4, 1.0 / 5.0);
  Real sig2[6] = {}, back2[6] = {}, ep2 = 0;
  uniaxial_strain(m, d, n, dt / 10, sig2, back2, ep2);
  const Real epr2 = (2 * kG * eps - s10 * kSigy) / (3 * kG + s10 * kEp);
  EXPECT_NEAR(ep2, epr2, kRel * epr2);
}

TEST(Mat003Solid, SimpleShearPlastic) {
  // tau = G (gamma - gamma_p), von Mises: sqrt(3) tau = sigy + Ep eps_p, eps_p = gamma_p/sqrt(3)
  // -> gamma_p = (sqrt(3) G gamma - sigy) / (sqrt(3) G + Ep/sqrt(3))
  const MaterialParams m = params(mat003_card(1));
  Real sig[6] = {}, back[6] = {}, ep = 0;
  const Real dg = 1e-4;
  const int n = 150;
  const Real deps[6] = {0, 0, 0, 0, dg, 0};
  for (int i = 0; i < n; ++i) update_stress_solid(m, deps, 1e-6, sig, back, ep);
  const Real gam = n * dg, r3 = std::sqrt(3.0);
  const Real gp = (r3 * kG * gam - kSigy) / (r3 * kG + kEp / r3);
  EXPECT_NEAR(sig[4], kG * (gam - gp), kRel * sig[4]);
  EXPECT_NEAR(ep, gp / r3, kRel * ep);
  for (int i : {0, 1, 2, 3, 5}) EXPECT_NEAR(sig[i], 0.0, 1e-12 * sig[4]);
}

TEST(Mat003Solid, RandomPathInvariants) {
  // Any path: pressure stays K tr(eps) (plastic incompressibility), the back stress stays
  // deviatoric, and after every plastic step the point is on the yield surface
  // |s - alpha|_vM = sigy + beta Ep eps_p (1e-12 relative: one Newton step on a linear equation).
  const Real beta = 0.3;
  const MaterialParams m = params(mat003_card(beta));
  std::mt19937 gen(7);
  std::uniform_real_distribution<Real> u(-1.0, 1.0);
  Real sig[6] = {}, back[6] = {}, ep = 0, tr = 0;
  int plastic = 0;
  for (int step = 0; step < 400; ++step) {
    Real d[6];
    for (Real& x : d) x = 4e-4 * u(gen);
    tr += d[0] + d[1] + d[2];
    const Real dep = update_stress_solid(m, d, 1e-6, sig, back, ep);
    EXPECT_GE(dep, 0.0);
    const Real p = (sig[0] + sig[1] + sig[2]) / 3;
    EXPECT_NEAR(p, kK * tr, 1e-12 * (std::abs(p) + kSigy));
    EXPECT_NEAR(back[0] + back[1] + back[2], 0.0, 1e-12 * kSigy);
    const Real r = kSigy + beta * kEp * ep;
    if (dep > 0) {
      ++plastic;
      EXPECT_NEAR(mises(sig, back), r, 1e-12 * r);
    } else {
      EXPECT_LE(mises(sig, back), r * (1 + 1e-12));
    }
  }
  EXPECT_GT(plastic, 100);
}
