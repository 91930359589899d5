// *MAT_ISOTROPIC_ELASTIC_PLASTIC (012) at one material point against closed forms: the elastic
// constants from G and BULK, uniaxial stress (slope E, then ETAN after yield), simple shear
// (tau = G gamma, then the J2 hardening branch), hydrostatic compression (p = -K tr eps, no
// plasticity), and the batched closed form equal to the point update bit for bit. Linear
// isotropic hardening with a fixed deviatoric direction makes the radial return exact, so the
// references are exact up to round-off (tolerance 1e-10 relative).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "mat_test_util.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

// Steel-like: E = 200 GPa, nu = 0.3 given as G and K.
const Real kG12 = kE / (2 * (1 + kNu));
const Real kK12 = kE / (3 * (1 - 2 * kNu));
constexpr Real kRel = 1e-10;

Material mat012_card(Real g = kG12, Real k = kK12, Real sigy = kSigy, Real etan = kEt) {
  Material m;
  m.id = 12;
  m.kind = MaterialKind::IsotropicElasticPlastic;
  m.ro = kRo;
  m.g = g;
  m.bulk = k;
  m.sigy = sigy;
  m.etan = etan;
  m.loc.file = "deck.k";
  m.loc.line = 7;
  m.loc.card = "*MAT_ISOTROPIC_ELASTIC_PLASTIC";
  return m;
}

} // namespace

TEST(Mat012, ElasticConstantsFromShearAndBulkModuli) {
  const MaterialParams m = params(mat012_card());
  EXPECT_NEAR(m.e, kE, 1e-12 * kE);
  EXPECT_NEAR(m.nu, kNu, 1e-12);
  EXPECT_DOUBLE_EQ(m.g, kG12);
  EXPECT_DOUBLE_EQ(m.k, kK12);
  EXPECT_NEAR(m.lambda, kE * kNu / ((1 + kNu) * (1 - 2 * kNu)), 1e-12 * kE);
  EXPECT_NEAR(m.ep, kE * kEt / (kE - kEt), 1e-10 * kE);
  EXPECT_TRUE(m.plastic());
  EXPECT_FALSE(m.hydro());
  EXPECT_TRUE(solid_batch_closed_form(m));
  EXPECT_NEAR(m.wave_speed_solid(), std::sqrt((kK12 + 4 * kG12 / 3) / kRo), 1e-12);
}

TEST(Mat012, UniaxialStressFollowsTheBilinearCurve) {
  const MaterialParams m = params(mat012_card());
  SolidUniaxial pt(m);
  const Real ey = kSigy / m.e;
  pt.go(0.5 * ey, 5);
  EXPECT_NEAR(pt.sig[0], m.e * pt.eps, kRel * kSigy);
  EXPECT_EQ(pt.eps_p, 0.0);
  // beyond yield: sigma = sigy + Et (eps - sigy/E), eps_p = (sigma - sigy)/Ep
  for (Real target : {2 * ey, 5 * ey, 20 * ey}) {
    pt.go(target, 40);
    const Real sig = kSigy + kEt * (pt.eps - kSigy / m.e);
    EXPECT_NEAR(pt.sig[0], sig, kRel * kSigy) << "at eps = " << pt.eps;
    EXPECT_NEAR(pt.eps_p, (sig - kSigy) / m.ep, 1e-9 * pt.eps_p);
    EXPECT_NEAR(pt.sig[2], 0.0, 1e-9 * kSigy);
  }
  // elastic unloading with slope E
  const Real s0 = pt.sig[0], e0 = pt.eps, ep0 = pt.eps_p;
  pt.go(e0 - ey, 10);
  EXPECT_NEAR(pt.sig[0], s0 - kSigy, kRel * kSigy);
  EXPECT_EQ(pt.eps_p, ep0);
}

TEST(Mat012, SimpleShearYieldsAtSigyOverSqrt3) {
  const MaterialParams m = params(mat012_card());
  Real sig[6] = {}, back[6] = {}, ep = 0;
  const Real gy = kSigy / (std::sqrt(3.0) * kG12); // engineering shear strain at yield
  const Real dg = gy / 10;
  Real gamma = 0;
  for (int i = 0; i < 60; ++i) {
    const Real d[6] = {0, 0, 0, dg, 0, 0};
    update_stress_solid(m, d, 1e-6, sig, back, ep);
    gamma += dg;
    // tau = G gamma (elastic); plastic: tau (1 + 3G/Ep) = G gamma + sqrt(3) G sigy / Ep
    const Real tau =
        gamma <= gy * (1 + 1e-12)
            ? kG12 * gamma
            : (kG12 * gamma + std::sqrt(3.0) * kG12 * kSigy / m.ep) / (1 + 3 * kG12 / m.ep);
    ASSERT_NEAR(sig[3], tau, kRel * kSigy) << "gamma = " << gamma;
    ASSERT_NEAR(ep, std::max(0.0, (std::sqrt(3.0) * tau - kSigy) / m.ep), 1e-9 * kSigy / m.ep);
    EXPECT_EQ(sig[0], 0.0);
  }
  EXPECT_GT(ep, 0.0);
}

TEST(Mat012, HydrostaticCompressionIsElasticWithTheBulkModulus) {
  const MaterialParams m = params(mat012_card());
  Real sig[6] = {}, back[6] = {}, ep = 0;
  const Real d = -1e-3; // ten times the uniaxial yield strain, all volumetric
  for (int i = 0; i < 10; ++i) {
    const Real deps[6] = {d, d, d, 0, 0, 0};
    update_stress_solid(m, deps, 1e-6, sig, back, ep);
  }
  EXPECT_NEAR(sig[0], kK12 * 3 * 10 * d, kRel * kK12 * 30 * std::abs(d));
  EXPECT_NEAR(sig[1], sig[0], kRel * kSigy);
  EXPECT_EQ(ep, 0.0);
}

TEST(Mat012, BatchedClosedFormEqualsThePointUpdateBitForBit) {
  const MaterialParams m = params(mat012_card());
  std::mt19937_64 rng(12);
  std::uniform_real_distribution<Real> u(-4e-3, 4e-3);
  SolidBatch b{};
  Real sig[kSolidBatch][6] = {}, back[kSolidBatch][6] = {}, ep[kSolidBatch] = {};
  const bool active[kSolidBatch] = {true, true, true, true};
  for (int step = 0; step < 50; ++step) {
    for (int l = 0; l < kSolidBatch; ++l) {
      Real d[6];
      for (int k = 0; k < 6; ++k) d[k] = b.deps[k][l] = u(rng);
      update_stress_solid(m, d, 1e-6, sig[l], back[l], ep[l]);
    }
    update_stress_solid_batch(m, 1e-6, b, active);
    for (int l = 0; l < kSolidBatch; ++l) {
      for (int k = 0; k < 6; ++k) ASSERT_EQ(b.sig[k][l], sig[l][k]) << "step " << step;
      ASSERT_EQ(b.eps_p[l], ep[l]);
    }
  }
  EXPECT_GT(ep[0], 0.0);
}

TEST(Mat012, CardErrorsNameTheCard) {
  auto error = [](const Material& mat) {
    try {
      params(mat);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const std::string g = error(mat012_card(0.0));
  EXPECT_NE(g.find("*MAT_ISOTROPIC_ELASTIC_PLASTIC 12: shear modulus G"), std::string::npos) << g;
  const std::string k = error(mat012_card(kG12, -1.0));
  EXPECT_NE(k.find("bulk modulus BULK"), std::string::npos) << k;
  const std::string et = error(mat012_card(kG12, kK12, kSigy, 2 * kE));
  EXPECT_NE(et.find("ETAN"), std::string::npos) << et;
  const std::string sy = error(mat012_card(kG12, kK12, 0.0));
  EXPECT_NE(sy.find("SIGY"), std::string::npos) << sy;
}

TEST(Mat012, ShellsAreNotSupported) {
  const MaterialParams m = params(mat012_card());
  EXPECT_EQ(m.law().update_shell, nullptr);
  Real sig[5] = {}, back[3] = {}, ep = 0, dzz = 0;
  const Real d[5] = {1e-3, 0, 0, 0, 0};
  EXPECT_THROW(update_stress_shell(m, d, 1e-6, sig, back, ep, dzz), std::logic_error);
}
