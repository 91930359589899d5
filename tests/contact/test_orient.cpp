// orient_toward (forming contacts): the main surface's segments end up consistently oriented
// over each edge-connected patch and facing the given nodes, whatever their initial order.
// Exact checks (signs of normals, node orders): no tolerance needed.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "contact/contact.hpp"

using namespace parcae;
using namespace parcae::contact;

namespace {

/// Normal (x2 - x0) x (x3 - x1) of segment s.
std::array<Real, 3> normal(const Segment& s, const std::vector<Real>& x) {
  Real d1[3], d2[3];
  for (int k = 0; k < 3; ++k) {
    d1[k] = x[3 * s[2] + k] - x[3 * s[0] + k];
    d2[k] = x[3 * s[3] + k] - x[3 * s[1] + k];
  }
  return {d1[1] * d2[2] - d1[2] * d2[1], d1[2] * d2[0] - d1[0] * d2[2],
          d1[0] * d2[1] - d1[1] * d2[0]};
}

/// A cylinder of radius r along y (n_theta x n_y quads, half of them triangulated), nodes
/// appended to x; segments in random orientation.
std::vector<Segment> cylinder(std::vector<Real>& x, Real cx, Real cz, Real r, int nt, int ny,
                              std::mt19937& gen) {
  const auto base = static_cast<LocalId>(x.size() / 3);
  for (int j = 0; j <= ny; ++j)
    for (int i = 0; i < nt; ++i) {
      const Real th = 2 * M_PI * i / nt;
      x.insert(x.end(), {cx + r * std::cos(th), Real(j), cz + r * std::sin(th)});
    }
  auto id = [&](int i, int j) { return base + static_cast<LocalId>(j * nt + (i % nt)); };
  std::vector<Segment> segs;
  std::bernoulli_distribution coin(0.5);
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nt; ++i) {
      const LocalId a = id(i, j), b = id(i + 1, j), c = id(i + 1, j + 1), d = id(i, j + 1);
      if ((i + j) % 3 == 0) { // two triangles
        segs.push_back(coin(gen) ? Segment{a, b, c, c} : Segment{a, c, b, b});
        segs.push_back(coin(gen) ? Segment{a, c, d, d} : Segment{a, d, c, c});
      } else {
        segs.push_back(coin(gen) ? Segment{a, b, c, d} : Segment{a, d, c, b});
      }
    }
  return segs;
}

} // namespace

TEST(ContactOrient, CylindersAndPlateFaceTheBlank) {
  // Roll forming: a blank (a grid of nodes in the plane z = 0) between an upper roll (axis at
  // z = +6) and a lower roll (z = -6), both of radius 5, and a flat guide plate at z = -1
  // beside them. Every tool segment must face the blank: outward on the rolls, +z on the plate.
  std::mt19937 gen(2024);
  std::vector<Real> x;
  Surface s;
  const auto upper = cylinder(x, 0.0, 6.0, 5.0, 24, 4, gen);
  const auto lower = cylinder(x, 0.0, -6.0, 5.0, 24, 4, gen);
  s.seg = upper;
  s.seg.insert(s.seg.end(), lower.begin(), lower.end());
  const auto pb = static_cast<LocalId>(x.size() / 3);
  for (int j = 0; j <= 2; ++j)
    for (int i = 0; i <= 2; ++i) x.insert(x.end(), {20.0 + i, Real(j), -1.0});
  std::bernoulli_distribution coin(0.5);
  for (int j = 0; j < 2; ++j)
    for (int i = 0; i < 2; ++i) {
      const LocalId a = pb + j * 3 + i, b = a + 1, c = a + 4, d = a + 3;
      s.seg.push_back(coin(gen) ? Segment{a, b, c, d} : Segment{a, d, c, b});
    }
  std::vector<LocalId> blank;
  for (int i = -10; i <= 30; ++i)
    for (int j = 0; j <= 4; ++j) {
      blank.push_back(static_cast<LocalId>(x.size() / 3));
      x.insert(x.end(), {Real(i), Real(j), 0.0});
    }
  const OrientReport rep = orient_toward(s, blank, x);
  EXPECT_EQ(rep.patches, 3u);
  EXPECT_GT(rep.reversed, 0u);
  const std::size_t nu = upper.size(), nl = lower.size();
  for (std::size_t k = 0; k < s.size(); ++k) {
    const auto n = normal(s.seg[k], x);
    Real c[3] = {0, 0, 0};
    const int nn = s.seg[k][2] == s.seg[k][3] ? 3 : 4;
    for (int a = 0; a < nn; ++a)
      for (int q = 0; q < 3; ++q) c[q] += x[3 * s.seg[k][a] + q] / nn;
    if (k < nu) // outward from the upper axis (0, *, 6)
      EXPECT_GT(n[0] * c[0] + n[2] * (c[2] - 6.0), 0.0) << k;
    else if (k < nu + nl) // outward from the lower axis
      EXPECT_GT(n[0] * c[0] + n[2] * (c[2] + 6.0), 0.0) << k;
    else // the plate faces +z, towards the blank
      EXPECT_GT(n[2], 0.0) << k;
    // triangles keep n2 == n3 and their three nodes
    if (nn == 3) EXPECT_EQ(s.seg[k][2], s.seg[k][3]);
  }
  // idempotent: a second call changes nothing
  const auto before = s.seg;
  EXPECT_EQ(orient_toward(s, blank, x).reversed, 0u);
  EXPECT_EQ(s.seg, before);
}

TEST(ContactOrient, PlateBelowAndAboveTheNodes) {
  // One plate, consistently ordered with normal +z; nodes below it: every segment reversed.
  std::vector<Real> x;
  for (int j = 0; j <= 3; ++j)
    for (int i = 0; i <= 3; ++i) x.insert(x.end(), {Real(i), Real(j), 0.0});
  Surface s;
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i) {
      const LocalId a = j * 4 + i;
      s.seg.push_back({a, a + 1, a + 5, a + 4}); // +z
    }
  std::vector<LocalId> below{static_cast<LocalId>(x.size() / 3)};
  x.insert(x.end(), {1.5, 1.5, -0.7});
  Surface t = s;
  EXPECT_EQ(orient_toward(t, below, x).reversed, 9u);
  for (const auto& q : t.seg) EXPECT_LT(normal(q, x)[2], 0.0);
  std::vector<LocalId> above{static_cast<LocalId>(x.size() / 3)};
  x.insert(x.end(), {1.5, 1.5, 0.7});
  Surface u = s;
  EXPECT_EQ(orient_toward(u, above, x).reversed, 0u);
  EXPECT_EQ(u.seg, s.seg);
}
