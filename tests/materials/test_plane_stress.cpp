// Shell (plane-stress) update: sigma_zz = 0 by iterating deps_zz around the 3-D radial return.
// Checks: hand formulas for uniaxial/equibiaxial paths (1e-10 relative, exact algebra over many
// steps), the yield condition after every plastic step (1e-12: the returned state is on the
// surface to round-off), the volumetric identity tr(deps) = (1-2nu)/E tr(dsig) which holds for
// any step because plastic flow is incompressible (1e-10 of the increment), and agreement with
// the solid routine driven to uniaxial stress (1e-9: two independent iterations, each
// converged to ~1e-14).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "mat_test_util.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {
constexpr Real kRel = 1e-10;
const Real kG = kE / (2 * (1 + kNu));
const Real kEp = kE * kEt / (kE - kEt);

/// von Mises of the in-plane state (sigma_zz = 0) relative to the in-plane back stress.
Real mises_ps(const Real s[5], const Real b[3]) {
  const Real s6[6] = {s[0], s[1], 0, s[2], 0, 0};
  const Real b6[6] = {b[0], b[1], -(b[0] + b[1]), b[2], 0, 0};
  return mises(s6, b6);
}
} // namespace

TEST(PlaneStress, UniaxialStressMat003) {
  const MaterialParams m = params(mat003_card(1));
  ShellUniaxial pt(m);
  pt.step(0.5 * kSigy / kE);
  EXPECT_NEAR(pt.sig[0], 0.5 * kSigy, kRel * kSigy);
  // elastic: deps_yy = deps_zz = -nu deps_xx
  EXPECT_NEAR(pt.dzz, -kNu * 0.5 * kSigy / kE, 1e-12 * kSigy / kE);
  EXPECT_NEAR(pt.dyy, -kNu * 0.5 * kSigy / kE, 1e-9 * kSigy / kE);
  for (Real target : {0.002, 0.01, 0.08}) {
    pt.go(target, 25);
    const Real s = bilinear_stress(target);
    EXPECT_NEAR(pt.sig[0], s, kRel * s) << target;
    EXPECT_NEAR(pt.eps_p, target - s / kE, kRel * pt.eps_p);
    // transverse isotropy of uniaxial stress: deps_zz = deps_yy
    EXPECT_NEAR(pt.dzz, pt.dyy, 1e-9 * std::abs(pt.dyy));
  }
  // unloading: elastic slope E, eps_p frozen, deps_zz back to -nu deps_xx
  const Real ep0 = pt.eps_p, s0 = pt.sig[0];
  pt.go(pt.eps - kSigy / kE, 4);
  EXPECT_NEAR(pt.sig[0], s0 - kSigy, kRel * s0);
  EXPECT_EQ(pt.eps_p, ep0);
  EXPECT_NEAR(pt.dzz, kNu * kSigy / kE / 4, 1e-9 * kSigy / kE);
}

TEST(PlaneStress, EquibiaxialPerfectPlasticityIsIncompressible) {
  // Equibiaxial stretch, Et = 0: once yielded the stress stays sigma_xx = sigma_yy = sigy, so
  // each further increment is purely plastic and deps_zz = -(dxx + dyy) = -2 d.
  const MaterialParams m = params(mat003_card(1, kSigy, 0.0));
  Real sig[5] = {}, back[3] = {}, ep = 0, dzz = 0;
  const Real d = 2e-4;
  const Real deps[5] = {d, d, 0, 0, 0};
  // elastic range: sigma = E/(1-nu) eps; yield at sigy (1-nu)/E
  update_stress_shell(m, deps, 1e-6, sig, back, ep, dzz);
  EXPECT_NEAR(sig[0], kE / (1 - kNu) * d, kRel * sig[0]);
  EXPECT_NEAR(dzz, -2 * kNu / (1 - kNu) * d, 1e-12 * d);
  for (int i = 0; i < 100; ++i) update_stress_shell(m, deps, 1e-6, sig, back, ep, dzz);
  EXPECT_NEAR(sig[0], kSigy, 1e-12 * kSigy);
  EXPECT_NEAR(sig[1], kSigy, 1e-12 * kSigy);
  EXPECT_NEAR(dzz, -2 * d, 1e-10 * d);
  // equibiaxial: eps_p = eps_xx^p + eps_yy^p (|eps_zz^p|), eps^p_xx = eps - sigy (1-nu)/E
  EXPECT_NEAR(ep, 2 * (101 * d - kSigy * (1 - kNu) / kE), kRel * ep);
}

TEST(PlaneStress, EquibiaxialCowperSymondsRate) {
  // Shell strain rate: in-plane increment with deps_zz = -(dxx + dyy): equibiaxial d ->
  // e = d (1, 1, -2), rate = sqrt(2/3 * 6) d/dt = 2 d/dt. Perfect plasticity: sigma = S sigy.
  Material c = mat003_card(1, kSigy, 0.0);
  c.src = 40.4;
  c.srp = 5;
  const MaterialParams m = params(c);
  const Real dt = 1e-6, d = 1e-4; // rate 200 /s
  Real sig[5] = {}, back[3] = {}, ep = 0, dzz = 0;
  const Real deps[5] = {d, d, 0, 0, 0};
  for (int i = 0; i < 60; ++i) update_stress_shell(m, deps, dt, sig, back, ep, dzz);
  const Real s = 1 + std::pow(200 / 40.4, 0.2);
  EXPECT_NEAR(sig[0], s * kSigy, 1e-12 * kSigy);
  EXPECT_NEAR(sig[1], s * kSigy, 1e-12 * kSigy);
}

TEST(PlaneStress, ConsistentWithSolidUniaxialStress) {
  // Same uniaxial-stress strain history through both routines (lateral stresses iterated to
  // zero for the solid): stress, plastic strain and lateral strain increments agree.
  for (Real beta : {0.0, 1.0}) {
    const MaterialParams m = params(mat003_card(beta));
    SolidUniaxial so(m);
    ShellUniaxial sh(m);
    const Real d = 2.5e-4;
    for (int step = 0; step < 120; ++step) {
      const Real dx = step < 80 ? d : -d; // load, then reverse into compression
      so.step(dx);
      sh.step(dx);
      const Real scale = kSigy;
      ASSERT_NEAR(sh.sig[0], so.sig[0], 1e-9 * scale) << step;
      ASSERT_NEAR(sh.eps_p, so.eps_p, 1e-9 * (so.eps_p + 1e-6)) << step;
      ASSERT_NEAR(sh.dyy, so.lat, 1e-8 * d) << step;
      ASSERT_NEAR(sh.dzz, so.lat, 1e-8 * d) << step;
      ASSERT_NEAR(sh.back[0], so.back[0], 1e-9 * scale) << step;
    }
  }
}

TEST(PlaneStress, RandomPathsYieldSurfaceAndVolume) {
  Model model;
  model.curves.push_back(make_curve(5, {0, 0.05, 0.1, 0.2}, {200e6, 300e6, 350e6, 380e6}));
  Material t = mat024_card();
  t.lcss = 5;
  const MaterialParams cases[] = {params(mat003_card(0.0)), params(mat003_card(0.5)),
                                  params(mat003_card(1.0)), params(t, model)};
  std::mt19937 gen(11);
  std::uniform_real_distribution<Real> u(-1.0, 1.0);
  for (const MaterialParams& m : cases) {
    Real sig[5] = {}, back[3] = {}, ep = 0, dzz = 0;
    int plastic = 0;
    for (int step = 0; step < 300; ++step) {
      Real d[5];
      for (Real& x : d) x = 1e-3 * u(gen);
      const Real s0 = sig[0] + sig[1];
      const Real ep0 = ep;
      const Real dep = update_stress_shell(m, d, 1e-6, sig, back, ep, dzz);
      EXPECT_GE(dep, 0.0);
      EXPECT_EQ(ep, ep0 + dep);
      // incompressible plastic flow: dxx + dyy + dzz = (1 - 2 nu)/E (dsig_xx + dsig_yy)
      EXPECT_NEAR(d[0] + d[1] + dzz, (1 - 2 * kNu) / kE * (sig[0] + sig[1] - s0), 1e-10 * 1e-3);
      const Real r = yield_stress(m, ep, 0);
      const Real b3[3] = {back[0], back[1], back[2]};
      if (dep > 0) {
        ++plastic;
        // radius for mixed hardening: sigy + beta Ep eps_p (yield_stress returns it)
        EXPECT_NEAR(mises_ps(sig, b3), r, 1e-12 * r) << step;
      } else {
        EXPECT_LE(mises_ps(sig, b3), r * (1 + 1e-12));
      }
    }
    EXPECT_GT(plastic, 50);
  }
}

TEST(PlaneStress, TransverseShearElasticAndDecoupled) {
  // Transverse shear is elastic (sig += G gamma) and does not enter the in-plane yield.
  const MaterialParams m = params(mat003_card(1));
  Real a[5] = {}, b[5] = {}, ba[3] = {}, bb[3] = {}, ea = 0, eb = 0, za = 0, zb = 0;
  const Real d1[5] = {1e-3, -2e-4, 5e-4, 0, 0};
  const Real d2[5] = {1e-3, -2e-4, 5e-4, 3e-2, -2e-2}; // huge transverse shear
  for (int i = 0; i < 5; ++i) {
    update_stress_shell(m, d1, 1e-6, a, ba, ea, za);
    update_stress_shell(m, d2, 1e-6, b, bb, eb, zb);
  }
  EXPECT_GT(ea, 0.0);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(a[i], b[i]);
  EXPECT_EQ(ea, eb);
  EXPECT_EQ(za, zb);
  EXPECT_NEAR(b[3], 5 * kG * 3e-2, 1e-12 * kG * 0.15);
  EXPECT_NEAR(b[4], -5 * kG * 2e-2, 1e-12 * kG * 0.1);
}

TEST(PlaneStress, KinematicShellBauschinger) {
  // beta = 0 in the shell: reverse yield at sigma_max - 2 sigy (uniaxial stress)
  const MaterialParams m = params(mat003_card(0.0));
  ShellUniaxial pt(m);
  pt.go(0.01, 40);
  const Real smax = bilinear_stress(0.01);
  ASSERT_NEAR(pt.sig[0], smax, kRel * smax);
  const Real ep1 = pt.eps_p;
  // back stress in-plane: alpha_xx = 2/3 Ep eps_p, alpha_yy = -1/3 Ep eps_p
  EXPECT_NEAR(pt.back[0], 2.0 / 3.0 * kEp * ep1, kRel * smax);
  EXPECT_NEAR(pt.back[1], -1.0 / 3.0 * kEp * ep1, kRel * smax);
  pt.go(0.01 - 0.999 * 2 * kSigy / kE, 5);
  EXPECT_EQ(pt.eps_p, ep1);
  pt.go(0.01 - 2 * kSigy / kE - 0.004, 20);
  const Real s = smax - 2 * kSigy - kEt * 0.004;
  EXPECT_NEAR(pt.sig[0], s, kRel * std::abs(s));
}

TEST(PlaneStress, ShellMatchesSolidForGivenThicknessStrain) {
  // A general in-plane plastic step: feeding the shell's deps_zz to the solid routine (from the
  // same state with sigma_zz = 0) reproduces the in-plane stress with sigma_zz = 0.
  const MaterialParams m = params(mat003_card(0.5));
  Real sh[5] = {120e6, -40e6, 60e6, 0, 0}, bsh[3] = {10e6, -3e6, 4e6}, esh = 0.01, dzz = 0;
  Real so[6] = {sh[0], sh[1], 0, sh[2], 0, 0};
  Real bso[6] = {bsh[0], bsh[1], -(bsh[0] + bsh[1]), bsh[2], 0, 0};
  Real eso = esh;
  const Real d[5] = {8e-4, 3e-4, -6e-4, 0, 0};
  const Real dep = update_stress_shell(m, d, 1e-6, sh, bsh, esh, dzz);
  ASSERT_GT(dep, 0.0);
  const Real d6[6] = {d[0], d[1], dzz, d[2], 0, 0};
  update_stress_solid(m, d6, 1e-6, so, bso, eso);
  EXPECT_NEAR(so[2], 0.0, 1e-12 * kSigy);
  EXPECT_NEAR(so[0], sh[0], 1e-12 * kSigy);
  EXPECT_NEAR(so[1], sh[1], 1e-12 * kSigy);
  EXPECT_NEAR(so[3], sh[2], 1e-12 * kSigy);
  EXPECT_NEAR(eso, esh, 1e-14);
}
