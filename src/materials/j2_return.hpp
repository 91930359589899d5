#pragma once
// Shared by the von Mises plasticity laws (internal to src/materials): the hardening and rate
// helpers, the 3-D radial return and the hypoelastic increment of j2_return.cpp. The notation
// and the algorithms are described at the top of j2_return.cpp.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "materials/material.hpp"

namespace parcae::j2 {

/// Index i of the segment [x[i], x[i+1]] to use for t (clamped to the first / last segment).
inline std::size_t segment(const std::vector<Real>& x, Real t) {
  const std::size_t n = x.size();
  const auto it = std::upper_bound(x.begin(), x.end(), t);
  std::size_t i = static_cast<std::size_t>(it - x.begin());
  i = i == 0 ? 0 : i - 1;
  return std::min(i, n - 2);
}

/// A tabulated hardening curve x -> y (effective plastic strain -> yield stress) at ep, and its
/// slope (right derivative): piecewise linear, constant below the first point, extrapolated with
/// the last segment's slope beyond the last point (as LS-DYNA does); never below 0.
inline Real tabulated(const std::vector<Real>& x, const std::vector<Real>& y, Real ep,
                      Real& slope) {
  if (x.size() == 1 || ep < x.front()) {
    slope = 0;
    return y.front();
  }
  const std::size_t i = segment(x, ep);
  slope = (y[i + 1] - y[i]) / (x[i + 1] - x[i]);
  const Real r = y[i] + slope * (ep - x[i]);
  if (r < 0) {
    slope = 0;
    return 0;
  }
  return r;
}

/// Isotropic part of the yield radius without rate effect, R(eps_p), and its slope dR/deps_p
/// (right derivative): the law's function, linear (SIGY + beta Ep eps_p) or tabulated (LCSS).
inline Real hardening(const MaterialParams& m, Real ep, Real& slope) {
  if (m.hardening_fn != nullptr) return m.hardening_fn(m, ep, slope);
  if (m.hard_x.empty()) {
    slope = m.beta * m.ep;
    return m.sigy + slope * ep;
  }
  return tabulated(m.hard_x, m.hard_y, ep, slope);
}

/// Rate scale factor S(rate) on the yield radius, and dS/drate: the law's own (rate_fn); LCSR:
/// piecewise linear, constant beyond both ends; otherwise Cowper-Symonds 1 + (rate/C)^(1/P); 1
/// without rate effect.
inline Real rate_scale(const MaterialParams& m, Real rate, Real& dsdr) {
  dsdr = 0;
  if (m.rate_fn != nullptr) return m.rate_fn(m, rate, dsdr);
  if (!m.rate_x.empty()) {
    const std::vector<Real>& x = m.rate_x;
    const std::vector<Real>& y = m.rate_y;
    if (x.size() == 1 || rate <= x.front()) return y.front();
    if (rate >= x.back()) return y.back();
    const std::size_t i = segment(x, rate);
    dsdr = (y[i + 1] - y[i]) / (x[i + 1] - x[i]);
    return y[i] + dsdr * (rate - x[i]);
  }
  if (m.c > 0 && rate > 0) {
    const Real a = std::pow(rate / m.c, 1.0 / m.p);
    dsdr = a / (m.p * rate);
    return 1.0 + a;
  }
  return 1.0;
}

/// The yield radius sy(eps_p, rate) and its derivatives dsy/deps_p (right) and dsy/drate: the
/// table of curves over the rate (*MAT_024 LCSS = a *DEFINE_TABLE), else min(S(rate) R(eps_p),
/// sigsat).
inline Real yield_radius(const MaterialParams& m, Real ep, Real rate, Real& dyde, Real& dydr) {
  dydr = 0;
  if (m.table_rate.empty()) {
    Real slope = 0, ds = 0;
    const Real s = rate_scale(m, rate, ds);
    const Real r = hardening(m, ep, slope);
    if (s * r >= m.sigsat) { // saturated (*MAT_098 SIGSAT)
      dyde = 0;
      return m.sigsat;
    }
    dyde = s * slope;
    dydr = r * ds;
    return s * r;
  }
  const std::vector<Real>& v = m.table_rate;
  const std::size_t n = v.size();
  if (n == 1 || !(rate > 0 || !m.table_log_rate)) // ln(0): the lowest rate's curve
    return tabulated(m.table_x.front(), m.table_y.front(), ep, dyde);
  const Real x = m.table_log_rate ? std::log(rate) : rate;
  if (x <= v.front()) return tabulated(m.table_x.front(), m.table_y.front(), ep, dyde);
  if (x >= v.back()) return tabulated(m.table_x.back(), m.table_y.back(), ep, dyde);
  const std::size_t i = segment(v, x);
  const Real w = (x - v[i]) / (v[i + 1] - v[i]);
  Real s0 = 0, s1 = 0;
  const Real y0 = tabulated(m.table_x[i], m.table_y[i], ep, s0);
  const Real y1 = tabulated(m.table_x[i + 1], m.table_y[i + 1], ep, s1);
  dyde = (1 - w) * s0 + w * s1;
  dydr = (y1 - y0) / (v[i + 1] - v[i]) / (m.table_log_rate ? rate : 1.0);
  return (1 - w) * y0 + w * y1;
}

/// Effective strain rate sqrt(2/3 e:e)/dt of a strain increment (engineering shear in d[3..5]).
inline Real effective_rate(const Real d[6], Real dt) {
  if (!(dt > 0)) return 0;
  const Real tr = (d[0] + d[1] + d[2]) / 3.0;
  const Real e0 = d[0] - tr, e1 = d[1] - tr, e2 = d[2] - tr;
  const Real ee = e0 * e0 + e1 * e1 + e2 * e2 + 0.5 * (d[3] * d[3] + d[4] * d[4] + d[5] * d[5]);
  return std::sqrt(2.0 / 3.0 * ee) / dt;
}

/// VP = 1 (*MAT_018, *MAT_024): rate effects in viscoplastic form, at the plastic strain rate.
inline bool viscoplastic(const MaterialParams& m) {
  return m.vp == 1;
}

/// Linear isotropic hardening (SIGY + Ep eps_p): no curve, table or law's own function.
inline bool linear_hardening(const MaterialParams& m) {
  return m.hard_x.empty() && m.hardening_fn == nullptr && m.table_rate.empty() &&
         !(m.sigsat < std::numeric_limits<Real>::infinity());
}

/// Data of the last return for the consistent tangent
/// C = K 1x1 + 2G theta I_dev - 2G theta_bar N x N (N unit normal, tensor components).
struct Tangent {
  Real theta = 1, theta_bar = 0;
  Real nzz = 0; ///< N_zz
};

/// Radial return of an elastic trial stress sig (in/out) with back stress back (in/out, may be
/// null when Hk == 0) at effective plastic strain eps_p (not updated). rate: effective total
/// strain rate (VP = 0 scaling). Returns the plastic strain increment.
Real radial_return(const MaterialParams& m, Real sig[6], Real* back, Real eps_p, Real rate, Real dt,
                   Tangent* tan);

/// Hypoelastic increment: sig += lambda tr(d) I + 2G d (engineering shear -> G gamma).
inline void elastic_increment(const MaterialParams& m, const Real d[6], Real sig[6]) {
  const Real lt = m.lambda * (d[0] + d[1] + d[2]);
  const Real g2 = 2.0 * m.g;
  sig[0] += lt + g2 * d[0];
  sig[1] += lt + g2 * d[1];
  sig[2] += lt + g2 * d[2];
  sig[3] += m.g * d[3];
  sig[4] += m.g * d[4];
  sig[5] += m.g * d[5];
}

inline bool rate_dependent(const MaterialParams& m) {
  return m.c > 0 || !m.rate_x.empty() || !m.table_rate.empty() || m.rate_fn != nullptr;
}

} // namespace parcae::j2
