// *MAT_VISCOELASTIC (006): linear viscoelasticity in shear, elastic in bulk, on solids, after the
// LS-DYNA theory manual's material 6. The shear relaxation modulus is
//   G(t) = GI + (G0 - GI) exp(-BETA t),
// the deviatoric stress the hereditary integral s = 2 int_0^t G(t - tau) D'(tau) dtau of the
// deviatoric strain rate D' (in the Jaumann-rotated frame the element's kernel keeps the stresses
// in), and the pressure p = -BULK ln V.
//
// The integral is split into its long-time part s_inf (rate form: s_inf += 2 GI de') and its
// decaying part h, whose update over a step of constant strain rate is exact:
//   h_{n+1} = exp(-BETA dt) h_n + 2 (G0 - GI) (1 - exp(-BETA dt)) / (BETA dt) de'.
// The stress keeps s_inf + h - p; h is the law's second stress-like tensor, stored (and rotated
// with the stress) in the element's back-stress array; the pressure grows by -BULK tr(de), the
// increment of -BULK ln V for the logarithmic strain increments the kernel passes.
//
// The time step uses the short-time moduli: c = sqrt((BULK + 4/3 G0) / RO); E and PR of the
// short-time response are what contact stiffness and the summary read. Shells and beams are
// refused (solids only here; LS-DYNA's shell form is not implemented).
//
// This file is the whole law; core/material_laws.def has its one line.
#include <cmath>
#include <memory>

#include <fmt/format.h>

#include "materials/law_support.hpp"
#include "materials/laws.hpp"

namespace parcae {

namespace {

using Viscoelastic = StandardLinearSolid;

void read_card(const io::Fields& h, LawReader& r) {
  Material& m = r.mat;
  auto p = std::make_shared<Viscoelastic>();
  read_standard_linear_solid(h, m, *p);
  p->beta = h.real("BETA");
  if (!(p->beta >= 0))
    fail(h.loc("BETA"), fmt::format("material {}: BETA = {}: the decay constant must not be "
                                    "negative",
                                    m.id, p->beta));
  if (h.real("REF") != 0)
    fail(h.loc("REF"), fmt::format("material {}: REF = {}: a reference geometry "
                                   "(*INITIAL_FOAM_REFERENCE_GEOMETRY) is not supported",
                                   m.id, h.real("REF")));
  if (h.real("VFLAG") != 0)
    fail(h.loc("VFLAG"), fmt::format("material {}: VFLAG = {}: the instantaneous-elastic "
                                     "formulation is not supported (0: the standard one)",
                                     m.id, h.real("VFLAG")));
  m.law_card = std::move(p);
}

} // namespace

void read_standard_linear_solid(const io::Fields& h, Material& m, StandardLinearSolid& p) {
  p.bulk = h.real("BULK");
  p.g0 = h.real("G0");
  p.gi = h.real("GI");
  if (!(p.bulk > 0))
    fail(h.loc("BULK"),
         fmt::format("material {}: BULK = {}: the bulk modulus must be positive", m.id, p.bulk));
  if (!(p.g0 > 0))
    fail(h.loc("G0"), fmt::format("material {}: G0 = {}: the short-time shear modulus must be "
                                  "positive",
                                  m.id, p.g0));
  if (!(p.gi >= 0) || p.gi > p.g0)
    fail(h.loc("GI"), fmt::format("material {}: GI = {}: the long-time shear modulus must lie in "
                                  "[0, G0 = {}]",
                                  m.id, p.gi, p.g0));
  set_elastic_from_bulk_shear(m, p.bulk, p.g0); // the short-time response
}

void prepare_standard_linear_solid(const Material& mat, const Model& /*model*/, MaterialParams& m) {
  const auto& p = mat.card<StandardLinearSolid>();
  set_bulk_shear_moduli(m, p.bulk, p.g0);
  m.law_data = std::make_shared<StandardLinearSolid>(p);
}

Real standard_linear_solid_wave_speed(const MaterialParams& m) {
  const auto& p = m.law_params<StandardLinearSolid>();
  return std::sqrt((p.bulk + 4.0 / 3.0 * p.g0) / m.ro);
}

Real update_standard_linear_solid(const MaterialParams& m, const Real deps[6], Real dt, Real sig[6],
                                  Real h[6], Real& /*eps_p*/) {
  const StandardLinearSolid& p = m.law_params<StandardLinearSolid>();
  // deviatoric strain increment (tensor shears: the kernel passes engineering ones)
  const Real tr = deps[0] + deps[1] + deps[2];
  Real de[6];
  for (int i = 0; i < 3; ++i) de[i] = deps[i] - tr / 3;
  for (int i = 3; i < 6; ++i) de[i] = 0.5 * deps[i];
  // the decaying part over the step (exact for a constant rate; dt = 0: the elastic jump)
  const Real x = p.beta * dt;
  const Real decay = std::exp(-x);
  const Real gain = x > 1e-8 ? (1 - decay) / x : 1 - 0.5 * x;
  const Real p_old = -(sig[0] + sig[1] + sig[2]) / 3;
  const Real p_new = p_old - p.bulk * tr;
  for (int i = 0; i < 6; ++i) {
    const Real s_old = i < 3 ? sig[i] + p_old : sig[i];
    const Real s_inf = s_old - h[i] + 2 * p.gi * de[i];
    h[i] = decay * h[i] + 2 * (p.g0 - p.gi) * gain * de[i];
    sig[i] = s_inf + h[i] - (i < 3 ? p_new : 0.0);
  }
  return 0;
}

const MaterialLaw& law_viscoelastic() {
  using namespace io::card_fields;
  static const MaterialLaw law{
      .kind = MaterialKind::Viscoelastic,
      .card = "*MAT_VISCOELASTIC",
      .number = "006",
      .summary = "linear viscoelastic in shear (G(t) = GI + (G0 - GI) exp(-BETA t)), elastic "
                 "bulk (solids)",
      .history = 6, // the decaying part of the deviatoric stress
      .incremental = true,
      .plastic = false,
      .hyperelastic = false,
      .hydrodynamic = false,
      .rigid = false,
      .keyword = {.name = "*MAT_VISCOELASTIC",
                  .aliases = {"*MAT_006"},
                  .options = {"TITLE"},
                  .head = {title_card(),
                           {"Card 1",
                            {I("MID").req(), R("RO").req(), R("BULK"), R("G0"), R("GI"), R("BETA"),
                             R("REF"), R("VFLAG")}}},
                  .summary =
                      "Viscoelastic solids: deviatoric stress 2 int G(t - tau) D'(tau) dtau "
                      "with G(t) = GI + (G0 - GI) exp(-BETA t) (exact over each step for a "
                      "constant strain rate), pressure -BULK ln V. Time step from BULK and G0. "
                      "REF (reference geometry) and VFLAG other than 0 are refused; shells and "
                      "beams are refused."},
      .read = read_card,
      .prepare = prepare_standard_linear_solid,
      .update_solid = update_standard_linear_solid,
      .update_shell = nullptr,
      .update_deviator = nullptr,
      .wave_speed = standard_linear_solid_wave_speed,
      .stress_history = true};
  return law;
}

} // namespace parcae
