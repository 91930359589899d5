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
  Real kinetic = 0;
  Real internal = 0;
  Real spring_damper = 0;
  Real hourglass = 0;
  Real damping = 0;
  Real sliding = 0;
  Real external_work = 0;
  Real rigidwall = 0;     ///< energy absorbed by rigid walls (>= 0 for a stonewall)
  Real eroded_kinetic = 0;
  Real eroded_internal = 0;
  Real eroded_hourglass = 0;
  Real total = 0;         ///< kinetic + internal + spring + hourglass + damping + sliding + rigidwall
  Real initial_total = 0; ///< total at t = 0
  Real vx = 0, vy = 0, vz = 0; ///< global (mass-weighted) velocity
  Real mass = 0;               ///< current total mass (incl. added mass)
  Real added_mass = 0;         ///< mass added by mass scaling
  Real time_per_zone_cycle_ns = 0;
  std::size_t nodes = 0;
  std::size_t elements = 0;

  /// total / (initial_total + external_work), 1 when there is no energy at all.
  [[nodiscard]] Real energy_ratio() const;
};

/// Writes states to a glstat file as they come.
class GlstatWriter {
public:
  /// Opens (truncates) path and writes the header. title is the deck's *TITLE.
  GlstatWriter(const std::string& path, const std::string& title);
  ~GlstatWriter();
  GlstatWriter(const GlstatWriter&) = delete;
  GlstatWriter& operator=(const GlstatWriter&) = delete;
  void write(const GlobalStats& s);

private:
  std::FILE* f_ = nullptr;
  std::string path_;
};

} // namespace parcae
