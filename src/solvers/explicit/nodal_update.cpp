// Nodal update of the explicit cycle: applied loads, force assembly and accelerations, velocity
// update with rigid bodies, welds, prescribed motion, constraints and rigid walls.
#include <algorithm>
#include <cmath>

#include "solvers/common/joint_stiffness.hpp"
#include "solvers/common/joints.hpp"
#include "solvers/explicit/integrator.hpp"

namespace parcae::explicit_detail {

namespace {

/// Removes from v (3 values) its components along the directions dirs[0..n) (unit vectors,
/// not necessarily orthogonal): v is projected onto the complement of their span
/// (Gram-Schmidt, in the given order).
void project_out(Real* v, const std::array<std::array<Real, 3>, 12>& dirs, int n) {
  std::array<std::array<Real, 3>, 3> q{};
  int nq = 0;
  for (int k = 0; k < n && nq < 3; ++k) {
    std::array<Real, 3> u = dirs[static_cast<std::size_t>(k)];
    for (int j = 0; j < nq; ++j) {
      const auto& b = q[static_cast<std::size_t>(j)];
      const Real c = u[0] * b[0] + u[1] * b[1] + u[2] * b[2];
      for (int i = 0; i < 3; ++i) u[i] -= c * b[i];
    }
    const Real len = std::sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    if (len < 1e-9) continue; // in the span already
    for (int i = 0; i < 3; ++i) q[static_cast<std::size_t>(nq)][i] = u[i] / len;
    ++nq;
  }
  for (int j = 0; j < nq; ++j) {
    const auto& b = q[static_cast<std::size_t>(j)];
    const Real c = v[0] * b[0] + v[1] * b[1] + v[2] * b[2];
    for (int i = 0; i < 3; ++i) v[i] -= c * b[i];
  }
}

} // namespace

void Integrator::apply_skew_constraints() {
  const auto& skew = d_.skew_spc;
  for (std::size_t k = 0; k < skew.size();) {
    const LocalId n = skew[k].node;
    std::size_t e = k;
    while (e < skew.size() && skew[e].node == n) ++e;
    const auto nn = static_cast<std::size_t>(n);
    if (d_.rigid_of[nn] < 0)
      for (int rot = 0; rot < 2; ++rot) {
        if (rot == 1 && !(d_.has_rot[nn] && d_.inertia[nn] > 0)) continue;
        std::array<std::array<Real, 3>, 12> dirs{};
        int nd = 0;
        for (int i = 0; i < 3; ++i) // the node's global constraints (already applied) first
          if (d_.spc[nn][static_cast<std::size_t>(3 * rot + i)]) {
            dirs[static_cast<std::size_t>(nd)] = {0, 0, 0};
            dirs[static_cast<std::size_t>(nd++)][static_cast<std::size_t>(i)] = 1;
          }
        for (std::size_t j = k; j < e; ++j)
          for (int a = 0; a < 3; ++a)
            if (skew[j].dof[static_cast<std::size_t>(3 * rot + a)] && nd < 12)
              dirs[static_cast<std::size_t>(nd++)] = skew[j].axes[static_cast<std::size_t>(a)];
        project_out(rot == 0 ? &d_.v[3 * nn] : &d_.w[3 * nn], dirs, nd);
      }
    k = e;
  }
}

std::vector<LocalId> Integrator::nodes_of(bool is_set, GlobalId id) const {
  std::vector<LocalId> out;
  if (!is_set) {
    const LocalId n = d_.local_node(id);
    if (n != kInvalidLocal) out.push_back(n);
    return out;
  }
  const auto it = model_.node_sets.find(id);
  if (it == model_.node_sets.end()) return out;
  for (GlobalId g : it->second.members) {
    const LocalId n = d_.local_node(g);
    if (n != kInvalidLocal) out.push_back(n);
  }
  return out;
}

void Integrator::external_forces(Real t) {
  if (model_.nodal_loads.empty() && model_.body_loads.empty() && !airbags_.damped)
    return; // stay zero
  std::fill(loads_.f.begin(), loads_.f.end(), 0.0);
  std::fill(loads_.m.begin(), loads_.m.end(), 0.0);
  for (const auto& ld : model_.nodal_loads) {
    const Real val = ld.sf * curve(ld.lcid, t);
    for (LocalId n : nodes_of(ld.is_set, ld.target_id)) {
      if (ld.dof >= 1 && ld.dof <= 3) loads_.f[3 * n + ld.dof - 1] += val;
      if (ld.dof >= 5 && ld.dof <= 7) loads_.m[3 * n + ld.dof - 5] += val;
    }
  }
  for (std::size_t k = 0; k < model_.body_loads.size(); ++k) {
    const BodyLoad& bl = model_.body_loads[k];
    const Real acc =
        bl.sf * (relaxing_ && bl.lciddr != 0 ? raw_curve(bl.lciddr, t) : curve(bl.lcid, t));
    // *LOAD_GRAVITY_PART: its part's nodes; the others: *LOAD_BODY_PARTS's (empty: all)
    const std::vector<char>& only = bl.part != 0 ? loads_.part_nodes[k] : loads_.body_nodes;
    if (bl.kind == BodyLoad::Kind::Acceleration) {
      for (std::size_t n = 0; n < d_.nnode; ++n)
        if (only.empty() || only[n]) loads_.f[3 * n + bl.dir] -= d_.mass[n] * acc;
      continue;
    }
    // Spin: centrifugal m omega^2 r, r the node's current distance vector from the axis
    const Real w2 = acc * acc;
    const auto& c = bl.center;
    const auto& e = bl.axis;
    for (std::size_t n = 0; n < d_.nnode; ++n) {
      if (!(only.empty() || only[n])) continue;
      const Real r[3] = {d_.x[3 * n] - c[0], d_.x[3 * n + 1] - c[1], d_.x[3 * n + 2] - c[2]};
      const Real along = r[0] * e[0] + r[1] * e[1] + r[2] * e[2];
      for (int i = 0; i < 3; ++i)
        loads_.f[3 * n + i] += d_.mass[n] * w2 * (r[i] - along * e[static_cast<std::size_t>(i)]);
    }
  }
  if (airbags_.damped) airbag_damping();
}

void Integrator::assemble_and_accelerate(Real t) {
  update_scaled_masses();
  external_forces(t);
  const bool damped = !loads_.damp_f.empty();
  if (damped) damping_forces(t);
  const std::int64_t nn = static_cast<std::int64_t>(d_.nnode);
#pragma omp parallel for schedule(static) if (nn > kParallelNodes)
  for (std::int64_t n = 0; n < nn; ++n) {
    Real f[3] = {loads_.f[3 * n], loads_.f[3 * n + 1], loads_.f[3 * n + 2]};
    if (!contacts_.f.empty())
      for (int i = 0; i < 3; ++i) f[i] += contacts_.f[3 * n + i];
    if (damped)
      for (int i = 0; i < 3; ++i) f[i] += loads_.damp_f[3 * n + i];
    for (std::int64_t k = d_.solid_corner_start[n]; k < d_.solid_corner_start[n + 1]; ++k) {
      const Real* c = &d_.corner_f_solid[3 * d_.solid_corner_list[k]];
      f[0] -= c[0];
      f[1] -= c[1];
      f[2] -= c[2];
    }
    for (std::int64_t k = d_.truss_corner_start[n]; k < d_.truss_corner_start[n + 1]; ++k) {
      const Real* c = &d_.corner_f_truss[3 * d_.truss_corner_list[k]];
      f[0] -= c[0];
      f[1] -= c[1];
      f[2] -= c[2];
    }
    Real m[3] = {loads_.m[3 * n], loads_.m[3 * n + 1], loads_.m[3 * n + 2]};
    if (damped)
      for (int i = 0; i < 3; ++i) m[i] += loads_.damp_m[3 * n + i];
    for (std::int64_t k = d_.beam_corner_start[n]; k < d_.beam_corner_start[n + 1]; ++k) {
      const std::int64_t c = 3 * d_.beam_corner_list[k];
      for (int i = 0; i < 3; ++i) {
        f[i] -= d_.corner_f_beam[c + i];
        m[i] -= d_.corner_m_beam[c + i];
      }
    }
    for (std::int64_t k = d_.shell_corner_start[n]; k < d_.shell_corner_start[n + 1]; ++k) {
      const std::int64_t c = 3 * d_.shell_corner_list[k];
      for (int i = 0; i < 3; ++i) {
        f[i] -= d_.corner_f_shell[c + i];
        m[i] -= d_.corner_m_shell[c + i];
      }
    }
    const Real inv_m = d_.mass[n] > 0 ? 1.0 / d_.mass[n] : 0.0;
    for (int i = 0; i < 3; ++i) {
      d_.f[3 * n + i] = f[i];
      d_.m_ext[3 * n + i] = m[i];
      d_.a[3 * n + i] = f[i] * inv_m;
    }
  }
}

void Integrator::update_velocities(Real dt_avg, Real dt_new, Real t) {
  // t is the time at the start of the step; velocities live at t + dt_new / 2.
  const std::int64_t nn = static_cast<std::int64_t>(d_.nnode);
  // The previous half-step velocities, needed only where loads or constraints do work
  // (f_ext(t) . (v_old + v_new)/2 * dt_avg, summed once v_new is known).
  const bool loads = !model_.nodal_loads.empty() || !model_.body_loads.empty() || airbags_.damped ||
                     !model_.segment_loads.empty();
  const bool track =
      loads || !model_.motions.empty() || !rwalls_.state.empty() || !airbags_.bags.empty();
  // Welds (spotwelds, weld spots): failure decided from reduced (global) constraint forces
  // (of the last force pass, reduced by cycle_reduce), before the nodal update, so that released
  // nodes move as free nodes from this step on.
  if (failable_body_count(d_) > 0) {
    for (const WeldFailure& wf : fail_welds(d_, bodies_.weld_sums, t)) {
      // released nodes take their mass from their corners again (mass scaling during the run)
      mark_scaled_nodes(d_.bodies[wf.body].nodes);
      if (opt_.log)
        *opt_.log << fmt::format(
            "  {} {} failed at cycle {}, time {:.6e}: fn = {:.6e}, fs = "
            "{:.6e}{}\n",
            d_.bodies[wf.body].kind == RigidKind::Spotweld ? "spotweld" : "weld spot", wf.id,
            bodies_.weld_cycle, t, wf.fn, wf.fs, wf.by_time ? " (failure time)" : "");
    }
  }
  std::vector<Real> v_old, w_old;
  const bool damped = !loads_.damp_f.empty();
  if (track || damped) v_old = d_.v;
  if (damped) w_old = d_.w;
#pragma omp parallel for schedule(static) if (nn > kParallelNodes)
  for (std::int64_t n = 0; n < nn; ++n) {
    if (d_.rigid_of[n] >= 0) continue;
    for (int i = 0; i < 3; ++i) d_.v[3 * n + i] += dt_avg * d_.a[3 * n + i];
    if (d_.has_rot[n] && d_.inertia[n] > 0)
      for (int i = 0; i < 3; ++i) d_.w[3 * n + i] += dt_avg * d_.m_ext[3 * n + i] / d_.inertia[n];
    const auto& fix = d_.spc[n];
    for (int i = 0; i < 3; ++i) {
      if (fix[i]) d_.v[3 * n + i] = 0;
      if (fix[i + 3]) d_.w[3 * n + i] = 0;
    }
  }
  // tie nodes' velocities before the constraints that set single nodes' velocities
  const std::vector<Real> tie_v =
      ties_need_velocity_sync() ? tie_velocities() : std::vector<Real>{};
  if (!d_.skew_spc.empty()) apply_skew_constraints();
  // Prescribed motion on nodes (work done by the constraint is external work).
  std::vector<std::array<Real, 3>> presc_v(d_.bodies.size(), {kNaN, kNaN, kNaN});
  std::vector<std::array<Real, 3>> presc_w(d_.bodies.size(), {kNaN, kNaN, kNaN});
  std::vector<std::vector<DirectedMotion>> presc_dir(d_.bodies.size());
  for (const auto& pm : model_.motions) {
    if (t + dt_new < pm.birth || t > pm.death) continue;
    if (pm.dof >= 9 && pm.dof <= 11) {
      rotate_about_axis(pm, t, dt_avg, dt_new, v_old);
      continue;
    }
    // DOF 4 / -4: translation along the unit vector dir; 8: rotation about it (rigid bodies).
    const bool directed = pm.dof == 4 || pm.dof == -4 || pm.dof == 8;
    const bool rot = (pm.dof >= 5 && pm.dof <= 7) || pm.dof == 8;
    const int comp = directed ? 0 : rot ? pm.dof - 5 : pm.dof - 1;
    auto target_velocity = [&](Real vold, Real disp) {
      switch (pm.vad) {
      case MotionKind::Velocity:
        return pm.sf * curve(pm.lcid, t + 0.5 * dt_new);
      case MotionKind::Acceleration:
        return vold + dt_avg * pm.sf * curve(pm.lcid, t);
      case MotionKind::Displacement:
        return (pm.sf * curve(pm.lcid, t + dt_new) - disp) / dt_new;
      }
      return vold;
    };
    auto along = [&](const Real* u) {
      return u[0] * pm.dir[0] + u[1] * pm.dir[1] + u[2] * pm.dir[2];
    };
    if (pm.target == MotionTarget::Rigid) {
      for (std::size_t b = 0; b < d_.bodies.size(); ++b) {
        const RigidBody& body = d_.bodies[b];
        if (body.pid != pm.target_id) continue;
        const std::array<Real, 3> xc0 = initial_centre(body, d_);
        const std::array<Real, 3> disp{body.xc[0] - xc0[0], body.xc[1] - xc0[1],
                                       body.xc[2] - xc0[2]};
        if (directed)
          presc_dir[b].push_back({pm.dir,
                                  target_velocity(along(rot ? body.omega.data() : body.v.data()),
                                                  rot ? 0.0 : along(disp.data())),
                                  rot, pm.dof == -4});
        else if (rot)
          presc_w[b][comp] = target_velocity(body.omega[comp], 0.0);
        else
          presc_v[b][comp] = target_velocity(body.v[comp], disp[comp]);
      }
      continue;
    }
    for (LocalId n : nodes_of(pm.target == MotionTarget::NodeSet, pm.target_id)) {
      if (directed) { // translation (DOF 8 on nodes is refused when the deck is read)
        const std::size_t k = 3 * static_cast<std::size_t>(n);
        const Real u[3] = {d_.x[k] - d_.x0[k], d_.x[k + 1] - d_.x0[k + 1],
                           d_.x[k + 2] - d_.x0[k + 2]};
        const Real vt = target_velocity(along(&v_old[k]), along(u));
        const Real va = along(&d_.v[k]);
        for (int i = 0; i < 3; ++i) {
          const Real vfree = d_.v[k + i];
          const Real vnew = pm.dof == -4 ? vt * pm.dir[i] : vfree + (vt - va) * pm.dir[i];
          d_.v[k + i] = vnew;
          if (d_.owned[n])
            loads_.work.add(d_.mass[n] * (vnew - vfree) * 0.5 * (v_old[k + i] + vnew));
        }
        continue;
      }
      if (rot) {
        d_.w[3 * n + comp] = target_velocity(d_.w[3 * n + comp], 0.0);
        continue;
      }
      const std::size_t k = 3 * static_cast<std::size_t>(n) + comp;
      const Real vfree = d_.v[k];
      const Real vnew = target_velocity(v_old[k] /*previous half step*/, d_.x[k] - d_.x0[k]);
      d_.v[k] = vnew;
      if (d_.owned[n]) loads_.work.add(d_.mass[n] * (vnew - vfree) * 0.5 * (v_old[k] + vnew));
    }
  }
  // Rigid walls. A fixed wall absorbs energy (glstat's rigid wall energy); a moving wall (with
  // mass or a prescribed motion) does work on the structure, which is external work; one with
  // mass takes the total impulse.
  // A moving wall advances with the total impulse in cycle_reduce (nothing reads the walls'
  // state before).
  rwalls_.impulse.clear();
  rwalls_.dt = dt_new;
  for (auto& wall : rwalls_.state) {
    ExactSum impulse;
    set_wall_motion(wall, t, dt_new, [&](GlobalId id, Real tt) { return curve(id, tt); });
    apply_rigid_wall(wall, d_, v_old, t, dt_new,
                     wall_does_work(wall.wall) ? loads_.work : rwalls_.work, impulse);
    if (wall.wall.moving)
      rwalls_.impulse.push_back(impulse);
    else
      advance_rigid_wall(wall, impulse.result(), dt_new);
  }
  if (!tie_v.empty()) sync_tied_velocities(tie_v); // tied nodes follow their segments
  interpolate_velocities(); // *CONSTRAINED_INTERPOLATION: the dependent nodes follow the fits
  // Work of the applied loads (owned nodes; exact sum, so independent of the decomposition).
  if (loads)
    for (std::int64_t n = 0; n < nn; ++n) {
      if (!d_.owned[n]) continue;
      for (int i = 0; i < 3; ++i) {
        const Real fe = loads_.f[3 * n + i];
        if (fe != 0) loads_.work.add(dt_avg * fe * 0.5 * (v_old[3 * n + i] + d_.v[3 * n + i]));
      }
    }
  if (!airbags_.bags.empty()) airbag_work(v_old, dt_avg);
  if (!model_.segment_loads.empty()) segment_pressure_work(v_old, dt_avg);
  if (damped) damping_work(v_old, w_old, dt_avg);
  // Rigid bodies: the global resultants of the last force pass (body_resultant_sums, reduced
  // by cycle_reduce) and the joints' penalty forces (from the replicated body states), then the
  // motion. Failed welds (inactive) are skipped.
  std::vector<std::array<Real, 3>> joint_f, joint_m;
  if (!d_.joints.empty() || !d_.joint_stiffness.empty()) {
    joint_f.assign(d_.bodies.size(), {0, 0, 0});
    joint_m.assign(d_.bodies.size(), {0, 0, 0});
    add_joint_stiffness_moments(d_.joint_stiffness, d_.bodies, joint_m);
    for (GlobalId id :
         add_joint_forces(d_.joints, d_.bodies, relaxing_ ? 0.0 : t, dt_new, joint_f, joint_m))
      if (opt_.log) *opt_.log << fmt::format("  joint {} released at time {:.6e} (TFAIL)\n", id, t);
  }
  for (std::size_t b = 0; b < d_.bodies.size(); ++b) {
    RigidBody& body = d_.bodies[b];
    if (!body.active) continue;
    const ExactSum* acc = &bodies_.body_sums[6 * b];
    std::array<Real, 3> force{acc[0].result(), acc[1].result(), acc[2].result()};
    std::array<Real, 3> moment{acc[3].result(), acc[4].result(), acc[5].result()};
    if (!joint_f.empty())
      for (int i = 0; i < 3; ++i) {
        force[i] += joint_f[b][i];
        moment[i] += joint_m[b][i];
      }
    // *LOAD_RIGID_BODY at the centre of mass, at the time of the force pass
    std::array<Real, 3> load_f{0, 0, 0}, load_m{0, 0, 0};
    if (!rigid_loads_.empty())
      for (const RigidBodyLoad* l : rigid_loads_[b]) {
        const Real val = l->sf * curve(l->lcid, t);
        auto& target = l->dof <= 3 ? load_f : load_m;
        for (int i = 0; i < 3; ++i) target[i] += val * l->dir[i];
      }
    // *DAMPING_GLOBAL on the body: -D ST M v and -D SR L
    std::array<Real, 3> damp_f{0, 0, 0}, damp_m{0, 0, 0};
    if (damped && loads_.damp_d != 0) {
      const auto& sc = model_.control.damping.scale;
      for (std::size_t i = 0; i < 3; ++i) {
        damp_f[i] = -loads_.damp_d * sc[i] * body.mass * body.v[i];
        damp_m[i] = -loads_.damp_d * sc[3 + i] * body.l[i];
      }
    }
    for (int i = 0; i < 3; ++i) {
      force[i] += load_f[i] + damp_f[i];
      moment[i] += load_m[i] + damp_m[i];
    }
    bool prescribed = !presc_dir[b].empty();
    for (int i = 0; i < 3; ++i)
      prescribed = prescribed || !std::isnan(presc_v[b][i]) || !std::isnan(presc_w[b][i]);
    const Real ke_old = prescribed ? rigid_body_kinetic_energy(body) : 0.0;
    const std::array<Real, 3> v_b = body.v, w_b = body.omega;
    advance_rigid_body(body, d_, dt_avg, dt_new, force, moment, presc_v[b], presc_w[b],
                       presc_dir[b]);
    if (damped && loads_.damp_d != 0 && comm_.rank() == 0)
      for (int i = 0; i < 3; ++i)
        loads_.damp_work.add(dt_avg * (damp_f[i] * 0.5 * (v_b[i] + body.v[i]) +
                                       damp_m[i] * 0.5 * (w_b[i] + body.omega[i])));
    // Work of the rigid-body loads (bodies are replicated: rank 0 counts it).
    if (!rigid_loads_.empty() && !rigid_loads_[b].empty() && comm_.rank() == 0)
      for (int i = 0; i < 3; ++i)
        loads_.work.add(dt_avg * (load_f[i] * 0.5 * (v_b[i] + body.v[i]) +
                                  load_m[i] * 0.5 * (w_b[i] + body.omega[i])));
    // Work of a prescribed rigid-body motion (external work, as for nodes): the change of the
    // body's kinetic energy less the work of its resultant force and moment over the step.
    // Bodies are replicated: rank 0 counts it.
    if (prescribed && comm_.rank() == 0) {
      Real w_res = 0;
      for (int i = 0; i < 3; ++i)
        w_res += dt_avg * (force[i] * 0.5 * (v_b[i] + body.v[i]) +
                           moment[i] * 0.5 * (w_b[i] + body.omega[i]));
      loads_.work.add(rigid_body_kinetic_energy(body) - ke_old - w_res);
    }
  }
}

// DOF 9, 10, 11: rotation about an axis parallel to x, y, z through (OFFSET1, OFFSET2) in the
// plane of the other two axes, (i1, i2) = (y, z), (z, x), (x, y); right-handed. The curve is
// read from BIRTH on, starting at its first abscissa (LS-DYNA activates the motion at BIRTH
// "starting from the initial abscissa value of the curve"). Each node turns about the axis by
// the step's angle increment from where it is at t, so its distance from the axis stays what it
// was at BIRTH (radial motion prescribed) and the angle turned since BIRTH is theta(t) -
// theta(BIRTH); the velocity along the axis stays free. The in-plane velocity is the central
// difference (x_target(t + dt) - x(t)) / dt; the constraint's work is external work.
void Integrator::rotate_about_axis(const PrescribedMotion& pm, Real t, Real dt_avg, Real dt_new,
                                   const std::vector<Real>& v_old) {
  const int ax = pm.dof - 9, i1 = (ax + 1) % 3, i2 = (ax + 2) % 3;
  const Real x_first = pm.lcid == 0 ? 0.0 : loads_.curves.at(pm.lcid)->x.front();
  auto f = [&](Real s) {
    return pm.sf * curve(pm.lcid, x_first + std::max<Real>(s - pm.birth, 0.0));
  };
  const Real t0 = std::max(t, pm.birth), t1 = t + dt_new;
  Real dtheta = 0; // VAD 2 and 0: the same for every node
  if (pm.vad == MotionKind::Displacement)
    dtheta = f(t1) - f(t0);
  else if (pm.vad == MotionKind::Velocity)
    dtheta = f(0.5 * (t0 + t1)) * (t1 - t0);
  for (LocalId n : nodes_of(pm.target == MotionTarget::NodeSet, pm.target_id)) {
    const std::size_t k = 3 * static_cast<std::size_t>(n);
    const Real u1 = d_.x[k + i1] - pm.offset1, u2 = d_.x[k + i2] - pm.offset2;
    Real dth = dtheta;
    if (pm.vad == MotionKind::Acceleration) {
      // angular velocity of the node's last step: the angle between its positions at t - dt_old
      // and t (dt_old = 2 dt_avg - dt_new; the first cycle: at rest in the plane)
      const Real dt_old = 2 * dt_avg - dt_new;
      Real w_old = 0;
      if (dt_old > 0) {
        const Real p1 = u1 - dt_old * v_old[k + i1], p2 = u2 - dt_old * v_old[k + i2];
        w_old = std::atan2(p1 * u2 - p2 * u1, p1 * u1 + p2 * u2) / dt_old;
      }
      dth = (w_old + dt_avg * f(t)) * (t1 - t0);
    }
    const Real c = std::cos(dth), s = std::sin(dth);
    const Real target[2] = {pm.offset1 + (c * u1 - s * u2), pm.offset2 + (s * u1 + c * u2)};
    const int comp[2] = {i1, i2};
    for (int j = 0; j < 2; ++j) {
      const std::size_t kk = k + static_cast<std::size_t>(comp[j]);
      const Real vfree = d_.v[kk];
      const Real vnew = (target[j] - d_.x[kk]) / dt_new;
      d_.v[kk] = vnew;
      if (d_.owned[n]) loads_.work.add(d_.mass[n] * (vnew - vfree) * 0.5 * (v_old[kk] + vnew));
    }
  }
}

/// Rigid bodies: resultant force and moment as exact sums of per-node loads and per-corner
/// element forces (each counted by exactly one rank: owned nodes' loads, own corners only;
/// ghost corners exist at weld nodes). Inactive bodies (failed welds) stay zero.
std::vector<ExactSum> Integrator::body_resultant_sums() const {
  std::vector<ExactSum> rb_acc(6 * d_.bodies.size());
  for (std::size_t b = 0; b < d_.bodies.size(); ++b) {
    const RigidBody& body = d_.bodies[b];
    if (!body.active) continue;
    ExactSum* acc = &rb_acc[6 * b];
    auto add = [&](const Real* r, const Real* f, Real sign) {
      // (most corners of a rigid body carry no force: those of its own rigid elements; adding
      // zeros to an exact sum changes nothing, so they cost only this test)
      if (f[0] == 0 && f[1] == 0 && f[2] == 0) return;
      const Real c[3] = {r[1] * f[2] - r[2] * f[1], r[2] * f[0] - r[0] * f[2],
                         r[0] * f[1] - r[1] * f[0]};
      for (int i = 0; i < 3; ++i) {
        acc[i].add(sign * f[i]);
        acc[3 + i].add(sign * c[i]);
      }
    };
    const auto own_solid = static_cast<std::int64_t>(d_.n_local_solid_corners);
    const auto own_shell = static_cast<std::int64_t>(d_.n_local_shell_corners);
    const auto own_truss = static_cast<std::int64_t>(d_.n_local_truss_corners);
    const auto own_beam = static_cast<std::int64_t>(d_.n_local_beam_corners);
    for (LocalId n : body.nodes) {
      const Real r[3] = {d_.x[3 * n] - body.xc[0], d_.x[3 * n + 1] - body.xc[1],
                         d_.x[3 * n + 2] - body.xc[2]};
      if (d_.owned[n]) {
        add(r, &loads_.f[3 * n], 1.0);
        if (!contacts_.f.empty()) add(r, &contacts_.f[3 * n], 1.0);
        for (int i = 0; i < 3; ++i) acc[3 + i].add(loads_.m[3 * n + i]);
      }
      for (auto k = d_.solid_corner_start[n]; k < d_.solid_corner_start[n + 1]; ++k)
        if (d_.solid_corner_list[k] < own_solid)
          add(r, &d_.corner_f_solid[3 * d_.solid_corner_list[k]], -1.0);
      for (auto k = d_.shell_corner_start[n]; k < d_.shell_corner_start[n + 1]; ++k) {
        if (d_.shell_corner_list[k] >= own_shell) continue;
        add(r, &d_.corner_f_shell[3 * d_.shell_corner_list[k]], -1.0);
        for (int i = 0; i < 3; ++i)
          acc[3 + i].add(-d_.corner_m_shell[3 * d_.shell_corner_list[k] + i]);
      }
      for (auto k = d_.truss_corner_start[n]; k < d_.truss_corner_start[n + 1]; ++k)
        if (d_.truss_corner_list[k] < own_truss)
          add(r, &d_.corner_f_truss[3 * d_.truss_corner_list[k]], -1.0);
      for (auto k = d_.beam_corner_start[n]; k < d_.beam_corner_start[n + 1]; ++k) {
        if (d_.beam_corner_list[k] >= own_beam) continue;
        add(r, &d_.corner_f_beam[3 * d_.beam_corner_list[k]], -1.0);
        for (int i = 0; i < 3; ++i)
          acc[3 + i].add(-d_.corner_m_beam[3 * d_.beam_corner_list[k] + i]);
      }
    }
  }
  return rb_acc;
}

void Integrator::check_finite(int cycle) {
  // The model's size: the diagonal of the box of its initial nodes (all ranks read the whole
  // deck, so every rank finds the same).
  if (model_size_ < 0) {
    const NodeTable& nt = model_.nodes;
    model_size_ = 0;
    if (nt.size() > 0) {
      const auto [x0, x1] = std::minmax_element(nt.x.begin(), nt.x.end());
      const auto [y0, y1] = std::minmax_element(nt.y.begin(), nt.y.end());
      const auto [z0, z1] = std::minmax_element(nt.z.begin(), nt.z.end());
      model_size_ = std::hypot(*x1 - *x0, *y1 - *y0, *z1 - *z0);
    }
  }
  // A node that moves farther in one step than the whole model is wide has left physics: a
  // mode faster than the step grew without bound (a stable explicit step moves a node by less
  // than an element). Such a state is stopped here, not passed off as a result.
  const Real dt = run_.lv.dt_old;
  const Real reach2 = model_size_ > 0 && dt > 0 ? std::pow(model_size_ / dt, 2) : 0.0;
  for (std::size_t n = 0; n < d_.nnode; ++n) {
    for (int i = 0; i < 3; ++i)
      if (!std::isfinite(d_.v[3 * n + i]) || !std::isfinite(d_.x[3 * n + i])) {
        fail_local(
            fmt::format("NaN or infinite velocity at node {} in cycle {}", d_.node_id[n], cycle));
        return;
      }
    const Real* v = &d_.v[3 * n];
    if (const Real v2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2]; reach2 > 0 && v2 > reach2) {
      fail_local(fmt::format(
          "node {} moves {:.3e} in one step (velocity {:.3e}) in cycle {}, farther than the "
          "model is wide ({:.3e}): the run is numerically unstable (a mode faster than the time "
          "step allows, or a material or contact instability; see the energies per part in "
          "matsum)",
          d_.node_id[n], std::sqrt(v2) * dt, std::sqrt(v2), cycle, model_size_));
      return;
    }
  }
}

} // namespace parcae::explicit_detail
