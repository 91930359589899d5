// *MAT_JOHNSON_HOLMQUIST_CERAMICS (110) on solids: the JH-2 model of brittle ceramics
// (Johnson & Holmquist 1994), as LS-DYNA's manual gives it.
//  - Strength, normalised by the equivalent stress at the Hugoniot elastic limit, sigma_HEL =
//    1.5 (HEL - PHEL), the pressure by PHEL (P* = P / PHEL, T* = T / PHEL):
//      intact    sigma*_i = A (P* + T*)^N (1 + C ln rate*)   (0 when P* + T* <= 0),
//      fractured sigma*_f = min(B P*^M (1 + C ln rate*), SFMAX)  (0 in tension),
//      sigma*  = sigma*_i - D (sigma*_i - sigma*_f),
//    rate* = the effective strain rate / EPSI, its logarithm taken from rate* = 1 up (no
//    weakening below the reference rate). The deviator is elastic (G) up to sigma* sigma_HEL,
//    then perfectly plastic at it (radial return).
//  - Damage D = sum d eps_p / eps_f, eps_f = D1 (P* + T*)^D2 (no strain to failure in tension:
//    a plastic step there fails the point at once), capped at 1.
//  - Pressure of mu = rho / rho0 - 1 = 1 / V - 1: K1 mu + K2 mu^2 + K3 mu^3 in compression, K1 mu
//    in tension, plus the bulking pressure dP, never below -T (1 - D). As the strength drops
//    with damage, the fraction BETA of the elastic energy lost, dU = U(D_old) - U(D_new) with
//    U = sigma_y^2 / (6 G), goes into dP: dP_new = -K1 mu + sqrt((K1 mu + dP)^2 + 2 BETA K1 dU).
// The law's history per point (LawReader's scalar history, kept in the element's back array):
// ln V (the sum of the volumetric strain increments), D and dP; the effective plastic strain is
// the usual one. Time step: the tangent bulk modulus at mu = 0.2 (K1 + 0.4 K2 + 0.12 K3, at least
// K1) with G, so that the compressed ceramic's faster wave stays inside the step.
//
// Refused at their field: FS other than 0 (element failure), T and HEL - PHEL not positive.
// Shells and beams are refused at set-up (solids only, as in LS-DYNA).
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

struct JH2 {
  Real g = 0, a = 0, b = 0, c = 0, m = 0, n = 0;
  Real epsi = 1, t = 0, sfmax = 0, hel = 0, phel = 0, beta = 0;
  Real d1 = 0, d2 = 0, k1 = 0, k2 = 0, k3 = 0;
  Real sig_hel = 0; ///< 1.5 (HEL - PHEL)
};

void read_card(const io::Fields& h, LawReader& r) {
  Material& mat = r.mat;
  auto p = std::make_shared<JH2>();
  p->g = h.real("G");
  p->a = h.real("A");
  p->b = h.real("B");
  p->c = h.real("C");
  p->m = h.real("M");
  p->n = h.real("N");
  p->epsi = h.real("EPSI");
  p->t = h.real("T");
  p->sfmax = h.real("SFMAX");
  p->hel = h.real("HEL");
  p->phel = h.real("PHEL");
  p->beta = h.real("BETA");
  p->d1 = h.real("D1");
  p->d2 = h.real("D2");
  p->k1 = h.real("K1");
  p->k2 = h.real("K2");
  p->k3 = h.real("K3");
  auto positive = [&](const char* f, Real v, const char* what) {
    if (!(v > 0))
      fail(h.loc(f), fmt::format("material {}: {} = {}: {} must be positive", mat.id, f, v, what));
  };
  positive("G", p->g, "the shear modulus");
  positive("K1", p->k1, "the bulk modulus");
  positive("EPSI", p->epsi, "the reference strain rate");
  positive("T", p->t, "the tensile strength");
  positive("PHEL", p->phel, "the pressure at the Hugoniot elastic limit");
  if (!(p->hel > p->phel))
    fail(h.loc("HEL"), fmt::format("material {}: HEL = {} must exceed PHEL = {} (sigma_HEL = "
                                   "1.5 (HEL - PHEL))",
                                   mat.id, p->hel, p->phel));
  if (!(p->beta >= 0 && p->beta <= 1))
    fail(h.loc("BETA"), fmt::format("material {}: BETA = {}: the share of the lost elastic "
                                    "energy turned into bulking must lie in [0, 1]",
                                    mat.id, p->beta));
  if (!(p->d1 >= 0))
    fail(h.loc("D1"), fmt::format("material {}: D1 = {} must not be negative", mat.id, p->d1));
  if (p->sfmax <= 0) p->sfmax = 1e20; // blank: no limit on the fractured strength
  if (h.real("FS") != 0)
    fail(h.loc("FS"), fmt::format("material {}: FS = {}: element failure (erosion) of the "
                                  "ceramic is not supported; use 0",
                                  mat.id, h.real("FS")));
  p->sig_hel = 1.5 * (p->hel - p->phel);
  set_elastic_from_bulk_shear(mat, p->k1, p->g);
  mat.law_card = std::move(p);
}

void prepare(const Material& mat, const Model& /*model*/, MaterialParams& m) {
  const auto& p = mat.card<JH2>();
  set_bulk_shear_moduli(m, p.k1, p.g);
  m.law_data = std::make_shared<JH2>(p);
}

/// The normalised strength at P* with damage D and rate factor f.
Real strength(const JH2& p, Real ps, Real d, Real f) {
  const Real ts = p.t / p.phel;
  const Real si = ps + ts > 0 ? p.a * std::pow(ps + ts, p.n) * f : 0.0;
  const Real sf = ps > 0 ? std::min(p.b * std::pow(ps, p.m) * f, p.sfmax) : 0.0;
  return std::max<Real>(0, si - d * (si - sf));
}

Real update_solid(const MaterialParams& mp, const Real deps[6], Real dt, Real sig[6], Real hist[6],
                  Real& eps_p) {
  const JH2& p = mp.law_params<JH2>();
  Real& lnv = hist[0];
  Real& dmg = hist[1];
  Real& bulk_p = hist[2];
  const Real tr = deps[0] + deps[1] + deps[2];
  lnv += tr;
  const Real mu = std::exp(-lnv) - 1;
  const Real p_eos = mu > 0 ? p.k1 * mu + p.k2 * mu * mu + p.k3 * mu * mu * mu : p.k1 * mu;
  Real pres = std::max(p_eos + bulk_p, -p.t * (1 - dmg));
  // deviator: elastic trial
  const Real p_old = -(sig[0] + sig[1] + sig[2]) / 3;
  Real s[6];
  for (int i = 0; i < 3; ++i) s[i] = sig[i] + p_old + 2 * p.g * (deps[i] - tr / 3);
  for (int i = 3; i < 6; ++i) s[i] = sig[i] + p.g * deps[i];
  const Real q = std::sqrt(1.5 * (s[0] * s[0] + s[1] * s[1] + s[2] * s[2] +
                                  2 * (s[3] * s[3] + s[4] * s[4] + s[5] * s[5])));
  // strain rate factor (the step's effective deviatoric rate)
  Real rate = 0;
  if (dt > 0) {
    const Real e0 = deps[0] - tr / 3, e1 = deps[1] - tr / 3, e2 = deps[2] - tr / 3;
    rate = std::sqrt(2.0 / 3.0 *
                     (e0 * e0 + e1 * e1 + e2 * e2 +
                      0.5 * (deps[3] * deps[3] + deps[4] * deps[4] + deps[5] * deps[5]))) /
           dt;
  }
  const Real f = 1 + p.c * std::max<Real>(0, std::log(std::max(rate / p.epsi, 1.0)));
  const Real ps = pres / p.phel;
  const Real sy_old = strength(p, ps, dmg, f) * p.sig_hel;
  Real dep = 0;
  if (q > sy_old) {
    dep = (q - sy_old) / (3 * p.g);
    const Real scale = sy_old / q;
    for (Real& x : s) x *= scale;
    eps_p += dep;
    // damage
    const Real ts = p.t / p.phel;
    const Real ef = ps + ts > 0 ? p.d1 * std::pow(ps + ts, p.d2) : 0.0;
    const Real d_new = ef > 0 ? std::min<Real>(1, dmg + dep / ef) : 1.0;
    if (d_new > dmg) {
      // bulking: the elastic energy the strength drop releases (at the same pressure)
      const Real sy_new = strength(p, ps, d_new, f) * p.sig_hel;
      const Real du = (sy_old * sy_old - sy_new * sy_new) / (6 * p.g);
      if (p.beta > 0 && du > 0) {
        const Real x = p.k1 * mu + bulk_p;
        bulk_p = -p.k1 * mu + std::sqrt(x * x + 2 * p.beta * p.k1 * du);
      }
      dmg = d_new;
      pres = std::max(p_eos + bulk_p, -p.t * (1 - dmg));
    }
  }
  for (int i = 0; i < 6; ++i) sig[i] = s[i] - (i < 3 ? pres : 0.0);
  return dep;
}

Real wave_speed(const MaterialParams& m) {
  if (m.ro <= 0) return 0;
  const auto& p = m.law_params<JH2>();
  const Real k = std::max(p.k1, p.k1 + 0.4 * p.k2 + 0.12 * p.k3);
  return std::sqrt((k + 4.0 / 3.0 * p.g) / m.ro);
}

} // namespace

const MaterialLaw& law_johnson_holmquist_ceramics() {
  using namespace io::card_fields;
  static const MaterialLaw law{
      .kind = MaterialKind::JohnsonHolmquistCeramics,
      .card = "*MAT_JOHNSON_HOLMQUIST_CERAMICS",
      .number = "110",
      .summary = "JH-2 ceramics (solids): pressure-dependent intact and fractured strength, "
                 "damage, polynomial pressure with bulking",
      .history = 4, // eps_p, ln V, D, bulking pressure
      .incremental = true,
      .plastic = false,
      .hyperelastic = false,
      .hydrodynamic = false,
      .rigid = false,
      .keyword = {.name = "*MAT_JOHNSON_HOLMQUIST_CERAMICS",
                  .aliases = {"*MAT_110"},
                  .options = {"TITLE"},
                  .head = {title_card(),
                           {"Card 1",
                            {I("MID").req(), R("RO"), R("G"), R("A"), R("B"), R("C"), R("M"),
                             R("N")}},
                           {"Card 2",
                            {R("EPSI", "1.0"), R("T"), R("SFMAX"), R("HEL"), R("PHEL"), R("BETA")}},
                           {"Card 3", {R("D1"), R("D2"), R("K1"), R("K2"), R("K3"), R("FS")}}},
                  .summary =
                      "JH-2 ceramics on solids: strength sigma_HEL (A (P* + T*)^N - D (...)) "
                      "between the intact and the fractured curve B P*^M (<= SFMAX), both "
                      "times 1 + C ln(rate/EPSI) (rates below EPSI: 1), sigma_HEL = 1.5 (HEL - "
                      "PHEL), P* = P / PHEL, T* = T / PHEL; damage D = sum d eps_p / (D1 (P* + "
                      "T*)^D2); pressure K1 mu + K2 mu^2 + K3 mu^3 (K1 mu in tension) plus the "
                      "bulking pressure fed by BETA of the elastic energy the damage releases, "
                      "not below -T (1 - D). Refused: FS other than 0 (erosion). Shells and "
                      "beams are refused."},
      .read = read_card,
      .prepare = prepare,
      .update_solid = update_solid,
      .update_shell = nullptr,
      .update_deviator = nullptr,
      .wave_speed = wave_speed,
      .scalar_history = true};
  return law;
}

} // namespace parcae
