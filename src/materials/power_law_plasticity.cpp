// *MAT_POWER_LAW_PLASTICITY (018): von Mises plasticity with power-law isotropic hardening
//   sigma_y = K (eps_yp + eps_p)^N,
// eps_p the effective plastic strain and eps_yp the elastic strain to yield: (SIGY / K)^(1/N)
// when SIGY > 0, otherwise where the elastic line E eps meets the power law,
// eps_yp = (E / K)^(1/(N - 1)) (0 <= N < 1). Rate effects by Cowper-Symonds,
// 1 + (rate / SRC)^(1/SRP): VP = 0 scales the yield stress at the total strain rate, VP = 1 is
// the viscoplastic form at the plastic strain rate. EPSF: failure (element erosion) at that
// plastic strain. Solids and shells, on the shared radial return (j2_return.cpp) with this
// file's hardening function.
//
// This file is the whole law: its card table, its constants, its read / prepare functions and
// its row of the catalogue; core/material_laws.def has its one line
// (docs/adding_a_material.md uses it as the worked example).
#include <cmath>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "materials/law_support.hpp"
#include "materials/laws.hpp"

namespace parcae {

namespace {

/// The law's constants, from the card (read_card) and kept in MaterialParams::law_data.
struct PowerLaw {
  Real k = 0;      ///< K, the strength coefficient
  Real n = 0;      ///< N, the hardening exponent
  Real src = 0;    ///< SRC, Cowper-Symonds C (0: no rate effect)
  Real srp = 0;    ///< SRP, Cowper-Symonds P
  Real sigy = 0;   ///< SIGY (0: yield where E eps meets K eps^N)
  Real vp = 0;     ///< VP: 0 scale the yield stress, 1 viscoplastic
  Real eps_yp = 0; ///< elastic strain to yield (from SIGY or the intersection)
};

void read_card(const io::Fields& h, LawReader& r) {
  Material& m = r.mat;
  read_elastic(h, m);
  auto p = std::make_shared<PowerLaw>();
  p->k = h.real("K");
  p->n = h.real("N");
  p->src = h.real("SRC");
  p->srp = h.real("SRP");
  p->sigy = h.real("SIGY");
  p->vp = h.real("VP");
  m.fs = read_failure_strain(h, "EPSF", m.id); // the plastic laws' failure strain
  if (!(p->k > 0))
    fail(h.loc("K"),
         fmt::format("material {}: strength coefficient K = {} must be positive", m.id, p->k));
  if (!(p->n >= 0))
    fail(h.loc("N"),
         fmt::format("material {}: hardening exponent N = {} must not be negative", m.id, p->n));
  if (!(p->sigy >= 0))
    fail(h.loc("SIGY"),
         fmt::format("material {}: yield stress SIGY = {} must not be negative", m.id, p->sigy));
  if (p->sigy == 0 && !(p->n < 1))
    fail(h.loc("SIGY"), fmt::format("material {}: with N = {} >= 1 the elastic line does not meet "
                                    "K eps^N: give SIGY",
                                    m.id, p->n));
  if (p->vp != 0 && p->vp != 1)
    fail(h.loc("VP"), fmt::format("material {}: VP = {} must be 0 (scale the yield stress) or 1 "
                                  "(viscoplastic)",
                                  m.id, p->vp));
  if (!(p->src >= 0))
    fail(h.loc("SRC"), fmt::format("material {}: SRC = {} must not be negative", m.id, p->src));
  if (p->src > 0 && !(p->srp > 0))
    fail(h.loc("SRP"),
         fmt::format("material {}: SRP = {} must be positive when SRC > 0", m.id, p->srp));
  // Elastic strain to yield: SIGY = K eps_yp^N, or E eps_yp = K eps_yp^N.
  p->eps_yp = p->sigy > 0 ? (p->n > 0 ? std::pow(p->sigy / p->k, 1.0 / p->n) : 0.0)
                          : std::pow(m.e / p->k, 1.0 / (p->n - 1.0));
  if (p->sigy > 0 && p->n == 0 && p->sigy != p->k)
    fail(h.loc("SIGY"), fmt::format("material {}: with N = 0 the yield stress is K = {}; SIGY = {} "
                                    "contradicts it (leave SIGY blank)",
                                    m.id, p->k, p->sigy));
  m.law_card = std::move(p);
}

/// R(eps_p) = K (eps_yp + eps_p)^N and its slope.
Real hardening(const MaterialParams& m, Real eps_p, Real& slope) {
  const PowerLaw& p = m.law_params<PowerLaw>();
  const Real x = p.eps_yp + eps_p;
  if (p.n == 0 || !(x > 0)) {
    slope = 0;
    return p.n == 0 ? p.k : 0.0;
  }
  const Real r = p.k * std::pow(x, p.n);
  slope = p.n * r / x;
  return r;
}

void prepare(const Material& mat, const Model& /*model*/, MaterialParams& m) {
  prepare_elastic_constants(mat, m);
  const PowerLaw& p = mat.card<PowerLaw>();
  m.hardening_fn = hardening;
  Real slope = 0;
  m.sigy = hardening(m, 0.0, slope); // the initial yield stress (the function is used)
  m.beta = 1;                        // isotropic
  m.c = p.src;
  m.p = p.src > 0 ? p.srp : 0;
  m.vp = p.vp;
  m.fail = mat.fs;
}

} // namespace

const MaterialLaw& law_power_law_plasticity() {
  using namespace io::card_fields;
  static const MaterialLaw law{
      .kind = MaterialKind::PowerLawPlasticity,
      .card = "*MAT_POWER_LAW_PLASTICITY",
      .number = "018",
      .summary = "von Mises plasticity, power-law isotropic hardening K (eps_yp + eps_p)^N, "
                 "Cowper-Symonds rate effects",
      .history = 1, // effective plastic strain
      .incremental = true,
      .plastic = true,
      .hyperelastic = false,
      .hydrodynamic = false,
      .rigid = false,
      .keyword = {.name = "*MAT_POWER_LAW_PLASTICITY",
                  .aliases = {"*MAT_018"},
                  .options = {"TITLE"},
                  .head = {title_card(),
                           {"Card 1",
                            join(mid_ro_e_pr_fields(), {R("K"), R("N"), R("SRC"), R("SRP")})},
                           {"Card 2", {R("SIGY"), R("VP"), R("EPSF")}}},
                  .summary =
                      "Power-law plasticity (solids and shells): yield stress K (eps_yp + "
                      "eps_p)^N with eps_yp = (SIGY/K)^(1/N) when SIGY > 0, else where E eps "
                      "meets K eps^N (N < 1 required then); Cowper-Symonds factor 1 + "
                      "(rate/SRC)^(1/SRP) on the yield stress (VP = 0, total strain rate) or "
                      "viscoplastic (VP = 1, plastic strain rate); elements erode at the plastic "
                      "strain EPSF (0 or >= 1e20: never). Card 2 may be left out."},
      .read = read_card,
      .prepare = prepare,
      .update_solid = update_j2_solid,
      .update_shell = update_j2_shell,
      .update_deviator = nullptr,
      .wave_speed = reference_wave_speed};
  return law;
}

} // namespace parcae
