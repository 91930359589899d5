// *MAT_CRUSHABLE_FOAM (063): isotropic crushable foam on solids, after the LS-DYNA theory manual's
// material 63. Each step:
//  1. elastic trial stress: sigma_trial = sigma_n + Hooke(E, PR) deps (with PR = 0, as the
//     manual recommends for foams, this is the manual's sigma_n + E deps);
//  2. its principal stresses sigma_i and axes;
//  3. the yield stress Y = LCID(gamma), gamma = 1 - V the volumetric strain (V the relative
//     volume), read from the curve LCID: constant below its first abscissa, extended linearly
//     beyond its last one (densification);
//  4. each principal stress is limited on its own: |sigma_i| <= Y, and in tension
//     sigma_i <= TSC (TSC > 0; TSC = 0: the tensile limit is Y);
//  5. the stress is turned back from the principal axes.
// Unloading is elastic with E, and the foam keeps its compaction (the yield stress follows gamma).
// The law's history value, stored where the plastic laws keep the effective plastic strain (and
// written to the d3plot in its place, as LS-DYNA writes "the integrated volumetric strain"), is
// the integrated volumetric strain eps_v = -sum tr(deps) = -ln V; gamma = 1 - exp(-eps_v).
//
// DAMP (rate sensitivity by a damping coefficient; LS-DYNA's default 0.1) is read and not
// applied: a note in the run's summary says so, also for the default. MODEL other than 0 (the newer
// formulations of R13) is refused at its field. Shells, beams: not supported (solids only, as in
// LS-DYNA; the set-up refuses the part).
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

struct CrushableFoam {
  GlobalId lcid = 0;   ///< LCID: yield stress against volumetric strain 1 - V
  Real tsc = 0;        ///< TSC: tensile stress cutoff (0: the yield stress)
  DiscreteCurve yield; ///< LCID's points (prepare)
};

void read_card(const io::Fields& h, LawReader& r) {
  Material& m = r.mat;
  read_elastic(h, m);
  auto p = std::make_shared<CrushableFoam>();
  p->lcid = h.id("LCID");
  p->tsc = h.real("TSC");
  if (p->lcid <= 0)
    fail(h.loc("LCID"), fmt::format("material {}: LCID = {}: the curve of yield stress against "
                                    "volumetric strain is required",
                                    m.id, p->lcid));
  if (!(p->tsc >= 0))
    fail(h.loc("TSC"),
         fmt::format("material {}: tensile stress cutoff TSC = {} must not be negative", m.id,
                     p->tsc));
  if (h.integer("MODEL") != 0)
    fail(h.loc("MODEL"), fmt::format("material {}: MODEL = {} is not supported: parcae runs the "
                                     "original formulation (MODEL = 0)",
                                     m.id, h.integer("MODEL")));
  // DAMP (LS-DYNA's default 0.1 when blank) is not applied: a note whatever its value
  if (h.real("DAMP") != 0)
    r.note(h.loc("DAMP"), fmt::format("DAMP = {}{}: rate damping of the crushable foam is not "
                                      "applied (ignored)",
                                      h.real("DAMP"), h.blank("DAMP") ? " (the default)" : ""));
  m.law_card = std::move(p);
}

void prepare(const Material& mat, const Model& model, MaterialParams& m) {
  prepare_elastic_constants(mat, m);
  auto p = std::make_shared<CrushableFoam>(mat.card<CrushableFoam>());
  p->yield = discrete_curve(mat, model, p->lcid, "LCID (yield stress against volumetric strain)");
  for (std::size_t i = 0; i < p->yield.y.size(); ++i)
    if (!(p->yield.y[i] >= 0))
      fail_card(mat, fmt::format("LCID curve {}: the yield stress must not be negative (point "
                                 "{}: {})",
                                 p->lcid, i + 1, p->yield.y[i]));
  m.law_data = std::move(p);
}

/// Y(gamma): the curve, constant below its first point, linear beyond its last.
Real yield_at(const CrushableFoam& p, Real gamma) {
  return std::max<Real>(0, p.yield.eval(std::max(gamma, p.yield.x.front())));
}

Real update_solid(const MaterialParams& m, const Real deps[6], Real /*dt*/, Real sig[6],
                  Real /*back*/[6], Real& eps_v) {
  const CrushableFoam& p = m.law_params<CrushableFoam>();
  // 1. elastic trial stress (engineering shear strains)
  const Real tr = deps[0] + deps[1] + deps[2];
  Real s[6];
  for (int i = 0; i < 3; ++i) s[i] = sig[i] + m.lambda * tr + 2 * m.g * deps[i];
  for (int i = 3; i < 6; ++i) s[i] = sig[i] + m.g * deps[i];
  // 3. the yield stress at the volumetric strain of the end of the step
  eps_v -= tr;
  const Real y = yield_at(p, 1.0 - std::exp(-eps_v));
  const Real t_cut = p.tsc > 0 ? std::min(p.tsc, y) : y;
  // 2. principal stresses; 4. each limited
  Real lam[3], v[3][3];
  symmetric_eigen(s, lam, v);
  bool limited = false;
  for (Real& l : lam) {
    const Real c = std::clamp(l, -y, t_cut);
    limited = limited || c != l;
    l = c;
  }
  if (!limited) {
    std::copy(s, s + 6, sig);
    return 0;
  }
  // 5. back from the principal axes: sigma = sum_k lam_k v_k v_k^T (v[.][k] the k-th axis)
  constexpr int ij[6][2] = {{0, 0}, {1, 1}, {2, 2}, {0, 1}, {1, 2}, {2, 0}};
  for (int c = 0; c < 6; ++c) {
    const int i = ij[c][0], j = ij[c][1];
    sig[c] = lam[0] * v[i][0] * v[j][0] + lam[1] * v[i][1] * v[j][1] + lam[2] * v[i][2] * v[j][2];
  }
  return 0;
}

} // namespace

const MaterialLaw& law_crushable_foam() {
  using namespace io::card_fields;
  static const MaterialLaw law{
      .kind = MaterialKind::CrushableFoam,
      .card = "*MAT_CRUSHABLE_FOAM",
      .number = "063",
      .summary = "isotropic crushable foam (solids): principal stresses limited by the yield "
                 "stress of the volumetric strain, tensile cutoff",
      .history = 1, // the integrated volumetric strain -ln V
      .incremental = true,
      .plastic = false,
      .hyperelastic = false,
      .hydrodynamic = false,
      .rigid = false,
      .keyword = {.name = "*MAT_CRUSHABLE_FOAM",
                  .aliases = {"*MAT_063"},
                  .options = {"TITLE"},
                  .head = {title_card(),
                           {"Card 1", join(mid_ro_e_pr_fields(),
                                           {I("LCID"), R("TSC"), R("DAMP", "0.1"), I("MODEL")})}},
                  .summary =
                      "Crushable foam on solids: elastic E PR (PR = 0 recommended), each "
                      "principal stress limited to the yield stress of the curve LCID (yield "
                      "stress against volumetric strain 1 - V; constant below its first point, "
                      "linear beyond its last) and in tension to TSC (TSC = 0: the yield "
                      "stress); unloading elastic, compaction kept; the d3plot's plastic strain "
                      "is the integrated volumetric strain -ln V. DAMP (rate damping; LS-DYNA's "
                      "default 0.1) is read and not applied (a note says so); MODEL other than 0 "
                      "is refused; shells "
                      "and beams are refused."},
      .read = read_card,
      .prepare = prepare,
      .update_solid = update_solid,
      .update_shell = nullptr,
      .update_deviator = nullptr,
      .wave_speed = reference_wave_speed};
  return law;
}

} // namespace parcae
