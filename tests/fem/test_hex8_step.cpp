// The solid time step's characteristic length: LS-DYNA's V / A_max, bounded by the element's
// own stiffness (fem/hex8_length.hpp). Checked against the element's exact highest frequency.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <vector>

#include "fem/hex8.hpp"
#include "fem/hex8_length.hpp"
#include "test_support.hpp"

using namespace parcae;

namespace {

using Corners = std::array<std::array<Real, 3>, 8>;

MaterialParams elastic(Real nu) {
  Material m;
  m.id = 1;
  m.kind = MaterialKind::Elastic;
  m.ro = 7.85e-9;
  m.e = 210000;
  m.pr = nu;
  Model model;
  return make_material_params(m, model);
}

struct Geometry {
  Real x[8], y[8], z[8], bx[8], by[8], bz[8], vol;
};

Geometry geometry(const Corners& c) {
  Geometry g{};
  for (int a = 0; a < 8; ++a) {
    g.x[a] = c[a][0];
    g.y[a] = c[a][1];
    g.z[a] = c[a][2];
  }
  g.vol = hex_volume_gradient(g.x, g.y, g.z, g.bx, g.by, g.bz);
  return g;
}

/// omega_max of the one-point element (stiffness V B^T D B, lumped corner masses rho V / 8)
/// times L / c: the dimensionless highest frequency for the length L.
Real scaled_frequency(const MaterialParams& mat, const Geometry& g, Real length) {
  const Real lam = mat.lambda, mu = mat.g;
  Real bn[8][3];
  for (int a = 0; a < 8; ++a) {
    bn[a][0] = g.bx[a] / g.vol;
    bn[a][1] = g.by[a] / g.vol;
    bn[a][2] = g.bz[a] / g.vol;
  }
  // K_(ai)(bj) = V (lambda B_ai B_bj + mu (B_aj B_bi + delta_ij B_a . B_b))
  std::vector<Real> k(24 * 24);
  for (int a = 0; a < 8; ++a)
    for (int b = 0; b < 8; ++b) {
      const Real dot = bn[a][0] * bn[b][0] + bn[a][1] * bn[b][1] + bn[a][2] * bn[b][2];
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
          k[(3 * a + i) * 24 + 3 * b + j] =
              g.vol *
              (lam * bn[a][i] * bn[b][j] + mu * bn[a][j] * bn[b][i] + (i == j ? mu * dot : 0));
    }
  const Real w2 = test::max_eigenvalue(k, 24) / (mat.ro * g.vol / 8);
  const Real c = std::sqrt((lam + 2 * mu) / mat.ro);
  return std::sqrt(w2) * length / c;
}

Real length_of(const MaterialParams& mat, const Geometry& g) {
  return hex_characteristic_length(g.x, g.y, g.z, g.vol, g.bx, g.by, g.bz,
                                   hex_length_weight(mat, false));
}

Real face_length(const Geometry& g) { // V / A_max alone (w < 0)
  return hex_characteristic_length(g.x, g.y, g.z, g.vol, g.bx, g.by, g.bz, -1.0);
}

Corners box(Real a, Real b, Real c) {
  return {{{0, 0, 0}, {a, 0, 0}, {a, b, 0}, {0, b, 0}, {0, 0, c}, {a, 0, c}, {a, b, c}, {0, b, c}}};
}

/// Corner element of a "spherified cube" ball (examples/contact_sphere_plate): the N^3 cube mesh
/// of [-1, 1]^3 mapped by x' = x sqrt(1 - y^2/2 - z^2/2 + y^2 z^2 / 3) (and cyclic), radius r.
Corners ball_corner_element(int n, Real r) {
  auto map = [&](int i, int j, int k) {
    const Real x = -1 + 2.0 * i / n, y = -1 + 2.0 * j / n, z = -1 + 2.0 * k / n;
    return std::array<Real, 3>{r * x * std::sqrt(1 - y * y / 2 - z * z / 2 + y * y * z * z / 3),
                               r * y * std::sqrt(1 - z * z / 2 - x * x / 2 + z * z * x * x / 3),
                               r * z * std::sqrt(1 - x * x / 2 - y * y / 2 + x * x * y * y / 3)};
  };
  return {map(0, 0, 0), map(1, 0, 0), map(1, 1, 0), map(0, 1, 0),
          map(0, 0, 1), map(1, 0, 1), map(1, 1, 1), map(0, 1, 1)};
}

} // namespace

TEST(Hex8Step, CubeIsExactAndBoxesKeepTheirLeastEdge) {
  // The bound is exact for a cube: its highest mode (uniform dilatation) has
  // omega h / c = sqrt((12 lambda + 8 mu) / (lambda + 2 mu)), and the length is h. Boxes keep
  // V / A_max, their least edge, for any Poisson's ratio: LS-DYNA's step is unchanged there.
  for (const Real nu : {0.0, 0.3, 0.45, 0.499}) {
    const MaterialParams mat = elastic(nu);
    const Geometry cube = geometry(box(2.5, 2.5, 2.5));
    EXPECT_NEAR(length_of(mat, cube), 2.5, 1e-13);
    const Real cube_w = std::sqrt((12 * mat.lambda + 8 * mat.g) / (mat.lambda + 2 * mat.g));
    EXPECT_NEAR(scaled_frequency(mat, cube, 2.5), cube_w, 1e-9) << "nu " << nu;
    for (const auto& dims : {std::array<Real, 3>{1, 2, 3}, {3, 0.1, 1}, {1, 1, 0.02}, {4, 4, 1}}) {
      const Geometry g = geometry(box(dims[0], dims[1], dims[2]));
      EXPECT_NEAR(length_of(mat, g), *std::min_element(dims.begin(), dims.end()), 1e-12)
          << "nu " << nu << " box " << dims[0] << " " << dims[1] << " " << dims[2];
    }
  }
}

TEST(Hex8Step, NoElementHasLessStabilityMarginThanACube) {
  // For every shape, omega_max L / c <= the cube's value: the step TSSFAC L / c leaves each
  // element at least the margin LS-DYNA's rule leaves a cube. V / A_max alone does not: the
  // corner element of the cube-mapped ball (examples/contact_sphere_plate) has 1.25 times a
  // cube's frequency for that length, and blew up at TSSFAC 0.9.
  std::mt19937 rng(7);
  std::uniform_real_distribution<Real> u(-1, 1);
  std::vector<Corners> shapes = {ball_corner_element(6, 4.0), ball_corner_element(10, 1.0)};
  for (int s = 0; s < 60; ++s) { // jittered, sheared and stretched cubes
    Corners c = box(1, 1 + 0.5 * (u(rng) + 1), 1);
    const Real jitter = 0.05 * (s % 6);
    for (auto& p : c)
      for (auto& v : p) v += jitter * u(rng);
    const Real shear = 0.6 * u(rng);
    for (auto& p : c) p[0] += shear * p[2];
    shapes.push_back(c);
  }
  int tighter = 0;
  for (const Real nu : {0.0, 0.3, 0.49}) {
    const MaterialParams mat = elastic(nu);
    const Real cube_w = std::sqrt((12 * mat.lambda + 8 * mat.g) / (mat.lambda + 2 * mat.g));
    for (std::size_t s = 0; s < shapes.size(); ++s) {
      const Geometry g = geometry(shapes[s]);
      ASSERT_GT(g.vol, 0) << "shape " << s;
      const Real l = length_of(mat, g), la = face_length(g);
      EXPECT_LE(l, la * (1 + 1e-14));
      EXPECT_LE(scaled_frequency(mat, g, l), cube_w * (1 + 1e-9)) << "nu " << nu << " shape " << s;
      if (l < la * (1 - 1e-9)) ++tighter;
    }
  }
  EXPECT_GT(tighter, 0);
  const MaterialParams steel = elastic(0.3);
  const Real cube_w = std::sqrt((12 * steel.lambda + 8 * steel.g) / (steel.lambda + 2 * steel.g));
  const Geometry corner = geometry(ball_corner_element(6, 4.0));
  const Real ratio_faces = scaled_frequency(steel, corner, face_length(corner)) / cube_w;
  std::printf("ball corner: V/A_max %.4f, bound %.4f; omega L/c over the cube's: %.3f with "
              "V/A_max, %.3f with the bound\n",
              face_length(corner), length_of(steel, corner), ratio_faces,
              scaled_frequency(steel, corner, length_of(steel, corner)) / cube_w);
  EXPECT_GT(ratio_faces, 1.2);
  EXPECT_NEAR(length_of(steel, corner) / face_length(corner), 0.80, 0.01);
}

TEST(Hex8Step, KernelsStoreTheBoundedStepAndTetrahedraKeepTheirs) {
  // Both kernels store the element's step L / c (at rest: no bulk viscosity), with the bound.
  const MaterialParams mat = elastic(0.3);
  const Real c = std::sqrt((mat.lambda + 2 * mat.g) / mat.ro);
  const Corners corner = ball_corner_element(6, 4.0);
  const Geometry g = geometry(corner);
  std::vector<Real> x(24), v(24, 0.0);
  for (int a = 0; a < 8; ++a)
    for (int i = 0; i < 3; ++i) x[3 * a + i] = corner[a][i];
  for (const bool reference : {false, true}) {
    HexBlock blk;
    blk.init(1);
    blk.conn[0] = {0, 1, 2, 3, 4, 5, 6, 7};
    std::vector<Real> fe(24, 0.0);
    const HexOptions opt;
    const auto r = reference ? compute_hex_forces_reference(opt, mat, blk, 0, 1, x, v, 0.0, fe)
                             : compute_hex_forces(opt, mat, blk, 0, 1, x, v, 0.0, fe);
    EXPECT_NEAR(r.min_dt, length_of(mat, g) / c, 1e-12 * r.min_dt) << reference;
  }
  // A tetrahedron (lumped V / 4 per node, not V / 8 per corner) keeps V / A_max.
  const Corners tet = {
      {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 1, 0}, {0, 0, 1}, {0, 0, 1}, {0, 0, 1}, {0, 0, 1}}};
  const Geometry gt = geometry(tet);
  EXPECT_EQ(hex_characteristic_length(gt.x, gt.y, gt.z, gt.vol, gt.bx, gt.by, gt.bz,
                                      hex_length_weight(mat, true)),
            face_length(gt));
}

TEST(Hex8Step, StiffnessBoundUsesTheLargestEigenvalueFromAbove) {
  // lambda_max of G by Gershgorin + 4 Newton steps: an upper bound, exact for a diagonal G,
  // within 2.5 % for a general one (Newton converges only linearly, halving the error per step,
  // when the two largest eigenvalues nearly coincide: the worst of 20,000 random G is 2.2 %;
  // the length is then at most 1.1 % short). Checked against Jacobi.
  std::mt19937 rng(3);
  std::uniform_real_distribution<Real> u(-1, 1);
  for (int s = 0; s < 200; ++s) {
    Real m[3][3];
    for (auto& row : m)
      for (auto& e : row) e = u(rng);
    std::vector<Real> g(9, 0.0); // G = M M^T
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        for (int k = 0; k < 3; ++k) g[3 * i + j] += m[i][k] * m[j][k];
    const Real lmax = test::max_eigenvalue(g, 3);
    // w = 0: l^2 = 1 / (2 lambda_max)
    const Real l2 = hex_stiffness_length_sq(g[0], g[4], g[8], g[1], g[5], g[2], 0.0);
    EXPECT_LE(1 / (2 * l2), lmax * 1.025) << s;
    EXPECT_GE(1 / (2 * l2), lmax * (1 - 1e-12)) << s;
  }
  EXPECT_EQ(hex_stiffness_length_sq(0.5, 0.25, 0.125, 0.0, 0.0, 0.0, 0.0), 1.0);
}
