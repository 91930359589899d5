// Von Mises plasticity shared by the plasticity laws (*MAT_003, *MAT_024, the deviatoric part of
// *MAT_010, and *MAT_012): radial return, the batched closed form for solids, and the
// plane-stress returns for shells. The laws' own files prepare the constants (MaterialParams).
//
// Plasticity: von Mises, associated flow, radial return (Wilkins / Krieg-Key) on the deviatoric
// stress, with mixed linear kinematic/isotropic hardening (003) or piecewise-linear isotropic
// hardening (024). Notation used below (tensor components, Voigt shear = tensor shear for
// stresses):
//   xi = s - alpha (relative stress), q = sqrt(3/2 xi:xi), yield: q <= sy(eps_p, rate)
//   plastic increment dep: q = q_tr - (3G + Hk) dep, with Hk = (1 - beta) Ep the kinematic modulus
//   stress:  s  = s_tr - 3G dep xi_tr / q_tr
//   back:    alpha += Hk dep xi_tr / q_tr   (= (1-beta) Ep 2/3 d(eps^p) tensor)
//   radius:  sy = S(rate) * R(eps_p + dep), R = sigy + beta Ep eps_p (003) or the LCSS curve.
//
// Strain rate (rate effects, VP = 0 and *MAT_003): the effective total strain rate
//   rate = sqrt(2/3 e_dot : e_dot),  e_dot = deviatoric part of deps/dt (tensor shear = gamma/2),
// i.e. LS-DYNA's definition; equal to |eps_dot_xx| in incompressible uniaxial stress. Shells use
// the in-plane increment with the through-thickness increment taken from plastic
// incompressibility, deps_zz = -(dxx + dyy), so that the rate is known before the plane-stress
// iteration (transverse shear is included). VP = 1 (*MAT_024): viscoplastic, the scale factor is
// evaluated at the plastic strain rate dep/dt, solved implicitly in the return mapping (with
// dt <= 0 the factor at rate 0 is used).
//
// Plane stress (shells): linear hardening (with or without a VP = 0 rate factor, which is fixed
// over the step) and elastic kinds use the direct plane-stress return map of
// materials/plane_stress_return.inc (sigma_zz = 0 exactly, scalar Newton on the plastic increment,
// yield condition to ~1e-13 of R). Tabulated hardening (LCSS) and viscoplastic rate effects
// (VP = 1) use update_stress_shell_iterated: deps_zz is iterated (safeguarded Newton with the
// consistent tangent C_zzzz) around the 3-D radial return until sigma_zz = 0 to ~1e-14 of the
// stress scale. Both give the backward-Euler solution of the 3-D return with sigma_zz = 0.
#include "materials/j2_return.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

#include "materials/laws.hpp"
#include "materials/plane_stress_return.inc"

namespace parcae {

namespace j2 {

Real radial_return(const MaterialParams& m, Real sig[6], Real* back, Real eps_p, Real rate, Real dt,
                   Tangent* tan) {
  const Real p = (sig[0] + sig[1] + sig[2]) / 3.0;
  Real xi[6] = {sig[0] - p, sig[1] - p, sig[2] - p, sig[3], sig[4], sig[5]};
  if (back != nullptr)
    for (int i = 0; i < 6; ++i) xi[i] -= back[i];
  const Real xx = xi[0] * xi[0] + xi[1] * xi[1] + xi[2] * xi[2] +
                  2.0 * (xi[3] * xi[3] + xi[4] * xi[4] + xi[5] * xi[5]);
  const Real q_tr = std::sqrt(1.5 * xx);

  const bool vp = viscoplastic(m);
  // VP=1 without C or LCSR has no rate effect: the rate-independent return applies.
  const bool vp_rate = vp && dt > 0 && rate_dependent(m);
  const Real fixed_rate = vp ? 0.0 : rate;
  const Real hk = (1.0 - m.beta) * m.ep;
  const Real g3 = 3.0 * m.g;

  // yield radius sy(d) at eps_p + d and its derivative hy = dsy/dd
  auto yield = [&](Real d, Real& hy) {
    Real dyde = 0, dydr = 0;
    if (vp_rate) {
      const Real sy = yield_radius(m, eps_p + d, d / dt, dyde, dydr);
      hy = dyde + dydr / dt;
      return sy;
    }
    const Real sy = yield_radius(m, eps_p + d, fixed_rate, dyde, dydr);
    hy = dyde;
    return sy;
  };

  Real h0 = 0;
  const Real sy0 = yield(0.0, h0);
  if (tan != nullptr) *tan = Tangent{};
  if (q_tr <= sy0 || q_tr <= 0) return 0;

  Real lo = 0, hi = q_tr / (g3 + hk);     // g(0) > 0, g(hi) = -sy(hi) <= 0
  Real d = (q_tr - sy0) / (g3 + hk + h0); // rate-independent estimate
  Real hy = h0;
  const Real tol = 1e-14 * q_tr;
  if (!vp_rate && linear_hardening(m)) {
    // Linear hardening with a fixed rate factor: g(d) is linear, the estimate is exact.
  } else if (vp_rate && m.rate_x.empty() && m.table_rate.empty() && m.rate_fn == nullptr &&
             !(m.sigsat < std::numeric_limits<Real>::infinity())) {
    // VP = 1 with Cowper-Symonds: g(d) has an infinite slope at d = 0 (S ~ d^(1/P)). Solve in
    // u = (d/(dt C))^(1/P) instead: d = dt C u^P, S = 1 + u, and
    //   g(u) = q_tr - (3G + Hk) d(u) - (1 + u) R(eps_p + d(u))
    // is smooth (concave for P >= 1), so the safeguarded Newton converges quadratically.
    const Real dtc = dt * m.c;
    Real ulo = 0, uhi = std::pow(hi / dtc, 1.0 / m.p);
    Real u = std::pow(std::max(d, 0.0) / dtc, 1.0 / m.p);
    if (!(u > ulo && u < uhi)) u = 0.5 * (ulo + uhi);
    for (int it = 0; it < 100; ++it) {
      const Real up = std::pow(u, m.p - 1.0);
      d = dtc * up * u;
      const Real dd = m.p * dtc * up; // d'(u)
      Real slope = 0;
      const Real r = hardening(m, eps_p + d, slope);
      const Real gval = q_tr - (g3 + hk) * d - (1.0 + u) * r;
      hy = (1.0 + u) * slope + (dd > 0 ? r / dd : std::numeric_limits<Real>::infinity());
      if (std::abs(gval) <= tol) break;
      if (gval > 0)
        ulo = u;
      else
        uhi = u;
      if (uhi - ulo <= 1e-15 * uhi) break;
      const Real dg = -(g3 + hk + (1.0 + u) * slope) * dd - r;
      Real un = u - gval / dg;
      if (!(un > ulo && un < uhi)) un = 0.5 * (ulo + uhi);
      u = un;
    }
  } else {
    // Solve g(d) = q_tr - (3G + Hk) d - sy(d) = 0: Newton with the (right) slope of the
    // hardening segment, safeguarded by the bracket [lo, hi]. On a linear segment (linear
    // hardening, tabulated within one segment) the Newton step is exact.
    if (!(d > lo && d < hi)) d = 0.5 * (lo + hi);
    for (int it = 0; it < 100; ++it) {
      const Real sy = yield(d, hy);
      const Real gval = q_tr - (g3 + hk) * d - sy;
      if (std::abs(gval) <= tol) break;
      if (gval > 0)
        lo = d;
      else
        hi = d;
      if (hi - lo <= 1e-15 * hi) break;
      Real dn = d + gval / (g3 + hk + hy);
      if (!(dn > lo && dn < hi)) dn = 0.5 * (lo + hi);
      d = dn;
    }
  }

  const Real f = d / q_tr; // scaling of xi_tr
  const Real ds = g3 * f, da = hk * f;
  for (int i = 0; i < 6; ++i) {
    sig[i] -= ds * xi[i];
    if (back != nullptr && hk != 0) back[i] += da * xi[i];
  }
  if (tan != nullptr) {
    const Real hsum = hk + hy;
    tan->theta = 1.0 - g3 * f;
    tan->theta_bar = g3 / (g3 + hsum) - (1.0 - tan->theta);
    tan->nzz = xi[2] / std::sqrt(xx);
  }
  return d;
}

} // namespace j2

using namespace j2;

namespace {

// Lanes of update_stress_solid_batch's closed form (GCC/Clang vector extensions).
using BVec = Real __attribute__((vector_size(kSolidBatch * sizeof(Real))));
using BMask = std::int64_t __attribute__((vector_size(kSolidBatch * sizeof(Real))));
static_assert(sizeof(Real) == sizeof(std::int64_t));

inline BVec bload(const Real* p) {
  BVec v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline void bstore(Real* p, BVec v) {
  std::memcpy(p, &v, sizeof v);
}
inline BVec bsplat(Real a) {
  return BVec{} + a;
}
/// Lane-wise correctly rounded square root (one vsqrtpd where available).
inline BVec bsqrt(BVec a) {
  Real t[kSolidBatch];
  std::memcpy(t, &a, sizeof a);
#if defined(__AVX__)
  static_assert(kSolidBatch % 4 == 0);
  for (int l = 0; l < kSolidBatch; l += 4)
    _mm256_storeu_pd(t + l, _mm256_sqrt_pd(_mm256_loadu_pd(t + l)));
#elif defined(__SSE2__)
  static_assert(kSolidBatch % 2 == 0);
  for (int l = 0; l < kSolidBatch; l += 2) _mm_storeu_pd(t + l, _mm_sqrt_pd(_mm_loadu_pd(t + l)));
#else
  for (int l = 0; l < kSolidBatch; ++l) t[l] = std::sqrt(t[l]);
#endif
  return bload(t);
}

} // namespace

Real yield_stress(const MaterialParams& m, Real eps_p, Real rate) {
  if (!m.plastic()) return std::numeric_limits<Real>::infinity();
  Real dyde = 0, dydr = 0;
  return yield_radius(m, eps_p, rate, dyde, dydr);
}

Real update_j2_solid(const MaterialParams& m, const Real deps[6], Real dt, Real sig[6],
                     Real back[6], Real& eps_p) {
  elastic_increment(m, deps, sig);
  if (!m.plastic()) return 0;
  const Real rate = rate_dependent(m) && !viscoplastic(m) ? effective_rate(deps, dt) : 0.0;
  const Real dep = radial_return(m, sig, back, eps_p, rate, dt, nullptr);
  eps_p += dep;
  return dep;
}

bool solid_batch_closed_form(const MaterialParams& m) {
  if (m.hydro()) return false;
  // the elastic kinds; another law with its own update (*MAT_063) is updated point by point
  if (!m.plastic()) return m.law().update_solid == &update_elastic_solid;
  return !m.law().own_plastic_update && linear_hardening(m) && !rate_dependent(m) &&
         !viscoplastic(m);
}

void update_stress_solid_batch(const MaterialParams& m, Real dt, SolidBatch& b,
                               const bool active[kSolidBatch]) {
  constexpr int n = kSolidBatch;
  if (!solid_batch_closed_form(m)) {
    for (int l = 0; l < n; ++l) {
      if (!active[l]) continue;
      Real d[6], s[6], a[6];
      for (int k = 0; k < 6; ++k) {
        d[k] = b.deps[k][l];
        s[k] = b.sig[k][l];
        a[k] = b.back[k][l];
      }
      update_stress_solid(m, d, dt, s, a, b.eps_p[l]);
      for (int k = 0; k < 6; ++k) {
        b.sig[k][l] = s[k];
        b.back[k][l] = a[k];
      }
    }
    return;
  }
  // Closed form: the elastic increment, then (plastic kinds) the radial return of
  // radial_return for linear hardening and a rate factor of 1, for all points at once with the
  // same operations in the same order, blended branch-free (one SIMD lane per point).
  const Real lam = m.lambda, g = m.g, g2 = 2.0 * m.g, g3 = 3.0 * m.g;
  const Real hk = (1.0 - m.beta) * m.ep;
  const Real h0 = m.beta * m.ep; // hardening(): R(eps_p) = sigy + beta Ep eps_p
  const Real denom = g3 + hk + h0;
  BMask act{};
  for (int l = 0; l < kSolidBatch; ++l) act[l] = active[l] ? -1 : 0;
  BVec s[6];
  {
    const BVec d0 = bload(b.deps[0]), d1 = bload(b.deps[1]), d2 = bload(b.deps[2]);
    const BVec lt = lam * (d0 + d1 + d2);
    s[0] = bload(b.sig[0]) + (lt + g2 * d0);
    s[1] = bload(b.sig[1]) + (lt + g2 * d1);
    s[2] = bload(b.sig[2]) + (lt + g2 * d2);
    for (int k = 3; k < 6; ++k) s[k] = bload(b.sig[k]) + g * bload(b.deps[k]);
  }
  if (m.plastic()) {
    const BVec p = (s[0] + s[1] + s[2]) / 3.0;
    BVec xi[6];
    for (int k = 0; k < 6; ++k) xi[k] = (k < 3 ? s[k] - p : s[k]) - bload(b.back[k]);
    const BVec xx = xi[0] * xi[0] + xi[1] * xi[1] + xi[2] * xi[2] +
                    2.0 * (xi[3] * xi[3] + xi[4] * xi[4] + xi[5] * xi[5]);
    const BVec q_tr = bsqrt(1.5 * xx);
    const BVec ep = bload(b.eps_p);
    const BVec sy0 = m.sigy + h0 * ep;
    const BMask yield = (q_tr > sy0) & (q_tr > 0.0);
    const BVec d = (q_tr - sy0) / denom;
    const BVec f = d / (yield ? q_tr : bsplat(1.0));
    const BVec ds = g3 * f;
    for (int k = 0; k < 6; ++k) s[k] = yield ? s[k] - ds * xi[k] : s[k];
    const BMask upd = yield & act;
    if (hk != 0) {
      const BVec da = hk * f;
      for (int k = 0; k < 6; ++k) {
        const BVec a = bload(b.back[k]);
        bstore(b.back[k], upd ? a + da * xi[k] : a);
      }
    }
    bstore(b.eps_p, upd ? ep + d : ep);
  }
  for (int k = 0; k < 6; ++k) bstore(b.sig[k], act ? s[k] : bload(b.sig[k]));
}

namespace {

/// The direct plane-stress return of plane_stress_return.inc for tabulated hardening (LCSS), one
/// segment of the curve at a time: on the segment [x_i, x_i+1] the yield radius is linear in the
/// plastic strain, R = S (y_i + h_i (eps_p - x_i)), i.e. the linear-hardening problem with the
/// yield stress y at the step's eps_p (the segment's line, extrapolated back) and the slope h_i.
/// The yield condition is monotone in the increment d (hardening: h_i >= 0), so if the root on
/// the segment of eps_p lies beyond the segment's end, the true root lies beyond it too: solve
/// again on the next segment, until the root lies on the segment solved (the last one extends
/// to infinity; below the first point the curve is constant). Returns false, leaving the inputs
/// untouched, where the curve softens or its extrapolated line is not positive (the iterated
/// return handles those).
bool tabulated_plane_stress_return(const MaterialParams& m, const Real deps[5], Real dt,
                                   Real sig[5], Real& eps_p, Real& deps_zz, Real& dep) {
  const std::vector<Real>& x = m.hard_x;
  const std::vector<Real>& y = m.hard_y;
  const std::size_t n = x.size();
  shell_ps::PlaneStressConsts k = shell_ps::plane_stress_consts(m);
  k.hk = 0;
  const Real scale = shell_yield_scale(m, deps, dt);
  // segment: -1 below the first point (constant y[0]); i: [x_i, x_i+1]; the last is open.
  std::ptrdiff_t seg =
      (n == 1 || eps_p < x.front()) ? -1 : static_cast<std::ptrdiff_t>(segment(x, eps_p));
  for (;;) {
    Real y_at = 0, h = 0, x_end = std::numeric_limits<Real>::infinity();
    if (seg < 0) {
      y_at = y.front();
      if (n > 1) x_end = x.front();
    } else {
      const auto i = static_cast<std::size_t>(seg);
      h = (y[i + 1] - y[i]) / (x[i + 1] - x[i]);
      y_at = y[i] + h * (eps_p - x[i]);
      if (i + 2 < n) x_end = x[i + 1];
    }
    if (!(h >= 0) || !(y_at > 0)) return false;
    k.sigy = y_at;
    k.hiso = h;
    shell_ps::PlaneStressPoints<Real, 1> P;
    P.d0[0] = deps[0];
    P.d1[0] = deps[1];
    P.d2[0] = deps[2];
    P.scale[0] = scale;
    P.s0[0] = sig[0];
    P.s1[0] = sig[1];
    P.s2[0] = sig[2];
    P.b0[0] = P.b1[0] = P.b2[0] = 0.0;
    P.ep[0] = 0.0; // the yield stress is at eps_p already
    shell_ps::plane_stress_return(k, 1, P);
    const bool last = seg >= 0 && static_cast<std::size_t>(seg) + 2 >= n;
    if (last || !(eps_p + P.dep[0] > x_end)) {
      sig[0] = P.s0[0];
      sig[1] = P.s1[0];
      sig[2] = P.s2[0];
      dep = P.dep[0];
      eps_p += dep;
      deps_zz = P.dzz[0];
      return true;
    }
    ++seg; // the root lies further along the curve
  }
}

/// Tabulated hardening that tabulated_plane_stress_return handles: one LCSS curve (no table, no
/// law's own function, no saturation), isotropic, rate effects only as a factor fixed over the
/// step (VP = 0).
bool tabulated_direct(const MaterialParams& m) {
  return m.plastic() && !m.hard_x.empty() && m.hard_x.size() == m.hard_y.size() &&
         m.hardening_fn == nullptr && m.table_rate.empty() &&
         !(m.sigsat < std::numeric_limits<Real>::infinity()) &&
         !(viscoplastic(m) && rate_dependent(m)) && (1.0 - m.beta) * m.ep == 0 && m.hill_r == 0 &&
         !m.hyperelastic() && !m.law().oriented;
}

} // namespace

Real update_j2_shell(const MaterialParams& m, const Real deps[5], Real dt, Real sig[5],
                     Real back[3], Real& eps_p, Real& deps_zz) {
  if (!shell_direct_return(m)) {
    if (tabulated_direct(m)) {
      // Elastic steps (most of them) first, with the arithmetic of update_stress_shell_iterated's
      // elastic branch (the same results to the bit).
      const Real c = m.e / (1.0 - m.nu * m.nu);
      const Real t0 = sig[0] + c * (deps[0] + m.nu * deps[1]);
      const Real t1 = sig[1] + c * (deps[1] + m.nu * deps[0]);
      const Real t2 = sig[2] + m.g * deps[2];
      Real slope = 0;
      const Real sy = shell_yield_scale(m, deps, dt) * tabulated(m.hard_x, m.hard_y, eps_p, slope);
      if (t0 * t0 - t0 * t1 + t1 * t1 + 3.0 * t2 * t2 <= sy * sy) {
        sig[0] = t0;
        sig[1] = t1;
        sig[2] = t2;
        sig[3] += m.g * deps[3];
        sig[4] += m.g * deps[4];
        deps_zz = -m.nu / (1.0 - m.nu) * (deps[0] + deps[1]);
        return 0;
      }
      // transverse shear: elastic
      Real s[5] = {sig[0], sig[1], sig[2], sig[3] + m.g * deps[3], sig[4] + m.g * deps[4]};
      Real ep = eps_p, dzz = 0, dep = 0;
      if (tabulated_plane_stress_return(m, deps, dt, s, ep, dzz, dep)) {
        for (int i = 0; i < 5; ++i) sig[i] = s[i];
        eps_p = ep;
        deps_zz = dzz;
        return dep;
      }
    }
    return update_stress_shell_iterated(m, deps, dt, sig, back, eps_p, deps_zz);
  }
  sig[3] += m.g * deps[3];
  sig[4] += m.g * deps[4];
  const shell_ps::PlaneStressConsts k = shell_ps::plane_stress_consts(m);
  shell_ps::PlaneStressPoints<Real, 1> P;
  P.d0[0] = deps[0];
  P.d1[0] = deps[1];
  P.d2[0] = deps[2];
  P.scale[0] = shell_yield_scale(m, deps, dt);
  P.s0[0] = sig[0];
  P.s1[0] = sig[1];
  P.s2[0] = sig[2];
  P.b0[0] = back != nullptr ? back[0] : 0.0;
  P.b1[0] = back != nullptr ? back[1] : 0.0;
  P.b2[0] = back != nullptr ? back[2] : 0.0;
  P.ep[0] = eps_p;
  shell_ps::plane_stress_return(k, 1, P);
  sig[0] = P.s0[0];
  sig[1] = P.s1[0];
  sig[2] = P.s2[0];
  if (back != nullptr) {
    back[0] = P.b0[0];
    back[1] = P.b1[0];
    back[2] = P.b2[0];
  }
  eps_p = P.ep[0];
  deps_zz = P.dzz[0];
  return P.dep[0];
}

Real update_stress_shell_iterated(const MaterialParams& m, const Real deps[5], Real dt, Real sig[5],
                                  Real back[3], Real& eps_p, Real& deps_zz) {
  // transverse shear: elastic
  sig[3] += m.g * deps[3];
  sig[4] += m.g * deps[4];
  const Real dzz_el = -m.nu / (1.0 - m.nu) * (deps[0] + deps[1]);

  // plane-stress elastic trial (exact when the point stays elastic)
  const Real c = m.e / (1.0 - m.nu * m.nu);
  Real s3[6] = {sig[0] + c * (deps[0] + m.nu * deps[1]),
                sig[1] + c * (deps[1] + m.nu * deps[0]),
                0.0,
                sig[2] + m.g * deps[2],
                0.0,
                0.0};
  if (!m.plastic()) {
    sig[0] = s3[0];
    sig[1] = s3[1];
    sig[2] = s3[3];
    deps_zz = dzz_el;
    return 0;
  }

  Real rate = 0;
  if (rate_dependent(m) && !viscoplastic(m)) {
    // through-thickness rate from plastic incompressibility (see header comment)
    const Real d6[6] = {deps[0], deps[1], -(deps[0] + deps[1]), deps[2], deps[3], deps[4]};
    rate = effective_rate(d6, dt);
  }

  const Real b0[3] = {back != nullptr ? back[0] : 0.0, back != nullptr ? back[1] : 0.0,
                      back != nullptr ? back[2] : 0.0};
  Real b3[6] = {b0[0], b0[1], -(b0[0] + b0[1]), b0[2], 0.0, 0.0};
  {
    const Real p = (s3[0] + s3[1]) / 3.0;
    const Real x0 = s3[0] - p - b3[0], x1 = s3[1] - p - b3[1], x2 = -p - b3[2], x3 = s3[3] - b3[3];
    const Real q = std::sqrt(1.5 * (x0 * x0 + x1 * x1 + x2 * x2 + 2.0 * x3 * x3));
    Real dyde = 0, dydr = 0;
    const Real sy = yield_radius(m, eps_p, rate, dyde, dydr); // VP=1: rate = 0
    if (q <= sy) {
      sig[0] = s3[0];
      sig[1] = s3[1];
      sig[2] = s3[3];
      deps_zz = dzz_el;
      return 0;
    }
  }

  // Plastic: find deps_zz such that the 3-D radial return of the trial built with
  // d = [dxx, dyy, dzz, gxy, 0, 0] from [sxx, syy, 0, sxy, 0, 0] gives sigma_zz = 0.
  // sigma_zz(dzz) is increasing (d sigma_zz / d dzz = C_zzzz >= K); Newton with the consistent
  // tangent, safeguarded by bisection once a sign change is bracketed.
  const Real scale = std::abs(sig[0]) + std::abs(sig[1]) + std::abs(sig[2]) + m.sigy +
                     m.e * (std::abs(deps[0]) + std::abs(deps[1]) + std::abs(deps[2]));
  const Real tol = 1e-14 * scale;
  Real lo = -std::numeric_limits<Real>::infinity(), hi = std::numeric_limits<Real>::infinity();
  Real dzz = dzz_el, dzz_used = dzz_el; // dzz_used: the iterate the state in out/bout belongs to
  Real dep = 0;
  Real out[6] = {};
  Real bout[6] = {};
  for (int it = 0; it < 100; ++it) {
    const Real d6[6] = {deps[0], deps[1], dzz, deps[2], 0.0, 0.0};
    for (int i = 0; i < 6; ++i) bout[i] = b3[i];
    out[0] = sig[0];
    out[1] = sig[1];
    out[2] = 0;
    out[3] = sig[2];
    out[4] = 0;
    out[5] = 0;
    elastic_increment(m, d6, out);
    Tangent t;
    dep = radial_return(m, out, bout, eps_p, rate, dt, &t);
    dzz_used = dzz;
    const Real f = out[2];
    if (std::abs(f) <= tol) break;
    if (f > 0)
      hi = std::min(hi, dzz);
    else
      lo = std::max(lo, dzz);
    const Real czz = m.k + 4.0 / 3.0 * m.g * t.theta - 2.0 * m.g * t.theta_bar * t.nzz * t.nzz;
    Real dn = dzz - f / czz;
    if (std::isfinite(lo) && std::isfinite(hi)) {
      if (hi - lo <= 1e-15 * (std::abs(hi) + std::abs(lo))) break; // round-off limit reached
      if (!(dn > lo && dn < hi)) dn = 0.5 * (lo + hi);
    }
    if (dn == dzz) break;
    dzz = dn;
  }

  sig[0] = out[0];
  sig[1] = out[1];
  sig[2] = out[3];
  if (back != nullptr) {
    back[0] = bout[0];
    back[1] = bout[1];
    back[2] = bout[3];
  }
  eps_p += dep;
  deps_zz = dzz_used;
  return dep;
}

// Shell helpers (update_stress_shell's dispatch and rate factor).

bool shell_keeps_back_stress(const MaterialParams& m) {
  return !(m.law().update_shell == &update_j2_shell && (1.0 - m.beta) * m.ep == 0);
}

bool shell_direct_return(const MaterialParams& m) {
  if (m.hyperelastic()) return false; // *MAT_027: its own membrane law, through update_shell
  if (m.law().oriented) return false; // material axes (*MAT_FABRIC): its own law
  if (m.hydro()) return false;        // *MAT_015's plane-stress form: its own update_shell
  if (m.law().own_plastic_update) return false; // *MAT_081: damage around the return
  if (!m.plastic()) return true;
  if (m.hill_r != 0) return false; // *MAT_037: its own (Hill) return, through update_shell
  return linear_hardening(m) && !(viscoplastic(m) && rate_dependent(m));
}

Real shell_yield_scale(const MaterialParams& m, const Real deps[5], Real dt) {
  if (!m.plastic() || !rate_dependent(m) || viscoplastic(m)) return 1.0;
  // through-thickness rate from plastic incompressibility (see header comment)
  const Real d6[6] = {deps[0], deps[1], -(deps[0] + deps[1]), deps[2], deps[3], deps[4]};
  Real dsdr = 0;
  return rate_scale(m, effective_rate(d6, dt), dsdr);
}

} // namespace parcae
