// The force kernel's candidate screen (contact/cull.hpp): the lane-vector kernels against their
// scalar references, bit for bit, on random segments (flat, warped, triangles, bowties,
// degenerate) and nodes around them. (That the screen rejects no contact: ContactForces.*
// against the all-pairs reference in test_contact.cpp, and the corpus decks' identical results.)
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "contact/cull.hpp"

using namespace parcae;
using namespace parcae::contact;

namespace {

// n random segments over their own corners in x: a unit-ish quad (random shape, warp, size),
// a fifth of them triangles (n3 == n4), some bowties, a few degenerate (collapsed to a line or
// a point).
std::vector<Segment> random_segments(std::vector<Real>& x, int n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<Real> u(-1, 1);
  std::vector<Segment> seg;
  for (int s = 0; s < n; ++s) {
    const Real size = std::pow(10.0, 2 * u(rng)); // 0.01 .. 100
    const Real warp = (s % 3 == 0) ? 0.0 : 0.3 * u(rng);
    const Real cx = 50 * u(rng), cy = 50 * u(rng), cz = 50 * u(rng);
    const auto first = static_cast<LocalId>(x.size() / 3);
    const Real base[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
    for (int a = 0; a < 4; ++a) {
      Real px = size * (base[a][0] + 0.3 * u(rng)), py = size * (base[a][1] + 0.3 * u(rng));
      Real pz = size * warp * (a % 2 == 0 ? 1 : -1);
      if (s % 17 == 5) px = py = pz = 0; // a point
      if (s % 19 == 7) py = pz = 0;      // a line
      x.insert(x.end(), {cx + px, cy + py, cz + pz});
    }
    Segment c{first, first + 1, first + 2, first + 3};
    if (s % 5 == 1) c[3] = c[2];
    if (s % 7 == 3) std::swap(c[2], c[3]); // a bowtie: not one-sided
    seg.push_back(c);
  }
  return seg;
}

} // namespace

TEST(ContactCull, BatchedSegmentDataEqualScalar) {
  std::vector<Real> x;
  const std::vector<Segment> seg = random_segments(x, 403, 7);
  std::vector<LocalId> ids(seg.size());
  for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<LocalId>(ids.size() - 1 - i);
  std::vector<SegCull> batched(seg.size());
  cull_segments(seg, ids.data(), ids.size(), x, batched.data());
  int planes = 0, one_sided = 0, tris = 0;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    SegCull ref;
    cull_box(seg[static_cast<std::size_t>(ids[i])], x, ref);
    cull_plane(seg[static_cast<std::size_t>(ids[i])], x, ref);
    const SegCull& b = batched[i];
    ASSERT_EQ(std::memcmp(ref.lo, b.lo, sizeof ref.lo), 0) << i;
    ASSERT_EQ(std::memcmp(ref.hi, b.hi, sizeof ref.hi), 0) << i;
    ASSERT_EQ(ref.plane, b.plane) << i;
    if (!ref.plane) continue;
    ++planes;
    one_sided += ref.one_sided;
    tris += ref.nv == 3;
    EXPECT_EQ(std::memcmp(ref.cen, b.cen, sizeof ref.cen), 0) << i;
    EXPECT_EQ(std::memcmp(ref.nrm, b.nrm, sizeof ref.nrm), 0) << i;
    EXPECT_EQ(std::memcmp(&ref.warp, &b.warp, sizeof ref.warp), 0) << i;
    EXPECT_EQ(ref.nv, b.nv) << i;
    EXPECT_EQ(ref.one_sided, b.one_sided) << i;
    for (int a = 0; a < ref.nv; ++a) {
      EXPECT_EQ(std::memcmp(ref.m[a], b.m[a], sizeof ref.m[a]), 0) << i << " edge " << a;
      EXPECT_EQ(std::memcmp(&ref.off[a], &b.off[a], sizeof(Real)), 0) << i << " edge " << a;
    }
  }
  // (every kind of segment was seen)
  EXPECT_GT(planes, 300);
  EXPECT_LT(planes, 403);
  EXPECT_GT(tris, 50);
  EXPECT_GT(one_sided, 100);
  EXPECT_LT(one_sided, planes);
}

TEST(ContactCull, BatchedScreenEqualsScalar) {
  std::vector<Real> x;
  const std::vector<Segment> seg = random_segments(x, 120, 11);
  std::mt19937 rng(3);
  std::uniform_real_distribution<Real> u(-1, 1);
  std::size_t passed = 0, total = 0;
  for (std::size_t e = 0; e < seg.size(); ++e) {
    SegCull g;
    cull_box(seg[e], x, g);
    cull_plane(seg[e], x, g);
    g.half_t = (e % 4 == 0) ? 0.0 : 0.05 * (1 + u(rng));
    g.release = 0.1 * (1 + u(rng));
    // 1 to 13 nodes around the segment's box (some n not a multiple of the lane count)
    const std::size_t n = 1 + e % 13;
    std::vector<std::int64_t> xi;
    std::vector<Real> htn;
    for (std::size_t r = 0; r < n; ++r) {
      xi.push_back(static_cast<std::int64_t>(x.size()));
      htn.push_back(r % 3 == 0 ? 0.0 : 0.05 * (1 + u(rng)));
      if (r % 2 == 1 && g.plane) {
        // near the plane test's bound: |dq| = (reach + warp) (1 +- 2 %), above the centre
        const Real reach = htn.back() + g.half_t + g.release;
        const Real d = (u(rng) > 0 ? 1 : -1) * (reach + g.warp) * (1 + 0.02 * u(rng));
        for (int i = 0; i < 3; ++i) x.push_back(g.cen[i] + d * g.nrm[i]);
        continue;
      }
      for (int i = 0; i < 3; ++i) {
        const Real mid = 0.5 * (g.lo[i] + g.hi[i]), half = 0.5 * (g.hi[i] - g.lo[i]) + 0.2;
        x.push_back(mid + 1.3 * half * u(rng));
      }
    }
    for (int side : {0, 1, -1, 2}) {
      std::vector<std::uint8_t> fast(n, 7), ref(n, 9);
      screen_nodes(g, side, x, xi.data(), htn.data(), n, fast.data());
      screen_nodes_reference(g, side, x, xi.data(), htn.data(), n, ref.data());
      for (std::size_t r = 0; r < n; ++r) {
        ASSERT_EQ(fast[r], ref[r]) << "segment " << e << " node " << r << " side " << side;
        passed += ref[r];
        ++total;
      }
    }
  }
  // both outcomes occur
  EXPECT_GT(passed, total / 20);
  EXPECT_LT(passed, total - total / 20);
}
