// *MAT_NULL (009), solids only, hydrodynamic: no deviatoric strength but an optional Newtonian
// viscosity MU; the pressure is the part's EOS, limited to p >= PC (PC = 0: no tension).
#include <string>

#include <fmt/format.h>

#include "materials/hydro.hpp"
#include "materials/law_support.hpp"
#include "materials/laws.hpp"

namespace parcae {

void prepare_null(const Material& mat, const Model& model, MaterialParams& m) {
  auto fail = [&](const std::string& msg) { fail_card(mat, msg); };
  prepare_hydro_common(mat, m);
  if (!(mat.null_mu >= 0))
    fail(fmt::format("viscosity MU must not be negative (got {})", mat.null_mu));
  m.g = 0;
  m.null_mu = mat.null_mu;
  m.pc = mat.pc; // PC = 0: no tension
}

Real update_null_deviator(const MaterialParams& m, const Real deps[6], Real dt, Real r, Real s[6],
                          Real hist[6], Real& eps_p) {
  const Real dv = deps[0] + deps[1] + deps[2];
  const Real d3 = dv / 3.0;
  // Newtonian viscosity: s = 2 MU dev(D) (engineering shear: MU gamma / dt).
  const Real f = dt > 0 && m.null_mu > 0 ? m.null_mu / dt : 0.0;
  for (int k = 0; k < 3; ++k) s[k] = 2.0 * f * (deps[k] - d3);
  for (int k = 3; k < 6; ++k) s[k] = f * deps[k];
  return 0;
}

namespace {

void read_null_card(const io::Fields& h, LawReader& r) {
  Material& m = r.mat;
  read_pressure_cutoff(h, m);
  m.null_mu = h.real("MU");
  m.e = h.real("YM"); // null shells and beams: contact stiffness only
  m.pr = h.real("PR");
  if (!(m.null_mu >= 0))
    fail(h.loc("MU"),
         fmt::format("material {}: viscosity MU = {} must not be negative", m.id, m.null_mu));
  m.terod = h.real("TEROD");
  m.cerod = h.real("CEROD");
  if (m.terod != 0 && !(m.terod > 1))
    fail(h.loc("TEROD"), fmt::format("material {}: TEROD = {} must exceed 1 (a relative volume "
                                     "V / V0 reached in tension; 0: off)",
                                     m.id, m.terod));
  if (m.cerod != 0 && !(m.cerod > 0 && m.cerod < 1))
    fail(h.loc("CEROD"), fmt::format("material {}: CEROD = {} must lie between 0 and 1 (a "
                                     "relative volume V / V0 reached in compression; 0: off)",
                                     m.id, m.cerod));
}

} // namespace

const MaterialLaw& law_null() {
  using namespace io::card_fields;
  static const MaterialLaw law{
      .kind = MaterialKind::Null,
      .card = "*MAT_NULL",
      .number = "009",
      .summary = "EOS pressure, optional Newtonian viscosity, solids only",
      .history = 0,
      .incremental = true,
      .plastic = false,
      .hyperelastic = false,
      .hydrodynamic = true,
      .rigid = false,
      .keyword = {.name = "*MAT_NULL",
                  .aliases = {"*MAT_009"},
                  .options = {"TITLE"},
                  .head = {title_card(),
                           {"Card 1",
                            {I("MID").req(), R("RO"), R("PC"), R("MU"), R("TEROD"), R("CEROD"),
                             R("YM"), R("PR")}}},
                  .summary =
                      "Null material. Solids: with an equation of state (*PART EOSID required): "
                      "pressure from the EOS, limited to p >= PC (PC <= 0; 0: no tension); no "
                      "deviatoric stress but the viscous 2 MU dev(D) when MU > 0. Integrated "
                      "beams (ELFORM 1, 9): mass only, no stiffness and no EOS (LS-DYNA's null "
                      "beams for contact; YM and PR are kept for the contact stiffness). Solids "
                      "erode when V / V0 exceeds TEROD (> 1) or falls below CEROD (0 to 1); 0: "
                      "off."},
      .read = read_null_card,
      .prepare = prepare_null,
      .update_solid = nullptr,
      .update_shell = nullptr,
      .update_deviator = update_null_deviator,
      .wave_speed = reference_wave_speed};
  return law;
}
} // namespace parcae
