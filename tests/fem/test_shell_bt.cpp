// Belytschko-Tsay shell: patch tests, rigid-body motion, elastic membrane and bending against
// hand formulas, hourglass control, triangles, thickness update, failure.
//
// Every test takes one explicit step from a stress-free state (unless said otherwise), so the
// stress is C * (rate * dt) and the forces are A B^T * resultants: exact up to round-off. The
// tolerances (1e-10 relative to the natural scale of the quantity) leave several orders of
// magnitude over double round-off (~1e-15 per operation, a few hundred operations) and are far
// below any formulation error (a wrong sign, factor or frame is an O(1) relative error).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "fem/shell_bt.hpp"

namespace parcae {
namespace {

constexpr Real kE = 210000.0, kNu = 0.3, kRho = 7.85e-9, kT = 1.5;

MaterialParams elastic() {
  MaterialParams m;
  m.kind = MaterialKind::Elastic;
  m.ro = kRho;
  m.e = kE;
  m.nu = kNu;
  m.g = kE / (2 * (1 + kNu));
  m.k = kE / (3 * (1 - 2 * kNu));
  m.lambda = kE * kNu / ((1 + kNu) * (1 - 2 * kNu));
  return m;
}

MaterialParams plastic(Real sigy, Real etan, Real fail) {
  MaterialParams m = elastic();
  m.kind = MaterialKind::PlasticKinematic;
  m.sigy = sigy;
  m.etan = etan;
  m.ep = kE * etan / (kE - etan);
  m.beta = 1.0;
  m.fail = fail;
  return m;
}

using V3 = std::array<Real, 3>;
V3 add(V3 a, V3 b) {
  return {a[0] + b[0], a[1] + b[1], a[2] + b[2]};
}
V3 sub(V3 a, V3 b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
V3 scale(V3 a, Real s) {
  return {a[0] * s, a[1] * s, a[2] * s};
}
Real dot(V3 a, V3 b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
V3 cross(V3 a, V3 b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
Real norm(V3 a) {
  return std::sqrt(dot(a, a));
}
V3 unit(V3 a) {
  return scale(a, 1.0 / norm(a));
}

/// An orthonormal plane frame (a1, a2, a3 = a1 x a2) in a general orientation, so the tests
/// exercise the corotational frame rather than an axis-aligned special case.
struct Plane {
  V3 o{3.0, -2.0, 5.0};
  V3 a1, a2, a3;
  Plane() {
    a1 = unit({0.6, 0.3, -0.2});
    a2 = unit(sub({-0.1, 0.7, 0.4}, scale(a1, dot(a1, {-0.1, 0.7, 0.4}))));
    a3 = cross(a1, a2);
  }
  [[nodiscard]] V3 at(Real X, Real Y) const { return add(o, add(scale(a1, X), scale(a2, Y))); }
};

struct Patch {
  std::vector<std::array<Real, 2>> XY; ///< in-plane coordinates
  std::vector<std::array<LocalId, 4>> conn;
};

/// 2x2 patch, 9 nodes, every element a different general quadrilateral, interior node 4.
Patch distorted_patch() {
  Patch p;
  p.XY = {{0, 0}, {20, 0}, {40, 0}, {1, 22}, {25, 16}, {42, 21}, {0, 40}, {18, 43}, {40, 40}};
  p.conn = {{0, 1, 4, 3}, {1, 2, 5, 4}, {3, 4, 7, 6}, {4, 5, 8, 7}};
  return p;
}

/// 2x2 patch of four different parallelograms (two bands with different skew, columns and rows
/// of different width), interior node 4. On parallelograms the one-point derivative of the
/// bilinear interpolant of a quadratic is its exact centroid derivative, so a Kirchhoff
/// constant-curvature field (quadratic w, linear rotations) has zero transverse shear.
Patch parallelogram_patch() {
  Patch p;
  p.XY = {{0, 0}, {12, 0}, {20, 0}, {3, 10}, {15, 10}, {23, 10}, {0, 25}, {12, 25}, {20, 25}};
  p.conn = {{0, 1, 4, 3}, {1, 2, 5, 4}, {3, 4, 7, 6}, {4, 5, 8, 7}};
  return p;
}

struct Model1 {
  std::vector<Real> x, v, w;
  ShellBlock blk;
  std::vector<Real> fe, me;
};

Model1 make_model(const Patch& p, const Plane& pl, int nip, Real t = kT) {
  Model1 m;
  for (const auto& xy : p.XY) {
    const V3 q = pl.at(xy[0], xy[1]);
    m.x.insert(m.x.end(), q.begin(), q.end());
  }
  m.v.assign(m.x.size(), 0.0);
  m.w.assign(m.x.size(), 0.0);
  m.blk.conn = p.conn;
  m.blk.init(p.conn.size(), nip, t);
  m.fe.assign(12 * p.conn.size(), 0.0);
  m.me.assign(12 * p.conn.size(), 0.0);
  return m;
}

void set_node(std::vector<Real>& a, std::size_t n, V3 val) {
  a[3 * n] = val[0];
  a[3 * n + 1] = val[1];
  a[3 * n + 2] = val[2];
}

/// Assembled force (or moment) at a node: sum over all element corners that reference it.
V3 assembled(const Model1& m, const std::vector<Real>& fe, LocalId node) {
  V3 s{0, 0, 0};
  for (std::size_t e = 0; e < m.blk.size(); ++e)
    for (int a = 0; a < 4; ++a)
      if (m.blk.conn[e][a] == node)
        for (int k = 0; k < 3; ++k) s[k] += fe[12 * e + 3 * a + k];
  return s;
}

Real max_abs(const std::vector<Real>& a) {
  Real s = 0;
  for (Real x : a) s = std::max(s, std::abs(x));
  return s;
}

/// In-plane components of a symmetric 2-D tensor S (plane coordinates) in the element frame
/// whose e1 is the unit vector along side 1-2 (the LS-DYNA convention, computed here by hand).
/// Returns [S11, S22, 2 S12] (engineering shear).
std::array<Real, 3> to_element(const Model1& m, std::size_t e, const Plane& pl, Real sxx, Real syy,
                               Real sxy_eng) {
  const auto& c = m.blk.conn[e];
  const V3 x0{m.x[3 * c[0]], m.x[3 * c[0] + 1], m.x[3 * c[0] + 2]};
  const V3 x1{m.x[3 * c[1]], m.x[3 * c[1] + 1], m.x[3 * c[1] + 2]};
  const V3 e1 = unit(sub(x1, x0));
  const Real cs = dot(e1, pl.a1), sn = dot(e1, pl.a2);
  const Real sxy = 0.5 * sxy_eng;
  const Real s11 = cs * cs * sxx + sn * sn * syy + 2 * cs * sn * sxy;
  const Real s22 = sn * sn * sxx + cs * cs * syy - 2 * cs * sn * sxy;
  const Real s12 = -cs * sn * sxx + cs * sn * syy + (cs * cs - sn * sn) * sxy;
  return {s11, s22, 2 * s12};
}

/// Plane-stress elastic stress [xx, yy, xy] from the strain [xx, yy, gamma_xy].
std::array<Real, 3> plane_stress(const std::array<Real, 3>& eps) {
  const Real eb = kE / (1 - kNu * kNu), g = kE / (2 * (1 + kNu));
  return {eb * (eps[0] + kNu * eps[1]), eb * (eps[1] + kNu * eps[0]), g * eps[2]};
}

ShellOptions options(int nip, int ihq = 1, Real qm = 0.1) {
  ShellOptions o;
  o.nip = nip;
  o.ihq = ihq;
  o.qm = qm;
  o.shrf = 5.0 / 6.0;
  return o;
}

// ------------------------------------------------------------------------------------------

TEST(ShellPatch, ConstantMembraneStrainRate) {
  const Plane pl;
  const Patch p = distorted_patch();
  Model1 m = make_model(p, pl, 3);
  // in-plane velocity gradient L (plane coordinates) plus a translation; rates ~1e-3 / dt
  const Real L00 = 0.8, L01 = -0.35, L10 = 0.5, L11 = -0.45;
  const Real dt = 1e-3;
  for (std::size_t n = 0; n < p.XY.size(); ++n) {
    const Real X = p.XY[n][0], Y = p.XY[n][1];
    const V3 vel =
        add(add(scale(pl.a1, L00 * X + L01 * Y + 0.7), scale(pl.a2, L10 * X + L11 * Y - 0.2)),
            scale(pl.a3, 0.3));
    set_node(m.v, n, vel);
  }
  const ShellOptions opt = options(3);
  compute_shell_forces(opt, elastic(), m.blk, 0, m.blk.size(), m.x, m.v, m.w, dt, m.fe, m.me);

  Real smax = 0;
  for (std::size_t e = 0; e < m.blk.size(); ++e) {
    const auto eps = to_element(m, e, pl, L00 * dt, L11 * dt, (L01 + L10) * dt);
    const auto sig = plane_stress(eps);
    smax = std::max({smax, std::abs(sig[0]), std::abs(sig[1]), std::abs(sig[2])});
  }
  ASSERT_GT(smax, 10.0); // a real stress state, not a trivially zero one
  for (std::size_t e = 0; e < m.blk.size(); ++e) {
    const auto eps = to_element(m, e, pl, L00 * dt, L11 * dt, (L01 + L10) * dt);
    const auto sig = plane_stress(eps);
    for (int ip = 0; ip < 3; ++ip) {
      const Real* s = &m.blk.sig[(e * 3 + ip) * 5];
      for (int k = 0; k < 3; ++k) EXPECT_NEAR(s[k], sig[k], 1e-10 * smax) << e << " " << ip;
      EXPECT_NEAR(s[3], 0.0, 1e-10 * smax);
      EXPECT_NEAR(s[4], 0.0, 1e-10 * smax);
    }
    // linear field: no hourglass work
    EXPECT_LT(std::abs(m.blk.e_hg[e]), 1e-12 * m.blk.e_int[e]);
  }
  const Real fscale = max_abs(m.fe);
  ASSERT_GT(fscale, 0.0);
  const V3 f4 = assembled(m, m.fe, 4), m4 = assembled(m, m.me, 4);
  EXPECT_LT(norm(f4), 1e-10 * fscale);
  EXPECT_LT(norm(m4), 1e-10 * fscale * 10.0);
  // global equilibrium: the sum over all nodes of the internal forces vanishes
  V3 ftot{0, 0, 0};
  for (LocalId n = 0; n < 9; ++n) ftot = add(ftot, assembled(m, m.fe, n));
  EXPECT_LT(norm(ftot), 1e-10 * fscale);
}

/// Kirchhoff constant-curvature field on the parallelogram patch: exact bending stress at every
/// point, zero transverse shear, zero assembled force and moment at the interior node.
/// Hourglass control is off here: the quadratic w of a constant-curvature field (twist, or any
/// curvature on skewed elements) has a component along the w-hourglass pattern, which the
/// stabilisation (not part of the consistent formulation) resists by design.
TEST(ShellPatch, ConstantCurvatureRate) {
  const Plane pl;
  const Patch p = parallelogram_patch();
  const int nip = 5;
  Model1 m = make_model(p, pl, nip);
  const Real kx = 2e-3, ky = -1.2e-3, kxy = 1.5e-3; // curvature rates (kxy engineering twist)
  const Real dt = 1e-2;
  for (std::size_t n = 0; n < p.XY.size(); ++n) {
    const Real X = p.XY[n][0], Y = p.XY[n][1];
    const Real thy = kx * X + 0.5 * kxy * Y;
    const Real thx = -(ky * Y + 0.5 * kxy * X);
    const Real wz = -0.5 * (kx * X * X + ky * Y * Y + kxy * X * Y);
    set_node(m.v, n, add(scale(pl.a3, wz), scale(pl.a1, 0.1))); // plus a rigid translation
    set_node(m.w, n, add(scale(pl.a1, thx), scale(pl.a2, thy)));
  }
  ShellOptions opt = options(nip, 1, 0.0);
  compute_shell_forces(opt, elastic(), m.blk, 0, m.blk.size(), m.x, m.v, m.w, dt, m.fe, m.me);

  std::vector<Real> zeta(nip), wt(nip);
  shell_thickness_rule(nip, false, zeta, wt);
  const Real smax = kE / (1 - kNu * kNu) * 0.5 * kT * 3e-3 * dt; // ~ outer-fibre stress
  for (std::size_t e = 0; e < m.blk.size(); ++e) {
    const auto kap = to_element(m, e, pl, kx, ky, kxy);
    for (int ip = 0; ip < nip; ++ip) {
      const Real z = zeta[ip] * kT / 2;
      const auto sig = plane_stress({z * kap[0] * dt, z * kap[1] * dt, z * kap[2] * dt});
      const Real* s = &m.blk.sig[(e * nip + ip) * 5];
      for (int k = 0; k < 3; ++k) EXPECT_NEAR(s[k], sig[k], 1e-10 * smax) << e << " " << ip;
      EXPECT_NEAR(s[3], 0.0, 1e-10 * smax) << e;
      EXPECT_NEAR(s[4], 0.0, 1e-10 * smax) << e;
    }
  }
  const Real mscale = max_abs(m.me);
  ASSERT_GT(mscale, 0.0);
  EXPECT_LT(norm(assembled(m, m.me, 4)), 1e-10 * mscale);
  EXPECT_LT(norm(assembled(m, m.fe, 4)), 1e-10 * mscale / 10.0);
}

/// On the general distorted patch the curvature (linear rotation field) is still exact in every
/// element; the one-point transverse shear of a quadratic w is not exact on general quads, so
/// only the in-plane bending stresses are checked here.
TEST(ShellPatch, ConstantCurvatureRateDistorted) {
  const Plane pl;
  const Patch p = distorted_patch();
  const int nip = 4;
  Model1 m = make_model(p, pl, nip);
  const Real kx = -1e-3, ky = 2.5e-3, kxy = -0.8e-3;
  const Real dt = 1e-2;
  for (std::size_t n = 0; n < p.XY.size(); ++n) {
    const Real X = p.XY[n][0], Y = p.XY[n][1];
    set_node(m.w, n,
             add(scale(pl.a1, -(ky * Y + 0.5 * kxy * X)), scale(pl.a2, kx * X + 0.5 * kxy * Y)));
  }
  compute_shell_forces(options(nip), elastic(), m.blk, 0, m.blk.size(), m.x, m.v, m.w, dt, m.fe,
                       m.me);
  std::vector<Real> zeta(nip), wt(nip);
  shell_thickness_rule(nip, false, zeta, wt);
  const Real smax = kE / (1 - kNu * kNu) * 0.5 * kT * 3e-3 * dt;
  for (std::size_t e = 0; e < m.blk.size(); ++e) {
    const auto kap = to_element(m, e, pl, kx, ky, kxy);
    for (int ip = 0; ip < nip; ++ip) {
      const Real z = zeta[ip] * kT / 2;
      const auto sig = plane_stress({z * kap[0] * dt, z * kap[1] * dt, z * kap[2] * dt});
      const Real* s = &m.blk.sig[(e * nip + ip) * 5];
      for (int k = 0; k < 3; ++k) EXPECT_NEAR(s[k], sig[k], 1e-10 * smax) << e << " " << ip;
    }
  }
}

TEST(ShellRigidBody, TranslationAndRotationGiveNoStressNoForce) {
  const Plane pl;
  const Patch p = distorted_patch();
  for (int ihq : {1, 4}) {
    Model1 m = make_model(p, pl, 3);
    const V3 v0{1.5, -2.0, 0.7}, om{0.3, -0.8, 0.55}, c{5.0, 1.0, -3.0};
    const Real dt = 1e-3;
    ShellOptions opt = options(3, ihq);
    // two steps, moving the nodes in between (the frame follows); the velocity is the rigid
    // field of the current configuration
    for (int step = 0; step < 2; ++step) {
      for (std::size_t n = 0; n < p.XY.size(); ++n) {
        const V3 xn{m.x[3 * n], m.x[3 * n + 1], m.x[3 * n + 2]};
        set_node(m.v, n, add(v0, cross(om, sub(xn, c))));
        set_node(m.w, n, om);
      }
      compute_shell_forces(opt, elastic(), m.blk, 0, m.blk.size(), m.x, m.v, m.w, dt, m.fe, m.me);
      for (std::size_t i = 0; i < m.x.size(); ++i) m.x[i] += dt * m.v[i];
    }
    // scale: the stress / force a strain of |omega| dt would cause
    const Real sscale = kE * norm(om) * dt;
    const Real fscale = sscale * kT * 40.0;
    EXPECT_LT(max_abs(m.blk.sig), 1e-12 * sscale) << "ihq " << ihq;
    EXPECT_LT(max_abs(m.fe), 1e-12 * fscale) << "ihq " << ihq;
    EXPECT_LT(max_abs(m.me), 1e-12 * fscale * kT) << "ihq " << ihq;
    EXPECT_LT(max_abs(m.blk.hg), 1e-12 * fscale) << "ihq " << ihq;
    for (std::size_t e = 0; e < m.blk.size(); ++e) {
      EXPECT_LT(std::abs(m.blk.e_int[e]), 1e-20);
      EXPECT_LT(std::abs(m.blk.e_hg[e]), 1e-20);
    }
  }
}

/// A warped quad (corners off a common plane) under rigid rotation: the BT strains vanish
/// exactly (B is orthogonal to the warping pattern); documented limitation: the hourglass
/// rates of plain BT are not warping-corrected, so only the stresses are checked.
TEST(ShellRigidBody, WarpedQuadRotationGivesNoStress) {
  Model1 m;
  m.x = {0, 0, 0.8, 10, 0, -0.8, 11, 9, 0.8, -1, 10, -0.8};
  m.v.assign(12, 0);
  m.w.assign(12, 0);
  m.blk.conn = {{0, 1, 2, 3}};
  m.blk.init(1, 2, kT);
  m.fe.assign(12, 0);
  m.me.assign(12, 0);
  const V3 om{0.4, 0.9, -0.3};
  for (std::size_t n = 0; n < 4; ++n) {
    set_node(m.v, n, cross(om, {m.x[3 * n], m.x[3 * n + 1], m.x[3 * n + 2]}));
    set_node(m.w, n, om);
  }
  compute_shell_forces(options(2, 1, 0.0), elastic(), m.blk, 0, 1, m.x, m.v, m.w, 1e-3, m.fe, m.me);
  EXPECT_LT(max_abs(m.blk.sig), 1e-12 * kE * norm(om) * 1e-3);
  EXPECT_LT(max_abs(m.fe), 1e-12 * kE * norm(om) * 1e-3 * kT * 10);
}

// ------------------------------------------------------------------------------------------
// One element against hand formulas (rectangle a x b in the global x-y plane)

Model1 rectangle(Real a, Real b, int nip, Real t = kT) {
  Model1 m;
  m.x = {0, 0, 0, a, 0, 0, a, b, 0, 0, b, 0};
  m.v.assign(12, 0);
  m.w.assign(12, 0);
  m.blk.conn = {{0, 1, 2, 3}};
  m.blk.init(1, nip, t);
  m.fe.assign(12, 0);
  m.me.assign(12, 0);
  return m;
}

TEST(ShellElastic, UniaxialAndBiaxialMembraneStretch) {
  const Real a = 10, b = 6, dt = 1e-4;
  for (Real ry : {0.0, -0.4}) {
    Model1 m = rectangle(a, b, 2);
    const Real rx = 1.0; // strain rates
    for (int n = 0; n < 4; ++n) {
      m.v[3 * n] = rx * m.x[3 * n];
      m.v[3 * n + 1] = ry * m.x[3 * n + 1];
    }
    compute_shell_forces(options(2), elastic(), m.blk, 0, 1, m.x, m.v, m.w, dt, m.fe, m.me);
    const Real ex = rx * dt, ey = ry * dt;
    const Real sxx = kE / (1 - kNu * kNu) * (ex + kNu * ey);
    const Real syy = kE / (1 - kNu * kNu) * (ey + kNu * ex);
    for (int ip = 0; ip < 2; ++ip) {
      EXPECT_NEAR(m.blk.sig[5 * ip + 0], sxx, 1e-12 * std::abs(sxx));
      EXPECT_NEAR(m.blk.sig[5 * ip + 1], syy, 1e-12 * std::abs(sxx));
      EXPECT_NEAR(m.blk.sig[5 * ip + 2], 0.0, 1e-12 * std::abs(sxx));
    }
    // internal corner forces: +-sigma t (edge length)/2 on the faces x = a / y = b
    const Real fx = sxx * kT * b / 2, fy = syy * kT * a / 2;
    const Real sx[4] = {-1, 1, 1, -1}, sy[4] = {-1, -1, 1, 1};
    for (int c = 0; c < 4; ++c) {
      EXPECT_NEAR(m.fe[3 * c + 0], sx[c] * fx, 1e-12 * std::abs(fx)) << c;
      EXPECT_NEAR(m.fe[3 * c + 1], sy[c] * fy, 1e-12 * std::abs(fx)) << c;
      EXPECT_NEAR(m.fe[3 * c + 2], 0.0, 1e-12 * std::abs(fx));
    }
    // internal energy after one step from zero: 1/2 sigma : eps * volume
    const Real eint = 0.5 * (sxx * ex + syy * ey) * a * b * kT;
    EXPECT_NEAR(m.blk.e_int[0], eint, 1e-12 * eint);
    EXPECT_EQ(m.blk.t[0], kT); // no thickness update unless asked for
  }
}

TEST(ShellElastic, PureBendingMomentIsDTimesCurvature) {
  const Real L = 8, dt = 1e-2, kap = 3e-3;
  for (bool lobatto : {false, true}) {
    const int nip = 5;
    Model1 m = rectangle(L, L, nip);
    for (int n = 0; n < 4; ++n) {
      const Real X = m.x[3 * n];
      m.w[3 * n + 1] = kap * X;            // theta_y = kappa x
      m.v[3 * n + 2] = -0.5 * kap * X * X; // w = -kappa x^2 / 2 (no transverse shear)
    }
    ShellOptions opt = options(nip);
    opt.lobatto = lobatto;
    compute_shell_forces(opt, elastic(), m.blk, 0, 1, m.x, m.v, m.w, dt, m.fe, m.me);
    std::vector<Real> zeta(nip), wt(nip);
    shell_thickness_rule(nip, lobatto, zeta, wt);
    Real Mxx = 0, Myy = 0, Nxx = 0;
    for (int ip = 0; ip < nip; ++ip) {
      const Real z = zeta[ip] * kT / 2, dz = wt[ip] * kT / 2;
      Mxx += z * m.blk.sig[5 * ip] * dz;
      Myy += z * m.blk.sig[5 * ip + 1] * dz;
      Nxx += m.blk.sig[5 * ip] * dz;
    }
    const Real D = kE * kT * kT * kT / (12 * (1 - kNu * kNu));
    const Real M = D * kap * dt;
    EXPECT_NEAR(Mxx, M, 1e-12 * M);
    EXPECT_NEAR(Myy, kNu * M, 1e-12 * M);
    EXPECT_NEAR(Nxx, 0.0, 1e-12 * M);
    // corner moments: m_y = +-M L/2 on x = L / x = 0, m_x = -+nu M L/2 on y = L / y = 0
    const Real sx[4] = {-1, 1, 1, -1}, sy[4] = {-1, -1, 1, 1};
    for (int c = 0; c < 4; ++c) {
      EXPECT_NEAR(m.me[3 * c + 1], sx[c] * M * L / 2, 1e-10 * M * L) << c;
      EXPECT_NEAR(m.me[3 * c + 0], -sy[c] * kNu * M * L / 2, 1e-10 * M * L) << c;
      EXPECT_NEAR(m.me[3 * c + 2], 0.0, 1e-10 * M * L);
      for (int k = 0; k < 3; ++k) EXPECT_NEAR(m.fe[3 * c + k], 0.0, 1e-10 * M);
    }
  }
}

TEST(ShellElastic, TransverseShearUsesShearFactor) {
  // w = g x with theta = 0: gamma_zx = g; tau = shrf G g dt, constant through the thickness
  const Real L = 5, dt = 1e-3, g = 0.2;
  Model1 m = rectangle(L, L, 3);
  for (int n = 0; n < 4; ++n) m.v[3 * n + 2] = g * m.x[3 * n];
  ShellOptions opt = options(3, 1, 0.0);
  compute_shell_forces(opt, elastic(), m.blk, 0, 1, m.x, m.v, m.w, dt, m.fe, m.me);
  const Real tau = opt.shrf * kE / (2 * (1 + kNu)) * g * dt;
  for (int ip = 0; ip < 3; ++ip) {
    EXPECT_NEAR(m.blk.sig[5 * ip + 4], tau, 1e-12 * tau);
    EXPECT_NEAR(m.blk.sig[5 * ip + 3], 0.0, 1e-12 * tau);
  }
  // f_z = A B1 Q: +-Q L/2; corner moments m_y = A N Q = Q L^2 / 4
  const Real Q = tau * kT;
  const Real sx[4] = {-1, 1, 1, -1};
  for (int c = 0; c < 4; ++c) {
    EXPECT_NEAR(m.fe[3 * c + 2], sx[c] * Q * L / 2, 1e-12 * Q * L);
    EXPECT_NEAR(m.me[3 * c + 1], Q * L * L / 4, 1e-12 * Q * L * L);
  }
}

TEST(ShellElastic, ThicknessUpdateFromThroughThicknessStrain) {
  const Real a = 10, b = 6, dt = 1e-4, rx = 2.0, ry = 0.5;
  Model1 m = rectangle(a, b, 3);
  for (int n = 0; n < 4; ++n) {
    m.v[3 * n] = rx * m.x[3 * n];
    m.v[3 * n + 1] = ry * m.x[3 * n + 1];
  }
  ShellOptions opt = options(3);
  opt.thickness_update = true;
  compute_shell_forces(opt, elastic(), m.blk, 0, 1, m.x, m.v, m.w, dt, m.fe, m.me);
  const Real dzz = -kNu / (1 - kNu) * (rx + ry) * dt; // plane stress, elastic
  EXPECT_NEAR(m.blk.t[0], kT * (1 + dzz), 1e-12 * kT);
  EXPECT_LT(m.blk.t[0], kT);
  EXPECT_EQ(m.blk.t0[0], kT);
}

// ------------------------------------------------------------------------------------------
// Hourglass control

struct HgCase {
  int dof;      ///< 0..2 translation x, y, z; 3, 4 rotation x, y
  int hg_index; ///< slot in blk.hg: membrane x, y, bending x, y, w
};

/// Coefficients of shell_bt.cpp for a square of side L (gamma = h, BB = 2/L^2, A = L^2).
Real hg_stiffness_square(int hg_index, Real L, Real qm, const ShellOptions& opt) {
  const Real bb = 2 / (L * L), A = L * L, G = kE / (2 * (1 + kNu));
  switch (hg_index) {
  case 0:
  case 1:
    return qm * kE * kT * A * bb / 8;
  case 2:
  case 3:
    return qm * kE * kT * kT * kT * A * bb / 192;
  default:
    return qm * opt.shrf * G * kT * kT * kT * bb / 12;
  }
}

TEST(ShellHourglass, ModesAreResistedAndDissipateOrStoreEnergy) {
  const Real L = 10, dt = 1e-6, V = 2.0, qm = 0.1;
  const HgCase cases[] = {{0, 0}, {1, 1}, {3, 2}, {4, 3}, {2, 4}};
  const Real h[4] = {1, -1, 1, -1};
  const Real c = std::sqrt(kE / (kRho * (1 - kNu * kNu)));
  for (int ihq : {1, 4}) {
    for (const auto& hc : cases) {
      Model1 m = rectangle(L, L, 2);
      for (int n = 0; n < 4; ++n) {
        if (hc.dof < 3)
          m.v[3 * n + hc.dof] = V * h[n];
        else
          m.w[3 * n + hc.dof - 3] = V * h[n];
      }
      ShellOptions opt = options(2, ihq, qm);
      compute_shell_forces(opt, elastic(), m.blk, 0, 1, m.x, m.v, m.w, dt, m.fe, m.me);
      const Real q = 4 * V; // gamma . v with gamma = h
      const Real K = hg_stiffness_square(hc.hg_index, L, qm, opt);
      const Real Q = ihq >= 4 ? K * q * dt : K / (c * std::sqrt(2.0) / L) * q;
      const std::vector<Real>& out = hc.dof < 3 ? m.fe : m.me;
      const int k = hc.dof % 3;
      Real power = 0;
      for (int n = 0; n < 4; ++n) {
        EXPECT_NEAR(out[3 * n + k], h[n] * Q, 1e-12 * std::abs(Q)) << ihq << " " << hc.dof;
        power += out[3 * n + k] * V * h[n];
      }
      // internal force does positive work on the mode velocity (restoring force opposes it)
      EXPECT_GT(power, 0.0);
      // the hourglass mode carries no strain (no stress at all)
      EXPECT_LT(max_abs(m.blk.sig), 1e-12 * kE * V / L * dt);
      const Real ehg = ihq >= 4 ? 0.5 * Q * q * dt : Q * q * dt;
      EXPECT_NEAR(m.blk.e_hg[0], ehg, 1e-12 * ehg);
      EXPECT_GT(m.blk.e_hg[0], 0.0);
      if (ihq >= 4) {
        EXPECT_NEAR(m.blk.hg[hc.hg_index], Q, 1e-12 * Q);
        // second step: the stiffness form accumulates
        compute_shell_forces(opt, elastic(), m.blk, 0, 1, m.x, m.v, m.w, dt, m.fe, m.me);
        EXPECT_NEAR(m.blk.hg[hc.hg_index], 2 * Q, 1e-12 * Q);
        EXPECT_NEAR(m.blk.e_hg[0], 4 * ehg, 1e-12 * ehg);
      } else {
        EXPECT_EQ(max_abs(m.blk.hg), 0.0); // viscous form keeps no state
      }
    }
  }
}

TEST(ShellHourglass, DistortedElementHourglassOpposedLinearFieldFree) {
  Model1 m;
  m.x = {0, 0, 0, 11, 1, 0, 13, 9, 0, 2, 12, 0};
  m.v.assign(12, 0);
  m.w.assign(12, 0);
  m.blk.conn = {{0, 1, 2, 3}};
  m.fe.assign(12, 0);
  m.me.assign(12, 0);
  const Real h[4] = {1, -1, 1, -1};
  for (int ihq : {2, 5}) {
    // linear fields in every component: no hourglass force or energy
    m.blk.init(1, 2, kT);
    for (int n = 0; n < 4; ++n) {
      const Real X = m.x[3 * n], Y = m.x[3 * n + 1];
      set_node(m.v, n, {0.3 * X - 0.1 * Y + 1, 0.2 * X + 0.4 * Y, -0.05 * X + 0.07 * Y + 2});
      set_node(m.w, n, {0.01 * X + 0.02 * Y, -0.03 * X + 0.01 * Y, 0.05});
    }
    ShellOptions opt = options(2, ihq, 0.1), off = options(2, ihq, 0.0);
    std::vector<Real> fe0(12), me0(12);
    ShellBlock b0 = m.blk;
    compute_shell_forces(off, elastic(), b0, 0, 1, m.x, m.v, m.w, 1e-4, fe0, me0);
    compute_shell_forces(opt, elastic(), m.blk, 0, 1, m.x, m.v, m.w, 1e-4, m.fe, m.me);
    for (int i = 0; i < 12; ++i) {
      EXPECT_NEAR(m.fe[i], fe0[i], 1e-11 * max_abs(fe0));
      EXPECT_NEAR(m.me[i], me0[i], 1e-11 * max_abs(me0));
    }
    EXPECT_LT(std::abs(m.blk.e_hg[0]), 1e-12 * m.blk.e_int[0]);
    EXPECT_LT(max_abs(m.blk.hg), 1e-11 * max_abs(fe0));

    // hourglass pattern in every component on the distorted element: positive work, energy
    m.blk.init(1, 2, kT);
    for (int n = 0; n < 4; ++n) {
      set_node(m.v, n, {h[n], -0.5 * h[n], 0.7 * h[n]});
      set_node(m.w, n, {0.2 * h[n], 0.1 * h[n], 0});
    }
    compute_shell_forces(opt, elastic(), m.blk, 0, 1, m.x, m.v, m.w, 1e-4, m.fe, m.me);
    Real power = 0;
    for (int i = 0; i < 12; ++i) power += m.fe[i] * m.v[i] + m.me[i] * m.w[i];
    EXPECT_GT(power, 0.0);
    EXPECT_GT(m.blk.e_hg[0], 0.0);
  }
}

// ------------------------------------------------------------------------------------------
// Triangles

TEST(ShellTriangle, ConstantMembraneStrainExactNoHourglass) {
  const Plane pl;
  Patch p;
  p.XY = {{0, 0}, {9, 1}, {3, 7}};
  p.conn = {{0, 1, 2, 2}};
  Model1 m = make_model(p, pl, 2);
  const Real L00 = 0.5, L01 = 0.2, L10 = -0.6, L11 = 0.3, dt = 1e-3;
  for (std::size_t n = 0; n < 3; ++n) {
    const Real X = p.XY[n][0], Y = p.XY[n][1];
    set_node(m.v, n, add(scale(pl.a1, L00 * X + L01 * Y), scale(pl.a2, L10 * X + L11 * Y)));
  }
  compute_shell_forces(options(2, 1, 0.5), elastic(), m.blk, 0, 1, m.x, m.v, m.w, dt, m.fe, m.me);
  const auto sig = plane_stress(to_element(m, 0, pl, L00 * dt, L11 * dt, (L01 + L10) * dt));
  const Real smax = std::max({std::abs(sig[0]), std::abs(sig[1]), std::abs(sig[2])});
  for (int ip = 0; ip < 2; ++ip)
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(m.blk.sig[5 * ip + k], sig[k], 1e-10 * smax);
  EXPECT_EQ(m.blk.e_hg[0], 0.0);
  // forces on the 3 distinct nodes balance
  V3 s{0, 0, 0};
  for (int c = 0; c < 4; ++c) s = add(s, {m.fe[3 * c], m.fe[3 * c + 1], m.fe[3 * c + 2]});
  EXPECT_LT(norm(s), 1e-12 * max_abs(m.fe));

  // a velocity field that would be an hourglass mode of a quad gives no hourglass response
  ShellBlock b2;
  b2.conn = p.conn;
  b2.init(1, 2, kT);
  std::vector<Real> v2(9, 0.0), w2(9, 0.0);
  set_node(w2, 0, {0.1, 0, 0});
  set_node(w2, 1, {-0.1, 0, 0});
  set_node(w2, 2, {0.1, 0, 0});
  compute_shell_forces(options(2, 4, 0.5), elastic(), b2, 0, 1, m.x, v2, w2, dt, m.fe, m.me);
  EXPECT_EQ(b2.e_hg[0], 0.0);
  EXPECT_EQ(max_abs(b2.hg), 0.0);
}

TEST(ShellTriangle, PureBendingOfTriangleIsExact) {
  // linear rotation field on a triangle: constant curvature, exact bending stress
  Model1 m;
  m.x = {0, 0, 0, 10, 2, 0, 4, 9, 0};
  m.v.assign(9, 0);
  m.w.assign(9, 0);
  m.blk.conn = {{0, 1, 2, 2}};
  m.blk.init(1, 3, kT);
  m.fe.assign(12, 0);
  m.me.assign(12, 0);
  const Real kx = 1e-3, dt = 1e-2;
  for (int n = 0; n < 3; ++n) m.w[3 * n + 1] = kx * m.x[3 * n];
  const ShellOptions opt = options(3);
  compute_shell_forces(opt, elastic(), m.blk, 0, 1, m.x, m.v, m.w, dt, m.fe, m.me);
  std::vector<Real> zeta(3), wt(3);
  shell_thickness_rule(3, false, zeta, wt);
  // element frame: e1 along side 1-2
  const Real cs = 10 / std::sqrt(104.0), sn = 2 / std::sqrt(104.0);
  const auto kap = std::array<Real, 3>{cs * cs * kx, sn * sn * kx, -2 * cs * sn * kx};
  for (int ip = 0; ip < 3; ++ip) {
    const Real z = zeta[ip] * kT / 2;
    const auto sig = plane_stress({z * kap[0] * dt, z * kap[1] * dt, z * kap[2] * dt});
    for (int k = 0; k < 3; ++k)
      EXPECT_NEAR(m.blk.sig[5 * ip + k], sig[k], 1e-10 * kE * kT * kx * dt);
  }
  // w = 0: the transverse shear is the rotation at the centroid (the mean over the 3 distinct
  // nodes, not over 4 corners): gamma_zx = theta_y(local), gamma_yz = -theta_x(local)
  const Real xc = (0 + 10 + 4) / 3.0;
  const Real G = kE / (2 * (1 + kNu));
  const Real tzx = opt.shrf * G * cs * kx * xc * dt, tyz = -opt.shrf * G * sn * kx * xc * dt;
  for (int ip = 0; ip < 3; ++ip) {
    EXPECT_NEAR(m.blk.sig[5 * ip + 4], tzx, 1e-12 * std::abs(tzx));
    EXPECT_NEAR(m.blk.sig[5 * ip + 3], tyz, 1e-12 * std::abs(tzx));
  }
}

// ------------------------------------------------------------------------------------------
// Failure

TEST(ShellFailure, ElementErodesWhenAllPointsReachFailureStrain) {
  const Real a = 10, b = 10, dt = 1e-3;
  const MaterialParams mat = plastic(200.0, 1000.0, 0.02);
  Model1 m = rectangle(a, b, 3);
  for (int n = 0; n < 4; ++n) m.v[3 * n] = 1.0 * m.x[3 * n]; // 1e-3 strain per step
  const ShellOptions opt = options(3);
  int steps = 0;
  while (!m.blk.failed[0] && steps < 200) {
    compute_shell_forces(opt, mat, m.blk, 0, 1, m.x, m.v, m.w, dt, m.fe, m.me);
    ++steps;
    if (!m.blk.failed[0]) {
      EXPECT_GT(max_abs(m.fe), 0.0);
    }
  }
  ASSERT_EQ(m.blk.failed[0], 1);
  for (int ip = 0; ip < 3; ++ip) EXPECT_GE(m.blk.eps_p[ip], mat.fail);
  // plastic strain grows at ~1e-3 per step after yield (~1e-3): fails around step 20..25
  EXPECT_GT(steps, 15);
  EXPECT_LT(steps, 30);
  EXPECT_EQ(max_abs(m.fe), 0.0);
  EXPECT_EQ(max_abs(m.me), 0.0);
  // stays eroded: zero forces, state frozen
  const std::vector<Real> sig = m.blk.sig;
  std::fill(m.fe.begin(), m.fe.end(), 7.0);
  compute_shell_forces(opt, mat, m.blk, 0, 1, m.x, m.v, m.w, dt, m.fe, m.me);
  compute_shell_forces_reference(opt, mat, m.blk, 0, 1, m.x, m.v, m.w, dt, m.fe, m.me);
  EXPECT_EQ(max_abs(m.fe), 0.0);
  EXPECT_EQ(m.blk.sig, sig);
}

TEST(ShellFailure, NoErosionWhileOnePointIsBelowFailureStrain) {
  // pure bending with an odd Gauss rule: the mid-surface point never yields
  const MaterialParams mat = plastic(100.0, 500.0, 0.001);
  Model1 m = rectangle(8, 8, 3);
  for (int n = 0; n < 4; ++n) {
    m.w[3 * n + 1] = 0.05 * m.x[3 * n];
    m.v[3 * n + 2] = -0.025 * m.x[3 * n] * m.x[3 * n];
  }
  for (int s = 0; s < 50; ++s)
    compute_shell_forces(options(3), mat, m.blk, 0, 1, m.x, m.v, m.w, 1e-2, m.fe, m.me);
  EXPECT_GT(m.blk.eps_p[0], mat.fail);
  EXPECT_GT(m.blk.eps_p[2], mat.fail);
  EXPECT_LT(m.blk.eps_p[1], mat.fail);
  EXPECT_EQ(m.blk.failed[0], 0);
  EXPECT_GT(max_abs(m.me), 0.0);
  // without a failure strain nothing erodes
  const MaterialParams nofail = plastic(100.0, 500.0, 0.0);
  Model1 m2 = rectangle(10, 10, 2);
  for (int n = 0; n < 4; ++n) m2.v[3 * n] = 1.0 * m2.x[3 * n];
  for (int s = 0; s < 50; ++s)
    compute_shell_forces(options(2), nofail, m2.blk, 0, 1, m2.x, m2.v, m2.w, 1e-3, m2.fe, m2.me);
  EXPECT_GT(m2.blk.eps_p[0], 0.03);
  EXPECT_EQ(m2.blk.failed[0], 0);
}

} // namespace
} // namespace parcae
