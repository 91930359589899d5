// *MAT_FABRIC (034), FORM 0 and 1: a linear orthotropic elastic membrane (shells; airbag fabric)
// in its material axes a, b, c (c the shell normal), plane stress, rate form in the shell's
// corotational frame:
//   d sigma_a = Q11 d eps_a + Q12 d eps_b,  d sigma_b = Q12 d eps_a + Q22 d eps_b,
//   d tau_ab = GAB d gamma_ab,  Q11 = EA / D, Q22 = EB / D, Q12 = PRBA EA / D,
//   D = 1 - PRAB PRBA,  PRAB = PRBA EA / EB  (PRBA = nu_ba: eps_a = sigma_a/EA - nu_ba sigma_b/EB),
// transverse shear GCA (a-c) and GBC (b-c) when the section has it (membranes, ELFORM 5 and 9,
// do not), and the thickness strain -(PRCA d sigma_a + PRCB d sigma_b) / EC. CSE = 1
// eliminates compressive stresses (sigma_a, sigma_b >= 0). The material axes: AOPT = 0, the
// element's local x axis (node 1 to node 2, as the shell's corotational frame) turned by BETA
// and by the point's angle of *SECTION_SHELL ICOMP = 1 (the shell kernels turn the strain and
// stress into the axes: MaterialLaw::oriented).
//
// Refused by name (an error at the field): FORM other than 0 and 1 (the nonlinear and
// Green-Lagrange formulations), AOPT other than 0, the liner (EL), Rayleigh damping (DAMP),
// leakage and venting (FLC, FAC, ELA, FVOPT), TSRFAC, the reference geometry (RGBRTH, A0REF,
// ISREFG). Solids: not supported (a membrane law).
//
// This file is the whole law; core/material_laws.def has its one line.
#include <algorithm>
#include <cmath>
#include <memory>

#include <fmt/format.h>

#include "materials/law_support.hpp"
#include "materials/laws.hpp"

namespace parcae {

namespace {

struct Fabric {
  OrthotropicPlane el;
  bool cse = false;
  Real beta = 0; ///< radians
};

void read_card(const io::Fields& h, LawReader& r) {
  Material& m = r.mat;
  const GlobalId id = m.id;
  auto p = std::make_shared<Fabric>();
  p->el = read_orthotropic_plane(h, id);
  const Real cse = h.real("CSE");
  if (cse != 0 && cse != 1)
    fail(h.loc("CSE"), fmt::format("material {}: CSE = {} must be 0 (keep compressive stresses) "
                                   "or 1 (eliminate them)",
                                   id, cse));
  p->cse = cse == 1;
  const Real form = h.real("FORM");
  if (form != 0 && form != 1)
    fail(h.loc("FORM"), fmt::format("material {}: FORM = {} is not supported: parcae has the "
                                    "linear orthotropic fabric (FORM 0 and 1)",
                                    id, form));
  for (const char* f :
       {"EL", "DAMP", "FLC", "FAC", "ELA", "FVOPT", "TSRFAC", "RGBRTH", "A0REF", "ISREFG"})
    if (h.real(f) != 0)
      fail(h.loc(f), fmt::format("material {}: {} = {} is not supported (the liner, damping, "
                                 "leakage and venting, TSRFAC and the reference geometry of "
                                 "*MAT_FABRIC are not modelled)",
                                 id, f, h.real(f)));
  p->beta = read_element_axes_angle(h, id);
  m.e = p->el.bound_e(); // what the step, contact and hourglass stiffness read
  m.pr = 0;
  m.law_card = std::move(p);
}

void prepare(const Material& mat, const Model& /*model*/, MaterialParams& m) {
  prepare_elastic_constants(mat, m);
  m.shell_angle = mat.card<Fabric>().beta;
}

Real update_shell(const MaterialParams& m, const Real d[5], Real /*dt*/, Real sig[5],
                  Real /*back*/[3], Real& /*eps_p*/, Real& deps_zz) {
  const Fabric& p = m.law_params<Fabric>();
  p.el.update(d, sig, deps_zz);
  if (p.cse) {
    sig[0] = std::max(sig[0], 0.0);
    sig[1] = std::max(sig[1], 0.0);
  }
  return 0;
}

} // namespace

const MaterialLaw& law_fabric() {
  using namespace io::card_fields;
  static const MaterialLaw law{
      .kind = MaterialKind::Fabric,
      .card = "*MAT_FABRIC",
      .number = "034",
      .summary = "linear orthotropic elastic membrane (airbag fabric, FORM 0 and 1)",
      .history = 0,
      .incremental = true,
      .oriented = true,
      .keyword =
          {.name = "*MAT_FABRIC",
           .aliases = {"*MAT_034"},
           .options = {"TITLE"},
           .head = {title_card(),
                    {"Card 1", mid_ro_orthotropic_fields()},
                    {"Card 2", reals({"GAB", "GBC", "GCA", "CSE", "EL", "PRL", "LRATIO", "DAMP"})},
                    {"Card 3",
                     reals({"AOPT", "FLC", "FAC", "ELA", "LNRC", "FORM", "FVOPT", "TSRFAC"})},
                    {"Card 4", reals({"RGBRTH", "A0REF", "A1", "A2", "A3", "X0", "X1"})},
                    {"Card 5", reals({"V1", "V2", "V3", "D1", "D2", "D3", "BETA", "ISREFG"})}},
           .summary =
               "Airbag fabric, FORM 0 and 1 (linear orthotropic elastic, plane stress, in the "
               "material axes a, b): EA, EB, PRBA (nu_ba), GAB in the plane, GCA and GBC "
               "transverse shear (0: GAB; membranes have none), EC, PRCA, PRCB the thickness "
               "strain; CSE = 1 keeps sigma_a, sigma_b >= 0. Axes AOPT = 0: the element's "
               "(node 1 to 2) turned by BETA and by *SECTION_SHELL ICOMP = 1's point angles. "
               "Shells only (usually membranes, ELFORM 5 or 9). Refused at the field: other "
               "FORMs and AOPTs, the liner (EL), DAMP, FLC, FAC, ELA, FVOPT, TSRFAC, RGBRTH, "
               "A0REF, ISREFG. LNRC, PRL, LRATIO, A1-A3, X0, X1, V1-V3, D1-D3 are unused."},
      .read = read_card,
      .prepare = prepare,
      .update_shell = update_shell,
      .wave_speed = bar_wave_speed};
  return law;
}

} // namespace parcae
