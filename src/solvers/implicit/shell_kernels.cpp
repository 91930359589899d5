#include "solvers/implicit/shell_kernels.hpp"

#include <cmath>

#include "core/error.hpp"
#include "fem/shell_bt.hpp"

namespace parcae::implicit {

namespace {

constexpr std::array<double, 4> kXiA = {-1, 1, 1, -1};
constexpr std::array<double, 4> kEtaA = {-1, -1, 1, 1};

struct Shape {
  std::array<double, 4> n{}, dxi{}, deta{};
};

Shape shape(double xi, double eta) {
  Shape s;
  for (std::size_t a = 0; a < 4; ++a) {
    s.n[a] = 0.25 * (1 + kXiA[a] * xi) * (1 + kEtaA[a] * eta);
    s.dxi[a] = 0.25 * kXiA[a] * (1 + kEtaA[a] * eta);
    s.deta[a] = 0.25 * kEtaA[a] * (1 + kXiA[a] * xi);
  }
  return s;
}

/// Jacobian [x,xi y,xi; x,eta y,eta] of the flat element at a point.
std::array<double, 4> jacobian(const ShellFrame& fr, const Shape& s) {
  std::array<double, 4> j{};
  for (std::size_t a = 0; a < 4; ++a) {
    j[0] += s.dxi[a] * fr.xy[2 * a];
    j[1] += s.dxi[a] * fr.xy[2 * a + 1];
    j[2] += s.deta[a] * fr.xy[2 * a];
    j[3] += s.deta[a] * fr.xy[2 * a + 1];
  }
  return j;
}

/// Global -> element frame for the 24 dofs (the same 3x3 rotation on each triple).
ShellVector to_local(const ShellFrame& fr, const ShellVector& g) {
  ShellVector l{};
  for (int t = 0; t < 8; ++t)
    for (int i = 0; i < 3; ++i) {
      double s = 0;
      for (int j = 0; j < 3; ++j) s += fr.r[i * 3 + j] * g[t * 3 + j];
      l[t * 3 + i] = s;
    }
  return l;
}

ShellVector to_global(const ShellFrame& fr, const ShellVector& l) {
  ShellVector g{};
  for (int t = 0; t < 8; ++t)
    for (int j = 0; j < 3; ++j) {
      double s = 0;
      for (int i = 0; i < 3; ++i) s += fr.r[i * 3 + j] * l[t * 3 + i];
      g[t * 3 + j] = s;
    }
  return g;
}

/// K_global = T^T K_local T, T = blockdiag(R) over the 8 triples.
void matrix_to_global(const ShellFrame& fr, const ShellMatrix& kl, ShellMatrix& kg) {
  ShellMatrix tmp{}; // K_local T
  for (int r = 0; r < 24; ++r)
    for (int t = 0; t < 8; ++t)
      for (int j = 0; j < 3; ++j) {
        double s = 0;
        for (int i = 0; i < 3; ++i) s += kl[r * 24 + t * 3 + i] * fr.r[i * 3 + j];
        tmp[r * 24 + t * 3 + j] = s;
      }
  for (int t = 0; t < 8; ++t)
    for (int j = 0; j < 3; ++j)
      for (int c = 0; c < 24; ++c) {
        double s = 0;
        for (int i = 0; i < 3; ++i) s += fr.r[i * 3 + j] * tmp[(t * 3 + i) * 24 + c];
        kg[(t * 3 + j) * 24 + c] = s;
      }
}

/// Covariant transverse shear gamma_xi (dir 0) or gamma_eta (dir 1) at (xi, eta) as a row over
/// the 24 local dofs: w,xi + theta_y x,xi - theta_x y,xi.
std::array<double, 24> covariant_shear(const ShellFrame& fr, double xi, double eta, int dir) {
  const Shape s = shape(xi, eta);
  const auto j = jacobian(fr, s);
  const auto& dn = dir == 0 ? s.dxi : s.deta;
  const double xd = dir == 0 ? j[0] : j[2], yd = dir == 0 ? j[1] : j[3];
  std::array<double, 24> row{};
  for (std::size_t a = 0; a < 4; ++a) {
    row[6 * a + 2] = dn[a];
    row[6 * a + 3] = -s.n[a] * yd;
    row[6 * a + 4] = s.n[a] * xd;
  }
  return row;
}

} // namespace

ShellFrame shell4_frame(const ShellCoords& x) {
  ShellFrame fr;
  std::array<double, 3> g1{}, g2{}, c{};
  for (int i = 0; i < 3; ++i) {
    g1[i] = 0.5 * (x[3 + i] + x[6 + i] - x[i] - x[9 + i]);
    g2[i] = 0.5 * (x[6 + i] + x[9 + i] - x[i] - x[3 + i]);
    c[i] = 0.25 * (x[i] + x[3 + i] + x[6 + i] + x[9 + i]);
  }
  std::array<double, 3> e3 = {g1[1] * g2[2] - g1[2] * g2[1], g1[2] * g2[0] - g1[0] * g2[2],
                              g1[0] * g2[1] - g1[1] * g2[0]};
  const double n3 = std::sqrt(e3[0] * e3[0] + e3[1] * e3[1] + e3[2] * e3[2]);
  const double n1 = std::sqrt(g1[0] * g1[0] + g1[1] * g1[1] + g1[2] * g1[2]);
  if (!(n3 > 0) || !(n1 > 0)) throw RuntimeError("a shell element has no area");
  for (int i = 0; i < 3; ++i) {
    e3[i] /= n3;
    g1[i] /= n1; // g1 is normal to e3 by construction
  }
  const std::array<double, 3> e2 = {e3[1] * g1[2] - e3[2] * g1[1], e3[2] * g1[0] - e3[0] * g1[2],
                                    e3[0] * g1[1] - e3[1] * g1[0]};
  for (int i = 0; i < 3; ++i) {
    fr.r[i] = g1[i];
    fr.r[3 + i] = e2[i];
    fr.r[6 + i] = e3[i];
  }
  for (int a = 0; a < 4; ++a) {
    double px = 0, py = 0;
    for (int i = 0; i < 3; ++i) {
      px += (x[3 * a + i] - c[i]) * g1[i];
      py += (x[3 * a + i] - c[i]) * e2[i];
    }
    fr.xy[2 * a] = px;
    fr.xy[2 * a + 1] = py;
  }
  const double g = 1 / std::sqrt(3.0);
  for (int q = 0; q < 4; ++q) {
    const auto j = jacobian(fr, shape(kXiA[q] * g, kEtaA[q] * g));
    fr.area += j[0] * j[3] - j[1] * j[2];
  }
  return fr;
}

void shell4_forces(const ShellCoords& x, const ShellVector& u, const ShellSection& sec,
                   const PointLaw& law, std::span<const PlanePointState> old,
                   std::span<PlanePointState> now, std::span<ShellPoint> stress,
                   std::span<ShellPoint> strain, ShellVector& f, ShellMatrix* k,
                   bool corotational) {
  const ShellFrame fr = shell4_frame(x);
  ShellVector fl{};
  if (!corotational) {
    const ShellVector ul = to_local(fr, u);
    ShellMatrix kl{};
    shell4_local(fr, ul, sec, law, old, now, stress, strain, fl, k ? &kl : nullptr);
    f = to_global(fr, fl);
    if (k) matrix_to_global(fr, kl, *k);
    return;
  }
  // Co-rotational: local deformational dofs u_l(u) (shell_corot.cpp), the linear MITC4 on them,
  // f = J^T f_l and K = J^T K_l J + sum_i f_l,i d2 u_l,i / du2 (J by forward-mode
  // differentiation of u_l, the second derivatives by the product rule on its structure: exact,
  // no finite differences).
  ShellVector ul{};
  shell4_corotational_dofs(x, fr, u, ul);
  ShellMatrix kl{};
  shell4_local(fr, ul, sec, law, old, now, stress, strain, fl, k ? &kl : nullptr);
  ShellMatrix jac{};
  if (!k) {
    shell4_corotational_jacobian(x, fr, u, jac, nullptr, nullptr);
  } else {
    ShellMatrix hess{};
    shell4_corotational_jacobian(x, fr, u, jac, &fl, &hess);
    // K = J^T K_l J + H.
    ShellMatrix kj{}; // K_l J
    for (int r = 0; r < 24; ++r)
      for (int m = 0; m < 24; ++m) {
        const double v = kl[r * 24 + m];
        if (v == 0) continue;
        for (int c = 0; c < 24; ++c) kj[r * 24 + c] += v * jac[m * 24 + c];
      }
    *k = hess;
    for (int m = 0; m < 24; ++m)
      for (int r = 0; r < 24; ++r) {
        const double v = jac[m * 24 + r];
        if (v == 0) continue;
        for (int c = 0; c < 24; ++c) (*k)[r * 24 + c] += v * kj[m * 24 + c];
      }
  }
  for (int c = 0; c < 24; ++c) {
    double v = 0;
    for (int m = 0; m < 24; ++m) v += jac[m * 24 + c] * fl[m];
    f[c] = v;
  }
}

void shell4_local(const ShellFrame& fr, const ShellVector& ul, const ShellSection& sec,
                  const PointLaw& law, std::span<const PlanePointState> old,
                  std::span<PlanePointState> now, std::span<ShellPoint> stress,
                  std::span<ShellPoint> strain, ShellVector& fl, ShellMatrix* kl_out) {
  const int nip = sec.nip;
  const double t = sec.thickness;
  std::array<double, 10> zeta{}, wz{};
  shell_thickness_rule(nip, sec.lobatto, std::span<double>(zeta.data(), nip),
                       std::span<double>(wz.data(), nip));
  fl.fill(0);
  ShellMatrix scratch{};
  ShellMatrix& kl = kl_out ? *kl_out : scratch;
  kl.fill(0);
  ShellMatrix* k = kl_out;
  const double gs = sec.shrf * law.shear();
  // Tying points of MITC4: gamma_xi at (0, -1), (0, 1); gamma_eta at (-1, 0), (1, 0).
  const auto gxb = covariant_shear(fr, 0, -1, 0), gxd = covariant_shear(fr, 0, 1, 0);
  const auto gea = covariant_shear(fr, -1, 0, 1), gec = covariant_shear(fr, 1, 0, 1);
  const double g = 1 / std::sqrt(3.0);
  for (int q = 0; q < 4; ++q) {
    const double xi = kXiA[static_cast<std::size_t>(q)] * g,
                 eta = kEtaA[static_cast<std::size_t>(q)] * g;
    const Shape s = shape(xi, eta);
    const auto j = jacobian(fr, s);
    const double det = j[0] * j[3] - j[1] * j[2];
    if (!(det > 0)) throw RuntimeError("a shell element is inverted or degenerate");
    // J^-1 = [j3 -j1; -j2 j0] / det: [d/dx; d/dy] = J^-1 [d/dxi; d/deta].
    std::array<double, 4> nx{}, ny{};
    for (std::size_t a = 0; a < 4; ++a) {
      nx[a] = (j[3] * s.dxi[a] - j[1] * s.deta[a]) / det;
      ny[a] = (-j[2] * s.dxi[a] + j[0] * s.deta[a]) / det;
    }
    // Membrane (rows 0-2) and curvature (rows 3-5): beta_x = theta_y, beta_y = -theta_x.
    std::array<std::array<double, 24>, 6> b{};
    for (std::size_t a = 0; a < 4; ++a) {
      b[0][6 * a] = nx[a];
      b[1][6 * a + 1] = ny[a];
      b[2][6 * a] = ny[a];
      b[2][6 * a + 1] = nx[a];
      b[3][6 * a + 4] = nx[a];
      b[4][6 * a + 3] = -ny[a];
      b[5][6 * a + 4] = ny[a];
      b[5][6 * a + 3] = -nx[a];
    }
    // Assumed transverse shear: covariant components interpolated from the tying points, then
    // [gamma_xz; gamma_yz] = J^-1 [gamma_xi; gamma_eta].
    std::array<std::array<double, 24>, 2> bs{};
    for (int c = 0; c < 24; ++c) {
      const double gxi = 0.5 * (1 - eta) * gxb[c] + 0.5 * (1 + eta) * gxd[c];
      const double get = 0.5 * (1 - xi) * gea[c] + 0.5 * (1 + xi) * gec[c];
      bs[0][c] = (j[3] * gxi - j[1] * get) / det;
      bs[1][c] = (-j[2] * gxi + j[0] * get) / det;
    }
    std::array<double, 6> gen{};
    for (int r = 0; r < 6; ++r)
      for (int c = 0; c < 24; ++c) gen[r] += b[r][c] * ul[c];
    std::array<double, 2> gam{};
    for (int r = 0; r < 2; ++r)
      for (int c = 0; c < 24; ++c) gam[r] += bs[r][c] * ul[c];
    const std::array<double, 2> tau = {gs * gam[0], gs * gam[1]};
    for (int kk = 0; kk < nip; ++kk) {
      const auto p = static_cast<std::size_t>(q * nip + kk);
      const double z = 0.5 * t * zeta[kk], dv = det * 0.5 * t * wz[kk];
      const Plane eps = {gen[0] + z * gen[3], gen[1] + z * gen[4], gen[2] + z * gen[5]};
      Plane sig{};
      PlaneTangent d{};
      update_plane_point(law, old[p], eps, now[p], sig, d);
      stress[p] = {sig[0], sig[1], sig[2], tau[1], tau[0]};
      if (!strain.empty()) strain[p] = {eps[0], eps[1], eps[2], gam[1], gam[0]};
      // B_z = B_m + z B_b (3 x 24).
      std::array<std::array<double, 24>, 3> bz{};
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 24; ++c) bz[r][c] = b[r][c] + z * b[r + 3][c];
      for (int c = 0; c < 24; ++c)
        fl[c] += dv * (bz[0][c] * sig[0] + bz[1][c] * sig[1] + bz[2][c] * sig[2]);
      if (k) {
        std::array<std::array<double, 24>, 3> db{};
        for (int r = 0; r < 3; ++r)
          for (int c = 0; c < 24; ++c)
            db[r][c] = d[r * 3] * bz[0][c] + d[r * 3 + 1] * bz[1][c] + d[r * 3 + 2] * bz[2][c];
        for (int r = 0; r < 24; ++r) {
          const double b0 = bz[0][r] * dv, b1 = bz[1][r] * dv, b2 = bz[2][r] * dv;
          if (b0 == 0 && b1 == 0 && b2 == 0) continue;
          for (int c = 0; c < 24; ++c)
            kl[r * 24 + c] += b0 * db[0][c] + b1 * db[1][c] + b2 * db[2][c];
        }
      }
    }
    const double da = det * t;
    for (int c = 0; c < 24; ++c) fl[c] += da * (bs[0][c] * tau[0] + bs[1][c] * tau[1]);
    if (k)
      for (int r = 0; r < 24; ++r)
        for (int c = 0; c < 24; ++c)
          kl[r * 24 + c] += da * gs * (bs[0][r] * bs[0][c] + bs[1][r] * bs[1][c]);
  }
  // Drilling penalty (linear, elastic): rows g_a = e(theta_z,a) - omega.
  {
    const Shape s = shape(0, 0);
    const auto j = jacobian(fr, s);
    const double det = j[0] * j[3] - j[1] * j[2];
    std::array<double, 24> om{};
    for (std::size_t a = 0; a < 4; ++a) {
      const double nx = (j[3] * s.dxi[a] - j[1] * s.deta[a]) / det;
      const double ny = (-j[2] * s.dxi[a] + j[0] * s.deta[a]) / det;
      om[6 * a + 1] = 0.5 * nx;
      om[6 * a] = -0.5 * ny;
    }
    const double kd = 1e-3 * law.shear() * t * fr.area / 4;
    for (std::size_t a = 0; a < 4; ++a) {
      std::array<double, 24> ga{};
      for (int c = 0; c < 24; ++c) ga[c] = -om[c];
      ga[6 * a + 5] += 1;
      double ga_u = 0;
      for (int c = 0; c < 24; ++c) ga_u += ga[c] * ul[c];
      for (int c = 0; c < 24; ++c) fl[c] += kd * ga[c] * ga_u;
      if (k)
        for (int r = 0; r < 24; ++r)
          for (int c = 0; c < 24; ++c) kl[r * 24 + c] += kd * ga[r] * ga[c];
    }
  }
}

void shell4_mass(const ShellCoords& x, double rho, double thickness, ShellMatrix& m) {
  const ShellFrame fr = shell4_frame(x);
  m.fill(0);
  const double g = 1 / std::sqrt(3.0);
  std::array<double, 16> nn{};
  for (int q = 0; q < 4; ++q) {
    const Shape s =
        shape(kXiA[static_cast<std::size_t>(q)] * g, kEtaA[static_cast<std::size_t>(q)] * g);
    const auto j = jacobian(fr, s);
    const double det = j[0] * j[3] - j[1] * j[2];
    for (std::size_t a = 0; a < 4; ++a)
      for (std::size_t b = 0; b < 4; ++b) nn[a * 4 + b] += det * s.n[a] * s.n[b];
  }
  const double mt = rho * thickness, mr = rho * thickness * thickness * thickness / 12;
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b)
      for (int i = 0; i < 6; ++i)
        m[(6 * a + i) * 24 + 6 * b + i] =
            (i < 3 ? mt : mr) * nn[static_cast<std::size_t>(a * 4 + b)];
}

std::array<double, 6> shell_stress_to_global(const ShellFrame& fr, const ShellPoint& s) {
  // Local tensor [xx xy xz; xy yy yz; xz yz 0]; global = R^T S R.
  const double sl[3][3] = {{s[0], s[2], s[4]}, {s[2], s[1], s[3]}, {s[4], s[3], 0}};
  double gl[3][3] = {};
  for (int k = 0; k < 3; ++k)
    for (int l = 0; l < 3; ++l) {
      double v = 0;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) v += fr.r[i * 3 + k] * sl[i][j] * fr.r[j * 3 + l];
      gl[k][l] = v;
    }
  return {gl[0][0], gl[1][1], gl[2][2], gl[0][1], gl[1][2], gl[2][0]};
}

} // namespace parcae::implicit
