// Elastic stress updates (solid and shell) against Hooke's law.
// Tolerances: 1e-12 relative to the stress scale E*|deps| -- the update is a handful of
// multiply-adds, the reference the same algebra written differently; components that must
// vanish are compared against 1e-12 of the stress scale.
#include <gtest/gtest.h>

#include <cmath>

#include "mat_test_util.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {
constexpr Real kTol = 1e-12;
}

TEST(ElasticSolid, UniaxialStrain) {
  const MaterialParams m = params(elastic_card());
  const Real d = 1e-4;
  const Real deps[6] = {d, 0, 0, 0, 0, 0};
  Real sig[6] = {}, back[6] = {}, ep = 0;
  EXPECT_EQ(update_stress_solid(m, deps, 1e-6, sig, back, ep), 0.0);
  // sigma_xx = E(1-nu)/((1+nu)(1-2nu)) eps, sigma_yy = sigma_zz = E nu/((1+nu)(1-2nu)) eps
  const Real scale = kE * d;
  EXPECT_NEAR(sig[0], kE * 0.7 / (1.3 * 0.4) * d, kTol * scale);
  EXPECT_NEAR(sig[1], kE * 0.3 / (1.3 * 0.4) * d, kTol * scale);
  EXPECT_NEAR(sig[2], kE * 0.3 / (1.3 * 0.4) * d, kTol * scale);
  for (int i = 3; i < 6; ++i) EXPECT_NEAR(sig[i], 0.0, kTol * scale);
  EXPECT_EQ(ep, 0.0);
}

TEST(ElasticSolid, UniaxialStressManySteps) {
  const MaterialParams m = params(elastic_card());
  // eps_yy = eps_zz = -nu eps_xx gives sigma_xx = E eps_xx and no lateral stress
  Real sig[6] = {}, back[6] = {}, ep = 0;
  const Real d = 2e-5;
  const Real deps[6] = {d, -kNu * d, -kNu * d, 0, 0, 0};
  for (int i = 0; i < 50; ++i) update_stress_solid(m, deps, 1e-6, sig, back, ep);
  const Real scale = kE * 50 * d;
  EXPECT_NEAR(sig[0], kE * 50 * d, kTol * scale);
  EXPECT_NEAR(sig[1], 0.0, kTol * scale);
  EXPECT_NEAR(sig[2], 0.0, kTol * scale);
}

TEST(ElasticSolid, PureShear) {
  const MaterialParams m = params(elastic_card());
  const Real gam = 3e-4; // engineering shear strain
  for (int k = 3; k < 6; ++k) {
    Real deps[6] = {0, 0, 0, 0, 0, 0};
    deps[k] = gam;
    Real sig[6] = {}, back[6] = {}, ep = 0;
    update_stress_solid(m, deps, 1e-6, sig, back, ep);
    // tau = G gamma, G = E/(2(1+nu))
    const Real tau = kE / 2.6 * gam;
    for (int i = 0; i < 6; ++i) EXPECT_NEAR(sig[i], i == k ? tau : 0.0, kTol * tau);
  }
}

TEST(ElasticSolid, RigidKindIsElastic) {
  Material c = elastic_card();
  c.kind = MaterialKind::Rigid;
  const MaterialParams m = params(c);
  const Real deps[6] = {0, 0, 0, 1e-3, 0, 0};
  Real sig[6] = {}, back[6] = {}, ep = 0;
  EXPECT_EQ(update_stress_solid(m, deps, 1e-6, sig, back, ep), 0.0);
  EXPECT_NEAR(sig[3], kE / 2.6 * 1e-3, kTol * kE * 1e-3);
}

TEST(ElasticShell, UniaxialStressAndPoissonContraction) {
  const MaterialParams m = params(elastic_card());
  const Real d = 1e-4;
  const Real deps[5] = {d, -kNu * d, 0, 0, 0};
  Real sig[5] = {}, back[3] = {}, ep = 0, dzz = 0;
  EXPECT_EQ(update_stress_shell(m, deps, 1e-6, sig, back, ep, dzz), 0.0);
  const Real scale = kE * d;
  EXPECT_NEAR(sig[0], kE * d, kTol * scale);
  EXPECT_NEAR(sig[1], 0.0, kTol * scale);
  // -nu/(1-nu) (dxx + dyy) = -nu d
  EXPECT_NEAR(dzz, -kNu * d, kTol * d);
}

TEST(ElasticShell, BiaxialAndShear) {
  const MaterialParams m = params(elastic_card());
  const Real a = 1e-4, b = -3e-5, g = 2e-4, g1 = 5e-5, g2 = -7e-5;
  const Real deps[5] = {a, b, g, g1, g2};
  Real sig[5] = {1e6, -2e6, 3e6, 4e6, 5e6}, back[3] = {}, ep = 0, dzz = 0;
  update_stress_shell(m, deps, 1e-6, sig, back, ep, dzz);
  // plane-stress Hooke: E/(1-nu^2) [1 nu; nu 1], shear G gamma (all three shear components)
  const Real c = kE / (1 - kNu * kNu), gm = kE / 2.6;
  const Real scale = kE * 3e-4;
  EXPECT_NEAR(sig[0], 1e6 + c * (a + kNu * b), kTol * scale);
  EXPECT_NEAR(sig[1], -2e6 + c * (b + kNu * a), kTol * scale);
  EXPECT_NEAR(sig[2], 3e6 + gm * g, kTol * scale);
  EXPECT_NEAR(sig[3], 4e6 + gm * g1, kTol * scale);
  EXPECT_NEAR(sig[4], 5e6 + gm * g2, kTol * scale);
  EXPECT_NEAR(dzz, -kNu / (1 - kNu) * (a + b), kTol * 1e-4);
}

TEST(ElasticShell, PlasticMaterialBelowYieldIsElastic) {
  // The same Hooke's law for a *MAT_003 point that stays below yield, incl. deps_zz.
  const MaterialParams m = params(mat003_card(1));
  const Real a = 2e-4, b = 1e-4;
  const Real deps[5] = {a, b, 0, 0, 0};
  Real sig[5] = {}, back[3] = {}, ep = 0, dzz = 0;
  EXPECT_EQ(update_stress_shell(m, deps, 1e-6, sig, back, ep, dzz), 0.0);
  const Real c = kE / (1 - kNu * kNu);
  EXPECT_NEAR(sig[0], c * (a + kNu * b), kTol * kE * a);
  EXPECT_NEAR(sig[1], c * (b + kNu * a), kTol * kE * a);
  EXPECT_NEAR(dzz, -kNu / (1 - kNu) * (a + b), kTol * a);
  EXPECT_EQ(ep, 0.0);
}
