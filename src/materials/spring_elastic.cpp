// *MAT_SPRING_ELASTIC (S01): a linear spring of a discrete element (*SECTION_DISCRETE),
//   F = K dl,
// dl the elongation (current length - initial length + the element's OFFSET). The element's
// scale factor S multiplies the force (fem/truss.cpp, compute_discrete_forces).
#include <memory>

#include <fmt/format.h>

#include "materials/law_support.hpp"
#include "materials/laws.hpp"

namespace parcae {

namespace {

struct Spring {
  Real k = 0; ///< K, the stiffness (force per unit elongation)
};

void read_card(const io::Fields& h, LawReader& r) {
  auto p = std::make_shared<Spring>();
  p->k = h.real("K");
  if (!(p->k >= 0))
    fail(h.loc("K"),
         fmt::format("material {}: stiffness K = {} must not be negative", r.mat.id, p->k));
  r.mat.law_card = std::move(p);
}

Real force(const MaterialParams& m, Real elong, Real /*rate*/, Real /*hist*/[2]) {
  return m.law_params<Spring>().k * elong;
}

void bounds(const MaterialParams& m, Real& stiffness, Real& damping) {
  stiffness = m.law_params<Spring>().k;
  damping = 0;
}

} // namespace

const MaterialLaw& law_spring_elastic() {
  using namespace io::card_fields;
  static const MaterialLaw law{
      .kind = MaterialKind::SpringElastic,
      .card = "*MAT_SPRING_ELASTIC",
      .number = "S01",
      .summary = "linear spring of a discrete element, F = K dl",
      .history = 0,
      .keyword = {.name = "*MAT_SPRING_ELASTIC",
                  .aliases = {"*MAT_S01"},
                  .options = {"TITLE"},
                  .head = {title_card(), discrete_card({R("K")})},
                  .summary = "Linear spring of *ELEMENT_DISCRETE elements (*SECTION_DISCRETE "
                             "DRO = 0): force K dl along N1-N2, dl = length - initial length + "
                             "OFFSET, times the element's S."},
      .read = read_card,
      .prepare = prepare_from_card,
      .discrete_force = force,
      .discrete_bounds = bounds};
  return law;
}

} // namespace parcae
