// Truss kernel (fem/truss.hpp): axial force of a stretched truss (N = E A strain, along the
// truss, equal and opposite at the two nodes), lumped mass rho A L / 2, step L / c, and the 1D
// stress update of *MAT_003 (yield at SIGY, tangent modulus ETAN after yield, kinematic
// hardening with BETA = 0: the elastic range stays 2 SIGY wide on reversal).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "fem/element_family.hpp"

namespace parcae {
namespace {

MaterialParams steel(MaterialKind kind, Real beta = 1.0) {
  MaterialParams m;
  m.kind = kind;
  m.ro = 7.85e-9;
  m.e = 210000.0;
  m.nu = 0.3;
  m.sigy = 250.0;
  m.etan = 2100.0;
  m.ep = m.e * m.etan / (m.e - m.etan);
  m.beta = beta;
  return m;
}

TrussBlock one_truss(Real area) {
  TrussBlock b;
  b.conn = {{0, 1}};
  b.area = {area};
  b.init(1);
  return b;
}

TEST(Truss, AxialForceMassAndStep) {
  const MaterialParams m = steel(MaterialKind::Elastic);
  TrussBlock b = one_truss(2.0);
  // along (3, 4, 0) / 5, length 100 mm
  const std::vector<Real> x0{0, 0, 0, 60, 80, 0};
  b.l0[0] = truss_length(b, 0, x0); // the set-up length (as domain.cpp sets it)
  EXPECT_DOUBLE_EQ(b.l0[0], 100.0);
  const auto lm = TrussFamily::lump_mass({}, m, b, 0, x0, 1.0);
  EXPECT_DOUBLE_EQ(lm.mass[0], 0.5 * m.ro * 2.0 * 100.0);
  EXPECT_DOUBLE_EQ(lm.mass[1], lm.mass[0]);
  EXPECT_NEAR(TrussFamily::initial_dt({}, m, b, 0, x0), 100.0 / std::sqrt(m.e / m.ro), 1e-15);
  // *SECTION_BEAM NSM: mass per unit length added, (rho A + NSM) L / 2 per node
  const auto lm_nsm = TrussFamily::lump_mass({1e-8}, m, b, 0, x0, 1.0);
  EXPECT_DOUBLE_EQ(lm_nsm.mass[1], 0.5 * (m.ro * 2.0 + 1e-8) * 100.0);
  // stretch by 0.1 mm along the truss in one step of dt with the velocity that does it
  const Real dt = 1e-6, dl = 0.1;
  const std::vector<Real> v{0, 0, 0, 0.6 * dl / dt, 0.8 * dl / dt, 0};
  std::vector<Real> x = x0;
  for (int i = 0; i < 3; ++i) x[3 + i] += dt * v[3 + i];
  std::vector<Real> f(6);
  const TrussPassResult r = compute_truss_forces(m, b, 0, 1, x, v, dt, f);
  // strain increment dL / L_mid (log strain to second order: 1e-3 / 1.0005)
  const Real n = m.e * dl / 100.05 * 2.0;
  EXPECT_NEAR(b.force[0], n, 1e-9 * n);
  // node 2 is pulled back (the solver subtracts corner forces): corner 2 = +N e
  EXPECT_NEAR(f[3], 0.6 * n, 1e-9 * n);
  EXPECT_NEAR(f[4], 0.8 * n, 1e-9 * n);
  for (int i = 0; i < 3; ++i) EXPECT_DOUBLE_EQ(f[i], -f[3 + i]);
  EXPECT_NEAR(b.e_int[0], 0.5 * n * dl, 1e-9 * n * dl); // trapezoid: linear from 0
  EXPECT_NEAR(r.min_dt, 100.1 / std::sqrt(m.e / m.ro), 1e-12);
  EXPECT_EQ(r.min_dt_element, 0);
}

TEST(Truss, PlasticKinematicOneDimensional) {
  // Isotropic (BETA 1): after yield the stress follows SIGY + ETAN (eps - SIGY/E).
  const MaterialParams iso = steel(MaterialKind::PlasticKinematic, 1.0);
  Real sig = 0, back = 0, ep = 0;
  const Real deps = 1e-5;
  Real eps = 0;
  for (int k = 0; k < 500; ++k) {
    update_stress_truss(iso, deps, 1e-6, sig, back, ep);
    eps += deps;
  }
  const Real ey = iso.sigy / iso.e;
  EXPECT_NEAR(sig, iso.sigy + iso.etan * (eps - ey), 1e-6 * iso.sigy);
  EXPECT_NEAR(ep, (eps - ey) - (sig - iso.sigy) / iso.e, 1e-9);
  // Kinematic (BETA 0): unload and reload in compression: reverse yield at sig_max - 2 SIGY.
  const MaterialParams kin = steel(MaterialKind::PlasticKinematic, 0.0);
  sig = back = ep = 0;
  for (int k = 0; k < 500; ++k) update_stress_truss(kin, deps, 1e-6, sig, back, ep);
  const Real sig_max = sig;
  Real prev = sig;
  Real reverse = 0;
  for (int k = 0; k < 2000; ++k) {
    update_stress_truss(kin, -deps, 1e-6, sig, back, ep);
    // elastic steps change the stress by E deps; the first plastic one by less
    if (reverse == 0 && prev - sig < 0.99 * kin.e * deps) reverse = prev;
    prev = sig;
  }
  EXPECT_NEAR(reverse, sig_max - 2 * kin.sigy, kin.e * deps);
  // *MAT_024 with a yield curve (250 MPa at 0, 450 MPa at 0.1 plastic strain): the stress
  // stays on the curve at the plastic strain reached (1e-9 of the stress: the return's Newton
  // tolerance), 0.4 % strain in 400 steps.
  MaterialParams pw = steel(MaterialKind::PiecewiseLinear);
  pw.hard_x = {0.0, 0.1};
  pw.hard_y = {250.0, 450.0};
  sig = back = ep = 0;
  for (int k = 0; k < 400; ++k) update_stress_truss(pw, deps, 1e-6, sig, back, ep);
  EXPECT_GT(ep, 0.002);
  EXPECT_NEAR(sig, 250.0 + 2000.0 * ep, 1e-9 * sig);
  EXPECT_NEAR(ep, 400 * deps - sig / pw.e, 1e-12);
  // Elastic material: no yield at all.
  const MaterialParams el = steel(MaterialKind::Elastic);
  sig = back = ep = 0;
  update_stress_truss(el, 0.01, 1e-6, sig, back, ep);
  EXPECT_DOUBLE_EQ(sig, 0.01 * el.e);
  EXPECT_EQ(ep, 0.0);
}

} // namespace
} // namespace parcae
