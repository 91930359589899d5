// Belytschko-Tsay shells, the optimised kernel: elements in batches of shell_ps::kLanes lanes
// (formulation, time step and mass: shell_bt.cpp; both kernels give bit-identical results).
#include "fem/shell_bt.hpp"

#include "fem/mass_scaling.hpp"
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

using namespace shell_detail; // NOLINT(google-build-using-namespace): this file's helpers

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
  bool membrane = false; ///< no bending hourglass modes (zhalf is 0 for membranes)
  std::array<std::array<Real, 2>, 10> axis{}; ///< material axis of each point (ShellOptions)
  Real qm_e = 0, qm_gs = 0, inv_c = 0;
  Real c_wave = 0; ///< plate wave speed (time step)
  int isdo = 0;    ///< *CONTROL_TIMESTEP ISDO (ShellBlock::isdo)
  Real c_bar = 0;  ///< bar wave speed sqrt(E / rho) (ISDO 2)
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
      zhalf[p] = opt.membrane ? 0.0 : rules.zeta[lob][nip][p] / 2; // membrane: mid-surface
      whalf[p] = 0.5 * rules.wt[lob][nip][p];
    }
    shrf = opt.shrf;
    fail = mat.fail;
    check_fail = fail > 0;
    hourglass = opt.qm > 0;
    hg_stiff = hourglass_stiffness(opt);
    thick_upd = opt.thickness_update;
    membrane = opt.membrane;
    axis = opt.axis;
    qm_e = opt.qm * mat.e;
    qm_gs = opt.qm * shrf * shear_modulus(mat);
    const Real c_hg = hourglass && !hg_stiff ? mat.wave_speed_shell() : 0.0;
    inv_c = c_hg > 0 ? 1.0 / c_hg : 0.0;
    c_wave = mat.wave_speed_shell();
    c_bar = c_wave * std::sqrt(std::max(0.0, 1.0 - mat.nu * mat.nu));
    direct = shell_direct_return(mat);
    rate = mat.plastic() && (mat.c > 0 || !mat.rate_x.empty() || mat.rate_fn != nullptr);
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
    VReal lmax = splat(0.0), lmin = splat(1e300);
    for (int a = 0; a < 4; ++a) {
      const int b = (a + 1) % 4;
      const VReal dx = X[b][0] - X[a][0], dy = X[b][1] - X[a][1], dz = X[b][2] - X[a][2];
      const VReal len = vsqrt(dx * dx + dy * dy + dz * dz);
      lmax = lmax < len ? len : lmax;
      const VReal shorter = len < lmin ? len : lmin;
      lmin = a == 2 ? (tri ? lmin : shorter) : shorter; // a triangle's side 3-4 has length 0
    }
    const VReal beta = tri ? splat(1.0) : splat(0.0);
    VReal ls = (1.0 + beta) * area / lmax;
    Real speed = K.c_wave;
    if (K.isdo == 1) { // area / longest diagonal (quads; triangles keep their length)
      VReal dmax = splat(0.0);
      for (int a = 0; a < 2; ++a) {
        const VReal dx = X[a + 2][0] - X[a][0], dy = X[a + 2][1] - X[a][1],
                    dz = X[a + 2][2] - X[a][2];
        const VReal len = vsqrt(dx * dx + dy * dy + dz * dz);
        dmax = dmax < len ? len : dmax;
      }
      const VReal diag = area / dmax;
      ls = tri ? ls : diag;
    } else if (K.isdo == 2) { // the larger of two lengths at the bar speed
      ls = ls < lmin ? lmin : ls;
      speed = K.c_bar;
    }
    const VReal dte = ls / speed;
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
  const bool has_back = !blk.back.empty(); // else zero (drop_back_stress)
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
    const Real* const bk = has_back ? back_all + 3 * p : nullptr;
    P.s0[p] = gather4(sg + 0, sofs);
    P.s1[p] = gather4(sg + 1, sofs);
    P.s2[p] = gather4(sg + 2, sofs);
    s3[p] = gather4(sg + 3, sofs);
    s4[p] = gather4(sg + 4, sofs);
    if (has_back) {
      P.b0[p] = gather4(bk + 0, bofs);
      P.b1[p] = gather4(bk + 1, bofs);
      P.b2[p] = gather4(bk + 2, bofs);
    } else {
      P.b0[p] = P.b1[p] = P.b2[p] = VReal{};
    }
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
        update_stress_shell_oriented(mat, d5, dt, sl, bl, el, zl,
                                     K.axis[static_cast<std::size_t>(p)]);
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
    Real* const bk = has_back ? back_all + 3 * ip0 : nullptr;
    Real* const eq = epsp_all + ip0;
    for (int p = 0; p < nip; ++p) {
      sg[5 * p + 0] = P.s0[p][l];
      sg[5 * p + 1] = P.s1[p][l];
      sg[5 * p + 2] = P.s2[p][l];
      sg[5 * p + 3] = s3[p][l];
      sg[5 * p + 4] = s4[p][l];
      if (has_back) {
        bk[3 * p + 0] = P.b0[p][l];
        bk[3 * p + 1] = P.b1[p][l];
        bk[3 * p + 2] = P.b2[p][l];
      }
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
    const VReal kbend = K.membrane ? VReal{} : K.qm_e * t3 * area * bb / 192;
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
    for (int l = 0; l < cnt; ++l) dtc[l] = mass_scaled_dt(dtc[l], blk.density_scale, idx[l]);
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
  if (blk.layered()) // layered shells: the plain kernel (per-element points and materials)
    return compute_shell_forces_reference(opt, mat, blk, begin, end, x, v, w, dt, fe, me);
  check_arguments(opt, blk, end, fe, me);
  if (end <= begin) return {};
  KernelSetup K(opt, mat);
  K.isdo = blk.isdo;
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

} // namespace parcae
