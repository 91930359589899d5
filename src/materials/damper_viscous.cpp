// *MAT_DAMPER_VISCOUS (S02): a linear damper of a discrete element (*SECTION_DISCRETE),
//   F = DC v,
// v the elongation rate (over the step). The element's scale factor S multiplies the force; the
// work it takes is counted as the element's internal energy (fem/truss.cpp).
#include <memory>

#include <fmt/format.h>

#include "materials/law_support.hpp"
#include "materials/laws.hpp"

namespace parcae {

namespace {

struct Damper {
  Real dc = 0; ///< DC, the damping constant (force per unit elongation rate)
};

void read_card(const io::Fields& h, LawReader& r) {
  auto p = std::make_shared<Damper>();
  p->dc = h.real("DC");
  if (!(p->dc >= 0))
    fail(h.loc("DC"), fmt::format("material {}: damping constant DC = {} must not be negative",
                                  r.mat.id, p->dc));
  r.mat.law_card = std::move(p);
}

Real force(const MaterialParams& m, Real /*elong*/, Real rate, Real /*hist*/[2]) {
  return m.law_params<Damper>().dc * rate;
}

void bounds(const MaterialParams& m, Real& stiffness, Real& damping) {
  stiffness = 0;
  damping = m.law_params<Damper>().dc;
}

} // namespace

const MaterialLaw& law_damper_viscous() {
  using namespace io::card_fields;
  static const MaterialLaw law{
      .kind = MaterialKind::DamperViscous,
      .card = "*MAT_DAMPER_VISCOUS",
      .number = "S02",
      .summary = "linear damper of a discrete element, F = DC v",
      .history = 0,
      .keyword = {.name = "*MAT_DAMPER_VISCOUS",
                  .aliases = {"*MAT_S02"},
                  .options = {"TITLE"},
                  .head = {title_card(), discrete_card({R("DC")})},
                  .summary = "Linear damper of *ELEMENT_DISCRETE elements (*SECTION_DISCRETE "
                             "DRO = 0): force DC v along N1-N2, v the elongation rate, times the "
                             "element's S; the dissipated work is the element's internal "
                             "energy."},
      .read = read_card,
      .prepare = prepare_from_card,
      .discrete_force = force,
      .discrete_bounds = bounds};
  return law;
}

} // namespace parcae
