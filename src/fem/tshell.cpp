// Thick shells, ELFORM 1 (see tshell.hpp).
#include "fem/tshell.hpp"

#include <algorithm>
#include <cmath>

namespace parcae {

namespace {

// Natural coordinates of the corners (N1-N4 bottom, zeta = -1; N5-N8 top).
constexpr Real kXi[8] = {-1, 1, 1, -1, -1, 1, 1, -1};
constexpr Real kEta[8] = {-1, -1, 1, 1, -1, -1, 1, 1};
constexpr Real kZeta[8] = {-1, -1, -1, -1, 1, 1, 1, 1};
// The hourglass modes a point on the centre line cannot see: xi eta and xi eta zeta.
constexpr Real kHg[2][8] = {{1, -1, 1, -1, 1, -1, 1, -1}, {-1, 1, -1, 1, 1, -1, 1, -1}};

struct Vec3 {
  Real x = 0, y = 0, z = 0;
};
Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
Real dot(const Vec3& a, const Vec3& b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
Vec3 unit(const Vec3& a) {
  const Real n = std::sqrt(dot(a, a));
  return n > 0 ? Vec3{a.x / n, a.y / n, a.z / n} : Vec3{};
}

/// Shape-function gradients at (0, 0, zeta) of the brick with corners x: returns det J (<= 0 or
/// not finite: an inverted element).
Real gradients_at(const Real x[8][3], Real zeta, Real g[8][3]) {
  Real dn[8][3];
  Real j[3][3] = {}; // j[i][k] = dx_i / dxi_k
  for (int a = 0; a < 8; ++a) {
    dn[a][0] = kXi[a] * (1 + kZeta[a] * zeta) / 8;
    dn[a][1] = kEta[a] * (1 + kZeta[a] * zeta) / 8;
    dn[a][2] = kZeta[a] / 8;
    for (int i = 0; i < 3; ++i)
      for (int k = 0; k < 3; ++k) j[i][k] += x[a][i] * dn[a][k];
  }
  const Real c00 = j[1][1] * j[2][2] - j[1][2] * j[2][1];
  const Real c01 = j[1][2] * j[2][0] - j[1][0] * j[2][2];
  const Real c02 = j[1][0] * j[2][1] - j[1][1] * j[2][0];
  const Real det = j[0][0] * c00 + j[0][1] * c01 + j[0][2] * c02;
  if (!(det > 0) || !std::isfinite(det)) return det;
  // inverse: inv[k][i] = d xi_k / d x_i
  Real inv[3][3];
  inv[0][0] = c00 / det;
  inv[1][0] = c01 / det;
  inv[2][0] = c02 / det;
  inv[0][1] = (j[0][2] * j[2][1] - j[0][1] * j[2][2]) / det;
  inv[1][1] = (j[0][0] * j[2][2] - j[0][2] * j[2][0]) / det;
  inv[2][1] = (j[0][1] * j[2][0] - j[0][0] * j[2][1]) / det;
  inv[0][2] = (j[0][1] * j[1][2] - j[0][2] * j[1][1]) / det;
  inv[1][2] = (j[0][2] * j[1][0] - j[0][0] * j[1][2]) / det;
  inv[2][2] = (j[0][0] * j[1][1] - j[0][1] * j[1][0]) / det;
  for (int a = 0; a < 8; ++a)
    for (int i = 0; i < 3; ++i)
      g[a][i] = dn[a][0] * inv[0][i] + dn[a][1] * inv[1][i] + dn[a][2] * inv[2][i];
  return det;
}

/// The element's lamina frame (rows e1, e2, e3), mid-surface area and thickness at x.
struct Frame {
  Real r[3][3];
  Real area = 0, thickness = 0, diag = 0;
};

Frame frame_of(const Real x[8][3]) {
  Vec3 r1, r2, r3;
  for (int a = 0; a < 8; ++a) {
    r1 = {r1.x + kXi[a] * x[a][0] / 8, r1.y + kXi[a] * x[a][1] / 8, r1.z + kXi[a] * x[a][2] / 8};
    r2 = {r2.x + kEta[a] * x[a][0] / 8, r2.y + kEta[a] * x[a][1] / 8, r2.z + kEta[a] * x[a][2] / 8};
    r3 = {r3.x + kZeta[a] * x[a][0] / 8, r3.y + kZeta[a] * x[a][1] / 8,
          r3.z + kZeta[a] * x[a][2] / 8};
  }
  const Vec3 n = cross(r1, r2);
  const Vec3 e3 = unit(n);
  const Vec3 e1 =
      unit({r1.x - dot(r1, e3) * e3.x, r1.y - dot(r1, e3) * e3.y, r1.z - dot(r1, e3) * e3.z});
  const Vec3 e2 = cross(e3, e1);
  Frame f;
  const Vec3 rows[3] = {e1, e2, e3};
  for (int k = 0; k < 3; ++k) {
    f.r[k][0] = rows[k].x;
    f.r[k][1] = rows[k].y;
    f.r[k][2] = rows[k].z;
  }
  f.area = 4 * std::sqrt(dot(n, n));
  f.thickness = 2 * std::abs(dot(r3, e3));
  // the mid-surface's diagonals (corners: the faces' mean)
  Real m[4][3];
  for (int a = 0; a < 4; ++a)
    for (int i = 0; i < 3; ++i) m[a][i] = 0.5 * (x[a][i] + x[a + 4][i]);
  auto dist = [&](int a, int b) {
    const Real dx = m[a][0] - m[b][0], dy = m[a][1] - m[b][1], dz = m[a][2] - m[b][2];
    return std::sqrt(dx * dx + dy * dy + dz * dz);
  };
  f.diag = std::max(dist(0, 2), dist(1, 3));
  return f;
}

Real wave_speed(const MaterialParams& mat, Real density_scale) {
  return std::sqrt(mat.e / (mat.ro * density_scale * (1 - mat.nu * mat.nu)));
}

/// The critical step: l / c_d with l = (1 / l_p^2 + 1 / t^2)^(-1/2), l_p the in-plane length
/// (area / longest diagonal: a / sqrt(2) for an a x a square) and t the thickness, and c_d the
/// dilatational wave speed sqrt((lambda + 2G) / rho). The brick's highest frequency is
/// 2 c_d (1/a^2 + 1/b^2 + 1/t^2)^(1/2); the fibre's stress (E, and its c s33 share of s11, s22)
/// makes it about as stiff as a solid through the thickness. (The plane-stress speed over the
/// smaller length let a struck plate's modes grow at TSSFAC 0.9.)
Real step_of(const MaterialParams& mat, const Frame& f, Real density_scale) {
  const Real lp = f.diag > 0 ? f.area / f.diag : 0.0;
  const Real l = lp > 0 && f.thickness > 0
                     ? 1 / std::sqrt(1 / (lp * lp) + 1 / (f.thickness * f.thickness))
                     : 0.0;
  const Real nu = mat.nu;
  const Real cd = std::sqrt(mat.e * (1 - nu) / ((1 + nu) * (1 - 2 * nu) * mat.ro * density_scale));
  return l / cd;
}

void gather(const HexBlock& blk, std::size_t e, std::span<const Real> u, Real out[8][3]) {
  for (int a = 0; a < 8; ++a) {
    const auto n = static_cast<std::size_t>(blk.conn[e][static_cast<std::size_t>(a)]);
    for (int i = 0; i < 3; ++i) out[a][i] = u[3 * n + i];
  }
}

/// The state of point ip of element e (kTShellState values).
Real* point_state(HexBlock& blk, std::size_t e, int ip) {
  return &blk.ts[(e * static_cast<std::size_t>(blk.ts_nip) + static_cast<std::size_t>(ip)) *
                 kTShellState];
}

/// One element; false when it is inverted.
bool tshell_element(const HexOptions& opt, const MaterialParams& mat, HexBlock& blk, std::size_t e,
                    std::span<const Real> xs, std::span<const Real> vs, Real dt, Real* fo) {
  Real x[8][3], v[8][3];
  gather(blk, e, xs, x);
  gather(blk, e, vs, v);
  const Frame fr = frame_of(x);
  const auto& r = fr.r;
  Real f[8][3] = {};
  Real mean[6] = {}, vol = 0, de = 0, ep_sum = 0;
  // pass 1: the points' gradients, rates in the lamina frame and law updates
  constexpr int kMax = 10;
  Real g[kMax][8][3], dl[kMax][3][3], dv[kMax], old[kMax][6];
  Real mismatch = 0; // the fibre's stretch over the law's free one, volume mean
  const int nip = opt.nip;
  for (int ip = 0; ip < nip; ++ip) {
    const Real det = gradients_at(x, opt.zeta[static_cast<std::size_t>(ip)], g[ip]);
    if (!(det > 0) || !std::isfinite(det)) return false;
    dv[ip] = 4 * opt.w[static_cast<std::size_t>(ip)] * det;
    vol += dv[ip];
    // velocity gradient l[i][j] = dv_i / dx_j, rate of deformation in the lamina frame
    Real l[3][3] = {};
    for (int a = 0; a < 8; ++a)
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) l[i][j] += v[a][i] * g[ip][a][j];
    Real d[3][3];
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) d[i][j] = 0.5 * (l[i][j] + l[j][i]);
    for (int p = 0; p < 3; ++p)
      for (int q = 0; q < 3; ++q) {
        dl[ip][p][q] = 0;
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j) dl[ip][p][q] += r[p][i] * d[i][j] * r[q][j];
      }
    Real* st = point_state(blk, e, ip);
    for (int k = 0; k < 6; ++k) old[ip][k] = st[k];
    const Real deps[5] = {dl[ip][0][0] * dt, dl[ip][1][1] * dt, 2 * dl[ip][0][1] * dt,
                          opt.shrf * 2 * dl[ip][1][2] * dt, opt.shrf * 2 * dl[ip][2][0] * dt};
    Real dzz = 0;
    Real eps_p = st[6];
    update_stress_shell(mat, deps, dt, st, st + 7, eps_p, dzz);
    st[6] = eps_p;
    ep_sum += opt.w[static_cast<std::size_t>(ip)] * eps_p;
    mismatch += dv[ip] * (dl[ip][2][2] * dt - dzz);
  }
  // The fibre held to the law's free stretch, one stress for the element: s33 = E (mean
  // eps_33 - mean eps_33,free), the energy V E/2 (...)^2 with eps_33,free = -c (eps_11 + eps_22)
  // elastically; its derivative also adds c s33 to s11 and s22 at every point (c = nu / (1 -
  // nu)), so the tangent stays symmetric and the element conservative. The volume means keep
  // bending free of it (the free stretch -nu zeta kappa varies through the thickness, the
  // brick's fibre stretch does not: held point by point, it would lock, 8 % too stiff).
  const Real s33 = point_state(blk, e, 0)[5] + mat.e * mismatch / vol;
  const Real c = mat.nu / (1 - mat.nu);
  // pass 2: forces and work
  for (int ip = 0; ip < nip; ++ip) {
    Real* st = point_state(blk, e, ip);
    st[5] = s33;
    const Real s11 = st[0] + c * s33, s22 = st[1] + c * s33;
    const Real(&dp)[3][3] = dl[ip];
    const Real* o = old[ip];
    // work over the step (trapezoid; the true transverse shear strains)
    de += dv[ip] *
          (0.5 * (o[0] + c * o[5] + s11) * dp[0][0] + 0.5 * (o[1] + c * o[5] + s22) * dp[1][1] +
           0.5 * (o[2] + st[2]) * 2 * dp[0][1] + 0.5 * (o[3] + st[3]) * 2 * dp[1][2] +
           0.5 * (o[4] + st[4]) * 2 * dp[2][0] + 0.5 * (o[5] + s33) * dp[2][2]) *
          dt;
    // stress in global axes: R^T S R
    const Real s[3][3] = {{s11, st[2], st[4]}, {st[2], s22, st[3]}, {st[4], st[3], s33}};
    Real sg[3][3] = {};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        for (int p = 0; p < 3; ++p)
          for (int q = 0; q < 3; ++q) sg[i][j] += r[p][i] * s[p][q] * r[q][j];
    for (int a = 0; a < 8; ++a)
      for (int i = 0; i < 3; ++i)
        f[a][i] +=
            dv[ip] * (sg[i][0] * g[ip][a][0] + sg[i][1] * g[ip][a][1] + sg[i][2] * g[ip][a][2]);
    mean[0] += dv[ip] * sg[0][0];
    mean[1] += dv[ip] * sg[1][1];
    mean[2] += dv[ip] * sg[2][2];
    mean[3] += dv[ip] * sg[0][1];
    mean[4] += dv[ip] * sg[1][2];
    mean[5] += dv[ip] * sg[2][0];
  }
  // hourglass control of the xi eta and xi eta zeta modes, in-plane gradients of the centre
  Real dehg = 0;
  if (opt.qm > 0) {
    Real g0[8][3];
    if (!(gradients_at(x, 0.0, g0) > 0)) return false;
    Real gam[2][8], b2 = 0;
    for (int m = 0; m < 2; ++m) {
      Real hx[3] = {};
      for (int a = 0; a < 8; ++a)
        for (int i = 0; i < 3; ++i) hx[i] += kHg[m][a] * x[a][i];
      for (int a = 0; a < 8; ++a)
        gam[m][a] = kHg[m][a] - (hx[0] * g0[a][0] + hx[1] * g0[a][1] + hx[2] * g0[a][2]);
    }
    for (int a = 0; a < 8; ++a) {
      const Real gn = g0[a][0] * r[2][0] + g0[a][1] * r[2][1] + g0[a][2] * r[2][2];
      b2 += g0[a][0] * g0[a][0] + g0[a][1] * g0[a][1] + g0[a][2] * g0[a][2] - gn * gn;
    }
    const Real ds = blk.density_scale[e];
    for (int m = 0; m < 2; ++m)
      for (int i = 0; i < 3; ++i) {
        Real q = 0;
        for (int a = 0; a < 8; ++a) q += gam[m][a] * v[a][i];
        Real force;
        if (opt.ihq >= 4) { // stiffness: the generalised force accumulates k dt q
          const Real k = opt.qm * mat.e / (1 - mat.nu * mat.nu) * vol * b2 / 3.0;
          Real& h = blk.hgq[12 * e + 4 * static_cast<std::size_t>(i) + (m == 0 ? 0u : 3u)];
          const Real old = h;
          h = old + k * dt * q;
          force = h;
          dehg += 0.5 * (old + h) * q * dt;
        } else { // viscous: a_h = qm rho c t sqrt(A) / 4 (V^(2/3) of a cube)
          const Real ah =
              0.25 * opt.qm * mat.ro * ds * wave_speed(mat, ds) * fr.thickness * std::sqrt(fr.area);
          force = ah * q;
          dehg += force * q * dt;
        }
        for (int a = 0; a < 8; ++a) f[a][i] += force * gam[m][a];
      }
  }
  for (int a = 0; a < 8; ++a)
    for (int i = 0; i < 3; ++i) fo[3 * a + i] = f[a][i];
  for (int k = 0; k < 6; ++k) blk.sig[6 * e + k] = mean[k] / vol;
  blk.eps_p[e] = ep_sum / 2;
  blk.vol[e] = vol;
  blk.e_int[e] += de;
  blk.e_hg[e] += dehg;
  blk.dt[e] = step_of(mat, fr, blk.density_scale[e]);
  return true;
}

} // namespace

HexPassResult compute_tshell_forces(const HexOptions& opt, const MaterialParams& mat, HexBlock& blk,
                                    std::size_t begin, std::size_t end, std::span<const Real> x,
                                    std::span<const Real> v, Real dt, std::span<Real> fe) {
  HexPassResult res;
  for (std::size_t e = begin; e < end; ++e) {
    Real* fo = fe.data() + 24 * e;
    if (blk.failed[e]) {
      std::fill(fo, fo + 24, 0.0);
      blk.dt[e] = 1e300;
      continue;
    }
    if (!tshell_element(opt, mat, blk, e, x, v, dt, fo)) {
      std::fill(fo, fo + 24, 0.0);
      blk.dt[e] = 1e300;
      if (res.bad_element < 0) res.bad_element = static_cast<std::int64_t>(e);
      continue;
    }
    if (blk.dt[e] < res.min_dt) {
      res.min_dt = blk.dt[e];
      res.min_dt_element = static_cast<std::int64_t>(e);
    }
    if (mat.fail > 0 && blk.eps_p[e] >= mat.fail) blk.failed[e] = 1;
  }
  return res;
}

Real tshell_critical_dt(const MaterialParams& mat, const HexBlock& blk, std::size_t e,
                        std::span<const Real> x) {
  Real xe[8][3];
  gather(blk, e, x, xe);
  return step_of(mat, frame_of(xe), blk.density_scale[e]);
}

} // namespace parcae
