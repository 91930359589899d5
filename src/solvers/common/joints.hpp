#pragma once
// Penalty joints between rigid bodies (*CONSTRAINED_JOINT_SPHERICAL, _REVOLUTE, _CYLINDRICAL,
// _TRANSLATIONAL). Each joint holds node pairs (a on body 0, b on body 1) that start coincident;
// a spring k (p_b - p_a) pulls them together: the whole gap for spherical and revolute joints
// (one and two pairs), only its part normal to the joint axis (body 0's N1 -> N3) for
// cylindrical and translational joints (two and three pairs), so that the bodies can slide
// along the axis (and, cylindrical, turn about it). The points move with their bodies
// (p = x_c + R r0), so the forces are computed from the replicated body states: identical on
// every rank. Stiffness per pair: RPS/4 m_eff / (n dt^2) of the largest step so far (n pairs), with
// 1/m_eff the sum over the two bodies of a bound on the largest eigenvalue of the point's inverse
// effective mass W = 1/M + [r]x^T I^-1 [r]x (a fixed body contributes nothing): the n coupled
// springs keep omega dt <= sqrt(RPS)/2.
#include <array>
#include <span>
#include <vector>

#include "mesh/model.hpp"
#include "solvers/common/domain.hpp"

namespace parcae {

/// Joint states for the model's joints: every node must be a node of a rigid body (InputError
/// at the joint's card otherwise), the pairs' first nodes on one body, the second on another.
/// Call once the bodies are initialised (centres final).
std::vector<JointState> make_joints(const Model& model, const Domain& d);

/// Adds each joint's penalty forces to the bodies' resultants: force[b] and moment[b] (about
/// the body's centre) from the bodies' current positions. dt: the step (sets k the first time).
/// A joint with a failure time (_FAILURE TFAIL) is released once t reaches it: returns the ids
/// of the joints released by this call.
std::vector<GlobalId> add_joint_forces(std::vector<JointState>& joints,
                                       std::span<const RigidBody> bodies, Real t, Real dt,
                                       std::span<std::array<Real, 3>> force,
                                       std::span<std::array<Real, 3>> moment);

/// Elastic energy 1/2 k |gap|^2 of the joints at the bodies' current positions (released joints:
/// none).
Real joint_energy(std::span<const JointState> joints, std::span<const RigidBody> bodies);

} // namespace parcae
