// *MAT_SIMPLIFIED_JOHNSON_COOK (098), read from its card as a deck gives it, at one material
// point against closed forms:
//  - uniaxial stress, solids and shells, at rates below EPSO: sigma = A + B eps_p^N with
//    eps_p = eps - sigma/E (monotonic loading), solved by a scalar root finder; the return
//    meets the yield condition at the end of every step (1e-9 relative);
//  - the caps: SIGMAX stops the hardening, SIGSAT the rate-scaled stress;
//  - the rate term 1 + C ln(rate/EPSO) in uniaxial strain at a fixed rate (VP = 0), and the
//    viscoplastic form (VP = 1) against a bisection of the scalar consistency equation;
//  - the card: fields, defaults, alias, refused values named at their field.
#include <gtest/gtest.h>

#include <cmath>

#include <fmt/format.h>

#include "../input/keyword_test_util.hpp"
#include "mat_test_util.hpp"
#include "materials/catalogue.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

// A steel (SI): A = 350 MPa, B = 275 MPa, N = 0.36, C = 0.022 (Johnson & Cook's 4340-like
// constants), EPSO = 1 /s.
constexpr Real kA = 350e6, kB = 275e6, kN = 0.36, kC = 0.022;
const Real kG98 = kE / (2 * (1 + kNu));

std::string cube_with(const std::string& mat) {
  return deck("*NODE\n"
              "1,0,0,0\n2,1,0,0\n3,1,1,0\n4,0,1,0\n5,0,0,1\n6,1,0,1\n7,1,1,1\n8,0,1,1\n"
              "*ELEMENT_SOLID\n1,1,1,2,3,4,5,6,7,8\n*PART\ncube\n1,1,1\n*SECTION_SOLID\n1,1\n" +
              mat + termination());
}

/// Material 1 from a *MAT_SIMPLIFIED_JOHNSON_COOK card in fixed format (blank fields where a
/// value is NaN, so the card's defaults apply).
Material mat098(Real c = 0, Real vp = 0, Real sigmax = NAN, Real sigsat = NAN, Real psfail = NAN) {
  auto f = [](Real v) {
    return std::isnan(v) ? std::string(10, ' ') : fmt::format("{:>10.4g}", v);
  };
  const std::string card =
      fmt::format("*MAT_SIMPLIFIED_JOHNSON_COOK\n"
                  "{:>10}{:>10.4g}{:>10.4g}{:>10.4g}{}\n"
                  "{:>10.4g}{:>10.4g}{:>10.4g}{:>10.4g}{}{}{}\n",
                  1, kRo, kE, kNu, f(vp), kA, kB, kN, c, f(psfail), f(sigmax), f(sigsat));
  const Model m = read_text(cube_with(card));
  return m.materials.at(0);
}

/// Uniaxial stress at total strain eps on the curve R(eps_p) (monotonic loading).
Real uniaxial(Real eps, const std::function<Real(Real)>& r) {
  if (kE * eps <= r(0)) return kE * eps;
  auto f = [&](Real s) { return s - r(eps - s / kE); };
  return solve_increasing(f, r(0), kE * eps, 1e-6);
}

Real jc(Real ep) {
  return kA + kB * std::pow(ep, kN);
}

} // namespace

TEST(Mat098Card, FieldsDefaultsAndRefusals) {
  const Material mat = mat098();
  EXPECT_EQ(mat.kind, MaterialKind::SimplifiedJohnsonCook);
  EXPECT_STREQ(material_law(mat.kind).number, "098");
  EXPECT_EQ(mat.fs, 0.0); // PSFAIL's default 1e17: no failure
  const MaterialParams p = params(mat);
  EXPECT_TRUE(p.plastic());
  EXPECT_EQ(p.sigy, kA);
  EXPECT_FALSE(solid_batch_closed_form(p));
  EXPECT_FALSE(shell_direct_return(p));
  // the alias, free format, card 2 with only A
  const Model a = read_text(cube_with("*MAT_098\n1,7850,200e9,0.3\n350e6\n"));
  EXPECT_EQ(a.materials.at(0).kind, MaterialKind::SimplifiedJohnsonCook);
  EXPECT_EQ(yield_stress(params(a.materials.at(0)), 0.5, 1e3), 350e6); // no B, no C
  const std::string base = "*MAT_098\n1,7850,200e9,0.3";
  std::string msg = read_error(cube_with(base + "\n0,275e6,0.36\n"));
  EXPECT_NE(msg.find("A = 0"), std::string::npos) << msg;
  msg = read_error(cube_with(base + ",2\n350e6\n"));
  EXPECT_NE(msg.find("VP = 2"), std::string::npos) << msg;
  msg = read_error(cube_with(base + "\n350e6,275e6,0\n"));
  EXPECT_NE(msg.find("exponent N"), std::string::npos) << msg;
  msg = read_error(cube_with(base + "\n350e6,275e6,0.36,0,0,300e6\n"));
  EXPECT_NE(msg.find("below SIGMAX"), std::string::npos) << msg;
}

TEST(Mat098, UniaxialStressHardensAsAPlusBEpsNOnSolidsAndShells) {
  const MaterialParams m = params(mat098());
  SolidUniaxial solid(m);
  ShellUniaxial shell(m);
  for (Real target : {0.001, 0.004, 0.02, 0.1, 0.3}) {
    solid.go(target, 50);
    shell.go(target, 50);
    const Real ref = uniaxial(target, jc);
    SCOPED_TRACE(::testing::Message() << "eps " << target);
    EXPECT_NEAR(solid.sig[0], ref, 1e-9 * ref);
    EXPECT_NEAR(shell.sig[0], ref, 1e-9 * ref);
  }
}

TEST(Mat098, SigmaxStopsTheHardening) {
  // SIGMAX = 500 MPa: A + B eps^N reaches it at eps_p = (150/275)^(1/0.36) = 0.186
  const MaterialParams m = params(mat098(0, 0, 500e6));
  auto r = [](Real ep) { return std::min(500e6, jc(ep)); };
  SolidUniaxial solid(m);
  for (Real target : {0.05, 0.15, 0.25, 0.4}) {
    solid.go(target, 40);
    EXPECT_NEAR(solid.sig[0], uniaxial(target, r), 1e-9 * 500e6) << target;
  }
  EXPECT_EQ(solid.sig[0], 500e6);
}

TEST(Mat098, RateTermInUniaxialStrain) {
  // Uniaxial strain at d/dt = 1.5 rate (effective rate = rate): q = 2G eps - 3G eps_p =
  // S R(eps_p), S = 1 + C ln(rate / EPSO). Checked at the end of a path at 1000 /s, then the
  // same with SIGSAT = 480 MPa, which caps S R (from eps_p = 0.02 on).
  for (Real sigsat : {Real(NAN), Real(480e6)}) {
    const MaterialParams m = params(mat098(kC, 0, NAN, sigsat));
    const Real rate = 1000, s = 1 + kC * std::log(rate);
    const Real dt = 1e-7, d = 1.5 * rate * dt;
    Real sig[6] = {}, back[6] = {}, ep = 0;
    const Real deps[6] = {d, 0, 0, 0, 0, 0};
    for (int i = 0; i < 400; ++i) update_stress_solid(m, deps, dt, sig, back, ep);
    const Real eps = 400 * d;
    // reference eps_p: 2G eps - 3G x = min(sigsat, S R(x)), by bisection
    auto g = [&](Real x) {
      const Real sy = std::isnan(sigsat) ? s * jc(x) : std::min(sigsat, s * jc(x));
      return 2 * kG98 * eps - 3 * kG98 * x - sy;
    };
    const Real ref = bisect_decreasing(g, 0.0, eps);
    SCOPED_TRACE(::testing::Message() << "SIGSAT " << sigsat);
    EXPECT_NEAR(ep, ref, 1e-9 * ref);
    const Real q = sig[0] - sig[1];
    EXPECT_NEAR(q, std::isnan(sigsat) ? s * jc(ref) : 480e6, 1e-9 * q);
    // below EPSO the rate does nothing
    EXPECT_EQ(yield_stress(m, 0.1, 0.5), jc(0.1));
  }
}

TEST(Mat098, ViscoplasticVp1) {
  // VP = 1: the rate term at the plastic strain rate dep/dt, solved in the return:
  //   q_tr - 3G dep = R(eps_p + dep) (1 + C ln max(dep/dt, 1)). Reference by bisection.
  const MaterialParams m = params(mat098(kC, 1));
  const Real dt = 1e-6, d = 5e-4;
  Real sig[6] = {}, back[6] = {}, ep = 0;
  const Real dy[6] = {0.999 * kA / (2 * kG98), 0, 0, 0, 0, 0};
  EXPECT_EQ(update_stress_solid(m, dy, dt, sig, back, ep), 0.0);
  const Real deps[6] = {d, 0, 0, 0, 0, 0};
  for (int step = 0; step < 30; ++step) {
    const Real q_tr = (sig[0] - sig[1]) + 2 * kG98 * d;
    auto sy = [&](Real x) {
      const Real rate = x / dt;
      return jc(ep + x) * (rate > 1 ? 1 + kC * std::log(rate) : 1.0);
    };
    const Real ref = bisect_decreasing([&](Real x) { return q_tr - 3 * kG98 * x - sy(x); }, 0.0,
                                       q_tr / (3 * kG98));
    const Real dep = update_stress_solid(m, deps, dt, sig, back, ep);
    EXPECT_NEAR(dep, ref, 1e-10 * ref) << step;
  }
  EXPECT_GT(ep, 0.005);
}
