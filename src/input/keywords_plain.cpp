// Keywords whose data has no mechanical effect or a plain one: *KEYWORD_JOBID (the job name of
// the output files), *COMMENT (lines of text), *ELEMENT_PLOTEL (plotting elements), and
// *DEFINE_VECTOR_NODES (a direction between two nodes).
#include <fmt/format.h>

#include "input/card_spec.hpp"
#include "input/deck_apply.hpp"
#include "input/deck_builder.hpp"

namespace parcae::io {

namespace {

using namespace card_fields;

void apply_keyword_jobid(const Block& b, DeckBuilder& d) {
  d.model.notes.push_back({b.loc.card, b.loc, false,
                           "the job name is not used (parcae's outputs are named by -o); "
                           "ignored"});
}

void apply_comment(const Block& /*b*/, DeckBuilder& /*d*/) {}

/// Plotting elements: checked against the nodes once the deck is read, then ignored.
struct Plotel {
  GlobalId id = 0, n1 = 0, n2 = 0;
  SourceLoc loc;
};

void apply_element_plotel(const Block& b, DeckBuilder& d) {
  auto& all = d.extension<std::vector<Plotel>>("plotting elements");
  for (const Fields& row : b.rows)
    all.push_back({row.id("EID"), row.id("N1"), row.id("N2"), row.loc("EID")});
  bool& noted = d.extension<bool>("plotting elements noted"); // once (rows come in chunks)
  if (!b.rows.empty() && !noted)
    d.model.notes.push_back({b.loc.card, b.loc, false,
                             "plotting elements have no mechanics and are not written; ignored"});
  noted = noted || !b.rows.empty();
}

void apply_define_vector_nodes(const Block& b, DeckBuilder& d) {
  for (const Fields& row : b.rows) {
    DefinedVector v;
    v.id = row.id("VID");
    v.tail_node = row.id("NODET");
    v.head_node = row.id("NODEH");
    v.loc = row.loc("VID");
    if (v.tail_node <= 0 || v.head_node <= 0 || v.tail_node == v.head_node)
      fail(row.loc("NODET"), fmt::format("vector {}: NODET = {} and NODEH = {} must be two "
                                         "different nodes",
                                         v.id, v.tail_node, v.head_node));
    d.claim_id("vector", v.id, v.loc);
    d.model.vectors.emplace(v.id, v);
  }
}

void resolve_plain(DeckBuilder& d) {
  for (const Plotel& p : d.extension<std::vector<Plotel>>("plotting elements"))
    for (GlobalId nid : {p.n1, p.n2})
      if (d.model.node_index(nid) == kInvalidLocal)
        fail(p.loc, fmt::format("plotting element {} references node {}, which is not defined",
                                p.id, nid));
}

std::vector<KeywordSpec> plain_cards() {
  return {
      {.name = "*KEYWORD_JOBID",
       .head = {{"Card 1", {Line("JOBID")}}},
       .summary = "The job name LS-DYNA prefixes its output files with: read and ignored (one "
                  "warning).",
       .apply = apply_keyword_jobid},
      {.name = "*COMMENT",
       .rows = {{"Text", {Line("TEXT")}}},
       .summary = "Lines of text up to the next keyword: ignored.",
       .apply = apply_comment},
      {.name = "*ELEMENT_PLOTEL",
       .rows = {{"Card 1", {I("EID").req(), I("N1").req(), I("N2").req()}}},
       .stream_rows = true,
       .summary = "Plotting elements (no mass, no stiffness): their nodes must exist; not "
                  "written to the outputs (one warning).",
       .apply = apply_element_plotel},
      {.name = "*DEFINE_VECTOR_NODES",
       .options = {"TITLE"},
       .head = {title_card()},
       .rows = {{"Card 1", {I("VID").req(), I("NODET").req(), I("NODEH").req()}}},
       .summary = "The direction from node NODET to node NODEH at time 0; used wherever a "
                  "*DEFINE_VECTOR VID is.",
       .apply = apply_define_vector_nodes},
  };
}

} // namespace

KeywordFile keywords_plain() {
  return {plain_cards(), resolve_plain};
}

} // namespace parcae::io
