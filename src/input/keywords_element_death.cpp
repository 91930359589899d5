// *DEFINE_ELEMENT_DEATH_SOLID / _SOLID_SET / _SHELL / _SHELL_SET / _THICK_SHELL [_TITLE]: elements
// deleted at a given time (optionally only inside or outside a box), card tables beside their apply
// and resolve functions. The explicit solver deletes them in its erosion pass
// (solvers/explicit/erosion_pass.cpp), as eroded elements.
#include <map>
#include <unordered_map>

#include <fmt/format.h>

#include "input/card_spec.hpp"
#include "input/deck_apply.hpp"
#include "materials/catalogue.hpp"

namespace parcae::io {

namespace {

using namespace card_fields;

/// One card before the elements are known.
struct PendingDeath {
  bool shell = false, is_set = false;
  bool thick_shell = false; ///< _THICK_SHELL: a solid-table element whose section is a TSHELL
  GlobalId id = 0;          ///< element id, or element set id when is_set
  std::size_t death = 0;
};

void add_death(const Block& b, bool shell, bool is_set, DeckBuilder& d, bool thick_shell = false) {
  const Fields& h = b.head;
  const std::string_view field = is_set ? "SID" : "EID";
  if (h.id(field) <= 0)
    fail(h.loc(field), fmt::format("{} = {} must be {}", field, h.id(field),
                                   is_set ? "an element set" : "an element"));
  if (h.id("IDGRP") != 0)
    fail(h.loc("IDGRP"), fmt::format("IDGRP = {}: element groups deleted together are not "
                                     "supported",
                                     h.id("IDGRP")));
  if (h.real("PERCENT") != 0)
    fail(h.loc("PERCENT"), fmt::format("PERCENT = {}: deletion by percentage of a group is not "
                                       "supported",
                                       h.real("PERCENT")));
  if (h.id("CID") != 0)
    fail(h.loc("CID"), fmt::format("CID = {}: a box in a local system is not supported (the "
                                   "box is in the global axes)",
                                   h.id("CID")));
  const int inout = h.integer("INOUT");
  if (inout != 0 && inout != 1)
    fail(h.loc("INOUT"),
         fmt::format("INOUT = {} must be 0 (inside the box) or 1 (outside the box)", inout));
  // LS-DYNA: with a box, TIME = 0 means no deletion by time (1e16)
  const Real time = h.id("BOXID") != 0 && h.real("TIME") == 0 ? 1e16 : h.real("TIME");
  d.model.element_deaths.push_back({time, h.id("BOXID"), inout, h.loc(field)});
  d.extension<std::vector<PendingDeath>>("element deaths")
      .push_back({shell, is_set, thick_shell, h.id(field), d.model.element_deaths.size() - 1});
}

void apply_death_solid(const Block& b, DeckBuilder& d) {
  add_death(b, false, false, d);
}
void apply_death_solid_set(const Block& b, DeckBuilder& d) {
  add_death(b, false, true, d);
}
void apply_death_thick_shell(const Block& b, DeckBuilder& d) {
  add_death(b, false, false, d, true);
}
void apply_death_shell(const Block& b, DeckBuilder& d) {
  add_death(b, true, false, d);
}
void apply_death_shell_set(const Block& b, DeckBuilder& d) {
  add_death(b, true, true, d);
}

std::vector<FieldSpec> death_card(std::string_view target) {
  return {I(target).req(), R("TIME"), I("BOXID"), I("INOUT"), I("IDGRP"), I("CID"), R("PERCENT")};
}

std::vector<KeywordSpec> element_death_cards() {
  return {
      {.name = "*DEFINE_ELEMENT_DEATH_SOLID",
       .options = {"TITLE"},
       .head = {title_card(), {"Card 1", death_card("EID")}},
       .summary =
           "Solid element EID is deleted at TIME (explicit solver; dynamic relaxation deletes "
           "nothing), as an eroded element: its forces vanish, contacts forget its faces, its "
           "energies move to the eroded ones. BOXID: it is also deleted when its current "
           "centroid is inside the box (INOUT 0) or outside it (INOUT 1); with a box, TIME = 0 "
           "means no deletion by time. An element named by several cards dies at the first of "
           "them that applies. Elements of rigid parts are refused. IDGRP, PERCENT and CID "
           "(groups, a local box) are refused.",
       .apply = apply_death_solid},
      {.name = "*DEFINE_ELEMENT_DEATH_SOLID_SET",
       .options = {"TITLE"},
       .head = {title_card(), {"Card 1", death_card("SID")}},
       .summary = "As *DEFINE_ELEMENT_DEATH_SOLID for every element of solid set SID.",
       .apply = apply_death_solid_set},
      {.name = "*DEFINE_ELEMENT_DEATH_SHELL",
       .options = {"TITLE"},
       .head = {title_card(), {"Card 1", death_card("EID")}},
       .summary = "As *DEFINE_ELEMENT_DEATH_SOLID for shell element EID (2-D solids too).",
       .apply = apply_death_shell},
      {.name = "*DEFINE_ELEMENT_DEATH_THICK_SHELL",
       .options = {"TITLE"},
       .head = {title_card(), {"Card 1", death_card("EID")}},
       .summary = "As *DEFINE_ELEMENT_DEATH_SOLID for thick shell element EID (*ELEMENT_TSHELL; "
                  "the element must be one).",
       .apply = apply_death_thick_shell},
      {.name = "*DEFINE_ELEMENT_DEATH_SHELL_SET",
       .options = {"TITLE"},
       .head = {title_card(), {"Card 1", death_card("SID")}},
       .summary = "As *DEFINE_ELEMENT_DEATH_SHELL for every element of shell set SID.",
       .apply = apply_death_shell_set},
  };
}

/// Element ids to model indices: each named element gets the list of the cards that name it.
void resolve_element_deaths(DeckBuilder& d) {
  Model& m = d.model;
  const auto& pending = d.extension<std::vector<PendingDeath>>("element deaths");
  if (pending.empty()) return;
  std::unordered_map<GlobalId, std::size_t> solid_of, shell_of;
  for (std::size_t e = 0; e < m.solids.size(); ++e) solid_of[m.solids.id[e]] = e;
  for (std::size_t e = 0; e < m.shells.size(); ++e) shell_of[m.shells.id[e]] = e;
  // the cards naming each element, in deck order
  std::map<std::pair<bool, std::size_t>, std::vector<std::int32_t>> named;
  for (const PendingDeath& p : pending) {
    const ElementDeath& death = m.element_deaths[p.death];
    if (death.boxid != 0 && m.boxes.count(death.boxid) == 0)
      fail(death.loc,
           fmt::format("*DEFINE_ELEMENT_DEATH: box BOXID = {} is not defined", death.boxid));
    const std::string_view kind = p.shell ? "shell" : p.thick_shell ? "thick shell" : "solid";
    std::vector<GlobalId> ids{p.id};
    if (p.is_set) {
      const auto& sets = p.shell ? m.shell_sets : m.solid_sets;
      const auto set = sets.find(p.id);
      if (set == sets.end())
        fail(death.loc, fmt::format("*DEFINE_ELEMENT_DEATH_{}_SET: {} set {} is not defined",
                                    p.shell ? "SHELL" : "SOLID", kind, p.id));
      ids = set->second.members;
    }
    const auto& index = p.shell ? shell_of : solid_of;
    for (GlobalId id : ids) {
      const auto it = index.find(id);
      if (it == index.end())
        fail(death.loc,
             fmt::format("*DEFINE_ELEMENT_DEATH: {} element {} is not defined", kind, id));
      const GlobalId pid = p.shell ? m.shells.part[it->second] : m.solids.part[it->second];
      const Part* part = m.find_part(pid);
      const Section* sec = part ? m.find_section(part->secid) : nullptr;
      if (p.thick_shell && (sec == nullptr || sec->kind != SectionKind::TShell))
        fail(death.loc, fmt::format("*DEFINE_ELEMENT_DEATH_THICK_SHELL: element {} is not a thick "
                                    "shell (part {})",
                                    id, pid));
      const Material* mat = part ? m.find_material(part->mid) : nullptr;
      if (mat != nullptr && material_law(mat->kind).rigid)
        fail(death.loc, fmt::format("*DEFINE_ELEMENT_DEATH: {} element {} belongs to rigid part "
                                    "{}: elements of rigid bodies are not deleted",
                                    kind, id, pid));
      auto& list = named[{p.shell, it->second}];
      if (list.empty() || list.back() != static_cast<std::int32_t>(p.death))
        list.push_back(static_cast<std::int32_t>(p.death));
    }
  }
  m.solid_death.assign(m.solids.size(), -1);
  m.shell_death.assign(m.shells.size(), -1);
  std::map<std::vector<std::int32_t>, std::int32_t> list_id;
  for (const auto& [key, list] : named) {
    auto [it, fresh] = list_id.try_emplace(list, static_cast<std::int32_t>(m.death_lists.size()));
    if (fresh) m.death_lists.push_back(list);
    (key.first ? m.shell_death : m.solid_death)[key.second] = it->second;
  }
}

} // namespace

KeywordFile keywords_element_death() {
  return {element_death_cards(), resolve_element_deaths};
}

} // namespace parcae::io
