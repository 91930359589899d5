// Open boundaries of the CFD solver: inflow (velocity, flow rate, free-surface level), outflow,
// given and hydrostatic pressures, against plane Poiseuille flow and conservation.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>

#include "cfd_test.hpp"
#include "solvers/cfd/cfd_case.hpp"

namespace {

using namespace parcae;
using namespace parcae::cfd;
using cfdtest::g_world;

/// A 2-D channel 3 x 1 (40 x 16 cells), one fluid of kinematic viscosity 0.1 (Re = U H / nu =
/// 10 at U = 1), no-slip walls at y = 0 and 1; velocity probes across x = `x`.
CfdCase channel(double x) {
  CfdCase c;
  c.name = "channel";
  c.dim = 2;
  c.size = {3, 1, 3.0 / 48};
  c.cells = {48, 16, 1};
  c.liquid = {1.0, 0.1};
  c.gas = c.liquid;
  c.end_time = 30;
  c.cfl = 0.5;
  c.pressure_tolerance = 1e-10;
  for (int k = 0; k < 5; ++k) {
    const double y = (k + 0.5) / 5; // 0.1 ... 0.9
    c.probes.push_back({"u" + std::to_string(k), ProbeKind::Velocity, {x, y, 0}});
  }
  c.probe_interval = 1.0;
  return c;
}

/// The last row of probes.csv: the u components of the five probes.
std::vector<double> last_profile(const std::filesystem::path& dir) {
  const auto cols = cfdtest::read_csv(dir / "probes.csv");
  std::vector<double> u;
  for (int k = 0; k < 5; ++k) u.push_back(cols.at(1 + 2 * k).back());
  return u;
}

double poiseuille(double y, double umax) {
  return 4 * umax * y * (1 - y);
}

TEST(OpenBoundaries, InflowChannelDevelopsPoiseuilleWithVelocityOrFlowRate) {
  // Uniform inflow U = 1 at x = 0, outflow (p = 0) at x = 3: developed (entrance length about
  // 0.05 Re H + 0.6 H < 2) the profile is 1.5 U at the centre, 6 U y (1 - y).
  CfdCase c = channel(2.5);
  c.boundaries[0].kind = BcKind::Inflow;
  c.boundaries[0].velocity = {1, 0, 0};
  c.boundaries[1].kind = BcKind::Outflow;
  c.steady_tolerance = 1e-7;
  CfdRunInfo info;
  const auto dir = cfdtest::run_ok(c, "channel_inflow", &info);
  if (::testing::Test::HasFailure()) return;
  EXPECT_TRUE(info.steady);
  EXPECT_LT(info.max_divergence, 1e-8);
  // The same flow given as a rate: Q = U H (per unit depth in 2-D) over the face's 16 cells.
  CfdCase q = c;
  q.boundaries[0].velocity = {0, 0, 0};
  q.boundaries[0].flow_rate = 1.0;
  const auto dirq = cfdtest::shared_dir("channel_rate");
  const RunSummary rq = cfdtest::run_case(q, *g_world, dirq.string(), 1);
  ASSERT_TRUE(rq.normal_termination) << rq.error;
  if (g_world->rank() != 0) return;
  const auto u = last_profile(dir), uq = last_profile(dirq);
  for (int k = 0; k < 5; ++k) {
    const double y = (k + 0.5) / 5;
    // Second-order scheme, 16 cells across, the wall half a cell from the first velocity:
    // 2 % of U.
    EXPECT_NEAR(u[k], poiseuille(y, 1.5), 0.02) << "y = " << y;
    EXPECT_NEAR(uq[k], u[k], 1e-9) << "y = " << y;
  }
}

TEST(OpenBoundaries, PressureDrivenChannelMatchesPoiseuille) {
  // p = dp at x = 0, p = 0 at x = L: u_max = dp / L H^2 / (8 mu) = 1 for dp = 8 mu L = 2.4.
  CfdCase c = channel(1.5);
  c.boundaries[0].kind = BcKind::Pressure;
  c.boundaries[0].pressure = 2.4;
  c.boundaries[1].kind = BcKind::Pressure;
  c.boundaries[1].pressure = 0;
  c.steady_tolerance = 1e-7;
  CfdRunInfo info;
  const auto dir = cfdtest::run_ok(c, "channel_pressure", &info);
  if (::testing::Test::HasFailure()) return;
  EXPECT_TRUE(info.steady);
  if (g_world->rank() != 0) return;
  const auto u = last_profile(dir);
  for (int k = 0; k < 5; ++k) {
    const double y = (k + 0.5) / 5;
    EXPECT_NEAR(u[k], poiseuille(y, 1.0), 0.015) << "y = " << y;
  }
}

using cfdtest::water_tank;

/// Water `level` deep in the tank whose right wall is replaced by the hydrostatic pressure of
/// the same level, the roof open: the water stays at rest (velocity beside the boundary below
/// 1e-7 m/s), its volume and the gauge's depth stay (1e-9).
void expect_level_held(double level, double end_time, const std::string& tag) {
  CfdCase c = water_tank(level);
  c.boundaries[1].kind = BcKind::Pressure;
  c.boundaries[1].height = level;
  c.boundaries[3].kind = BcKind::Outflow;
  c.end_time = end_time;
  c.probes = {{"H", ProbeKind::Height, {0.5, 0, 0}}, {"V", ProbeKind::Velocity, {0.97, 0.25, 0}}};
  CfdRunInfo info;
  const auto dir = cfdtest::run_ok(c, tag, &info);
  if (::testing::Test::HasFailure()) return;
  EXPECT_NEAR(info.liquid_volume, info.liquid_volume_initial, 1e-9 * info.liquid_volume_initial);
  if (g_world->rank() != 0) return;
  const auto cols = cfdtest::read_csv(dir / "probes.csv");
  EXPECT_NEAR(cols[1].back(), level, 1e-9);
  EXPECT_LT(std::fabs(cols[2].back()) + std::fabs(cols[3].back()), 1e-7);
}

TEST(OpenBoundaries, HydrostaticPressureBoundaryHoldsItsLevel) {
  // The level on a face (0.5): the boundary's pressures at the cell centres are the interior's
  // discrete hydrostatic ones (the face across the level has the mean density).
  expect_level_held(0.5, 0.3, "hydrostatic_boundary");
}

TEST(OpenBoundaries, HydrostaticLevelInsideACellIsAtRestToo) {
  // The level half-way up a cell (0.525 with cells of 0.05): the boundary's column is summed
  // as the interior balances it (the mean wetted share of each face's two cells).
  expect_level_held(0.525, 0.2, "hydrostatic_midcell");
}

TEST(OpenBoundaries, AHydrostaticLevelFillsAnEmptyTankCalmly) {
  // Air inside, a 0.2 m level at the right boundary: water flows in. The boundary's face
  // density is the mixture of the air inside and the water held outside (with the air's, the
  // 2 kPa head accelerated the face 800 times too fast: the step collapsed to 1e-6 s).
  CfdCase c = water_tank(0);
  c.boundaries[1].kind = BcKind::Pressure;
  c.boundaries[1].height = 0.2;
  c.boundaries[3].kind = BcKind::Outflow;
  c.end_time = 0.3;
  CfdRunInfo info;
  cfdtest::run_ok(c, "level_fills_tank", &info);
  // Gravity-wave speed sqrt(g 0.2) = 1.4 m/s on cells of 0.05 m: a few hundred steps.
  EXPECT_LT(info.steps, 1000);
  EXPECT_GT(info.liquid_volume, 0.0);
  // Inflows into a cell are not limited (docs/cfd.md): 1.3e-4 over 1 measured here.
  EXPECT_LT(info.fraction_max, 1 + 1e-3);
}

TEST(OpenBoundaries, FreeSurfaceInflowAddsItsFlowRate) {
  // Liquid enters below y = 0.2 at 0.5 m/s through the left face of an empty tank (the air
  // leaves through the open roof): the liquid volume grows by V H t (per unit depth), exactly
  // as the fluxes through the inflow faces carry it.
  CfdCase c = water_tank(0);
  c.size = {2, 1, 0.05};
  c.cells = {40, 20, 1};
  c.end_time = 0.4;
  c.boundaries[0].kind = BcKind::Inflow;
  c.boundaries[0].velocity = {0.5, 0, 0};
  c.boundaries[0].height = 0.2;
  c.boundaries[3].kind = BcKind::Outflow;
  CfdRunInfo info;
  const auto dir = cfdtest::run_ok(c, "surface_inflow", &info);
  if (::testing::Test::HasFailure()) return;
  const double expect = 0.5 * 0.2 * info.time * c.size[2];
  EXPECT_NEAR(info.liquid_volume, expect, 1e-9 * expect);
  EXPECT_GE(info.fraction_min, -1e-12);
  // A level inside a cell (0.23: 0.6 of the fifth cell): its face lets in 0.6 of the flow.
  c.boundaries[0].height = 0.23;
  const auto dir2 = cfdtest::shared_dir("surface_inflow_midcell");
  const RunSummary r2 = cfdtest::run_case(c, *g_world, dir2.string(), 1, &info);
  ASSERT_TRUE(r2.normal_termination) << r2.error;
  const double expect2 = 0.5 * 0.23 * info.time * c.size[2];
  EXPECT_NEAR(info.liquid_volume, expect2, 1e-9 * expect2);
}

TEST(OpenBoundaries, AnOpenRoofLetsInAirNotWater) {
  // A water column reaching the open roof collapses: air enters through the roof above it
  // (liquid entering there would be created: the ghost's fraction must be the air's), and the
  // liquid volume stays what it was (the water falls away from the roof).
  CfdCase c = water_tank(0);
  c.initial_liquid.push_back({{0, 0, 0}, {0.25, 1.0, 0.05}});
  c.boundaries[3].kind = BcKind::Outflow;
  c.end_time = 0.25;
  CfdRunInfo info;
  const auto dir = cfdtest::run_ok(c, "open_roof", &info);
  if (::testing::Test::HasFailure()) return;
  // None created; a splash's worth may leave where the collapsing top moves up (measured
  // 3e-8 relative).
  EXPECT_LE(info.liquid_volume, info.liquid_volume_initial * (1 + 1e-12));
  EXPECT_GT(info.liquid_volume, info.liquid_volume_initial * (1 - 1e-6));
}

} // namespace
