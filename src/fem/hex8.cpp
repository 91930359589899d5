#include "fem/hex8.hpp"
#include "fem/hex8_hourglass.hpp"
#include "fem/hex8_length.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <utility>

#if defined(__SSE2__)
#include <immintrin.h>
#endif

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

} // namespace

void HexBlock::init(std::size_t n, bool stiffness_hourglass, bool keep_back) {
  conn.resize(n);
  sig.assign(6 * n, 0.0);
  back.assign(keep_back ? 6 * n : 0, 0.0);
  eps_p.assign(n, 0.0);
  hgq.assign(stiffness_hourglass ? 12 * n : 0, 0.0);
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

namespace {

/// Stress of a hyperelastic material from the element's current (x, y, z) and initial (px, py,
/// pz) corner coordinates: F = 1 + sum_a (u_a - u_0) B0_a, u = x - X, with the uniform-gradient
/// matrix B0 of the initial geometry (sum_a B0_a = 0, so subtracting u_0 changes nothing but
/// the round-off). Returns det F (<= 0 or NaN: invalid, sig unchanged). With dt > 0, dw is the
/// change of stored energy over the step, V0 [W(F(x)) - W(F(x - dt v))] (the start-of-step
/// coordinates are x - dt v in the central-difference update); 0 otherwise.
Real hex_hyperelastic_stress(const MaterialParams& mat, const Real x[8], const Real y[8],
                             const Real z[8], const Real vx[8], const Real vy[8], const Real vz[8],
                             Real dt, const Real px[8], const Real py[8], const Real pz[8],
                             Real sig[6], Real& dw) {
  Real rx[8], ry[8], rz[8], bx[8], by[8], bz[8];
  for (int a = 0; a < 8; ++a) {
    rx[a] = px[a] - px[0];
    ry[a] = py[a] - py[0];
    rz[a] = pz[a] - pz[0];
  }
  dw = 0;
  const Real v0 = hex_volume_gradient(rx, ry, rz, bx, by, bz);
  if (!(v0 > 0)) return -1;
  const Real inv = 1.0 / v0;
  // h = F - 1 for the coordinates x - s v
  auto gradient_of = [&](Real s, Real h[3][3]) {
    for (int i = 0; i < 3; ++i)
      for (int k = 0; k < 3; ++k) h[i][k] = 0;
    for (int a = 1; a < 8; ++a) {
      const Real u[3] = {(x[a] - x[0]) - s * (vx[a] - vx[0]) - rx[a],
                         (y[a] - y[0]) - s * (vy[a] - vy[0]) - ry[a],
                         (z[a] - z[0]) - s * (vz[a] - vz[0]) - rz[a]};
      for (int i = 0; i < 3; ++i) {
        h[i][0] += u[i] * bx[a];
        h[i][1] += u[i] * by[a];
        h[i][2] += u[i] * bz[a];
      }
    }
    for (int i = 0; i < 3; ++i)
      for (int k = 0; k < 3; ++k) h[i][k] *= inv;
  };
  Real h[3][3];
  gradient_of(0.0, h);
  const Real j = hyperelastic_stress(mat, h, sig);
  if (!(j > 0) || !(dt > 0)) return j;
  Real h0[3][3];
  gradient_of(dt, h0);
  dw = v0 * (hyperelastic_energy(mat, h) - hyperelastic_energy(mat, h0));
  return j;
}

/// Initial volume of an element from the initial coordinates (relative to corner 0).
Real hex_initial_volume(std::span<const Real> x0s, const std::array<LocalId, 8>& cn) {
  Real px[8], py[8], pz[8], bx[8], by[8], bz[8];
  const std::size_t n0 = 3 * static_cast<std::size_t>(cn[0]);
  for (int a = 0; a < 8; ++a) {
    const std::size_t n = 3 * static_cast<std::size_t>(cn[a]);
    px[a] = x0s[n] - x0s[n0];
    py[a] = x0s[n + 1] - x0s[n0 + 1];
    pz[a] = x0s[n + 2] - x0s[n0 + 2];
  }
  return hex_volume_gradient(px, py, pz, bx, by, bz);
}

using GradientFn = Real (*)(const Real*, const Real*, const Real*, Real*, Real*, Real*);

/// One element's force computation, shared by the optimised and reference kernels; they differ
/// in how the volume gradient is obtained (closed form vs Gauss integration).
inline void hex_element(const HexOptions& opt, const MaterialParams& mat, HexBlock& blk,
                        std::size_t e, std::span<const Real> xs, std::span<const Real> vs, Real dt,
                        Real* fe, GradientFn gradient, HexPassResult& res,
                        std::span<const Real> x0s) {
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
  // time step length, from the volume gradient b = dV/dx (before it becomes B = b / V)
  const Real le = hex_characteristic_length(x, y, z, volume, bx, by, bz,
                                            hex_length_weight(mat, opt.tetrahedra));
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
  Real bk_none[6] = {0, 0, 0, 0, 0, 0}; // a block without back stress (HexBlock::init)
  Real* bk = blk.back.empty() ? bk_none : &blk.back[6 * e];
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
  if (dt > 0 && !mat.hyperelastic()) {
    rotate(s);
    if (mat.beta < 1 || mat.law().stress_history) rotate(bk); // kinematic hardening, 006
  }
  const Real deps[6] = {l[0][0] * dt,
                        l[1][1] * dt,
                        l[2][2] * dt,
                        (l[0][1] + l[1][0]) * dt,
                        (l[1][2] + l[2][1]) * dt,
                        (l[2][0] + l[0][2]) * dt};
  const Real s_old[6] = {s[0], s[1], s[2], s[3], s[4], s[5]};
  // Hydrodynamic materials: the state for the EOS (relative volume from the initial element
  // volume, computed from x0; energy per unit initial volume) and the state's wave speed.
  Real hv_rel = 1, hmu = 0, he_n = 0, c_state = mat.wave_speed_solid();
  if (mat.hydro()) {
    const Real v0 = hex_initial_volume(x0s, cn);
    hv_rel = volume / v0;
    hmu = v0 / volume - 1.0;
    he_n = mat.eos_e0 + blk.e_int[e] / v0;
    c_state = hydro_wave_speed(mat, hmu, he_n, -(s[0] + s[1] + s[2]) / 3.0);
  }
  // Bulk viscosity (compression only): q = rho l (q2 l trd^2 - q1 c trd), with l the time step's
  // characteristic length (see hex_batch).
  const Real rho = mat.ro * blk.density_scale[e];
  const Real c = c_state / std::sqrt(blk.density_scale[e]);
  const Real len = std::cbrt(volume);
  Real q = 0;
  if (trd < 0) q = rho * le * (opt.q2 * le * trd * trd - opt.q1 * c * trd);
  Real dw_hyper = 0; // hyperelastic: change of stored energy over the step
  if (mat.hydro()) {
    update_stress_hydro(mat, deps, dt, hmu, hv_rel, he_n, q, s, bk, blk.eps_p[e]);
  } else if (mat.hyperelastic()) {
    Real px[8], py[8], pz[8];
    for (int a = 0; a < 8; ++a) {
      const std::size_t n = 3 * static_cast<std::size_t>(cn[a]);
      px[a] = x0s[n];
      py[a] = x0s[n + 1];
      pz[a] = x0s[n + 2];
    }
    Real sg[6];
    if (!(hex_hyperelastic_stress(mat, x, y, z, vx, vy, vz, dt, px, py, pz, sg, dw_hyper) > 0)) {
      std::fill(f, f + 24, 0.0);
      if (res.bad_element < 0) res.bad_element = static_cast<std::int64_t>(e);
      blk.dt[e] = 1e300;
      return;
    }
    std::copy(sg, sg + 6, s);
  } else if (dt > 0) {
    update_stress_solid(mat, deps, dt, s, bk, blk.eps_p[e]);
  }
  Real de = 0;
  for (int k = 0; k < 3; ++k) de += 0.5 * (s_old[k] + s[k]) * deps[k];
  for (int k = 3; k < 6; ++k) de += 0.5 * (s_old[k] + s[k]) * deps[k];
  if (mat.hyperelastic()) de = 0; // the stored energy change dw_hyper instead
  de -= q * trd * dt;
  blk.e_int[e] += volume * de + dw_hyper;
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
    if (opt.ihq == 6) {
      blk.e_hg[e] +=
          assumed_strain_hourglass(mat, opt.qm, x, y, z, gam, qd, dt, &blk.hgq[12 * e], f);
    } else if (opt.ihq >= 4) {
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
    if (opt.ihq != 6) {
      blk.e_hg[e] += dehg;
      for (int a = 0; a < 8; ++a)
        for (int i = 0; i < 3; ++i) {
          Real sum = 0;
          for (int m = 0; m < 4; ++m) sum += qf[i][m] * gam[m][a];
          f[3 * a + i] += sum;
        }
    }
  }
  // Critical time step with bulk viscosity: dt = l / (Q + sqrt(Q^2 + c^2)).
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

namespace {

// ---------------------------------------------------------------------------------------------
// Optimised kernel: elements in batches of kW, one element per SIMD lane. Every element goes
// through exactly the same operations whatever its position in a batch (an incomplete last batch
// is padded with copies of its last element, whose results are discarded), so the results do
// not depend on how the elements are chunked or partitioned.

#include "fem/hex8_simd.inc"

/// Per-call constants of the optimised kernel.
struct HexConsts {
  Real c0;    ///< dilatational wave speed without mass scaling
  bool kin;   ///< back stress rotated and updated (*MAT_003 with beta < 1, stress_history laws)
  bool keep;  ///< back array loaded and stored: kin, or a law's scalar history (not rotated)
  bool hyper; ///< stress from the deformation gradient (hyperelastic_stress)
  const Real* x0s; ///< initial coordinates (hyperelastic materials)
  Real w;          ///< hex_length_weight (< 0: V / A_max alone)
};

/// Elements idx[0..kW): the first nvalid distinct, the rest copies of idx[nvalid - 1].
void hex_batch(const HexOptions& opt, const MaterialParams& mat, const HexConsts& hc, HexBlock& blk,
               const std::size_t* idx, int nvalid, const Real* xs, const Real* vs, Real dt,
               Real* fe, HexPassResult& res) {
  bool consecutive = true; // idx[l] = idx[0] + l
  for (int l = 1; l < kW; ++l) consecutive &= idx[l] == idx[0] + l;
  // Nodal coordinates and velocities.
  V x[8], y[8], z[8], vx[8], vy[8], vz[8];
  for (int a = 0; a < 8; ++a) {
    std::size_t off[kW];
    for (int l = 0; l < kW; ++l) off[l] = 3 * static_cast<std::size_t>(blk.conn[idx[l]][a]);
    gather_xyz(xs, off, x[a], y[a], z[a]);
    gather_xyz(vs, off, vx[a], vy[a], vz[a]);
  }
  // Coordinates relative to node 0: the element's geometry is translation invariant, and small
  // relative coordinates avoid the cancellation of large products in the gradient formula.
  for (int a = 1; a < 8; ++a) {
    x[a] -= x[0];
    y[a] -= y[0];
    z[a] -= z[0];
  }
  x[0] = y[0] = z[0] = splat(0.0);
  // b = 12 dV/dx (hex_volume_gradient without its factor 1/12); V = x . dV/dx / 3.
  V bx[8], by[8], bz[8];
  {
    const V x1 = x[1], x2 = x[2], x3 = x[3], x4 = x[4], x5 = x[5], x6 = x[6], x7 = x[7];
    const V y1 = y[1], y2 = y[2], y3 = y[3], y4 = y[4], y5 = y[5], y6 = y[6], y7 = y[7];
    const V z1 = z[1], z2 = z[2], z3 = z[3], z4 = z[4], z5 = z[5], z6 = z[6], z7 = z[7];
#include "fem/hex8_gradient_batch.inc"
  }
  V volume = splat(0.0);
  for (int a = 0; a < 8; ++a) volume += x[a] * bx[a] + y[a] * by[a] + z[a] * bz[a];
  volume = volume / 36.0;
  VI ok = (volume > 0.0) & (volume <= std::numeric_limits<Real>::max());
  const V binv = 1.0 / (12.0 * volume); // B = b binv (uniform-gradient matrix)
  // Velocity gradient L_ij = sum_a v_ia B_aj.
  V l00 = splat(0.0), l01 = l00, l02 = l00, l10 = l00, l11 = l00, l12 = l00, l20 = l00, l21 = l00,
    l22 = l00;
  for (int a = 0; a < 8; ++a) {
    l00 += vx[a] * bx[a];
    l01 += vx[a] * by[a];
    l02 += vx[a] * bz[a];
    l10 += vy[a] * bx[a];
    l11 += vy[a] * by[a];
    l12 += vy[a] * bz[a];
    l20 += vz[a] * bx[a];
    l21 += vz[a] * by[a];
    l22 += vz[a] * bz[a];
  }
  l00 *= binv;
  l01 *= binv;
  l02 *= binv;
  l10 *= binv;
  l11 *= binv;
  l12 *= binv;
  l20 *= binv;
  l21 *= binv;
  l22 *= binv;
  const V trd = l00 + l11 + l22;

  // Hourglass: h_m . x and the hourglass velocities qd_im = sum_a v_ia gamma_ma, with the
  // shape vectors gamma_ma = h_ma - (h_m . x) . B_a, i.e. qd_im = h_m . v_i - (h_m . x) . L_i.
  const bool hg = opt.qm > 0;
  V hx[4], hy[4], hz[4], qd[3][4];
  if (hg)
    for (int m = 0; m < 4; ++m) {
      V sx = splat(0.0), sy = sx, sz = sx, ux = sx, uy = sx, uz = sx;
      for (int a = 0; a < 8; ++a) {
        sx += kHg[m][a] * x[a];
        sy += kHg[m][a] * y[a];
        sz += kHg[m][a] * z[a];
        ux += kHg[m][a] * vx[a];
        uy += kHg[m][a] * vy[a];
        uz += kHg[m][a] * vz[a];
      }
      hx[m] = sx;
      hy[m] = sy;
      hz[m] = sz;
      qd[0][m] = ux - (sx * l00 + sy * l01 + sz * l02);
      qd[1][m] = uy - (sx * l10 + sy * l11 + sz * l12);
      qd[2][m] = uz - (sx * l20 + sy * l21 + sz * l22);
    }
  // Characteristic length V / A_max (largest face area from the diagonals' cross product).
  V amax2 = splat(0.0);
  for (const auto& fc : kHexFaces) {
    const V d1x = x[fc[2]] - x[fc[0]], d1y = y[fc[2]] - y[fc[0]], d1z = z[fc[2]] - z[fc[0]];
    const V d2x = x[fc[3]] - x[fc[1]], d2y = y[fc[3]] - y[fc[1]], d2z = z[fc[3]] - z[fc[1]];
    const V cx = d1y * d2z - d1z * d2y, cy = d1z * d2x - d1x * d2z, cz = d1x * d2y - d1y * d2x;
    const V a2 = cx * cx + cy * cy + cz * cz;
    amax2 = amax2 < a2 ? a2 : amax2;
  }
  const V amax = 0.5 * vsqrt(amax2);
  V le = amax > 0.0 ? volume / amax : splat(0.0);
  if (hc.w >= 0) { // and the stiffness bound l_K (fem/hex8_length.hpp), b = 12 dV/dx here
    V g0 = splat(0.0), g1 = g0, g2 = g0, g3 = g0, g4 = g0, g5 = g0;
    for (int a = 0; a < 8; ++a) {
      g0 += bx[a] * bx[a];
      g1 += by[a] * by[a];
      g2 += bz[a] * bz[a];
      g3 += bx[a] * by[a];
      g4 += by[a] * bz[a];
      g5 += bz[a] * bx[a];
    }
    const V lk = 12.0 * volume * vsqrt(hex_stiffness_length_sq(g0, g1, g2, g3, g4, g5, hc.w));
    le = lk < le ? lk : le;
  }

  // Stress: Jaumann rotation s += dt (W s - s W), W = (L - L^T)/2, then the material update.
  SolidBatch mp;
  V s[6];
  gather6(blk.sig.data(), idx, s);
  const V w01 = 0.5 * (l01 - l10) * dt;
  const V w12 = 0.5 * (l12 - l21) * dt;
  const V w20 = 0.5 * (l20 - l02) * dt;
  auto rotate = [&](V* t) { // t as symmetric matrix [xx yy zz xy yz zx]
    const V txx = t[0], tyy = t[1], tzz = t[2], txy = t[3], tyz = t[4], tzx = t[5];
    t[0] += 2.0 * (w01 * txy - w20 * tzx);
    t[1] += 2.0 * (w12 * tyz - w01 * txy);
    t[2] += 2.0 * (w20 * tzx - w12 * tyz);
    t[3] += w01 * (tyy - txx) + w12 * tzx - w20 * tyz;
    t[4] += w12 * (tzz - tyy) + w20 * txy - w01 * tzx;
    t[5] += w20 * (txx - tzz) + w01 * tyz - w12 * txy;
  };
  V bk[6]; // back stress: kinematic hardening only (zero and not stored otherwise)
  if (dt > 0) {
    if (!hc.hyper) rotate(s);
    if (hc.keep) {
      gather6(blk.back.data(), idx, bk);
      if (hc.kin) rotate(bk);
    } else {
      for (int k = 0; k < 6; ++k) bk[k] = splat(0.0);
    }
  }
  const V deps[6] = {l00 * dt,         l11 * dt,         l22 * dt,
                     (l01 + l10) * dt, (l12 + l21) * dt, (l20 + l02) * dt};
  const V s_old[6] = {s[0], s[1], s[2], s[3], s[4], s[5]};
  V dw = splat(0.0); // hyperelastic: change of stored energy over the step
  if (hc.hyper) {
    // Hyperelastic: the stress from the deformation gradient, lane by lane (x is relative to
    // node 0 here; hex_hyperelastic_stress works with differences only).
    for (int l = 0; l < kW; ++l) {
      if (!ok[l]) continue;
      Real cx[8], cy[8], cz[8], ux[8], uy[8], uz[8], px[8], py[8], pz[8], sg[6];
      for (int a = 0; a < 8; ++a) {
        const std::size_t n = 3 * static_cast<std::size_t>(blk.conn[idx[l]][a]);
        cx[a] = x[a][l];
        cy[a] = y[a][l];
        cz[a] = z[a][l];
        ux[a] = vx[a][l];
        uy[a] = vy[a][l];
        uz[a] = vz[a][l];
        px[a] = hc.x0s[n];
        py[a] = hc.x0s[n + 1];
        pz[a] = hc.x0s[n + 2];
      }
      Real dwl = 0;
      if (!(hex_hyperelastic_stress(mat, cx, cy, cz, ux, uy, uz, dt, px, py, pz, sg, dwl) > 0)) {
        ok[l] = 0;
        continue;
      }
      dw[l] = dwl;
      for (int k = 0; k < 6; ++k) s[k][l] = sg[k];
    }
  }
  if (dt > 0) {
    bool active[kW];
    for (int l = 0; l < kW; ++l) active[l] = ok[l] != 0 && l < nvalid;
    for (int k = 0; k < 6; ++k) {
      vstore(mp.deps[k], deps[k]);
      vstore(mp.sig[k], s[k]);
      vstore(mp.back[k], bk[k]);
    }
    if (consecutive)
      vstore(mp.eps_p, vload(&blk.eps_p[idx[0]]));
    else
      for (int l = 0; l < kW; ++l) mp.eps_p[l] = blk.eps_p[idx[l]];
    if (!hc.hyper) update_stress_solid_batch(mat, dt, mp, active);
    for (int k = 0; k < 6; ++k) s[k] = vload(mp.sig[k]);
  }

  // Density (mass scaling) and wave speed c = c0 / sqrt(scale): exactly c0 when unscaled.
  V rho = splat(mat.ro), c = splat(hc.c0);
  {
    bool scaled = false;
    for (int l = 0; l < kW; ++l) scaled |= blk.density_scale[idx[l]] != 1.0;
    if (scaled) {
      const V ds = gather(blk.density_scale.data(), idx);
      rho = mat.ro * ds;
      c = hc.c0 / vsqrt(ds);
    }
  }
  const V len = vcbrt(volume); // element size for viscous hourglass control (LS-DYNA: V^(2/3))
  // Bulk viscosity (compression only): q = rho l (q2 l trd^2 - q1 c trd). The length l is the
  // characteristic length le = V / A_max of the time step, not the cube root of the volume: the
  // critical step below, dt = le / (Q + sqrt(Q^2 + c^2)) with Q = q1 c + q2 le |trd|, is the
  // stability limit of exactly this viscosity (1D, element length le). With l = V^(1/3) the
  // linear term's damping ratio in the element's thinnest mode is q1 V^(1/3) / le instead of q1;
  // in a flattened element (the impact face of a Taylor bar: V^(1/3) / le ~ 40) that is far
  // above what the step allows, and a period-2 oscillation of the volume grows until the element
  // inverts. The two lengths agree for a cube.
  const V q = trd < 0.0 ? rho * le * (opt.q2 * le * trd * trd - opt.q1 * c * trd) : splat(0.0);
  V de = splat(0.0);
  if (!hc.hyper) { // hyperelastic: the stored energy change dw instead
    for (int k = 0; k < 3; ++k) de += 0.5 * (s_old[k] + s[k]) * deps[k];
    for (int k = 3; k < 6; ++k) de += 0.5 * (s_old[k] + s[k]) * deps[k];
  }
  de -= q * trd * dt;

  // Corner forces f_ai = sigma_ij B_aj V + sum_m Q_im gamma_ma
  //                    = (sigma_ij / 12 - G_ij binv) b_aj + sum_m Q_im h_ma,
  // G_i = sum_m Q_im (h_m . x), with the generalised hourglass forces Q.
  constexpr Real k12 = 1.0 / 12.0;
  const V sxx = s[0] - q, syy = s[1] - q, szz = s[2] - q;
  V cf[3][3] = {{sxx * k12, s[3] * k12, s[5] * k12},
                {s[3] * k12, syy * k12, s[4] * k12},
                {s[5] * k12, s[4] * k12, szz * k12}};
  V qf[3][4];
  V dehg = splat(0.0);
  if (hg) {
    if (opt.ihq >= 4) {
      // Stiffness form: generalised hourglass forces accumulate k * (hourglass displacement).
      V b2 = splat(0.0);
      for (int a = 0; a < 8; ++a) b2 += bx[a] * bx[a] + by[a] * by[a] + bz[a] * bz[a];
      b2 *= binv * binv;
      const V kk = opt.qm * (mat.lambda + 2.0 * mat.g) * volume * b2 / 3.0;
      V hq[12]; // [4 i + m]
      gather_rows<12>(blk.hgq.data(), idx, hq);
      for (int i = 0; i < 3; ++i)
        for (int m = 0; m < 4; ++m) {
          const V old = hq[4 * i + m];
          qf[i][m] = old + kk * dt * qd[i][m];
          dehg += 0.5 * (old + qf[i][m]) * qd[i][m] * dt;
        }
    } else {
      // Viscous form: a_h = qm rho c V^(2/3) / 4 (LS-DYNA theory manual).
      const V ah = 0.25 * opt.qm * rho * c * len * len;
      for (int i = 0; i < 3; ++i)
        for (int m = 0; m < 4; ++m) {
          qf[i][m] = ah * qd[i][m];
          dehg += qf[i][m] * qd[i][m] * dt;
        }
    }
    for (int i = 0; i < 3; ++i) {
      V gx = splat(0.0), gy = gx, gz = gx;
      for (int m = 0; m < 4; ++m) {
        gx += qf[i][m] * hx[m];
        gy += qf[i][m] * hy[m];
        gz += qf[i][m] * hz[m];
      }
      cf[i][0] -= gx * binv;
      cf[i][1] -= gy * binv;
      cf[i][2] -= gz * binv;
    }
  }
  V f[24];
  for (int a = 0; a < 8; ++a)
    for (int i = 0; i < 3; ++i) {
      V t = cf[i][0] * bx[a] + cf[i][1] * by[a] + cf[i][2] * bz[a];
      if (hg)
        t += (kHg[0][a] * qf[i][0] + kHg[1][a] * qf[i][1]) +
             (kHg[2][a] * qf[i][2] + kHg[3][a] * qf[i][3]);
      f[3 * a + i] = t;
    }
  // Critical time step with bulk viscosity: dt = l / (Q + sqrt(Q^2 + c^2)).
  const V qc = trd < 0.0 ? opt.q1 * c + opt.q2 * le * (-trd) : splat(0.0);
  const V dte = le / (qc + vsqrt(qc * qc + c * c));

  // Write back the distinct lanes in element order. A full batch of valid elements is stored
  // with transposes and, when its elements are consecutive (the common case), with vector
  // stores; the values stored are the same either way.
  bool all_ok = nvalid == kW;
  for (int l = 0; l < kW; ++l) all_ok &= ok[l] != 0;
  const bool hgq = hg && opt.ihq >= 4;
  if (all_ok && consecutive) {
    const std::size_t e0 = idx[0];
    scatter_rows<24>(fe, idx, f);
    scatter6(blk.sig.data(), idx, s);
    vstore(&blk.vol[e0], volume);
    if (dt > 0) {
      if (hc.keep) {
        V bk_new[6];
        for (int k = 0; k < 6; ++k) bk_new[k] = vload(mp.back[k]);
        scatter6(blk.back.data(), idx, bk_new);
      }
      vstore(&blk.eps_p[e0], vload(mp.eps_p));
    }
    vstore(&blk.e_int[e0], vload(&blk.e_int[e0]) + (volume * de + dw));
    if (hg) vstore(&blk.e_hg[e0], vload(&blk.e_hg[e0]) + dehg);
    if (hgq) scatter_rows<12>(blk.hgq.data(), idx, &qf[0][0]);
    vstore(&blk.dt[e0], dte);
    for (int l = 0; l < kW; ++l)
      if (dte[l] < res.min_dt) {
        res.min_dt = dte[l];
        res.min_dt_element = static_cast<std::int64_t>(e0 + l);
      }
    if (mat.fail > 0)
      for (int l = 0; l < kW; ++l)
        if (blk.eps_p[e0 + l] >= mat.fail) blk.failed[e0 + l] = 1;
    return;
  }
  if (all_ok) {
    scatter_rows<24>(fe, idx, f);
    scatter6(blk.sig.data(), idx, s);
  }
  for (int l = 0; l < nvalid; ++l) {
    const std::size_t e = idx[l];
    Real* fo = fe + 24 * e;
    if (!ok[l]) {
      std::fill(fo, fo + 24, 0.0);
      if (res.bad_element < 0) res.bad_element = static_cast<std::int64_t>(e);
      blk.dt[e] = 1e300;
      continue;
    }
    if (!all_ok) {
      for (int j = 0; j < 24; ++j) fo[j] = f[j][l];
      for (int k = 0; k < 6; ++k) blk.sig[6 * e + k] = s[k][l];
    }
    blk.vol[e] = volume[l];
    if (dt > 0) {
      if (hc.keep)
        for (int k = 0; k < 6; ++k) blk.back[6 * e + k] = mp.back[k][l];
      blk.eps_p[e] = mp.eps_p[l];
    }
    blk.e_int[e] += volume[l] * de[l] + dw[l];
    if (hg) blk.e_hg[e] += dehg[l];
    if (hgq)
      for (int i = 0; i < 3; ++i)
        for (int m = 0; m < 4; ++m) blk.hgq[12 * e + 4 * i + m] = qf[i][m][l];
    blk.dt[e] = dte[l];
    if (dte[l] < res.min_dt) {
      res.min_dt = dte[l];
      res.min_dt_element = static_cast<std::int64_t>(e);
    }
    if (mat.fail > 0 && blk.eps_p[e] >= mat.fail) blk.failed[e] = 1;
  }
}

} // namespace

HexPassResult compute_hex_forces(const HexOptions& opt, const MaterialParams& mat, HexBlock& blk,
                                 std::size_t begin, std::size_t end, std::span<const Real> x,
                                 std::span<const Real> v, Real dt, std::span<Real> fe,
                                 std::span<const Real> x0) {
  HexPassResult res;
  if ((mat.hyperelastic() || mat.hydro()) && x0.size() < x.size())
    throw std::invalid_argument("compute_hex_forces: a hyperelastic material needs x0");
  if (mat.hydro() || opt.ihq == 6) {
    // Hydrodynamic materials (state-dependent wave speed, EOS pressure) and the assumed-strain
    // hourglass control (IHQ 6, its corotational frame): the scalar element.
    for (std::size_t e = begin; e < end; ++e)
      hex_element(opt, mat, blk, e, x, v, dt, fe.data(), &hex_volume_gradient, res, x0);
    return res;
  }
  const bool kin = mat.beta < 1 || mat.law().stress_history;
  const HexConsts hc{mat.wave_speed_solid(), kin, kin || mat.law().scalar_history,
                     mat.hyperelastic(), x0.data(), hex_length_weight(mat, opt.tetrahedra)};
  std::size_t idx[kW];
  int nb = 0;
  for (std::size_t e = begin; e < end; ++e) {
    if (blk.failed[e]) {
      std::fill(fe.data() + 24 * e, fe.data() + 24 * e + 24, 0.0);
      blk.dt[e] = 1e300;
      continue;
    }
    idx[nb++] = e;
    if (nb == kW) {
      hex_batch(opt, mat, hc, blk, idx, kW, x.data(), v.data(), dt, fe.data(), res);
      nb = 0;
    }
  }
  if (nb > 0) {
    for (int l = nb; l < kW; ++l) idx[l] = idx[nb - 1];
    hex_batch(opt, mat, hc, blk, idx, nb, x.data(), v.data(), dt, fe.data(), res);
  }
  return res;
}

HexPassResult compute_hex_forces_reference(const HexOptions& opt, const MaterialParams& mat,
                                           HexBlock& blk, std::size_t begin, std::size_t end,
                                           std::span<const Real> x, std::span<const Real> v,
                                           Real dt, std::span<Real> fe, std::span<const Real> x0) {
  HexPassResult res;
  if ((mat.hyperelastic() || mat.hydro()) && x0.size() < x.size())
    throw std::invalid_argument("compute_hex_forces_reference: a hyperelastic material needs x0");
  for (std::size_t e = begin; e < end; ++e)
    hex_element(opt, mat, blk, e, x, v, dt, fe.data(), &hex_volume_gradient_reference, res, x0);
  return res;
}

std::array<LocalId, 8> hex_connectivity(const std::array<LocalId, 8>& n) {
  const bool tet_tail = n[4] == n[3] && n[5] == n[3] && n[6] == n[3] && n[7] == n[3];
  const bool distinct =
      n[0] != n[1] && n[0] != n[2] && n[0] != n[3] && n[1] != n[2] && n[1] != n[3] && n[2] != n[3];
  if (!tet_tail || !distinct) return n;
  return {n[0], n[1], n[2], n[2], n[3], n[3], n[3], n[3]};
}

} // namespace parcae
