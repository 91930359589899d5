// *MAT_DAMPER_NONLINEAR_VISCOUS (S05): a nonlinear damper of a discrete element,
//   F = LCDR(v),
// v the elongation rate; the curve is extrapolated linearly beyond its ends (DiscreteCurve).
#include <memory>

#include <fmt/format.h>

#include "materials/law_support.hpp"
#include "materials/laws.hpp"

namespace parcae {

namespace {

struct CardIds {
  GlobalId lcdr = 0;
};

void read_card(const io::Fields& h, LawReader& r) {
  auto p = std::make_shared<CardIds>();
  p->lcdr = h.id("LCDR");
  if (p->lcdr <= 0)
    fail(h.loc("LCDR"), fmt::format("material {}: LCDR = {}: the force-velocity curve is required",
                                    r.mat.id, p->lcdr));
  r.mat.law_card = std::move(p);
}

void prepare(const Material& mat, const Model& model, MaterialParams& m) {
  m.law_data =
      std::make_shared<DiscreteCurve>(discrete_curve(mat, model, mat.card<CardIds>().lcdr, "LCDR"));
}

Real force(const MaterialParams& m, Real /*elong*/, Real rate, Real /*hist*/[2]) {
  return m.law_params<DiscreteCurve>().eval(rate);
}

void bounds(const MaterialParams& m, Real& stiffness, Real& damping) {
  stiffness = 0;
  damping = m.law_params<DiscreteCurve>().max_slope();
}

} // namespace

const MaterialLaw& law_damper_nonlinear_viscous() {
  using namespace io::card_fields;
  static const MaterialLaw law{
      .kind = MaterialKind::DamperNonlinearViscous,
      .card = "*MAT_DAMPER_NONLINEAR_VISCOUS",
      .number = "S05",
      .summary = "nonlinear damper of a discrete element, F = LCDR(v)",
      .history = 0,
      .keyword = {.name = "*MAT_DAMPER_NONLINEAR_VISCOUS",
                  .aliases = {"*MAT_S05"},
                  .options = {"TITLE"},
                  .head = {title_card(), discrete_card({I("LCDR")})},
                  .summary = "Nonlinear damper of *ELEMENT_DISCRETE elements: force LCDR(v) "
                             "against the elongation rate v (give both quadrants), times the "
                             "element's S; extrapolated linearly beyond the curve's ends; the "
                             "step is bounded with its steepest segment."},
      .read = read_card,
      .prepare = prepare,
      .discrete_force = force,
      .discrete_bounds = bounds};
  return law;
}

} // namespace parcae
