// *MAT_SPRING_NONLINEAR_ELASTIC (S04): a nonlinear elastic spring of a discrete element,
//   F = LCD(dl) * LCR(v)   (LCR = 0: no rate factor),
// dl the elongation, v its rate. The curves are extrapolated linearly beyond their ends
// (DiscreteCurve); loading and unloading follow the same curve, so the spring stores and gives
// back energy.
#include <memory>

#include <fmt/format.h>

#include "materials/law_support.hpp"
#include "materials/laws.hpp"

namespace parcae {

namespace {

struct CardIds {
  GlobalId lcd = 0, lcr = 0;
};

struct Curves {
  DiscreteCurve force, rate;
  bool has_rate = false;
};

void read_card(const io::Fields& h, LawReader& r) {
  auto p = std::make_shared<CardIds>();
  p->lcd = h.id("LCD");
  p->lcr = h.id("LCR");
  if (p->lcd <= 0)
    fail(h.loc("LCD"), fmt::format("material {}: LCD = {}: the force-elongation curve is required",
                                   r.mat.id, p->lcd));
  r.mat.law_card = std::move(p);
}

void prepare(const Material& mat, const Model& model, MaterialParams& m) {
  const CardIds& ids = mat.card<CardIds>();
  auto c = std::make_shared<Curves>();
  c->force = discrete_curve(mat, model, ids.lcd, "LCD");
  if (ids.lcr != 0) {
    c->rate = discrete_curve(mat, model, ids.lcr, "LCR");
    c->has_rate = true;
  }
  m.law_data = std::move(c);
}

Real force(const MaterialParams& m, Real elong, Real rate, Real /*hist*/[2]) {
  const Curves& c = m.law_params<Curves>();
  const Real f = c.force.eval(elong);
  return c.has_rate ? f * c.rate.eval(rate) : f;
}

void bounds(const MaterialParams& m, Real& stiffness, Real& damping) {
  const Curves& c = m.law_params<Curves>();
  stiffness = c.force.max_slope() * (c.has_rate ? c.rate.max_abs() : 1.0);
  damping = 0;
}

} // namespace

const MaterialLaw& law_spring_nonlinear_elastic() {
  using namespace io::card_fields;
  static const MaterialLaw law{
      .kind = MaterialKind::SpringNonlinearElastic,
      .card = "*MAT_SPRING_NONLINEAR_ELASTIC",
      .number = "S04",
      .summary = "nonlinear elastic spring of a discrete element, F = LCD(dl) LCR(v)",
      .history = 0,
      .keyword = {.name = "*MAT_SPRING_NONLINEAR_ELASTIC",
                  .aliases = {"*MAT_S04"},
                  .options = {"TITLE"},
                  .head = {title_card(), discrete_card({I("LCD"), I("LCR")})},
                  .summary = "Nonlinear elastic spring of *ELEMENT_DISCRETE elements: force "
                             "LCD(dl) against elongation dl (give both quadrants), times the "
                             "rate factor LCR(v) when LCR is set, times the element's S; curves "
                             "are extrapolated linearly beyond their ends; the step is bounded "
                             "with the curve's steepest segment."},
      .read = read_card,
      .prepare = prepare,
      .discrete_force = force,
      .discrete_bounds = bounds};
  return law;
}

} // namespace parcae
