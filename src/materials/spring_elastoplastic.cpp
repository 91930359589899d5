// *MAT_SPRING_ELASTOPLASTIC (S03): an elastic-plastic spring of a discrete element with
// isotropic hardening: elastic stiffness K, yield force FY, tangent stiffness KT after yield.
// With the plastic elongation u_p and the accumulated plastic elongation a (the law's history),
//   F = K (dl - u_p),   |F| <= FY + H a,   H = K KT / (K - KT),
// returned to the yield force along K (a 1-D radial return, exact for this linear hardening).
#include <cmath>
#include <memory>

#include <fmt/format.h>

#include "materials/law_support.hpp"
#include "materials/laws.hpp"

namespace parcae {

namespace {

struct ElastoplasticSpring {
  Real k = 0, kt = 0, fy = 0;
  Real h = 0; ///< plastic hardening stiffness K KT / (K - KT)
};

void read_card(const io::Fields& h, LawReader& r) {
  auto p = std::make_shared<ElastoplasticSpring>();
  p->k = h.real("K");
  p->kt = h.real("KT");
  p->fy = h.real("FY");
  const GlobalId id = r.mat.id;
  if (!(p->k > 0))
    fail(h.loc("K"), fmt::format("material {}: stiffness K = {} must be positive", id, p->k));
  if (!(p->kt >= 0 && p->kt < p->k))
    fail(h.loc("KT"), fmt::format("material {}: tangent stiffness KT = {} must lie in [0, K = {})",
                                  id, p->kt, p->k));
  if (!(p->fy > 0))
    fail(h.loc("FY"), fmt::format("material {}: yield force FY = {} must be positive", id, p->fy));
  p->h = p->k * p->kt / (p->k - p->kt);
  r.mat.law_card = std::move(p);
}

Real force(const MaterialParams& m, Real elong, Real /*rate*/, Real hist[2]) {
  const ElastoplasticSpring& p = m.law_params<ElastoplasticSpring>();
  Real& up = hist[0]; // plastic elongation
  Real& a = hist[1];  // accumulated plastic elongation
  const Real trial = p.k * (elong - up);
  const Real over = std::abs(trial) - (p.fy + p.h * a);
  if (over <= 0) return trial;
  const Real da = over / (p.k + p.h);
  const Real sgn = trial >= 0 ? 1.0 : -1.0;
  up += sgn * da;
  a += da;
  return trial - sgn * p.k * da;
}

void bounds(const MaterialParams& m, Real& stiffness, Real& damping) {
  stiffness = m.law_params<ElastoplasticSpring>().k;
  damping = 0;
}

} // namespace

const MaterialLaw& law_spring_elastoplastic() {
  using namespace io::card_fields;
  static const MaterialLaw law{
      .kind = MaterialKind::SpringElastoplastic,
      .card = "*MAT_SPRING_ELASTOPLASTIC",
      .number = "S03",
      .summary = "elastic-plastic spring of a discrete element, isotropic hardening",
      .history = 2, // plastic elongation, accumulated plastic elongation
      .keyword = {.name = "*MAT_SPRING_ELASTOPLASTIC",
                  .aliases = {"*MAT_S03"},
                  .options = {"TITLE"},
                  .head = {title_card(), discrete_card({R("K"), R("KT"), R("FY")})},
                  .summary = "Elastic-plastic spring of *ELEMENT_DISCRETE elements: stiffness K "
                             "up to the yield force FY, then KT (0 <= KT < K), isotropic "
                             "hardening (unloading along K; reverse yield at the hardened "
                             "force), times the element's S."},
      .read = read_card,
      .prepare = prepare_from_card,
      .discrete_force = force,
      .discrete_bounds = bounds};
  return law;
}

} // namespace parcae
