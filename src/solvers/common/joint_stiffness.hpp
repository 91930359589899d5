#pragma once
// *CONSTRAINED_JOINT_STIFFNESS_GENERALIZED: moments between two rigid bodies from their relative
// rotation. The angles (phi, theta, psi) are the components, in body A's system (CIDA, turning
// with A), of the rotation vector of B's system's (CIDB, turning with B) rotation relative to A's
// since time 0, followed continuously past half a turn: for a hinge along one of A's axes, that
// component is the hinge angle and the others stay zero. Per component: the curve LC(angle), the
// damping curve DLC(rate), a friction spring (stiffness ES, slipping at FM) and stops (ES times the
// angle beyond them), all opposing the rotation, equal and opposite on the two bodies. The bodies
// are replicated, so the moments are the same on every rank.
#include <array>
#include <span>
#include <vector>

#include "mesh/model.hpp"
#include "solvers/common/domain.hpp"

namespace parcae {

/// The states of the model's joint stiffnesses (the bodies initialised). InputError at the card
/// when a part has no rigid body.
std::vector<JointStiffnessState> make_joint_stiffnesses(const Model& model, const Domain& d);

/// Adds each joint stiffness's moments to the bodies' moments (about their centres) from the
/// bodies' current orientations and angular velocities; accumulates the work (the energy the
/// moments take from the bodies, by the trapezoidal rule over the angles).
void add_joint_stiffness_moments(std::vector<JointStiffnessState>& js,
                                 std::span<const RigidBody> bodies,
                                 std::span<std::array<Real, 3>> moment);

/// The angles (phi, theta, psi) of a joint stiffness at the bodies' current orientations.
std::array<Real, 3> joint_stiffness_angles(const JointStiffnessState& s,
                                           std::span<const RigidBody> bodies);

} // namespace parcae
