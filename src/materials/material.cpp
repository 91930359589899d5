// Constitutive models: *MAT_ELASTIC (001), *MAT_PLASTIC_KINEMATIC (003), *MAT_RIGID (020),
// *MAT_PIECEWISE_LINEAR_PLASTICITY (024), *MAT_MOONEY-RIVLIN_RUBBER (027).
//
// Mooney-Rivlin (027) is hyperelastic: the stress is a function of the total deformation
// gradient (hyperelastic_stress), not an incremental update. LS-DYNA's compressible form
//   W = A(I1-3) + B(I2-3) + C(III^-2 - 1) + D(III-1)^2,   C = A/2 + B,
//   D = [A(5 nu - 2) + B(11 nu - 5)] / [2(1 - 2 nu)]
// in the invariants of C = F^T F. C makes the reference state stress free; D gives the
// small-strain bulk modulus K = 2G(1 + nu)/(3(1 - 2 nu)) of linear elasticity with G = 2(A + B).
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
#include "materials/material.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

#include <fmt/format.h>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

#include "materials/plane_stress_return.inc"

namespace parcae {

Real MaterialParams::wave_speed_solid() const {
  if (ro <= 0) return 0;
  return std::sqrt((k + 4.0 * g / 3.0) / ro);
}

Real MaterialParams::wave_speed_shell() const {
  if (ro <= 0) return 0;
  return std::sqrt(e / (ro * (1.0 - nu * nu)));
}

namespace {

const char* card_name(MaterialKind k) {
  switch (k) {
  case MaterialKind::Elastic:
    return "*MAT_ELASTIC";
  case MaterialKind::PlasticKinematic:
    return "*MAT_PLASTIC_KINEMATIC";
  case MaterialKind::Rigid:
    return "*MAT_RIGID";
  case MaterialKind::PiecewiseLinear:
    return "*MAT_PIECEWISE_LINEAR_PLASTICITY";
  case MaterialKind::MooneyRivlin:
    return "*MAT_MOONEY-RIVLIN_RUBBER";
  case MaterialKind::Null:
    return "*MAT_NULL";
  case MaterialKind::ElasticPlasticHydro:
    return "*MAT_ELASTIC_PLASTIC_HYDRO";
  case MaterialKind::JohnsonCook:
    return "*MAT_JOHNSON_COOK";
  }
  return "*MAT";
}

/// Copy a curve into x/y after checking it exists and its abscissae strictly increase.
void copy_curve(const Material& mat, const Model& model, GlobalId lcid, const char* what,
                std::vector<Real>& x, std::vector<Real>& y) {
  const Curve* c = model.find_curve(lcid);
  const std::string who = fmt::format("{} {}", card_name(mat.kind), mat.id);
  if (c == nullptr)
    throw InputError(mat.loc, fmt::format("{}: {} curve {} is not defined", who, what, lcid));
  if (c->x.empty() || c->x.size() != c->y.size())
    throw InputError(mat.loc, fmt::format("{}: {} curve {} has no points", who, what, lcid));
  for (std::size_t i = 1; i < c->x.size(); ++i)
    if (!(c->x[i] > c->x[i - 1]))
      throw InputError(mat.loc, fmt::format("{}: {} curve {}: abscissae must increase strictly "
                                            "(point {} x = {} after x = {})",
                                            who, what, lcid, i + 1, c->x[i], c->x[i - 1]));
  x = c->x;
  y = c->y;
}

/// Index i of the segment [x[i], x[i+1]] to use for t (clamped to the first / last segment).
inline std::size_t segment(const std::vector<Real>& x, Real t) {
  const std::size_t n = x.size();
  const auto it = std::upper_bound(x.begin(), x.end(), t);
  std::size_t i = static_cast<std::size_t>(it - x.begin());
  i = i == 0 ? 0 : i - 1;
  return std::min(i, n - 2);
}

/// Isotropic part of the yield radius without rate effect, R(eps_p), and its slope dR/deps_p
/// (right derivative). Tabulated (LCSS): piecewise linear, constant below the first point,
/// extrapolated with the last segment's slope beyond the last point (as LS-DYNA does); R >= 0.
inline Real hardening(const MaterialParams& m, Real ep, Real& slope) {
  if (m.hard_x.empty()) {
    slope = m.beta * m.ep;
    return m.sigy + slope * ep;
  }
  const std::vector<Real>& x = m.hard_x;
  const std::vector<Real>& y = m.hard_y;
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

/// Rate scale factor S(rate) on the yield radius, and dS/drate. LCSR: piecewise linear, constant
/// beyond both ends; otherwise Cowper-Symonds 1 + (rate/C)^(1/P); 1 without rate effect.
inline Real rate_scale(const MaterialParams& m, Real rate, Real& dsdr) {
  dsdr = 0;
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

/// Effective strain rate sqrt(2/3 e:e)/dt of a strain increment (engineering shear in d[3..5]).
inline Real effective_rate(const Real d[6], Real dt) {
  if (!(dt > 0)) return 0;
  const Real tr = (d[0] + d[1] + d[2]) / 3.0;
  const Real e0 = d[0] - tr, e1 = d[1] - tr, e2 = d[2] - tr;
  const Real ee = e0 * e0 + e1 * e1 + e2 * e2 + 0.5 * (d[3] * d[3] + d[4] * d[4] + d[5] * d[5]);
  return std::sqrt(2.0 / 3.0 * ee) / dt;
}

inline bool viscoplastic(const MaterialParams& m) {
  return m.kind == MaterialKind::PiecewiseLinear && m.vp == 1;
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
  const bool vp_rate = vp && dt > 0 && (m.c > 0 || !m.rate_x.empty());
  Real dsdr = 0;
  const Real s_fixed = vp ? rate_scale(m, 0.0, dsdr) : rate_scale(m, rate, dsdr);
  const Real hk = m.kind == MaterialKind::PlasticKinematic ? (1.0 - m.beta) * m.ep : 0.0;
  const Real g3 = 3.0 * m.g;

  // yield radius sy(d) at eps_p + d and its derivative hy = dsy/dd
  auto yield = [&](Real d, Real& hy) {
    Real slope = 0;
    const Real r = hardening(m, eps_p + d, slope);
    if (vp_rate) {
      Real ds = 0;
      const Real s = rate_scale(m, d / dt, ds);
      hy = s * slope + r * ds / dt;
      return s * r;
    }
    hy = s_fixed * slope;
    return s_fixed * r;
  };

  Real h0 = 0;
  const Real sy0 = yield(0.0, h0);
  if (tan != nullptr) *tan = Tangent{};
  if (q_tr <= sy0 || q_tr <= 0) return 0;

  Real lo = 0, hi = q_tr / (g3 + hk);     // g(0) > 0, g(hi) = -sy(hi) <= 0
  Real d = (q_tr - sy0) / (g3 + hk + h0); // rate-independent estimate
  Real hy = h0;
  const Real tol = 1e-14 * q_tr;
  if (!vp_rate && m.hard_x.empty()) {
    // Linear hardening with a fixed rate factor: g(d) is linear, the estimate is exact.
  } else if (vp_rate && m.rate_x.empty()) {
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
  return m.c > 0 || !m.rate_x.empty();
}

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

/// make_material_params for the hydrodynamic kinds (009, 010, 015): the deviatoric constants;
/// the bulk part comes from the part's EOS (attach_eos).
MaterialParams hydro_material_params(const Material& mat, const Model& model, MaterialParams m) {
  const std::string who = fmt::format("{} {}", card_name(mat.kind), mat.id);
  auto fail = [&](const std::string& msg) { throw InputError(mat.loc, who + ": " + msg); };
  if (!(mat.pc <= 0)) fail(fmt::format("pressure cutoff PC must not be positive (got {})", mat.pc));
  m.beta = 1;
  if (mat.kind == MaterialKind::Null) {
    if (!(mat.null_mu >= 0))
      fail(fmt::format("viscosity MU must not be negative (got {})", mat.null_mu));
    m.g = 0;
    m.null_mu = mat.null_mu;
    m.pc = mat.pc; // PC = 0: no tension
    return m;
  }
  if (!(mat.g > 0)) fail(fmt::format("shear modulus G must be positive (got {})", mat.g));
  m.g = mat.g;
  if (mat.kind == MaterialKind::ElasticPlasticHydro) {
    m.pc = mat.pc < 0 ? mat.pc : -std::numeric_limits<Real>::infinity(); // PC = 0: -infinity
    if (mat.lcss != 0) {
      copy_curve(mat, model, mat.lcss, "EPS/ES", m.hard_x, m.hard_y);
      for (std::size_t i = 0; i < m.hard_y.size(); ++i)
        if (!(m.hard_y[i] > 0))
          fail(fmt::format("ES{}: yield stress must be positive (got {})", i + 1, m.hard_y[i]));
      m.sigy = m.hard_y.front();
    } else {
      if (!(mat.sigy > 0))
        fail(fmt::format("yield stress SIGY must be positive (got {})", mat.sigy));
      if (!(mat.eh >= 0))
        fail(fmt::format("hardening modulus EH must not be negative (got {})", mat.eh));
      m.sigy = mat.sigy;
      m.ep = mat.eh;
    }
    return m;
  }
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
  return m;
}

} // namespace

MaterialParams make_material_params(const Material& mat, const Model& model) {
  MaterialParams m;
  m.kind = mat.kind;
  m.id = mat.id;
  m.ro = mat.ro;
  m.e = mat.e;
  m.nu = mat.pr;
  const std::string who = fmt::format("{} {}", card_name(mat.kind), mat.id);
  auto fail = [&](const std::string& msg) { throw InputError(mat.loc, who + ": " + msg); };

  if (!(mat.ro > 0)) fail(fmt::format("density RO must be positive (got {})", mat.ro));
  if (mat.kind == MaterialKind::MooneyRivlin) {
    if (!(mat.pr > -1.0 && mat.pr < 0.5))
      fail(fmt::format("Poisson's ratio PR must lie in (-1, 0.5) (got {})", mat.pr));
    if (!(mat.mr_a + mat.mr_b > 0))
      fail(fmt::format("A + B must be positive (got A = {}, B = {})", mat.mr_a, mat.mr_b));
    const Real a = mat.mr_a, b = mat.mr_b, nu = mat.pr;
    m.mr_a = a;
    m.mr_b = b;
    m.mr_c = 0.5 * a + b;
    m.mr_d = (a * (5.0 * nu - 2.0) + b * (11.0 * nu - 5.0)) / (2.0 * (1.0 - 2.0 * nu));
    // Small-strain equivalents (time step, hourglass stiffness, bulk viscosity).
    m.g = 2.0 * (a + b);
    m.k = 2.0 * m.g * (1.0 + nu) / (3.0 * (1.0 - 2.0 * nu));
    m.lambda = m.k - 2.0 / 3.0 * m.g;
    m.e = 2.0 * m.g * (1.0 + nu);
    return m;
  }
  if (m.hydro()) return hydro_material_params(mat, model, m);
  if (!(mat.e > 0)) fail(fmt::format("Young's modulus E must be positive (got {})", mat.e));
  if (!(mat.pr > -1.0 && mat.pr < 0.5))
    fail(fmt::format("Poisson's ratio PR must lie in (-1, 0.5) (got {})", mat.pr));
  m.g = m.e / (2.0 * (1.0 + m.nu));
  m.k = m.e / (3.0 * (1.0 - 2.0 * m.nu));
  m.lambda = m.e * m.nu / ((1.0 + m.nu) * (1.0 - 2.0 * m.nu));
  if (mat.kind == MaterialKind::Elastic || mat.kind == MaterialKind::Rigid) return m;

  auto linear_hardening = [&]() {
    if (!(mat.sigy > 0)) fail(fmt::format("yield stress SIGY must be positive (got {})", mat.sigy));
    if (!(mat.etan >= 0))
      fail(fmt::format("tangent modulus ETAN must not be negative (got {})", mat.etan));
    if (!(mat.etan < mat.e))
      fail(fmt::format("tangent modulus ETAN = {} must be smaller than E = {}", mat.etan, mat.e));
    m.sigy = mat.sigy;
    m.etan = mat.etan;
    m.ep = mat.e * mat.etan / (mat.e - mat.etan);
  };
  auto cowper_symonds = [&](const char* cname, const char* pname) {
    if (!(mat.src >= 0)) fail(fmt::format("{} must not be negative (got {})", cname, mat.src));
    if (mat.src > 0 && !(mat.srp > 0))
      fail(fmt::format("{} must be positive when {} > 0 (got {})", pname, cname, mat.srp));
    m.c = mat.src;
    m.p = mat.src > 0 ? mat.srp : 0;
  };

  if (mat.kind == MaterialKind::PlasticKinematic) {
    linear_hardening();
    if (!(mat.beta >= 0 && mat.beta <= 1))
      fail(fmt::format("hardening parameter BETA must lie in [0, 1] (got {})", mat.beta));
    m.beta = mat.beta;
    cowper_symonds("SRC", "SRP");
    if (!(mat.fs >= 0))
      fail(fmt::format("failure strain FS must not be negative (got {})", mat.fs));
    m.fail = mat.fs;
    return m;
  }

  // *MAT_024
  m.beta = 1;
  if (mat.lcss != 0) {
    copy_curve(mat, model, mat.lcss, "LCSS", m.hard_x, m.hard_y);
    if (m.hard_x.front() < 0)
      fail(fmt::format("LCSS curve {}: effective plastic strain must start at 0 (got {})", mat.lcss,
                       m.hard_x.front()));
    for (std::size_t i = 0; i < m.hard_y.size(); ++i)
      if (!(m.hard_y[i] > 0))
        fail(fmt::format("LCSS curve {}: yield stress must be positive (point {}: {})", mat.lcss,
                         i + 1, m.hard_y[i]));
    m.sigy = m.hard_y.front(); // initial yield (informational; the curve is used)
    m.etan = 0;
    m.ep = 0;
  } else {
    linear_hardening();
  }
  if (mat.lcsr != 0) {
    copy_curve(mat, model, mat.lcsr, "LCSR", m.rate_x, m.rate_y);
    for (std::size_t i = 0; i < m.rate_y.size(); ++i)
      if (!(m.rate_y[i] > 0))
        fail(fmt::format("LCSR curve {}: scale factor must be positive (point {}: {})", mat.lcsr,
                         i + 1, m.rate_y[i]));
  } else {
    cowper_symonds("C", "P");
  }
  if (!(mat.fs >= 0))
    fail(fmt::format("FAIL = {} < 0 (user failure subroutine) is not supported", mat.fs));
  m.fail = mat.fs;
  if (mat.vp != 0 && mat.vp != 1)
    fail(fmt::format("VP = {} is not supported (0: scale yield stress, 1: viscoplastic)", mat.vp));
  m.vp = mat.vp;
  return m;
}

namespace {

/// The parts of the Mooney-Rivlin stress for the displacement gradient h: e = b - 1
/// (b = (1 + h)(1 + h)^T), J and III - 1 computed without cancellation at small strain.
struct HyperKinematics {
  Real e[3][3];
  Real j = 1, iii_m1 = 0, tre = 0;
};

HyperKinematics hyper_kinematics(const Real h[3][3]) {
  HyperKinematics k;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      Real hh = 0;
      for (int l = 0; l < 3; ++l) hh += h[i][l] * h[j][l];
      k.e[i][j] = h[i][j] + h[j][i] + hh;
    }
  // J - 1 = tr h + I2(h) + det h
  const Real tr = h[0][0] + h[1][1] + h[2][2];
  const Real i2 = h[0][0] * h[1][1] + h[1][1] * h[2][2] + h[2][2] * h[0][0] - h[0][1] * h[1][0] -
                  h[1][2] * h[2][1] - h[2][0] * h[0][2];
  const Real det = h[0][0] * (h[1][1] * h[2][2] - h[1][2] * h[2][1]) -
                   h[0][1] * (h[1][0] * h[2][2] - h[1][2] * h[2][0]) +
                   h[0][2] * (h[1][0] * h[2][1] - h[1][1] * h[2][0]);
  const Real jm1 = tr + i2 + det;
  k.j = 1.0 + jm1;
  k.iii_m1 = jm1 * (k.j + 1.0);
  k.tre = k.e[0][0] + k.e[1][1] + k.e[2][2];
  return k;
}

} // namespace

Real hyperelastic_stress(const MaterialParams& m, const Real h[3][3], Real sig[6]) {
  const HyperKinematics k = hyper_kinematics(h);
  if (!(k.j > 0)) return k.j;
  // With b = 1 + e, I1 = 3 + tr e and A + 2B = 2C:
  //   (J/2) sigma = q0 1 + (A + B + B tr e) e - B e^2,
  //   q0 = 2C (1 - III^-2) + 2D (III - 1) III + B tr e.
  const Real a = m.mr_a, b = m.mr_b;
  const Real iii = k.j * k.j;
  const Real q0 = 2.0 * m.mr_c * k.iii_m1 * (iii + 1.0) / (iii * iii) +
                  2.0 * m.mr_d * k.iii_m1 * iii + b * k.tre;
  const Real q1 = a + b + b * k.tre;
  const Real s = 2.0 / k.j;
  constexpr int ii[6] = {0, 1, 2, 0, 1, 2}, jj[6] = {0, 1, 2, 1, 2, 0};
  for (int v = 0; v < 6; ++v) {
    const int i = ii[v], j = jj[v];
    Real ee = 0;
    for (int l = 0; l < 3; ++l) ee += k.e[i][l] * k.e[l][j];
    sig[v] = s * ((i == j ? q0 : 0.0) + q1 * k.e[i][j] - b * ee);
  }
  return k.j;
}

Real hyperelastic_energy(const MaterialParams& m, const Real h[3][3]) {
  const HyperKinematics k = hyper_kinematics(h);
  // C - 1 = h + h^T + h^T h; I1 - 3 = tr(C - 1) = tr e; I2 - 3 = 2 tr(C-1) + I2(C - 1).
  Real c[3][3];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      Real hh = 0;
      for (int l = 0; l < 3; ++l) hh += h[l][i] * h[l][j];
      c[i][j] = h[i][j] + h[j][i] + hh;
    }
  const Real tc = c[0][0] + c[1][1] + c[2][2];
  const Real i2c = c[0][0] * c[1][1] + c[1][1] * c[2][2] + c[2][2] * c[0][0] - c[0][1] * c[1][0] -
                   c[1][2] * c[2][1] - c[2][0] * c[0][2];
  const Real iii = k.j * k.j;
  return m.mr_a * tc + m.mr_b * (2.0 * tc + i2c) +
         m.mr_c * (-k.iii_m1 * (iii + 1.0) / (iii * iii)) + m.mr_d * k.iii_m1 * k.iii_m1;
}

Real yield_stress(const MaterialParams& m, Real eps_p, Real rate) {
  if (!m.plastic()) return std::numeric_limits<Real>::infinity();
  Real slope = 0, dsdr = 0;
  return rate_scale(m, rate, dsdr) * hardening(m, eps_p, slope);
}

// ---------------------------------------------------------------------------------------------
// Hydrodynamic materials (009, 010, 015) and equations of state

void attach_eos(MaterialParams& m, const Material& mat, const Eos* eos) {
  const std::string who = fmt::format("{} {}", card_name(mat.kind), mat.id);
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

EosTerms eos_terms(const MaterialParams& m, Real mu) {
  EosTerms t;
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

Real update_stress_hydro(const MaterialParams& m, const Real deps[6], Real dt, Real mu, Real r,
                         Real e_n, Real q, Real sig[6], Real hist[6], Real& eps_p) {
  const Real p_old = -(sig[0] + sig[1] + sig[2]) / 3.0;
  const Real dv = deps[0] + deps[1] + deps[2];
  const Real s_old[6] = {sig[0] + p_old, sig[1] + p_old, sig[2] + p_old, sig[3], sig[4], sig[5]};
  Real s[6] = {s_old[0], s_old[1], s_old[2], s_old[3], s_old[4], s_old[5]};
  const Real d3 = dv / 3.0;
  Real dep = 0;
  if (m.kind == MaterialKind::Null) {
    // Newtonian viscosity: s = 2 MU dev(D) (engineering shear: MU gamma / dt).
    const Real f = dt > 0 && m.null_mu > 0 ? m.null_mu / dt : 0.0;
    for (int k = 0; k < 3; ++k) s[k] = 2.0 * f * (deps[k] - d3);
    for (int k = 3; k < 6; ++k) s[k] = f * deps[k];
  } else if (dt > 0) {
    for (int k = 0; k < 3; ++k) s[k] += 2.0 * m.g * (deps[k] - d3);
    for (int k = 3; k < 6; ++k) s[k] += m.g * deps[k];
    if (m.kind == MaterialKind::ElasticPlasticHydro) {
      dep = radial_return(m, s, nullptr, eps_p, 0.0, dt, nullptr);
    } else {
      const Real temperature = m.jc_cp > 0 ? m.jc_tr + hist[0] / (m.ro * m.jc_cp) : m.jc_tr;
      const Real rate = m.jc_c != 0 ? effective_rate(deps, dt) : 0.0;
      dep = jc_return(m, s, eps_p, rate, temperature);
      if (dep > 0) {
        const Real sy = std::sqrt(1.5 * (s[0] * s[0] + s[1] * s[1] + s[2] * s[2] +
                                         2.0 * (s[3] * s[3] + s[4] * s[4] + s[5] * s[5])));
        hist[0] += r * sy * dep; // plastic work per unit initial volume
      }
    }
    eps_p += dep;
  }
  // Deviatoric work of the step (trapezoid, as the element's energy) and the pressure:
  //   E1 = E_n + r [w - (p_n + p1) dv / 2 - q dv],  p1 = a + b E1.
  Real w = 0;
  for (int k = 0; k < 3; ++k) w += 0.5 * (s_old[k] + s[k]) * deps[k];
  for (int k = 3; k < 6; ++k) w += 0.5 * (s_old[k] + s[k]) * deps[k];
  const EosTerms t = eos_terms(m, mu);
  const Real e1 =
      (e_n + r * (w - 0.5 * p_old * dv - q * dv - 0.5 * t.a * dv)) / (1.0 + 0.5 * r * t.b * dv);
  Real p = t.a + t.b * e1;
  if (p < m.pc) p = m.pc;
  for (int k = 0; k < 3; ++k) sig[k] = s[k] - p;
  for (int k = 3; k < 6; ++k) sig[k] = s[k];
  return dep;
}

Real update_stress_solid(const MaterialParams& m, const Real deps[6], Real dt, Real sig[6],
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
  if (!m.plastic()) return true;
  return m.hard_x.empty() && !rate_dependent(m) && !viscoplastic(m);
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
  const Real hk = m.kind == MaterialKind::PlasticKinematic ? (1.0 - m.beta) * m.ep : 0.0;
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

Real update_stress_shell(const MaterialParams& m, const Real deps[5], Real dt, Real sig[5],
                         Real back[3], Real& eps_p, Real& deps_zz) {
  if (!shell_direct_return(m))
    return update_stress_shell_iterated(m, deps, dt, sig, back, eps_p, deps_zz);
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
    Real dsdr = 0, slope = 0;
    const Real sy = rate_scale(m, rate, dsdr) * hardening(m, eps_p, slope); // VP=1: rate = 0
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

bool shell_direct_return(const MaterialParams& m) {
  if (!m.plastic()) return true;
  return m.hard_x.empty() && !(viscoplastic(m) && rate_dependent(m));
}

Real shell_yield_scale(const MaterialParams& m, const Real deps[5], Real dt) {
  if (!m.plastic() || !rate_dependent(m) || viscoplastic(m)) return 1.0;
  // through-thickness rate from plastic incompressibility (see header comment)
  const Real d6[6] = {deps[0], deps[1], -(deps[0] + deps[1]), deps[2], deps[3], deps[4]};
  Real dsdr = 0;
  return rate_scale(m, effective_rate(d6, dt), dsdr);
}

} // namespace parcae
