// Hydrodynamic materials (*MAT_009, *MAT_010, *MAT_015): the equation of state attached to the
// law's constants, and the stress update shared by the three laws: the law's deviatoric update
// (its catalogue row's update_deviator), then the EOS pressure at the end-of-step energy.
#include "materials/hydro.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include <fmt/format.h>

#include "materials/law_support.hpp"

namespace parcae {

void prepare_hydro_common(const Material& mat, MaterialParams& m) {
  if (!(mat.pc <= 0))
    fail_card(mat, fmt::format("pressure cutoff PC must not be positive (got {})", mat.pc));
  m.beta = 1;
}

void prepare_hydro_shear(const Material& mat, MaterialParams& m) {
  if (!(mat.g > 0)) fail_card(mat, fmt::format("shear modulus G must be positive (got {})", mat.g));
  m.g = mat.g;
}

void attach_eos(MaterialParams& m, const Material& mat, const Eos* eos) {
  const std::string who = fmt::format("{} {}", material_law(mat.kind).card, mat.id);
  auto fail = [&](const SourceLoc& loc, const std::string& msg) {
    throw InputError(loc, who + ": " + msg);
  };
  if (eos == nullptr)
    fail(mat.loc, "a hydrodynamic material needs an equation of state (*PART EOSID)");
  if (!(eos->v0 == 1.0 || eos->v0 == 0.0))
    fail(eos->loc, fmt::format("*EOS {}: initial relative volume V0 = {} is not supported (1)",
                               eos->id, eos->v0));
  m.eos_kind = eos->kind;
  m.eos_e0 = eos->e0;
  Real k0 = 0;
  if (eos->kind == EosKind::LinearPolynomial) {
    for (int i = 0; i < 7; ++i) m.eos_c[i] = eos->c[i];
    k0 = eos->c[1];
  } else if (eos->kind == EosKind::Tabulated || eos->kind == EosKind::TabulatedCompaction) {
    m.tab_ev = eos->tab_ev;
    m.tab_c = eos->tab_c;
    m.tab_t = eos->tab_t;
    m.tab_k = eos->tab_k;
    m.tab_gamma = eos->tab_gamma;
    // the reference bulk modulus (time step, contact stiffness): the stiffest of the loading
    // curve's segments, dp/d(-ln V), and of the unloading moduli K
    for (std::size_t i = 1; i < m.tab_ev.size(); ++i)
      k0 = std::max(k0, std::abs((m.tab_c[i] - m.tab_c[i - 1]) / (m.tab_ev[i] - m.tab_ev[i - 1])));
    if (eos->kind == EosKind::TabulatedCompaction)
      for (Real k : m.tab_k) k0 = std::max(k0, k);
  } else {
    if (!(eos->gr_c > 0))
      fail(eos->loc, fmt::format("*EOS_GRUNEISEN {}: C = {} must be positive", eos->id, eos->gr_c));
    m.gr_c = eos->gr_c;
    m.gr_s1 = eos->s1;
    m.gr_s2 = eos->s2;
    m.gr_s3 = eos->s3;
    m.gr_gamma0 = eos->gamma0;
    m.gr_a = eos->gr_a;
    k0 = m.ro * eos->gr_c * eos->gr_c;
  }
  if (!(k0 >= 0))
    fail(eos->loc,
         fmt::format("*EOS {}: the bulk modulus at mu = 0 is negative ({})", eos->id, k0));
  m.k = k0;
  m.lambda = k0 - 2.0 / 3.0 * m.g;
  m.e = 9.0 * k0 * m.g / std::max(3.0 * k0 + m.g, std::numeric_limits<Real>::min());
  m.nu = m.e > 0 ? m.e / (2.0 * m.g) - 1.0 : 0.5;
}

Real update_stress_hydro(const MaterialParams& m, const Real deps[6], Real dt, Real mu, Real r,
                         Real e_n, Real q, Real sig[6], Real hist[6], Real& eps_p) {
  const Real p_old = -(sig[0] + sig[1] + sig[2]) / 3.0;
  const Real dv = deps[0] + deps[1] + deps[2];
  const Real s_old[6] = {sig[0] + p_old, sig[1] + p_old, sig[2] + p_old, sig[3], sig[4], sig[5]};
  Real s[6] = {s_old[0], s_old[1], s_old[2], s_old[3], s_old[4], s_old[5]};
  // Deviatoric part: the law's (009 viscous, 010 / 015 radial return; dt = 0: unchanged).
  const Real dep = m.law().update_deviator(m, deps, dt, r, s, hist, eps_p);
  // Deviatoric work of the step (trapezoid, as the element's energy) and the pressure:
  //   E1 = E_n + r [w - (p_n + p1) dv / 2 - q dv],  p1 = a + b E1.
  Real w = 0;
  for (int k = 0; k < 3; ++k) w += 0.5 * (s_old[k] + s[k]) * deps[k];
  for (int k = 3; k < 6; ++k) w += 0.5 * (s_old[k] + s[k]) * deps[k];
  EosTerms t = eos_terms(m, mu);
  if (m.eos_kind == EosKind::TabulatedCompaction) {
    // Compaction: loading (eps_v = ln V below the least eps_min reached, kept in hist[5]) on
    // the tabulated curves; unloading and reloading on the bulk modulus K(eps_min):
    //   p = C(eps_min) + GAMA T(eps_min) E + K(eps_min) (eps_min - eps_v).
    Real& ev_min = hist[5];
    const Real ev = -std::log1p(mu);
    if (ev <= ev_min) {
      ev_min = ev;
    } else {
      Real slope = 0;
      const Real c_min = table_value(m.tab_ev, m.tab_c, ev_min, slope);
      const Real k_min = table_value(m.tab_ev, m.tab_k, ev_min, slope);
      t.a = c_min + k_min * (ev_min - ev);
      t.da = k_min / (1.0 + mu);
      t.b = m.tab_gamma * table_value(m.tab_ev, m.tab_t, ev_min, slope);
      t.db = 0;
    }
  }
  const Real e1 =
      (e_n + r * (w - 0.5 * p_old * dv - q * dv - 0.5 * t.a * dv)) / (1.0 + 0.5 * r * t.b * dv);
  Real p = t.a + t.b * e1;
  if (p < m.pc) p = m.pc;
  for (int k = 0; k < 3; ++k) sig[k] = s[k] - p;
  for (int k = 3; k < 6; ++k) sig[k] = s[k];
  return dep;
}

} // namespace parcae
