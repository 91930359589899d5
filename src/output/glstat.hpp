#pragma once
// glstat: global statistics written in LS-DYNA's ASCII layout so existing post-processing
// scripts read it.
#include <cstdio>
#include <string>

#include "core/types.hpp"
#include "output/global_stats.hpp"

namespace parcae {

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
