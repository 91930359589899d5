// *MAT_024: tabulated hardening (LCSS), SIGY/ETAN, LCSR and Cowper-Symonds rate scaling, VP = 1.
// Uniaxial paths with isotropic hardening are exact for any step size (fixed deviatoric
// direction, consistency solved exactly on each linear segment), so references are closed
// forms; tolerance 1e-10 relative (round-off over tens of steps plus the driver's 1e-14
// lateral-stress tolerance).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <utility>

#include "mat_test_util.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {
constexpr Real kRel = 1e-10;
const Real kG = kE / (2 * (1 + kNu));
const Real kEp = kE * kEt / (kE - kEt);

// eff. plastic strain -> yield stress; slopes 2e9, 1e9, 0.3e9 (last one extrapolated)
const std::vector<Real> kCx = {0, 0.05, 0.1, 0.2};
const std::vector<Real> kCy = {200e6, 300e6, 350e6, 380e6};

/// Hand interpolation of the curve above, with linear extrapolation beyond 0.2.
Real curve_r(Real ep) {
  if (ep <= 0.05) return 200e6 + 2e9 * ep;
  if (ep <= 0.1) return 300e6 + 1e9 * (ep - 0.05);
  return 350e6 + 0.3e9 * (ep - 0.1);
}

MaterialParams tab_params(Model& model, GlobalId lcsr = 0) {
  model.curves.push_back(make_curve(5, kCx, kCy));
  model.curves.push_back(make_curve(6, {0, 100, 1000}, {1.0, 1.5, 2.0}));
  Material c = mat024_card();
  c.lcss = 5;
  c.lcsr = lcsr;
  return params(c, model);
}
} // namespace

TEST(Mat024, TabulatedUniaxialStressSolid) {
  Model model;
  const MaterialParams m = tab_params(model);
  SolidUniaxial pt(m);
  // target plastic strains incl. breakpoints and the extrapolated range; eps = R/E + eps_p
  for (Real epr : {0.0, 0.02, 0.05, 0.08, 0.15, 0.3}) {
    const Real eps = curve_r(epr) / kE + epr;
    pt.go(eps, 13);
    EXPECT_NEAR(pt.sig[0], curve_r(epr), kRel * curve_r(epr)) << epr;
    EXPECT_NEAR(pt.eps_p, epr, kRel * (epr + 1e-3)) << epr;
    EXPECT_NEAR(pt.sig[1], 0.0, 1e-12 * pt.sig[0]);
  }
}

TEST(Mat024, TabulatedUniaxialStressShell) {
  Model model;
  const MaterialParams m = tab_params(model);
  ShellUniaxial pt(m);
  for (Real epr : {0.01, 0.05, 0.12, 0.25}) {
    const Real eps = curve_r(epr) / kE + epr;
    pt.go(eps, 11);
    EXPECT_NEAR(pt.sig[0], curve_r(epr), kRel * curve_r(epr)) << epr;
    EXPECT_NEAR(pt.eps_p, epr, kRel * epr) << epr;
  }
}

// A yield curve from (0, 0) (LS-DYNA reads it: the material flows at once and hardens along the
// points; a generated battery deck's crush curves are written so): solid and shell points in
// uniaxial stress follow the curve, sigma = R(eps_p), from the first step; a negative yield stress
// is refused naming the curve.
TEST(Mat024, CurveFromZeroYieldsAtOnceAndHardensAlongIt) {
  Model model;
  model.curves.push_back(make_curve(7, {0, 0.05, 0.1}, {0, 100e6, 150e6}));
  Material c = mat024_card();
  c.lcss = 7;
  const MaterialParams m = params(c, model);
  auto r = [](Real ep) { return ep <= 0.05 ? 2e9 * ep : 100e6 + 1e9 * (ep - 0.05); };
  SolidUniaxial solid(m);
  ShellUniaxial shell(m);
  for (Real epr : {1e-4, 0.01, 0.04, 0.08}) {
    const Real eps = r(epr) / kE + epr;
    solid.go(eps, 20);
    shell.go(eps, 20);
    EXPECT_NEAR(solid.sig[0], r(epr), 1e-9 * 150e6) << epr;
    EXPECT_NEAR(solid.eps_p, epr, 1e-9) << epr;
    EXPECT_NEAR(shell.sig[0], r(epr), 1e-9 * 150e6) << epr;
  }
  Model bad;
  bad.curves.push_back(make_curve(8, {0, 0.1}, {-1e6, 100e6}));
  Material b = mat024_card();
  b.lcss = 8;
  try {
    (void)params(b, bad);
    ADD_FAILURE() << "a negative yield stress was taken";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("must not be negative"), std::string::npos) << e.what();
  }
}

TEST(Mat024, TabulatedOneLargeStepAcrossSegments) {
  // Uniaxial strain in ONE step from the virgin state to a state whose plastic strain lies in
  // the third segment: q = 2G (eps - 3/2 eps_p) = R(eps_p) -> eps = (R + 3G eps_p)/(2G).
  Model model;
  const MaterialParams m = tab_params(model);
  for (Real epr : {0.03, 0.07, 0.15, 0.4}) {
    const Real eps = (curve_r(epr) + 3 * kG * epr) / (2 * kG);
    Real sig[6] = {}, back[6] = {}, ep = 0;
    const Real d[6] = {eps, 0, 0, 0, 0, 0};
    const Real dep = update_stress_solid(m, d, 1e-6, sig, back, ep);
    EXPECT_NEAR(dep, epr, 1e-12 * epr) << epr;
    EXPECT_NEAR(sig[0] - sig[1], curve_r(epr), 1e-12 * curve_r(epr));
  }
}

TEST(Mat024, LinearEqualsMat003Isotropic) {
  const MaterialParams m24 = params(mat024_card());
  const MaterialParams m3 = params(mat003_card(1.0));
  // uniaxial stress follows the bilinear curve
  SolidUniaxial pt(m24);
  pt.go(0.03, 30);
  EXPECT_NEAR(pt.sig[0], bilinear_stress(0.03), kRel * pt.sig[0]);
  // an arbitrary 3-D path gives the same states for both cards (same algebra: 1e-12)
  std::mt19937 gen(3);
  std::uniform_real_distribution<Real> u(-1.0, 1.0);
  Real s3[6] = {}, b3[6] = {}, e3 = 0, s24[6] = {}, b24[6] = {}, e24 = 0;
  for (int step = 0; step < 200; ++step) {
    Real d[6];
    for (Real& x : d) x = 5e-4 * u(gen);
    update_stress_solid(m3, d, 1e-6, s3, b3, e3);
    update_stress_solid(m24, d, 1e-6, s24, b24, e24);
  }
  EXPECT_GT(e3, 0.01);
  EXPECT_NEAR(e24, e3, 1e-12 * e3);
  for (int i = 0; i < 6; ++i) EXPECT_NEAR(s24[i], s3[i], 1e-12 * kSigy);
}

TEST(Mat024, LcsrScalingUniaxialStrain) {
  // rate = 2/3 d/dt = 550 /s -> factor 1.5 + 0.5 * 450/900 = 1.75 from the LCSR curve
  Model model;
  Material c = mat024_card();
  model.curves.push_back(make_curve(6, {0, 100, 1000}, {1.0, 1.5, 2.0}));
  c.lcsr = 6;
  const MaterialParams m = params(c, model);
  const Real dt = 1e-7, d = 825.0 * dt;
  Real sig[6] = {}, back[6] = {}, ep = 0;
  const int n = 300;
  const Real deps[6] = {d, 0, 0, 0, 0, 0};
  for (int i = 0; i < n; ++i) update_stress_solid(m, deps, dt, sig, back, ep);
  const Real s = 1.75, eps = n * d;
  // q = S (sigy + Ep eps_p) = 2G (eps - 3/2 eps_p)
  const Real epr = (2 * kG * eps - s * kSigy) / (3 * kG + s * kEp);
  EXPECT_NEAR(ep, epr, kRel * epr);
  EXPECT_NEAR(sig[0] - sig[1], s * (kSigy + kEp * epr), kRel * sig[0]);
}

TEST(Mat024, LcsrWithTabulatedHardening) {
  // Both curves: after yielding, uniaxial strain at 550 /s: q = 1.75 R(eps_p) = 2G(eps - 1.5
  // eps_p).
  Model model;
  const MaterialParams m = tab_params(model, 6);
  const Real dt = 1e-7, d = 825.0 * dt;
  // choose eps_p = 0.06 (second segment): eps = (1.75 R + 3G eps_p) / (2G)
  const Real epr = 0.06, eps = (1.75 * curve_r(epr) + 3 * kG * epr) / (2 * kG);
  const int n = static_cast<int>(eps / d);
  const Real deps[6] = {d, 0, 0, 0, 0, 0};
  Real sig[6] = {}, back[6] = {}, ep = 0;
  for (int i = 0; i < n; ++i) update_stress_solid(m, deps, dt, sig, back, ep);
  // the last (partial) step at the same rate: scale the increment, keep d/dt
  const Real rest = eps - n * d;
  const Real last[6] = {rest, 0, 0, 0, 0, 0};
  update_stress_solid(m, last, rest / 825.0, sig, back, ep);
  EXPECT_NEAR(ep, epr, 1e-9 * epr);
  EXPECT_NEAR(sig[0] - sig[1], 1.75 * curve_r(epr), 1e-9 * sig[0]);
}

TEST(Mat024, CowperSymondsVp0) {
  Material c = mat024_card(kSigy, 0.0); // perfectly plastic
  c.src = 40.4;
  c.srp = 5;
  const MaterialParams m = params(c);
  const Real dt = 1e-6, d = 1.5e-4; // rate 100 /s
  Real sig[6] = {}, back[6] = {}, ep = 0;
  const Real deps[6] = {d, 0, 0, 0, 0, 0};
  for (int i = 0; i < 100; ++i) update_stress_solid(m, deps, dt, sig, back, ep);
  EXPECT_NEAR(sig[0] - sig[1], (1 + std::pow(100 / 40.4, 0.2)) * kSigy, kRel * kSigy);
}

TEST(Mat024, ViscoplasticVp1) {
  // VP = 1: sy = (sigy + Ep eps_p) (1 + (dep/dt / C)^(1/P)), dep solved implicitly.
  // Uniaxial strain from exactly at yield (q = sigy), then steps of d:
  //   q_tr - 3G dep = (sigy + Ep (eps_p + dep)) (1 + (dep/(dt C))^(1/P)),  q_tr = q_n + 2G d.
  // Reference dep from an independent bisection on this scalar equation.
  Material c = mat024_card();
  c.src = 40.4;
  c.srp = 5;
  c.vp = 1;
  const MaterialParams m = params(c);
  const Real dt = 1e-6, d = 1.5e-4;
  Real sig[6] = {}, back[6] = {}, ep = 0;
  const Real dy[6] = {kSigy / (2 * kG), 0, 0, 0, 0, 0};
  EXPECT_EQ(update_stress_solid(m, dy, dt, sig, back, ep), 0.0); // rate does not scale elastic
  const Real deps[6] = {d, 0, 0, 0, 0, 0};
  for (int step = 0; step < 30; ++step) {
    const Real q_tr = (sig[0] - sig[1]) + 2 * kG * d;
    auto resid = [&](Real x) {
      return q_tr - 3 * kG * x - (kSigy + kEp * (ep + x)) * (1 + std::pow(x / (dt * 40.4), 0.2));
    };
    const Real ref = bisect_decreasing(resid, 0.0, q_tr / (3 * kG));
    const Real ep0 = ep;
    const Real dep = update_stress_solid(m, deps, dt, sig, back, ep);
    EXPECT_NEAR(dep, ref, 1e-10 * ref) << step;
    const Real sy = (kSigy + kEp * (ep0 + dep)) * (1 + std::pow(dep / (dt * 40.4), 0.2));
    EXPECT_NEAR(sig[0] - sig[1], sy, 1e-11 * sy) << step;
  }
  // steady state: with hardening small, the plastic rate tends to the total rate 2/3 d/dt = 100
  const Real q = sig[0] - sig[1];
  EXPECT_GT(q, (1 + std::pow(90 / 40.4, 0.2)) * kSigy);
}

// --- LCSS as a *DEFINE_TABLE: a yield curve at each strain rate -------------------------------
// Curve A (kCx/kCy, slopes 2e9, 1e9, 0.3e9) at rate 100 /s and curve B (300 -> 500 MPa over
// eps_p 0 -> 0.1, slope 2e9) at 1000 /s. LS-DYNA interpolates linearly between the two curves at
// the current rate (between ln rates when the table's first value is negative) and uses the end
// curves beyond the table. References below interpolate by hand.
namespace {
Real curve_b(Real ep) {
  return 300e6 + 2e9 * ep;
}

MaterialParams table_params(Model& model, bool log_rates, Real vp = 0) {
  model.curves.push_back(make_curve(5, kCx, kCy));
  model.curves.push_back(make_curve(7, {0, 0.1}, {300e6, 500e6}));
  Table t;
  t.id = 9;
  t.values = log_rates ? std::vector<Real>{std::log(100.0), std::log(1000.0)}
                       : std::vector<Real>{100.0, 1000.0};
  t.curves = {5, 7};
  model.tables.push_back(t);
  Material c = mat024_card();
  c.lcss = 9;
  c.src = 40; // C, P and LCSR are not used with a table (LS-DYNA ignores them)
  c.srp = 5;
  c.vp = vp;
  return params(c, model);
}

/// Uniaxial strain at constant rate d/dt = 1.5 rate (effective rate = rate) to the state of
/// plastic strain epr on the yield stress sy_ref(epr): returns {eps_p, q} after the path.
std::pair<Real, Real> uniaxial_strain_at_rate(const MaterialParams& m, Real rate, Real epr,
                                              Real sy_ref) {
  const Real ddt = 1.5 * rate, dt = 1e-7, d = ddt * dt;
  const Real eps = (sy_ref + 3 * kG * epr) / (2 * kG);
  const int n = static_cast<int>(eps / d);
  const Real deps[6] = {d, 0, 0, 0, 0, 0};
  Real sig[6] = {}, back[6] = {}, ep = 0;
  for (int i = 0; i < n; ++i) update_stress_solid(m, deps, dt, sig, back, ep);
  const Real rest = eps - n * d; // the last, partial step at the same rate
  const Real last[6] = {rest, 0, 0, 0, 0, 0};
  update_stress_solid(m, last, rest / ddt, sig, back, ep);
  return {ep, sig[0] - sig[1]};
}
} // namespace

TEST(Mat024, RateTableInterpolatesBetweenCurves) {
  Model model;
  const MaterialParams m = table_params(model, false);
  // 550 /s is halfway between 100 and 1000: sy = (A + B) / 2; eps_p = 0.06 (A's second segment)
  const Real epr = 0.06, sy = 0.5 * (curve_r(epr) + curve_b(epr));
  const auto [ep, q] = uniaxial_strain_at_rate(m, 550, epr, sy);
  EXPECT_NEAR(ep, epr, 1e-9 * epr);
  EXPECT_NEAR(q, sy, 1e-9 * sy);
  // the same yield radius through yield_stress (beams, trusses)
  EXPECT_NEAR(yield_stress(m, epr, 550), sy, 1e-12 * sy);
}

TEST(Mat024, RateTableClampsBeyondItsRates) {
  Model model;
  const MaterialParams m = table_params(model, false);
  for (Real epr : {0.03, 0.15}) {
    const auto [ep_lo, q_lo] = uniaxial_strain_at_rate(m, 20, epr, curve_r(epr));
    EXPECT_NEAR(ep_lo, epr, 1e-9 * epr);
    EXPECT_NEAR(q_lo, curve_r(epr), 1e-9 * q_lo);
    const auto [ep_hi, q_hi] = uniaxial_strain_at_rate(m, 5000, epr, curve_b(epr));
    EXPECT_NEAR(ep_hi, epr, 1e-9 * epr);
    EXPECT_NEAR(q_hi, curve_b(epr), 1e-9 * q_hi);
  }
  // rate 0 (the elastic start, a static step): the lowest rate's curve
  EXPECT_EQ(yield_stress(m, 0.0, 0.0), kCy[0]);
}

TEST(Mat024, RateTableOfLogRates) {
  // LS-DYNA reads every value as ln(rate) only when the first one is negative: ln 100 and
  // ln 1000 are positive and taken as rates; ln 0.5 first makes the table one of ln(rate).
  Model model;
  const MaterialParams m = table_params(model, true);
  EXPECT_FALSE(m.table_log_rate);
  Model model2;
  model2.curves.push_back(make_curve(5, kCx, kCy));
  model2.curves.push_back(make_curve(7, {0, 0.1}, {300e6, 500e6}));
  Table t;
  t.id = 9;
  t.values = {std::log(0.5), std::log(1000.0)};
  t.curves = {5, 7};
  model2.tables.push_back(t);
  Material c = mat024_card();
  c.lcss = 9;
  const MaterialParams ml = params(c, model2);
  EXPECT_TRUE(ml.table_log_rate);
  const Real w = (std::log(550.0) - std::log(0.5)) / (std::log(1000.0) - std::log(0.5));
  const Real epr = 0.08, sy = (1 - w) * curve_r(epr) + w * curve_b(epr);
  const auto [ep, q] = uniaxial_strain_at_rate(ml, 550, epr, sy);
  EXPECT_NEAR(ep, epr, 1e-9 * epr);
  EXPECT_NEAR(q, sy, 1e-9 * sy);
}

TEST(Mat024, RateTableShellFollowsItsRate) {
  // Uniaxial stress in a shell at d/dt = 500 /s: every plastic step ends on the yield surface of
  // the rate of its own increment (through-thickness increment from plastic incompressibility).
  Model model;
  const MaterialParams m = table_params(model, false);
  ShellUniaxial pt(m);
  const Real dt = 1e-6, d = 500 * dt;
  for (int i = 0; i < 200; ++i) {
    pt.step(d, dt);
    if (pt.dep == 0) continue;
    const Real d6[6] = {d, pt.dyy, -(d + pt.dyy), 0, 0, 0};
    const Real tr = (d6[0] + d6[1] + d6[2]) / 3;
    const Real rate = std::sqrt(2.0 / 3.0 *
                                ((d6[0] - tr) * (d6[0] - tr) + (d6[1] - tr) * (d6[1] - tr) +
                                 (d6[2] - tr) * (d6[2] - tr))) /
                      dt;
    const Real w = std::clamp((rate - 100) / 900, 0.0, 1.0);
    const Real sy = (1 - w) * curve_r(pt.eps_p) + w * curve_b(pt.eps_p);
    const Real q = std::sqrt(pt.sig[0] * pt.sig[0] - pt.sig[0] * pt.sig[1] + pt.sig[1] * pt.sig[1] +
                             3 * pt.sig[2] * pt.sig[2]);
    ASSERT_NEAR(q, sy, 1e-9 * sy) << i;
    ASSERT_GT(w, 0.3) << i; // the rate is inside the table: the test exercises interpolation
  }
  EXPECT_GT(pt.eps_p, 0.05);
}

TEST(Mat024, RateTableViscoplasticVp1) {
  // VP = 1: the curves are read at the plastic strain rate dep/dt, solved implicitly:
  //   q_tr - 3G dep = sy(eps_p + dep, dep/dt). Reference by bisection on this scalar equation.
  Model model;
  const MaterialParams m = table_params(model, false, 1);
  auto sy_ref = [](Real ep, Real rate) {
    const Real w = std::clamp((rate - 100) / 900, 0.0, 1.0);
    return (1 - w) * curve_r(ep) + w * curve_b(ep);
  };
  const Real dt = 1e-6, d = 5e-4;
  Real sig[6] = {}, back[6] = {}, ep = 0;
  const Real dy[6] = {0.999 * kCy[0] / (2 * kG), 0, 0, 0, 0, 0}; // just below yield
  EXPECT_EQ(update_stress_solid(m, dy, dt, sig, back, ep), 0.0);
  const Real deps[6] = {d, 0, 0, 0, 0, 0};
  bool interpolated = false;
  for (int step = 0; step < 40; ++step) {
    const Real q_tr = (sig[0] - sig[1]) + 2 * kG * d;
    auto resid = [&](Real x) { return q_tr - 3 * kG * x - sy_ref(ep + x, x / dt); };
    const Real ref = bisect_decreasing(resid, 0.0, q_tr / (3 * kG));
    const Real ep0 = ep;
    const Real dep = update_stress_solid(m, deps, dt, sig, back, ep);
    EXPECT_NEAR(dep, ref, 1e-10 * ref) << step;
    EXPECT_NEAR(sig[0] - sig[1], sy_ref(ep0 + dep, dep / dt), 1e-10 * (sig[0] - sig[1])) << step;
    interpolated = interpolated || (dep / dt > 100 && dep / dt < 1000);
  }
  EXPECT_TRUE(interpolated);
}
