// *MAT_MODIFIED_PIECEWISE_LINEAR_PLASTICITY (123): *MAT_024 (the same card, hardening, rate
// effects and stress update) with failure control for shells: NUMINT through-thickness points
// must reach FAIL before a shell is deleted. The thinning (EPSTHIN) and major in-plane strain
// (EPSMAJ) criteria are refused.
#include <cmath>

#include <fmt/format.h>

#include "materials/law_support.hpp"
#include "materials/laws.hpp"

namespace parcae {

namespace {

void read_card(const io::Fields& h, LawReader& r) {
  read_piecewise_linear(h, r);
  for (std::string_view f : {"EPSTHIN", "EPSMAJ"})
    if (h.real(f) != 0)
      fail(h.loc(f), fmt::format("material {}: {} = {}: the {} failure criterion is not "
                                 "supported (FAIL, the plastic strain, is)",
                                 r.mat.id, f, h.real(f),
                                 f == "EPSTHIN" ? "thinning strain" : "major in-plane strain"));
  const Real numint = h.real("NUMINT");
  if (numint < -100 || (numint > 0 && numint != std::floor(numint)))
    fail(h.loc("NUMINT"), fmt::format("material {}: NUMINT = {} must be a number of points, 0 "
                                      "(all of them) or a percentage -100 <= NUMINT < 0",
                                      r.mat.id, numint));
  r.mat.fail_points = numint;
}

} // namespace

const MaterialLaw& law_modified_piecewise_linear() {
  using namespace io::card_fields;
  static const MaterialLaw law{
      .kind = MaterialKind::ModifiedPiecewiseLinear,
      .card = "*MAT_MODIFIED_PIECEWISE_LINEAR_PLASTICITY",
      .number = "123",
      .summary = "*MAT_024 with failure after NUMINT through-thickness points",
      .history = 1, // effective plastic strain
      .incremental = true,
      .plastic = true,
      .hyperelastic = false,
      .hydrodynamic = false,
      .rigid = false,
      .keyword =
          {.name = "*MAT_MODIFIED_PIECEWISE_LINEAR_PLASTICITY",
           .aliases = {"*MAT_123"},
           .options = {"TITLE", "LOG_INTERPOLATION", "STOCHASTIC"},
           .head = piecewise_linear_cards({R("EPSTHIN"), R("EPSMAJ"), R("NUMINT")}),
           .summary =
               "As *MAT_PIECEWISE_LINEAR_PLASTICITY (024: the same fields, hardening, "
               "rate effects, TDEL, the EPS/ES table and _LOG_INTERPOLATION). Shells are "
               "deleted when NUMINT through-thickness points have reached the plastic "
               "strain FAIL (NUMINT < 0: that percentage of the points; 0 or more than "
               "NIP: all of them; failed points keep their stress until the shell is deleted); "
               "solids when their point has. EPSTHIN and EPSMAJ "
               "(thinning and major-strain failure) are refused when nonzero. Explicit "
               "solver and solid and shell elements."
               " _STOCHASTIC: the same card; without *DEFINE_STOCHASTIC_VARIATION (which parcae "
               "refuses) no element varies, so it is the law itself."},
      .read = read_card,
      .prepare = prepare_piecewise_linear,
      .update_solid = update_j2_solid,
      .update_shell = update_j2_shell,
      .update_deviator = nullptr,
      .wave_speed = reference_wave_speed};
  return law;
}

} // namespace parcae
