// *MAT_KELVIN-MAXWELL_VISCOELASTIC (061): the standard linear solid of *MAT_VISCOELASTIC (006) on
// solids, with its two forms of the shear response:
//  - FO = 0 (Maxwell): the relaxation modulus G(t) = GI + (G0 - GI) exp(-DC t), DC the decay
//    constant BETA (1 / time), the deviatoric stress the hereditary integral of the deviatoric
//    strain rate;
//  - FO = 1 (Kelvin): s' + s / tau = 2 G0 e' + 2 (GI / tau) e, tau = DC the relaxation time.
// The Kelvin equation is the same standard linear solid: with s = 2 GI e + h and
// h' = -h / tau + 2 (G0 - GI) e' it becomes s' = 2 G0 e' - (s - 2 GI e) / tau, so a Kelvin card is
// the Maxwell one with BETA = 1 / DC, and both run on the exact step update of 006
// (update_standard_linear_solid). The pressure is -BULK ln V.
//
// SO chooses which strain LS-DYNA writes in the d3plot's plastic-strain slot; parcae writes the
// law's plastic strain there (0). Solids only (shells and beams are refused, as for 006).
//
// This file is the whole law; core/material_laws.def has its one line.
#include <cmath>
#include <memory>

#include <fmt/format.h>

#include "materials/law_support.hpp"
#include "materials/laws.hpp"

namespace parcae {

namespace {

void read_card(const io::Fields& h, LawReader& r) {
  Material& m = r.mat;
  auto p = std::make_shared<StandardLinearSolid>();
  read_standard_linear_solid(h, m, *p);
  const Real dc = h.real("DC"), fo = h.real("FO"), so = h.real("SO");
  if (fo != 0 && fo != 1)
    fail(h.loc("FO"), fmt::format("material {}: FO = {}: the formulation must be 0 (Maxwell) or 1 "
                                  "(Kelvin)",
                                  m.id, fo));
  if (so != 0 && so != 1 && so != 2)
    fail(h.loc("SO"), fmt::format("material {}: SO = {}: the strain output option must be 0, 1 or "
                                  "2",
                                  m.id, so));
  if (fo == 0) {
    if (!(dc >= 0))
      fail(h.loc("DC"), fmt::format("material {}: DC = {}: the Maxwell decay constant must not be "
                                    "negative",
                                    m.id, dc));
    p->beta = dc;
  } else {
    if (!(dc > 0))
      fail(h.loc("DC"), fmt::format("material {}: DC = {}: the Kelvin relaxation time (FO = 1) "
                                    "must be positive",
                                    m.id, dc));
    p->beta = 1.0 / dc;
  }
  m.law_card = std::move(p);
}

} // namespace

const MaterialLaw& law_kelvin_maxwell() {
  using namespace io::card_fields;
  static const MaterialLaw law{
      .kind = MaterialKind::KelvinMaxwell,
      .card = "*MAT_KELVIN-MAXWELL_VISCOELASTIC",
      .number = "061",
      .summary = "standard linear solid in shear, Maxwell (decay constant) or Kelvin (relaxation "
                 "time) form, elastic bulk (solids)",
      .history = 6, // the decaying part of the deviatoric stress
      .incremental = true,
      .plastic = false,
      .hyperelastic = false,
      .hydrodynamic = false,
      .rigid = false,
      .keyword = {.name = "*MAT_KELVIN-MAXWELL_VISCOELASTIC",
                  .aliases = {"*MAT_061"},
                  .options = {"TITLE"},
                  .head = {title_card(),
                           {"Card 1",
                            {I("MID").req(), R("RO").req(), R("BULK"), R("G0"), R("GI"), R("DC"),
                             R("FO"), R("SO")}}},
                  .summary =
                      "Viscoelastic solids: FO = 0 (Maxwell), G(t) = GI + (G0 - GI) exp(-DC t); "
                      "FO = 1 (Kelvin), s' + s/DC = 2 G0 e' + 2 (GI/DC) e, the same standard "
                      "linear solid with decay constant 1/DC; both on *MAT_VISCOELASTIC's step "
                      "update (exact for a constant strain rate); pressure -BULK ln V. SO (the "
                      "strain LS-DYNA writes in the d3plot's plastic-strain slot) is read and "
                      "not used: the slot holds 0. Shells and beams are refused."},
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
