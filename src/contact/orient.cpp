// Automatic orientation of a main (tool) surface for the forming contacts (orient_toward in
// contact.hpp).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <utility>

#include "contact/contact.hpp"

namespace parcae::contact {

namespace {

/// The distinct directed edges of segment s (3 for a triangle n[2] == n[3], else 4).
int segment_edges(const Segment& s, std::pair<LocalId, LocalId> (&e)[4]) {
  if (s[2] == s[3]) {
    e[0] = {s[0], s[1]};
    e[1] = {s[1], s[2]};
    e[2] = {s[2], s[0]};
    return 3;
  }
  for (int a = 0; a < 4; ++a) e[a] = {s[a], s[(a + 1) % 4]};
  return 4;
}

/// Reverses the node order of a segment (its normal changes sign); triangles keep n[2] == n[3].
Segment reversed(const Segment& s) {
  if (s[2] == s[3]) return {s[0], s[2], s[1], s[1]};
  return {s[0], s[3], s[2], s[1]};
}

struct Geo {
  Real c[3], n[3]; ///< centroid, normal (unnormalised: its sign is what matters)
};

Geo segment_geo(const Segment& s, std::span<const Real> x) {
  Geo g{};
  const bool tri = s[2] == s[3];
  const int nn = tri ? 3 : 4;
  for (int a = 0; a < nn; ++a)
    for (int k = 0; k < 3; ++k) g.c[k] += x[3 * static_cast<std::size_t>(s[a]) + k] / nn;
  Real d1[3], d2[3];
  for (int k = 0; k < 3; ++k) {
    const auto at = [&](int a) { return x[3 * static_cast<std::size_t>(s[a]) + k]; };
    d1[k] = at(2) - at(0);
    d2[k] = at(3) - at(1);
  }
  g.n[0] = d1[1] * d2[2] - d1[2] * d2[1];
  g.n[1] = d1[2] * d2[0] - d1[0] * d2[2];
  g.n[2] = d1[0] * d2[1] - d1[1] * d2[0];
  return g;
}

} // namespace

OrientReport orient_toward(Surface& surf, std::span<const LocalId> nodes, std::span<const Real> x) {
  OrientReport rep;
  const std::size_t ns = surf.size();
  if (ns == 0) return rep;
  // undirected edge -> segments holding it
  std::map<std::pair<LocalId, LocalId>, std::vector<std::size_t>> edge_segs;
  for (std::size_t k = 0; k < ns; ++k) {
    std::pair<LocalId, LocalId> e[4];
    const int ne = segment_edges(surf.seg[k], e);
    for (int a = 0; a < ne; ++a)
      edge_segs[{std::min(e[a].first, e[a].second), std::max(e[a].first, e[a].second)}].push_back(
          k);
  }
  // 1. consistent orientation over each edge-connected patch (breadth first from the lowest
  // unvisited segment; a neighbour must run the shared edge the other way)
  std::vector<std::int64_t> patch(ns, -1);
  std::vector<std::uint8_t> flip(ns, 0);
  std::vector<std::size_t> queue;
  for (std::size_t root = 0; root < ns; ++root) {
    if (patch[root] >= 0) continue;
    const auto id = static_cast<std::int64_t>(rep.patches++);
    patch[root] = id;
    queue.assign(1, root);
    for (std::size_t q = 0; q < queue.size(); ++q) {
      const std::size_t k = queue[q];
      const Segment cur = flip[k] ? reversed(surf.seg[k]) : surf.seg[k];
      std::pair<LocalId, LocalId> e[4];
      const int ne = segment_edges(cur, e);
      for (int a = 0; a < ne; ++a) {
        const auto key =
            std::make_pair(std::min(e[a].first, e[a].second), std::max(e[a].first, e[a].second));
        for (std::size_t j : edge_segs[key]) {
          if (patch[j] >= 0) continue;
          // j as stored: does it run the edge the same way as cur (then it must be reversed)?
          std::pair<LocalId, LocalId> f[4];
          const int nf = segment_edges(surf.seg[j], f);
          bool same = false;
          for (int b = 0; b < nf; ++b) same = same || f[b] == e[a];
          flip[j] = same ? 1 : 0;
          patch[j] = id;
          queue.push_back(j);
        }
      }
    }
  }
  // 2. each patch faces the secondary nodes: every (sampled) node votes with the side it lies
  // on at its nearest segment (centroid distance) of the patch
  std::vector<Geo> geo(ns);
  for (std::size_t k = 0; k < ns; ++k) {
    geo[k] = segment_geo(flip[k] ? reversed(surf.seg[k]) : surf.seg[k], x);
  }
  constexpr std::size_t kMaxVoters = 256; // the vote is a majority: a sample is enough
  const std::size_t stride = std::max<std::size_t>(1, (nodes.size() + kMaxVoters - 1) / kMaxVoters);
  std::vector<std::int64_t> votes(rep.patches, 0);
  std::vector<Real> best(rep.patches);
  std::vector<std::int64_t> side(rep.patches);
  for (std::size_t i = 0; i < nodes.size(); i += stride) {
    const Real* p = &x[3 * static_cast<std::size_t>(nodes[i])];
    std::fill(best.begin(), best.end(), std::numeric_limits<Real>::infinity());
    std::fill(side.begin(), side.end(), 0);
    for (std::size_t k = 0; k < ns; ++k) {
      const Geo& g = geo[k];
      const Real dx = p[0] - g.c[0], dy = p[1] - g.c[1], dz = p[2] - g.c[2];
      const Real d2 = dx * dx + dy * dy + dz * dz;
      const auto pk = static_cast<std::size_t>(patch[k]);
      if (d2 < best[pk]) {
        best[pk] = d2;
        const Real s = dx * g.n[0] + dy * g.n[1] + dz * g.n[2];
        side[pk] = s > 0 ? 1 : (s < 0 ? -1 : 0);
      }
    }
    for (std::size_t pk = 0; pk < rep.patches; ++pk) votes[pk] += side[pk];
  }
  std::vector<std::uint8_t> patch_flip(rep.patches, 0);
  for (std::size_t pk = 0; pk < rep.patches; ++pk) patch_flip[pk] = votes[pk] < 0 ? 1 : 0;
  for (std::size_t k = 0; k < ns; ++k) {
    const bool f = (flip[k] != 0) != (patch_flip[static_cast<std::size_t>(patch[k])] != 0);
    if (f) {
      surf.seg[k] = reversed(surf.seg[k]);
      ++rep.reversed;
    }
  }
  return rep;
}

} // namespace parcae::contact
