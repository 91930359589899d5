// *MAT_SPRING_INELASTIC (S08): a one-sided inelastic spring of a discrete element (a bump stop,
// a crushable spacer). It acts in compression only (CTF = 1, the default) or in tension only
// (CTF = -1); d is the deflection in that direction (d = -dl in compression, dl in tension).
// Loading follows the curve LCFD, force against deflection given in the positive quadrant; the
// spring unloads from the largest deflection reached, d_max, along the unloading stiffness
// k_u = max(KU, the curve's steepest slope) to zero force, and carries nothing beyond
// (it never pulls in compression, never pushes in tension):
//   d >= d_max:  F = LCFD(d), d_max = d
//   d <  d_max:  F = max(0, LCFD(d_max) - k_u (d_max - d))
// Reloading climbs the same line back to the curve. The force acts along the element with the
// sign of its side (compressive: negative in parcae's tension-positive convention). The history:
// d_max.
#include <algorithm>
#include <cmath>
#include <memory>

#include <fmt/format.h>

#include "materials/law_support.hpp"
#include "materials/laws.hpp"

namespace parcae {

namespace {

struct Card {
  GlobalId lcfd = 0;
  Real ku = 0;
  Real side = -1; ///< -1: compression only (CTF 1), +1: tension only (CTF -1)
};

struct Params {
  DiscreteCurve load;
  Real ku = 0;
  Real side = -1;
};

void read_card(const io::Fields& h, LawReader& r) {
  auto p = std::make_shared<Card>();
  const GlobalId id = r.mat.id;
  p->lcfd = h.id("LCFD");
  p->ku = h.real("KU");
  if (p->lcfd <= 0)
    fail(h.loc("LCFD"), fmt::format("material {}: LCFD = {}: the force-deflection curve is "
                                    "required",
                                    id, p->lcfd));
  if (!(p->ku >= 0))
    fail(h.loc("KU"),
         fmt::format("material {}: unloading stiffness KU = {} must not be negative", id, p->ku));
  const Real ctf = h.real("CTF");
  if (ctf == 1 || ctf == 0) // 0: LS-DYNA's default, compression only
    p->side = -1;
  else if (ctf == -1)
    p->side = 1;
  else
    fail(h.loc("CTF"), fmt::format("material {}: CTF = {}: 1 (compression only) or -1 (tension "
                                   "only)",
                                   id, ctf));
  r.mat.law_card = std::move(p);
}

void prepare(const Material& mat, const Model& model, MaterialParams& m) {
  const Card& c = mat.card<Card>();
  auto p = std::make_shared<Params>();
  p->load = discrete_curve(mat, model, c.lcfd, "LCFD (force against deflection)");
  for (std::size_t i = 0; i < p->load.x.size(); ++i)
    if (p->load.x[i] >= 0 && !(p->load.y[i] >= 0))
      fail_card(mat, fmt::format("LCFD curve {}: the force must not be negative at a positive "
                                 "deflection (point {}: {}, {}); give the curve in the positive "
                                 "quadrant whichever side the spring acts on",
                                 c.lcfd, i + 1, p->load.x[i], p->load.y[i]));
  p->ku = std::max(c.ku, p->load.max_slope());
  if (!(p->ku > 0))
    fail_card(
        mat, fmt::format("LCFD curve {} is flat and KU is 0: the spring has no stiffness", c.lcfd));
  p->side = c.side;
  m.law_data = std::move(p);
}

/// The curve's force at deflection d (nothing at d <= 0).
Real load(const Params& p, Real d) {
  return d > 0 ? std::max<Real>(0, p.load.eval(d)) : 0;
}

Real force(const MaterialParams& m, Real elong, Real /*rate*/, Real hist[2]) {
  const Params& p = m.law_params<Params>();
  const Real d = p.side * elong; // deflection on the spring's side
  Real& d_max = hist[0];
  Real f = 0;
  if (d >= d_max) {
    d_max = std::max<Real>(d, 0);
    f = load(p, d);
  } else {
    f = std::max<Real>(0, load(p, d_max) - p.ku * (d_max - d));
  }
  return p.side * f;
}

void bounds(const MaterialParams& m, Real& stiffness, Real& damping) {
  stiffness = m.law_params<Params>().ku;
  damping = 0;
}

} // namespace

const MaterialLaw& law_spring_inelastic() {
  using namespace io::card_fields;
  static const MaterialLaw law{
      .kind = MaterialKind::SpringInelastic,
      .card = "*MAT_SPRING_INELASTIC",
      .number = "S08",
      .summary = "one-sided inelastic spring of a discrete element (compression or tension only)",
      .history = 1, // the largest deflection reached
      .keyword = {.name = "*MAT_SPRING_INELASTIC",
                  .aliases = {"*MAT_S08"},
                  .options = {"TITLE"},
                  .head = {title_card(), discrete_card({I("LCFD"), R("KU"), R("CTF", "1.0")})},
                  .summary = "Inelastic spring of *ELEMENT_DISCRETE elements acting in "
                             "compression only (CTF 1, the default; 0 reads as 1) or in tension "
                             "only (CTF -1): loading along the curve LCFD (force against "
                             "deflection, positive quadrant), unloading from the largest "
                             "deflection along max(KU, the curve's steepest slope) down to zero "
                             "force, nothing on the other side; reloading climbs the same line. "
                             "Times the element's S."},
      .read = read_card,
      .prepare = prepare,
      .discrete_force = force,
      .discrete_bounds = bounds};
  return law;
}

} // namespace parcae
