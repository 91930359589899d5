#pragma once
// Mass scaling (DT2MS) in the element families: an element whose mass (and rotary inertia)
// is scaled by s has its frequencies divided by sqrt(s), so its critical step multiplied by
// sqrt(s). Solids carry s on their density (hex8); shells, trusses and beams apply it here.
#include <cmath>
#include <span>

#include "core/types.hpp"

namespace parcae {

/// The critical step dt of element e of a block with per-element mass scale factors scale
/// (empty: none). An unscaled element's step is returned unchanged, bit for bit.
inline Real mass_scaled_dt(Real dt, std::span<const Real> scale, std::size_t e) {
  if (scale.empty() || scale[e] == 1.0) return dt;
  return dt * std::sqrt(scale[e]);
}

} // namespace parcae
