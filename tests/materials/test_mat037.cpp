// *MAT_TRANSVERSELY_ANISOTROPIC_ELASTIC_PLASTIC (037): Hill 1948 plane stress with normal
// anisotropy R, material-point checks against closed forms.
//  - uniaxial stress in x: yield at SIGY, then the bilinear curve with the plastic modulus ETAN
//    (sigma = SIGY + ETAN eps_p, eps_p = eps - sigma/E: the uniaxial stress is the Hill
//    effective stress and the axial plastic strain the effective plastic strain);
//  - equibiaxial stress (perfect plasticity): sigma = SIGY sqrt((1+R)/2);
//  - uniaxial tension, perfect plasticity: width / thickness plastic strain increments = R;
//  - in-plane isotropy: a strain increment rotated in the plane gives the rotated stress;
//  - R = 1 is von Mises: the same states as the *MAT_024 shell update (linear hardening) over a
//    random strain path;
//  - HLCID: uniaxial stress follows the curve, also one that starts at zero stress;
//  - the yield condition holds after every plastic step.
// Tolerances: the closed forms are exact algebra of the backward-Euler return, which is iterated
// to a relative yield residual of 1e-13; the uniaxial driver iterates the lateral strain to
// 1e-14 of the stress scale. 1e-10 relative leaves three orders of magnitude for round-off over
// tens of steps; 1e-9 for ratios of small plastic increments (each ~1e-4 with ~1e-14 absolute
// error from the lateral iteration).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "core/error.hpp"
#include "mat_test_util.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

constexpr Real kRel = 1e-10;
constexpr Real kR = 1.593; // the Lankford ratio of the pydyna metal-forming deck

Material mat037_card(Real r = kR, Real sigy = kSigy, Real etan = 1.0e9, GlobalId hlcid = 0) {
  Material m = elastic_card();
  m.id = 37;
  m.kind = MaterialKind::TransverselyAnisotropic;
  m.sigy = sigy;
  m.etan = etan;
  m.lankford_r = r;
  m.lcss = hlcid;
  m.loc.card = "*MAT_TRANSVERSELY_ANISOTROPIC_ELASTIC_PLASTIC";
  return m;
}

/// Hill's effective stress of an in-plane state.
Real hill(const Real s[5], Real r) {
  return std::sqrt(s[0] * s[0] + s[1] * s[1] - 2 * r / (1 + r) * s[0] * s[1] +
                   2 * (1 + 2 * r) / (1 + r) * s[2] * s[2]);
}

} // namespace

TEST(Mat037, UniaxialStressFollowsTheBilinearCurve) {
  const Real ep_mod = 1.0e9;
  const MaterialParams m = params(mat037_card(kR, kSigy, ep_mod));
  ShellUniaxial pt(m);
  pt.step(0.5 * kSigy / kE);
  EXPECT_NEAR(pt.sig[0], 0.5 * kSigy, kRel * kSigy);
  EXPECT_EQ(pt.eps_p, 0.0);
  const Real et = kE * ep_mod / (kE + ep_mod); // tangent of the uniaxial curve
  for (Real target : {0.002, 0.01, 0.05}) {
    pt.go(target, 25);
    const Real s = bilinear_stress(target, kE, kSigy, et);
    EXPECT_NEAR(pt.sig[0], s, kRel * s) << target;
    EXPECT_NEAR(pt.eps_p, target - s / kE, kRel * pt.eps_p) << target;
    EXPECT_NEAR(hill(pt.sig, kR), kSigy + ep_mod * pt.eps_p, 1e-12 * s);
  }
}

TEST(Mat037, EquibiaxialYieldIsSigySqrtHalfOnePlusR) {
  for (Real r : {0.5, 1.0, kR, 3.0}) {
    const MaterialParams m = params(mat037_card(r, kSigy, 0.0));
    Real sig[5] = {}, back[3] = {}, ep = 0, dzz = 0;
    for (int i = 0; i < 40; ++i) {
      const Real d[5] = {1e-4, 1e-4, 0, 0, 0};
      update_stress_shell(m, d, 1e-6, sig, back, ep, dzz);
    }
    const Real expect = kSigy * std::sqrt((1 + r) / 2);
    EXPECT_NEAR(sig[0], expect, kRel * expect) << r;
    EXPECT_NEAR(sig[1], expect, kRel * expect) << r;
    EXPECT_GT(ep, 0.0);
    // perfectly plastic equibiaxial flow: incompressible, deps_zz = -(dxx + dyy)
    EXPECT_NEAR(dzz, -2e-4, 1e-9 * 2e-4) << r;
  }
}

TEST(Mat037, PlasticStrainRatioInUniaxialTensionIsR) {
  for (Real r : {0.6, 1.0, kR, 2.5}) {
    const MaterialParams m = params(mat037_card(r, kSigy, 0.0));
    ShellUniaxial pt(m);
    pt.go(0.01, 20);
    // perfect plasticity: the stress no longer changes, every increment is plastic
    pt.step(1e-4);
    EXPECT_NEAR(pt.sig[0], kSigy, kRel * kSigy);
    EXPECT_NEAR(pt.dyy / pt.dzz, r, 1e-9 * r) << r;
    // and incompressible: dxx + dyy + dzz = 0
    EXPECT_NEAR(1e-4 + pt.dyy + pt.dzz, 0.0, 1e-12) << r;
  }
}

TEST(Mat037, InPlaneIsotropy) {
  // normal anisotropy: a rotated strain increment gives the rotated stress (engineering shear)
  const MaterialParams m = params(mat037_card());
  const Real d[3] = {3e-3, -1e-3, 2e-3};
  Real s0[5] = {}, b[3] = {}, ep0 = 0, z0 = 0;
  const Real d5[5] = {d[0], d[1], d[2], 0, 0};
  update_stress_shell(m, d5, 1e-6, s0, b, ep0, z0);
  ASSERT_GT(ep0, 0.0);
  for (Real th : {0.3, 1.1, 2.0}) {
    const Real c = std::cos(th), s = std::sin(th);
    // strain tensor rotation (eps12 = gamma/2)
    const Real e12 = 0.5 * d[2];
    const Real rx = c * c * d[0] + s * s * d[1] + 2 * s * c * e12;
    const Real ry = s * s * d[0] + c * c * d[1] - 2 * s * c * e12;
    const Real rxy = -s * c * d[0] + s * c * d[1] + (c * c - s * s) * e12;
    const Real dr[5] = {rx, ry, 2 * rxy, 0, 0};
    Real sr[5] = {}, br[3] = {}, epr = 0, zr = 0;
    update_stress_shell(m, dr, 1e-6, sr, br, epr, zr);
    const Real ex = c * c * s0[0] + s * s * s0[1] + 2 * s * c * s0[2];
    const Real ey = s * s * s0[0] + c * c * s0[1] - 2 * s * c * s0[2];
    const Real exy = -s * c * s0[0] + s * c * s0[1] + (c * c - s * s) * s0[2];
    const Real scale = kSigy;
    EXPECT_NEAR(sr[0], ex, 1e-11 * scale) << th;
    EXPECT_NEAR(sr[1], ey, 1e-11 * scale) << th;
    EXPECT_NEAR(sr[2], exy, 1e-11 * scale) << th;
    EXPECT_NEAR(epr, ep0, 1e-11 * ep0) << th;
    EXPECT_NEAR(zr, z0, 1e-11 * std::abs(z0)) << th;
  }
}

TEST(Mat037, ROneIsTheVonMisesShellUpdate) {
  // *MAT_024's ETAN is a tangent modulus; *MAT_037's the plastic modulus Ep = E Et / (E - Et)
  const Real ep_mod = kE * kEt / (kE - kEt);
  const MaterialParams hill1 = params(mat037_card(1.0, kSigy, ep_mod));
  const MaterialParams vm = params(mat024_card(kSigy, kEt));
  Real sa[5] = {}, ba[3] = {}, ea = 0, za = 0;
  Real sb[5] = {}, bb[3] = {}, eb = 0, zb = 0;
  std::mt19937 gen(37);
  std::uniform_real_distribution<Real> u(-1.0, 1.0);
  Real max_rel = 0;
  for (int i = 0; i < 300; ++i) {
    // a random walk with a drift in x, so that it goes well into the plastic range
    const Real d[5] = {2e-4 * (u(gen) + 0.5), 2e-4 * u(gen), 3e-4 * u(gen), 1e-4 * u(gen),
                       1e-4 * u(gen)};
    const Real da = update_stress_shell(hill1, d, 1e-6, sa, ba, ea, za);
    const Real db = update_stress_shell(vm, d, 1e-6, sb, bb, eb, zb);
    const Real scale = kSigy + ep_mod * eb;
    for (int k = 0; k < 5; ++k) {
      EXPECT_NEAR(sa[k], sb[k], 1e-10 * scale) << i << " " << k;
      max_rel = std::max(max_rel, std::abs(sa[k] - sb[k]) / scale);
    }
    EXPECT_NEAR(ea, eb, 1e-10 * (eb + 1e-3)) << i;
    EXPECT_NEAR(za, zb, 1e-10 * 1e-3) << i;
    EXPECT_NEAR(da, db, 1e-10 * 1e-3) << i;
    if (da > 0) {
      EXPECT_NEAR(hill(sa, 1.0), kSigy + ep_mod * ea, 1e-12 * scale) << i;
    }
  }
  EXPECT_GT(eb, 0.01); // the path went well into the plastic range
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3e", max_rel);
  RecordProperty("max_relative_stress_difference", buf);
}

TEST(Mat037, YieldConditionAfterEveryPlasticStep) {
  const MaterialParams m = params(mat037_card(kR, kSigy, 5e8));
  Real s[5] = {}, b[3] = {}, ep = 0, z = 0;
  std::mt19937 gen(7);
  std::uniform_real_distribution<Real> u(-1.0, 1.0);
  int plastic = 0;
  for (int i = 0; i < 400; ++i) {
    const Real d[5] = {5e-4 * u(gen), 5e-4 * u(gen), 5e-4 * u(gen), 0, 0};
    const Real s_old = s[0] + s[1];
    if (update_stress_shell(m, d, 1e-6, s, b, ep, z) > 0) {
      ++plastic;
      EXPECT_NEAR(hill(s, kR), kSigy + 5e8 * ep, 1e-12 * (kSigy + 5e8 * ep)) << i;
    } else {
      // elastic step: plane-stress thickness strain -nu/E d(s11 + s22)
      EXPECT_NEAR(z, -kNu / kE * (s[0] + s[1] - s_old), 1e-12) << i;
      EXPECT_LE(hill(s, kR), (kSigy + 5e8 * ep) * (1 + 1e-12)) << i;
    }
  }
  EXPECT_GT(plastic, 50);
}

TEST(Mat037, HardeningCurve) {
  Model model;
  // yield stress from zero (as the pydyna deck's curve), then a steep segment
  model.curves.push_back(make_curve(5, {0.0, 0.02, 1.0}, {0.0, 2.0e8, 3.0e8}));
  const MaterialParams m = params(mat037_card(kR, 0.0, 0.0, 5), model);
  auto curve = [](Real ep) { return ep <= 0.02 ? 1e10 * ep : 2.0e8 + (ep - 0.02) * 1e8 / 0.98; };
  ShellUniaxial pt(m);
  for (Real target : {0.001, 0.01, 0.05, 0.2}) {
    pt.go(target, 40);
    EXPECT_NEAR(pt.sig[0], curve(pt.eps_p), kRel * pt.sig[0] + 1e-3) << target;
    EXPECT_NEAR(pt.eps_p, target - pt.sig[0] / kE, kRel * target) << target;
  }
}

TEST(Mat037, CardErrorsNameTheCard) {
  auto message = [](const Material& mat, const Model& model = Model{}) {
    try {
      params(mat, model);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message(mat037_card(0.0)).find("*MAT_TRANSVERSELY_ANISOTROPIC_ELASTIC_PLASTIC 37"),
            std::string::npos);
  EXPECT_NE(message(mat037_card(0.0)).find("R must not be zero"), std::string::npos);
  EXPECT_NE(message(mat037_card(kR, kSigy, 1e9, 99)).find("HLCID curve 99 is not defined"),
            std::string::npos);
  Model soft;
  soft.curves.push_back(make_curve(6, {0.0, 1.0}, {3e8, 2e8}));
  EXPECT_NE(message(mat037_card(kR, 0, 0, 6), soft).find("softening"), std::string::npos);
  // R < 0 reads as |R|
  EXPECT_EQ(params(mat037_card(-kR)).hill_r, kR);
  EXPECT_FALSE(shell_direct_return(params(mat037_card())));
}
