// *MAT_RIGID (020): the part's elements move with one rigid body (solvers/common/rigid_body);
// only the density (mass) and the elastic constants (contact stiffness, time step) are used.
#include <fmt/format.h>

#include "materials/law_support.hpp"
#include "materials/laws.hpp"

namespace parcae {

namespace {

void read_card(const io::Fields& h, LawReader& r) {
  Material& m = r.mat;
  read_elastic(h, m);
  m.cmo = h.real("CMO");
  m.con1 = h.real("CON1");
  m.con2 = h.real("CON2");
  if (m.cmo < 0)
    fail(h.loc("CMO"), fmt::format("material {}: CMO = {}: constraints in a local system are not "
                                   "supported",
                                   m.id, m.cmo));
}

void prepare(const Material& mat, const Model& /*model*/, MaterialParams& m) {
  prepare_elastic_constants(mat, m);
}

} // namespace

const MaterialLaw& law_rigid() {
  using namespace io::card_fields;
  static const MaterialLaw law{
      .kind = MaterialKind::Rigid,
      .card = "*MAT_RIGID",
      .number = "020",
      .summary = "rigid body",
      .history = 0,
      .incremental = false,
      .plastic = false,
      .hyperelastic = false,
      .hydrodynamic = false,
      .rigid = true,
      .keyword = {.name = "*MAT_RIGID",
                  .aliases = {"*MAT_020"},
                  .options = {"TITLE"},
                  .head = {title_card(),
                           {"Card 1",
                            join(mid_ro_e_pr_fields(), {R("N"), R("COUPLE"), R("M"), S("ALIAS")})},
                           {"Card 2", {R("CMO"), R("CON1"), R("CON2")}, "", true},
                           {"Card 3", reals({"LCO/A1", "A2", "A3", "V1", "V2", "V3"}), "", true}},
                  .summary = "Rigid material; cards 2 and 3 may be left out. CMO -1 (local "
                             "constraints) is not supported; card 3 and N, COUPLE, M, ALIAS are "
                             "ignored."},
      .read = read_card,
      .prepare = prepare,
      .update_solid = update_elastic_solid,
      .update_shell = update_j2_shell,
      .update_deviator = nullptr,
      .wave_speed = reference_wave_speed};
  return law;
}

} // namespace parcae
