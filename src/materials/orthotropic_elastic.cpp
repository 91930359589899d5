// *MAT_ORTHOTROPIC_ELASTIC (002) on shells: linear orthotropic elasticity in plane stress in the
// material axes a, b (c the shell normal), rate form in the shell's corotational frame
// (OrthotropicPlane, law_support.hpp: *MAT_FABRIC's elastic part). The material axes: AOPT = 0,
// the element's local x axis (node 1 to node 2) turned by BETA and by the point's angle of
// *SECTION_SHELL ICOMP = 1 (the shell kernels turn the strain and stress into the axes:
// MaterialLaw::oriented).
//
// Refused by name (an error at the field): AOPT other than 0, the frequency-independent damping
// (G, SIGF), MACF other than 1, REF. Solids: not supported (the law has no solid update; the
// part is refused at set-up).
//
// This file is the whole law; core/material_laws.def has its one line.
#include <cmath>
#include <memory>

#include <fmt/format.h>

#include "materials/law_support.hpp"
#include "materials/laws.hpp"

namespace parcae {

namespace {

struct Orthotropic {
  OrthotropicPlane el;
  Real beta = 0; ///< radians
};

void read_card(const io::Fields& h, LawReader& r) {
  Material& m = r.mat;
  const GlobalId id = m.id;
  auto p = std::make_shared<Orthotropic>();
  p->el = read_orthotropic_plane(h, id);
  for (const char* f : {"G", "SIGF", "REF"})
    if (h.real(f) != 0)
      fail(h.loc(f), fmt::format("material {}: {} = {} is not supported (frequency-independent "
                                 "damping and the reference geometry are not modelled)",
                                 id, f, h.real(f)));
  p->beta = read_element_axes_angle(h, id);
  m.e = p->el.bound_e(); // what the step, contact and hourglass stiffness read
  m.pr = 0;
  m.law_card = std::move(p);
}

void prepare(const Material& mat, const Model& /*model*/, MaterialParams& m) {
  prepare_elastic_constants(mat, m);
  m.shell_angle = mat.card<Orthotropic>().beta;
}

Real update_shell(const MaterialParams& m, const Real d[5], Real /*dt*/, Real sig[5],
                  Real /*back*/[3], Real& /*eps_p*/, Real& deps_zz) {
  m.law_params<Orthotropic>().el.update(d, sig, deps_zz);
  return 0;
}

} // namespace

const MaterialLaw& law_orthotropic_elastic() {
  using namespace io::card_fields;
  static const MaterialLaw law{
      .kind = MaterialKind::OrthotropicElastic,
      .card = "*MAT_ORTHOTROPIC_ELASTIC",
      .number = "002",
      .summary = "linear orthotropic elastic (shells, plane stress in the material axes)",
      .history = 0,
      .incremental = true,
      .oriented = true,
      .keyword =
          {.name = "*MAT_ORTHOTROPIC_ELASTIC",
           .aliases = {"*MAT_002"},
           .options = {"TITLE"},
           .head = {title_card(),
                    {"Card 1", mid_ro_orthotropic_fields()},
                    {"Card 2", reals({"GAB", "GBC", "GCA", "AOPT", "G", "SIGF"})},
                    {"Card 3",
                     {R("XP"), R("YP"), R("ZP"), R("A1"), R("A2"), R("A3"), R("MACF", "1.0")}},
                    {"Card 4", reals({"V1", "V2", "V3", "D1", "D2", "D3", "BETA", "REF"})}},
           .summary =
               "Linear orthotropic elasticity on shells, plane stress in the material axes a, "
               "b: EA, EB, PRBA (nu_ba), GAB in the plane, GCA and GBC transverse shear (0: "
               "GAB), EC, PRCA, PRCB the thickness strain (none when EC = 0). Axes AOPT = 0: "
               "the element's (node 1 to 2) turned by BETA and by *SECTION_SHELL ICOMP = 1's "
               "point angles. Refused at the field: other AOPTs, G and SIGF (damping), MACF "
               "other than 1, REF. XP-ZP, A1-A3, V1-V3, D1-D3 are unused (they serve the other "
               "AOPTs). Solids are refused (no solid update)."},
      .read = read_card,
      .prepare = prepare,
      .update_shell = update_shell,
      .wave_speed = bar_wave_speed};
  return law;
}

} // namespace parcae
