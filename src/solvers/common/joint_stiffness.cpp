#include "solvers/common/joint_stiffness.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"
#include "solvers/common/rigid_body.hpp"

namespace parcae {

namespace {

using Vec3 = std::array<Real, 3>;
using Axes = std::array<Vec3, 3>; ///< three unit axes (rows)

Vec3 turn(const std::array<Real, 9>& r, const Vec3& v) {
  return {r[0] * v[0] + r[1] * v[1] + r[2] * v[2], r[3] * v[0] + r[4] * v[1] + r[5] * v[2],
          r[6] * v[0] + r[7] * v[1] + r[8] * v[2]};
}

Real dot(const Vec3& a, const Vec3& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/// The rotation vector, in A's axes, of the rotation taking A's axes to B's.
Vec3 rotation_vector(const Axes& a, const Axes& b) {
  Real q[3][3]; // q[i][j] = a_i . b_j: B's axes in A's components (columns)
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      q[i][j] = dot(a[static_cast<std::size_t>(i)], b[static_cast<std::size_t>(j)]);
  const Real c = std::clamp<Real>(0.5 * (q[0][0] + q[1][1] + q[2][2] - 1), -1, 1);
  const Real th = std::acos(c);
  const Vec3 w{0.5 * (q[2][1] - q[1][2]), 0.5 * (q[0][2] - q[2][0]), 0.5 * (q[1][0] - q[0][1])};
  const Real s = std::sin(th); // |w| = sin(th)
  const Real f = th < 1e-6 ? 1 + th * th / 6 : th / s;
  return {f * w[0], f * w[1], f * w[2]};
}

Axes current_axes(const Axes& a0, const RigidBody& b) {
  return {turn(b.rot, a0[0]), turn(b.rot, a0[1]), turn(b.rot, a0[2])};
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
  // the angles at time 0 (the bodies' orientations then)
  for (JointStiffnessState& s : out) {
    const Axes a0{s.def->axes_a[0], s.def->axes_a[1], s.def->axes_a[2]};
    const Axes b0{s.def->axes_b[0], s.def->axes_b[1], s.def->axes_b[2]};
    s.angle0 = rotation_vector(current_axes(a0, d.bodies[static_cast<std::size_t>(s.body[0])]),
                               current_axes(b0, d.bodies[static_cast<std::size_t>(s.body[1])]));
  }
  return out;
}

std::array<Real, 3> joint_stiffness_angles(const JointStiffnessState& s,
                                           std::span<const RigidBody> bodies) {
  const Axes a0{s.def->axes_a[0], s.def->axes_a[1], s.def->axes_a[2]};
  const Axes b0{s.def->axes_b[0], s.def->axes_b[1], s.def->axes_b[2]};
  const Vec3 r = rotation_vector(current_axes(a0, bodies[static_cast<std::size_t>(s.body[0])]),
                                 current_axes(b0, bodies[static_cast<std::size_t>(s.body[1])]));
  return {r[0] - s.angle0[0], r[1] - s.angle0[1], r[2] - s.angle0[2]};
}

void add_joint_stiffness_moments(std::vector<JointStiffnessState>& js,
                                 std::span<const RigidBody> bodies,
                                 std::span<std::array<Real, 3>> moment) {
  for (JointStiffnessState& s : js) {
    const JointStiffness& j = *s.def;
    const RigidBody& ba = bodies[static_cast<std::size_t>(s.body[0])];
    const RigidBody& bb = bodies[static_cast<std::size_t>(s.body[1])];
    const Axes a{turn(ba.rot, j.axes_a[0]), turn(ba.rot, j.axes_a[1]), turn(ba.rot, j.axes_a[2])};
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
