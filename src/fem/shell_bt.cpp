// Belytschko-Tsay (BT) 4-node shell: one in-plane integration point, NIP points through the
// thickness, corotational local frame, 5 dof per node used (3 translations, 2 in-plane
// rotations; the drilling rotation gets no stiffness).
//
// References (facts, not code): T. Belytschko, J.I. Lin, C.S. Tsay, "Explicit algorithms for the
// nonlinear dynamics of shells", CMAME 42 (1984); T. Belytschko, C.S. Tsay, "A stabilization
// procedure for the quadrilateral plate element with one-point quadrature", IJNME 19 (1983);
// J.O. Hallquist, LS-DYNA Theory Manual (Belytschko-Tsay shell, hourglass control, time step).
//
// Kinematics (all in the corotational frame, hats dropped):
//   e3 = (r31 x r42)/|r31 x r42|, e1 = r21 - (r21.e3) e3 normalised, e2 = e3 x e1.
//   Local in-plane coordinates (x_I, y_I) of the corners projected on the e1-e2 plane; area
//   A = 1/2 (x31 y42 - x42 y31) (always > 0 by the choice of e3);
//   B1 = [y24, y31, y42, y13]/(2A), B2 = [x42, x13, x24, x31]/(2A) (mean-derivative, exact for
//   linear fields).
//   Membrane rate   d = [B1.vx, B2.vy, B2.vx + B1.vy]
//   Curvature rate  k = [B1.thy, -B2.thx, B2.thy - B1.thx]
//   Transverse shear g = [B2.vz - N.thx (yz), B1.vz + N.thy (zx)], N_I = 1/4 (triangle: see below)
//   Strain rate at z = zeta t/2: d + z k; transverse shear constant through the thickness. The
//   material gets deps = rate * dt with the transverse shear increment multiplied by shrf, so the
//   stored transverse shear stress is the corrected one (shrf G gamma).
//   Resultants N = int sigma dz, M = int z sigma dz, Q = int tau dz (per unit length); local
//   corner forces/moments are A B^T [N, M, Q] (power-conjugate to the rates above).
//
// Hourglass (quads only; triangles have no hourglass mode):
//   gamma_I = h_I - (h.x) B1_I - (h.y) B2_I, h = (1, -1, 1, -1) (orthogonal to linear fields);
//   hourglass rates q = [gamma.vx, gamma.vy, gamma.thx, gamma.thy, gamma.vz] (membrane x, y,
//   bending x, y, out-of-plane w) and generalised stresses Q (blk.hg, this order);
//   corner forces: f_xI += gamma_I Q0, f_yI += gamma_I Q1, m_xI += gamma_I Q2,
//   m_yI += gamma_I Q3, f_zI += gamma_I Q4.
//   Stiffness coefficients (Hallquist, with r_m = r_theta = r_w = qm), BB = B_aI B_aI:
//     K_M = qm E t A BB / 8, K_B = qm E t^3 A BB / 192, K_W = qm shrf G t^3 BB / 12.
//   ihq 4, 5 (and 8, warping stiffness of other formulations, treated as 4): incremental
//     Q += K q dt, stored in blk.hg.
//   ihq 1..3 (viscous): Q = C q with C = K / (c sqrt(BB)), i.e. the stiffness coefficient times
//     the wave transit time 1/(c sqrt(BB)) across the element (c = plate wave speed). With
//     E = rho c^2 (1 - nu^2): C_M = qm rho c (1 - nu^2) t A sqrt(BB) / 8, proportional to
//     qm rho c times an area (for a square of side L, A sqrt(BB) = sqrt(2) L).
//   Hourglass energy: e_hg += dt Q_mid . q (Q_mid = mean of old and new for the stiffness form).
//
// Triangles (conn[2] == conn[3]): the quad formulas degenerate to the constant-strain triangle
// (B of corners 2 and 3 add up to the CST derivative, A is the triangle's area). The transverse
// shear uses the centroid value of the rotations: N = (1/3, 1/3, 1/6, 1/6). No hourglass.
//
// Time step (LS-DYNA default ISDO = 0): L_s = (1 + beta) A / max(L1, L2, L3, (1 - beta) L4),
// beta = 0 for quads, 1 for triangles (i.e. 2A / longest side = smallest altitude); dt = L_s / c.
//
// Mass: rho t A split equally over the distinct nodes. Rotary inertia per node I = m_node *
// max(t^2/12, A/8) (the Hughes-Liu / Belytschko-Lin-Tsay scaling: the physical t^2/12 is
// raised so the rotational frequencies stay below the translational ones).
#include "fem/shell_bt.hpp"
#include "fem/mass_scaling.hpp"
#include "fem/solid2d.hpp"

#include "fem/shell_bt_internal.hpp"

#include "materials/plane_stress_return.inc"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace parcae {

using namespace shell_detail; // NOLINT(google-build-using-namespace): the kernels' helpers

// ------------------------------------------------------------------------------------------
// Block state and the through-thickness rule

void ShellBlock::init(std::size_t n, int nip) {
  const std::size_t np = static_cast<std::size_t>(std::max(nip, 0));
  conn.resize(n);
  t0.resize(n, 0.0);
  t = t0;
  sig.assign(n * np * 5, 0.0);
  back.assign(n * np * 3, 0.0);
  eps_p.assign(n * np, 0.0);
  hg.assign(n * 5, 0.0);
  e_int.assign(n, 0.0);
  e_hg.assign(n, 0.0);
  failed.assign(n, 0);
  density_scale.assign(n, 1.0);
  const std::size_t n2 = planar == Planar::None ? 0 : n;
  sig2d.assign(6 * n2, 0.0);
  back2d.assign(6 * n2, 0.0);
  dt2d.assign(n2, 0.0);
}

void ShellBlock::init(std::size_t n, int nip, Real thickness) {
  init(n, nip);
  std::fill(t0.begin(), t0.end(), thickness);
  t = t0;
}

void shell_frame(const Real X[4][3], Real R[3][3]) {
  Geom g;
  element_geometry(X, g);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) R[i][j] = g.R[i][j];
}

void shell_thickness_rule(int nip, bool lobatto, std::span<Real> zeta, std::span<Real> w) {
  if (nip < 1 || nip > kMaxNip)
    throw std::invalid_argument("shell: NIP must be 1.." + std::to_string(kMaxNip) + ", got " +
                                std::to_string(nip));
  if (zeta.size() < static_cast<std::size_t>(nip) || w.size() < static_cast<std::size_t>(nip))
    throw std::invalid_argument("shell_thickness_rule: output spans too small");
  const int n = nip;
  if (n == 1) { // one point: mid-surface (Lobatto needs two; LS-DYNA uses the midpoint too)
    zeta[0] = 0.0;
    w[0] = 2.0;
    return;
  }
  const Real pi = std::numbers::pi_v<Real>;
  if (!lobatto) {
    // Gauss-Legendre: roots of P_n by Newton from the classical guesses, mirrored for symmetry.
    for (int i = 0; i < (n + 1) / 2; ++i) {
      Real x = std::cos(pi * (i + 0.75) / (n + 0.5));
      Real pn = 0, pm = 0, dp = 1;
      for (int it = 0; it < 100; ++it) {
        legendre(n, x, pn, pm);
        dp = n * (x * pn - pm) / (x * x - 1.0);
        const Real dx = pn / dp;
        x -= dx;
        if (std::abs(dx) < 1e-16) break;
      }
      legendre(n, x, pn, pm);
      dp = n * (x * pn - pm) / (x * x - 1.0);
      const Real wi = 2.0 / ((1.0 - x * x) * dp * dp);
      if (2 * i + 1 == n) x = 0.0;
      zeta[n - 1 - i] = x;
      zeta[i] = -x;
      w[i] = w[n - 1 - i] = wi;
    }
  } else {
    // Gauss-Lobatto: end points and the roots of P'_{n-1}.
    const int m = n - 1;
    const Real wend = 2.0 / (n * (n - 1.0));
    zeta[0] = -1.0;
    zeta[n - 1] = 1.0;
    w[0] = w[n - 1] = wend;
    for (int i = 1; i <= (n - 1) / 2; ++i) {
      Real x = std::cos(pi * i / m);
      Real pn = 0, pm = 0;
      for (int it = 0; it < 100; ++it) {
        legendre(m, x, pn, pm);
        const Real d1 = m * (x * pn - pm) / (x * x - 1.0);                   // P'_m
        const Real d2 = (2.0 * x * d1 - m * (m + 1.0) * pn) / (1.0 - x * x); // P''_m
        const Real dx = d1 / d2;
        x -= dx;
        if (std::abs(dx) < 1e-16) break;
      }
      legendre(m, x, pn, pm);
      const Real wi = 2.0 / (m * (m + 1.0) * pn * pn);
      if (2 * i == m) x = 0.0;
      zeta[n - 1 - i] = x;
      zeta[i] = -x;
      w[i] = w[n - 1 - i] = wi;
    }
  }
}

// ------------------------------------------------------------------------------------------
// Reference kernel: written plainly with generalised B matrices (8 x 24) and dense products.

ShellPassResult compute_shell_forces_reference(const ShellOptions& opt, const MaterialParams& mat,
                                               ShellBlock& blk, std::size_t begin, std::size_t end,
                                               std::span<const Real> x, std::span<const Real> v,
                                               std::span<const Real> w, Real dt, std::span<Real> fe,
                                               std::span<Real> me) {
  check_arguments(opt, blk, end, fe, me);
  const int nip = opt.nip;
  const bool layered = blk.layered();
  std::vector<Real> zeta(static_cast<std::size_t>(nip)), wt(static_cast<std::size_t>(nip));
  if (!layered) shell_thickness_rule(nip, opt.lobatto, zeta, wt);
  for (std::size_t e = begin; e < end; ++e) {
    Real* fo = &fe[12 * e];
    Real* mo = &me[12 * e];
    if (blk.failed[e]) {
      for (int k = 0; k < 12; ++k) fo[k] = mo[k] = 0.0;
      continue;
    }
    const auto& c = blk.conn[e];
    const bool tri = is_triangle(c);
    Real X[4][3], V[4][3], W[4][3];
    gather(x, c, X);
    gather(v, c, V);
    gather(w, c, W);
    Geom g;
    element_geometry(X, g);
    Real N[4] = {0.25, 0.25, 0.25, 0.25};
    if (tri) {
      N[0] = N[1] = 1.0 / 3.0;
      N[2] = N[3] = 1.0 / 6.0;
    }

    // local generalised velocities: per corner [vx, vy, vz, thx, thy, thz]
    Real d[24];
    for (int a = 0; a < 4; ++a)
      for (int i = 0; i < 3; ++i) {
        d[6 * a + i] = g.R[i][0] * V[a][0] + g.R[i][1] * V[a][1] + g.R[i][2] * V[a][2];
        d[6 * a + 3 + i] = g.R[i][0] * W[a][0] + g.R[i][1] * W[a][1] + g.R[i][2] * W[a][2];
      }

    // generalised B: membrane (xx, yy, xy), bending (xx, yy, xy), shear (yz, zx)
    Real Bm[3][24] = {}, Bb[3][24] = {}, Bs[2][24] = {};
    for (int a = 0; a < 4; ++a) {
      Bm[0][6 * a + 0] = g.b1[a];
      Bm[1][6 * a + 1] = g.b2[a];
      Bm[2][6 * a + 0] = g.b2[a];
      Bm[2][6 * a + 1] = g.b1[a];
      Bb[0][6 * a + 4] = g.b1[a];
      Bb[1][6 * a + 3] = -g.b2[a];
      Bb[2][6 * a + 3] = -g.b1[a];
      Bb[2][6 * a + 4] = g.b2[a];
      Bs[0][6 * a + 2] = g.b2[a];
      Bs[0][6 * a + 3] = -N[a];
      Bs[1][6 * a + 2] = g.b1[a];
      Bs[1][6 * a + 4] = N[a];
    }
    Real em[3] = {}, kb[3] = {}, gs[2] = {};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 24; ++j) {
        em[i] += Bm[i][j] * d[j];
        kb[i] += Bb[i][j] * d[j];
      }
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 24; ++j) gs[i] += Bs[i][j] * d[j];

    const Real t = blk.t[e];
    Real Nr[3] = {}, Mr[3] = {}, Qr[2] = {};
    Real eint = 0.0, dzz = 0.0;
    bool all_failed = true, any_can_fail = false;
    for (int p = 0; p < nip; ++p) {
      const std::size_t ip = e * nip + p;
      // the point: the section's rule, or the element's layer (position, weight, axis, material)
      const Real* L = layered ? &blk.layer[4 * ip] : nullptr;
      const Real wp = layered ? L[1] : wt[p];
      if (wp == 0) continue; // a layer the element does not have
      const Real zp = layered ? L[0] : zeta[p];
      const std::array<Real, 2> axis =
          layered ? std::array<Real, 2>{L[2], L[3]} : opt.axis[static_cast<std::size_t>(p)];
      const MaterialParams& pm =
          layered && opt.layer_mats ? (*opt.layer_mats)[blk.layer_mat[ip]] : mat;
      const Real z = opt.membrane ? 0.0 : zp * t / 2; // a membrane: all on the mid-surface
      const Real dkin[5] = {(em[0] + z * kb[0]) * dt, (em[1] + z * kb[1]) * dt,
                            (em[2] + z * kb[2]) * dt, gs[0] * dt, gs[1] * dt};
      const Real dmat[5] = {dkin[0], dkin[1], dkin[2], opt.shrf * dkin[3], opt.shrf * dkin[4]};
      Real* s = &blk.sig[5 * ip];
      Real sold[5];
      for (int k = 0; k < 5; ++k) sold[k] = s[k];
      Real dz = 0.0;
      Real back_none[3] = {0, 0, 0}; // a block without back stress (drop_back_stress)
      update_stress_shell_oriented(
          pm, dmat, dt, s,
          blk.back.empty() ? back_none : &blk.back[static_cast<std::size_t>(blk.back_stride) * ip],
          blk.eps_p[ip], dz, axis);
      const Real tw = wp * t / 2; // dz weight of this point
      for (int k = 0; k < 5; ++k) eint += tw * g.area * (0.5 * (sold[k] + s[k])) * dkin[k];
      for (int k = 0; k < 3; ++k) {
        Nr[k] += tw * s[k];
        Mr[k] += tw * z * s[k];
      }
      Qr[0] += tw * s[3];
      Qr[1] += tw * s[4];
      dzz += 0.5 * wp * dz;
      any_can_fail = any_can_fail || pm.fail > 0;
      if (!pm.failed(blk.eps_p[ip]) && !(opt.failopt_failing_only && !(pm.fail > 0)))
        all_failed = false;
    }
    all_failed = all_failed && any_can_fail;
    blk.e_int[e] += eint;
    if (all_failed) {
      blk.failed[e] = 1;
      for (int k = 0; k < 12; ++k) fo[k] = mo[k] = 0.0;
      continue;
    }

    Real fl[24];
    for (int j = 0; j < 24; ++j) {
      Real s = 0.0;
      for (int i = 0; i < 3; ++i) s += Bm[i][j] * Nr[i];
      for (int i = 0; i < 3; ++i) s += Bb[i][j] * Mr[i];
      for (int i = 0; i < 2; ++i) s += Bs[i][j] * Qr[i];
      fl[j] = g.area * s;
    }

    if (!tri && opt.qm > 0) {
      const Real hx = g.xl[0] - g.xl[1] + g.xl[2] - g.xl[3];
      const Real hy = g.yl[0] - g.yl[1] + g.yl[2] - g.yl[3];
      const Real h[4] = {1.0, -1.0, 1.0, -1.0};
      Real gam[4];
      for (int a = 0; a < 4; ++a) gam[a] = h[a] - hx * g.b1[a] - hy * g.b2[a];
      const int dof[5] = {0, 1, 3, 4, 2}; // local dof of each hourglass mode
      Real q[5] = {};
      for (int m = 0; m < 5; ++m)
        for (int a = 0; a < 4; ++a) q[m] += gam[a] * d[6 * a + dof[m]];
      Real bb = 0.0;
      for (int a = 0; a < 4; ++a) bb += g.b1[a] * g.b1[a] + g.b2[a] * g.b2[a];
      const Real E = mat.e, G = shear_modulus(mat);
      const Real km = opt.qm * E * t * g.area * bb / 8;
      const Real kbend = opt.membrane ? 0.0 : opt.qm * E * t * t * t * g.area * bb / 192;
      const Real kw = opt.qm * opt.shrf * G * t * t * t * bb / 12; // 0 for membranes (shrf 0)
      const Real k[5] = {km, km, kbend, kbend, kw};
      Real Q[5];
      Real ehg = 0.0;
      if (hourglass_stiffness(opt)) {
        Real* hg = &blk.hg[5 * e];
        for (int m = 0; m < 5; ++m) {
          const Real qold = hg[m];
          const Real qnew = qold + k[m] * q[m] * dt;
          ehg += 0.5 * (qold + qnew) * q[m] * dt;
          hg[m] = qnew;
          Q[m] = qnew;
        }
      } else {
        const Real c = mat.wave_speed_shell();
        const Real tau = c > 0 ? 1.0 / (c * std::sqrt(bb)) : 0.0;
        for (int m = 0; m < 5; ++m) {
          Q[m] = k[m] * tau * q[m];
          ehg += Q[m] * q[m] * dt;
        }
      }
      blk.e_hg[e] += ehg;
      for (int a = 0; a < 4; ++a)
        for (int m = 0; m < 5; ++m) fl[6 * a + dof[m]] += gam[a] * Q[m];
    }

    for (int a = 0; a < 4; ++a)
      for (int k = 0; k < 3; ++k) {
        fo[3 * a + k] =
            g.R[0][k] * fl[6 * a + 0] + g.R[1][k] * fl[6 * a + 1] + g.R[2][k] * fl[6 * a + 2];
        mo[3 * a + k] =
            g.R[0][k] * fl[6 * a + 3] + g.R[1][k] * fl[6 * a + 4] + g.R[2][k] * fl[6 * a + 5];
      }

    if (opt.thickness_update) blk.t[e] = t * (1.0 + dzz);
  }

  ShellPassResult res;
  for (std::size_t e = begin; e < end; ++e) {
    if (blk.failed[e]) continue;
    const Real dte = shell_critical_dt(mat, blk, e, x);
    if (dte < res.min_dt) {
      res.min_dt = dte;
      res.min_dt_element = static_cast<std::int64_t>(e);
    }
  }
  return res;
}

Real shell_critical_dt(const MaterialParams& mat, const ShellBlock& blk, std::size_t e,
                       std::span<const Real> x) {
  if (blk.planar != Planar::None) return planar_initial_dt(mat, blk, e, x); // 2-D solids
  const auto& c = blk.conn[e];
  Real X[4][3];
  gather(x, c, X);
  Geom g;
  element_geometry(X, g);
  auto dist = [&](int a, int b) {
    const Real dx = X[b][0] - X[a][0], dy = X[b][1] - X[a][1], dz = X[b][2] - X[a][2];
    return std::sqrt(dx * dx + dy * dy + dz * dz);
  };
  const bool tri = is_triangle(c);
  Real lmax = 0.0, lmin = 1e300;
  for (int a = 0; a < (tri ? 3 : 4); ++a) {
    const Real l = dist(a, (a + 1) % (tri ? 3 : 4));
    lmax = std::max(lmax, l);
    lmin = std::min(lmin, l);
  }
  const Real beta = tri ? 1.0 : 0.0; // LS-DYNA's (1 + beta) A / L for triangles
  Real ls = (1.0 + beta) * g.area / lmax;
  Real speed = blk.layered() ? blk.layer_c[e] : mat.wave_speed_shell();
  if (blk.isdo == 1 && !tri) // area / longest diagonal
    ls = g.area / std::max(dist(0, 2), dist(1, 3));
  else if (blk.isdo == 2) { // the bar wave speed, the larger of two lengths
    ls = std::max(lmin, ls);
    speed *= std::sqrt(std::max(0.0, 1.0 - mat.nu * mat.nu));
  }
  return mass_scaled_dt(ls / speed, blk.density_scale, e);
}

namespace {
void lumped(const MaterialParams& mat, const ShellBlock& blk, std::size_t e,
            std::span<const Real> x, Real& m_elem, Real& alpha, bool& tri) {
  const auto& c = blk.conn[e];
  Real X[4][3];
  gather(x, c, X);
  Geom g;
  element_geometry(X, g);
  const Real t = blk.t0[e]; // the mass is the initial one (t = t0 at set-up)
  const bool layered = blk.layered();
  m_elem = (layered ? blk.layer_ro[e] : mat.ro) * t * g.area;
  alpha = std::max(t * t * (layered ? blk.layer_j[e] : 1.0 / 12.0), g.area / 8.0);
  tri = is_triangle(c);
}
} // namespace

void shell_lumped_mass(const MaterialParams& mat, const ShellBlock& blk, std::size_t e,
                       std::span<const Real> x, Real& corner_mass, Real& corner_inertia) {
  Real m = 0, alpha = 0;
  bool tri = false;
  lumped(mat, blk, e, x, m, alpha, tri);
  corner_mass = tri ? m / 3.0 : m / 4.0;
  corner_inertia = corner_mass * alpha;
}

void shell_lumped_mass(const MaterialParams& mat, const ShellBlock& blk, std::size_t e,
                       std::span<const Real> x, std::array<Real, 4>& corner_mass,
                       std::array<Real, 4>& corner_inertia) {
  if (blk.planar != Planar::None) { // 2-D solids: their own masses, no rotational dofs
    corner_mass = planar_lumped_mass(mat, blk, e, x);
    corner_inertia = {0, 0, 0, 0};
    return;
  }
  Real m = 0, alpha = 0;
  bool tri = false;
  lumped(mat, blk, e, x, m, alpha, tri);
  if (tri)
    corner_mass = {m / 3.0, m / 3.0, m / 6.0, m / 6.0};
  else
    corner_mass = {m / 4.0, m / 4.0, m / 4.0, m / 4.0};
  for (int a = 0; a < 4; ++a) corner_inertia[a] = corner_mass[a] * alpha;
}

} // namespace parcae
