// The ideal gas of *AIRBAG_SIMPLE_AIRBAG_MODEL (fem/airbag.hpp, advance_airbag_gas) against
// closed forms:
//  - a rigid bag filled at a constant rate: p V = (gamma - 1) (E0 + cp T m_in), exactly;
//  - an adiabatic compression without inflow: p V^gamma stays constant (second order: the
//    trapezoid of p dV), to 1e-6 in 2,000 steps of a halving of the volume;
//  - the vent: the orifice rate is the choked one, A p sqrt(gamma / (p/rho))
//    (2/(gamma+1))^((gamma+1)/(2(gamma-1))), below the critical pressure ratio and the
//    subsonic one above it, zero below ambient; the choked blowdown of a rigid bag follows
//    rho/rho0 = (1 + (gamma-1)/2 k t)^(-2/(gamma-1)), k = A C sqrt(gamma p0/rho0) / V, with the
//    gas expanding isentropically (the outflow carries its enthalpy), to 1e-3 (the explicit
//    vent is first order in the step).
#include <gtest/gtest.h>

#include <cmath>

#include "fem/airbag.hpp"

namespace parcae {
namespace {

constexpr Real kCv = 718, kCp = 1005, kGamma = kCp / kCv, kPe = 1.0e5, kRo = 1.2;

TEST(AirbagGas, RigidBagFilledAtAConstantRate) {
  const Real v = 0.06, rate = 2.0, t_in = 900, dt = 1e-5;
  GasState g{kRo * v, kPe * v / (kGamma - 1), kPe};
  Real m_in = 0;
  for (int k = 0; k < 3000; ++k) {
    EXPECT_EQ(advance_airbag_gas(g, v, v, dt, rate * dt, t_in, kCv, kCp, 0.0, kPe), 0.0);
    m_in += rate * dt;
  }
  const Real e = kPe * v / (kGamma - 1) + kCp * t_in * m_in;
  EXPECT_NEAR(g.p, (kGamma - 1) * e / v, 1e-9 * g.p);
  EXPECT_NEAR(g.m, kRo * v + m_in, 1e-12);
}

TEST(AirbagGas, AdiabaticCompressionKeepsPVGamma) {
  const Real v0 = 0.06;
  GasState g{kRo * v0, kPe * v0 / (kGamma - 1), kPe};
  const int n = 2000;
  Real v = v0;
  for (int k = 1; k <= n; ++k) {
    const Real vn = v0 * (1.0 - 0.5 * k / n);
    advance_airbag_gas(g, v, vn, 1e-6, 0.0, 300, kCv, kCp, 0.0, kPe);
    v = vn;
  }
  EXPECT_NEAR(g.p * std::pow(v, kGamma), kPe * std::pow(v0, kGamma),
              1e-6 * kPe * std::pow(v0, kGamma));
}

TEST(AirbagGas, VentRateChokedSubsonicAndClosed) {
  const Real area = 1e-4, rho = 3.0;
  const Real c = std::pow(2 / (kGamma + 1), (kGamma + 1) / (2 * (kGamma - 1)));
  // choked: pe / p below (2/(gamma+1))^(gamma/(gamma-1)) ~ 0.528
  const Real p = 4 * kPe;
  EXPECT_NEAR(vent_mass_rate(area, p, rho, kPe, kGamma), area * c * std::sqrt(kGamma * p * rho),
              1e-12 * area * std::sqrt(p * rho));
  // subsonic: the isentropic nozzle rate
  const Real p2 = 1.2 * kPe, q = kPe / p2;
  const Real sub = area * std::sqrt(2 * kGamma / (kGamma - 1) * p2 * rho *
                                    (std::pow(q, 2 / kGamma) - std::pow(q, (kGamma + 1) / kGamma)));
  EXPECT_NEAR(vent_mass_rate(area, p2, rho, kPe, kGamma), sub, 1e-12 * sub);
  EXPECT_LT(sub, area * c * std::sqrt(kGamma * p2 * rho));
  EXPECT_EQ(vent_mass_rate(area, 0.9 * kPe, rho, kPe, kGamma), 0.0);
  EXPECT_EQ(vent_mass_rate(0.0, p, rho, kPe, kGamma), 0.0);
}

TEST(AirbagGas, ChokedBlowdownOfARigidBag) {
  const Real v = 0.05, p0 = 10 * kPe, rho0 = 10.0, area = 5e-3, pe = 1.0; // choked throughout
  GasState g{rho0 * v, p0 * v / (kGamma - 1), p0};
  const Real c = std::pow(2 / (kGamma + 1), (kGamma + 1) / (2 * (kGamma - 1)));
  const Real k = area * c * std::sqrt(kGamma * p0 / rho0) / v;
  const Real dt = 1e-6;
  const int n = 40000; // k t ~ 0.8 at the end
  for (int s = 0; s < n; ++s) advance_airbag_gas(g, v, v, dt, 0.0, 300, kCv, kCp, area, pe);
  const Real t = n * dt;
  const Real x = std::pow(1 + 0.5 * (kGamma - 1) * k * t, -2 / (kGamma - 1));
  EXPECT_GT(k * t, 0.5);
  EXPECT_NEAR(g.m / (rho0 * v), x, 1e-3 * x);
  EXPECT_NEAR(g.p / p0, std::pow(x, kGamma), 1e-3 * std::pow(x, kGamma)); // isentropic
}

} // namespace
} // namespace parcae
