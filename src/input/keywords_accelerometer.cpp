// *ELEMENT_SEATBELT_ACCELEROMETER: an accelerometer (three nodes, usually on a rigid body) whose
// output parcae does not write; read with one warning, its nodes checked and its optional MASS
// added to them (a third each), as LS-DYNA adds it.
#include <fmt/format.h>

#include "input/card_spec.hpp"
#include "input/deck_apply.hpp"
#include "input/deck_builder.hpp"

namespace parcae::io {

namespace {

using namespace card_fields;

struct Accelerometer {
  GlobalId id = 0;
  std::array<GlobalId, 3> nodes{};
  Real mass = 0;
  SourceLoc loc;
};

void apply_seatbelt_accelerometer(const Block& b, DeckBuilder& d) {
  auto& all = d.extension<std::vector<Accelerometer>>("accelerometers");
  for (const Fields& row : b.rows) {
    Accelerometer a{row.id("SBACID"),
                    {row.id("NID1"), row.id("NID2"), row.id("NID3")},
                    row.real("MASS"),
                    row.loc("SBACID")};
    if (!(a.mass >= 0))
      fail(row.loc("MASS"),
           fmt::format("accelerometer {}: MASS = {} must not be negative", a.id, a.mass));
    d.claim_id("accelerometer", a.id, a.loc);
    all.push_back(a);
  }
  if (!b.rows.empty())
    d.model.notes.push_back({b.loc.card, b.loc, false,
                             "accelerometer output is not written (read and ignored; a MASS is "
                             "added to its nodes)"});
}

void resolve_accelerometers(DeckBuilder& d) {
  Model& m = d.model;
  for (const Accelerometer& a : d.extension<std::vector<Accelerometer>>("accelerometers"))
    for (GlobalId nid : a.nodes) {
      const LocalId n = m.node_index(nid);
      if (n == kInvalidLocal)
        fail(a.loc,
             fmt::format("accelerometer {} references node {}, which is not defined", a.id, nid));
      if (a.mass > 0) m.lumped_masses.push_back({a.id, n, a.mass / 3.0, {}, a.loc});
    }
}

std::vector<KeywordSpec> accelerometer_cards() {
  return {
      {.name = "*ELEMENT_SEATBELT_ACCELEROMETER",
       .rows = {{"Card 1",
                 {I("SBACID").req(), I("NID1").req(), I("NID2").req(), I("NID3").req(), I("IGRAV"),
                  I("INTOPT"), R("MASS")}}},
       .stream_rows = true,
       .summary = "Accelerometer on nodes NID1-NID3: its output is not written (one warning); "
                  "the nodes must exist, and MASS is added to them, a third each. IGRAV and "
                  "INTOPT (output options) are ignored.",
       .apply = apply_seatbelt_accelerometer},
  };
}

} // namespace

KeywordFile keywords_accelerometer() {
  return {accelerometer_cards(), resolve_accelerometers};
}

} // namespace parcae::io
