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

namespace {

constexpr int kMaxNip = 10;

inline bool is_triangle(const std::array<LocalId, 4>& c) {
  return c[2] == c[3];
}

/// Legendre polynomial P_n(x) and the previous one P_{n-1}(x).
inline void legendre(int n, Real x, Real& pn, Real& pnm1) {
  Real p0 = 1.0, p1 = x;
  if (n == 0) {
    pn = 1.0;
    pnm1 = 0.0;
    return;
  }
  for (int k = 2; k <= n; ++k) {
    const Real pk = ((2 * k - 1) * x * p1 - (k - 1) * p0) / k;
    p0 = p1;
    p1 = pk;
  }
  pn = p1;
  pnm1 = p0;
}

/// Corotational frame, projected local coordinates, area and the one-point B of one element.
struct Geom {
  Real R[3][3]; ///< rows e1, e2, e3: local = R * global
  Real xl[4], yl[4];
  Real area;
  Real b1[4], b2[4];
};

inline void element_geometry(const Real X[4][3], Geom& g) {
  Real r31[3], r42[3], r21[3];
  for (int k = 0; k < 3; ++k) {
    r31[k] = X[2][k] - X[0][k];
    r42[k] = X[3][k] - X[1][k];
    r21[k] = X[1][k] - X[0][k];
  }
  Real n[3] = {r31[1] * r42[2] - r31[2] * r42[1], r31[2] * r42[0] - r31[0] * r42[2],
               r31[0] * r42[1] - r31[1] * r42[0]};
  const Real inv_n = 1.0 / std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  Real* e1 = g.R[0];
  Real* e2 = g.R[1];
  Real* e3 = g.R[2];
  for (int k = 0; k < 3; ++k) e3[k] = n[k] * inv_n;
  const Real d = r21[0] * e3[0] + r21[1] * e3[1] + r21[2] * e3[2];
  Real s1[3];
  for (int k = 0; k < 3; ++k) s1[k] = r21[k] - d * e3[k];
  const Real inv_s = 1.0 / std::sqrt(s1[0] * s1[0] + s1[1] * s1[1] + s1[2] * s1[2]);
  for (int k = 0; k < 3; ++k) e1[k] = s1[k] * inv_s;
  e2[0] = e3[1] * e1[2] - e3[2] * e1[1];
  e2[1] = e3[2] * e1[0] - e3[0] * e1[2];
  e2[2] = e3[0] * e1[1] - e3[1] * e1[0];
  for (int a = 0; a < 4; ++a) {
    const Real dx = X[a][0] - X[0][0], dy = X[a][1] - X[0][1], dz = X[a][2] - X[0][2];
    g.xl[a] = e1[0] * dx + e1[1] * dy + e1[2] * dz;
    g.yl[a] = e2[0] * dx + e2[1] * dy + e2[2] * dz;
  }
  const Real* x = g.xl;
  const Real* y = g.yl;
  g.area = 0.5 * ((x[2] - x[0]) * (y[3] - y[1]) - (x[3] - x[1]) * (y[2] - y[0]));
  const Real inv2a = 0.5 / g.area;
  g.b1[0] = (y[1] - y[3]) * inv2a;
  g.b1[1] = (y[2] - y[0]) * inv2a;
  g.b1[2] = (y[3] - y[1]) * inv2a;
  g.b1[3] = (y[0] - y[2]) * inv2a;
  g.b2[0] = (x[3] - x[1]) * inv2a;
  g.b2[1] = (x[0] - x[2]) * inv2a;
  g.b2[2] = (x[1] - x[3]) * inv2a;
  g.b2[3] = (x[2] - x[0]) * inv2a;
}

inline void gather(std::span<const Real> a, const std::array<LocalId, 4>& c, Real out[4][3]) {
  for (int i = 0; i < 4; ++i) {
    const std::size_t n = 3 * static_cast<std::size_t>(c[i]);
    out[i][0] = a[n];
    out[i][1] = a[n + 1];
    out[i][2] = a[n + 2];
  }
}

inline Real shear_modulus(const MaterialParams& mat) {
  return mat.g > 0 ? mat.g : mat.e / (2.0 * (1.0 + mat.nu));
}

inline bool hourglass_stiffness(const ShellOptions& opt) {
  return opt.ihq >= 4;
}

void check_arguments(const ShellOptions& opt, const ShellBlock& blk, std::size_t end,
                     std::span<const Real> fe, std::span<const Real> me) {
  const std::size_t nip = static_cast<std::size_t>(opt.nip);
  if (opt.nip < 1 || opt.nip > kMaxNip)
    throw std::invalid_argument("shell: NIP must be 1.." + std::to_string(kMaxNip) + ", got " +
                                std::to_string(opt.nip));
  if (end > blk.conn.size() || blk.t.size() < end || blk.sig.size() < end * nip * 5 ||
      blk.back.size() < end * nip * 3 || blk.eps_p.size() < end * nip || blk.hg.size() < end * 5 ||
      blk.e_int.size() < end || blk.e_hg.size() < end || blk.failed.size() < end)
    throw std::invalid_argument("shell: block state not initialised for this NIP / range");
  if (fe.size() < 12 * end || me.size() < 12 * end)
    throw std::invalid_argument("shell: fe/me need 12 values per element");
}

} // namespace

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
}

void ShellBlock::init(std::size_t n, int nip, Real thickness) {
  init(n, nip);
  std::fill(t0.begin(), t0.end(), thickness);
  t = t0;
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

    std::vector<Real> zeta(nip), wt(nip);
    shell_thickness_rule(nip, opt.lobatto, zeta, wt);
    const Real t = blk.t[e];
    Real Nr[3] = {}, Mr[3] = {}, Qr[2] = {};
    Real eint = 0.0, dzz = 0.0;
    bool all_failed = mat.fail > 0;
    for (int p = 0; p < nip; ++p) {
      const Real z = zeta[p] * t / 2;
      const Real dkin[5] = {(em[0] + z * kb[0]) * dt, (em[1] + z * kb[1]) * dt,
                            (em[2] + z * kb[2]) * dt, gs[0] * dt, gs[1] * dt};
      const Real dmat[5] = {dkin[0], dkin[1], dkin[2], opt.shrf * dkin[3], opt.shrf * dkin[4]};
      const std::size_t ip = e * nip + p;
      Real* s = &blk.sig[5 * ip];
      Real sold[5];
      for (int k = 0; k < 5; ++k) sold[k] = s[k];
      Real dz = 0.0;
      update_stress_shell(mat, dmat, dt, s, &blk.back[3 * ip], blk.eps_p[ip], dz);
      const Real tw = wt[p] * t / 2; // dz weight of this point
      for (int k = 0; k < 5; ++k) eint += tw * g.area * (0.5 * (sold[k] + s[k])) * dkin[k];
      for (int k = 0; k < 3; ++k) {
        Nr[k] += tw * s[k];
        Mr[k] += tw * z * s[k];
      }
      Qr[0] += tw * s[3];
      Qr[1] += tw * s[4];
      dzz += 0.5 * wt[p] * dz;
      if (blk.eps_p[ip] < mat.fail) all_failed = false;
    }
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
      const Real kbend = opt.qm * E * t * t * t * g.area * bb / 192;
      const Real kw = opt.qm * opt.shrf * G * t * t * t * bb / 12;
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

// ------------------------------------------------------------------------------------------
// Optimised kernel: the reference's algorithm evaluated for kLanes (4) elements at a time, one
// element per lane of GCC vector types (SSE2 pairs, or one AVX register where the compiler may
// use it), with the through-thickness rule, material and hourglass constants hoisted, the
// sparse B products expanded by hand (same summation order as the reference), the direct
// plane-stress return map of plane_stress_return.inc for the material (the same template
// update_stress_shell uses), and the critical time step from the same local frame.
//
// Batches: the non-failed elements of [begin, end), in order, kLanes at a time; the last batch
// is padded with copies of its last element, whose results are discarded. Every element goes
// through the same vector code and lanes never interact (the plane-stress Newton freezes a
// converged lane), so an element's results are bit-identical whatever batch and lane it lands in
// (partitions, thread counts and chunk boundaries cannot change them).

namespace {

using shell_ps::any;
using shell_ps::kLanes;
using shell_ps::VMask;
using shell_ps::VReal;
using shell_ps::vsqrt;

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"

inline VReal splat(Real a) {
  return VReal{} + a;
}

/// {base[ofs[0]], ..., base[ofs[3]]}: built in registers (no round trip through memory).
inline VReal gather4(const Real* base, const std::size_t (&ofs)[kLanes]) {
  static_assert(kLanes == 4);
  return VReal{base[ofs[0]], base[ofs[1]], base[ofs[2]], base[ofs[3]]};
}

/// 4 x 4 transpose: on return r[i][l] holds the former r[l][i].
inline void transpose4(VReal (&r)[4]) {
  static_assert(kLanes == 4);
  const VMask lo = {0, 4, 2, 6}, hi = {1, 5, 3, 7}, h0 = {0, 1, 4, 5}, h1 = {2, 3, 6, 7};
  const VReal t0 = __builtin_shuffle(r[0], r[1], lo), t1 = __builtin_shuffle(r[0], r[1], hi);
  const VReal t2 = __builtin_shuffle(r[2], r[3], lo), t3 = __builtin_shuffle(r[2], r[3], hi);
  r[0] = __builtin_shuffle(t0, t2, h0);
  r[1] = __builtin_shuffle(t1, t3, h0);
  r[2] = __builtin_shuffle(t0, t2, h1);
  r[3] = __builtin_shuffle(t1, t3, h1);
}

/// Constants of one call, hoisted out of the element loop.
struct KernelSetup {
  int nip = 0;
  Real zhalf[kMaxNip] = {}, whalf[kMaxNip] = {};
  Real shrf = 1, fail = 0;
  bool check_fail = false, hourglass = false, hg_stiff = false, thick_upd = false;
  Real qm_e = 0, qm_gs = 0, inv_c = 0;
  Real c_wave = 0; ///< plate wave speed (time step)
  bool direct = true, rate = false;
  shell_ps::PlaneStressConsts ps;

  KernelSetup(const ShellOptions& opt, const MaterialParams& mat) {
    nip = opt.nip;
    // the rules for every NIP, computed once (check_arguments has validated nip)
    struct Rules {
      Real zeta[2][kMaxNip + 1][kMaxNip] = {}, wt[2][kMaxNip + 1][kMaxNip] = {};
      Rules() {
        for (int lob = 0; lob < 2; ++lob)
          for (int n = 1; n <= kMaxNip; ++n)
            shell_thickness_rule(n, lob == 1, std::span<Real>(zeta[lob][n], n),
                                 std::span<Real>(wt[lob][n], n));
      }
    };
    static const Rules rules;
    const int lob = opt.lobatto ? 1 : 0;
    for (int p = 0; p < nip; ++p) {
      zhalf[p] = rules.zeta[lob][nip][p] / 2;
      whalf[p] = 0.5 * rules.wt[lob][nip][p];
    }
    shrf = opt.shrf;
    fail = mat.fail;
    check_fail = fail > 0;
    hourglass = opt.qm > 0;
    hg_stiff = hourglass_stiffness(opt);
    thick_upd = opt.thickness_update;
    qm_e = opt.qm * mat.e;
    qm_gs = opt.qm * shrf * shear_modulus(mat);
    const Real c_hg = hourglass && !hg_stiff ? mat.wave_speed_shell() : 0.0;
    inv_c = c_hg > 0 ? 1.0 / c_hg : 0.0;
    c_wave = mat.wave_speed_shell();
    direct = shell_direct_return(mat);
    rate = mat.plastic() && (mat.c > 0 || !mat.rate_x.empty());
    ps = shell_ps::plane_stress_consts(mat);
  }
};

/// One batch: elements idx[0..kLanes) (idx[l] for l >= cnt repeat a real element; their results
/// are not stored). dtc: critical time step of each lane; now_failed: eroded in this pass.
void shell_batch(const KernelSetup& K, const MaterialParams& mat, ShellBlock& blk,
                 const std::size_t (&idx)[kLanes], int cnt, const Real* x, const Real* v,
                 const Real* w, Real dt, Real* fe, Real* me, Real (&dtc)[kLanes],
                 bool (&now_failed)[kLanes]) {
  constexpr int L = kLanes;
  const int nip = K.nip;
  const std::array<LocalId, 4>* const conn = blk.conn.data();

  // gather
  std::size_t nofs[4][L];
  VMask tri;
  VReal tk;
  for (int l = 0; l < L; ++l) {
    const auto& c = conn[idx[l]];
    for (int a = 0; a < 4; ++a) nofs[a][l] = 3 * static_cast<std::size_t>(c[a]);
    tri[l] = c[2] == c[3] ? -1 : 0;
  }
  tk = gather4(blk.t.data(), idx);
  VReal X[4][3], Vg[4][3], Wg[4][3];
  for (int a = 0; a < 4; ++a)
    for (int k = 0; k < 3; ++k) {
      X[a][k] = gather4(x + k, nofs[a]);
      Vg[a][k] = gather4(v + k, nofs[a]);
      Wg[a][k] = gather4(w + k, nofs[a]);
    }

  // corotational frame, local coordinates, area, B (element_geometry's operations)
  VReal r31[3], r42[3], r21[3];
  for (int k = 0; k < 3; ++k) {
    r31[k] = X[2][k] - X[0][k];
    r42[k] = X[3][k] - X[1][k];
    r21[k] = X[1][k] - X[0][k];
  }
  const VReal nrm[3] = {r31[1] * r42[2] - r31[2] * r42[1], r31[2] * r42[0] - r31[0] * r42[2],
                        r31[0] * r42[1] - r31[1] * r42[0]};
  const VReal inv_n = 1.0 / vsqrt(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
  VReal R[3][3];
  for (int k = 0; k < 3; ++k) R[2][k] = nrm[k] * inv_n;
  const VReal dd = r21[0] * R[2][0] + r21[1] * R[2][1] + r21[2] * R[2][2];
  VReal s1v[3];
  for (int k = 0; k < 3; ++k) s1v[k] = r21[k] - dd * R[2][k];
  const VReal inv_s = 1.0 / vsqrt(s1v[0] * s1v[0] + s1v[1] * s1v[1] + s1v[2] * s1v[2]);
  for (int k = 0; k < 3; ++k) R[0][k] = s1v[k] * inv_s;
  R[1][0] = R[2][1] * R[0][2] - R[2][2] * R[0][1];
  R[1][1] = R[2][2] * R[0][0] - R[2][0] * R[0][2];
  R[1][2] = R[2][0] * R[0][1] - R[2][1] * R[0][0];
  VReal xl[4], yl[4];
  for (int a = 0; a < 4; ++a) {
    const VReal dx = X[a][0] - X[0][0], dy = X[a][1] - X[0][1], dz = X[a][2] - X[0][2];
    xl[a] = R[0][0] * dx + R[0][1] * dy + R[0][2] * dz;
    yl[a] = R[1][0] * dx + R[1][1] * dy + R[1][2] * dz;
  }
  const VReal area = 0.5 * ((xl[2] - xl[0]) * (yl[3] - yl[1]) - (xl[3] - xl[1]) * (yl[2] - yl[0]));
  const VReal inv2a = 0.5 / area;
  const VReal b1[4] = {(yl[1] - yl[3]) * inv2a, (yl[2] - yl[0]) * inv2a, (yl[3] - yl[1]) * inv2a,
                       (yl[0] - yl[2]) * inv2a};
  const VReal b2[4] = {(xl[3] - xl[1]) * inv2a, (xl[0] - xl[2]) * inv2a, (xl[1] - xl[3]) * inv2a,
                       (xl[2] - xl[0]) * inv2a};

  // critical time step (shell_critical_dt's operations)
  {
    VReal lmax = splat(0.0);
    for (int a = 0; a < 4; ++a) {
      const int b = (a + 1) % 4;
      const VReal dx = X[b][0] - X[a][0], dy = X[b][1] - X[a][1], dz = X[b][2] - X[a][2];
      const VReal len = vsqrt(dx * dx + dy * dy + dz * dz);
      lmax = lmax < len ? len : lmax;
    }
    const VReal beta = tri ? splat(1.0) : splat(0.0);
    const VReal ls = (1.0 + beta) * area / lmax;
    const VReal dte = ls / K.c_wave;
    for (int l = 0; l < L; ++l) dtc[l] = dte[l];
  }

  const VReal nf0 = tri ? splat(1.0 / 3.0) : splat(0.25);
  const VReal nf2 = tri ? splat(1.0 / 6.0) : splat(0.25);
  const VReal Nsh[4] = {nf0, nf0, nf2, nf2};

  // local velocities / angular velocities
  VReal vl[4][3], wl[4][2];
  for (int a = 0; a < 4; ++a) {
    for (int i = 0; i < 3; ++i)
      vl[a][i] = R[i][0] * Vg[a][0] + R[i][1] * Vg[a][1] + R[i][2] * Vg[a][2];
    for (int i = 0; i < 2; ++i)
      wl[a][i] = R[i][0] * Wg[a][0] + R[i][1] * Wg[a][1] + R[i][2] * Wg[a][2];
  }
  VReal em0{}, em1{}, em2{}, kb0{}, kb1{}, kb2{}, gs0{}, gs1{};
  for (int a = 0; a < 4; ++a) {
    em0 += b1[a] * vl[a][0];
    em1 += b2[a] * vl[a][1];
    em2 += b2[a] * vl[a][0];
    em2 += b1[a] * vl[a][1];
    kb0 += b1[a] * wl[a][1];
    kb1 += -b2[a] * wl[a][0];
    kb2 += -b1[a] * wl[a][0];
    kb2 += b2[a] * wl[a][1];
    gs0 += b2[a] * vl[a][2];
    gs0 += -Nsh[a] * wl[a][0];
    gs1 += b1[a] * vl[a][2];
    gs1 += Nsh[a] * wl[a][1];
  }

  // through-thickness points
  const VReal t = tk;
  const VReal gd0 = gs0 * dt, gd1 = gs1 * dt;
  const VReal gm0 = K.shrf * gd0, gm1 = K.shrf * gd1;
  VReal N0{}, N1{}, N2{}, M0{}, M1{}, M2{}, Q0{}, Q1{};
  VReal eint{}, dzz{};
  VMask all_failed = VMask{} - (K.check_fail ? 1 : 0);
  Real* const sig_all = blk.sig.data();
  Real* const back_all = blk.back.data();
  Real* const epsp_all = blk.eps_p.data();
  // gather the points' state; strain increments
  shell_ps::PlaneStressPoints<VReal, kMaxNip> P;
  VReal z[kMaxNip], s3[kMaxNip], s4[kMaxNip], sold[kMaxNip][5];
  std::size_t sofs[L], bofs[L];
  for (int l = 0; l < L; ++l) {
    sofs[l] = 5 * idx[l] * static_cast<std::size_t>(nip);
    bofs[l] = 3 * idx[l] * static_cast<std::size_t>(nip);
  }
  for (int p = 0; p < nip; ++p) {
    const Real* const sg = sig_all + 5 * p;
    const Real* const bk = back_all + 3 * p;
    P.s0[p] = gather4(sg + 0, sofs);
    P.s1[p] = gather4(sg + 1, sofs);
    P.s2[p] = gather4(sg + 2, sofs);
    s3[p] = gather4(sg + 3, sofs);
    s4[p] = gather4(sg + 4, sofs);
    P.b0[p] = gather4(bk + 0, bofs);
    P.b1[p] = gather4(bk + 1, bofs);
    P.b2[p] = gather4(bk + 2, bofs);
  }
  {
    std::size_t eofs[L];
    for (int l = 0; l < L; ++l) eofs[l] = idx[l] * static_cast<std::size_t>(nip);
    for (int p = 0; p < nip; ++p) P.ep[p] = gather4(epsp_all + p, eofs);
  }
  for (int p = 0; p < nip; ++p) {
    z[p] = K.zhalf[p] * t;
    P.d0[p] = (em0 + z[p] * kb0) * dt;
    P.d1[p] = (em1 + z[p] * kb1) * dt;
    P.d2[p] = (em2 + z[p] * kb2) * dt;
    P.scale[p] = splat(1.0);
    sold[p][0] = P.s0[p];
    sold[p][1] = P.s1[p];
    sold[p][2] = P.s2[p];
    sold[p][3] = s3[p];
    sold[p][4] = s4[p];
  }

  // material
  if (K.direct) {
    for (int p = 0; p < nip; ++p) {
      s3[p] += mat.g * gm0;
      s4[p] += mat.g * gm1;
    }
    if (K.rate)
      for (int p = 0; p < nip; ++p)
        for (int l = 0; l < L; ++l) {
          const Real d5[5] = {P.d0[p][l], P.d1[p][l], P.d2[p][l], gm0[l], gm1[l]};
          P.scale[p][l] = shell_yield_scale(mat, d5, dt);
        }
    shell_ps::plane_stress_return(K.ps, nip, P);
  } else {
    for (int p = 0; p < nip; ++p)
      for (int l = 0; l < L; ++l) {
        const Real d5[5] = {P.d0[p][l], P.d1[p][l], P.d2[p][l], gm0[l], gm1[l]};
        Real sl[5] = {P.s0[p][l], P.s1[p][l], P.s2[p][l], s3[p][l], s4[p][l]};
        Real bl[3] = {P.b0[p][l], P.b1[p][l], P.b2[p][l]};
        Real el = P.ep[p][l], zl = 0;
        update_stress_shell(mat, d5, dt, sl, bl, el, zl);
        P.s0[p][l] = sl[0];
        P.s1[p][l] = sl[1];
        P.s2[p][l] = sl[2];
        s3[p][l] = sl[3];
        s4[p][l] = sl[4];
        P.b0[p][l] = bl[0];
        P.b1[p][l] = bl[1];
        P.b2[p][l] = bl[2];
        P.ep[p][l] = el;
        P.dzz[p][l] = zl;
      }
  }

  // store the state; resultants, energy, thickness strain, failure
  for (int l = 0; l < cnt; ++l) {
    const std::size_t ip0 = idx[l] * static_cast<std::size_t>(nip);
    Real* const sg = sig_all + 5 * ip0;
    Real* const bk = back_all + 3 * ip0;
    Real* const eq = epsp_all + ip0;
    for (int p = 0; p < nip; ++p) {
      sg[5 * p + 0] = P.s0[p][l];
      sg[5 * p + 1] = P.s1[p][l];
      sg[5 * p + 2] = P.s2[p][l];
      sg[5 * p + 3] = s3[p][l];
      sg[5 * p + 4] = s4[p][l];
      bk[3 * p + 0] = P.b0[p][l];
      bk[3 * p + 1] = P.b1[p][l];
      bk[3 * p + 2] = P.b2[p][l];
      eq[p] = P.ep[p][l];
    }
  }
  for (int p = 0; p < nip; ++p) {
    const VReal tw = K.whalf[p] * t;
    const VReal twa = tw * area;
    eint += twa * (0.5 * (sold[p][0] + P.s0[p])) * P.d0[p];
    eint += twa * (0.5 * (sold[p][1] + P.s1[p])) * P.d1[p];
    eint += twa * (0.5 * (sold[p][2] + P.s2[p])) * P.d2[p];
    eint += twa * (0.5 * (sold[p][3] + s3[p])) * gd0;
    eint += twa * (0.5 * (sold[p][4] + s4[p])) * gd1;
    N0 += tw * P.s0[p];
    M0 += tw * z[p] * P.s0[p];
    N1 += tw * P.s1[p];
    M1 += tw * z[p] * P.s1[p];
    N2 += tw * P.s2[p];
    M2 += tw * z[p] * P.s2[p];
    Q0 += tw * s3[p];
    Q1 += tw * s4[p];
    dzz += K.whalf[p] * P.dzz[p];
    all_failed &= P.ep[p] >= K.fail;
  }
  for (int l = 0; l < cnt; ++l) {
    blk.e_int[idx[l]] += eint[l];
    now_failed[l] = all_failed[l] != 0;
  }

  // local corner forces [fx, fy, fz] and moments [mx, my] (mz = 0: no drilling stiffness)
  VReal fl[4][5];
  for (int a = 0; a < 4; ++a) {
    fl[a][0] = area * (b1[a] * N0 + b2[a] * N2);
    fl[a][1] = area * (b2[a] * N1 + b1[a] * N2);
    fl[a][2] = area * (b2[a] * Q0 + b1[a] * Q1);
    fl[a][3] = area * (-b2[a] * M1 - b1[a] * M2 - Nsh[a] * Q0);
    fl[a][4] = area * (b1[a] * M0 + b2[a] * M2 + Nsh[a] * Q1);
  }

  if (K.hourglass) { // quads only: triangle lanes get Q = 0 and keep their state
    const VReal hx = xl[0] - xl[1] + xl[2] - xl[3];
    const VReal hy = yl[0] - yl[1] + yl[2] - yl[3];
    VReal gam[4];
    VReal q[5] = {};
    VReal bb{};
    for (int a = 0; a < 4; ++a) {
      const Real h = (a & 1) ? -1.0 : 1.0;
      gam[a] = h - hx * b1[a] - hy * b2[a];
      q[0] += gam[a] * vl[a][0];
      q[1] += gam[a] * vl[a][1];
      q[2] += gam[a] * wl[a][0];
      q[3] += gam[a] * wl[a][1];
      q[4] += gam[a] * vl[a][2];
      bb += b1[a] * b1[a] + b2[a] * b2[a];
    }
    const VReal t3 = t * t * t;
    const VReal km = K.qm_e * t * area * bb / 8;
    const VReal kbend = K.qm_e * t3 * area * bb / 192;
    const VReal kw = K.qm_gs * t3 * bb / 12;
    const VReal kk[5] = {km, km, kbend, kbend, kw};
    VReal Q[5];
    VReal ehg{};
    if (K.hg_stiff) {
      Real* const hg_all = blk.hg.data();
      VReal qold[5];
      for (int l = 0; l < L; ++l)
        for (int m = 0; m < 5; ++m) qold[m][l] = hg_all[5 * idx[l] + m];
      for (int m = 0; m < 5; ++m) {
        const VReal qnew = qold[m] + kk[m] * q[m] * dt;
        ehg += 0.5 * (qold[m] + qnew) * q[m] * dt;
        Q[m] = qnew;
      }
      for (int l = 0; l < cnt; ++l)
        if (!tri[l] && !all_failed[l])
          for (int m = 0; m < 5; ++m) hg_all[5 * idx[l] + m] = Q[m][l];
    } else {
      const VReal tau = K.inv_c > 0 ? K.inv_c / vsqrt(bb) : splat(0.0);
      for (int m = 0; m < 5; ++m) {
        Q[m] = kk[m] * tau * q[m];
        ehg += Q[m] * q[m] * dt;
      }
    }
    for (int m = 0; m < 5; ++m) Q[m] = tri ? splat(0.0) : Q[m];
    for (int l = 0; l < cnt; ++l)
      if (!tri[l] && !all_failed[l]) blk.e_hg[idx[l]] += ehg[l];
    for (int a = 0; a < 4; ++a) {
      fl[a][0] += gam[a] * Q[0];
      fl[a][1] += gam[a] * Q[1];
      fl[a][3] += gam[a] * Q[2];
      fl[a][4] += gam[a] * Q[3];
      fl[a][2] += gam[a] * Q[4];
    }
  }

  VReal fo[12], mo[12];
  for (int a = 0; a < 4; ++a)
    for (int k = 0; k < 3; ++k) {
      fo[3 * a + k] = R[0][k] * fl[a][0] + R[1][k] * fl[a][1] + R[2][k] * fl[a][2];
      mo[3 * a + k] = R[0][k] * fl[a][3] + R[1][k] * fl[a][4];
    }
  const VReal tnew = t * (1.0 + dzz);
  if (cnt == L && !any(all_failed)) {
    // full batch, nothing eroded: corner values of each element as 3 contiguous 4-vectors
    for (int j = 0; j < 3; ++j) {
      VReal f4[4] = {fo[4 * j], fo[4 * j + 1], fo[4 * j + 2], fo[4 * j + 3]};
      VReal m4[4] = {mo[4 * j], mo[4 * j + 1], mo[4 * j + 2], mo[4 * j + 3]};
      transpose4(f4);
      transpose4(m4);
      for (int l = 0; l < L; ++l) {
        std::memcpy(fe + 12 * idx[l] + 4 * j, &f4[l], sizeof(VReal));
        std::memcpy(me + 12 * idx[l] + 4 * j, &m4[l], sizeof(VReal));
      }
    }
    if (K.thick_upd)
      for (int l = 0; l < L; ++l) blk.t[idx[l]] = tnew[l];
    return;
  }
  for (int l = 0; l < cnt; ++l) {
    const std::size_t e = idx[l];
    Real* const fe_e = fe + 12 * e;
    Real* const me_e = me + 12 * e;
    if (all_failed[l]) {
      blk.failed[e] = 1;
      for (int k = 0; k < 12; ++k) fe_e[k] = me_e[k] = 0.0;
      continue;
    }
    for (int k = 0; k < 12; ++k) {
      fe_e[k] = fo[k][l];
      me_e[k] = mo[k][l];
    }
    if (K.thick_upd) blk.t[e] = tnew[l];
  }
}

#pragma GCC diagnostic pop

ShellPassResult shell_range(const KernelSetup& K, const MaterialParams& mat, ShellBlock& blk,
                            std::size_t begin, std::size_t end, const Real* x, const Real* v,
                            const Real* w, Real dt, Real* fe, Real* me) {
  ShellPassResult res;
  std::size_t idx[kLanes] = {};
  int cnt = 0;
  auto flush = [&]() {
    for (int l = cnt; l < kLanes; ++l) idx[l] = idx[cnt - 1];
    Real dtc[kLanes];
    bool now_failed[kLanes] = {};
    shell_batch(K, mat, blk, idx, cnt, x, v, w, dt, fe, me, dtc, now_failed);
    for (int l = 0; l < cnt; ++l)
      if (!now_failed[l] && dtc[l] < res.min_dt) {
        res.min_dt = dtc[l];
        res.min_dt_element = static_cast<std::int64_t>(idx[l]);
      }
    cnt = 0;
  };
  const std::uint8_t* const failed = blk.failed.data();
  for (std::size_t e = begin; e < end; ++e) {
    if (failed[e]) {
      for (int k = 0; k < 12; ++k) fe[12 * e + k] = me[12 * e + k] = 0.0;
      continue;
    }
    idx[cnt++] = e;
    if (cnt == kLanes) flush();
  }
  if (cnt > 0) flush();
  return res;
}

} // namespace

ShellPassResult compute_shell_forces(const ShellOptions& opt, const MaterialParams& mat,
                                     ShellBlock& blk, std::size_t begin, std::size_t end,
                                     std::span<const Real> x, std::span<const Real> v,
                                     std::span<const Real> w, Real dt, std::span<Real> fe,
                                     std::span<Real> me) {
  check_arguments(opt, blk, end, fe, me);
  if (end <= begin) return {};
  const KernelSetup K(opt, mat);
#ifdef _OPENMP
  if (end - begin >= 256 && !omp_in_parallel()) {
    // contiguous ranges per thread; the minimum time step is reduced in element order
    const int nt = omp_get_max_threads();
    std::vector<ShellPassResult> part(static_cast<std::size_t>(nt));
#pragma omp parallel num_threads(nt)
    {
      const std::size_t n = end - begin;
      const auto tid = static_cast<std::size_t>(omp_get_thread_num());
      const auto nth = static_cast<std::size_t>(omp_get_num_threads());
      part[tid] = shell_range(K, mat, blk, begin + n * tid / nth, begin + n * (tid + 1) / nth,
                              x.data(), v.data(), w.data(), dt, fe.data(), me.data());
    }
    ShellPassResult res;
    for (const ShellPassResult& r : part)
      if (r.min_dt < res.min_dt) res = r;
    return res;
  }
#endif
  return shell_range(K, mat, blk, begin, end, x.data(), v.data(), w.data(), dt, fe.data(),
                     me.data());
}

// ------------------------------------------------------------------------------------------
// Time step and mass

Real shell_critical_dt(const MaterialParams& mat, const ShellBlock& blk, std::size_t e,
                       std::span<const Real> x) {
  const auto& c = blk.conn[e];
  Real X[4][3];
  gather(x, c, X);
  Geom g;
  element_geometry(X, g);
  Real lmax = 0.0;
  for (int a = 0; a < 4; ++a) {
    const int b = (a + 1) % 4;
    const Real dx = X[b][0] - X[a][0], dy = X[b][1] - X[a][1], dz = X[b][2] - X[a][2];
    lmax = std::max(lmax, std::sqrt(dx * dx + dy * dy + dz * dz));
  }
  const Real beta = is_triangle(c) ? 1.0 : 0.0; // the 4th side of a triangle has length 0
  const Real ls = (1.0 + beta) * g.area / lmax;
  return ls / mat.wave_speed_shell();
}

namespace {
void lumped(const MaterialParams& mat, const ShellBlock& blk, std::size_t e,
            std::span<const Real> x, Real& m_elem, Real& alpha, bool& tri) {
  const auto& c = blk.conn[e];
  Real X[4][3];
  gather(x, c, X);
  Geom g;
  element_geometry(X, g);
  const Real t = blk.t[e];
  m_elem = mat.ro * t * g.area;
  alpha = std::max(t * t / 12.0, g.area / 8.0);
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
