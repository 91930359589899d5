#pragma once
// Shared helpers for the material tests: material cards, a scalar root finder and uniaxial-stress
// drivers that iterate the lateral strain increments so that the lateral stresses vanish.
#include <cmath>
#include <stdexcept>

#include "materials/material.hpp"
#include "mesh/model.hpp"

namespace parcae::test {

// Steel-like constants (SI). Et chosen so that E - Et is not a round number.
inline constexpr Real kE = 200e9, kNu = 0.3, kRo = 7850, kSigy = 250e6, kEt = 2.2e9;

inline Material elastic_card(Real e = kE, Real nu = kNu) {
  Material m;
  m.id = 1;
  m.kind = MaterialKind::Elastic;
  m.ro = kRo;
  m.e = e;
  m.pr = nu;
  m.loc.file = "deck.k";
  m.loc.line = 42;
  m.loc.card = "*MAT_ELASTIC";
  return m;
}

inline Material mat003_card(Real beta, Real sigy = kSigy, Real et = kEt) {
  Material m = elastic_card();
  m.id = 3;
  m.kind = MaterialKind::PlasticKinematic;
  m.sigy = sigy;
  m.etan = et;
  m.beta = beta;
  m.loc.card = "*MAT_PLASTIC_KINEMATIC";
  return m;
}

inline Material mat024_card(Real sigy = kSigy, Real et = kEt) {
  Material m = elastic_card();
  m.id = 24;
  m.kind = MaterialKind::PiecewiseLinear;
  m.sigy = sigy;
  m.etan = et;
  m.loc.card = "*MAT_PIECEWISE_LINEAR_PLASTICITY";
  return m;
}

inline Curve make_curve(GlobalId id, std::vector<Real> x, std::vector<Real> y) {
  Curve c;
  c.id = id;
  c.x = std::move(x);
  c.y = std::move(y);
  return c;
}

inline MaterialParams params(const Material& mat, const Model& model = Model{}) {
  return make_material_params(mat, model);
}

/// Root of a decreasing function f on [lo, hi] (f(lo) > 0 >= f(hi)) by 200 bisections: the
/// independent reference of the tests that check a return's scalar consistency equation.
template <class F> Real bisect_decreasing(F f, Real lo, Real hi) {
  for (int k = 0; k < 200; ++k) {
    const Real mid = 0.5 * (lo + hi);
    (f(mid) > 0 ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

/// Root of an increasing function f on [a, b] (f(a) < 0 < f(b) after expansion), Illinois
/// regula falsi, until |f| <= ftol.
template <class F> Real solve_increasing(F f, Real a, Real b, Real ftol) {
  Real fa = f(a), fb = f(b);
  for (int k = 0; k < 200 && fa > 0; ++k) {
    a -= (b - a);
    fa = f(a);
  }
  for (int k = 0; k < 200 && fb < 0; ++k) {
    b += (b - a);
    fb = f(b);
  }
  if (std::abs(fa) <= ftol) return a;
  if (std::abs(fb) <= ftol) return b;
  int side = 0;
  for (int it = 0; it < 500; ++it) {
    const Real c = (a * fb - b * fa) / (fb - fa);
    const Real fc = f(c);
    if (std::abs(fc) <= ftol || b - a <= 1e-16 * (std::abs(a) + std::abs(b))) return c;
    if (fc < 0) {
      a = c;
      fa = fc;
      if (side == -1) fb *= 0.5;
      side = -1;
    } else {
      b = c;
      fb = fc;
      if (side == 1) fa *= 0.5;
      side = 1;
    }
  }
  throw std::runtime_error("solve_increasing: no convergence");
}

/// One material point driven in uniaxial stress (sigma_xx only) with the solid routine:
/// the lateral increments dyy = dzz are iterated until sigma_yy = sigma_zz = 0.
struct SolidUniaxial {
  const MaterialParams& m;
  Real sig[6] = {0, 0, 0, 0, 0, 0};
  Real back[6] = {0, 0, 0, 0, 0, 0};
  Real eps_p = 0;
  Real eps = 0; ///< accumulated eps_xx
  Real lat = 0; ///< last lateral increment
  Real dep = 0; ///< last plastic increment
  explicit SolidUniaxial(const MaterialParams& mp) : m(mp) {}

  void step(Real dxx, Real dt = 1e-6) {
    auto trial = [&](Real dl, Real* s, Real* b, Real& ep) {
      for (int i = 0; i < 6; ++i) {
        s[i] = sig[i];
        b[i] = back[i];
      }
      ep = eps_p;
      const Real d[6] = {dxx, dl, dl, 0, 0, 0};
      return update_stress_solid(m, d, dt, s, b, ep);
    };
    auto f = [&](Real dl) {
      Real s[6], b[6], ep;
      trial(dl, s, b, ep);
      return s[1];
    };
    const Real tol = 1e-14 * (std::abs(sig[0]) + m.e * std::abs(dxx) + m.sigy);
    lat = solve_increasing(f, -std::abs(dxx), std::abs(dxx), tol);
    dep = trial(lat, sig, back, eps_p);
    eps += dxx;
  }
  /// Drive eps_xx to target in n equal steps.
  void go(Real target, int n, Real dt = 1e-6) {
    const Real d = (target - eps) / n;
    for (int i = 0; i < n; ++i) step(d, dt);
  }
};

/// One material point driven in uniaxial stress with the shell routine: dyy iterated so that
/// sigma_yy = 0 (sigma_zz = 0 is the routine's job).
struct ShellUniaxial {
  const MaterialParams& m;
  Real sig[5] = {0, 0, 0, 0, 0};
  Real back[3] = {0, 0, 0};
  Real eps_p = 0;
  Real eps = 0;
  Real dyy = 0, dzz = 0, dep = 0; ///< last lateral increments, plastic increment
  explicit ShellUniaxial(const MaterialParams& mp) : m(mp) {}

  void step(Real dxx, Real dt = 1e-6) {
    auto trial = [&](Real dl, Real* s, Real* b, Real& ep, Real& zz) {
      for (int i = 0; i < 5; ++i) s[i] = sig[i];
      for (int i = 0; i < 3; ++i) b[i] = back[i];
      ep = eps_p;
      const Real d[5] = {dxx, dl, 0, 0, 0};
      return update_stress_shell(m, d, dt, s, b, ep, zz);
    };
    auto f = [&](Real dl) {
      Real s[5], b[3], ep, zz;
      trial(dl, s, b, ep, zz);
      return s[1];
    };
    const Real tol = 1e-14 * (std::abs(sig[0]) + m.e * std::abs(dxx) + m.sigy);
    dyy = solve_increasing(f, -std::abs(dxx), std::abs(dxx), tol);
    dep = trial(dyy, sig, back, eps_p, dzz);
    eps += dxx;
  }
  void go(Real target, int n, Real dt = 1e-6) {
    const Real d = (target - eps) / n;
    for (int i = 0; i < n; ++i) step(d, dt);
  }
};

/// Hand formula: uniaxial stress under monotonic loading with linear hardening (E, sigy, Et).
inline Real bilinear_stress(Real eps, Real e = kE, Real sigy = kSigy, Real et = kEt) {
  const Real ey = sigy / e;
  return eps <= ey ? e * eps : sigy + et * (eps - ey);
}

/// von Mises equivalent of (sig - back) for 6-component tensors (shear = tensor components).
inline Real mises(const Real s[6], const Real b[6] = nullptr) {
  Real x[6];
  for (int i = 0; i < 6; ++i) x[i] = s[i] - (b ? b[i] : 0.0);
  const Real p = (x[0] + x[1] + x[2]) / 3.0;
  const Real a = x[0] - p, c = x[1] - p, d = x[2] - p;
  return std::sqrt(1.5 * (a * a + c * c + d * d + 2 * (x[3] * x[3] + x[4] * x[4] + x[5] * x[5])));
}

} // namespace parcae::test
