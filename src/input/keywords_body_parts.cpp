// *LOAD_BODY_PARTS: the part set the body loads (*LOAD_BODY_X/Y/Z) act on; without it they act
// on every node. The explicit solver loads the nodes of those parts' elements
// (solvers/explicit/integrator.cpp).
#include <fmt/format.h>

#include "input/card_spec.hpp"
#include "input/deck_apply.hpp"
#include "input/deck_builder.hpp"

namespace parcae::io {

namespace {

using namespace card_fields;

void apply_load_body_parts(const Block& b, DeckBuilder& d) {
  const Fields& h = b.head;
  auto& loc = d.extension<SourceLoc>("load body parts");
  if (d.model.body_load_parts != 0)
    fail(h.loc("PSID"),
         fmt::format("*LOAD_BODY_PARTS is given twice (first at {}:{})", loc.file, loc.line));
  d.model.body_load_parts = h.id("PSID");
  loc = h.loc("PSID");
  if (d.model.body_load_parts <= 0)
    fail(loc, fmt::format("*LOAD_BODY_PARTS: PSID = {} must be a part set", h.id("PSID")));
}

void resolve_load_body_parts(DeckBuilder& d) {
  const GlobalId psid = d.model.body_load_parts;
  if (psid != 0 && d.model.part_sets.count(psid) == 0)
    fail(d.extension<SourceLoc>("load body parts"),
         fmt::format("*LOAD_BODY_PARTS references part set {}, which is not defined", psid));
}

std::vector<KeywordSpec> body_parts_cards() {
  return {
      {.name = "*LOAD_BODY_PARTS",
       .head = {{"Card 1", {I("PSID").req()}}},
       .summary = "The body loads (*LOAD_BODY_X, _Y, _Z) act on the nodes of the elements of the "
                  "parts of set PSID only (without this keyword: on every node). Once per deck.",
       .apply = apply_load_body_parts},
  };
}

} // namespace

KeywordFile keywords_body_parts() {
  return {body_parts_cards(), resolve_load_body_parts};
}

} // namespace parcae::io
