// Penalty contact: analytic verification (penalty rebound, Coulomb sliding, momentum), search
// against the all-pairs reference, local tracking, determinism, stiffness formulas, initial
// penetrations, blow-up detection.
#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <cstring>
#include <numbers>
#include <random>

#include "contact/contact.hpp"

using namespace parcae;
using namespace parcae::contact;

namespace {

// nx*ny grid of quads on [x0, x0+lx] x [y0, y0+ly] at height z (node ids from `first`).
struct Grid {
  std::vector<Segment> seg;
  std::vector<LocalId> nodes;
};
Grid add_grid(std::vector<Real>& x, int nx, int ny, Real x0, Real y0, Real lx, Real ly, Real z,
              bool flip = false, Real jitter = 0, unsigned seed = 1) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<Real> u(-1, 1);
  Grid g;
  const LocalId first = static_cast<LocalId>(x.size() / 3);
  for (int j = 0; j <= ny; ++j)
    for (int i = 0; i <= nx; ++i) {
      g.nodes.push_back(static_cast<LocalId>(x.size() / 3));
      x.push_back(x0 + lx * i / nx);
      x.push_back(y0 + ly * j / ny);
      x.push_back(z + jitter * u(rng));
    }
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const LocalId a = first + i + (nx + 1) * j;
      Segment s{a, a + 1, a + 1 + (nx + 1), a + (nx + 1)};
      if (flip) std::swap(s[1], s[3]);
      g.seg.push_back(s);
    }
  return g;
}

Surface plain_surface(const std::vector<Segment>& seg, Real thickness, Real k0) {
  Surface s;
  s.seg = seg;
  s.thickness.assign(seg.size(), thickness);
  s.k0.assign(seg.size(), k0);
  s.area0.assign(seg.size(), 1.0);
  return s;
}

Real norm3(const Real* a) {
  return std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
}

} // namespace

// A point mass hits a fixed plane: the penalty spring gives a half sine of duration
// pi sqrt(m/k), maximum penetration v sqrt(m/k), exit speed = entry speed. Central difference
// with dt = T/2000 (T = 2 pi sqrt(m/k)): contact start/end are detected to within one step
// (relative error ~ 2 dt / (T/2) = 2e-3); amplitude and speed errors are O((omega dt)^2) ~ 1e-5.
TEST(ContactVerification, NodeOnPlaneRebound) {
  struct Case {
    bool automatic;
    Real thickness;
    Real from; ///< +1 from above, -1 from below
  };
  for (const Case c : {Case{false, 0.0, 1.0}, Case{true, 0.0, 1.0}, Case{true, 0.02, 1.0},
                       Case{true, 0.02, -1.0}}) {
    std::vector<Real> x;
    Grid plane = add_grid(x, 2, 2, -1, -1, 2, 2, 0.0);
    const LocalId node = static_cast<LocalId>(x.size() / 3);
    x.insert(x.end(), {0.13, 0.21, c.from * 0.03});
    const std::size_t nnode = x.size() / 3;
    const Real m = 2.0, k = 5e5, v0 = 1.5, ht = 0.5 * c.thickness;
    Interface ifc;
    ifc.p.type = ContactType::nodes_to_surface;
    ifc.p.automatic = c.automatic;
    ifc.p.slsfac = 1;
    ifc.main = plain_surface(plane.seg, c.thickness, k);
    ifc.secondary_nodes = {node};
    std::vector<Real> v(3 * nnode, 0.0), mass(nnode, 1.0), f(3 * nnode);
    mass[node] = m;
    v[3 * node + 2] = -c.from * v0;
    ContactState st = init_state(ifc, nnode, x);
    const Real w = std::sqrt(k / m), dt = 2 * std::numbers::pi / w / 2000;
    Real t = 0, t_in = -1, t_out = -1, max_pen = 0, e_max = 0;
    for (int n = 0; n < 200000 && t_out < 0; ++n) {
      update_search(ifc, st, x, n);
      std::fill(f.begin(), f.end(), 0.0);
      const ContactStatus s = contact_forces(ifc, st, x, v, mass, t, dt, f);
      ASSERT_TRUE(s.ok);
      ASSERT_TRUE(s.released.empty());
      Real sum[3] = {0, 0, 0};
      for (std::size_t a = 0; a < nnode; ++a)
        for (int i = 0; i < 3; ++i) sum[i] += f[3 * a + i];
      EXPECT_LE(norm3(sum), 1e-12 * (1 + norm3(&f[3 * node])));
      EXPECT_GE(c.from * f[3 * node + 2], 0.0); // pushed back to the side it came from
      const bool contact = f[3 * node + 2] != 0;
      if (contact && t_in < 0) t_in = t;
      if (!contact && t_in >= 0) t_out = t;
      max_pen = std::max(max_pen, ht - c.from * x[3 * node + 2]);
      e_max = std::max(e_max, st.e_interface.result());
      for (int i = 0; i < 3; ++i) {
        v[3 * node + i] += dt * f[3 * node + i] / m;
        x[3 * node + i] += dt * v[3 * node + i];
      }
      t += dt;
    }
    ASSERT_GT(t_out, 0);
    const Real duration = std::numbers::pi * std::sqrt(m / k);
    EXPECT_NEAR(t_out - t_in, duration, 2.5 * dt);
    EXPECT_NEAR(max_pen, v0 * std::sqrt(m / k), 1e-3 * v0 * std::sqrt(m / k));
    EXPECT_NEAR(c.from * v[3 * node + 2], v0, 1e-3 * v0);
    EXPECT_NEAR(v[3 * node + 0], 0.0, 1e-12);
    // interface energy: up to the kinetic energy at maximum compression, ~0 after the rebound
    const Real ke = 0.5 * m * v0 * v0;
    EXPECT_NEAR(e_max, ke, 2e-3 * ke);
    EXPECT_NEAR(st.e_interface.result(), 0.0, 2e-3 * ke);
    EXPECT_EQ(st.e_friction.result(), 0.0);
    EXPECT_EQ(st.e_main.result(), 0.0); // the plane does not move: all work on the node
    EXPECT_EQ(st.e_secondary.result(), st.e_interface.result());
  }
}

// A mass sliding on a plane of several segments under gravity decelerates at mu g. The normal
// spring starts at its static deflection m g / k so the normal force stays m g; the friction
// spring (stiffness k) reaches mu m g within a few steps, after which the deceleration is mu g
// exactly; the 1% tolerance covers the stick phase at the start (|dv| < mu g * few dt).
TEST(ContactVerification, SlidingBlockCoulombFriction) {
  std::vector<Real> x;
  Grid plane = add_grid(x, 8, 2, 0, -1, 8, 2, 0.0);
  const LocalId node = static_cast<LocalId>(x.size() / 3);
  const Real m = 1.0, k = 1e5, g = 9.81, mu = 0.3, v0 = 3.0;
  x.insert(x.end(), {0.5, 0.1, -m * g / k});
  const std::size_t nnode = x.size() / 3;
  Interface ifc;
  ifc.p.automatic = false;
  ifc.p.slsfac = 1;
  ifc.p.fs = ifc.p.fd = mu;
  ifc.main = plain_surface(plane.seg, 0.0, k);
  ifc.secondary_nodes = {node};
  std::vector<Real> v(3 * nnode, 0.0), mass(nnode, 1.0), f(3 * nnode);
  mass[node] = m;
  v[3 * node] = v0;
  ContactState st = init_state(ifc, nnode, x);
  const Real dt = 1e-4;
  const int nsteps = 5000; // 0.5 s: v drops by mu g 0.5 = 1.47, slides ~1.1 (several segments)
  std::vector<LocalId> visited;
  for (int n = 0; n < nsteps; ++n) {
    update_search(ifc, st, x, n);
    std::fill(f.begin(), f.end(), 0.0);
    ASSERT_TRUE(contact_forces(ifc, st, x, v, mass, n * dt, dt, f).ok);
    ASSERT_NE(st.passes[0].seg_of[0], kInvalidLocal);
    if (visited.empty() || visited.back() != st.passes[0].seg_of[0])
      visited.push_back(st.passes[0].seg_of[0]);
    f[3 * node + 2] -= m * g;
    for (int i = 0; i < 3; ++i) {
      v[3 * node + i] += dt * f[3 * node + i] / m;
      x[3 * node + i] += dt * v[3 * node + i];
    }
  }
  const Real v_expected = v0 - mu * g * nsteps * dt;
  EXPECT_NEAR(v[3 * node], v_expected, 0.01 * (v0 - v_expected));
  EXPECT_GE(visited.size(), 2u);
  // friction dissipation = lost kinetic energy (the normal motion stays at rest)
  const Real lost = 0.5 * m * (v0 * v0 - v[3 * node] * v[3 * node]);
  EXPECT_NEAR(st.e_friction.result(), lost, 0.01 * lost);
  EXPECT_NEAR(st.e_interface.result(), lost, 0.01 * lost);
}

// Static/dynamic decay: once sliding, the tangential force is exactly
// (fd + (fs - fd) exp(-dc |v_t|)) |f_n| with v_t the relative tangential velocity.
TEST(ContactVerification, FrictionDecayCoefficient) {
  for (Real vt : {0.2, 1.0, 5.0}) {
    std::vector<Real> x;
    Grid plane = add_grid(x, 1, 1, -1, -1, 2, 2, 0.0);
    const LocalId node = 4;
    x.insert(x.end(), {0.0, 0.0, -1e-3});
    Interface ifc;
    ifc.p.automatic = false;
    ifc.p.slsfac = 1;
    ifc.p.fs = 0.6;
    ifc.p.fd = 0.2;
    ifc.p.dc = 0.7;
    ifc.main = plain_surface(plane.seg, 0.0, 1e4);
    ifc.secondary_nodes = {node};
    std::vector<Real> v(15, 0.0), mass(5, 1.0), f(15);
    v[3 * node] = vt;
    ContactState st = init_state(ifc, 5, x);
    for (int n = 0; n < 3; ++n) { // dt = 0.01: k vt dt >= 20 > mu f_n = 6 (slides at once)
      std::fill(f.begin(), f.end(), 0.0);
      contact_forces(ifc, st, x, v, mass, 0, 0.01, f);
    }
    const Real fn = f[3 * node + 2], ftx = f[3 * node];
    const Real mu = 0.2 + 0.4 * std::exp(-0.7 * vt);
    EXPECT_NEAR(fn, 1e4 * 1e-3, 1e-9);
    EXPECT_NEAR(ftx, -mu * fn, 1e-12 * fn);
  }
}

// Two shell patches fly into each other (two-way automatic surface to surface with thickness):
// every pair's force is applied to the node and, with shape functions summing to one, in the
// opposite direction to the segment: total momentum is conserved to round-off.
TEST(ContactVerification, MomentumConservationTwoPatches) {
  std::vector<Real> x;
  Grid a = add_grid(x, 3, 3, 0, 0, 1, 1, 0.0, false, 0.01, 3);
  Grid b = add_grid(x, 4, 4, 0.1, 0.05, 0.9, 0.9, 0.08, true, 0.01, 4);
  const std::size_t nnode = x.size() / 3;
  Interface ifc;
  ifc.p.type = ContactType::surface_to_surface;
  ifc.p.automatic = true;
  ifc.p.fs = ifc.p.fd = 0.2;
  std::vector<Real> thick(1, 0.05), bulk(1, 1e5);
  ifc.secondary = surface_from_shells(b.seg, thick, bulk, x);
  ifc.main = surface_from_shells(a.seg, thick, bulk, x);
  std::vector<Real> v(3 * nnode, 0.0), mass(nnode), f(3 * nnode);
  std::mt19937 rng(7);
  std::uniform_real_distribution<Real> u(0.5, 1.5);
  for (auto& mm : mass) mm = 0.01 * u(rng);
  for (LocalId n : a.nodes) v[3 * n + 2] = 1.0, v[3 * n] = 0.3;
  for (LocalId n : b.nodes) v[3 * n + 2] = -1.0;
  ContactState st = init_state(ifc, nnode, x);
  auto momentum = [&](int i) {
    Real p = 0;
    for (std::size_t n = 0; n < nnode; ++n) p += mass[n] * v[3 * n + i];
    return p;
  };
  const Real p0[3] = {momentum(0), momentum(1), momentum(2)};
  auto kinetic = [&]() {
    Real e = 0;
    for (std::size_t n = 0; n < nnode; ++n)
      for (int i = 0; i < 3; ++i) e += 0.5 * mass[n] * v[3 * n + i] * v[3 * n + i];
    return e;
  };
  const Real ke0 = kinetic();
  const Real dt = 1e-5;
  Real fmax = 0;
  for (int n = 0; n < 4000; ++n) {
    update_search(ifc, st, x, n);
    std::fill(f.begin(), f.end(), 0.0);
    ASSERT_TRUE(contact_forces(ifc, st, x, v, mass, n * dt, dt, f).ok);
    for (std::size_t a2 = 0; a2 < nnode; ++a2) {
      fmax = std::max(fmax, norm3(&f[3 * a2]));
      for (int i = 0; i < 3; ++i) {
        v[3 * a2 + i] += dt * f[3 * a2 + i] / mass[a2];
        x[3 * a2 + i] += dt * v[3 * a2 + i];
      }
    }
  }
  EXPECT_GT(fmax, 0.0);
  EXPECT_GT(st.n_searches, 1);
  for (int i = 0; i < 3; ++i)
    // round-off only: m (v + dt f / m) != m v + dt f in floating point, ~1e-16 per node-step
    EXPECT_NEAR(momentum(i), p0[i], 1e-11 * (std::abs(p0[i]) + 1.0)) << i;
  // energy balance: kinetic energy lost = interface energy (the elastic part returns after the
  // bounce, the friction dissipation stays). The contact is over at the end, so only the
  // O(dt^2)-per-step difference between the trapezoidal work and the half-step kinetic energy
  // remains (measured 0.4%); 2% of the interface energy.
  EXPECT_GT(st.e_interface.result(), 1e-5 * ke0);
  EXPECT_NEAR(ke0 - kinetic(), st.e_interface.result(), 0.02 * st.e_interface.result());
  EXPECT_GT(st.e_friction.result(), 0.0);
  EXPECT_NEAR(st.e_secondary.result() + st.e_main.result(), st.e_interface.result(), 1e-12 * ke0);
  // the patches bounced: b moves up on average now
  Real vb = 0;
  for (LocalId n : b.nodes) vb += v[3 * n + 2];
  EXPECT_GT(vb, 0.0);
}

// Single surface: a strip folded onto itself (lower row, a vertical fold quad, upper row
// 0.08 above, thickness 0.1) generates forces; the same strip flat generates none, and no node
// is ever in contact with a segment containing it.
TEST(ContactSingleSurface, FoldedStrip) {
  for (bool folded : {true, false}) {
    std::vector<Real> x;
    // lower row nodes (i, j) for i = 0..3, j = 0..1 at z = 0; upper row at z = h (folded) or
    // continued flat at x = 3..6
    const Real h = 0.08;
    std::vector<Segment> segs;
    auto node = [&](Real px, Real py, Real pz) {
      x.insert(x.end(), {px, py, pz});
      return static_cast<LocalId>(x.size() / 3 - 1);
    };
    LocalId lo[4][2], up[4][2];
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 2; ++j) lo[i][j] = node(i, j, 0);
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 2; ++j) up[i][j] = folded ? node(3 - i, j, h) : node(4 + i, j, 0);
    for (int i = 0; i < 3; ++i) segs.push_back({lo[i][0], lo[i + 1][0], lo[i + 1][1], lo[i][1]});
    // the fold: a vertical quad from lo[3] up to the upper row (flat: a quad from x = 3 to 4)
    segs.push_back({lo[3][0], up[0][0], up[0][1], lo[3][1]});
    for (int i = 0; i < 3; ++i) segs.push_back({up[i][0], up[i + 1][0], up[i + 1][1], up[i][1]});
    const std::size_t nnode = x.size() / 3;
    Interface ifc;
    ifc.p.type = ContactType::single_surface;
    ifc.p.slsfac = 1;
    std::vector<Real> thick(1, 0.1), bulk(1, 1e3);
    ifc.secondary = surface_from_shells(segs, thick, bulk, x);
    ContactState st = init_state(ifc, nnode, x);
    std::vector<Real> v(3 * nnode, 0.0), mass(nnode, 1.0), f(3 * nnode, 0.0);
    contact_forces(ifc, st, x, v, mass, 0, 1e-3, f);
    Real total[3] = {0, 0, 0}, fabs_max = 0;
    for (std::size_t n = 0; n < nnode; ++n)
      for (int i = 0; i < 3; ++i) {
        total[i] += f[3 * n + i];
        fabs_max = std::max(fabs_max, std::abs(f[3 * n + i]));
      }
    const Pass& ps = st.passes[0];
    for (std::size_t k = 0; k < ps.nodes.size(); ++k) {
      const LocalId e = ps.seg_of[k];
      if (e == kInvalidLocal) continue;
      for (LocalId c : ifc.secondary.seg[static_cast<std::size_t>(e)]) EXPECT_NE(c, ps.nodes[k]);
    }
    if (folded) {
      EXPECT_GT(fabs_max, 0.0);
      // the lower row's interior node lo[1][0] is pushed down, the upper one above it up
      EXPECT_LT(f[3 * lo[1][0] + 2], 0.0);
      EXPECT_GT(f[3 * up[2][0] + 2], 0.0);
      EXPECT_LE(norm3(total), 1e-12 * fabs_max);
    } else {
      EXPECT_EQ(fabs_max, 0.0);
    }
  }
}

namespace {
// A random soup of segments (quads and triangles) and nodes in the unit cube.
struct Soup {
  std::vector<Real> x;
  Interface ifc;
};
Soup random_soup(unsigned seed, int nseg, int nextra, ContactType type, bool automatic) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<Real> u(0, 1), s(-0.04, 0.04), th(0, 0.02);
  Soup r;
  std::vector<Segment> segs;
  for (int e = 0; e < nseg; ++e) {
    const Real cx = u(rng), cy = u(rng), cz = u(rng);
    const LocalId b = static_cast<LocalId>(r.x.size() / 3);
    const bool tri = e % 3 == 0;
    const int nn = tri ? 3 : 4;
    const Real dx[4] = {-1, 1, 1, -1}, dy[4] = {-1, -1, 1, 1};
    for (int a = 0; a < nn; ++a)
      r.x.insert(r.x.end(), {cx + 0.03 * dx[a] + s(rng) * 0.3, cy + 0.03 * dy[a] + s(rng) * 0.3,
                             cz + s(rng) * 0.3});
    segs.push_back(tri ? Segment{b, b + 1, b + 2, b + 2} : Segment{b, b + 1, b + 2, b + 3});
  }
  std::vector<LocalId> extra;
  for (int i = 0; i < nextra; ++i) {
    extra.push_back(static_cast<LocalId>(r.x.size() / 3));
    r.x.insert(r.x.end(), {u(rng), u(rng), u(rng)});
  }
  std::vector<Real> thick(segs.size());
  for (auto& t : thick) t = th(rng);
  std::vector<Real> bulk(1, 1e3);
  r.ifc.p.type = type;
  r.ifc.p.automatic = automatic;
  r.ifc.p.search_margin = 0.02;
  // release depth = thickness (<= 2 x the half thicknesses of the pair): every pair that can
  // be in contact lies within the search boxes, so the all-pairs reference sees the same pairs
  r.ifc.p.penmax = 1;
  const std::size_t half = segs.size() / 2;
  std::vector<Segment> s1(segs.begin(), segs.begin() + static_cast<long>(half));
  std::vector<Segment> s2(segs.begin() + static_cast<long>(half), segs.end());
  std::vector<Real> t1(thick.begin(), thick.begin() + static_cast<long>(half));
  std::vector<Real> t2(thick.begin() + static_cast<long>(half), thick.end());
  if (type == ContactType::single_surface) {
    r.ifc.secondary = surface_from_shells(segs, thick, bulk, r.x);
  } else {
    r.ifc.main = surface_from_shells(s1, t1, bulk, r.x);
    r.ifc.secondary = surface_from_shells(s2, t2, bulk, r.x);
    if (type == ContactType::nodes_to_surface) {
      r.ifc.secondary_nodes = r.ifc.secondary.nodes();
      r.ifc.secondary_nodes.insert(r.ifc.secondary_nodes.end(), extra.begin(), extra.end());
      r.ifc.secondary_node_thickness.assign(r.ifc.secondary_nodes.size(), 0.01);
    }
  }
  return r;
}
} // namespace

// The hashed-grid bucket search returns exactly the candidate pairs of the all-pairs loop
// (same predicate: node inside the segment box grown by half thicknesses + margin).
TEST(ContactSearch, BucketEqualsAllPairs) {
  for (unsigned seed = 1; seed <= 4; ++seed)
    for (ContactType type : {ContactType::nodes_to_surface, ContactType::surface_to_surface,
                             ContactType::single_surface}) {
      Soup s = random_soup(seed, 600, 300, type, true);
      const std::size_t nnode = s.x.size() / 3;
      ContactState a = init_state(s.ifc, nnode, s.x);
      ContactState b = a;
      all_pairs_search(s.ifc, b, s.x);
      std::size_t total = 0;
      for (std::size_t p = 0; p < a.passes.size(); ++p) {
        EXPECT_EQ(a.passes[p].cand_start, b.passes[p].cand_start);
        EXPECT_EQ(a.passes[p].cand_seg, b.passes[p].cand_seg);
        total += b.passes[p].cand_seg.size();
      }
      EXPECT_GT(total, 100u); // the comparison is not vacuous
    }
}

// Rigid bodies: a node and a segment carried by the same body are never paired; every other
// pair of the plain search stays, and the bucket search (which also leaves out the nodes far
// from other bodies) still equals the all-pairs loop.
TEST(ContactSearch, RigidBodiesSkipTheirOwnPairs) {
  for (ContactType type : {ContactType::surface_to_surface, ContactType::single_surface}) {
    Soup s = random_soup(7, 600, 0, type, true);
    const std::size_t nnode = s.x.size() / 3;
    const ContactState plain = init_state(s.ifc, nnode, s.x);
    // each segment owns its nodes (random_soup): segments e % 4 == 0 stay deformable, the
    // others are carried by one of three bodies
    s.ifc.node_body.assign(nnode, -1);
    auto all_segs = [&](auto&& fn) {
      LocalId e = 0;
      for (const Surface* f : {&s.ifc.main, &s.ifc.secondary})
        for (const Segment& c : f->seg) fn(c, e++);
    };
    all_segs([&](const Segment& c, LocalId e) {
      if (e % 4 != 0)
        for (LocalId n : c) s.ifc.node_body[static_cast<std::size_t>(n)] = e % 3;
    });
    ContactState a = init_state(s.ifc, nnode, s.x);
    ContactState b = a;
    all_pairs_search(s.ifc, b, s.x);
    std::size_t kept = 0, dropped = 0;
    for (std::size_t p = 0; p < a.passes.size(); ++p) {
      EXPECT_EQ(a.passes[p].cand_start, b.passes[p].cand_start);
      EXPECT_EQ(a.passes[p].cand_seg, b.passes[p].cand_seg);
      const Pass& pp = plain.passes[p];
      const Pass& pa = a.passes[p];
      const Surface& f = pp.on_main ? s.ifc.main : s.ifc.secondary;
      for (std::size_t k = 0; k < pp.nodes.size(); ++k) {
        std::vector<LocalId> expect;
        for (std::int64_t j = pp.cand_start[k]; j < pp.cand_start[k + 1]; ++j) {
          const LocalId e = pp.cand_seg[static_cast<std::size_t>(j)];
          const int nb = s.ifc.node_body[static_cast<std::size_t>(pp.nodes[k])];
          bool same = nb >= 0;
          for (LocalId q : f.seg[static_cast<std::size_t>(e)])
            same = same && s.ifc.node_body[static_cast<std::size_t>(q)] == nb;
          if (same) {
            ++dropped;
          } else {
            expect.push_back(e);
            ++kept;
          }
        }
        const std::vector<LocalId> got(pa.cand_seg.begin() + pa.cand_start[k],
                                       pa.cand_seg.begin() + pa.cand_start[k + 1]);
        EXPECT_EQ(got, expect) << "pass " << p << " node " << pp.nodes[k];
      }
    }
    EXPECT_GT(kept, 50u); // not vacuous: pairs across bodies remain, pairs within are dropped
    EXPECT_GT(dropped, 10u);
  }
}

// Local tracking: with a single search at t = 0 and a tiny margin, a node pushed across a row
// of 10 segments stays in contact: it walks to the neighbouring segments.
TEST(ContactSearch, LocalTrackingAcrossSegments) {
  std::vector<Real> x;
  Grid plane = add_grid(x, 10, 1, 0, 0, 10, 1, 0.0);
  const LocalId node = static_cast<LocalId>(x.size() / 3);
  x.insert(x.end(), {0.05, 0.5, -0.0005});
  const std::size_t nnode = x.size() / 3;
  Interface ifc;
  ifc.p.automatic = false;
  ifc.p.slsfac = 1;
  ifc.p.search_interval = 0;
  ifc.p.adaptive_search = false;
  ifc.p.search_margin = 1e-3;
  ifc.main = plain_surface(plane.seg, 0.0, 100);
  ifc.secondary_nodes = {node};
  ContactState st = init_state(ifc, nnode, x);
  EXPECT_EQ(st.passes[0].cand_seg.size(), 1u);
  std::vector<Real> v(3 * nnode, 0.0), mass(nnode, 1.0), f(3 * nnode);
  std::vector<LocalId> seen;
  for (int n = 0; n < 990; ++n) {
    x[3 * node] = 0.05 + 0.01 * n;
    EXPECT_FALSE(update_search(ifc, st, x, n));
    std::fill(f.begin(), f.end(), 0.0);
    contact_forces(ifc, st, x, v, mass, 0, 1e-3, f);
    ASSERT_NEAR(f[3 * node + 2], 100 * 0.0005, 1e-12) << n;
    if (seen.empty() || seen.back() != st.passes[0].seg_of[0])
      seen.push_back(st.passes[0].seg_of[0]);
  }
  EXPECT_EQ(st.n_searches, 1);
  ASSERT_EQ(seen.size(), 10u);
  for (int e = 0; e < 10; ++e) EXPECT_EQ(seen[e], e);
}

// The optimised kernel (bucket candidates) and the plain all-pairs reference give the same
// forces on random configurations (frictionless, fresh state; same per-pair arithmetic, so the
// only differences are the order of additions into the nodal array: round-off).
// (The reference evaluates every pair by projection, without the kernel's early rejection
// tests; the second configuration has moved by up to a quarter of the search margin since the
// search, as between two searches, so the kernel works from stale candidate lists.)
TEST(ContactForces, OptimisedEqualsReference) {
  for (unsigned seed = 1; seed <= 3; ++seed)
    for (bool moved : {false, true})
      for (bool automatic : {true, false})
        for (ContactType type : {ContactType::nodes_to_surface, ContactType::surface_to_surface,
                                 ContactType::single_surface}) {
          Soup s = random_soup(seed + 10, 800, 400, type, automatic);
          const std::size_t nnode = s.x.size() / 3;
          ContactState st = init_state(s.ifc, nnode, s.x);
          if (moved) {
            std::mt19937 rng(seed);
            std::uniform_real_distribution<Real> u(-1, 1);
            const Real step = 0.25 * st.margin / std::sqrt(3.0);
            for (Real& a : s.x) a += step * u(rng);
          }
          std::vector<Real> v(3 * nnode, 0.0), mass(nnode, 1.0), f1(3 * nnode, 0.0),
              f2(3 * nnode, 0.0);
          const ContactStatus cs = contact_forces(s.ifc, st, s.x, v, mass, 0, 1e-3, f1);
          contact_forces_reference(s.ifc, st, s.x, mass, f2);
          Real fmax = 0;
          for (Real a : f2) fmax = std::max(fmax, std::abs(a));
          EXPECT_GT(cs.active_pairs, 10);
          for (std::size_t i = 0; i < f1.size(); ++i)
            ASSERT_NEAR(f1[i], f2[i], 1e-12 * fmax)
                << i << " seed " << seed << " auto " << automatic << " type " << int(type);
        }
}

// Forces (with friction and history over several cycles) are bitwise identical on 1 and 2
// OpenMP threads.
TEST(ContactForces, DeterministicAcrossThreadCounts) {
  auto run = [](int threads) {
    omp_set_num_threads(threads);
    Soup s = random_soup(42, 1500, 500, ContactType::surface_to_surface, true);
    s.ifc.p.fs = 0.3;
    s.ifc.p.fd = 0.2;
    s.ifc.p.dc = 1.0;
    const std::size_t nnode = s.x.size() / 3;
    ContactState st = init_state(s.ifc, nnode, s.x);
    std::vector<Real> v(3 * nnode), mass(nnode, 1.0), f(3 * nnode);
    std::mt19937 rng(5);
    std::uniform_real_distribution<Real> u(-1, 1);
    for (auto& a : v) a = u(rng);
    std::vector<Real> all;
    for (int n = 0; n < 5; ++n) {
      update_search(s.ifc, st, s.x, n);
      std::fill(f.begin(), f.end(), 0.0);
      contact_forces(s.ifc, st, s.x, v, mass, n * 1e-3, 1e-3, f);
      all.insert(all.end(), f.begin(), f.end());
      for (std::size_t i = 0; i < s.x.size(); ++i) s.x[i] += 1e-3 * v[i];
    }
    all.push_back(st.e_interface.result());
    all.push_back(st.e_friction.result());
    return all;
  };
  const auto a = run(1), b = run(2);
  omp_set_num_threads(1);
  ASSERT_EQ(a.size(), b.size());
  EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(Real)), 0);
  Real fmax = 0;
  for (Real q : a) fmax = std::max(fmax, std::abs(q));
  EXPECT_GT(fmax, 0.0);
}

// SOFT=0: solid face k = SLSFAC SF K A^2 / V, shell segment k = SLSFAC SF K A / min diagonal;
// SOFT=1: k = max(SOFT=0 k, SOFSCL 0.5 min(m_node, m_segment nodes) / dt^2).
TEST(ContactStiffness, Soft0AndSoft1Formulas) {
  // unit-ish hexahedron 2 x 2 x 2 (two of them side by side: 10 exterior faces)
  std::vector<Real> x;
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 3; ++i) x.insert(x.end(), {2.0 * i, 2.0 * j, 2.0 * k});
  auto id = [](int i, int j, int k) { return static_cast<LocalId>(i + 3 * (j + 2 * k)); };
  std::vector<std::array<LocalId, 8>> hex;
  for (int i = 0; i < 2; ++i)
    hex.push_back({id(i, 0, 0), id(i + 1, 0, 0), id(i + 1, 1, 0), id(i, 1, 0), id(i, 0, 1),
                   id(i + 1, 0, 1), id(i + 1, 1, 1), id(i, 1, 1)});
  const Real K = 1e3;
  Surface hs = surface_from_hex_exterior(hex, std::vector<Real>{K}, x);
  ASSERT_EQ(hs.size(), 10u);
  for (std::size_t e = 0; e < hs.size(); ++e) {
    EXPECT_NEAR(hs.k0[e], K * 16.0 / 8.0, 1e-9);
    EXPECT_NEAR(hs.area0[e], 4.0, 1e-12);
    // outward: the normal points away from the owning element's centre (1,1,1) or (3,1,1)
    Real c[3] = {0, 0, 0};
    for (LocalId n : hs.seg[e])
      for (int i = 0; i < 3; ++i) c[i] += 0.25 * x[3 * n + i];
    const Projection pr = project(hs.seg[e], x, c);
    const Real d[3] = {c[0] - (c[0] < 2 ? 1.0 : 3.0), c[1] - 1, c[2] - 1};
    EXPECT_GT(pr.normal[0] * d[0] + pr.normal[1] * d[1] + pr.normal[2] * d[2], 0.5) << e;
  }
  EXPECT_NEAR(solid_face_stiffness(0.1, 2.0, K, 4, 8), 0.1 * 2 * K * 16 / 8, 1e-9);
  // shell 2 x 1: A = 2, diagonals sqrt(5)
  std::vector<Real> xs = {0, 0, 0, 2, 0, 0, 2, 1, 0, 0, 1, 0, 0.5, 0.5, -0.01};
  std::vector<Segment> sh = {{0, 1, 2, 3}};
  Surface ss = surface_from_shells(sh, std::vector<Real>{0.0}, std::vector<Real>{K}, xs);
  EXPECT_NEAR(ss.k0[0], K * 2 / std::sqrt(5.0), 1e-9);
  // pair stiffness, SOFT=0 and SOFT=1 (both branches of the max)
  Interface ifc;
  ifc.p.automatic = false;
  ifc.p.slsfac = 0.1;
  ifc.p.sfm = 1.5;
  ifc.main = ss;
  ifc.secondary_nodes = {4};
  ContactState st = init_state(ifc, 5, xs);
  std::vector<Real> mass = {1, 2, 3, 4, 0.5};
  const Real k0 = 0.1 * 1.5 * K * 2 / std::sqrt(5.0);
  EXPECT_NEAR(pair_stiffness(ifc, st, st.passes[0], 4, 0, mass), k0, 1e-12 * k0);
  ifc.p.soft = 1;
  ifc.p.sofscl = 0.1;
  st.dt_c = 1e-3; // k1 = 0.1 * 0.5 * min(0.5, 1) / 1e-6 = 25000 > k0
  EXPECT_NEAR(pair_stiffness(ifc, st, st.passes[0], 4, 0, mass), 25000.0, 1e-8);
  st.dt_c = 1.0; // k1 = 0.025 < k0
  EXPECT_NEAR(pair_stiffness(ifc, st, st.passes[0], 4, 0, mass), k0, 1e-12 * k0);
  EXPECT_NEAR(soft1_stiffness(0.1, 3.0, 2.0, 0.5), 0.1 * 0.5 * 2.0 / 0.25, 1e-15);
  // the kernel uses dt_c = the step (raised when the step grows)
  std::vector<Real> v(15, 0.0), f(15, 0.0);
  contact_forces(ifc, st, xs, v, mass, 0, 1e-3, f);
  EXPECT_EQ(st.dt_c, 1.0); // never lowered
  // DTSTIF > 0 fixes the step of the SOFT=1 stiffness, whatever the solution step does
  ifc.p.dtstif = 1e-3;
  contact_forces(ifc, st, xs, v, mass, 0, 0.5, f);
  EXPECT_EQ(st.dt_c, 1e-3);
  EXPECT_NEAR(pair_stiffness(ifc, st, st.passes[0], 4, 0, mass), 25000.0, 1e-8);
  contact_forces(ifc, st, xs, v, mass, 0, 1e-5, f);
  EXPECT_EQ(st.dt_c, 1e-3);
}

// Initial penetrations: IGNORE=0 moves the node onto the surface (no force at t = 0);
// IGNORE=1 keeps it and offsets the penetration (no force at t = 0, force k * extra depth when
// it goes deeper, offset shrinks when it moves out).
TEST(ContactInitial, IgnoreZeroAndOne) {
  for (int ignore : {0, 1}) {
    std::vector<Real> x;
    Grid plane = add_grid(x, 2, 2, 0, 0, 2, 2, 0.0);
    const LocalId node = static_cast<LocalId>(x.size() / 3);
    x.insert(x.end(), {0.7, 0.6, -0.02});
    const std::size_t nnode = x.size() / 3;
    Interface ifc;
    ifc.p.automatic = false;
    ifc.p.slsfac = 1;
    ifc.p.ignore = ignore;
    ifc.main = plain_surface(plane.seg, 0.0, 1000);
    ifc.secondary_nodes = {node};
    ContactState st = init_state(ifc, nnode, x);
    const auto rec = initial_penetrations(ifc, st, x);
    ASSERT_EQ(rec.size(), 1u);
    EXPECT_EQ(rec[0].node, node);
    EXPECT_EQ(rec[0].seg, 0);
    EXPECT_NEAR(rec[0].depth, 0.02, 1e-15);
    std::vector<Real> v(3 * nnode, 0.0), mass(nnode, 1.0), f(3 * nnode, 0.0);
    contact_forces(ifc, st, x, v, mass, 0, 1e-3, f);
    EXPECT_EQ(f[3 * node + 2], 0.0);
    if (ignore == 0) {
      EXPECT_NEAR(x[3 * node + 2], 0.0, 1e-15);
    } else {
      EXPECT_EQ(x[3 * node + 2], -0.02);
      x[3 * node + 2] = -0.03;
      std::fill(f.begin(), f.end(), 0.0);
      contact_forces(ifc, st, x, v, mass, 0, 1e-3, f);
      EXPECT_NEAR(f[3 * node + 2], 1000 * 0.01, 1e-9);
      x[3 * node + 2] = -0.005; // moves out: offset becomes 0.005
      contact_forces(ifc, st, x, v, mass, 0, 1e-3, f);
      x[3 * node + 2] = -0.015;
      std::fill(f.begin(), f.end(), 0.0);
      contact_forces(ifc, st, x, v, mass, 0, 1e-3, f);
      EXPECT_NEAR(f[3 * node + 2], 1000 * 0.01, 1e-9);
    }
  }
}

// A solid face's maximum penetration is a share (0.4, automatic) of the element's thickness
// behind it (V / A: 0.2 for a 10 x 10 x 0.2 brick's broad faces), not of the face's size (10):
// in a stack of thin solid layers an initially penetrating node 0.05 deep is moved onto the
// surface, one in the layer's middle (0.1 from either face) is not taken at all. The face's depth
// is V / A for each of the brick's faces.
TEST(ContactInitial, ThinSolidLayerReleasesAtItsThickness) {
  std::vector<Real> x = {0, 0, 0,   10, 0, 0,   10, 10, 0,   0, 10, 0,
                         0, 0, 0.2, 10, 0, 0.2, 10, 10, 0.2, 0, 10, 0.2};
  const std::array<LocalId, 8> hex{0, 1, 2, 3, 4, 5, 6, 7};
  const std::vector<Real> bulk{1000.0};
  const Surface s = surface_from_hex_exterior(std::span(&hex, 1), bulk, x);
  ASSERT_EQ(s.depth0.size(), 6u);
  for (std::size_t e = 0; e < 6; ++e) {
    const Real expect = 20.0 / s.area0[e]; // V / A
    EXPECT_NEAR(s.depth0[e], expect, 1e-12 * expect) << e;
  }
  for (const auto& [depth, moved] :
       std::vector<std::pair<Real, bool>>{{0.05, true}, {0.1, false}}) {
    std::vector<Real> xs = x;
    const auto node = static_cast<LocalId>(xs.size() / 3);
    xs.insert(xs.end(), {4.0, 6.0, 0.2 - depth}); // under the top face, inside the layer
    Interface ifc;
    ifc.p.automatic = true;
    ifc.p.slsfac = 1;
    ifc.p.ignore = 0;
    ifc.main = s;
    ifc.secondary_nodes = {node};
    ContactState st = init_state(ifc, xs.size() / 3, xs);
    const auto rec = initial_penetrations(ifc, st, xs);
    if (moved) {
      ASSERT_EQ(rec.size(), 1u) << depth;
      EXPECT_NEAR(xs[3 * node + 2], 0.2, 1e-12) << depth; // onto the top face
    } else {
      EXPECT_TRUE(rec.empty()) << depth;
      EXPECT_EQ(xs[3 * node + 2], 0.2 - depth);
    }
  }
}

// Blow-up: a penetration that jumps by more than half the segment size in one cycle is
// reported (status not ok, interface pass and node); an automatic shell contact releases a
// node deeper than PENMAX (0.4) * thickness with a warning record.
TEST(ContactStatus, BlowUpAndRelease) {
  std::vector<Real> x;
  Grid plane = add_grid(x, 2, 2, 0, 0, 2, 2, 0.0);
  const LocalId node = static_cast<LocalId>(x.size() / 3);
  x.insert(x.end(), {0.7, 0.6, -0.01});
  const std::size_t nnode = x.size() / 3;
  Interface ifc;
  ifc.p.automatic = false;
  ifc.p.slsfac = 1;
  ifc.main = plain_surface(plane.seg, 0.0, 1000);
  ifc.secondary_nodes = {node};
  ContactState st = init_state(ifc, nnode, x);
  std::vector<Real> v(3 * nnode, 0.0), mass(nnode, 1.0), f(3 * nnode, 0.0);
  EXPECT_TRUE(contact_forces(ifc, st, x, v, mass, 0, 1e-3, f).ok);
  x[3 * node + 2] = -0.7; // jump of 0.69 > 0.5 * sqrt(area0 = 1)
  const ContactStatus s = contact_forces(ifc, st, x, v, mass, 0, 1e-3, f);
  EXPECT_FALSE(s.ok);
  ASSERT_EQ(s.blowup.size(), 1u);
  EXPECT_EQ(s.blowup[0].node, node);
  EXPECT_NEAR(s.blowup[0].depth, 0.7, 1e-12);

  // automatic shells, thickness 0.1: release depth 0.4 * 0.1 = 0.04
  Interface a;
  a.p.automatic = true;
  a.p.slsfac = 1;
  x[3 * node + 2] = 0.04; // 0.01 penetration of the half thickness 0.05
  a.main = plain_surface(plane.seg, 0.1, 1000);
  a.secondary_nodes = {node};
  ContactState sa = init_state(a, nnode, x);
  EXPECT_NEAR(release_depth(a, sa.passes[0], 0), 0.04, 1e-15);
  std::fill(f.begin(), f.end(), 0.0);
  ContactStatus s1 = contact_forces(a, sa, x, v, mass, 0, 1e-3, f);
  EXPECT_TRUE(s1.ok);
  EXPECT_NEAR(f[3 * node + 2], 1000 * 0.01, 1e-9);
  x[3 * node + 2] = 0.0; // penetration 0.05 > 0.04: released
  std::fill(f.begin(), f.end(), 0.0);
  ContactStatus s2 = contact_forces(a, sa, x, v, mass, 0, 1e-3, f);
  EXPECT_TRUE(s2.ok);
  ASSERT_EQ(s2.released.size(), 1u);
  EXPECT_EQ(s2.released[0].node, node);
  EXPECT_EQ(f[3 * node + 2], 0.0);
  // birth/death: no force outside [birth, death]
  a.p.death = 1.0;
  x[3 * node + 2] = 0.04;
  ContactState sb = init_state(a, nnode, x);
  std::fill(f.begin(), f.end(), 0.0);
  contact_forces(a, sb, x, v, mass, 2.0, 1e-3, f);
  EXPECT_EQ(f[3 * node + 2], 0.0);
}

// A node dropped on the top face of a hex block (exterior faces, outward normals) is pushed up
// with the solid face stiffness SLSFAC K A^2 / V.
TEST(ContactForces, NodeOnHexBlockFace) {
  std::vector<Real> x = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1,   0,   0,   0,
                         1, 1, 0, 1, 1, 1, 1, 0, 1, 1, 0.4, 0.3, 0.99};
  std::vector<std::array<LocalId, 8>> hex = {{0, 1, 2, 3, 4, 5, 6, 7}};
  Interface ifc;
  ifc.p.automatic = false;
  ifc.main = surface_from_hex_exterior(hex, std::vector<Real>{2e3}, x);
  ifc.secondary_nodes = {8};
  ContactState st = init_state(ifc, 9, x);
  std::vector<Real> v(27, 0.0), mass(9, 1.0), f(27, 0.0);
  contact_forces(ifc, st, x, v, mass, 0, 1e-3, f);
  EXPECT_NEAR(f[3 * 8 + 2], 0.1 * 2e3 * 1 * 1 / 1 * 0.01, 1e-9);
  EXPECT_NEAR(f[3 * 8 + 0], 0.0, 1e-12);
  EXPECT_NEAR(f[3 * 4 + 2] + f[3 * 5 + 2] + f[3 * 6 + 2] + f[3 * 7 + 2], -f[3 * 8 + 2], 1e-12);
  // the top face switched off (eroded element): the node is now pushed out through the nearest
  // face it still penetrates
  ifc.main.active.assign(ifc.main.size(), 1);
  for (std::size_t e = 0; e < ifc.main.size(); ++e)
    if (ifc.main.seg[e][0] >= 4 && ifc.main.seg[e][1] >= 4 && ifc.main.seg[e][2] >= 4)
      ifc.main.active[e] = 0;
  std::fill(f.begin(), f.end(), 0.0);
  contact_forces(ifc, st, x, v, mass, 0, 1e-3, f);
  // y = 0 (0.3 deep; x = 0: 0.4, x = 1: 0.6, ...) -> pushed out along -y with k * 0.3
  EXPECT_NEAR(f[3 * 8 + 2], 0.0, 1e-12);
  EXPECT_NEAR(f[3 * 8 + 1], -0.1 * 2e3 * 0.3, 1e-9);
}

// Search scheduling: every search_interval cycles, and (adaptive) as soon as an interface node
// moved more than half the capture margin since the last search.
// The solver's schedule (largest_predicted_move at the end of a cycle, search at the next one)
// searches no later than update_search, which measures the move after it happened, and at most
// a couple of cycles earlier for a node moving steadily: a node moving 0.013 per cycle towards a
// plane, margin 0.1 (search when the move exceeds 0.05): measured at cycle 4 (0.052), predicted
// at the end of cycle 2 (0.026 + 2 * 0.013 = 0.052) for cycle 3.
TEST(ContactSearch, PredictedScheduleSearchesNoLaterThanMeasured) {
  std::vector<Real> x;
  Grid plane = add_grid(x, 4, 4, 0, 0, 4, 4, 0.0);
  const LocalId node = static_cast<LocalId>(x.size() / 3);
  x.insert(x.end(), {1.5, 1.5, 0.9});
  Interface ifc;
  ifc.p.search_margin = 0.1;
  ifc.p.search_interval = 0;
  ifc.main = plain_surface(plane.seg, 0.0, 1.0);
  ifc.secondary_nodes = {node};
  ContactState measured = init_state(ifc, x.size() / 3, x);
  ContactState predicted = measured;
  std::vector<Real> v(x.size(), 0.0);
  const Real dt = 1.0, speed = 0.013;
  v[3 * node + 2] = -speed;
  // At rest nothing is scheduled.
  schedule_search(ifc, predicted,
                  largest_predicted_move(predicted, x, std::vector<Real>(x.size(), 0.0), dt));
  EXPECT_EQ(predicted.search_due_next, 0);
  std::vector<int> at_measured, at_predicted;
  for (int c = 1; c <= 60; ++c) {
    x[3 * node + 2] = 0.9 - speed * c;
    if (update_search(ifc, measured, x, c)) at_measured.push_back(c);
    if (search_if_due(ifc, predicted, x, c)) at_predicted.push_back(c);
    schedule_search(ifc, predicted, largest_predicted_move(predicted, x, v, dt));
  }
  ASSERT_FALSE(at_measured.empty());
  EXPECT_EQ(at_measured.front(), 4);
  EXPECT_EQ(at_predicted.front(), 3);
  // Measured every 4 cycles (4, 8, ..., 60), predicted every 3 (3, 6, ..., 60): never a move
  // above half the margin between searches.
  EXPECT_EQ(at_measured.size(), 15u);
  ASSERT_EQ(at_predicted.size(), 20u);
  for (std::size_t k = 1; k < at_predicted.size(); ++k)
    EXPECT_EQ(at_predicted[k] - at_predicted[k - 1], 3) << k;
  // Without adaptive search only the interval counts.
  ifc.p.adaptive_search = false;
  schedule_search(ifc, predicted, 1e9);
  EXPECT_EQ(predicted.search_due_next, 0);
}

TEST(ContactSearch, SearchSchedule) {
  std::vector<Real> x;
  Grid plane = add_grid(x, 4, 4, 0, 0, 4, 4, 0.0);
  const LocalId node = static_cast<LocalId>(x.size() / 3);
  x.insert(x.end(), {1.5, 1.5, 0.5});
  Interface ifc;
  ifc.p.search_margin = 0.1;
  ifc.p.search_interval = 0;
  ifc.main = plain_surface(plane.seg, 0.0, 1.0);
  ifc.secondary_nodes = {node};
  ContactState st = init_state(ifc, x.size() / 3, x);
  EXPECT_EQ(st.n_searches, 1);
  EXPECT_TRUE(st.passes[0].cand_seg.empty()); // 0.5 above the plane: out of reach
  x[3 * node + 2] = 0.46;                     // moved 0.04 < margin / 2
  EXPECT_FALSE(update_search(ifc, st, x, 1));
  x[3 * node + 2] = 0.06; // moved 0.44 > 0.05: search, the node is now within reach
  EXPECT_TRUE(update_search(ifc, st, x, 2));
  EXPECT_EQ(st.passes[0].cand_seg.size(), 1u);
  ifc.p.adaptive_search = false;
  ifc.p.search_interval = 10;
  x[3 * node + 2] = 0.5;
  for (int c = 3; c < 12; ++c) EXPECT_FALSE(update_search(ifc, st, x, c)) << c;
  EXPECT_TRUE(update_search(ifc, st, x, 12));
  EXPECT_TRUE(st.passes[0].cand_seg.empty());
}

// Degenerate hexahedra (two wedges filling a 2 x 2 x 2 cube): the shared diagonal face is
// interior, the collapsed faces become triangles, the exterior is the cube's surface (area 24)
// with outward normals.
TEST(ContactStiffness, HexExteriorOfWedges) {
  std::vector<Real> x;
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 2; ++i) {
        const int ii = j == 0 ? i : 1 - i; // LS-DYNA order: 0 (0,0) 1 (1,0) 2 (1,1) 3 (0,1)
        x.insert(x.end(), {2.0 * ii, 2.0 * j, 2.0 * k});
      }
  std::vector<std::array<LocalId, 8>> hex = {{0, 1, 2, 2, 4, 5, 6, 6}, {0, 2, 3, 3, 4, 6, 7, 7}};
  Surface s = surface_from_hex_exterior(hex, std::vector<Real>{1.0}, x);
  ASSERT_EQ(s.size(), 8u);
  Real area = 0;
  int triangles = 0;
  for (std::size_t e = 0; e < s.size(); ++e) {
    area += s.area0[e];
    triangles += s.seg[e][2] == s.seg[e][3];
    Real c[3] = {0, 0, 0};
    const int nn = s.seg[e][2] == s.seg[e][3] ? 3 : 4;
    for (int a = 0; a < nn; ++a)
      for (int i = 0; i < 3; ++i) c[i] += x[3 * s.seg[e][a] + i] / nn;
    const Projection pr = project(s.seg[e], x, c);
    EXPECT_GT(pr.normal[0] * (c[0] - 1) + pr.normal[1] * (c[1] - 1) + pr.normal[2] * (c[2] - 1),
              0.5)
        << e;
  }
  EXPECT_EQ(triangles, 4);
  EXPECT_NEAR(area, 24.0, 1e-12);
}

// offset_sudden (on in the solver): a contact that starts deeper than the node's approach in
// one step could explain is held at that depth (no kick), while a node that arrives at its
// approach speed is pushed back with the full penalty force. The hex of NodeOnHexBlockFace:
// the node sits 0.01 below the top face.
TEST(ContactForces, SuddenDeepContactIsHeldAtItsDepth) {
  std::vector<Real> x = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1,   0,   0,   0,
                         1, 1, 0, 1, 1, 1, 1, 0, 1, 1, 0.4, 0.3, 0.99};
  std::vector<std::array<LocalId, 8>> hex = {{0, 1, 2, 3, 4, 5, 6, 7}};
  Interface ifc;
  ifc.p.automatic = false;
  ifc.p.offset_sudden = true;
  ifc.main = surface_from_hex_exterior(hex, std::vector<Real>{2e3}, x);
  ifc.secondary_nodes = {8};
  ContactState st = init_state(ifc, 9, x);
  std::vector<Real> v(27, 0.0), mass(9, 1.0), f(27, 0.0);
  const Real dt = 1e-3, k = 0.1 * 2e3; // slsfac K A^2 / V, A = V = 1
  // at rest, 0.01 deep: not reachable in one step -> held (no force)
  contact_forces(ifc, st, x, v, mass, 0, dt, f);
  EXPECT_EQ(f[3 * 8 + 2], 0.0);
  // it goes 0.002 deeper: the force resists only that
  x[3 * 8 + 2] = 0.988;
  std::fill(f.begin(), f.end(), 0.0);
  contact_forces(ifc, st, x, v, mass, 0, dt, f);
  EXPECT_NEAR(f[3 * 8 + 2], k * 0.002, 1e-9);
  // a fresh state, the node approaching at 10 (10 * 2 dt = 0.02 > 0.01): full force
  x[3 * 8 + 2] = 0.99;
  ContactState st2 = init_state(ifc, 9, x);
  v[3 * 8 + 2] = -10;
  std::fill(f.begin(), f.end(), 0.0);
  contact_forces(ifc, st2, x, v, mass, 0, dt, f);
  EXPECT_NEAR(f[3 * 8 + 2], k * 0.01, 1e-9);
}
