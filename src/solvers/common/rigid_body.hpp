#pragma once
// Rigid bodies (*MAT_RIGID parts): mass and inertia from their nodes' lumped masses, 6-dof
// motion integrated with the central-difference scheme. Angular momentum is the rotational
// state variable, so a torque-free body conserves it exactly; orientation is advanced with the
// exponential map (Rodrigues' formula).
#include <span>

#include "core/exact_sum.hpp"
#include "solvers/common/domain.hpp"

namespace parcae {

/// Mass, centre, inertia and initial velocity/angular momentum from the body's nodes (whose
/// masses and initial velocities are already in the domain). Bodies other than *MAT_RIGID
/// parts add the rotary inertia (and spin) of their shell nodes; a (nearly) singular inertia
/// (a weld between two nodes without rotary inertia) gets 1e-3 of its mean diagonal added to
/// the diagonal so that the body can still turn about the other axes. For welds, also the
/// weld axis positions and the side-2 nodes (see fail_welds).
void init_rigid_body(RigidBody& b, const Domain& d);

/// *ELEMENT_INERTIA at a node of the body: its rotary inertia tensor (global, [xx yy zz xy yz
/// zx]) joins the body's (the node's mass is in its nodal mass already). Call after
/// init_rigid_body; the body keeps its angular velocity (its angular momentum follows).
void add_rigid_inertia(RigidBody& b, const std::array<Real, 6>& t);

/// *PART_INERTIA: replaces the body's mass, centre (xc: XC YC ZC or the NODEID node's initial
/// position), inertia tensor and, when any of in.vel is nonzero, its initial velocity and
/// angular velocity (otherwise the rigid motion init_rigid_body found from the nodes is kept:
/// the same omega, the velocity of the new centre); the body's nodal masses are scaled to sum
/// to TM and their velocities set to the body's (v + omega x r). Call after init_rigid_body.
void set_rigid_inertia(RigidBody& b, Domain& d, const PartInertia& in,
                       const std::array<Real, 3>& xc);

/// The index in d.bodies of the rigid body that moves part pid: the body of the *MAT_RIGID part,
/// or of the part it is merged into (*CONSTRAINED_RIGID_BODIES, followed to the lead);
/// d.bodies.size() when there is none.
std::size_t rigid_body_of_part(const Model& model, const Domain& d, GlobalId pid);

/// *INITIAL_VELOCITY_RIGID_BODY: the bodies of the parts named start with the given velocity at
/// their centre of mass and angular velocity (their nodes' velocities v + omega x r). Call once
/// the bodies are complete (*PART_INERTIA included). InputError for a part that is not rigid.
void apply_rigid_body_velocities(const Model& model, Domain& d);

/// Advance the body by one step: velocities over [t-dt_avg/2, t+dt/2] from the resultant force
/// and moment (about the centre of mass; the caller sums them over the body's nodes), then
/// positions to t + dt. Writes the local body nodes' positions, velocities (x_new - x_old)/dt
/// and angular velocities. presc_v / presc_w: prescribed velocity / angular velocity components
/// this step (NaN = free).
/// A velocity (or angular velocity) component prescribed along a unit direction
/// (*BOUNDARY_PRESCRIBED_MOTION_RIGID DOF 4, -4, 8): v.dir = value; exclusive (DOF -4): the
/// velocity is value * dir (no motion normal to it).
struct DirectedMotion {
  std::array<Real, 3> dir{0, 0, 0};
  Real value = 0;
  bool rotation = false;
  bool exclusive = false;
};

/// Applied after presc_v / presc_w.
void advance_rigid_body(RigidBody& b, Domain& d, Real dt_avg, Real dt,
                        const std::array<Real, 3>& force, const std::array<Real, 3>& moment,
                        const std::array<Real, 3>& presc_v, const std::array<Real, 3>& presc_w,
                        std::span<const DirectedMotion> directed = {});

/// Position of the body's centre of mass at t = 0.
std::array<Real, 3> initial_centre(const RigidBody& b, const Domain& d);

/// One failed weld, for the log.
struct WeldFailure {
  std::size_t body = 0;
  GlobalId id = 0;
  Real fn = 0, fs = 0;  ///< normal and shear constraint force when it failed
  bool by_time = false; ///< failed at its failure time (not by force)
};

/// Number of bodies that can fail (welds), active or not: the layout of weld_force_sums.
std::size_t failable_body_count(const Domain& d);

/// This rank's part of every weld's total nodal force and the force on its side-2 nodes
/// (6 accumulators per failable body, in body order): exact sums of the assembled nodal force
/// d.f over the owned nodes. Weld nodes touched by several ranks' elements are ghosted
/// (restrict_domain), so d.f of an owned weld node is its complete force. Sum over ranks
/// before fail_welds.
std::vector<ExactSum> weld_force_sums(const Domain& d);

/// Decides, from the reduced sums (identical on every rank), which active welds fail at time t
/// and releases them: their nodes become deformable with the body's velocity at the node
/// (v + omega x r) and angular velocity omega; the body becomes inactive.
///
/// Constraint force: with all nodes moving as one translating body (rotation-induced terms
/// neglected), side 2 (mass m2, applied force F2) must receive f_c = m2 (F / M) - F2 from
/// side 1 (F, M: the whole weld's force and mass); for a two-node weld this is
/// f_c = (m2 f1 - m1 f2) / (m1 + m2), the force node N1 passes to N2.
/// fn = f_c . e along the weld axis e (first -> last node, current positions), fs = |f_c - fn e|
/// (coincident axis nodes: fn = 0, fs = |f_c|).
std::vector<WeldFailure> fail_welds(Domain& d, std::span<const ExactSum> sums, Real t);

/// Kinetic energy 0.5 m v.v + 0.5 omega.L at the half step.
Real rigid_body_kinetic_energy(const RigidBody& b);

} // namespace parcae
