// Belytschko-Tsay shell: through-thickness rules, optimised kernel against the reference,
// critical time step, lumped mass and rotary inertia (frequency check), argument checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

#include "fem/shell_bt.hpp"
#include "test_support.hpp"

namespace parcae {
namespace {

constexpr Real kE = 210000.0, kNu = 0.3, kRho = 7.85e-9;

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

MaterialParams plastic(Real beta, Real fail) {
  MaterialParams m = elastic();
  m.kind = MaterialKind::PlasticKinematic;
  m.sigy = 100.0;
  m.etan = 2000.0;
  m.ep = kE * m.etan / (kE - m.etan);
  m.beta = beta;
  m.fail = fail;
  return m;
}

Real plate_wave_speed() {
  return std::sqrt(kE / (kRho * (1 - kNu * kNu)));
}

Real max_abs(const std::vector<Real>& a) {
  Real s = 0;
  for (Real x : a) s = std::max(s, std::abs(x));
  return s;
}

// ------------------------------------------------------------------------------------------
// Through-thickness rules

Real integrate_monomial(int nip, bool lobatto, int k) {
  std::vector<Real> z(nip), w(nip);
  shell_thickness_rule(nip, lobatto, z, w);
  Real s = 0;
  for (int i = 0; i < nip; ++i) s += w[i] * std::pow(z[i], k);
  return s;
}
Real exact_monomial(int k) {
  return k % 2 ? 0.0 : 2.0 / (k + 1);
}

TEST(ShellRule, GaussIsExactToDegree2nMinus1) {
  for (int n = 1; n <= 10; ++n) {
    std::vector<Real> z(n), w(n);
    shell_thickness_rule(n, false, z, w);
    Real ws = 0;
    for (int i = 0; i < n; ++i) {
      ws += w[i];
      EXPECT_GT(w[i], 0.0);
      EXPECT_GT(z[i], -1.0); // Gauss points are interior
      EXPECT_LT(z[i], 1.0);
      if (i > 0) {
        EXPECT_GT(z[i], z[i - 1]); // ascending
      }
      EXPECT_NEAR(z[i], -z[n - 1 - i], 1e-15);
    }
    EXPECT_NEAR(ws, 2.0, 1e-14) << n;
    for (int k = 0; k <= 2 * n - 1; ++k)
      EXPECT_NEAR(integrate_monomial(n, false, k), exact_monomial(k), 1e-14) << n << " " << k;
    // and not beyond: degree 2n is integrated with an error
    EXPECT_GT(std::abs(integrate_monomial(n, false, 2 * n) - exact_monomial(2 * n)), 1e-6) << n;
  }
  // two known values
  std::vector<Real> z(2), w(2);
  shell_thickness_rule(2, false, z, w);
  EXPECT_NEAR(z[1], 1 / std::sqrt(3.0), 1e-15);
  std::vector<Real> z3(3), w3(3);
  shell_thickness_rule(3, false, z3, w3);
  EXPECT_NEAR(z3[2], std::sqrt(0.6), 1e-15);
  EXPECT_NEAR(w3[1], 8.0 / 9.0, 1e-15);
}

TEST(ShellRule, LobattoIsExactToDegree2nMinus3AndHasSurfacePoints) {
  for (int n = 2; n <= 10; ++n) {
    std::vector<Real> z(n), w(n);
    shell_thickness_rule(n, true, z, w);
    EXPECT_EQ(z[0], -1.0);
    EXPECT_EQ(z[n - 1], 1.0);
    EXPECT_NEAR(w[0], 2.0 / (n * (n - 1.0)), 1e-15);
    Real ws = 0;
    for (int i = 0; i < n; ++i) {
      ws += w[i];
      EXPECT_GT(w[i], 0.0);
      if (i > 0) {
        EXPECT_GT(z[i], z[i - 1]);
      }
    }
    EXPECT_NEAR(ws, 2.0, 1e-14) << n;
    for (int k = 0; k <= 2 * n - 3; ++k)
      EXPECT_NEAR(integrate_monomial(n, true, k), exact_monomial(k), 1e-14) << n << " " << k;
    EXPECT_GT(std::abs(integrate_monomial(n, true, 2 * n - 2) - exact_monomial(2 * n - 2)), 1e-6)
        << n;
  }
  std::vector<Real> z(3), w(3);
  shell_thickness_rule(3, true, z, w);
  EXPECT_EQ(z[1], 0.0);
  EXPECT_NEAR(w[1], 4.0 / 3.0, 1e-15); // Simpson
  std::vector<Real> z1(1), w1(1);
  shell_thickness_rule(1, true, z1, w1); // one point: mid-surface either way
  EXPECT_EQ(z1[0], 0.0);
  EXPECT_EQ(w1[0], 2.0);
}

TEST(ShellRule, RejectsBadNip) {
  std::vector<Real> z(11), w(11);
  EXPECT_THROW(shell_thickness_rule(0, false, z, w), std::invalid_argument);
  EXPECT_THROW(shell_thickness_rule(11, false, z, w), std::invalid_argument);
  EXPECT_THROW(shell_thickness_rule(4, false, std::span<Real>(z.data(), 3), w),
               std::invalid_argument);
}

// ------------------------------------------------------------------------------------------
// Optimised kernel against the reference

struct RandomMesh {
  std::vector<Real> x, v, w;
  std::vector<std::array<LocalId, 4>> conn;
  std::vector<Real> t0;
};

/// nx x ny elements of size ~10 with perturbed, warped nodes; every 7th element a triangle;
/// random velocities and angular velocities; random initial thicknesses.
RandomMesh random_mesh(int nx, int ny, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<Real> u(-1.0, 1.0);
  RandomMesh m;
  const Real h = 10.0;
  for (int j = 0; j <= ny; ++j)
    for (int i = 0; i <= nx; ++i) {
      m.x.push_back(i * h + 2.5 * u(gen));
      m.x.push_back(j * h + 2.5 * u(gen));
      m.x.push_back(0.05 * (i * i - j * j) + 0.8 * u(gen));
    }
  for (std::size_t k = 0; k < m.x.size() / 3; ++k) {
    for (int d = 0; d < 3; ++d) m.v.push_back(0.5 * u(gen));
    for (int d = 0; d < 3; ++d) m.w.push_back(0.05 * u(gen));
  }
  int e = 0;
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i, ++e) {
      const LocalId n0 = j * (nx + 1) + i, n1 = n0 + 1, n2 = n1 + nx + 1, n3 = n0 + nx + 1;
      if (e % 7 == 3)
        m.conn.push_back({n0, n1, n2, n2});
      else
        m.conn.push_back({n0, n1, n2, n3});
      m.t0.push_back(1.0 + 0.5 * (u(gen) + 1.0));
    }
  return m;
}

Real rel_diff(const std::vector<Real>& a, const std::vector<Real>& b) {
  EXPECT_EQ(a.size(), b.size());
  Real d = 0;
  for (std::size_t i = 0; i < a.size(); ++i) d = std::max(d, std::abs(a[i] - b[i]));
  const Real s = std::max(max_abs(a), max_abs(b));
  return s > 0 ? d / s : d;
}

/// Runs both kernels for several steps (moving the nodes in between) and compares all outputs
/// and all state. Tolerance 1e-12 relative to each array's largest entry: both kernels evaluate
/// the same formulas, differing only in the grouping of a few products (round-off ~1e-16 per
/// operation, amplified at most by the plastic return-mapping's conditioning).
void compare_kernels(const MaterialParams& mat, ShellOptions opt, int nx, int ny, int steps,
                     unsigned seed, int* n_failed = nullptr, Real* max_epsp = nullptr) {
  RandomMesh rm = random_mesh(nx, ny, seed);
  ShellBlock a, b;
  a.conn = rm.conn;
  a.t0 = rm.t0;
  a.init(rm.conn.size(), opt.nip);
  b = a;
  const std::size_t ne = a.size();
  std::vector<Real> fa(12 * ne), ma(12 * ne), fb(12 * ne), mb(12 * ne);
  std::vector<Real> x = rm.x;
  const Real dt = 1e-2;
  for (int s = 0; s < steps; ++s) {
    compute_shell_forces_reference(opt, mat, a, 0, ne, x, rm.v, rm.w, dt, fa, ma);
    compute_shell_forces(opt, mat, b, 0, ne, x, rm.v, rm.w, dt, fb, mb);
    const Real tol = 1e-12;
    EXPECT_LT(rel_diff(fa, fb), tol) << "step " << s;
    EXPECT_LT(rel_diff(ma, mb), tol) << "step " << s;
    EXPECT_LT(rel_diff(a.sig, b.sig), tol);
    EXPECT_LT(rel_diff(a.back, b.back), tol);
    EXPECT_LT(rel_diff(a.eps_p, b.eps_p), tol);
    EXPECT_LT(rel_diff(a.hg, b.hg), tol);
    EXPECT_LT(rel_diff(a.e_int, b.e_int), tol);
    EXPECT_LT(rel_diff(a.e_hg, b.e_hg), tol);
    EXPECT_LT(rel_diff(a.t, b.t), tol);
    EXPECT_EQ(a.failed, b.failed);
    for (std::size_t i = 0; i < x.size(); ++i) x[i] += dt * rm.v[i];
  }
  ASSERT_GT(max_abs(fa), 0.0);
  ASSERT_GT(max_abs(ma), 0.0);
  if (opt.qm > 0) {
    EXPECT_GT(max_abs(a.e_hg), 0.0);
  }
  if (n_failed) *n_failed = static_cast<int>(std::count(a.failed.begin(), a.failed.end(), 1));
  if (max_epsp) *max_epsp = max_abs(a.eps_p);
}

TEST(ShellKernel, OptimisedMatchesReferenceElastic) {
  for (int ihq : {1, 4}) {
    ShellOptions opt;
    opt.nip = 5;
    opt.ihq = ihq;
    opt.qm = 0.1;
    opt.shrf = 5.0 / 6.0;
    opt.thickness_update = true;
    compare_kernels(elastic(), opt, 9, 7, 4, 11u + ihq);
  }
}

TEST(ShellKernel, OptimisedMatchesReferencePlastic) {
  for (bool lobatto : {false, true}) {
    ShellOptions opt;
    opt.nip = 3;
    opt.lobatto = lobatto;
    opt.ihq = lobatto ? 5 : 2;
    opt.qm = 0.05;
    opt.thickness_update = true;
    Real epsp = 0;
    compare_kernels(plastic(0.4, 0.0), opt, 8, 8, 6, 5u, nullptr, &epsp);
    EXPECT_GT(epsp, 1e-3); // really plastic
  }
  // with failure: some elements erode along the way
  ShellOptions opt;
  opt.nip = 2;
  int nf = 0;
  compare_kernels(plastic(1.0, 0.01), opt, 8, 8, 12, 9u, &nf);
  EXPECT_GT(nf, 0);
}

TEST(ShellKernel, OptimisedMatchesReferenceLargeBlockParallel) {
  // >= 256 elements: the optimised kernel runs its element loop with OpenMP
  ShellOptions opt;
  opt.nip = 4;
  opt.ihq = 4;
  compare_kernels(plastic(0.0, 0.0), opt, 20, 16, 3, 21u);
}

MaterialParams tabulated() {
  // *MAT_024 with an LCSS curve: update_stress_shell takes the iterated (general) return
  MaterialParams m = elastic();
  m.kind = MaterialKind::PiecewiseLinear;
  m.sigy = 100.0;
  m.beta = 1.0;
  m.hard_x = {0.0, 0.002, 0.01, 0.1};
  m.hard_y = {100.0, 130.0, 150.0, 200.0};
  return m;
}

TEST(ShellKernel, OptimisedMatchesReferenceTabulatedAndRateDependent) {
  ShellOptions opt;
  opt.nip = 3;
  opt.ihq = 4;
  opt.thickness_update = true;
  Real epsp = 0;
  compare_kernels(tabulated(), opt, 8, 7, 5, 41u, nullptr, &epsp);
  EXPECT_GT(epsp, 1e-3);
  // Cowper-Symonds (VP = 0): direct return with a per-point rate factor
  MaterialParams cs = plastic(0.5, 0.0);
  cs.c = 1e-3;
  cs.p = 5;
  ASSERT_TRUE(shell_direct_return(cs));
  compare_kernels(cs, opt, 8, 7, 5, 42u, nullptr, &epsp);
  EXPECT_GT(epsp, 1e-3);
}

/// Runs the optimised kernel for `steps` steps over [0, n) split into the given ranges (in the
/// given order) and returns the final block and the last fe, me.
struct RangeRun {
  ShellBlock blk;
  std::vector<Real> fe, me;
};
RangeRun run_ranges(const RandomMesh& rm, const MaterialParams& mat, const ShellOptions& opt,
                    const std::vector<std::size_t>& failed0,
                    const std::vector<std::pair<std::size_t, std::size_t>>& ranges, int steps) {
  RangeRun r;
  r.blk.conn = rm.conn;
  r.blk.t0 = rm.t0;
  r.blk.init(rm.conn.size(), opt.nip);
  for (std::size_t e : failed0) r.blk.failed[e] = 1;
  const std::size_t ne = r.blk.size();
  r.fe.assign(12 * ne, 0.0);
  r.me.assign(12 * ne, 0.0);
  std::vector<Real> x = rm.x;
  const Real dt = 1e-2;
  for (int s = 0; s < steps; ++s) {
    for (const auto& [b, e] : ranges)
      compute_shell_forces(opt, mat, r.blk, b, e, x, rm.v, rm.w, dt, r.fe, r.me);
    for (std::size_t i = 0; i < x.size(); ++i) x[i] += dt * rm.v[i];
  }
  return r;
}

TEST(ShellKernel, ResultsDoNotDependOnBatchOrRange) {
  // The optimised kernel evaluates 4 elements at a time (the non-failed ones of its range,
  // padded with copies); an element's results must be bit-identical whatever range, batch and
  // lane it lands in: one call over the block, irregular ranges in reverse order, one element
  // per call. With pre-failed elements and elements eroding along the way, so that the batch
  // composition changes between steps.
  RandomMesh rm = random_mesh(9, 7, 31u); // 63 elements, every 7th a triangle
  const std::size_t ne = rm.conn.size();
  const std::vector<std::size_t> failed0 = {5, 6, 20, 61};
  std::vector<std::pair<std::size_t, std::size_t>> whole = {{0, ne}};
  std::vector<std::pair<std::size_t, std::size_t>> irregular = {{30, ne}, {12, 30}, {11, 12},
                                                                {4, 11},  {1, 4},   {0, 1}};
  std::vector<std::pair<std::size_t, std::size_t>> single;
  for (std::size_t e = 0; e < ne; ++e) single.push_back({e, e + 1});
  struct Case {
    MaterialParams mat;
    ShellOptions opt;
    int steps;
  };
  ShellOptions o1;
  o1.nip = 3;
  o1.ihq = 4;
  o1.thickness_update = true;
  ShellOptions o2;
  o2.nip = 2;
  o2.ihq = 1;
  const Case cases[] = {{plastic(0.5, 0.0), o1, 4},
                        {plastic(1.0, 0.01), o2, 12},
                        {tabulated(), o1, 3},
                        {elastic(), o2, 2}};
  int eroded = 0;
  for (const Case& c : cases) {
    const RangeRun a = run_ranges(rm, c.mat, c.opt, failed0, whole, c.steps);
    for (const auto* r : {&irregular, &single}) {
      const RangeRun b = run_ranges(rm, c.mat, c.opt, failed0, *r, c.steps);
      EXPECT_EQ(a.fe, b.fe);
      EXPECT_EQ(a.me, b.me);
      EXPECT_EQ(a.blk.sig, b.blk.sig);
      EXPECT_EQ(a.blk.back, b.blk.back);
      EXPECT_EQ(a.blk.eps_p, b.blk.eps_p);
      EXPECT_EQ(a.blk.hg, b.blk.hg);
      EXPECT_EQ(a.blk.t, b.blk.t);
      EXPECT_EQ(a.blk.e_int, b.blk.e_int);
      EXPECT_EQ(a.blk.e_hg, b.blk.e_hg);
      EXPECT_EQ(a.blk.failed, b.blk.failed);
    }
    eroded += static_cast<int>(std::count(a.blk.failed.begin(), a.blk.failed.end(), 1)) -
              static_cast<int>(failed0.size());
  }
  EXPECT_GT(eroded, 0); // the failure case eroded elements mid-run
}

TEST(ShellKernel, ReturnsTheCriticalTimeStepOfItsRange) {
  // min_dt is the minimum of shell_critical_dt over the range's elements that are not failed
  // after the pass (bit for bit), min_dt_element the first element that has it; both kernels.
  // 20 x 16 elements: the whole-block call runs the optimised kernel's OpenMP path.
  RandomMesh rm = random_mesh(20, 16, 13u);
  const MaterialParams mat = plastic(1.0, 0.01);
  ShellOptions opt;
  opt.nip = 2;
  // ISDO 0, 1, 2 (*CONTROL_TIMESTEP): the kernels' lengths agree with shell_critical_dt's
  for (int which = 0; which < 6; ++which) {
    ShellBlock blk;
    blk.conn = rm.conn;
    blk.t0 = rm.t0;
    blk.init(rm.conn.size(), opt.nip);
    blk.isdo = which / 2;
    blk.failed[0] = blk.failed[17] = 1;
    const std::size_t ne = blk.size();
    std::vector<Real> fe(12 * ne), me(12 * ne), x = rm.x;
    const Real dt = 1e-2;
    const std::pair<std::size_t, std::size_t> ranges[] = {{0, ne}, {3, 40}, {17, 18}, {100, 101}};
    for (int s = 0; s < 12; ++s) {
      for (const auto& [b, e] : ranges) {
        const ShellPassResult r =
            which % 2 == 0
                ? compute_shell_forces(opt, mat, blk, b, e, x, rm.v, rm.w, dt, fe, me)
                : compute_shell_forces_reference(opt, mat, blk, b, e, x, rm.v, rm.w, dt, fe, me);
        Real best = 1e300;
        std::int64_t arg = -1;
        for (std::size_t k = b; k < e; ++k) {
          if (blk.failed[k]) continue;
          const Real d = shell_critical_dt(mat, blk, k, x);
          if (d < best) {
            best = d;
            arg = static_cast<std::int64_t>(k);
          }
        }
        EXPECT_EQ(r.min_dt, best) << which << " step " << s << " [" << b << ", " << e << ")";
        EXPECT_EQ(r.min_dt_element, arg) << which << " step " << s;
      }
      for (std::size_t i = 0; i < x.size(); ++i) x[i] += dt * rm.v[i];
    }
    EXPECT_GT(std::count(blk.failed.begin(), blk.failed.end(), 1), 2);
  }
  // all failed / empty: no time step
  RandomMesh small = random_mesh(2, 2, 5u);
  ShellBlock blk;
  blk.conn = small.conn;
  blk.t0 = small.t0;
  blk.init(small.conn.size(), 2);
  std::fill(blk.failed.begin(), blk.failed.end(), 1);
  std::vector<Real> fe(12 * blk.size()), me(12 * blk.size());
  const ShellPassResult r = compute_shell_forces(ShellOptions{}, elastic(), blk, 0, blk.size(),
                                                 small.x, small.v, small.w, 1e-3, fe, me);
  EXPECT_EQ(r.min_dt, 1e300);
  EXPECT_EQ(r.min_dt_element, -1);
  const ShellPassResult e = compute_shell_forces(ShellOptions{}, elastic(), blk, 2, 2, small.x,
                                                 small.v, small.w, 1e-3, fe, me);
  EXPECT_EQ(e.min_dt_element, -1);
}

TEST(ShellKernel, WritesOnlyItsRange) {
  RandomMesh rm = random_mesh(4, 3, 3u);
  ShellBlock blk;
  blk.conn = rm.conn;
  blk.t0 = rm.t0;
  blk.init(rm.conn.size(), 2);
  const std::size_t ne = blk.size();
  ShellOptions opt;
  opt.ihq = 4;
  opt.thickness_update = true;
  for (int which = 0; which < 2; ++which) {
    ShellBlock b = blk;
    std::vector<Real> fe(12 * ne, 7.0), me(12 * ne, 7.0);
    const std::size_t lo = 3, hi = 8;
    if (which == 0)
      compute_shell_forces(opt, elastic(), b, lo, hi, rm.x, rm.v, rm.w, 1e-2, fe, me);
    else
      compute_shell_forces_reference(opt, elastic(), b, lo, hi, rm.x, rm.v, rm.w, 1e-2, fe, me);
    for (std::size_t e = 0; e < ne; ++e) {
      const bool in = e >= lo && e < hi;
      for (int k = 0; k < 12; ++k) {
        if (!in) {
          EXPECT_EQ(fe[12 * e + k], 7.0) << e;
          EXPECT_EQ(me[12 * e + k], 7.0) << e;
        } else {
          EXPECT_NE(fe[12 * e + k], 7.0) << e;
        }
      }
      if (!in) {
        EXPECT_EQ(b.t[e], blk.t[e]);
        EXPECT_EQ(b.e_int[e], 0.0);
        for (int k = 0; k < 10; ++k) EXPECT_EQ(b.sig[10 * e + k], 0.0);
      } else {
        EXPECT_GT(b.e_int[e], 0.0);
      }
    }
  }
}

TEST(ShellKernel, RejectsUninitialisedBlockAndBadNip) {
  RandomMesh rm = random_mesh(2, 2, 1u);
  ShellBlock blk;
  blk.conn = rm.conn;
  blk.t0 = rm.t0;
  blk.init(rm.conn.size(), 2);
  std::vector<Real> fe(12 * blk.size()), me(12 * blk.size());
  ShellOptions opt;
  opt.nip = 3; // block initialised for 2 points
  EXPECT_THROW(
      compute_shell_forces(opt, elastic(), blk, 0, blk.size(), rm.x, rm.v, rm.w, 1e-3, fe, me),
      std::invalid_argument);
  opt.nip = 11;
  EXPECT_THROW(compute_shell_forces_reference(opt, elastic(), blk, 0, blk.size(), rm.x, rm.v, rm.w,
                                              1e-3, fe, me),
               std::invalid_argument);
  opt.nip = 2;
  std::vector<Real> small(12);
  EXPECT_THROW(
      compute_shell_forces(opt, elastic(), blk, 0, blk.size(), rm.x, rm.v, rm.w, 1e-3, small, me),
      std::invalid_argument);
}

// ------------------------------------------------------------------------------------------
// Time step and mass

ShellBlock one_element(std::array<LocalId, 4> c, Real t) {
  ShellBlock b;
  b.conn = {c};
  b.init(1, 2, t);
  return b;
}

TEST(ShellTimeStep, SquareRectangleTriangleAndGeneralQuad) {
  const MaterialParams mat = elastic();
  const Real c = plate_wave_speed();
  ASSERT_NEAR(mat.wave_speed_shell(), c, 1e-12 * c);
  const ShellBlock q = one_element({0, 1, 2, 3}, 1.0);
  // square of side 7, tilted in space: L_s = A / max side = 7
  const Real s = 7.0, cs = std::cos(0.4), sn = std::sin(0.4);
  std::vector<Real> x = {0, 0, 0, s * cs, 0, s * sn, s * cs, s, s * sn, 0, s, 0};
  EXPECT_NEAR(shell_critical_dt(mat, q, 0, x), s / c, 1e-14 * s / c);
  // rectangle 12 x 5: L_s = 60 / 12 = 5
  x = {0, 0, 0, 12, 0, 0, 12, 5, 0, 0, 5, 0};
  EXPECT_NEAR(shell_critical_dt(mat, q, 0, x), 5 / c, 1e-14 * 5 / c);
  // general quad: A = shoelace area, L_s = A / longest side
  x = {0, 0, 0, 10, 1, 0, 12, 8, 0, 1, 6, 0};
  const Real A = 0.5 * ((12 - 0) * (6 - 1) - (1 - 10) * (8 - 0));
  const Real lmax = std::max({std::hypot(10, 1), std::hypot(2, 7), std::hypot(11, 2), 6.0});
  EXPECT_NEAR(shell_critical_dt(mat, q, 0, x), A / lmax / c, 1e-13 * A / lmax / c);
  // right triangle with legs 6, 8: L_s = 2A / longest side = 48 / 10 (smallest altitude)
  const ShellBlock tri = one_element({0, 1, 2, 2}, 1.0);
  x = {0, 0, 0, 8, 0, 0, 0, 6, 0};
  EXPECT_NEAR(shell_critical_dt(mat, tri, 0, x), 4.8 / c, 1e-14 * 4.8 / c);
}

TEST(ShellTimeStep, IsdoLengthsOfLsDynasManual) {
  // *CONTROL_TIMESTEP ISDO (LS-DYNA's manual): 0 area / longest side, 1 area / longest
  // diagonal, 2 max(shortest side, area / longest side) with the bar wave speed sqrt(E / rho).
  const MaterialParams mat = elastic();
  const Real c = plate_wave_speed(), c_bar = c * std::sqrt(1 - mat.nu * mat.nu);
  ShellBlock q = one_element({0, 1, 2, 3}, 1.0);
  std::vector<Real> x = {0, 0, 0, 12, 0, 0, 12, 5, 0, 0, 5, 0}; // 12 x 5: diagonal 13
  EXPECT_NEAR(shell_critical_dt(mat, q, 0, x), 5 / c, 1e-14 * 5 / c);
  q.isdo = 1;
  EXPECT_NEAR(shell_critical_dt(mat, q, 0, x), 60.0 / 13.0 / c, 1e-14 / c);
  q.isdo = 2; // max(5, 60 / 12) = 5 at the bar speed
  EXPECT_NEAR(shell_critical_dt(mat, q, 0, x), 5 / c_bar, 1e-14 * 5 / c_bar);
  // a rhombus with 60 degree angles, side 10: A = 50 sqrt(3), longest diagonal 10 sqrt(3)
  const Real h = 10 * std::sqrt(3.0) / 2;
  x = {0, 0, 0, 10, 0, 0, 15, h, 0, 5, h, 0};
  q.isdo = 0;
  EXPECT_NEAR(shell_critical_dt(mat, q, 0, x), 5 * std::sqrt(3.0) / c, 1e-12 / c);
  q.isdo = 1;
  EXPECT_NEAR(shell_critical_dt(mat, q, 0, x), 5.0 / c, 1e-12 / c);
  q.isdo = 2; // the shortest side (10) is longer than A / longest side (8.66)
  EXPECT_NEAR(shell_critical_dt(mat, q, 0, x), 10.0 / c_bar, 1e-12 / c_bar);
  // triangles: ISDO 1 as ISDO 0 (no diagonal)
  ShellBlock tri = one_element({0, 1, 2, 2}, 1.0);
  tri.isdo = 1;
  x = {0, 0, 0, 8, 0, 0, 0, 6, 0};
  EXPECT_NEAR(shell_critical_dt(mat, tri, 0, x), 4.8 / c, 1e-14 * 4.8 / c);
  tri.isdo = 2; // max(6, 4.8)
  EXPECT_NEAR(shell_critical_dt(mat, tri, 0, x), 6.0 / c_bar, 1e-14 * 6.0 / c_bar);
}

TEST(ShellMass, QuadAndTriangleSplit) {
  const MaterialParams mat = elastic();
  const Real L = 10, t = 2;
  std::vector<Real> x = {0, 0, 0, L, 0, 0, L, L, 0, 0, L, 0};
  const ShellBlock q = one_element({0, 1, 2, 3}, t);
  Real cm = 0, ci = 0;
  shell_lumped_mass(mat, q, 0, x, cm, ci);
  const Real m = kRho * t * L * L;
  EXPECT_NEAR(cm, m / 4, 1e-15 * m);
  EXPECT_NEAR(ci, m / 4 * std::max(t * t / 12, L * L / 8), 1e-15 * m * L * L);
  std::array<Real, 4> cma{}, cia{};
  shell_lumped_mass(mat, q, 0, x, cma, cia);
  for (int a = 0; a < 4; ++a) {
    EXPECT_EQ(cma[a], cm);
    EXPECT_EQ(cia[a], ci);
  }
  // thick element (t^2/12 = 16.33 > A/8 = 12.5): the physical t^2/12 governs
  const ShellBlock thick = one_element({0, 1, 2, 3}, 14.0);
  shell_lumped_mass(mat, thick, 0, x, cm, ci);
  EXPECT_NEAR(ci, cm * 14.0 * 14.0 / 12.0, 1e-15 * ci);

  // triangle: 3 distinct nodes share the mass equally
  const ShellBlock tri = one_element({0, 1, 2, 2}, t);
  std::vector<Real> xt = {0, 0, 0, 8, 0, 0, 0, 6, 0};
  const Real mt = kRho * t * 24.0;
  shell_lumped_mass(mat, tri, 0, xt, cm, ci);
  EXPECT_NEAR(cm, mt / 3, 1e-15 * mt);
  shell_lumped_mass(mat, tri, 0, xt, cma, cia);
  std::array<Real, 3> node{};
  for (int a = 0; a < 4; ++a) node[tri.conn[0][a]] += cma[a]; // the caller's plain loop
  for (int n = 0; n < 3; ++n) EXPECT_NEAR(node[n], mt / 3, 1e-15 * mt);
  EXPECT_NEAR(cia[2] + cia[3], cia[0], 1e-15 * cia[0]);
}

/// The element's tangent stiffness (24 x 24, dofs: 12 translations then 12 rotations) from the
/// kernel itself: one elastic step from zero stress gives f = K (velocity dt) exactly.
std::vector<Real> element_stiffness(const std::vector<Real>& x, Real t, const ShellOptions& opt) {
  std::vector<Real> K(24 * 24, 0.0);
  const Real dt = 1.0;
  for (int j = 0; j < 24; ++j) {
    ShellBlock b = one_element({0, 1, 2, 3}, t);
    b.init(1, opt.nip, t);
    std::vector<Real> v(12, 0.0), w(12, 0.0), fe(12), me(12);
    (j < 12 ? v : w)[j % 12] = 1.0;
    compute_shell_forces(opt, elastic(), b, 0, 1, x, v, w, dt, fe, me);
    for (int i = 0; i < 12; ++i) {
      K[i * 24 + j] = fe[i] / dt;
      K[(12 + i) * 24 + j] = me[i] / dt;
    }
  }
  return K;
}

TEST(ShellMass, RotationalFrequenciesDoNotControlTheTimeStep) {
  ShellOptions opt;
  opt.nip = 3;
  opt.ihq = 4; // hourglass stiffness is part of the stiffness
  opt.qm = 0.1;
  opt.shrf = 5.0 / 6.0;
  struct Shape {
    std::vector<Real> x;
    Real t;
  };
  const std::vector<Shape> shapes = {
      {{0, 0, 0, 10, 0, 0, 10, 10, 0, 0, 10, 0}, 0.5},  // thin square
      {{0, 0, 0, 10, 0, 0, 10, 10, 0, 0, 10, 0}, 10.0}, // thick square (t = L)
      {{0, 0, 0, 20, 0, 0, 20, 5, 0, 0, 5, 0}, 1.0},    // slender rectangle
      {{0, 0, 0, 11, 1, 0, 13, 9, 0.5, 2, 12, 0}, 1.5}, // distorted, slightly warped
  };
  const MaterialParams mat = elastic();
  for (const auto& sh : shapes) {
    const std::vector<Real> K = element_stiffness(sh.x, sh.t, opt);
    ShellBlock b = one_element({0, 1, 2, 3}, sh.t);
    Real m = 0, I = 0;
    shell_lumped_mass(mat, b, 0, sh.x, m, I);
    // symmetric (the BT tangent from zero stress is A B^T D B + hourglass)
    for (int i = 0; i < 24; ++i)
      for (int j = 0; j < i; ++j)
        ASSERT_NEAR(K[i * 24 + j], K[j * 24 + i], 1e-9 * std::abs(K[0]) + 1e-12);
    std::vector<Real> ktt(144), krr(144), kall(576);
    for (int i = 0; i < 12; ++i)
      for (int j = 0; j < 12; ++j) {
        ktt[i * 12 + j] = K[i * 24 + j] / m;
        krr[i * 12 + j] = K[(12 + i) * 24 + 12 + j] / I;
      }
    for (int i = 0; i < 24; ++i)
      for (int j = 0; j < 24; ++j)
        kall[i * 24 + j] = K[i * 24 + j] / std::sqrt((i < 12 ? m : I) * (j < 12 ? m : I));
    const Real wt = std::sqrt(parcae::test::max_eigenvalue(ktt, 12));
    const Real wr = std::sqrt(parcae::test::max_eigenvalue(krr, 12));
    const Real wall = std::sqrt(parcae::test::max_eigenvalue(kall, 24));
    const Real dtc = shell_critical_dt(mat, b, 0, sh.x);
    // rotational dofs do not control the step: their block's highest frequency is below the
    // translational block's, and coupling them in does not raise the element's highest one
    EXPECT_LE(wr, wt) << "t = " << sh.t;
    EXPECT_LE(wall, wt * (1 + 1e-9)) << "t = " << sh.t;
    // L_s / c against the element's exact limit 2/omega: for a single free element the one-point
    // quad's dilatation mode is faster than c / L_s by up to sqrt(1 + nu) (attained by the
    // square); LS-DYNA's TSSFAC and the shared nodal masses of a mesh cover the difference.
    EXPECT_GE(2.0 / wt, dtc / std::sqrt(1 + kNu) * (1 - 1e-9)) << "t = " << sh.t;
    EXPECT_LE(2.0 / wt, dtc * 1.01) << "t = " << sh.t; // and the estimate is not far off
  }
}

} // namespace
} // namespace parcae
