#pragma once
// LS-DYNA-style ASCII time histories: matsum (per-part energies and momentum), nodout (history
// nodes), rwforc (rigid wall forces), and parcae's machine-readable history.csv. The writers
// take plain structs (the solver fills them, solvers/common/histories.hpp), write one state per
// call in LS-DYNA's layout so existing scripts parse them, and flush after every state.
//
// Layout source: LSTC's binout-to-ASCII translator (l2a.c, "Copyright (C) 2002 by Livermore
// Software Technology Corp.") writes these files from the binout exactly as LS-DYNA writes them
// in ASCII; the field widths and labels below follow it (see ascii_hist.cpp for each line).
#include <array>
#include <cstdio>
#include <string>
#include <vector>

#include "core/types.hpp"
#include "output/global_stats.hpp"

namespace parcae {

/// An entity of a legend block ({BEGIN LEGEND} ... {END LEGEND}): id and title.
struct LegendEntry {
  GlobalId id = 0;
  std::string title;
};

/// One part in a matsum state.
struct PartSummary {
  GlobalId id = 0;
  Real internal = 0;                 ///< internal energy (incl. bulk viscosity work)
  Real kinetic = 0;                  ///< kinetic energy (translational + shell nodes' rotational)
  Real hourglass = 0;                ///< hourglass energy
  std::array<Real, 3> momentum{};    ///< x, y, z momentum
  std::array<Real, 3> rb_velocity{}; ///< rigid parts: velocity of the body's centre; else 0
  Real mass = 0;       ///< the part's share of the nodal masses (nodes of rigid bodies: the body)
  Real added_mass = 0; ///< mass added by mass scaling (DT2MS)
};

struct MatsumState {
  Real time = 0;
  std::vector<PartSummary> parts; ///< same parts, same order, every state
};

/// One history node in a nodout state.
struct NodeHistory {
  GlobalId id = 0;
  std::array<Real, 3> disp{}, vel{}, acc{}, coord{};
  bool has_rot = false; ///< the node has rotational dofs (shell node)
  std::array<Real, 3> rot{}, rot_vel{}, rot_acc{};
};

struct NodoutState {
  int cycle = 0;
  Real time = 0;
  std::vector<NodeHistory> nodes; ///< same nodes, same order, every state
};

/// One rigid wall in a rwforc state.
struct WallForce {
  GlobalId id = 0;
  Real normal = 0;             ///< normal force (>= 0 when the nodes press on the wall)
  std::array<Real, 3> force{}; ///< x, y, z force the wall exerts on the nodes
};

struct RwforcState {
  Real time = 0;
  std::vector<WallForce> walls;
};

/// Common part of the writers: the file, the two-line LS-DYNA header and the legend.
class AsciiHistoryFile {
public:
  /// Opens (truncates) path and writes the header. append: continue an existing file (restart)
  /// without a new header; a missing file is started afresh.
  AsciiHistoryFile(const std::string& path, const std::string& title,
                   const std::vector<LegendEntry>& legend, bool append = false);
  ~AsciiHistoryFile();
  AsciiHistoryFile(const AsciiHistoryFile&) = delete;
  AsciiHistoryFile& operator=(const AsciiHistoryFile&) = delete;
  [[nodiscard]] const std::string& path() const { return path_; }

protected:
  /// Flushes; throws std::runtime_error naming the file if writing failed.
  void flush();
  std::FILE* f_ = nullptr;
  std::string path_;
  bool appended_ = false; ///< continued an existing file (no header written)
};

/// matsum: per state "time =" then, per part, 3 or 4 lines: "mat.#= ... inten= ... kinen=",
/// "x-mom= y-mom= z-mom=", "x-rbv= y-rbv= z-rbv=", "hgeng=" [+mass=]. Values %13.4E.
class MatsumWriter : public AsciiHistoryFile {
public:
  /// legend: the parts (id and title), written as a legend block when any has a title.
  MatsumWriter(const std::string& path, const std::string& title,
               const std::vector<LegendEntry>& legend, bool append = false);
  void write(const MatsumState& s);

private:
  bool added_mass_ = false; ///< "+mass=" written from the first state with added mass on
};

/// nodout: per state the "n o d a l   p r i n t   o u t" header, the column header and one
/// line per node (%9d id, %13.4E, then %12.4E); when any node has rotational dofs a second
/// block with rotations, rotational velocities and accelerations follows (LS-DYNA's layout).
class NodoutWriter : public AsciiHistoryFile {
public:
  NodoutWriter(const std::string& path, const std::string& title,
               const std::vector<LegendEntry>& legend = {}, bool append = false);
  void write(const NodoutState& s);
};

/// rwforc: a column header once, then per state one line per wall: time %12.5E, wall# %8d,
/// normal, x, y, z force %15.6E.
class RwforcWriter : public AsciiHistoryFile {
public:
  RwforcWriter(const std::string& path, const std::string& title,
               const std::vector<LegendEntry>& legend, bool append = false);
  void write(const RwforcState& s);
};

/// One contact interface's resultants and energies at a time (rcforc, sleout).
struct InterfaceForce {
  GlobalId id = 0;
  std::array<Real, 3> secondary{}, main{}; ///< resultant contact force on each side
  Real e_secondary = 0, e_main = 0, e_friction = 0;
};
struct InterfaceState {
  Real time = 0;
  std::vector<InterfaceForce> interfaces;
};

/// rcforc: resultant contact forces per interface, as LS-DYNA's ASCII rcforc: per state and
/// interface a "slave" and a "master" line: id, time, x, y, z force (%13.5E), mass (0: not
/// computed).
class RcforcWriter : public AsciiHistoryFile {
public:
  RcforcWriter(const std::string& path, const std::string& title,
               const std::vector<LegendEntry>& legend, bool append = false);
  void write(const InterfaceState& s);
};

/// sleout: sliding interface energies per interface (secondary side, main side, friction), as
/// LS-DYNA's ASCII sleout, with the totals.
class SleoutWriter : public AsciiHistoryFile {
public:
  SleoutWriter(const std::string& path, const std::string& title,
               const std::vector<LegendEntry>& legend, bool append = false);
  void write(const InterfaceState& s);
};

/// history.csv: one row per glstat state, full precision (%.17g), comma separated, one header
/// row naming the columns:
///   cycle, time, dt, dt_element_kind (solid/shell/empty), dt_element, dt_part,
///   kinetic, internal, spring_damper, hourglass, damping, sliding, external_work, rigidwall,
///   eroded_kinetic, eroded_internal, eroded_hourglass, total, initial_total, energy_ratio,
///   energy_ratio_wo_eroded, vx, vy, vz, mass, added_mass, percent_mass_increase, nodes,
///   elements                                                        (GlobalStats, glstat's)
///   then per part P (increasing id): partP_internal, partP_kinetic, partP_hourglass,
///   partP_xmom, partP_ymom, partP_zmom, partP_xrbv, partP_yrbv, partP_zrbv, partP_mass,
///   partP_added_mass                                                (matsum's PartSummary)
///   then per rigid wall W (deck order): wallW_normal, wallW_fx, wallW_fy, wallW_fz
///                                                                   (rwforc's WallForce)
/// Every GlobalStats quantity is there except the measured time per zone cycle (glstat has
/// it), so the file is deterministic: the same, byte for byte, for any number of ranks or
/// threads and after a restart.
class HistoryCsvWriter {
public:
  /// append: continue an existing file (restart) without a new header row.
  HistoryCsvWriter(const std::string& path, const std::vector<GlobalId>& part_ids,
                   const std::vector<GlobalId>& wall_ids, bool append = false);
  ~HistoryCsvWriter();
  HistoryCsvWriter(const HistoryCsvWriter&) = delete;
  HistoryCsvWriter& operator=(const HistoryCsvWriter&) = delete;
  /// The column names, in order (the header row).
  [[nodiscard]] static std::vector<std::string> columns(const std::vector<GlobalId>& part_ids,
                                                        const std::vector<GlobalId>& wall_ids);
  /// Appends one row and flushes. parts / walls must match the ids given at construction.
  void write(const GlobalStats& s, const std::vector<PartSummary>& parts,
             const std::vector<WallForce>& walls);

private:
  std::FILE* f_ = nullptr;
  std::string path_;
  std::size_t nparts_ = 0, nwalls_ = 0;
};

} // namespace parcae
