#include "fem/hex8_hourglass.hpp"

#include <cmath>

namespace parcae {

namespace {

// Natural coordinates of the nodes (LS-DYNA / Flanagan-Belytschko order, as hex8.cpp).
constexpr Real kXi[8] = {-1, 1, 1, -1, -1, 1, 1, -1};
constexpr Real kEta[8] = {-1, -1, 1, 1, -1, -1, 1, 1};
constexpr Real kZeta[8] = {-1, -1, -1, -1, 1, 1, 1, 1};

} // namespace

Real assumed_strain_hourglass(const MaterialParams& mat, Real qm, const Real x[8], const Real y[8],
                              const Real z[8], const Real gam[4][8], const Real qd[3][4], Real dt,
                              Real hq[12], Real* f) {
  Real g[3][3] = {}; // g[k] = dx / dxi_k at the centre
  for (int a = 0; a < 8; ++a) {
    const Real n[3] = {kXi[a] / 8, kEta[a] / 8, kZeta[a] / 8};
    for (int k = 0; k < 3; ++k) {
      g[k][0] += n[k] * x[a];
      g[k][1] += n[k] * y[a];
      g[k][2] += n[k] * z[a];
    }
  }
  auto norm = [](const Real v[3]) { return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); };
  const Real al[3] = {norm(g[0]), norm(g[1]), norm(g[2])};
  if (!(al[0] > 0 && al[1] > 0 && al[2] > 0)) return 0;
  Real e[3][3];
  for (int c = 0; c < 3; ++c) e[0][c] = g[0][c] / al[0];
  const Real d01 = e[0][0] * g[1][0] + e[0][1] * g[1][1] + e[0][2] * g[1][2];
  for (int c = 0; c < 3; ++c) e[1][c] = g[1][c] - d01 * e[0][c];
  const Real n1 = norm(e[1]);
  if (!(n1 > 0)) return 0;
  for (int c = 0; c < 3; ++c) e[1][c] /= n1;
  e[2][0] = e[0][1] * e[1][2] - e[0][2] * e[1][1];
  e[2][1] = e[0][2] * e[1][0] - e[0][0] * e[1][2];
  e[2][2] = e[0][0] * e[1][1] - e[0][1] * e[1][0];
  // Young's and shear moduli (from K and G: also the hydrodynamic laws')
  const Real gm = mat.g;
  const Real ym = mat.k > 0 && gm > 0 ? 9 * mat.k * gm / (3 * mat.k + gm) : mat.e;
  // the coordinates of modes 0-2 (eta zeta, zeta xi, xi eta)
  constexpr int pair[3][2] = {{1, 2}, {2, 0}, {0, 1}};
  Real dehg = 0;
  Real qf[3][4];
  for (int i = 0; i < 3; ++i) {
    const int j = (i + 1) % 3, k = (i + 2) % 3;
    for (int m = 0; m < 4; ++m) {
      Real kk;
      if (m == 3) {
        kk = 8.0 / 9.0 *
             (ym * al[j] * al[k] / al[i] + gm * (al[i] * al[k] / al[j] + al[i] * al[j] / al[k]));
      } else {
        const int p = pair[m][0], r = pair[m][1];
        if (i == p || i == r) {
          const int other = i == p ? r : p;
          const int third = 3 - i - other;
          kk = 8.0 / 3.0 * ym * al[other] * al[third] / al[i];
        } else {
          kk = 8.0 / 3.0 * gm * al[i] * (al[p] * al[p] + al[r] * al[r]) / (al[p] * al[r]);
        }
      }
      const Real ql = e[i][0] * qd[0][m] + e[i][1] * qd[1][m] + e[i][2] * qd[2][m];
      const Real old = hq[4 * i + m];
      hq[4 * i + m] = old + qm * kk / 64.0 * dt * ql;
      qf[i][m] = hq[4 * i + m];
      dehg += 0.5 * (old + hq[4 * i + m]) * ql * dt;
    }
  }
  for (int a = 0; a < 8; ++a) {
    Real fl[3] = {0, 0, 0}; // local force components
    for (int i = 0; i < 3; ++i)
      for (int m = 0; m < 4; ++m) fl[i] += qf[i][m] * gam[m][a];
    for (int c = 0; c < 3; ++c) f[3 * a + c] += fl[0] * e[0][c] + fl[1] * e[1][c] + fl[2] * e[2][c];
  }
  return dehg;
}

} // namespace parcae
