// Time histories of whole runs (matsum, nodout, rwforc, history.csv) against closed-form values:
// free flight (momentum m v, kinetic energy m v^2 / 2, displacement v t), part sums equal to
// glstat's totals, and the rigid-wall impulse equal to the momentum change. Missing history
// nodes / node sets are input errors naming file, line and card.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include <fmt/format.h>

#include "input/deck_apply.hpp"
#include "input/keyword_reader.hpp"
#include "output/ascii_hist.hpp"
#include "solvers/common/histories.hpp"
#include "solvers/explicit/solver.hpp"
#include "test_support.hpp"

using namespace parcae;
using namespace parcae::test;

namespace {

namespace fs = std::filesystem;

constexpr double kRho = 7.85e-9; // t/mm^3

Model deck(const std::string& tag, const std::string& body) {
  const auto dir = make_temp_dir(tag);
  write_file(dir / "deck.k", "*KEYWORD\n" + body + "*END\n");
  return read_deck((dir / "deck.k").string());
}

std::string elastic_solid_part(int pid) {
  return fmt::format("*PART\nsolid {}\n{:10d}{:10d}{:10d}\n*SECTION_SOLID\n{:10d}         1\n"
                     "*MAT_ELASTIC\n{:10d}{:10.3e}  210000.0       0.3\n",
                     pid, pid, pid, pid, pid, pid, kRho);
}

std::string part_velocity(int pid, double vx, double vy, double vz, double omega = 0,
                          std::array<double, 3> c = {0, 0, 0}) {
  return fmt::format("*INITIAL_VELOCITY_GENERATION\n{:10d}         2{:10.4g}{:10.4g}{:10.4g}"
                     "{:10.4g}\n{:10.4g}{:10.4g}{:10.4g}       0.0       0.0       1.0\n",
                     pid, omega, vx, vy, vz, c[0], c[1], c[2]);
}

fs::path run(const Model& m, const std::string& tag, RunOptions opt = {}) {
  opt.outdir = make_temp_dir(tag).string();
  opt.write_vtk = false;
  const RunSummary sum = run_explicit(m, opt);
  EXPECT_TRUE(sum.normal_termination) << sum.error;
  return opt.outdir;
}

// --- readers (independent of the writers: plain text parsing) ---

struct Csv {
  std::vector<std::string> columns;
  std::vector<std::map<std::string, double>> rows;
  double at(std::size_t r, const std::string& c) const { return rows.at(r).at(c); }
};

Csv read_csv(const fs::path& p) {
  std::ifstream in(p);
  Csv csv;
  std::string line;
  std::getline(in, line);
  std::stringstream h(line);
  for (std::string f; std::getline(h, f, ',');) csv.columns.push_back(f);
  while (std::getline(in, line)) {
    std::stringstream ss(line);
    std::map<std::string, double> row;
    std::size_t k = 0;
    for (std::string f; std::getline(ss, f, ','); ++k) {
      EXPECT_LT(k, csv.columns.size()) << line;
      if (k >= csv.columns.size()) break;
      row[csv.columns[k]] = csv.columns[k] == "dt_element_kind" ? 0.0 : std::stod(f);
    }
    EXPECT_EQ(k, csv.columns.size()) << line;
    csv.rows.push_back(std::move(row));
  }
  return csv;
}

/// matsum: per state the time and, per part id, the "name=" values.
struct MatsumRead {
  std::vector<double> time;
  std::vector<std::map<long, std::map<std::string, double>>> parts;
};

MatsumRead read_matsum(const fs::path& p) {
  std::ifstream in(p);
  MatsumRead out;
  static const std::regex pair(R"(([a-z+#._-]+)\s*=\s*([-+0-9.E]+))");
  long part = 0;
  for (std::string line; std::getline(in, line);) {
    std::map<std::string, double> kv;
    for (auto it = std::sregex_iterator(line.begin(), line.end(), pair);
         it != std::sregex_iterator(); ++it)
      kv[(*it)[1]] = std::stod((*it)[2]);
    if (line.starts_with(" time =")) {
      out.time.push_back(kv.at("time"));
      out.parts.emplace_back();
    } else if (kv.count("mat.#")) {
      part = static_cast<long>(kv.at("mat.#"));
      out.parts.back()[part] = kv;
    } else if (!kv.empty() && !out.parts.empty()) {
      for (const auto& [k, v] : kv) out.parts.back()[part][k] = v;
    }
  }
  return out;
}

struct NodoutRow {
  long id = 0;
  std::array<double, 12> v{}; ///< disp, vel, acc, coord
};
struct NodoutRead {
  std::vector<int> cycle;
  std::vector<double> time;
  std::vector<std::vector<NodoutRow>> nodes;
};

NodoutRead read_nodout(const fs::path& p) {
  std::ifstream in(p);
  NodoutRead out;
  bool rows = false;
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with(" n o d a l   p r i n t   o u t")) {
      const std::size_t at = line.find("( at time");
      out.cycle.push_back(std::stoi(line.substr(57, 8)));
      out.time.push_back(std::stod(line.substr(at + 9, 12)));
      out.nodes.emplace_back();
      rows = false;
    } else if (line.starts_with(" nodal point  x-disp")) {
      rows = true;
    } else if (line.starts_with(" nodal point")) {
      rows = false;
    } else if (rows && line.size() >= 154) {
      NodoutRow r;
      r.id = std::stol(line.substr(0, 9));
      for (std::size_t c = 0; c < 12; ++c)
        r.v[c] = std::stod(c == 0 ? line.substr(9, 13) : line.substr(22 + 12 * (c - 1), 12));
      out.nodes.back().push_back(r);
    }
  }
  // A rotation block repeats the state header: drop the empty repeats.
  for (std::size_t k = out.nodes.size(); k-- > 0;)
    if (out.nodes[k].empty()) {
      out.nodes.erase(out.nodes.begin() + static_cast<long>(k));
      out.time.erase(out.time.begin() + static_cast<long>(k));
      out.cycle.erase(out.cycle.begin() + static_cast<long>(k));
    }
  return out;
}

/// Equal to the printed precision of %W.4E (5 significant digits, half a unit of the last).
void expect_printed(double read, double v, double abs_floor = 1e-30) {
  EXPECT_NEAR(read, v, 5e-5 * std::abs(v) + abs_floor) << "value " << v;
}

// ---------------------------------------------------------------------------------------------

TEST(Histories, FreeFlightMomentumEnergyAndDisplacementAreExact) {
  // Part 1: 10 mm cube, 2x2x2 hexahedra, v = (100, 0, -5000) mm/s; part 2: 5 mm cube at x = 50,
  // v = (0, 300, 0). Free flight: nothing deforms, momentum m v and energy m v^2 / 2 stay.
  const double m1 = kRho * 1000.0, m2 = kRho * 125.0;
  const Model m =
      deck("free", "*TITLE\nfree flight\n*CONTROL_TERMINATION\n    1.0e-4\n"
                   "*CONTROL_TIMESTEP\n              0.6\n"
                   "*DATABASE_GLSTAT\n    1.0e-5\n*DATABASE_MATSUM\n    1.0e-5\n"
                   "*DATABASE_NODOUT\n    2.0e-5\n"
                   "*DATABASE_HISTORY_NODE\n         1        27\n" +
                       node_set_card(7, {101, 108}) + "*DATABASE_HISTORY_NODE_SET\n         7\n" +
                       elastic_solid_part(1) + elastic_solid_part(2) +
                       hex_block_cards(2, 2, 2, 10, 10, 10, 1) +
                       hex_block_cards(1, 1, 1, 5, 5, 5, 2, 101, 101, 50, 0, 0) +
                       part_velocity(1, 100, 0, -5000) + part_velocity(2, 0, 300, 0));
  const fs::path out = run(m, "free");

  const Csv csv = read_csv(out / "history.csv");
  ASSERT_EQ(csv.rows.size(), 11u); // t = 0, 1e-5, ..., 1e-4
  EXPECT_EQ(csv.columns, HistoryCsvWriter::columns({1, 2}, {}));
  const double ke1 = 0.5 * m1 * (100.0 * 100.0 + 5000.0 * 5000.0), ke2 = 0.5 * m2 * 300.0 * 300.0;
  for (std::size_t r = 0; r < csv.rows.size(); ++r) {
    EXPECT_NEAR(csv.at(r, "part1_mass"), m1, 1e-14 * m1);
    EXPECT_NEAR(csv.at(r, "part2_mass"), m2, 1e-14 * m2);
    EXPECT_NEAR(csv.at(r, "part1_xmom"), m1 * 100.0, 1e-12 * m1 * 100.0);
    EXPECT_NEAR(csv.at(r, "part1_ymom"), 0.0, 1e-12 * m1 * 5000.0);
    EXPECT_NEAR(csv.at(r, "part1_zmom"), -m1 * 5000.0, 1e-12 * m1 * 5000.0);
    EXPECT_NEAR(csv.at(r, "part2_ymom"), m2 * 300.0, 1e-12 * m2 * 300.0);
    EXPECT_NEAR(csv.at(r, "part1_kinetic"), ke1, 1e-12 * ke1);
    EXPECT_NEAR(csv.at(r, "part2_kinetic"), ke2, 1e-12 * ke2);
    EXPECT_NEAR(csv.at(r, "part1_internal"), 0.0, 1e-12 * ke1);
    EXPECT_NEAR(csv.at(r, "part1_hourglass"), 0.0, 1e-12 * ke1);
    EXPECT_EQ(csv.at(r, "part1_zrbv"), 0.0); // deformable part: no rigid-body velocity
    EXPECT_NEAR(csv.at(r, "kinetic"), ke1 + ke2, 1e-12 * (ke1 + ke2));
  }
  EXPECT_DOUBLE_EQ(csv.rows.back().at("time"), 1.0e-4);

  // matsum: the same values at the printed precision, parts by increasing id, every DT.
  const MatsumRead ms = read_matsum(out / "matsum");
  ASSERT_EQ(ms.time.size(), csv.rows.size());
  for (std::size_t s = 0; s < ms.time.size(); ++s) {
    expect_printed(ms.time[s], csv.at(s, "time"));
    ASSERT_EQ(ms.parts[s].size(), 2u);
    const auto& p1 = ms.parts[s].at(1);
    expect_printed(p1.at("kinen"), ke1);
    expect_printed(p1.at("x-mom"), m1 * 100.0);
    expect_printed(p1.at("z-mom"), -m1 * 5000.0);
    expect_printed(p1.at("inten"), 0.0, 1e-12 * ke1);
    expect_printed(p1.at("hgeng"), 0.0, 1e-12 * ke1);
    expect_printed(ms.parts[s].at(2).at("y-mom"), m2 * 300.0);
  }

  // nodout: nodes 1, 27 (cards) then 101, 108 (set 7), every 2e-5; displacement = v t.
  const NodoutRead nd = read_nodout(out / "nodout");
  ASSERT_EQ(nd.time.size(), 6u);
  const std::map<long, std::array<double, 6>> x0v = {{1, {0, 0, 0, 100, 0, -5000}},
                                                     {27, {10, 10, 10, 100, 0, -5000}},
                                                     {101, {50, 0, 0, 0, 300, 0}},
                                                     {108, {55, 5, 5, 0, 300, 0}}};
  for (std::size_t s = 0; s < nd.time.size(); ++s) {
    ASSERT_EQ(nd.nodes[s].size(), 4u);
    const double t = nd.time[s];
    // At the first cycle at or after each multiple of DT (a step is about 5e-7).
    EXPECT_GE(t, 2.0e-5 * static_cast<double>(s) * (1 - 1e-9));
    EXPECT_LT(t, 2.0e-5 * static_cast<double>(s) + 1e-6);
    for (std::size_t k = 0; k < 4; ++k) {
      const NodoutRow& r = nd.nodes[s][k];
      EXPECT_EQ(r.id, (std::array<long, 4>{1, 27, 101, 108}[k]));
      const auto& e = x0v.at(r.id);
      for (int i = 0; i < 3; ++i) {
        expect_printed(r.v[i], e[3 + i] * t, 1e-12);            // displacement v t
        expect_printed(r.v[3 + i], e[3 + i], 1e-9);             // velocity
        EXPECT_NEAR(r.v[6 + i], 0.0, 1e-3);                     // acceleration
        expect_printed(r.v[9 + i], e[i] + e[3 + i] * t, 1e-12); // coordinates
      }
    }
  }
}

TEST(Histories, PartSumsEqualGlstatWithShellsRigidBodiesAndAWall) {
  // Part 1: elastic block dropped on a stonewall (internal and hourglass energy); part 2: a
  // spinning elastic shell plate (rotational kinetic energy of shell nodes); part 3: a rigid
  // block (the body's kinetic energy and velocity).
  std::vector<long> block_nodes_ids;
  for (long n = 1; n <= 27; ++n) block_nodes_ids.push_back(n);
  const Model m = deck(
      "sums",
      "*CONTROL_TERMINATION\n    1.2e-4\n*CONTROL_TIMESTEP\n              0.6\n"
      "*DATABASE_GLSTAT\n    4.0e-6\n" +
          elastic_solid_part(1) + hex_block_cards(2, 2, 2, 10, 10, 10, 1, 1, 1, 0, 0, 30.2) +
          part_velocity(1, 0, 0, -5000) + node_set_card(1, block_nodes_ids) +
          "*RIGIDWALL_PLANAR\n         1\n       0.0       0.0      30.0       0.0       0.0"
          "      31.0\n" +
          "*PART\nplate\n         2         2         2\n*SECTION_SHELL\n         2         2"
          "     0.833         3\n       1.0       1.0       1.0       1.0\n*MAT_ELASTIC\n"
          "         2   7.85e-9  210000.0       0.3\n" +
          shell_grid_cards(4, 4, 40.0, 40.0, 2, 1001, 1001) +
          part_velocity(2, 20, 0, 0, 150.0, {20, 20, 0}) +
          "*PART\nrigid\n         3         3         3\n*SECTION_SOLID\n         3         1\n"
          "*MAT_RIGID\n         3   7.85e-9  210000.0       0.3\n" +
          hex_block_cards(1, 1, 1, 5, 5, 5, 3, 2001, 2001, 100, 0, 0) +
          part_velocity(3, 0, 40, 100));
  const fs::path out = run(m, "sums");
  const Csv csv = read_csv(out / "history.csv");
  ASSERT_GE(csv.rows.size(), 30u);
  double max_internal = 0, max_hg = 0, max_wall = 0;
  for (std::size_t r = 0; r < csv.rows.size(); ++r) {
    double ke = 0, ie = 0, hg = 0, mass = 0, p[3] = {0, 0, 0};
    for (int part : {1, 2, 3}) {
      const std::string pre = fmt::format("part{}_", part);
      ke += csv.at(r, pre + "kinetic");
      ie += csv.at(r, pre + "internal");
      hg += csv.at(r, pre + "hourglass");
      mass += csv.at(r, pre + "mass");
      p[0] += csv.at(r, pre + "xmom");
      p[1] += csv.at(r, pre + "ymom");
      p[2] += csv.at(r, pre + "zmom");
    }
    const double scale = csv.at(r, "total");
    EXPECT_NEAR(ke, csv.at(r, "kinetic"), 1e-12 * scale) << "row " << r;
    EXPECT_NEAR(ie, csv.at(r, "internal"), 1e-12 * scale) << "row " << r;
    EXPECT_NEAR(hg, csv.at(r, "hourglass"), 1e-12 * scale) << "row " << r;
    EXPECT_NEAR(mass, csv.at(r, "mass"), 1e-13 * mass);
    EXPECT_NEAR(p[0], csv.at(r, "vx") * mass, 1e-12 * 5000 * mass);
    EXPECT_NEAR(p[1], csv.at(r, "vy") * mass, 1e-12 * 5000 * mass);
    EXPECT_NEAR(p[2], csv.at(r, "vz") * mass, 1e-12 * 5000 * mass);
    // The rigid block: body velocity, nothing else.
    EXPECT_NEAR(csv.at(r, "part3_yrbv"), 40.0, 1e-9);
    EXPECT_NEAR(csv.at(r, "part3_zrbv"), 100.0, 1e-9);
    EXPECT_NEAR(csv.at(r, "part3_kinetic"), 0.5 * kRho * 125 * (40.0 * 40 + 100.0 * 100), 1e-15);
    EXPECT_EQ(csv.at(r, "part3_internal"), 0.0);
    max_internal = std::max(max_internal, csv.at(r, "part1_internal"));
    max_hg = std::max(max_hg, csv.at(r, "part1_hourglass") + csv.at(r, "part2_hourglass"));
    max_wall = std::max(max_wall, csv.at(r, "wall1_normal"));
  }
  // The check is not vacuous: every kind of energy was there.
  EXPECT_GT(max_internal, 1.0);
  EXPECT_GT(max_hg, 1e-6);
  EXPECT_GT(max_wall, 0.0);
  EXPECT_GT(csv.at(0, "part2_kinetic"), 0.5 * kRho * 40 * 40 * 1 * 20 * 20); // + rotation
}

TEST(Histories, RigidWallImpulseEqualsMomentumChange) {
  // An elastic block (10 mm, 2x2x2) at 5 m/s onto a fixed stonewall 0.2 mm below it. glstat
  // every cycle: the normal force of each step times that step is the step's impulse, so their
  // sum must equal the block's momentum change (internal forces cancel; nothing else acts).
  // The stonewall stops each node dead (its normal kinetic energy is glstat's rigid-wall
  // energy), so the rebound is not perfectly elastic: m v0 < impulse < 2 m v0.
  const double mass = kRho * 1000.0, v0 = 5000.0;
  const Model m = deck(
      "wall", "*CONTROL_TERMINATION\n    1.5e-4\n*CONTROL_TIMESTEP\n              0.6\n"
              "*DATABASE_GLSTAT\n   1.0e-10\n" +
                  elastic_solid_part(1) + hex_block_cards(2, 2, 2, 10, 10, 10, 1, 1, 1, 0, 0, 0.2) +
                  part_velocity(1, 0, 0, -v0) +
                  "*RIGIDWALL_PLANAR\n         0\n       0.0       0.0       0.0       0.0"
                  "       0.0       1.0\n");
  const fs::path out = run(m, "wall");
  const Csv csv = read_csv(out / "history.csv");
  ASSERT_GT(csv.rows.size(), 200u);
  double impulse = 0;
  for (std::size_t r = 1; r < csv.rows.size(); ++r) {
    EXPECT_EQ(csv.at(r, "cycle"), static_cast<double>(r)); // a row every cycle
    impulse += csv.at(r, "wall1_normal") * csv.at(r, "dt");
    EXPECT_EQ(csv.at(r, "wall1_fx"), 0.0);
    EXPECT_EQ(csv.at(r, "wall1_fz"), csv.at(r, "wall1_normal")); // normal +z
  }
  const double p0 = csv.rows.front().at("part1_zmom"), p1 = csv.rows.back().at("part1_zmom");
  EXPECT_NEAR(p0, -mass * v0, 1e-12 * mass * v0);
  EXPECT_NEAR(impulse, p1 - p0, 1e-9 * mass * v0);
  EXPECT_GT(impulse, mass * v0);     // it rebounds...
  EXPECT_LT(impulse, 2 * mass * v0); // ...losing the rigid-wall energy
  // Energy bound on the rebound: the centre's kinetic energy is at most what is left after the
  // wall took its share.
  const auto& last = csv.rows.back();
  EXPECT_LE(0.5 * p1 * p1 / mass, last.at("initial_total") - last.at("rigidwall") + 1e-9);
  EXPECT_GT(last.at("rigidwall"), 0.0);

  // rwforc: a line per cycle (DT defaults to the glstat interval), the same forces.
  std::ifstream in(out / "rwforc");
  std::vector<std::array<double, 5>> rows;
  bool data = false;
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("    time       wall#")) {
      data = true;
      continue;
    }
    if (!data || line.size() != 80u) continue;
    EXPECT_EQ(std::stol(line.substr(12, 8)), 1);
    rows.push_back({std::stod(line.substr(0, 12)), std::stod(line.substr(20, 15)),
                    std::stod(line.substr(35, 15)), std::stod(line.substr(50, 15)),
                    std::stod(line.substr(65, 15))});
  }
  ASSERT_EQ(rows.size(), csv.rows.size());
  for (std::size_t r = 0; r < rows.size(); ++r) {
    EXPECT_NEAR(rows[r][0], csv.at(r, "time"), 5e-6 * csv.at(r, "time"));
    EXPECT_NEAR(rows[r][1], csv.at(r, "wall1_normal"), 5e-7 * csv.at(r, "wall1_normal"));
    EXPECT_EQ(rows[r][2], 0.0);
    EXPECT_EQ(rows[r][4], rows[r][1]);
  }
}

TEST(Histories, CsvRowsAreGlstatStatesAndAddedMassAddsUp) {
  // Mass scaling (DT2MS < 0) adds mass to the small elements: the parts' added masses add up
  // to glstat's, and history.csv has one row per glstat state, at glstat's times.
  const Model m = deck("ms", "*CONTROL_TERMINATION\n    2.0e-5\n*CONTROL_TIMESTEP\n"
                             "              0.9                         -2.0e-7\n"
                             "*DATABASE_GLSTAT\n    5.0e-6\n" +
                                 elastic_solid_part(1) + hex_block_cards(2, 2, 2, 2, 2, 2, 1) +
                                 elastic_solid_part(2) +
                                 hex_block_cards(1, 1, 1, 8, 8, 8, 2, 101, 101, 20, 0, 0));
  const fs::path out = run(m, "ms");
  const Csv csv = read_csv(out / "history.csv");
  std::vector<double> glstat_times;
  std::ifstream in(out / "glstat");
  for (std::string line; std::getline(in, line);)
    if (line.starts_with(" time......")) glstat_times.push_back(std::stod(line.substr(32)));
  ASSERT_EQ(csv.rows.size(), glstat_times.size());
  for (std::size_t r = 0; r < csv.rows.size(); ++r) {
    EXPECT_NEAR(csv.at(r, "time"), glstat_times[r], 5e-6 * glstat_times[r]);
    const double added = csv.at(r, "part1_added_mass") + csv.at(r, "part2_added_mass");
    EXPECT_GT(csv.at(r, "added_mass"), 0.0);
    EXPECT_NEAR(added, csv.at(r, "added_mass"), 1e-12 * csv.at(r, "added_mass"));
  }
  // Mass scaling is written to matsum as "+mass=".
  const MatsumRead ms = read_matsum(out / "matsum");
  expect_printed(ms.parts.at(0).at(1).at("+mass"), csv.at(0, "part1_added_mass"));
}

TEST(Histories, NoFilesWithoutWriteHistoriesAndNoNodoutWithoutHistoryNodes) {
  const Model m = deck("nofiles", "*CONTROL_TERMINATION\n    1.0e-6\n" + elastic_solid_part(1) +
                                      hex_block_cards(1, 1, 1, 1, 1, 1, 1));
  fs::path out = run(m, "plain");
  EXPECT_TRUE(fs::exists(out / "matsum"));
  EXPECT_TRUE(fs::exists(out / "history.csv"));
  EXPECT_FALSE(fs::exists(out / "nodout")); // no history nodes
  EXPECT_FALSE(fs::exists(out / "rwforc")); // no walls
  RunOptions opt;
  opt.write_histories = false;
  out = run(m, "none", opt);
  EXPECT_FALSE(fs::exists(out / "matsum"));
  EXPECT_FALSE(fs::exists(out / "history.csv"));
}

// --- missing history nodes / node sets ---

fs::path history_bad_decks() {
  return fs::path(PARCAE_SOURCE_DIR) / "tests" / "input" / "bad_decks";
}

std::string header_value(const std::string& text, const std::string& key) {
  const std::string tag = "$ " + key + ": ";
  const std::size_t start = text.find(tag);
  if (start == std::string::npos) return "";
  const std::size_t end = text.find('\n', start);
  return text.substr(start + tag.size(), end - start - tag.size());
}

TEST(Histories, MissingHistoryNodesAndSetsNameFileLineAndCard) {
  // The bad decks read fine (ids may be used before they are defined) and are rejected once the
  // whole deck is known: by io::check_history_references (for the deck resolver) and when the
  // run sets up its histories.
  int checked = 0;
  for (const auto& entry : fs::directory_iterator(history_bad_decks())) {
    if (entry.path().extension() != ".k" ||
        entry.path().filename().string().rfind("history_", 0) != 0)
      continue;
    ++checked;
    const std::string text = read_file(entry.path());
    const std::string expect = header_value(text, "EXPECT");
    const std::string line = header_value(text, "LINE");
    const std::string card = header_value(text, "CARD");
    ASSERT_FALSE(expect.empty() || line.empty() || card.empty()) << entry.path();
    auto check = [&](const std::string& msg, const char* where) {
      EXPECT_NE(msg.find(entry.path().filename().string()), std::string::npos) << where << msg;
      EXPECT_NE(msg.find(":" + line + " "), std::string::npos) << where << msg;
      EXPECT_NE(msg.find("(" + card + ")"), std::string::npos) << where << msg;
      EXPECT_NE(msg.find(expect), std::string::npos) << where << msg;
    };
    std::string msg;
    try {
      const Model model = read_deck(entry.path().string());
      try {
        io::check_history_references(model);
      } catch (const InputError& e) {
        msg = e.what();
      }
      check(msg, "check_history_references: ");
      msg.clear();
      RunOptions opt;
      opt.outdir = make_temp_dir("bad_history").string();
      opt.write_vtk = false;
      try {
        run_explicit(model, opt);
      } catch (const InputError& e) {
        msg = e.what();
      }
      check(msg, "run_explicit: ");
    } catch (const InputError& e) {
      // Once the resolver runs the check, read_deck itself rejects the deck.
      check(e.what(), "read_deck: ");
    }
  }
  EXPECT_GE(checked, 3);
}

} // namespace
