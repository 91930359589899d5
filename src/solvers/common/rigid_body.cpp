#include "solvers/common/rigid_body.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

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
  if (!(m > 0)) {
    if (b.kind == RigidKind::Part)
      throw RuntimeError("rigid part " + std::to_string(b.pid) + " has no mass (no elements?)");
    const char* what = b.kind == RigidKind::NodalBody ? "nodal rigid body " : "weld ";
    throw RuntimeError(std::string(what) +
                       std::to_string(b.kind == RigidKind::NodalBody ? b.pid : b.weld_id) +
                       " has no mass (its nodes belong to no element)");
  }
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
    if (b.kind != RigidKind::Part && d.has_rot[n]) { // shell node: its rotary inertia and spin
      for (int i = 0; i < 3; ++i) {
        inertia[4 * i] += d.inertia[n];
        l[i] += d.inertia[n] * d.w[3 * n + i];
      }
    }
  }
  if (b.kind != RigidKind::Part) {
    const Real mean = (inertia[0] + inertia[4] + inertia[8]) / 3.0;
    const Real det = inertia[0] * (inertia[4] * inertia[8] - inertia[5] * inertia[7]) -
                     inertia[1] * (inertia[3] * inertia[8] - inertia[5] * inertia[6]) +
                     inertia[2] * (inertia[3] * inertia[7] - inertia[4] * inertia[6]);
    if (mean > 0 && !(std::abs(det) > 1e-9 * mean * mean * mean))
      for (int i = 0; i < 3; ++i) inertia[4 * i] += 1e-3 * mean;
  }
  if (b.can_fail()) {
    const std::size_t k1 = b.axis_first, k2 = b.axis_last;
    const Vec3 e{b.r0[3 * k2] - b.r0[3 * k1], b.r0[3 * k2 + 1] - b.r0[3 * k1 + 1],
                 b.r0[3 * k2 + 2] - b.r0[3 * k1 + 2]};
    const bool coincident = e[0] == 0 && e[1] == 0 && e[2] == 0;
    b.side2.assign(b.nodes.size(), 0);
    b.mass2 = 0;
    for (std::size_t k = 0; k < b.nodes.size(); ++k) {
      const Real proj = b.r0[3 * k] * e[0] + b.r0[3 * k + 1] * e[1] + b.r0[3 * k + 2] * e[2];
      b.side2[k] = coincident ? (k == k2) : proj > 0;
      if (b.side2[k]) b.mass2 += d.mass[b.nodes[k]];
    }
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

void add_rigid_inertia(RigidBody& b, const std::array<Real, 6>& t) {
  const Mat3 add{t[0], t[3], t[5], t[3], t[1], t[4], t[5], t[4], t[2]};
  for (std::size_t i = 0; i < 9; ++i) b.inertia0[i] += add[i];
  b.inertia0_inv = inverse(b.inertia0);
  // the body keeps its angular velocity (the one its nodes were given); its momentum grows
  for (int i = 0; i < 3; ++i)
    if (b.fix_r[i]) b.omega[i] = 0;
  b.l = mul(b.inertia0, b.omega);
}

void set_rigid_inertia(RigidBody& b, Domain& d, const PartInertia& in, const Vec3& xc) {
  const Real scale = in.tm / b.mass;
  for (LocalId n : b.nodes) d.mass[n] *= scale;
  b.mass = in.tm;
  // the rigid motion found from the nodes (init_rigid_body), moved to the new centre
  const Vec3 shift{xc[0] - b.xc[0], xc[1] - b.xc[1], xc[2] - b.xc[2]};
  const Vec3 w_shift = cross(b.omega, shift);
  for (int i = 0; i < 3; ++i) b.v[i] += w_shift[i];
  b.xc = xc;
  for (std::size_t k = 0; k < b.nodes.size(); ++k)
    for (int i = 0; i < 3; ++i) b.r0[3 * k + i] = d.x0[3 * b.nodes[k] + i] - xc[i];
  const auto& t = in.inertia;
  b.inertia0 = {t[0], t[1], t[2], t[1], t[3], t[4], t[2], t[4], t[5]};
  b.inertia0_inv = inverse(b.inertia0);
  if (std::any_of(in.vel.begin(), in.vel.end(), [](Real v) { return v != 0; }))
    for (int i = 0; i < 3; ++i) {
      b.v[i] = in.vel[static_cast<std::size_t>(i)];
      b.omega[i] = in.vel[static_cast<std::size_t>(3 + i)];
    }
  // (all zero: the nodes' rigid motion, v and omega above, is kept)
  for (int i = 0; i < 3; ++i) {
    if (b.fix_t[i]) b.v[i] = 0;
    if (b.fix_r[i]) b.omega[i] = 0;
  }
  b.l = mul(b.inertia0, b.omega);
  for (std::size_t k = 0; k < b.nodes.size(); ++k) {
    const Vec3 r{b.r0[3 * k], b.r0[3 * k + 1], b.r0[3 * k + 2]};
    const Vec3 wr = cross(b.omega, r);
    for (int i = 0; i < 3; ++i) d.v[3 * b.nodes[k] + i] = b.v[i] + wr[i];
  }
}

std::size_t rigid_body_of_part(const Model& model, const Domain& d, GlobalId pid) {
  for (std::size_t hops = 0; hops <= model.rigid_merges.size(); ++hops) {
    const auto it = std::find_if(model.rigid_merges.begin(), model.rigid_merges.end(),
                                 [&](const RigidMerge& r) { return r.follower == pid; });
    if (it == model.rigid_merges.end()) break;
    pid = it->lead;
  }
  std::size_t b = 0;
  while (b < d.bodies.size() && (d.bodies[b].kind != RigidKind::Part || d.bodies[b].pid != pid))
    ++b;
  return b;
}

void apply_rigid_body_velocities(const Model& model, Domain& d) {
  for (const RigidBodyVelocity& rv : model.rigid_velocities) {
    const std::size_t index = rigid_body_of_part(model, d, rv.pid);
    if (index == d.bodies.size())
      throw InputError(rv.loc, fmt::format("*INITIAL_VELOCITY_RIGID_BODY: part {} is not a rigid "
                                           "part with elements",
                                           rv.pid));
    RigidBody& b = d.bodies[index];
    for (int i = 0; i < 3; ++i) {
      b.v[i] = b.fix_t[i] ? 0.0 : rv.vel[static_cast<std::size_t>(i)];
      b.omega[i] = b.fix_r[i] ? 0.0 : rv.vel[static_cast<std::size_t>(3 + i)];
    }
    b.l = mul(b.inertia0, b.omega);
    for (std::size_t k = 0; k < b.nodes.size(); ++k) {
      const Vec3 r{b.r0[3 * k], b.r0[3 * k + 1], b.r0[3 * k + 2]};
      const Vec3 wr = cross(b.omega, r);
      for (int i = 0; i < 3; ++i) d.v[3 * b.nodes[k] + i] = b.v[i] + wr[i];
    }
  }
}

void advance_rigid_body(RigidBody& b, Domain& d, Real dt_avg, Real dt, const Vec3& f,
                        const Vec3& mom, const Vec3& presc_v, const Vec3& presc_w,
                        std::span<const DirectedMotion> directed) {
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
  for (const DirectedMotion& dm : directed) {
    Vec3& u = dm.rotation ? b.omega : b.v;
    const Real along = u[0] * dm.dir[0] + u[1] * dm.dir[1] + u[2] * dm.dir[2];
    for (int i = 0; i < 3; ++i)
      u[i] = dm.exclusive ? dm.value * dm.dir[i] : u[i] + (dm.value - along) * dm.dir[i];
    w_changed = w_changed || dm.rotation;
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

Vec3 initial_centre(const RigidBody& b, const Domain& d) {
  if (b.nodes.empty()) return b.xc;
  const LocalId n = b.nodes.front();
  return {d.x0[3 * n] - b.r0[0], d.x0[3 * n + 1] - b.r0[1], d.x0[3 * n + 2] - b.r0[2]};
}

std::size_t failable_body_count(const Domain& d) {
  std::size_t n = 0;
  for (const RigidBody& b : d.bodies) n += b.can_fail() ? 1 : 0;
  return n;
}

std::vector<ExactSum> weld_force_sums(const Domain& d) {
  std::vector<ExactSum> acc(6 * failable_body_count(d));
  std::size_t w = 0;
  for (const RigidBody& b : d.bodies) {
    if (!b.can_fail()) continue;
    ExactSum* a = &acc[6 * w++];
    if (!b.active) continue;
    for (std::size_t k = 0; k < b.nodes.size(); ++k) {
      const LocalId n = b.nodes[k];
      if (!d.owned[n]) continue;
      for (int i = 0; i < 3; ++i) {
        a[i].add(d.f[3 * n + i]);
        if (b.side2[k]) a[3 + i].add(d.f[3 * n + i]);
      }
    }
  }
  return acc;
}

std::vector<WeldFailure> fail_welds(Domain& d, std::span<const ExactSum> sums, Real t) {
  std::vector<WeldFailure> out;
  std::size_t w = 0;
  for (std::size_t bi = 0; bi < d.bodies.size(); ++bi) {
    RigidBody& b = d.bodies[bi];
    if (!b.can_fail()) continue;
    const ExactSum* a = &sums[6 * w++];
    if (!b.active) continue;
    Vec3 fc{};
    for (int i = 0; i < 3; ++i) fc[i] = b.mass2 / b.mass * a[i].result() - a[3 + i].result();
    const LocalId n1 = b.nodes[b.axis_first], n2 = b.nodes[b.axis_last];
    Vec3 e{d.x[3 * n2] - d.x[3 * n1], d.x[3 * n2 + 1] - d.x[3 * n1 + 1],
           d.x[3 * n2 + 2] - d.x[3 * n1 + 2]};
    const Real len = std::sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
    Real fn = 0;
    if (len > 0) {
      for (Real& c : e) c /= len;
      fn = fc[0] * e[0] + fc[1] * e[1] + fc[2] * e[2];
    }
    const Vec3 ft{fc[0] - fn * e[0], fc[1] - fn * e[1], fc[2] - fn * e[2]};
    const Real fs = std::sqrt(ft[0] * ft[0] + ft[1] * ft[1] + ft[2] * ft[2]);
    Real crit = 0;
    if (b.sn > 0) crit += std::pow(std::abs(fn) / b.sn, b.fn_exp);
    if (b.ss > 0) crit += std::pow(fs / b.ss, b.fs_exp);
    const bool by_force = (b.sn > 0 || b.ss > 0) && crit >= 1.0;
    const bool by_time = t >= b.tfail;
    if (!by_force && !by_time) continue;
    // Release: each node continues with the body's velocity at the node.
    for (LocalId n : b.nodes) {
      const Vec3 r{d.x[3 * n] - b.xc[0], d.x[3 * n + 1] - b.xc[1], d.x[3 * n + 2] - b.xc[2]};
      const Vec3 wr = cross(b.omega, r);
      for (int i = 0; i < 3; ++i) {
        d.v[3 * n + i] = b.v[i] + wr[i];
        d.w[3 * n + i] = d.has_rot[n] ? b.omega[i] : 0.0;
      }
      d.rigid_of[n] = -1;
    }
    b.active = 0;
    b.fail_time = t;
    b.fail_fn = fn;
    b.fail_fs = fs;
    b.mass = 0;
    b.v = b.l = b.omega = b.force = b.moment = Vec3{};
    out.push_back({bi, b.weld_id, fn, fs, !by_force});
  }
  return out;
}

Real rigid_body_kinetic_energy(const RigidBody& b) {
  return 0.5 * b.mass * (b.v[0] * b.v[0] + b.v[1] * b.v[1] + b.v[2] * b.v[2]) +
         0.5 * (b.omega[0] * b.l[0] + b.omega[1] * b.l[1] + b.omega[2] * b.l[2]);
}

} // namespace parcae
