// glstat writer: LS-DYNA's ASCII glstat layout.
//
// Layout (as LS-DYNA writes it and as its binout-to-ASCII translator reproduces it):
//   line 1: " " + title (at most 72 characters)
//   line 2: 25 blanks + program/version + date
//   per state: two blank lines, " dt of cycle" + cycle (8 wide) + " is controlled by ...", a
//   blank line, then one line per quantity: " " + label padded with dots to 31 characters +
//   the value as %14.5E (integers as %14d), so values sit in columns 33-46.
#include "output/glstat.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <ctime>
#include <stdexcept>

namespace parcae {

namespace {

/// The labels in LS-DYNA's order, each padded with dots to 31 characters (the padding and the
/// odd blank in "hourglass energy ." are LS-DYNA's own).
constexpr const char* kTime = "time...........................";
constexpr const char* kTimeStep = "time step......................";
constexpr const char* kKinetic = "kinetic energy.................";
constexpr const char* kInternal = "internal energy................";
constexpr const char* kStonewall = "stonewall energy...............";
constexpr const char* kSpring = "spring and damper energy.......";
constexpr const char* kHourglass = "hourglass energy ..............";
constexpr const char* kDamping = "system damping energy..........";
constexpr const char* kSliding = "sliding interface energy.......";
constexpr const char* kFriction = "frictional energy..............";
constexpr const char* kExternal = "external work..................";
constexpr const char* kErodedKinetic = "eroded kinetic energy..........";
constexpr const char* kErodedInternal = "eroded internal energy.........";
constexpr const char* kErodedHourglass = "eroded hourglass energy........";
constexpr const char* kTotal = "total energy...................";
constexpr const char* kRatio = "total energy / initial energy..";
constexpr const char* kRatioWoEroded = "energy ratio w/o eroded energy.";
constexpr const char* kVx = "global x velocity..............";
constexpr const char* kVy = "global y velocity..............";
constexpr const char* kVz = "global z velocity..............";
constexpr const char* kZoneCycle = "time per zone cycle.(nanosec)..";
constexpr const char* kAddedMass = "added mass.....................";
constexpr const char* kPercent = "percentage increase............";

} // namespace

GlstatWriter::GlstatWriter(const std::string& path, const std::string& title, bool append)
    : path_(path) {
  if (append) {
    // Continuing a run (restart): keep header and states, and the optional lines already on.
    if (std::FILE* in = std::fopen(path.c_str(), "r")) {
      char line[256];
      while (std::fgets(line, sizeof line, in))
        if (std::strstr(line, " added mass")) added_mass_line_ = true;
      std::fclose(in);
      f_ = std::fopen(path.c_str(), "a");
      if (!f_) {
        throw std::runtime_error("glstat: cannot open '" + path +
                                 "' for appending: " + std::strerror(errno));
      }
      return;
    }
  }
  f_ = std::fopen(path.c_str(), "w");
  if (!f_) {
    throw std::runtime_error("glstat: cannot open '" + path +
                             "' for writing: " + std::strerror(errno));
  }
  char date[16] = "";
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  if (localtime_r(&now, &tm)) std::strftime(date, sizeof date, "%m/%d/%Y", &tm);
  std::string t = title;
  for (char& c : t) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  if (t.size() > 72) t.resize(72);
  std::fprintf(f_, " %s\n", t.c_str());
  std::fprintf(f_, "                         ls-dyna (version parcae)     date %s\n", date);
  if (std::fflush(f_) != 0 || std::ferror(f_)) {
    std::fclose(f_);
    f_ = nullptr;
    throw std::runtime_error("glstat: cannot write '" + path + "'");
  }
}

GlstatWriter::~GlstatWriter() {
  if (f_) std::fclose(f_);
}

void GlstatWriter::write(const GlobalStats& s) {
  if (!f_) throw std::runtime_error("glstat: '" + path_ + "' is not open");
  std::FILE* f = f_;
  auto line = [f](const char* label, Real v) { std::fprintf(f, " %s%14.5E\n", label, v); };

  if (s.dt_element_kind.empty()) {
    // No element controls the step: mass scaling (DT2MS) or an imposed step.
    std::fprintf(f, "\n\n dt of cycle%8d is controlled by %s\n\n", s.cycle,
                 s.added_mass > 0 ? "dt2ms" : "load curve");
  } else {
    std::fprintf(f, "\n\n dt of cycle%8d is controlled by %-5s%10lld of part%10lld\n\n", s.cycle,
                 s.dt_element_kind.c_str(), static_cast<long long>(s.dt_element),
                 static_cast<long long>(s.dt_part));
  }
  line(kTime, s.time);
  line(kTimeStep, s.dt);
  line(kKinetic, s.kinetic);
  line(kInternal, s.internal);
  if (s.rigidwall != 0) rigidwall_line_ = true;
  if (rigidwall_line_) std::fprintf(f, " %s%14.5E wall#%2d\n", kStonewall, s.rigidwall, 1);
  line(kSpring, s.spring_damper);
  line(kHourglass, s.hourglass);
  line(kDamping, s.damping);
  line(kSliding, s.sliding);
  if (friction_line_) line(kFriction, s.friction);
  line(kExternal, s.external_work);
  line(kErodedKinetic, s.eroded_kinetic);
  line(kErodedInternal, s.eroded_internal);
  line(kErodedHourglass, s.eroded_hourglass);
  line(kTotal, s.total);
  line(kRatio, s.energy_ratio());
  line(kRatioWoEroded, s.energy_ratio_wo_eroded());
  line(kVx, s.vx);
  line(kVy, s.vy);
  line(kVz, s.vz);
  std::fprintf(f, " %s%14lld\n", kZoneCycle,
               static_cast<long long>(std::llround(std::max<Real>(0, s.time_per_zone_cycle_ns))));
  if (s.added_mass != 0) added_mass_line_ = true;
  if (added_mass_line_) {
    std::fprintf(f, "\n\n");
    line(kAddedMass, s.added_mass);
    line(kPercent, s.percent_mass_increase());
  }
  if (std::fflush(f) != 0 || std::ferror(f)) {
    throw std::runtime_error("glstat: cannot write '" + path_ + "': " + std::strerror(errno));
  }
}

} // namespace parcae
