// Set keywords beyond the list, GENERATE, GENERAL and _ADD forms of card_tables.cpp: discrete
// element sets (*SET_DISCRETE and its forms), _INTERSECT (the members common to the listed sets),
// _GENERATE_INCREMENT (ranges with a step), the shell and solid GENERATE forms, and _COLUMN
// (one member per card with attributes). Their members are resolved with the other sets once
// the deck is read (deck_resolve_sets.cpp).
#include "input/card_spec.hpp"
#include "input/deck_apply.hpp"
#include "input/deck_builder.hpp"

namespace parcae::io {

namespace {

using namespace card_fields;

/// Card 1 of a set of this kind, as LS-DYNA writes it.
std::vector<FieldSpec> header(SetKind kind) {
  switch (kind) {
  case SetKind::Node:
  case SetKind::Part:
    return {I("SID").req(), R("DA1"), R("DA2"), R("DA3"), R("DA4"), S("SOLVER", "MECH")};
  case SetKind::Shell:
    return {I("SID").req(), R("DA1"), R("DA2"), R("DA3"), R("DA4")};
  case SetKind::Solid:
    return {I("SID").req(), S("SOLVER", "MECH")};
  case SetKind::Beam:
  case SetKind::Discrete:
    return {I("SID").req()};
  }
  return {I("SID").req()};
}

template <SetKind K, SetForm F> void apply(const Block& b, DeckBuilder& d) {
  apply_set_kind(b, K, F, d);
}

// (Card tables hold string views: every name and text here is a literal.)
template <SetKind K, SetForm F>
KeywordSpec set_card(std::string_view name, std::vector<std::string_view> aliases, CardSpec rows,
                     std::string_view summary) {
  std::vector<std::string_view> options = {"TITLE"};
  if (F != SetForm::Add && F != SetForm::Intersect) options.push_back("COLLECT");
  return {.name = name,
          .aliases = std::move(aliases),
          .options = std::move(options),
          .head = {title_card(), {"Card 1", header(K)}},
          .rows = {std::move(rows)},
          .summary = summary,
          .apply = apply<K, F>};
}

constexpr std::string_view kIncr = "Ranges BBEG-BEND taken every INCR ids (blank: 1), one range "
                                   "per card; ids that are not members of the set's kind are "
                                   "skipped.";
constexpr std::string_view kInter = "The members of the first listed set that every other listed "
                                    "set (DSID1-DSID8, cards repeated) also holds; the sets may "
                                    "be defined anywhere in the deck, also as _ADD or _INTERSECT "
                                    "sets.";
constexpr std::string_view kColumnText = "One member per card (its first field); the attributes "
                                         "A1-A4 are not used (one warning when any is nonzero).";

std::vector<KeywordSpec> set_variant_cards() {
  using enum SetKind;
  using enum SetForm;
  const CardSpec kElements{"Members", ints({"K1", "K2", "K3", "K4", "K5", "K6", "K7", "K8"})};
  const CardSpec kSets{
      "Sets", ints({"DSID1", "DSID2", "DSID3", "DSID4", "DSID5", "DSID6", "DSID7", "DSID8"})};
  const CardSpec kRanges{
      "Ranges", ints({"B1BEG", "B1END", "B2BEG", "B2END", "B3BEG", "B3END", "B4BEG", "B4END"})};
  const CardSpec kIncrement{"Range", ints({"BBEG", "BEND", "INCR"})};
  const CardSpec kColumn{"Member", {I("ID"), R("A1"), R("A2"), R("A3"), R("A4")}};
  return {
      set_card<Discrete, List>("*SET_DISCRETE", {"*SET_DISCRETE_LIST"}, kElements,
                               "Discrete element set (*ELEMENT_DISCRETE ids)."),
      set_card<Discrete, Generate>("*SET_DISCRETE_GENERATE", {}, kRanges,
                                   "Discrete element set from ranges BnBEG-BnEND (ids that are "
                                   "not discrete elements are skipped)."),
      set_card<Discrete, General>(
          "*SET_DISCRETE_GENERAL", {},
          {"Option",
           {S("OPTION").req(), I("E1"), I("E2"), I("E3"), I("E4"), I("E5"), I("E6"), I("E7")}},
          "OPTION ALL (every discrete element), ELEM (E1-E7), PART (the "
          "discrete elements of parts E1-E7); DELEM, DPART remove them."),
      set_card<Discrete, Add>("*SET_DISCRETE_ADD", {}, kSets,
                              "The union of discrete sets DSID1-DSID8, as *SET_NODE_ADD."),
      set_card<Node, Intersect>("*SET_NODE_INTERSECT", {}, kSets, kInter),
      set_card<Part, Intersect>("*SET_PART_INTERSECT", {}, kSets, kInter),
      set_card<Shell, Intersect>("*SET_SHELL_INTERSECT", {}, kSets, kInter),
      set_card<Solid, Intersect>("*SET_SOLID_INTERSECT", {}, kSets, kInter),
      set_card<Beam, Intersect>("*SET_BEAM_INTERSECT", {}, kSets, kInter),
      set_card<Discrete, Intersect>("*SET_DISCRETE_INTERSECT", {}, kSets, kInter),
      set_card<Node, Generate>("*SET_NODE_LIST_GENERATE_INCREMENT", {}, kIncrement, kIncr),
      set_card<Part, Generate>("*SET_PART_LIST_GENERATE_INCREMENT", {}, kIncrement, kIncr),
      set_card<Shell, Generate>("*SET_SHELL_LIST_GENERATE_INCREMENT",
                                {"*SET_SHELL_GENERATE_INCREMENT"}, kIncrement, kIncr),
      set_card<Solid, Generate>("*SET_SOLID_GENERATE_INCREMENT",
                                {"*SET_SOLID_LIST_GENERATE_INCREMENT"}, kIncrement, kIncr),
      set_card<Beam, Generate>("*SET_BEAM_GENERATE_INCREMENT", {}, kIncrement, kIncr),
      set_card<Shell, Generate>("*SET_SHELL_LIST_GENERATE", {"*SET_SHELL_GENERATE"}, kRanges,
                                "Shell set from ranges BnBEG-BnEND (ids in a range that are not "
                                "shells are skipped)."),
      set_card<Solid, Generate>("*SET_SOLID_GENERATE", {"*SET_SOLID_LIST_GENERATE"}, kRanges,
                                "Solid set from ranges BnBEG-BnEND (ids in a range that are not "
                                "solids are skipped)."),
      set_card<Node, Column>("*SET_NODE_COLUMN", {}, kColumn, kColumnText),
      set_card<Part, Column>("*SET_PART_COLUMN", {}, kColumn, kColumnText),
      set_card<Shell, Column>("*SET_SHELL_COLUMN", {}, kColumn, kColumnText),
  };
}

} // namespace

KeywordFile keywords_set_variants() {
  return {set_variant_cards(), nullptr};
}

} // namespace parcae::io
