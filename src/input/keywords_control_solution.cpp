// Control keywords that say which problem the deck is, read so that parcae never runs another
// one. Other *CONTROL_ keywords parcae does not read are warned about and ignored (they tune
// how a problem is solved or written); these change what is solved:
//  - *CONTROL_SOLUTION: SOLN 0 (structural) is what parcae solves; SOLN 1 (thermal only) is
//    refused; SOLN 2 (coupled structural-thermal) runs the structural part, with a warning that
//    the temperatures are not solved. Its other fields tune the solver: read and ignored.
//  - *CONTROL_STAGED_CONSTRUCTION: parts added and removed in stages; refused (running the deck
//    without the stages would put every part in place from the start).
#include <fmt/format.h>

#include "input/card_spec.hpp"
#include "input/deck_apply.hpp"
#include "input/deck_builder.hpp"

namespace parcae::io {

namespace {

using namespace card_fields;

void apply_control_solution(const Block& b, DeckBuilder& d) {
  const int soln = b.head.integer("SOLN");
  if (soln == 1)
    fail(b.head.loc("SOLN"), "SOLN = 1: a thermal-only analysis; parcae solves the structural "
                             "problem only (SOLN = 0)");
  if (soln == 2)
    d.model.notes.push_back({b.loc.card, b.head.loc("SOLN"), false,
                             "SOLN = 2 (coupled structural-thermal): the structural problem is "
                             "solved, the temperatures are not (no thermal expansion or "
                             "softening from them)"});
  else if (soln != 0)
    fail(b.head.loc("SOLN"),
         fmt::format("SOLN = {} must be 0 (structural), 1 (thermal) or 2 (coupled)", soln));
}

void apply_staged_construction(const Block& b, DeckBuilder& /*d*/) {
  fail(b.loc, "staged construction (parts added and removed in stages) is not supported: "
              "without its stages the deck would run with every part in place from the start");
}

std::vector<KeywordSpec> control_solution_cards() {
  return {
      {.name = "*CONTROL_SOLUTION",
       .head = {{"Card 1",
                 {I("SOLN"), I("NLQ"), I("ISNAN"), I("LCINT", "100"), I("LCACC"), I("NCDCF"),
                  I("NOCOPY")}},
                {"Card 2", {R("DTDT"), R("NCOEF"), R("TIME"), R("TINIT")}, "", true}},
       .summary = "The kind of analysis: SOLN 0 (structural) is solved; SOLN 1 (thermal only) is "
                  "refused; SOLN 2 (coupled) solves the structural part with a warning that "
                  "temperatures are not solved. NLQ, ISNAN, LCINT (curve discretisation: "
                  "parcae evaluates curves exactly), LCACC, NCDCF, NOCOPY and card 2 are read and "
                  "ignored.",
       .apply = apply_control_solution},
      {.name = "*CONTROL_STAGED_CONSTRUCTION",
       .head = {{"Card 1",
                 {R("TSTART"), R("STGS"), R("STGE"), R("ACCEL"), R("FACT"), I("DONE"), I("DORDER"),
                  I("NOPDEL")}},
                {"Card 2", {I("ITIME"), I("IDYNAIN")}, "", true}},
       .summary = "Refused at its line: staged construction is not modelled, and ignoring it "
                  "would run the deck with every part in place from the start.",
       .apply = apply_staged_construction},
  };
}

} // namespace

KeywordFile keywords_control_solution() {
  return {control_solution_cards(), nullptr};
}

} // namespace parcae::io
