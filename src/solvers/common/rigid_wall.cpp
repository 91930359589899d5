#include "solvers/common/rigid_wall.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/format.h>

namespace parcae {

namespace {
using Vec3 = std::array<Real, 3>;
Real dot(const Vec3& a, const Vec3& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
Vec3 normalized(Vec3 a) {
  const Real len = std::sqrt(dot(a, a));
  if (len > 0)
    for (Real& c : a) c /= len;
  return a;
}
Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
} // namespace

std::vector<RigidWallState> make_rigid_walls(const Model& model, const Domain& d) {
  std::vector<RigidWallState> out;
  // the model's size (diagonal of its bounding box), from the model: the same on every rank
  Real extent = 0;
  if (!model.rigid_walls.empty() && model.nodes.size() > 0) {
    const auto span = [](const std::vector<Real>& c) {
      const auto [lo, hi] = std::minmax_element(c.begin(), c.end());
      return *hi - *lo;
    };
    extent = std::hypot(span(model.nodes.x), span(model.nodes.y), span(model.nodes.z));
  }
  for (const auto& w : model.rigid_walls) {
    RigidWallState s;
    s.wall = w;
    s.p = w.tail;
    s.n = normalized({w.head[0] - w.tail[0], w.head[1] - w.tail[1], w.head[2] - w.tail[2]});
    if (dot(s.n, s.n) == 0)
      throw InputError(w.loc,
                       fmt::format("rigid wall {}: tail and head coincide (no normal)", w.id));
    if (w.finite) {
      const Vec3 lv{w.edge_l[0] - w.tail[0], w.edge_l[1] - w.tail[1], w.edge_l[2] - w.tail[2]};
      const Vec3 in_plane{lv[0] - dot(lv, s.n) * s.n[0], lv[1] - dot(lv, s.n) * s.n[1],
                          lv[2] - dot(lv, s.n) * s.n[2]};
      if (!(std::sqrt(dot(in_plane, in_plane)) > 1e-12 * std::sqrt(dot(lv, lv))) ||
          dot(lv, lv) == 0)
        throw InputError(w.loc, fmt::format("rigid wall {}: the edge vector (XHEV, YHEV, ZHEV) "
                                            "from the tail is zero or along the normal, so the "
                                            "wall's edges have no direction",
                                            w.id));
      s.l = normalized(in_plane);
      s.m = cross(s.n, s.l);
    }
    if (w.ortho) { // the friction axes: NODE1 -> NODE2 at time 0, else D, on the wall's plane
      Vec3 dir = w.ortho_dir;
      if (w.ortho_node1 != 0 && w.ortho_node2 != 0) {
        const LocalId i1 = model.node_index(w.ortho_node1), i2 = model.node_index(w.ortho_node2);
        if (i1 == kInvalidLocal || i2 == kInvalidLocal)
          throw InputError(w.loc, fmt::format("rigid wall {}: _ORTHO node {} is not defined", w.id,
                                              i1 == kInvalidLocal ? w.ortho_node1 : w.ortho_node2));
        dir = {model.nodes.x[i2] - model.nodes.x[i1], model.nodes.y[i2] - model.nodes.y[i1],
               model.nodes.z[i2] - model.nodes.z[i1]};
      }
      const Vec3 in_plane{dir[0] - dot(dir, s.n) * s.n[0], dir[1] - dot(dir, s.n) * s.n[1],
                          dir[2] - dot(dir, s.n) * s.n[2]};
      if (!(std::sqrt(dot(in_plane, in_plane)) > 1e-9 * std::sqrt(dot(dir, dir))))
        throw InputError(w.loc, fmt::format("rigid wall {}: the _ORTHO direction is zero or along "
                                            "the wall's normal",
                                            w.id));
      s.a = normalized(in_plane);
      s.b = cross(s.n, s.a);
    }
    s.velocity = w.moving ? w.v0 : 0.0;
    s.behind_tol = 1e-9 * extent;
    std::set<LocalId> excl;
    auto add_set = [&](GlobalId sid, auto&& fn) {
      const auto it = model.node_sets.find(sid);
      if (it == model.node_sets.end()) return;
      for (GlobalId g : it->second.members) {
        const LocalId n = d.local_node(g);
        if (n != kInvalidLocal) fn(n);
      }
    };
    if (w.nsidex) add_set(w.nsidex, [&](LocalId n) { excl.insert(n); });
    if (w.nsid)
      add_set(w.nsid, [&](LocalId n) {
        if (!excl.count(n)) s.nodes.push_back(n);
      });
    else
      for (std::size_t n = 0; n < d.nnode; ++n)
        if (!excl.count(static_cast<LocalId>(n))) s.nodes.push_back(static_cast<LocalId>(n));
    // BOXID: only the nodes inside the box at time 0.
    if (w.boxid != 0) {
      const Box& box = model.boxes.at(w.boxid);
      std::erase_if(s.nodes, [&](LocalId n) {
        const std::size_t k = 3 * static_cast<std::size_t>(n);
        return !box.contains(d.x0[k], d.x0[k + 1], d.x0[k + 2]);
      });
    }
    // Only deformable nodes are constrained (rigid bodies are not walled in this version).
    std::erase_if(s.nodes, [&](LocalId n) { return d.rigid_of[n] >= 0 || d.mass[n] <= 0; });
    out.push_back(std::move(s));
  }
  return out;
}

namespace {

/// The wall's outward normal nrm and the node's gap to it for the node at r (from the wall's
/// point); false when the node is outside the wall's reach (beyond a finite wall's edges, a
/// cylinder's ends, or beside every face of a prism).
bool wall_face(const RigidWallState& w, const Vec3& r, Vec3& nrm, Real& gap) {
  const RigidWall& rw = w.wall;
  if (rw.shape == RigidWall::Shape::Cylinder) {
    const Real ax = dot(r, w.n);
    if (rw.length > 0 && (ax < 0 || ax > rw.length)) return false;
    const Vec3 radial{r[0] - ax * w.n[0], r[1] - ax * w.n[1], r[2] - ax * w.n[2]};
    const Real rad = std::sqrt(dot(radial, radial));
    if (rad == 0) return false;
    for (int i = 0; i < 3; ++i) nrm[i] = radial[i] / rad;
    gap = rad - rw.radius;
    return true;
  }
  const Real c = dot(r, w.n);
  if (!rw.finite) {
    nrm = w.n;
    gap = c - rw.offset;
    return true;
  }
  const Real a = dot(r, w.l), b = dot(r, w.m);
  const bool in_a = a >= 0 && a <= rw.lenl, in_b = b >= 0 && b <= rw.lenm;
  if (rw.shape == RigidWall::Shape::Plane) {
    nrm = w.n;
    gap = c - rw.offset;
    return in_a && in_b;
  }
  // prism: 0 <= a <= LENL, 0 <= b <= LENM, -LENP <= c <= 0; the face the node is in front of
  // (within its rectangle), the one of largest gap where two meet at an edge
  const bool in_c = c >= -rw.lenp && c <= 0;
  bool found = false;
  auto face = [&](bool inside, Real g, const Vec3& dir, Real sign) {
    if (!inside || (found && g <= gap)) return;
    found = true;
    gap = g;
    for (int i = 0; i < 3; ++i) nrm[i] = sign * dir[i];
  };
  face(in_a && in_b, c, w.n, 1);
  face(in_a && in_b, -rw.lenp - c, w.n, -1);
  face(in_b && in_c, a - rw.lenl, w.l, 1);
  face(in_b && in_c, -a, w.l, -1);
  face(in_a && in_c, b - rw.lenm, w.m, 1);
  face(in_a && in_c, -b, w.m, -1);
  return found;
}

} // namespace

void apply_rigid_wall(RigidWallState& w, Domain& d, const std::vector<Real>& v_old, Real t, Real dt,
                      ExactSum& work, ExactSum& impulse) {
  w.impulse_last = {};
  w.dt_last = dt;
  const bool alive = t >= w.wall.birth && t <= w.wall.death;
  const std::int64_t count = alive ? static_cast<std::int64_t>(w.nodes.size()) : 0;
  // the wall's velocity: along n (a moving wall with mass), prescribed (_MOTION), or none
  Vec3 wall_v = w.motion_v;
  if (w.wall.moving)
    for (int i = 0; i < 3; ++i) wall_v[i] = w.velocity * w.n[i];
      // Nodes are independent; each thread sums into its own exact accumulators, merged at the end
      // (exact sums: the result does not depend on the split).
#pragma omp parallel if (count > 4096)
  {
    ExactSum work_t, impulse_t;
    std::array<ExactSum, 3> impulse_xyz_t;
#pragma omp for schedule(static)
    for (std::int64_t k = 0; k < count; ++k) {
      const LocalId n = w.nodes[static_cast<std::size_t>(k)];
      Real* v = &d.v[3 * n];
      const Real* x = &d.x[3 * n];
      const Vec3 r{x[0] - w.p[0], x[1] - w.p[1], x[2] - w.p[2]};
      Vec3 nrm{};
      Real gap = 0;
      if (!wall_face(w, r, nrm, gap)) continue;
      // Nodes already behind the wall (initially penetrating) are left alone, as LS-DYNA does;
      // one behind it by the round-off of its landing is held (and put back on it).
      if (gap < -w.behind_tol) continue;
      const Vec3 vrel{v[0] - wall_v[0], v[1] - wall_v[1], v[2] - wall_v[2]};
      const Real vn = dot(vrel, nrm); // relative normal velocity
      const Real vn_min = -gap / dt;  // lands exactly on the wall
      if (vn >= vn_min) continue;
      const Real dvn = vn_min - vn; // > 0
      Vec3 dv{dvn * nrm[0], dvn * nrm[1], dvn * nrm[2]};
      if (w.wall.ortho) {
        // orthotropic Coulomb: stick removes the tangential velocity; the change is bounded by
        // the ellipse of semi-axes mu_a dvn and mu_b dvn (scaled back along the stick change)
        const Vec3 vt{vrel[0] - vn * nrm[0], vrel[1] - vn * nrm[1], vrel[2] - vn * nrm[2]};
        const Real vtm = std::sqrt(dot(vt, vt));
        const auto& f = w.wall.ortho_fric;
        const Real mua = f[2] + (f[0] - f[2]) * std::exp(-f[4] * vtm);
        const Real mub = f[3] + (f[1] - f[3]) * std::exp(-f[5] * vtm);
        const Real va = dot(vt, w.a), vb = dot(vt, w.b);
        const Real qa = mua > 0 ? va / (mua * dvn) : (va != 0 ? 1e300 : 0.0);
        const Real qb = mub > 0 ? vb / (mub * dvn) : (vb != 0 ? 1e300 : 0.0);
        const Real r = std::hypot(qa, qb);
        Real ca = va, cb = vb; // the stick change
        if (r > 1) {           // sliding: on the ellipse
          if (mua > 0 && mub > 0) {
            ca /= r;
            cb /= r;
          } else { // a frictionless direction: only the other one's limit
            ca = mua > 0 ? std::clamp(va, -mua * dvn, mua * dvn) : 0.0;
            cb = mub > 0 ? std::clamp(vb, -mub * dvn, mub * dvn) : 0.0;
          }
        }
        for (int i = 0; i < 3; ++i) dv[i] -= ca * w.a[i] + cb * w.b[i];
      } else if (w.wall.fric > 0) {
        // tangential velocity relative to the wall
        Vec3 vt{vrel[0] - vn * nrm[0], vrel[1] - vn * nrm[1], vrel[2] - vn * nrm[2]};
        const Real vtm = std::sqrt(dot(vt, vt));
        if (vtm > 0) {
          const Real reduce = w.wall.fric >= 1 ? vtm : std::min(vtm, w.wall.fric * dvn);
          for (int i = 0; i < 3; ++i) dv[i] -= reduce * vt[i] / vtm;
        }
      }
      const Real m = d.mass[n];
      for (int i = 0; i < 3; ++i) {
        v[i] += dv[i];
        if (d.owned[n]) work_t.add(m * dv[i] * 0.5 * (v_old[3 * n + i] + v[i]));
      }
      if (d.owned[n]) {
        impulse_t.add(m * dvn);
        for (int i = 0; i < 3; ++i) impulse_xyz_t[i].add(m * dv[i]);
      }
    }
#pragma omp critical(parcae_rigid_wall)
    {
      work.add(work_t);
      impulse.add(impulse_t);
      w.impulse_last[0].add(impulse_t);
      for (int i = 0; i < 3; ++i) w.impulse_last[1 + i].add(impulse_xyz_t[i]);
    }
  }
}

void advance_rigid_wall(RigidWallState& w, Real impulse, Real dt) {
  w.normal_force = dt > 0 ? impulse / dt : 0;
  if (w.wall.motion_lcid != 0)
    for (int i = 0; i < 3; ++i) w.p[i] += dt * w.motion_v[i];
  if (!w.wall.moving) return;
  // The wall takes the opposite impulse (its kinetic energy is part of the work it does).
  if (w.wall.mass > 0) w.velocity -= impulse / w.wall.mass;
  for (int i = 0; i < 3; ++i) w.p[i] += dt * w.velocity * w.n[i];
}

} // namespace parcae
