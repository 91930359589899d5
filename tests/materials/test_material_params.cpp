// make_material_params: derived constants, validation errors, yield_stress, wave speeds.
// References are closed-form expressions evaluated independently here; tolerance 1e-14
// relative (a few rounding steps of the same algebra in a different order).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "mat_test_util.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

constexpr Real kRel = 1e-14;

void expect_rel(Real a, Real b, Real rel) {
  EXPECT_NEAR(a, b, rel * std::abs(b)) << a << " vs " << b;
}

/// Expect an InputError at the card's location whose message contains `fragment`.
template <class F> void expect_input_error(F f, const std::string& fragment) {
  try {
    f();
    ADD_FAILURE() << "no InputError thrown (expected '" << fragment << "')";
  } catch (const InputError& e) {
    EXPECT_NE(e.message().find(fragment), std::string::npos) << e.message();
    EXPECT_EQ(e.loc().line, 42);
    EXPECT_EQ(e.loc().file, "deck.k");
  }
}

} // namespace

TEST(MaterialParams, ElasticDerivedModuli) {
  const MaterialParams m = params(elastic_card());
  // G = E/(2(1+nu)) = 200e9/2.6, K = E/(3(1-2nu)) = 200e9/1.2, lambda = E nu/((1+nu)(1-2nu))
  expect_rel(m.g, 200e9 / 2.6, kRel);
  expect_rel(m.k, 200e9 / 1.2, kRel);
  expect_rel(m.lambda, 200e9 * 0.3 / (1.3 * 0.4), kRel);
  EXPECT_EQ(m.kind, MaterialKind::Elastic);
  EXPECT_EQ(m.id, 1);
  EXPECT_FALSE(m.plastic());
  EXPECT_EQ(yield_stress(m, 0, 0), std::numeric_limits<Real>::infinity());
}

TEST(MaterialParams, WaveSpeeds) {
  const MaterialParams m = params(elastic_card());
  // c_d = sqrt(E(1-nu)/((1+nu)(1-2nu) rho)), c_plate = sqrt(E/(rho(1-nu^2)))
  expect_rel(m.wave_speed_solid(), std::sqrt(200e9 * 0.7 / (1.3 * 0.4 * 7850.0)), kRel);
  expect_rel(m.wave_speed_shell(), std::sqrt(200e9 / (7850.0 * (1 - 0.09))), kRel);
  // steel: about 5.8 km/s and 5.3 km/s (sanity on units)
  EXPECT_NEAR(m.wave_speed_solid(), 5860, 20);
  EXPECT_NEAR(m.wave_speed_shell(), 5290, 20);
}

TEST(MaterialParams, PlasticKinematicConstants) {
  Material c = mat003_card(0.25);
  c.src = 40.4;
  c.srp = 5;
  c.fs = 0.3;
  const MaterialParams m = params(c);
  EXPECT_TRUE(m.plastic());
  // Ep = E Et/(E - Et)
  expect_rel(m.ep, kE * kEt / (kE - kEt), kRel);
  EXPECT_EQ(m.beta, 0.25);
  EXPECT_EQ(m.c, 40.4);
  EXPECT_EQ(m.p, 5);
  EXPECT_EQ(m.fail, 0.3);
  EXPECT_FALSE(m.failed(0.2999));
  EXPECT_TRUE(m.failed(0.3));
  // yield radius: (1 + (rate/C)^(1/P)) (sigy + beta Ep eps_p)
  const Real ep = kE * kEt / (kE - kEt);
  expect_rel(yield_stress(m, 0.1, 0), kSigy + 0.25 * ep * 0.1, kRel);
  expect_rel(yield_stress(m, 0.1, 100.0),
             (1 + std::pow(100.0 / 40.4, 0.2)) * (kSigy + 0.25 * ep * 0.1), kRel);
}

TEST(MaterialParams, NoFailureWhenZero) {
  const MaterialParams m = params(mat003_card(1));
  EXPECT_FALSE(m.failed(1e6));
}

TEST(MaterialParams, RigidNeedsOnlyElasticData) {
  Material c = elastic_card();
  c.kind = MaterialKind::Rigid;
  c.sigy = -5; // ignored
  const MaterialParams m = params(c);
  EXPECT_EQ(m.kind, MaterialKind::Rigid);
  expect_rel(m.g, 200e9 / 2.6, kRel);
  EXPECT_FALSE(m.plastic());
}

TEST(MaterialParams, Mat024LinearAndCurve) {
  Model model;
  model.curves.push_back(make_curve(7, {0, 0.1, 0.2}, {300e6, 400e6, 450e6}));
  Material c = mat024_card();
  const MaterialParams lin = params(c, model);
  expect_rel(lin.ep, kE * kEt / (kE - kEt), kRel);
  expect_rel(yield_stress(lin, 0.05, 0), kSigy + 0.05 * kE * kEt / (kE - kEt), kRel);

  // LCSS overrides SIGY/ETAN (an ETAN >= E is then not an error)
  c.lcss = 7;
  c.etan = 5 * kE;
  const MaterialParams tab = params(c, model);
  EXPECT_EQ(tab.beta, 1);
  expect_rel(yield_stress(tab, 0, 0), 300e6, kRel);
  expect_rel(yield_stress(tab, 0.05, 0), 350e6, kRel);
  expect_rel(yield_stress(tab, 0.15, 0), 425e6, kRel);
  // beyond the last point: last segment extrapolated (slope 0.5e9): 450e6 + 0.5e9 * 0.1
  expect_rel(yield_stress(tab, 0.3, 0), 500e6, kRel);
}

TEST(MaterialParams, Mat024RateScaling) {
  Model model;
  model.curves.push_back(make_curve(8, {0, 100, 1000}, {1.0, 1.5, 2.0}));
  Material c = mat024_card();
  c.src = 40.4;
  c.srp = 5;
  const MaterialParams cs = params(c, model);
  expect_rel(yield_stress(cs, 0, 40.4), 2 * kSigy, kRel); // (C/C)^(1/P) = 1
  expect_rel(yield_stress(cs, 0, 1e3), (1 + std::pow(1e3 / 40.4, 0.2)) * kSigy, kRel);
  c.lcsr = 8; // overrides C, P
  const MaterialParams lc = params(c, model);
  expect_rel(yield_stress(lc, 0, 550), 1.75 * kSigy, kRel);
  expect_rel(yield_stress(lc, 0, 50), 1.25 * kSigy, kRel);
  expect_rel(yield_stress(lc, 0, 1e5), 2.0 * kSigy, kRel); // constant beyond the end
}

TEST(MaterialParams, Errors) {
  Model model;
  model.curves.push_back(make_curve(9, {0, 0.1}, {300e6, 350e6}));
  model.curves.push_back(make_curve(10, {0, 0.1, 0.1}, {300e6, 350e6, 360e6}));

  expect_input_error(
      [] {
        Material c = elastic_card();
        c.e = 0;
        params(c);
      },
      "Young's modulus");
  expect_input_error(
      [] {
        Material c = elastic_card();
        c.e = -1;
        params(c);
      },
      "Young's modulus");
  expect_input_error(
      [] {
        Material c = elastic_card();
        c.pr = 0.5;
        params(c);
      },
      "Poisson");
  expect_input_error(
      [] {
        Material c = elastic_card();
        c.pr = -1.0;
        params(c);
      },
      "Poisson");
  expect_input_error(
      [] {
        Material c = elastic_card();
        c.ro = 0;
        params(c);
      },
      "density");
  expect_input_error([] { params(mat003_card(1, kSigy, kE)); }, "ETAN");
  expect_input_error([] { params(mat003_card(1, kSigy, 2 * kE)); }, "ETAN");
  expect_input_error([] { params(mat003_card(1, kSigy, -1)); }, "ETAN");
  expect_input_error([] { params(mat003_card(1, 0)); }, "SIGY");
  expect_input_error([] { params(mat003_card(1.5)); }, "BETA");
  expect_input_error(
      [] {
        Material c = mat003_card(1);
        c.src = 40;
        params(c);
      },
      "SRP");
  expect_input_error([] { params(mat024_card(kSigy, kE)); }, "ETAN");
  expect_input_error(
      [&] {
        Material c = mat024_card();
        c.lcss = 99;
        params(c, model);
      },
      "LCSS curve 99");
  expect_input_error(
      [&] {
        Material c = mat024_card();
        c.lcsr = 98;
        params(c, model);
      },
      "LCSR curve 98");
  expect_input_error(
      [&] {
        Material c = mat024_card();
        c.lcss = 10;
        params(c, model);
      },
      "increase");
  expect_input_error(
      [&] {
        Material c = mat024_card();
        c.vp = 2;
        params(c, model);
      },
      "VP");
  expect_input_error(
      [&] {
        Material c = mat024_card();
        c.fs = -1;
        params(c, model);
      },
      "FAIL");
  expect_input_error(
      [&] {
        Material c = mat024_card();
        c.src = 10;
        params(c, model);
      },
      "P must");
  // the message names the card and the material id
  expect_input_error(
      [&] {
        Material c = mat024_card();
        c.lcss = 99;
        params(c, model);
      },
      "*MAT_PIECEWISE_LINEAR_PLASTICITY 24");
  // a valid curve id is accepted
  EXPECT_NO_THROW({
    Material c = mat024_card();
    c.lcss = 9;
    params(c, model);
  });
}

TEST(MaterialRegression, ViscoplasticFlagWithoutRateEffectIsRateIndependent) {
  // *MAT_024 VP = 1 with neither C/P nor LCSR has no rate effect: yielding must follow the
  // rate-independent return (it used to give NaN).
  parcae::Material m;
  m.id = 1;
  m.kind = parcae::MaterialKind::PiecewiseLinear;
  m.ro = 7.85e-9;
  m.e = 210000;
  m.pr = 0.3;
  m.sigy = 250;
  m.etan = 1000;
  m.vp = 1;
  parcae::Model model;
  const auto p = parcae::make_material_params(m, model);
  m.vp = 0;
  const auto q = parcae::make_material_params(m, model);
  double s1[6] = {}, s2[6] = {}, b1[6] = {}, b2[6] = {}, e1 = 0, e2 = 0;
  const double de[6] = {5e-3, -1e-3, -1e-3, 1e-3, 0, 0};
  parcae::update_stress_solid(p, de, 1e-6, s1, b1, e1);
  parcae::update_stress_solid(q, de, 1e-6, s2, b2, e2);
  EXPECT_GT(e1, 0.0);
  for (int i = 0; i < 6; ++i) EXPECT_DOUBLE_EQ(s1[i], s2[i]);
  EXPECT_DOUBLE_EQ(e1, e2);
}
