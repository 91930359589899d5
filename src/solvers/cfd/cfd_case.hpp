#pragma once
// A CFD case: the box, its grid, fluids, boundary conditions, initial liquid regions, time and
// output controls. Read from a YAML case file (read_cfd_case, docs/cfd.md) or built by the
// templates (cavity_case, dambreak_case).
#include <array>
#include <string>
#include <vector>

#include "solvers/cfd/geometry.hpp"

namespace parcae::cfd {

/// Outflow is a pressure boundary at p = 0 (zero-gradient velocity and fraction); Pressure
/// the same at a given (or hydrostatic) pressure.
enum class BcKind { Wall, Symmetry, Inflow, Outflow, Pressure };
/// A boundary where the pressure is given (the velocity follows from it).
inline bool pressure_boundary(BcKind k) {
  return k == BcKind::Outflow || k == BcKind::Pressure;
}

struct BoundaryCondition {
  BcKind kind = BcKind::Wall;
  std::array<double, 3> velocity{0, 0, 0}; ///< wall (tangential) or inflow velocity
  double fraction = 1.0;                   ///< inflow liquid fraction
  /// Inflow: a volume flow rate instead of the velocity (m^3/s; per unit depth in 2-D): the
  /// normal velocity is the rate over the face's open (wetted) area. 0: use `velocity`.
  double flow_rate = 0;
  /// Inflow: liquid below this height (vertical axis: y in 2-D, z in 3-D) enters, nothing above
  /// (< 0: the whole face, with `fraction`). Pressure: the liquid level of the hydrostatic
  /// pressure (< 0: uniform pressure).
  double height = -1;
  /// Pressure: the pressure; when hydrostatic, the pressure at the top of the domain (where an
  /// open roof has p = 0), the gas's and the liquid's weight added below it.
  double pressure = 0;
  /// Set by the solver: -gravity along the vertical axis and the domain's top (hydrostatic
  /// pressure boundaries).
  double gravity_down = 0, top = 0, cell_height = 0;
};

/// The pressure of a pressure boundary at height z (a cell centre): `pressure`, plus, when
/// hydrostatic, the weight of the column above z as the interior balances it: cell by cell
/// with the density of the mean wetted share of the two cells of each face (a level inside a
/// cell is then at rest too), half a cell at the roof.
double boundary_pressure(const BoundaryCondition& b, double z, double rho_liquid, double rho_gas);

struct Fluid {
  double density = 1.0;
  double viscosity = 0.01; ///< dynamic viscosity
};

/// An axis-aligned box of initial liquid.
struct Region {
  std::array<double, 3> lo{0, 0, 0}, hi{0, 0, 0};
};

/// A measuring point written to probes.csv: the liquid depth along the vertical line through
/// `at` (height), the pressure at `at`, or the velocity at `at`.
enum class ProbeKind { Height, Pressure, Velocity };
struct Probe {
  std::string name;
  ProbeKind kind = ProbeKind::Pressure;
  std::array<double, 3> at{0, 0, 0};
};

struct CfdCase {
  std::string name = "case";
  int dim = 2;
  std::array<double, 3> size{1, 1, 1};
  std::array<int, 3> cells{32, 32, 1};
  Fluid liquid;
  Fluid gas{1.0, 0.01};
  /// true: two fluids (liquid and gas) with a volume-of-fluid interface; false: one fluid (the
  /// liquid) fills the box.
  bool free_surface = false;
  std::vector<Region> initial_liquid;
  /// Solid obstacles (geometry.hpp); rays per cell and direction across the vertical lines.
  std::vector<Obstacle> obstacles;
  int obstacle_samples = 8;
  std::vector<Probe> probes;
  double probe_interval = 0; ///< probes.csv every interval (0: every step)
  std::array<double, 3> gravity{0, 0, 0};
  /// xmin, xmax, ymin, ymax, zmin, zmax
  std::array<BoundaryCondition, 6> boundaries{};
  double end_time = 1.0;
  double cfl = 0.5;            ///< advective + viscous step limit factor
  double steady_tolerance = 0; ///< stop when max |du/dt| * L / U^2 falls below (0 = never)
  long max_steps = 10000000;
  double pressure_tolerance = 1e-8;
  int pressure_max_iterations = 500;
  std::string preconditioner = "pfmg";
  double output_interval = 0; ///< VTK states every interval (0 = first and last only)
  bool centerlines = false;   ///< cavity centreline profiles and vortex centre
  double reference_velocity = 1.0;
  double thinc_beta = 3.5; ///< THINC interface sharpness (VOF)

  /// Grid spacing of direction d.
  [[nodiscard]] double h(int d) const { return size[d] / cells[d]; }
};

/// Reads and validates a YAML case file; errors (InputError) name the file and the key.
CfdCase read_cfd_case(const std::string& path);
/// The case as YAML (what the templates write; read_cfd_case reads it back unchanged).
std::string cfd_case_yaml(const CfdCase& c);
/// Lid-driven cavity: unit square (cube), lid y = 1 moving with speed 1 in +x, Re = 1/nu.
CfdCase cavity_case(double re, int cells, int dim = 2);
/// Dam break: water column a x 2a (a = 0.05715 m, Martin & Moyce) at the left wall of a tank
/// 4a... wide, air above, gravity -y.
CfdCase dambreak_case(int cells_per_a, double end_time);

} // namespace parcae::cfd
