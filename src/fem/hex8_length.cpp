#include "fem/hex8_length.hpp"

#include <algorithm>
#include <cmath>

#include "fem/hex8.hpp"

namespace parcae {

Real hex_length_weight(const MaterialParams& mat, bool tetrahedra) {
  return tetrahedra ? -1.0 : hex_length_weight(mat.lambda, mat.g);
}

Real hex_characteristic_length(const Real x[8], const Real y[8], const Real z[8], Real volume,
                               const Real bx[8], const Real by[8], const Real bz[8], Real w) {
  Real amax = 0;
  for (const auto& f : kHexFaces) {
    const Real d1[3] = {x[f[2]] - x[f[0]], y[f[2]] - y[f[0]], z[f[2]] - z[f[0]]};
    const Real d2[3] = {x[f[3]] - x[f[1]], y[f[3]] - y[f[1]], z[f[3]] - z[f[1]]};
    const Real c[3] = {d1[1] * d2[2] - d1[2] * d2[1], d1[2] * d2[0] - d1[0] * d2[2],
                       d1[0] * d2[1] - d1[1] * d2[0]};
    amax = std::max(amax, 0.5 * std::sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]));
  }
  const Real la = amax > 0 ? volume / amax : 0.0;
  if (w < 0) return la;
  Real g[6] = {}; // sum_a b_a b_a^T (b = V B_a: l_K = V sqrt(l_K^2(g)))
  for (int a = 0; a < 8; ++a) {
    g[0] += bx[a] * bx[a];
    g[1] += by[a] * by[a];
    g[2] += bz[a] * bz[a];
    g[3] += bx[a] * by[a];
    g[4] += by[a] * bz[a];
    g[5] += bz[a] * bx[a];
  }
  const Real lk =
      volume * std::sqrt(hex_stiffness_length_sq(g[0], g[1], g[2], g[3], g[4], g[5], w));
  return std::min(la, lk);
}

} // namespace parcae
