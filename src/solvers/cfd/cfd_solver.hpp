#pragma once
// The incompressible (free-surface) Navier-Stokes solver as a parcae::Solver: staggered (MAC)
// grid, block-decomposed over the ranks of RunOptions::comm, projection method with the
// pressure Poisson equation solved by hypre (Struct PCG + PFMG), volume-of-fluid transport of
// the liquid fraction (two-fluid model). See docs/cfd.md.
#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "solvers/cfd/cfd_case.hpp"
#include "solvers/cfd/grid.hpp"
#include "solvers/cfd/kernels.hpp"
#include "solvers/common/solver.hpp"

namespace parcae::linalg {
class Libraries;
class StructPoisson;
} // namespace parcae::linalg

namespace parcae::cfd {

/// A point of a centreline profile (coordinate and velocity, in the case's units).
struct ProfilePoint {
  double s = 0, v = 0;
};

/// Cavity results: centreline profiles (in units of the box size and reference velocity) and
/// the primary vortex (minimum of the stream function).
struct CavityResults {
  std::vector<ProfilePoint> u_vertical;   ///< (y, u) along x = 0.5
  std::vector<ProfilePoint> v_horizontal; ///< (x, v) along y = 0.5
  double psi_min = 0, vortex_x = 0, vortex_y = 0;
};

/// What the run did (besides RunSummary).
struct CfdRunInfo {
  long steps = 0;
  double time = 0;
  double last_dt = 0;
  bool steady = false;
  double max_rate = 0;     ///< last max |du/dt| (lid units)
  long pcg_iterations = 0; ///< total
  int last_pcg_iterations = 0;
  double max_divergence = 0;
  double liquid_volume_initial = 0, liquid_volume = 0; ///< sum f V
  double fraction_min = 0, fraction_max = 1;
  std::size_t halo_bytes_per_step = 0; ///< this rank
  double wall_s = 0;
};

class CfdSolver final : public Solver {
public:
  CfdSolver(CfdCase c, const RunOptions& opt);
  ~CfdSolver() override;

  [[nodiscard]] std::string_view name() const override { return "cfd"; }
  void setup() override;
  bool advance() override;
  void visit_state(StateArchive& ar) override;
  [[nodiscard]] GlobalStats global_stats() const override;
  void write_output() override;
  RunSummary finish() override;

  [[nodiscard]] const Grid& grid() const { return grid_; }
  [[nodiscard]] const CfdRunInfo& info() const { return info_; }
  /// Collective: the cavity centreline profiles and vortex centre (valid on rank 0).
  [[nodiscard]] CavityResults cavity_results() const;
  /// Collective: the whole pressure, fraction or a velocity component at cell centres on rank 0
  /// (global cell order, i fastest).
  [[nodiscard]] std::vector<double> gather_cell_field(const std::string& what) const;
  /// Collective: the liquid volume sum f V (exact sum, independent of the rank count).
  [[nodiscard]] double liquid_volume() const;
  /// Collective: the x position of the liquid front along the bottom row (max x with f > 0.5).
  [[nodiscard]] double front_position() const;

private:
  void initialise_fields();
  void exchange(std::vector<double*> fields, Halo& halo);
  void write_state();
  void pin_pressure();
  void write_history();
  void record_probes(bool force);
  void write_checkpoint_now();
  void restore();
  void progress(bool force);
  double compute_dt();

  CfdCase case_;
  RunOptions opt_;
  par::Comm comm_;
  Grid grid_;
  Mixture mix_;
  std::unique_ptr<linalg::Libraries> libs_;
  std::unique_ptr<linalg::StructPoisson> poisson_;
  std::unique_ptr<Halo> halo_uf_, halo_u_, halo_p_;
  std::array<std::vector<double>, 3> u_, us_;
  std::vector<double> p_, f_, f_new_, coef_, rhs_, sol_;
  Openings open_; ///< obstacles' open fractions (empty: none)
  OpenPtrs op_;
  std::int64_t pin_cell_ = -1;  ///< owned cell pinned in a closed box (-1: not on this rank)
  std::int64_t open_cells_ = 0; ///< global count of open cells
  double next_probe_ = 0, last_probe_ = -1;
  bool singular_ = true;
  double time_ = 0, dt_ = 0, next_output_ = 0, rate_ = 1e300;
  long step_ = 0;
  int state_index_ = 0;
  std::vector<std::pair<double, std::string>> states_;
  CfdRunInfo info_;
  std::chrono::steady_clock::time_point start_, last_progress_;
  double start_time_ = 0;
  bool done_ = false;
  bool interrupted_ = false;
  std::string error_;
  std::string last_checkpoint_;
  int restarted_from_ = -1;
  GlobalStats initial_stats_;
  struct Phases;
  std::unique_ptr<Phases> ph_;
};

/// Runs a case from setup to finish (the `parcae cfd` commands).
RunSummary run_cfd(const CfdCase& c, const RunOptions& opt, CfdRunInfo* info = nullptr,
                   CavityResults* cavity = nullptr);

/// Writes the VTK image pieces of one state (this rank's .vti; rank 0 the .pvti): cell data
/// velocity (cell-centred), pressure, fluid_fraction, and open_fraction where `vf` is given
/// (obstacles). Returns the .pvti name relative to outdir.
std::string write_vtk_state(const par::Comm& comm, const Grid& g, const std::string& outdir,
                            int index, double time, ConstVelocityPtrs u, const double* p,
                            const double* f, const double* vf = nullptr,
                            const std::string& stem_prefix = "cfd");
/// `parcae cfd preview`: the open-fraction field and the initial liquid of a case written to
/// OUT/preview.pvti (+ pieces) without running it; a summary on `log`.
void write_cfd_preview(const CfdCase& c, const par::Comm& comm, const std::string& outdir,
                       std::ostream* log);
/// Writes centerline_u.csv (y,u) and centerline_v.csv (x,v) and vortex.csv (rank 0).
void write_cavity_files(const std::string& outdir, const CavityResults& r);

} // namespace parcae::cfd
