// *MAT_ELASTIC (001): isotropic hypoelastic, sigma' = lambda tr(D) 1 + 2G D (Jaumann rate, the
// element rotates the stress), solids and shells.
#include "materials/j2_return.hpp"
#include "materials/law_support.hpp"
#include "materials/laws.hpp"

namespace parcae {

namespace {

void read_card(const io::Fields& h, LawReader& r) {
  read_elastic(h, r.mat);
}

void prepare(const Material& mat, const Model& /*model*/, MaterialParams& m) {
  prepare_elastic_constants(mat, m);
}

} // namespace

Real update_elastic_solid(const MaterialParams& m, const Real deps[6], Real /*dt*/, Real sig[6],
                          Real /*back*/[6], Real& /*eps_p*/) {
  j2::elastic_increment(m, deps, sig);
  return 0;
}

const MaterialLaw& law_elastic() {
  using namespace io::card_fields;
  static const MaterialLaw law{
      .kind = MaterialKind::Elastic,
      .card = "*MAT_ELASTIC",
      .number = "001",
      .summary = "isotropic hypoelastic",
      .history = 0,
      .incremental = true,
      .plastic = false,
      .hyperelastic = false,
      .hydrodynamic = false,
      .rigid = false,
      .keyword = {.name = "*MAT_ELASTIC",
                  .aliases = {"*MAT_001"},
                  .options = {"TITLE"},
                  .head = {title_card(),
                           {"Card 1", join(mid_ro_e_pr_fields(), {R("DA"), R("DB"), R("K")})}},
                  .summary = "Isotropic elastic. DA, DB, K are ignored."},
      .read = read_card,
      .prepare = prepare,
      .update_solid = update_elastic_solid,
      .update_shell = update_j2_shell,
      .update_deviator = nullptr,
      .wave_speed = reference_wave_speed};
  return law;
}

} // namespace parcae
