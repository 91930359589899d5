// The material catalogue: the rows of the laws listed in core/material_laws.def, each defined
// by its own file (`law_<file>()`), in MaterialKind order.
#include "materials/catalogue.hpp"

#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "cards/fields.hpp"
#include "materials/material.hpp"

namespace parcae {

#define PARCAE_MATERIAL_LAW(kind, file) const MaterialLaw& law_##file();
#include "core/material_laws.def"
#undef PARCAE_MATERIAL_LAW

namespace {

std::vector<const MaterialLaw*> build_catalogue() {
  std::vector<const MaterialLaw*> rows{
#define PARCAE_MATERIAL_LAW(kind, file) &law_##file(),
#include "core/material_laws.def"
#undef PARCAE_MATERIAL_LAW
  };
  // A law file that names the kind of another line would shift every row after it.
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (rows[i]->kind != static_cast<MaterialKind>(i))
      throw std::logic_error(fmt::format("material catalogue: {} is on line {} of "
                                         "core/material_laws.def but names another kind",
                                         rows[i]->card, i + 1));
  return rows;
}

const std::vector<const MaterialLaw*>& catalogue() {
  static const std::vector<const MaterialLaw*> rows = build_catalogue();
  return rows;
}

} // namespace

const MaterialLaw& material_law(MaterialKind kind) {
  return *catalogue()[static_cast<std::size_t>(kind)];
}

std::span<const MaterialLaw* const> material_laws() {
  return {catalogue().data(), catalogue().size()};
}

const MaterialLaw* material_law_of_keyword(std::string_view keyword_name) {
  for (const MaterialLaw* law : catalogue())
    if (law->keyword.name == keyword_name) return law;
  return nullptr;
}

bool LawReader::has_option(std::string_view name) const {
  for (const std::string& o : options)
    if (o == name) return true;
  return false;
}

void LawReader::note(const SourceLoc& loc, std::string message) const {
  model.notes.push_back({std::string(material_law(mat.kind).card), loc, false, std::move(message)});
}

void LawReader::note_ignored(const io::Fields& card, std::string_view field,
                             std::string_view what) const {
  const io::Value* v = card.find(field);
  if (v == nullptr || v->blank) return;
  const double value =
      v->spec && v->spec->type == io::FieldType::Int ? static_cast<double>(v->i) : v->r;
  if (value == 0) return;
  note(card.loc(field), fmt::format("{} = {}: {} (ignored)", field, value, what));
}

} // namespace parcae
