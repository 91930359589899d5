// *MAT_ELASTIC_PLASTIC_HYDRO (010), solids only, hydrodynamic: von Mises plasticity with linear
// (SIGY + EH eps_p) or tabulated (EPS/ES) isotropic hardening on the shared radial return; the
// pressure is the part's EOS, limited to p >= PC (PC = 0: no limit).
#include <limits>
#include <string>

#include <fmt/format.h>

#include "materials/hydro.hpp"
#include "materials/j2_return.hpp"
#include "materials/law_support.hpp"
#include "materials/laws.hpp"

namespace parcae {

void prepare_elastic_plastic_hydro(const Material& mat, const Model& model, MaterialParams& m) {
  auto fail = [&](const std::string& msg) { fail_card(mat, msg); };
  prepare_hydro_common(mat, m);
  prepare_hydro_shear(mat, m);
  m.pc = mat.pc < 0 ? mat.pc : -std::numeric_limits<Real>::infinity(); // PC = 0: -infinity
  if (mat.lcss != 0) {
    copy_curve(mat, model, mat.lcss, "EPS/ES", m.hard_x, m.hard_y);
    for (std::size_t i = 0; i < m.hard_y.size(); ++i)
      if (!(m.hard_y[i] > 0))
        fail(fmt::format("ES{}: yield stress must be positive (got {})", i + 1, m.hard_y[i]));
    m.sigy = m.hard_y.front();
  } else {
    if (!(mat.sigy > 0)) fail(fmt::format("yield stress SIGY must be positive (got {})", mat.sigy));
    if (!(mat.eh >= 0))
      fail(fmt::format("hardening modulus EH must not be negative (got {})", mat.eh));
    m.sigy = mat.sigy;
    m.ep = mat.eh;
  }
}

Real update_elastic_plastic_hydro_deviator(const MaterialParams& m, const Real deps[6], Real dt,
                                           Real r, Real s[6], Real hist[6], Real& eps_p) {
  if (!(dt > 0)) return 0;
  add_deviatoric_increment(m, deps, s);
  const Real dep = j2::radial_return(m, s, nullptr, eps_p, 0.0, dt, nullptr);
  eps_p += dep;
  return dep;
}

namespace {

void read_elastic_plastic_hydro_card(const io::Fields& h, LawReader& r) {
  Material& m = r.mat;
  read_pressure_cutoff(h, m);
  read_shear_modulus(h, m);
  m.sigy = h.real("SIGY");
  m.eh = h.real("EH");
  r.note_ignored(h, "FS", "erosion at a failure strain is not supported");
  // EPS1-16 / ES1-16: the yield stress curve (ends at the first zero strain after EPS1).
  Curve c;
  c.id = -m.id;
  c.title = fmt::format("*MAT_010 {} EPS/ES table", m.id);
  c.loc = h.loc("EPS1");
  for (int k = 1; k <= 16; ++k) {
    const std::string e = fmt::format("EPS{}", k), y = fmt::format("ES{}", k);
    if (k > 1 && h.real(e) == 0) break;
    if (!c.x.empty() && !(h.real(e) > c.x.back()))
      fail(h.loc(e), fmt::format("material {}: {} = {} must be greater than the previous strain",
                                 m.id, e, h.real(e)));
    c.x.push_back(h.real(e));
    c.y.push_back(h.real(y));
  }
  const bool table = c.y.size() >= 2 || (c.y.size() == 1 && c.y[0] != 0);
  if (table && c.x.size() < 2)
    fail(h.loc("EPS2"),
         fmt::format("material {}: the EPS/ES table needs two points or more", m.id));
  if (table) {
    m.lcss = c.id;
    r.claim_id("curve", c.id, c.loc);
    r.model.curves.push_back(std::move(c));
  } else if (!(m.sigy > 0)) {
    fail(h.loc("SIGY"), fmt::format("material {}: yield stress SIGY = {} must be positive "
                                    "(or give the EPS/ES table)",
                                    m.id, m.sigy));
  }
}

} // namespace

const MaterialLaw& law_elastic_plastic_hydro() {
  using namespace io::card_fields;
  static const MaterialLaw law{
      .kind = MaterialKind::ElasticPlasticHydro,
      .card = "*MAT_ELASTIC_PLASTIC_HYDRO",
      .number = "010",
      .summary = "von Mises plasticity (linear or tabulated hardening) + EOS pressure, solids only",
      .history = 1, // effective plastic strain
      .incremental = true,
      .plastic = false,
      .hyperelastic = false,
      .hydrodynamic = true,
      .rigid = false,
      .keyword =
          {.name = "*MAT_ELASTIC_PLASTIC_HYDRO",
           .aliases = {"*MAT_010"},
           .options = {"TITLE"},
           .head =
               {title_card(),
                {"Card 1",
                 {I("MID").req(), R("RO"), R("G"), R("SIGY"), R("EH"), R("PC"), R("FS"),
                  R("CHARL")}},
                {"Card 2", reals({"EPS1", "EPS2", "EPS3", "EPS4", "EPS5", "EPS6", "EPS7", "EPS8"})},
                {"Card 3",
                 reals({"EPS9", "EPS10", "EPS11", "EPS12", "EPS13", "EPS14", "EPS15", "EPS16"})},
                {"Card 4", reals({"ES1", "ES2", "ES3", "ES4", "ES5", "ES6", "ES7", "ES8"})},
                {"Card 5", reals({"ES9", "ES10", "ES11", "ES12", "ES13", "ES14", "ES15", "ES16"})}},
           .summary = "Elastic-plastic hydrodynamic material (solids only; *PART EOSID "
                      "required): shear modulus G, von Mises yield SIGY + EH eps_p or the EPS/ES "
                      "table (yield stress against effective plastic strain; becomes a curve with "
                      "id -MID), pressure from the EOS limited to p >= PC (PC = 0: no limit). FS "
                      "(erosion) is not supported (warning when set); CHARL is ignored."},
      .read = read_elastic_plastic_hydro_card,
      .prepare = prepare_elastic_plastic_hydro,
      .update_solid = nullptr,
      .update_shell = nullptr,
      .update_deviator = update_elastic_plastic_hydro_deviator,
      .wave_speed = reference_wave_speed};
  return law;
}
} // namespace parcae
