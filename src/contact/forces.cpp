// Penalty contact forces: per-node evaluation of candidate segments (OpenMP over the nodes of a
// pass, results stored per node), then a serial gather in a fixed order (pass, node ascending,
// node then segment corners): bitwise independent of the thread count.
#include <algorithm>
#include <cmath>

#include "contact/contact.hpp"
#include "contact/cull.hpp"

namespace parcae::contact {

namespace {

struct PairEval {
  bool valid = false;
  Real pen = 0; ///< penetration (> 0 in contact)
  int side = 1;
  Projection pr;
};

inline bool contains(const Segment& c, LocalId n) {
  return c[0] == n || c[1] == n || c[2] == n || c[3] == n;
}

// listed: seg comes from the node's candidate list, which the search already cleared of the
// segments that hold the node or touch its neighbourhood. cull: the early rejection of pairs
// that cannot be in contact; the local tracking reads r.pr.inside (false when culled), so this
// test is part of the results and is kept exactly as it is (the force kernel's candidate loop,
// which uses only valid pairs, screens them first with outside_box and off_plane).
PairEval eval_pair(const Interface& ifc, const Pass& ps, std::size_t k, LocalId seg,
                   std::span<const Real> x, bool use_history, bool cull = true,
                   bool listed = false) {
  PairEval r;
  const Surface& s = surface_of(ifc, ps);
  const Segment& c = s.seg[static_cast<std::size_t>(seg)];
  const LocalId node = ps.nodes[k];
  if (!listed && (contains(c, node) || in_neighbourhood(ps, k, c))) return r;
  if (!s.active.empty() && !s.active[static_cast<std::size_t>(seg)]) return r;
  const Real* q = &x[3 * static_cast<std::size_t>(node)];
  if (cull) {
    // Early rejection. A node in contact (0 < pen <= release depth) lies within ht_node +
    // ht_seg + release depth of the segment's bounding box; and near its mean plane (with a
    // warp allowance), inside its edges (with a margin of 1e-3 of the edge length plus the
    // warp): most candidates of a flat shell wall (the coplanar neighbours) are rejected here.
    SegCull g;
    cull_box(c, x, g);
    const Real reach = ps.node_half_t[k] + ps.seg_half_t[static_cast<std::size_t>(seg)] +
                       release_depth(ifc, ps, seg);
    if (outside_box(g, q, reach)) return r;
    cull_plane(c, x, g);
    if (g.plane) {
      const Real dq = (q[0] - g.cen[0]) * g.nrm[0] + (q[1] - g.cen[1]) * g.nrm[1] +
                      (q[2] - g.cen[2]) * g.nrm[2];
      if (std::abs(dq) > reach + g.warp) return r;
      for (int a = 0; a < g.nv; ++a) {
        const Real* pa = &x[3 * static_cast<std::size_t>(c[a])];
        const Real* pb = &x[3 * static_cast<std::size_t>(c[(a + 1) % g.nv])];
        const Real e[3] = {pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]};
        const Real w[3] = {q[0] - pa[0], q[1] - pa[1], q[2] - pa[2]};
        // (e x w) . n: > 0 inside (counter-clockwise about n); its size is |e| x distance
        const Real side = (e[1] * w[2] - e[2] * w[1]) * g.nrm[0] +
                          (e[2] * w[0] - e[0] * w[2]) * g.nrm[1] +
                          (e[0] * w[1] - e[1] * w[0]) * g.nrm[2];
        const Real le = std::sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
        if (side < -le * (1e-3 * le + 2 * g.warp)) return r;
      }
    }
  }
  r.pr = project(c, x, q);
  if (!r.pr.inside) return r;
  Real d = r.pr.dist;
  // automatic: either side of shell segments; solid faces (no thickness) keep their outward
  // orientation (a node that crossed a zero-thickness face could not tell its side)
  if (ifc.p.automatic && ps.seg_half_t[static_cast<std::size_t>(seg)] > 0) {
    if (use_history && ps.tracked[k] == seg && ps.contact_side[k] != 0)
      r.side = ps.contact_side[k];
    else
      r.side = r.pr.dist >= 0 ? 1 : -1;
    d *= r.side;
  }
  r.pen = ps.node_half_t[k] + ps.seg_half_t[static_cast<std::size_t>(seg)] - d;
  // Grazing penetrations do not start a contact: a node that lies in the plane of a face (the
  // corner of a bar pressed squarely onto an aligned bar lies in the other bar's side faces; a
  // plate node under a sliding block lies in the block's leading face) would otherwise take
  // that face as its "nearest" contact. A new contact needs 1e-5 of the segment size; the
  // segment the node is already in contact with keeps it down to round-off.
  const Real size = std::sqrt(s.area0[static_cast<std::size_t>(seg)]);
  const bool tracked = use_history && ps.tracked[k] == seg;
  r.valid = r.pen > (tracked ? 1e-9 : 1e-5) * size;
  return r;
}

// Among the segments a node penetrates, the nearest contact surface (smallest penetration)
// wins, ties to the lower segment index: a node inside a solid near its top face penetrates the
// side faces' planes too, and must be pushed out through the nearest face (LS-DYNA's nearest
// segment rule). Independent of the evaluation order.
inline bool better(const PairEval& a, LocalId sa, const PairEval& b, LocalId sb) {
  return a.pen < b.pen || (a.pen == b.pen && sa < sb);
}

Real seg_size(const Surface& s, LocalId seg) {
  return std::sqrt(s.area0[static_cast<std::size_t>(seg)]);
}

// Tiebreak: the unit mean normal of a segment, (x2 - x0) x (x3 - x1) (triangles: (x1 - x0) x
// (x2 - x0), the same orientation), and the point with shape functions N.
std::array<Real, 3> mean_normal(const Segment& c, std::span<const Real> x) {
  const Real* p0 = &x[3 * static_cast<std::size_t>(c[0])];
  const Real* p1 = &x[3 * static_cast<std::size_t>(c[1])];
  const Real* p2 = &x[3 * static_cast<std::size_t>(c[2])];
  const Real* p3 = &x[3 * static_cast<std::size_t>(c[3])];
  Real a[3], b[3];
  for (int i = 0; i < 3; ++i) {
    a[i] = c[2] == c[3] ? p1[i] - p0[i] : p2[i] - p0[i];
    b[i] = c[2] == c[3] ? p2[i] - p0[i] : p3[i] - p1[i];
  }
  std::array<Real, 3> n{a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
                        a[0] * b[1] - a[1] * b[0]};
  const Real l = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  if (l > 0)
    for (Real& v : n) v /= l;
  return n;
}

std::array<Real, 3> point_at(const Segment& c, const Real* N, std::span<const Real> x) {
  std::array<Real, 3> p{0, 0, 0};
  const int na = c[2] == c[3] ? 3 : 4;
  for (int a = 0; a < na; ++a)
    for (int i = 0; i < 3; ++i) p[i] += N[a] * x[3 * static_cast<std::size_t>(c[a]) + i];
  return p;
}

// Ties node k of a pass to segment e at shape functions N and distance gap along the mean normal.
void make_tie(Pass& ps, std::size_t k, LocalId e, const std::array<Real, 4>& N, Real gap) {
  ps.tie_state[k] = 1;
  ps.tie_seg[k] = e;
  for (int a = 0; a < 4; ++a) ps.tie_shape[4 * k + a] = N[a];
  ps.tie_gap[k] = gap;
}

// The tie's corner forces: with r = q - p - gap n (F = -k r on the node), the energy
// 1/2 k |r|^2 gives on corner a  k N_a r + k (dc/dx_a)^T w, w = gap (I - n n^T) r / |c|, where
// c = A x B is the unnormalised mean normal (quads: A = x2 - x0, B = x3 - x1; triangles: A =
// x1 - x0, B = x2 - x0): dc = dA x B + A x dB.
void tie_corner_forces(const Segment& c, std::span<const Real> x, Real gap, Real kp, const Real* F,
                       const Real* N, Real* out) {
  const Real* p0 = &x[3 * static_cast<std::size_t>(c[0])];
  const Real* p1 = &x[3 * static_cast<std::size_t>(c[1])];
  const Real* p2 = &x[3 * static_cast<std::size_t>(c[2])];
  const Real* p3 = &x[3 * static_cast<std::size_t>(c[3])];
  const bool tri = c[2] == c[3];
  Real A[3], B[3];
  for (int i = 0; i < 3; ++i) {
    A[i] = tri ? p1[i] - p0[i] : p2[i] - p0[i];
    B[i] = tri ? p2[i] - p0[i] : p3[i] - p1[i];
  }
  const Real C[3] = {A[1] * B[2] - A[2] * B[1], A[2] * B[0] - A[0] * B[2],
                     A[0] * B[1] - A[1] * B[0]};
  const Real lc = std::sqrt(C[0] * C[0] + C[1] * C[1] + C[2] * C[2]);
  Real w[3] = {0, 0, 0};
  if (lc > 0 && gap != 0) {
    const Real r[3] = {-F[0] / kp, -F[1] / kp, -F[2] / kp};
    const Real n[3] = {C[0] / lc, C[1] / lc, C[2] / lc};
    const Real rn = r[0] * n[0] + r[1] * n[1] + r[2] * n[2];
    for (int i = 0; i < 3; ++i) w[i] = gap * (r[i] - rn * n[i]) / lc;
  }
  auto cross = [](const Real* u, const Real* v, Real* o) {
    o[0] = u[1] * v[2] - u[2] * v[1];
    o[1] = u[2] * v[0] - u[0] * v[2];
    o[2] = u[0] * v[1] - u[1] * v[0];
  };
  Real bw[3], aw[3];
  cross(B, w, bw);
  cross(A, w, aw);
  Real extra[4][3];
  for (int i = 0; i < 3; ++i) {
    if (tri) {
      extra[0][i] = aw[i] - bw[i];
      extra[1][i] = bw[i];
      extra[2][i] = -aw[i];
      extra[3][i] = 0;
    } else {
      extra[0][i] = -bw[i];
      extra[1][i] = aw[i];
      extra[2][i] = bw[i];
      extra[3][i] = -aw[i];
    }
  }
  for (int a = 0; a < 4; ++a)
    for (int i = 0; i < 3; ++i) out[3 * a + i] = -N[a] * F[i] + kp * extra[a][i];
}

} // namespace

std::size_t tie_initial_contacts(const Interface& ifc, ContactState& st, std::span<const Real> x) {
  if (ifc.p.tiebreak == 0 && !ifc.p.tied) return 0;
  const bool tied = ifc.p.tied;
  std::size_t count = 0;
  for (Pass& ps : st.passes) {
    ps.set_stale();
    const Surface& s = surface_of(ifc, ps);
    for (std::size_t k = 0; k < ps.nodes.size(); ++k) {
      if (!ifc.node_on(ps.nodes[k]) || ps.tie_state[k] != 0) continue;
      PairEval best;
      LocalId best_seg = kInvalidLocal;
      for (std::int64_t j = ps.cand_start[k]; j < ps.cand_start[k + 1]; ++j) {
        const LocalId e = ps.cand_seg[static_cast<std::size_t>(j)];
        PairEval r = eval_pair(ifc, ps, k, e, x, false, !tied);
        if (!r.pr.inside) continue;
        if (tied) { // within reach: the normal distance |d| (as |pen|) within the tie distance
          const Segment& c = s.seg[static_cast<std::size_t>(e)];
          const std::array<Real, 3> nm = mean_normal(c, x), pt = point_at(c, r.pr.n.data(), x);
          const Real* q = &x[3 * static_cast<std::size_t>(ps.nodes[k])];
          const Real d = (q[0] - pt[0]) * nm[0] + (q[1] - pt[1]) * nm[1] + (q[2] - pt[2]) * nm[2];
          const Real reach =
              ifc.p.tie_distance > 0
                  ? ifc.p.tie_distance
                  : std::max(1.2 * (ps.node_half_t[k] + ps.seg_half_t[static_cast<std::size_t>(e)]),
                             0.05 * seg_size(s, e));
          if (std::abs(d) > reach) continue;
          r.pen = std::abs(d);
        } else if (r.pen < -ifc.p.tie_tolerance * seg_size(s, e) ||
                   r.pen > release_depth(ifc, ps, e)) {
          continue; // in contact: the gap (-pen) within the tolerance, not past the release depth
        }
        if (best_seg == kInvalidLocal || std::abs(r.pen) < std::abs(best.pen) ||
            (std::abs(r.pen) == std::abs(best.pen) && e < best_seg)) {
          best = r;
          best_seg = e;
        }
      }
      if (best_seg == kInvalidLocal) continue;
      const Segment& c = s.seg[static_cast<std::size_t>(best_seg)];
      const std::array<Real, 3> nm = mean_normal(c, x);
      const std::array<Real, 3> pt = point_at(c, best.pr.n.data(), x);
      const Real* q = &x[3 * static_cast<std::size_t>(ps.nodes[k])];
      const Real gap = (q[0] - pt[0]) * nm[0] + (q[1] - pt[1]) * nm[1] + (q[2] - pt[2]) * nm[2];
      make_tie(ps, k, best_seg, best.pr.n, gap);
      ps.tracked[k] = best_seg;
      ps.contact_side[k] = static_cast<std::int8_t>(best.side);
      ++count;
    }
  }
  return count;
}

bool nodes_are_secondary(const Interface& ifc, const Pass& ps) {
  return ps.on_main || ifc.p.type == ContactType::single_surface;
}

Real capture_depth(const Interface& ifc, const Pass& ps, LocalId seg) {
  const Real release = release_depth(ifc, ps, seg);
  if (ifc.p.automatic || ifc.p.penmax > 0) return release;
  const Real ht = ps.seg_half_t[static_cast<std::size_t>(seg)];
  const Real ref = ht > 0 ? 2 * ht : seg_size(surface_of(ifc, ps), seg);
  return std::min(release, 0.4 * ref);
}

Real release_depth(const Interface& ifc, const Pass& ps, LocalId seg) {
  const ContactParams& p = ifc.p;
  const Surface& s = surface_of(ifc, ps);
  const auto e = static_cast<std::size_t>(seg);
  // shells: their contact thickness; solid faces: their element's thickness (Surface::depth0)
  const Real ht = ps.seg_half_t[e], d0 = e < s.depth0.size() ? s.depth0[e] : 0.0;
  const Real ref = ht > 0 ? 2 * ht : d0 > 0 ? d0 : seg_size(s, seg);
  return (p.penmax > 0 ? p.penmax : p.automatic ? 0.4 : p.xpene) * ref;
}

Real pair_stiffness(const Interface& ifc, const ContactState& st, const Pass& ps, LocalId node,
                    LocalId seg, std::span<const Real> mass, std::size_t index) {
  const ContactParams& p = ifc.p;
  const Surface& s = surface_of(ifc, ps);
  Real k = p.slsfac * ps.sf * s.k0[static_cast<std::size_t>(seg)];
  if (p.penopt == 1 && !ps.node_k.empty()) {
    // PENOPT 1: the smaller of the segment's and the node's own stiffness (a soft surface on a
    // stiff one gets the soft one's; the stiff one's would need a far smaller step)
    const auto kn =
        index < ps.nodes.size() && ps.nodes[index] == node
            ? index
            : static_cast<std::size_t>(std::lower_bound(ps.nodes.begin(), ps.nodes.end(), node) -
                                       ps.nodes.begin());
    if (kn < ps.nodes.size() && ps.nodes[kn] == node && ps.node_k[kn] > 0)
      k = std::min(k, p.slsfac * ps.node_k[kn]);
  }
  if (p.soft == 1 && st.dt_c > 0) {
    const Segment& c = s.seg[static_cast<std::size_t>(seg)];
    Real mmin = mass[static_cast<std::size_t>(c[0])];
    for (int a = 1; a < 4; ++a) mmin = std::min(mmin, mass[static_cast<std::size_t>(c[a])]);
    k = std::max(k, soft1_stiffness(p.sofscl, mass[static_cast<std::size_t>(node)], mmin, st.dt_c));
  }
  return k;
}

namespace {

Real damped_normal_force(Real vdc, Real kp, Real fnorm, LocalId node, const Segment& c,
                         const std::array<Real, 4>& n, const Real (&nv)[3], std::span<const Real> v,
                         std::span<const Real> mass) {
  // VDC: viscous normal damping, VDC percent of critical for the node on the segment:
  // c = VDC/100 * 2 m omega, m = min(m_node, m_seg), omega = sqrt(k (m_node + m_seg) /
  // (m_node m_seg)), m_seg = the shape-weighted mass of the segment's nodes (LS-DYNA's
  // manual). The force opposes the relative normal velocity; the total normal force is never
  // tensile.
  const auto ni = static_cast<std::size_t>(node);
  const Real ms = mass[ni];
  Real mm = 0, vn = 0;
  for (int a = 0; a < 4; ++a) mm += n[a] * mass[static_cast<std::size_t>(c[a])];
  if (!(ms > 0) || !(mm > 0)) return fnorm;
  for (int i = 0; i < 3; ++i) {
    Real vr = v[3 * ni + i];
    for (int a = 0; a < 4; ++a) vr -= n[a] * v[3 * static_cast<std::size_t>(c[a]) + i];
    vn += vr * nv[i];
  }
  const Real omega = std::sqrt(kp * (ms + mm) / (ms * mm));
  const Real cdamp = vdc / 100.0 * 2.0 * std::min(ms, mm) * omega;
  return std::max<Real>(fnorm - cdamp * vn, 0);
}

void refresh_live(const Interface& ifc, Pass& ps) {
  if (ps.live_valid) return;
  ps.live.clear();
  for (std::size_t k = 0; k < ps.nodes.size(); ++k) {
    if (!ps.is_mine(k)) continue;
    const bool cand = !ps.cand_start.empty() && ps.cand_start[k + 1] > ps.cand_start[k];
    const bool held = ps.tracked[k] != kInvalidLocal || ps.seg_of[k] != kInvalidLocal ||
                      (!ps.tie_state.empty() && ps.tie_state[k] == 1);
    if (cand || held) ps.live.push_back(static_cast<LocalId>(k));
  }
  // the segments of their candidate lists
  ps.geom_slot.assign(surface_of(ifc, ps).size(), kInvalidLocal);
  ps.hot_seg.clear();
  for (LocalId kl : ps.live) {
    const auto k = static_cast<std::size_t>(kl);
    if (ps.cand_start.empty()) break;
    for (std::int64_t j = ps.cand_start[k]; j < ps.cand_start[k + 1]; ++j) {
      const LocalId e = ps.cand_seg[static_cast<std::size_t>(j)];
      if (ps.geom_slot[static_cast<std::size_t>(e)] != kInvalidLocal) continue;
      ps.geom_slot[static_cast<std::size_t>(e)] = 0;
      ps.hot_seg.push_back(e);
    }
  }
  std::sort(ps.hot_seg.begin(), ps.hot_seg.end());
  for (std::size_t i = 0; i < ps.hot_seg.size(); ++i)
    ps.geom_slot[static_cast<std::size_t>(ps.hot_seg[i])] = static_cast<LocalId>(i);
  // (the constant part: release depth and thickness)
  ps.geom.resize(ps.hot_seg.size());
  for (std::size_t i = 0; i < ps.hot_seg.size(); ++i) {
    ps.geom[i].release = release_depth(ifc, ps, ps.hot_seg[i]);
    ps.geom[i].half_t = ps.seg_half_t[static_cast<std::size_t>(ps.hot_seg[i])];
  }
  // the candidates by row (a counting sort of the live nodes' lists)
  ps.row_start.assign(ps.hot_seg.size() + 1, 0);
  auto each_candidate = [&](auto&& fn) {
    if (ps.cand_start.empty()) return;
    for (LocalId kl : ps.live) {
      const auto k = static_cast<std::size_t>(kl);
      for (std::int64_t j = ps.cand_start[k]; j < ps.cand_start[k + 1]; ++j)
        fn(kl, j,
           static_cast<std::size_t>(
               ps.geom_slot[static_cast<std::size_t>(ps.cand_seg[static_cast<std::size_t>(j)])]));
    }
  };
  each_candidate([&](LocalId, std::int64_t, std::size_t row) { ++ps.row_start[row + 1]; });
  for (std::size_t i = 0; i < ps.hot_seg.size(); ++i) ps.row_start[i + 1] += ps.row_start[i];
  const auto nr = static_cast<std::size_t>(ps.row_start.back());
  ps.row_x.resize(nr);
  ps.row_htn.resize(nr);
  ps.row_cand.resize(nr);
  ps.row_pass.assign(nr, 0);
  std::vector<std::int64_t> pos(ps.row_start.begin(), ps.row_start.end() - 1);
  each_candidate([&](LocalId k, std::int64_t j, std::size_t row) {
    const auto at = static_cast<std::size_t>(pos[row]++);
    ps.row_x[at] = 3 * static_cast<std::int64_t>(ps.nodes[static_cast<std::size_t>(k)]);
    ps.row_htn[at] = ps.node_half_t[static_cast<std::size_t>(k)];
    ps.row_cand[at] = j;
  });
  ps.live_valid = true;
}

// This cycle's screen of the live nodes' candidates, segment by segment: a hot segment's cull
// data (positions x) is computed once and tested against the nodes that name it, while it is
// at hand. ps.passed: the candidates that can be valid contacts (the others cannot: cull.hpp);
// none whose segment is not available or not active.
void screen_candidates(const Interface& ifc, Pass& ps, std::span<const Real> x) {
  const Surface& s = surface_of(ifc, ps);
  const bool auto_shells = ifc.p.automatic;
  const bool active_all = s.active.empty();
  const auto nh = static_cast<std::int64_t>(ps.hot_seg.size());
  constexpr std::int64_t kGroup = 4; // (rows whose cull data are computed together)
  ps.passed.clear();
#pragma omp parallel if (ps.row_start.back() > 4096) // (threads only for enough work)
  {
    std::vector<std::int64_t> mine;
#pragma omp for schedule(static) nowait
    for (std::int64_t i0 = 0; i0 < nh; i0 += kGroup) {
      const auto r0 = static_cast<std::size_t>(i0);
      const std::size_t nr = std::min<std::size_t>(kGroup, ps.hot_seg.size() - r0);
      cull_segments(s.seg, &ps.hot_seg[r0], nr, x, &ps.geom[r0]);
      for (std::size_t row = r0; row < r0 + nr; ++row) {
        const LocalId e = ps.hot_seg[row];
        const auto b = static_cast<std::size_t>(ps.row_start[row]);
        const auto end = static_cast<std::size_t>(ps.row_start[row + 1]);
        if (!ps.available(e) || (!active_all && !s.active[static_cast<std::size_t>(e)])) continue;
        const SegCull& g = ps.geom[row];
        // (screened as a new contact, from either side for automatic shells: the node loop
        // evaluates its tracked segment apart and skips it here)
        const int side = auto_shells && g.half_t > 0 ? 2 : 1;
        screen_nodes(g, side, x, &ps.row_x[b], &ps.row_htn[b], end - b, &ps.row_pass[b]);
        for (std::size_t r = b; r < end; ++r)
          if (ps.row_pass[r] != 0) mine.push_back(ps.row_cand[r]);
      }
    }
#pragma omp critical(parcae_contact_screen)
    ps.passed.insert(ps.passed.end(), mine.begin(), mine.end());
  }
  std::sort(ps.passed.begin(), ps.passed.end());
}
} // namespace

ContactStatus contact_forces(const Interface& ifc, ContactState& st, std::span<const Real> x,
                             std::span<const Real> v, std::span<const Real> mass, Real t, Real dt,
                             std::span<Real> f) {
  ContactStatus status = evaluate_contacts(ifc, st, x, v, mass, t, dt);
  assemble_contacts(ifc, st, v, dt, f);
  return status;
}

ContactStatus evaluate_contacts(const Interface& ifc, ContactState& st, std::span<const Real> x,
                                std::span<const Real> v, std::span<const Real> mass, Real t,
                                Real dt) {
  const ContactParams& p = ifc.p;
  ContactStatus status;
  if (p.dtstif > 0)
    st.dt_c = p.dtstif;
  else if (st.dt_c == 0 || dt > st.dt_c)
    st.dt_c = dt;
  const bool alive = t >= p.birth && t <= p.death;
  const bool friction = p.fs > 0 || p.fd > 0;

  for (std::size_t pi = 0; pi < st.passes.size(); ++pi) {
    Pass& ps = st.passes[pi];
    const Surface& s = surface_of(ifc, ps);
    refresh_live(ifc, ps);
    screen_candidates(ifc, ps, x);
    const std::int64_t nn = static_cast<std::int64_t>(ps.live.size());
    auto& diss = ps.diss;
    auto& flag = ps.flag; // 1 released, 2 blow-up
    auto& flag_depth = ps.flag_depth;
    auto& flag_seg = ps.flag_seg;
    if (diss.size() != ps.nodes.size()) {
      diss.assign(ps.nodes.size(), 0.0);
      flag.assign(ps.nodes.size(), 0);
      flag_depth.assign(ps.nodes.size(), 0.0);
      flag_seg.assign(ps.nodes.size(), kInvalidLocal);
    }
    // Threads only when there are several chunks: a parallel region costs a fork and a barrier
    // per pass, more than a small interface's whole work on a busy machine. Each thread then
    // tallies the nodes it evaluated (the same static chunks), so that their results need not
    // move between cores; the friction energy is an exact sum, the same in any grouping.
    ExactSum friction_sum;
    std::int64_t active_pairs = 0;
    bool any_flag = false;
#pragma omp parallel if (nn > 128)
    {
#pragma omp for schedule(static, 32)
      for (std::int64_t ki = 0; ki < nn; ++ki) {
        const auto k = static_cast<std::size_t>(ps.live[static_cast<std::size_t>(ki)]);
        diss[k] = 0;
        flag[k] = 0;
        flag_depth[k] = 0;
        flag_seg[k] = kInvalidLocal;
        const LocalId node = ps.nodes[k];
        if (!ps.tie_now.empty()) ps.tie_now[k] = 0;
        auto clear = [&]() {
          ps.seg_of[k] = kInvalidLocal;
          ps.tracked[k] = kInvalidLocal;
          ps.contact_side[k] = 0;
          ps.pen_prev[k] = 0;
          ps.offset[k] = 0;
          for (int i = 0; i < 3; ++i) ps.ft[3 * k + i] = 0;
        };
        if (!alive || !ifc.node_on(node)) {
          clear();
          continue;
        }
        if (!ps.tie_state.empty() && ps.tie_state[k] == 1) {
          // Tied: a penalty spring (normal and tangential) to the tie point of its segment.
          const LocalId e = ps.tie_seg[k];
          const auto ue = static_cast<std::size_t>(e);
          const Segment& c = s.seg[ue];
          // (MPP: the tied segment is the node's tracked one, whose nodes the plan imports)
          if (s.active.empty() || s.active[ue]) {
            const std::array<Real, 3> nm = mean_normal(c, x);
            const std::array<Real, 3> pt = point_at(c, &ps.tie_shape[4 * k], x);
            const Real* q = &x[3 * static_cast<std::size_t>(node)];
            const Real kp = tie_stiffness(pair_stiffness(ifc, st, ps, node, e, mass, k), node, c,
                                          &ps.tie_shape[4 * k], mass, dt);
            Real F[3];
            for (int i = 0; i < 3; ++i) F[i] = kp * (pt[i] + ps.tie_gap[k] * nm[i] - q[i]);
            tie_corner_forces(c, x, ps.tie_gap[k], kp, F, &ps.tie_shape[4 * k],
                              &ps.tie_corner[12 * k]);
            bool failed = false;
            if (p.tiebreak >= 2 && p.nfls > 0 && p.sfls > 0) {
              // the node's side of the segment; a pull away from it is tension
              const Real dir = ps.tie_gap[k] < 0 ? -1.0 : 1.0;
              const Real fnn = F[0] * nm[0] + F[1] * nm[1] + F[2] * nm[2];
              Real fs2 = 0;
              for (int i = 0; i < 3; ++i) fs2 += (F[i] - fnn * nm[i]) * (F[i] - fnn * nm[i]);
              const Real area = ps.node_area[k];
              const Real sn = std::max<Real>(-dir * fnn, 0) / area;
              const Real ss = std::sqrt(fs2) / area;
              failed = (sn / p.nfls) * (sn / p.nfls) + (ss / p.sfls) * (ss / p.sfls) >= 1;
            }
            if (!failed) {
              ps.tie_now[k] = 1;
              ps.seg_of[k] = e;
              for (int i = 0; i < 3; ++i) ps.fn[3 * k + i] = F[i];
              for (int a = 0; a < 4; ++a) ps.shape[4 * k + a] = ps.tie_shape[4 * k + a];
              ps.tracked[k] = e;
              ps.pen_prev[k] = 0;
              continue;
            }
          }
          // failed (or its segment eroded): an ordinary contact from the next cycle on
          ps.tie_state[k] = 2;
          flag[k] = 3;
          clear();
          continue;
        }
        if (p.tied) { // a tied contact's untied node takes no part
          clear();
          continue;
        }
        PairEval best;
        LocalId best_seg = kInvalidLocal;
        auto take = [&](const PairEval& r, LocalId e) {
          if (!r.valid) return;
          if (r.pen > release_depth(ifc, ps, e)) return;
          // Another segment than the tracked one: within the capture depth of it, beyond the
          // depth the node already had in its tracked contact (a node sliding deep across an edge
          // goes on; a node barely touching does not jump to a face far behind it).
          if (e != ps.tracked[k] &&
              r.pen >
                  capture_depth(ifc, ps, e) + (ps.tracked[k] != kInvalidLocal ? ps.pen_prev[k] : 0))
            return;
          if (best_seg == kInvalidLocal || better(r, e, best, best_seg)) {
            best = r;
            best_seg = e;
          }
        };
        auto consider = [&](LocalId e, bool listed) {
          if (!ps.available(e)) return false;
          const PairEval r = eval_pair(ifc, ps, k, e, x, true, true, listed);
          take(r, e);
          return r.pr.inside;
        };
        const LocalId tr = ps.tracked[k];
        if (tr != kInvalidLocal) {
          // blow-up / release checks on the tracked pair
          const PairEval r = eval_pair(ifc, ps, k, tr, x, true, false);
          if (r.valid) {
            const Real size = seg_size(s, tr);
            if (r.pen > p.blowup_factor * size || r.pen - ps.pen_prev[k] > p.jump_factor * size) {
              flag[k] = 2;
            } else if (r.pen > release_depth(ifc, ps, tr)) {
              flag[k] = 1;
            }
            if (flag[k]) {
              flag_depth[k] = r.pen;
              flag_seg[k] = tr;
            }
          }
          take(r, tr);
          // local tracking: when the projection left the tracked segment, walk to the segments
          // across its edges (first ring; second ring if the first has no inside projection)
          if (!r.pr.inside) {
            const auto t0 = static_cast<std::size_t>(tr);
            bool found = false;
            for (std::int64_t j = ps.adj_start[t0]; j < ps.adj_start[t0 + 1]; ++j)
              found = consider(ps.adj_seg[static_cast<std::size_t>(j)], false) || found;
            if (!found)
              for (std::int64_t j = ps.adj_start[t0]; j < ps.adj_start[t0 + 1]; ++j) {
                const auto e1 = static_cast<std::size_t>(ps.adj_seg[static_cast<std::size_t>(j)]);
                for (std::int64_t j2 = ps.adj_start[e1]; j2 < ps.adj_start[e1 + 1]; ++j2)
                  consider(ps.adj_seg[static_cast<std::size_t>(j2)], false);
              }
          }
        }
        // The candidates: most were rejected by this cycle's screen, which passes every pair
        // that can be a valid contact (only valid pairs are taken here); the tracked segment,
        // taken above, is not evaluated again (taking the same pair twice changes nothing).
        for (auto it = std::lower_bound(ps.passed.begin(), ps.passed.end(), ps.cand_start[k]);
             it != ps.passed.end() && *it < ps.cand_start[k + 1]; ++it) {
          const LocalId e = ps.cand_seg[static_cast<std::size_t>(*it)];
          if (e != tr) take(eval_pair(ifc, ps, k, e, x, true, true, true), e);
        }
        if (best_seg == kInvalidLocal || flag[k]) {
          clear();
          continue;
        }
        // IGNORE=1 offset: shrinks when the node moves out
        Real& off = ps.offset[k];
        const Segment& cs = s.seg[static_cast<std::size_t>(best_seg)];
        // (Switches count only onto solid faces, across a solid's edge: on shells a switch
        // between the segments of a fold is the same contact going on, and must keep resisting.)
        const bool fresh =
            ps.tracked[k] == kInvalidLocal ||
            (ps.tracked[k] != best_seg && ps.seg_half_t[static_cast<std::size_t>(best_seg)] == 0);
        if (p.offset_sudden && fresh && dt > 0) {
          // A new contact, or a switch to another segment, found deeper than the node could have
          // moved into it in this step (a node sliding in across a fold or a corner while already
          // within the shell thickness of the segment; a plate node passing under the edge of a
          // sliding block): the extra depth is kept as an offset, as for an initial penetration,
          // so the contact resists further penetration instead of kicking the node out with
          // energy that was never stored.
          Real vn_in = 0;
          for (int i = 0; i < 3; ++i) {
            Real vr = v[3 * static_cast<std::size_t>(node) + i];
            for (int a = 0; a < 4; ++a)
              vr -= best.pr.n[a] * v[3 * static_cast<std::size_t>(cs[a]) + i];
            vn_in -= vr * best.side * best.pr.normal[i];
          }
          const Real reach = 2 * std::max<Real>(vn_in, 0) * dt;
          const Real base = ps.tracked[k] != kInvalidLocal ? ps.pen_prev[k] : 0.0;
          if (best.pen > base + reach) off = std::max(off, best.pen - base - reach);
        }
        off = std::min(off, best.pen);
        const Real pen_eff = best.pen - off;
        const Real kp = pair_stiffness(ifc, st, ps, node, best_seg, mass, k);
        Real fnorm = kp * pen_eff;
        Real nv[3];
        for (int i = 0; i < 3; ++i) nv[i] = best.side * best.pr.normal[i];
        const Segment& c = s.seg[static_cast<std::size_t>(best_seg)];
        if (p.vdc > 0 && kp > 0)
          fnorm = damped_normal_force(p.vdc, kp, fnorm, node, c, best.pr.n, nv, v, mass);
        Real F[3] = {fnorm * nv[0], fnorm * nv[1], fnorm * nv[2]};
        if (friction && kp > 0) {
          Real vr[3];
          for (int i = 0; i < 3; ++i) {
            vr[i] = v[3 * static_cast<std::size_t>(node) + i];
            for (int a = 0; a < 4; ++a)
              vr[i] -= best.pr.n[a] * v[3 * static_cast<std::size_t>(c[a]) + i];
          }
          const Real vn = vr[0] * nv[0] + vr[1] * nv[1] + vr[2] * nv[2];
          Real vt[3], fo[3], tr3[3];
          for (int i = 0; i < 3; ++i) vt[i] = vr[i] - vn * nv[i];
          const bool had = ps.tracked[k] != kInvalidLocal;
          for (int i = 0; i < 3; ++i) fo[i] = had ? ps.ft[3 * k + i] : 0.0;
          const Real fon = fo[0] * nv[0] + fo[1] * nv[1] + fo[2] * nv[2];
          for (int i = 0; i < 3; ++i) tr3[i] = fo[i] - fon * nv[i] - kp * vt[i] * dt;
          const Real vtn = std::sqrt(vt[0] * vt[0] + vt[1] * vt[1] + vt[2] * vt[2]);
          const Real mu = p.fd + (p.fs - p.fd) * std::exp(-p.dc * vtn);
          Real fmax = mu * fnorm;
          if (p.vc > 0) fmax = std::min(fmax, p.vc * s.area0[static_cast<std::size_t>(best_seg)]);
          const Real trn = std::sqrt(tr3[0] * tr3[0] + tr3[1] * tr3[1] + tr3[2] * tr3[2]);
          Real ft[3] = {tr3[0], tr3[1], tr3[2]};
          if (trn > fmax) {
            const Real sc = trn > 0 ? fmax / trn : 0.0;
            for (int i = 0; i < 3; ++i) ft[i] = tr3[i] * sc;
            // dissipation: f_t . (slip) with slip = (f_trial - f_t) / k
            diss[k] =
                (ft[0] * (tr3[0] - ft[0]) + ft[1] * (tr3[1] - ft[1]) + ft[2] * (tr3[2] - ft[2])) /
                kp;
          }
          for (int i = 0; i < 3; ++i) {
            ps.ft[3 * k + i] = ft[i];
            F[i] += ft[i];
          }
        }
        if ((p.tiebreak == 1 || p.tiebreak == 3) && ps.tie_state[k] == 0) {
          // sticks from now on, at the contact surface where it touched (the penalty force of
          // this cycle goes on as the tie's)
          const std::array<Real, 3> nm = mean_normal(c, x);
          const Real dot =
              best.pr.normal[0] * nm[0] + best.pr.normal[1] * nm[1] + best.pr.normal[2] * nm[2];
          const Real sgn = best.side * (dot >= 0 ? 1.0 : -1.0);
          make_tie(ps, k, best_seg, best.pr.n,
                   sgn * (ps.node_half_t[k] + ps.seg_half_t[static_cast<std::size_t>(best_seg)]));
        }
        ps.seg_of[k] = best_seg;
        for (int i = 0; i < 3; ++i) ps.fn[3 * k + i] = F[i];
        for (int a = 0; a < 4; ++a) ps.shape[4 * k + a] = best.pr.n[a];
        ps.tracked[k] = best_seg;
        ps.contact_side[k] = static_cast<std::int8_t>(best.side);
        ps.pen_prev[k] = best.pen;
      }
      ExactSum friction_t;
      std::int64_t active_t = 0;
      bool flag_t = false;
#pragma omp for schedule(static, 32) nowait
      for (std::int64_t ki = 0; ki < nn; ++ki) {
        const auto k = static_cast<std::size_t>(ps.live[static_cast<std::size_t>(ki)]);
        flag_t = flag_t || flag[k] != 0;
        if (ps.seg_of[k] != kInvalidLocal) ++active_t;
        if (diss[k] != 0) friction_t.add(diss[k]); // (an exact sum: zeros change nothing)
      }
#pragma omp critical(parcae_contact_tally)
      {
        friction_sum.add(friction_t);
        active_pairs += active_t;
        any_flag = any_flag || flag_t;
      }
    } // omp parallel
    st.e_friction.add(friction_sum);
    status.active_pairs += active_pairs;
    if (any_flag)
      for (LocalId kl : ps.live) { // the records in node order
        const auto k = static_cast<std::size_t>(kl);
        if (flag[k] == 3) ++status.ties_failed;
        if (flag[k] == 1)
          status.released.push_back(
              {static_cast<int>(pi), ps.nodes[k], flag_seg[k], flag_depth[k]});
        else if (flag[k] == 2)
          status.blowup.push_back({static_cast<int>(pi), ps.nodes[k], flag_seg[k], flag_depth[k]});
      }
  }
  status.ok = status.blowup.empty();
  return status;
}

void contact_forces_reference(const Interface& ifc, const ContactState& st, std::span<const Real> x,
                              std::span<const Real> mass, std::span<Real> f) {
  for (const Pass& ps : st.passes) {
    const Surface& s = surface_of(ifc, ps);
    for (std::size_t k = 0; k < ps.nodes.size(); ++k) {
      if (!ifc.node_on(ps.nodes[k])) continue;
      PairEval best;
      LocalId best_seg = kInvalidLocal;
      for (std::size_t e = 0; e < s.size(); ++e) {
        const LocalId se = static_cast<LocalId>(e);
        // (only the plain bounding-box rejection: a node in contact lies within both half
        // thicknesses plus the release depth of the segment's corners' box)
        SegCull g;
        g.release = release_depth(ifc, ps, se);
        cull_box(s.seg[e], x, g);
        if (outside_box(g, &x[3 * static_cast<std::size_t>(ps.nodes[k])],
                        ps.node_half_t[k] + ps.seg_half_t[e] + g.release))
          continue;
        const PairEval r = eval_pair(ifc, ps, k, se, x, false, false); // (no cull)
        if (!r.valid || r.pen > release_depth(ifc, ps, se)) continue;
        if (best_seg == kInvalidLocal || better(r, se, best, best_seg)) {
          best = r;
          best_seg = se;
        }
      }
      if (best_seg == kInvalidLocal) continue;
      const Real pen_eff = best.pen - std::min(ps.offset[k], best.pen);
      const Real kp = pair_stiffness(ifc, st, ps, ps.nodes[k], best_seg, mass, k);
      const Segment& c = s.seg[static_cast<std::size_t>(best_seg)];
      for (int i = 0; i < 3; ++i) {
        const Real F = kp * pen_eff * best.side * best.pr.normal[i];
        f[3 * static_cast<std::size_t>(ps.nodes[k]) + i] += F;
        const int na = c[2] == c[3] ? 3 : 4;
        for (int a = 0; a < na; ++a) f[3 * static_cast<std::size_t>(c[a]) + i] -= best.pr.n[a] * F;
      }
    }
  }
}

std::vector<PenetrationRecord> initial_penetrations(const Interface& ifc, ContactState& st,
                                                    std::span<Real> x) {
  std::vector<PenetrationRecord> out;
  for (std::size_t pi = 0; pi < st.passes.size(); ++pi) {
    Pass& ps = st.passes[pi];
    ps.set_stale();
    const Surface& s = surface_of(ifc, ps);
    for (std::size_t k = 0; k < ps.nodes.size(); ++k) {
      if (!ifc.node_on(ps.nodes[k])) continue;
      if (!ps.tie_state.empty() && ps.tie_state[k] == 1) continue; // tied where it is
      PairEval best;
      LocalId best_seg = kInvalidLocal;
      auto consider = [&](LocalId e) {
        const PairEval r = eval_pair(ifc, ps, k, e, x, false);
        if (!r.valid || r.pen > release_depth(ifc, ps, e)) return;
        if (best_seg == kInvalidLocal || better(r, e, best, best_seg)) {
          best = r;
          best_seg = e;
        }
      };
      for (std::int64_t j = ps.cand_start[k]; j < ps.cand_start[k + 1]; ++j)
        consider(ps.cand_seg[static_cast<std::size_t>(j)]);
      if (best_seg == kInvalidLocal || best.pen <= ifc.p.initial_tolerance) continue;
      out.push_back({static_cast<int>(pi), ps.nodes[k], best_seg, best.pen});
      if (ifc.p.ignore == 1) {
        ps.offset[k] = best.pen;
        ps.tracked[k] = best_seg;
        ps.contact_side[k] = static_cast<std::int8_t>(best.side);
        ps.pen_prev[k] = best.pen;
      } else {
        const auto g = 3 * static_cast<std::size_t>(ps.nodes[k]);
        for (int i = 0; i < 3; ++i) x[g + i] += best.pen * best.side * best.pr.normal[i];
      }
    }
    (void)s;
  }
  return out;
}

} // namespace parcae::contact
