// Integrated beams (ELFORM 1, 9): co-rotational Timoshenko kinematics with cross-section
// integration (see beam.hpp).
#include "fem/beam.hpp"
#include "fem/mass_scaling.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <string>

namespace parcae {

namespace {

/// 1D rule on [-1, 1] of QR (weights summing to 2).
void rule_1d(int qr, std::vector<Real>& xi, std::vector<Real>& wt) {
  switch (qr) {
  case 1:
    xi = {0.0};
    wt = {2.0};
    return;
  case 2: {
    const Real a = 1.0 / std::sqrt(3.0);
    xi = {-a, a};
    wt = {1.0, 1.0};
    return;
  }
  case 3: {
    const Real a = std::sqrt(0.6);
    xi = {-a, 0.0, a};
    wt = {5.0 / 9.0, 8.0 / 9.0, 5.0 / 9.0};
    return;
  }
  case 4: // 3-point Lobatto
    xi = {-1.0, 0.0, 1.0};
    wt = {1.0 / 3.0, 4.0 / 3.0, 1.0 / 3.0};
    return;
  case 5: {
    const Real a = 0.3399810435848563, b = 0.8611363115940526;
    const Real wa = 0.6521451548625461, wb = 0.3478548451374538;
    xi = {-b, -a, a, b};
    wt = {wb, wa, wa, wb};
    return;
  }
  default:
    throw std::invalid_argument("QR = " + std::to_string(qr) +
                                " is not supported (1: one point, 2: 2x2 Gauss, 3: 3x3 Gauss, "
                                "4: 3x3 Lobatto, 5: 4x4 Gauss; user rules are not available)");
  }
}

inline Real dot3(const Real* a, const Real* b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
inline void cross3(const Real* a, const Real* b, Real* c) {
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}
inline bool normalize3(Real* a) {
  const Real n = std::sqrt(dot3(a, a));
  if (!(n > 0)) return false;
  for (int i = 0; i < 3; ++i) a[i] /= n;
  return true;
}

/// e2 (orthogonal to a, unit) carried by the minimal rotation that takes the unit vector a to
/// the unit vector b, then orthogonalised against b and normalised (round-off).
void transport_axis(const Real* a, const Real* b, Real* e2) {
  const Real c = dot3(a, b);
  Real v[3];
  if (c > -0.999999) {
    // R v = v - ((a + b).v) / (1 + a.b) (a + b) + 2 (a.v) b, with a.v = 0 for v = e2
    const Real k = (dot3(b, e2)) / (1.0 + c);
    for (int i = 0; i < 3; ++i) v[i] = e2[i] - k * (a[i] + b[i]);
  } else {
    for (int i = 0; i < 3; ++i) v[i] = e2[i];
  }
  const Real p = dot3(v, b);
  for (int i = 0; i < 3; ++i) v[i] -= p * b[i];
  if (normalize3(v))
    for (int i = 0; i < 3; ++i) e2[i] = v[i];
}

} // namespace

BeamSectionRule make_beam_section_rule(int cst, int qr, Real ts, Real tt) {
  BeamSectionRule r;
  if (qr == 0) qr = 2;
  std::vector<Real> xi, wt;
  rule_1d(qr, xi, wt);
  auto add = [&](Real s, Real t, Real w) {
    r.s.push_back(s);
    r.t.push_back(t);
    r.w.push_back(w);
  };
  if (cst == 0) {
    if (!(ts > 0) || !(tt > 0))
      throw std::invalid_argument("a rectangular section (CST 0) needs TS1 > 0 and TT1 > 0");
    const Real area = ts * tt;
    for (std::size_t i = 0; i < xi.size(); ++i)
      for (std::size_t j = 0; j < xi.size(); ++j)
        add(0.5 * ts * xi[i], 0.5 * tt * xi[j], 0.25 * area * wt[i] * wt[j]);
  } else if (cst == 1) {
    const Real ro = 0.5 * ts, ri = 0.5 * tt;
    if (!(ro > 0) || !(ri >= 0) || !(ri < ro))
      throw std::invalid_argument("a tubular section (CST 1) needs TS1 (outer diameter) > 0 and "
                                  "0 <= TT1 (inner diameter) < TS1");
    const Real area = std::numbers::pi * (ro * ro - ri * ri);
    if (qr == 1) {
      add(0.0, 0.0, area);
    } else {
      // the 1D rule in u = r^2 on [ri^2, ro^2] (dA = du dtheta / 2) times 8 angles
      constexpr int kAngles = 8;
      const Real u0 = ri * ri, u1 = ro * ro;
      for (std::size_t k = 0; k < xi.size(); ++k) {
        const Real r = std::sqrt(0.5 * (u0 + u1) + 0.5 * (u1 - u0) * xi[k]);
        for (int j = 0; j < kAngles; ++j) {
          const Real th = 2.0 * std::numbers::pi * (j + 0.5) / kAngles;
          add(r * std::cos(th), r * std::sin(th), area * 0.5 * wt[k] / kAngles);
        }
      }
    }
  } else {
    throw std::invalid_argument("CST = " + std::to_string(cst) +
                                " is not supported (0: rectangular, 1: tubular)");
  }
  for (std::size_t k = 0; k < r.w.size(); ++k) {
    r.area += r.w[k];
    r.is += r.w[k] * r.t[k] * r.t[k];
    r.it += r.w[k] * r.s[k] * r.s[k];
  }
  return r;
}

void BeamBlock::init(std::size_t n, int points) {
  nip = points;
  const auto np = static_cast<std::size_t>(points);
  sig.assign(3 * np * n, 0.0);
  back.assign(3 * np * n, 0.0);
  eps_p.assign(np * n, 0.0);
  e_int.assign(n, 0.0);
  e_hg.assign(n, 0.0);
  res.assign(6 * n, 0.0);
  preload.assign(n, std::numeric_limits<Real>::quiet_NaN());
  kbend.assign(n, 0);
  failed.assign(n, 0);
  density_scale.assign(n, 1.0);
  l0.resize(n, 0.0);
  e2.resize(n, {0, 0, 0});
}

Real beam_length(const BeamBlock& blk, std::size_t e, std::span<const Real> x) {
  const auto a = static_cast<std::size_t>(blk.conn[e][0]);
  const auto b = static_cast<std::size_t>(blk.conn[e][1]);
  const Real d[3] = {x[3 * b] - x[3 * a], x[3 * b + 1] - x[3 * a + 1], x[3 * b + 2] - x[3 * a + 2]};
  return std::sqrt(dot3(d, d));
}

const Real* beam_orientation_point(const Real x1[3], const std::array<Real, 3>& v, Real out[3]) {
  const Real len = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  if (!(len > 0)) return nullptr;
  for (int i = 0; i < 3; ++i) out[i] = x1[i] + v[i] / len;
  return out;
}

bool beam_initial_axis(const Real x1[3], const Real x2[3], const Real* x3, Real e2[3]) {
  Real e1[3] = {x2[0] - x1[0], x2[1] - x1[1], x2[2] - x1[2]};
  if (!normalize3(e1)) return false;
  Real v[3];
  if (x3 != nullptr) {
    for (int i = 0; i < 3; ++i) v[i] = x3[i] - x1[i];
  } else {
    int k = 0;
    for (int i = 1; i < 3; ++i)
      if (std::abs(e1[i]) < std::abs(e1[k])) k = i;
    v[0] = v[1] = v[2] = 0;
    v[k] = 1;
  }
  const Real p = dot3(v, e1);
  for (int i = 0; i < 3; ++i) v[i] -= p * e1[i];
  const Real len = std::sqrt(dot3(v, v));
  const Real ref = x3 != nullptr ? std::sqrt(dot3(e1, e1)) : 1.0;
  if (!(len > 1e-8 * ref)) return false;
  for (int i = 0; i < 3; ++i) e2[i] = v[i] / len;
  return true;
}

void beam_lumped_mass(const BeamSection& sec, const MaterialParams& mat, Real l0, Real& mass,
                      Real& inertia) {
  const BeamSectionRule& r = sec.rule;
  mass = 0.5 * (mat.ro * r.area + sec.nsm) * l0;
  inertia = std::max(0.5 * mat.ro * l0 * (r.is + r.it), 0.25 * mass * l0 * l0);
}

Real beam_critical_dt(const MaterialParams& mat, const BeamBlock& blk, std::size_t e,
                      std::span<const Real> x) {
  const BeamSection& opt = blk.sec;
  if (opt.null) return 1e300;
  const Real len = beam_length(blk, e, x);
  Real m = 0, j = 0;
  beam_lumped_mass(opt, mat, blk.l0[e], m, j);
  const BeamSectionRule& r = opt.rule;
  const Real g = mat.e / (2.0 * (1.0 + mat.nu));
  const Real gs = opt.shrf * g;
  // free-free modes of one element with m, J at each end (see beam.hpp)
  Real w2 = 2.0 * mat.e * r.area / (len * m);                               // axial
  w2 = std::max(w2, 2.0 * gs * (r.is + r.it) / (len * j));                  // torsion
  w2 = std::max(w2, 2.0 * mat.e * std::max(r.is, r.it) / (len * j));        // bending
  w2 = std::max(w2, gs * r.area * len * (2.0 / (m * len * len) + 0.5 / j)); // shear
  // mass scaling multiplies m and J, so the frequencies by 1 / sqrt(scale)
  return mass_scaled_dt(2.0 / std::sqrt(w2), blk.density_scale, e);
}

void update_stress_beam_point(const MaterialParams& mat, Real deps, Real dgs, Real dgt, Real dt,
                              Real sig[3], Real back[3], Real& eps_p) {
  const Real g = mat.e / (2.0 * (1.0 + mat.nu));
  sig[0] += mat.e * deps;
  sig[1] += g * dgs;
  sig[2] += g * dgt;
  if (!mat.plastic()) return;
  const Real xs = sig[0] - back[0], x1 = sig[1] - back[1], x2 = sig[2] - back[2];
  const Real q = std::sqrt(xs * xs + 3.0 * (x1 * x1 + x2 * x2));
  const Real rate =
      dt > 0 && mat.vp == 0 ? std::sqrt(deps * deps + (dgs * dgs + dgt * dgt) / 3.0) / dt : 0.0;
  const Real r0 = yield_stress(mat, eps_p, rate);
  if (q <= r0) return;
  // Return along the normal with the point's elastic moduli: xi = xi_tr / (1 + (E + Hk) dl / R),
  // tau = tau_tr / (1 + (3G + Hk) dl / R); solve |xi(dl)| = R(eps_p + dl) for dl by safeguarded
  // regula falsi (Illinois), phi(0) > 0 and phi(dl_max) <= 0.
  const Real hk = (1.0 - mat.beta) * mat.ep;
  auto phi = [&](Real dl, Real& rr, Real& a, Real& b) {
    rr = yield_stress(mat, eps_p + dl, rate);
    a = 1.0 + (mat.e + hk) * dl / rr;
    b = 1.0 + (3.0 * g + hk) * dl / rr;
    const Real sa = xs / a, sb1 = x1 / b, sb2 = x2 / b;
    return std::sqrt(sa * sa + 3.0 * (sb1 * sb1 + sb2 * sb2)) - rr;
  };
  Real rr = r0, a = 1, b = 1;
  Real lo = 0, hi = (q - r0) / std::min(mat.e, 3.0 * g);
  Real flo = q - r0, fhi = phi(hi, rr, a, b);
  Real dl = hi;
  int side = 0;
  for (int it = 0; it < 100 && fhi < 0 && flo > 0; ++it) {
    dl = (lo * fhi - hi * flo) / (fhi - flo);
    const Real f = phi(dl, rr, a, b);
    if (std::abs(f) <= 1e-13 * r0 || hi - lo <= 1e-15 * hi) break;
    if (f > 0) {
      lo = dl;
      flo = f;
      if (side == 1) fhi *= 0.5;
      side = 1;
    } else {
      hi = dl;
      fhi = f;
      if (side == -1) flo *= 0.5;
      side = -1;
    }
  }
  phi(dl, rr, a, b);
  const Real nxs = xs / a, nx1 = x1 / b, nx2 = x2 / b;
  // back stress: d alpha_xx = Hk d eps_p,xx, d alpha_tau = Hk / 3 d gamma_p
  const Real qn = std::sqrt(nxs * nxs + 3.0 * (nx1 * nx1 + nx2 * nx2));
  if (qn > 0 && hk > 0) {
    back[0] += hk * dl * nxs / qn;
    back[1] += hk * dl * nx1 / qn;
    back[2] += hk * dl * nx2 / qn;
  }
  sig[0] = back[0] + nxs;
  sig[1] = back[1] + nx1;
  sig[2] = back[2] + nx2;
  eps_p += dl;
}

BeamPassResult compute_beam_forces(const MaterialParams& mat, BeamBlock& blk, std::size_t begin,
                                   std::size_t end, std::span<const Real> x,
                                   std::span<const Real> v, std::span<const Real> w, Real dt,
                                   std::span<Real> fe, std::span<Real> me) {
  BeamPassResult result;
  const BeamSection& opt = blk.sec;
  const BeamSectionRule& rule = opt.rule;
  const auto np = static_cast<std::size_t>(blk.nip);
  for (std::size_t e = begin; e < end; ++e) {
    const auto a = static_cast<std::size_t>(blk.conn[e][0]);
    const auto b = static_cast<std::size_t>(blk.conn[e][1]);
    Real d[3], dv[3], wa[3], wb[3];
    // the step's strain increments and start stresses per point, for the work of the stresses
    // the nodes see (after any imposed axial force)
    Real old[3 * kMaxBeamPoints], inc[3 * kMaxBeamPoints];
    Real work_lm = 0;
    for (int i = 0; i < 3; ++i) {
      d[i] = x[3 * b + i] - x[3 * a + i];
      dv[i] = v[3 * b + i] - v[3 * a + i];
      wa[i] = w[3 * a + i];
      wb[i] = w[3 * b + i];
    }
    const Real len = std::sqrt(dot3(d, d));
    Real e1[3] = {d[0] / len, d[1] / len, d[2] / len};
    Real* e2 = blk.e2[e].data();
    Real* sig = &blk.sig[3 * np * e];
    Real* back = &blk.back[3 * np * e];
    Real* eps_p = &blk.eps_p[np * e];
    if (dt > 0 && !opt.null) {
      Real d0[3], dm[3];
      for (int i = 0; i < 3; ++i) {
        d0[i] = d[i] - dt * dv[i];
        dm[i] = d[i] - 0.5 * dt * dv[i];
      }
      const Real len0 = std::sqrt(dot3(d0, d0)), lm = std::sqrt(dot3(dm, dm));
      Real e1o[3] = {d0[0] / len0, d0[1] / len0, d0[2] / len0};
      Real e1m[3] = {dm[0] / lm, dm[1] / lm, dm[2] / lm};
      // mid-step frame: the stored s axis (orthogonal to the old axis) carried to e1m
      Real e2m[3] = {e2[0], e2[1], e2[2]}, e3m[3];
      transport_axis(e1o, e1m, e2m);
      cross3(e1m, e2m, e3m);
      const Real dvs = dot3(dv, e2m), dvt = dot3(dv, e3m);
      Real dw[3], sw[3];
      for (int i = 0; i < 3; ++i) {
        dw[i] = wb[i] - wa[i];
        sw[i] = wa[i] + wb[i];
      }
      const Real dth1 = dt * dot3(dw, e1m), dth2 = dt * dot3(dw, e2m), dth3 = dt * dot3(dw, e3m);
      const Real deps0 = (len - len0) / lm;
      const Real dgs0 = dt * (dvs / lm - 0.5 * dot3(sw, e3m));
      const Real dgt0 = dt * (dvt / lm + 0.5 * dot3(sw, e2m));
      work_lm = lm;
      for (std::size_t k = 0; k < np; ++k) {
        const Real s = rule.s[k], t = rule.t[k];
        const Real deps = deps0 + (t * dth2 - s * dth3) / lm;
        const Real dgs = opt.shrf * (dgs0 - t * dth1 / lm);
        const Real dgt = opt.shrf * (dgt0 + s * dth1 / lm);
        Real* sk = sig + 3 * k;
        for (int i = 0; i < 3; ++i) old[3 * k + i] = sk[i];
        update_stress_beam_point(mat, deps, dgs, dgt, dt, sk, back + 3 * k, eps_p[k]);
        // the work of the shear stresses is done on the strain before SHRF (the nodal forces
        // are conjugate to it)
        inc[3 * k] = deps;
        inc[3 * k + 1] = opt.shrf > 0 ? dgs / opt.shrf : 0.0;
        inc[3 * k + 2] = opt.shrf > 0 ? dgt / opt.shrf : 0.0;
      }
      // frame at the end of the step: carry to the new axis, turn by the mean spin
      transport_axis(e1o, e1, e2);
      const Real psi = 0.5 * dt * dot3(sw, e1m);
      if (psi != 0) {
        Real e3[3];
        cross3(e1, e2, e3);
        const Real c = std::cos(psi), sn = std::sin(psi);
        for (int i = 0; i < 3; ++i) e2[i] = c * e2[i] + sn * e3[i];
        transport_axis(e1, e1, e2);
      }
    }
    // imposed axial force (*INITIAL_AXIAL_FORCE_BEAM while its curve runs)
    if (!opt.null && !std::isnan(blk.preload[e])) {
      Real n = 0;
      for (std::size_t k = 0; k < np; ++k) n += rule.w[k] * sig[3 * k];
      if (blk.kbend[e]) {
        const Real ds = (blk.preload[e] - n) / rule.area;
        for (std::size_t k = 0; k < np; ++k) sig[3 * k] += ds;
      } else {
        const Real s0 = blk.preload[e] / rule.area;
        for (std::size_t k = 0; k < np; ++k) sig[3 * k] = s0;
      }
    }
    if (work_lm > 0) {
      Real work = 0;
      for (std::size_t k = 0; k < np; ++k)
        for (int i = 0; i < 3; ++i)
          work += rule.w[k] * 0.5 * (old[3 * k + i] + sig[3 * k + i]) * inc[3 * k + i];
      blk.e_int[e] += work * work_lm;
    }
    Real n = 0, qs = 0, qt = 0, ms = 0, mt = 0, tq = 0;
    if (!opt.null)
      for (std::size_t k = 0; k < np; ++k) {
        const Real wk = rule.w[k], s = rule.s[k], t = rule.t[k];
        const Real* sk = sig + 3 * k;
        n += wk * sk[0];
        qs += wk * sk[1];
        qt += wk * sk[2];
        ms += wk * t * sk[0];
        mt -= wk * s * sk[0];
        tq += wk * (s * sk[2] - t * sk[1]);
      }
    Real* r = &blk.res[6 * e];
    r[0] = n;
    r[1] = qs;
    r[2] = qt;
    r[3] = ms;
    r[4] = mt;
    r[5] = tq;
    Real e3[3];
    cross3(e1, e2, e3);
    const Real hl = 0.5 * len;
    for (int i = 0; i < 3; ++i) {
      const Real f = n * e1[i] + qs * e2[i] + qt * e3[i];
      fe[6 * e + i] = -f;
      fe[6 * e + 3 + i] = f;
      me[6 * e + i] = -tq * e1[i] + (-ms + qt * hl) * e2[i] + (-mt - qs * hl) * e3[i];
      me[6 * e + 3 + i] = tq * e1[i] + (ms + qt * hl) * e2[i] + (mt - qs * hl) * e3[i];
    }
    const Real dte = beam_critical_dt(mat, blk, e, x);
    if (dte < result.min_dt) {
      result.min_dt = dte;
      result.min_dt_element = static_cast<std::int64_t>(e);
    }
  }
  return result;
}

} // namespace parcae
