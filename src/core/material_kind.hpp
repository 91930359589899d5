#pragma once
// Identifiers of the material laws. The deck model (mesh/model.hpp) stores a material's kind;
// everything else about a law (card name and number, history variables, behaviour, the
// functions that prepare its constants and update its stress) is a row of the material
// catalogue, materials/catalogue.hpp, indexed by this enum.
#include <cstdint>

namespace parcae {

enum class MaterialKind : std::uint8_t {
  Elastic,                 ///< *MAT_ELASTIC (001)
  PlasticKinematic,        ///< *MAT_PLASTIC_KINEMATIC (003)
  Rigid,                   ///< *MAT_RIGID (020)
  PiecewiseLinear,         ///< *MAT_PIECEWISE_LINEAR_PLASTICITY (024)
  MooneyRivlin,            ///< *MAT_MOONEY-RIVLIN_RUBBER (027), hyperelastic
  Null,                    ///< *MAT_NULL (009): pressure from the part's EOS, optional viscosity
  ElasticPlasticHydro,     ///< *MAT_ELASTIC_PLASTIC_HYDRO (010): J2 plasticity + EOS pressure
  JohnsonCook,             ///< *MAT_JOHNSON_COOK (015): J2 plasticity + EOS pressure
  IsotropicElasticPlastic, ///< *MAT_ISOTROPIC_ELASTIC_PLASTIC (012): J2, linear hardening
  TransverselyAnisotropic, ///< *MAT_TRANSVERSELY_ANISOTROPIC_ELASTIC_PLASTIC (037): Hill, shells
  Spotweld,                ///< *MAT_SPOTWELD (100): J2, linear isotropic hardening EH; beams
};

/// Whether the law takes its pressure from the part's equation of state (*PART EOSID required).
/// For the reader's checks (the input layer does not see the catalogue); catalogue.cpp checks at
/// compile time that it agrees with the rows' hydrodynamic flag.
constexpr bool material_needs_eos(MaterialKind kind) {
  return kind == MaterialKind::Null || kind == MaterialKind::ElasticPlasticHydro ||
         kind == MaterialKind::JohnsonCook;
}

/// The last kind: the catalogue has one row per kind up to this one (checked at compile time).
inline constexpr MaterialKind kLastMaterialKind = MaterialKind::Spotweld;

} // namespace parcae
