#pragma once
// glstat: global statistics written in LS-DYNA's ASCII layout so existing post-processing
// scripts read it.
#include <cstdio>
#include <string>

#include "core/types.hpp"

namespace parcae {

/// One glstat state: the global energies and statistics at a time.
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

/// Writes states to a glstat file as they come, in LS-DYNA's ASCII glstat layout (the layout
/// LS-DYNA and its binout-to-ASCII translator write): a two-line header, then per state a
/// "dt of cycle" line and one ` label.....` line per quantity, values as `%14.5E`. The file is
/// flushed after every state. A "stonewall energy" line is written from the first state with
/// rigid-wall energy on (or from the start after set_rigidwall_output(true)); "added mass" /
/// "percentage increase" lines from the first state with added mass on (as LS-DYNA does when
/// mass scaling).
class GlstatWriter {
public:
  /// Opens (truncates) path and writes the header. title is the deck's *TITLE. append: continue
  /// an existing file (restart) without a new header; a missing file is started afresh.
  GlstatWriter(const std::string& path, const std::string& title, bool append = false);
  ~GlstatWriter();
  GlstatWriter(const GlstatWriter&) = delete;
  GlstatWriter& operator=(const GlstatWriter&) = delete;
  /// Appends one state and flushes. Throws std::runtime_error if the write fails.
  void write(const GlobalStats& s);
  /// Write the stonewall line in every state (models with rigid walls), even while it is 0.
  void set_rigidwall_output(bool on) { rigidwall_line_ = on; }
  /// Write a "frictional energy" line after the sliding interface energy (runs with contact).
  void set_friction_output(bool on) { friction_line_ = on; }

private:
  std::FILE* f_ = nullptr;
  std::string path_;
  bool rigidwall_line_ = false;
  bool friction_line_ = false;
  bool added_mass_line_ = false;
};

} // namespace parcae
