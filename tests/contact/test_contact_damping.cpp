// VDC: viscous normal damping of the penalty contact. A point mass hits a fixed plane; the
// normal force is max(k p - c v_n, 0) with c = VDC/100 2 m w (m = min(m_node, m_segment),
// w = sqrt(k (m_node + m_segment)/(m_node m_segment))). Reference: the same one-degree-of-
// freedom law integrated with RK4 at 1/100 of the contact step (error ~1e-12). The contact run
// uses central differences at T/2000: the exit speed agrees to O(dt/T) from the detection of
// contact start and end within one step (3e-3 allows 3 steps' worth), and the energy lost by
// the mass is the interface (sliding) energy left at the end: the damping work is dissipated
// there (2e-3 of the kinetic energy, as the undamped rebound test).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "contact/contact.hpp"

using namespace parcae;
using namespace parcae::contact;

namespace {

/// Exit speed of m x'' = max(-k x - c x', 0) (x < 0: penetration), entering at -v0.
Real reference_exit_speed(Real m, Real k, Real c, Real v0) {
  const Real w = std::sqrt(k / m);
  const Real h = 2 * std::numbers::pi / w / 200000;
  Real x = 0, v = -v0;
  auto acc = [&](Real xx, Real vv) { return xx < 0 ? std::max(-k * xx - c * vv, 0.0) / m : 0.0; };
  for (int n = 0; n < 10000000; ++n) {
    const Real k1x = v, k1v = acc(x, v);
    const Real k2x = v + 0.5 * h * k1v, k2v = acc(x + 0.5 * h * k1x, v + 0.5 * h * k1v);
    const Real k3x = v + 0.5 * h * k2v, k3v = acc(x + 0.5 * h * k2x, v + 0.5 * h * k2v);
    const Real k4x = v + h * k3v, k4v = acc(x + h * k3x, v + h * k3v);
    x += h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x);
    v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v);
    if (x >= 0 && v > 0) return v;
  }
  return -1;
}

} // namespace

TEST(ContactDamping, ReboundSpeedFollowsTheDampedSpring) {
  for (const Real vdc : {0.0, 10.0, 20.0, 50.0}) {
    std::vector<Real> x;
    for (int j = 0; j <= 1; ++j)
      for (int i = 0; i <= 1; ++i) x.insert(x.end(), {-1.0 + 2 * i, -1.0 + 2 * j, 0.0});
    const LocalId node = 4;
    x.insert(x.end(), {0.13, 0.21, 0.01});
    const std::size_t nnode = 5;
    const Real m = 2.0, k = 5e5, v0 = 1.5, m_plane = 1e9;
    Interface ifc;
    ifc.p.type = ContactType::nodes_to_surface;
    ifc.p.automatic = false;
    ifc.p.slsfac = 1;
    ifc.p.vdc = vdc;
    ifc.main.seg = {{0, 1, 3, 2}};
    ifc.main.thickness = {0.0};
    ifc.main.k0 = {k};
    ifc.main.area0 = {4.0};
    ifc.secondary_nodes = {node};
    std::vector<Real> v(3 * nnode, 0.0), mass(nnode, m_plane), f(3 * nnode);
    mass[node] = m;
    v[3 * node + 2] = -v0;
    ContactState st = init_state(ifc, nnode, x);
    const Real w = std::sqrt(k / m), dt = 2 * std::numbers::pi / w / 2000;
    // the damping constant the law gives for this pair (m_segment = m_plane: shape weights sum
    // to 1)
    const Real c =
        vdc / 100 * 2 * std::min(m, m_plane) * std::sqrt(k * (m + m_plane) / (m * m_plane));
    Real t = 0;
    bool in = false, out = false;
    for (int n = 0; n < 400000 && !out; ++n) {
      update_search(ifc, st, x, n);
      std::fill(f.begin(), f.end(), 0.0);
      ASSERT_TRUE(contact_forces(ifc, st, x, v, mass, t, dt, f).ok);
      EXPECT_GE(f[3 * node + 2], 0.0); // never pulls the node in
      if (f[3 * node + 2] != 0) in = true;
      if (in && x[3 * node + 2] > 0 && v[3 * node + 2] > 0) out = true;
      v[3 * node + 2] += dt * f[3 * node + 2] / m;
      x[3 * node + 2] += dt * v[3 * node + 2];
      t += dt;
    }
    ASSERT_TRUE(out) << vdc;
    const Real expect = reference_exit_speed(m, k, c, v0);
    ASSERT_GT(expect, 0.0);
    EXPECT_NEAR(v[3 * node + 2], expect, 3e-3 * v0) << vdc;
    if (vdc > 0) EXPECT_LT(expect, (1 - vdc / 100) * v0) << vdc; // damping really acted
    const Real ke0 = 0.5 * m * v0 * v0;
    const Real lost = ke0 - 0.5 * m * v[3 * node + 2] * v[3 * node + 2];
    EXPECT_NEAR(st.e_interface.result(), lost, 2e-3 * ke0) << vdc;
  }
}
