// Co-rotational kinematics of the implicit MITC4 shell (shell_kernels.hpp): the local
// deformational dofs u_l(u), their Jacobian and second derivatives. One template over the
// scalar type: double for u_l, a forward-mode dual number (value and 24 derivatives) for J; the
// second derivatives by the product rule on the structure of u_l (frame and nodal rotations
// differentiated twice on their own), with a dual of duals through the whole kinematics as the
// reference; so the tangent is the exact derivative of the internal force.
#include <cmath>

#include "solvers/implicit/shell_kernels.hpp"

namespace parcae::implicit {

namespace {

/// Forward-mode dual number: a value and its derivatives along N directions. Nested
/// (Fwd<Fwd<double, N>, N>) it carries second derivatives.
template <class T, int N> struct Fwd {
  T v{};
  std::array<T, N> d{};
};

inline double val(double x) {
  return x;
}
template <class T, int N> double val(const Fwd<T, N>& x) {
  return val(x.v);
}

template <class T, int N> Fwd<T, N> operator+(const Fwd<T, N>& a, const Fwd<T, N>& b) {
  Fwd<T, N> r;
  r.v = a.v + b.v;
  for (int i = 0; i < N; ++i) r.d[i] = a.d[i] + b.d[i];
  return r;
}
template <class T, int N> Fwd<T, N> operator-(const Fwd<T, N>& a, const Fwd<T, N>& b) {
  Fwd<T, N> r;
  r.v = a.v - b.v;
  for (int i = 0; i < N; ++i) r.d[i] = a.d[i] - b.d[i];
  return r;
}
template <class T, int N> Fwd<T, N> operator-(const Fwd<T, N>& a) {
  Fwd<T, N> r;
  r.v = -a.v;
  for (int i = 0; i < N; ++i) r.d[i] = -a.d[i];
  return r;
}
template <class T, int N> Fwd<T, N> operator*(const Fwd<T, N>& a, const Fwd<T, N>& b) {
  Fwd<T, N> r;
  r.v = a.v * b.v;
  for (int i = 0; i < N; ++i) r.d[i] = a.v * b.d[i] + a.d[i] * b.v;
  return r;
}
template <class T, int N> Fwd<T, N> operator/(const Fwd<T, N>& a, const Fwd<T, N>& b) {
  Fwd<T, N> r;
  r.v = a.v / b.v;
  for (int i = 0; i < N; ++i) r.d[i] = (a.d[i] - r.v * b.d[i]) / b.v;
  return r;
}
template <class T, int N> Fwd<T, N> operator+(const Fwd<T, N>& a, double s) {
  Fwd<T, N> r = a;
  r.v = a.v + s;
  return r;
}
template <class T, int N> Fwd<T, N> operator+(double s, const Fwd<T, N>& a) {
  return a + s;
}
template <class T, int N> Fwd<T, N> operator-(const Fwd<T, N>& a, double s) {
  return a + (-s);
}
template <class T, int N> Fwd<T, N> operator-(double s, const Fwd<T, N>& a) {
  return -a + s;
}
template <class T, int N> Fwd<T, N> operator*(const Fwd<T, N>& a, double s) {
  Fwd<T, N> r;
  r.v = a.v * s;
  for (int i = 0; i < N; ++i) r.d[i] = a.d[i] * s;
  return r;
}
template <class T, int N> Fwd<T, N> operator*(double s, const Fwd<T, N>& a) {
  return a * s;
}
template <class T, int N> Fwd<T, N> operator/(const Fwd<T, N>& a, double s) {
  return a * (1 / s);
}
template <class T, int N> Fwd<T, N> operator/(double s, const Fwd<T, N>& a) {
  Fwd<T, N> r;
  r.v = s / a.v;
  const T h = -r.v / a.v;
  for (int i = 0; i < N; ++i) r.d[i] = a.d[i] * h;
  return r;
}

template <class T, int N> Fwd<T, N> sqrt(const Fwd<T, N>& a) {
  using std::sqrt;
  Fwd<T, N> r;
  r.v = sqrt(a.v);
  const T h = 0.5 / r.v;
  for (int i = 0; i < N; ++i) r.d[i] = a.d[i] * h;
  return r;
}
template <class T, int N> Fwd<T, N> sin(const Fwd<T, N>& a) {
  using std::cos;
  using std::sin;
  Fwd<T, N> r;
  r.v = sin(a.v);
  const T c = cos(a.v);
  for (int i = 0; i < N; ++i) r.d[i] = a.d[i] * c;
  return r;
}
template <class T, int N> Fwd<T, N> cos(const Fwd<T, N>& a) {
  using std::cos;
  using std::sin;
  Fwd<T, N> r;
  r.v = cos(a.v);
  const T s = -sin(a.v);
  for (int i = 0; i < N; ++i) r.d[i] = a.d[i] * s;
  return r;
}

template <class T> using Vec3 = std::array<T, 3>;

template <class T> Vec3<T> cross(const Vec3<T>& a, const Vec3<T>& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
template <class T> T dot(const Vec3<T>& a, const Vec3<T>& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
template <class T> Vec3<T> e2_of(const Vec3<T>& e3, const Vec3<T>& e1) {
  return cross(e3, e1);
}

/// R = exp([psi]x) = I + a [psi]x + b [psi]x^2, a = sin t / t, b = (1 - cos t) / t^2, by their
/// series in t^2 near 0 (so that the derivatives exist there).
template <class T> std::array<T, 9> rotation(const Vec3<T>& psi) {
  using std::cos;
  using std::sin;
  using std::sqrt;
  const T t2 = dot(psi, psi);
  T a, b;
  if (val(t2) < 1e-8) {
    a = 1.0 - t2 * (1.0 / 6.0) + t2 * t2 * (1.0 / 120.0);
    b = 0.5 - t2 * (1.0 / 24.0) + t2 * t2 * (1.0 / 720.0);
  } else {
    const T t = sqrt(t2);
    a = sin(t) / t;
    b = (1.0 - cos(t)) / t2;
  }
  // [psi]x^2 = psi psi^T - t^2 I.
  std::array<T, 9> r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      T v = b * (psi[i] * psi[j]);
      if (i == j) v = v + (1.0 - b * t2);
      r[i * 3 + j] = v;
    }
  r[0 * 3 + 1] = r[0 * 3 + 1] - a * psi[2];
  r[0 * 3 + 2] = r[0 * 3 + 2] + a * psi[1];
  r[1 * 3 + 0] = r[1 * 3 + 0] + a * psi[2];
  r[1 * 3 + 2] = r[1 * 3 + 2] - a * psi[0];
  r[2 * 3 + 0] = r[2 * 3 + 0] - a * psi[1];
  r[2 * 3 + 1] = r[2 * 3 + 1] + a * psi[0];
  return r;
}

/// The current element frame (rows e1, e2, e3) from the nodes, as shell4_frame.
template <class T> std::array<Vec3<T>, 3> frame(const std::array<Vec3<T>, 4>& x) {
  using std::sqrt;
  Vec3<T> g1, g2;
  for (int i = 0; i < 3; ++i) {
    g1[i] = 0.5 * (x[1][i] + x[2][i] - x[0][i] - x[3][i]);
    g2[i] = 0.5 * (x[2][i] + x[3][i] - x[0][i] - x[1][i]);
  }
  Vec3<T> e3 = cross(g1, g2);
  const T n3 = sqrt(dot(e3, e3)), n1 = sqrt(dot(g1, g1));
  Vec3<T> e1;
  for (int i = 0; i < 3; ++i) {
    e3[i] = e3[i] / n3;
    e1[i] = g1[i] / n1;
  }
  return {e1, e2_of(e3, e1), e3};
}

/// u_l(u) for any scalar type.
template <class T>
void local_dofs(const ShellCoords& x0, const ShellFrame& fr0, const std::array<T, 24>& u,
                std::array<T, 24>& ul) {
  using std::sqrt;
  std::array<Vec3<T>, 4> x;
  for (int a = 0; a < 4; ++a)
    for (int i = 0; i < 3; ++i) x[a][i] = u[6 * a + i] + x0[3 * a + i];
  Vec3<T> c;
  for (int i = 0; i < 3; ++i) c[i] = 0.25 * (x[0][i] + x[1][i] + x[2][i] + x[3][i]);
  const std::array<Vec3<T>, 3> re = frame(x);
  // Initial element-frame positions about the initial centroid.
  double c0[3] = {0, 0, 0};
  for (int a = 0; a < 4; ++a)
    for (int i = 0; i < 3; ++i) c0[i] += 0.25 * x0[3 * a + i];
  for (int a = 0; a < 4; ++a) {
    Vec3<T> p;
    for (int i = 0; i < 3; ++i) p[i] = x[a][i] - c[i];
    for (int r = 0; r < 3; ++r) {
      double p0 = 0;
      for (int i = 0; i < 3; ++i) p0 += fr0.r[r * 3 + i] * (x0[3 * a + i] - c0[i]);
      ul[6 * a + r] = dot(re[r], p) - p0;
    }
    const Vec3<T> psi = {u[6 * a + 3], u[6 * a + 4], u[6 * a + 5]};
    const std::array<T, 9> ra = rotation(psi);
    // M = R_a R_e0^T, R_d = R_e M.
    std::array<T, 9> m;
    for (int k = 0; k < 3; ++k)
      for (int s = 0; s < 3; ++s)
        m[k * 3 + s] = ra[k * 3 + 0] * fr0.r[s * 3 + 0] + ra[k * 3 + 1] * fr0.r[s * 3 + 1] +
                       ra[k * 3 + 2] * fr0.r[s * 3 + 2];
    std::array<T, 9> rd;
    for (int r = 0; r < 3; ++r)
      for (int s = 0; s < 3; ++s)
        rd[r * 3 + s] = re[r][0] * m[0 * 3 + s] + re[r][1] * m[1 * 3 + s] + re[r][2] * m[2 * 3 + s];
    ul[6 * a + 3] = 0.5 * (rd[2 * 3 + 1] - rd[1 * 3 + 2]);
    ul[6 * a + 4] = 0.5 * (rd[0 * 3 + 2] - rd[2 * 3 + 0]);
    ul[6 * a + 5] = 0.5 * (rd[1 * 3 + 0] - rd[0 * 3 + 1]);
  }
}

using D1 = Fwd<double, 24>;
using D2 = Fwd<D1, 24>;

} // namespace

void shell4_corotational_dofs(const ShellCoords& x0, const ShellFrame& fr0, const ShellVector& u,
                              ShellVector& ul) {
  local_dofs<double>(x0, fr0, u, ul);
}

void shell4_corotational_jacobian(const ShellCoords& x0, const ShellFrame& fr0,
                                  const ShellVector& u, ShellMatrix& jac, const ShellVector* w,
                                  ShellMatrix* hess) {
  // J by first-order forward mode over all 24 dofs.
  {
    std::array<D1, 24> ud, uld;
    for (int j = 0; j < 24; ++j) {
      ud[j].v = u[j];
      ud[j].d[j] = 1;
    }
    local_dofs(x0, fr0, ud, uld);
    for (int i = 0; i < 24; ++i)
      for (int j = 0; j < 24; ++j) jac[i * 24 + j] = uld[i].d[j];
  }
  if (!w || !hess) return;
  // sum_i w_i d2 u_l,i / du2 from the structure of u_l: with the frame rows e_r(x) and
  // M_a = R_a(psi_a) R_e0^T,
  //   s = w . u_l = sum_{r,m} e_rm G_rm + const,
  //   G_rm = sum_a w_a,r (x_a,m - c_m) + 1/2 sum_a sum_k w_a,3+k sum_s A_k,rs M_a,ms
  // (A_k: the axial-vector selector of theta = axial(R_d - R_d^T) / 2). G is linear in the
  // translations, e depends on them only, M_a on psi_a only; so the Hessian needs the second
  // derivatives of the frame (12 translations: nested forward mode) and of each R_a (3
  // rotations), and products of first derivatives.
  using F2 = Fwd<Fwd<double, 12>, 12>;
  std::array<Vec3<F2>, 4> xf;
  for (int a = 0; a < 4; ++a)
    for (int m = 0; m < 3; ++m) {
      F2& v = xf[a][m];
      const int t = 3 * a + m;
      v.v.v = x0[t] + u[6 * a + m];
      v.v.d[t] = 1;
      v.d[t].v = 1;
    }
  const std::array<Vec3<F2>, 3> ef = frame(xf);
  double e[3][3], de[3][3][12], d2e[3][3][12][12];
  for (int r = 0; r < 3; ++r)
    for (int m = 0; m < 3; ++m) {
      e[r][m] = ef[r][m].v.v;
      for (int i = 0; i < 12; ++i) {
        de[r][m][i] = ef[r][m].d[i].v;
        for (int j = 0; j < 12; ++j) d2e[r][m][i][j] = ef[r][m].d[i].d[j];
      }
    }
  // Rotations: M_a and its first and second derivatives in psi_a.
  using R2 = Fwd<Fwd<double, 3>, 3>;
  double mv[4][3][3], dm[4][3][3][3], d2m[4][3][3][3][3];
  for (int a = 0; a < 4; ++a) {
    Vec3<R2> psi;
    for (int l = 0; l < 3; ++l) {
      psi[l] = R2{};
      psi[l].v.v = u[6 * a + 3 + l];
      psi[l].v.d[l] = 1;
      psi[l].d[l].v = 1;
    }
    const std::array<R2, 9> ra = rotation(psi);
    for (int k = 0; k < 3; ++k)
      for (int s = 0; s < 3; ++s) {
        const R2 v = ra[k * 3 + 0] * fr0.r[s * 3 + 0] + ra[k * 3 + 1] * fr0.r[s * 3 + 1] +
                     ra[k * 3 + 2] * fr0.r[s * 3 + 2];
        mv[a][k][s] = v.v.v;
        for (int l = 0; l < 3; ++l) {
          dm[a][k][s][l] = v.d[l].v;
          for (int q = 0; q < 3; ++q) d2m[a][k][s][l][q] = v.d[l].d[q];
        }
      }
  }
  // A_k,rs: theta_x = (R_zy - R_yz) / 2, theta_y = (R_xz - R_zx) / 2, theta_z = (R_yx - R_xy) / 2.
  double amat[3][3][3] = {};
  amat[0][2][1] = 1;
  amat[0][1][2] = -1;
  amat[1][0][2] = 1;
  amat[1][2][0] = -1;
  amat[2][1][0] = 1;
  amat[2][0][1] = -1;
  const ShellVector& wv = *w;
  double xc[3] = {0, 0, 0};
  for (int a = 0; a < 4; ++a)
    for (int m = 0; m < 3; ++m) xc[m] += 0.25 * (x0[3 * a + m] + u[6 * a + m]);
  // G_rm, dG_rm / d psi_(a,l), d2 G_rm / d psi_(a,l) d psi_(a,q); dG_rm / dt_(b,n) =
  // delta_mn g_(b,r) with g_(b,r) = w_b,r - 1/4 sum_a w_a,r.
  double g[3][3] = {}, dgp[3][3][4][3] = {}, d2gp[3][3][4][3][3] = {}, gb[4][3];
  for (int r = 0; r < 3; ++r) {
    double mean = 0;
    for (int a = 0; a < 4; ++a) mean += 0.25 * wv[6 * a + r];
    for (int b = 0; b < 4; ++b) gb[b][r] = wv[6 * b + r] - mean;
  }
  for (int r = 0; r < 3; ++r)
    for (int m = 0; m < 3; ++m)
      for (int a = 0; a < 4; ++a) {
        g[r][m] += wv[6 * a + r] * (x0[3 * a + m] + u[6 * a + m] - xc[m]);
        for (int k = 0; k < 3; ++k) {
          const double wk = 0.5 * wv[6 * a + 3 + k];
          if (wk == 0) continue;
          for (int s = 0; s < 3; ++s) {
            const double ak = amat[k][r][s];
            if (ak == 0) continue;
            g[r][m] += wk * ak * mv[a][m][s];
            for (int l = 0; l < 3; ++l) {
              dgp[r][m][a][l] += wk * ak * dm[a][m][s][l];
              for (int q = 0; q < 3; ++q) d2gp[r][m][a][l][q] += wk * ak * d2m[a][m][s][l][q];
            }
          }
        }
      }
  ShellMatrix& h = *hess;
  h.fill(0);
  const auto tdof = [](int i) { return 6 * (i / 3) + i % 3; }; // translation i = 3 b + n
  for (int i = 0; i < 12; ++i) {
    // translation-translation
    for (int j = 0; j < 12; ++j) {
      double v = 0;
      for (int r = 0; r < 3; ++r)
        for (int m = 0; m < 3; ++m) v += d2e[r][m][i][j] * g[r][m];
      const int bj = j / 3, nj = j % 3, bi = i / 3, ni = i % 3;
      for (int r = 0; r < 3; ++r) v += de[r][nj][i] * gb[bj][r] + gb[bi][r] * de[r][ni][j];
      h[tdof(i) * 24 + tdof(j)] = v;
    }
    // translation-rotation
    for (int a = 0; a < 4; ++a)
      for (int l = 0; l < 3; ++l) {
        double v = 0;
        for (int r = 0; r < 3; ++r)
          for (int m = 0; m < 3; ++m) v += de[r][m][i] * dgp[r][m][a][l];
        h[tdof(i) * 24 + 6 * a + 3 + l] = v;
        h[(6 * a + 3 + l) * 24 + tdof(i)] = v;
      }
  }
  // rotation-rotation (same node only)
  for (int a = 0; a < 4; ++a)
    for (int l = 0; l < 3; ++l)
      for (int q = 0; q < 3; ++q) {
        double v = 0;
        for (int r = 0; r < 3; ++r)
          for (int m = 0; m < 3; ++m) v += e[r][m] * d2gp[r][m][a][l][q];
        h[(6 * a + 3 + l) * 24 + 6 * a + 3 + q] = v;
      }
}

void shell4_corotational_jacobian_reference(const ShellCoords& x0, const ShellFrame& fr0,
                                            const ShellVector& u, ShellMatrix& jac,
                                            const ShellVector* w, ShellMatrix* hess) {
  if (!w || !hess) {
    std::array<D1, 24> ud, uld;
    for (int j = 0; j < 24; ++j) {
      ud[j].v = u[j];
      ud[j].d[j] = 1;
    }
    local_dofs(x0, fr0, ud, uld);
    for (int i = 0; i < 24; ++i)
      for (int j = 0; j < 24; ++j) jac[i * 24 + j] = uld[i].d[j];
    return;
  }
  // Dual of duals: the inner derivatives and the outer ones along the same 24 directions.
  static thread_local std::array<D2, 24> ud, uld;
  for (int j = 0; j < 24; ++j) {
    ud[j] = D2{};
    ud[j].v.v = u[j];
    ud[j].v.d[j] = 1;
    ud[j].d[j].v = 1;
  }
  local_dofs(x0, fr0, ud, uld);
  hess->fill(0);
  for (int i = 0; i < 24; ++i) {
    for (int j = 0; j < 24; ++j) jac[i * 24 + j] = uld[i].d[j].v;
    const double wi = (*w)[i];
    if (wi == 0) continue;
    for (int j = 0; j < 24; ++j)
      for (int k = 0; k < 24; ++k) (*hess)[j * 24 + k] += wi * uld[i].d[j].d[k];
  }
}

} // namespace parcae::implicit
