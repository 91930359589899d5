// *AIRBAG_SIMPLE_AIRBAG_MODEL: a control volume of shell parts filled with an ideal gas (the
// Wang-Nefske model of the LS-DYNA theory manual): inflator mass rate and temperature, a vent
// orifice, ambient pressure and density. The explicit solver integrates the gas's mass and
// energy with the bag's volume (solvers/explicit/airbag_pass.cpp, fem/airbag.hpp).
#include <fmt/format.h>

#include "input/card_spec.hpp"
#include "input/deck_apply.hpp"
#include "input/deck_builder.hpp"

namespace parcae::io {

namespace {

using namespace card_fields;

void apply_airbag_simple_airbag_model(const Block& b, DeckBuilder& d) {
  const Fields& h = b.head;
  Airbag a = new_airbag(b, d); // id, title, part set
  a.thermo = true;
  auto zero = [&](const char* f, const char* what) {
    if (h.real(f) != 0)
      fail(h.loc(f), fmt::format("{} = {}: {} is not supported (must be 0)", f, h.real(f), what));
  };
  zero("RBID", "an inflator attached to a rigid body");
  zero("VINI", "an initial filled volume");
  zero("SPSF", "stagnation pressure");
  zero("LOU", "leakage through the fabric (a curve of mass outflow)");
  a.vsca = h.real("VSCA") == 0 ? 1.0 : h.real("VSCA");
  a.psca = h.real("PSCA") == 0 ? 1.0 : h.real("PSCA");
  if (!(a.vsca > 0) || !(a.psca > 0)) fail(h.loc("VSCA"), "VSCA and PSCA must be positive (0: 1)");
  a.mwd = h.real("MWD");
  if (a.mwd < 0) fail(h.loc("MWD"), fmt::format("MWD = {} must not be negative", a.mwd));
  a.cv = h.real("CV");
  a.cp = h.real("CP");
  if (a.cv == 0)
    fail(h.loc("CV"), "CV = 0 (heat capacities from TEXT, A, B, MW and GASC) is not supported: "
                      "give CV and CP");
  if (!(a.cv > 0) || !(a.cp > a.cv))
    fail(h.loc("CP"),
         fmt::format("the heat capacities need CP > CV > 0 (CV = {}, CP = {})", a.cv, a.cp));
  a.t_in = h.real("T");
  if (!(a.t_in > 0))
    fail(h.loc("T"), fmt::format("T = {}: the inflator gas temperature must be positive", a.t_in));
  a.lcmass = h.id("LCID");
  if (a.lcmass <= 0) fail(h.loc("LCID"), "LCID: the inflator's mass flow rate curve is required");
  a.mu = h.real("MU");
  a.area = h.real("A");
  if (a.mu < 0 || a.area < 0)
    fail(h.loc(a.mu < 0 ? "MU" : "A"), "MU < 0 and A < 0 (curves of the gauge pressure) are not "
                                       "supported: give the vent's shape factor and area");
  a.pe = h.real("PE");
  a.ro = h.real("RO");
  if (!(a.pe > 0) || !(a.ro > 0))
    fail(h.loc(a.pe > 0 ? "RO" : "PE"),
         fmt::format("PE = {} and RO = {}: the ambient pressure and density must be positive", a.pe,
                     a.ro));
  d.model.airbags.push_back(std::move(a));
}

std::vector<KeywordSpec> airbag_model_cards() {
  return {
      {.name = "*AIRBAG_SIMPLE_AIRBAG_MODEL",
       .options = {"ID", "#"},
       .head = {{"ID", {I("ABID"), Line("HEADING").w(70)}, "ID"},
                {"Card 1",
                 {I("SID").req(), I("SIDTYP"), I("RBID"), R("VSCA", "1.0"), R("PSCA", "1.0"),
                  R("VINI"), R("MWD"), R("SPSF")}},
                {"Card 2",
                 {R("CV"), R("CP"), R("T"), I("LCID"), R("MU"), R("A"), R("PE"), R("RO")}},
                {"Card 3", {I("LOU"), R("TEXT"), R("A_T"), R("B_T"), R("MW"), R("GASC")}}},
       .summary =
           "A closed bag of shell parts (SIDTYP != 0: part set SID) filled with an ideal gas, "
           "gamma = CP/CV (Wang-Nefske, as in LS-DYNA's theory manual): at t = 0 it holds gas at "
           "the ambient pressure PE and density RO; the inflator adds mass at the rate LCID(t) "
           "at temperature T (enthalpy CP T per unit mass); the vent (MU * A, 0: none) lets gas "
           "out when the pressure exceeds PE, at the orifice rate of isentropic flow, choked "
           "below the critical pressure ratio; the energy balance takes the work p dV of the "
           "bag's volume VSCA V. The gauge pressure PSCA (p - PE) acts on the shells (its work "
           "is external work); MWD damps the bag's nodes as for "
           "*AIRBAG_SIMPLE_PRESSURE_VOLUME. Refused: SIDTYP 0, RBID, VINI, SPSF, LOU, CV = 0 "
           "(card 3's temperature-dependent heat capacities: TEXT, A, B, MW, GASC are then "
           "unused), MU or A < 0 (curves). A numeric option (older decks) is the airbag id.",
       .apply = apply_airbag_simple_airbag_model},
  };
}

} // namespace

KeywordFile keywords_airbag_model() {
  return {airbag_model_cards(), nullptr};
}

} // namespace parcae::io
