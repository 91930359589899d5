#include "solvers/common/joint_stiffness.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <fmt/format.h>

#include "core/error.hpp"
#include "solvers/common/rigid_body.hpp"
#include "solvers/common/vec3.hpp"

namespace parcae {

namespace {

using vec3::dot;
using vec3::Vec3;
using Axes = std::array<Vec3, 3>; ///< three unit axes (rows)

/// q[3 i + j] = a_i . b_j: B's axes in A's components (columns).
std::array<Real, 9> relative(const Axes& a, const Axes& b) {
  std::array<Real, 9> q{};
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 3; ++j) q[3 * i + j] = dot(a[i], b[j]);
  return q;
}

/// The rotation vector of the rotation matrix r (row-major), its angle in [0, pi]: the axis from
/// the antisymmetric part, and near pi (where that vanishes) from the symmetric part.
Vec3 rotation_vector(const std::array<Real, 9>& r) {
  const Real c = std::clamp<Real>(0.5 * (r[0] + r[4] + r[8] - 1), -1, 1);
  const Real th = std::acos(c);
  const Vec3 w{0.5 * (r[7] - r[5]), 0.5 * (r[2] - r[6]), 0.5 * (r[3] - r[1])}; // sin(th) n
  if (th < 3.0) {
    const Real f = th < 1e-6 ? 1 + th * th / 6 : th / std::sin(th);
    return {f * w[0], f * w[1], f * w[2]};
  }
  // near pi: (r + r^T) / 2 = c 1 + (1 - c) n n^T gives n from its largest diagonal term's
  // column; the sign from w
  const Real d[3] = {(r[0] - c) / (1 - c), (r[4] - c) / (1 - c), (r[8] - c) / (1 - c)};
  const int k = d[0] >= d[1] && d[0] >= d[2] ? 0 : d[1] >= d[2] ? 1 : 2;
  Vec3 n{0, 0, 0};
  n[static_cast<std::size_t>(k)] = std::sqrt(std::max<Real>(d[k], 0));
  for (int i = 0; i < 3; ++i)
    if (i != k)
      n[static_cast<std::size_t>(i)] =
          0.5 * (r[3 * i + k] + r[3 * k + i]) / ((1 - c) * n[static_cast<std::size_t>(k)]);
  const Real nn = std::sqrt(dot(n, n));
  if (dot(n, w) < 0) n = {-n[0], -n[1], -n[2]};
  return {th * n[0] / nn, th * n[1] / nn, th * n[2] / nn};
}

Axes current_axes(const Axes& a0, const RigidBody& b) {
  return {vec3::rotate(b.rot, a0[0]), vec3::rotate(b.rot, a0[1]), vec3::rotate(b.rot, a0[2])};
}

} // namespace

std::vector<JointStiffnessState> make_joint_stiffnesses(const Model& model, const Domain& d) {
  std::vector<JointStiffnessState> out;
  for (const JointStiffness& j : model.joint_stiffnesses) {
    JointStiffnessState s;
    s.def = &j;
    for (int side = 0; side < 2; ++side) {
      const GlobalId pid = side == 0 ? j.pida : j.pidb;
      const std::size_t b = rigid_body_of_part(model, d, pid);
      if (b == d.bodies.size())
        throw InputError(j.loc, fmt::format("joint stiffness {}: part {} has no rigid body (no "
                                            "elements?)",
                                            j.id, pid));
      s.body[static_cast<std::size_t>(side)] = static_cast<int>(b);
    }
    if (s.body[0] == s.body[1])
      throw InputError(j.loc, fmt::format("joint stiffness {}: PIDA and PIDB move with the same "
                                          "rigid body",
                                          j.id));
    for (std::size_t k = 0; k < 3; ++k) {
      s.lc[k] = j.lc[k] != 0 ? model.find_curve(j.lc[k]) : nullptr;
      s.dlc[k] = j.dlc[k] != 0 ? model.find_curve(j.dlc[k]) : nullptr;
    }
    out.push_back(s);
  }
  // the relative orientation at time 0 (the bodies' orientations then)
  for (JointStiffnessState& s : out) {
    const Axes a0{s.def->axes_a[0], s.def->axes_a[1], s.def->axes_a[2]};
    const Axes b0{s.def->axes_b[0], s.def->axes_b[1], s.def->axes_b[2]};
    s.q0 = relative(current_axes(a0, d.bodies[static_cast<std::size_t>(s.body[0])]),
                    current_axes(b0, d.bodies[static_cast<std::size_t>(s.body[1])]));
  }
  return out;
}

std::array<Real, 3> joint_stiffness_angles(const JointStiffnessState& s,
                                           std::span<const RigidBody> bodies) {
  const Axes a0{s.def->axes_a[0], s.def->axes_a[1], s.def->axes_a[2]};
  const Axes b0{s.def->axes_b[0], s.def->axes_b[1], s.def->axes_b[2]};
  const std::array<Real, 9> q =
      relative(current_axes(a0, bodies[static_cast<std::size_t>(s.body[0])]),
               current_axes(b0, bodies[static_cast<std::size_t>(s.body[1])]));
  // the rotation since time 0 in A's axes: q q0^T
  std::array<Real, 9> r{};
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 3; ++j)
      for (std::size_t k = 0; k < 3; ++k) r[3 * i + j] += q[3 * i + k] * s.q0[3 * j + k];
  Vec3 v = rotation_vector(r);
  // followed continuously past pi: of the vectors v + 2 pi m u (u = v / |v|, the same
  // rotation), the one nearest the last angles
  const Real len = std::sqrt(dot(v, v));
  if (len > 0) {
    const Vec3 u{v[0] / len, v[1] / len, v[2] / len};
    const Real m = std::round((dot(s.last, u) - len) / (2 * std::numbers::pi));
    for (std::size_t i = 0; i < 3; ++i) v[i] += 2 * std::numbers::pi * m * u[i];
  }
  return v;
}

void add_joint_stiffness_moments(std::vector<JointStiffnessState>& js,
                                 std::span<const RigidBody> bodies,
                                 std::span<std::array<Real, 3>> moment) {
  for (JointStiffnessState& s : js) {
    const JointStiffness& j = *s.def;
    const RigidBody& ba = bodies[static_cast<std::size_t>(s.body[0])];
    const RigidBody& bb = bodies[static_cast<std::size_t>(s.body[1])];
    const Axes a{vec3::rotate(ba.rot, j.axes_a[0]), vec3::rotate(ba.rot, j.axes_a[1]),
                 vec3::rotate(ba.rot, j.axes_a[2])};
    const Vec3 ang = joint_stiffness_angles(s, bodies);
    const Vec3 w_rel{bb.omega[0] - ba.omega[0], bb.omega[1] - ba.omega[1],
                     bb.omega[2] - ba.omega[2]};
    Vec3 m{0, 0, 0}; // the moment resisting each angle (local components)
    for (std::size_t k = 0; k < 3; ++k) {
      const Real phi = ang[k];
      const Real rate = dot(w_rel, a[k]);
      Real r = 0;
      if (s.lc[k]) r += s.lc[k]->eval(phi);
      if (s.dlc[k]) r += s.dlc[k]->eval(rate);
      if (j.fm[k] > 0) { // elastic-plastic friction spring
        Real f = j.es[k] * (phi - s.slip[k]);
        if (std::abs(f) > j.fm[k]) {
          f = f > 0 ? j.fm[k] : -j.fm[k];
          s.slip[k] = phi - f / j.es[k];
        }
        r += f;
      }
      if (j.psa[k] > 0 && phi > j.psa[k]) r += j.es[k] * (phi - j.psa[k]);
      if (j.nsa[k] < 0 && phi < j.nsa[k]) r += j.es[k] * (phi - j.nsa[k]);
      m[k] = r;
      // the work of the resisting moment over the angle's change (trapezoid)
      s.work += 0.5 * (m[k] + s.last_m[k]) * (phi - s.last[k]);
      s.last[k] = phi;
      s.last_m[k] = m[k];
    }
    // on body B: minus the resisting moment along A's axes; on A: the opposite
    for (int i = 0; i < 3; ++i) {
      const Real mb =
          -(m[0] * a[0][static_cast<std::size_t>(i)] + m[1] * a[1][static_cast<std::size_t>(i)] +
            m[2] * a[2][static_cast<std::size_t>(i)]);
      moment[static_cast<std::size_t>(s.body[1])][static_cast<std::size_t>(i)] += mb;
      moment[static_cast<std::size_t>(s.body[0])][static_cast<std::size_t>(i)] -= mb;
    }
  }
}

} // namespace parcae
