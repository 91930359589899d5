#pragma once
// The material catalogue: one row per material law (core/material_kind.hpp), naming its card,
// its history variables, its behaviour and the functions that implement it. The rest of the
// code asks the catalogue (material_law(kind)) instead of listing kinds; adding a law is one
// file in src/materials, one row in catalogue.cpp, its card table in the reader and its tests
// (docs/adding_a_material.md).
#include <span>

#include "core/material_kind.hpp"
#include "core/types.hpp"

namespace parcae {

struct Material;
struct Model;
struct MaterialParams;

/// A material law. Function pointers are null where the law does not support the operation.
struct MaterialLaw {
  MaterialKind kind;
  const char* card;    ///< keyword, e.g. "*MAT_PLASTIC_KINEMATIC"
  const char* number;  ///< LS-DYNA law number, e.g. "003" (the card's *MAT_003 alias)
  const char* summary; ///< one line: what the law models
  /// History values per integration point besides the stress (effective plastic strain, back
  /// stress, plastic work), as the element stores them.
  int history;
  // --- behaviour ---
  /// Rate form: the stress is updated from strain increments (update_solid / update_shell).
  bool incremental;
  /// Von Mises plasticity on the shared radial return (j2_return.cpp): effective plastic
  /// strain, back stress, the batched closed form and the plane-stress returns for shells.
  bool plastic;
  /// Total form: the stress is a function of the deformation gradient (hyperelastic_stress).
  bool hyperelastic;
  /// Deviatoric stress from the law (update_deviator), pressure from the part's *EOS
  /// (update_stress_hydro); the part needs EOSID.
  bool hydrodynamic;
  /// Rigid-body material: the elements move with their body, no stress update.
  bool rigid;
  // --- functions ---
  /// Checks the deck's card and fills the law's constants into m (kind, id, ro, e and nu from
  /// the card are already set, the density checked). Throws InputError naming the card.
  void (*prepare)(const Material& mat, const Model& model, MaterialParams& m);
  /// Solid stress update over one step (update_stress_solid); incremental laws.
  Real (*update_solid)(const MaterialParams& m, const Real deps[6], Real dt, Real sig[6],
                       Real back[6], Real& eps_p);
  /// Shell (plane stress) update (update_stress_shell); null: solids only.
  Real (*update_shell)(const MaterialParams& m, const Real deps[5], Real dt, Real sig[5],
                       Real back[3], Real& eps_p, Real& deps_zz);
  /// Hydrodynamic laws: the deviatoric stress s (in: start of step, Jaumann-rotated) over the
  /// step; updates eps_p and hist; returns the plastic strain increment (update_stress_hydro).
  Real (*update_deviator)(const MaterialParams& m, const Real deps[6], Real dt, Real r, Real s[6],
                          Real hist[6], Real& eps_p);
  /// Dilatational wave speed of the reference state (solid time step).
  Real (*wave_speed)(const MaterialParams& m);
};

/// The catalogue's rows, indexed by MaterialKind (defined in catalogue.cpp).
extern const MaterialLaw kMaterialLaws[];

/// The row of a law.
inline const MaterialLaw& material_law(MaterialKind kind) {
  return kMaterialLaws[static_cast<std::size_t>(kind)];
}

/// Every row, in MaterialKind order.
std::span<const MaterialLaw> material_laws();

} // namespace parcae
