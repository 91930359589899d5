// The material catalogue: one row per law, in MaterialKind order (checked below). A row names
// the law's card and number (the reader's card table in input/card_tables.cpp has the fields),
// its history variables and behaviour, and the functions of its file (laws.hpp).
#include "materials/catalogue.hpp"

#include <iterator>

#include "materials/laws.hpp"

namespace parcae {

constexpr MaterialLaw kMaterialLaws[] = {
    // clang-format off
    {.kind = MaterialKind::Elastic, .card = "*MAT_ELASTIC", .number = "001",
     .summary = "isotropic hypoelastic",
     .history = 0, .incremental = true, .plastic = false, .hyperelastic = false,
     .hydrodynamic = false, .rigid = false,
     .prepare = prepare_elastic, .update_solid = update_elastic_solid,
     .update_shell = update_j2_shell, .update_deviator = nullptr,
     .wave_speed = reference_wave_speed},
    {.kind = MaterialKind::PlasticKinematic, .card = "*MAT_PLASTIC_KINEMATIC", .number = "003",
     .summary = "bilinear von Mises plasticity, mixed kinematic/isotropic hardening, "
                "Cowper-Symonds rate factor",
     .history = 7, // effective plastic strain, back stress (6 solid, 3 shell components)
     .incremental = true, .plastic = true, .hyperelastic = false,
     .hydrodynamic = false, .rigid = false,
     .prepare = prepare_plastic_kinematic, .update_solid = update_j2_solid,
     .update_shell = update_j2_shell, .update_deviator = nullptr,
     .wave_speed = reference_wave_speed},
    {.kind = MaterialKind::Rigid, .card = "*MAT_RIGID", .number = "020",
     .summary = "rigid body",
     .history = 0, .incremental = false, .plastic = false, .hyperelastic = false,
     .hydrodynamic = false, .rigid = true,
     .prepare = prepare_rigid, .update_solid = update_elastic_solid,
     .update_shell = update_j2_shell, .update_deviator = nullptr,
     .wave_speed = reference_wave_speed},
    {.kind = MaterialKind::PiecewiseLinear, .card = "*MAT_PIECEWISE_LINEAR_PLASTICITY",
     .number = "024",
     .summary = "von Mises plasticity, linear or tabulated isotropic hardening, rate effects",
     .history = 1, // effective plastic strain
     .incremental = true, .plastic = true, .hyperelastic = false,
     .hydrodynamic = false, .rigid = false,
     .prepare = prepare_piecewise_linear, .update_solid = update_j2_solid,
     .update_shell = update_j2_shell, .update_deviator = nullptr,
     .wave_speed = reference_wave_speed},
    {.kind = MaterialKind::MooneyRivlin, .card = "*MAT_MOONEY-RIVLIN_RUBBER", .number = "027",
     .summary = "Mooney-Rivlin rubber: compressible hyperelastic solids, incompressible "
                "membrane shells",
     .history = 3, // shells: the accumulated logarithmic strain (eps_xx, eps_yy, gamma_xy)
     .incremental = false, .plastic = false, .hyperelastic = true,
     .hydrodynamic = false, .rigid = false,
     .prepare = prepare_mooney_rivlin, .update_solid = nullptr,
     .update_shell = update_mooney_rivlin_shell, .update_deviator = nullptr,
     .wave_speed = reference_wave_speed},
    {.kind = MaterialKind::Null, .card = "*MAT_NULL", .number = "009",
     .summary = "EOS pressure, optional Newtonian viscosity, solids only",
     .history = 0, .incremental = true, .plastic = false, .hyperelastic = false,
     .hydrodynamic = true, .rigid = false,
     .prepare = prepare_null, .update_solid = nullptr,
     .update_shell = nullptr, .update_deviator = update_null_deviator,
     .wave_speed = reference_wave_speed},
    {.kind = MaterialKind::ElasticPlasticHydro, .card = "*MAT_ELASTIC_PLASTIC_HYDRO",
     .number = "010",
     .summary = "von Mises plasticity (linear or tabulated hardening) + EOS pressure, solids only",
     .history = 1, // effective plastic strain
     .incremental = true, .plastic = false, .hyperelastic = false,
     .hydrodynamic = true, .rigid = false,
     .prepare = prepare_elastic_plastic_hydro, .update_solid = nullptr,
     .update_shell = nullptr, .update_deviator = update_elastic_plastic_hydro_deviator,
     .wave_speed = reference_wave_speed},
    {.kind = MaterialKind::JohnsonCook, .card = "*MAT_JOHNSON_COOK", .number = "015",
     .summary = "Johnson-Cook plasticity (hardening, rate, thermal softening) + EOS pressure, "
                "solids only",
     .history = 2, // effective plastic strain, plastic work (adiabatic temperature)
     .incremental = true, .plastic = false, .hyperelastic = false,
     .hydrodynamic = true, .rigid = false,
     .prepare = prepare_johnson_cook, .update_solid = nullptr,
     .update_shell = nullptr, .update_deviator = update_johnson_cook_deviator,
     .wave_speed = reference_wave_speed},
    {.kind = MaterialKind::IsotropicElasticPlastic, .card = "*MAT_ISOTROPIC_ELASTIC_PLASTIC",
     .number = "012",
     .summary = "von Mises plasticity, linear isotropic hardening, from G and BULK; solids only",
     .history = 1, // effective plastic strain
     .incremental = true, .plastic = true, .hyperelastic = false,
     .hydrodynamic = false, .rigid = false,
     .prepare = prepare_isotropic_elastic_plastic,
     .update_solid = update_isotropic_elastic_plastic_solid,
     .update_shell = nullptr, .update_deviator = nullptr,
     .wave_speed = reference_wave_speed},
    {.kind = MaterialKind::TransverselyAnisotropic,
     .card = "*MAT_TRANSVERSELY_ANISOTROPIC_ELASTIC_PLASTIC", .number = "037",
     .summary = "Hill 1948 plane-stress plasticity with normal anisotropy (Lankford R), linear or "
                "tabulated isotropic hardening; shells only",
     .history = 1, // effective plastic strain
     .incremental = true, .plastic = true, .hyperelastic = false,
     .hydrodynamic = false, .rigid = false,
     .prepare = prepare_transversely_anisotropic, .update_solid = nullptr,
     .update_shell = update_transversely_anisotropic_shell, .update_deviator = nullptr,
     .wave_speed = reference_wave_speed},
    {.kind = MaterialKind::Spotweld, .card = "*MAT_SPOTWELD", .number = "100",
     .summary = "spot welds and bolts: von Mises plasticity with linear isotropic hardening EH "
                "(beams: on the axial and shear stresses; solid welds: the J2 update)",
     .history = 1, // effective plastic strain
     .incremental = true, .plastic = true, .hyperelastic = false,
     .hydrodynamic = false, .rigid = false,
     .prepare = prepare_spotweld, .update_solid = update_j2_solid,
     .update_shell = nullptr, .update_deviator = nullptr,
     .wave_speed = reference_wave_speed},
    // clang-format on
};

namespace {

constexpr bool rows_in_kind_order() {
  for (std::size_t i = 0; i < std::size(kMaterialLaws); ++i)
    if (kMaterialLaws[i].kind != static_cast<MaterialKind>(i)) return false;
  return true;
}

constexpr bool eos_flags_agree() {
  for (const MaterialLaw& law : kMaterialLaws)
    if (law.hydrodynamic != material_needs_eos(law.kind)) return false;
  return true;
}

} // namespace

static_assert(std::size(kMaterialLaws) == static_cast<std::size_t>(kLastMaterialKind) + 1,
              "one catalogue row per MaterialKind");
static_assert(rows_in_kind_order(), "catalogue rows must follow the MaterialKind order");
static_assert(eos_flags_agree(), "material_needs_eos (core/material_kind.hpp) must list exactly "
                                 "the hydrodynamic laws");

std::span<const MaterialLaw> material_laws() {
  return {kMaterialLaws, std::size(kMaterialLaws)};
}

} // namespace parcae
