// *MAT_SIMPLIFIED_JOHNSON_COOK (098): von Mises plasticity on the Johnson-Cook yield stress
// without its thermal term,
//   sigma_y = min(SIGSAT, min(SIGMAX, A + B eps_p^N) (1 + C ln max(rate / EPSO, 1))),
// eps_p the effective plastic strain; the rate is the total effective strain rate (VP = 0, the
// yield stress scaled) or the plastic strain rate (VP = 1, viscoplastic, solved in the return).
// PSFAIL: failure (element erosion) at that plastic strain. Solids and shells (integrated beams
// refuse it, as they refuse every law but 001, 003, 024 and 100), on the
// shared radial return (j2_return.cpp) with this file's hardening and rate functions; no
// equation of state (the pressure is elastic, as for *MAT_024).
//
// This file is the whole law; core/material_laws.def has its one line.
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "materials/law_support.hpp"
#include "materials/laws.hpp"

namespace parcae {

namespace {

/// The law's constants (MaterialParams::law_data).
struct SimplifiedJohnsonCook {
  Real a = 0, b = 0, n = 0, c = 0;
  Real sigmax = std::numeric_limits<Real>::infinity(); ///< cap on A + B eps^N
  Real sigsat = std::numeric_limits<Real>::infinity(); ///< cap on the rate-scaled stress
  Real epso = 1;                                       ///< EPSO, the reference strain rate
  Real vp = 0;
};

/// LS-DYNA's "no cap" defaults (1e28 for SIGMAX and SIGSAT, 1e17 for PSFAIL): any value from
/// 1e20 up is no cap.
Real cap(Real v) {
  return v <= 0 || v >= 1e20 ? std::numeric_limits<Real>::infinity() : v;
}

void read_card(const io::Fields& h, LawReader& r) {
  Material& m = r.mat;
  read_elastic(h, m);
  auto p = std::make_shared<SimplifiedJohnsonCook>();
  p->vp = h.real("VP");
  p->a = h.real("A");
  p->b = h.real("B");
  p->n = h.real("N");
  p->c = h.real("C");
  p->sigmax = cap(h.real("SIGMAX"));
  p->sigsat = cap(h.real("SIGSAT"));
  p->epso = h.real("EPSO") > 0 ? h.real("EPSO") : 1.0;
  m.fs = read_failure_strain(h, "PSFAIL", m.id);
  if (m.fs >= 1e17) m.fs = 0; // LS-DYNA's default PSFAIL, 1e17: no failure
  if (!(p->a > 0))
    fail(h.loc("A"),
         fmt::format("material {}: the yield stress A = {} must be positive", m.id, p->a));
  if (!(p->b >= 0))
    fail(h.loc("B"), fmt::format("material {}: B = {} must not be negative", m.id, p->b));
  if (p->b > 0 && !(p->n > 0))
    fail(h.loc("N"), fmt::format("material {}: the hardening exponent N = {} must be positive "
                                 "when B > 0",
                                 m.id, p->n));
  if (!(p->c >= 0))
    fail(h.loc("C"),
         fmt::format("material {}: the rate coefficient C = {} must not be negative", m.id, p->c));
  if (p->vp != 0 && p->vp != 1)
    fail(h.loc("VP"), fmt::format("material {}: VP = {} must be 0 (scale the yield stress) or 1 "
                                  "(viscoplastic)",
                                  m.id, p->vp));
  if (!(p->a < p->sigmax) || !(p->a < p->sigsat))
    fail(h.loc("A"),
         fmt::format("material {}: A = {} must be below SIGMAX and SIGSAT", m.id, p->a));
  m.law_card = std::move(p);
}

/// R(eps_p) = min(SIGMAX, A + B eps_p^N) and its slope.
Real hardening(const MaterialParams& m, Real eps_p, Real& slope) {
  const SimplifiedJohnsonCook& p = m.law_params<SimplifiedJohnsonCook>();
  slope = 0;
  if (!(p.b > 0) || !(eps_p > 0)) return p.a;
  const Real pw = std::pow(eps_p, p.n);
  const Real r = p.a + p.b * pw;
  if (r >= p.sigmax) return p.sigmax;
  slope = p.b * p.n * pw / eps_p;
  return r;
}

/// S(rate) = 1 + C ln(rate / EPSO) above EPSO, 1 below, and dS/drate.
Real rate_factor(const MaterialParams& m, Real rate, Real& dsdr) {
  const SimplifiedJohnsonCook& p = m.law_params<SimplifiedJohnsonCook>();
  dsdr = 0;
  if (!(p.c > 0) || !(rate > p.epso)) return 1.0;
  dsdr = p.c / rate;
  return 1.0 + p.c * std::log(rate / p.epso);
}

void prepare(const Material& mat, const Model& /*model*/, MaterialParams& m) {
  prepare_elastic_constants(mat, m);
  const SimplifiedJohnsonCook& p = mat.card<SimplifiedJohnsonCook>();
  m.hardening_fn = hardening;
  if (p.c > 0) m.rate_fn = rate_factor;
  m.sigsat = p.sigsat;
  m.sigy = p.a; // the initial (quasi-static) yield stress
  m.beta = 1;   // isotropic
  m.c = 0;      // no Cowper-Symonds
  m.vp = p.vp;
  m.fail = mat.fs;
}

} // namespace

const MaterialLaw& law_simplified_johnson_cook() {
  using namespace io::card_fields;
  static const MaterialLaw law{
      .kind = MaterialKind::SimplifiedJohnsonCook,
      .card = "*MAT_SIMPLIFIED_JOHNSON_COOK",
      .number = "098",
      .summary = "von Mises plasticity on the Johnson-Cook yield stress without its thermal term, "
                 "with caps SIGMAX and SIGSAT",
      .history = 1, // effective plastic strain
      .incremental = true,
      .plastic = true,
      .keyword = {.name = "*MAT_SIMPLIFIED_JOHNSON_COOK",
                  .aliases = {"*MAT_098"},
                  .options = {"TITLE", "STOCHASTIC"},
                  .head = {title_card(),
                           {"Card 1", join(mid_ro_e_pr_fields(), {R("VP")})},
                           {"Card 2",
                            {R("A"), R("B"), R("N"), R("C"), R("PSFAIL", "1.0E+17"),
                             R("SIGMAX", "1.0E+28"), R("SIGSAT", "1.0E+28"), R("EPSO", "1.0")}}},
                  .summary =
                      "Johnson-Cook plasticity without temperature (solids and shells): yield "
                      "stress min(SIGSAT, min(SIGMAX, A + B eps_p^N) (1 + C ln max(rate/EPSO, "
                      "1))), at the total effective strain rate (VP = 0) or the plastic strain "
                      "rate (VP = 1, viscoplastic). Elements erode at the plastic strain PSFAIL "
                      "(1e17 or more, or 0: never). SIGMAX, SIGSAT of 1e20 or more: no cap."
                      " _STOCHASTIC: the same card; without *DEFINE_STOCHASTIC_VARIATION (which "
                      "parcae refuses) no element varies, so it is the law itself."},
      .read = read_card,
      .prepare = prepare,
      .update_solid = update_j2_solid,
      .update_shell = update_j2_shell,
      .wave_speed = reference_wave_speed};
  return law;
}

} // namespace parcae
