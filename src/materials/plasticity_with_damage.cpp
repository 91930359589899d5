// *MAT_PLASTICITY_WITH_DAMAGE (081): *MAT_024's von Mises plasticity (linear or tabulated
// hardening, rate effects, TDEL) with softening by damage between two plastic strains:
//   D = (eps_p - EPPF) / (EPPFR - EPPF), clamped to [0, 1],
// and the stress sigma = (1 - D) sigma~, sigma~ the stress of the undamaged material. The point
// ruptures at EPPFR (D = 1): solids are deleted there, shells when NUMINT through-thickness points
// have ruptured (as *MAT_123's NUMINT).
//
// D is a function of the effective plastic strain only, so the undamaged stress needs no
// storage: at the start of a step sigma~ = sigma / (1 - D(eps_p)), the shared radial return
// (j2_return.cpp) updates sigma~ and eps_p, and the stress becomes (1 - D(eps_p new)) sigma~. A
// damaged point unloads with the secant modulus (1 - D) E, as continuum damage prescribes; a
// ruptured point carries no stress.
//
// LCDM (a nonlinear damage curve) is refused. The _STOCHASTIC option is the law itself (as for
// *MAT_024: parcae refuses *DEFINE_STOCHASTIC_VARIATION).
//
// This file is the whole law; core/material_laws.def has its one line.
#include <algorithm>
#include <cmath>
#include <memory>

#include <fmt/format.h>

#include "materials/law_support.hpp"
#include "materials/laws.hpp"

namespace parcae {

namespace {

struct Damage {
  PiecewiseOptions options; ///< first: prepare_piecewise_linear reads law_card as these
  Real eppf = 0;            ///< EPPF: plastic strain at which softening begins
  Real eppfr = 0;           ///< EPPFR: plastic strain at rupture (D = 1)
};

constexpr Real kNever = 1e14; // EPPF / EPPFR at or beyond this: LS-DYNA's "never" defaults

void read_card(const io::Fields& h, LawReader& r) {
  Material& m = r.mat;
  read_piecewise_linear(h, r, "EPPFR");
  auto p = std::make_shared<Damage>();
  p->eppf = h.real("EPPF");
  p->eppfr = h.real("EPPFR");
  if (!(p->eppf >= 0))
    fail(h.loc("EPPF"), fmt::format("material {}: EPPF = {} must not be negative", m.id, p->eppf));
  if (!(p->eppfr > p->eppf))
    fail(h.loc("EPPFR"), fmt::format("material {}: EPPFR = {}: the rupture strain must exceed the "
                                     "strain at which softening begins (EPPF = {})",
                                     m.id, p->eppfr, p->eppf));
  if (h.id("LCDM") != 0)
    fail(h.loc("LCDM"), fmt::format("material {}: LCDM = {}: a nonlinear damage curve is not "
                                    "supported (leave it blank: damage linear from EPPF to EPPFR)",
                                    m.id, h.id("LCDM")));
  if (m.fs >= kNever) m.fs = 0; // no rupture
  const Real numint = h.real("NUMINT");
  if (numint < -100 || (numint > 0 && numint != std::floor(numint)))
    fail(h.loc("NUMINT"), fmt::format("material {}: NUMINT = {} must be a number of points, 0 "
                                      "(all of them) or a percentage -100 <= NUMINT < 0",
                                      m.id, numint));
  m.fail_points = numint;
  m.law_card = std::move(p);
}

void prepare(const Material& mat, const Model& model, MaterialParams& m) {
  prepare_piecewise_linear(mat, model, m);
}

/// The damage at the plastic strain ep.
Real damage(const Damage& p, Real ep) {
  if (!(ep > p.eppf) || p.eppf >= kNever) return 0;
  return std::min<Real>(1, (ep - p.eppf) / (p.eppfr - p.eppf));
}

template <int N> bool undamage(Real d, Real sig[N]) {
  if (d >= 1) {
    for (int i = 0; i < N; ++i) sig[i] = 0;
    return false;
  }
  if (d > 0)
    for (int i = 0; i < N; ++i) sig[i] /= (1 - d);
  return true;
}

template <int N> void apply_damage(Real d, Real sig[N]) {
  if (d > 0)
    for (int i = 0; i < N; ++i) sig[i] *= (1 - d);
}

Real update_solid(const MaterialParams& m, const Real deps[6], Real dt, Real sig[6], Real back[6],
                  Real& eps_p) {
  const Damage& p = m.law_params<Damage>();
  if (!undamage<6>(damage(p, eps_p), sig)) return 0; // ruptured: no stress
  const Real dep = update_j2_solid(m, deps, dt, sig, back, eps_p);
  apply_damage<6>(damage(p, eps_p), sig);
  return dep;
}

Real update_shell(const MaterialParams& m, const Real deps[5], Real dt, Real sig[5], Real back[3],
                  Real& eps_p, Real& deps_zz) {
  const Damage& p = m.law_params<Damage>();
  if (!undamage<5>(damage(p, eps_p), sig)) {
    deps_zz = 0;
    return 0;
  }
  const Real dep = update_j2_shell(m, deps, dt, sig, back, eps_p, deps_zz);
  apply_damage<5>(damage(p, eps_p), sig);
  return dep;
}

} // namespace

const MaterialLaw& law_plasticity_with_damage() {
  using namespace io::card_fields;
  static const MaterialLaw law{
      .kind = MaterialKind::PlasticityWithDamage,
      .card = "*MAT_PLASTICITY_WITH_DAMAGE",
      .number = "081",
      .summary = "*MAT_024's plasticity softened by damage from EPPF to rupture at EPPFR",
      .history = 1, // effective plastic strain (the damage is a function of it)
      .incremental = true,
      .plastic = true,
      .hyperelastic = false,
      .hydrodynamic = false,
      .rigid = false,
      .keyword =
          {.name = "*MAT_PLASTICITY_WITH_DAMAGE",
           .aliases = {"*MAT_081"},
           .options = {"TITLE", "STOCHASTIC"},
           .head = {title_card(),
                    {"Card 1", join(mid_ro_e_pr_fields(),
                                    {R("SIGY"), R("ETAN"), R("EPPF", "1.0E+12"), R("TDEL")})},
                    {"Card 2",
                     {R("C"), R("P"), I("LCSS"), I("LCSR"), R("EPPFR", "1.0E+14"), R("VP"),
                      I("LCDM"), R("NUMINT")}},
                    {"Card 3",
                     reals({"EPS1", "EPS2", "EPS3", "EPS4", "EPS5", "EPS6", "EPS7", "EPS8"})},
                    {"Card 4", reals({"ES1", "ES2", "ES3", "ES4", "ES5", "ES6", "ES7", "ES8"})}},
           .summary =
               "As *MAT_PIECEWISE_LINEAR_PLASTICITY (024: hardening by SIGY/ETAN, LCSS curve or "
               "rate table, or the EPS/ES table; C, P, LCSR, VP; TDEL), with damage D = (eps_p "
               "- EPPF)/(EPPFR - EPPF) in [0, 1] scaling the stress by 1 - D (the undamaged "
               "stress recovered from eps_p each step). Rupture at EPPFR: solids are deleted, "
               "shells when NUMINT through-thickness points have ruptured (0: all; < 0: that "
               "percentage). EPPF >= 1e14 (the default): no damage; EPPFR >= 1e14: no rupture. "
               "LCDM (nonlinear damage curve) is refused. _STOCHASTIC: the same card; without "
               "*DEFINE_STOCHASTIC_VARIATION (which parcae refuses) no element varies, so it is "
               "the law itself."},
      .read = read_card,
      .prepare = prepare,
      .update_solid = update_solid,
      .update_shell = update_shell,
      .update_deviator = nullptr,
      .wave_speed = reference_wave_speed,
      .own_plastic_update = true};
  return law;
}

} // namespace parcae
