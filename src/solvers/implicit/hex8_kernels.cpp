#include "solvers/implicit/hex8_kernels.hpp"

#include <cmath>

#include "core/error.hpp"

namespace parcae::implicit {

namespace {

constexpr double kSign[8][3] = {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1},
                                {-1, -1, 1},  {1, -1, 1},  {1, 1, 1},  {-1, 1, 1}};

/// Jacobian J[i][j] = d x_j / d xi_i and natural derivatives at xi.
void jacobian(const ElemCoords& x, const std::array<double, 3>& xi, std::array<double, 24>& dnat,
              double j[3][3]) {
  for (int a = 0; a < 8; ++a) {
    const double s0 = kSign[a][0], s1 = kSign[a][1], s2 = kSign[a][2];
    dnat[a * 3 + 0] = 0.125 * s0 * (1 + s1 * xi[1]) * (1 + s2 * xi[2]);
    dnat[a * 3 + 1] = 0.125 * s1 * (1 + s0 * xi[0]) * (1 + s2 * xi[2]);
    dnat[a * 3 + 2] = 0.125 * s2 * (1 + s0 * xi[0]) * (1 + s1 * xi[1]);
  }
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k) {
      double s = 0;
      for (int a = 0; a < 8; ++a) s += dnat[a * 3 + i] * x[a * 3 + k];
      j[i][k] = s;
    }
}

double invert3(const double j[3][3], double inv[3][3]) {
  const double det = j[0][0] * (j[1][1] * j[2][2] - j[1][2] * j[2][1]) -
                     j[0][1] * (j[1][0] * j[2][2] - j[1][2] * j[2][0]) +
                     j[0][2] * (j[1][0] * j[2][1] - j[1][1] * j[2][0]);
  if (!(det > 0))
    throw RuntimeError("hexahedron with a non-positive Jacobian (inverted or "
                       "badly shaped element; check the node order)");
  const double r = 1 / det;
  inv[0][0] = (j[1][1] * j[2][2] - j[1][2] * j[2][1]) * r;
  inv[0][1] = (j[0][2] * j[2][1] - j[0][1] * j[2][2]) * r;
  inv[0][2] = (j[0][1] * j[1][2] - j[0][2] * j[1][1]) * r;
  inv[1][0] = (j[1][2] * j[2][0] - j[1][0] * j[2][2]) * r;
  inv[1][1] = (j[0][0] * j[2][2] - j[0][2] * j[2][0]) * r;
  inv[1][2] = (j[0][2] * j[1][0] - j[0][0] * j[1][2]) * r;
  inv[2][0] = (j[1][0] * j[2][1] - j[1][1] * j[2][0]) * r;
  inv[2][1] = (j[0][1] * j[2][0] - j[0][0] * j[2][1]) * r;
  inv[2][2] = (j[0][0] * j[1][1] - j[0][1] * j[1][0]) * r;
  return det;
}

/// The 6x3 B block of a gradient g (engineering strains), row major.
inline void b_block(const double* g, double b[6][3]) {
  for (int i = 0; i < 6; ++i) b[i][0] = b[i][1] = b[i][2] = 0;
  b[0][0] = g[0];
  b[1][1] = g[1];
  b[2][2] = g[2];
  b[3][0] = g[1];
  b[3][1] = g[0];
  b[4][1] = g[2];
  b[4][2] = g[1];
  b[5][0] = g[2];
  b[5][2] = g[0];
}

/// k_ab += w B_a^T D B_b for gradients ga, gb (3x3 block).
inline void add_btdb(const double* ga, const Tangent& d, const double* gb, double w,
                     double out[3][3]) {
  double ba[6][3], bb[6][3], db[6][3];
  b_block(ga, ba);
  b_block(gb, bb);
  for (int i = 0; i < 6; ++i)
    for (int c = 0; c < 3; ++c) {
      double s = 0;
      for (int k = 0; k < 6; ++k) s += d[i * 6 + k] * bb[k][c];
      db[i][c] = s;
    }
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) {
      double s = 0;
      for (int i = 0; i < 6; ++i) s += ba[i][r] * db[i][c];
      out[r][c] += w * s;
    }
}

} // namespace

std::array<double, 3> hex8_gauss_point(int q) {
  const double g = 1 / std::sqrt(3.0);
  return {kSign[q][0] * g, kSign[q][1] * g, kSign[q][2] * g};
}

std::array<double, 8> hex8_shape(const std::array<double, 3>& xi) {
  std::array<double, 8> n{};
  for (int a = 0; a < 8; ++a)
    n[a] =
        0.125 * (1 + kSign[a][0] * xi[0]) * (1 + kSign[a][1] * xi[1]) * (1 + kSign[a][2] * xi[2]);
  return n;
}

double hex8_gradients(const ElemCoords& x, int q, std::array<double, 24>& dndx,
                      std::array<double, 3>* xi_out) {
  const auto xi = hex8_gauss_point(q);
  if (xi_out) *xi_out = xi;
  std::array<double, 24> dnat{};
  double j[3][3], inv[3][3];
  jacobian(x, xi, dnat, j);
  const double det = invert3(j, inv);
  // dN/dx_k = sum_i inv[k][i] dN/dxi_i  (inv = J^-1 with J[i][k] = dx_k/dxi_i)
  for (int a = 0; a < 8; ++a)
    for (int k = 0; k < 3; ++k)
      dndx[a * 3 + k] =
          inv[k][0] * dnat[a * 3 + 0] + inv[k][1] * dnat[a * 3 + 1] + inv[k][2] * dnat[a * 3 + 2];
  return det;
}

Voigt hex8_strain(const std::array<double, 24>& g, const ElemVector& u) {
  Voigt e{};
  for (int a = 0; a < 8; ++a) {
    const double* ga = &g[a * 3];
    const double* ua = &u[a * 3];
    e[0] += ga[0] * ua[0];
    e[1] += ga[1] * ua[1];
    e[2] += ga[2] * ua[2];
    e[3] += ga[1] * ua[0] + ga[0] * ua[1];
    e[4] += ga[2] * ua[1] + ga[1] * ua[2];
    e[5] += ga[2] * ua[0] + ga[0] * ua[2];
  }
  return e;
}

void hex8_full_forces(const ElemCoords& x, const ElemVector& u, const PointLaw& law,
                      std::span<const PointState> old, std::span<PointState> now,
                      std::span<Voigt> stress, ElemVector& f, ElemMatrix* k, bool large_strain,
                      Hex8Outputs out) {
  f.fill(0);
  if (k) k->fill(0);
  for (int q = 0; q < 8; ++q) {
    std::array<double, 24> g{};
    const double w = hex8_gradients(x, q, g); // Gauss weights are 1
    // Deformation gradient F_iJ = delta_iJ + sum_a u_ai g_aJ (F = I in small strain).
    double fm[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    if (large_strain)
      for (int a = 0; a < 8; ++a)
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j) fm[i][j] += u[a * 3 + i] * g[a * 3 + j];
    Voigt eps{};
    if (large_strain) {
      double c[3][3];
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
          c[i][j] = 0;
          for (int m = 0; m < 3; ++m) c[i][j] += fm[m][i] * fm[m][j];
        }
      eps = {
          0.5 * (c[0][0] - 1), 0.5 * (c[1][1] - 1), 0.5 * (c[2][2] - 1), c[0][1], c[1][2], c[2][0]};
    } else {
      eps = hex8_strain(g, u);
    }
    if (!out.strain.empty()) out.strain[q] = eps;
    Tangent d{};
    update_point(law, old[q], eps, now[q], stress[q], d);
    const Voigt& sv = stress[q];
    if (!out.cauchy.empty()) {
      if (!large_strain) {
        out.cauchy[q] = sv;
      } else {
        const double sm[3][3] = {
            {sv[0], sv[3], sv[5]}, {sv[3], sv[1], sv[4]}, {sv[5], sv[4], sv[2]}};
        const double det = fm[0][0] * (fm[1][1] * fm[2][2] - fm[1][2] * fm[2][1]) -
                           fm[0][1] * (fm[1][0] * fm[2][2] - fm[1][2] * fm[2][0]) +
                           fm[0][2] * (fm[1][0] * fm[2][1] - fm[1][1] * fm[2][0]);
        double cs[3][3];
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j) {
            double t = 0;
            for (int m = 0; m < 3; ++m)
              for (int n = 0; n < 3; ++n) t += fm[i][m] * sm[m][n] * fm[j][n];
            cs[i][j] = t / det;
          }
        out.cauchy[q] = {cs[0][0], cs[1][1], cs[2][2], cs[0][1], cs[1][2], cs[2][0]};
      }
    }
    // B(F): row r, column (a, i): d eps_r / d u_ai.
    double b[6][24];
    for (int a = 0; a < 8; ++a) {
      const double* ga = &g[a * 3];
      for (int i = 0; i < 3; ++i) {
        const int col = a * 3 + i;
        b[0][col] = fm[i][0] * ga[0];
        b[1][col] = fm[i][1] * ga[1];
        b[2][col] = fm[i][2] * ga[2];
        b[3][col] = fm[i][0] * ga[1] + fm[i][1] * ga[0];
        b[4][col] = fm[i][1] * ga[2] + fm[i][2] * ga[1];
        b[5][col] = fm[i][2] * ga[0] + fm[i][0] * ga[2];
      }
    }
    for (int col = 0; col < 24; ++col) {
      double t = 0;
      for (int r = 0; r < 6; ++r) t += b[r][col] * sv[r];
      f[col] += w * t;
    }
    if (!k) continue;
    double db[6][24];
    for (int r = 0; r < 6; ++r)
      for (int col = 0; col < 24; ++col) {
        double t = 0;
        for (int m = 0; m < 6; ++m) t += d[r * 6 + m] * b[m][col];
        db[r][col] = t;
      }
    for (int r = 0; r < 24; ++r)
      for (int col = 0; col < 24; ++col) {
        double t = 0;
        for (int m = 0; m < 6; ++m) t += b[m][r] * db[m][col];
        (*k)[r * 24 + col] += w * t;
      }
    if (large_strain) {
      // Geometric stiffness: (g_a . S g_b) I for every node pair.
      const double sm[3][3] = {{sv[0], sv[3], sv[5]}, {sv[3], sv[1], sv[4]}, {sv[5], sv[4], sv[2]}};
      for (int a = 0; a < 8; ++a)
        for (int bb = 0; bb < 8; ++bb) {
          double t = 0;
          for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) t += g[a * 3 + i] * sm[i][j] * g[bb * 3 + j];
          for (int i = 0; i < 3; ++i) (*k)[(a * 3 + i) * 24 + bb * 3 + i] += w * t;
        }
    }
  }
}

namespace {

/// Incompatible-mode gradients at Gauss point q: 3 modes P_i = 1 - xi_i^2, their physical
/// gradients through the centroid Jacobian, scaled by det J0 / det J (Taylor).
void incompatible_gradients(const ElemCoords& x, int q, std::array<double, 9>& gp,
                            std::array<double, 24>& g, double& detj) {
  std::array<double, 3> xi{};
  detj = hex8_gradients(x, q, g, &xi);
  std::array<double, 24> dnat0{};
  double j0[3][3], inv0[3][3];
  jacobian(x, {0, 0, 0}, dnat0, j0);
  const double det0 = invert3(j0, inv0);
  for (int m = 0; m < 3; ++m) {
    double dnat[3] = {0, 0, 0};
    dnat[m] = -2 * xi[m];
    for (int k = 0; k < 3; ++k)
      gp[m * 3 + k] =
          (inv0[k][0] * dnat[0] + inv0[k][1] * dnat[1] + inv0[k][2] * dnat[2]) * det0 / detj;
  }
}

/// Kuu (24x24), Kua (24x9), Kaa (9x9) of the incompatible-mode element.
void incompatible_blocks(const ElemCoords& x, const Tangent& d, ElemMatrix& kuu,
                         std::array<double, 24 * 9>& kua, std::array<double, 81>& kaa) {
  kuu.fill(0);
  kua.fill(0);
  kaa.fill(0);
  for (int q = 0; q < 8; ++q) {
    std::array<double, 9> gp{};
    std::array<double, 24> g{};
    double w = 0;
    incompatible_gradients(x, q, gp, g, w);
    for (int a = 0; a < 8; ++a) {
      for (int b = 0; b < 8; ++b) {
        double blk[3][3] = {};
        add_btdb(&g[a * 3], d, &g[b * 3], w, blk);
        for (int r = 0; r < 3; ++r)
          for (int c = 0; c < 3; ++c) kuu[(a * 3 + r) * 24 + b * 3 + c] += blk[r][c];
      }
      for (int m = 0; m < 3; ++m) {
        double blk[3][3] = {};
        add_btdb(&g[a * 3], d, &gp[m * 3], w, blk);
        for (int r = 0; r < 3; ++r)
          for (int c = 0; c < 3; ++c) kua[(a * 3 + r) * 9 + m * 3 + c] += blk[r][c];
      }
    }
    for (int m = 0; m < 3; ++m)
      for (int n = 0; n < 3; ++n) {
        double blk[3][3] = {};
        add_btdb(&gp[m * 3], d, &gp[n * 3], w, blk);
        for (int r = 0; r < 3; ++r)
          for (int c = 0; c < 3; ++c) kaa[(m * 3 + r) * 9 + n * 3 + c] += blk[r][c];
      }
  }
}

/// Solves the 9x9 SPD system kaa z = rhs (Cholesky), nrhs columns in rhs (row major 9 x nrhs).
void solve9(std::array<double, 81> a, double* rhs, int nrhs) {
  for (int j = 0; j < 9; ++j) {
    double s = a[j * 9 + j];
    for (int k = 0; k < j; ++k) s -= a[j * 9 + k] * a[j * 9 + k];
    if (!(s > 0)) throw RuntimeError("incompatible-mode hexahedron: singular internal block");
    a[j * 9 + j] = std::sqrt(s);
    for (int i = j + 1; i < 9; ++i) {
      double t = a[i * 9 + j];
      for (int k = 0; k < j; ++k) t -= a[i * 9 + k] * a[j * 9 + k];
      a[i * 9 + j] = t / a[j * 9 + j];
    }
  }
  for (int c = 0; c < nrhs; ++c) {
    double y[9];
    for (int i = 0; i < 9; ++i) {
      double t = rhs[i * nrhs + c];
      for (int k = 0; k < i; ++k) t -= a[i * 9 + k] * y[k];
      y[i] = t / a[i * 9 + i];
    }
    for (int i = 8; i >= 0; --i) {
      double t = y[i];
      for (int k = i + 1; k < 9; ++k) t -= a[k * 9 + i] * y[k];
      y[i] = t / a[i * 9 + i];
    }
    for (int i = 0; i < 9; ++i) rhs[i * nrhs + c] = y[i];
  }
}

} // namespace

void hex8_incompatible_stiffness(const ElemCoords& x, double e, double nu, ElemMatrix& k) {
  const Tangent d = elastic_tangent(e, nu);
  std::array<double, 24 * 9> kua{};
  std::array<double, 81> kaa{};
  incompatible_blocks(x, d, k, kua, kaa);
  // K = Kuu - Kua Kaa^-1 Kau
  std::array<double, 9 * 24> z{}; // Kaa^-1 Kau (9 x 24)
  for (int m = 0; m < 9; ++m)
    for (int c = 0; c < 24; ++c) z[m * 24 + c] = kua[c * 9 + m];
  solve9(kaa, z.data(), 24);
  for (int r = 0; r < 24; ++r)
    for (int c = 0; c < 24; ++c) {
      double s = 0;
      for (int m = 0; m < 9; ++m) s += kua[r * 9 + m] * z[m * 24 + c];
      k[r * 24 + c] -= s;
    }
}

void hex8_incompatible_stresses(const ElemCoords& x, double e, double nu, const ElemVector& u,
                                std::span<Voigt> stress) {
  const Tangent d = elastic_tangent(e, nu);
  ElemMatrix kuu{};
  std::array<double, 24 * 9> kua{};
  std::array<double, 81> kaa{};
  incompatible_blocks(x, d, kuu, kua, kaa);
  double alpha[9];
  for (int m = 0; m < 9; ++m) {
    double s = 0;
    for (int c = 0; c < 24; ++c) s -= kua[c * 9 + m] * u[c];
    alpha[m] = s;
  }
  solve9(kaa, alpha, 1);
  for (int q = 0; q < 8; ++q) {
    std::array<double, 9> gp{};
    std::array<double, 24> g{};
    double w = 0;
    incompatible_gradients(x, q, gp, g, w);
    Voigt eps = hex8_strain(g, u);
    for (int m = 0; m < 3; ++m) {
      const double* gm = &gp[m * 3];
      const double* am = &alpha[m * 3];
      eps[0] += gm[0] * am[0];
      eps[1] += gm[1] * am[1];
      eps[2] += gm[2] * am[2];
      eps[3] += gm[1] * am[0] + gm[0] * am[1];
      eps[4] += gm[2] * am[1] + gm[1] * am[2];
      eps[5] += gm[2] * am[0] + gm[0] * am[2];
    }
    for (int i = 0; i < 6; ++i) {
      double s = 0;
      for (int j = 0; j < 6; ++j) s += d[i * 6 + j] * eps[j];
      stress[q][i] = s;
    }
  }
}

void hex8_mass(const ElemCoords& x, double rho, ElemMatrix& m) {
  m.fill(0);
  for (int q = 0; q < 8; ++q) {
    std::array<double, 24> g{};
    std::array<double, 3> xi{};
    const double w = hex8_gradients(x, q, g, &xi);
    const auto n = hex8_shape(xi);
    for (int a = 0; a < 8; ++a)
      for (int b = 0; b < 8; ++b) {
        const double v = rho * w * n[a] * n[b];
        for (int c = 0; c < 3; ++c) m[(a * 3 + c) * 24 + b * 3 + c] += v;
      }
  }
}

std::array<double, 12> quad_pressure_forces(const std::array<double, 12>& x, double p) {
  std::array<double, 12> f{};
  const double g = 1 / std::sqrt(3.0);
  const double s[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
  for (int q = 0; q < 4; ++q) {
    const double xi = s[q][0] * g, eta = s[q][1] * g;
    double n[4], dxi[4], deta[4];
    for (int a = 0; a < 4; ++a) {
      n[a] = 0.25 * (1 + s[a][0] * xi) * (1 + s[a][1] * eta);
      dxi[a] = 0.25 * s[a][0] * (1 + s[a][1] * eta);
      deta[a] = 0.25 * s[a][1] * (1 + s[a][0] * xi);
    }
    double t1[3] = {0, 0, 0}, t2[3] = {0, 0, 0};
    for (int a = 0; a < 4; ++a)
      for (int c = 0; c < 3; ++c) {
        t1[c] += dxi[a] * x[a * 3 + c];
        t2[c] += deta[a] * x[a * 3 + c];
      }
    // t1 x t2 = normal times the area Jacobian (weight 1 per point).
    const double nrm[3] = {t1[1] * t2[2] - t1[2] * t2[1], t1[2] * t2[0] - t1[0] * t2[2],
                           t1[0] * t2[1] - t1[1] * t2[0]};
    for (int a = 0; a < 4; ++a)
      for (int c = 0; c < 3; ++c) f[a * 3 + c] -= p * n[a] * nrm[c];
  }
  return f;
}

} // namespace parcae::implicit
