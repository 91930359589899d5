#pragma once
// Rigid bodies (*MAT_RIGID parts): mass and inertia from their nodes' lumped masses, 6-dof
// motion integrated with the central-difference scheme. Angular momentum is the rotational
// state variable, so a torque-free body conserves it exactly; orientation is advanced with the
// exponential map (Rodrigues' formula).
#include "solvers/explicit/domain.hpp"

namespace parcae {

/// Mass, centre, inertia and initial velocity/angular momentum from the body's nodes (whose
/// masses and initial velocities are already in the domain).
void init_rigid_body(RigidBody& b, const Domain& d);

/// Advance the body by one step: velocities over [t-dt_avg/2, t+dt/2] from the resultant force
/// and moment (about the centre of mass; the caller sums them over the body's nodes), then
/// positions to t + dt. Writes the local body nodes' positions, velocities (x_new - x_old)/dt
/// and angular velocities. presc_v / presc_w: prescribed velocity / angular velocity components
/// this step (NaN = free).
void advance_rigid_body(RigidBody& b, Domain& d, Real dt_avg, Real dt,
                        const std::array<Real, 3>& force, const std::array<Real, 3>& moment,
                        const std::array<Real, 3>& presc_v, const std::array<Real, 3>& presc_w);

/// Kinetic energy 0.5 m v.v + 0.5 omega.L at the half step.
Real rigid_body_kinetic_energy(const RigidBody& b);

} // namespace parcae
