// The CFD solver's step (projection method) and its Solver interface.
#include "solvers/cfd/cfd_solver.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <limits>
#include <omp.h>

#include "core/error.hpp"
#include "linalg/libraries.hpp"
#include "linalg/struct_poisson.hpp"
#include "output/vtk_writer.hpp"
#include "prof/phase.hpp"
#include "solvers/cfd/probes.hpp"

namespace parcae::cfd {

struct CfdSolver::Phases {
  int setup = prof::phase_id("setup");
  int advection = prof::phase_id("advection");
  int viscous = prof::phase_id("viscous");
  int pressure = prof::phase_id("pressure_solve");
  int vof = prof::phase_id("vof");
  int halo = prof::phase_id("halo_exchange");
  int time_step = prof::phase_id("time_step");
  int output = prof::phase_id("output");
  int checkpoint = prof::phase_id("checkpoint");
};

namespace {
/// Fraction of [a, b] inside [lo, hi].
double overlap(double a, double b, double lo, double hi) {
  return std::max(0.0, std::min(b, hi) - std::max(a, lo)) / (b - a);
}
} // namespace

CfdSolver::CfdSolver(CfdCase c, const RunOptions& opt)
    : case_(std::move(c)), opt_(opt), comm_(opt.comm ? *opt.comm : par::Comm()),
      ph_(std::make_unique<Phases>()) {
  mix_ = {case_.liquid.density, case_.gas.density, case_.liquid.viscosity, case_.gas.viscosity};
  if (!case_.free_surface) {
    mix_.rho_g = mix_.rho_l;
    mix_.mu_g = mix_.mu_l;
  }
  if (opt_.threads > 0) omp_set_num_threads(opt_.threads);
  for (auto& b : case_.boundaries) {
    b.gravity_down = -case_.gravity[case_.dim - 1];
    b.top = case_.size[case_.dim - 1];
    b.cell_height = case_.h(case_.dim - 1);
  }
}

CfdSolver::~CfdSolver() {
  // hypre objects before the libraries are finalised.
  poisson_.reset();
  libs_.reset();
}

void CfdSolver::initialise_fields() {
  const Grid& g = grid_;
  for (int d = 0; d < 3; ++d) {
    u_[d].assign(g.total, 0.0);
    us_[d].assign(g.total, 0.0);
  }
  p_.assign(g.total, 0.0);
  f_.assign(g.total, 1.0);
  f_new_.assign(g.total, 1.0);
  if (!case_.obstacles.empty()) {
    // Open fractions from the obstacles; the initial liquid fills the open part of its boxes.
    std::vector<double> liquid;
    open_ = compute_openings(case_, g, case_.free_surface ? &liquid : nullptr);
    op_ = open_ptrs(open_);
    if (case_.free_surface)
      for_box(owned_box(g), [&](int i, int j, int k) {
        const std::ptrdiff_t I = g.at(i, j, k);
        f_[I] = liquid[I];
      });
    return;
  }
  if (!case_.free_surface) return;
  for_box(owned_box(g), [&](int i, int j, int k) {
    const std::array<int, 3> ijk{i, j, k};
    double frac = 0;
    for (const Region& r : case_.initial_liquid) {
      double v = 1;
      for (int d = 0; d < g.dim; ++d) {
        const double a = (g.offset[d] + ijk[d]) * g.h[d];
        v *= overlap(a, a + g.h[d], r.lo[d], r.hi[d]);
      }
      frac += v;
    }
    f_[g.at(i, j, k)] = std::min(1.0, frac);
  });
}

void CfdSolver::setup() {
  prof::PhaseScope scope(ph_->setup);
  start_ = last_progress_ = std::chrono::steady_clock::now();
  libs_ = std::make_unique<linalg::Libraries>(comm_);
  const std::array<double, 3> h{case_.h(0), case_.h(1),
                                case_.dim == 3 ? case_.h(2) : case_.size[2]};
  grid_ = make_grid(case_.dim, case_.cells, h, comm_.rank(), comm_.size());
  std::array<int, 3> lo = grid_.offset, hi{};
  for (int d = 0; d < 3; ++d) hi[d] = grid_.offset[d] + grid_.n[d] - 1;
  linalg::StructPoissonOptions po;
  po.rel_tol = case_.pressure_tolerance;
  po.max_iter = case_.pressure_max_iterations;
  po.precond = case_.preconditioner;
  if (!case_.obstacles.empty()) po.pfmg_relax = 1; // closed cells: see StructPoissonOptions
  poisson_ = std::make_unique<linalg::StructPoisson>(comm_, case_.dim, lo, hi, po);
  singular_ = true;
  for (int f = 0; f < 2 * case_.dim; ++f)
    if (pressure_boundary(case_.boundaries[f].kind)) singular_ = false;
  halo_uf_ = std::make_unique<Halo>(comm_, grid_, case_.dim + 1);
  halo_u_ = std::make_unique<Halo>(comm_, grid_, case_.dim);
  halo_p_ = std::make_unique<Halo>(comm_, grid_, 1);
  info_.halo_bytes_per_step = halo_uf_->bytes_per_exchange() + halo_u_->bytes_per_exchange() +
                              halo_p_->bytes_per_exchange();
  initialise_fields();
  {
    // The cell pinned in a closed box: the first open cell in global order.
    std::int64_t first = std::numeric_limits<std::int64_t>::max(), count = 0;
    const Box b = owned_box(grid_);
    for (int k = b.lo[2]; k < b.hi[2]; ++k)
      for (int j = b.lo[1]; j < b.hi[1]; ++j)
        for (int i = b.lo[0]; i < b.hi[0]; ++i) {
          if (op_.any() && op_.vf[grid_.at(i, j, k)] == 0) continue;
          ++count;
          const std::int64_t gi =
              (grid_.offset[0] + i) +
              std::int64_t(grid_.global[0]) *
                  ((grid_.offset[1] + j) + std::int64_t(grid_.global[1]) * (grid_.offset[2] + k));
          first = std::min(first, gi);
        }
    open_cells_ = comm_.sum(count);
    if (open_cells_ == 0)
      throw InputError({opt_.deck_path, 0, "obstacles"}, "the obstacles "
                                                         "close every cell of the domain");
    const std::int64_t global_first = comm_.min(first);
    pin_cell_ = -1;
    if (first == global_first) {
      const std::int64_t i = global_first % grid_.global[0];
      const std::int64_t j = (global_first / grid_.global[0]) % grid_.global[1];
      const std::int64_t k = global_first / (std::int64_t(grid_.global[0]) * grid_.global[1]);
      pin_cell_ = (i - grid_.offset[0]) +
                  std::int64_t(grid_.n[0]) *
                      ((j - grid_.offset[1]) + std::int64_t(grid_.n[1]) * (k - grid_.offset[2]));
    }
  }
  for (int face = 0; face < 2 * case_.dim; ++face) {
    // An inflow's flow rate becomes its normal velocity over the open (wetted) area.
    BoundaryCondition& b = case_.boundaries[face];
    if (b.kind != BcKind::Inflow || b.flow_rate == 0) continue;
    const double area = comm_.sum(inflow_area(grid_, b, face, op_)).result();
    if (!(area > 0))
      throw InputError({opt_.deck_path, 0, "boundaries"},
                       "an inflow with a flow rate has no open area below its height");
    b.velocity[face / 2] = (face % 2 == 0 ? 1.0 : -1.0) * b.flow_rate / area;
  }
  rhs_.assign(grid_.owned(), 0.0);
  sol_.assign(grid_.owned(), 0.0);
  {
    prof::PhaseScope hs(ph_->halo);
    exchange({f_.data()}, *halo_p_);
  }
  fill_boundary_ghosts(grid_, case_.boundaries, {u_[0].data(), u_[1].data(), u_[2].data()},
                       f_.data());
  if (!case_.free_surface) {
    pressure_matrix(grid_, case_.boundaries, f_.data(), mix_, coef_, op_);
    pin_pressure();
    poisson_->set_matrix(coef_);
  }
  if (comm_.rank() == 0)
    std::filesystem::create_directories(std::filesystem::path(opt_.outdir) / "states");
  comm_.barrier();
  info_.liquid_volume_initial = liquid_volume();
  if (!opt_.restart_from.empty()) {
    restore();
  } else {
    prof::PhaseScope os(ph_->output);
    write_state();
  }
  next_output_ =
      case_.output_interval > 0
          ? (std::floor(time_ / case_.output_interval + 1e-9) + 1) * case_.output_interval
          : case_.end_time;
  start_time_ = time_;
  if (opt_.restart_from.empty()) next_probe_ = 0; // restarts keep the checkpoint's
  if (!case_.probes.empty() && comm_.rank() == 0 && opt_.restart_from.empty()) {
    std::ofstream o(std::filesystem::path(opt_.outdir) / "probes.csv", std::ios::trunc);
    o << "time";
    for (const auto& col : probe_columns(case_.probes, case_.dim)) o << ',' << col;
    o << '\n';
  }
  if (opt_.log) {
    *opt_.log << fmt::format(
        "CFD {}: {}D, {} cells ({}), {} ranks as {}x{}x{} blocks, {} OpenMP thread(s) per rank\n",
        case_.name, case_.dim, case_.cells[0] * long(case_.cells[1]) * case_.cells[2],
        case_.dim == 3 ? fmt::format("{}x{}x{}", case_.cells[0], case_.cells[1], case_.cells[2])
                       : fmt::format("{}x{}", case_.cells[0], case_.cells[1]),
        comm_.size(), grid_.ranks[0], grid_.ranks[1], grid_.ranks[2], omp_get_max_threads());
    *opt_.log << fmt::format("  {}; pressure: hypre Struct PCG + {} (rel. tol {:g}); {}\n",
                             case_.free_surface ? "two-fluid VOF (THINC)" : "one fluid",
                             case_.preconditioner, case_.pressure_tolerance,
                             linalg::library_versions());
    *opt_.log << fmt::format(
        "  halo {} B per step on rank 0; end time {:g}{}\n", info_.halo_bytes_per_step,
        case_.end_time,
        case_.steady_tolerance > 0
            ? fmt::format(" or steady (|du/dt| L/U^2 < {:g})", case_.steady_tolerance)
            : std::string());
  }
}

void CfdSolver::pin_pressure() {
  // A closed box makes the pressure matrix singular (constants in its null space), and PCG
  // with the PFMG preconditioner can break down on it with variable coefficients. Cell
  // (0, 0, 0) gets the diagonal term of a p = 0 face on its -x side: the system is SPD, and as
  // the right-hand side has zero sum (made so in advance()), the flux through that face is
  // zero in the solution, which therefore solves the Neumann problem (p fixed to a constant).
  if (!singular_ || pin_cell_ < 0) return;
  const int ns = 2 * grid_.dim + 1;
  const std::int64_t i = pin_cell_ % grid_.n[0], j = (pin_cell_ / grid_.n[0]) % grid_.n[1],
                     k = pin_cell_ / (std::int64_t(grid_.n[0]) * grid_.n[1]);
  const double rho = mix_.rho(f_[grid_.at(int(i), int(j), int(k))]);
  coef_[pin_cell_ * ns] += 1.0 / (rho * grid_.h[0] * grid_.h[0]);
}

void CfdSolver::exchange(std::vector<double*> fields, Halo& halo) {
  halo.begin(fields);
  halo.end();
}

double CfdSolver::compute_dt() {
  const double rate = max_advective_rate(grid_, {u_[0].data(), u_[1].data(), u_[2].data()});
  par::CycleReduction red(comm_);
  const auto s_rate = red.add_min(-rate, 0);
  const auto s_du = red.add_min(-info_.max_rate, 0);
  red.reduce();
  const double grate = -red.min_value(s_rate);
  info_.max_rate = -red.min_value(s_du);
  double nu = mix_.mu_l / mix_.rho_l;
  if (case_.free_surface) nu = std::max(nu, mix_.mu_g / mix_.rho_g);
  double inv_h2 = 0, hmin = 1e300;
  for (int d = 0; d < case_.dim; ++d) {
    inv_h2 += 1 / (grid_.h[d] * grid_.h[d]);
    hmin = std::min(hmin, grid_.h[d]);
  }
  const double gmag = std::hypot(case_.gravity[0], case_.gravity[1], case_.gravity[2]);
  // Forward Euler with upwind-biased advection and explicit diffusion: the advective (CFL),
  // viscous (2 nu sum 1/h^2) and gravity-wave (sqrt(g/h)) rates add up.
  const double total = grate + 2 * nu * inv_h2 + std::sqrt(gmag / hmin);
  return case_.cfl / std::max(total, 1e-300);
}

bool CfdSolver::advance() {
  if (done_) return false;
  const Grid& g = grid_;
  VelocityPtrs u{u_[0].data(), u_[1].data(), u_[2].data()};
  VelocityPtrs us{us_[0].data(), us_[1].data(), us_[2].data()};
  ConstVelocityPtrs cu{u[0], u[1], u[2]}, cus{us[0], us[1], us[2]};
  double dt = 0;
  {
    prof::PhaseScope s(ph_->time_step);
    dt = compute_dt();
    const double scale = case_.reference_velocity * case_.reference_velocity / case_.size[0];
    if (case_.steady_tolerance > 0 && step_ > 10 &&
        info_.max_rate / scale < case_.steady_tolerance) {
      info_.steady = true;
      done_ = true;
      return false;
    }
    // A step that collapses (or a NaN rate) means the solution is blowing up: stop with the
    // last good state rather than crawl on.
    if (!(dt > 1e-9 * case_.end_time)) {
      error_ = fmt::format("unstable: the time step fell to {:.3g} at t = {:.6g} (step {})", dt,
                           time_, step_);
      done_ = true;
      return false;
    }
    dt = std::min(dt, case_.end_time - time_);
    if (case_.output_interval > 0) dt = std::min(dt, next_output_ - time_);
    dt = std::max(dt, 1e-12 * std::max(1.0, case_.end_time));
  }
  std::vector<double*> uf;
  for (int d = 0; d < g.dim; ++d) uf.push_back(u[d]);
  uf.push_back(f_.data());
  const Box inner = interior_box(g);
  const auto shell = shell_boxes(g, inner);
  // Halo of u and f, overlapped with the predictor of the interior cells. The ghosts on the
  // physical boundary come from owned values: filled first (the interior cells next to a wall
  // need them), and again after the halo for the corners they share with other ranks' ghosts.
  {
    prof::PhaseScope s(ph_->halo);
    fill_boundary_ghosts(g, case_.boundaries, u, f_.data());
    halo_uf_->begin(uf);
  }
  {
    prof::PhaseScope s(ph_->advection);
    predict_velocity(g, inner, dt, cu, f_.data(), mix_, case_.gravity, false, us);
  }
  {
    prof::PhaseScope s(ph_->viscous);
    predict_velocity(g, inner, dt, cu, f_.data(), mix_, case_.gravity, true, us);
  }
  {
    prof::PhaseScope s(ph_->halo);
    halo_uf_->end();
    fill_boundary_ghosts(g, case_.boundaries, u, f_.data());
  }
  record_probes(false); // the state at time_, its ghosts current
  {
    prof::PhaseScope s(ph_->advection);
    for (const Box& b : shell)
      predict_velocity(g, b, dt, cu, f_.data(), mix_, case_.gravity, false, us);
  }
  {
    prof::PhaseScope s(ph_->viscous);
    for (const Box& b : shell)
      predict_velocity(g, b, dt, cu, f_.data(), mix_, case_.gravity, true, us);
    zero_closed_faces(g, op_, us);
    predict_outflow_faces(g, case_.boundaries, us);
  }
  if (case_.free_surface) {
    prof::PhaseScope s(ph_->vof);
    advect_fraction(g, dt, cu, f_.data(), case_.thinc_beta, f_new_.data(), op_);
  }
  {
    prof::PhaseScope s(ph_->halo);
    std::vector<double*> fields(us.begin(), us.begin() + g.dim);
    exchange(fields, *halo_u_);
    fill_boundary_ghosts(g, case_.boundaries, us, nullptr);
  }
  {
    prof::PhaseScope s(ph_->pressure);
    if (case_.free_surface) {
      pressure_matrix(g, case_.boundaries, f_.data(), mix_, coef_, op_);
      pin_pressure();
      poisson_->set_matrix(coef_);
    }
    pressure_rhs(g, dt, cus, rhs_, op_);
    add_boundary_pressures(g, case_.boundaries, f_.data(), mix_, rhs_, op_);
    if (singular_) {
      // Closed box: the Neumann problem is solvable for a right-hand side of zero mean (the
      // net inflow is zero up to round-off); remove it exactly (over the open cells: the
      // closed ones keep p = 0).
      ExactSum sum;
      sum.add(std::span<const double>(rhs_));
      const double mean = comm_.sum(sum).result() / double(open_cells_);
      if (op_.any()) {
        for_box(owned_box(g), [&](int i, int j, int k) {
          if (op_.vf[g.at(i, j, k)] > 0)
            rhs_[static_cast<std::size_t>(i) +
                 g.n[0] * (j + static_cast<std::size_t>(g.n[1]) * k)] -= mean;
        });
      } else {
        for (double& b : rhs_) b -= mean;
      }
    }
    gather_owned(g, p_.data(), sol_);
    const auto si = poisson_->solve(rhs_, sol_);
    info_.pcg_iterations += si.iterations;
    info_.last_pcg_iterations = si.iterations;
    if (std::getenv("PARCAE_CFD_DEBUG") && comm_.rank() == 0)
      std::cerr << fmt::format("step {} PCG {} it, rel residual {:.3e}\n", step_, si.iterations,
                               si.rel_residual);
    scatter_owned(g, sol_, p_.data());
  }
  {
    prof::PhaseScope s(ph_->halo);
    exchange({p_.data()}, *halo_p_);
    fill_pressure_ghosts(g, case_.boundaries, mix_, p_.data());
  }
  {
    prof::PhaseScope s(ph_->pressure);
    double du = 0;
    if (case_.steady_tolerance > 0) {
      // |u(n+1) - u(n)| / dt on the owned faces, before u is overwritten.
      const Box b = owned_box(g);
      for (int c = 0; c < g.dim; ++c) {
        const std::ptrdiff_t ec = g.stride[c];
        const double h = g.h[c];
#pragma omp parallel for collapse(2) reduction(max : du) schedule(static)
        for (int k = b.lo[2]; k < b.hi[2]; ++k)
          for (int j = b.lo[1]; j < b.hi[1]; ++j)
            for (int i = b.lo[0]; i < b.hi[0]; ++i) {
              const std::ptrdiff_t I = g.at(i, j, k);
              const double rho = mix_.rho(0.5 * (f_[I] + f_[I - ec]));
              const double unew = us[c][I] - dt / rho * (p_[I] - p_[I - ec]) / h;
              du = std::max(du, std::fabs(unew - u[c][I]));
            }
      }
      du /= dt;
    }
    correct_velocity(g, case_.boundaries, dt, p_.data(), f_.data(), mix_, cus, u, op_);
    info_.max_rate = du;
  }
  if (case_.free_surface) f_.swap(f_new_);
  time_ += dt;
  dt_ = dt;
  ++step_;
  info_.steps = step_;
  info_.time = time_;
  info_.last_dt = dt;
  if (case_.free_surface && step_ % 5 == 0) {
    prof::PhaseScope s(ph_->output);
    write_history();
  }
  if (case_.output_interval > 0 && time_ >= next_output_ - 1e-12 * case_.end_time) {
    prof::PhaseScope s(ph_->output);
    write_state();
    next_output_ += case_.output_interval;
  }
  if (opt_.checkpoint_every_cycles > 0 && step_ % opt_.checkpoint_every_cycles == 0) {
    prof::PhaseScope s(ph_->checkpoint);
    write_checkpoint_now();
  }
  // Stop requests (SIGTERM) are agreed every 16 steps: one small reduction, not one per step.
  if (opt_.stop_request && step_ % 16 == 0 && comm_.any(*opt_.stop_request != 0)) {
    prof::PhaseScope s(ph_->checkpoint);
    write_checkpoint_now();
    done_ = true;
    interrupted_ = true;
    return false;
  }
  progress(false);
  if (time_ >= case_.end_time * (1 - 1e-12) || step_ >= case_.max_steps) {
    done_ = true;
    return false;
  }
  return true;
}

void CfdSolver::visit_state(StateArchive& ar) {
  std::array<int, 3> cells = case_.cells, n = grid_.n, off = grid_.offset;
  ar.pod(cells);
  ar.pod(n);
  ar.pod(off);
  if (ar.loading() && (cells != case_.cells || n != grid_.n || off != grid_.offset))
    throw RuntimeError("the checkpoint was written for another grid or decomposition: restart "
                       "with the same case file and rank count");
  ar.pod(time_);
  ar.pod(dt_);
  ar.pod(step_);
  ar.pod(next_output_);
  ar.pod(state_index_);
  ar.pod(info_.pcg_iterations);
  ar.pod(info_.max_rate); // the steady-state measure of the last step
  ar.pod(info_.liquid_volume_initial);
  ar.pod(next_probe_);
  ar.pod(last_probe_);
  for (int d = 0; d < 3; ++d) ar.vec(u_[d]);
  ar.vec(p_);
  ar.vec(f_);
  std::uint64_t ns = states_.size();
  ar.pod(ns);
  if (ar.loading()) states_.resize(ns);
  for (auto& [t, name] : states_) {
    ar.pod(t);
    ar.str(name);
  }
  ar.expect_end();
}

void CfdSolver::write_checkpoint_now() {
  StateArchive ar;
  visit_state(ar);
  CheckpointInfo info;
  info.cycle = static_cast<int>(step_);
  info.time = time_;
  info.deck = opt_.deck_path;
  info.fingerprint = static_cast<std::uint64_t>(case_.cells[0]) * 1000003u +
                     case_.cells[1] * 1009u + case_.cells[2];
  if (comm_.rank() == 0) {
    info.outputs = output_file_sizes(opt_.outdir);
    info.outputs.erase("parcae.pvd");
  }
  last_checkpoint_ = write_checkpoint(comm_, opt_.outdir, info, ar.bytes()).string();
}

void CfdSolver::restore() {
  std::string error;
  const CheckpointInfo info = prepare_restart(comm_, opt_.restart_from, opt_.outdir);
  try {
    const auto file = info.dir / fmt::format("rank-{:05d}.bin", comm_.rank());
    StateArchive ar(read_checkpoint_file(file), file.string());
    visit_state(ar);
  } catch (const std::exception& e) {
    error = e.what();
  }
  if (comm_.any(!error.empty()))
    throw RuntimeError("restart: " + (error.empty() ? "another rank failed" : error));
  restarted_from_ = static_cast<int>(step_);
  if (opt_.log)
    *opt_.log << fmt::format("restarted from {} (step {}, t = {:g})\n", info.dir.string(), step_,
                             time_);
}

GlobalStats CfdSolver::global_stats() const {
  const Grid& g = grid_;
  const double vol = g.h[0] * g.h[1] * (g.dim == 3 ? g.h[2] : g.h[2]);
  std::vector<ExactSum> acc(4); // kinetic, mass, momentum x, momentum y
  const Box b = owned_box(g);
  for (int k = b.lo[2]; k < b.hi[2]; ++k)
    for (int j = b.lo[1]; j < b.hi[1]; ++j)
      for (int i = b.lo[0]; i < b.hi[0]; ++i) {
        const std::ptrdiff_t I = g.at(i, j, k);
        const double rho = mix_.rho(f_[I]) * (op_.any() ? op_.vf[I] : 1.0); // per cell volume
        double ke = 0;
        std::array<double, 3> uc{};
        for (int d = 0; d < g.dim; ++d) {
          uc[d] = 0.5 * (u_[d][I] + u_[d][I + g.stride[d]]);
          ke += uc[d] * uc[d];
        }
        acc[0].add(0.5 * rho * ke * vol);
        acc[1].add(rho * vol);
        acc[2].add(rho * uc[0] * vol);
        acc[3].add(rho * uc[1] * vol);
      }
  comm_.sum(acc);
  GlobalStats s;
  s.cycle = static_cast<int>(step_);
  s.time = time_;
  s.dt = dt_;
  s.kinetic = acc[0].result();
  s.total = s.kinetic;
  s.mass = acc[1].result();
  if (s.mass > 0) {
    s.vx = acc[2].result() / s.mass;
    s.vy = acc[3].result() / s.mass;
  }
  s.elements = static_cast<std::size_t>(g.global[0]) * g.global[1] * g.global[2];
  return s;
}

double CfdSolver::liquid_volume() const {
  const Grid& g = grid_;
  ExactSum acc;
  const Box b = owned_box(g);
  for (int k = b.lo[2]; k < b.hi[2]; ++k)
    for (int j = b.lo[1]; j < b.hi[1]; ++j)
      for (int i = b.lo[0]; i < b.hi[0]; ++i) {
        const std::ptrdiff_t I = g.at(i, j, k);
        acc.add(op_.any() ? f_[I] * op_.vf[I] : f_[I]);
      }
  return comm_.sum(acc).result() * g.h[0] * g.h[1] * g.h[2];
}

double CfdSolver::front_position() const {
  // Wetted length of the bottom row: sum of f h over the cells of j = 0 (exact sum).
  const Grid& g = grid_;
  ExactSum acc;
  if (g.at_lo(1))
    for (int k = 0; k < g.n[2]; ++k)
      for (int i = 0; i < g.n[0]; ++i) acc.add(std::clamp(f_[g.at(i, 0, k)], 0.0, 1.0) * g.h[0]);
  return comm_.sum(acc).result() / g.global[2];
}

void CfdSolver::write_state() {
  const std::string name = write_vtk_state(comm_, grid_, opt_.outdir, state_index_++, time_,
                                           {u_[0].data(), u_[1].data(), u_[2].data()}, p_.data(),
                                           f_.data(), op_.any() ? op_.vf : nullptr);
  states_.emplace_back(time_, name);
  if (comm_.rank() == 0) {
    std::vector<std::pair<Real, std::string>> list(states_.begin(), states_.end());
    write_pvd((std::filesystem::path(opt_.outdir) / "parcae.pvd").string(), list);
  }
}

void CfdSolver::write_history() {
  // Free-surface history (rank 0 writes): the surge front along the bottom and the liquid
  // volume, every 5 steps.
  const double front = front_position();
  const double volume = liquid_volume();
  if (comm_.rank() != 0) return;
  const auto path = std::filesystem::path(opt_.outdir) / "history.csv";
  const bool fresh = !std::filesystem::exists(path) || step_ <= 5;
  std::ofstream o(path, fresh ? std::ios::trunc : std::ios::app);
  if (fresh) o << "time,front_x,liquid_volume\n";
  o << fmt::format("{:.8g},{:.8g},{:.17g}\n", time_, front, volume);
}

void CfdSolver::record_probes(bool force) {
  if (case_.probes.empty() || time_ == last_probe_) return;
  if (!force && time_ < next_probe_ - 1e-12 * std::max(1.0, case_.end_time)) return;
  prof::PhaseScope s(ph_->output);
  std::vector<ExactSum> acc;
  sample_probes(grid_, case_.probes, {u_[0].data(), u_[1].data(), u_[2].data()}, p_.data(),
                f_.data(), op_, acc);
  comm_.sum(acc);
  last_probe_ = time_;
  if (case_.probe_interval > 0)
    while (next_probe_ <= time_ + 1e-12 * std::max(1.0, case_.end_time))
      next_probe_ += case_.probe_interval;
  if (comm_.rank() != 0) return;
  std::string row = fmt::format("{:.9g}", time_);
  for (const ExactSum& a : acc) row += fmt::format(",{:.9g}", a.result());
  std::ofstream o(std::filesystem::path(opt_.outdir) / "probes.csv", std::ios::app);
  o << row << '\n';
}

void CfdSolver::write_output() {
  prof::PhaseScope s(ph_->output);
  write_state();
}

void CfdSolver::progress(bool force) {
  if (!opt_.log) return;
  const auto now = std::chrono::steady_clock::now();
  if (!force && now - last_progress_ < std::chrono::seconds(2)) return;
  last_progress_ = now;
  const double el = std::chrono::duration<double>(now - start_).count();
  const double frac = (time_ - start_time_) / std::max(1e-300, case_.end_time - start_time_);
  const double eta = frac > 0 ? el * (1 - frac) / frac : 0;
  const double scale = case_.reference_velocity * case_.reference_velocity / case_.size[0];
  *opt_.log << fmt::format("  step {:>8}  t = {:<10.5g} dt = {:<10.3e} PCG {:>3} it  |du/dt| = "
                           "{:<9.3e} elapsed {:.1f} s  ETA {:.0f} s{}\n",
                           step_, time_, dt_, info_.last_pcg_iterations, info_.max_rate / scale, el,
                           eta, case_.steady_tolerance > 0 ? " (or sooner when steady)" : "");
  opt_.log->flush();
}

RunSummary CfdSolver::finish() {
  {
    prof::PhaseScope s(ph_->output);
    if (states_.empty() || states_.back().first != time_) write_state();
  }
  info_.liquid_volume = liquid_volume();
  {
    std::vector<double*> fields;
    for (int d = 0; d < grid_.dim; ++d) fields.push_back(u_[d].data());
    exchange(fields, *halo_u_);
    fill_boundary_ghosts(grid_, case_.boundaries, {u_[0].data(), u_[1].data(), u_[2].data()},
                         nullptr);
  }
  record_probes(true);
  info_.max_divergence =
      comm_.max(max_divergence(grid_, {u_[0].data(), u_[1].data(), u_[2].data()}, op_));
  double fmin = 1e300, fmax = -1e300;
  for_box(owned_box(grid_), [&](int, int, int) {});
  {
    const Box b = owned_box(grid_);
    for (int k = b.lo[2]; k < b.hi[2]; ++k)
      for (int j = b.lo[1]; j < b.hi[1]; ++j)
        for (int i = b.lo[0]; i < b.hi[0]; ++i) {
          fmin = std::min(fmin, f_[grid_.at(i, j, k)]);
          fmax = std::max(fmax, f_[grid_.at(i, j, k)]);
        }
  }
  info_.fraction_min = comm_.min(fmin);
  info_.fraction_max = comm_.max(fmax);
  progress(true);
  const double el =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  info_.wall_s = el;
  RunSummary r;
  r.normal_termination = !interrupted_ && error_.empty();
  r.error = error_;
  r.interrupted = interrupted_;
  r.last_checkpoint = last_checkpoint_;
  r.restarted_from_cycle = restarted_from_;
  r.cycles = static_cast<int>(step_);
  r.time = time_;
  r.elapsed_s = el;
  const double cells = double(case_.cells[0]) * case_.cells[1] * case_.cells[2];
  r.element_cycles_per_s = el > 0 ? cells * (step_ - std::max(0, restarted_from_)) / el : 0;
  r.final_stats = global_stats();
  if (opt_.log) {
    *opt_.log << fmt::format(
        "CFD {} {} after {} steps, t = {:g} ({:.2f} s wall, {:.3g} cell-updates/s, "
        "{:.1f} PCG iterations per step)\n",
        case_.name,
        !error_.empty() ? "STOPPED (" + error_ + ")"
        : info_.steady  ? std::string("steady")
                        : std::string(interrupted_ ? "stopped" : "done"),
        step_, time_, el, r.element_cycles_per_s,
        step_ > 0 ? double(info_.pcg_iterations) / step_ : 0.0);
    *opt_.log << fmt::format("  max |div u| h = {:.2e}; kinetic energy {:.6g}",
                             info_.max_divergence, r.final_stats.kinetic);
    if (case_.free_surface)
      *opt_.log << fmt::format("; liquid volume {:.12g} (initial {:.12g}, relative change {:.2e}); "
                               "fraction in [{:.3g}, {:.3g}]",
                               info_.liquid_volume, info_.liquid_volume_initial,
                               (info_.liquid_volume - info_.liquid_volume_initial) /
                                   info_.liquid_volume_initial,
                               info_.fraction_min, info_.fraction_max);
    *opt_.log << "\n";
  }
  return r;
}

RunSummary run_cfd(const CfdCase& c, const RunOptions& opt, CfdRunInfo* info,
                   CavityResults* cavity) {
  CfdSolver solver(c, opt);
  RunSummary r = run_solver(solver);
  if (c.centerlines || cavity) {
    CavityResults cr = solver.cavity_results();
    const int rank = opt.comm ? opt.comm->rank() : 0;
    if (rank == 0 && c.centerlines) {
      write_cavity_files(opt.outdir, cr);
      if (opt.log)
        *opt.log << fmt::format("  primary vortex at ({:.4f}, {:.4f}), psi = {:.6f}; wrote "
                                "centerline_u.csv, centerline_v.csv, vortex.csv\n",
                                cr.vortex_x, cr.vortex_y, cr.psi_min);
    }
    if (cavity) *cavity = std::move(cr);
  }
  if (info) *info = solver.info();
  return r;
}

} // namespace parcae::cfd
