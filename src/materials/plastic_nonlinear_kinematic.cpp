// *MAT_PLASTIC_NONLINEAR_KINEMATIC (165) on solids: von Mises plasticity with linear isotropic
// hardening and Armstrong-Frederick (nonlinear) kinematic hardening,
//   f = sqrt(3/2 (s - alpha):(s - alpha)) - (SIGY + H eps_p) <= 0,
//   d alpha = 2/3 C d eps^p - GAMMA alpha d eps_p,
// eps^p the plastic strain tensor (associated flow) and eps_p its effective measure. In uniaxial
// loading the back stress's axial-minus-lateral component is (C / GAMMA)(1 - exp(-GAMMA eps_p)),
// so the stress saturates at SIGY + H eps_p + C / GAMMA (GAMMA = 0: linear kinematic hardening,
// C eps_p).
//
// Return (backward Euler, exact to the solver's tolerance): with xi = s - alpha, N = xi / |xi|
// and d lambda = d eps_p, alpha_new = (alpha + sqrt(2/3) C d lambda N) / (1 + GAMMA d lambda), so
// xi_new is parallel to xi~ = s_trial - alpha / (1 + GAMMA d lambda) and
//   sqrt(3/2) (|xi~| - (sqrt(6) G + sqrt(2/3) C / (1 + GAMMA d lambda)) d lambda)
//     = SIGY + H (eps_p + d lambda),
// one scalar equation in d lambda (bracketed, solved by safeguarded Newton). The back stress is
// the law's stress-like history (turned with the stress, stress_history). FS: elements erode at
// that plastic strain. Shells and beams are refused (solids only here).
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

struct NonlinearKinematic {
  Real sigy = 0, h = 0, c = 0, gamma = 0;
};

void read_card(const io::Fields& hf, LawReader& r) {
  Material& m = r.mat;
  read_elastic(hf, m);
  auto p = std::make_shared<NonlinearKinematic>();
  p->sigy = hf.real("SIGY");
  p->h = hf.real("H");
  p->c = hf.real("C");
  p->gamma = hf.real("GAMMA");
  if (!(p->sigy > 0))
    fail(hf.loc("SIGY"),
         fmt::format("material {}: SIGY = {}: the yield stress must be positive", m.id, p->sigy));
  for (const char* f : {"H", "C", "GAMMA"})
    if (!(hf.real(f) >= 0))
      fail(hf.loc(f),
           fmt::format("material {}: {} = {} must not be negative", m.id, f, hf.real(f)));
  m.fs = hf.real("FS") >= 1e15 ? 0.0 : read_failure_strain(hf, "FS", m.id);
  m.law_card = std::move(p);
}

void prepare(const Material& mat, const Model& /*model*/, MaterialParams& m) {
  prepare_elastic_constants(mat, m);
  m.law_data = std::make_shared<NonlinearKinematic>(mat.card<NonlinearKinematic>());
  m.fail = mat.fs;
}

Real update_solid(const MaterialParams& m, const Real deps[6], Real /*dt*/, Real sig[6],
                  Real alpha[6], Real& eps_p) {
  const NonlinearKinematic& p = m.law_params<NonlinearKinematic>();
  const Real g = m.g, k = m.k;
  const Real tr = deps[0] + deps[1] + deps[2];
  const Real p_old = -(sig[0] + sig[1] + sig[2]) / 3;
  const Real p_new = p_old - k * tr;
  Real s[6]; // trial deviator (tensor components)
  for (int i = 0; i < 3; ++i) s[i] = sig[i] + p_old + 2 * g * (deps[i] - tr / 3);
  for (int i = 3; i < 6; ++i) s[i] = sig[i] + g * deps[i];
  auto norm = [](const Real* t) {
    return std::sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2] +
                     2 * (t[3] * t[3] + t[4] * t[4] + t[5] * t[5]));
  };
  Real xi[6];
  for (int i = 0; i < 6; ++i) xi[i] = s[i] - alpha[i];
  const Real r23 = std::sqrt(2.0 / 3.0), r32 = std::sqrt(1.5);
  const Real sy0 = p.sigy + p.h * eps_p;
  Real dl = 0;
  if (r32 * norm(xi) > sy0) {
    // g(dl) = sqrt(3/2) (|xi~(dl)| - (sqrt(6) G + sqrt(2/3) C / (1 + GAMMA dl)) dl)
    //         - (SIGY + H (eps_p + dl)); decreasing, g(0) > 0
    auto gfun = [&](Real x) {
      const Real a = 1 / (1 + p.gamma * x);
      Real t[6];
      for (int i = 0; i < 6; ++i) t[i] = s[i] - a * alpha[i];
      return r32 * (norm(t) - (std::sqrt(6.0) * g + r23 * p.c * a) * x) -
             (p.sigy + p.h * (eps_p + x));
    };
    Real lo = 0, hi = r32 * (norm(xi) + norm(alpha)) / (3 * g + p.h);
    while (gfun(hi) > 0) hi *= 2;
    dl = (r32 * norm(xi) - sy0) / (3 * g + p.h + p.c); // the linear estimate
    if (!(dl > lo && dl < hi)) dl = 0.5 * (lo + hi);
    for (int it = 0; it < 200; ++it) {
      const Real gv = gfun(dl);
      if (std::abs(gv) <= 1e-14 * sy0) break;
      (gv > 0 ? lo : hi) = dl;
      if (hi - lo <= 1e-16 * hi) break;
      const Real h = 1e-7 * std::max(dl, 1e-12);
      const Real slope = (gfun(dl + h) - gv) / h;
      Real nx = slope < 0 ? dl - gv / slope : 0.5 * (lo + hi);
      if (!(nx > lo && nx < hi)) nx = 0.5 * (lo + hi);
      dl = nx;
    }
    const Real a = 1 / (1 + p.gamma * dl);
    Real t[6];
    for (int i = 0; i < 6; ++i) t[i] = s[i] - a * alpha[i];
    const Real nt = norm(t);
    for (int i = 0; i < 6; ++i) {
      const Real n = t[i] / nt;
      alpha[i] = a * (alpha[i] + r23 * p.c * dl * n);
      s[i] -= std::sqrt(6.0) * g * dl * n;
    }
    eps_p += dl;
  }
  for (int i = 0; i < 6; ++i) sig[i] = s[i] - (i < 3 ? p_new : 0.0);
  return dl;
}

} // namespace

const MaterialLaw& law_plastic_nonlinear_kinematic() {
  using namespace io::card_fields;
  static const MaterialLaw law{
      .kind = MaterialKind::PlasticNonlinearKinematic,
      .card = "*MAT_PLASTIC_NONLINEAR_KINEMATIC",
      .number = "165",
      .summary = "von Mises plasticity, linear isotropic and Armstrong-Frederick kinematic "
                 "hardening (solids)",
      .history = 7, // effective plastic strain, back stress
      .incremental = true,
      .plastic = false,
      .hyperelastic = false,
      .hydrodynamic = false,
      .rigid = false,
      .keyword = {.name = "*MAT_PLASTIC_NONLINEAR_KINEMATIC",
                  .aliases = {"*MAT_165"},
                  .options = {"TITLE"},
                  .head = {title_card(),
                           {"Card 1",
                            join(mid_ro_e_pr_fields(), {R("SIGY"), R("H"), R("C"), R("GAMMA")})},
                           {"Card 2", {R("FS", "1.0E+16")}}},
                  .summary =
                      "Nonlinear kinematic hardening on solids: yield sqrt(3/2 (s - alpha):(s - "
                      "alpha)) = SIGY + H eps_p, back stress d alpha = 2/3 C d eps^p - GAMMA "
                      "alpha d eps_p (Armstrong-Frederick; uniaxial saturation C / GAMMA), "
                      "backward-Euler return. FS: elements erode at that plastic strain (blank: "
                      "never). Shells and beams are refused."},
      .read = read_card,
      .prepare = prepare,
      .update_solid = update_solid,
      .update_shell = nullptr,
      .update_deviator = nullptr,
      .wave_speed = reference_wave_speed,
      .stress_history = true};
  return law;
}

} // namespace parcae
