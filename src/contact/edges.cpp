// Beam edge-to-edge penalty contact: closest points, search, forces (edges.hpp).
#include "contact/edges.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "contact/contact.hpp"

namespace parcae::contact {

namespace {

Real dot3(const Real* a, const Real* b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
Real clamp01(Real v) {
  return v < 0 ? 0.0 : (v > 1 ? 1.0 : v);
}

const Real* node_x(std::span<const Real> x, LocalId n) {
  return x.data() + 3 * static_cast<std::size_t>(n);
}

/// A unit vector perpendicular to d (d != 0).
std::array<Real, 3> any_perpendicular(const Real* d) {
  const Real ax = std::abs(d[0]), ay = std::abs(d[1]), az = std::abs(d[2]);
  // cross d with the axis it is least aligned with
  Real e[3] = {0, 0, 0};
  if (ax <= ay && ax <= az)
    e[0] = 1;
  else if (ay <= az)
    e[1] = 1;
  else
    e[2] = 1;
  std::array<Real, 3> n{d[1] * e[2] - d[2] * e[1], d[2] * e[0] - d[0] * e[2],
                        d[0] * e[1] - d[1] * e[0]};
  const Real l = std::sqrt(dot3(n.data(), n.data()));
  for (Real& c : n) c /= l;
  return n;
}

/// Grown bounding box of edge e: the end points +- (radius + margin / 2).
void edge_box(const EdgeSet& es, std::size_t e, std::span<const Real> x, Real margin, Real* lo,
              Real* hi) {
  const Real* a = node_x(x, es.edge[e][0]);
  const Real* b = node_x(x, es.edge[e][1]);
  const Real g = es.radius[e] + 0.5 * margin;
  for (int i = 0; i < 3; ++i) {
    lo[i] = std::min(a[i], b[i]) - g;
    hi[i] = std::max(a[i], b[i]) + g;
  }
}

/// The pair test shared by both searches.
bool is_candidate(const EdgeSet& es, std::size_t a, std::size_t b, std::span<const Real> x,
                  Real margin) {
  if (!edges_may_touch(es, a, b)) return false;
  const SegmentClosest c = closest_points(node_x(x, es.edge[a][0]), node_x(x, es.edge[a][1]),
                                          node_x(x, es.edge[b][0]), node_x(x, es.edge[b][1]));
  const Real reach = es.radius[a] + es.radius[b] + margin;
  return c.dist2 <= reach * reach;
}

/// The new candidate list, carrying the history of the pairs that stay candidates.
void set_candidates(EdgeState& st, std::vector<std::array<LocalId, 2>> cand) {
  std::sort(cand.begin(), cand.end());
  cand.erase(std::unique(cand.begin(), cand.end()), cand.end());
  const std::size_t n = cand.size();
  std::vector<Real> ft(3 * n, 0.0), normal(3 * n, 0.0), offset(n, 0.0);
  std::vector<std::uint8_t> touching(n, 0);
  for (std::size_t k = 0; k < n; ++k) {
    const auto it = std::lower_bound(st.cand.begin(), st.cand.end(), cand[k]);
    if (it == st.cand.end() || *it != cand[k]) continue;
    const auto j = static_cast<std::size_t>(it - st.cand.begin());
    for (int i = 0; i < 3; ++i) {
      ft[3 * k + i] = st.ft[3 * j + i];
      normal[3 * k + i] = st.normal[3 * j + i];
    }
    offset[k] = st.offset[j];
    touching[k] = st.touching[j];
  }
  st.cand = std::move(cand);
  st.ft = std::move(ft);
  st.normal = std::move(normal);
  st.offset = std::move(offset);
  st.touching = std::move(touching);
}

void note_search(EdgeState& st, std::span<const Real> x) {
  for (std::size_t k = 0; k < st.nodes.size(); ++k)
    for (int i = 0; i < 3; ++i)
      st.x_search[3 * k + i] = x[3 * static_cast<std::size_t>(st.nodes[k]) + i];
  ++st.n_searches;
}

std::size_t slot_of(const EdgeState& st, LocalId n) {
  return static_cast<std::size_t>(std::lower_bound(st.nodes.begin(), st.nodes.end(), n) -
                                  st.nodes.begin());
}

} // namespace

SegmentClosest closest_points(const Real* p0, const Real* p1, const Real* q0, const Real* q1) {
  // Ericson, Real-Time Collision Detection (2005), 5.1.9, with a relative tolerance for
  // degenerate and parallel segments, and for parallel overlapping segments the middle of the
  // overlap (a force there does not jump from one end to the other as they slide).
  Real d1[3], d2[3], r[3];
  for (int i = 0; i < 3; ++i) {
    d1[i] = p1[i] - p0[i];
    d2[i] = q1[i] - q0[i];
    r[i] = p0[i] - q0[i];
  }
  const Real a = dot3(d1, d1), e = dot3(d2, d2), f = dot3(d2, r);
  const Real scale = std::max({a, e, dot3(r, r)});
  const Real tiny = 1e-24 * (scale > 0 ? scale : 1.0);
  Real s = 0, t = 0;
  if (a <= tiny && e <= tiny) {
    s = t = 0;
  } else if (a <= tiny) {
    s = 0;
    t = clamp01(f / e);
  } else {
    const Real c = dot3(d1, r);
    if (e <= tiny) {
      t = 0;
      s = clamp01(-c / a);
    } else {
      const Real b = dot3(d1, d2);
      const Real denom = a * e - b * b; // >= 0
      if (denom > 1e-12 * a * e) {
        s = clamp01((b * f - c * e) / denom);
      } else {
        // parallel: the projections of q0, q1 on p's line, intersected with [0, 1]
        const Real s0 = -c / a, s1 = (b - c) / a;
        const Real lo = std::max<Real>(0, std::min(s0, s1)),
                   hi = std::min<Real>(1, std::max(s0, s1));
        s = lo <= hi ? 0.5 * (lo + hi) : clamp01(std::abs(s0 - 0.5) < std::abs(s1 - 0.5) ? s0 : s1);
      }
      t = (b * s + f) / e;
      if (t < 0) {
        t = 0;
        s = clamp01(-c / a);
      } else if (t > 1) {
        t = 1;
        s = clamp01((b - c) / a);
      }
    }
  }
  SegmentClosest out;
  out.s = s;
  out.t = t;
  for (int i = 0; i < 3; ++i) {
    const Real dd = (p0[i] + s * d1[i]) - (q0[i] + t * d2[i]);
    out.dist2 += dd * dd;
  }
  return out;
}

bool edges_may_touch(const EdgeSet& es, std::size_t a, std::size_t b) {
  if (a == b) return false;
  const Edge& ea = es.edge[a];
  const Edge& eb = es.edge[b];
  for (LocalId u : ea)
    for (LocalId w : eb)
      if (u == w) return false; // beams that share a node are never paired
  if (es.exclude_same_group && !es.group.empty() && es.group[a] == es.group[b]) return false;
  if (!es.node_body.empty()) {
    auto body = [&](const Edge& e) {
      const int b0 = es.node_body[static_cast<std::size_t>(e[0])];
      return b0 >= 0 && es.node_body[static_cast<std::size_t>(e[1])] == b0 ? b0 : -1;
    };
    const int ba = body(ea);
    if (ba >= 0 && ba == body(eb)) return false;
  }
  return true;
}

EdgeState init_edges(const EdgeSet& es, std::span<const Real> x) {
  EdgeState st;
  for (const Edge& e : es.edge) st.nodes.insert(st.nodes.end(), e.begin(), e.end());
  std::sort(st.nodes.begin(), st.nodes.end());
  st.nodes.erase(std::unique(st.nodes.begin(), st.nodes.end()), st.nodes.end());
  st.x_search.assign(3 * st.nodes.size(), 0.0);
  st.f_prev.assign(3 * st.nodes.size(), 0.0);
  st.f_now.assign(3 * st.nodes.size(), 0.0);
  if (es.p.search_margin > 0) {
    st.margin = es.p.search_margin;
  } else {
    Real sum = 0;
    for (const Edge& e : es.edge) {
      const Real* a = node_x(x, e[0]);
      const Real* b = node_x(x, e[1]);
      Real d[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
      sum += std::sqrt(dot3(d, d));
    }
    st.margin = es.edge.empty() ? 0.0 : 0.5 * sum / static_cast<Real>(es.edge.size());
  }
  bucket_search_edges(es, st, x);
  st.last_search_cycle = 0;
  // initial overlaps: kept as offsets
  for (std::size_t k = 0; k < st.cand.size(); ++k) {
    const auto a = static_cast<std::size_t>(st.cand[k][0]);
    const auto b = static_cast<std::size_t>(st.cand[k][1]);
    const SegmentClosest c = closest_points(node_x(x, es.edge[a][0]), node_x(x, es.edge[a][1]),
                                            node_x(x, es.edge[b][0]), node_x(x, es.edge[b][1]));
    const Real pen = es.radius[a] + es.radius[b] - std::sqrt(c.dist2);
    if (pen > 0) st.offset[k] = pen;
  }
  return st;
}

void all_pairs_search_edges(const EdgeSet& es, EdgeState& st, std::span<const Real> x) {
  std::vector<std::array<LocalId, 2>> cand;
  for (std::size_t a = 0; a < es.size(); ++a)
    for (std::size_t b = a + 1; b < es.size(); ++b)
      if (is_candidate(es, a, b, x, st.margin))
        cand.push_back({static_cast<LocalId>(a), static_cast<LocalId>(b)});
  set_candidates(st, std::move(cand));
  note_search(st, x);
}

void bucket_search_edges(const EdgeSet& es, EdgeState& st, std::span<const Real> x) {
  const std::size_t n = es.size();
  std::vector<Real> box(6 * n);
  Real h = 0;
  for (std::size_t e = 0; e < n; ++e) {
    edge_box(es, e, x, st.margin, &box[6 * e], &box[6 * e + 3]);
    for (int i = 0; i < 3; ++i) h = std::max(h, box[6 * e + 3 + i] - box[6 * e + i]);
  }
  std::vector<std::array<LocalId, 2>> cand;
  if (n > 1 && h > 0) {
    // Cells of the largest box extent: every box covers at most 2 cells per axis, and two
    // overlapping boxes share a cell (the one holding a corner of their intersection).
    Real origin[3] = {box[0], box[1], box[2]};
    for (std::size_t e = 0; e < n; ++e)
      for (int i = 0; i < 3; ++i) origin[i] = std::min(origin[i], box[6 * e + i]);
    auto cell = [&](Real v, int i) {
      return static_cast<std::int64_t>(std::floor((v - origin[i]) / h));
    };
    auto key = [](std::int64_t i, std::int64_t j, std::int64_t k) {
      return (i * 73856093) ^ (j * 19349663) ^ (k * 83492791);
    };
    std::unordered_map<std::int64_t, std::vector<std::array<std::int64_t, 4>>> grid;
    for (std::size_t e = 0; e < n; ++e) {
      const Real* lo = &box[6 * e];
      const Real* hi = &box[6 * e + 3];
      for (std::int64_t i = cell(lo[0], 0); i <= cell(hi[0], 0); ++i)
        for (std::int64_t j = cell(lo[1], 1); j <= cell(hi[1], 1); ++j)
          for (std::int64_t k = cell(lo[2], 2); k <= cell(hi[2], 2); ++k)
            grid[key(i, j, k)].push_back({i, j, k, static_cast<std::int64_t>(e)});
    }
    for (const auto& [kk, members] : grid) {
      (void)kk;
      for (std::size_t u = 0; u < members.size(); ++u)
        for (std::size_t w = u + 1; w < members.size(); ++w) {
          const auto& mu = members[u];
          const auto& mw = members[w];
          if (mu[0] != mw[0] || mu[1] != mw[1] || mu[2] != mw[2]) continue; // hash collision
          auto a = static_cast<std::size_t>(mu[3]), b = static_cast<std::size_t>(mw[3]);
          if (a > b) std::swap(a, b);
          bool overlap = true;
          for (int i = 0; i < 3 && overlap; ++i)
            overlap = box[6 * a + i] <= box[6 * b + 3 + i] && box[6 * b + i] <= box[6 * a + 3 + i];
          if (overlap && is_candidate(es, a, b, x, st.margin))
            cand.push_back({static_cast<LocalId>(a), static_cast<LocalId>(b)});
        }
    }
  }
  set_candidates(st, std::move(cand));
  note_search(st, x);
}

bool edge_search_if_due(const EdgeSet& es, EdgeState& st, std::span<const Real> x,
                        std::int64_t cycle) {
  bool due = es.p.search_interval > 0 && cycle - st.last_search_cycle >= es.p.search_interval;
  if (!due && es.p.adaptive_search) {
    const Real lim = 0.25 * st.margin * st.margin;
    for (std::size_t k = 0; k < st.nodes.size() && !due; ++k) {
      const Real* p = node_x(x, st.nodes[k]);
      Real m2 = 0;
      for (int i = 0; i < 3; ++i) {
        const Real d = p[i] - st.x_search[3 * k + i];
        m2 += d * d;
      }
      due = m2 > lim;
    }
  }
  if (!due) return false;
  bucket_search_edges(es, st, x);
  st.last_search_cycle = cycle;
  return true;
}

Real edge_pair_stiffness(const EdgeSet& es, const EdgeState& st, std::size_t a, std::size_t b,
                         std::span<const Real> mass) {
  const Real ka = es.k0[a], kb = es.k0[b];
  Real k = ka > 0 && kb > 0 ? std::min(ka, kb) : std::max(ka, kb);
  if (es.p.soft == 1 && st.dt_c > 0 && !mass.empty()) {
    auto m = [&](LocalId n) { return mass[static_cast<std::size_t>(n)]; };
    const Real ma = std::min(m(es.edge[a][0]), m(es.edge[a][1]));
    const Real mb = std::min(m(es.edge[b][0]), m(es.edge[b][1]));
    k = std::max(k, soft1_stiffness(es.p.sofscl, ma, mb, st.dt_c));
  }
  return k;
}

EdgeStatus edge_contact_forces(const EdgeSet& es, EdgeState& st, std::span<const Real> x,
                               std::span<const Real> v, std::span<const Real> mass, Real t, Real dt,
                               std::span<Real> f) {
  EdgeStatus status;
  const EdgeParams& p = es.p;
  if (p.dtstif > 0)
    st.dt_c = p.dtstif;
  else if (st.dt_c <= 0 || dt > st.dt_c)
    st.dt_c = dt;
  std::fill(st.f_now.begin(), st.f_now.end(), 0.0);
  st.resultant_a = st.resultant_b = {0, 0, 0};
  const bool live = t >= p.birth && t <= p.death;
  const bool friction = p.fs > 0 || p.fd > 0;
  for (std::size_t k = 0; k < st.cand.size(); ++k) {
    const auto a = static_cast<std::size_t>(st.cand[k][0]);
    const auto b = static_cast<std::size_t>(st.cand[k][1]);
    const Edge& ea = es.edge[a];
    const Edge& eb = es.edge[b];
    const Real* a0 = node_x(x, ea[0]);
    const Real* a1 = node_x(x, ea[1]);
    const Real* b0 = node_x(x, eb[0]);
    const Real* b1 = node_x(x, eb[1]);
    const SegmentClosest c = closest_points(a0, a1, b0, b1);
    const Real dist = std::sqrt(c.dist2);
    const Real pen_geom = es.radius[a] + es.radius[b] - dist;
    Real& off = st.offset[k];
    if (off > 0 && pen_geom < off) off = std::max<Real>(pen_geom, 0);
    const Real pen = pen_geom - off;
    Real* ftk = &st.ft[3 * k];
    if (!live || pen <= 0) {
      st.touching[k] = 0;
      ftk[0] = ftk[1] = ftk[2] = 0;
      continue;
    }
    if (pen >= 0.9 * (es.radius[a] + es.radius[b]) && status.ok) {
      status.ok = false;
      status.blowup = st.cand[k];
      status.blowup_depth = pen;
    }
    // the normal: from Q to P; axes that touch take the last normal (or one perpendicular to
    // both axes)
    Real P[3], Q[3];
    for (int i = 0; i < 3; ++i) {
      P[i] = (1 - c.s) * a0[i] + c.s * a1[i];
      Q[i] = (1 - c.t) * b0[i] + c.t * b1[i];
    }
    Real n[3] = {P[0] - Q[0], P[1] - Q[1], P[2] - Q[2]};
    Real* nk = &st.normal[3 * k];
    if (dist > 1e-12 * (es.radius[a] + es.radius[b])) {
      for (Real& ni : n) ni /= dist;
    } else if (dot3(nk, nk) > 0) {
      for (int i = 0; i < 3; ++i) n[i] = nk[i];
    } else {
      Real da[3] = {a1[0] - a0[0], a1[1] - a0[1], a1[2] - a0[2]};
      Real db[3] = {b1[0] - b0[0], b1[1] - b0[1], b1[2] - b0[2]};
      Real cr[3] = {da[1] * db[2] - da[2] * db[1], da[2] * db[0] - da[0] * db[2],
                    da[0] * db[1] - da[1] * db[0]};
      const Real l = std::sqrt(dot3(cr, cr));
      if (l > 0) {
        for (int i = 0; i < 3; ++i) n[i] = cr[i] / l;
      } else {
        const std::array<Real, 3> q = any_perpendicular(dot3(da, da) > 0 ? da : db);
        for (int i = 0; i < 3; ++i) n[i] = q[i];
      }
    }
    for (int i = 0; i < 3; ++i) nk[i] = n[i];
    const Real kp = edge_pair_stiffness(es, st, a, b, mass);
    Real fnorm = kp * pen;
    if (p.vdc > 0 && kp > 0 && !mass.empty()) {
      // VDC: viscous normal damping, VDC percent of critical for the two contact points (the
      // node-to-surface rule of forces.cpp with the edges' weighted masses at P and Q): c =
      // VDC/100 2 min(m_P, m_Q) omega, omega = sqrt(k (m_P + m_Q) / (m_P m_Q)); the normal
      // force stays compressive.
      auto m = [&](LocalId q) { return mass[static_cast<std::size_t>(q)]; };
      const Real mp = (1 - c.s) * m(ea[0]) + c.s * m(ea[1]);
      const Real mq = (1 - c.t) * m(eb[0]) + c.t * m(eb[1]);
      if (mp > 0 && mq > 0) {
        Real vn = 0;
        for (int i = 0; i < 3; ++i) {
          auto vel = [&](LocalId q) { return v[3 * static_cast<std::size_t>(q) + i]; };
          vn += ((1 - c.s) * vel(ea[0]) + c.s * vel(ea[1]) - (1 - c.t) * vel(eb[0]) -
                 c.t * vel(eb[1])) *
                n[i];
        }
        const Real omega = std::sqrt(kp * (mp + mq) / (mp * mq));
        const Real cdamp = p.vdc / 100.0 * 2.0 * std::min(mp, mq) * omega;
        fnorm = std::max<Real>(fnorm - cdamp * vn, 0);
      }
    }
    Real F[3] = {fnorm * n[0], fnorm * n[1], fnorm * n[2]};
    if (friction && kp > 0) {
      Real vr[3];
      for (int i = 0; i < 3; ++i) {
        auto vel = [&](LocalId m) { return v[3 * static_cast<std::size_t>(m) + i]; };
        vr[i] =
            (1 - c.s) * vel(ea[0]) + c.s * vel(ea[1]) - (1 - c.t) * vel(eb[0]) - c.t * vel(eb[1]);
      }
      const Real vn = dot3(vr, n);
      Real vt[3], fo[3], tr[3];
      for (int i = 0; i < 3; ++i) vt[i] = vr[i] - vn * n[i];
      const bool had = st.touching[k] != 0;
      for (int i = 0; i < 3; ++i) fo[i] = had ? ftk[i] : 0.0;
      const Real fon = dot3(fo, n);
      for (int i = 0; i < 3; ++i) tr[i] = fo[i] - fon * n[i] - kp * vt[i] * dt;
      const Real vtn = std::sqrt(dot3(vt, vt));
      const Real mu = p.fd + (p.fs - p.fd) * std::exp(-p.dc * vtn);
      const Real fmax = mu * fnorm;
      const Real trn = std::sqrt(dot3(tr, tr));
      Real ft[3] = {tr[0], tr[1], tr[2]};
      if (trn > fmax) {
        const Real sc = trn > 0 ? fmax / trn : 0.0;
        for (int i = 0; i < 3; ++i) ft[i] = tr[i] * sc;
        // dissipation: f_t . slip, slip = (f_trial - f_t) / k
        st.e_friction.add(
            (ft[0] * (tr[0] - ft[0]) + ft[1] * (tr[1] - ft[1]) + ft[2] * (tr[2] - ft[2])) / kp);
      }
      for (int i = 0; i < 3; ++i) {
        ftk[i] = ft[i];
        F[i] += ft[i];
      }
    } else {
      ftk[0] = ftk[1] = ftk[2] = 0;
    }
    st.touching[k] = 1;
    ++status.active_pairs;
    const std::size_t sa0 = slot_of(st, ea[0]), sa1 = slot_of(st, ea[1]);
    const std::size_t sb0 = slot_of(st, eb[0]), sb1 = slot_of(st, eb[1]);
    for (int i = 0; i < 3; ++i) {
      st.f_now[3 * sa0 + i] += (1 - c.s) * F[i];
      st.f_now[3 * sa1 + i] += c.s * F[i];
      st.f_now[3 * sb0 + i] -= (1 - c.t) * F[i];
      st.f_now[3 * sb1 + i] -= c.t * F[i];
      st.resultant_a[i] += F[i];
      st.resultant_b[i] -= F[i];
    }
  }
  // into f; trapezoidal work 0.5 (f_prev + f_now) . v dt per node: the interface energy is
  // minus the work of the contact forces
  for (std::size_t k = 0; k < st.nodes.size(); ++k) {
    const auto g = 3 * static_cast<std::size_t>(st.nodes[k]);
    Real w = 0;
    for (int i = 0; i < 3; ++i) {
      f[g + i] += st.f_now[3 * k + i];
      w += (st.f_prev[3 * k + i] + st.f_now[3 * k + i]) * v[g + i];
    }
    if (w != 0) st.e_interface.add(-0.5 * dt * w);
  }
  std::swap(st.f_prev, st.f_now);
  return status;
}

void edge_contact_forces_reference(const EdgeSet& es, const EdgeState& st, std::span<const Real> x,
                                   std::span<const Real> mass, std::span<Real> f) {
  for (std::size_t a = 0; a < es.size(); ++a)
    for (std::size_t b = a + 1; b < es.size(); ++b) {
      if (!edges_may_touch(es, a, b)) continue;
      const Edge& ea = es.edge[a];
      const Edge& eb = es.edge[b];
      const SegmentClosest c =
          closest_points(node_x(x, ea[0]), node_x(x, ea[1]), node_x(x, eb[0]), node_x(x, eb[1]));
      const Real dist = std::sqrt(c.dist2);
      const Real pen = es.radius[a] + es.radius[b] - dist;
      if (pen <= 0 || dist <= 0) continue;
      const Real fn = edge_pair_stiffness(es, st, a, b, mass) * pen / dist;
      for (int i = 0; i < 3; ++i) {
        const Real d = ((1 - c.s) * node_x(x, ea[0])[i] + c.s * node_x(x, ea[1])[i]) -
                       ((1 - c.t) * node_x(x, eb[0])[i] + c.t * node_x(x, eb[1])[i]);
        f[3 * static_cast<std::size_t>(ea[0]) + i] += (1 - c.s) * fn * d;
        f[3 * static_cast<std::size_t>(ea[1]) + i] += c.s * fn * d;
        f[3 * static_cast<std::size_t>(eb[0]) + i] -= (1 - c.t) * fn * d;
        f[3 * static_cast<std::size_t>(eb[1]) + i] -= c.t * fn * d;
      }
    }
}

} // namespace parcae::contact
