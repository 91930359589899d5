// Contact state set-up and candidate search (hashed uniform grid bucket sort, all-pairs
// reference), segment adjacency for local tracking.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include <omp.h>

#include "contact/contact.hpp"
#include "core/error.hpp"

namespace parcae::contact {

Real seg_contact_half_t(const ContactParams& p, const Surface& s, std::size_t e, bool main_side) {
  if (e < s.fixed_thickness.size() && s.fixed_thickness[e] > 0) return 0.5 * s.fixed_thickness[e];
  const Real t = s.thickness[e];
  if (t <= 0) return 0;
  const Real expl = main_side ? p.mst : p.sst;
  if (expl > 0) return 0.5 * expl;
  Real tc = t * (main_side ? p.sfmt : p.sfst);
  if (p.limit_shell_thickness && e < s.min_edge.size() && s.min_edge[e] > 0)
    tc = std::min(tc, 0.4 * s.min_edge[e]);
  return 0.5 * tc;
}

namespace {

void build_adjacency(const Surface& s, Pass& ps) {
  struct Edge {
    LocalId a, b, seg;
  };
  std::vector<Edge> edges;
  edges.reserve(4 * s.size());
  for (std::size_t e = 0; e < s.size(); ++e) {
    const auto& c = s.seg[e];
    const int ne = c[2] == c[3] ? 3 : 4;
    for (int k = 0; k < ne; ++k) {
      LocalId a = c[k], b = c[(k + 1) % ne];
      if (a == b) continue;
      if (a > b) std::swap(a, b);
      edges.push_back({a, b, static_cast<LocalId>(e)});
    }
  }
  std::sort(edges.begin(), edges.end(), [](const Edge& l, const Edge& r) {
    return l.a != r.a ? l.a < r.a : (l.b != r.b ? l.b < r.b : l.seg < r.seg);
  });
  std::vector<std::pair<LocalId, LocalId>> links;
  for (std::size_t i = 0; i < edges.size();) {
    std::size_t j = i;
    while (j < edges.size() && edges[j].a == edges[i].a && edges[j].b == edges[i].b) ++j;
    for (std::size_t p = i; p < j; ++p)
      for (std::size_t q = i; q < j; ++q)
        if (edges[p].seg != edges[q].seg) links.emplace_back(edges[p].seg, edges[q].seg);
    i = j;
  }
  std::sort(links.begin(), links.end());
  links.erase(std::unique(links.begin(), links.end()), links.end());
  ps.adj_start.assign(s.size() + 1, 0);
  for (const auto& l : links) ++ps.adj_start[static_cast<std::size_t>(l.first) + 1];
  for (std::size_t e = 0; e < s.size(); ++e) ps.adj_start[e + 1] += ps.adj_start[e];
  ps.adj_seg.resize(links.size());
  for (std::size_t i = 0; i < links.size(); ++i) ps.adj_seg[i] = links[i].second;
}

// Per-node half thickness from the segments of a surface containing it (max).
std::vector<Real> node_half_t_from_surface(const std::vector<LocalId>& nodes,
                                           const std::vector<Real>& seg_half_t, const Surface& s) {
  std::vector<Real> out(nodes.size(), 0.0);
  for (std::size_t e = 0; e < s.size(); ++e)
    for (LocalId n : s.seg[e]) {
      const auto it = std::lower_bound(nodes.begin(), nodes.end(), n);
      if (it != nodes.end() && *it == n) {
        auto& v = out[static_cast<std::size_t>(it - nodes.begin())];
        v = std::max(v, seg_half_t[e]);
      }
    }
  return out;
}

// Bounding box of segment e grown by r.
inline void seg_box(const Segment& c, std::span<const Real> x, Real r, Real lo[3], Real hi[3]) {
  for (int i = 0; i < 3; ++i) {
    lo[i] = hi[i] = x[3 * static_cast<std::size_t>(c[0]) + i];
  }
  for (int a = 1; a < 4; ++a)
    for (int i = 0; i < 3; ++i) {
      const Real v = x[3 * static_cast<std::size_t>(c[a]) + i];
      lo[i] = std::min(lo[i], v);
      hi[i] = std::max(hi[i], v);
    }
  for (int i = 0; i < 3; ++i) {
    lo[i] -= r;
    hi[i] += r;
  }
}

inline bool contains(const Segment& c, LocalId n) {
  return c[0] == n || c[1] == n || c[2] == n || c[3] == n;
}

// The candidate predicate shared by the bucket and the all-pairs search.
// (neighbourhood: test the single-surface neighbourhood here; the bucket search marks it)
inline bool is_candidate(const Pass& ps, std::size_t k, std::size_t e, const Segment& c,
                         LocalId node, const Real* q, const Real lo[3], const Real hi[3],
                         Real node_r, bool neighbourhood = true) {
  if (contains(c, node)) return false;
  if (!ps.seg_body.empty() && ps.node_body[k] >= 0 && ps.node_body[k] == ps.seg_body[e])
    return false;
  for (int i = 0; i < 3; ++i)
    if (q[i] < lo[i] - node_r || q[i] > hi[i] + node_r) return false;
  return !neighbourhood || !in_neighbourhood(ps, k, c);
}

// Transpose segment-major candidate lists into the pass's node-major CSR (segments ascending).
void set_candidates(Pass& ps, const std::vector<std::int64_t>& seg_start,
                    const std::vector<LocalId>& seg_nodes) {
  ps.set_stale();
  const std::size_t nn = ps.nodes.size();
  ps.cand_start.assign(nn + 1, 0);
  for (LocalId k : seg_nodes) ++ps.cand_start[static_cast<std::size_t>(k) + 1];
  for (std::size_t i = 0; i < nn; ++i) ps.cand_start[i + 1] += ps.cand_start[i];
  ps.cand_seg.resize(seg_nodes.size());
  std::vector<std::int64_t> pos(ps.cand_start.begin(), ps.cand_start.end() - 1);
  const std::size_t ns = seg_start.size() - 1;
  for (std::size_t e = 0; e < ns; ++e)
    for (std::int64_t j = seg_start[e]; j < seg_start[e + 1]; ++j)
      ps.cand_seg[static_cast<std::size_t>(pos[static_cast<std::size_t>(seg_nodes[j])]++)] =
          static_cast<LocalId>(e);
}

Real max_of(const std::vector<Real>& v) {
  Real m = 0;
  for (Real a : v) m = std::max(m, a);
  return m;
}

} // namespace

ContactState init_state(const Interface& ifc, std::size_t nnode, std::span<const Real> x) {
  const ContactParams& p = ifc.p;
  ContactState st;
  auto make_pass = [&](std::vector<LocalId> nodes, std::vector<Real> node_half_t, bool on_main) {
    Pass ps;
    ps.nodes = std::move(nodes);
    ps.node_half_t = std::move(node_half_t);
    ps.on_main = on_main;
    const Surface& s = on_main ? ifc.main : ifc.secondary;
    if (s.thickness.size() != s.size() || s.k0.size() != s.size() || s.area0.size() != s.size())
      throw InputError({}, "contact surface: thickness/k0/area0 sizes differ from segments");
    ps.seg_half_t.resize(s.size());
    for (std::size_t e = 0; e < s.size(); ++e)
      ps.seg_half_t[e] = seg_contact_half_t(p, s, e, on_main);
    ps.sf = on_main ? p.sfm : p.sfs;
    {
      // the nodes' own stiffness: the stiffest segment holding them on their own surface (the
      // other side, or the same surface in a single-surface contact), scaled by that side's
      // factor; the largest, so that like meets like at the segment's stiffness
      const bool own_main = !on_main && p.type != ContactType::single_surface;
      const Surface& own = own_main ? ifc.main : ifc.secondary;
      const Real own_sf = own_main ? p.sfm : p.sfs;
      ps.node_k.assign(ps.nodes.size(), 0.0);
      if (own.k0.size() == own.size())
        for (std::size_t e = 0; e < own.size(); ++e)
          for (LocalId a : own.seg[e]) {
            const auto it = std::lower_bound(ps.nodes.begin(), ps.nodes.end(), a);
            if (it == ps.nodes.end() || *it != a) continue;
            Real& k = ps.node_k[static_cast<std::size_t>(it - ps.nodes.begin())];
            k = std::max(k, own_sf * own.k0[e]);
          }
    }
    if (!ifc.node_body.empty()) {
      auto body = [&](LocalId n) { return ifc.node_body[static_cast<std::size_t>(n)]; };
      ps.node_body.resize(ps.nodes.size());
      for (std::size_t k = 0; k < ps.nodes.size(); ++k) ps.node_body[k] = body(ps.nodes[k]);
      ps.seg_body.resize(s.size());
      for (std::size_t e = 0; e < s.size(); ++e) {
        const int b = body(s.seg[e][0]);
        bool same = b >= 0;
        for (int a = 1; a < 4 && same; ++a) same = body(s.seg[e][a]) == b;
        ps.seg_body[e] = same ? b : -1;
      }
      // nothing rigid in this pass: no body tests in the search
      const bool any =
          std::any_of(ps.seg_body.begin(), ps.seg_body.end(), [](int b) { return b >= 0; });
      if (!any) ps.node_body.clear(), ps.seg_body.clear();
    }
    build_adjacency(s, ps);
    const std::size_t n = ps.nodes.size();
    ps.tracked.assign(n, kInvalidLocal);
    ps.contact_side.assign(n, 0);
    ps.ft.assign(3 * n, 0.0);
    ps.pen_prev.assign(n, 0.0);
    ps.offset.assign(n, 0.0);
    ps.released.assign(n, 0);
    ps.seg_of.assign(n, kInvalidLocal);
    ps.fn.assign(3 * n, 0.0);
    ps.shape.assign(4 * n, 0.0);
    if (p.tiebreak != 0 || p.tied) {
      ps.tie_state.assign(n, 0);
      ps.tie_seg.assign(n, kInvalidLocal);
      ps.tie_shape.assign(4 * n, 0.0);
      ps.tie_gap.assign(n, 0.0);
      ps.tie_now.assign(n, 0);
      ps.tie_corner.assign(12 * n, 0.0);
      // Each node's share of the area of its own surface's segments (tie stresses); a node that
      // is on no segment of it (a listed node) takes the mean segment area of the other side.
      const Surface& own =
          on_main || p.type == ContactType::single_surface ? ifc.secondary : ifc.main;
      ps.node_area.assign(n, 0.0);
      for (std::size_t e = 0; e < own.size(); ++e) {
        const Segment& c = own.seg[e];
        const int nv = c[2] == c[3] ? 3 : 4;
        for (int a = 0; a < nv; ++a) {
          const auto it = std::lower_bound(ps.nodes.begin(), ps.nodes.end(), c[a]);
          if (it != ps.nodes.end() && *it == c[a])
            ps.node_area[static_cast<std::size_t>(it - ps.nodes.begin())] += own.area0[e] / nv;
        }
      }
      Real mean = 0;
      for (Real a : s.area0) mean += a;
      if (!s.area0.empty()) mean /= static_cast<Real>(s.area0.size());
      for (Real& a : ps.node_area)
        if (!(a > 0)) a = mean;
    }
    st.passes.push_back(std::move(ps));
  };
  auto half_t_of = [&](const Surface& s, bool main_side) {
    std::vector<Real> h(s.size());
    for (std::size_t e = 0; e < s.size(); ++e) h[e] = seg_contact_half_t(p, s, e, main_side);
    return h;
  };
  auto listed_nodes = [&]() {
    std::vector<std::pair<LocalId, Real>> nt;
    for (std::size_t i = 0; i < ifc.secondary_nodes.size(); ++i) {
      // (the order of seg_contact_half_t: OPTT, else SST, else the shell thickness x SFST)
      const Real fixed = i < ifc.secondary_node_fixed_thickness.size()
                             ? ifc.secondary_node_fixed_thickness[i]
                             : 0.0;
      Real t = i < ifc.secondary_node_thickness.size() ? ifc.secondary_node_thickness[i] : 0.0;
      if (fixed > 0)
        t = fixed;
      else if (t > 0)
        t = p.sst > 0 ? p.sst : t * p.sfst;
      nt.emplace_back(ifc.secondary_nodes[i], 0.5 * t);
    }
    std::sort(nt.begin(), nt.end());
    std::vector<LocalId> n;
    std::vector<Real> h;
    for (const auto& [a, b] : nt) {
      if (!n.empty() && n.back() == a) {
        h.back() = std::max(h.back(), b);
        continue;
      }
      n.push_back(a);
      h.push_back(b);
    }
    return std::make_pair(n, h);
  };
  switch (p.type) {
  case ContactType::nodes_to_surface: {
    auto [n, h] = listed_nodes();
    make_pass(std::move(n), std::move(h), true);
    break;
  }
  case ContactType::surface_to_surface: {
    if (ifc.secondary_nodes.empty()) {
      auto n = ifc.secondary.nodes();
      auto h = node_half_t_from_surface(n, half_t_of(ifc.secondary, false), ifc.secondary);
      make_pass(std::move(n), std::move(h), true);
    } else {
      auto [n, h] = listed_nodes();
      make_pass(std::move(n), std::move(h), true);
    }
    auto n = ifc.main.nodes();
    auto h = node_half_t_from_surface(n, half_t_of(ifc.main, true), ifc.main);
    make_pass(std::move(n), std::move(h), false);
    break;
  }
  case ContactType::single_surface: {
    auto n = ifc.secondary.nodes();
    auto h = node_half_t_from_surface(n, half_t_of(ifc.secondary, false), ifc.secondary);
    make_pass(std::move(n), std::move(h), false);
    // The neighbourhood of each node: the nodes of the segments that contain it.
    Pass& ps = st.passes.back();
    std::vector<std::int64_t> index(nnode, -1);
    for (std::size_t k = 0; k < ps.nodes.size(); ++k)
      index[static_cast<std::size_t>(ps.nodes[k])] = static_cast<std::int64_t>(k);
    // (one CSR with room for every corner of every segment, each row then sorted, made unique
    // and packed in place: no list per node)
    std::vector<std::int64_t> fill(ps.nodes.size() + 1, 0);
    for (const Segment& c : ifc.secondary.seg)
      for (LocalId a : c)
        if (index[static_cast<std::size_t>(a)] >= 0)
          fill[static_cast<std::size_t>(index[static_cast<std::size_t>(a)]) + 1] += 4;
    for (std::size_t k = 0; k < ps.nodes.size(); ++k) fill[k + 1] += fill[k];
    std::vector<LocalId> ring(static_cast<std::size_t>(fill.back()));
    std::vector<std::int64_t> at(fill.begin(), fill.end() - 1);
    for (const Segment& c : ifc.secondary.seg)
      for (LocalId a : c)
        if (index[static_cast<std::size_t>(a)] >= 0)
          for (LocalId b : c)
            ring[static_cast<std::size_t>(
                at[static_cast<std::size_t>(index[static_cast<std::size_t>(a)])]++)] = b;
    at = {};
    index = {};
    ps.ring_start.assign(ps.nodes.size() + 1, 0);
    std::size_t packed = 0;
    for (std::size_t k = 0; k < ps.nodes.size(); ++k) {
      const auto b = ring.begin() + fill[k], e = ring.begin() + fill[k + 1];
      std::sort(b, e);
      const auto u = std::unique(b, e);
      const auto n = static_cast<std::size_t>(u - b);
      if (packed != static_cast<std::size_t>(fill[k])) // (packed < fill[k]: no overlap issue)
        std::copy(b, u, ring.begin() + static_cast<std::ptrdiff_t>(packed));
      packed += n;
      ps.ring_start[k + 1] = static_cast<std::int64_t>(packed);
    }
    ring.resize(packed);
    ring.shrink_to_fit();
    ps.ring_nodes = std::move(ring);
    break;
  }
  }
  // all nodes of the interface
  std::vector<LocalId> all;
  for (const auto& ps : st.passes) all.insert(all.end(), ps.nodes.begin(), ps.nodes.end());
  for (const auto& s : {&ifc.main, &ifc.secondary}) {
    auto n = s->nodes();
    all.insert(all.end(), n.begin(), n.end());
  }
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  for (LocalId n : all)
    if (n < 0 || static_cast<std::size_t>(n) >= nnode)
      throw InputError({}, "contact: node index out of range");
  st.all_nodes = std::move(all);
  st.slot_of.assign(nnode, kInvalidLocal);
  for (std::size_t i = 0; i < st.all_nodes.size(); ++i)
    st.slot_of[static_cast<std::size_t>(st.all_nodes[i])] = static_cast<LocalId>(i);
  st.slot_main.assign(st.all_nodes.size(), 0);
  if (p.type != ContactType::single_surface) {
    for (LocalId n : ifc.main.nodes())
      st.slot_main[static_cast<std::size_t>(st.slot_of[static_cast<std::size_t>(n)])] = 1;
    for (LocalId n : st.passes[0].nodes)
      st.slot_main[static_cast<std::size_t>(st.slot_of[static_cast<std::size_t>(n)])] = 0;
  }
  st.f_prev.assign(3 * st.all_nodes.size(), 0.0);
  st.f_now.assign(3 * st.all_nodes.size(), 0.0);
  // margin: half the mean edge length of all segments
  if (p.search_margin > 0) {
    st.margin = p.search_margin;
  } else {
    Real sum = 0;
    std::size_t cnt = 0;
    for (const auto& s : {&ifc.main, &ifc.secondary})
      for (const auto& c : s->seg)
        for (int k = 0; k < 4; ++k) {
          const LocalId a = c[k], b = c[(k + 1) % 4];
          if (a == b) continue;
          Real d2 = 0;
          for (int i = 0; i < 3; ++i) {
            const Real d =
                x[3 * static_cast<std::size_t>(a) + i] - x[3 * static_cast<std::size_t>(b) + i];
            d2 += d * d;
          }
          sum += std::sqrt(d2);
          ++cnt;
        }
    st.margin = cnt ? 0.5 * sum / static_cast<Real>(cnt) : 0.0;
  }
  bucket_search(ifc, st, x);
  return st;
}

bool update_search(const Interface& ifc, ContactState& st, std::span<const Real> x,
                   std::int64_t cycle) {
  bool due = ifc.p.search_interval > 0 && cycle - st.last_search_cycle >= ifc.p.search_interval;
  if (!due && ifc.p.adaptive_search) {
    const std::int64_t n = static_cast<std::int64_t>(st.all_nodes.size());
    Real m2 = 0;
#pragma omp parallel for reduction(max : m2) schedule(static) if (n > 4096)
    for (std::int64_t i = 0; i < n; ++i) {
      const auto g = 3 * static_cast<std::size_t>(st.all_nodes[static_cast<std::size_t>(i)]);
      Real d2 = 0;
      for (int k = 0; k < 3; ++k) {
        const Real d = x[g + k] - st.x_search[3 * static_cast<std::size_t>(i) + k];
        d2 += d * d;
      }
      m2 = std::max(m2, d2);
    }
    due = m2 > 0.25 * st.margin * st.margin;
  }
  if (!due) return false;
  bucket_search(ifc, st, x);
  st.last_search_cycle = cycle;
  return true;
}

Real largest_predicted_move(const ContactState& st, std::span<const Real> x,
                            std::span<const Real> v, Real dt, std::span<const LocalId> slots) {
  const bool all = slots.empty();
  const std::int64_t n = static_cast<std::int64_t>(all ? st.all_nodes.size() : slots.size());
  Real m = 0;
#pragma omp parallel for reduction(max : m) schedule(static) if (n > 4096)
  for (std::int64_t k = 0; k < n; ++k) {
    const auto s = static_cast<std::size_t>(all ? k : slots[static_cast<std::size_t>(k)]);
    const auto g = 3 * static_cast<std::size_t>(st.all_nodes[s]);
    Real d2 = 0, v2 = 0;
    for (int c = 0; c < 3; ++c) {
      const Real d = x[g + c] - st.x_search[3 * s + c];
      d2 += d * d;
      v2 += v[g + c] * v[g + c];
    }
    m = std::max(m, std::sqrt(d2) + 2 * dt * std::sqrt(v2));
  }
  return m;
}

void schedule_search(const Interface& ifc, ContactState& st, Real global_move) {
  st.search_due_next = ifc.p.adaptive_search && global_move > 0.5 * st.margin ? 1 : 0;
}

bool search_if_due(const Interface& ifc, ContactState& st, std::span<const Real> x,
                   std::int64_t cycle) {
  const bool due =
      st.search_due_next != 0 ||
      (ifc.p.search_interval > 0 && cycle - st.last_search_cycle >= ifc.p.search_interval);
  if (!due) return false;
  bucket_search(ifc, st, x);
  st.last_search_cycle = cycle;
  st.search_due_next = 0;
  return true;
}

void bucket_search(const Interface& ifc, ContactState& st, std::span<const Real> x) {
  for (auto& ps : st.passes) {
    const Surface& s = surface_of(ifc, ps);
    const std::size_t ns = s.size(), nn = ps.nodes.size();
    const Real node_r_max = max_of(ps.node_half_t);
    // cell size: the mean grown segment box extent (its largest side). A larger segment spans
    // more cells; sizing the cells by the largest one would put every node of a finely meshed
    // part into one cell, and each of its segments would test them all.
    Real h = 0;
    std::size_t n_avail = 0;
    for (std::size_t e = 0; e < ns; ++e) {
      if (!ps.available(static_cast<LocalId>(e))) continue;
      Real lo[3], hi[3];
      seg_box(s.seg[e], x, ps.seg_half_t[e] + st.margin + node_r_max, lo, hi);
      h += std::max({hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]});
      ++n_avail;
    }
    // (half of it: fewer nodes per cell to test, measured best on the bolted-connection deck)
    if (n_avail > 0) h *= 0.5 / static_cast<Real>(n_avail);
    if (!(h > 0) || !std::isfinite(h)) h = 1;
    const Real inv_h = 1.0 / h;
    // hash table of 2^b buckets >= 2 * nn; counting sort of the nodes by bucket
    std::size_t tsize = 1;
    while (tsize < 2 * nn + 1) tsize <<= 1;
    const std::uint64_t mask = tsize - 1;
    // Single surface: the segments that touch a node's neighbourhood are not its candidates.
    // A segment c touches the neighbourhood of node k when a corner of c shares a segment with
    // k, that is when k is in the neighbourhood of a corner of c (the relation is symmetric):
    // visit marks those nodes once per segment (mark[node] = segment) instead of scanning the
    // ring of every node it tests.
    const bool rings = !ps.ring_start.empty();
    std::vector<std::int64_t> pass_index;
    if (rings) {
      pass_index.assign(x.size() / 3, -1);
      for (std::size_t k = 0; k < nn; ++k)
        pass_index[static_cast<std::size_t>(ps.nodes[k])] = static_cast<std::int64_t>(k);
    }
    auto cell = [&](Real v) { return static_cast<std::int64_t>(std::floor(v * inv_h)); };
    auto hash = [&](std::int64_t i, std::int64_t j, std::int64_t k) {
      std::uint64_t a = static_cast<std::uint64_t>(i) * 73856093ULL ^
                        static_cast<std::uint64_t>(j) * 19349663ULL ^
                        static_cast<std::uint64_t>(k) * 83492791ULL;
      a ^= a >> 29;
      a *= 0xbf58476d1ce4e5b9ULL;
      a ^= a >> 32;
      return a & mask;
    };
    // Rigid bodies: a node carried by a body can only touch the segments of other bodies (or
    // deformable ones); it is sorted in only when it lies in the box around those (one box per
    // body, at most kBodyBoxes of them, else every node is sorted in).
    constexpr std::size_t kBodyBoxes = 64;
    struct BodyBox {
      int body;
      Real lo[3], hi[3];
    };
    std::vector<BodyBox> boxes;
    bool filter = !ps.seg_body.empty();
    if (filter) {
      for (std::size_t e = 0; e < ns && filter; ++e) {
        if (!ps.available(static_cast<LocalId>(e))) continue;
        Real lo[3], hi[3];
        seg_box(s.seg[e], x, ps.seg_half_t[e] + st.margin + node_r_max, lo, hi);
        const int b = ps.seg_body[e];
        auto it =
            std::find_if(boxes.begin(), boxes.end(), [b](const BodyBox& q) { return q.body == b; });
        if (it == boxes.end()) {
          if (boxes.size() == kBodyBoxes) {
            filter = false;
            break;
          }
          boxes.push_back({b, {lo[0], lo[1], lo[2]}, {hi[0], hi[1], hi[2]}});
          continue;
        }
        for (int i = 0; i < 3; ++i) {
          it->lo[i] = std::min(it->lo[i], lo[i]);
          it->hi[i] = std::max(it->hi[i], hi[i]);
        }
      }
    }
    auto near_other_body = [&](std::size_t i, const Real* q) {
      const int b = ps.node_body[i];
      if (b < 0) return true;
      for (const BodyBox& q_box : boxes)
        if (q_box.body != b && q[0] >= q_box.lo[0] && q[0] <= q_box.hi[0] && q[1] >= q_box.lo[1] &&
            q[1] <= q_box.hi[1] && q[2] >= q_box.lo[2] && q[2] <= q_box.hi[2])
          return true;
      return false;
    };
    std::vector<std::uint64_t> bucket_of(nn);
    std::vector<std::int64_t> bstart(tsize + 1, 0);
    std::vector<std::uint8_t> sorted_in(nn, 0);
    // (MPP: only this rank's nodes are sorted in, so only they get candidates)
    std::size_t n_in = 0;
    // (the box of the sorted-in nodes: a segment whose grown box misses it has no candidates)
    Real nlo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, nhi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    for (std::size_t i = 0; i < nn; ++i) {
      if (!ps.is_mine(i)) continue;
      if (filter && !near_other_body(i, &x[3 * static_cast<std::size_t>(ps.nodes[i])])) continue;
      sorted_in[i] = 1;
      const auto g = 3 * static_cast<std::size_t>(ps.nodes[i]);
      for (int c = 0; c < 3; ++c) {
        nlo[c] = std::min(nlo[c], x[g + c]);
        nhi[c] = std::max(nhi[c], x[g + c]);
      }
      bucket_of[i] = hash(cell(x[g]), cell(x[g + 1]), cell(x[g + 2]));
      ++bstart[bucket_of[i] + 1];
      ++n_in;
    }
    for (std::size_t b = 0; b < tsize; ++b) bstart[b + 1] += bstart[b];
    std::vector<LocalId> bnodes(n_in);
    {
      std::vector<std::int64_t> pos(bstart.begin(), bstart.end() - 1);
      for (std::size_t i = 0; i < nn; ++i)
        if (sorted_in[i] != 0)
          bnodes[static_cast<std::size_t>(pos[bucket_of[i]]++)] = static_cast<LocalId>(i);
    }
    // per segment: the nodes it has as candidates
    // (each node is tested once per segment: the buckets of the segment's cells, without
    // repeats; a segment spanning more cells than there are nodes tests every node)
    auto visit = [&](std::size_t e, std::vector<std::uint32_t>& seen, std::vector<LocalId>& mark,
                     auto&& emit) {
      if (n_in == 0 || !ps.available(static_cast<LocalId>(e))) return;
      Real lo[3], hi[3];
      const Segment& c = s.seg[e];
      seg_box(c, x, ps.seg_half_t[e] + st.margin, lo, hi);
      for (int d = 0; d < 3; ++d)
        if (lo[d] - node_r_max > nhi[d] || hi[d] + node_r_max < nlo[d]) return;
      const auto se = static_cast<LocalId>(e);
      if (rings)
        for (LocalId n : c) {
          const std::int64_t kn = pass_index[static_cast<std::size_t>(n)];
          if (kn < 0) continue;
          const auto ukn = static_cast<std::size_t>(kn);
          for (std::int64_t j = ps.ring_start[ukn]; j < ps.ring_start[ukn + 1]; ++j)
            mark[static_cast<std::size_t>(ps.ring_nodes[static_cast<std::size_t>(j)])] = se;
        }
      auto test = [&](LocalId k) {
        const LocalId node = ps.nodes[static_cast<std::size_t>(k)];
        const Real* qx = &x[3 * static_cast<std::size_t>(node)];
        if (rings && mark[static_cast<std::size_t>(node)] == se) return;
        if (is_candidate(ps, static_cast<std::size_t>(k), e, c, node, qx, lo, hi,
                         ps.node_half_t[static_cast<std::size_t>(k)], false))
          emit(k);
      };
      const std::int64_t i0 = cell(lo[0] - node_r_max), i1 = cell(hi[0] + node_r_max);
      const std::int64_t j0 = cell(lo[1] - node_r_max), j1 = cell(hi[1] + node_r_max);
      const std::int64_t k0 = cell(lo[2] - node_r_max), k1 = cell(hi[2] + node_r_max);
      const double cells = static_cast<double>(i1 - i0 + 1) * static_cast<double>(j1 - j0 + 1) *
                           static_cast<double>(k1 - k0 + 1);
      if (!(cells <= static_cast<double>(n_in))) {
        for (LocalId k : bnodes) test(k);
        return;
      }
      // (a bucket holds several cells' nodes when their hashes collide: seen[b] = e + 1 marks
      // the buckets this segment has scanned)
      const auto stamp = static_cast<std::uint32_t>(e + 1);
      for (std::int64_t i = i0; i <= i1; ++i)
        for (std::int64_t j = j0; j <= j1; ++j)
          for (std::int64_t k = k0; k <= k1; ++k) {
            const std::uint64_t b = hash(i, j, k);
            if (bstart[b] == bstart[b + 1] || seen[b] == stamp) continue;
            seen[b] = stamp;
            for (std::int64_t q = bstart[b]; q < bstart[b + 1]; ++q)
              test(bnodes[static_cast<std::size_t>(q)]);
          }
    };
    // One traversal: each thread takes a contiguous range of segments and keeps its
    // (segment-ordered) candidates; the ranges are joined in order, so the lists are the same
    // for any thread count.
    std::vector<std::int64_t> seg_start(ns + 1, 0);
    std::vector<std::vector<LocalId>> part(static_cast<std::size_t>(omp_get_max_threads()));
#pragma omp parallel if (ns > 1024)
    {
      const auto nt = static_cast<std::size_t>(omp_get_num_threads());
      const auto t = static_cast<std::size_t>(omp_get_thread_num());
      std::vector<LocalId>& out = part[t];
      std::vector<std::uint32_t> seen(tsize, 0);
      std::vector<LocalId> mark(rings ? x.size() / 3 : 0, kInvalidLocal);
      for (std::size_t e = ns * t / nt; e < ns * (t + 1) / nt; ++e) {
        const std::size_t before = out.size();
        visit(e, seen, mark, [&](LocalId k) { out.push_back(k); });
        seg_start[e + 1] = static_cast<std::int64_t>(out.size() - before);
      }
    }
    for (std::size_t e = 0; e < ns; ++e) seg_start[e + 1] += seg_start[e];
    std::vector<LocalId> seg_nodes;
    seg_nodes.reserve(static_cast<std::size_t>(seg_start[ns]));
    for (const auto& p : part) seg_nodes.insert(seg_nodes.end(), p.begin(), p.end());
    set_candidates(ps, seg_start, seg_nodes);
  }
  // positions at this search
  st.x_search.resize(3 * st.all_nodes.size());
  for (std::size_t i = 0; i < st.all_nodes.size(); ++i)
    for (int k = 0; k < 3; ++k)
      st.x_search[3 * i + k] = x[3 * static_cast<std::size_t>(st.all_nodes[i]) + k];
  ++st.n_searches;
}

void all_pairs_search(const Interface& ifc, ContactState& st, std::span<const Real> x) {
  for (auto& ps : st.passes) {
    const Surface& s = surface_of(ifc, ps);
    std::vector<std::int64_t> seg_start(s.size() + 1, 0);
    std::vector<LocalId> seg_nodes;
    for (std::size_t e = 0; e < s.size(); ++e) {
      Real lo[3], hi[3];
      seg_box(s.seg[e], x, ps.seg_half_t[e] + st.margin, lo, hi);
      for (std::size_t k = 0; k < ps.nodes.size(); ++k) {
        const Real* qx = &x[3 * static_cast<std::size_t>(ps.nodes[k])];
        if (is_candidate(ps, k, e, s.seg[e], ps.nodes[k], qx, lo, hi, ps.node_half_t[k]))
          seg_nodes.push_back(static_cast<LocalId>(k));
      }
      seg_start[e + 1] = static_cast<std::int64_t>(seg_nodes.size());
    }
    set_candidates(ps, seg_start, seg_nodes);
  }
}

} // namespace parcae::contact
