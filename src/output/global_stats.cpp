#include "output/global_stats.hpp"

#include <cmath>

namespace parcae {

namespace {

/// num / den; 1 when the reference energy is zero (nothing to compare against).
Real ratio(Real num, Real den) {
  constexpr Real kTiny = 1e-300;
  return std::abs(den) < kTiny ? 1.0 : num / den;
}

} // namespace

Real GlobalStats::energy_ratio() const {
  return ratio(total, initial_total + external_work);
}

Real GlobalStats::energy_ratio_wo_eroded() const {
  return ratio(total - eroded_kinetic - eroded_internal - eroded_hourglass,
               initial_total + external_work);
}

Real GlobalStats::percent_mass_increase() const {
  const Real physical = mass - added_mass;
  if (physical <= 0) return 0;
  return 100.0 * added_mass / physical;
}

} // namespace parcae
