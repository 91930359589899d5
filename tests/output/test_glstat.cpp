// glstat writer: LS-DYNA ASCII layout, values read back by label.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "output/glstat.hpp"
#include "test_support.hpp"

namespace parcae {
namespace {

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string l;
  while (std::getline(in, l)) lines.push_back(l);
  return lines;
}

/// One state as read back: label (dots stripped) -> value, in file order.
struct ParsedState {
  std::string dt_line;
  std::vector<std::string> labels;      // raw 31-character labels, in order
  std::map<std::string, double> values; // by label without dots
};

std::string strip_dots(std::string s) {
  while (!s.empty() && (s.back() == '.' || s.back() == ' ')) s.pop_back();
  return s;
}

/// Parses the way column-based LS-DYNA glstat scripts do: label in columns 2-32, value in
/// columns 33-46.
std::vector<ParsedState> parse(const std::vector<std::string>& lines) {
  std::vector<ParsedState> states;
  for (std::size_t i = 2; i < lines.size(); ++i) {
    const std::string& l = lines[i];
    if (l.rfind(" dt of cycle", 0) == 0) {
      states.push_back({});
      states.back().dt_line = l;
      continue;
    }
    if (l.size() < 46 || l[0] != ' ') continue;
    EXPECT_FALSE(states.empty()) << "value line before any dt line: " << l;
    if (states.empty()) continue;
    const std::string label = l.substr(1, 31);
    states.back().labels.push_back(label);
    states.back().values[strip_dots(label)] = std::stod(l.substr(32, 14));
  }
  return states;
}

GlobalStats make_state(int k) {
  GlobalStats s;
  s.cycle = 1 + 250 * k;
  s.time = 1.0e-3 * k;
  s.dt = 4.123456789e-7 * (1.0 - 0.01 * k);
  s.dt_element_kind = k == 1 ? "shell" : "solid";
  s.dt_element = 12345 + k;
  s.dt_part = 7;
  s.kinetic = 1.5e4 - 3.0e3 * k;
  s.internal = 2.9e3 * k + 0.123456;
  s.spring_damper = 0.0;
  s.hourglass = 12.5 * k;
  s.damping = 1.0e-3 * k;
  s.sliding = 37.25 * k;
  s.external_work = 5.0 * k;
  s.rigidwall = k >= 1 ? 11.0 * k : 0.0;
  s.eroded_kinetic = k == 2 ? 3.5 : 0.0;
  s.eroded_internal = k == 2 ? 7.25 : 0.0;
  s.eroded_hourglass = k == 2 ? 0.5 : 0.0;
  s.total =
      s.kinetic + s.internal + s.spring_damper + s.hourglass + s.damping + s.sliding + s.rigidwall;
  s.initial_total = 1.5e4 + 0.123456;
  s.vx = -2.5 * k;
  s.vy = 1.0e-6 * k;
  s.vz = 0.0;
  s.mass = 1.0 + (k == 2 ? 0.02 : 0.0);
  s.added_mass = k == 2 ? 0.02 : 0.0;
  s.time_per_zone_cycle_ns = 123.4 + k;
  s.nodes = 100;
  s.elements = 50;
  return s;
}

void expect_rel(double got, double want, const std::string& what) {
  const double tol = 1e-5 * std::max(std::abs(want), 1e-30);
  EXPECT_NEAR(got, want, tol) << what;
}

TEST(Glstat, EnergyRatios) {
  GlobalStats s;
  EXPECT_DOUBLE_EQ(s.energy_ratio(), 1.0);
  EXPECT_DOUBLE_EQ(s.energy_ratio_wo_eroded(), 1.0);
  s.initial_total = 100;
  s.external_work = 20;
  s.total = 114;
  s.eroded_internal = 6;
  EXPECT_DOUBLE_EQ(s.energy_ratio(), 114.0 / 120.0);
  EXPECT_DOUBLE_EQ(s.energy_ratio_wo_eroded(), 108.0 / 120.0);
  s.mass = 10.5;
  s.added_mass = 0.5;
  EXPECT_DOUBLE_EQ(s.percent_mass_increase(), 5.0);
}

TEST(Glstat, WritesLsDynaLayoutAndReadsBack) {
  const auto dir = test::make_temp_dir("glstat");
  const auto path = dir / "glstat";
  std::vector<GlobalStats> states = {make_state(0), make_state(1), make_state(2)};
  {
    GlstatWriter w(path.string(), "glstat writer test");
    for (const auto& s : states) {
      w.write(s);
      // Flushed after every state: the file already holds it while the writer is open.
      const auto partial = parse(split_lines(test::read_file(path)));
      EXPECT_EQ(partial.size(), static_cast<std::size_t>(&s - states.data() + 1));
    }
  }
  const auto lines = split_lines(test::read_file(path));
  ASSERT_GE(lines.size(), 3u);
  EXPECT_EQ(lines[0], " glstat writer test");
  EXPECT_EQ(lines[1].rfind(std::string(25, ' ') + "ls-dyna", 0), 0u) << lines[1];
  EXPECT_NE(lines[1].find("date "), std::string::npos);

  const auto parsed = parse(lines);
  ASSERT_EQ(parsed.size(), 3u);

  // LS-DYNA's labels, in LS-DYNA's order, with its dot padding to 31 characters.
  const std::vector<std::string> base = {
      "time...........................", "time step......................",
      "kinetic energy.................", "internal energy................"};
  const std::vector<std::string> rest = {
      "spring and damper energy.......", "hourglass energy ..............",
      "system damping energy..........", "sliding interface energy.......",
      "external work..................", "eroded kinetic energy..........",
      "eroded internal energy.........", "eroded hourglass energy........",
      "total energy...................", "total energy / initial energy..",
      "energy ratio w/o eroded energy.", "global x velocity..............",
      "global y velocity..............", "global z velocity..............",
      "time per zone cycle.(nanosec).."};
  const std::string stonewall = "stonewall energy...............";
  const std::vector<std::string> mass = {"added mass.....................",
                                         "percentage increase............"};

  for (std::size_t k = 0; k < 3; ++k) {
    const GlobalStats& s = states[k];
    const ParsedState& p = parsed[k];
    std::vector<std::string> want = base;
    if (k >= 1) want.push_back(stonewall); // from the first state with rigid-wall energy on
    want.insert(want.end(), rest.begin(), rest.end());
    if (k == 2) want.insert(want.end(), mass.begin(), mass.end());
    EXPECT_EQ(p.labels, want) << "state " << k;

    // dt line: cycle in columns 14-20, element in 45-53, part in 63-71 (what column-based
    // parsers of LS-DYNA glstat files read).
    ASSERT_GE(p.dt_line.size(), 71u) << p.dt_line;
    EXPECT_EQ(std::stoi(p.dt_line.substr(13, 7)), s.cycle) << p.dt_line;
    EXPECT_EQ(p.dt_line.substr(20, 18), " is controlled by ") << p.dt_line;
    EXPECT_EQ(p.dt_line.substr(38, 5), s.dt_element_kind) << p.dt_line;
    EXPECT_EQ(std::stoll(p.dt_line.substr(44, 9)), s.dt_element) << p.dt_line;
    EXPECT_EQ(p.dt_line.substr(53, 8), " of part") << p.dt_line;
    EXPECT_EQ(std::stoll(p.dt_line.substr(62, 9)), s.dt_part) << p.dt_line;

    const auto& v = p.values;
    auto at = [&](const std::string& label) {
      auto it = v.find(label);
      if (it == v.end()) {
        ADD_FAILURE() << "missing label '" << label << "' in state " << k;
        return std::nan("");
      }
      return it->second;
    };
    expect_rel(at("time"), s.time, "time");
    expect_rel(at("time step"), s.dt, "time step");
    expect_rel(at("kinetic energy"), s.kinetic, "kinetic");
    expect_rel(at("internal energy"), s.internal, "internal");
    if (k >= 1) expect_rel(at("stonewall energy"), s.rigidwall, "stonewall");
    expect_rel(at("spring and damper energy"), s.spring_damper, "spring");
    expect_rel(at("hourglass energy"), s.hourglass, "hourglass");
    expect_rel(at("system damping energy"), s.damping, "damping");
    expect_rel(at("sliding interface energy"), s.sliding, "sliding");
    expect_rel(at("external work"), s.external_work, "external work");
    expect_rel(at("eroded kinetic energy"), s.eroded_kinetic, "eroded kinetic");
    expect_rel(at("eroded internal energy"), s.eroded_internal, "eroded internal");
    expect_rel(at("eroded hourglass energy"), s.eroded_hourglass, "eroded hourglass");
    expect_rel(at("total energy"), s.total, "total");
    expect_rel(at("total energy / initial energy"), s.energy_ratio(), "ratio");
    expect_rel(at("energy ratio w/o eroded energy"), s.energy_ratio_wo_eroded(), "ratio w/o");
    expect_rel(at("global x velocity"), s.vx, "vx");
    expect_rel(at("global y velocity"), s.vy, "vy");
    expect_rel(at("global z velocity"), s.vz, "vz");
    EXPECT_EQ(at("time per zone cycle.(nanosec)"), std::round(s.time_per_zone_cycle_ns));
    if (k == 2) {
      expect_rel(at("added mass"), s.added_mass, "added mass");
      expect_rel(at("percentage increase"), 2.0, "percentage increase");
    }
  }

  // Every value line: " " + 31-character label + value right-aligned in 14 columns as
  // E-format with 5 decimals ("  1.23450E+03"); stonewall lines carry " wall# 1" after it.
  for (std::size_t i = 2; i < lines.size(); ++i) {
    const std::string& l = lines[i];
    if (l.empty() || l.rfind(" dt of cycle", 0) == 0) continue;
    const std::string label = l.substr(1, 31);
    const std::string value = l.substr(32, 14);
    if (label.rfind("time per zone cycle", 0) == 0) {
      EXPECT_EQ(value.find_first_not_of(" 0123456789"), std::string::npos) << l;
      EXPECT_EQ(l.size(), 46u) << l;
      continue;
    }
    ASSERT_GE(l.size(), 46u) << l;
    EXPECT_EQ(value.substr(value.size() - 4, 1), "E") << l;
    EXPECT_EQ(value.substr(value.size() - 10, 1), ".") << l; // 5 decimals
    if (label.rfind("stonewall", 0) == 0) {
      EXPECT_EQ(l.substr(46), " wall# 1") << l;
    } else {
      EXPECT_EQ(l.size(), 46u) << l;
    }
  }
  // An exact line, to pin the format down.
  bool found = false;
  for (const auto& l : lines) {
    if (l == " kinetic energy.................   1.50000E+04") found = true;
  }
  EXPECT_TRUE(found);
  std::filesystem::remove_all(dir);
}

TEST(Glstat, StepWithoutControllingElement) {
  const auto dir = test::make_temp_dir("glstat_dt2ms");
  const auto path = dir / "glstat";
  {
    GlstatWriter w(path.string(), "t");
    GlobalStats s;
    s.cycle = 3;
    w.write(s);
    s.added_mass = 0.1;
    s.mass = 1.1;
    w.write(s);
  }
  const auto lines = split_lines(test::read_file(path));
  std::vector<std::string> dt_lines;
  for (const auto& l : lines) {
    if (l.rfind(" dt of cycle", 0) == 0) dt_lines.push_back(l);
  }
  ASSERT_EQ(dt_lines.size(), 2u);
  EXPECT_EQ(dt_lines[0], " dt of cycle       3 is controlled by load curve");
  EXPECT_EQ(dt_lines[1], " dt of cycle       3 is controlled by dt2ms");
  std::filesystem::remove_all(dir);
}

TEST(Glstat, OpenErrorNamesThePath) {
  const std::string bad = "/nonexistent_parcae_dir/sub/glstat";
  try {
    GlstatWriter w(bad, "x");
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << e.what();
  }
}

} // namespace
} // namespace parcae
