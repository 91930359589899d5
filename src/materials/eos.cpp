// Equations of state of the hydrodynamic materials (*EOS_LINEAR_POLYNOMIAL, *EOS_GRUNEISEN):
// p(mu, E) and the state's wave speed.
#include <algorithm>
#include <cmath>

#include "materials/material.hpp"

namespace parcae {

Real table_value(std::span<const Real> xs, std::span<const Real> ys, Real x, Real& slope) {
  const std::size_t n = xs.size();
  std::size_t i = 1;
  while (i + 1 < n && x > xs[i]) ++i;
  slope = (ys[i] - ys[i - 1]) / (xs[i] - xs[i - 1]);
  return ys[i - 1] + slope * (x - xs[i - 1]);
}

EosTerms eos_terms(const MaterialParams& m, Real mu) {
  EosTerms t;
  if (m.eos_kind == EosKind::Tabulated || m.eos_kind == EosKind::TabulatedCompaction) {
    const Real ev = -std::log1p(mu), dev = -1.0 / (1.0 + mu);
    Real dc = 0, dt = 0;
    t.a = table_value(m.tab_ev, m.tab_c, ev, dc);
    t.b = m.tab_gamma * table_value(m.tab_ev, m.tab_t, ev, dt);
    t.da = dc * dev;
    t.db = m.tab_gamma * dt * dev;
    return t;
  }
  if (m.eos_kind == EosKind::LinearPolynomial) {
    const Real* c = m.eos_c;
    const Real c2 = mu < 0 ? 0.0 : c[2], c6 = mu < 0 ? 0.0 : c[6];
    t.a = c[0] + mu * (c[1] + mu * (c2 + mu * c[3]));
    t.da = c[1] + mu * (2.0 * c2 + 3.0 * mu * c[3]);
    t.b = c[4] + mu * (c[5] + mu * c6);
    t.db = c[5] + 2.0 * mu * c6;
    return t;
  }
  const Real k0 = m.ro * m.gr_c * m.gr_c;
  t.b = m.gr_gamma0 + m.gr_a * mu;
  t.db = m.gr_a;
  if (mu <= 0) {
    t.a = k0 * mu;
    t.da = k0;
    return t;
  }
  const Real mp1 = mu + 1.0;
  const Real d =
      1.0 - (m.gr_s1 - 1.0) * mu - m.gr_s2 * mu * mu / mp1 - m.gr_s3 * mu * mu * mu / (mp1 * mp1);
  const Real dd = -(m.gr_s1 - 1.0) - m.gr_s2 * mu * (mu + 2.0) / (mp1 * mp1) -
                  m.gr_s3 * mu * mu * (mu + 3.0) / (mp1 * mp1 * mp1);
  const Real n = k0 * mu * (1.0 + (1.0 - 0.5 * m.gr_gamma0) * mu - 0.5 * m.gr_a * mu * mu);
  const Real dn = k0 * (1.0 + 2.0 * (1.0 - 0.5 * m.gr_gamma0) * mu - 1.5 * m.gr_a * mu * mu);
  t.a = n / (d * d);
  t.da = dn / (d * d) - 2.0 * n * dd / (d * d * d);
  return t;
}

Real eos_pressure(const MaterialParams& m, Real mu, Real e) {
  const EosTerms t = eos_terms(m, mu);
  return t.a + t.b * e;
}

Real hydro_wave_speed(const MaterialParams& m, Real mu, Real e, Real p) {
  const EosTerms t = eos_terms(m, mu);
  const Real shear = 4.0 / 3.0 * m.g;
  const Real c2 = (t.da + t.db * e + t.b * p / ((1.0 + mu) * (1.0 + mu)) + shear) / m.ro;
  const Real c2ref = (m.k + shear) / m.ro;
  return std::sqrt(std::max(c2, c2ref));
}

} // namespace parcae
