// *MAT_PLASTIC_KINEMATIC (003): bilinear von Mises plasticity with mixed linear kinematic /
// isotropic hardening (BETA: 0 kinematic, 1 isotropic), Cowper-Symonds rate factor
// 1 + (rate/SRC)^(1/SRP) on the yield stress and failure at the plastic strain FS. The stress
// update is the shared radial return (j2_return.cpp).
#include <string>

#include <fmt/format.h>

#include "materials/law_support.hpp"
#include "materials/laws.hpp"

namespace parcae {

namespace {

void read_card(const io::Fields& h, LawReader& r) {
  Material& m = r.mat;
  read_elastic(h, m);
  m.sigy = h.real("SIGY");
  m.etan = h.real("ETAN");
  m.beta = h.real("BETA");
  m.src = h.real("SRC");
  m.srp = h.real("SRP");
  m.fs = read_failure_strain(h, "FS", m.id);
  m.vp = h.real("VP");
}

void prepare(const Material& mat, const Model& /*model*/, MaterialParams& m) {
  auto fail = [&](const std::string& msg) { fail_card(mat, msg); };
  prepare_elastic_constants(mat, m);
  prepare_linear_hardening(mat, m);
  if (!(mat.beta >= 0 && mat.beta <= 1))
    fail(fmt::format("hardening parameter BETA must lie in [0, 1] (got {})", mat.beta));
  m.beta = mat.beta;
  prepare_cowper_symonds(mat, m, "SRC", "SRP");
  if (!(mat.fs >= 0)) fail(fmt::format("failure strain FS must not be negative (got {})", mat.fs));
  m.fail = mat.fs;
}

} // namespace

const MaterialLaw& law_plastic_kinematic() {
  using namespace io::card_fields;
  static const MaterialLaw law{
      .kind = MaterialKind::PlasticKinematic,
      .card = "*MAT_PLASTIC_KINEMATIC",
      .number = "003",
      .summary = "bilinear von Mises plasticity, mixed kinematic/isotropic hardening, "
                 "Cowper-Symonds rate factor",
      .history = 7, // effective plastic strain, back stress (6 solid, 3 shell components)
      .incremental = true,
      .plastic = true,
      .hyperelastic = false,
      .hydrodynamic = false,
      .rigid = false,
      .keyword = {.name = "*MAT_PLASTIC_KINEMATIC",
                  .aliases = {"*MAT_003"},
                  .options = {"TITLE"},
                  .head = {title_card(),
                           {"Card 1",
                            join(mid_ro_e_pr_fields(), {R("SIGY"), R("ETAN"), R("BETA")})},
                           {"Card 2", {R("SRC"), R("SRP"), R("FS"), R("VP")}}},
                  .summary = "Bilinear plasticity with Cowper-Symonds rate effects. FS 0 (or >= "
                             "1e20) means no failure."},
      .read = read_card,
      .prepare = prepare,
      .update_solid = update_j2_solid,
      .update_shell = update_j2_shell,
      .update_deviator = nullptr,
      .wave_speed = reference_wave_speed};
  return law;
}

} // namespace parcae
