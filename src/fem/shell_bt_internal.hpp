#pragma once
// Helpers shared by the two shell kernels (reference: shell_bt.cpp, optimised batches:
// shell_bt_batch.cpp). Private to src/fem.
#include <array>
#include <cmath>
#include <cstddef>
#include <span>
#include <stdexcept>
#include <string>

#include "fem/shell_bt.hpp"

namespace parcae::shell_detail {

constexpr int kMaxNip = 10;
/// Layered shells (ShellBlock::layer): points per element (layers).
constexpr int kMaxLayers = kMaxShellLayers;

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

inline void check_arguments(const ShellOptions& opt, const ShellBlock& blk, std::size_t end,
                            std::span<const Real> fe, std::span<const Real> me) {
  const std::size_t nip = static_cast<std::size_t>(opt.nip);
  const int max_nip = blk.layered() ? kMaxLayers : kMaxNip;
  if (opt.nip < 1 || opt.nip > max_nip)
    throw std::invalid_argument("shell: NIP must be 1.." + std::to_string(max_nip) + ", got " +
                                std::to_string(opt.nip));
  if (blk.layered() && (blk.layer.size() < end * nip * 4 || blk.layer_mat.size() < end * nip ||
                        blk.layer_c.size() < end))
    throw std::invalid_argument("shell: layered block without its layers for this range");
  if (end > blk.conn.size() || blk.t.size() < end || blk.sig.size() < end * nip * 5 ||
      (!blk.back.empty() &&
       blk.back.size() < end * nip * static_cast<std::size_t>(blk.back_stride)) ||
      blk.eps_p.size() < end * nip || blk.hg.size() < end * 5 || blk.e_int.size() < end ||
      blk.e_hg.size() < end || blk.failed.size() < end)
    throw std::invalid_argument("shell: block state not initialised for this NIP / range");
  if (fe.size() < 12 * end || me.size() < 12 * end)
    throw std::invalid_argument("shell: fe/me need 12 values per element");
}

} // namespace parcae::shell_detail
