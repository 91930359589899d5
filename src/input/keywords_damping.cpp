// *DAMPING_GLOBAL: card table beside its apply function. Mass-weighted damping of every
// deformable node and rigid body, F = -D m v (and -D I w for rotations), scaled per direction;
// D constant (VALDMP) or a curve of time (LCID). The explicit solver applies it with the
// velocities of the last half step (solvers/explicit/damping_pass.cpp) and reports the energy it
// takes as the system damping energy of glstat.
#include <fmt/format.h>

#include <algorithm>

#include "input/card_spec.hpp"
#include "input/deck_apply.hpp"
#include "input/deck_builder.hpp"

namespace parcae::io {

namespace {

using namespace card_fields;

void apply_damping_global(const Block& b, DeckBuilder& d) {
  const Fields& h = b.head;
  GlobalDamping& g = d.model.control.damping;
  if (g.on) fail(h.loc("LCID"), "*DAMPING_GLOBAL is given twice (one global damping per deck)");
  g.on = true;
  g.lcid = h.id("LCID");
  g.valdmp = h.real("VALDMP");
  static constexpr std::string_view names[] = {"STX", "STY", "STZ", "SRX", "SRY", "SRZ"};
  for (std::size_t k = 0; k < 6; ++k) g.scale[k] = h.real(names[k]);
  // all six zero (blank): every direction damped alike (LS-DYNA's default)
  if (std::all_of(g.scale.begin(), g.scale.end(), [](Real s) { return s == 0; })) g.scale.fill(1.0);
  for (std::size_t k = 0; k < 6; ++k)
    if (g.scale[k] < 0)
      fail(h.loc(names[k]), fmt::format("{} = {} must not be negative", names[k], g.scale[k]));
  if (g.lcid == 0 && g.valdmp < 0)
    fail(h.loc("VALDMP"), fmt::format("VALDMP = {} must not be negative", g.valdmp));
  g.loc = h.loc("LCID");
}

void resolve_damping(DeckBuilder& d) {
  const GlobalDamping& g = d.model.control.damping;
  if (g.on && g.lcid != 0 && !d.is_curve(g.lcid))
    fail(g.loc,
         fmt::format("*DAMPING_GLOBAL references curve LCID = {}, which is not defined", g.lcid));
}

std::vector<KeywordSpec> damping_cards() {
  return {
      {.name = "*DAMPING_GLOBAL",
       .head = {{"Card 1",
                 {I("LCID"), R("VALDMP"), R("STX"), R("STY"), R("STZ"), R("SRX"), R("SRY"),
                  R("SRZ")}}},
       .summary = "Mass-weighted damping of every deformable node and rigid body: force "
                  "-D ST m v per direction (moment -D SR I w), D = VALDMP or LCID(t); STX-SRZ "
                  "all zero (blank) means 1 for every direction. Explicit solver; its energy is "
                  "glstat's system damping energy.",
       .apply = apply_damping_global},
  };
}

} // namespace

KeywordFile keywords_damping() {
  return {damping_cards(), resolve_damping};
}

} // namespace parcae::io
