// Hydrodynamic materials at a material point: *EOS_LINEAR_POLYNOMIAL and *EOS_GRUNEISEN under
// hydrostatic compression against their closed forms (energy-free terms, the gamma-law
// adiabat, the Hugoniot of a Gruneisen EOS with GAMA0 = 0) and an accurately integrated
// isentrope (Gruneisen with energy coupling), the isentropic wave speed, the pressure cutoff,
// *MAT_NULL viscosity, and the *MAT_010 / *MAT_015 yield curves on an isochoric path.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "mat_test_util.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

Material hydro_card(MaterialKind kind, Real ro) {
  Material m;
  m.id = 9;
  m.kind = kind;
  m.ro = ro;
  m.loc.file = "deck.k";
  m.loc.line = 3;
  m.loc.card = "*MAT_NULL";
  return m;
}

Eos poly_eos(std::array<Real, 7> c, Real e0 = 0) {
  Eos e;
  e.id = 1;
  e.kind = EosKind::LinearPolynomial;
  e.c = c;
  e.e0 = e0;
  return e;
}

// Copper (SI): rho0 = 8930, C = 3940 m/s, S1 = 1.49, GAMA0 = 2.02, A = 0.47.
constexpr Real kRoCu = 8930, kCCu = 3940, kS1 = 1.49, kGam = 2.02, kACu = 0.47;

Eos gruneisen_eos(Real gamma0, Real a, Real s2 = 0, Real s3 = 0) {
  Eos e;
  e.id = 2;
  e.kind = EosKind::Gruneisen;
  e.gr_c = kCCu;
  e.s1 = kS1;
  e.s2 = s2;
  e.s3 = s3;
  e.gamma0 = gamma0;
  e.gr_a = a;
  return e;
}

MaterialParams hydro_params(const Material& mat, const Eos& eos) {
  MaterialParams m = make_material_params(mat, Model{});
  attach_eos(m, mat, &eos);
  return m;
}

/// One material point driven like the element drives it: the strain increment dv = dV / V1
/// (so that r dv = V1/V0 dv is the exact change of relative volume), the internal energy per
/// unit initial volume accumulated with the element's trapezoid.
struct Point {
  MaterialParams m;
  Real sig[6] = {0, 0, 0, 0, 0, 0}, hist[6] = {0, 0, 0, 0, 0, 0};
  Real eps_p = 0, e_int = 0, v = 1;

  void step(const Real deps_dev[6], Real v1, Real dt) {
    const Real dv = (v1 - v) / v1;
    Real deps[6];
    for (int k = 0; k < 6; ++k) deps[k] = deps_dev[k] + (k < 3 ? dv / 3.0 : 0.0);
    const Real s_old[6] = {sig[0], sig[1], sig[2], sig[3], sig[4], sig[5]};
    update_stress_hydro(m, deps, dt, 1.0 / v1 - 1.0, v1, m.eos_e0 + e_int, 0.0, sig, hist, eps_p);
    Real de = 0;
    for (int k = 0; k < 6; ++k) de += 0.5 * (s_old[k] + sig[k]) * deps[k];
    e_int += v1 * de;
    v = v1;
  }
  void compress(Real v1, Real dt = 1e-7) {
    const Real zero[6] = {0, 0, 0, 0, 0, 0};
    step(zero, v1, dt);
  }
  [[nodiscard]] Real pressure() const { return -(sig[0] + sig[1] + sig[2]) / 3.0; }
};

/// Hugoniot of the linear Us-up fit: p_H = rho0 C^2 mu (1 + mu) / (1 - (S - 1) mu)^2.
Real hugoniot(Real mu) {
  return kRoCu * kCCu * kCCu * mu * (1 + mu) / std::pow(1 - (kS1 - 1) * mu, 2);
}

/// Isentrope dE/dv = -p(v, E) from v = 1, E = e0, by RK4 with n steps to v1.
Real isentrope_energy(const MaterialParams& m, Real v1, Real e0, int n = 20000) {
  auto f = [&](Real v, Real e) { return -eos_pressure(m, 1.0 / v - 1.0, e); };
  Real v = 1, e = e0;
  const Real h = (v1 - 1) / n;
  for (int i = 0; i < n; ++i) {
    const Real k1 = f(v, e), k2 = f(v + h / 2, e + h / 2 * k1), k3 = f(v + h / 2, e + h / 2 * k2),
               k4 = f(v + h, e + h * k3);
    e += h / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
    v += h;
  }
  return e;
}

} // namespace

// Energy-free polynomial: p = C0 + C1 mu + C2 mu^2 + C3 mu^3 in compression, C2 dropped in
// tension; the update reproduces the closed form to round-off at every step.
TEST(HydroEos, LinearPolynomialWithoutEnergyIsTheClosedForm) {
  const std::array<Real, 7> c{1e5, 140e9, 250e9, 300e9, 0, 0, 0};
  Point pt{hydro_params(hydro_card(MaterialKind::Null, 8930), poly_eos(c))};
  pt.m.pc = -1e300;
  Real worst = 0;
  for (int i = 1; i <= 400; ++i) {
    const Real v1 = i <= 200 ? 1 - 0.2 * i / 200.0 : 0.8 + 0.35 * (i - 200) / 200.0; // to 1.15
    pt.compress(v1);
    const Real mu = 1 / v1 - 1;
    const Real ref = c[0] + c[1] * mu + (mu > 0 ? c[2] * mu * mu : 0) + c[3] * mu * mu * mu;
    worst = std::max(worst, std::abs(pt.pressure() - ref) / (std::abs(ref) + 1e6));
  }
  EXPECT_LT(worst, 1e-13);
}

// Gamma law (C4 = C5 = gamma - 1, E0 > 0): p = (gamma - 1) E / v, whose adiabat is
// E = E0 v^(1 - gamma), p = (gamma - 1) E0 v^(-gamma). The trapezoid energy update is second
// order: with 200 steps to v = 0.5 the pressure is within 1e-5 of the closed form.
TEST(HydroEos, GammaLawFollowsTheAdiabat) {
  constexpr Real gamma = 1.4, e0 = 2.5e5;
  Point pt{hydro_params(hydro_card(MaterialKind::Null, 1.2),
                        poly_eos({0, 0, 0, 0, gamma - 1, gamma - 1, 0}, e0))};
  pt.compress(1.0, 0.0); // the initial pass: p = (gamma - 1) E0
  EXPECT_NEAR(pt.pressure(), (gamma - 1) * e0, 1e-9 * e0);
  Real worst = 0;
  for (int i = 1; i <= 200; ++i) {
    const Real v1 = 1 - 0.5 * i / 200.0;
    pt.compress(v1);
    const Real ref = (gamma - 1) * e0 * std::pow(v1, -gamma);
    worst = std::max(worst, std::abs(pt.pressure() / ref - 1));
  }
  std::printf("gamma law to v = 0.5: worst relative pressure error %.2e\n", worst);
  EXPECT_LT(worst, 1e-5);
  EXPECT_NEAR(pt.e_int + e0, e0 * std::pow(0.5, 1 - gamma), 1e-5 * e0);
}

// Gruneisen with GAMA0 = A = 0 is the Hugoniot of the linear Us-up fit exactly.
TEST(HydroEos, GruneisenWithoutGammaIsTheHugoniot) {
  Point pt{hydro_params(hydro_card(MaterialKind::Null, kRoCu), gruneisen_eos(0, 0))};
  Real worst = 0;
  for (int i = 1; i <= 100; ++i) {
    const Real v1 = 1 - 0.25 * i / 100.0;
    pt.compress(v1);
    worst = std::max(worst, std::abs(pt.pressure() / hugoniot(1 / v1 - 1) - 1));
  }
  EXPECT_LT(worst, 1e-13);
  // Tension: p = rho0 C^2 mu (PC = 0 of *MAT_NULL would cut it; lift the cutoff).
  pt.m.pc = -1e300;
  pt.compress(1.1);
  EXPECT_NEAR(pt.pressure(), kRoCu * kCCu * kCCu * (1 / 1.1 - 1), 1e-9 * kRoCu * kCCu * kCCu);
}

// Gruneisen with energy coupling (copper, GAMA0 = 2.02, A = 0.47, S2, S3 nonzero) along the
// isentrope from E0 = 1 GPa: against an RK4 integration of dE/dv = -p(v, E) (1e-12 accurate);
// 400 steps to v = 0.7, tolerance 1e-5 of the pressure.
TEST(HydroEos, GruneisenWithEnergyFollowsTheIsentrope) {
  Eos eos = gruneisen_eos(kGam, kACu, 0.1, 0.05);
  eos.e0 = 1e9;
  Point pt{hydro_params(hydro_card(MaterialKind::Null, kRoCu), eos)};
  pt.compress(1.0, 0.0); // the initial pass: p = GAMA0 E0
  EXPECT_NEAR(pt.pressure(), kGam * eos.e0, 1e-6);
  Real worst = 0;
  for (int i = 1; i <= 400; ++i) {
    const Real v1 = 1 - 0.3 * i / 400.0;
    pt.compress(v1);
    if (i % 50 != 0) continue;
    const Real e = isentrope_energy(pt.m, v1, eos.e0);
    const Real ref = eos_pressure(pt.m, 1 / v1 - 1, e);
    worst = std::max(worst, std::abs(pt.pressure() / ref - 1));
  }
  std::printf("Gruneisen isentrope to v = 0.7: worst relative pressure error %.2e\n", worst);
  EXPECT_LT(worst, 1e-5);
}

// The wave speed used for the time step is the isentropic sound speed: c^2 = dp/drho along
// the isentrope (finite difference of the RK4 isentrope) plus 4G/(3 rho0); at mu = 0 it is the
// reference value sqrt((rho0 C^2 + 4G/3)/rho0), and it is never below it.
TEST(HydroEos, WaveSpeedIsTheIsentropicSoundSpeed) {
  Material mat = hydro_card(MaterialKind::JohnsonCook, kRoCu);
  mat.g = 46e9;
  mat.jc_a = 90e6;
  Eos eos = gruneisen_eos(kGam, kACu);
  eos.e0 = 1e9;
  const MaterialParams m = hydro_params(mat, eos);
  const Real shear = 4.0 / 3.0 * 46e9;
  EXPECT_NEAR(hydro_wave_speed(m, 0, 0, 0), std::sqrt((kRoCu * kCCu * kCCu + shear) / kRoCu), 1e-9);
  for (Real v : {0.95, 0.85, 0.75}) {
    const Real h = 1e-4;
    const Real pa = eos_pressure(m, 1 / (v + h) - 1, isentrope_energy(m, v + h, eos.e0));
    const Real pb = eos_pressure(m, 1 / (v - h) - 1, isentrope_energy(m, v - h, eos.e0));
    // rho = rho0 / v: dp/drho = -v^2 dp/dv / rho0
    const Real dpdrho = -v * v * (pa - pb) / (2 * h) / kRoCu;
    const Real e = isentrope_energy(m, v, eos.e0);
    const Real c = hydro_wave_speed(m, 1 / v - 1, e, eos_pressure(m, 1 / v - 1, e));
    EXPECT_NEAR(c * c, dpdrho + shear / kRoCu, 1e-6 * c * c) << "v " << v;
  }
  EXPECT_GE(hydro_wave_speed(m, -0.1, 0, -1e9), hydro_wave_speed(m, 0, 0, 0));
}

// PC: the pressure never goes below the cutoff (here -100 MPa; the EOS alone gives -1.3 GPa).
TEST(HydroEos, PressureCutoff) {
  Material mat = hydro_card(MaterialKind::Null, 1000);
  mat.pc = -100e6;
  Point pt{hydro_params(mat, poly_eos({0, 14e9, 0, 0, 0, 0, 0}))};
  pt.compress(1.0 / (1 - 0.005)); // mu = -0.005: p = -70 MPa, above the cutoff
  EXPECT_NEAR(pt.pressure(), -70e6, 1e-3);
  pt.compress(1.0 / (1 - 0.1)); // mu = -0.1: p = -1.4 GPa -> cut at -100 MPa
  EXPECT_DOUBLE_EQ(pt.pressure(), -100e6);
  pt.compress(1.0 / 1.02); // back in compression: p = C1 mu
  EXPECT_NEAR(pt.pressure(), 14e9 * 0.02, 1e-3);
  // *MAT_NULL with PC = 0: no tension at all.
  Point nt{hydro_params(hydro_card(MaterialKind::Null, 1000), poly_eos({0, 14e9, 0, 0, 0, 0, 0}))};
  nt.compress(1.01);
  EXPECT_EQ(nt.pressure(), 0.0);
}

namespace {

/// *EOS_TABULATED(_COMPACTION) with points (ln V, C, T, K), ascending in ln V (as the reader
/// stores them).
Eos tabulated_eos(EosKind kind, std::vector<Real> ev, std::vector<Real> c, std::vector<Real> t,
                  std::vector<Real> k, Real gamma = 0, Real e0 = 0) {
  Eos e;
  e.id = 3;
  e.kind = kind;
  e.tab_ev = std::move(ev);
  e.tab_c = std::move(c);
  e.tab_t = std::move(t);
  e.tab_k = std::move(k);
  e.tab_gamma = gamma;
  e.e0 = e0;
  return e;
}

/// The loading curve C(ln V) of the tabulated tests, piecewise linear, by hand.
Real c_by_hand(Real ev) {
  const Real xs[] = {-0.4, -0.2, -0.1, -0.05, 0.0}, ys[] = {5e9, 1e9, 3e8, 1e8, 0.0};
  int i = 1;
  while (i < 4 && ev > xs[i]) ++i;
  return ys[i - 1] + (ys[i] - ys[i - 1]) / (xs[i] - xs[i - 1]) * (ev - xs[i - 1]);
}

} // namespace

// *EOS_TABULATED without energy (GAMA = 0): p = C(ln V), piecewise linear through the points
// and extended linearly beyond them (ln V down to -0.5, past the last point -0.4, and up to
// +0.05 in tension); the reference bulk modulus is the steepest segment, 2e10.
TEST(HydroEos, TabulatedWithoutEnergyIsThePiecewiseLinearCurve) {
  const Eos eos = tabulated_eos(EosKind::Tabulated, {-0.4, -0.2, -0.1, -0.05, 0.0},
                                {5e9, 1e9, 3e8, 1e8, 0.0}, {0, 0, 0, 0, 0}, {});
  Point pt{hydro_params(hydro_card(MaterialKind::Null, 2000), eos)};
  pt.m.pc = -1e300;
  EXPECT_DOUBLE_EQ(pt.m.k, 2e10);
  Real worst = 0;
  for (int i = 1; i <= 300; ++i) {
    const Real ev = i <= 250 ? -0.5 * i / 250.0 : -0.5 + 0.55 * (i - 250) / 50.0;
    pt.compress(std::exp(ev));
    const Real ref = c_by_hand(ev);
    worst = std::max(worst, std::abs(pt.pressure() - ref) / (std::abs(ref) + 1e6));
  }
  EXPECT_LT(worst, 1e-12);
  EXPECT_LT(pt.pressure(), 0.0) << "tension at ln V = +0.05: the first segment extended";
}

// *EOS_TABULATED with energy: T = 1 and GAMA = 0.4 (C = 0) give p = 0.4 E, whose isentrope
// dE/dV = -p is E = E0 exp(-0.4 (V - 1)): the trapezoid energy update follows it to 1e-6 with
// 200 steps to V = 0.5.
TEST(HydroEos, TabulatedWithEnergyFollowsTheIsentrope) {
  constexpr Real e0 = 2e8;
  const Eos eos = tabulated_eos(EosKind::Tabulated, {-1.0, 0.0}, {0, 0}, {1, 1}, {}, 0.4, e0);
  Point pt{hydro_params(hydro_card(MaterialKind::Null, 1000), eos)};
  pt.compress(1.0, 0.0);
  EXPECT_NEAR(pt.pressure(), 0.4 * e0, 1e-6);
  Real worst = 0;
  for (int i = 1; i <= 200; ++i) {
    const Real v1 = 1 - 0.5 * i / 200.0;
    pt.compress(v1);
    const Real ref = 0.4 * e0 * std::exp(-0.4 * (v1 - 1));
    worst = std::max(worst, std::abs(pt.pressure() / ref - 1));
  }
  EXPECT_LT(worst, 1e-6);
}

// *EOS_TABULATED_COMPACTION: loading on C to ln V = -0.2 (p = 1 GPa); unloading to -0.1 on
// K(-0.2) = 5e9 (p = 1e9 - 5e9 x 0.1 = 0.5 GPa, not C(-0.1) = 0.3 GPa); reloading on the same
// line back to -0.2, then on C again to -0.3 (p = 3 GPa); unloading from there on K(-0.3) =
// 7.5e9 (K linear between 5e9 and 1e10), past ln V = 0 (0.75 GPa there) down to the pressure
// cutoff -10 MPa.
TEST(HydroEos, TabulatedCompactionUnloadsOnTheBulkModulus) {
  Material mat = hydro_card(MaterialKind::Null, 2000);
  mat.pc = -10e6;
  const Eos eos =
      tabulated_eos(EosKind::TabulatedCompaction, {-0.4, -0.2, -0.1, -0.05, 0.0},
                    {5e9, 1e9, 3e8, 1e8, 0.0}, {0, 0, 0, 0, 0}, {1e10, 5e9, 4e9, 3e9, 2e9});
  Point pt{hydro_params(mat, eos)};
  EXPECT_DOUBLE_EQ(pt.m.k, 2e10);
  auto go = [&](Real ev_from, Real ev_to, int n, const std::function<Real(Real)>& ref) {
    Real worst = 0;
    for (int i = 1; i <= n; ++i) {
      const Real ev = ev_from + (ev_to - ev_from) * i / n;
      pt.compress(std::exp(ev));
      worst = std::max(worst, std::abs(pt.pressure() - ref(ev)) / 1e9);
    }
    return worst;
  };
  EXPECT_LT(go(0.0, -0.2, 40, c_by_hand), 1e-12);
  auto unload_02 = [](Real ev) { return 1e9 + 5e9 * (-0.2 - ev); };
  EXPECT_LT(go(-0.2, -0.1, 20, unload_02), 1e-12);
  EXPECT_NEAR(pt.pressure(), 0.5e9, 1e-3);
  EXPECT_LT(go(-0.1, -0.2, 20, unload_02), 1e-12);
  EXPECT_LT(go(-0.2, -0.3, 20, c_by_hand), 1e-12);
  EXPECT_NEAR(pt.pressure(), 3e9, 1e-3);
  auto unload_03 = [](Real ev) { return std::max(3e9 + 7.5e9 * (-0.3 - ev), -10e6); };
  EXPECT_LT(go(-0.3, 0.2, 50, unload_03), 1e-12);
  EXPECT_DOUBLE_EQ(pt.pressure(), -10e6) << "the cutoff holds at ln V = 0.2";
}

// *MAT_NULL MU: the deviatoric stress is the Newtonian 2 MU dev(D); no shear stress without it.
TEST(HydroEos, NullViscosity) {
  Material mat = hydro_card(MaterialKind::Null, 1000);
  mat.null_mu = 1e-3;
  Point pt{hydro_params(mat, poly_eos({0, 2.2e9, 0, 0, 0, 0, 0}))};
  const Real dt = 1e-6, gamma = 2e-4; // shear rate 200 /s
  const Real deps[6] = {1e-5, -1e-5, 0, gamma, 0, 0};
  pt.step(deps, 1.0, dt);
  EXPECT_NEAR(pt.sig[3], 1e-3 * gamma / dt, 1e-15);
  EXPECT_NEAR(pt.sig[0] - pt.sig[1], 2 * 1e-3 * 2e-5 / dt, 1e-15);
  Point inviscid{
      hydro_params(hydro_card(MaterialKind::Null, 1000), poly_eos({0, 2.2e9, 0, 0, 0, 0, 0}))};
  inviscid.step(deps, 1.0, dt);
  EXPECT_EQ(inviscid.sig[3], 0.0);
  EXPECT_EQ(inviscid.sig[0], inviscid.sig[1]);
}

namespace {

/// Isochoric uniaxial straining (d, -d/2, -d/2) at total effective strain rate `rate`: the
/// pressure stays 0 and the effective stress is q = |s_xx - s_yy|; returns the pairs
/// (eps_p, q) every `every` steps through the callback.
void isochoric_path(Point& pt, Real rate, Real eps_end, int n,
                    const std::function<void(Real eps_p, Real q, Real eps)>& check) {
  const Real d = eps_end / n, dt = d / rate;
  const Real deps[6] = {d, -d / 2, -d / 2, 0, 0, 0};
  for (int i = 1; i <= n; ++i) {
    pt.step(deps, 1.0, dt);
    check(pt.eps_p, pt.sig[0] - pt.sig[1], i * d);
  }
}

Material jc_card() {
  Material m = hydro_card(MaterialKind::JohnsonCook, kRoCu);
  m.g = 46e9;
  m.jc_a = 90e6;
  m.jc_b = 292e6;
  m.jc_n = 0.31;
  m.jc_c = 0.025;
  m.jc_m = 1.09;
  m.jc_tm = 1356;
  m.jc_tr = 293;
  m.jc_epso = 1.0;
  m.loc.card = "*MAT_JOHNSON_COOK";
  return m;
}

} // namespace

// *MAT_015 at constant strain rate (no heating, CP = 0): the effective stress is the
// Johnson-Cook curve (A + B eps_p^N)(1 + C ln(rate/EPSO)) at the plastic strain
// eps_p = eps - q/(3G), to 1e-12 of the stress, at rates 1e3 /s and 1 /s (= EPSO: no rate term)
// and 1e-3 /s (below EPSO: no reduction).
TEST(HydroJohnsonCook, UniaxialYieldCurveAtConstantRate) {
  const Eos eos = poly_eos({0, 140e9, 0, 0, 0, 0, 0});
  for (Real rate : {1e3, 1.0, 1e-3}) {
    Point pt{hydro_params(jc_card(), eos)};
    const Real fr = 1 + 0.025 * std::log(std::max(rate, 1.0));
    Real worst = 0, last = 0;
    isochoric_path(pt, rate, 0.5, 5000, [&](Real ep, Real q, Real eps) {
      EXPECT_NEAR(ep, std::max(eps - q / (3 * 46e9), 0.0), 1e-12);
      if (ep > 0)
        worst = std::max(worst, std::abs(q - (90e6 + 292e6 * std::pow(ep, 0.31)) * fr) / 90e6);
      last = q;
    });
    std::printf("rate %g: q(0.5) = %.2f MPa, worst error %.2e A\n", rate, last / 1e6, worst);
    EXPECT_LT(worst, 1e-12);
    EXPECT_NEAR(pt.pressure(), 0.0, 1e-6);
  }
}

// VP = 1 (viscoplastic): the rate term is taken at the plastic strain rate of the step, so at
// the end of every plastic step q = (A + B eps_p^N)(1 + C ln max(d eps_p / (dt EPSO), 1)), to
// 1e-12 of A. In steady flow the plastic rate is the total rate less the elastic rate,
// rate (1 - x) with x = fr h'(eps_p) / (3G) (h = A + B eps_p^N), so VP = 1 lies below VP = 0 by
// h C x (to first order in x ~ 1e-3): checked to 5 % of that difference at eps = 0.5. During the
// elastic-plastic transition the plastic rate is lower still, and so is the VP = 1 stress.
TEST(HydroJohnsonCook, ViscoplasticRateIsThePlasticStrainRate) {
  const Eos eos = poly_eos({0, 140e9, 0, 0, 0, 0, 0});
  Material vp_card = jc_card();
  vp_card.vp = 1;
  const Real rate = 1e3, n = 5000, eps_end = 0.5, dt = eps_end / n / rate;
  Point vp{hydro_params(vp_card, eos)}, total{hydro_params(jc_card(), eos)};
  Real worst = 0, ep_prev = 0, q_vp = 0, q_total = 0;
  bool lower_in_transition = false;
  isochoric_path(vp, rate, eps_end, static_cast<int>(n), [&](Real ep, Real q, Real) {
    const Real dep = ep - ep_prev;
    ep_prev = ep;
    if (dep > 0) {
      const Real fr = 1 + 0.025 * std::log(std::max(dep / dt, 1.0));
      worst = std::max(worst, std::abs(q - (90e6 + 292e6 * std::pow(ep, 0.31)) * fr) / 90e6);
    }
    q_vp = q;
  });
  isochoric_path(total, rate, eps_end, static_cast<int>(n),
                 [&](Real, Real q, Real) { q_total = q; });
  EXPECT_LT(worst, 1e-12);
  const Real h = 90e6 + 292e6 * std::pow(ep_prev, 0.31);
  const Real dh = 292e6 * 0.31 * std::pow(ep_prev, 0.31 - 1);
  const Real fr = 1 + 0.025 * std::log(rate);
  const Real expected = h * 0.025 * fr * dh / (3 * 46e9);
  EXPECT_NEAR(q_total - q_vp, expected, 0.05 * expected);
  // the transition: one plastic step at the first yield, VP = 1 below VP = 0
  Point a{hydro_params(vp_card, eos)}, b{hydro_params(jc_card(), eos)};
  const Real d = 3e-3 * 90e6 / 46e9; // a step of 3e-3 of the yield strain
  const Real deps[6] = {d, -d / 2, -d / 2, 0, 0, 0};
  for (int i = 0; i < 400; ++i) {
    a.step(deps, 1.0, d / rate);
    b.step(deps, 1.0, d / rate);
    if (a.eps_p > 0 && b.eps_p > 0 && a.sig[0] - a.sig[1] < b.sig[0] - b.sig[1])
      lower_in_transition = true;
  }
  EXPECT_TRUE(lower_in_transition);
}

// Adiabatic heating: perfectly plastic (B = 0, C = 0, M = 1): q = A (1 - theta), theta =
// (T - TR)/(TM - TR), T = TR + W_p/(rho CP), so dtheta/deps_p = A (1 - theta)/(rho CP (TM - TR))
// and q = A exp(-k eps_p), k = A / (rho CP (TM - TR)). The temperature lags one step (explicit),
// an error of order k d_eps: tolerance 1e-3 of A with 20000 steps to eps_p = 2.
TEST(HydroJohnsonCook, AdiabaticHeatingSoftensAsTheClosedForm) {
  Material mat = jc_card();
  mat.jc_b = 0;
  mat.jc_c = 0;
  mat.jc_m = 1;
  mat.jc_cp = 383;
  const MaterialParams m = hydro_params(mat, poly_eos({0, 140e9, 0, 0, 0, 0, 0}));
  Point pt{m};
  const Real k = 90e6 / (kRoCu * 383 * (1356 - 293));
  Real worst = 0;
  isochoric_path(pt, 1e3, 2.0, 20000, [&](Real ep, Real q, Real) {
    if (ep > 0) worst = std::max(worst, std::abs(q - 90e6 * std::exp(-k * ep)) / 90e6);
  });
  std::printf("adiabatic softening: k = %.3f, q(end) = %.2f MPa, worst error %.2e A\n", k,
              (pt.sig[0] - pt.sig[1]) / 1e6, worst);
  EXPECT_LT(worst, 1e-3);
  EXPECT_NEAR(pt.hist[0] / (kRoCu * 383), (1356 - 293) * (1 - std::exp(-k * pt.eps_p)),
              1e-3 * (1356 - 293));
}

// *MAT_010 with linear hardening: q = SIGY + EH eps_p on the isochoric path.
TEST(HydroElasticPlastic, LinearHardening) {
  Material mat = hydro_card(MaterialKind::ElasticPlasticHydro, 7850);
  mat.g = 80e9;
  mat.sigy = 250e6;
  mat.eh = 1e9;
  Point pt{hydro_params(mat, poly_eos({0, 160e9, 0, 0, 0, 0, 0}))};
  Real worst = 0;
  isochoric_path(pt, 1.0, 0.2, 500, [&](Real ep, Real q, Real eps) {
    EXPECT_NEAR(ep, std::max(eps - q / (3 * 80e9), 0.0), 1e-12);
    if (ep > 0) worst = std::max(worst, std::abs(q - (250e6 + 1e9 * ep)) / 250e6);
  });
  EXPECT_LT(worst, 1e-12);
  EXPECT_GT(pt.eps_p, 0.19);
}

// attach_eos: a hydrodynamic material needs an EOS; V0 other than 1 is refused.
TEST(HydroEos, AttachRefusesMissingEos) {
  const Material mat = hydro_card(MaterialKind::Null, 1000);
  MaterialParams m = make_material_params(mat, Model{});
  EXPECT_THROW(attach_eos(m, mat, nullptr), InputError);
  Eos e = poly_eos({0, 1e9, 0, 0, 0, 0, 0});
  e.v0 = 0.9;
  EXPECT_THROW(attach_eos(m, mat, &e), InputError);
}
