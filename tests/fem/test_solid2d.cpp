// 2-D solids (fem/solid2d.hpp; *SECTION_SHELL ELFORM 13 and 15): the one-point quadrilateral's
// area gradient (its sums and the finite-difference derivative of the area), the exact strain
// rate of linear velocity fields in plane strain and axisymmetry (with Hooke's law for the
// stress), the power balance sum f.v = sigma : D V, equilibrium of interior and axis nodes in a
// uniform stress field, hourglass forces that vanish on linear fields and resist the hourglass
// mode, the lumped masses (rho A; rho int r dA per radian) and the critical step of a square.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "fem/element_family.hpp"
#include "fem/solid2d.hpp"
#include "mesh/model.hpp"

namespace parcae {
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

/// One distorted quadrilateral (counter-clockwise) away from the axis, nodes 0..3, and its
/// block.
struct OneQuad {
  std::vector<Real> x{2.0, 1.0, 0.0, 3.2, 1.3, 0.0, 3.0, 2.6, 0.0, 1.8, 2.2, 0.0};
  ShellBlock blk;
  explicit OneQuad(Planar p) {
    blk.planar = p;
    blk.conn = {{0, 1, 2, 3}};
    blk.init(1, 1, 1.0);
  }
};

ShellOptions no_hourglass() {
  ShellOptions o;
  o.nip = 1;
  o.qm = 0;
  o.q1 = o.q2 = 0;
  return o;
}

TEST(Solid2d, AreaGradientSumsAndFiniteDifference) {
  const Real x[4] = {2.0, 3.2, 3.0, 1.8}, y[4] = {1.0, 1.3, 2.6, 2.2};
  Real bx[4], by[4];
  const Real a = quad_area_gradient(x, y, bx, by);
  // shoelace
  Real shoelace = 0;
  for (int i = 0; i < 4; ++i) shoelace += 0.5 * (x[i] * y[(i + 1) % 4] - x[(i + 1) % 4] * y[i]);
  EXPECT_NEAR(a, shoelace, 1e-14);
  Real sx = 0, sy = 0, xx = 0, xy = 0, yx = 0, yy = 0;
  for (int i = 0; i < 4; ++i) {
    sx += bx[i];
    sy += by[i];
    xx += bx[i] * x[i];
    xy += bx[i] * y[i];
    yx += by[i] * x[i];
    yy += by[i] * y[i];
  }
  EXPECT_NEAR(sx, 0, 1e-14); // a translation does not change the area
  EXPECT_NEAR(sy, 0, 1e-14);
  EXPECT_NEAR(xx, a, 1e-14); // sum b x^T = A I: gradients of linear fields exact
  EXPECT_NEAR(yy, a, 1e-14);
  EXPECT_NEAR(xy, 0, 1e-14);
  EXPECT_NEAR(yx, 0, 1e-14);
  const Real h = 1e-6;
  for (int i = 0; i < 4; ++i) {
    Real xp[4], yp[4], dbx[4], dby[4];
    std::copy(x, x + 4, xp);
    std::copy(y, y + 4, yp);
    xp[i] += h;
    const Real ax = quad_area_gradient(xp, yp, dbx, dby);
    xp[i] -= h;
    yp[i] += h;
    const Real ay = quad_area_gradient(xp, yp, dbx, dby);
    EXPECT_NEAR((ax - a) / h, bx[i], 1e-8);
    EXPECT_NEAR((ay - a) / h, by[i], 1e-8);
  }
}

/// One step of dt with the linear velocity v = G (x, y) + (vz = 0): nodes at x + dt v.
void step_linear(OneQuad& q, const MaterialParams& m, const ShellOptions& opt, const Real g[2][2],
                 Real dt, std::vector<Real>& v, std::vector<Real>& f) {
  v.assign(12, 0.0);
  std::vector<Real> x = q.x;
  for (int a = 0; a < 4; ++a) {
    v[3 * a] = g[0][0] * q.x[3 * a] + g[0][1] * q.x[3 * a + 1];
    v[3 * a + 1] = g[1][0] * q.x[3 * a] + g[1][1] * q.x[3 * a + 1];
    x[3 * a] += dt * v[3 * a];
    x[3 * a + 1] += dt * v[3 * a + 1];
  }
  f.assign(12, 0.0);
  std::vector<Real> mom(12, 0.0);
  const PlanarPassResult r = compute_planar_forces(opt, m, q.blk, 0, 1, x, v, dt, f, mom);
  EXPECT_EQ(r.bad_element, -1);
  q.x = x;
  for (Real mm : mom) EXPECT_EQ(mm, 0.0);
}

TEST(Solid2d, PlaneStrainUniaxialStrainIsHooke) {
  const MaterialParams m = steel();
  OneQuad q(Planar::PlaneStrain);
  const Real rate = 10.0, dt = 1e-6; // a strain of 1e-5
  const Real g[2][2] = {{rate, 0}, {0, 0}};
  std::vector<Real> v, f;
  step_linear(q, m, no_hourglass(), g, dt, v, f);
  // The rate is that of the end-of-step geometry: rate / (1 + rate dt), a relative 1e-5 off.
  const Real eps = rate * dt, tol = 2e-5 * (m.lambda + 2 * m.g) * eps;
  const Real* s = &q.blk.sig2d[0];
  EXPECT_NEAR(s[0], (m.lambda + 2 * m.g) * eps, tol);
  EXPECT_NEAR(s[1], m.lambda * eps, tol);
  EXPECT_NEAR(s[2], m.lambda * eps, tol); // the out-of-plane stress of plane strain
  EXPECT_NEAR(s[3], 0.0, 1e-12);
}

TEST(Solid2d, AxisymmetricRadialExpansionStrainsTheHoop) {
  const MaterialParams m = steel();
  OneQuad q(Planar::Axisymmetric);
  // v_r = a r, v_z = b z: D_rr = a, D_zz = b, D_hoop = v_r / r = a.
  const Real a = 10.0, b = -4.0, dt = 1e-6;
  const Real g[2][2] = {{a, 0}, {0, b}};
  std::vector<Real> v, f;
  step_linear(q, m, no_hourglass(), g, dt, v, f);
  const Real* s = &q.blk.sig2d[0];
  const Real err = 2e-5 * (m.lambda + 2 * m.g) * std::abs(a) * dt; // end-of-step geometry
  // D_hoop = mean v_r / mean r, exact for v_r = a r
  EXPECT_NEAR(s[0], (m.lambda + 2 * m.g) * a * dt + m.lambda * (b + a) * dt, err);
  EXPECT_NEAR(s[1], (m.lambda + 2 * m.g) * b * dt + m.lambda * 2 * a * dt, err);
  EXPECT_NEAR(s[2], (m.lambda + 2 * m.g) * a * dt + m.lambda * (a + b) * dt, err);
}

TEST(Solid2d, PowerBalanceBothFormulations) {
  const MaterialParams m = steel();
  for (Planar p : {Planar::PlaneStrain, Planar::Axisymmetric}) {
    OneQuad q(p);
    // a prestress, then a general linear field: sum f . v = sigma : D V at the end of the step
    const Real pre[6] = {30, -20, 12, 7, 0, 0};
    std::copy(pre, pre + 6, q.blk.sig2d.begin());
    const Real g[2][2] = {{3.0, 1.5}, {-2.0, 5.0}};
    std::vector<Real> v, f;
    const Real dt = 1e-7;
    step_linear(q, m, no_hourglass(), g, dt, v, f);
    Real power = 0, rc = 0, vr = 0;
    for (int k = 0; k < 12; ++k) power += f[k] * v[k];
    Real x[4], y[4], bx[4], by[4];
    for (int a = 0; a < 4; ++a) {
      x[a] = q.x[3 * a];
      y[a] = q.x[3 * a + 1];
      rc += 0.25 * x[a];
      vr += 0.25 * v[3 * a];
    }
    const Real area = quad_area_gradient(x, y, bx, by);
    const bool axi = p == Planar::Axisymmetric;
    const Real vol = axi ? rc * area : area;
    const Real* s = &q.blk.sig2d[0];
    // the velocity gradient of the end-of-step geometry (the field is linear in the old one)
    Real l[2][2] = {{0, 0}, {0, 0}};
    for (int a = 0; a < 4; ++a) {
      l[0][0] += v[3 * a] * bx[a] / area;
      l[0][1] += v[3 * a] * by[a] / area;
      l[1][0] += v[3 * a + 1] * bx[a] / area;
      l[1][1] += v[3 * a + 1] * by[a] / area;
    }
    const Real dhoop = axi ? vr / rc : 0.0;
    const Real expect =
        vol * (s[0] * l[0][0] + s[1] * l[1][1] + s[2] * dhoop + s[3] * (l[0][1] + l[1][0]));
    EXPECT_NEAR(power, expect, 1e-10 * std::abs(expect)) << static_cast<int>(p);
  }
}

/// A 2x2 patch of square elements of side h with its lower-left corner at (x0, 0): nodes
/// row-major (3 x 3), node 4 in the middle, nodes 0, 3, 6 on the left edge.
struct Patch {
  std::vector<Real> x;
  ShellBlock blk;
  Patch(Planar p, Real x0, Real h) {
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 3; ++i) x.insert(x.end(), {x0 + i * h, j * h, 0.0});
    blk.planar = p;
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 2; ++i) {
        const LocalId n0 = static_cast<LocalId>(3 * j + i);
        blk.conn.push_back({n0, n0 + 1, n0 + 4, n0 + 3});
      }
    blk.init(4, 1, 1.0);
  }
  /// Node forces (summed over corners) for a uniform stress s and no motion.
  std::vector<Real> forces(const MaterialParams& m, const Real s[6]) {
    for (std::size_t e = 0; e < 4; ++e) std::copy(s, s + 6, &blk.sig2d[6 * e]);
    std::vector<Real> v(x.size(), 0.0), fe(48, 0.0), me(48, 0.0), node(x.size(), 0.0);
    compute_planar_forces(no_hourglass(), m, blk, 0, 4, x, v, 0.0, fe, me);
    for (std::size_t e = 0; e < 4; ++e)
      for (int a = 0; a < 4; ++a)
        for (int i = 0; i < 3; ++i) node[3 * blk.conn[e][a] + i] += fe[12 * e + 3 * a + i];
    return node;
  }
};

TEST(Solid2d, UniformStressLeavesInteriorAndAxisNodesInEquilibrium) {
  const MaterialParams m = steel();
  // plane strain: any uniform stress is in equilibrium
  const Real s[6] = {40, -25, 15, 9, 0, 0};
  Patch ps(Planar::PlaneStrain, 1.0, 0.5);
  const auto fp = ps.forces(m, s);
  EXPECT_NEAR(fp[3 * 4], 0, 1e-12);
  EXPECT_NEAR(fp[3 * 4 + 1], 0, 1e-12);
  Real sum[2] = {0, 0};
  for (int n = 0; n < 9; ++n)
    for (int i = 0; i < 2; ++i) sum[i] += fp[3 * n + i];
  EXPECT_NEAR(sum[0], 0, 1e-12);
  EXPECT_NEAR(sum[1], 0, 1e-12);
  // axisymmetric: a uniform stress is in equilibrium (d sigma_rr/dr + (sigma_rr - sigma_hoop)/r
  // = 0, d sigma_rz/dr + sigma_rz/r + d sigma_zz/dz = 0) when sigma_rr = sigma_hoop and
  // sigma_rz = 0. The patch's left edge on the axis: the middle node and the axis node 3.
  const Real sa[6] = {40, -25, 40, 0, 0, 0};
  Patch pa(Planar::Axisymmetric, 0.0, 0.5);
  const auto fa = pa.forces(m, sa);
  for (int n : {3, 4}) {
    EXPECT_NEAR(fa[3 * n], 0, 1e-12) << n;
    EXPECT_NEAR(fa[3 * n + 1], 0, 1e-12) << n;
  }
  // the free outer edge (r = 1) carries the traction: node 5, sigma_rr r h per radian
  EXPECT_NEAR(fa[3 * 5], sa[0] * 1.0 * 0.5, 1e-12);
  // and the radial forces sum to int sigma_hoop dA (the hoop stress's resultant per radian)
  Real sum_r = 0;
  for (int n = 0; n < 9; ++n) sum_r += fa[3 * n];
  EXPECT_NEAR(sum_r, sa[2] * 1.0, 1e-12);
}

TEST(Solid2d, HourglassResistsOnlyTheHourglassMode) {
  const MaterialParams m = steel();
  ShellOptions opt = no_hourglass();
  opt.qm = 0.1;
  for (int ihq : {1, 4}) {
    opt.ihq = ihq;
    OneQuad q(Planar::PlaneStrain);
    const Real g[2][2] = {{3.0, 1.5}, {-2.0, 5.0}};
    std::vector<Real> v, f;
    step_linear(q, m, opt, g, 1e-7, v, f);
    EXPECT_NEAR(q.blk.e_hg[0], 0.0, 1e-20) << ihq; // a linear field has no hourglass part
    // the hourglass mode (+, -, +, -) in x on a square: resisted, positive energy
    OneQuad sq(Planar::PlaneStrain);
    sq.x = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0};
    std::vector<Real> vh{1, 0, 0, -1, 0, 0, 1, 0, 0, -1, 0, 0}, fe(12), me(12);
    std::vector<Real> x = sq.x;
    for (int k = 0; k < 12; ++k) x[k] += 1e-7 * vh[k];
    compute_planar_forces(opt, m, sq.blk, 0, 1, x, vh, 1e-7, fe, me);
    Real p = 0;
    for (int k = 0; k < 12; ++k) p += fe[k] * vh[k];
    EXPECT_GT(p, 0) << ihq;
    EXPECT_GT(sq.blk.e_hg[0], 0) << ihq;
    EXPECT_NEAR(sq.blk.sig2d[0], 0.0, 1e-9) << ihq; // no mean strain
  }
}

TEST(Solid2d, LumpedMassAndCriticalStep) {
  const MaterialParams m = steel();
  // a rectangle r in [1, 3], z in [0, 2]
  ShellBlock b;
  b.conn = {{0, 1, 2, 3}};
  const std::vector<Real> x{1, 0, 0, 3, 0, 0, 3, 2, 0, 1, 2, 0};
  b.planar = Planar::PlaneStrain;
  b.init(1, 1, 1.0);
  auto mp = planar_lumped_mass(m, b, 0, x);
  for (Real v : mp) EXPECT_NEAR(v, m.ro * 4.0 / 4.0, 1e-22);
  b.planar = Planar::Axisymmetric;
  auto ma = planar_lumped_mass(m, b, 0, x);
  // int r dA = (3^2 - 1^2) / 2 * 2 = 8; the outer nodes get more: int N_a r dA
  EXPECT_NEAR(ma[0] + ma[1] + ma[2] + ma[3], m.ro * 8.0, 1e-20);
  EXPECT_NEAR(ma[0], m.ro * 2.0 * (2.0 * 1.0 + 3.0) / 6.0 * 2.0 / 2.0, 1e-20);
  EXPECT_GT(ma[1], ma[0]);
  // through the shell family: no rotary inertia, masses as above
  const auto lm = ShellFamily::lump_mass({}, m, b, 0, x, 1.0);
  for (int a = 0; a < 4; ++a) {
    EXPECT_EQ(lm.mass[a], ma[a]);
    EXPECT_EQ(lm.inertia[a], 0.0);
  }
  // square of side h: h / (sqrt(2) c), c the dilatational speed
  const std::vector<Real> sq{0, 0, 0, 2, 0, 0, 2, 2, 0, 0, 2, 0};
  EXPECT_NEAR(planar_initial_dt(m, b, 0, sq), 2.0 / std::sqrt(2.0) / m.wave_speed_solid(), 1e-18);
}

} // namespace
} // namespace parcae
