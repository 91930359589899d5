// Beam edge-to-edge contact (contact/edges.hpp): closest points against brute-force sampling,
// bucket search against the all-pairs reference, shared-node and same-part exclusion, a head-on
// collision of two crossing rods (momentum, angular momentum, rebound energy), Coulomb friction
// of a rod sliding on another (mu N), and the force kernel against the plain reference.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <numbers>
#include <numeric>
#include <random>

#include "contact/contact.hpp"
#include "contact/edges.hpp"

using namespace parcae;
using namespace parcae::contact;

namespace {

Real dist_at(const Real* p0, const Real* p1, const Real* q0, const Real* q1, Real s, Real t) {
  Real d2 = 0;
  for (int i = 0; i < 3; ++i) {
    const Real d = (p0[i] + s * (p1[i] - p0[i])) - (q0[i] + t * (q1[i] - q0[i]));
    d2 += d * d;
  }
  return std::sqrt(d2);
}

Real norm3(const Real* a, const Real* b) {
  return std::sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                   (a[2] - b[2]) * (a[2] - b[2]));
}

} // namespace

TEST(EdgeContact, ClosestPointsAgreeWithBruteForceSampling) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<Real> u(-1, 1);
  int parallel = 0, degenerate = 0;
  for (int trial = 0; trial < 400; ++trial) {
    Real p0[3], p1[3], q0[3], q1[3];
    for (int i = 0; i < 3; ++i) {
      p0[i] = u(rng);
      p1[i] = u(rng);
      q0[i] = u(rng);
      q1[i] = u(rng);
    }
    const int kind = trial % 5;
    if (kind == 1 || kind == 2) { // parallel (2: collinear, overlapping or not)
      const Real sc = 0.3 + u(rng), off = kind == 2 ? 0.0 : 0.4;
      for (int i = 0; i < 3; ++i) {
        q0[i] = p0[i] + 0.5 * u(rng) * (p1[i] - p0[i]) + off * (i == 0 ? 1 : 0);
        q1[i] = q0[i] + sc * (p1[i] - p0[i]);
      }
      if (kind == 2)
        for (int i = 0; i < 3; ++i) {
          const Real a = 0.8 * u(rng), b = a + sc;
          q0[i] = p0[i] + a * (p1[i] - p0[i]);
          q1[i] = p0[i] + b * (p1[i] - p0[i]);
        }
      ++parallel;
    } else if (kind == 3) { // a point against a segment, or two points
      for (int i = 0; i < 3; ++i) p1[i] = p0[i];
      if (trial % 2)
        for (int i = 0; i < 3; ++i) q1[i] = q0[i];
      ++degenerate;
    }
    const SegmentClosest c = closest_points(p0, p1, q0, q1);
    ASSERT_GE(c.s, 0.0);
    ASSERT_LE(c.s, 1.0);
    ASSERT_GE(c.t, 0.0);
    ASSERT_LE(c.t, 1.0);
    const Real d = std::sqrt(c.dist2);
    EXPECT_NEAR(d, dist_at(p0, p1, q0, q1, c.s, c.t), 1e-14);
    // Brute force on an N x N grid of (s, t): its minimum is an upper bound of the true one and
    // exceeds it by at most (|p1 - p0| + |q1 - q0|) h / 2 (the distance is Lipschitz in s, t
    // with those constants; the nearest grid point is within h / 2 in each), h = 1 / (N - 1).
    const int N = 301;
    const Real h = 1.0 / (N - 1);
    Real brute = 1e300;
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < N; ++j) brute = std::min(brute, dist_at(p0, p1, q0, q1, i * h, j * h));
    const Real lip = norm3(p0, p1) + norm3(q0, q1);
    EXPECT_LE(d, brute + 1e-13) << "trial " << trial; // never worse than any sample
    EXPECT_GE(d, brute - 0.5 * lip * h - 1e-13) << "trial " << trial;
  }
  EXPECT_GT(parallel, 100);
  EXPECT_GT(degenerate, 50);
}

TEST(EdgeContact, ParallelOverlapTakesTheMiddleOfTheOverlap) {
  const Real p0[3] = {0, 0, 0}, p1[3] = {4, 0, 0};
  const Real q0[3] = {1, 1, 0}, q1[3] = {7, 1, 0}; // overlap x in [1, 4]
  const SegmentClosest c = closest_points(p0, p1, q0, q1);
  EXPECT_NEAR(c.s, 2.5 / 4, 1e-15);
  EXPECT_NEAR(c.t, 1.5 / 6, 1e-15);
  EXPECT_NEAR(c.dist2, 1.0, 1e-15);
}

namespace {

/// n random short edges in a unit box, in chains of 4 (consecutive edges share a node).
EdgeSet random_edges(std::vector<Real>& x, int nchains, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<Real> u(0, 1), w(-1, 1);
  EdgeSet es;
  for (int c = 0; c < nchains; ++c) {
    LocalId prev = static_cast<LocalId>(x.size() / 3);
    x.insert(x.end(), {u(rng), u(rng), u(rng)});
    for (int k = 0; k < 4; ++k) {
      const LocalId cur = static_cast<LocalId>(x.size() / 3);
      const std::size_t b = 3 * static_cast<std::size_t>(prev);
      x.insert(x.end(), {x[b] + 0.05 * w(rng), x[b + 1] + 0.05 * w(rng), x[b + 2] + 0.05 * w(rng)});
      es.edge.push_back({prev, cur});
      es.radius.push_back(0.005 + 0.01 * u(rng));
      es.k0.push_back(1.0e3);
      es.group.push_back(c % 3);
      prev = cur;
    }
  }
  return es;
}

} // namespace

TEST(EdgeContact, BucketSearchEqualsAllPairs) {
  std::vector<Real> x;
  EdgeSet es = random_edges(x, 150, 3);
  EdgeState st = init_edges(es, x);
  EXPECT_GT(st.margin, 0);
  for (int round = 0; round < 3; ++round) {
    EdgeState ref = st;
    bucket_search_edges(es, st, x);
    all_pairs_search_edges(es, ref, x);
    ASSERT_GT(ref.cand.size(), 20u) << "the test must have candidates to compare";
    EXPECT_EQ(st.cand, ref.cand);
    // the search may not pair edges that share a node
    for (const auto& c : st.cand)
      EXPECT_TRUE(
          edges_may_touch(es, static_cast<std::size_t>(c[0]), static_cast<std::size_t>(c[1])));
    // move the nodes and search again (a coarser margin the second time)
    std::mt19937 rng(11 + round);
    std::uniform_real_distribution<Real> w(-0.02, 0.02);
    for (Real& v : x) v += w(rng);
    st.margin *= 1.5;
  }
  // same-part exclusion (MPP CPARM8) removes exactly the same-group pairs
  es.exclude_same_group = true;
  EdgeState a = st, b = st;
  bucket_search_edges(es, a, x);
  all_pairs_search_edges(es, b, x);
  EXPECT_EQ(a.cand, b.cand);
  for (const auto& c : a.cand)
    EXPECT_NE(es.group[static_cast<std::size_t>(c[0])], es.group[static_cast<std::size_t>(c[1])]);
}

TEST(EdgeContact, BeamsSharingANodeAreNeverPaired) {
  // Two beams meeting at node 1 at 30 degrees: their capsules (radius 0.2) overlap near the
  // shared node, and a third beam (not connected) overlaps the second one.
  std::vector<Real> x = {0,   0,   0,   1,   0,   0,   1 + std::cos(0.5236), std::sin(0.5236), 0,
                         1.5, 0.1, 0.3, 1.5, 0.1, -0.3};
  EdgeSet es;
  es.edge = {{0, 1}, {1, 2}, {3, 4}};
  es.radius = {0.2, 0.2, 0.2};
  es.k0 = {1e3, 1e3, 1e3};
  es.p.search_margin = 0.1;
  EdgeState st = init_edges(es, x);
  ASSERT_EQ(st.cand.size(), 1u);
  EXPECT_EQ(st.cand[0], (std::array<LocalId, 2>{1, 2}));
  std::fill(st.offset.begin(), st.offset.end(), 0.0); // count the overlap as a penetration
  std::vector<Real> v(x.size(), 0.0), f(x.size(), 0.0), m(5, 1.0);
  const EdgeStatus s = edge_contact_forces(es, st, x, v, m, 0, 1e-3, f);
  EXPECT_EQ(s.active_pairs, 1);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(f[i], 0.0) << "node 0 is on the first beam only";
  EXPECT_GT(std::hypot(f[9] + f[12], f[10] + f[13]), 0.0) << "the third beam is pushed";
}

namespace {

/// A small explicit (central-difference) model of free nodes joined by axial springs (trusses)
/// with edge contact: the test's integrator.
struct RodModel {
  std::vector<Real> x, v, m;
  std::vector<std::array<LocalId, 2>> springs;
  Real k_axial = 0;
  std::vector<Real> l0;
  void init_springs() {
    l0.clear();
    for (const auto& s : springs) l0.push_back(norm3(&x[3 * s[0]], &x[3 * s[1]]));
  }
  Real spring_energy() const {
    Real e = 0;
    for (std::size_t k = 0; k < springs.size(); ++k) {
      const Real d = norm3(&x[3 * springs[k][0]], &x[3 * springs[k][1]]) - l0[k];
      e += 0.5 * k_axial * d * d;
    }
    return e;
  }
  void add_spring_forces(std::vector<Real>& f) const {
    for (std::size_t k = 0; k < springs.size(); ++k) {
      const Real* a = &x[3 * springs[k][0]];
      const Real* b = &x[3 * springs[k][1]];
      const Real l = norm3(a, b);
      const Real fs = k_axial * (l - l0[k]) / l;
      for (int i = 0; i < 3; ++i) {
        f[3 * springs[k][0] + i] += fs * (b[i] - a[i]);
        f[3 * springs[k][1] + i] -= fs * (b[i] - a[i]);
      }
    }
  }
  Real kinetic() const {
    Real e = 0;
    for (std::size_t n = 0; n < m.size(); ++n)
      e += 0.5 * m[n] *
           (v[3 * n] * v[3 * n] + v[3 * n + 1] * v[3 * n + 1] + v[3 * n + 2] * v[3 * n + 2]);
    return e;
  }
  std::array<Real, 3> momentum() const {
    std::array<Real, 3> p{0, 0, 0};
    for (std::size_t n = 0; n < m.size(); ++n)
      for (int i = 0; i < 3; ++i) p[i] += m[n] * v[3 * n + i];
    return p;
  }
  std::array<Real, 3> angular_momentum() const {
    std::array<Real, 3> L{0, 0, 0};
    for (std::size_t n = 0; n < m.size(); ++n) {
      const Real* r = &x[3 * n];
      const Real p[3] = {m[n] * v[3 * n], m[n] * v[3 * n + 1], m[n] * v[3 * n + 2]};
      L[0] += r[1] * p[2] - r[2] * p[1];
      L[1] += r[2] * p[0] - r[0] * p[2];
      L[2] += r[0] * p[1] - r[1] * p[0];
    }
    return L;
  }
};

} // namespace

TEST(EdgeContact, CrossingRodsHeadOnConserveMomentumAndRebound) {
  // Rod a along x (z = 0), rod b along y above it (z = 0.025), crossing off centre (rod a is hit
  // at x = 0.3 of its length 2, rod b at y = 0.7): they approach at 2 m/s, collide elastically
  // and rebound spinning. Radii 0.01 each; contact stiffness k = 1e5; node masses 1e-3;
  // rods: axial springs 1e7 (rigid-ish).
  RodModel r;
  r.x = {-0.6, 0,    0,     1.4, 0,   0,      // rod a: nodes 0 1
         0.3,  -1.4, 0.025, 0.3, 0.6, 0.025}; // rod b: nodes 2 3
  r.v = {0, 0, 1, 0, 0, 1, 0, 0, -1, 0, 0, -1};
  r.m = {1e-3, 1e-3, 1e-3, 1e-3};
  r.springs = {{0, 1}, {2, 3}};
  r.k_axial = 1e7;
  r.init_springs();
  EdgeSet es;
  es.edge = {{0, 1}, {2, 3}};
  es.radius = {0.01, 0.01};
  es.k0 = {1e5, 1e5};
  es.p.search_interval = 10;
  EdgeState st = init_edges(es, r.x);
  ASSERT_EQ(st.cand.size(), 1u);
  // Step: the contact spring acts on an effective mass ~ m (each rod ~ 2 m, a reduced mass of
  // ~m, less for the off-centre hit): omega = sqrt(k / m_eff) <= sqrt(1e5 / 5e-4) = 1.4e4; the
  // axial springs: sqrt(2 k_ax / m) = 1.4e5. dt = 0.02 / omega_axial keeps both well resolved.
  const Real omega_c = std::sqrt(1e5 / 5e-4);
  const Real dt = 0.02 / std::sqrt(2 * 1e7 / 1e-3);
  const Real e0 = r.kinetic() + r.spring_energy();
  const auto p0 = r.momentum();
  const auto L0 = r.angular_momentum();
  std::vector<Real> f(r.x.size());
  bool touched = false;
  Real max_work = 0;
  for (int cycle = 1; cycle <= 100000; ++cycle) {
    // x^n from v^{n-1/2}
    for (std::size_t i = 0; i < r.x.size(); ++i) r.x[i] += dt * r.v[i];
    std::fill(f.begin(), f.end(), 0.0);
    r.add_spring_forces(f);
    edge_search_if_due(es, st, r.x, cycle);
    const EdgeStatus s = edge_contact_forces(es, st, r.x, r.v, r.m, cycle * dt, dt, f);
    ASSERT_TRUE(s.ok);
    touched = touched || s.active_pairs > 0;
    max_work = std::max(max_work, std::abs(st.e_interface.result()));
    for (std::size_t n = 0; n < r.m.size(); ++n)
      for (int i = 0; i < 3; ++i) r.v[3 * n + i] += dt * f[3 * n + i] / r.m[n];
    if (touched && s.active_pairs == 0 && r.x[8] - r.x[2] > 0.03) break;
  }
  ASSERT_TRUE(touched);
  EXPECT_GT(r.x[8] - r.x[2], 0.03) << "the rods separated again";
  // Linear and angular momentum: the contact force is equal and opposite on the rods and acts
  // along the line P - Q joining the points where it is applied, the springs are central:
  // conserved to round-off (a few ulps of |p| per step over ~1e4 steps).
  const auto p1 = r.momentum();
  const auto L1 = r.angular_momentum();
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(p1[i], p0[i], 1e-15) << i; // |p0| = 0 exactly here; the forces sum to ~1e-16 N
    // |L| ~ m v r = 1e-3; each of ~1e4 position updates rounds x by ~1e-16: ~1e-15 in all
    EXPECT_NEAR(L1[i], L0[i], 1e-13) << i;
  }
  // The rebound: elastic penalty, no damping, no friction: the total energy after separation
  // equals the initial one up to the central-difference error of switching the contact on and
  // off within a step: the penetration of the first step in contact is at most v dt, the work
  // done over that step is wrong by at most k (v dt) (v dt), i.e. relative to 1/2 m_eff v^2 at
  // most 2 k dt^2 / m_eff = 2 (omega dt)^2 per switch, two switches: 4 (omega_c dt)^2.
  const Real tol = 4 * (omega_c * dt) * (omega_c * dt);
  const Real e1 = r.kinetic() + r.spring_energy();
  std::printf("crossing rods: E1/E0 - 1 = %.3e (tolerance %.3e), p = (%.2e %.2e %.2e), "
              "L - L0 = (%.2e %.2e %.2e), peak interface energy / E0 = %.3f\n",
              e1 / e0 - 1, tol, p1[0], p1[1], p1[2], L1[0] - L0[0], L1[1] - L0[1], L1[2] - L0[2],
              max_work / e0);
  EXPECT_NEAR(e1 / e0, 1.0, tol) << "tolerance " << tol;
  // the interface energy returns to ~0 (all the stored energy given back)
  EXPECT_NEAR(st.e_interface.result() / e0, 0.0, tol);
  EXPECT_GT(max_work / e0, 0.01) << "the contact took up energy during the impact";
  // spinning after the off-centre hit
  EXPECT_GT(std::abs(r.v[2] - r.v[5]), 1e-3);
}

TEST(EdgeContact, ViscousDampingTakesTheReboundEnergy) {
  // A rod (two nodes of mass m) falling at 1 m/s across a fixed one, hit at its middle,
  // VDC = 20 % of critical. The rule (forces.cpp's, LS-DYNA's) takes the contact point's mass as
  // the weighted nodal mass m_P = m, while the rod moves as 2 m: the damping is
  // zeta = 0.2 m sqrt(k / m) / (2 m sqrt(k / 2 m)) = 0.2 / sqrt(2) of the actual oscillator's
  // critical value. A Kelvin-Voigt contact that cannot pull lets go when k x + c x' = 0, at
  // phase theta* = pi - atan(2 zeta sqrt(1 - zeta^2) / (1 - 2 zeta^2)); the velocity then is
  // v_in exp(-zeta theta* / sqrt(1 - zeta^2)) (the bracket cos - zeta/sqrt(1-zeta^2) sin is -1
  // there). The energy balance closes: kinetic energy lost = interface energy.
  const Real k = 1e5, m = 1e-3;
  std::vector<Real> x = {-1, 0, 0.05, 1, 0, 0.05, 0, -1, 0, 0, 1, 0};
  std::vector<Real> v = {0, 0, -1, 0, 0, -1, 0, 0, 0, 0, 0, 0};
  const std::vector<Real> mass = {m, m, 1e30, 1e30};
  EdgeSet es;
  es.edge = {{0, 1}, {2, 3}};
  es.radius = {0.01, 0.01};
  es.k0 = {k, k};
  es.p.vdc = 20;
  EdgeState st = init_edges(es, x);
  const Real omega = std::sqrt(k / m); // the pair's m_P = m (rod a at s = 1/2), m_Q huge
  const Real dt = 0.01 / omega;
  std::vector<Real> f(12);
  const Real e0 = 0.5 * 2 * m;
  bool touched = false;
  for (int cycle = 1; cycle <= 200000; ++cycle) {
    for (int i = 0; i < 6; ++i) x[i] += dt * v[i];
    std::fill(f.begin(), f.end(), 0.0);
    edge_search_if_due(es, st, x, cycle);
    const EdgeStatus s = edge_contact_forces(es, st, x, v, mass, cycle * dt, dt, f);
    touched = touched || s.active_pairs > 0;
    for (int i = 0; i < 6; ++i) v[i] += dt * f[i] / m;
    if (touched && s.active_pairs == 0) break;
  }
  ASSERT_TRUE(touched);
  const Real zeta = 0.2 / std::sqrt(2.0);
  const Real sq = std::sqrt(1 - zeta * zeta);
  const Real theta = std::numbers::pi - std::atan(2 * zeta * sq / (1 - 2 * zeta * zeta));
  const Real restitution = std::exp(-zeta * theta / sq);
  std::printf("damped rebound: v_out / v_in = %.4f (Kelvin-Voigt without tension %.4f)\n", v[2],
              restitution);
  // the step's switching error O(omega dt), omega dt <= 0.01: 1 %
  EXPECT_NEAR(v[2], restitution, 0.01 * restitution);
  const Real e1 = 0.5 * 2 * m * v[2] * v[2];
  // kinetic energy lost = the interface energy (the damping's work): to the step's round-off of
  // the trapezoidal work (the force is continuous but for the cap, O(omega dt)^2 = 1e-4)
  EXPECT_NEAR(st.e_interface.result(), e0 - e1, 1e-3 * e0);
}

TEST(EdgeContact, RodSlidingOnARodFeelsCoulombFriction) {
  // Rod b fixed (nodes 2, 3 never move), rod a parallel above it, pressed on it by N = 10 (5 on
  // each node, along -z) at the static penetration N / k, and pulled along x at 0.5 m/s.
  const Real k = 1e4, N = 10, ra = 0.02, rb = 0.03, v0 = 0.5;
  const Real fs = 0.4, fd = 0.25, dc = 2.0;
  const Real mu = fd + (fs - fd) * std::exp(-dc * v0);
  std::vector<Real> x = {0, 0, ra + rb - N / k, 1, 0, ra + rb - N / k, -1, 0, 0, 3, 0, 0};
  std::vector<Real> v = {v0, 0, 0, v0, 0, 0, 0, 0, 0, 0, 0, 0};
  const std::vector<Real> m = {1e-2, 1e-2, 1, 1};
  EdgeSet es;
  es.edge = {{0, 1}, {2, 3}};
  es.radius = {ra, rb};
  es.k0 = {k, k};
  es.p.fs = fs;
  es.p.fd = fd;
  es.p.dc = dc;
  EdgeState st = init_edges(es, x);
  ASSERT_EQ(st.cand.size(), 1u);
  st.offset[0] = 0; // pre-loaded: the initial overlap is the static penetration, not an offset
  const Real dt = 1e-5;
  std::vector<Real> f(12);
  Real fx = 0, fz = 0, slid = 0;
  const int cycles = 2000;
  Real diss_start = 0;
  for (int cycle = 1; cycle <= cycles; ++cycle) {
    for (int n = 0; n < 2; ++n)
      for (int i = 0; i < 3; ++i) x[3 * n + i] += dt * v[3 * n + i];
    std::fill(f.begin(), f.end(), 0.0);
    f[2] = f[5] = -N / 2;
    edge_search_if_due(es, st, x, cycle);
    const EdgeStatus s = edge_contact_forces(es, st, x, v, m, cycle * dt, dt, f);
    ASSERT_EQ(s.active_pairs, 1);
    fx = st.resultant_a[0];
    fz = st.resultant_a[2];
    // a's z velocity from the net force; its x velocity is prescribed
    for (int n = 0; n < 2; ++n) v[3 * n + 2] += dt * f[3 * n + 2] / m[n];
    if (cycle == cycles / 2) {
      diss_start = st.e_friction.result();
      slid = x[0];
    }
  }
  slid = x[0] - slid;
  // The normal force stays N: rod a starts at the static penetration and its contact points
  // stay at the middle of the overlap, so nothing excites it (round-off only).
  EXPECT_NEAR(fz, N, 1e-9 * N);
  // Sliding (the elastic stick force reached its cap after mu N / (k v0) = 7e-4 s, 70 cycles):
  // the friction force is mu(v) N against the motion, to round-off.
  std::printf("sliding rod: friction %.12g, mu N = %.12g; normal %.12g (N = %g); dissipation "
              "%.12g vs mu N slip %.12g\n",
              -fx, mu * N, fz, N, st.e_friction.result() - diss_start, mu * N * slid);
  EXPECT_NEAR(fx, -mu * N, 1e-9 * N) << "mu = " << mu;
  // The dissipation over the second half is mu N times the distance slid (round-off).
  EXPECT_NEAR(st.e_friction.result() - diss_start, mu * N * slid, 1e-9 * mu * N * slid);
}

TEST(EdgeContact, ForcesEqualTheAllPairsReference) {
  std::vector<Real> x;
  EdgeSet es = random_edges(x, 120, 5);
  for (Real& r : es.radius) r *= 3; // plenty of overlaps
  EdgeState st = init_edges(es, x);
  std::fill(st.offset.begin(), st.offset.end(), 0.0);
  const std::vector<Real> v(x.size(), 0.0), m(x.size() / 3, 1.0);
  std::vector<Real> f(x.size(), 0.0), g(x.size(), 0.0);
  const EdgeStatus s = edge_contact_forces(es, st, x, v, m, 0, 1e-6, f);
  ASSERT_GT(s.active_pairs, 10);
  edge_contact_forces_reference(es, st, x, m, g);
  Real fmax = 0;
  for (Real a : g) fmax = std::max(fmax, std::abs(a));
  ASSERT_GT(fmax, 0);
  for (std::size_t i = 0; i < f.size(); ++i) EXPECT_NEAR(f[i], g[i], 1e-12 * fmax) << i;
}

TEST(EdgeContact, InitialOverlapIsAnOffsetNotAForce) {
  // Two crossing capsules that overlap by 0.01 at the start: no force (LS-DYNA IGNORE = 1
  // behaviour), a force once they go 0.005 deeper, and the offset shrinks when they separate.
  std::vector<Real> x = {-1, 0, 0, 1, 0, 0, 0, -1, 0.09, 0, 1, 0.09};
  EdgeSet es;
  es.edge = {{0, 1}, {2, 3}};
  es.radius = {0.05, 0.05};
  es.k0 = {100, 100};
  EdgeState st = init_edges(es, x);
  ASSERT_EQ(st.cand.size(), 1u);
  EXPECT_NEAR(st.offset[0], 0.01, 1e-15);
  std::vector<Real> v(12, 0.0), f(12, 0.0), m(4, 1.0);
  edge_contact_forces(es, st, x, v, m, 0, 1e-3, f);
  for (Real a : f) EXPECT_EQ(a, 0.0);
  x[8] = x[11] = 0.085; // 0.005 deeper
  edge_contact_forces(es, st, x, v, m, 0, 1e-3, f);
  EXPECT_NEAR(f[2] + f[5], -100 * 0.005, 1e-12); // rod a pushed down
  x[8] = x[11] = 0.095;                          // out by 0.005: the offset shrinks to 0.005
  std::fill(f.begin(), f.end(), 0.0);
  edge_contact_forces(es, st, x, v, m, 0, 1e-3, f);
  EXPECT_NEAR(st.offset[0], 0.005, 1e-15);
  for (Real a : f) EXPECT_EQ(a, 0.0);
}

// SOFT = 1 for beam edges: k = max(k0, SOFSCL 0.5 m / dt_c^2), m the smallest of the four nodal
// masses; dt_c the first step, raised when the step grows, or DTSTIF when it is given.
TEST(EdgeContact, Soft1StiffnessStepAndDtstif) {
  const std::vector<Real> x = {0, 0, 0, 1, 0, 0, 0.5, -0.5, 0.015, 0.5, 0.5, 0.015};
  const std::vector<Real> m = {2, 3, 0.5, 4};
  EdgeSet es;
  es.edge = {{0, 1}, {2, 3}};
  es.radius = {0.01, 0.01};
  es.k0 = {10.0, 20.0};
  es.p.soft = 1;
  es.p.sofscl = 0.1;
  EdgeState st = init_edges(es, x);
  ASSERT_EQ(st.cand.size(), 1u);
  std::vector<Real> v(x.size(), 0.0), f(x.size(), 0.0);
  edge_contact_forces(es, st, x, v, m, 0, 1e-2, f);
  EXPECT_EQ(st.dt_c, 1e-2);
  // 0.1 * 0.5 * min(2, 0.5) / 1e-4 = 250 > min(k0) = 10
  EXPECT_NEAR(edge_pair_stiffness(es, st, 0, 1, m), 250.0, 1e-10);
  edge_contact_forces(es, st, x, v, m, 0, 1e-3, f);
  EXPECT_EQ(st.dt_c, 1e-2) << "never lowered";
  edge_contact_forces(es, st, x, v, m, 0, 1.0, f);
  EXPECT_EQ(st.dt_c, 1.0) << "raised when the step grows";
  EXPECT_NEAR(edge_pair_stiffness(es, st, 0, 1, m), 10.0, 1e-12) << "k0 wins";
  es.p.dtstif = 5e-3; // fixed, whatever the solution step
  edge_contact_forces(es, st, x, v, m, 0, 1.0, f);
  EXPECT_EQ(st.dt_c, 5e-3);
  EXPECT_NEAR(edge_pair_stiffness(es, st, 0, 1, m), 1000.0, 1e-9);
}
