// Shell (plane-stress) update: sigma_zz = 0 by iterating deps_zz around the 3-D radial return.
// Checks: hand formulas for uniaxial/equibiaxial paths (1e-10 relative, exact algebra over many
// steps), the yield condition after every plastic step (1e-12: the returned state is on the
// surface to round-off), the volumetric identity tr(deps) = (1-2nu)/E tr(dsig) which holds for
// any step because plastic flow is incompressible (1e-10 of the increment), and agreement with
// the solid routine driven to uniaxial stress (1e-9: two independent iterations, each
// converged to ~1e-14).
#include <gtest/gtest.h>

#include <algorithm>
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

// ------------------------------------------------------------------------------------------
// Direct plane-stress return map (linear hardening): update_stress_shell takes it for the
// materials shell_direct_return accepts; update_stress_shell_iterated is the general routine
// (deps_zz iterated around the 3-D radial return). Tolerances: both solve the same backward-
// Euler problem, the direct one to a yield residual < 5e-13 of R (Newton stopped at 1e-6, last
// step applied) with sigma_zz = 0 exactly, the iterated one with sigma_zz ~1e-14 of the stress
// scale; they must agree to 1e-10 of the stress scale (stress, back stress) and of the strain
// increment (plastic strain, thickness strain).

namespace {

/// A random admissible in-plane state (inside or on the yield surface of m at eps_p, relative to
/// the back stress) and a random increment of magnitude mag (in-plane and transverse shear).
struct RandomPoint {
  Real sig[5], back[3], eps_p;
  Real d[5];
};

RandomPoint random_point(const MaterialParams& m, std::mt19937& gen, Real mag, bool kinematic) {
  std::uniform_real_distribution<Real> u(-1.0, 1.0);
  RandomPoint r{};
  r.eps_p = 0.05 * (u(gen) + 1.0);
  if (kinematic)
    for (Real& b : r.back) b = 0.4 * kSigy * u(gen);
  Real rel[3] = {u(gen), u(gen), 0.5 * u(gen)};
  const Real s5[5] = {rel[0], rel[1], rel[2], 0, 0};
  const Real zero3[3] = {0, 0, 0};
  const Real q = mises_ps(s5, zero3);
  // on the surface in a quarter of the cases, inside otherwise
  const Real radius = m.plastic() ? yield_stress(m, r.eps_p, 0) : kSigy;
  const Real f = (u(gen) > 0.5 ? 1.0 : 0.5 * (u(gen) + 1.0)) * radius / q;
  // sigma = beta + eta with beta the plane-stress representative of alpha (beta_11 = 2 alpha_11
  // + alpha_22, beta_22 = 2 alpha_22 + alpha_11, beta_12 = alpha_12): dev(sigma) - alpha =
  // dev(eta), so the state is on / inside the surface
  r.sig[0] = 2 * r.back[0] + r.back[1] + f * rel[0];
  r.sig[1] = 2 * r.back[1] + r.back[0] + f * rel[1];
  r.sig[2] = r.back[2] + f * rel[2];
  r.sig[3] = 0.1 * kSigy * u(gen);
  r.sig[4] = 0.1 * kSigy * u(gen);
  for (Real& x : r.d) x = mag * u(gen);
  return r;
}

/// update_stress_shell against update_stress_shell_iterated from the random point r: stress,
/// back stress, plastic and thickness strain increments agree to 1e-10 of their scales; the
/// worst relative differences are kept in worst; sa, ba, ea, da: the direct update's result.
struct Agreement {
  Real worst_s = 0, worst_ep = 0, worst_z = 0;
  int n = 0, plastic = 0;
};

void compare_with_iterated(const MaterialParams& m, const RandomPoint& r, Real dt, Agreement& a,
                           Real sa[5], Real ba[3], Real& ea, Real& da, Real& db) {
  Real sb[5], bb[3];
  for (int i = 0; i < 5; ++i) sa[i] = sb[i] = r.sig[i];
  for (int i = 0; i < 3; ++i) ba[i] = bb[i] = r.back[i];
  ea = r.eps_p;
  Real eb = r.eps_p, za = 0, zb = 0;
  da = update_stress_shell(m, r.d, dt, sa, ba, ea, za);
  db = update_stress_shell_iterated(m, r.d, dt, sb, bb, eb, zb);
  ++a.n;
  if (db > 0) ++a.plastic;
  const Real sscale = kSigy + std::abs(r.sig[0]) + std::abs(r.sig[1]) + std::abs(r.sig[2]) +
                      kE * (std::abs(r.d[0]) + std::abs(r.d[1]) + std::abs(r.d[2]));
  const Real dscale = std::abs(r.d[0]) + std::abs(r.d[1]) + std::abs(r.d[2]);
  for (int i = 0; i < 5; ++i) {
    ASSERT_NEAR(sa[i], sb[i], 1e-10 * sscale) << i;
    a.worst_s = std::max(a.worst_s, std::abs(sa[i] - sb[i]) / sscale);
  }
  for (int i = 0; i < 3; ++i) ASSERT_NEAR(ba[i], bb[i], 1e-10 * sscale) << i;
  ASSERT_NEAR(da, db, 1e-10 * dscale);
  ASSERT_NEAR(ea, eb, 1e-10 * dscale);
  ASSERT_EQ(ea, r.eps_p + da);
  ASSERT_NEAR(za, zb, 1e-10 * dscale);
  a.worst_ep = std::max(a.worst_ep, std::abs(da - db) / dscale);
  a.worst_z = std::max(a.worst_z, std::abs(za - zb) / dscale);
}

} // namespace

TEST(PlaneStressDirect, DispatchCoversLinearHardeningOnly) {
  Model model;
  model.curves.push_back(make_curve(5, {0, 0.05, 0.1, 0.2}, {200e6, 300e6, 350e6, 380e6}));
  model.curves.push_back(make_curve(6, {0, 100, 1000}, {1.0, 1.5, 2.0}));
  EXPECT_TRUE(shell_direct_return(params(elastic_card())));
  EXPECT_TRUE(shell_direct_return(params(mat003_card(0.0))));
  EXPECT_TRUE(shell_direct_return(params(mat003_card(0.5))));
  Material cs = mat003_card(1.0);
  cs.src = 40.4;
  cs.srp = 5;
  EXPECT_TRUE(shell_direct_return(params(cs))); // rate factor fixed over the step
  EXPECT_TRUE(shell_direct_return(params(mat024_card())));
  Material lcsr = mat024_card();
  lcsr.lcsr = 6;
  EXPECT_TRUE(shell_direct_return(params(lcsr, model)));
  Material lcss = mat024_card();
  lcss.lcss = 5;
  EXPECT_FALSE(shell_direct_return(params(lcss, model))); // tabulated hardening
  Material vp = mat024_card();
  vp.src = 40.4;
  vp.srp = 5;
  vp.vp = 1;
  EXPECT_FALSE(shell_direct_return(params(vp))); // viscoplastic rate: implicit in the increment
  vp.src = 0;
  vp.srp = 0;
  EXPECT_TRUE(shell_direct_return(params(vp))); // VP = 1 without rate effect: linear
}

TEST(PlaneStressDirect, MatchesIteratedReturnOnRandomStates) {
  Material cs = mat003_card(0.3);
  cs.src = 40.4;
  cs.srp = 5;
  Material cs024 = mat024_card();
  cs024.src = 100;
  cs024.srp = 4;
  const MaterialParams cases[] = {params(mat003_card(1.0)),
                                  params(mat003_card(0.0)),
                                  params(mat003_card(0.3)),
                                  params(mat003_card(1.0, kSigy, 0.0)),
                                  params(cs),
                                  params(mat024_card()),
                                  params(cs024),
                                  params(elastic_card())};
  std::mt19937 gen(2024);
  Agreement agree;
  for (const MaterialParams& m : cases) {
    const bool kin = m.kind == MaterialKind::PlasticKinematic && m.beta < 1;
    for (Real mag : {1e-5, 1e-4, 1e-3, 1e-2}) {
      for (int k = 0; k < 400; ++k) {
        const RandomPoint r = random_point(m, gen, mag, kin);
        Real sa[5], ba[3], ea = 0, da = 0, db = 0;
        SCOPED_TRACE(testing::Message() << "mag " << mag << " k " << k);
        compare_with_iterated(m, r, 1e-6, agree, sa, ba, ea, da, db);
        if (testing::Test::HasFatalFailure()) return;
      }
    }
  }
  const int plastic = agree.plastic, n = agree.n;
  const Real worst_s = agree.worst_s, worst_ep = agree.worst_ep, worst_z = agree.worst_z;
  EXPECT_GT(plastic, n / 4);
  // Both are converged far below the test tolerance: the stresses agree to ~1e-13 of the
  // stress scale. The plastic increment's difference, ~R * (yield residual) / 3G absolute
  // (~1e-16 here), is up to ~1e-11 relative to the smallest increments (1e-5).
  EXPECT_LT(worst_s, 1e-12);
  EXPECT_LT(worst_ep, 5e-11);
  EXPECT_LT(worst_z, 5e-11);
}

TEST(PlaneStressDirect, YieldResidualAndExactPlaneStressOnLargeSteps) {
  // Steps up to 100 times the yield strain from random states: the returned state lies on the
  // yield surface to 1e-12 of R, and sigma_zz = 0 holds by construction (the thickness strain
  // is consistent with it: the 3-D solid routine fed with it gives sigma_zz ~ 0).
  const MaterialParams cases[] = {params(mat003_card(1.0)), params(mat003_card(0.0)),
                                  params(mat003_card(0.6)), params(mat003_card(1.0, kSigy, 0.0))};
  std::mt19937 gen(7);
  for (const MaterialParams& m : cases) {
    const bool kin = m.beta < 1;
    int plastic = 0;
    for (int k = 0; k < 2000; ++k) {
      const Real mag = std::pow(10.0, -5.0 + 4.0 * (k % 100) / 100.0);
      const RandomPoint r = random_point(m, gen, mag, kin);
      Real s[5], b[3];
      for (int i = 0; i < 5; ++i) s[i] = r.sig[i];
      for (int i = 0; i < 3; ++i) b[i] = r.back[i];
      Real ep = r.eps_p, dzz = 0;
      const Real dep = update_stress_shell(m, r.d, 1e-6, s, b, ep, dzz);
      const Real R = yield_stress(m, ep, 0);
      if (dep > 0) {
        ++plastic;
        ASSERT_NEAR(mises_ps(s, b), R, 1e-12 * R) << k;
        // the solid routine from the same state with this dzz: sigma_zz = 0
        Real s6[6] = {r.sig[0], r.sig[1], 0, r.sig[2], 0, 0};
        Real b6[6] = {r.back[0], r.back[1], -(r.back[0] + r.back[1]), r.back[2], 0, 0};
        Real e6 = r.eps_p;
        const Real d6[6] = {r.d[0], r.d[1], dzz, r.d[2], 0, 0};
        update_stress_solid(m, d6, 1e-6, s6, b6, e6);
        const Real scale = kSigy + kE * mag;
        ASSERT_NEAR(s6[2], 0.0, 1e-10 * scale) << k;
        ASSERT_NEAR(s6[0], s[0], 1e-10 * scale) << k;
        ASSERT_NEAR(s6[1], s[1], 1e-10 * scale) << k;
        ASSERT_NEAR(s6[3], s[2], 1e-10 * scale) << k;
      } else {
        ASSERT_LE(mises_ps(s, b), R * (1 + 1e-12));
      }
    }
    EXPECT_GT(plastic, 500);
  }
}

TEST(PlaneStressDirect, EquibiaxialHandFormula) {
  // Equibiaxial stretch, sigma_xx = sigma_yy = s (B = 0: psi is linear, the return exact):
  // monotonic proportional loading with linear hardening gives, for any beta,
  //   s = sigy + Ep eps_p,  s = E/(1 - nu) (eps - eps_p/2)  (eps^p_xx = eps^p_yy = eps_p/2)
  // => eps_p = (E/(1-nu) eps - sigy) / (Ep + E/(2(1-nu))); plastic thickness strain -eps_p.
  for (Real beta : {1.0, 0.0, 0.5}) {
    const MaterialParams m = params(mat003_card(beta));
    Real sig[5] = {}, back[3] = {}, ep = 0, dzz = 0, ezz = 0;
    const Real d = 1.7e-4;
    const Real deps[5] = {d, d, 0, 0, 0};
    const Real eb = kE / (1 - kNu);
    for (int i = 1; i <= 60; ++i) {
      update_stress_shell(m, deps, 1e-6, sig, back, ep, dzz);
      ezz += dzz;
      const Real eps = i * d;
      if (eb * eps <= kSigy) {
        EXPECT_NEAR(sig[0], eb * eps, 1e-12 * kSigy);
        EXPECT_EQ(ep, 0.0);
        continue;
      }
      const Real ep_h = (eb * eps - kSigy) / (kEp + kE / (2 * (1 - kNu)));
      const Real s_h = kSigy + kEp * ep_h;
      ASSERT_NEAR(sig[0], s_h, 1e-12 * s_h) << beta << " " << i;
      ASSERT_NEAR(sig[1], s_h, 1e-12 * s_h);
      ASSERT_NEAR(sig[2], 0.0, 1e-12 * s_h);
      ASSERT_NEAR(ep, ep_h, 1e-11 * ep_h);
      // thickness strain: elastic -2 nu s / E, plastic -eps_p
      ASSERT_NEAR(ezz, -2 * kNu * s_h / kE - ep_h, 1e-11 * std::abs(ezz));
      if (beta < 1) { // back stress (deviatoric): alpha_xx = alpha_yy = (1 - beta) Ep eps_p / 3
        ASSERT_NEAR(back[0], (1 - beta) * kEp * ep_h / 3, 1e-11 * s_h);
        ASSERT_NEAR(back[1], (1 - beta) * kEp * ep_h / 3, 1e-11 * s_h);
      }
    }
  }
}

TEST(PlaneStressDirect, PureShearHandFormula) {
  // In-plane shear gamma: tau = G (gamma - gamma_p), gamma_p = sqrt(3) eps_p,
  // sqrt(3) tau = sigy + Ep eps_p => eps_p = (sqrt(3) G gamma - sigy) / (3G + Ep); no thickness
  // change (A = 0: psi linear, the return exact).
  for (Real beta : {1.0, 0.0}) {
    const MaterialParams m = params(mat003_card(beta));
    Real sig[5] = {}, back[3] = {}, ep = 0, dzz = 0;
    const Real g = 2.3e-4;
    const Real deps[5] = {0, 0, g, 0, 0};
    const Real s3 = std::sqrt(3.0);
    for (int i = 1; i <= 60; ++i) {
      update_stress_shell(m, deps, 1e-6, sig, back, ep, dzz);
      const Real gam = i * g;
      ASSERT_NEAR(sig[0], 0.0, 1e-12 * kSigy);
      ASSERT_NEAR(sig[1], 0.0, 1e-12 * kSigy);
      ASSERT_NEAR(dzz, 0.0, 1e-14);
      if (s3 * kG * gam <= kSigy) {
        ASSERT_NEAR(sig[2], kG * gam, 1e-12 * kSigy);
        continue;
      }
      const Real ep_h = (s3 * kG * gam - kSigy) / (3 * kG + kEp);
      ASSERT_NEAR(ep, ep_h, 1e-11 * ep_h) << i;
      ASSERT_NEAR(sig[2], (kSigy + kEp * ep_h) / s3, 1e-12 * kSigy) << i;
    }
  }
}

TEST(PlaneStressDirect, UniaxialStressStepsHandFormula) {
  // Uniaxial stress along the bilinear curve: each step prescribes dxx and the lateral strain
  // of the hand solution, dyy = -nu/E dsigma - dep/2 (dep = dsigma/Ep once yielded). The direct
  // return must give sigma_yy = 0, the bilinear stress, and dzz = dyy (transverse isotropy).
  const MaterialParams m = params(mat003_card(1.0));
  Real sig[5] = {}, back[3] = {}, ep = 0, dzz = 0;
  Real eps = 0;
  const Real d = 1.0e-4;
  for (int i = 0; i < 200; ++i) {
    const Real s0 = bilinear_stress(eps), s1 = bilinear_stress(eps + d);
    const Real ep0 = eps - s0 / kE, ep1 = eps + d - s1 / kE; // plastic strain (0 while elastic)
    const Real dep = std::max(ep1, 0.0) - std::max(ep0, 0.0);
    const Real dyy = -kNu / kE * (s1 - s0) - 0.5 * dep;
    const Real deps[5] = {d, dyy, 0, 0, 0};
    update_stress_shell(m, deps, 1e-6, sig, back, ep, dzz);
    eps += d;
    ASSERT_NEAR(sig[0], s1, 1e-11 * s1) << i;
    ASSERT_NEAR(sig[1], 0.0, 1e-11 * s1) << i;
    ASSERT_NEAR(ep, std::max(ep1, 0.0), 1e-11 * (std::max(ep1, 0.0) + 1e-6)) << i;
    ASSERT_NEAR(dzz, dyy, 1e-11 * std::abs(dyy)) << i;
  }
  EXPECT_GT(ep, 0.01);
}

TEST(PlaneStressDirect, TabulatedHardeningMatchesIteratedReturn) {
  // *MAT_024 with an LCSS curve (the crash steels): update_stress_shell takes the direct return
  // one curve segment at a time (j2_return.cpp, tabulated_plane_stress_return); it must agree
  // with the iterated return to the tolerances above, also for increments that cross several
  // segments (mag up to 5e-2 against segments of 0.02-0.1), below the curve's first point
  // (constant yield stress), beyond its last (extrapolated), and with a Cowper-Symonds factor.
  Model model;
  model.curves.push_back(
      make_curve(5, {0.01, 0.03, 0.05, 0.08, 0.12, 0.2},
                 {kSigy, 1.3 * kSigy, 1.45 * kSigy, 1.6 * kSigy, 1.7 * kSigy, 1.75 * kSigy}));
  Material lcss = mat024_card();
  lcss.lcss = 5;
  Material lcss_cs = lcss;
  lcss_cs.src = 100;
  lcss_cs.srp = 4;
  const MaterialParams cases[] = {params(lcss, model), params(lcss_cs, model)};
  std::mt19937 gen(77);
  Agreement agree;
  int crossed = 0;
  for (const MaterialParams& m : cases) {
    for (Real mag : {1e-5, 1e-4, 1e-3, 1e-2, 5e-2}) {
      for (int k = 0; k < 400; ++k) {
        RandomPoint r = random_point(m, gen, mag, false);
        if (k % 4 == 0) r.eps_p *= 0.1; // below the first point: eps_p < 0.01
        if (k % 4 == 1) r.eps_p += 0.2; // beyond the last point
        const Real dt = 1e-6;
        Real sa[5], ba[3], ea = 0, da = 0, db = 0;
        SCOPED_TRACE(testing::Message() << "mag " << mag << " k " << k);
        compare_with_iterated(m, r, dt, agree, sa, ba, ea, da, db);
        if (testing::Test::HasFatalFailure()) return;
        const auto seg = [&](Real e) {
          return std::upper_bound(m.hard_x.begin(), m.hard_x.end(), e) - m.hard_x.begin();
        };
        if (db > 0 && r.eps_p > m.hard_x.front() && seg(r.eps_p + db) != seg(r.eps_p)) ++crossed;
        // on the surface after a plastic step
        if (da > 0) {
          // the rate of the step: the effective rate of the increment with deps_zz from
          // plastic incompressibility (j2_return.cpp's header)
          const Real e0 = r.d[0], e1 = r.d[1], ez = -(r.d[0] + r.d[1]);
          const Real tr = (e0 + e1 + ez) / 3.0;
          const Real ee = (e0 - tr) * (e0 - tr) + (e1 - tr) * (e1 - tr) + (ez - tr) * (ez - tr) +
                          0.5 * (r.d[2] * r.d[2] + r.d[3] * r.d[3] + r.d[4] * r.d[4]);
          const Real rate = std::sqrt(2.0 / 3.0 * ee) / dt;
          const Real sy = yield_stress(m, ea, rate);
          ASSERT_NEAR(mises_ps(sa, ba), sy, 1e-11 * sy);
        }
      }
    }
  }
  const int plastic = agree.plastic, n = agree.n;
  const Real worst_s = agree.worst_s;
  EXPECT_GT(plastic, n / 4);
  EXPECT_GT(crossed, 50); // increments that end on another segment than they start
  EXPECT_LT(worst_s, 1e-12);
}
