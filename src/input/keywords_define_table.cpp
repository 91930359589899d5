// *DEFINE_TABLE and *DEFINE_TABLE_2D: a curve at each of a list of increasing values (the yield
// curves of *MAT_024 at strain rates, LCSS = TBID). A row's LCID names its curve; a row without
// one (the older layout, VALUE alone) takes the next *DEFINE_CURVE that follows the table in the
// deck, as LS-DYNA reads it. Tables share their ids with the curves.
#include <fmt/format.h>

#include "input/card_spec.hpp"
#include "input/deck_apply.hpp"
#include "input/deck_builder.hpp"

namespace parcae::io {

namespace {

using namespace card_fields;

/// Rows of a table without LCID, filled from the curves read after it.
struct PendingRows {
  std::size_t table = 0;       ///< index in Model::tables
  std::size_t first_curve = 0; ///< Model::curves.size() when the table was read
  std::vector<std::size_t> rows;
  std::vector<SourceLoc> locs;
};

void apply_define_table(const Block& b, DeckBuilder& d) {
  const Fields& h = b.head;
  const bool two_d = b.spec->name == "*DEFINE_TABLE_2D";
  Table t;
  t.id = h.id("TBID");
  t.loc = h.loc("TBID");
  if (t.id <= 0) fail(t.loc, fmt::format("table id TBID = {} must be positive", t.id));
  d.claim_id("curve", t.id, t.loc); // one id space with the curves, as in LS-DYNA
  if (b.has("TITLE")) t.title = h.text("TITLE");
  const double sfa = h.real("SFA") == 0 ? 1.0 : h.real("SFA"); // 0 means 1, as for curves
  PendingRows pending{d.model.tables.size(), d.model.curves.size(), {}, {}};
  for (const Fields& row : b.rows) {
    const double v = sfa * (row.real("VALUE") + h.real("OFFA"));
    if (!t.values.empty() && !(v > t.values.back()))
      fail(row.loc("VALUE"), fmt::format("table {}: the values must be strictly increasing, but "
                                         "value {} is {} after {}",
                                         t.id, t.values.size() + 1, v, t.values.back()));
    const GlobalId lcid = row.id("LCID");
    if (lcid < 0)
      fail(row.loc("LCID"), fmt::format("table {}: LCID = {} must not be negative", t.id, lcid));
    if (lcid == 0) {
      if (two_d)
        fail(row.loc("LCID"), fmt::format("table {}: *DEFINE_TABLE_2D needs a curve LCID on "
                                          "every row",
                                          t.id));
      pending.rows.push_back(t.values.size());
      pending.locs.push_back(row.loc("VALUE"));
    }
    t.values.push_back(v);
    t.curves.push_back(lcid);
  }
  if (t.values.empty()) fail(t.loc, fmt::format("table {} has no values (at least 1)", t.id));
  if (!pending.rows.empty())
    d.extension<std::vector<PendingRows>>("table rows without curves")
        .push_back(std::move(pending));
  d.model.tables.push_back(std::move(t));
}

/// Rows without LCID take the curves that follow their table; every curve exists.
void resolve_tables(DeckBuilder& d) {
  Model& m = d.model;
  for (const PendingRows& p : d.extension<std::vector<PendingRows>>("table rows without curves")) {
    Table& t = m.tables[p.table];
    std::size_t next = p.first_curve;
    for (std::size_t k = 0; k < p.rows.size(); ++k) {
      while (next < m.curves.size() && m.curves[next].id <= 0) ++next; // built from other cards
      if (next >= m.curves.size())
        fail(p.locs[k], fmt::format("table {}: value {} has no LCID and no *DEFINE_CURVE "
                                    "follows the table for it (a row without LCID takes the "
                                    "next curve after the table)",
                                    t.id, p.rows[k] + 1));
      t.curves[p.rows[k]] = m.curves[next++].id;
    }
  }
  for (const Table& t : m.tables)
    for (std::size_t k = 0; k < t.curves.size(); ++k)
      if (m.find_curve(t.curves[k]) == nullptr)
        fail(t.loc, fmt::format("table {}: curve {} (of value {}) is not defined", t.id,
                                t.curves[k], t.values[k]));
}

std::vector<KeywordSpec> define_table_cards() {
  const std::vector<CardSpec> head = {title_card(),
                                      {"Card 1", {I("TBID").req(), R("SFA", "1.0"), R("OFFA")}}};
  const std::vector<CardSpec> rows = {{"Value", {R("VALUE").w(20), I("LCID").w(20)}}};
  return {
      {.name = "*DEFINE_TABLE",
       .options = {"TITLE"},
       .head = head,
       .rows = rows,
       .summary = "A curve at each VALUE (SFA * (VALUE + OFFA), strictly increasing; SFA of 0 "
                  "means 1): the yield curves of *MAT_024 at strain rates (LCSS = TBID). A row "
                  "without LCID takes the next *DEFINE_CURVE after the table (the layout of "
                  "older decks, VALUE alone). Table ids share the curves' id space.",
       .apply = apply_define_table},
      {.name = "*DEFINE_TABLE_2D",
       .options = {"TITLE"},
       .head = head,
       .rows = rows,
       .summary = "As *DEFINE_TABLE, with LCID required on every row.",
       .apply = apply_define_table},
  };
}

} // namespace

KeywordFile keywords_define_table() {
  return {define_table_cards(), resolve_tables};
}

} // namespace parcae::io
