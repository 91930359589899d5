// Verification of the 8-node one-point hexahedron (Flanagan-Belytschko).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "fem/hex8.hpp"

using namespace parcae;

namespace {

MaterialParams steel(MaterialKind kind = MaterialKind::Elastic) {
  Material m;
  m.id = 1;
  m.kind = kind;
  m.ro = 7.85e-9;
  m.e = 210000;
  m.pr = 0.3;
  m.sigy = 250;
  m.etan = 1000;
  m.beta = 1;
  Model model;
  return make_material_params(m, model);
}

/// A 2x2x2 block of hexes on [0,2]^3 with every non-corner node jittered (so elements are
/// distorted, non-parallelepiped), plus its coordinates.
struct Mesh {
  std::vector<Real> x;
  HexBlock blk;
  int center = 0; ///< index of the interior node
};

Mesh distorted_block(unsigned seed, Real jitter) {
  Mesh m;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<Real> u(-jitter, jitter);
  auto id = [](int i, int j, int k) { return i + 3 * j + 9 * k; };
  m.x.resize(3 * 27);
  for (int k = 0; k < 3; ++k)
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 3; ++i) {
        const int n = id(i, j, k);
        m.x[3 * n] = i + u(rng);
        m.x[3 * n + 1] = j + u(rng);
        m.x[3 * n + 2] = k + u(rng);
      }
  m.center = id(1, 1, 1);
  m.blk.init(8);
  int e = 0;
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 2; ++i)
        m.blk.conn[e++] = {
            id(i, j, k),     id(i + 1, j, k),     id(i + 1, j + 1, k),     id(i, j + 1, k),
            id(i, j, k + 1), id(i + 1, j, k + 1), id(i + 1, j + 1, k + 1), id(i, j + 1, k + 1)};
  return m;
}

void gather(const std::vector<Real>& x, const std::array<LocalId, 8>& c, Real* px, Real* py,
            Real* pz) {
  for (int a = 0; a < 8; ++a) {
    px[a] = x[3 * c[a]];
    py[a] = x[3 * c[a] + 1];
    pz[a] = x[3 * c[a] + 2];
  }
}

std::vector<Real> nodal_sum(const Mesh& m, const std::vector<Real>& fe) {
  std::vector<Real> f(m.x.size(), 0.0);
  for (std::size_t e = 0; e < m.blk.size(); ++e)
    for (int a = 0; a < 8; ++a)
      for (int i = 0; i < 3; ++i) f[3 * m.blk.conn[e][a] + i] += fe[24 * e + 3 * a + i];
  return f;
}

} // namespace

TEST(Hex8, VolumeOfUnitCubeAndParallelepiped) {
  Real x[8] = {0, 1, 1, 0, 0, 1, 1, 0}, y[8] = {0, 0, 1, 1, 0, 0, 1, 1},
       z[8] = {0, 0, 0, 0, 1, 1, 1, 1};
  Real bx[8], by[8], bz[8];
  EXPECT_NEAR(hex_volume_gradient(x, y, z, bx, by, bz), 1.0, 1e-14);
  // Shear x += 0.5 z and scale y by 3: volume = 3 (det of the linear map).
  for (int a = 0; a < 8; ++a) {
    x[a] += 0.5 * z[a];
    y[a] *= 3;
  }
  EXPECT_NEAR(hex_volume_gradient(x, y, z, bx, by, bz), 3.0, 1e-13);
}

TEST(Hex8, ClosedFormGradientMatchesGaussIntegration) {
  // The generated closed form and the 2x2x2 Gauss integration of cof(J) dN/dxi are exact for
  // the trilinear element: they must agree to round-off on strongly distorted elements.
  const Mesh m = distorted_block(7, 0.3);
  for (std::size_t e = 0; e < m.blk.size(); ++e) {
    Real x[8], y[8], z[8], b1[3][8], b2[3][8];
    gather(m.x, m.blk.conn[e], x, y, z);
    const Real v1 = hex_volume_gradient(x, y, z, b1[0], b1[1], b1[2]);
    const Real v2 = hex_volume_gradient_reference(x, y, z, b2[0], b2[1], b2[2]);
    EXPECT_NEAR(v1, v2, 1e-13 * std::abs(v2));
    for (int i = 0; i < 3; ++i)
      for (int a = 0; a < 8; ++a) EXPECT_NEAR(b1[i][a], b2[i][a], 1e-13);
  }
}

TEST(Hex8, VolumeGradientIsExactDerivative) {
  // Central finite difference of the volume (a cubic: the central difference has only an
  // O(h^2) truncation term times third derivatives, ~1e-12 here).
  const Mesh m = distorted_block(3, 0.25);
  Real x[8], y[8], z[8], b[3][8], tmp[3][8];
  gather(m.x, m.blk.conn[0], x, y, z);
  hex_volume_gradient(x, y, z, b[0], b[1], b[2]);
  const Real h = 1e-6;
  Real* coords[3] = {x, y, z};
  for (int i = 0; i < 3; ++i)
    for (int a = 0; a < 8; ++a) {
      const Real keep = coords[i][a];
      coords[i][a] = keep + h;
      const Real vp = hex_volume_gradient(x, y, z, tmp[0], tmp[1], tmp[2]);
      coords[i][a] = keep - h;
      const Real vm = hex_volume_gradient(x, y, z, tmp[0], tmp[1], tmp[2]);
      coords[i][a] = keep;
      EXPECT_NEAR((vp - vm) / (2 * h), b[i][a], 1e-8);
    }
}

TEST(Hex8, PatchTestConstantStrainIsExactAndInteriorNodeInEquilibrium) {
  // Linear velocity field v = A x on a distorted mesh: every element must see the same strain
  // increment sym(A) dt, so every element gets the same stress (Hooke), and the interior node's
  // assembled internal force must vanish (the uniform-gradient B is the exact volume gradient,
  // whose sum over the elements around an interior node is zero).
  Mesh m = distorted_block(11, 0.2);
  const Real A[3][3] = {{1e-3, 2e-4, -3e-4}, {5e-4, -2e-3, 1e-4}, {-1e-4, 3e-4, 5e-4}};
  std::vector<Real> v(m.x.size());
  for (std::size_t n = 0; n < m.x.size() / 3; ++n)
    for (int i = 0; i < 3; ++i)
      v[3 * n + i] = A[i][0] * m.x[3 * n] + A[i][1] * m.x[3 * n + 1] + A[i][2] * m.x[3 * n + 2];
  const MaterialParams mat = steel();
  HexOptions opt;
  opt.qm = 0.1;
  // Bulk viscosity is switched off: q depends on each element's size, so it is not a constant
  // stress field and the patch test does not apply to it.
  opt.q1 = opt.q2 = 0;
  std::vector<Real> fe(24 * m.blk.size());
  const Real dt = 1e-3;
  compute_hex_forces(opt, mat, m.blk, 0, m.blk.size(), m.x, v, dt, fe);
  // Expected stress from the strain increment (rotation of a zero stress is zero).
  const Real de[6] = {A[0][0] * dt,
                      A[1][1] * dt,
                      A[2][2] * dt,
                      (A[0][1] + A[1][0]) * dt,
                      (A[1][2] + A[2][1]) * dt,
                      (A[2][0] + A[0][2]) * dt};
  const Real tr = de[0] + de[1] + de[2];
  Real expect[6];
  for (int k = 0; k < 3; ++k) expect[k] = mat.lambda * tr + 2 * mat.g * de[k];
  for (int k = 3; k < 6; ++k) expect[k] = mat.g * de[k];
  for (std::size_t e = 0; e < m.blk.size(); ++e)
    for (int k = 0; k < 6; ++k)
      EXPECT_NEAR(m.blk.sig[6 * e + k], expect[k], 1e-9 * std::abs(mat.e * 1e-3))
          << "element " << e << " component " << k;
  const auto f = nodal_sum(m, fe);
  Real fscale = 0;
  for (Real c : fe) fscale = std::max(fscale, std::abs(c));
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(f[3 * m.center + i], 0.0, 1e-10 * fscale);
  // Linear fields excite no hourglass mode.
  for (Real e : m.blk.e_hg) EXPECT_NEAR(e, 0.0, 1e-20);
}

TEST(Hex8, RigidRotationGivesNoStress) {
  Mesh m = distorted_block(5, 0.2);
  const Real w[3] = {0.3, -0.2, 0.5};
  std::vector<Real> v(m.x.size());
  for (std::size_t n = 0; n < m.x.size() / 3; ++n) {
    const Real* r = &m.x[3 * n];
    v[3 * n] = w[1] * r[2] - w[2] * r[1] + 1.0;
    v[3 * n + 1] = w[2] * r[0] - w[0] * r[2] - 2.0;
    v[3 * n + 2] = w[0] * r[1] - w[1] * r[0];
  }
  std::vector<Real> fe(24 * m.blk.size());
  compute_hex_forces(HexOptions{}, steel(), m.blk, 0, m.blk.size(), m.x, v, 1e-4, fe);
  for (Real s : m.blk.sig) EXPECT_NEAR(s, 0.0, 1e-9);
  for (Real c : fe) EXPECT_NEAR(c, 0.0, 1e-9);
}

TEST(Hex8, HourglassModeIsResisted) {
  // Unit cube, velocity in the x-direction following the hourglass vector xi*eta: no strain at
  // the centre point, so only hourglass control resists it.
  HexBlock blk;
  blk.init(1);
  blk.conn[0] = {0, 1, 2, 3, 4, 5, 6, 7};
  const std::vector<Real> x = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0,
                               0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1};
  const Real hg[8] = {1, -1, 1, -1, 1, -1, 1, -1};
  std::vector<Real> v(24, 0.0);
  for (int a = 0; a < 8; ++a) v[3 * a] = 0.01 * hg[a];
  std::vector<Real> fe(24);
  for (int ihq : {1, 4}) {
    blk.init(1);
    blk.conn[0] = {0, 1, 2, 3, 4, 5, 6, 7};
    HexOptions opt;
    opt.ihq = ihq;
    compute_hex_forces(opt, steel(), blk, 0, 1, x, v, 1e-3, fe);
    Real power = 0;
    for (int a = 0; a < 8; ++a) power += fe[3 * a] * v[3 * a];
    EXPECT_GT(power, 0.0) << "internal hourglass force must oppose the mode (ihq " << ihq << ")";
    EXPECT_GT(blk.e_hg[0], 0.0);
    for (int k = 0; k < 6; ++k) EXPECT_NEAR(blk.sig[k], 0.0, 1e-12);
  }
}

TEST(Hex8, ReferenceAndOptimisedKernelsAgree) {
  // Random velocities on a distorted mesh, plastic material, several steps: both kernels must
  // produce the same forces, stresses and energies (only round-off may differ).
  Mesh a = distorted_block(21, 0.25), b = a;
  std::mt19937 rng(4);
  std::uniform_real_distribution<Real> u(-1.0, 1.0);
  std::vector<Real> v(a.x.size());
  for (Real& c : v) c = 5e3 * u(rng);
  const MaterialParams mat = steel(MaterialKind::PlasticKinematic);
  HexOptions opt;
  std::vector<Real> fa(24 * 8), fb(24 * 8);
  for (int step = 0; step < 5; ++step) {
    compute_hex_forces(opt, mat, a.blk, 0, 8, a.x, v, 1e-7, fa);
    compute_hex_forces_reference(opt, mat, b.blk, 0, 8, b.x, v, 1e-7, fb);
    for (std::size_t k = 0; k < a.x.size(); ++k) {
      a.x[k] += 1e-7 * v[k];
      b.x[k] += 1e-7 * v[k];
    }
  }
  Real scale = 0;
  for (Real c : fa) scale = std::max(scale, std::abs(c));
  for (std::size_t k = 0; k < fa.size(); ++k) EXPECT_NEAR(fa[k], fb[k], 1e-10 * scale);
  for (std::size_t k = 0; k < a.blk.sig.size(); ++k)
    EXPECT_NEAR(a.blk.sig[k], b.blk.sig[k], 1e-9 * 250);
  for (std::size_t e = 0; e < 8; ++e) {
    EXPECT_NEAR(a.blk.eps_p[e], b.blk.eps_p[e], 1e-12);
    EXPECT_NEAR(a.blk.e_int[e], b.blk.e_int[e], 1e-10 * std::abs(a.blk.e_int[e]) + 1e-20);
  }
  EXPECT_GT(a.blk.eps_p[0] + a.blk.eps_p[1], 0.0) << "the test should reach plasticity";
}

TEST(Hex8, CriticalTimeStepOfCube) {
  // Unit cube at rest: dt = L/c with L = V / A_max = 1 and c = sqrt((lambda + 2G)/rho).
  HexBlock blk;
  blk.init(1);
  blk.conn[0] = {0, 1, 2, 3, 4, 5, 6, 7};
  const std::vector<Real> x = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0,
                               0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1};
  std::vector<Real> v(24, 0.0), fe(24);
  const MaterialParams mat = steel();
  const auto r = compute_hex_forces(HexOptions{}, mat, blk, 0, 1, x, v, 0.0, fe);
  const Real c = std::sqrt((mat.lambda + 2 * mat.g) / mat.ro);
  EXPECT_NEAR(r.min_dt, 1.0 / c, 1e-12 / c);
}

TEST(Hex8, CollapsedWedgeAndTetrahedronReproduceConstantStrain) {
  // Wedges (n4 = n3, n8 = n7) and tetrahedra (n4 = n3, n5 = n6 = n7 = n8) given as collapsed
  // hexahedra, as LS-DYNA decks do: the exact volume gradient still has the constant-strain
  // property sum_I x_I (x) B_I = I, so a linear velocity field gives the exact strain and
  // the volume is the true wedge/tet volume.
  const std::vector<Real> x = {0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 2, 0, 4, 0, 3, 4};
  //                           n0       n1       n2       n3(top of n0) n4        n5
  HexBlock blk;
  blk.init(2);
  blk.conn[0] = {0, 1, 2, 2, 3, 4, 5, 5}; // wedge: triangle 0-1-2 extruded to 3-4-5
  blk.conn[1] = {0, 1, 2, 2, 3, 3, 3, 3}; // tetrahedron 0-1-2-3
  const Real A[3][3] = {{1e-3, 4e-4, 0}, {-2e-4, 5e-4, 3e-4}, {1e-4, 0, -6e-4}};
  std::vector<Real> v(x.size());
  for (std::size_t n = 0; n < x.size() / 3; ++n)
    for (int i = 0; i < 3; ++i)
      v[3 * n + i] = A[i][0] * x[3 * n] + A[i][1] * x[3 * n + 1] + A[i][2] * x[3 * n + 2];
  HexOptions opt;
  opt.q1 = opt.q2 = 0;
  const MaterialParams mat = steel();
  std::vector<Real> fe(48);
  const Real dt = 1e-3;
  const auto r = compute_hex_forces(opt, mat, blk, 0, 2, x, v, dt, fe);
  ASSERT_LT(r.bad_element, 0);
  EXPECT_NEAR(blk.vol[0], 0.5 * 2 * 3 * 4, 1e-12);       // wedge: triangle area x height
  EXPECT_NEAR(blk.vol[1], 2.0 * 3.0 * 4.0 / 6.0, 1e-12); // tetrahedron
  const Real de[6] = {A[0][0] * dt,
                      A[1][1] * dt,
                      A[2][2] * dt,
                      (A[0][1] + A[1][0]) * dt,
                      (A[1][2] + A[2][1]) * dt,
                      (A[2][0] + A[0][2]) * dt};
  const Real tr = de[0] + de[1] + de[2];
  for (int e = 0; e < 2; ++e) {
    for (int k = 0; k < 3; ++k)
      EXPECT_NEAR(blk.sig[6 * e + k], mat.lambda * tr + 2 * mat.g * de[k], 1e-9) << e;
    for (int k = 3; k < 6; ++k) EXPECT_NEAR(blk.sig[6 * e + k], mat.g * de[k], 1e-9) << e;
  }
  // Equilibrium of each element: corner forces sum to zero.
  for (int e = 0; e < 2; ++e)
    for (int i = 0; i < 3; ++i) {
      Real s = 0;
      for (int a = 0; a < 8; ++a) s += fe[24 * e + 3 * a + i];
      EXPECT_NEAR(s, 0.0, 1e-9);
    }
}
