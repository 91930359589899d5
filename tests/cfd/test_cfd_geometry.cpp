// Obstacles (FAVOR open fractions), STL surfaces, probes and open boundaries of the CFD solver.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>

#include "cfd_test.hpp"
#include "core/error.hpp"
#include "core/exact_sum.hpp"
#include "solvers/cfd/cfd_case.hpp"
#include "solvers/cfd/geometry.hpp"
#include "test_support.hpp"

namespace {

using namespace parcae;
using namespace parcae::cfd;
using cfdtest::g_world;
using Tri = std::array<double, 9>;

/// The 12 triangles of the box [lo, hi], normals outward.
std::vector<Tri> cube_triangles(std::array<double, 3> lo, std::array<double, 3> hi) {
  std::array<std::array<double, 3>, 8> v;
  for (int c = 0; c < 8; ++c)
    v[c] = {(c & 1) ? hi[0] : lo[0], (c & 2) ? hi[1] : lo[1], (c & 4) ? hi[2] : lo[2]};
  // Faces as quads (outward, counter-clockwise seen from outside).
  const int quads[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4},
                           {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
  std::vector<Tri> t;
  for (const auto& q : quads)
    for (const auto& tri : {std::array<int, 3>{q[0], q[1], q[2]}, {q[0], q[2], q[3]}}) {
      Tri x{};
      for (int k = 0; k < 3; ++k)
        for (int d = 0; d < 3; ++d) x[3 * k + d] = v[tri[k]][d];
      t.push_back(x);
    }
  return t;
}

/// An icosphere (icosahedron subdivided `levels` times, vertices on the sphere).
std::vector<Tri> sphere_triangles(std::array<double, 3> c, double r, int levels) {
  const double p = (1 + std::sqrt(5.0)) / 2;
  std::vector<std::array<double, 3>> v = {{-1, p, 0}, {1, p, 0}, {-1, -p, 0}, {1, -p, 0},
                                          {0, -1, p}, {0, 1, p}, {0, -1, -p}, {0, 1, -p},
                                          {p, 0, -1}, {p, 0, 1}, {-p, 0, -1}, {-p, 0, 1}};
  std::vector<std::array<int, 3>> f = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11},
                                       {1, 5, 9},  {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
                                       {3, 9, 4},  {3, 4, 2},  {3, 2, 6},   {3, 6, 8},  {3, 8, 9},
                                       {4, 9, 5},  {2, 4, 11}, {6, 2, 10},  {8, 6, 7},  {9, 8, 1}};
  auto unit = [](std::array<double, 3> a) {
    const double n = std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
    return std::array<double, 3>{a[0] / n, a[1] / n, a[2] / n};
  };
  for (auto& x : v) x = unit(x);
  for (int l = 0; l < levels; ++l) {
    std::map<std::pair<int, int>, int> mid;
    auto midpoint = [&](int a, int b) {
      const auto key = std::minmax(a, b);
      if (auto it = mid.find(key); it != mid.end()) return it->second;
      v.push_back(unit({v[a][0] + v[b][0], v[a][1] + v[b][1], v[a][2] + v[b][2]}));
      return mid[key] = static_cast<int>(v.size()) - 1;
    };
    std::vector<std::array<int, 3>> g;
    for (const auto& t : f) {
      const int a = midpoint(t[0], t[1]), b = midpoint(t[1], t[2]), d = midpoint(t[2], t[0]);
      g.push_back({t[0], a, d});
      g.push_back({t[1], b, a});
      g.push_back({t[2], d, b});
      g.push_back({a, b, d});
    }
    f = g;
  }
  std::vector<Tri> out;
  for (const auto& t : f) {
    Tri x{};
    for (int k = 0; k < 3; ++k)
      for (int d = 0; d < 3; ++d) x[3 * k + d] = c[d] + r * v[t[k]][d];
    out.push_back(x);
  }
  return out;
}

/// Enclosed volume of a closed triangulated surface (divergence theorem).
double enclosed_volume(const std::vector<Tri>& tris) {
  double v = 0;
  for (const auto& t : tris)
    v += (t[0] * (t[4] * t[8] - t[5] * t[7]) - t[1] * (t[3] * t[8] - t[5] * t[6]) +
          t[2] * (t[3] * t[7] - t[4] * t[6])) /
         6;
  return v;
}

void write_ascii(const std::filesystem::path& p, const std::vector<Tri>& tris) {
  std::ofstream o(p);
  o << "solid test\n";
  for (const auto& t : tris) {
    o << "  facet normal 0 0 0\n    outer loop\n";
    for (int k = 0; k < 3; ++k)
      o << "      vertex " << t[3 * k] << ' ' << t[3 * k + 1] << ' ' << t[3 * k + 2] << "\n";
    o << "    endloop\n  endfacet\n";
  }
  o << "endsolid test\n";
}

void write_binary(const std::filesystem::path& p, const std::vector<Tri>& tris) {
  std::ofstream o(p, std::ios::binary);
  char header[80] = "solid binary written by the parcae tests";
  o.write(header, 80);
  const std::uint32_t n = static_cast<std::uint32_t>(tris.size());
  o.write(reinterpret_cast<const char*>(&n), 4);
  for (const auto& t : tris) {
    float rec[12] = {0, 0, 0};
    for (int k = 0; k < 9; ++k) rec[3 + k] = static_cast<float>(t[k]);
    o.write(reinterpret_cast<const char*>(rec), 48);
    const std::uint16_t attr = 0;
    o.write(reinterpret_cast<const char*>(&attr), 2);
  }
}

std::string stl_error(const std::filesystem::path& p) {
  try {
    (void)read_stl(p.string(), 1.0, {0, 0, 0});
  } catch (const RuntimeError& e) {
    return e.what();
  }
  return {};
}

TEST(CfdStl, AsciiAndBinaryReadTheSameClosedSurface) {
  if (g_world->rank() != 0) return;
  const auto dir = test::make_temp_dir("cfd_stl");
  const auto tris = cube_triangles({0.1, 0.2, 0.3}, {0.35, 0.5, 0.8});
  write_ascii(dir / "a.stl", tris);
  write_binary(dir / "b.stl", tris);
  const StlMesh a = read_stl((dir / "a.stl").string(), 2.0, {1, 0, 0});
  const StlMesh b = read_stl((dir / "b.stl").string(), 2.0, {1, 0, 0});
  ASSERT_EQ(a.triangles.size(), 12u);
  ASSERT_EQ(b.triangles.size(), 12u);
  for (std::size_t t = 0; t < 12; ++t)
    for (int k = 0; k < 9; ++k) EXPECT_NEAR(a.triangles[t][k], b.triangles[t][k], 1e-6);
  // Scaled by 2 and moved by +1 in x.
  EXPECT_DOUBLE_EQ(a.lo[0], 1.2);
  EXPECT_DOUBLE_EQ(a.hi[2], 1.6);
  EXPECT_NEAR(enclosed_volume(a.triangles), 8 * 0.25 * 0.3 * 0.5, 1e-12);
}

TEST(CfdStl, OpenMisorientedNonManifoldOrTruncatedSurfacesAreRefused) {
  if (g_world->rank() != 0) return;
  const auto dir = test::make_temp_dir("cfd_stl_bad");
  auto tris = cube_triangles({0, 0, 0}, {1, 1, 1});
  auto open = tris;
  open.pop_back();
  write_ascii(dir / "open.stl", open);
  EXPECT_NE(stl_error(dir / "open.stl").find("not a closed surface"), std::string::npos)
      << stl_error(dir / "open.stl");
  auto flipped = tris;
  std::swap(flipped[3][0], flipped[3][3]);
  std::swap(flipped[3][1], flipped[3][4]);
  std::swap(flipped[3][2], flipped[3][5]);
  write_ascii(dir / "flipped.stl", flipped);
  EXPECT_NE(stl_error(dir / "flipped.stl").find("inconsistently oriented"), std::string::npos)
      << stl_error(dir / "flipped.stl");
  auto twice = tris;
  twice.push_back(tris[0]);
  twice.push_back(tris[1]);
  write_ascii(dir / "twice.stl", twice);
  EXPECT_NE(stl_error(dir / "twice.stl").find("more than two triangles"), std::string::npos)
      << stl_error(dir / "twice.stl");
  write_binary(dir / "cut.stl", tris);
  std::filesystem::resize_file(dir / "cut.stl", 84 + 50 * 12 - 7);
  EXPECT_NE(stl_error(dir / "cut.stl").find("truncated"), std::string::npos)
      << stl_error(dir / "cut.stl");
  {
    std::ofstream o(dir / "words.stl");
    o << "solid x\n facet normal 0 0 1\n  outer loop\n   vertex 0 0 zero\n";
  }
  EXPECT_NE(stl_error(dir / "words.stl").find("words.stl:4"), std::string::npos)
      << stl_error(dir / "words.stl");
}

/// A 3-D case of `cells` on the box `size` with the given obstacles (no fluid needed).
CfdCase geometry_case(std::array<int, 3> cells, std::array<double, 3> size) {
  CfdCase c;
  c.dim = 3;
  c.cells = cells;
  c.size = size;
  return c;
}

Grid whole_grid(const CfdCase& c) {
  return make_grid(c.dim, c.cells, {c.h(0), c.h(1), c.dim == 3 ? c.h(2) : c.size[2]}, 0, 1);
}

double open_volume(const CfdCase& c, const Openings& o, const Grid& g) {
  double v = 0;
  for (int k = 0; k < g.n[2]; ++k)
    for (int j = 0; j < g.n[1]; ++j)
      for (int i = 0; i < g.n[0]; ++i) v += o.vf[g.at(i, j, k)];
  return v * c.h(0) * c.h(1) * (c.dim == 3 ? c.h(2) : c.size[2]);
}

TEST(CfdStl, OverlappingShellsAndDegenerateTrianglesReadAsTheirUnion) {
  if (g_world->rank() != 0) return;
  const auto dir = test::make_temp_dir("cfd_stl_union");
  // Two overlapping cubes in one file (each closed and outward): the solid is their union (a
  // parity rule would open their overlap), plus a zero-area triangle some exporters leave.
  auto tris = cube_triangles({0.2, 0.2, 0.2}, {0.6, 0.6, 0.6});
  const auto b = cube_triangles({0.4, 0.3, 0.3}, {0.8, 0.7, 0.7});
  tris.insert(tris.end(), b.begin(), b.end());
  tris.push_back({0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.6, 0.6, 0.6});
  write_ascii(dir / "two.stl", tris);
  CfdCase c = geometry_case({20, 20, 20}, {1, 1, 1});
  Obstacle o;
  o.kind = ObstacleKind::Stl;
  o.mesh = std::make_shared<const StlMesh>(read_stl((dir / "two.stl").string(), 1, {0, 0, 0}));
  c.obstacles.push_back(o);
  const Grid g = whole_grid(c);
  const Openings op = compute_openings(c, g);
  // Union: 0.064 + 0.064 - overlap 0.2 x 0.3 x 0.3 (faces on grid lines: exact).
  EXPECT_NEAR(1.0 - open_volume(c, op, g), 0.128 - 0.018, 1e-12);
}

TEST(CfdObstacles, StlBoxHasTheFractionsOfTheSameBox) {
  if (g_world->rank() != 0) return;
  const auto dir = test::make_temp_dir("cfd_stl_box");
  const std::array<double, 3> lo{0.213, 0.171, 0.05}, hi{0.611, 0.437, 0.333};
  write_binary(dir / "box.stl", cube_triangles(lo, hi));
  CfdCase a = geometry_case({10, 8, 6}, {1, 0.8, 0.6});
  CfdCase b = a;
  Obstacle box;
  box.kind = ObstacleKind::Box;
  box.lo = lo;
  box.hi = hi;
  a.obstacles.push_back(box);
  Obstacle stl;
  stl.kind = ObstacleKind::Stl;
  stl.mesh = std::make_shared<const StlMesh>(read_stl((dir / "box.stl").string(), 1, {0, 0, 0}));
  b.obstacles.push_back(stl);
  const Grid g = whole_grid(a);
  const Openings oa = compute_openings(a, g), ob = compute_openings(b, g);
  double diff = 0;
  for (std::size_t I = 0; I < g.total; ++I) {
    diff = std::max(diff, std::fabs(oa.vf[I] - ob.vf[I]));
    for (int d = 0; d < 3; ++d) diff = std::max(diff, std::fabs(oa.af[d][I] - ob.af[d][I]));
  }
  // Float vertices (binary STL) and the 1e-9 offset of the STL's lines: 1e-6 of a cell.
  EXPECT_LT(diff, 1e-6);
  // Along the rays (z) the box is exact; across (x, y) it is sampled at 8 x 8 points per cell:
  // the cut cells' x-y coverage is a multiple of 1/8 off by at most 1/8 per cut row.
  const double exact = 0.48 - (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]);
  const double sampling = (2 * 0.1 * 0.8 + 2 * 0.1 * 1.0) / 8 * (hi[2] - lo[2]);
  EXPECT_NEAR(open_volume(a, oa, g), exact, sampling);
}

TEST(CfdObstacles, GridAlignedBoxClosesExactlyItsCells) {
  if (g_world->rank() != 0) return;
  CfdCase c = geometry_case({10, 10, 10}, {1, 1, 1});
  Obstacle box;
  box.kind = ObstacleKind::Box;
  box.lo = {0.2, 0.3, 0.0};
  box.hi = {0.5, 0.6, 0.4};
  c.obstacles.push_back(box);
  const Grid g = whole_grid(c);
  const Openings o = compute_openings(c, g);
  EXPECT_NEAR(open_volume(c, o, g), 1 - 0.3 * 0.3 * 0.4, 1e-12);
  for (int k = 0; k < 10; ++k)
    for (int j = 0; j < 10; ++j)
      for (int i = 0; i < 10; ++i) {
        const bool solid = i >= 2 && i < 5 && j >= 3 && j < 6 && k < 4;
        EXPECT_EQ(o.vf[g.at(i, j, k)], solid ? 0.0 : 1.0) << i << " " << j << " " << k;
        // The -x face of cell (5, 4, 1) is the box's side: closed (its cell behind is).
      }
  EXPECT_EQ(o.af[0][g.at(5, 4, 1)], 0.0);
  EXPECT_EQ(o.af[0][g.at(6, 4, 1)], 1.0);
  EXPECT_EQ(o.af[2][g.at(3, 4, 4)], 0.0); // the top face of the box
  EXPECT_EQ(o.af[2][g.at(3, 4, 5)], 1.0);
}

TEST(CfdObstacles, OpenVolumeAroundADiscAndAnStlSphere) {
  if (g_world->rank() != 0) return;
  // Disc (2-D): r = 6 cells. Cells left with less than kMinOpenVolume open are closed: at most
  // that share of each cell the circle crosses (fewer than 2 x perimeter / h cells) is added to
  // the solid; the midpoint sampling across the lines adds much less (the -1 % side).
  CfdCase c;
  c.dim = 2;
  c.cells = {40, 40, 1};
  c.size = {1, 1, 1.0 / 40};
  Obstacle disc;
  disc.kind = ObstacleKind::Cylinder;
  disc.center = {0.5, 0.45, 0};
  disc.radius = 0.15;
  c.obstacles.push_back(disc);
  Grid g = whole_grid(c);
  Openings o = compute_openings(c, g);
  const double h = 1.0 / 40, area = M_PI * 0.15 * 0.15;
  const double closure = kMinOpenVolume * 2 * (2 * M_PI * 0.15 / h) * h * h;
  const double solid2 = 1.0 - open_volume(c, o, g) / c.size[2];
  EXPECT_GE(solid2, area - 0.01 * area);
  EXPECT_LE(solid2, area + closure);
  // Sphere from an STL (1,280 triangles): the polyhedron's own volume is the reference.
  const auto dir = test::make_temp_dir("cfd_sphere");
  const auto tris = sphere_triangles({0.5, 0.5, 0.45}, 0.3, 3);
  write_ascii(dir / "sphere.stl", tris);
  CfdCase s = geometry_case({20, 20, 20}, {1, 1, 1});
  Obstacle sp;
  sp.kind = ObstacleKind::Stl;
  sp.mesh = std::make_shared<const StlMesh>(read_stl((dir / "sphere.stl").string(), 1, {0, 0, 0}));
  s.obstacles.push_back(sp);
  g = whole_grid(s);
  o = compute_openings(s, g);
  const double vol = enclosed_volume(tris), h3 = 0.05 * 0.05 * 0.05;
  const double surface = 4 * M_PI * 0.3 * 0.3;
  const double solid3 = 1.0 - open_volume(s, o, g);
  EXPECT_GE(solid3, vol - 0.01 * vol);
  EXPECT_LE(solid3, vol + kMinOpenVolume * 2 * (surface / (0.05 * 0.05)) * h3);
}

/// Water at rest in a 2-D tank (0.6 m deep) around a grid-aligned block on the floor and a
/// submerged disc (cut cells): pressure probes at depth, a height gauge.
CfdCase tank_with_obstacles() {
  CfdCase c = cfdtest::water_tank(0.6);
  Obstacle block;
  block.kind = ObstacleKind::Box;
  block.label = "block";
  block.lo = {0.2, 0};
  block.hi = {0.4, 0.2};
  Obstacle disc;
  disc.kind = ObstacleKind::Cylinder;
  disc.label = "disc";
  disc.center = {0.7, 0.32};
  disc.radius = 0.12;
  c.obstacles = {block, disc};
  c.probes = {{"H", ProbeKind::Height, {0.05, 0, 0}},
              {"Pfloor", ProbeKind::Pressure, {0.1, 0.025, 0}},
              {"Ptop", ProbeKind::Pressure, {0.3, 0.225, 0}},
              {"Pdisc", ProbeKind::Pressure, {0.7, 0.44 + 0.005, 0}},
              {"V", ProbeKind::Velocity, {0.5, 0.3, 0}}};
  c.probe_interval = 0.1;
  return c;
}

TEST(CfdObstacles, WaterAtRestAroundObstaclesStaysAtRestWithHydrostaticProbes) {
  const CfdCase c = tank_with_obstacles();
  const auto dir = cfdtest::shared_dir("tank_obstacles");
  CfdRunInfo info;
  const RunSummary r = cfdtest::run_case(c, *g_world, dir.string(), 1, &info);
  ASSERT_TRUE(r.normal_termination) << r.error;
  EXPECT_LT(std::fabs(info.liquid_volume - info.liquid_volume_initial),
            1e-12 * info.liquid_volume_initial);
  if (g_world->rank() != 0) return;
  std::vector<std::string> header;
  const auto cols = cfdtest::read_csv(dir / "probes.csv", &header);
  const std::vector<std::string> want = {"time", "H", "Pfloor", "Ptop", "Pdisc", "V_u", "V_v"};
  ASSERT_EQ(header, want);
  // Rows at t = 0, the first steps past 0.1 and 0.2, and the end.
  ASSERT_EQ(cols[0].size(), 4u);
  EXPECT_EQ(cols[0][0], 0.0);
  EXPECT_GE(cols[0][1], 0.1);
  EXPECT_DOUBLE_EQ(cols[0].back(), 0.3);
  const std::size_t last = cols[0].size() - 1;
  // Gauge over open floor: the initial depth (a face-aligned surface, exact).
  EXPECT_NEAR(cols[1][last], 0.6, 1e-12);
  // Pressures are relative to the pinned cell (0, 0), whose centre is at y = 0.025: the
  // hydrostatic differences rho g dy, exact for a linear field interpolated linearly (1e-9
  // relative: the solver's tolerance).
  const double rg = 1000 * 9.81;
  EXPECT_NEAR(cols[2][last], 0.0, 1e-9 * rg);
  EXPECT_NEAR(cols[3][last], -rg * 0.2, 1e-9 * rg);
  EXPECT_NEAR(cols[4][last], -rg * 0.42, 1e-9 * rg);
  // At rest (the step's velocity from gravity is removed by the projection to round-off).
  EXPECT_LT(std::fabs(cols[5][last]) + std::fabs(cols[6][last]), 1e-8);
}

TEST(CfdObstacles, DamBreakAroundObstaclesConservesTheLiquid) {
  CfdCase c = tank_with_obstacles();
  c.size = {0.6, 0.3, 0.005};
  c.cells = {60, 30, 1};
  c.initial_liquid = {{{0, 0, 0}, {0.15, 0.2, 0.005}}};
  c.obstacles[0].lo = {0.35, 0};
  c.obstacles[0].hi = {0.4, 0.05};
  c.obstacles[1].center = {0.5, 0.12};
  c.obstacles[1].radius = 0.03;
  c.probes = {{"H", ProbeKind::Height, {0.45, 0, 0}}};
  c.probe_interval = 0;
  c.end_time = 0.35;
  c.cfl = 0.25;
  c.pressure_tolerance = 1e-8;
  const auto dir = cfdtest::shared_dir("dam_obstacles");
  CfdRunInfo info;
  const RunSummary r = cfdtest::run_case(c, *g_world, dir.string(), 2, &info);
  ASSERT_TRUE(r.normal_termination) << r.error;
  // Flux form through the open areas into the open volumes: conserved to round-off.
  EXPECT_LT(std::fabs(info.liquid_volume - info.liquid_volume_initial),
            1e-12 * info.liquid_volume_initial);
  EXPECT_GE(info.fraction_min, -1e-12);
  EXPECT_LT(info.fraction_max, 1 + 1e-6);
  EXPECT_LT(info.max_divergence, 1e-6);
  if (g_world->rank() != 0) return;
  // The surge passed the block: the gauge behind it got wet (more than half a cell of water).
  const auto cols = cfdtest::read_csv(dir / "probes.csv");
  ASSERT_EQ(cols.size(), 2u);
  EXPECT_EQ(cols[0].size(), static_cast<std::size_t>(info.steps) + 1); // every step + the end
  EXPECT_GT(*std::max_element(cols[1].begin(), cols[1].end()), 0.005);
}

TEST(CfdCaseFile, ObstacleAndProbeErrorsNameTheProblem) {
  const auto dir = cfdtest::shared_dir("obstacle_errors");
  if (g_world->rank() == 0) {
    auto open = cube_triangles({0.2, 0.2, 0.2}, {0.6, 0.6, 0.6});
    open.pop_back();
    write_ascii(dir / "open.stl", open);
    // A plate 0.02 thick in cells of 0.1.
    write_ascii(dir / "plate.stl", cube_triangles({0.2, 0.2, 0.41}, {0.8, 0.8, 0.43}));
  }
  g_world->barrier();
  const std::string head3 = "dimension: 3\ndomain: {size: [1, 1, 1], cells: [10, 10, 10]}\n"
                            "fluid: {density: 1, viscosity: 0.1}\n";
  const std::string head2 = "dimension: 2\ndomain: {size: [1, 1], cells: [10, 10]}\n"
                            "fluid: {density: 1, viscosity: 0.1}\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {head3 + "obstacles:\n  - {stl: open.stl}\n", "not a closed surface"},
      {head3 + "obstacles:\n  - {name: plate, stl: plate.stl}\n", "(plate) is 0.2 cells thick"},
      {head2 + "obstacles:\n  - {box: {min: [0.3, 0.3], max: [0.32, 0.7]}}\n", "cells thick"},
      {head2 + "obstacles:\n  - {box: {min: [2, 0], max: [3, 1]}}\n", "outside the domain"},
      {head3 + "obstacles:\n  - {cylinder: {center: [0.5, 0.5, 0.5], radius: 0.2}}\n",
       "needs axis"},
      {head2 + "obstacles:\n  - {box: {min: [0, 0], max: [1, 1]}, stl: a.stl}\n", "one of box"},
      {head2 + "probes:\n  - {name: P, kind: pressure, at: [0.5, 1.5]}\n", "outside the domain"},
      {head2 + "probes:\n  - {name: P, kind: presure, at: [0.5, 0.5]}\n", "probes[0].kind"},
      {head2 + "probes:\n  - {name: P, kind: height, at: [0.5]}\n  - {name: P, kind: height, "
               "at: [0.6]}\n",
       "used twice"},
  };
  {
    // A sill thinner than a cell standing on the floor cannot leak under itself: accepted.
    const auto path = dir / "sill.yaml";
    if (g_world->rank() == 0)
      std::ofstream(path) << head2 << "obstacles:\n  - {box: {min: [0.3, 0], max: [0.7, 0.05]}}\n";
    g_world->barrier();
    EXPECT_NO_THROW((void)read_cfd_case(path.string()));
  }
  cfdtest::expect_case_errors(dir, cases);
}

TEST(CfdCaseFile, ObstaclesAndProbesRoundTrip) {
  const auto dir = cfdtest::shared_dir("obstacle_roundtrip");
  if (g_world->rank() == 0) write_binary(dir / "cube.stl", cube_triangles({0, 0, 0}, {1, 1, 1}));
  g_world->barrier();
  const auto path = dir / "case.yaml";
  if (g_world->rank() == 0)
    std::ofstream(path) << "dimension: 3\ndomain: {size: [2, 1, 1], cells: [20, 10, 10], "
                           "obstacle_samples: 4}\nfluid: {density: 1, viscosity: 0.1}\n"
                           "obstacles:\n  - {name: cube, stl: cube.stl, scale: 0.3, translate: "
                           "[1, 0.2, 0]}\n  - {cylinder: {center: [0.5, 0.5, 0.5], radius: 0.2, "
                           "axis: y, length: 0.6}}\nprobes:\n  - {name: H1, kind: height, at: "
                           "[0.3, 0.5]}\n  - {kind: velocity, at: [1.5, 0.5, 0.5]}\n"
                           "output: {probe_interval: 0.01}\n";
  g_world->barrier();
  const CfdCase a = read_cfd_case(path.string());
  ASSERT_EQ(a.obstacles.size(), 2u);
  EXPECT_EQ(a.obstacles[0].mesh->triangles.size(), 12u);
  EXPECT_DOUBLE_EQ(a.obstacles[0].mesh->hi[0], 1.3);
  EXPECT_EQ(a.obstacles[1].axis, 1);
  EXPECT_EQ(a.obstacle_samples, 4);
  ASSERT_EQ(a.probes.size(), 2u);
  EXPECT_EQ(a.probes[1].name, "probe2");
  EXPECT_DOUBLE_EQ(a.probe_interval, 0.01);
  const auto again = dir / "again.yaml";
  if (g_world->rank() == 0) std::ofstream(again) << cfd_case_yaml(a);
  g_world->barrier();
  const CfdCase b = read_cfd_case(again.string());
  EXPECT_EQ(cfd_case_yaml(a), cfd_case_yaml(b));
}

TEST(CfdCli, PreviewWritesTheOpenFractionsAndASummary) {
  if (g_world->rank() != 0) return;
  const auto dir = test::make_temp_dir("cfd_preview");
  std::ofstream(dir / "case.yaml")
      << "dimension: 2\ndomain: {size: [1, 0.5], cells: [40, 20]}\nfluids:\n  liquid: {density: "
         "1000, viscosity: 1.0e-3}\n  gas: {density: 1.2, viscosity: 1.8e-5}\ninitial:\n  "
         "liquid:\n    - {min: [0, 0], max: [0.3, 0.25]}\nobstacles:\n  - {box: {min: [0.5, 0], "
         "max: [0.6, 0.1]}}\n";
  const auto r =
      test::run_command(cfdtest::clean_env() + test::parcae_binary().string() + " cfd preview " +
                            (dir / "case.yaml").string() + " -o " + (dir / "pv").string() + " 2>&1",
                        60);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  // The block closes 4 x 4 cells; the liquid fills 0.3 x 0.25 (per unit depth).
  EXPECT_NE(r.output.find("800 cells: 16 closed, 0 cut by a wall, 784 open"), std::string::npos)
      << r.output;
  EXPECT_TRUE(std::filesystem::exists(dir / "pv" / "states" / "preview_0000.pvti"));
  std::ifstream in(dir / "pv" / "states" / "preview_0000_r00000.vti");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("Name=\"open_fraction\""), std::string::npos);
}

} // namespace
