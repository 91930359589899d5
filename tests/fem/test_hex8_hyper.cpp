// The one-point hexahedron with a hyperelastic material (*MAT_027): the deformation gradient is
// taken from the current and initial corner coordinates, so an affine motion of any (distorted)
// element reproduces hyperelastic_stress(F) exactly, whatever the path, and a rigid rotation
// of a stretched element rotates its stress.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

#include "fem/hex8.hpp"

using namespace parcae;

namespace {

MaterialParams rubber(Real nu = 0.495) {
  Material m;
  m.id = 27;
  m.kind = MaterialKind::MooneyRivlin;
  m.ro = 9.2e-7;
  m.pr = nu;
  m.mr_a = 0.54;
  m.mr_b = 0.0475;
  m.e = 4 * (m.mr_a + m.mr_b) * (1 + nu);
  return make_material_params(m, Model{});
}

using Mat3 = std::array<std::array<Real, 3>, 3>;

/// One jittered (non-parallelepiped) hexahedron, nodes 0..7.
std::vector<Real> jittered_hex(unsigned seed) {
  constexpr Real kXi[8] = {-1, 1, 1, -1, -1, 1, 1, -1};
  constexpr Real kEta[8] = {-1, -1, 1, 1, -1, -1, 1, 1};
  constexpr Real kZeta[8] = {-1, -1, -1, -1, 1, 1, 1, 1};
  std::mt19937 rng(seed);
  std::uniform_real_distribution<Real> u(-0.15, 0.15);
  std::vector<Real> x(24);
  for (int a = 0; a < 8; ++a) {
    x[3 * a] = 10 + 0.5 * (1 + kXi[a]) + u(rng);
    x[3 * a + 1] = -3 + 0.7 * (1 + kEta[a]) + u(rng);
    x[3 * a + 2] = 0.4 * (1 + kZeta[a]) + u(rng);
  }
  return x;
}

/// x = c + F (X - c) for every node (c: a point that stays fixed).
std::vector<Real> affine(const std::vector<Real>& x0, const Mat3& f) {
  std::vector<Real> x(x0.size());
  const Real c[3] = {10.5, -2.0, 0.3};
  for (std::size_t n = 0; n < x0.size() / 3; ++n)
    for (int i = 0; i < 3; ++i) {
      Real v = c[i];
      for (int k = 0; k < 3; ++k) v += f[i][k] * (x0[3 * n + k] - c[k]);
      x[3 * n + i] = v;
    }
  return x;
}

Mat3 mul(const Mat3& a, const Mat3& b) {
  Mat3 r{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k) r[i][j] += a[i][k] * b[k][j];
  return r;
}

Mat3 full(const Real* s) {
  return Mat3{{{s[0], s[3], s[5]}, {s[3], s[1], s[4]}, {s[5], s[4], s[2]}}};
}

/// Invariants I1, I2, I3 of a symmetric stress.
std::array<Real, 3> invariants(const Real* s) {
  const Mat3 m = full(s);
  const Real i1 = s[0] + s[1] + s[2];
  const Real i2 = s[0] * s[1] + s[1] * s[2] + s[2] * s[0] - s[3] * s[3] - s[4] * s[4] - s[5] * s[5];
  const Real i3 = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
                  m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
                  m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
  return {i1, i2, i3};
}

struct OneHex {
  HexBlock blk;
  std::vector<Real> fe = std::vector<Real>(24, 0.0);
  OneHex() {
    blk.init(1);
    blk.conn[0] = {0, 1, 2, 3, 4, 5, 6, 7};
  }
  HexPassResult run(const MaterialParams& m, const std::vector<Real>& x,
                    const std::vector<Real>& x0, bool reference = false, Real dt = 1e-6) {
    const std::vector<Real> v(x.size(), 0.0);
    HexOptions opt;
    return reference ? compute_hex_forces_reference(opt, m, blk, 0, 1, x, v, dt, fe, x0)
                     : compute_hex_forces(opt, m, blk, 0, 1, x, v, dt, fe, x0);
  }
};

} // namespace

TEST(Hex8Hyper, AffineMotionOfDistortedElementGivesTheMaterialStress) {
  const MaterialParams m = rubber();
  const Mat3 f{{{1.6, 0.2, -0.1}, {0.05, 0.8, 0.3}, {0.1, -0.2, 0.85}}};
  Real h[3][3];
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k) h[i][k] = f[i][k] - (i == k ? 1.0 : 0.0);
  Real expect[6];
  ASSERT_GT(hyperelastic_stress(m, h, expect), 0);
  Real scale = 0;
  for (Real v : expect) scale = std::max(scale, std::abs(v));
  for (unsigned seed = 1; seed <= 5; ++seed) {
    const auto x0 = jittered_hex(seed);
    const auto x = affine(x0, f);
    for (const bool ref : {false, true}) {
      OneHex e;
      const HexPassResult r = e.run(m, x, x0, ref);
      ASSERT_LT(r.bad_element, 0);
      for (int k = 0; k < 6; ++k)
        EXPECT_NEAR(e.blk.sig[k], expect[k], 1e-12 * scale) << "seed " << seed << " ref " << ref;
      // Constant stress: the corner forces are self-equilibrated.
      for (int i = 0; i < 3; ++i) {
        Real sum = 0;
        for (int a = 0; a < 8; ++a) sum += e.fe[3 * a + i];
        EXPECT_NEAR(sum, 0.0, 1e-12 * scale);
      }
    }
  }
}

TEST(Hex8Hyper, UndeformedElementIsStressFreeOnEveryPass) {
  const MaterialParams m = rubber();
  const auto x0 = jittered_hex(3);
  OneHex e;
  for (const Real dt : {0.0, 1e-6}) {
    e.run(m, x0, x0, false, dt);
    for (int k = 0; k < 6; ++k) EXPECT_EQ(e.blk.sig[k], 0.0);
  }
}

// Objectivity: the stretched element rotated rigidly (large rotations about a skew axis, the
// element also translated) keeps its stress invariants; the stress tensor turns with it.
TEST(Hex8Hyper, RigidRotationOfStretchedElementKeepsStressInvariants) {
  const MaterialParams m = rubber();
  const auto x0 = jittered_hex(11);
  const Mat3 stretch{{{1.5, 0.1, 0.0}, {0.0, 0.85, 0.0}, {0.0, 0.0, 0.8}}};
  OneHex e0;
  e0.run(m, affine(x0, stretch), x0);
  const Real* s0 = e0.blk.sig.data();
  const auto inv0 = invariants(s0);
  for (const Real t : {0.4, 1.7, 3.1}) {
    const Real n = std::sqrt(14.0), nx = 1 / n, ny = -2 / n, nz = 3 / n;
    const Real c = std::cos(t), s = std::sin(t), v = 1 - c;
    const Mat3 r{{{c + nx * nx * v, nx * ny * v - nz * s, nx * nz * v + ny * s},
                  {ny * nx * v + nz * s, c + ny * ny * v, ny * nz * v - nx * s},
                  {nz * nx * v - ny * s, nz * ny * v + nx * s, c + nz * nz * v}}};
    auto x = affine(x0, mul(r, stretch));
    for (std::size_t k = 0; k < x.size(); k += 3) x[k] += 5.0; // and a translation
    OneHex e;
    e.run(m, x, x0);
    const Real* s1 = e.blk.sig.data();
    const auto inv1 = invariants(s1);
    EXPECT_NEAR(inv1[0], inv0[0], 1e-12 * std::abs(inv0[0]) + 1e-14);
    EXPECT_NEAR(inv1[1], inv0[1], 1e-11 * std::abs(inv0[1]) + 1e-14);
    EXPECT_NEAR(inv1[2], inv0[2], 1e-11 * std::abs(inv0[2]) + 1e-14);
    Mat3 rt{};
    for (int i = 0; i < 3; ++i)
      for (int k = 0; k < 3; ++k) rt[i][k] = r[k][i];
    const Mat3 expect = mul(mul(r, full(s0)), rt);
    const Mat3 got = full(s1);
    for (int i = 0; i < 3; ++i)
      for (int k = 0; k < 3; ++k) EXPECT_NEAR(got[i][k], expect[i][k], 1e-12);
  }
}

TEST(Hex8Hyper, OptimisedAndReferenceKernelsAgreeInABatch) {
  // Five elements (one full batch and a partial one), each deformed differently; the optimised
  // kernel's per-lane hyperelastic path must match the reference element by element.
  const MaterialParams m = rubber(0.49);
  const int ne = 5;
  std::vector<Real> x0, x;
  HexBlock a, b;
  a.init(ne);
  b.init(ne);
  std::mt19937 rng(5);
  std::uniform_real_distribution<Real> u(-0.2, 0.2);
  for (int e = 0; e < ne; ++e) {
    const auto h0 = jittered_hex(100 + e);
    Mat3 f{};
    for (int i = 0; i < 3; ++i)
      for (int k = 0; k < 3; ++k) f[i][k] = (i == k ? 1.0 : 0.0) + u(rng);
    auto h = affine(h0, f);
    std::array<LocalId, 8> c{};
    for (int k = 0; k < 8; ++k) c[k] = static_cast<LocalId>(8 * e + k);
    a.conn[e] = b.conn[e] = c;
    x0.insert(x0.end(), h0.begin(), h0.end());
    // non-affine part: a small random nodal perturbation (hourglass-like)
    for (Real& w : h) w += 0.01 * u(rng);
    x.insert(x.end(), h.begin(), h.end());
  }
  std::vector<Real> v(x.size(), 0.0), fa(24 * ne), fb(24 * ne);
  HexOptions opt;
  compute_hex_forces(opt, m, a, 0, ne, x, v, 1e-6, fa, x0);
  compute_hex_forces_reference(opt, m, b, 0, ne, x, v, 1e-6, fb, x0);
  for (int k = 0; k < 6 * ne; ++k) EXPECT_NEAR(a.sig[k], b.sig[k], 1e-11) << k;
  for (int k = 0; k < 24 * ne; ++k) EXPECT_NEAR(fa[k], fb[k], 1e-11) << k;
}

TEST(Hex8Hyper, MissingInitialCoordinatesAreRefused) {
  const MaterialParams m = rubber();
  const auto x0 = jittered_hex(1);
  HexBlock blk;
  blk.init(1);
  blk.conn[0] = {0, 1, 2, 3, 4, 5, 6, 7};
  std::vector<Real> v(24, 0.0), fe(24);
  EXPECT_THROW(compute_hex_forces(HexOptions{}, m, blk, 0, 1, x0, v, 1e-6, fe),
               std::invalid_argument);
}
