// *MAT_ISOTROPIC_ELASTIC_PLASTIC (012), solids only: von Mises plasticity with linear isotropic
// hardening, given by the shear and bulk moduli.
//
// Elasticity: G and K = BULK from the card; E = 9KG/(3K + G), nu = (3K - 2G)/(2(3K + G)) and
// lambda = K - 2G/3 (the hypoelastic increment sigma' = lambda tr(D) 1 + 2G D, so the pressure
// is integrated incrementally, p' = -K tr(D)).
// Yield: q = sqrt(3/2 s:s) <= sigy + Ep eps_p, with the plastic hardening modulus
// Ep = E Et / (E - Et) from the tangent modulus Et = ETAN of the uniaxial stress-strain curve
// (as *MAT_003 and *MAT_024 read ETAN). Update: the backward-Euler radial return of
// j2_return.cpp (Wilkins; Krieg & Key), exact in one step for linear hardening:
//   dep = (q_tr - sigy - Ep eps_p) / (3G + Ep),  s = s_tr (1 - 3G dep / q_tr).
// Uniaxial stress: slope E before yield and Et = E Ep/(E + Ep) after.
//
// Shells: LS-DYNA updates *MAT_012 shells with a non-iterative (one-step, inexact) plane-stress
// radial return; that update is not implemented, so shell parts are refused (update_shell is
// null; the domain set-up names the card).
#include <string>

#include <fmt/format.h>

#include "materials/j2_return.hpp"
#include "materials/law_support.hpp"
#include "materials/laws.hpp"

namespace parcae {

void prepare_isotropic_elastic_plastic(const Material& mat, const Model& model, MaterialParams& m) {
  auto fail = [&](const std::string& msg) { fail_card(mat, msg); };
  if (!(mat.g > 0)) fail(fmt::format("shear modulus G must be positive (got {})", mat.g));
  if (!(mat.bulk > 0)) fail(fmt::format("bulk modulus BULK must be positive (got {})", mat.bulk));
  const Real g = mat.g, k = mat.bulk;
  m.g = g;
  m.k = k;
  m.lambda = k - 2.0 / 3.0 * g;
  m.e = 9.0 * k * g / (3.0 * k + g);
  m.nu = (3.0 * k - 2.0 * g) / (2.0 * (3.0 * k + g));
  if (!(mat.sigy > 0)) fail(fmt::format("yield stress SIGY must be positive (got {})", mat.sigy));
  if (!(mat.etan >= 0))
    fail(fmt::format("tangent modulus ETAN must not be negative (got {})", mat.etan));
  if (!(mat.etan < m.e))
    fail(fmt::format("tangent modulus ETAN = {} must be smaller than E = 9 BULK G / (3 BULK + G) "
                     "= {}",
                     mat.etan, m.e));
  m.sigy = mat.sigy;
  m.etan = mat.etan;
  m.ep = m.e * mat.etan / (m.e - mat.etan);
  m.beta = 1; // isotropic hardening
}

Real update_isotropic_elastic_plastic_solid(const MaterialParams& m, const Real deps[6], Real dt,
                                            Real sig[6], Real back[6], Real& eps_p) {
  j2::elastic_increment(m, deps, sig);
  // no back stress (isotropic hardening), no rate effect
  const Real dep = j2::radial_return(m, sig, nullptr, eps_p, 0.0, dt, nullptr);
  eps_p += dep;
  return dep;
}

namespace {

void read_isotropic_elastic_plastic_card(const io::Fields& h, LawReader& r) {
  Material& m = r.mat;
  read_shear_modulus(h, m);
  m.sigy = h.real("SIGY");
  m.etan = h.real("ETAN");
  m.bulk = h.real("BULK");
  if (!(m.bulk > 0))
    fail(h.loc("BULK"),
         fmt::format("material {}: bulk modulus BULK = {} must be positive", m.id, m.bulk));
  if (!(m.sigy > 0))
    fail(h.loc("SIGY"),
         fmt::format("material {}: yield stress SIGY = {} must be positive", m.id, m.sigy));
  if (!(m.etan >= 0))
    fail(h.loc("ETAN"),
         fmt::format("material {}: tangent modulus ETAN = {} must not be negative", m.id, m.etan));
}

} // namespace

const MaterialLaw& law_isotropic_elastic_plastic() {
  using namespace io::card_fields;
  static const MaterialLaw law{
      .kind = MaterialKind::IsotropicElasticPlastic,
      .card = "*MAT_ISOTROPIC_ELASTIC_PLASTIC",
      .number = "012",
      .summary = "von Mises plasticity, linear isotropic hardening, from G and BULK; solids only",
      .history = 1, // effective plastic strain
      .incremental = true,
      .plastic = true,
      .hyperelastic = false,
      .hydrodynamic = false,
      .rigid = false,
      .keyword = {.name = "*MAT_ISOTROPIC_ELASTIC_PLASTIC",
                  .aliases = {"*MAT_012"},
                  .options = {"TITLE"},
                  .head = {title_card(),
                           {"Card 1",
                            {I("MID").req(), R("RO"), R("G"), R("SIGY"), R("ETAN"), R("BULK")}}},
                  .summary =
                      "Isotropic elastic-plastic (solids only): shear modulus G, bulk modulus "
                      "BULK, von Mises yield SIGY + Ep eps_p with linear isotropic hardening, Ep "
                      "= E ETAN / (E - ETAN) (ETAN the tangent modulus, E = 9 BULK G / (3 BULK + "
                      "G)); radial return, hypoelastic pressure. Shell parts are an error "
                      "(LS-DYNA's non-iterative plane-stress update is not implemented)."},
      .read = read_isotropic_elastic_plastic_card,
      .prepare = prepare_isotropic_elastic_plastic,
      .update_solid = update_isotropic_elastic_plastic_solid,
      .update_shell = nullptr,
      .update_deviator = nullptr,
      .wave_speed = reference_wave_speed};
  return law;
}
} // namespace parcae
