#include "solvers/common/joints.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"
#include "solvers/common/vec3.hpp"

namespace parcae {

namespace {

using vec3::rotate;
using vec3::Vec3;

const char* kind_name(Joint::Kind k) {
  switch (k) {
  case Joint::Kind::Spherical:
    return "spherical";
  case Joint::Kind::Revolute:
    return "revolute";
  case Joint::Kind::Cylindrical:
    return "cylindrical";
  case Joint::Kind::Translational:
    return "translational";
  case Joint::Kind::Universal:
    return "universal";
  case Joint::Kind::Planar:
    return "planar";
  }
  return "";
}

/// The gap springs of one joint at the current positions: per pair, the points and the gap
/// vector (normal part only for cylindrical / translational joints).
struct Gaps {
  std::array<std::array<Vec3, 2>, 3> arm{}; ///< p - x_c, [pair][side]
  std::array<Vec3, 3> gap{};
  std::array<Real, 3> along{}; ///< the gap's part along the axis (normal-only joints)
  Vec3 axis{0, 0, 0};
};

Gaps gaps_of(const JointState& j, std::span<const RigidBody> bodies) {
  Gaps g;
  std::array<std::array<Vec3, 2>, 3> p{};
  for (int q = 0; q < j.pairs; ++q)
    for (int s = 0; s < 2; ++s) {
      const RigidBody& b = bodies[static_cast<std::size_t>(j.body[s])];
      g.arm[q][s] = rotate(b.rot, j.r0[q][s]);
      for (int i = 0; i < 3; ++i) p[q][s][i] = b.xc[i] + g.arm[q][s][i];
    }
  const bool normal_only =
      j.kind == Joint::Kind::Cylindrical || j.kind == Joint::Kind::Translational;
  Vec3 axis{0, 0, 0};
  if (normal_only) {
    for (int i = 0; i < 3; ++i) axis[i] = p[1][0][i] - p[0][0][i];
    const Real len = std::sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
    for (Real& a : axis) a /= len;
  }
  for (int q = 0; q < j.pairs; ++q) {
    Vec3 d{p[q][1][0] - p[q][0][0], p[q][1][1] - p[q][0][1], p[q][1][2] - p[q][0][2]};
    if (normal_only) {
      const Real along = d[0] * axis[0] + d[1] * axis[1] + d[2] * axis[2];
      for (int i = 0; i < 3; ++i) d[i] -= along * axis[i];
      g.along[q] = along;
    }
    g.gap[q] = d;
  }
  g.axis = axis;
  return g;
}

/// The point's inverse effective mass W = 1/M 1 + [r]x^T I^-1 [r]x (a force f at the point
/// accelerates it by W f), bounded above by the smaller of its trace and its largest absolute
/// row sum (W is symmetric positive semi-definite). A fixed body (all translations or all
/// rotations held) contributes nothing for that part.
Real inverse_mass_bound(const RigidBody& b, const Vec3& r) {
  const bool fixed_t = b.fix_t[0] && b.fix_t[1] && b.fix_t[2];
  const bool fixed_r = b.fix_r[0] && b.fix_r[1] && b.fix_r[2];
  Real w[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
  if (!fixed_t)
    for (int i = 0; i < 3; ++i) w[4 * i] = 1.0 / b.mass;
  if (!fixed_r) {
    const Real rx[9] = {0, -r[2], r[1], r[2], 0, -r[0], -r[1], r[0], 0};
    const auto& ii = b.inertia0_inv;
    Real t[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0}; // I^-1 [r]x
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        for (int k = 0; k < 3; ++k) t[3 * i + j] += ii[3 * i + k] * rx[3 * k + j];
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        for (int k = 0; k < 3; ++k) w[3 * i + j] -= rx[3 * i + k] * t[3 * k + j];
  }
  const Real trace = w[0] + w[4] + w[8];
  Real rows = 0;
  for (int i = 0; i < 3; ++i)
    rows = std::max(rows, std::abs(w[3 * i]) + std::abs(w[3 * i + 1]) + std::abs(w[3 * i + 2]));
  return std::min(trace, rows);
}

} // namespace

std::vector<JointState> make_joints(const Model& model, const Domain& d) {
  std::vector<JointState> out;
  for (const Joint& j : model.joints) {
    JointState s;
    s.kind = j.kind;
    s.id = j.id;
    s.pairs = j.pairs();
    s.rps = j.rps;
    s.tfail = j.tfail;
    const std::string who = fmt::format("{} joint {}", kind_name(j.kind), j.id);
    for (int q = 0; q < s.pairs; ++q)
      for (int side = 0; side < 2; ++side) {
        const GlobalId nid = j.nodes[static_cast<std::size_t>(2 * q + side)];
        const LocalId n = model.node_index(nid);
        if (n == kInvalidLocal)
          throw InputError(j.loc,
                           fmt::format("{}: N{} = {} is not a node", who, 2 * q + side + 1, nid));
        const int b = d.rigid_of[n];
        if (b < 0)
          throw InputError(j.loc, fmt::format("{}: node {} (N{}) is not on a rigid body (joints "
                                              "join rigid bodies: *MAT_RIGID parts, "
                                              "*CONSTRAINED_EXTRA_NODES)",
                                              who, nid, 2 * q + side + 1));
        if (q == 0)
          s.body[side] = b;
        else if (b != s.body[side])
          throw InputError(j.loc, fmt::format("{}: node {} (N{}) is not on the body of N{}", who,
                                              nid, 2 * q + side + 1, side + 1));
        const RigidBody& body = d.bodies[static_cast<std::size_t>(b)];
        for (int i = 0; i < 3; ++i) s.r0[q][side][i] = d.x0[3 * n + i] - body.xc[i];
      }
    if (s.body[0] == s.body[1])
      throw InputError(j.loc, fmt::format("{}: N1 and N2 are on the same rigid body", who));
    // each pair must start together (a gap would be a spring at its stability limit, loaded)
    auto point = [&](int q, int side) {
      const LocalId n = model.node_index(j.nodes[static_cast<std::size_t>(2 * q + side)]);
      return Vec3{d.x0[3 * n], d.x0[3 * n + 1], d.x0[3 * n + 2]};
    };
    Real size = 0;
    for (int q = 0; q < s.pairs; ++q)
      for (int side = 0; side < 2; ++side)
        for (int i = 0; i < 3; ++i) size = std::max(size, std::abs(s.r0[q][side][i]));
    for (int q = 0; q < s.pairs; ++q) {
      if (j.kind == Joint::Kind::Universal && q == 1) continue; // the cross's arms
      const Vec3 a = point(q, 0), b = point(q, 1);
      const Real gap = std::hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]);
      if (gap > 1e-6 * size)
        throw InputError(j.loc, fmt::format("{}: N{} and N{} are {:g} apart at time 0 (a joint's "
                                            "node pairs must coincide)",
                                            who, 2 * q + 1, 2 * q + 2, gap));
    }
    if (s.pairs == 3) { // translational: N5 off the axis N1 -> N3 (it holds the rotation about it)
      const Vec3 p1 = point(0, 0), p3 = point(1, 0), p5 = point(2, 0);
      const Vec3 ax{p3[0] - p1[0], p3[1] - p1[1], p3[2] - p1[2]};
      const Vec3 r{p5[0] - p1[0], p5[1] - p1[1], p5[2] - p1[2]};
      const Vec3 c{ax[1] * r[2] - ax[2] * r[1], ax[2] * r[0] - ax[0] * r[2],
                   ax[0] * r[1] - ax[1] * r[0]};
      const Real ax_len = std::hypot(ax[0], ax[1], ax[2]);
      if (!(ax_len > 0) || !(std::hypot(c[0], c[1], c[2]) / ax_len > 1e-6 * size))
        throw InputError(j.loc, fmt::format("{}: N5 lies on the axis N1 -> N3 (it must be off "
                                            "the axis to hold the turn about it)",
                                            who));
    }
    if (s.pairs > 1) {
      Real len2 = 0;
      for (int i = 0; i < 3; ++i) {
        const Real a = s.r0[1][0][i] - s.r0[0][0][i];
        len2 += a * a;
      }
      if (!(len2 > 0))
        throw InputError(j.loc, fmt::format("{}: N1 and N3 coincide (they give the joint's "
                                            "axis)",
                                            who));
    }
    if (j.kind == Joint::Kind::Universal || j.kind == Joint::Kind::Planar) {
      const Vec3 p1 = point(0, 0), p2 = point(0, 1), p3 = point(1, 0), p4 = point(1, 1);
      const Vec3 a{p3[0] - p1[0], p3[1] - p1[1], p3[2] - p1[2]};
      const Vec3 b{p4[0] - p2[0], p4[1] - p2[1], p4[2] - p2[2]};
      const Real lb = std::hypot(b[0], b[1], b[2]), la = std::hypot(a[0], a[1], a[2]);
      if (!(lb > 1e-6 * size))
        throw InputError(j.loc, fmt::format("{}: N2 and N4 coincide (N2 -> N4 is the second "
                                            "body's axis)",
                                            who));
      s.dot0 = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
      if (j.kind == Joint::Kind::Universal) {
        const Real cx = a[1] * b[2] - a[2] * b[1], cy = a[2] * b[0] - a[0] * b[2],
                   cz = a[0] * b[1] - a[1] * b[0];
        if (!(std::hypot(cx, cy, cz) > 0.1 * la * lb))
          throw InputError(j.loc, fmt::format("{}: the arms N1 -> N3 and N2 -> N4 are (nearly) "
                                              "parallel: the cross cannot hold the twist (they "
                                              "should be at right angles)",
                                              who));
      }
      if (j.kind == Joint::Kind::Planar) {
        const Real c = s.dot0 / (la * lb); // N2 -> N4 along the normal N1 -> N3
        if (!(c > 1 - 1e-9))
          throw InputError(j.loc, fmt::format("{}: N2 -> N4 is not along the normal N1 -> N3 "
                                              "(N4 must lie on it, with N3)",
                                              who));
      }
    }
    out.push_back(s);
  }
  return out;
}

namespace {

using vec3::diff;

/// A bound on the angular acceleration a unit couple gives the body (the trace of its inverse
/// inertia; a body with its rotations held: 0).
Real inverse_inertia_bound(const RigidBody& b) {
  if (b.fix_r[0] && b.fix_r[1] && b.fix_r[2]) return 0;
  return b.inertia0_inv[0] + b.inertia0_inv[4] + b.inertia0_inv[8];
}

/// Universal and planar joints: their points [pair][side] and arms from the bodies' centres.
struct Points {
  std::array<std::array<Vec3, 2>, 2> p{}, arm{};
};

Points points_of(const JointState& j, std::span<const RigidBody> bodies) {
  Points pt;
  for (int q = 0; q < 2; ++q)
    for (int s = 0; s < 2; ++s) {
      const RigidBody& b = bodies[static_cast<std::size_t>(j.body[s])];
      pt.arm[q][s] = rotate(b.rot, j.r0[q][s]);
      for (int i = 0; i < 3; ++i) pt.p[q][s][i] = b.xc[i] + pt.arm[q][s][i];
    }
  return pt;
}

/// The spring of a universal or planar joint's first pair (whole gap; planar: along the normal
/// n only) and its couple (universal: on the change of the arms' dot product; planar: on the
/// part of the second body's axis in the plane): per body s the force f[s] at point at[s], the
/// couple m[s], and the energy.
struct CrossLoads {
  std::array<Vec3, 2> f{}, at{}, m{};
  Real energy = 0;
};

CrossLoads cross_loads(const JointState& j, const Points& pt) {
  CrossLoads out;
  const Vec3 &p1 = pt.p[0][0], &p2 = pt.p[0][1], &p3 = pt.p[1][0], &p4 = pt.p[1][1];
  const Vec3 a = diff(p3, p1), b = diff(p4, p2), gap = diff(p2, p1);
  if (j.kind == Joint::Kind::Universal) {
    for (int i = 0; i < 3; ++i) {
      out.f[0][i] = j.k[0] * gap[i];
      out.f[1][i] = -j.k[0] * gap[i];
    }
    out.at = {p1, p2};
    const Real g = vec3::dot(a, b) - j.dot0;
    const Vec3 axb = vec3::cross(a, b);
    for (int i = 0; i < 3; ++i) {
      out.m[0][i] = -j.k_rot * g * axb[i];
      out.m[1][i] = j.k_rot * g * axb[i];
    }
    out.energy = 0.5 * j.k[0] * vec3::dot(gap, gap) + 0.5 * j.k_rot * g * g;
    return out;
  }
  // planar: n the first body's normal; the pair held along n, the force on both bodies at p2
  // (the gradient of 1/2 k ((p2 - p1) . n)^2 with n turning with the first body)
  const Real la = std::sqrt(vec3::dot(a, a));
  const Vec3 n{a[0] / la, a[1] / la, a[2] / la};
  const Real gn = vec3::dot(gap, n);
  for (int i = 0; i < 3; ++i) {
    out.f[0][i] = j.k[0] * gn * n[i];
    out.f[1][i] = -j.k[0] * gn * n[i];
  }
  out.at = {p2, p2};
  // the second body's axis b kept along n: energy 1/2 k |d|^2, d = b - (b . n) n
  const Real bn = vec3::dot(b, n);
  const Vec3 d{b[0] - bn * n[0], b[1] - bn * n[1], b[2] - bn * n[2]};
  const Vec3 bxd = vec3::cross(b, d), nxd = vec3::cross(n, d);
  for (int i = 0; i < 3; ++i) {
    out.m[0][i] = j.k_rot * bn * nxd[i];
    out.m[1][i] = -j.k_rot * bxd[i];
  }
  out.energy = 0.5 * j.k[0] * gn * gn + 0.5 * j.k_rot * vec3::dot(d, d);
  return out;
}

/// Sets a universal or planar joint's penalties for step dt: each of its two parts (the pair's
/// spring, the couple) keeps omega dt <= sqrt(RPS) / 2 on its half, as the n pairs of the other
/// joints share it.
void set_cross_penalties(JointState& j, std::span<const RigidBody> bodies, const Points& pt,
                         Real dt) {
  const RigidBody& ba = bodies[static_cast<std::size_t>(j.body[0])];
  const RigidBody& bb = bodies[static_cast<std::size_t>(j.body[1])];
  const Vec3 at = j.kind == Joint::Kind::Planar ? pt.p[0][1] : pt.p[0][0];
  const Real inv_m = inverse_mass_bound(ba, diff(at, ba.xc)) + inverse_mass_bound(bb, pt.arm[0][1]);
  j.k[0] = inv_m > 0 ? j.rps * 0.25 / (inv_m * dt * dt * 2) : 0;
  const Real inv_i = inverse_inertia_bound(ba) + inverse_inertia_bound(bb);
  const Vec3 a = diff(pt.p[1][0], pt.p[0][0]), b = diff(pt.p[1][1], pt.p[0][1]);
  // the couple's rotational stiffness: universal k_rot |a|^2 |b|^2, planar k_rot |b|^2
  const Real arm2 =
      j.kind == Joint::Kind::Universal ? vec3::dot(a, a) * vec3::dot(b, b) : vec3::dot(b, b);
  j.k_rot = inv_i > 0 ? j.rps * 0.25 / (inv_i * dt * dt * 2 * arm2) : 0;
}

} // namespace

std::vector<GlobalId> add_joint_forces(std::vector<JointState>& joints,
                                       std::span<const RigidBody> bodies, Real t, Real dt,
                                       std::span<std::array<Real, 3>> force,
                                       std::span<std::array<Real, 3>> moment) {
  std::vector<GlobalId> released;
  for (JointState& j : joints) {
    if (!j.failed && j.tfail > 0 && t >= j.tfail) {
      j.failed = true;
      released.push_back(j.id);
    }
    if (j.failed) continue;
    if (j.kind == Joint::Kind::Universal || j.kind == Joint::Kind::Planar) {
      const Points pt = points_of(j, bodies);
      if (j.dt_k <= 0 || dt > j.dt_k) {
        j.dt_k = dt;
        set_cross_penalties(j, bodies, pt, dt);
      }
      const CrossLoads l = cross_loads(j, pt);
      for (int s = 0; s < 2; ++s) {
        const auto bi = static_cast<std::size_t>(j.body[s]);
        const Vec3 rf = vec3::cross(diff(l.at[s], bodies[bi].xc), l.f[s]);
        for (int i = 0; i < 3; ++i) {
          force[bi][i] += l.f[s][i];
          moment[bi][i] += rf[i] + l.m[s][i];
        }
      }
      continue;
    }
    const Gaps g = gaps_of(j, bodies);
    // the stiffness follows the step as it grows (as contact SOFT = 1's): never above the
    // stability bound of the current step
    if (j.dt_k <= 0 || dt > j.dt_k) {
      j.dt_k = dt;
      for (int q = 0; q < j.pairs; ++q) {
        // per pair: k_q W_q <= 1/(4 n dt^2), so that the coupled springs of the n pairs
        // (sum over q of k_q lambda_max(W_q) bounds the system's omega^2) keep omega dt <= 1/2
        Real inv_m = 0;
        for (int s = 0; s < 2; ++s)
          inv_m += inverse_mass_bound(bodies[static_cast<std::size_t>(j.body[s])], g.arm[q][s]);
        j.k[q] = inv_m > 0 ? j.rps * 0.25 / (inv_m * dt * dt * j.pairs) : 0;
      }
    }
    for (int q = 0; q < j.pairs; ++q)
      for (int s = 0; s < 2; ++s) {
        const auto b = static_cast<std::size_t>(j.body[s]);
        const Real sign = s == 0 ? 1.0 : -1.0; // a is pulled towards b, b towards a
        const Real k = sign * j.k[q];
        const Vec3 f{k * g.gap[q][0], k * g.gap[q][1], k * g.gap[q][2]};
        // the force acts on body 0 at the point of its axis facing p_b (p_a + along axis: the
        // gradient of 1/2 k |gap|^2 with the axis turning with body 0), on body 1 at p_b
        Vec3 r = g.arm[q][s];
        if (s == 0)
          for (int i = 0; i < 3; ++i) r[i] += g.along[q] * g.axis[i];
        for (int i = 0; i < 3; ++i) force[b][i] += f[i];
        moment[b][0] += r[1] * f[2] - r[2] * f[1];
        moment[b][1] += r[2] * f[0] - r[0] * f[2];
        moment[b][2] += r[0] * f[1] - r[1] * f[0];
      }
  }
  return released;
}

Real joint_energy(std::span<const JointState> joints, std::span<const RigidBody> bodies) {
  Real e = 0;
  for (const JointState& j : joints) {
    if (j.failed) continue;
    if (j.kind == Joint::Kind::Universal || j.kind == Joint::Kind::Planar) {
      e += cross_loads(j, points_of(j, bodies)).energy;
      continue;
    }
    const Gaps g = gaps_of(j, bodies);
    for (int q = 0; q < j.pairs; ++q)
      e += 0.5 * j.k[q] *
           (g.gap[q][0] * g.gap[q][0] + g.gap[q][1] * g.gap[q][1] + g.gap[q][2] * g.gap[q][2]);
  }
  return e;
}

} // namespace parcae
