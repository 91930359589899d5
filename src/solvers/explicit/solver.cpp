#include "solvers/explicit/solver.hpp"

#include "core/memory.hpp"
#include "solvers/explicit/integrator.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <ostream>
#include <string_view>
#include <thread>
#include <utility>

#include <fmt/format.h>
#include <omp.h>

#include "core/exact_sum.hpp"
#include "materials/catalogue.hpp"
#include "output/d3plot.hpp"
#include "output/glstat.hpp"
#include "output/vtk_writer.hpp"
#include "par/comm.hpp"
#include "prof/phase.hpp"
#include "solvers/common/checkpoint.hpp"
#include "solvers/common/contact_setup.hpp"
#include "solvers/common/histories.hpp"
#include "solvers/common/rigid_body.hpp"
#include "solvers/common/rigid_wall.hpp"
#include "solvers/explicit/contact_mpp.hpp"
#include "solvers/explicit/erosion.hpp"
#include "solvers/explicit/state_output.hpp"

namespace parcae {

namespace explicit_detail {

namespace {

std::string format_duration(Real s) {
  if (!std::isfinite(s) || s < 0) return "--";
  if (s < 60) return fmt::format("{:.1f}s", s);
  if (s < 3600)
    return fmt::format("{}m{:02d}s", static_cast<int>(s / 60), static_cast<int>(s) % 60);
  return fmt::format("{}h{:02d}m", static_cast<int>(s / 3600), static_cast<int>(s / 60) % 60);
}

} // namespace

void Integrator::setup() {
  RunSummary& sum = run_.sum;
  std::ostream* log = opt_.log;
  const Controls& c = model_.control;
  namespace fs = std::filesystem;
  fs::create_directories(opt_.outdir);
  if (opt_.threads > 0) omp_set_num_threads(opt_.threads);
  PhaseScope setup_phase(phases().setup);
  const bool restarting = !opt_.restart_from.empty();
  CheckpointInfo restart_info;
  if (restarting) restart_info = prepare_restart();

  // Initial force pass: stresses are zero, hourglass viscosity acts on the initial velocities.
  try {
    update_segment_pressures(0.0);
    element_pass(0.0);
    assemble_and_accelerate(0.0);
    cycle_reduce(std::nullopt);
  } catch (const Unstable& u) {
    throw RuntimeError("the initial state is invalid: " + u.message);
  }
  if (!restarting && wants_relaxation()) {
    relax();
    // The transient starts from the relaxed state: its first force pass, with the transient's
    // loads.
    try {
      airbag_update(0.0);
      update_segment_pressures(0.0);
      element_pass(0.0);
      assemble_and_accelerate(0.0);
      cycle_reduce(std::nullopt);
    } catch (const Unstable& u) {
      throw RuntimeError("the relaxed state is invalid: " + u.message);
    }
  }
  mark_memory("first force pass");
  const Real dt_crit0 = step_.limit.dt;
  Real dt = c.tssfac * dt_crit0;
  if (c.dtinit > 0) dt = std::min(dt, c.dtinit);
  if (!std::isfinite(dt) && d_.element_count() == 0 && !d_.bodies.empty())
    dt = c.dtinit > 0 ? c.dtinit : c.endtim / 1000.0; // rigid bodies only
  if (!(dt > 0) || !std::isfinite(dt))
    throw RuntimeError("cannot determine a time step (no deformable elements and no DTINIT)");
  sum.dt_initial = dt;
  run_.dt0 = dt;
  if (log) {
    *log << model_summary(model_, d_, dt, step_.limit.kind, step_.limit.elem, step_.limit.part);
    if (!contacts_.model.interfaces.empty())
      *log << fmt::format("  contacts         {} interface(s), {} contact nodes\n",
                          contacts_.model.interfaces.size(), contacts_.model.node_model.size());
    for (std::size_t i = 0; i < contacts_.model.edge_sets.size(); ++i)
      *log << fmt::format("  beam contact     contact {}: {} beam edges, {} candidate pairs\n",
                          contacts_.model.edge_defs[i]->id, contacts_.model.edge_sets[i].size(),
                          contacts_.edge_state[i].cand.size());
    for (const auto& line : contacts_.report) *log << line << "\n";
    *log << std::flush;
  }

  if (opt_.write_glstat && comm_.rank() == 0) {
    out_.glstat = std::make_unique<GlstatWriter>((fs::path(opt_.outdir) / "glstat").string(),
                                                 c.title, restarting);
    if (!rwalls_.state.empty()) out_.glstat->set_rigidwall_output(true);
    if (contacts_.any()) out_.glstat->set_friction_output(true);
  }
  run_.nelem = static_cast<std::size_t>(comm_.sum(static_cast<std::int64_t>(d_.element_count())));
  const Real endtim = c.endtim;
  run_.glstat_dt = c.glstat_dt > 0 ? c.glstat_dt : endtim / 100.0;
  if (opt_.write_histories)
    out_.hist = std::make_unique<HistoryOutput>(model_, d_, rwalls_.state, comm_, opt_.outdir,
                                                run_.glstat_dt, restarting);
  // d3plot (rank 0); a restart appends to the family rewound to the checkpoint. Its per-part
  // records are the histories' sums (one recorder).
  out_.plot.open(d_, restarting, out_.hist ? &out_.hist->recorder() : nullptr);
  // Plot states at the deck's interval (*DATABASE_BINARY_D3PLOT DT or ENDTIM / NPLTC, or the
  // LCDT curve of the interval over time); a deck that asks for none gets the initial and the
  // final state (write what the deck asks).
  run_.plot_dt = c.d3plot_dt > 0 ? c.d3plot_dt : std::numeric_limits<Real>::infinity();
  if (c.d3plot_lcdt != 0) {
    run_.plot_curve = model_.find_curve(c.d3plot_lcdt);
    if (run_.plot_curve == nullptr)
      throw RuntimeError(
          fmt::format("*DATABASE_BINARY_D3PLOT: LCDT curve {} is not defined", c.d3plot_lcdt));
  } else if (!(c.d3plot_dt > 0) && log && (opt_.write_d3plot || opt_.write_vtk)) {
    *log << "  plot states      the deck sets no *DATABASE_BINARY_D3PLOT interval: the initial "
            "and the final state only\n";
  }
  LoopVars& lv = run_.lv;
  GlobalStats& st = run_.st;
  st = stats(0, 0.0, dt);
  st.initial_total = st.total;
  sum.initial = st;
  run_.e0 = st.total;
  if (contacts_.any() && comm_.rank() == 0) {
    std::vector<LegendEntry> legend;
    for (const ContactDef* def : contacts_.model.defs) legend.push_back({def->id, def->title});
    // beam edge contacts: their own entry unless their card has a surface interface too
    for (const ContactDef* def : contacts_.model.edge_defs)
      if (std::find(contacts_.model.defs.begin(), contacts_.model.defs.end(), def) ==
          contacts_.model.defs.end())
        legend.push_back({def->id, def->title});
    contacts_.rcforc = std::make_unique<RcforcWriter>((fs::path(opt_.outdir) / "rcforc").string(),
                                                      c.title, legend, restarting);
    contacts_.sleout = std::make_unique<SleoutWriter>((fs::path(opt_.outdir) / "sleout").string(),
                                                      c.title, legend, restarting);
  }
  if (!restarting) {
    write_contact_histories(0.0);
    if (out_.glstat) out_.glstat->write(st);
    out_.plot.write(d_, 0.0, st);
  }
  if (out_.hist && !restarting) out_.hist->write(d_, rwalls_.state, 0, 0.0, &st);
  lv.next_glstat = run_.glstat_dt;
  lv.next_plot = next_plot_time(0.0);

  run_.t_start = RunState::clock::now();
  lv.next_print_time = 0.1 * endtim;
  if (log)
    *log << fmt::format("\n{:>9} {:>12} {:>11} {:>6} {:>9} {:>9} {:>10}\n", "cycle", "time", "dt",
                        "done", "elapsed", "ETA", "E ratio");
  run_.dtmin_abs = (c.dtmin > 0 ? c.dtmin : 1e-6) * dt;
  if (c.erode == 1 && c.dtmin > 0) erosion_.tsmin = run_.dtmin_abs;
  if (restarting) {
    // The set-up above ran on the initial state (same dt and initial energy as the original
    // run); now the state at the checkpoint replaces it.
    restore_checkpoint(restart_info, lv);
    erosion_rebuild();
    // what the last force pass computed from the time and the restored velocities, used by the
    // next velocity update: segment pressures (their work) and global damping forces
    update_segment_pressures(lv.t);
    if (!loads_.damp_f.empty()) damping_forces(lv.t);
    cycle_reduce(std::nullopt); // the resultants of the restored state (same step limit)
    sum.restarted_from_cycle = lv.cycle;
    if (log)
      *log << fmt::format("\nrestarting from {} (cycle {}, time {:.6e})\n",
                          restart_info.dir.string(), lv.cycle, lv.t);
  }
  run_.stop_file = fs::path(opt_.outdir) / "d3kil";
  if (comm_.rank() == 0) {
    std::error_code ec;
    fs::remove(run_.stop_file, ec); // a stale request from an earlier run
  }
  run_.last_checkpoint = RunState::clock::now();
  // Test hook: PARCAE_TEST_CYCLE_SLEEP_US=N sleeps N microseconds every cycle, so that the
  // restart tests can interrupt a run part-way however fast the machine is.
  const char* sleep_us = std::getenv("PARCAE_TEST_CYCLE_SLEEP_US");
  run_.cycle_sleep_us = sleep_us ? std::atol(sleep_us) : 0L;
}

void Integrator::force_pass(int cycle, Real t, Real dt) {
  erosion_.t_pass = t;
  airbag_update(t);
  update_segment_pressures(t);
  update_axial_forces(t);
  element_pass(dt);
  if (contacts_.any()) contact_pass(cycle, t, dt);
  assemble_and_accelerate(t);
}

bool Integrator::wants_relaxation() const {
  if (model_.control.dr_idrflg == 1) return true;
  return std::any_of(model_.curves.begin(), model_.curves.end(),
                     [](const Curve& c) { return c.sidr == 1 || c.sidr == 2; });
}

// Dynamic relaxation (LS-DYNA's explicit relaxation phase): the cycle of the transient with the
// relaxation loads (curves of SIDR 1 or 2, LCIDDR curves, airbags) and every velocity scaled by
// DRFCTR each cycle, until the kinetic energy, checked every NRCYCK cycles, has fallen below
// DRTOL times its peak (or DRTERM). The displacements and stresses it reaches are the
// transient's initial state; the velocities start again from the initial ones and the energy
// accounts from zero. Nothing is written during the phase but its log lines.
void Integrator::relax() {
  const Controls& c = model_.control;
  std::ostream* log = opt_.log;
  const std::vector<Real> v_init = d_.v, w_init = d_.w;
  std::vector<std::array<Real, 3>> bv_init, bw_init;
  for (const RigidBody& b : d_.bodies) {
    bv_init.push_back(b.v);
    bw_init.push_back(b.omega);
  }
  std::fill(d_.v.begin(), d_.v.end(), 0.0);
  std::fill(d_.w.begin(), d_.w.end(), 0.0);
  for (RigidBody& b : d_.bodies) b.v = b.omega = {0, 0, 0};
  relaxing_ = true;
  // The relaxation loads (the set-up's force pass had the transient's).
  airbag_update(0.0);
  update_segment_pressures(0.0);
  element_pass(0.0);
  assemble_and_accelerate(0.0);
  cycle_reduce(std::nullopt);
  const Real tss = c.dr_tssfdr > 0 ? c.dr_tssfdr : c.tssfac;
  const int nrcyck = std::max(1, c.dr_nrcyck);
  // A phase that never converges stops after this many checks (with a warning), so that a deck
  // cannot hang in it.
  constexpr int kMaxChecks = 400;
  Real t = 0, dt_old = 0, ke_peak = 0, ke = 0;
  int cycle = 0;
  bool converged = false;
  if (log)
    *log << fmt::format("\ndynamic relaxation (DRTOL {}, DRFCTR {}, check every {} cycles)\n",
                        c.dr_drtol, c.dr_drfctr, nrcyck);
  auto kinetic_energy = [&] {
    ExactSum acc;
    for (std::size_t n = 0; n < d_.nnode; ++n) {
      if (!d_.owned[n] || d_.rigid_of[n] >= 0) continue;
      for (int i = 0; i < 3; ++i) acc.add(0.5 * d_.mass[n] * d_.v[3 * n + i] * d_.v[3 * n + i]);
    }
    if (comm_.rank() == 0)
      for (const RigidBody& b : d_.bodies)
        if (b.active) acc.add(rigid_body_kinetic_energy(b));
    return comm_.sum(acc).result();
  };
  try {
    while (true) {
      const bool no_limit = !std::isfinite(step_.limit.dt) || step_.limit.dt >= 1e299;
      if (no_limit) break; // nothing deformable to relax
      const Real dt = tss * step_.limit.dt;
      const Real dt_avg = cycle == 0 ? 0.5 * dt : 0.5 * (dt_old + dt);
      bodies_.weld_cycle = cycle;
      update_velocities(dt_avg, dt, t);
      for (std::size_t n = 0; n < d_.nnode; ++n) {
        if (d_.rigid_of[n] >= 0) continue;
        for (int i = 0; i < 3; ++i) {
          d_.v[3 * n + i] *= c.dr_drfctr;
          d_.w[3 * n + i] *= c.dr_drfctr;
          d_.x[3 * n + i] += dt * d_.v[3 * n + i];
        }
      }
      for (RigidBody& b : d_.bodies)
        for (int i = 0; i < 3; ++i) {
          b.v[i] *= c.dr_drfctr;
          b.omega[i] *= c.dr_drfctr;
        }
      t += dt;
      ++cycle;
      dt_old = dt;
      force_pass(cycle, t, dt);
      cycle_reduce(std::nullopt);
      if (cycle % nrcyck != 0) continue;
      check_finite(cycle);
      if (comm_.any(!local_error_.empty()))
        throw Unstable{local_error_.empty() ? "another rank found NaN/infinite values"
                                            : local_error_};
      ke = kinetic_energy();
      ke_peak = std::max(ke_peak, ke);
      const Real ratio = ke_peak > 0 ? ke / ke_peak : 0.0;
      if (log)
        *log << fmt::format("  relaxation cycle {:>8}  time {:.5e}  kinetic energy {:.5e}  "
                            "ratio {:.3e}\n",
                            cycle, t, ke, ratio)
             << std::flush;
      if (ratio < c.dr_drtol) {
        converged = true;
        break;
      }
      if (c.dr_drterm > 0 && t >= c.dr_drterm) break;
      if (cycle >= kMaxChecks * nrcyck) break;
    }
  } catch (const Unstable& u) {
    throw RuntimeError("dynamic relaxation failed: " + u.message);
  }
  if (log)
    *log << fmt::format("  relaxation {} after {} cycles (time {:.5e}){}\n",
                        converged ? "converged" : "ended", cycle, t,
                        converged || (c.dr_drterm > 0 && t >= c.dr_drterm)
                            ? ""
                            : fmt::format(": not converged after {} checks (warning)", kMaxChecks))
         << std::flush;
  relaxing_ = false;
  erosion_.t_pass = 0; // the transient's clock starts again
  d_.v = v_init;
  d_.w = w_init;
  for (std::size_t b = 0; b < d_.bodies.size(); ++b) {
    d_.bodies[b].v = bv_init[b];
    d_.bodies[b].omega = bw_init[b];
  }
  // The transient's energy accounts start at zero (the stored strain energy stays internal
  // energy).
  loads_.work = ExactSum{};
  rwalls_.work = ExactSum{};
  for (auto& bag : airbags_.bags) bag.have_prev = false;
  // Contact: the transient counts its cycles from 0 again; search at its first cycle, and its
  // interface energies start at zero.
  for (auto& cs : contacts_.state) {
    cs.last_search_cycle = -1;
    cs.search_due_next = 1;
    cs.e_interface = cs.e_friction = cs.e_secondary = cs.e_main = ExactSum{};
  }
  for (auto& es : contacts_.edge_state) {
    es.last_search_cycle = -1000000; // a search at the first cycle
    es.e_interface = es.e_friction = ExactSum{};
  }
  run_.sum.relaxation_cycles = cycle;
}

void Integrator::print_progress(int cycle, Real t, Real dtc, const GlobalStats& s) const {
  const Real endtim = model_.control.endtim;
  const Real el = std::chrono::duration<Real>(RunState::clock::now() - run_.t_start).count();
  const Real frac = endtim > 0 ? t / endtim : 0;
  const Real eta = frac > 0 ? el * (1 - frac) / frac : -1;
  *opt_.log << fmt::format("{:>9} {:>12.5e} {:>11.4e} {:>5.1f}% {:>9} {:>9} {:>10.5f}\n", cycle, t,
                           dtc, 100 * frac, format_duration(el), format_duration(eta),
                           s.energy_ratio())
            << std::flush;
}

void Integrator::take_checkpoint() {
  PhaseScope checkpoint_phase(phases().checkpoint);
  run_.sum.last_checkpoint = write_checkpoint_now(run_.lv);
  run_.last_checkpoint = RunState::clock::now();
  if (opt_.log)
    *opt_.log << fmt::format("  checkpoint at cycle {} written to {}\n", run_.lv.cycle,
                             run_.sum.last_checkpoint)
              << std::flush;
}

Real Integrator::next_plot_time(Real t) const {
  if (run_.plot_curve != nullptr) {
    const Real interval = run_.plot_curve->eval(t);
    return interval > 0 ? t + interval : std::numeric_limits<Real>::infinity();
  }
  Real next = run_.lv.next_plot; // DT: the next multiple of DT after t
  while (next <= t * (1 + 1e-9)) next += run_.plot_dt;
  return next;
}

void Integrator::conclude() {
  check_finite(run_.lv.cycle);
  if (comm_.any(!local_error_.empty()))
    throw Unstable{local_error_.empty() ? "another rank found NaN/infinite values" : local_error_};
  run_.sum.normal_termination = !run_.sum.interrupted;
  run_.finished = true;
  // A run that ends before ENDTIM (ENDCYC, --end-cycle, ENDMAS, a caller's stop) ends with a
  // plot state too, as LS-DYNA's does: the final state of "initial and final" when the deck asks
  // for no interval. (A stop request does not: its checkpoint continues the series.)
  if (!run_.sum.interrupted && out_.plot.last_time() < run_.lv.t) {
    PhaseScope output_phase(phases().output);
    GlobalStats s = global_stats();
    out_.plot.write(d_, run_.lv.t, s);
  }
}

bool Integrator::advance() {
  if (run_.finished) return false;
  namespace fs = std::filesystem;
  using clock = RunState::clock;
  // Checkpoints on a stop request (signal or stop file) or a wall-clock interval: ranks agree on
  // those (local) events every kAgreeEvery cycles, in the cycle's reduction.
  constexpr int kAgreeEvery = 16;
  constexpr std::int64_t kTimeBit = std::int64_t{1} << 32;
  constexpr int kPrintEveryCycles = 5000; // and at every 10% of the termination time
  const Controls& c = model_.control;
  const Real endtim = c.endtim;
  std::ostream* log = opt_.log;
  RunSummary& sum = run_.sum;
  GlobalStats& st = run_.st;
  Real& t = run_.lv.t;
  Real& dt_old = run_.lv.dt_old;
  int& cycle = run_.lv.cycle;
  Real& next_glstat = run_.lv.next_glstat;
  Real& next_plot = run_.lv.next_plot;
  Real& next_print_time = run_.lv.next_print_time;
  try {
    if (!(t < endtim * (1 - 1e-12) && (c.endcyc <= 0 || cycle < c.endcyc)) || ms_.endmas_stop) {
      conclude();
      return false;
    }
    // Time not in a nested phase (velocity and position updates, loads, constraints, rigid
    // bodies) is the cycle's nodal update.
    PhaseScope cycle_phase(phases().nodal_update);
    // Only rigid bodies (no element limits the step): keep the initial step.
    // (after erosion has deleted every element: the last step)
    const bool no_limit = !std::isfinite(step_.limit.dt) || step_.limit.dt >= 1e299;
    Real dt_new =
        cycle == 0 || no_limit ? (cycle == 0 ? run_.dt0 : dt_old) : c.tssfac * step_.limit.dt;
    if (c.dtinit > 0 && cycle == 0) dt_new = run_.dt0;
    if (t + dt_new > endtim) dt_new = endtim - t;
    if (dt_new < run_.dtmin_abs && t + dt_new < endtim * (1 - 1e-9))
      throw Unstable{fmt::format("time step collapsed to {:.4e} (below {:.4e}) in {} {} of "
                                 "part {}",
                                 dt_new, run_.dtmin_abs, step_.limit.kind, step_.limit.elem,
                                 step_.limit.part)};
    const Real dt_avg = cycle == 0 ? 0.5 * dt_new : 0.5 * (dt_old + dt_new);
    bodies_.weld_cycle = cycle;
    update_velocities(dt_avg, dt_new, t);
    const std::int64_t nn = static_cast<std::int64_t>(d_.nnode);
#pragma omp parallel for schedule(static) if (nn > kParallelNodes)
    for (std::int64_t n = 0; n < nn; ++n) {
      if (d_.rigid_of[n] >= 0) continue;
      for (int i = 0; i < 3; ++i) d_.x[3 * n + i] += dt_new * d_.v[3 * n + i];
    }
    t += dt_new;
    ++cycle;
    dt_old = dt_new;
    force_pass(cycle, t, dt_new);
    // The cycle's one reduction; every kAgreeEvery cycles it carries the ranks' (local) stop
    // and checkpoint requests.
    std::optional<std::int64_t> flags;
    if (cycle % kAgreeEvery == 0) {
      flags = opt_.stop_request && *opt_.stop_request ? 1 : 0;
      // LS-DYNA's "sw1" stop file: <outdir>/d3kil asks for a checkpoint and a clean stop.
      if (comm_.rank() == 0 && fs::exists(run_.stop_file)) {
        flags = 1;
        std::error_code ec;
        fs::remove(run_.stop_file, ec);
      }
      if (opt_.checkpoint_every_seconds > 0 &&
          std::chrono::duration<Real>(clock::now() - run_.last_checkpoint).count() >=
              opt_.checkpoint_every_seconds)
        *flags += kTimeBit;
    }
    const std::int64_t global_flags = cycle_reduce(flags);
    const Real added_pct = 100 * (d_.added_mass + ms_.global_added) / d_.physical_mass;
    if (ms_.endmas && !ms_.endmas_stop && added_pct > c.endmas) {
      ms_.endmas_stop = true; // the run ends after this cycle's outputs
      if (log)
        *log << fmt::format("  ENDMAS: mass scaling has added {:.4g}% of the physical mass "
                            "(more than {}%) at cycle {}, time {:.6e}: the run ends\n",
                            added_pct, c.endmas, cycle, t);
    }
    if (cycle % 100 == 0) check_finite(cycle);
    if (run_.cycle_sleep_us > 0)
      std::this_thread::sleep_for(std::chrono::microseconds(run_.cycle_sleep_us));

    const bool want_glstat = t >= next_glstat * (1 - 1e-9) || t >= endtim * (1 - 1e-12);
    const bool want_plot = t >= next_plot * (1 - 1e-9) || t >= endtim * (1 - 1e-12);
    // Decisions that lead to collective calls depend only on t and the cycle (never on the
    // clock or on the rank), so every rank makes the same ones.
    const bool want_print = t >= next_print_time * (1 - 1e-9) || cycle % kPrintEveryCycles == 0;
    const bool want_hist = out_.hist && out_.hist->due(t, t - dt_new);
    if (want_glstat || want_plot || want_print || want_hist || opt_.stats_every_cycle ||
        opt_.on_cycle) {
      PhaseScope output_phase(phases().output);
      st = stats(cycle, t, dt_new);
      st.initial_total = run_.e0;
      const Real el = std::chrono::duration<Real>(clock::now() - run_.t_start).count();
      st.time_per_zone_cycle_ns =
          run_.nelem > 0 ? 1e9 * el / (static_cast<Real>(cycle) * run_.nelem) : 0;
      if (!std::isfinite(st.total))
        throw Unstable{fmt::format("energy became NaN/infinite in cycle {}", cycle)};
      if (want_glstat) {
        if (out_.glstat) out_.glstat->write(st);
        write_contact_histories(t);
        while (next_glstat <= t * (1 + 1e-9)) next_glstat += run_.glstat_dt;
      }
      if (out_.hist && (want_hist || want_glstat))
        out_.hist->write(d_, rwalls_.state, cycle, t, want_glstat ? &st : nullptr);
      if (want_plot) {
        out_.plot.write(d_, t, st);
        next_plot = next_plot_time(t);
      }
      if (want_print) {
        if (log) print_progress(cycle, t, dt_new, st);
        while (next_print_time <= t * (1 + 1e-9)) next_print_time += 0.1 * endtim;
      }
      if (opt_.on_cycle && !opt_.on_cycle(d_, st)) {
        conclude();
        return false;
      }
    }
    bool want_checkpoint =
        opt_.checkpoint_every_cycles > 0 && cycle % opt_.checkpoint_every_cycles == 0;
    bool stop = false;
    if (flags) {
      stop = (global_flags % kTimeBit) != 0;
      want_checkpoint = want_checkpoint || stop || global_flags >= kTimeBit;
    }
    if (want_checkpoint) {
      check_finite(cycle);
      if (comm_.any(!local_error_.empty()))
        throw Unstable{local_error_.empty() ? "another rank found NaN/infinite values"
                                            : local_error_};
      take_checkpoint();
    }
    if (stop) {
      sum.interrupted = true;
      if (log) *log << "  stop requested: checkpoint written, stopping\n";
      conclude();
      return false;
    }
    return true;
  } catch (const Unstable& u) {
    sum.error = u.message;
    run_.finished = true;
    // The last good state: positions before this step's update.
    out_.plot.write(d_, t - dt_old, st, true, dt_old); // energies: the last computed ones
    if (log)
      *log << "\n*** error: " << u.message
           << "\n    last good state written at t = " << fmt::format("{:.6e}", t - dt_old) << "\n";
    return false;
  }
}

GlobalStats Integrator::global_stats() const {
  GlobalStats s = stats(run_.lv.cycle, run_.lv.t, run_.lv.dt_old);
  s.initial_total = run_.e0;
  return s;
}

void Integrator::write_output() {
  PhaseScope output_phase(phases().output);
  run_.st = global_stats();
  if (out_.glstat) out_.glstat->write(run_.st);
  out_.plot.write(d_, run_.lv.t, run_.st);
}

RunSummary Integrator::finish() {
  RunSummary& sum = run_.sum;
  std::ostream* log = opt_.log;
  const int cycle = run_.lv.cycle;
  const Real t = run_.lv.t;
  PhaseScope final_phase(phases().output); // closing outputs and the summary
  out_.plot.close();
  sum.elapsed_s = std::chrono::duration<Real>(RunState::clock::now() - run_.t_start).count();
  sum.cycles = cycle;
  sum.time = t;
  GlobalStats& st = run_.st;
  st = global_stats();
  sum.final_stats = st;
  sum.energy_error = std::abs(st.energy_ratio() - 1.0);
  std::string contact_mpp_line;
  if (contacts_.mpp) { // collective: every rank gets here
    const double mine[2] = {static_cast<double>(contacts_.mpp->max_ghost_nodes()),
                            static_cast<double>(contacts_.mpp->plans())};
    const auto all = comm_.gatherv(std::span<const double>(mine, 2));
    std::string ghosts;
    for (std::size_t r = 0; r + 1 < all.size(); r += 2)
      ghosts += fmt::format("{}{}", r ? " / " : "", all[r]);
    if (!all.empty())
      contact_mpp_line = fmt::format("  contact (MPP): ghost nodes imported per cycle per rank "
                                     "(largest plan) {}; {} plans\n",
                                     ghosts, all[1]);
  }
  sum.element_cycles_per_s =
      sum.elapsed_s > 0 ? static_cast<Real>(cycle) * static_cast<Real>(run_.nelem) / sum.elapsed_s
                        : 0;
  // Peak resident memory per rank (collective): the largest, the sum, and rank 0's stages.
  mark_memory("end");
  std::string memory_line;
  {
    const double peak = static_cast<double>(memory_use().peak);
    const auto all = comm_.gatherv(std::span<const double>(&peak, 1));
    if (!all.empty()) {
      const auto top = std::max_element(all.begin(), all.end());
      sum.peak_rss_max = static_cast<std::int64_t>(*top);
      for (double v : all) sum.peak_rss_sum += static_cast<std::int64_t>(v);
      constexpr double mib = 1024.0 * 1024.0;
      std::string stages;
      for (const MemoryMark& m : memory_marks())
        stages += fmt::format("{}{} {:.0f}", stages.empty() ? "" : ", ", m.stage,
                              static_cast<double>(m.use.rss) / mib);
      memory_line = fmt::format(
          "  peak memory per rank {:.0f} MiB (largest, rank {}); all ranks {:.0f} MiB, {:.0f} "
          "bytes per element\n  memory of rank 0 at its stages (resident MiB): {}\n",
          *top / mib, top - all.begin(), static_cast<double>(sum.peak_rss_sum) / mib,
          run_.nelem ? static_cast<double>(sum.peak_rss_sum) / static_cast<double>(run_.nelem)
                     : 0.0,
          stages);
      prof::set_metadata("memory.peak_rss_max_bytes", std::to_string(sum.peak_rss_max));
      prof::set_metadata("memory.peak_rss_sum_bytes", std::to_string(sum.peak_rss_sum));
      prof::set_metadata("memory.elements", std::to_string(run_.nelem));
      prof::set_metadata("memory.stages_rank0_rss_mib", stages);
    }
    clear_memory_marks(); // consumed: a later run in this process lists its own stages
  }
  // Mass scaling during the run: the kinetic energy its added mass brought (collective).
  std::vector<ExactSum> ke_sum{ms_.ke_added};
  if (ms_.on) comm_.sum(ke_sum);
  const Real ke_added = ke_sum[0].result();
  if (log) {
    *log << fmt::format("\n{} termination at cycle {}, time {:.6e}\n",
                        sum.normal_termination ? "normal"
                        : sum.interrupted      ? "interrupted"
                                               : "error",
                        cycle, t);
    *log << fmt::format("  elapsed {:.3f} s, {:.4g} element-cycles/s ({} thread(s))\n",
                        sum.elapsed_s, sum.element_cycles_per_s, omp_get_max_threads());
    *log << fmt::format("  kinetic {:.6e}  internal {:.6e}  hourglass {:.6e}\n", st.kinetic,
                        st.internal, st.hourglass);
    *log << fmt::format("  external work {:.6e}  rigid wall {:.6e}  total {:.6e}\n",
                        st.external_work, st.rigidwall, st.total);
    if (sum.normal_termination || sum.interrupted)
      *log << fmt::format("  energy ratio {:.6f}  (energy error {:.3f}%)\n", st.energy_ratio(),
                          100 * sum.energy_error);
    else // the energies of the state the error stopped (often a blown-up one)
      *log << fmt::format("  energy ratio {:.6g} of the state the error stopped: not a result\n",
                          st.energy_ratio());
    if (st.added_mass > 0)
      *log << fmt::format("  added mass {:.6e} ({:.3f}% of the physical mass; DT2MS {})\n",
                          st.added_mass, st.percent_mass_increase(), model_.control.dt2ms);
    if (ms_.on)
      *log << fmt::format("  kinetic energy brought by the added mass (nodes keep their "
                          "velocity) {:.6e}\n",
                          ke_added);
    *log << contact_mpp_line;
    *log << memory_line;
  }
  return sum;
}

} // namespace explicit_detail

std::string model_summary(const Model& model, const Domain& d, Real dt0, const std::string& dt_kind,
                          GlobalId dt_elem, GlobalId dt_part) {
  std::string s;
  s += fmt::format("model: {}\n", model.control.title.empty() ? "(untitled)" : model.control.title);
  s += fmt::format("  nodes            {}\n", model.nodes.size());
  s += fmt::format("  solid elements   {}\n", model.solids.size());
  s += fmt::format("  shell elements   {}\n", model.shells.size());
  if (model.beams.size() > 0) s += fmt::format("  beam elements    {}\n", model.beams.size());
  s += fmt::format("  rigid bodies     {}\n", d.bodies.size());
  s += "  parts:\n";
  for (const auto& p : model.parts) {
    const Material* m = model.find_material(p.mid);
    const Section* sec = model.find_section(p.secid);
    // e.g. "PLASTIC_KINEMATIC (003)": the card name without *MAT_ and the law number
    const std::string mat_name =
        m ? fmt::format("{} ({})", std::string_view(material_law(m->kind).card).substr(5),
                        material_law(m->kind).number)
          : "?";
    s += fmt::format("    part {:>6} {:<24} mat {} {:<34} sec {} {}", p.id,
                     p.title.empty() ? "-" : p.title, p.mid, mat_name, p.secid,
                     sec ? section_kind_name(sec->kind) : "?");
    s += sec && sec->kind != SectionKind::Discrete ? fmt::format(" elform {}\n", sec->elform)
                                                   : std::string("\n");
  }
  s += fmt::format("  total mass       {:.6e}\n", d.physical_mass + d.added_mass);
  if (d.added_mass > 0)
    s += fmt::format("  added mass       {:.6e} ({:.3f}% by mass scaling, DT2MS)\n", d.added_mass,
                     100 * d.added_mass / d.physical_mass);
  s += fmt::format("  initial dt       {:.6e} (TSSFAC {}), controlled by {} {} of part {}\n", dt0,
                   model.control.tssfac, dt_kind.empty() ? "-" : dt_kind, dt_elem, dt_part);
  s += fmt::format("  termination time {:.6e}\n", model.control.endtim);
  return s;
}

RunSummary run_explicit(const Model& model, const RunOptions& opt) {
  using explicit_detail::Integrator;
  using explicit_detail::phases;
  using prof::PhaseScope;
  std::optional<PhaseScope> setup_phase(std::in_place, phases().setup);
  Integrator integ(model, opt);
  setup_phase.reset();
  return run_solver(integ);
}

} // namespace parcae
