#pragma once
// Identifiers of the material laws, one per line of core/material_laws.def (in that order). The
// deck model (mesh/model.hpp) stores a material's kind; everything else about a law (its card,
// history variables, behaviour, the functions that read its card, prepare its constants and
// update its stress) is its row in the material catalogue, materials/catalogue.hpp.
#include <cstddef>
#include <cstdint>

namespace parcae {

enum class MaterialKind : std::uint8_t {
#define PARCAE_MATERIAL_LAW(kind, file) kind,
#include "core/material_laws.def"
#undef PARCAE_MATERIAL_LAW
};

/// The number of material laws (lines of core/material_laws.def).
inline constexpr std::size_t kMaterialLawCount = 0
#define PARCAE_MATERIAL_LAW(kind, file) +1
#include "core/material_laws.def"
#undef PARCAE_MATERIAL_LAW
    ;

} // namespace parcae
