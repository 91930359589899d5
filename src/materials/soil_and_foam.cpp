// *MAT_SOIL_AND_FOAM (005) on solids, after the LS-DYNA manuals' material 5: a pressure-dependent
// yield surface on the deviatoric stress and a tabulated, crushable pressure-volume law.
//  - Pressure (positive in compression) from the volumetric compression mu = -ln V: loading along
//    the curve P(mu) (EPS1-EPS10 / P1-P10, or the curve LCID); unloading and reloading below it
//    with the bulk modulus BULK (VCR = 0: the soil keeps its crush), or along the curve both ways
//    (VCR = 1). Below mu = 0 (expansion) the response is elastic with BULK. The pressure never
//    drops below the tensile cutoff PC (<= 0; blank: no tension at all, as in LS-DYNA).
//  - Deviatoric stress elastic with G, limited by J2 = s:s / 2 <= a0 + a1 p + a2 p^2 (a0 = SIGY^2/3
//    with a1 = a2 = 0 is von Mises); where the right side is not positive the deviator vanishes.
// The table's strains are ln V (negative in compression, in order of increasing compression) as
// the manual gives them; a table of positive values is read as -ln V with a note (decks written
// either way exist). The compression mu is the law's history value, kept where the plastic laws
// keep the effective plastic strain (and written to the d3plot there); the pressure is the
// stress's. Stepping: on the curve at the start of a loading step the pressure follows the curve
// exactly; otherwise the elastic predictor p + BULK dmu is capped by the curve.
//
// Refused at their field: REF (reference geometry), a table (temperature) for LCID, PC > 0.
// Shells and beams are refused at set-up (solids only, as in LS-DYNA).
//
// This file is the whole law; core/material_laws.def has its one line.
#include <algorithm>
#include <cmath>
#include <memory>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "materials/law_support.hpp"
#include "materials/laws.hpp"

namespace parcae {

namespace {

struct SoilAndFoam {
  Real g = 0, bulk = 0, a0 = 0, a1 = 0, a2 = 0, pc = 0;
  bool vcr = false;        ///< VCR = 1: load and unload along the curve
  GlobalId lcid = 0;       ///< LCID: the curve instead of the table
  std::vector<Real> mu, p; ///< the loading curve: compression -ln V, pressure
  Real k_max = 0;          ///< the stiffest of BULK and the curve's slopes (time step)
};

void read_card(const io::Fields& h, LawReader& r) {
  Material& m = r.mat;
  auto s = std::make_shared<SoilAndFoam>();
  s->g = h.real("G");
  s->bulk = h.real("BULK");
  s->a0 = h.real("A0");
  s->a1 = h.real("A1");
  s->a2 = h.real("A2");
  s->pc = h.real("PC");
  if (!(s->g > 0))
    fail(h.loc("G"), fmt::format("material {}: shear modulus G = {} must be positive", m.id, s->g));
  if (!(s->bulk > 0))
    fail(h.loc("BULK"),
         fmt::format("material {}: unloading bulk modulus BULK = {} must be positive", m.id,
                     s->bulk));
  if (s->pc > 0)
    fail(h.loc("PC"), fmt::format("material {}: PC = {}: the tensile pressure cutoff is a "
                                  "negative pressure (tension; 0: no tension)",
                                  m.id, s->pc));
  const Real vcr = h.real("VCR");
  if (vcr != 0 && vcr != 1)
    fail(h.loc("VCR"), fmt::format("material {}: VCR = {} must be 0 (volumetric crushing) or 1 "
                                   "(loading and unloading along the curve)",
                                   m.id, vcr));
  s->vcr = vcr == 1;
  refuse_field(h, "REF", m.id, "a reference geometry");
  s->lcid = h.id("LCID");
  if (s->lcid == 0) {
    // the table: the points up to the last nonzero pressure or strain
    static constexpr std::string_view eps[] = {"EPS1", "EPS2", "EPS3", "EPS4", "EPS5",
                                               "EPS6", "EPS7", "EPS8", "EPS9", "EPS10"};
    static constexpr std::string_view ps[] = {"P1", "P2", "P3", "P4", "P5",
                                              "P6", "P7", "P8", "P9", "P10"};
    int used = 0;
    for (int k = 0; k < 10; ++k)
      if (h.real(eps[k]) != 0 || h.real(ps[k]) != 0) used = k + 1;
    if (used < 2)
      fail(h.loc("EPS1"), fmt::format("material {}: the pressure-volume table needs at least two "
                                      "points (EPS1-EPS10, P1-P10) or a curve LCID",
                                      m.id));
    bool any_pos = false, any_neg = false;
    for (int k = 0; k < used; ++k) {
      any_pos = any_pos || h.real(eps[k]) > 0;
      any_neg = any_neg || h.real(eps[k]) < 0;
    }
    if (any_pos && any_neg)
      fail(h.loc("EPS1"), fmt::format("material {}: the volumetric strains EPS1-EPS{} mix signs; "
                                      "give ln V (negative in compression)",
                                      m.id, used));
    if (any_pos)
      r.note(h.loc("EPS1"), fmt::format("material {}: EPS1-EPS{} are positive: read as the "
                                        "compression -ln V (the manual gives ln V, negative in "
                                        "compression)",
                                        m.id, used));
    for (int k = 0; k < used; ++k) {
      const Real mu = any_pos ? h.real(eps[k]) : -h.real(eps[k]);
      if (!s->mu.empty() && !(mu > s->mu.back()))
        fail(h.loc(eps[k]), fmt::format("material {}: {} = {}: the table must go in order of "
                                        "increasing compression",
                                        m.id, eps[k], h.real(eps[k])));
      s->mu.push_back(mu);
      s->p.push_back(h.real(ps[k]));
    }
  }
  // contact stiffness and summaries: the elastic constants of BULK and G
  set_elastic_from_bulk_shear(m, s->bulk, s->g);
  m.law_card = std::move(s);
}

void prepare(const Material& mat, const Model& model, MaterialParams& m) {
  auto s = std::make_shared<SoilAndFoam>(mat.card<SoilAndFoam>());
  if (s->lcid != 0) {
    if (model.find_table(s->lcid) != nullptr)
      fail_card(mat, fmt::format("LCID {} is a table (temperature-dependent curves): not "
                                 "supported; give a curve",
                                 s->lcid));
    std::vector<Real> x, y;
    copy_curve(mat, model, s->lcid, "LCID", x, y);
    const bool neg = std::all_of(x.begin(), x.end(), [](Real v) { return v <= 0; });
    if (neg) {
      // ln V, negative in compression: in order of increasing compression it runs backwards
      std::reverse(x.begin(), x.end());
      std::reverse(y.begin(), y.end());
      for (Real& v : x) v = -v;
    } else if (!std::all_of(x.begin(), x.end(), [](Real v) { return v >= 0; })) {
      fail_card(mat, fmt::format("LCID curve {}: its volumetric strains mix signs; give ln V "
                                 "(negative in compression)",
                                 s->lcid));
    }
    s->mu = std::move(x);
    s->p = std::move(y);
  }
  s->k_max = s->bulk;
  for (std::size_t i = 1; i < s->mu.size(); ++i)
    s->k_max = std::max(s->k_max, (s->p[i] - s->p[i - 1]) / (s->mu[i] - s->mu[i - 1]));
  set_bulk_shear_moduli(m, s->bulk, s->g);
  m.law_data = std::move(s);
}

/// The loading curve at the compression mu (linear between its points, its end segments
/// extended; elastic with BULK in expansion, mu < 0).
Real curve_pressure(const SoilAndFoam& s, Real mu) {
  if (mu < 0) return s.bulk * mu;
  const auto& x = s.mu;
  const std::size_t n = x.size();
  std::size_t i = std::upper_bound(x.begin(), x.end(), mu) - x.begin();
  i = std::clamp<std::size_t>(i, 1, n - 1);
  const Real t = (mu - x[i - 1]) / (x[i] - x[i - 1]);
  return s.p[i - 1] + t * (s.p[i] - s.p[i - 1]);
}

Real update_solid(const MaterialParams& m, const Real deps[6], Real /*dt*/, Real sig[6],
                  Real /*back*/[6], Real& mu) {
  const SoilAndFoam& s = m.law_params<SoilAndFoam>();
  const Real tr = deps[0] + deps[1] + deps[2];
  const Real p_old = -(sig[0] + sig[1] + sig[2]) / 3;
  const Real mu_old = mu, dmu = -tr;
  mu += dmu;
  Real p;
  if (s.vcr) {
    p = curve_pressure(s, mu);
  } else {
    const Real on_curve = curve_pressure(s, mu_old);
    // (p_old is the curve's value of the last step, up to the round-off of the stress's trace)
    const bool loading_on_curve =
        dmu > 0 && mu_old >= 0 && p_old >= on_curve - 1e-9 * (std::abs(on_curve) + std::abs(p_old));
    p = loading_on_curve ? curve_pressure(s, mu)
                         : std::min(p_old + s.bulk * dmu, curve_pressure(s, mu));
  }
  p = std::max(p, s.pc);
  // deviator: elastic trial, limited by the pressure-dependent yield function
  Real dev[6];
  for (int i = 0; i < 3; ++i) dev[i] = sig[i] + p_old + 2 * s.g * (deps[i] - tr / 3);
  for (int i = 3; i < 6; ++i) dev[i] = sig[i] + s.g * deps[i]; // engineering shear increments
  const Real j2 = 0.5 * (dev[0] * dev[0] + dev[1] * dev[1] + dev[2] * dev[2]) + dev[3] * dev[3] +
                  dev[4] * dev[4] + dev[5] * dev[5];
  const Real phi = s.a0 + s.a1 * p + s.a2 * p * p;
  const Real scale = !(phi > 0) ? 0.0 : (j2 > phi ? std::sqrt(phi / j2) : 1.0);
  for (int i = 0; i < 6; ++i) sig[i] = scale * dev[i] - (i < 3 ? p : 0.0);
  return 0;
}

Real wave_speed(const MaterialParams& m) {
  if (m.ro <= 0) return 0;
  const auto& s = m.law_params<SoilAndFoam>();
  return std::sqrt((s.k_max + 4.0 / 3.0 * s.g) / m.ro);
}

} // namespace

const MaterialLaw& law_soil_and_foam() {
  using namespace io::card_fields;
  static const MaterialLaw law{
      .kind = MaterialKind::SoilAndFoam,
      .card = "*MAT_SOIL_AND_FOAM",
      .number = "005",
      .summary = "soil and foam (solids): tabulated crushable pressure-volume law, pressure-"
                 "dependent yield J2 <= a0 + a1 p + a2 p^2",
      .history = 1, // the volumetric compression -ln V
      .incremental = true,
      .plastic = false,
      .hyperelastic = false,
      .hydrodynamic = false,
      .rigid = false,
      .keyword =
          {.name = "*MAT_SOIL_AND_FOAM",
           .aliases = {"*MAT_005"},
           .options = {"TITLE"},
           .head =
               {title_card(),
                {"Card 1",
                 {I("MID").req(), R("RO"), R("G"), R("BULK"), R("A0"), R("A1"), R("A2"), R("PC")}},
                {"Card 2", {R("VCR"), R("REF"), I("LCID")}},
                {"Card 3", reals({"EPS1", "EPS2", "EPS3", "EPS4", "EPS5", "EPS6", "EPS7", "EPS8"})},
                {"Card 4", reals({"EPS9", "EPS10"})},
                {"Card 5", reals({"P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8"})},
                {"Card 6", reals({"P9", "P10"})}},
           .summary =
               "Soil and foam on solids: pressure from the compression -ln V along the curve "
               "EPS/P (ln V, negative in compression, in order of increasing compression; "
               "positive values are read as -ln V with a note) or LCID, unloading with BULK "
               "(VCR = 0) or along the curve (VCR = 1), elastic with BULK in expansion, never "
               "below the cutoff PC (<= 0; 0: no tension); deviator elastic with G, J2 <= A0 + "
               "A1 p + A2 p^2. The compression is written where the plastic strain goes. "
               "Refused: REF, LCID a table, PC > 0. Shells and beams are refused."},
      .read = read_card,
      .prepare = prepare,
      .update_solid = update_solid,
      .update_shell = nullptr,
      .update_deviator = nullptr,
      .wave_speed = wave_speed};
  return law;
}

} // namespace parcae
