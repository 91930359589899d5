// d3plot writer: the raw files against word counts and control words computed here from the
// LS-DYNA Database Manual's layout, family splitting, end markers and error cases. When
// PARCAE_D3PLOT_FIXTURE_DIR is set, every model is also written there (<dir>/<case>/d3plot*)
// with a JSON sidecar (<dir>/<case>.json) of the exact arrays, which
// python/tests/test_d3plot_readers.py reads back with lasso-python and VTK.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "output/d3plot.hpp"
#include "test_support.hpp"

namespace parcae {
namespace {

namespace fs = std::filesystem;

/// nx*ny*nz hexahedra on a unit-spaced grid starting at `origin`; nodes appended to `g`.
void add_hex_block(D3plotGeometry& g, int nx, int ny, int nz, double x0, GlobalId first_node,
                   GlobalId first_elem, int part) {
  const auto base = static_cast<std::int32_t>(g.node_id.size());
  auto idx = [&](int i, int j, int k) { return base + i + (nx + 1) * (j + (ny + 1) * k); };
  for (int k = 0; k <= nz; ++k)
    for (int j = 0; j <= ny; ++j)
      for (int i = 0; i <= nx; ++i) {
        g.x0.insert(g.x0.end(), {x0 + i * 1.0, j * 1.0, k * 1.0});
        g.node_id.push_back(first_node++);
      }
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        g.solid_nodes.push_back({idx(i, j, k), idx(i + 1, j, k), idx(i + 1, j + 1, k),
                                 idx(i, j + 1, k), idx(i, j, k + 1), idx(i + 1, j, k + 1),
                                 idx(i + 1, j + 1, k + 1), idx(i, j + 1, k + 1)});
        g.solid_part.push_back(part);
        g.solid_id.push_back(first_elem++);
      }
}

/// nx*ny quadrilaterals in the plane z = z0 plus one triangle (node 3 repeated).
void add_plate(D3plotGeometry& g, int nx, int ny, double z0, GlobalId first_node,
               GlobalId first_elem, int part) {
  const auto base = static_cast<std::int32_t>(g.node_id.size());
  auto idx = [&](int i, int j) { return base + i + (nx + 1) * j; };
  for (int j = 0; j <= ny; ++j)
    for (int i = 0; i <= nx; ++i) {
      g.x0.insert(g.x0.end(), {i * 0.5, j * 0.5, z0});
      g.node_id.push_back(first_node++);
    }
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      g.shell_nodes.push_back({idx(i, j), idx(i + 1, j), idx(i + 1, j + 1), idx(i, j + 1)});
      g.shell_part.push_back(part);
      g.shell_id.push_back(first_elem++);
    }
  g.shell_nodes.push_back({idx(nx, 0), idx(nx, 1), idx(nx - 1, 1), idx(nx - 1, 1)});
  g.shell_part.push_back(part);
  g.shell_id.push_back(first_elem++);
}

/// A smooth, distinct value for every (state, array, index): what the readers must return.
double value(int state, int array, std::size_t i) {
  return (array + 1) * 10.0 +
         std::sin(0.37 * static_cast<double>(i) + 1.3 * state + array) * std::pow(10.0, array % 4);
}

D3plotState make_state(const D3plotGeometry& g, const D3plotOptions& o, int k) {
  const std::size_t nn = g.node_id.size(), ns = g.solid_nodes.size(), nsh = g.shell_nodes.size();
  const std::size_t np = g.parts.size(), L = static_cast<std::size_t>(o.shell_layers);
  D3plotState s;
  s.time = 1e-3 * k;
  s.kinetic = value(k, 0, 0);
  s.internal = value(k, 0, 1);
  s.total = s.kinetic + s.internal;
  s.velocity = {value(k, 0, 2), value(k, 0, 3), value(k, 0, 4)};
  auto fill = [&](std::vector<Real>& v, std::size_t n, int array) {
    v.resize(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = value(k, array, i);
  };
  fill(s.part_internal, np, 1);
  fill(s.part_kinetic, np, 2);
  fill(s.part_mass, np, 3);
  fill(s.part_hourglass, np, 4);
  fill(s.part_velocity, 3 * np, 5);
  s.x = g.x0;
  for (std::size_t i = 0; i < s.x.size(); ++i) s.x[i] += 0.01 * k * std::sin(0.1 * i + k);
  fill(s.v, 3 * nn, 6);
  fill(s.a, 3 * nn, 7);
  fill(s.solid_sig, 6 * ns, 8);
  fill(s.solid_epsp, ns, 9);
  for (auto& e : s.solid_epsp) e = std::abs(e) * 1e-3;
  fill(s.shell_sig, 6 * L * nsh, 10);
  fill(s.shell_epsp, L * nsh, 11);
  for (auto& e : s.shell_epsp) e = std::abs(e) * 1e-3;
  fill(s.shell_resultants, 8 * nsh, 12);
  fill(s.shell_thickness, nsh, 13);
  fill(s.shell_energy, nsh, 14);
  s.solid_active.assign(ns, 1);
  s.shell_active.assign(nsh, 1);
  if (k >= 2 && ns > 1) s.solid_active[1] = 0; // deleted from the third state on
  if (k >= 2 && nsh > 0) s.shell_active[0] = 0;
  return s;
}

nlohmann::json state_json(const D3plotState& s) {
  nlohmann::json j;
  j["time"] = s.time;
  j["kinetic"] = s.kinetic;
  j["internal"] = s.internal;
  j["total"] = s.total;
  j["velocity"] = s.velocity;
  j["part_internal"] = s.part_internal;
  j["part_kinetic"] = s.part_kinetic;
  j["part_mass"] = s.part_mass;
  j["part_hourglass"] = s.part_hourglass;
  j["part_velocity"] = s.part_velocity;
  j["x"] = s.x;
  j["v"] = s.v;
  j["a"] = s.a;
  j["solid_sig"] = s.solid_sig;
  j["solid_epsp"] = s.solid_epsp;
  j["shell_sig"] = s.shell_sig;
  j["shell_epsp"] = s.shell_epsp;
  j["shell_resultants"] = s.shell_resultants;
  j["shell_thickness"] = s.shell_thickness;
  j["shell_energy"] = s.shell_energy;
  j["solid_active"] = s.solid_active;
  j["shell_active"] = s.shell_active;
  return j;
}

struct Written {
  std::vector<std::string> files;
  std::int64_t state_words = 0, geometry_words = 0;
};

/// Writes `nstates` states into dir/d3plot (and into the fixture directory when set).
Written write_case(const std::string& name, const fs::path& dir, const D3plotGeometry& g,
                   const D3plotOptions& o, int nstates) {
  auto write_to = [&](const fs::path& d) {
    fs::create_directories(d);
    D3plotWriter w((d / "d3plot").string(), g, o);
    for (int k = 0; k < nstates; ++k) w.write_state(make_state(g, o, k));
    w.close();
    return Written{w.files(), w.state_words(), w.geometry_words()};
  };
  Written out = write_to(dir);
  if (const char* fx = std::getenv("PARCAE_D3PLOT_FIXTURE_DIR"); fx && *fx) {
    const fs::path root(fx);
    write_to(root / name);
    nlohmann::json j;
    j["name"] = name;
    j["options"] = {{"word_bytes", o.word_bytes},
                    {"family_file_words", o.family_file_words},
                    {"shell_layers", o.shell_layers},
                    {"files", out.files.size()}};
    j["title"] = g.title;
    j["x0"] = g.x0;
    j["node_id"] = g.node_id;
    j["solid_nodes"] = g.solid_nodes;
    j["solid_part"] = g.solid_part;
    j["solid_id"] = g.solid_id;
    j["shell_nodes"] = g.shell_nodes;
    j["shell_part"] = g.shell_part;
    j["shell_id"] = g.shell_id;
    for (const auto& p : g.parts) {
      j["part_id"].push_back(p.id);
      j["part_title"].push_back(p.title);
    }
    for (int k = 0; k < nstates; ++k) j["states"].push_back(state_json(make_state(g, o, k)));
    std::ofstream(root / (name + ".json")) << j.dump();
  }
  return out;
}

std::vector<unsigned char> read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::int64_t word_int(const std::vector<unsigned char>& b, std::size_t w, int bytes) {
  if (bytes == 4) {
    std::int32_t v;
    std::memcpy(&v, &b.at(w * 4), 4);
    return v;
  }
  std::int64_t v;
  std::memcpy(&v, &b.at(w * 8), 8);
  return v;
}

double word_real(const std::vector<unsigned char>& b, std::size_t w, int bytes) {
  if (bytes == 4) {
    float v;
    std::memcpy(&v, &b.at(w * 4), 4);
    return v;
  }
  double v;
  std::memcpy(&v, &b.at(w * 8), 8);
  return v;
}

/// Words of one state, from the manual's list (time, globals, 3 node vectors, 7 per solid,
/// NV2D per shell, one deletion flag per element).
std::int64_t expected_state_words(const D3plotGeometry& g, int layers) {
  const auto nn = static_cast<std::int64_t>(g.node_id.size());
  const auto ns = static_cast<std::int64_t>(g.solid_nodes.size());
  const auto nsh = static_cast<std::int64_t>(g.shell_nodes.size());
  const auto np = static_cast<std::int64_t>(g.parts.size());
  return 1 + (6 + 7 * np) + 9 * nn + 7 * ns + (layers * 7 + 8 + 4) * nsh + ns + nsh;
}

/// Words of the first member: control words, geometry, NARBS numbering section, end marker,
/// 90001 titles (2 + per part 1 word + 72 bytes), 90000 heading (1 + 72 bytes), end marker.
std::int64_t expected_geometry_words(const D3plotGeometry& g, int bytes) {
  const auto nn = static_cast<std::int64_t>(g.node_id.size());
  const auto ns = static_cast<std::int64_t>(g.solid_nodes.size());
  const auto nsh = static_cast<std::int64_t>(g.shell_nodes.size());
  const auto np = static_cast<std::int64_t>(g.parts.size());
  const std::int64_t title_words = 72 / bytes;
  return 64 + 3 * nn + 9 * ns + 5 * nsh + (16 + nn + ns + nsh + 3 * np) + 1 + (1 + title_words) +
         (2 + np * (1 + title_words)) + 1;
}

D3plotGeometry hex_block() {
  D3plotGeometry g;
  g.title = "hex block";
  g.parts = {{7, "block"}};
  add_hex_block(g, 3, 2, 2, 0.0, 101, 1001, 0);
  return g;
}

D3plotGeometry shell_plate() {
  D3plotGeometry g;
  g.title = "shell plate";
  g.parts = {{20, "plate"}};
  add_plate(g, 3, 2, 0.0, 1, 1, 0);
  return g;
}

D3plotGeometry mixed() {
  D3plotGeometry g;
  g.title = "mixed solids and shells";
  g.parts = {{3, "left block"}, {9, "plate"}, {5, "right block"}};
  add_hex_block(g, 2, 2, 1, 0.0, 1, 1, 0);
  add_hex_block(g, 1, 2, 2, 5.0, 5001, 500, 2);
  add_plate(g, 4, 3, 4.0, 9001, 90001, 1);
  return g;
}

void check_control_words(const fs::path& file, const D3plotGeometry& g, const D3plotOptions& o) {
  const auto b = read_bytes(file);
  const int w = o.word_bytes;
  ASSERT_GE(b.size(), static_cast<std::size_t>(64 * w));
  EXPECT_EQ(std::string(b.begin(), b.begin() + static_cast<long>(g.title.size())), g.title);
  EXPECT_EQ(word_int(b, 11, w), 1);           // filetype d3plot
  EXPECT_DOUBLE_EQ(word_real(b, 14, w), 971); // version
  EXPECT_EQ(word_int(b, 15, w), 4);           // NDIM
  EXPECT_EQ(word_int(b, 16, w), static_cast<std::int64_t>(g.node_id.size()));
  EXPECT_EQ(word_int(b, 17, w), 6);
  EXPECT_EQ(word_int(b, 18, w), 6 + 7 * static_cast<std::int64_t>(g.parts.size()));
  EXPECT_EQ(word_int(b, 20, w), 1);
  EXPECT_EQ(word_int(b, 21, w), 1);
  EXPECT_EQ(word_int(b, 22, w), 1);
  EXPECT_EQ(word_int(b, 23, w), static_cast<std::int64_t>(g.solid_nodes.size()));
  EXPECT_EQ(word_int(b, 27, w), 7);
  EXPECT_EQ(word_int(b, 31, w), static_cast<std::int64_t>(g.shell_nodes.size()));
  EXPECT_EQ(word_int(b, 33, w), o.shell_layers * 7 + 12);
  EXPECT_EQ(word_int(b, 34, w), 0);
  EXPECT_EQ(word_int(b, 35, w), 0);
  EXPECT_EQ(word_int(b, 36, w), -(o.shell_layers + 10000));
  EXPECT_EQ(word_int(b, 39, w),
            static_cast<std::int64_t>(16 + g.node_id.size() + g.solid_nodes.size() +
                                      g.shell_nodes.size() + 3 * g.parts.size()));
  for (int k = 43; k <= 46; ++k) EXPECT_EQ(word_int(b, k, w), 1000);
  EXPECT_EQ(word_int(b, 51, w), static_cast<std::int64_t>(g.parts.size()));
  // The first member: geometry only, ending with the end marker; the part titles before it.
  const auto words = static_cast<std::int64_t>(b.size()) / w;
  EXPECT_EQ(words, expected_geometry_words(g, w));
  EXPECT_EQ(word_real(b, static_cast<std::size_t>(words - 1), w), -999999.0);
  // First solid connectivity word: node index + 1; its part: index + 1.
  const std::size_t geo = 64 + 3 * g.node_id.size();
  if (!g.solid_nodes.empty()) {
    EXPECT_EQ(word_int(b, geo, w), g.solid_nodes[0][0] + 1);
    EXPECT_EQ(word_int(b, geo + 8, w), g.solid_part[0] + 1);
  }
  // Node ids start the numbering section after its 16 header words.
  const std::size_t ids = geo + 9 * g.solid_nodes.size() + 5 * g.shell_nodes.size() + 16;
  EXPECT_EQ(word_int(b, ids, w), g.node_id[0]);
  EXPECT_EQ(word_int(b, ids - 16, w), -static_cast<std::int64_t>(ids + 1)); // NSORT < 0
}

/// States in a member: whole states followed by one end marker.
void check_member(const fs::path& file, std::int64_t state_words, int nstates, int w,
                  double first_time) {
  const auto b = read_bytes(file);
  ASSERT_EQ(static_cast<std::int64_t>(b.size()), (nstates * state_words + 1) * w) << file;
  EXPECT_EQ(word_real(b, static_cast<std::size_t>(nstates * state_words), w), -999999.0);
  EXPECT_NEAR(word_real(b, 0, w), first_time, 1e-9);
}

class D3plotTest : public ::testing::Test {
protected:
  fs::path dir_ = test::make_temp_dir("d3plot");
};

TEST_F(D3plotTest, HexBlockLayout) {
  const auto g = hex_block();
  D3plotOptions o;
  const auto w = write_case("hex_block", dir_ / "hex", g, o, 3);
  ASSERT_EQ(w.files.size(), 2u);
  EXPECT_EQ(w.state_words, expected_state_words(g, 3));
  check_control_words(dir_ / "hex" / "d3plot", g, o);
  check_member(dir_ / "hex" / "d3plot01", w.state_words, 3, 4, 0.0);
  // The solid data of the second state: first stress word.
  const auto b = read_bytes(dir_ / "hex" / "d3plot01");
  const auto s1 = make_state(g, o, 1);
  const std::size_t solid0 =
      static_cast<std::size_t>(w.state_words) + 1 + 13 + 9 * g.node_id.size();
  EXPECT_FLOAT_EQ(static_cast<float>(word_real(b, solid0, 4)), static_cast<float>(s1.solid_sig[0]));
  EXPECT_FLOAT_EQ(static_cast<float>(word_real(b, solid0 + 6, 4)),
                  static_cast<float>(s1.solid_epsp[0]));
  EXPECT_FLOAT_EQ(static_cast<float>(word_real(b, static_cast<std::size_t>(w.state_words) + 1, 4)),
                  static_cast<float>(s1.kinetic));
}

TEST_F(D3plotTest, ShellPlateLayerOrder) {
  const auto g = shell_plate();
  D3plotOptions o;
  const auto w = write_case("shell_plate", dir_ / "plate", g, o, 3);
  check_control_words(dir_ / "plate" / "d3plot", g, o);
  check_member(dir_ / "plate" / "d3plot01", w.state_words, 3, 4, 0.0);
  // Shell 0 of state 0: middle point first, then bottom, then top; then the resultants and
  // thickness; the deletion flags close the state.
  const auto b = read_bytes(dir_ / "plate" / "d3plot01");
  const auto s = make_state(g, o, 0);
  const std::size_t sh = 1 + 13 + 9 * g.node_id.size();
  EXPECT_FLOAT_EQ(static_cast<float>(word_real(b, sh, 4)), static_cast<float>(s.shell_sig[6]));
  EXPECT_FLOAT_EQ(static_cast<float>(word_real(b, sh + 7, 4)), static_cast<float>(s.shell_sig[0]));
  EXPECT_FLOAT_EQ(static_cast<float>(word_real(b, sh + 14, 4)),
                  static_cast<float>(s.shell_sig[12]));
  EXPECT_FLOAT_EQ(static_cast<float>(word_real(b, sh + 6, 4)), static_cast<float>(s.shell_epsp[1]));
  EXPECT_FLOAT_EQ(static_cast<float>(word_real(b, sh + 21, 4)),
                  static_cast<float>(s.shell_resultants[0]));
  EXPECT_FLOAT_EQ(static_cast<float>(word_real(b, sh + 29, 4)),
                  static_cast<float>(s.shell_thickness[0]));
  // State 2: shell 0 deleted.
  const std::size_t flags = static_cast<std::size_t>(3 * w.state_words) - g.shell_nodes.size();
  EXPECT_EQ(word_real(b, flags, 4), 0.0);
  EXPECT_EQ(word_real(b, flags + 1, 4), 1.0);
}

TEST_F(D3plotTest, MixedPartsIdsAndTitles) {
  const auto g = mixed();
  D3plotOptions o;
  const auto w = write_case("mixed", dir_ / "mixed", g, o, 4);
  check_control_words(dir_ / "mixed" / "d3plot", g, o);
  check_member(dir_ / "mixed" / "d3plot01", w.state_words, 4, 4, 0.0);
  const auto b = read_bytes(dir_ / "mixed" / "d3plot");
  EXPECT_EQ(word_int(b, 24, 4), 2); // NUMMAT8: two solid parts
  EXPECT_EQ(word_int(b, 32, 4), 1); // NUMMAT4
  // The part titles: 90001, count, then id and 72 characters per part; the 90000 heading (1 +
  // 18 words) and the end marker last.
  const auto words = b.size() / 4;
  EXPECT_EQ(word_int(b, words - 20, 4), 90000);
  const std::size_t last_part = words - 1 - 19 - 19;
  EXPECT_EQ(word_int(b, last_part, 4), 5);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(&b[(last_part + 1) * 4]), 11), "right block");
  EXPECT_EQ(word_int(b, last_part - 2 * 19 - 2, 4), 90001);
  EXPECT_EQ(word_int(b, last_part - 2 * 19 - 1, 4), 3);
}

TEST_F(D3plotTest, FamilySplit) {
  const auto g = mixed();
  D3plotOptions o;
  const std::int64_t sw = expected_state_words(g, 3);
  o.family_file_words = 2 * sw + 1; // two states and the end marker per member
  const auto w = write_case("family", dir_ / "family", g, o, 5);
  ASSERT_EQ(w.files.size(), 4u);
  EXPECT_EQ(fs::path(w.files[3]).filename(), "d3plot03");
  check_member(dir_ / "family" / "d3plot01", sw, 2, 4, 0.0);
  check_member(dir_ / "family" / "d3plot02", sw, 2, 4, 2e-3);
  check_member(dir_ / "family" / "d3plot03", sw, 1, 4, 4e-3);
  EXPECT_FALSE(fs::exists(dir_ / "family" / "d3plot04"));
}

TEST_F(D3plotTest, StaleMembersOfAnEarlierFamilyAreRemoved) {
  const auto g = mixed();
  D3plotOptions o;
  o.family_file_words = expected_state_words(g, 3) + 1; // one state per member
  write_case("stale_a", dir_ / "stale", g, o, 4);
  ASSERT_TRUE(fs::exists(dir_ / "stale" / "d3plot04"));
  test::write_file(dir_ / "stale" / "d3plot.json", "keep");
  const auto w = write_case("stale_b", dir_ / "stale", g, o, 2);
  EXPECT_EQ(w.files.size(), 3u);
  EXPECT_FALSE(fs::exists(dir_ / "stale" / "d3plot03"));
  EXPECT_FALSE(fs::exists(dir_ / "stale" / "d3plot04"));
  EXPECT_TRUE(fs::exists(dir_ / "stale" / "d3plot.json"));
}

/// A run stopped after `stop` states (its files as a checkpoint's rewind leaves them: whole
/// states, no end marker), continued in append mode: the family equals an uninterrupted one.
void check_append(const fs::path& dir, int stop) {
  const auto g = mixed();
  D3plotOptions o;
  const std::int64_t sw = expected_state_words(g, 3);
  o.family_file_words = 2 * sw + 1; // two states per member
  constexpr int kStates = 5;
  for (const char* d : {"full", "run", "cut"}) fs::create_directories(dir / d);
  {
    D3plotWriter w((dir / "full" / "d3plot").string(), g, o);
    for (int k = 0; k < kStates; ++k) w.write_state(make_state(g, o, k));
  }
  {
    D3plotWriter w((dir / "run" / "d3plot").string(), g, o);
    for (int k = 0; k < stop; ++k) w.write_state(make_state(g, o, k));
    for (const auto& f : w.files()) // a killed run: the files as they are now
      fs::copy_file(f, dir / "cut" / fs::path(f).filename());
  }
  D3plotOptions oa = o;
  oa.append = true;
  D3plotWriter w((dir / "cut" / "d3plot").string(), g, oa);
  EXPECT_EQ(w.states_written(), stop);
  for (int k = stop; k < kStates; ++k) w.write_state(make_state(g, oa, k));
  w.close();
  EXPECT_EQ(w.states_written(), kStates);
  ASSERT_EQ(w.files().size(), 4u);
  for (const auto& f : w.files()) {
    const auto name = fs::path(f).filename();
    auto a = read_bytes(dir / "cut" / name), b = read_bytes(dir / "full" / name);
    if (name == "d3plot" && a.size() > 44 && b.size() > 44) // word 10: the run's start time
      for (int i = 40; i < 44; ++i) a[i] = b[i] = 0;
    EXPECT_EQ(a, b) << name << " after a stop at " << stop;
  }
}

TEST_F(D3plotTest, AppendContinuesAStoppedFamily) {
  check_append(dir_ / "a1", 1);
  check_append(dir_ / "a2", 2); // stopped with a full member, not yet closed
  check_append(dir_ / "a3", 3);
  check_append(dir_ / "a0", 0); // geometry only
}

TEST_F(D3plotTest, AppendRefusesAnotherModelOrAPartialState) {
  const auto g = mixed();
  D3plotOptions o;
  {
    D3plotWriter w((dir_ / "d3plot").string(), g, o);
    w.write_state(make_state(g, o, 0));
    w.write_state(make_state(g, o, 1));
  }
  D3plotOptions oa = o;
  oa.append = true;
  auto other = g;
  other.x0[0] += 1.0;
  EXPECT_THROW(D3plotWriter((dir_ / "d3plot").string(), other, oa), RuntimeError);
  auto double_words = oa;
  double_words.word_bytes = 8;
  EXPECT_THROW(D3plotWriter((dir_ / "d3plot").string(), g, double_words), RuntimeError);
  EXPECT_THROW(D3plotWriter((dir_ / "nothing" / "d3plot").string(), g, oa), RuntimeError);
  // A member cut inside a state.
  const auto member = dir_ / "d3plot01";
  fs::resize_file(member, fs::file_size(member) - 3 * 4);
  try {
    D3plotWriter w((dir_ / "d3plot").string(), g, oa);
    FAIL() << "no exception";
  } catch (const RuntimeError& e) {
    EXPECT_NE(std::string(e.what()).find("partial state"), std::string::npos) << e.what();
  }
}

TEST_F(D3plotTest, DefaultFamilySizeIsLsDynas) {
  // One huge state per member: 7 * 512 * 512 words fit a few states of this size.
  const auto g = mixed();
  D3plotOptions o;
  const auto w = write_case("default_family", dir_ / "default", g, o, 2);
  EXPECT_EQ(w.files.size(), 2u);
  EXPECT_LE(static_cast<std::int64_t>(fs::file_size(dir_ / "default" / "d3plot01")) / 4,
            7LL * 512 * 512);
}

TEST_F(D3plotTest, EightByteWords) {
  const auto g = mixed();
  D3plotOptions o;
  o.word_bytes = 8;
  const auto w = write_case("mixed_double", dir_ / "double", g, o, 3);
  check_control_words(dir_ / "double" / "d3plot", g, o);
  check_member(dir_ / "double" / "d3plot01", w.state_words, 3, 8, 0.0);
  const auto b = read_bytes(dir_ / "double" / "d3plot01");
  const auto s = make_state(g, o, 2);
  EXPECT_EQ(word_real(b, static_cast<std::size_t>(2 * w.state_words) + 1, 8), s.kinetic);
}

TEST_F(D3plotTest, WithoutOptionalData) {
  const auto g = mixed();
  D3plotOptions o;
  o.velocities = o.accelerations = false;
  o.shell_resultants = false;
  o.deletion_flags = false;
  D3plotWriter w((dir_ / "d3plot").string(), g, o);
  const auto nn = static_cast<std::int64_t>(g.node_id.size());
  const auto ns = static_cast<std::int64_t>(g.solid_nodes.size());
  const auto nsh = static_cast<std::int64_t>(g.shell_nodes.size());
  EXPECT_EQ(w.state_words(), 1 + 6 + 21 + 3 * nn + 7 * ns + (21 + 4) * nsh);
  auto s = make_state(g, o, 0);
  s.v.clear();
  s.a.clear();
  s.shell_resultants.clear();
  w.write_state(s);
  w.close();
  const auto b = read_bytes(dir_ / "d3plot");
  EXPECT_EQ(word_int(b, 21, 4), 0);
  EXPECT_EQ(word_int(b, 36, 4), 3); // MAXINT without deletion flags
  EXPECT_EQ(word_int(b, 45, 4), 999);
  EXPECT_EQ(word_int(b, 33, 4), 3 * 7 + 4);
}

TEST_F(D3plotTest, SizeMismatchThrows) {
  const auto g = mixed();
  D3plotWriter w((dir_ / "d3plot").string(), g);
  auto s = make_state(g, D3plotOptions{}, 0);
  s.solid_sig.pop_back();
  try {
    w.write_state(s);
    FAIL() << "no exception";
  } catch (const RuntimeError& e) {
    EXPECT_NE(std::string(e.what()).find("solid_sig"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("d3plot"), std::string::npos) << e.what();
  }
  s = make_state(g, D3plotOptions{}, 0);
  s.part_mass.resize(1);
  EXPECT_THROW(w.write_state(s), RuntimeError);
  s = make_state(g, D3plotOptions{}, 0);
  s.x.resize(3);
  EXPECT_THROW(w.write_state(s), RuntimeError);
  // Nothing written by the failed calls.
  EXPECT_EQ(w.states_written(), 0);
  w.close();
  EXPECT_THROW(w.write_state(make_state(g, D3plotOptions{}, 0)), RuntimeError);
}

TEST_F(D3plotTest, BadGeometryThrows) {
  auto g = mixed();
  g.solid_nodes[2][5] = static_cast<std::int32_t>(g.node_id.size());
  EXPECT_THROW(D3plotWriter((dir_ / "a").string(), g), RuntimeError);
  g = mixed();
  g.shell_part[0] = 3;
  EXPECT_THROW(D3plotWriter((dir_ / "b").string(), g), RuntimeError);
  g = mixed();
  g.node_id.pop_back();
  EXPECT_THROW(D3plotWriter((dir_ / "c").string(), g), RuntimeError);
  D3plotOptions o;
  o.word_bytes = 2;
  EXPECT_THROW(D3plotWriter((dir_ / "d").string(), mixed(), o), RuntimeError);
  g = mixed();
  g.node_id[0] = 3'000'000'000LL; // needs 8-byte words
  EXPECT_THROW(D3plotWriter((dir_ / "e").string(), g), RuntimeError);
  o.word_bytes = 8;
  EXPECT_NO_THROW(D3plotWriter((dir_ / "f").string(), g, o));
}

TEST_F(D3plotTest, UnwritableDirectoryNamesThePath) {
  const fs::path bad = dir_ / "no" / "such" / "dir" / "d3plot";
  try {
    D3plotWriter w(bad.string(), mixed());
    FAIL() << "no exception";
  } catch (const RuntimeError& e) {
    EXPECT_NE(std::string(e.what()).find(bad.string()), std::string::npos) << e.what();
  }
}

} // namespace
} // namespace parcae
