// *MAT_PLASTICITY_WITH_DAMAGE (081), read from its card as a deck gives it, at one material point
// against closed forms. Damage D = (eps_p - EPPF) / (EPPFR - EPPF) scales the stress of the
// undamaged material (linear hardening: sigma~ = SIGY + Ep eps_p, Ep = E Et / (E - Et)):
//  - solid and shell points in uniaxial stress: sigma_xx = (1 - D(eps_p)) sigma~ with eps_p =
//    (eps - SIGY / E) / (1 + Ep / E) (the lateral stresses vanish with the undamaged ones, so the
//    undamaged path is *MAT_024's); before EPPF the stresses are *MAT_024's bit for bit;
//  - unloading from a damaged state: the secant modulus (1 - D) E;
//  - at EPPFR the point ruptures: no stress, whatever the strain after;
//  - the card: aliases and _STOCHASTIC, the failure strain and NUMINT handed to the erosion rule,
//    refused values named at their field, and the defaults (no damage: *MAT_024's stresses).
#include <gtest/gtest.h>

#include <cmath>

#include <fmt/format.h>

#include "../input/keyword_test_util.hpp"
#include "mat_test_util.hpp"
#include "materials/catalogue.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

constexpr Real kEppf = 0.05, kEppfr = 0.15;

std::string cube_with(const std::string& mat) {
  return deck("*NODE\n"
              "1,0,0,0\n2,1,0,0\n3,1,1,0\n4,0,1,0\n5,0,0,1\n6,1,0,1\n7,1,1,1\n8,0,1,1\n"
              "*ELEMENT_SOLID\n1,1,1,2,3,4,5,6,7,8\n*PART\ncube\n1,1,1\n*SECTION_SOLID\n1,1\n" +
              mat + termination());
}

/// *MAT_081 with kE, kNu, kSigy, kEt (mat_test_util), EPPF, EPPFR and NUMINT in fixed format.
std::string mat081(const std::string& name = "*MAT_081", Real eppf = kEppf, Real eppfr = kEppfr,
                   const std::string& extra2 = "") {
  return fmt::format("{}\n{:>10}{:>10.4g}{:>10.4g}{:>10.4g}{:>10.4g}{:>10.4g}{:>10.4g}\n"
                     "{:>10}{:>10}{:>10}{:>10}{:>10}{}\n",
                     name, 1, kRo, kE, kNu, kSigy, kEt, eppf, 0.0, 0.0, 0, 0, eppfr, extra2);
}

MaterialParams params_of(const std::string& text, Model& keep) {
  keep = read_text(cube_with(text));
  return make_material_params(keep.materials.at(0), keep);
}

const Real kEp = kE * kEt / (kE - kEt);

Real undamaged(Real eps_p) {
  return kSigy + kEp * eps_p;
}
Real damage(Real eps_p) {
  return std::clamp((eps_p - kEppf) / (kEppfr - kEppf), 0.0, 1.0);
}

} // namespace

TEST(Mat081, UniaxialStressSoftensAsOneMinusDamageTimesTheHardeningCurve) {
  Model model, m24;
  const MaterialParams m = params_of(mat081(), model);
  const MaterialParams p24 =
      params_of(fmt::format("*MAT_024\n1,{},{},{},{},{}\n", kRo, kE, kNu, kSigy, kEt), m24);
  SolidUniaxial solid(m), ref(p24);
  ShellUniaxial shell(m);
  const int n = 20;
  for (Real target : {0.01, 0.03, 0.049, 0.07, 0.1, 0.13, 0.149}) {
    solid.go(target, n);
    shell.go(target, n);
    if (target < kEppf) { // before softening: *MAT_024's stresses
      ref.go(target, n);
      EXPECT_EQ(solid.sig[0], ref.sig[0]) << target;
      EXPECT_EQ(solid.eps_p, ref.eps_p) << target;
    }
    const Real ep = (target - kSigy / kE) / (1 + kEp / kE);
    for (const Real got_ep : {solid.eps_p, shell.eps_p})
      EXPECT_NEAR(got_ep, ep, 1e-9 * ep) << target;
    const Real expect = (1 - damage(ep)) * undamaged(ep);
    EXPECT_NEAR(solid.sig[0], expect, 1e-9 * undamaged(ep)) << target;
    EXPECT_NEAR(shell.sig[0], expect, 1e-9 * undamaged(ep)) << target;
    EXPECT_NEAR(solid.sig[1], 0.0, 1e-6 * undamaged(ep));
  }
  EXPECT_GT(damage(solid.eps_p), 0.9); // the path went deep into the softening
}

TEST(Mat081, DamagedPointUnloadsWithTheSecantModulus) {
  Model model;
  const MaterialParams m = params_of(mat081(), model);
  SolidUniaxial solid(m);
  solid.go(0.1, 40);
  const Real d = damage(solid.eps_p), s0 = solid.sig[0], ep0 = solid.eps_p;
  ASSERT_GT(d, 0.3);
  solid.go(0.1 - 0.2 * kSigy / kE, 10); // elastic unloading
  EXPECT_EQ(solid.eps_p, ep0);
  EXPECT_NEAR(s0 - solid.sig[0], (1 - d) * kE * 0.2 * kSigy / kE, 1e-9 * s0);
}

TEST(Mat081, RupturedPointCarriesNoStress) {
  Model model;
  const MaterialParams m = params_of(mat081(), model);
  SolidUniaxial solid(m);
  ShellUniaxial shell(m);
  solid.go(0.2, 80);
  shell.go(0.2, 80);
  EXPECT_GE(solid.eps_p, kEppfr);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(solid.sig[i], 0.0) << i;
  for (int i = 0; i < 5; ++i) EXPECT_EQ(shell.sig[i], 0.0) << i;
  solid.go(0.1, 20); // and stays so
  EXPECT_EQ(solid.sig[0], 0.0);
}

TEST(Mat081Card, AliasesFailureRuleAndRefusedValues) {
  for (const std::string& name : {"*MAT_081", "*MAT_PLASTICITY_WITH_DAMAGE", "*MAT_081_STOCHASTIC",
                                  "*MAT_PLASTICITY_WITH_DAMAGE_STOCHASTIC"}) {
    const Model model =
        read_text(cube_with(mat081(name, kEppf, kEppfr, "       0.0         0       2.0")));
    const Material& mat = model.materials.at(0);
    EXPECT_EQ(mat.kind, MaterialKind::PlasticityWithDamage) << name;
    EXPECT_STREQ(material_law(mat.kind).number, "081");
    EXPECT_EQ(mat.fs, kEppfr) << name; // elements erode at rupture
    EXPECT_EQ(mat.fail_points, 2.0) << name;
  }
  // the defaults (EPPF 1e12, EPPFR 1e14): no damage, no rupture, *MAT_024's stresses
  Model dflt, m24;
  const MaterialParams p =
      params_of(fmt::format("*MAT_081\n1,{},{},{},{},{}\n", kRo, kE, kNu, kSigy, kEt), dflt);
  EXPECT_EQ(dflt.materials.at(0).fs, 0.0);
  const MaterialParams p24 =
      params_of(fmt::format("*MAT_024\n1,{},{},{},{},{}\n", kRo, kE, kNu, kSigy, kEt), m24);
  SolidUniaxial a(p), b(p24);
  a.go(0.5, 50);
  b.go(0.5, 50);
  EXPECT_EQ(a.sig[0], b.sig[0]);
  for (const auto& [text, field] : std::vector<std::pair<std::string, std::string>>{
           {mat081("*MAT_081", 0.2, 0.1), "EPPFR = 0.1"},
           {mat081("*MAT_081", -0.1, 0.1), "EPPF = -0.1"},
           {mat081("*MAT_081", kEppf, kEppfr, "       0.0         7"), "LCDM = 7"},
           {mat081("*MAT_081", kEppf, kEppfr, "       0.0         0       1.5"), "NUMINT = 1.5"}}) {
    const std::string err = read_error(cube_with(text));
    EXPECT_NE(err.find(field), std::string::npos) << err;
    EXPECT_NE(err.find("deck.k:"), std::string::npos) << err;
  }
}
