#pragma once
// Rigid walls (*RIGIDWALL_PLANAR [_FINITE] [_MOVING], *RIGIDWALL_GEOMETRIC_CYLINDER, _FLAT and
// _PRISM [_MOTION]): a kinematic constraint on the slave nodes' velocities, as LS-DYNA's
// stonewalls. A node that would cross the wall in this step gets the normal velocity that
// brings it exactly onto the wall; friction removes tangential velocity up to mu times the
// normal velocity change (FRIC = 1: no sliding).
#include <vector>

#include "core/exact_sum.hpp"
#include "mesh/model.hpp"
#include "solvers/common/domain.hpp"

namespace parcae {

struct RigidWallState {
  RigidWall wall;
  std::vector<LocalId> nodes;     ///< slave nodes
  std::array<Real, 3> n{};        ///< unit normal (tail -> head)
  std::array<Real, 3> p{};        ///< point on the wall (tail), moves with a moving wall
  std::array<Real, 3> l{}, m{};   ///< in-plane unit axes (finite walls)
  std::array<Real, 3> a{}, b{};   ///< _ORTHO: the friction axes in the wall's plane
  Real velocity = 0;              ///< moving wall: velocity along n
  std::array<Real, 3> motion_v{}; ///< _MOTION wall: its velocity over this step (set_wall_motion)
  Real normal_force = 0;          ///< last step's normal force on the wall (for output)
  /// Last step's impulse the wall gave this rank's owned nodes: normal, then x, y, z (friction
  /// included), exact sums (summed over ranks for rwforc: independent of the decomposition).
  std::array<ExactSum, 4> impulse_last{};
  Real dt_last = 0;
  /// A node further behind the wall than this is left alone (it started there, as in LS-DYNA);
  /// a node behind it by less (round-off of its landing) is held on the wall: 1e-9 of the
  /// model's size, the same on every rank.
  Real behind_tol = 0;
};

std::vector<RigidWallState> make_rigid_walls(const Model& model, const Domain& d);

/// A wall that moves the structure (a moving wall with mass, or a prescribed motion): the work
/// it does is external work.
inline bool wall_does_work(const RigidWall& w) {
  return w.moving || w.motion_lcid != 0;
}

/// A _MOTION wall's velocity over the step [t, t + dt] from its curve (curve(id, t) evaluates a
/// load curve): the velocity at mid-step (OPT 0), or (OPT 1) the one that takes the wall from
/// where it is to the curve's displacement at t + dt (no drift over many steps).
template <class CurveFn> void set_wall_motion(RigidWallState& w, Real t, Real dt, CurveFn curve) {
  const RigidWall& rw = w.wall;
  if (rw.motion_lcid == 0) return;
  Real moved = 0; // the wall's displacement so far along its direction of motion
  for (int i = 0; i < 3; ++i) moved += (w.p[i] - rw.tail[i]) * rw.motion_dir[i];
  const Real speed = rw.motion_opt == 0 ? curve(rw.motion_lcid, t + 0.5 * dt)
                     : dt > 0           ? (curve(rw.motion_lcid, t + dt) - moved) / dt
                                        : 0.0;
  for (int i = 0; i < 3; ++i) w.motion_v[i] = speed * rw.motion_dir[i];
}

/// Constrain the slave nodes' velocities (already updated to the half step) for the step
/// [t, t + dt], while the wall is alive (BIRTH <= t <= DEATH); v_old holds the previous
/// half-step velocities. The work the wall does on the nodes this rank owns (negative when the
/// wall absorbs energy) is added to work, the normal impulse they receive to impulse (exact
/// sums: the totals do not depend on how nodes are split up).
void apply_rigid_wall(RigidWallState& w, Domain& d, const std::vector<Real>& v_old, Real t, Real dt,
                      ExactSum& work, ExactSum& impulse);

/// Move a wall over the step: a moving wall with mass takes the opposite of the total normal
/// impulse the nodes received (impulse, summed over all nodes), then translates; a _MOTION
/// wall translates with its prescribed velocity.
void advance_rigid_wall(RigidWallState& w, Real impulse, Real dt);

} // namespace parcae
