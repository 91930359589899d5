// *MAT_LOW_DENSITY_FOAM (057) on solids: a hyperelastic foam whose principal directions do not
// interact (no Poisson effect), after the LS-DYNA theory manual's material 57.
//  - The principal stretches lambda_i and directions n_i are those of the left stretch V
//    (b = F F^T = V^2, from the deformation gradient F); the elongations are e_i = lambda_i - 1.
//  - Nominal (engineering) stress per direction: in compression from the curve LCID of nominal
//    stress against strain, both given positive in compression (t_i = -LCID(-e_i), the curve
//    extended linearly beyond its last point); in tension linear with E up to the cutoff TC
//    (t_i = min(E e_i, TC)).
//  - Cauchy stress sigma = sum_i t_i / (lambda_j lambda_k) n_i n_i^T (the nominal force per
//    reference area over the current area of the face normal to n_i).
//  - Stored energy W = sum_i int_0^e_i t(e) de (the element's internal energy).
// The time step takes the larger of E and the curve's steepest slope as the modulus (LS-DYNA
// reduces the step the same way); the hourglass and contact stiffness take E (Poisson 0).
//
// Refused at their field: HU < 1 (hysteresis on unloading), FAIL = 1 (tensile stress reset
// after the cutoff), ED > 0 (rate effects), REF = 1. Read and not applied, with a note when
// set: DAMP (viscous damping; LS-DYNA's default is 0.05), BETA, SHAPE, BETA1, KCON. BVFLAG, as
// in LS-DYNA: 0 (default) no bulk viscosity on these elements, 1 the part's. Shells and beams:
// refused at set-up.
//
// This file is the whole law; core/material_laws.def has its one line.
#include <algorithm>
#include <cmath>
#include <memory>
#include <string_view>

#include <fmt/format.h>

#include "materials/law_support.hpp"
#include "materials/laws.hpp"

namespace parcae {

namespace {

struct LowDensityFoam {
  GlobalId lcid = 0;
  Real e = 0;                  ///< E: tensile modulus, hourglass and contact stiffness
  Real tc = 1e20;              ///< TC: tension cutoff
  DiscreteCurve curve;         ///< nominal stress against strain in compression, both positive
  Real e_max = 0;              ///< max(E, the curve's steepest slope): the time step's modulus
  bool bulk_viscosity = false; ///< BVFLAG = 1
};

void read_card(const io::Fields& h, LawReader& r) {
  Material& m = r.mat;
  auto p = std::make_shared<LowDensityFoam>();
  p->e = h.real("E");
  p->lcid = h.id("LCID");
  p->tc = h.real("TC");
  p->bulk_viscosity = h.real("BVFLAG") == 1;
  if (!(p->e > 0))
    fail(h.loc("E"),
         fmt::format("material {}: Young's modulus E = {} must be positive", m.id, p->e));
  if (p->lcid <= 0)
    fail(h.loc("LCID"), fmt::format("material {}: LCID = {}: the curve of nominal stress "
                                    "against strain (compression) is required",
                                    m.id, p->lcid));
  if (!(p->tc > 0))
    fail(h.loc("TC"),
         fmt::format("material {}: tension cutoff TC = {} must be positive", m.id, p->tc));
  // fields whose other values parcae does not model: refused at the field
  auto refuse_unless = [&](std::string_view f, Real ok, std::string_view what) {
    if (h.real(f) != ok)
      fail(h.loc(f), fmt::format("material {}: {} = {}: {}", m.id, f, h.real(f), what));
  };
  refuse_unless("HU", 1, "hysteresis on unloading (HU < 1) is not supported (HU = 1: none)");
  refuse_unless("FAIL", 0,
                "resetting the tensile stress after the cutoff is not supported (0: it stays at "
                "TC)");
  refuse_unless("ED", 0, "the rate effects (relaxation modulus) are not supported");
  refuse_unless("REF", 0, "a reference geometry is not supported");
  if (h.real("DAMP") != 0) // LS-DYNA's default 0.05 when blank: a note for it too
    r.note(h.loc("DAMP"), fmt::format("DAMP = {}{}: viscous damping of the foam is not applied "
                                      "(ignored)",
                                      h.real("DAMP"), h.blank("DAMP") ? " (the default)" : ""));
  r.note_ignored(h, "BETA", "creep on unloading is not modelled");
  r.note_ignored(h, "BETA1", "not used without ED");
  r.note_ignored(h, "KCON", "contact stiffness uses E");
  if (h.real("BVFLAG") != 0 && h.real("BVFLAG") != 1)
    fail(h.loc("BVFLAG"), fmt::format("material {}: BVFLAG = {} must be 0 (no bulk viscosity) "
                                      "or 1",
                                      m.id, h.real("BVFLAG")));
  m.e = p->e;
  m.pr = 0;
  m.law_card = std::move(p);
}

void prepare(const Material& mat, const Model& model, MaterialParams& m) {
  auto p = std::make_shared<LowDensityFoam>(mat.card<LowDensityFoam>());
  p->curve = discrete_curve(mat, model, p->lcid, "LCID (nominal stress against strain)");
  const DiscreteCurve& c = p->curve;
  if (c.x.size() < 2)
    fail_card(mat, fmt::format("LCID curve {} needs two points at least", p->lcid));
  for (std::size_t i = 0; i < c.x.size(); ++i)
    if (!(c.x[i] >= 0) || !(c.y[i] >= 0))
      fail_card(mat, fmt::format("LCID curve {}: strain and stress are given positive in "
                                 "compression (point {}: {}, {})",
                                 p->lcid, i + 1, c.x[i], c.y[i]));
  p->e_max = std::max(p->e, c.max_slope());
  // Poisson 0: the hourglass, contact and bulk viscosity constants of E
  m.e = p->e;
  m.nu = 0;
  m.g = 0.5 * p->e;
  m.k = p->e / 3.0;
  m.lambda = 0;
  m.bulk_viscosity = p->bulk_viscosity;
  m.law_data = std::move(p);
}

/// Nominal stress of the elongation e (negative in compression), and its integral from 0.
Real nominal(const LowDensityFoam& p, Real e, Real* energy) {
  if (e >= 0) {
    const Real ec = p.tc / p.e; // where the cutoff starts
    if (energy != nullptr)
      *energy = e <= ec ? 0.5 * p.e * e * e : 0.5 * p.e * ec * ec + p.tc * (e - ec);
    return std::min(p.e * e, p.tc);
  }
  const Real s = -e; // compressive strain
  const DiscreteCurve& c = p.curve;
  if (energy != nullptr) {
    // the curve's area from 0 to s: trapezoids of the linear pieces (the first piece from
    // (0, value at 0), the last extended)
    Real w = 0, x0 = 0, y0 = c.eval(0);
    for (std::size_t i = 0; i < c.x.size() && c.x[i] < s; ++i) {
      if (c.x[i] <= x0) continue;
      w += 0.5 * (y0 + c.y[i]) * (c.x[i] - x0);
      x0 = c.x[i];
      y0 = c.y[i];
    }
    w += 0.5 * (y0 + c.eval(s)) * (s - x0);
    *energy = w;
  }
  return -c.eval(s);
}

Real stress(const MaterialParams& m, const Real h[3][3], Real sig[6]) {
  const LowDensityFoam& p = m.law_params<LowDensityFoam>();
  // det F, not the product of the stretches (|det F|): an inverted element is reported
  const Real det = deformation_det(h);
  if (!(det > 0)) return det;
  Real lam[3], n[3][3];
  principal_stretches(h, lam, n);
  const Real j = lam[0] * lam[1] * lam[2];
  if (!(j > 0)) return j;
  Real s[3];
  for (int k = 0; k < 3; ++k) s[k] = nominal(p, lam[k] - 1, nullptr) * lam[k] / j;
  tensor_from_principal(s, n, sig);
  return j;
}

Real energy(const MaterialParams& m, const Real h[3][3]) {
  const LowDensityFoam& p = m.law_params<LowDensityFoam>();
  Real lam[3], n[3][3];
  principal_stretches(h, lam, n);
  Real w = 0;
  for (Real l : lam) {
    Real wi = 0;
    nominal(p, l - 1, &wi);
    w += wi;
  }
  return w;
}

Real wave_speed(const MaterialParams& m) {
  if (m.ro <= 0) return 0;
  return std::sqrt(m.law_params<LowDensityFoam>().e_max / m.ro);
}

} // namespace

const MaterialLaw& law_low_density_foam() {
  using namespace io::card_fields;
  static const MaterialLaw law{
      .kind = MaterialKind::LowDensityFoam,
      .card = "*MAT_LOW_DENSITY_FOAM",
      .number = "057",
      .summary = "low-density foam (solids): hyperelastic, principal directions independent, "
                 "nominal stress from a curve in compression, linear with a cutoff in tension",
      .history = 0,
      .incremental = false,
      .plastic = false,
      .hyperelastic = true,
      .hydrodynamic = false,
      .rigid = false,
      .keyword = {.name = "*MAT_LOW_DENSITY_FOAM",
                  .aliases = {"*MAT_057"},
                  .options = {"TITLE"},
                  .head = {title_card(),
                           {"Card 1",
                            {I("MID").req(), R("RO"), R("E"), I("LCID"), R("TC", "1e20"),
                             R("HU", "1.0"), R("BETA"), R("DAMP", "0.05")}},
                           {"Card 2",
                            {R("SHAPE", "1.0"), R("FAIL"), R("BVFLAG"), R("ED"), R("BETA1"),
                             R("KCON"), R("REF")}}},
                  .summary =
                      "Low-density foam on solids: hyperelastic, the principal directions "
                      "independent (no Poisson effect); the nominal stress of each principal "
                      "elongation lambda - 1 from the curve LCID in compression (strain and "
                      "stress positive in compression, the last segment extended), E up to the "
                      "cutoff TC in tension; Cauchy stress t_i / (lambda_j lambda_k). The time "
                      "step takes the larger of E and the curve's steepest slope. Refused: HU < "
                      "1 (hysteresis), FAIL = 1, ED > 0 (rate effects), REF = 1. Read and not "
                      "applied (a note when set): DAMP (LS-DYNA's default 0.05 is not applied "
                      "either), BETA, SHAPE, BETA1, KCON. BVFLAG 0 (default): no bulk viscosity "
                      "on the foam's elements; 1: the part's. Shells are refused."},
      .read = read_card,
      .prepare = prepare,
      .update_solid = nullptr,
      .update_shell = nullptr,
      .update_deviator = nullptr,
      .wave_speed = wave_speed,
      .hyper_stress = stress,
      .hyper_energy = energy};
  return law;
}

} // namespace parcae
