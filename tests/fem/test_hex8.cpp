// Verification of the 8-node one-point hexahedron (Flanagan-Belytschko).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <utility>
#include <vector>

#include "fem/hex8.hpp"

using namespace parcae;

namespace {

// Hourglass base vectors (eta zeta, zeta xi, xi eta, xi eta zeta) at the nodes.
constexpr Real kHgTest[4][8] = {
    {1, 1, -1, -1, -1, -1, 1, 1},
    {1, -1, -1, 1, -1, 1, 1, -1},
    {1, -1, 1, -1, 1, -1, 1, -1},
    {-1, 1, -1, 1, 1, -1, 1, -1},
};

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
  for (int ihq : {1, 4, 6}) {
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

// ---------------------------------------------------------------------------------------------
// The optimised kernel processes elements in SIMD batches (kSolidBatch elements, one per lane)
// and updates the common materials in closed form for a whole batch (update_stress_solid_batch).

namespace {

/// Material cards for the batch tests (units t, mm, s).
Material steel_card(MaterialKind kind, Real beta = 1) {
  Material m;
  m.id = 1;
  m.kind = kind;
  m.ro = 7.85e-9;
  m.e = 210000;
  m.pr = 0.3;
  m.sigy = 250;
  m.etan = 1000;
  m.beta = beta;
  return m;
}

/// Tabulated hardening (*MAT_024 LCSS): routed to the general point-by-point update.
MaterialParams mat024_tabulated() {
  Model model;
  Curve c;
  c.id = 7;
  c.x = {0.0, 0.002, 0.01, 0.05};
  c.y = {250, 262, 290, 330};
  model.curves.push_back(c);
  Material m = steel_card(MaterialKind::PiecewiseLinear);
  m.lcss = 7;
  return make_material_params(m, model);
}

MaterialParams mat003_cowper_symonds(Real beta) {
  Material m = steel_card(MaterialKind::PlasticKinematic, beta);
  m.src = 40.4;
  m.srp = 5;
  Model model;
  return make_material_params(m, model);
}

/// n x n x n block of distorted hexes on [0, n]^3 (interior and boundary nodes jittered).
Mesh distorted_grid(int n, unsigned seed, Real jitter) {
  Mesh m;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<Real> u(-jitter, jitter);
  const int np = n + 1;
  auto id = [np](int i, int j, int k) { return i + np * (j + np * k); };
  m.x.resize(3 * np * np * np);
  for (int k = 0; k < np; ++k)
    for (int j = 0; j < np; ++j)
      for (int i = 0; i < np; ++i) {
        const int p = id(i, j, k);
        m.x[3 * p] = i + u(rng);
        m.x[3 * p + 1] = j + u(rng);
        m.x[3 * p + 2] = k + u(rng);
      }
  m.blk.init(static_cast<std::size_t>(n) * n * n);
  std::size_t e = 0;
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        m.blk.conn[e++] = {
            id(i, j, k),     id(i + 1, j, k),     id(i + 1, j + 1, k),     id(i, j + 1, k),
            id(i, j, k + 1), id(i + 1, j, k + 1), id(i + 1, j + 1, k + 1), id(i, j + 1, k + 1)};
  return m;
}

/// Velocities: a homogeneous stretching/shearing field plus a random part (hourglass rates).
std::vector<Real> stretching_velocity(const std::vector<Real>& x, unsigned seed, Real rate) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<Real> u(-1.0, 1.0);
  std::vector<Real> v(x.size());
  for (std::size_t p = 0; p < x.size() / 3; ++p) {
    const Real* r = &x[3 * p];
    v[3 * p] = rate * (r[0] + 0.5 * r[1]) + 0.2 * rate * u(rng);
    v[3 * p + 1] = rate * (-0.4 * r[1] + 0.2 * r[2]) + 0.2 * rate * u(rng);
    v[3 * p + 2] = rate * (-0.4 * r[2]) + 0.2 * rate * u(rng);
  }
  return v;
}

bool same_bits(Real a, Real b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

/// Every per-element result of element e in two blocks (and its 24 corner forces).
void expect_element_bitwise_equal(const HexBlock& a, const std::vector<Real>& fa, const HexBlock& b,
                                  const std::vector<Real>& fb, std::size_t e) {
  for (int k = 0; k < 6; ++k) {
    EXPECT_TRUE(same_bits(a.sig[6 * e + k], b.sig[6 * e + k])) << "sig, element " << e;
    EXPECT_TRUE(same_bits(a.back[6 * e + k], b.back[6 * e + k])) << "back, element " << e;
  }
  for (int k = 0; k < 12; ++k)
    EXPECT_TRUE(same_bits(a.hgq[12 * e + k], b.hgq[12 * e + k])) << "hgq, element " << e;
  EXPECT_TRUE(same_bits(a.eps_p[e], b.eps_p[e])) << "eps_p, element " << e;
  EXPECT_TRUE(same_bits(a.vol[e], b.vol[e])) << "vol, element " << e;
  EXPECT_TRUE(same_bits(a.e_int[e], b.e_int[e])) << "e_int, element " << e;
  EXPECT_TRUE(same_bits(a.e_hg[e], b.e_hg[e])) << "e_hg, element " << e;
  EXPECT_TRUE(same_bits(a.dt[e], b.dt[e])) << "dt, element " << e;
  for (int k = 0; k < 24; ++k)
    EXPECT_TRUE(same_bits(fa[24 * e + k], fb[24 * e + k])) << "fe, element " << e;
}

} // namespace

TEST(SolidBatch, ClosedFormMatchesUpdateStressSolidOnRandomStates) {
  // Elastic kinds and linear hardening without rate effects (isotropic, mixed and kinematic
  // *MAT_003, *MAT_024) take the closed form; it must give update_stress_solid's result on every
  // active point (elastic and plastic points mixed in one batch) and leave inactive points alone.
  struct Case {
    const char* name;
    MaterialParams m;
  };
  Model model;
  Material m024 = steel_card(MaterialKind::PiecewiseLinear);
  Material m024_perfect = m024;
  m024_perfect.etan = 0;
  const std::vector<Case> cases = {
      {"elastic", make_material_params(steel_card(MaterialKind::Elastic), model)},
      {"003 beta 1", make_material_params(steel_card(MaterialKind::PlasticKinematic, 1), model)},
      {"003 beta 0.4",
       make_material_params(steel_card(MaterialKind::PlasticKinematic, 0.4), model)},
      {"003 beta 0", make_material_params(steel_card(MaterialKind::PlasticKinematic, 0), model)},
      {"024 linear", make_material_params(m024, model)},
      {"024 perfectly plastic", make_material_params(m024_perfect, model)},
  };
  std::mt19937 rng(99);
  std::uniform_real_distribution<Real> u(-1.0, 1.0), u01(0.0, 1.0);
  constexpr int n = kSolidBatch;
  for (const Case& c : cases) {
    ASSERT_TRUE(solid_batch_closed_form(c.m)) << c.name;
    const bool kin = c.m.kind == MaterialKind::PlasticKinematic && c.m.beta < 1;
    int plastic_points = 0, elastic_points = 0;
    for (int trial = 0; trial < 500; ++trial) {
      SolidBatch b;
      bool active[n];
      for (int l = 0; l < n; ++l) {
        active[l] = u01(rng) < 0.8;
        const Real scale = 300.0 * u01(rng), dscale = u01(rng) < 0.5 ? 1e-4 : 2e-3;
        for (int k = 0; k < 6; ++k) {
          b.sig[k][l] = scale * u(rng);
          b.deps[k][l] = dscale * u(rng);
          b.back[k][l] = 0;
        }
        if (kin) {
          Real tr = 0;
          for (int k = 0; k < 6; ++k) b.back[k][l] = 80.0 * u(rng);
          for (int k = 0; k < 3; ++k) tr += b.back[k][l] / 3.0;
          for (int k = 0; k < 3; ++k) b.back[k][l] -= tr; // deviatoric
        }
        b.eps_p[l] = u01(rng) < 0.3 ? 0.0 : 0.05 * u01(rng);
      }
      const SolidBatch in = b;
      update_stress_solid_batch(c.m, 1e-7, b, active);
      for (int l = 0; l < n; ++l) {
        if (!active[l]) {
          for (int k = 0; k < 6; ++k) {
            EXPECT_TRUE(same_bits(b.sig[k][l], in.sig[k][l])) << c.name;
            EXPECT_TRUE(same_bits(b.back[k][l], in.back[k][l])) << c.name;
          }
          EXPECT_TRUE(same_bits(b.eps_p[l], in.eps_p[l])) << c.name;
          continue;
        }
        Real d[6], s[6], a[6], ep = in.eps_p[l];
        for (int k = 0; k < 6; ++k) {
          d[k] = in.deps[k][l];
          s[k] = in.sig[k][l];
          a[k] = in.back[k][l];
        }
        const Real dep = update_stress_solid(c.m, d, 1e-7, s, a, ep);
        (dep > 0 ? plastic_points : elastic_points)++;
        Real smax = 1;
        for (int k = 0; k < 6; ++k) smax = std::max(smax, std::abs(s[k]));
        for (int k = 0; k < 6; ++k) {
          EXPECT_NEAR(b.sig[k][l], s[k], 1e-13 * smax) << c.name << " component " << k;
          EXPECT_NEAR(b.back[k][l], a[k], 1e-13 * smax) << c.name << " back " << k;
        }
        EXPECT_NEAR(b.eps_p[l], ep, 1e-15 + 1e-13 * ep) << c.name;
      }
    }
    EXPECT_GT(elastic_points, 100) << c.name;
    if (c.m.plastic()) {
      EXPECT_GT(plastic_points, 100) << c.name;
    }
  }
}

TEST(SolidBatch, RateEffectsAndTabulatedHardeningArePointByPoint) {
  // Not closed form: update_stress_solid_batch must then be update_stress_solid on each active
  // point, exactly.
  Material vp = steel_card(MaterialKind::PiecewiseLinear);
  vp.src = 40.4;
  vp.srp = 5;
  vp.vp = 1;
  Model model;
  const MaterialParams cases[] = {mat024_tabulated(), mat003_cowper_symonds(1.0),
                                  mat003_cowper_symonds(0.5), make_material_params(vp, model)};
  std::mt19937 rng(5);
  std::uniform_real_distribution<Real> u(-1.0, 1.0);
  constexpr int n = kSolidBatch;
  for (const MaterialParams& m : cases) {
    EXPECT_FALSE(solid_batch_closed_form(m));
    for (int trial = 0; trial < 100; ++trial) {
      SolidBatch b;
      bool active[n];
      for (int l = 0; l < n; ++l) {
        active[l] = l != trial % n;
        for (int k = 0; k < 6; ++k) {
          b.sig[k][l] = 300.0 * u(rng);
          b.deps[k][l] = 2e-3 * u(rng);
          b.back[k][l] = 0;
        }
        b.eps_p[l] = 0.02 * (1 + u(rng));
      }
      const SolidBatch in = b;
      update_stress_solid_batch(m, 1e-6, b, active);
      for (int l = 0; l < n; ++l) {
        Real d[6], s[6], a[6], ep = in.eps_p[l];
        for (int k = 0; k < 6; ++k) {
          d[k] = in.deps[k][l];
          s[k] = in.sig[k][l];
          a[k] = in.back[k][l];
        }
        if (active[l]) update_stress_solid(m, d, 1e-6, s, a, ep);
        for (int k = 0; k < 6; ++k) {
          EXPECT_TRUE(same_bits(b.sig[k][l], s[k]));
          EXPECT_TRUE(same_bits(b.back[k][l], a[k]));
        }
        EXPECT_TRUE(same_bits(b.eps_p[l], ep));
      }
    }
  }
}

// IHQ 6 keeps its hourglass forces in the element's corotational frame: an element turned
// rigidly (coordinates rotated by Q, the same stored forces, no motion in the step) gets the
// nodal forces turned by Q, and a rigid rotation adds no hourglass force (the hourglass
// velocities of a linear velocity field vanish).
TEST(Hex8, AssumedStrainHourglassTurnsWithTheElement) {
  Mesh a = distorted_block(11, 0.15);
  a.blk = HexBlock{};
  a.blk.init(1);
  a.blk.conn[0] = {0, 1, 4, 3, 9, 10, 13, 12};
  HexOptions opt;
  opt.ihq = 6;
  opt.qm = 1.0;
  // load the element's hourglass forces with a few steps of mixed hourglass motion
  std::vector<Real> v(a.x.size(), 0.0), fe(24);
  const auto& c = a.blk.conn[0];
  for (int k = 0; k < 8; ++k) {
    v[3 * c[k]] = 0.01 * kHgTest[2][k];
    v[3 * c[k] + 1] = 0.02 * kHgTest[0][k];
    v[3 * c[k] + 2] = -0.015 * kHgTest[3][k];
  }
  for (int step = 0; step < 3; ++step) {
    compute_hex_forces(opt, steel(), a.blk, 0, 1, a.x, v, 1e-3, fe);
    for (std::size_t n = 0; n < a.x.size(); ++n) a.x[n] += 1e-3 * v[n];
  }
  Mesh b = a;
  const Real cz = std::cos(0.8), sz = std::sin(0.8);
  const Real q[3][3] = {{cz, -sz, 0}, {sz * 0.6, cz * 0.6, -0.8}, {sz * 0.8, cz * 0.8, 0.6}};
  for (std::size_t n = 0; n < a.x.size() / 3; ++n) {
    const Real* p = &a.x[3 * n];
    for (int i = 0; i < 3; ++i) b.x[3 * n + i] = q[i][0] * p[0] + q[i][1] * p[1] + q[i][2] * p[2];
  }
  std::vector<Real> zero(a.x.size(), 0.0), fa(24), fb(24);
  // the stress (global components, which the distortion of the element made nonzero) is left
  // out: the comparison is of the hourglass forces
  std::fill(a.blk.sig.begin(), a.blk.sig.end(), 0.0);
  std::fill(b.blk.sig.begin(), b.blk.sig.end(), 0.0);
  compute_hex_forces(opt, steel(), a.blk, 0, 1, a.x, zero, 1e-3, fa);
  compute_hex_forces(opt, steel(), b.blk, 0, 1, b.x, zero, 1e-3, fb);
  Real scale = 0;
  for (Real f : fa) scale = std::max(scale, std::abs(f));
  ASSERT_GT(scale, 0.0);
  for (int n = 0; n < 8; ++n)
    for (int i = 0; i < 3; ++i) {
      const Real turned = q[i][0] * fa[3 * n] + q[i][1] * fa[3 * n + 1] + q[i][2] * fa[3 * n + 2];
      EXPECT_NEAR(fb[3 * n + i], turned, 1e-10 * scale) << n << " " << i;
    }
  // a rigid rotation velocity leaves the stored forces unchanged
  const std::vector<Real> stored(b.blk.hgq.begin(), b.blk.hgq.end());
  std::vector<Real> spin(b.x.size());
  for (std::size_t n = 0; n < b.x.size() / 3; ++n) {
    const Real* r = &b.x[3 * n];
    spin[3 * n] = 0.4 * r[2] - 0.1 * r[1];
    spin[3 * n + 1] = 0.1 * r[0] - 0.3 * r[2];
    spin[3 * n + 2] = 0.3 * r[1] - 0.4 * r[0];
  }
  compute_hex_forces(opt, steel(), b.blk, 0, 1, b.x, spin, 1e-3, fb);
  for (std::size_t k = 0; k < stored.size(); ++k)
    EXPECT_NEAR(b.blk.hgq[k], stored[k], 1e-12 * scale) << k;
}

TEST(Hex8, OptimisedKernelFollowsReferenceForAllOptions) {
  // Every hourglass form (ihq 0 here: no hourglass control, QM = 0, and no bulk viscosity; ihq 6,
  // the assumed-strain form, runs the scalar element in both kernels, which then differ only in
  // the volume gradient, closed form against Gauss integration),
  // the closed-form and the point-by-point material paths, kinematic hardening, mass-scaled
  // elements: the SIMD kernel must follow the plain reference kernel.
  Model model;
  const std::vector<std::pair<const char*, MaterialParams>> mats = {
      {"elastic", make_material_params(steel_card(MaterialKind::Elastic), model)},
      {"003 beta 1", make_material_params(steel_card(MaterialKind::PlasticKinematic, 1), model)},
      {"003 beta 0.3",
       make_material_params(steel_card(MaterialKind::PlasticKinematic, 0.3), model)},
      {"024 tabulated", mat024_tabulated()},
      {"003 Cowper-Symonds beta 0.5", mat003_cowper_symonds(0.5)},
  };
  for (const auto& [name, mat] : mats)
    for (int ihq = 0; ihq <= 6; ++ihq) {
      Mesh a = distorted_grid(3, 17, 0.2); // 27 elements: full batches and a partial one
      for (std::size_t e = 0; e < a.blk.size(); e += 5) a.blk.density_scale[e] = 1.0 + 0.1 * e;
      Mesh b = a;
      const std::vector<Real> v = stretching_velocity(a.x, 3, 4e4);
      HexOptions opt;
      opt.ihq = std::max(ihq, 1);
      if (ihq == 0) opt.qm = opt.q1 = opt.q2 = 0;
      const std::size_t ne = a.blk.size();
      std::vector<Real> fa(24 * ne), fb(24 * ne);
      for (int step = 0; step < 6; ++step) {
        const Real dt = step == 0 ? 0.0 : 1e-7;
        const auto ra = compute_hex_forces(opt, mat, a.blk, 0, ne, a.x, v, dt, fa);
        const auto rb = compute_hex_forces_reference(opt, mat, b.blk, 0, ne, b.x, v, dt, fb);
        ASSERT_LT(ra.bad_element, 0);
        EXPECT_EQ(ra.min_dt_element, rb.min_dt_element) << name << " ihq " << ihq;
        EXPECT_NEAR(ra.min_dt, rb.min_dt, 1e-12 * rb.min_dt) << name << " ihq " << ihq;
        for (std::size_t k = 0; k < a.x.size(); ++k) {
          a.x[k] += 1e-7 * v[k];
          b.x[k] += 1e-7 * v[k];
        }
      }
      Real scale = 0;
      for (Real c : fb) scale = std::max(scale, std::abs(c));
      for (std::size_t k = 0; k < fa.size(); ++k)
        ASSERT_NEAR(fa[k], fb[k], 1e-10 * scale) << name << " ihq " << ihq;
      for (std::size_t k = 0; k < a.blk.sig.size(); ++k) {
        ASSERT_NEAR(a.blk.sig[k], b.blk.sig[k], 1e-9 * 250) << name << " ihq " << ihq;
        ASSERT_NEAR(a.blk.back[k], b.blk.back[k], 1e-9 * 250) << name << " ihq " << ihq;
      }
      for (std::size_t k = 0; k < a.blk.hgq.size(); ++k)
        ASSERT_NEAR(a.blk.hgq[k], b.blk.hgq[k], 1e-10 * scale) << name << " ihq " << ihq;
      Real plastic = 0;
      for (std::size_t e = 0; e < ne; ++e) {
        ASSERT_NEAR(a.blk.eps_p[e], b.blk.eps_p[e], 1e-12) << name << " ihq " << ihq;
        ASSERT_NEAR(a.blk.e_int[e], b.blk.e_int[e], 1e-10 * std::abs(b.blk.e_int[e]) + 1e-20);
        ASSERT_NEAR(a.blk.e_hg[e], b.blk.e_hg[e], 1e-10 * std::abs(b.blk.e_hg[e]) + 1e-20);
        ASSERT_NEAR(a.blk.dt[e], b.blk.dt[e], 1e-12 * b.blk.dt[e]);
        ASSERT_NEAR(a.blk.vol[e], b.blk.vol[e], 1e-13 * b.blk.vol[e]);
        plastic += a.blk.eps_p[e];
      }
      if (mat.plastic()) {
        EXPECT_GT(plastic, 0.0) << name << ": the test should reach plasticity";
      }
    }
}

TEST(Hex8, ResultsDoNotDependOnAnElementsPositionInABatch) {
  // The same elements computed in different chunks (as different thread or MPI partitions would)
  // and with failed elements shifting the others' SIMD lanes must give bitwise identical results.
  const MaterialParams mat =
      make_material_params(steel_card(MaterialKind::PlasticKinematic, 0.5), Model{});
  for (int ihq : {1, 4}) {
    HexOptions opt;
    opt.ihq = ihq;
    const Mesh m0 = distorted_grid(3, 23, 0.2);
    const std::vector<Real> v = stretching_velocity(m0.x, 8, 4e4);
    const std::size_t ne = m0.blk.size();
    auto run = [&](const std::vector<std::size_t>& cuts, const std::vector<std::size_t>& failed,
                   std::vector<Real>& fe) {
      Mesh m = m0;
      for (std::size_t e : failed) m.blk.failed[e] = 1;
      fe.assign(24 * ne, 0.0);
      for (int step = 0; step < 5; ++step) {
        for (std::size_t c = 0; c + 1 < cuts.size(); ++c)
          compute_hex_forces(opt, mat, m.blk, cuts[c], cuts[c + 1], m.x, v, step ? 1e-7 : 0.0, fe);
        for (std::size_t k = 0; k < m.x.size(); ++k) m.x[k] += 1e-7 * v[k];
      }
      return m.blk;
    };
    std::vector<Real> f0, f1;
    const HexBlock whole = run({0, ne}, {}, f0);
    std::vector<std::vector<std::size_t>> chunkings = {{0,  1,  2,  3,  4,  5,  6,  7,  8,  9,
                                                        10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
                                                        20, 21, 22, 23, 24, 25, 26, 27},
                                                       {0, 3, 10, 11, 17, 27},
                                                       {0, 5, 13, 14, 15, 27}};
    for (const auto& cuts : chunkings) {
      const HexBlock b = run(cuts, {}, f1);
      for (std::size_t e = 0; e < ne; ++e) expect_element_bitwise_equal(whole, f0, b, f1, e);
    }
    // Failed elements are skipped: the elements after them move to other lanes.
    const std::vector<std::size_t> failed = {1, 6, 7, 20};
    const HexBlock b = run({0, 9, ne}, failed, f1);
    for (std::size_t e = 0; e < ne; ++e) {
      if (std::find(failed.begin(), failed.end(), e) != failed.end()) {
        EXPECT_EQ(b.dt[e], 1e300);
        for (int k = 0; k < 24; ++k) EXPECT_EQ(f1[24 * e + k], 0.0);
        continue;
      }
      expect_element_bitwise_equal(whole, f0, b, f1, e);
    }
    Real plastic = 0;
    for (Real ep : whole.eps_p) plastic += ep;
    EXPECT_GT(plastic, 0.0) << "the test should reach plasticity";
  }
}

TEST(Hex8, InvertedElementIsReportedAndLeavesTheOthersAlone) {
  const MaterialParams mat = steel(MaterialKind::PlasticKinematic);
  Mesh good = distorted_grid(2, 31, 0.2), bad = good;
  // Element 5 inside out (bottom and top faces swapped): negative volume.
  auto& c = bad.blk.conn[5];
  c = {c[4], c[5], c[6], c[7], c[0], c[1], c[2], c[3]};
  const std::vector<Real> v = stretching_velocity(good.x, 2, 4e4);
  std::vector<Real> fg(24 * 8), fb(24 * 8, 7.0);
  compute_hex_forces(HexOptions{}, mat, good.blk, 0, 8, good.x, v, 1e-7, fg);
  const auto r = compute_hex_forces(HexOptions{}, mat, bad.blk, 0, 8, bad.x, v, 1e-7, fb);
  EXPECT_EQ(r.bad_element, 5);
  EXPECT_EQ(bad.blk.dt[5], 1e300);
  for (int k = 0; k < 24; ++k) EXPECT_EQ(fb[24 * 5 + k], 0.0);
  for (int k = 0; k < 6; ++k) EXPECT_EQ(bad.blk.sig[6 * 5 + k], 0.0);
  for (std::size_t e = 0; e < 8; ++e)
    if (e != 5) expect_element_bitwise_equal(good.blk, fg, bad.blk, fb, e);
}

TEST(Hex8, BulkViscosityUsesTheTimeStepsCharacteristicLength) {
  // A flat box 1 x t x 1 (t = 0.02) squeezed through its thickness: top face moving down at w,
  // bottom at rest. Volume strain rate trd = -w / t. The bulk viscosity q = rho l (q2 l trd^2 -
  // q1 c trd) must use the length of the critical step, l = V / A_max = t (for which that step is
  // the stability limit), not V^(1/3) = 0.27 (13.6 t): with V^(1/3) the linear term's damping
  // ratio in the thickness mode is 13.6 q1, and the element blows up at TSSFAC 0.9 (the steel
  // Taylor bar's flattened impact-face elements, issue 11). A step of 1e-30 keeps the stress ~0,
  // so the nodal forces are the bulk viscosity's alone (uniform compression has no hourglass
  // velocity).
  const Real t = 0.02, w = 100.0;
  const std::vector<Real> x = {0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 1,
                               0, t, 0, 1, t, 0, 1, t, 1, 0, t, 1};
  std::vector<Real> v(24, 0.0);
  for (int a = 4; a < 8; ++a) v[3 * a + 1] = -w;
  const MaterialParams mat = steel();
  const Real c = std::sqrt((mat.lambda + 2 * mat.g) / mat.ro);
  const Real trd = -w / t;
  for (const bool reference : {false, true}) {
    HexBlock blk;
    blk.init(1);
    blk.conn[0] = {0, 3, 2, 1, 4, 7, 6, 5}; // positive volume: bottom face ordered clockwise
    std::vector<Real> fe(24, 0.0);
    const HexOptions opt;
    const auto r = reference ? compute_hex_forces_reference(opt, mat, blk, 0, 1, x, v, 1e-30, fe)
                             : compute_hex_forces(opt, mat, blk, 0, 1, x, v, 1e-30, fe);
    ASSERT_LT(r.bad_element, 0);
    ASSERT_NEAR(blk.vol[0], t, 1e-15);
    const Real l = t; // V / A_max
    const Real q = mat.ro * l * (opt.q2 * l * trd * trd - opt.q1 * c * trd);
    // Internal force on each top node: V (sigma - q I) B, B_y = A / (4 V) on the top face.
    for (int a = 4; a < 8; ++a) {
      EXPECT_NEAR(fe[3 * a + 1], -q / 4, 1e-9 * q) << "node " << a << (reference ? " (ref)" : "");
      EXPECT_NEAR(fe[3 * (a - 4) + 1], q / 4, 1e-9 * q);
    }
    // The critical step is that of the same viscosity: l / (Q + sqrt(Q^2 + c^2)).
    const Real qc = opt.q1 * c + opt.q2 * l * std::abs(trd);
    EXPECT_NEAR(r.min_dt, l / (qc + std::sqrt(qc * qc + c * c)), 1e-9 * r.min_dt);
  }
}
