#include "solvers/explicit/rigid_body.hpp"

#include <cmath>

#include "core/error.hpp"

namespace parcae {

namespace {

using Mat3 = std::array<Real, 9>;
using Vec3 = std::array<Real, 3>;

Vec3 mul(const Mat3& m, const Vec3& v) {
  return {m[0] * v[0] + m[1] * v[1] + m[2] * v[2], m[3] * v[0] + m[4] * v[1] + m[5] * v[2],
          m[6] * v[0] + m[7] * v[1] + m[8] * v[2]};
}
Mat3 matmul(const Mat3& a, const Mat3& b) {
  Mat3 c{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k) c[3 * i + j] += a[3 * i + k] * b[3 * k + j];
  return c;
}
Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
Mat3 inverse(const Mat3& m) {
  const Real det = m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) +
                   m[2] * (m[3] * m[7] - m[4] * m[6]);
  if (!(std::abs(det) > 0)) return Mat3{};
  const Real id = 1.0 / det;
  return {(m[4] * m[8] - m[5] * m[7]) * id, (m[2] * m[7] - m[1] * m[8]) * id,
          (m[1] * m[5] - m[2] * m[4]) * id, (m[5] * m[6] - m[3] * m[8]) * id,
          (m[0] * m[8] - m[2] * m[6]) * id, (m[2] * m[3] - m[0] * m[5]) * id,
          (m[3] * m[7] - m[4] * m[6]) * id, (m[1] * m[6] - m[0] * m[7]) * id,
          (m[0] * m[4] - m[1] * m[3]) * id};
}
/// Rotation matrix exp([phi]x) by Rodrigues' formula.
Mat3 rotation_from_vector(const Vec3& phi) {
  const Real th = std::sqrt(phi[0] * phi[0] + phi[1] * phi[1] + phi[2] * phi[2]);
  Mat3 r{1, 0, 0, 0, 1, 0, 0, 0, 1};
  if (th < 1e-300) return r;
  const Vec3 k{phi[0] / th, phi[1] / th, phi[2] / th};
  const Real s = std::sin(th), c = 1 - std::cos(th);
  const Mat3 kx{0, -k[2], k[1], k[2], 0, -k[0], -k[1], k[0], 0};
  const Mat3 kx2 = matmul(kx, kx);
  for (int i = 0; i < 9; ++i) r[i] += s * kx[i] + c * kx2[i];
  return r;
}
/// Inertia about the centre in the current orientation: R I0 R^T; inverse R I0^-1 R^T.
Mat3 rotate_tensor(const Mat3& rot, const Mat3& t) {
  Mat3 rt{rot[0], rot[3], rot[6], rot[1], rot[4], rot[7], rot[2], rot[5], rot[8]};
  return matmul(matmul(rot, t), rt);
}

} // namespace

void init_rigid_body(RigidBody& b, const Domain& d) {
  Real m = 0;
  Vec3 xc{}, p{};
  for (LocalId n : b.nodes) {
    const Real mn = d.mass[n];
    m += mn;
    for (int i = 0; i < 3; ++i) {
      xc[i] += mn * d.x0[3 * n + i];
      p[i] += mn * d.v[3 * n + i];
    }
  }
  if (!(m > 0))
    throw RuntimeError("rigid part " + std::to_string(b.pid) + " has no mass (no elements?)");
  b.mass = m;
  for (int i = 0; i < 3; ++i) {
    b.xc[i] = xc[i] / m;
    b.v[i] = p[i] / m;
  }
  Mat3 inertia{};
  Vec3 l{};
  b.r0.clear();
  for (LocalId n : b.nodes) {
    const Real mn = d.mass[n];
    const Vec3 r{d.x0[3 * n] - b.xc[0], d.x0[3 * n + 1] - b.xc[1], d.x0[3 * n + 2] - b.xc[2]};
    b.r0.insert(b.r0.end(), r.begin(), r.end());
    const Real r2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) inertia[3 * i + j] += mn * ((i == j ? r2 : 0.0) - r[i] * r[j]);
    const Vec3 vrel{d.v[3 * n] - b.v[0], d.v[3 * n + 1] - b.v[1], d.v[3 * n + 2] - b.v[2]};
    const Vec3 c = cross(r, vrel);
    for (int i = 0; i < 3; ++i) l[i] += mn * c[i];
  }
  b.inertia0 = inertia;
  b.inertia0_inv = inverse(inertia);
  b.l = l;
  b.omega = mul(b.inertia0_inv, l);
  for (int i = 0; i < 3; ++i) {
    if (b.fix_t[i]) b.v[i] = 0;
    if (b.fix_r[i]) b.omega[i] = 0;
  }
  b.l = mul(inertia, b.omega);
}

void advance_rigid_body(RigidBody& b, Domain& d, Real dt_avg, Real dt, const Vec3& f,
                        const Vec3& mom, const Vec3& presc_v, const Vec3& presc_w) {
  b.force = f;
  b.moment = mom;
  const Mat3 i_now = rotate_tensor(b.rot, b.inertia0);
  const Mat3 i_inv = rotate_tensor(b.rot, b.inertia0_inv);
  for (int i = 0; i < 3; ++i) {
    b.v[i] += dt_avg * f[i] / b.mass;
    b.l[i] += dt_avg * mom[i];
  }
  // Angular velocity over the step from the mid-step orientation (a fixed-point iteration on
  // omega = I(R_mid)^-1 L): time-symmetric, so the rotational energy of a free body stays
  // bounded instead of drifting.
  b.omega = mul(i_inv, b.l);
  for (int it = 0; it < 3; ++it) {
    const Mat3 r_mid = matmul(
        rotation_from_vector({0.5 * dt * b.omega[0], 0.5 * dt * b.omega[1], 0.5 * dt * b.omega[2]}),
        b.rot);
    b.omega = mul(rotate_tensor(r_mid, b.inertia0_inv), b.l);
  }
  bool w_changed = false;
  for (int i = 0; i < 3; ++i) {
    if (b.fix_t[i]) b.v[i] = 0;
    if (!std::isnan(presc_v[i])) b.v[i] = presc_v[i];
    if (b.fix_r[i]) {
      b.omega[i] = 0;
      w_changed = true;
    }
    if (!std::isnan(presc_w[i])) {
      b.omega[i] = presc_w[i];
      w_changed = true;
    }
  }
  if (w_changed) b.l = mul(i_now, b.omega);
  // positions at t + dt
  const Mat3 rot_new =
      matmul(rotation_from_vector({b.omega[0] * dt, b.omega[1] * dt, b.omega[2] * dt}), b.rot);
  b.rot = rot_new;
  for (int i = 0; i < 3; ++i) b.xc[i] += dt * b.v[i];
  for (std::size_t k = 0; k < b.nodes.size(); ++k) {
    const LocalId n = b.nodes[k];
    const Vec3 r = mul(rot_new, {b.r0[3 * k], b.r0[3 * k + 1], b.r0[3 * k + 2]});
    for (int i = 0; i < 3; ++i) {
      const Real xn = b.xc[i] + r[i];
      d.v[3 * n + i] = dt > 0 ? (xn - d.x[3 * n + i]) / dt : b.v[i];
      d.x[3 * n + i] = xn;
      d.w[3 * n + i] = b.omega[i];
    }
  }
}

Real rigid_body_kinetic_energy(const RigidBody& b) {
  return 0.5 * b.mass * (b.v[0] * b.v[0] + b.v[1] * b.v[1] + b.v[2] * b.v[2]) +
         0.5 * (b.omega[0] * b.l[0] + b.omega[1] * b.l[1] + b.omega[2] * b.l[2]);
}

} // namespace parcae
