#include "fem/hex8.hpp"

#include <algorithm>
#include <cmath>

namespace parcae {

namespace {

// Natural coordinates of the nodes (LS-DYNA / Flanagan-Belytschko order).
constexpr Real kXi[8] = {-1, 1, 1, -1, -1, 1, 1, -1};
constexpr Real kEta[8] = {-1, -1, 1, 1, -1, -1, 1, 1};
constexpr Real kZeta[8] = {-1, -1, -1, -1, 1, 1, 1, 1};

// Hourglass base vectors h = (eta*zeta, zeta*xi, xi*eta, xi*eta*zeta) at the nodes.
constexpr Real kHg[4][8] = {
    {1, 1, -1, -1, -1, -1, 1, 1},
    {1, -1, -1, 1, -1, 1, 1, -1},
    {1, -1, 1, -1, 1, -1, 1, -1},
    {-1, 1, -1, 1, 1, -1, 1, -1},
};

constexpr int kFaces[6][4] = {{0, 1, 2, 3}, {4, 5, 6, 7}, {0, 1, 5, 4},
                              {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}};

} // namespace

void HexBlock::init(std::size_t n) {
  conn.resize(n);
  sig.assign(6 * n, 0.0);
  back.assign(6 * n, 0.0);
  eps_p.assign(n, 0.0);
  hgq.assign(12 * n, 0.0);
  vol.assign(n, 0.0);
  e_int.assign(n, 0.0);
  e_hg.assign(n, 0.0);
  dt.assign(n, 0.0);
  density_scale.assign(n, 1.0);
  failed.assign(n, 0);
}

Real hex_volume_gradient(const Real x[8], const Real y[8], const Real z[8], Real bx[8], Real by[8],
                         Real bz[8]) {
  const Real x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3], x4 = x[4], x5 = x[5], x6 = x[6], x7 = x[7];
  const Real y0 = y[0], y1 = y[1], y2 = y[2], y3 = y[3], y4 = y[4], y5 = y[5], y6 = y[6], y7 = y[7];
  const Real z0 = z[0], z1 = z[1], z2 = z[2], z3 = z[3], z4 = z[4], z5 = z[5], z6 = z[6], z7 = z[7];
#include "fem/hex8_gradient.inc"
  // V is homogeneous of degree 3 in the coordinates: sum_I x_I . dV/dx_I = 3 V.
  Real v = 0;
  for (int a = 0; a < 8; ++a) v += x[a] * bx[a] + y[a] * by[a] + z[a] * bz[a];
  return v / 3.0;
}

Real hex_volume_gradient_reference(const Real x[8], const Real y[8], const Real z[8], Real bx[8],
                                   Real by[8], Real bz[8]) {
  const Real g = 1.0 / std::sqrt(3.0);
  for (int a = 0; a < 8; ++a) bx[a] = by[a] = bz[a] = 0;
  Real volume = 0;
  for (int p = 0; p < 8; ++p) {
    const Real xi = g * kXi[p], eta = g * kEta[p], zeta = g * kZeta[p];
    Real dn[8][3];
    for (int a = 0; a < 8; ++a) {
      dn[a][0] = 0.125 * kXi[a] * (1 + eta * kEta[a]) * (1 + zeta * kZeta[a]);
      dn[a][1] = 0.125 * kEta[a] * (1 + xi * kXi[a]) * (1 + zeta * kZeta[a]);
      dn[a][2] = 0.125 * kZeta[a] * (1 + xi * kXi[a]) * (1 + eta * kEta[a]);
    }
    Real j[3][3] = {}; // j[i][r] = d x_i / d xi_r
    for (int a = 0; a < 8; ++a)
      for (int r = 0; r < 3; ++r) {
        j[0][r] += x[a] * dn[a][r];
        j[1][r] += y[a] * dn[a][r];
        j[2][r] += z[a] * dn[a][r];
      }
    // cofactor matrix c[i][r] = d det J / d j[i][r]
    Real c[3][3];
    for (int i = 0; i < 3; ++i)
      for (int r = 0; r < 3; ++r) {
        const int i1 = (i + 1) % 3, i2 = (i + 2) % 3, r1 = (r + 1) % 3, r2 = (r + 2) % 3;
        c[i][r] = j[i1][r1] * j[i2][r2] - j[i1][r2] * j[i2][r1];
      }
    Real det = 0;
    for (int r = 0; r < 3; ++r) det += j[0][r] * c[0][r];
    volume += det; // unit Gauss weights
    for (int a = 0; a < 8; ++a)
      for (int r = 0; r < 3; ++r) {
        bx[a] += c[0][r] * dn[a][r];
        by[a] += c[1][r] * dn[a][r];
        bz[a] += c[2][r] * dn[a][r];
      }
  }
  return volume;
}

Real hex_characteristic_length(const Real x[8], const Real y[8], const Real z[8], Real volume) {
  Real amax = 0;
  for (const auto& f : kFaces) {
    const Real d1[3] = {x[f[2]] - x[f[0]], y[f[2]] - y[f[0]], z[f[2]] - z[f[0]]};
    const Real d2[3] = {x[f[3]] - x[f[1]], y[f[3]] - y[f[1]], z[f[3]] - z[f[1]]};
    const Real c[3] = {d1[1] * d2[2] - d1[2] * d2[1], d1[2] * d2[0] - d1[0] * d2[2],
                       d1[0] * d2[1] - d1[1] * d2[0]};
    amax = std::max(amax, 0.5 * std::sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]));
  }
  return amax > 0 ? volume / amax : 0.0;
}

namespace {

using GradientFn = Real (*)(const Real*, const Real*, const Real*, Real*, Real*, Real*);

/// One element's force computation, shared by the optimised and reference kernels; they differ
/// in how the volume gradient is obtained (closed form vs Gauss integration).
inline void hex_element(const HexOptions& opt, const MaterialParams& mat, HexBlock& blk,
                        std::size_t e, std::span<const Real> xs, std::span<const Real> vs, Real dt,
                        Real* fe, GradientFn gradient, HexPassResult& res) {
  Real* f = fe + 24 * e;
  if (blk.failed[e]) {
    std::fill(f, f + 24, 0.0);
    blk.dt[e] = 1e300;
    return;
  }
  const auto& cn = blk.conn[e];
  Real x[8], y[8], z[8], vx[8], vy[8], vz[8];
  for (int a = 0; a < 8; ++a) {
    const std::size_t n = 3 * static_cast<std::size_t>(cn[a]);
    x[a] = xs[n];
    y[a] = xs[n + 1];
    z[a] = xs[n + 2];
    vx[a] = vs[n];
    vy[a] = vs[n + 1];
    vz[a] = vs[n + 2];
  }
  Real bx[8], by[8], bz[8];
  const Real volume = gradient(x, y, z, bx, by, bz);
  if (!(volume > 0) || !std::isfinite(volume)) {
    std::fill(f, f + 24, 0.0);
    if (res.bad_element < 0) res.bad_element = static_cast<std::int64_t>(e);
    blk.dt[e] = 1e300;
    return;
  }
  blk.vol[e] = volume;
  const Real inv_v = 1.0 / volume;
  for (int a = 0; a < 8; ++a) {
    bx[a] *= inv_v;
    by[a] *= inv_v;
    bz[a] *= inv_v;
  }
  // Velocity gradient L_ij = sum_a v_i B_j
  Real l[3][3] = {};
  for (int a = 0; a < 8; ++a) {
    l[0][0] += vx[a] * bx[a];
    l[0][1] += vx[a] * by[a];
    l[0][2] += vx[a] * bz[a];
    l[1][0] += vy[a] * bx[a];
    l[1][1] += vy[a] * by[a];
    l[1][2] += vy[a] * bz[a];
    l[2][0] += vz[a] * bx[a];
    l[2][1] += vz[a] * by[a];
    l[2][2] += vz[a] * bz[a];
  }
  const Real trd = l[0][0] + l[1][1] + l[2][2];
  Real* s = &blk.sig[6 * e];
  Real* bk = &blk.back[6 * e];
  // Jaumann rotation of stress (and back stress): s += dt (W s - s W), W = (L - L^T)/2
  const Real w01 = 0.5 * (l[0][1] - l[1][0]) * dt;
  const Real w12 = 0.5 * (l[1][2] - l[2][1]) * dt;
  const Real w20 = 0.5 * (l[2][0] - l[0][2]) * dt;
  auto rotate = [&](Real* t) {
    // t as symmetric matrix [xx yy zz xy yz zx]; dT = W T - T W with W antisymmetric
    const Real txx = t[0], tyy = t[1], tzz = t[2], txy = t[3], tyz = t[4], tzx = t[5];
    t[0] += 2.0 * (w01 * txy - w20 * tzx);
    t[1] += 2.0 * (w12 * tyz - w01 * txy);
    t[2] += 2.0 * (w20 * tzx - w12 * tyz);
    t[3] += w01 * (tyy - txx) + w12 * tzx - w20 * tyz;
    t[4] += w12 * (tzz - tyy) + w20 * txy - w01 * tzx;
    t[5] += w20 * (txx - tzz) + w01 * tyz - w12 * txy;
  };
  if (dt > 0) {
    rotate(s);
    if (mat.kind == MaterialKind::PlasticKinematic && mat.beta < 1) rotate(bk);
  }
  const Real deps[6] = {l[0][0] * dt,
                        l[1][1] * dt,
                        l[2][2] * dt,
                        (l[0][1] + l[1][0]) * dt,
                        (l[1][2] + l[2][1]) * dt,
                        (l[2][0] + l[0][2]) * dt};
  const Real s_old[6] = {s[0], s[1], s[2], s[3], s[4], s[5]};
  if (dt > 0) update_stress_solid(mat, deps, dt, s, bk, blk.eps_p[e]);
  // Bulk viscosity (compression only): q = rho l (q2 l trd^2 - q1 c trd)
  const Real rho = mat.ro * blk.density_scale[e];
  const Real c = mat.wave_speed_solid() / std::sqrt(blk.density_scale[e]);
  const Real len = std::cbrt(volume);
  Real q = 0;
  if (trd < 0) q = rho * len * (opt.q2 * len * trd * trd - opt.q1 * c * trd);
  Real de = 0;
  for (int k = 0; k < 3; ++k) de += 0.5 * (s_old[k] + s[k]) * deps[k];
  for (int k = 3; k < 6; ++k) de += 0.5 * (s_old[k] + s[k]) * deps[k];
  de -= q * trd * dt;
  blk.e_int[e] += volume * de;
  const Real sxx = s[0] - q, syy = s[1] - q, szz = s[2] - q, sxy = s[3], syz = s[4], szx = s[5];
  for (int a = 0; a < 8; ++a) {
    f[3 * a + 0] = volume * (sxx * bx[a] + sxy * by[a] + szx * bz[a]);
    f[3 * a + 1] = volume * (sxy * bx[a] + syy * by[a] + syz * bz[a]);
    f[3 * a + 2] = volume * (szx * bx[a] + syz * by[a] + szz * bz[a]);
  }
  // Flanagan-Belytschko hourglass control.
  if (opt.qm > 0) {
    Real gam[4][8];
    for (int m = 0; m < 4; ++m) {
      Real hx = 0, hy = 0, hz = 0;
      for (int a = 0; a < 8; ++a) {
        hx += kHg[m][a] * x[a];
        hy += kHg[m][a] * y[a];
        hz += kHg[m][a] * z[a];
      }
      for (int a = 0; a < 8; ++a) gam[m][a] = kHg[m][a] - (hx * bx[a] + hy * by[a] + hz * bz[a]);
    }
    Real qd[3][4]; // hourglass velocities per direction and mode
    for (int m = 0; m < 4; ++m) {
      Real sx = 0, sy = 0, sz = 0;
      for (int a = 0; a < 8; ++a) {
        sx += vx[a] * gam[m][a];
        sy += vy[a] * gam[m][a];
        sz += vz[a] * gam[m][a];
      }
      qd[0][m] = sx;
      qd[1][m] = sy;
      qd[2][m] = sz;
    }
    Real qf[3][4];
    Real dehg = 0;
    if (opt.ihq >= 4) {
      // Stiffness form: generalised hourglass forces accumulate k * (hourglass displacement).
      Real b2 = 0;
      for (int a = 0; a < 8; ++a) b2 += bx[a] * bx[a] + by[a] * by[a] + bz[a] * bz[a];
      const Real k = opt.qm * (mat.lambda + 2.0 * mat.g) * volume * b2 / 3.0;
      Real* hq = &blk.hgq[12 * e];
      for (int i = 0; i < 3; ++i)
        for (int m = 0; m < 4; ++m) {
          const Real old = hq[4 * i + m];
          hq[4 * i + m] = old + k * dt * qd[i][m];
          qf[i][m] = hq[4 * i + m];
          dehg += 0.5 * (old + hq[4 * i + m]) * qd[i][m] * dt;
        }
    } else {
      // Viscous form: a_h = qm rho c V^(2/3) / 4 (LS-DYNA theory manual).
      const Real ah = 0.25 * opt.qm * rho * c * len * len;
      for (int i = 0; i < 3; ++i)
        for (int m = 0; m < 4; ++m) {
          qf[i][m] = ah * qd[i][m];
          dehg += qf[i][m] * qd[i][m] * dt;
        }
    }
    blk.e_hg[e] += dehg;
    for (int a = 0; a < 8; ++a)
      for (int i = 0; i < 3; ++i) {
        Real sum = 0;
        for (int m = 0; m < 4; ++m) sum += qf[i][m] * gam[m][a];
        f[3 * a + i] += sum;
      }
  }
  // Critical time step with bulk viscosity: dt = l / (Q + sqrt(Q^2 + c^2)).
  const Real le = hex_characteristic_length(x, y, z, volume);
  const Real qc = trd < 0 ? opt.q1 * c + opt.q2 * le * std::abs(trd) : 0.0;
  const Real dte = le / (qc + std::sqrt(qc * qc + c * c));
  blk.dt[e] = dte;
  if (dte < res.min_dt) {
    res.min_dt = dte;
    res.min_dt_element = static_cast<std::int64_t>(e);
  }
  if (mat.fail > 0 && blk.eps_p[e] >= mat.fail) blk.failed[e] = 1;
}

} // namespace

HexPassResult compute_hex_forces(const HexOptions& opt, const MaterialParams& mat, HexBlock& blk,
                                 std::size_t begin, std::size_t end, std::span<const Real> x,
                                 std::span<const Real> v, Real dt, std::span<Real> fe) {
  HexPassResult res;
  for (std::size_t e = begin; e < end; ++e)
    hex_element(opt, mat, blk, e, x, v, dt, fe.data(), &hex_volume_gradient, res);
  return res;
}

HexPassResult compute_hex_forces_reference(const HexOptions& opt, const MaterialParams& mat,
                                           HexBlock& blk, std::size_t begin, std::size_t end,
                                           std::span<const Real> x, std::span<const Real> v,
                                           Real dt, std::span<Real> fe) {
  HexPassResult res;
  for (std::size_t e = begin; e < end; ++e)
    hex_element(opt, mat, blk, e, x, v, dt, fe.data(), &hex_volume_gradient_reference, res);
  return res;
}

} // namespace parcae
