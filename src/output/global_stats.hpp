#pragma once
// The global statistics of one state (energies, momentum, mass, the step and the element that
// controls it): what a solver reports each output cycle and what glstat, the histories and the
// d3plot global record are written from.
#include <cstddef>
#include <string>

#include "core/types.hpp"

namespace parcae {

/// One state's global statistics: the global energies and statistics at a time.
struct GlobalStats {
  int cycle = 0;
  Real time = 0;
  Real dt = 0;
  std::string dt_element_kind; ///< "solid" / "shell": the element type controlling the step
  GlobalId dt_element = 0;     ///< id of the element controlling the step
  GlobalId dt_part = 0;        ///< id of that element's part (0 if unknown)
  Real kinetic = 0;
  Real internal = 0;
  Real spring_damper = 0;
  Real hourglass = 0;
  Real damping = 0;
  Real sliding = 0;
  Real friction = 0; ///< friction dissipation (part of sliding), written with contacts
  Real external_work = 0;
  Real rigidwall = 0; ///< energy absorbed by rigid walls (>= 0 for a stonewall)
  Real eroded_kinetic = 0;
  Real eroded_internal = 0;
  Real eroded_hourglass = 0;
  Real total = 0; ///< kinetic + internal + spring + hourglass + damping + sliding + rigidwall
  Real initial_total = 0;      ///< total at t = 0
  Real vx = 0, vy = 0, vz = 0; ///< global (mass-weighted) velocity
  Real mass = 0;               ///< current total mass (incl. added mass)
  Real added_mass = 0;         ///< mass added by mass scaling
  Real time_per_zone_cycle_ns = 0;
  std::size_t nodes = 0;
  std::size_t elements = 0;

  /// total / (initial_total + external_work), 1 when there is no energy at all.
  [[nodiscard]] Real energy_ratio() const;
  /// (total - eroded kinetic - eroded internal - eroded hourglass) / (initial_total +
  /// external_work), 1 when there is no energy at all (LS-DYNA's "energy ratio w/o eroded energy").
  [[nodiscard]] Real energy_ratio_wo_eroded() const;
  /// 100 * added_mass / (mass - added_mass): LS-DYNA's "percentage increase"; 0 without mass.
  [[nodiscard]] Real percent_mass_increase() const;
};

} // namespace parcae
