// *MAT_JOHNSON_COOK (015), solids only, hydrodynamic (pressure from the part's EOS): von Mises
// plasticity on the Johnson-Cook yield stress (Johnson & Cook 1983) with strain hardening,
// logarithmic rate term and thermal softening at the adiabatic temperature.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include <fmt/format.h>

#include "materials/hydro.hpp"
#include "materials/j2_return.hpp"
#include "materials/law_support.hpp"
#include "materials/laws.hpp"

namespace parcae {

namespace {

/// Johnson-Cook rate x thermal factor (1 + C ln max(rate*, 1))(1 - T*^M).
Real jc_factor(const MaterialParams& m, Real rate, Real temperature) {
  const Real rs = rate / m.jc_epso;
  const Real fr = rs > 1.0 ? 1.0 + m.jc_c * std::log(rs) : 1.0;
  Real ft = 1.0;
  if (m.jc_cp > 0 && m.jc_tm > m.jc_tr) {
    const Real ts = (temperature - m.jc_tr) / (m.jc_tm - m.jc_tr);
    ft = ts <= 0 ? 1.0 : ts >= 1 ? 0.0 : 1.0 - std::pow(ts, m.jc_m);
  }
  return std::max(fr * ft, 0.0);
}

/// Johnson-Cook strain hardening A + B eps^N.
Real jc_hardening(const MaterialParams& m, Real eps_p) {
  return m.jc_b > 0 && eps_p > 0 ? m.jc_a + m.jc_b * std::pow(eps_p, m.jc_n) : m.jc_a;
}

} // namespace

Real johnson_cook_yield(const MaterialParams& m, Real eps_p, Real rate, Real temperature) {
  return jc_hardening(m, eps_p) * jc_factor(m, rate, temperature);
}

namespace {

/// Radial return of the deviatoric trial stress s (in/out, tensor shear components) on the
/// Johnson-Cook yield stress at eps_p + d (rate and temperature fixed over the step): solves
/// q_tr - 3G d = sy(eps_p + d) by bisection-safeguarded Newton. Returns d (0: elastic).
Real jc_return(const MaterialParams& m, Real s[6], Real eps_p, Real rate, Real temperature) {
  const Real ss =
      s[0] * s[0] + s[1] * s[1] + s[2] * s[2] + 2.0 * (s[3] * s[3] + s[4] * s[4] + s[5] * s[5]);
  const Real q_tr = std::sqrt(1.5 * ss);
  const Real scale = jc_factor(m, rate, temperature);
  const Real sy0 = scale * jc_hardening(m, eps_p);
  if (q_tr <= sy0 || q_tr <= 0) return 0;
  const Real g3 = 3.0 * m.g;
  Real lo = 0, hi = q_tr / g3;
  Real d = (q_tr - sy0) / g3;
  const Real tol = 1e-14 * q_tr;
  for (int it = 0; it < 200; ++it) {
    const Real sy = scale * jc_hardening(m, eps_p + d);
    const Real gval = q_tr - g3 * d - sy;
    if (std::abs(gval) <= tol) break;
    if (gval > 0)
      lo = d;
    else
      hi = d;
    if (hi - lo <= 1e-15 * hi) break;
    const Real e = eps_p + d;
    const Real slope =
        m.jc_b > 0 && e > 0 ? scale * m.jc_b * m.jc_n * std::pow(e, m.jc_n - 1.0) : 0.0;
    Real dn = d + gval / (g3 + slope);
    if (!(dn > lo && dn < hi)) dn = 0.5 * (lo + hi);
    d = dn;
  }
  const Real f = 1.0 - g3 * d / q_tr;
  for (int i = 0; i < 6; ++i) s[i] *= f;
  return d;
}

} // namespace

void prepare_johnson_cook(const Material& mat, const Model& model, MaterialParams& m) {
  auto fail = [&](const std::string& msg) { fail_card(mat, msg); };
  prepare_hydro_common(mat, m);
  prepare_hydro_shear(mat, m);
  // *MAT_015: SPALL 1, p >= PC (PC = 0: no cutoff)
  m.pc = mat.pc < 0 ? mat.pc : -std::numeric_limits<Real>::infinity();
  if (!(mat.jc_a > 0))
    fail(fmt::format("A must be positive (got {}; A < 0, a load curve, is not "
                     "supported)",
                     mat.jc_a));
  if (!(mat.jc_b >= 0)) fail(fmt::format("B must not be negative (got {})", mat.jc_b));
  if (mat.jc_b > 0 && !(mat.jc_n > 0)) fail(fmt::format("N must be positive (got {})", mat.jc_n));
  if (!(mat.jc_epso > 0)) fail(fmt::format("EPSO must be positive (got {})", mat.jc_epso));
  if (!(mat.jc_cp >= 0)) fail(fmt::format("CP must not be negative (got {})", mat.jc_cp));
  if (mat.jc_cp > 0 && mat.jc_tm > mat.jc_tr && !(mat.jc_m > 0))
    fail(fmt::format("M must be positive with thermal softening (got {})", mat.jc_m));
  m.jc_a = mat.jc_a;
  m.jc_b = mat.jc_b;
  m.jc_n = mat.jc_n;
  m.jc_c = mat.jc_c;
  m.jc_m = mat.jc_m;
  m.jc_tm = mat.jc_tm;
  m.jc_tr = mat.jc_tr;
  m.jc_epso = mat.jc_epso;
  m.jc_cp = mat.jc_cp;
  m.sigy = mat.jc_a;
}

Real update_johnson_cook_deviator(const MaterialParams& m, const Real deps[6], Real dt, Real r,
                                  Real s[6], Real hist[6], Real& eps_p) {
  if (!(dt > 0)) return 0;
  add_deviatoric_increment(m, deps, s);
  const Real temperature = m.jc_cp > 0 ? m.jc_tr + hist[0] / (m.ro * m.jc_cp) : m.jc_tr;
  const Real rate = m.jc_c != 0 ? j2::effective_rate(deps, dt) : 0.0;
  const Real dep = jc_return(m, s, eps_p, rate, temperature);
  if (dep > 0) {
    const Real sy = std::sqrt(1.5 * (s[0] * s[0] + s[1] * s[1] + s[2] * s[2] +
                                     2.0 * (s[3] * s[3] + s[4] * s[4] + s[5] * s[5])));
    hist[0] += r * sy * dep; // plastic work per unit initial volume
  }
  eps_p += dep;
  return dep;
}

} // namespace parcae
