// *MAT_JOHNSON_COOK (015) on shells: plane stress with the card's E and PR, no equation of
// state. At one shell point (the update the shell kernels call), read from a deck's card:
//  - uniaxial stress below EPSO without heating (CP = 0): sigma = A + B eps_p^N at
//    eps_p = eps - sigma / E (monotonic loading), to 1e-9;
//  - plastic flow is incompressible: the step's volume strain dxx + dyy + dzz is the elastic
//    one, (1 - 2 PR) / E (d sigma_xx + d sigma_yy), to 1e-9 of the strain increment, with
//    sigma_zz = 0 by construction (the thickness strain the update returns);
//  - the rate term (VP = 0) and the adiabatic heating: at the end of every plastic step the
//    von Mises stress is (A + B eps_p^N)(1 + C ln(rate / EPSO))(1 - T*^M) with the rate of the
//    step's strain (plastically incompressible) and T = TR + W / (RO CP), W the plastic work
//    summed by the test (the update keeps T over the step, as the solid update does);
//  - the deck: E and PR are needed on shells (an error names the part), an EOSID is not.
#include <gtest/gtest.h>

#include <cmath>

#include <fmt/format.h>

#include "../input/keyword_test_util.hpp"
#include "mat_test_util.hpp"
#include "materials/catalogue.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

// Aluminium-like (SI): A = 300 MPa, B = 430 MPa, N = 0.35, C = 0.015, M = 1, TM = 900 K.
constexpr Real kAl_E = 70e9, kAl_nu = 0.33, kAl_ro = 2700, kA = 300e6, kB = 430e6, kN = 0.35;

std::string shell_with(const std::string& mat) {
  return deck("*NODE\n1,0,0,0\n2,1,0,0\n3,1,1,0\n4,0,1,0\n"
              "*ELEMENT_SHELL\n1,1,1,2,3,4\n*PART\nplate\n1,1,1\n*SECTION_SHELL\n1,2\n"
              "0.001,0.001,0.001,0.001\n" +
              mat + termination());
}

/// *MAT_JOHNSON_COOK 1 with E, PR (fixed format), C, CP (heating when > 0).
std::string jc_card(Real c, Real cp, Real e = kAl_E, Real pr = kAl_nu) {
  return fmt::format("*MAT_JOHNSON_COOK\n"
                     "{:>10}{:>10.4g}{:>10.4g}{:>10.4g}{:>10.4g}\n"
                     "{:>10.4g}{:>10.4g}{:>10.4g}{:>10.4g}{:>10.4g}{:>10.4g}{:>10.4g}{:>10.4g}\n"
                     "{:>10.4g}\n",
                     1, kAl_ro, 26e9, e, pr, kA, kB, kN, c, 1.0, 900.0, 293.0, 1.0, cp);
}

Real hardening(Real ep) {
  return kA + kB * std::pow(std::max<Real>(ep, 0), kN);
}

Real mises_plane(const Real s[5]) {
  return std::sqrt(s[0] * s[0] - s[0] * s[1] + s[1] * s[1] + 3 * s[2] * s[2]);
}

} // namespace

TEST(Mat015Shell, UniaxialStressHardensAsAPlusBEpsNAndFlowsIncompressibly) {
  const Model model = read_text(shell_with(jc_card(0, 0)));
  const MaterialParams m = params(model.materials.at(0), model);
  EXPECT_EQ(m.e, kAl_E);
  EXPECT_EQ(m.nu, kAl_nu);
  ShellUniaxial shell(m);
  Real worst_volume = 0;
  for (Real target : {0.002, 0.01, 0.05, 0.15, 0.3}) {
    const int n = 60;
    const Real d = (target - shell.eps) / n;
    for (int i = 0; i < n; ++i) {
      const Real sxx = shell.sig[0], syy = shell.sig[1];
      shell.step(d, 1e-9); // rate 1e6 * d: no rate term (C = 0)
      const Real dv = d + shell.dyy + shell.dzz;
      const Real dv_el = (1 - 2 * kAl_nu) / kAl_E * (shell.sig[0] - sxx + shell.sig[1] - syy);
      worst_volume = std::max(worst_volume, std::abs(dv - dv_el) / std::abs(d));
    }
    auto f = [&](Real s) { return s - hardening(target - s / kAl_E); };
    const Real ref = target * kAl_E <= kA ? kAl_E * target : solve_increasing(f, kA, 1e9, 1e-6);
    SCOPED_TRACE(::testing::Message() << "eps " << target);
    EXPECT_NEAR(shell.sig[0], ref, 1e-9 * ref);
    EXPECT_NEAR(shell.sig[1], 0.0, 1e-9 * ref);
  }
  EXPECT_GT(shell.eps_p, 0.25);
  EXPECT_LT(worst_volume, 1e-9);
}

TEST(Mat015Shell, RateAndAdiabaticHeatingOnTheYieldSurfaceEveryStep) {
  const Real c = 0.015, cp = 900;
  const Model model = read_text(shell_with(jc_card(c, cp)));
  const MaterialParams m = params(model.materials.at(0), model);
  ShellUniaxial shell(m);
  const Real dt = 1e-6, d = 1e-3; // 1000 /s
  Real work = 0, worst = 0, heated = 0;
  for (int i = 0; i < 300; ++i) {
    const Real t_before = 293 + work / (kAl_ro * cp);
    const Real ep_before = shell.eps_p;
    shell.step(d, dt);
    const Real dep = shell.eps_p - ep_before;
    const Real q = mises_plane(shell.sig);
    if (dep > 0) {
      const Real d6[6] = {d, shell.dyy, -(d + shell.dyy), 0, 0, 0};
      const Real rate = std::sqrt(2.0 / 3.0 * (d6[0] * d6[0] + d6[1] * d6[1] + d6[2] * d6[2])) / dt;
      const Real ts = (t_before - 293) / (900 - 293);
      const Real sy = hardening(shell.eps_p) * (1 + c * std::log(rate)) * (1 - ts);
      worst = std::max(worst, std::abs(q - sy) / sy);
      heated = ts;
    }
    work += q * dep;
  }
  EXPECT_LT(worst, 1e-9);
  // 0.3 strain of aluminium at ~500 MPa heats it by ~60 K: T* ~ 0.1
  EXPECT_GT(heated, 0.05);
  EXPECT_LT(heated, 0.2);
}

TEST(Mat015Shell, ShellsNeedEAndPrButNoEquationOfState) {
  // no EOSID: read and run (the shell's constants); a solid part still needs its EOS
  const Model ok = read_text(shell_with(jc_card(0, 0)));
  EXPECT_EQ(ok.parts.at(0).eosid, 0);
  std::string msg = read_error(shell_with(jc_card(0, 0, 70e9, 0.5)));
  EXPECT_NE(msg.find("PR"), std::string::npos) << msg;
  msg = read_error(deck("*NODE\n1,0,0,0\n2,1,0,0\n3,1,1,0\n4,0,1,0\n5,0,0,1\n6,1,0,1\n7,1,1,1\n"
                        "8,0,1,1\n*ELEMENT_SOLID\n1,1,1,2,3,4,5,6,7,8\n*PART\ncube\n1,1,1\n"
                        "*SECTION_SOLID\n1,1\n" +
                        jc_card(0, 0) + termination()));
  EXPECT_NE(msg.find("EOSID"), std::string::npos) << msg;
}
