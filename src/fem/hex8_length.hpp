#pragma once
// The solid time step's characteristic length bound from the element's own stiffness.
//
// LS-DYNA's length V / A_max (volume over the largest face) is the edge of a cube and the
// least height of a box, but it does not see every distortion. A hexahedron whose body diagonal
// is short (the corner elements of a cube mapped onto a ball: three faces on the sphere meet at
// nearly 180 degrees) keeps a large V / A_max, yet its highest frequency is 1.25 times a cube's of
// that length: at the default TSSFAC 0.9 it is unstable.
//
// The one-point element with lumped corner masses rho V / 8 has, for any shape, the rigorous bound
//   omega_max^2 <= (8 / rho) (lambda tr G + 2 mu lambda_max(G)),   G = sum_a B_a B_a^T,
// B_a = dN_a/dx the uniform-gradient vectors (strain energy V (lambda tr(L)^2 + 2 mu |sym L|^2) / 2
// with L = sum_a u_a B_a^T; Cauchy-Schwarz gives tr(L)^2 <= |u|^2 tr G and
// |sym L|^2 <= |L|^2 <= |u|^2 lambda_max(G)). For a cube of edge h it is exact
// (G = I / (2 h^2); the uniform dilatation attains it), so the length
//   l_K^2 = (3 lambda + 2 mu) / (2 (lambda tr G + 2 mu lambda_max(G)))
// is h for a cube, at least the least edge for any box, and gives every element at least the
// stability margin that LS-DYNA's rule gives a cube. The time step uses min(V / A_max, l_K).
// With w = lambda / (lambda + 2 mu) (0 for nu = 0, 1 for a fluid):
//   l_K^2 = (1 + 2 w) / (2 (w tr G + (1 - w) lambda_max(G))).
// lambda_max(G) is bounded from above (Gershgorin, then four Newton steps on the characteristic
// polynomial, which approach the largest root monotonically from above), so l_K is never
// overestimated; it is exact for a diagonal G and at most 2.5 % above lambda_max otherwise (the
// steps converge linearly when the two largest eigenvalues nearly coincide). Templated for the
// scalar reference kernel and the SIMD kernel (T = Real or a vector type with element-wise ?:).

#include "core/types.hpp"

namespace parcae {

/// Corners of the six faces of a hexahedron (LS-DYNA's node order).
inline constexpr int kHexFaces[6][4] = {{0, 1, 2, 3}, {4, 5, 6, 7}, {0, 1, 5, 4},
                                        {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}};

/// w = lambda / (lambda + 2 mu) of the elastic constants, in [0, 1] (1 without shear stiffness).
inline Real hex_length_weight(Real lambda, Real mu) {
  const Real m = lambda + 2.0 * mu;
  if (!(m > 0)) return 1.0;
  const Real w = lambda / m;
  return w < 0 ? 0.0 : (w > 1 ? 1.0 : w);
}

/// l_K^2 for G = [sxx syy szz sxy syz szx] (symmetric, positive semi-definite). Scaling G by s
/// scales the result by 1 / s. Infinite when G is 0.
template <class T> T hex_stiffness_length_sq(T sxx, T syy, T szz, T sxy, T syz, T szx, Real w) {
  auto absv = [](T a) { return a < 0.0 ? -a : a; };
  auto maxv = [](T a, T b) { return a < b ? b : a; };
  const T axy = absv(sxy), ayz = absv(syz), azx = absv(szx);
  T t = maxv(maxv(sxx + axy + azx, syy + axy + ayz), szz + ayz + azx); // >= lambda_max
  const T i1 = sxx + syy + szz;
  const T i2 = sxx * syy + syy * szz + szz * sxx - sxy * sxy - syz * syz - szx * szx;
  const T i3 =
      sxx * (syy * szz - syz * syz) - sxy * (sxy * szz - syz * szx) + szx * (sxy * syz - syy * szx);
  for (int k = 0; k < 4; ++k) {
    // p(t) = det(t I - G) is increasing and convex above lambda_max (>= tr G / 3 <= t).
    const T p = ((t - i1) * t + i2) * t - i3;
    const T dp = (3.0 * t - 2.0 * i1) * t + i2;
    const auto step = (p > 0.0) & (dp > 1e-12 * t * t);
    const T safe = step ? dp : t * 0.0 + 1.0;
    t = step ? t - p / safe : t;
  }
  const T den = 2.0 * (w * i1 + (1.0 - w) * t);
  const T safe_den = den > 0.0 ? den : t * 0.0 + 1.0;
  return den > 0.0 ? (1.0 + 2.0 * w) / safe_den : t * 0.0 + 1e300;
}

} // namespace parcae
