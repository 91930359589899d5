// *MAT_HILL_3R (122) on shells, read from its card as a deck gives it, at one shell point in the
// material axes, against closed forms of Hill's 1948 criterion:
//  - uniaxial tension at 0, 45 and 90 degrees from the rolling direction (perfect plasticity):
//    the yield stress Y / sqrt(c^4 - 2H c^2 s^2 + (H+F) s^4 + 2N c^2 s^2) and the Lankford ratio
//    (width / thickness plastic strain increments) R00, R45, R90;
//  - R00 = R45 = R90 = 1 is von Mises: the same states as the *MAT_024 shell update over a
//    random strain path (linear hardening, P1 the tangent modulus as *MAT_024's ETAN);
//  - Swift and tabulated hardening: the yield condition holds after every plastic step;
//  - the card: alias, refusals by field.
// The uniaxial driver iterates the two lateral strain increments (Newton, finite differences)
// until the lateral stresses are below 1e-12 of the stress: the ratios hold to 1e-7.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>
#include <string>

#include <fmt/format.h>

#include "../input/keyword_test_util.hpp"
#include "mat_test_util.hpp"
#include "materials/catalogue.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

constexpr Real kR00 = 1.8, kR45 = 1.3, kR90 = 2.2, kY = 180e6;

std::string quad_with(const std::string& mat) {
  return deck("*NODE\n1,0,0,0\n2,1,0,0\n3,1,1,0\n4,0,1,0\n*ELEMENT_SHELL\n1,1,1,2,3,4\n"
              "*PART\nsheet\n1,1,1\n*SECTION_SHELL\n1,2\n0.001\n" +
              mat + termination());
}

std::string hill_card(Real hr, Real p1, Real p2, Real r00 = kR00, Real r45 = kR45, Real r90 = kR90,
                      const std::string& card2_tail = "", const std::string& name = "*MAT_HILL_3R",
                      Real aopt = 0) {
  return fmt::format("{}\n1,7850,2.0e11,0.3,{},{},{}\n{},{},{}{}\n{}\n\n\n", name, hr, p1, p2, r00,
                     r45, r90, card2_tail, aopt);
}

struct Law {
  Model model;
  MaterialParams m;
  explicit Law(const std::string& card) : model(read_text(quad_with(card))) {
    m = make_material_params(model.materials.at(0), model);
  }
};

/// A point pulled in uniaxial stress along the direction at theta from the material axis a: the
/// lateral normal and shear strain increments are iterated so that the lateral stresses vanish.
struct AngleUniaxial {
  const MaterialParams& m;
  Real c, s;
  Real sig[5] = {}, back[3] = {}, eps_p = 0;
  Real d_mat[5] = {}, dzz = 0, dep = 0; ///< the last increment (material axes)
  AngleUniaxial(const MaterialParams& mp, Real theta)
      : m(mp), c(std::cos(theta)), s(std::sin(theta)) {}

  /// loading-frame strain (ll, tt, engineering lt) -> material axes [aa bb ab]
  void to_material(const Real e[3], Real out[5]) const {
    const Real h = 0.5 * e[2];
    out[0] = c * c * e[0] + s * s * e[1] - 2 * c * s * h;
    out[1] = s * s * e[0] + c * c * e[1] + 2 * c * s * h;
    out[2] = 2 * (c * s * (e[0] - e[1]) + (c * c - s * s) * h);
    out[3] = out[4] = 0;
  }
  /// material stress -> loading frame (tt, lt)
  void lateral(const Real x[5], Real out[2]) const {
    out[0] = s * s * x[0] + c * c * x[1] - 2 * c * s * x[2];
    out[1] = -c * s * x[0] + c * s * x[1] + (c * c - s * s) * x[2];
  }
  void trial(Real dll, const Real lat[2], Real x[5], Real& ep, Real& zz, Real& d,
             Real dm[5]) const {
    for (int i = 0; i < 5; ++i) x[i] = sig[i];
    Real b[3] = {back[0], back[1], back[2]};
    ep = eps_p;
    const Real e[3] = {dll, lat[0], lat[1]};
    to_material(e, dm);
    d = update_stress_shell(m, dm, 1e-6, x, b, ep, zz);
  }
  void step(Real dll) {
    Real lat[2] = {-0.5 * dll, 0};
    const Real scale = std::abs(sig[0]) + std::abs(sig[1]) + std::abs(sig[2]) + m.e * dll;
    for (int it = 0; it < 60; ++it) {
      Real x[5], ep, zz, d, dm[5], r[2];
      trial(dll, lat, x, ep, zz, d, dm);
      lateral(x, r);
      if (std::abs(r[0]) + std::abs(r[1]) <= 1e-12 * scale) break;
      Real jac[2][2];
      for (int k = 0; k < 2; ++k) {
        Real lk[2] = {lat[0], lat[1]};
        const Real h = 1e-9 * std::abs(dll);
        lk[k] += h;
        Real xk[5], rk[2];
        trial(dll, lk, xk, ep, zz, d, dm);
        lateral(xk, rk);
        jac[0][k] = (rk[0] - r[0]) / h;
        jac[1][k] = (rk[1] - r[1]) / h;
      }
      const Real det = jac[0][0] * jac[1][1] - jac[0][1] * jac[1][0];
      lat[0] -= (jac[1][1] * r[0] - jac[0][1] * r[1]) / det;
      lat[1] -= (-jac[1][0] * r[0] + jac[0][0] * r[1]) / det;
    }
    Real x[5];
    trial(dll, lat, x, eps_p, dzz, dep, d_mat);
    for (int i = 0; i < 5; ++i) sig[i] = x[i];
    last_tt = lat[0];
  }
  Real last_tt = 0;
  /// the stress along the loading direction
  Real axial() const { return c * c * sig[0] + s * s * sig[1] + 2 * c * s * sig[2]; }
};

Real hill_f(const Real s[5], Real r00, Real r45, Real r90) {
  const Real h = r00 / (1 + r00), f = h / r90, n2 = (r00 + r90) * (1 + 2 * r45) / (r90 * (1 + r00));
  return std::sqrt(s[0] * s[0] - 2 * h * s[0] * s[1] + (h + f) * s[1] * s[1] + n2 * s[2] * s[2]);
}

} // namespace

TEST(Mat122, UniaxialYieldAndLankfordRatiosAtZero45And90Degrees) {
  const Law law(hill_card(1, 0, kY)); // perfect plasticity
  EXPECT_EQ(law.model.materials[0].kind, MaterialKind::Hill3R);
  const Real h = kR00 / (1 + kR00), f = h / kR90,
             n2 = (kR00 + kR90) * (1 + 2 * kR45) / (kR90 * (1 + kR00));
  for (const auto& [deg, r] : {std::pair{0.0, kR00}, {45.0, kR45}, {90.0, kR90}}) {
    const Real th = deg * std::numbers::pi / 180, c = std::cos(th), s = std::sin(th);
    const Real yield = kY / std::sqrt(std::pow(c, 4) - 2 * h * c * c * s * s +
                                      (h + f) * std::pow(s, 4) + n2 * c * c * s * s);
    AngleUniaxial pt(law.m, th);
    for (int i = 0; i < 40; ++i) pt.step(2.5e-4);
    EXPECT_NEAR(pt.axial(), yield, 1e-9 * yield) << deg;
    // the plastic increment (perfect plasticity: every strain increment is plastic)
    pt.step(1e-4);
    ASSERT_GT(pt.dep, 0) << deg;
    EXPECT_NEAR(pt.last_tt / pt.dzz, r, 1e-7 * r) << deg;
    EXPECT_NEAR(1e-4 + pt.last_tt + pt.dzz, 0.0, 1e-12) << deg << ": incompressible";
  }
}

TEST(Mat122, EqualRatiosOfOneAreTheVonMisesShellUpdate) {
  const Law hill(hill_card(1, 2.2e9, 250e6, 1, 1, 1));
  const Law vm("*MAT_024\n1,7850,2.0e11,0.3,250e6,2.2e9\n\n\n");
  std::mt19937 gen(3);
  std::uniform_real_distribution<Real> u(-4e-4, 4e-4);
  Real sa[5] = {}, sb[5] = {}, ba[3] = {}, bb[3] = {}, ea = 0, eb = 0;
  for (int step = 0; step < 60; ++step) {
    const Real d[5] = {u(gen) + 2e-4, u(gen), u(gen), 0.1 * u(gen), 0.1 * u(gen)};
    Real za = 0, zb = 0;
    update_stress_shell(hill.m, d, 1e-6, sa, ba, ea, za);
    update_stress_shell(vm.m, d, 1e-6, sb, bb, eb, zb);
    for (int k = 0; k < 5; ++k) EXPECT_NEAR(sa[k], sb[k], 1e-8 * 250e6) << step << " " << k;
    EXPECT_NEAR(ea, eb, 1e-10) << step;
    EXPECT_NEAR(za, zb, 1e-12) << step;
  }
  EXPECT_GT(ea, 0.005) << "the path must be plastic";
}

TEST(Mat122, YieldConditionHoldsWithSwiftAndCurveHardening) {
  const std::string curve = "*DEFINE_CURVE\n7\n0,150e6\n0.05,260e6\n0.2,330e6\n";
  const Law swift(hill_card(2, 550e6, 0.22, kR00, kR45, kR90, ",,0.01"));
  const Law tab(hill_card(3, 0, 0, kR00, kR45, kR90, ",7") + curve);
  for (const Law* law : {&swift, &tab}) {
    std::mt19937 gen(11);
    std::uniform_real_distribution<Real> u(-5e-4, 5e-4);
    Real s[5] = {}, b[3] = {}, ep = 0;
    int plastic = 0;
    for (int step = 0; step < 80; ++step) {
      const Real d[5] = {u(gen) + 3e-4, u(gen), u(gen), 0, 0};
      Real zz = 0;
      if (update_stress_shell(law->m, d, 1e-6, s, b, ep, zz) > 0) {
        ++plastic;
        const Real y = law == &swift ? 550e6 * std::pow(0.01 + ep, 0.22)
                       : ep <= 0.05  ? 150e6 + ep / 0.05 * 110e6
                                     : 260e6 + (ep - 0.05) / 0.15 * 70e6;
        EXPECT_NEAR(hill_f(s, kR00, kR45, kR90), y, 1e-10 * y) << step;
      }
    }
    EXPECT_GT(plastic, 20);
  }
}

TEST(Mat122, SwiftWithoutE0YieldsWhereTheElasticLineMeetsTheCurve) {
  // E0 = 0: eps0 = (E / K)^(1/(n - 1)), the initial yield stress K eps0^n = E eps0
  const Law law(hill_card(2, 550e6, 0.22));
  const Real eps0 = std::pow(2.0e11 / 550e6, 1 / (0.22 - 1));
  EXPECT_NEAR(law.m.sigy, 550e6 * std::pow(eps0, 0.22), 1e-9 * 550e6);
  EXPECT_NEAR(law.m.sigy, 2.0e11 * eps0, 1e-6 * law.m.sigy);
}

TEST(Mat122, CardAliasAndRefusals) {
  EXPECT_EQ(Law(hill_card(1, 0, kY, kR00, kR45, kR90, "", "*MAT_122_TITLE\nsheet"))
                .model.materials[0]
                .kind,
            MaterialKind::Hill3R);
  auto error_of = [](const std::string& card) {
    try {
      read_text(quad_with(card));
    } catch (const std::exception& ex) {
      return std::string(ex.what());
    }
    return std::string();
  };
  EXPECT_NE(error_of(hill_card(4, 1, 1)).find("HR = 4"), std::string::npos);
  EXPECT_NE(error_of(hill_card(1, 0, kY, kR00, 0.0)).find("R45 = 0 must be positive"),
            std::string::npos);
  EXPECT_NE(error_of(hill_card(1, 0, kY, kR00, kR45, kR90, "", "*MAT_HILL_3R", 2))
                .find("AOPT = 2 is not supported"),
            std::string::npos);
  EXPECT_NE(error_of(hill_card(3, 0, 0)).find("LCID"), std::string::npos);
  const std::string p2 = error_of(hill_card(1, 0, 0));
  EXPECT_NE(p2.find("P2 = 0"), std::string::npos) << p2;
  EXPECT_NE(p2.find("deck.k:"), std::string::npos) << p2;
}
