// 2-D solids: plane strain and axisymmetric one-point quadrilaterals (see solid2d.hpp).
#include "fem/solid2d.hpp"

#include <algorithm>
#include <cmath>

#include "fem/mass_scaling.hpp"

namespace parcae {

namespace {

/// Hourglass base vector of the quadrilateral.
constexpr Real kHg2[4] = {1.0, -1.0, 1.0, -1.0};

void gather(const ShellBlock& blk, std::size_t e, std::span<const Real> x, Real cx[4], Real cy[4]) {
  for (int a = 0; a < 4; ++a) {
    const auto n = static_cast<std::size_t>(blk.conn[e][static_cast<std::size_t>(a)]);
    cx[a] = x[3 * n];
    cy[a] = x[3 * n + 1];
  }
}

bool is_triangle(const ShellBlock& blk, std::size_t e) {
  return blk.conn[e][2] == blk.conn[e][3];
}

/// Jaumann rotation of a symmetric tensor [xx yy zz xy yz zx] by the in-plane spin increment
/// w = (L_xy - L_yx) dt / 2 (the only spin of a planar motion).
void rotate_in_plane(Real* t, Real w) {
  const Real txx = t[0], tyy = t[1], txy = t[3];
  t[0] += 2.0 * w * txy;
  t[1] -= 2.0 * w * txy;
  t[3] += w * (tyy - txx);
}

void one_element(const ShellOptions& opt, const MaterialParams& mat, ShellBlock& blk, std::size_t e,
                 std::span<const Real> xs, std::span<const Real> vs, Real dt, Real* f, Real* m,
                 PlanarPassResult& res) {
  std::fill(f, f + 12, 0.0);
  std::fill(m, m + 12, 0.0);
  if (blk.failed[e]) return;
  const bool axi = blk.planar == Planar::Axisymmetric;
  Real x[4], y[4], vx[4], vy[4], bx[4], by[4];
  gather(blk, e, xs, x, y);
  gather(blk, e, vs, vx, vy);
  const Real area = quad_area_gradient(x, y, bx, by);
  const Real rc = 0.25 * (x[0] + x[1] + x[2] + x[3]);
  if (!(area > 0) || (axi && !(rc > 0))) {
    if (res.bad_element < 0) res.bad_element = static_cast<std::int64_t>(e);
    blk.dt2d[e] = 1e300;
    return;
  }
  const Real w = axi ? rc : 1.0; // volume per unit area: r_c per radian, or unit thickness
  const Real volume = w * area;
  // velocity gradient (uniform part) and the out-of-plane rate
  Real lxx = 0, lxy = 0, lyx = 0, lyy = 0, vr = 0;
  for (int a = 0; a < 4; ++a) {
    lxx += vx[a] * bx[a];
    lxy += vx[a] * by[a];
    lyx += vy[a] * bx[a];
    lyy += vy[a] * by[a];
    vr += 0.25 * vx[a];
  }
  lxx /= area;
  lxy /= area;
  lyx /= area;
  lyy /= area;
  const Real lzz = axi ? vr / rc : 0.0;
  const Real trd = lxx + lyy + lzz;
  Real* s = &blk.sig2d[6 * e];
  Real* bk = &blk.back2d[6 * e];
  if (dt > 0) {
    const Real spin = 0.5 * (lxy - lyx) * dt;
    rotate_in_plane(s, spin);
    if (mat.beta < 1 || mat.law().stress_history) rotate_in_plane(bk, spin);
  }
  const Real deps[6] = {lxx * dt, lyy * dt, lzz * dt, (lxy + lyx) * dt, 0.0, 0.0};
  const Real s_old[6] = {s[0], s[1], s[2], s[3], s[4], s[5]};
  if (dt > 0) update_stress_solid(mat, deps, dt, s, bk, blk.eps_p[e]);
  s[4] = s[5] = 0.0; // no transverse shear in a planar motion
  const Real rho = mat.ro * blk.density_scale[e];
  const Real c = mat.wave_speed_solid() / std::sqrt(blk.density_scale[e]);
  Real b2 = 0; // sum |b_a|^2: the characteristic length and the hourglass stiffness
  for (int a = 0; a < 4; ++a) b2 += bx[a] * bx[a] + by[a] * by[a];
  const Real le = area / std::sqrt(b2); // quad_characteristic_length (area > 0 here)
  Real q = 0;                           // bulk viscosity, compression only
  if (trd < 0) q = rho * le * (opt.q2 * le * trd * trd - opt.q1 * c * trd);
  Real de = 0;
  for (int k = 0; k < 4; ++k) de += 0.5 * (s_old[k] + s[k]) * deps[k];
  de -= q * trd * dt;
  blk.e_int[e] += volume * de;
  const Real sxx = s[0] - q, syy = s[1] - q, szz = s[2] - q, sxy = s[3];
  for (int a = 0; a < 4; ++a) {
    f[3 * a + 0] = w * (sxx * bx[a] + sxy * by[a]) + (axi ? 0.25 * area * szz : 0.0);
    f[3 * a + 1] = w * (sxy * bx[a] + syy * by[a]);
  }
  // Flanagan-Belytschko hourglass control (a triangle has no hourglass mode).
  if (opt.qm > 0 && !is_triangle(blk, e)) {
    Real hx = 0, hy = 0;
    for (int a = 0; a < 4; ++a) {
      hx += kHg2[a] * x[a];
      hy += kHg2[a] * y[a];
    }
    Real gam[4];
    for (int a = 0; a < 4; ++a) gam[a] = kHg2[a] - (hx * bx[a] + hy * by[a]) / area;
    Real qd[2] = {0, 0};
    for (int a = 0; a < 4; ++a) {
      qd[0] += vx[a] * gam[a];
      qd[1] += vy[a] * gam[a];
    }
    Real qf[2];
    Real dehg = 0;
    if (opt.ihq >= 4) {
      // Stiffness form: k = qm (lambda + 2 G) w sum|b|^2 / (2 A), the 2-D counterpart of the
      // hexahedron's qm (lambda + 2 G) V sum|B|^2 / 3.
      const Real k = opt.qm * (mat.lambda + 2.0 * mat.g) * w * b2 / (2.0 * area);
      Real* hq = &blk.hg[5 * e];
      for (int i = 0; i < 2; ++i) {
        const Real old = hq[i];
        hq[i] = old + k * dt * qd[i];
        qf[i] = hq[i];
        dehg += 0.5 * (old + hq[i]) * qd[i] * dt;
      }
    } else {
      // Viscous form: qm rho c w sqrt(A) / 4, the hexahedron's qm rho c V^(2/3) / 4 per unit
      // thickness (or per radian).
      const Real ah = 0.25 * opt.qm * rho * c * w * std::sqrt(area);
      for (int i = 0; i < 2; ++i) {
        qf[i] = ah * qd[i];
        dehg += qf[i] * qd[i] * dt;
      }
    }
    blk.e_hg[e] += dehg;
    for (int a = 0; a < 4; ++a) {
      f[3 * a + 0] += qf[0] * gam[a];
      f[3 * a + 1] += qf[1] * gam[a];
    }
  }
  // Critical step with bulk viscosity: le / (Q + sqrt(Q^2 + c^2)).
  const Real qc = trd < 0 ? opt.q1 * c + opt.q2 * le * std::abs(trd) : 0.0;
  const Real dte = le / (qc + std::sqrt(qc * qc + c * c));
  blk.dt2d[e] = dte;
  if (dte < res.min_dt) {
    res.min_dt = dte;
    res.min_dt_element = static_cast<std::int64_t>(e);
  }
  if (mat.fail > 0 && blk.eps_p[e] >= mat.fail) blk.failed[e] = 1;
}

} // namespace

Real quad_area_gradient(const Real x[4], const Real y[4], Real bx[4], Real by[4]) {
  bx[0] = 0.5 * (y[1] - y[3]);
  bx[1] = 0.5 * (y[2] - y[0]);
  bx[2] = 0.5 * (y[3] - y[1]);
  bx[3] = 0.5 * (y[0] - y[2]);
  by[0] = 0.5 * (x[3] - x[1]);
  by[1] = 0.5 * (x[0] - x[2]);
  by[2] = 0.5 * (x[1] - x[3]);
  by[3] = 0.5 * (x[2] - x[0]);
  return 0.5 * ((x[2] - x[0]) * (y[3] - y[1]) - (x[3] - x[1]) * (y[2] - y[0]));
}

Real quad_characteristic_length(const Real x[4], const Real y[4]) {
  Real bx[4], by[4];
  const Real area = quad_area_gradient(x, y, bx, by);
  Real b2 = 0;
  for (int a = 0; a < 4; ++a) b2 += bx[a] * bx[a] + by[a] * by[a];
  return b2 > 0 ? area / std::sqrt(b2) : 0.0;
}

PlanarPassResult compute_planar_forces(const ShellOptions& opt, const MaterialParams& mat,
                                       ShellBlock& blk, std::size_t begin, std::size_t end,
                                       std::span<const Real> x, std::span<const Real> v, Real dt,
                                       std::span<Real> fe, std::span<Real> me) {
  PlanarPassResult res;
  for (std::size_t e = begin; e < end; ++e)
    one_element(opt, mat, blk, e, x, v, dt, &fe[12 * e], &me[12 * e], res);
  return res;
}

Real planar_initial_dt(const MaterialParams& mat, const ShellBlock& blk, std::size_t e,
                       std::span<const Real> x) {
  Real cx[4], cy[4];
  gather(blk, e, x, cx, cy);
  return mass_scaled_dt(quad_characteristic_length(cx, cy) / mat.wave_speed_solid(),
                        blk.density_scale, e);
}

std::array<Real, 4> planar_lumped_mass(const MaterialParams& mat, const ShellBlock& blk,
                                       std::size_t e, std::span<const Real> x) {
  Real cx[4], cy[4], bx[4], by[4];
  gather(blk, e, x, cx, cy);
  const Real area = quad_area_gradient(cx, cy, bx, by);
  std::array<Real, 4> m{};
  if (blk.planar != Planar::Axisymmetric) {
    if (is_triangle(blk, e)) {
      m = {area / 3.0, area / 3.0, area / 6.0, area / 6.0};
    } else {
      m.fill(0.25 * area);
    }
    for (Real& v : m) v *= mat.ro;
    return m;
  }
  // rho int N_a r dA by 2x2 Gauss: N_a r detJ is at most cubic in each of xi, eta.
  constexpr Real kXi[4] = {-1, 1, 1, -1}, kEta[4] = {-1, -1, 1, 1};
  const Real g = 1.0 / std::sqrt(3.0);
  for (int p = 0; p < 4; ++p) {
    const Real xi = g * kXi[p], eta = g * kEta[p];
    Real n[4], xx = 0, xxi = 0, xeta = 0, yxi = 0, yeta = 0;
    for (int a = 0; a < 4; ++a) {
      n[a] = 0.25 * (1 + kXi[a] * xi) * (1 + kEta[a] * eta);
      xx += n[a] * cx[a];
      xxi += 0.25 * kXi[a] * (1 + kEta[a] * eta) * cx[a];
      xeta += 0.25 * kEta[a] * (1 + kXi[a] * xi) * cx[a];
      yxi += 0.25 * kXi[a] * (1 + kEta[a] * eta) * cy[a];
      yeta += 0.25 * kEta[a] * (1 + kXi[a] * xi) * cy[a];
    }
    const Real detj = xxi * yeta - xeta * yxi;
    for (int a = 0; a < 4; ++a) m[a] += mat.ro * n[a] * xx * detj;
  }
  return m;
}

} // namespace parcae
