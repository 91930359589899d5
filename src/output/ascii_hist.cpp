// ASCII time-history writers in LS-DYNA's layouts (matsum, nodout, rwforc) and history.csv.
//
// Layouts, as LSTC's binout-to-ASCII translator l2a writes them (the same text LS-DYNA writes
// when BINARY = 1):
//   every file: " " + title (at most 72 characters), then 25 blanks + "ls-dyna (version ...) date
//     ...", then an optional legend block: "\n{BEGIN LEGEND}\n Entity #        Title\n", one
//     "%9d     %.70s" line per entity, "{END LEGEND}\n\n".
//   matsum, per state: "\n\n time =%13.4E\n", then per part
//     " mat.#=%5d   " (ids >= 100000: " mat.#=%8d") + "          inten=%13.4E     kinen=%13.4E"
//     " x-mom=%13.4E     y-mom=%13.4E     z-mom=%13.4E"
//     " x-rbv=%13.4E     y-rbv=%13.4E     z-rbv=%13.4E"
//     25 blanks + "hgeng=%13.4E     " [+ "+mass=%13.4E"]
//   nodout, per state: "\n\n\n n o d a l   p r i n t   o u t   f o r   t i m e  s t e p%8d" + 30
//     blanks + "( at time%12.5E )", a blank line, the column header
//     " nodal point  x-disp     y-disp      z-disp      x-vel       y-vel       z-vel      x-accl"
//     "      y-accl      z-accl      x-coor      y-coor      z-coor", then per node "%9d%13.4E"
//     and eleven "%12.4E"; with rotations the header is repeated and the columns are
//     " nodal point  x-rot      y-rot       z-rot       x-rot vel   y-rot vel   z-rot vel   x-rot"
//     " acc   y-rot acc   z-rot acc" with "%9d%13.4E" and eight "%12.4E".
//   rwforc: after the header "\n\n" and once
//     "    time       wall#   normal-force    x-force        y-force        z-force", then per
//     state and wall "%12.5E%8d%15.6E%15.6E%15.6E%15.6E".
#include "output/ascii_hist.hpp"

#include <cerrno>
#include <cstring>
#include <ctime>
#include <iterator>
#include <stdexcept>

#include <fmt/format.h>

namespace parcae {

namespace {

/// -0 printed as 0, so that files do not differ in the sign of a zero.
Real z(Real v) {
  return v == 0 ? 0.0 : v;
}

/// Opens for writing (append: at the end of an existing file; sets appended when it existed).
std::FILE* open_for_writing(const std::string& path, const char* what, bool append = false,
                            bool* appended = nullptr) {
  std::FILE* f = nullptr;
  if (append) f = std::fopen(path.c_str(), "r+");
  if (f) {
    std::fseek(f, 0, SEEK_END);
    if (appended) *appended = true;
    return f;
  }
  f = std::fopen(path.c_str(), "w");
  if (!f)
    throw std::runtime_error(std::string(what) + ": cannot open '" + path +
                             "' for writing: " + std::strerror(errno));
  return f;
}

} // namespace

AsciiHistoryFile::AsciiHistoryFile(const std::string& path, const std::string& title,
                                   const std::vector<LegendEntry>& legend, bool append)
    : path_(path) {
  f_ = open_for_writing(path, "history output", append, &appended_);
  if (appended_) return;
  char date[16] = "";
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  if (localtime_r(&now, &tm)) std::strftime(date, sizeof date, "%m/%d/%Y", &tm);
  std::string t = title;
  for (char& c : t)
    if (c == '\n' || c == '\r') c = ' ';
  if (t.size() > 72) t.resize(72);
  std::fprintf(f_, " %s\n", t.c_str());
  std::fprintf(f_, "                         ls-dyna (version parcae)     date %s\n", date);
  bool titled = false;
  for (const auto& e : legend) titled = titled || !e.title.empty();
  if (titled) {
    std::fprintf(f_, "\n{BEGIN LEGEND}\n Entity #        Title\n");
    for (const auto& e : legend) {
      std::string name = e.title;
      for (char& c : name)
        if (c == '\n' || c == '\r') c = ' ';
      std::fprintf(f_, "%9lld     %.70s\n", static_cast<long long>(e.id), name.c_str());
    }
    std::fprintf(f_, "{END LEGEND}\n\n");
  }
  flush();
}

AsciiHistoryFile::~AsciiHistoryFile() {
  if (f_) std::fclose(f_);
}

void AsciiHistoryFile::flush() {
  if (std::fflush(f_) != 0 || std::ferror(f_))
    throw std::runtime_error("history output: cannot write '" + path_ +
                             "': " + std::strerror(errno));
}

// --- matsum ---

MatsumWriter::MatsumWriter(const std::string& path, const std::string& title,
                           const std::vector<LegendEntry>& legend, bool append)
    : AsciiHistoryFile(path, title, legend, append) {}

void MatsumWriter::write(const MatsumState& s) {
  // Formatted into one buffer with fmt (the same text as printf's %13.4E; about 5x faster, which
  // matters when a deck asks for a record of hundreds of parts every few cycles), one write.
  for (const auto& p : s.parts)
    if (p.added_mass != 0) added_mass_ = true;
  fmt::memory_buffer b;
  auto out = std::back_inserter(b);
  fmt::format_to(out, "\n\n time ={:13.4E}\n", z(s.time));
  for (const auto& p : s.parts) {
    if (p.id < 100000)
      fmt::format_to(out, " mat.#={:5d}   ", static_cast<long long>(p.id));
    else
      fmt::format_to(out, " mat.#={:8d}", static_cast<long long>(p.id));
    fmt::format_to(out, "          inten={:13.4E}     kinen={:13.4E}\n", z(p.internal),
                   z(p.kinetic));
    fmt::format_to(out, " x-mom={:13.4E}     y-mom={:13.4E}     z-mom={:13.4E}\n", z(p.momentum[0]),
                   z(p.momentum[1]), z(p.momentum[2]));
    fmt::format_to(out, " x-rbv={:13.4E}     y-rbv={:13.4E}     z-rbv={:13.4E}\n",
                   z(p.rb_velocity[0]), z(p.rb_velocity[1]), z(p.rb_velocity[2]));
    fmt::format_to(out, "                         hgeng={:13.4E}     ", z(p.hourglass));
    if (added_mass_)
      fmt::format_to(out, "+mass={:13.4E}\n", z(p.added_mass));
    else
      fmt::format_to(out, "\n");
  }
  std::fwrite(b.data(), 1, b.size(), f_);
  flush();
}

// --- nodout ---

NodoutWriter::NodoutWriter(const std::string& path, const std::string& title,
                           const std::vector<LegendEntry>& legend, bool append)
    : AsciiHistoryFile(path, title, legend, append) {}

void NodoutWriter::write(const NodoutState& s) {
  std::FILE* f = f_;
  auto state_header = [&] {
    std::fprintf(f, "\n\n\n n o d a l   p r i n t   o u t   f o r   t i m e  ");
    std::fprintf(f, "s t e p%8d                              ( at time%12.5E )\n", s.cycle,
                 z(s.time));
  };
  auto three = [&](const std::array<Real, 3>& v) {
    std::fprintf(f, "%12.4E%12.4E%12.4E", z(v[0]), z(v[1]), z(v[2]));
  };
  state_header();
  std::fprintf(f, "\n nodal point  x-disp     y-disp      z-disp      x-vel       y-vel       "
                  "z-vel      x-accl      y-accl      z-accl      x-coor      y-coor      "
                  "z-coor\n");
  bool rot = false;
  for (const auto& n : s.nodes) {
    rot = rot || n.has_rot;
    std::fprintf(f, "%9lld%13.4E%12.4E%12.4E", static_cast<long long>(n.id), z(n.disp[0]),
                 z(n.disp[1]), z(n.disp[2]));
    three(n.vel);
    three(n.acc);
    three(n.coord);
    std::fprintf(f, "\n");
  }
  if (rot) {
    state_header();
    std::fprintf(f, "\n nodal point  x-rot      y-rot       z-rot       x-rot vel   y-rot vel   "
                    "z-rot vel   x-rot acc   y-rot acc   z-rot acc\n");
    for (const auto& n : s.nodes) {
      std::fprintf(f, "%9lld%13.4E%12.4E%12.4E", static_cast<long long>(n.id), z(n.rot[0]),
                   z(n.rot[1]), z(n.rot[2]));
      three(n.rot_vel);
      three(n.rot_acc);
      std::fprintf(f, "\n");
    }
  }
  flush();
}

// --- rwforc ---

RwforcWriter::RwforcWriter(const std::string& path, const std::string& title,
                           const std::vector<LegendEntry>& legend, bool append)
    : AsciiHistoryFile(path, title, legend, append) {
  if (appended_) return;
  std::fprintf(f_, "\n\n    time       wall#   normal-force    x-force        y-force        "
                   "z-force\n");
  flush();
}

void RwforcWriter::write(const RwforcState& s) {
  for (const auto& w : s.walls)
    std::fprintf(f_, "%12.5E%8lld%15.6E%15.6E%15.6E%15.6E\n", z(s.time),
                 static_cast<long long>(w.id), z(w.normal), z(w.force[0]), z(w.force[1]),
                 z(w.force[2]));
  flush();
}

// --- rcforc, sleout ---

RcforcWriter::RcforcWriter(const std::string& path, const std::string& title,
                           const std::vector<LegendEntry>& legend, bool append)
    : AsciiHistoryFile(path, title, legend, append) {
  if (appended_) return;
  std::fprintf(f_, "\n\n contact interface resultant forces\n\n");
  flush();
}

void RcforcWriter::write(const InterfaceState& s) {
  for (const auto& c : s.interfaces) {
    std::fprintf(f_, "  slave  %10lld time%13.5E  x%13.5E  y%13.5E  z%13.5E  mass%13.5E\n",
                 static_cast<long long>(c.id), z(s.time), z(c.secondary[0]), z(c.secondary[1]),
                 z(c.secondary[2]), 0.0);
    std::fprintf(f_, "  master %10lld time%13.5E  x%13.5E  y%13.5E  z%13.5E  mass%13.5E\n",
                 static_cast<long long>(c.id), z(s.time), z(c.main[0]), z(c.main[1]), z(c.main[2]),
                 0.0);
  }
  flush();
}

SleoutWriter::SleoutWriter(const std::string& path, const std::string& title,
                           const std::vector<LegendEntry>& legend, bool append)
    : AsciiHistoryFile(path, title, legend, append) {
  if (appended_) return;
  std::fprintf(f_, "\n\n contact interface energy file\n");
  flush();
}

void SleoutWriter::write(const InterfaceState& s) {
  std::fprintf(f_, "\n time%13.5E\n  contact #     slave         master        frictional\n",
               z(s.time));
  Real ts = 0, tm = 0, tf = 0;
  for (const auto& c : s.interfaces) {
    std::fprintf(f_, "%10lld%15.5E%15.5E%15.5E\n", static_cast<long long>(c.id), z(c.e_secondary),
                 z(c.e_main), z(c.e_friction));
    ts += c.e_secondary;
    tm += c.e_main;
    tf += c.e_friction;
  }
  std::fprintf(f_, " summary   %15.5E%15.5E%15.5E\n", z(ts), z(tm), z(tf));
  flush();
}

// --- history.csv ---

std::vector<std::string> HistoryCsvWriter::columns(const std::vector<GlobalId>& part_ids,
                                                   const std::vector<GlobalId>& wall_ids) {
  std::vector<std::string> c = {"cycle",
                                "time",
                                "dt",
                                "dt_element_kind",
                                "dt_element",
                                "dt_part",
                                "kinetic",
                                "internal",
                                "spring_damper",
                                "hourglass",
                                "damping",
                                "sliding",
                                "external_work",
                                "rigidwall",
                                "eroded_kinetic",
                                "eroded_internal",
                                "eroded_hourglass",
                                "total",
                                "initial_total",
                                "energy_ratio",
                                "energy_ratio_wo_eroded",
                                "vx",
                                "vy",
                                "vz",
                                "mass",
                                "added_mass",
                                "percent_mass_increase",
                                "nodes",
                                "elements"};
  static constexpr const char* kPart[] = {"internal", "kinetic", "hourglass", "xmom",
                                          "ymom",     "zmom",    "xrbv",      "yrbv",
                                          "zrbv",     "mass",    "added_mass"};
  for (GlobalId id : part_ids)
    for (const char* q : kPart) c.push_back("part" + std::to_string(id) + "_" + q);
  static constexpr const char* kWall[] = {"normal", "fx", "fy", "fz"};
  for (GlobalId id : wall_ids)
    for (const char* q : kWall) c.push_back("wall" + std::to_string(id) + "_" + q);
  return c;
}

HistoryCsvWriter::HistoryCsvWriter(const std::string& path, const std::vector<GlobalId>& part_ids,
                                   const std::vector<GlobalId>& wall_ids, bool append)
    : path_(path), nparts_(part_ids.size()), nwalls_(wall_ids.size()) {
  bool appended = false;
  f_ = open_for_writing(path, "history.csv", append, &appended);
  if (appended) return;
  const auto cols = columns(part_ids, wall_ids);
  for (std::size_t k = 0; k < cols.size(); ++k)
    std::fprintf(f_, "%s%s", k ? "," : "", cols[k].c_str());
  std::fprintf(f_, "\n");
  if (std::fflush(f_) != 0 || std::ferror(f_))
    throw std::runtime_error("history.csv: cannot write '" + path_ + "'");
}

HistoryCsvWriter::~HistoryCsvWriter() {
  if (f_) std::fclose(f_);
}

void HistoryCsvWriter::write(const GlobalStats& s, const std::vector<PartSummary>& parts,
                             const std::vector<WallForce>& walls) {
  if (parts.size() != nparts_ || walls.size() != nwalls_)
    throw std::runtime_error("history.csv: " + std::to_string(parts.size()) + " parts and " +
                             std::to_string(walls.size()) + " walls given, the header has " +
                             std::to_string(nparts_) + " and " + std::to_string(nwalls_));
  // One row formatted into a buffer with fmt (the text of printf's %.17g, several times
  // faster), one write.
  fmt::memory_buffer b;
  auto out = std::back_inserter(b);
  auto num = [&out](Real v) { fmt::format_to(out, ",{:.17g}", z(v)); };
  fmt::format_to(out, "{}", s.cycle);
  num(s.time);
  num(s.dt);
  fmt::format_to(out, ",{},{},{}", s.dt_element_kind, static_cast<long long>(s.dt_element),
                 static_cast<long long>(s.dt_part));
  for (Real v : {s.kinetic,
                 s.internal,
                 s.spring_damper,
                 s.hourglass,
                 s.damping,
                 s.sliding,
                 s.external_work,
                 s.rigidwall,
                 s.eroded_kinetic,
                 s.eroded_internal,
                 s.eroded_hourglass,
                 s.total,
                 s.initial_total,
                 s.energy_ratio(),
                 s.energy_ratio_wo_eroded(),
                 s.vx,
                 s.vy,
                 s.vz,
                 s.mass,
                 s.added_mass,
                 s.percent_mass_increase()})
    num(v);
  fmt::format_to(out, ",{},{}", s.nodes, s.elements);
  for (const auto& p : parts) {
    for (Real v : {p.internal, p.kinetic, p.hourglass}) num(v);
    for (Real v : p.momentum) num(v);
    for (Real v : p.rb_velocity) num(v);
    num(p.mass);
    num(p.added_mass);
  }
  for (const auto& w : walls) {
    num(w.normal);
    for (Real v : w.force) num(v);
  }
  b.push_back('\n');
  std::FILE* f = f_;
  std::fwrite(b.data(), 1, b.size(), f);
  if (std::fflush(f) != 0 || std::ferror(f))
    throw std::runtime_error("history.csv: cannot write '" + path_ + "': " + std::strerror(errno));
}

} // namespace parcae
