#pragma once
// The material catalogue: one row per material law (core/material_laws.def), naming its card
// table, its history variables, its behaviour and the functions that implement it. A law is
// one file in src/materials that defines its row (`const MaterialLaw& law_<file>()`) and one
// line in core/material_laws.def; the reader takes the law's card table from its row, and the
// rest of the code asks the catalogue (material_law(kind)) instead of listing laws
// (docs/adding_a_material.md).
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cards/card_spec.hpp"
#include "core/error.hpp"
#include "core/material_kind.hpp"
#include "core/types.hpp"

namespace parcae {

namespace io {
class Fields;
}

struct Material;
struct Model;
struct MaterialParams;

/// What a law's read function gets besides its card's fields: the deck's material (id, kind,
/// title, RO and where it was read already set), the model being read (curves, notes) and the
/// reader's id register.
struct LawReader {
  Material& mat;
  Model& model;
  /// Claims an id the law adds to the model ("curve" for a table on the card turned into a
  /// curve); a duplicate is an input error naming both places.
  std::function<void(std::string_view what, GlobalId id, const SourceLoc& loc)> claim_id;
  /// The keyword's options, upper case, as given ("TITLE", "LOG_INTERPOLATION").
  std::vector<std::string> options{};
  /// The keyword's repeated cards (KeywordSpec::rows), in deck order.
  std::vector<const io::Fields*> rows{};

  /// Whether the keyword has option `name`.
  [[nodiscard]] bool has_option(std::string_view name) const;

  /// A warning in the model summary at the field's card ("<FIELD> = <value>: <what> (ignored)")
  /// when the field is set (nonzero).
  void note_ignored(const io::Fields& card, std::string_view field, std::string_view what) const;
  /// A warning in the model summary.
  void note(const SourceLoc& loc, std::string message) const;
};

/// A material law. Function pointers are null where the law does not support the operation,
/// and a row leaves out the ones it does not have (and the behaviour flags it does not set).
struct MaterialLaw {
  MaterialKind kind;
  const char* card;    ///< keyword, e.g. "*MAT_PLASTIC_KINEMATIC" (keyword.name)
  const char* number;  ///< LS-DYNA law number, e.g. "003" (the card's *MAT_003 alias)
  const char* summary; ///< one line: what the law models
  /// History values per integration point besides the stress (effective plastic strain, back
  /// stress, plastic work), as the element stores them.
  int history;
  // --- behaviour ---
  /// Rate form: the stress is updated from strain increments (update_solid / update_shell).
  bool incremental = false;
  /// Von Mises plasticity on the shared radial return (j2_return.cpp): effective plastic
  /// strain, back stress, the batched closed form and the plane-stress returns for shells.
  bool plastic = false;
  /// Total form: the stress is a function of the deformation gradient (hyperelastic_stress).
  bool hyperelastic = false;
  /// Deviatoric stress from the law (update_deviator), pressure from the part's *EOS
  /// (update_stress_hydro); the part needs EOSID.
  bool hydrodynamic = false;
  /// Rigid-body material: the elements move with their body, no stress update.
  bool rigid = false;
  /// Material axes (orthotropic laws, shells): update_shell works in the material axes, at
  /// the angle of the point (*SECTION_SHELL ICOMP = 1) from the element's local x axis; the
  /// shell kernels turn the strain increment and stress into them and back.
  bool oriented = false;
  // --- the card ---
  /// The card table: keyword name (= card), the *MAT_0nn alias, options, cards with their
  /// fields, widths and defaults, and what parcae does with them (docs/keywords.md). Its apply
  /// is left empty: the reader reads every law's card the same way (MID, TITLE, RO) and calls
  /// read.
  io::KeywordSpec keyword;
  /// Moves the card's fields into r.mat: checks them (errors at the field's file:line through
  /// io::Fields::loc), sets e and pr (the elastic constants other parts of the code read:
  /// contact stiffness, time step) and the law's own constants (Material::law_card, its file's
  /// parameters struct, or Material's shared fields).
  void (*read)(const io::Fields& card, LawReader& r);
  // --- functions ---
  /// Checks the deck's card and fills the law's constants into m (kind, id, ro, e and nu from
  /// the card are already set, the density checked, law_data = mat.law_card). Throws
  /// InputError naming the card.
  void (*prepare)(const Material& mat, const Model& model, MaterialParams& m);
  /// Solid stress update over one step (update_stress_solid); incremental laws.
  Real (*update_solid)(const MaterialParams& m, const Real deps[6], Real dt, Real sig[6],
                       Real back[6], Real& eps_p) = nullptr;
  /// Shell (plane stress) update (update_stress_shell); null: solids only.
  Real (*update_shell)(const MaterialParams& m, const Real deps[5], Real dt, Real sig[5],
                       Real back[3], Real& eps_p, Real& deps_zz) = nullptr;
  /// Hydrodynamic laws: the deviatoric stress s (in: start of step, Jaumann-rotated) over the
  /// step; updates eps_p and hist; returns the plastic strain increment (update_stress_hydro).
  Real (*update_deviator)(const MaterialParams& m, const Real deps[6], Real dt, Real r, Real s[6],
                          Real hist[6], Real& eps_p) = nullptr;
  /// Dilatational wave speed of the reference state (solid time step).
  Real (*wave_speed)(const MaterialParams& m) = nullptr;
  // --- element failure beyond the plastic strain FS (null: none) ---
  /// Whether solids of this material (the deck's card) may fail by solid_fails: the explicit
  /// solver then runs its erosion pass; beam and truss parts of it are refused (they do not
  /// erode).
  bool (*may_fail)(const Material& mat) = nullptr;
  /// Whether a solid element (one-point stress sig, corners x[a][i] in the current geometry,
  /// nodes in *ELEMENT_SOLID order, volume as its force pass computed it) fails at time t: the
  /// law's own criterion (*MAT_100's spot weld force or stress criteria, TFAIL), checked by the
  /// erosion pass after each force pass.
  bool (*solid_fails)(const MaterialParams& m, const Real sig[6], const Real x[8][3], Real volume,
                      Real t) = nullptr;
  // --- hyperelastic laws (hyperelastic: stress from the deformation gradient) ---
  /// Cauchy stress [xx yy zz xy yz zx] for the displacement gradient h = F - 1; returns J = det
  /// F (<= 0: invalid, sig unchanged). Called through hyperelastic_stress (material.hpp).
  Real (*hyper_stress)(const MaterialParams& m, const Real h[3][3], Real sig[6]) = nullptr;
  /// Stored energy per unit reference volume for h (hyperelastic_energy).
  Real (*hyper_energy)(const MaterialParams& m, const Real h[3][3]) = nullptr;
  // --- discrete elements (*SECTION_DISCRETE springs and dampers; null for the other laws) ---
  /// The axial force of a discrete element for its elongation (current length - initial length
  /// + OFFSET) and elongation rate (over the step); hist (2 values, zero at the start) is the
  /// law's own state, updated. A discrete law has no density and none of the flags above.
  Real (*discrete_force)(const MaterialParams& m, Real elong, Real rate, Real hist[2]) = nullptr;
  /// The largest tangent stiffness and damping coefficient of the law: they bound the
  /// element's stable step with its nodes' masses.
  void (*discrete_bounds)(const MaterialParams& m, Real& stiffness, Real& damping) = nullptr;
  /// The law keeps a second stress-like tensor per solid point (its viscous or back stress):
  /// the element stores it in its back-stress array, Jaumann-rotated with the stress.
  bool stress_history = false;
  /// A plastic law whose update wraps the shared return (*MAT_081's damage): its solids are
  /// updated point by point (not by the batched closed form), and it has no truss form.
  bool own_plastic_update = false;
  /// Solids: the law keeps up to 6 scalars of its own per point in update_solid's back array
  /// (stored, never rotated: not a tensor), e.g. a volumetric strain, a damage, a bulking
  /// pressure. Solids only (shells pass a 3-value back array).
  bool scalar_history = false;
  /// Values per shell point the law keeps in the element's back-stress array (update_shell's
  /// back): 3 (a back stress, or nothing); more runs the part's shells layered
  /// (solvers/common/shell_layup.cpp), whose blocks size it per point.
  int shell_state = 3;
};

/// The row of a law.
const MaterialLaw& material_law(MaterialKind kind);

/// Every row, in MaterialKind order (the lines of core/material_laws.def).
std::span<const MaterialLaw* const> material_laws();

/// The law whose card table is this keyword spec (the reader's table holds copies of the laws'
/// specs: matched by name); nullptr for other keywords.
const MaterialLaw* material_law_of_keyword(std::string_view keyword_name);

} // namespace parcae
