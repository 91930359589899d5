// *DEFINE_CURVE_SMOOTH: a velocity curve for a tool that travels DIST: zero until TSTART, a smooth
// rise over TRISE to VMAX, VMAX held, a smooth fall over TRISE to zero at TEND (give TEND or VMAX;
// the other follows from DIST = VMAX (TEND - TSTART - TRISE), each ramp covering VMAX TRISE / 2).
// The ramps are the cosine ramp VMAX (1 - cos(pi s / TRISE)) / 2, zero slope at both ends, kept
// as a *DEFINE_CURVE of 64 segments per ramp (its travel exact: the trapezoidal rule of a cosine
// ramp sampled evenly is exact in area).
#include <cmath>
#include <numbers>

#include <fmt/format.h>

#include "input/card_spec.hpp"
#include "input/deck_apply.hpp"

namespace parcae::io {

namespace {

using namespace card_fields;

void apply_define_curve_smooth(const Block& b, DeckBuilder& d) {
  const Fields& h = b.head;
  Curve c = read_curve_header(b, d);
  const Real dist = h.real("DIST"), t0 = h.real("TSTART"), trise = h.real("TRISE");
  Real tend = h.real("TEND"), vmax = h.real("VMAX");
  if (!(trise > 0))
    fail(h.loc("TRISE"), fmt::format("curve {}: TRISE = {} must be positive", c.id, trise));
  if (tend != 0 && vmax != 0)
    fail(h.loc("VMAX"), fmt::format("curve {}: give TEND or VMAX, not both (TEND = {}, VMAX = {})",
                                    c.id, tend, vmax));
  if (tend == 0 && vmax == 0)
    fail(h.loc("TEND"), fmt::format("curve {}: give TEND or VMAX (both are 0)", c.id));
  if (tend != 0) {
    if (!(tend - t0 > 2 * trise))
      fail(h.loc("TEND"), fmt::format("curve {}: TEND = {} leaves no room for the two ramps "
                                      "(TSTART + 2 TRISE = {})",
                                      c.id, tend, t0 + 2 * trise));
    vmax = dist / (tend - t0 - trise);
  } else {
    tend = t0 + trise + dist / vmax;
    if (!(tend - t0 >= 2 * trise))
      fail(h.loc("VMAX"), fmt::format("curve {}: VMAX = {} covers DIST = {} before both ramps "
                                      "are done (DIST must be at least VMAX TRISE)",
                                      c.id, vmax, dist));
  }
  constexpr int kSeg = 64;
  auto ramp = [&](Real start, bool up) {
    for (int k = 0; k <= kSeg; ++k) {
      const Real s = static_cast<Real>(k) / kSeg;
      const Real f = 0.5 * (1 - std::cos(std::numbers::pi * s));
      c.x.push_back(start + s * trise);
      c.y.push_back(vmax * (up ? f : 1 - f));
    }
  };
  if (t0 > 0) {
    c.x.push_back(0);
    c.y.push_back(0);
  }
  ramp(t0, true);
  if (tend - t0 > 2 * trise) {
    c.x.push_back(tend - trise); // the plateau's end (its start closes the rise)
    c.y.push_back(vmax);
  }
  ramp(tend - trise, false);
  // drop the repeated point where the plateau is empty
  for (std::size_t k = 1; k < c.x.size(); ++k)
    if (c.x[k] <= c.x[k - 1]) {
      c.x.erase(c.x.begin() + static_cast<std::ptrdiff_t>(k));
      c.y.erase(c.y.begin() + static_cast<std::ptrdiff_t>(k));
      --k;
    }
  d.model.curves.push_back(std::move(c));
}

} // namespace

KeywordFile keywords_curve_smooth() {
  return {{{.name = "*DEFINE_CURVE_SMOOTH",
            .options = {"TITLE"},
            .head = {title_card(),
                     {"Card 1",
                      {I("LCID").req(), I("SIDR"), R("DIST"), R("TSTART"), R("TEND"), R("TRISE"),
                       R("VMAX")}}},
            .summary = "A smooth velocity curve for a tool travelling DIST: zero until TSTART, a "
                       "cosine ramp (zero slope at both ends) over TRISE to VMAX, VMAX held, a "
                       "cosine ramp down to zero at TEND; give TEND or VMAX, the other follows "
                       "from DIST = VMAX (TEND - TSTART - TRISE). Kept as a curve of 64 segments "
                       "per ramp (its area exactly DIST). LS-DYNA's exact ramp shape is not "
                       "documented here: the travel, VMAX and the times are LS-DYNA's.",
            .apply = apply_define_curve_smooth}},
          nullptr};
}

} // namespace parcae::io
