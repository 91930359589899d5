// Tiebreak contact (*CONTACT_AUTOMATIC_SURFACE_TO_SURFACE_TIEBREAK): nodes initially in contact
// are tied; a tie is a penalty spring (the pair stiffness k, normal and tangential) to a
// material point of the segment, so a rigid offset d of one plate against the other gives the
// closed-form forces -2 k d on each of its nodes for a normal offset (its own tie and the
// reaction of the other plate's tie on it), -8 k d on the plate in all for any offset, with no
// moment (the tie conserves angular momentum); OPTION 2 fails when (sigma_n/NFLS)^2 +
// (sigma_s/SFLS)^2 >= 1 (tension only) with sigma = k |d| / (the node's share of the area);
// OPTION 1 never fails (NFLS = SFLS = 0 as in the paperboard deck) and also ties nodes that come
// into contact later, at the contact surface; OPTION 3 is 1 with the failure of 2.
#include <gtest/gtest.h>

#include <array>
#include <cmath>

#include "contact/contact.hpp"

using namespace parcae;
using namespace parcae::contact;

namespace {

constexpr Real kK = 1000.0; // k0 of every segment (slsfac = 1, sf = 1: the pair stiffness)
constexpr Real kT = 0.1;    // shell thickness: plates 0.1 apart touch (half + half)

// Two unit squares (one segment each): the lower (main) at z = 0, the upper (secondary) at z.
struct Plates {
  std::vector<Real> x;
  Interface ifc;
  std::size_t nnode = 8;
  std::vector<LocalId> lower{0, 1, 2, 3}, upper{4, 5, 6, 7};
};

Plates plates(Real z, int option, Real nfls = 0, Real sfls = 0) {
  Plates p;
  const Real corners[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  for (Real h : {0.0, z})
    for (const auto& c : corners) p.x.insert(p.x.end(), {c[0], c[1], h});
  auto surface = [](Segment s) {
    Surface f;
    f.seg = {s};
    f.thickness = {kT};
    f.k0 = {kK};
    f.area0 = {1.0};
    return f;
  };
  p.ifc.p.type = ContactType::surface_to_surface;
  p.ifc.p.automatic = true;
  p.ifc.p.slsfac = 1;
  p.ifc.p.tiebreak = option;
  p.ifc.p.nfls = nfls;
  p.ifc.p.sfls = sfls;
  p.ifc.main = surface({0, 1, 2, 3});
  p.ifc.secondary = surface({4, 5, 6, 7});
  return p;
}

// Forces for the upper plate moved rigidly by d from where it is (velocities zero).
std::vector<Real> forces_after(Plates& p, ContactState& st, const Real (&d)[3],
                               ContactStatus* status = nullptr) {
  for (LocalId n : p.upper)
    for (int i = 0; i < 3; ++i) p.x[3 * n + i] += d[i];
  std::vector<Real> v(3 * p.nnode, 0.0), mass(p.nnode, 1.0), f(3 * p.nnode, 0.0);
  const ContactStatus s = contact_forces(p.ifc, st, p.x, v, mass, 0.0, 1e-4, f);
  if (status) *status = s;
  return f;
}

int tied(const ContactState& st) {
  int n = 0;
  for (const Pass& ps : st.passes)
    for (std::uint8_t s : ps.tie_state) n += s == 1;
  return n;
}

} // namespace

// Sum of the forces on a plate's nodes, and the total moment of all forces about the origin.
std::array<Real, 3> sum_on(const Plates& p, const std::vector<Real>& f,
                           const std::vector<LocalId>& nodes) {
  std::array<Real, 3> r{0, 0, 0};
  for (LocalId n : nodes)
    for (int i = 0; i < 3; ++i) r[i] += f[3 * n + i];
  (void)p;
  return r;
}
std::array<Real, 3> moment(const Plates& p, const std::vector<Real>& f) {
  std::array<Real, 3> m{0, 0, 0};
  for (std::size_t n = 0; n < p.nnode; ++n) {
    const Real* r = &p.x[3 * n];
    const Real* g = &f[3 * n];
    m[0] += r[1] * g[2] - r[2] * g[1];
    m[1] += r[2] * g[0] - r[0] * g[2];
    m[2] += r[0] * g[1] - r[1] * g[0];
  }
  return m;
}

TEST(Tiebreak, InitialTiesGiveTheClosedFormSpringForce) {
  // Touching plates: all 8 nodes tied (4 per pass). A normal offset d of the upper plate: -2 k d
  // on each upper node, +2 k d on each lower node (round-off: 1e-12 relative).
  {
    Plates p = plates(kT, 2, /*nfls=*/1e9, /*sfls=*/1e9);
    ContactState st = init_state(p.ifc, p.nnode, p.x);
    EXPECT_EQ(tie_initial_contacts(p.ifc, st, p.x), 8u);
    for (const Pass& ps : st.passes)
      for (Real a : ps.node_area) EXPECT_DOUBLE_EQ(a, 0.25);
    const Real d[3] = {0.0, 0.0, 0.004};
    const std::vector<Real> f = forces_after(p, st, d);
    for (LocalId n : p.upper)
      for (int i = 0; i < 3; ++i) EXPECT_NEAR(f[3 * n + i], -2 * kK * d[i], 1e-12 * kK) << n;
    for (LocalId n : p.lower)
      for (int i = 0; i < 3; ++i) EXPECT_NEAR(f[3 * n + i], 2 * kK * d[i], 1e-12 * kK) << n;
  }
  // Any offset (here with a tangential part): each plate takes -/+ 4 x 2 k d in all, and the
  // forces have no moment (the tie's energy 1/2 k |q - p - gap n|^2 is invariant under rigid
  // rotations: its corner forces include the derivative of the normal, so angular momentum is
  // conserved); back at the tie points there is no force.
  Plates p = plates(kT, 2, 1e9, 1e9);
  ContactState st = init_state(p.ifc, p.nnode, p.x);
  ASSERT_EQ(tie_initial_contacts(p.ifc, st, p.x), 8u);
  const Real d[3] = {0.003, -0.002, 0.004};
  const std::vector<Real> f = forces_after(p, st, d);
  const auto fu = sum_on(p, f, p.upper), fl = sum_on(p, f, p.lower);
  const auto m = moment(p, f);
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(fu[i], -8 * kK * d[i], 1e-12 * kK) << i;
    EXPECT_NEAR(fl[i], 8 * kK * d[i], 1e-12 * kK) << i;
    EXPECT_NEAR(m[i], 0.0, 1e-12 * kK) << i;
  }
  EXPECT_EQ(tied(st), 8);
  const Real back[3] = {-d[0], -d[1], -d[2]};
  const std::vector<Real> f0 = forces_after(p, st, back);
  for (Real v : f0) EXPECT_NEAR(v, 0.0, 1e-12 * kK);
}

TEST(Tiebreak, Option2FailsAtTheStressCriterion) {
  // sigma = k |d| / A per tie (A = 1/4). NFLS = 40, SFLS = 20:
  //   normal pull d_z = 0.009 -> sigma_n = 36 (0.81 < 1): tied; 0.011 -> 44 (1.21): fails;
  //   combined d_z = 0.006, d_x = 0.003 -> (24/40)^2 + (12/20)^2 = 0.72: tied;
  //   d_z = 0.008, d_x = 0.004 -> 0.64 + 0.64 = 1.28: fails;
  //   compression d_z = -0.05 (sigma_n = -200): never a failure (tension only).
  struct Case {
    Real dx, dz;
    bool fails;
  };
  for (const Case c : {Case{0.0, 0.009, false}, Case{0.0, 0.011, true}, Case{0.003, 0.006, false},
                       Case{0.004, 0.008, true}, Case{0.0, -0.05, false}}) {
    SCOPED_TRACE(testing::Message() << "dx " << c.dx << " dz " << c.dz);
    Plates p = plates(kT, 2, 40.0, 20.0);
    ContactState st = init_state(p.ifc, p.nnode, p.x);
    ASSERT_EQ(tie_initial_contacts(p.ifc, st, p.x), 8u);
    ContactStatus s;
    const Real d[3] = {c.dx, 0.0, c.dz};
    const std::vector<Real> f = forces_after(p, st, d, &s);
    if (c.fails) {
      EXPECT_EQ(tied(st), 0);
      EXPECT_EQ(s.ties_failed, 8);
      for (Real v : f) EXPECT_EQ(v, 0.0); // apart: no ordinary contact either
      // a failed tie stays failed, also back in place (ordinary contact from now on)
      const Real back[3] = {-c.dx, 0.0, -c.dz};
      forces_after(p, st, back);
      EXPECT_EQ(tied(st), 0);
    } else {
      EXPECT_EQ(tied(st), 8);
      EXPECT_EQ(s.ties_failed, 0);
      EXPECT_NEAR(sum_on(p, f, p.upper)[2], -8 * kK * c.dz, 1e-12 * kK);
    }
  }
}

TEST(Tiebreak, Option1NeverFailsAndSticksNodesThatComeIntoContact) {
  // The paperboard deck's OPTION 1 with NFLS = SFLS = 0: a pull of 100 x the other case's
  // failure offset leaves every tie in place with the spring force.
  {
    Plates p = plates(kT, 1);
    ContactState st = init_state(p.ifc, p.nnode, p.x);
    ASSERT_EQ(tie_initial_contacts(p.ifc, st, p.x), 8u);
    const Real d[3] = {0.5, 0.0, 1.0};
    const std::vector<Real> f = forces_after(p, st, d);
    EXPECT_EQ(tied(st), 8);
    const auto fu = sum_on(p, f, p.upper);
    EXPECT_NEAR(fu[0], -8 * kK * 0.5, 1e-12 * kK);
    EXPECT_NEAR(fu[2], -8 * kK * 1.0, 1e-12 * kK);
  }
  // Apart at first (gap 0.2: nothing tied); pressed in to a penetration of 0.001 the nodes
  // stick at the contact surface (distance = the thickness 0.1, where the penalty force starts);
  // pulled back to 0.3 above the lower plate they are held by -2 k (0.3 - 0.1) per upper node.
  // OPTION 3 sticks the same way and lets go under the failure stress.
  for (int option : {1, 3}) {
    SCOPED_TRACE(option);
    Plates p = plates(kT + 0.2, option, 1.0, 1.0);
    ContactState st = init_state(p.ifc, p.nnode, p.x);
    EXPECT_EQ(tie_initial_contacts(p.ifc, st, p.x), 0u);
    const Real in[3] = {0.0, 0.0, -0.201};
    const std::vector<Real> fin = forces_after(p, st, in);
    EXPECT_EQ(tied(st), 8);
    for (LocalId n : p.upper) EXPECT_NEAR(fin[3 * n + 2], 2 * kK * 0.001, 1e-9 * kK);
    const Real out[3] = {0.0, 0.0, 0.201};
    ContactStatus s;
    const std::vector<Real> fout = forces_after(p, st, out, &s);
    if (option == 1) {
      EXPECT_EQ(tied(st), 8);
      for (LocalId n : p.upper) EXPECT_NEAR(fout[3 * n + 2], -2 * kK * 0.2, 1e-9 * kK);
    } else { // sigma_n = k 0.2 / 0.25 = 800 >> NFLS = 1
      EXPECT_EQ(tied(st), 0);
      EXPECT_EQ(s.ties_failed, 8);
    }
  }
}

TEST(Tiebreak, TiedPlatesConserveEnergyMomentumAndAngularMomentum) {
  // The two tied squares as free point masses (0.01 each), the upper one thrown with a velocity
  // that stretches, shears and spins the ties: central differences (dt = 1/50 of the period
  // of the stiffest tie mode, sqrt(4 k / m)) must conserve the kinetic + tie energy (the
  // interface energy is minus the ties' work: their stored energy) to O((w dt)^2): measured
  // 0.2 % (the kinetic energy at t^n from the mean half-step velocity), checked to 0.4 %; and
  // momentum and angular momentum to round-off (the tie forces sum to zero and have no
  // moment).
  Plates p = plates(kT, 1);
  ContactState st = init_state(p.ifc, p.nnode, p.x);
  ASSERT_EQ(tie_initial_contacts(p.ifc, st, p.x), 8u);
  const Real m = 0.01, dt = 2 * 3.141592653589793 / std::sqrt(4 * kK / m) / 50;
  std::vector<Real> v(3 * p.nnode, 0.0), mass(p.nnode, m), f(3 * p.nnode);
  for (LocalId n : p.upper) {
    const Real* x = &p.x[3 * n];
    // translation (0.2, -0.1, 0.3) plus a spin 0.5 about z through (0.5, 0.5)
    v[3 * n + 0] = 0.2 - 0.5 * (x[1] - 0.5);
    v[3 * n + 1] = -0.1 + 0.5 * (x[0] - 0.5);
    v[3 * n + 2] = 0.3;
  }
  auto kinetic = [&]() {
    Real e = 0;
    for (Real vi : v) e += 0.5 * m * vi * vi;
    return e;
  };
  auto momenta = [&]() {
    std::array<Real, 6> r{};
    for (std::size_t n = 0; n < p.nnode; ++n) {
      const Real* x = &p.x[3 * n];
      const Real* u = &v[3 * n];
      for (int i = 0; i < 3; ++i) r[i] += m * u[i];
      r[3] += m * (x[1] * u[2] - x[2] * u[1]);
      r[4] += m * (x[2] * u[0] - x[0] * u[2]);
      r[5] += m * (x[0] * u[1] - x[1] * u[0]);
    }
    return r;
  };
  const Real e0 = kinetic();
  const auto p0 = momenta();
  Real worst = 0;
  for (int n = 0; n < 5000; ++n) {
    // x^n known, v^{n-1/2} known: forces at x^n, then v^{n+1/2}, x^{n+1}; the kinetic energy
    // at t^n from the mean of the two half-step velocities
    std::fill(f.begin(), f.end(), 0.0);
    ASSERT_TRUE(contact_forces(p.ifc, st, p.x, v, mass, n * dt, dt, f).ok);
    Real ke_n = 0;
    for (std::size_t a = 0; a < p.nnode; ++a)
      for (int i = 0; i < 3; ++i) {
        const Real v_old = v[3 * a + i];
        v[3 * a + i] += dt * f[3 * a + i] / m;
        p.x[3 * a + i] += dt * v[3 * a + i];
        const Real vm = 0.5 * (v_old + v[3 * a + i]);
        ke_n += 0.5 * m * vm * vm;
      }
    if (n > 0) worst = std::max(worst, std::abs(ke_n + st.e_interface.result() - e0));
  }
  EXPECT_EQ(tied(st), 8);
  EXPECT_LT(worst, 4e-3 * e0) << worst / e0;
  const auto p1 = momenta();
  for (int i = 0; i < 6; ++i) EXPECT_NEAR(p1[i], p0[i], 1e-12) << i;
}
