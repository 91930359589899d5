// Integrated beam kernel (fem/beam.hpp, *SECTION_BEAM ELFORM 1 and 9): section rules (area and
// second moments exact for every supported QR), zero strain under rigid motions, the elastic
// resultants of axial stretch, bending, shear and torsion against E A, E I, G A, G J, the
// balance of the nodal forces and moments, the fully plastic axial force and moment, the imposed
// axial force (*INITIAL_AXIAL_FORCE_BEAM), *MAT_NULL beams, and the critical step against the
// element's largest eigenvalue computed from the kernel itself.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

#include "fem/beam.hpp"

namespace parcae {
namespace {

constexpr Real kE = 210000.0, kNu = 0.3, kRho = 7.85e-9;

MaterialParams steel(MaterialKind kind = MaterialKind::Elastic, Real sigy = 250.0, Real ep = 0) {
  MaterialParams m;
  m.kind = kind;
  m.ro = kRho;
  m.e = kE;
  m.nu = kNu;
  m.g = kE / (2 * (1 + kNu));
  m.sigy = sigy;
  m.ep = ep;
  m.etan = kE * ep / (kE + ep);
  m.beta = 1;
  return m;
}

/// One beam along x from the origin, length len, s axis = y.
BeamBlock one_beam(int cst, int qr, Real ts, Real tt, Real len = 100.0, Real shrf = 1.0) {
  BeamBlock b;
  b.conn = {{0, 1}};
  b.l0 = {len};
  b.e2 = {{0, 1, 0}};
  b.sec.rule = make_beam_section_rule(cst, qr, ts, tt);
  b.sec.shrf = shrf;
  b.init(1, static_cast<int>(b.sec.rule.size()));
  return b;
}

/// Moves the two nodes (x: 6 values) with velocities v and angular velocities w for nsteps of
/// dt; returns the corner forces and moments of the last pass.
struct Pass {
  std::array<Real, 6> f{}, m{};
};
Pass drive(const MaterialParams& mat, BeamBlock& b, std::vector<Real>& x,
           const std::vector<Real>& v, const std::vector<Real>& w, Real dt, int nsteps) {
  Pass p;
  for (int k = 0; k < nsteps; ++k) {
    for (int i = 0; i < 6; ++i) x[i] += dt * v[i];
    compute_beam_forces(mat, b, 0, 1, x, v, w, dt, p.f, p.m);
  }
  return p;
}

TEST(BeamSection, AreaAndSecondMomentsAreExactForEverySupportedRule) {
  const Real b = 3.0, h = 5.0, d = 10.0, di = 6.0;
  for (int qr = 2; qr <= 5; ++qr) {
    const BeamSectionRule r = make_beam_section_rule(0, qr, b, h);
    EXPECT_NEAR(r.area, b * h, 1e-12 * b * h) << qr;
    EXPECT_NEAR(r.is, b * h * h * h / 12, 1e-12 * b * h * h * h) << qr; // int t^2: TT = h
    EXPECT_NEAR(r.it, h * b * b * b / 12, 1e-12 * h * b * b * b) << qr;
    const BeamSectionRule c = make_beam_section_rule(1, qr, d, 0.0);
    const Real ic = std::numbers::pi * std::pow(d, 4) / 64;
    EXPECT_NEAR(c.area, std::numbers::pi * d * d / 4, 1e-12 * d * d) << qr;
    EXPECT_NEAR(c.is, ic, 1e-12 * ic) << qr;
    EXPECT_NEAR(c.it, ic, 1e-12 * ic) << qr;
    const BeamSectionRule t = make_beam_section_rule(1, qr, d, di);
    const Real it = std::numbers::pi * (std::pow(d, 4) - std::pow(di, 4)) / 64;
    EXPECT_NEAR(t.area, std::numbers::pi * (d * d - di * di) / 4, 1e-12 * d * d) << qr;
    EXPECT_NEAR(t.is, it, 1e-12 * it) << qr;
  }
  // QR 1: one point, no bending stiffness (LS-DYNA's one-point beam)
  const BeamSectionRule one = make_beam_section_rule(1, 1, d, 0.0);
  EXPECT_EQ(one.size(), 1u);
  EXPECT_EQ(one.is, 0.0);
  EXPECT_EQ(make_beam_section_rule(0, 0, b, h).size(), 4u); // QR 0 / blank: 2x2
  EXPECT_THROW(make_beam_section_rule(0, 6, b, h), std::invalid_argument);
  EXPECT_THROW(make_beam_section_rule(0, -1, b, h), std::invalid_argument);
  EXPECT_THROW(make_beam_section_rule(2, 2, b, h), std::invalid_argument);
  EXPECT_THROW(make_beam_section_rule(1, 2, d, d), std::invalid_argument);
}

TEST(BeamKernel, RigidRotationsAndTranslationGiveNoStress) {
  const MaterialParams mat = steel();
  BeamBlock b = one_beam(0, 2, 4.0, 6.0);
  // spin about z (through node 1) at omega, translating at vt, for a quarter turn
  const Real omega = 100.0, dt = 1e-6;
  const Real vt[3] = {3.0, -2.0, 5.0};
  std::vector<Real> x{0, 0, 0, 100, 0, 0}, v(6), w{0, 0, omega, 0, 0, omega};
  std::array<Real, 6> f{}, m{};
  const int n = static_cast<int>(std::lround(0.5 * std::numbers::pi / omega / dt));
  for (int k = 0; k < n; ++k) {
    const Real t0 = k * dt, t1 = (k + 1) * dt;
    for (int a = 0; a < 2; ++a) {
      const Real r = 100.0 * a;
      const Real p0[3] = {r * std::cos(omega * t0) + vt[0] * t0,
                          r * std::sin(omega * t0) + vt[1] * t0, vt[2] * t0};
      const Real p1[3] = {r * std::cos(omega * t1) + vt[0] * t1,
                          r * std::sin(omega * t1) + vt[1] * t1, vt[2] * t1};
      for (int i = 0; i < 3; ++i) {
        v[3 * a + i] = (p1[i] - p0[i]) / dt;
        x[3 * a + i] = p1[i];
      }
    }
    compute_beam_forces(mat, b, 0, 1, x, v, w, dt, f, m);
  }
  // the chord's turn over a step against the nodes' spin differs by (omega dt)^2 / 12 relative:
  // 1.3e-9 of shear strain after the quarter turn (1e-4 MPa); a missing frame update or a wrong
  // sign gives stresses of the order of E * 1e-3
  for (Real s : b.sig) EXPECT_LT(std::abs(s), 1e-3);
  // the s axis has turned with the element: (0,1,0) -> (-1,0,0)
  EXPECT_NEAR(b.e2[0][0], -1.0, 1e-6);
  // spin about the beam's own axis: the frame turns, no torsion
  BeamBlock c = one_beam(0, 2, 4.0, 6.0);
  std::vector<Real> x2{0, 0, 0, 100, 0, 0}, v2(6, 0.0), w2{omega, 0, 0, omega, 0, 0};
  drive(mat, c, x2, v2, w2, dt, n);
  for (Real s : c.sig) EXPECT_LT(std::abs(s), 1e-9);
  EXPECT_NEAR(c.e2[0][2], 1.0, 1e-6); // quarter turn about x: y -> z (n dt omega ~ pi/2)
}

TEST(BeamKernel, ElasticResultantsAndBalance) {
  const MaterialParams mat = steel();
  const Real ts = 4.0, tt = 6.0, len = 100.0, shrf = 5.0 / 6.0, g = mat.g;
  const Real area = ts * tt, is = ts * tt * tt * tt / 12, it = tt * ts * ts * ts / 12;
  const Real dt = 1e-6;
  const int n = 100;
  auto check_balance = [&](const Pass& p) {
    // forces equal and opposite; moments about node 1: r2 x f2 + m1 + m2 = 0
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(p.f[i] + p.f[3 + i], 0.0, 1e-9);
    const Real r2[3] = {len, 0, 0};
    const Real c[3] = {r2[1] * p.f[5] - r2[2] * p.f[4], r2[2] * p.f[3] - r2[0] * p.f[5],
                       r2[0] * p.f[4] - r2[1] * p.f[3]};
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(c[i] + p.m[i] + p.m[3 + i], 0.0, 1e-6 * len);
  };
  {
    // axial: stretch 0.01 mm
    BeamBlock b = one_beam(0, 2, ts, tt, len, shrf);
    std::vector<Real> x{0, 0, 0, len, 0, 0}, v{0, 0, 0, 0.01 / (n * dt), 0, 0}, w(6, 0.0);
    const Pass p = drive(mat, b, x, v, w, dt, n);
    // incremental (logarithmic) strain vs engineering: 1e-4 relative at 1e-4 strain
    EXPECT_NEAR(b.res[0], kE * area * 0.01 / len, 2e-4 * kE * area * 0.01 / len);
    EXPECT_NEAR(p.f[3], b.res[0], 1e-9 * b.res[0]);
    check_balance(p);
  }
  {
    // pure bending about t (z): nodes turn by -theta and +theta, kappa = 2 theta / L
    BeamBlock b = one_beam(0, 2, ts, tt, len, shrf);
    const Real theta = 1e-4;
    std::vector<Real> x{0, 0, 0, len, 0, 0}, v(6, 0.0);
    std::vector<Real> w{0, 0, -theta / (n * dt), 0, 0, theta / (n * dt)};
    const Pass p = drive(mat, b, x, v, w, dt, n);
    const Real mt = kE * it * 2 * theta / len;
    EXPECT_NEAR(b.res[4], mt, 1e-9 * mt);
    EXPECT_NEAR(p.m[5], mt, 1e-9 * mt);
    EXPECT_NEAR(p.m[2], -mt, 1e-9 * mt);
    EXPECT_NEAR(b.res[1], 0.0, 1e-9 * mt / len);
    check_balance(p);
    // about s (y): the other second moment
    BeamBlock c = one_beam(0, 2, ts, tt, len, shrf);
    std::vector<Real> x2{0, 0, 0, len, 0, 0};
    std::vector<Real> w2{0, -theta / (n * dt), 0, 0, theta / (n * dt), 0};
    drive(mat, c, x2, v, w2, dt, n);
    EXPECT_NEAR(c.res[3], kE * is * 2 * theta / len, 1e-9 * kE * is * 2 * theta / len);
  }
  {
    // transverse shear: node 2 moves 1e-3 mm in y without turning: gamma = delta / L
    BeamBlock b = one_beam(0, 2, ts, tt, len, shrf);
    const Real delta = 1e-3;
    std::vector<Real> x{0, 0, 0, len, 0, 0}, v{0, 0, 0, 0, delta / (n * dt), 0}, w(6, 0.0);
    const Pass p = drive(mat, b, x, v, w, dt, n);
    const Real q = shrf * g * area * delta / len;
    // the chord turns by delta / L: its axis-aligned share of the shear force is O(delta / L)
    EXPECT_NEAR(b.res[1], q, 1e-4 * q);
    EXPECT_NEAR(p.m[5], -q * len / 2, 1e-4 * q * len);
    check_balance(p);
  }
  {
    // torsion: G (I_s + I_t) phi / L (the integrated section's St Venant constant)
    BeamBlock b = one_beam(1, 3, 10.0, 0.0, len, shrf);
    const Real phi = 1e-4;
    std::vector<Real> x{0, 0, 0, len, 0, 0}, v(6, 0.0);
    std::vector<Real> w{0, 0, 0, phi / (n * dt), 0, 0};
    const Pass p = drive(mat, b, x, v, w, dt, n);
    const Real j = std::numbers::pi * std::pow(10.0, 4) / 32;
    // the frame turns with the mean spin (phi / 2): cos(phi/2) - 1 = 1e-9
    EXPECT_NEAR(b.res[5], shrf * g * j * phi / len, 1e-6 * shrf * g * j * phi / len);
    EXPECT_NEAR(p.m[3], b.res[5], 1e-6 * b.res[5]);
    check_balance(p);
  }
}

TEST(BeamKernel, FullyPlasticAxialForceAndMoment) {
  // *MAT_100 with EH = 0 (perfectly plastic): the axial force reaches sigma_y A exactly (every
  // point at yield); the moment reaches the rule's plastic moment sigma_y sum w |s|, which for
  // the 4x4 Gauss rule (QR 5) is 4.3 % above M_p = sigma_y b h^2 / 4 (the rule's own error:
  // sum w|xi| / 4 = 0.2607 instead of 1/4).
  const MaterialParams mat = steel(MaterialKind::Spotweld, 300.0, 0.0);
  const Real b = 4.0, h = 8.0, len = 50.0, dt = 1e-6;
  const int n = 200;
  {
    BeamBlock blk = one_beam(0, 5, b, h, len);
    std::vector<Real> x{0, 0, 0, len, 0, 0}, v{0, 0, 0, 0.5 / (n * dt), 0, 0}, w(6, 0.0);
    drive(mat, blk, x, v, w, dt, n); // strain 1 %, 7 times the yield strain
    EXPECT_NEAR(blk.res[0], 300.0 * b * h, 1e-9 * 300.0 * b * h);
  }
  {
    BeamBlock blk = one_beam(0, 5, b, h, len);
    const Real theta = 0.2; // kappa = 0.008: the innermost point (s = 0.68) at 3.8 x yield
    std::vector<Real> x{0, 0, 0, len, 0, 0}, v(6, 0.0);
    std::vector<Real> w{0, 0, -theta / (n * dt), 0, 0, theta / (n * dt)};
    drive(mat, blk, x, v, w, dt, n);
    Real m_rule = 0;
    for (std::size_t k = 0; k < blk.sec.rule.size(); ++k)
      m_rule += blk.sec.rule.w[k] * std::abs(blk.sec.rule.s[k]) * 300.0;
    EXPECT_NEAR(blk.res[4], m_rule, 1e-9 * m_rule);
    const Real mp = 300.0 * h * b * b / 4; // bending about t: the depth is TS = b
    EXPECT_NEAR(blk.res[4] / mp, 1.0, 0.05);
    EXPECT_GT(blk.res[4] / mp, 1.0); // Gauss points sit inside: the rule overestimates
  }
  {
    // hardening EH: sigma = sigma_y + EH eps_p on the axial path
    const MaterialParams hard = steel(MaterialKind::Spotweld, 300.0, 2000.0);
    BeamBlock blk = one_beam(1, 2, 5.0, 0.0, len);
    std::vector<Real> x{0, 0, 0, len, 0, 0}, v{0, 0, 0, 0.5 / (n * dt), 0, 0}, w(6, 0.0);
    drive(hard, blk, x, v, w, dt, n);
    const Real eps = std::log(1.0 + 0.5 / len);
    // eps = sigma / E + eps_p, sigma = sigma_y + EH eps_p
    const Real eps_p = (eps - 300.0 / kE) / (1.0 + 2000.0 / kE);
    const Real sig_exact = 300.0 + 2000.0 * eps_p;
    EXPECT_NEAR(blk.res[0] / blk.sec.rule.area, sig_exact, 1e-6 * sig_exact);
  }
}

TEST(BeamKernel, ImposedAxialForceAndNullBeams) {
  const MaterialParams mat = steel();
  BeamBlock b = one_beam(1, 2, 10.0, 0.0);
  std::vector<Real> x{0, 0, 0, 100, 0, 0}, v(6, 0.0), w{0, 0, -1e-4, 0, 0, 1e-4};
  std::array<Real, 6> f{}, m{};
  compute_beam_forces(mat, b, 0, 1, x, v, w, 1.0, f, m); // bend first: kappa 2e-6
  const Real m_bent = b.res[4];
  ASSERT_GT(m_bent, 0);
  b.preload[0] = 28.8e3;
  b.kbend[0] = 1; // KBEND 1: the force is imposed, the bending kept
  compute_beam_forces(mat, b, 0, 1, x, v, std::vector<Real>(6, 0.0), 1e-6, f, m);
  EXPECT_NEAR(b.res[0], 28.8e3, 1e-9 * 28.8e3);
  EXPECT_NEAR(b.res[4], m_bent, 1e-9 * m_bent);
  EXPECT_NEAR(f[3], 28.8e3, 1e-9 * 28.8e3);
  b.kbend[0] = 0; // KBEND 0: the same axial stress at every point, no bending left
  compute_beam_forces(mat, b, 0, 1, x, v, std::vector<Real>(6, 0.0), 1e-6, f, m);
  EXPECT_NEAR(b.res[0], 28.8e3, 1e-9 * 28.8e3);
  EXPECT_NEAR(b.res[4], 0.0, 1e-9 * m_bent);
  // curve ended (NaN): the stress stays as it is when the length does not change
  b.preload[0] = std::numeric_limits<Real>::quiet_NaN();
  compute_beam_forces(mat, b, 0, 1, x, v, std::vector<Real>(6, 0.0), 1e-6, f, m);
  EXPECT_NEAR(b.res[0], 28.8e3, 1e-9 * 28.8e3);

  // *MAT_NULL: stretched, bent, sheared: no force, no moment, no step limit
  BeamBlock nb = one_beam(1, 2, 10.0, 0.0);
  nb.sec.null = true;
  std::vector<Real> xn{0, 0, 0, 100, 0, 0}, vn{0, 0, 0, 10, 5, 3}, wn{1, 2, 3, -1, -2, -3};
  const Pass p = drive(mat, nb, xn, vn, wn, 1e-4, 50);
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(p.f[i], 0.0);
    EXPECT_EQ(p.m[i], 0.0);
  }
  for (Real r : nb.res) EXPECT_EQ(r, 0.0);
  EXPECT_EQ(beam_critical_dt(mat, nb, 0, xn), 1e300);
}

/// The element's stiffness matrix (12 x 12: u1 th1 u2 th2) by finite differences of the kernel
/// (one small step with a unit velocity of one dof), and the largest eigenvalue of M^-1 K with
/// the kernel's lumped masses, by power iteration.
Real largest_omega2(const MaterialParams& mat, int cst, int qr, Real ts, Real tt, Real len,
                    Real shrf) {
  Real mass = 0, inertia = 0;
  const BeamBlock proto = one_beam(cst, qr, ts, tt, len, shrf);
  beam_lumped_mass(proto.sec, mat, len, mass, inertia);
  std::vector<Real> k(144, 0.0);
  const Real h = 1e-9, dt = 1.0;
  for (int j = 0; j < 12; ++j) {
    BeamBlock b = proto;
    std::vector<Real> x{0, 0, 0, len, 0, 0}, v(6, 0.0), w(6, 0.0);
    const int node = j / 6, dof = j % 6;
    if (dof < 3)
      v[3 * node + dof] = h;
    else
      w[3 * node + dof - 3] = h;
    for (int i = 0; i < 6; ++i) x[i] += dt * v[i];
    std::array<Real, 6> f{}, m{};
    compute_beam_forces(mat, b, 0, 1, x, v, w, dt, f, m);
    for (int i = 0; i < 12; ++i) {
      const int ni = i / 6, di = i % 6;
      const Real val = di < 3 ? f[3 * ni + di] : m[3 * ni + di - 3];
      k[12 * i + j] = val / h;
    }
  }
  std::vector<Real> z(12, 1.0), y(12);
  for (int i = 0; i < 12; ++i) z[i] = 1.0 + 0.1 * i * (i % 3 == 0 ? -1 : 1);
  Real lambda = 0;
  for (int it = 0; it < 5000; ++it) {
    Real nrm = 0;
    for (int i = 0; i < 12; ++i) {
      Real s = 0;
      for (int j = 0; j < 12; ++j) s += k[12 * i + j] * z[j];
      y[i] = s / ((i % 6) < 3 ? mass : inertia);
      nrm += y[i] * y[i];
    }
    nrm = std::sqrt(nrm);
    Real zz = 0, zy = 0;
    for (int i = 0; i < 12; ++i) {
      zy += z[i] * y[i];
      zz += z[i] * z[i];
    }
    lambda = zy / zz;
    for (int i = 0; i < 12; ++i) z[i] = y[i] / nrm;
  }
  return lambda;
}

TEST(BeamKernel, CriticalStepIsTwoOverTheLargestFrequency) {
  // The closed-form step (axial, torsion, bending and shear modes of the free element) must
  // equal 2 / sqrt(lambda_max) of the kernel's own stiffness and masses: a step formula that
  // misses a mode (or the rotary inertia) is larger than this and the test fails. 1e-3: the
  // finite-difference stiffness and the power iteration.
  const MaterialParams mat = steel();
  struct Case {
    int cst, qr;
    Real ts, tt, len, shrf;
  };
  for (const Case& c : {Case{0, 2, 4.0, 6.0, 100.0, 5.0 / 6.0}, Case{0, 2, 4.0, 6.0, 8.0, 1.0},
                        Case{1, 2, 10.0, 0.0, 10.0, 1.0}, Case{1, 3, 10.0, 6.0, 2.0, 1.0},
                        Case{1, 5, 1.0, 0.0, 50.0, 1.0}}) {
    BeamBlock b = one_beam(c.cst, c.qr, c.ts, c.tt, c.len, c.shrf);
    const std::vector<Real> x{0, 0, 0, c.len, 0, 0};
    const Real dt = beam_critical_dt(mat, b, 0, x);
    const Real lam = largest_omega2(mat, c.cst, c.qr, c.ts, c.tt, c.len, c.shrf);
    EXPECT_NEAR(dt * std::sqrt(lam) / 2.0, 1.0, 1e-3)
        << "cst " << c.cst << " L " << c.len << " dt " << dt;
  }
  // a slender element: the axial step L / c
  BeamBlock b = one_beam(1, 2, 1.0, 0.0, 50.0);
  const std::vector<Real> x{0, 0, 0, 50.0, 0, 0};
  EXPECT_NEAR(beam_critical_dt(mat, b, 0, x), 50.0 / std::sqrt(kE / kRho),
              1e-12 * 50.0 / std::sqrt(kE / kRho));
}

} // namespace
} // namespace parcae
