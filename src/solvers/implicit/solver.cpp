// ImplicitSolver: set-up (partition, equation numbering, element data), one load or time step
// per advance() (Newton-Raphson with line search; automatic step size), eigenvalues, the
// scratch directory of the out-of-core factorisation.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <map>
#include <numbers>
#include <unistd.h>

#include "core/error.hpp"
#include "prof/phase.hpp"
#include "solvers/implicit/solver_impl.hpp"

namespace parcae::implicit {

namespace {

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

linalg::SolverOptions linear_options(const ImplicitControls& c) {
  linalg::SolverOptions o;
  if (c.lsolvr >= 10 && c.lsolvr <= 12)
    o.method = linalg::SolverMethod::CgGamg;
  else if (c.lsolvr >= 13)
    o.method = linalg::SolverMethod::CgBoomerAmg;
  o.out_of_core = c.absmem == -1;
  if (c.absmem > 0) o.in_core_limit_bytes = 8 * c.absmem;
  return o;
}

} // namespace

ImplicitSolver::ImplicitSolver(const Model& model, const RunOptions& opt,
                               const ImplicitOptions& iopt, ImplicitResult* result)
    : model_(model), opt_(opt), iopt_(iopt), result_(result),
      comm_(opt.comm ? *opt.comm : par::Comm()), c_(model.control.implicit) {}

ImplicitSolver::~ImplicitSolver() = default;

void ImplicitSolver::setup() {
  wall0_ = now_s();
  libs_ = std::make_unique<linalg::Libraries>(comm_);
  if (!model_.motions.empty())
    throw InputError(model_.motions.front().loc,
                     "*BOUNDARY_PRESCRIBED_MOTION is not supported by the implicit solver (use "
                     "*BOUNDARY_SPC and loads)");
  if (!model_.contacts.empty() || !model_.rigid_walls.empty() || !model_.body_loads.empty() ||
      !model_.rigid_body_loads.empty())
    throw InputError(model_.control.implicit.general_loc,
                     "contacts, rigid walls, body loads and rigid-body loads are not supported by "
                     "the implicit solver");
  if (!model_.element_deaths.empty())
    throw InputError(model_.element_deaths.front().loc,
                     "*DEFINE_ELEMENT_DEATH is not supported by the implicit solver");
  if (!model_.joint_stiffnesses.empty())
    throw InputError(model_.joint_stiffnesses.front().loc,
                     "*CONSTRAINED_JOINT_STIFFNESS_GENERALIZED is not supported by the implicit "
                     "solver");
  if (!model_.interpolations.empty())
    throw InputError(model_.interpolations.front().loc,
                     "*CONSTRAINED_INTERPOLATION is not supported by the implicit solver");
  if (!model_.initial_stresses.empty())
    throw InputError(model_.initial_stresses.front().loc,
                     "*INITIAL_STRESS_SOLID is not supported by the implicit solver");
  if (!model_.initial_shell_stresses.empty())
    throw InputError(model_.initial_shell_stresses.front().loc,
                     "*INITIAL_STRESS_SHELL is not supported by the implicit solver");
  if (model_.control.damping.on)
    throw InputError(model_.control.damping.loc,
                     "*DAMPING_GLOBAL is not supported by the implicit solver");
  if (!model_.part_masses.empty() && model_.control.implicit.imass != 0)
    throw InputError(model_.part_masses.front().loc,
                     "*ELEMENT_MASS_PART is not supported by the implicit solver's dynamics "
                     "(IMASS = 1); a static analysis ignores it");
  if (!model_.lumped_masses.empty() && model_.control.implicit.imass != 0)
    throw InputError(model_.lumped_masses.front().loc,
                     "lumped masses (*ELEMENT_MASS, *ELEMENT_INERTIA) are not supported by the "
                     "implicit solver's dynamics (IMASS = 1); a static analysis ignores them");
  for (const Spc& s : model_.spcs)
    if (s.skew)
      throw InputError(model_.control.implicit.general_loc,
                       fmt::format("node {}: constraints in a skewed local system (*BOUNDARY_SPC "
                                   "CID) are not supported by the implicit solver",
                                   model_.nodes.id[s.node]));
  std::vector<std::uint8_t> shell_node(model_.nodes.size(), 0);
  for (const auto& nodes : model_.shells.nodes)
    for (LocalId n : nodes) shell_node[n] = 1;
  for (const NodalLoad& l : model_.nodal_loads) {
    if (l.dof >= 1 && l.dof <= 3) continue;
    if (l.dof < 5 || l.dof > 7)
      throw InputError(l.loc, fmt::format("nodal load DOF {}: the implicit solver takes forces "
                                          "(DOF 1-3) and moments (DOF 5-7, at shell nodes)",
                                          l.dof));
    // Moments need rotations: nodes of shells only.
    std::vector<GlobalId> ids;
    if (!l.is_set)
      ids.push_back(l.target_id);
    else if (const auto it = model_.node_sets.find(l.target_id); it != model_.node_sets.end())
      ids = it->second.members;
    for (GlobalId id : ids) {
      const LocalId n = model_.node_index(id);
      if (n == kInvalidLocal || !shell_node[n])
        throw InputError(l.loc, fmt::format("nodal load DOF {} (a moment) on node {}: the node "
                                            "belongs to no shell, so it has no rotations in the "
                                            "implicit solver",
                                            l.dof, id));
    }
  }
  dynamic_ = c_.imass == 1;
  eigen_ = c_.neig > 0;
  linear_ = c_.nsolvr == 1;
  // Nonlinear runs are geometrically nonlinear on ELFORM 2 (total Lagrangian, as LS-DYNA's
  // IMFLAG 1); linear runs (NSOLVR 1) and ELFORM 18 are small-strain.
  large_strain_ = !linear_;
  end_time_ = model_.control.endtim;
  dt_ = c_.dt0 > 0 ? c_.dt0 : end_time_;
  dtmin_ = c_.dtmin > 0 ? c_.dtmin : dt_ / 1000;
  dtmax_ = c_.dtmax > 0 ? c_.dtmax : 10 * dt_;
  // Materials and elements.
  std::map<GlobalId, int> law_of_mid;
  for (const Material& m : model_.materials) {
    law_of_mid[m.id] = static_cast<int>(laws_.size());
    laws_.push_back(point_law(model_, m));
  }
  const std::vector<int>* ranks = opt_.ranks ? &opt_.ranks->solid : nullptr;
  const std::vector<int>* shell_ranks =
      opt_.ranks && !model_.shells.id.empty() ? &opt_.ranks->shell : nullptr;
  if (shell_ranks && shell_ranks->size() != model_.shells.size())
    throw RuntimeError("implicit solver: the decomposition gives no rank to the shells");
  map_ = build_dof_map(model_, ranks ? std::span<const int>(*ranks) : std::span<const int>(),
                       shell_ranks ? std::span<const int>(*shell_ranks) : std::span<const int>(),
                       comm_.size(), comm_.rank());
  local_of_.assign(model_.nodes.size(), -1);
  const auto local = [&](LocalId n) {
    if (local_of_[n] < 0) {
      local_of_[n] = static_cast<int>(nodes_.size());
      nodes_.push_back(n);
    }
    return local_of_[n];
  };
  for (std::size_t e = 0; e < model_.solids.size(); ++e) {
    if (ranks && (*ranks)[e] != comm_.rank()) continue;
    if (!ranks && comm_.rank() != 0) continue;
    const Part* p = model_.find_part(model_.solids.part[e]);
    const Section* s = model_.find_section(p->secid);
    Element el;
    el.model_index = e;
    el.law = law_of_mid.at(p->mid);
    el.incompatible = s->elform == 18;
    if (el.incompatible && laws_[static_cast<std::size_t>(el.law)].kind != PointLaw::Kind::Elastic)
      throw InputError(s->loc, fmt::format("*SECTION_SOLID {} (part {}): ELFORM 18 (enhanced "
                                           "strain, linear) takes elastic materials only: use "
                                           "ELFORM 2 with *MAT_003 / *MAT_024",
                                           s->id, p->id));
    for (int a = 0; a < 8; ++a) el.node[a] = local(model_.solids.nodes[e][a]);
    elems_.push_back(el);
  }
  // Shells (MITC4): the ranks of the decomposition, or all on rank 0. Every rank checks every
  // shell (the same error everywhere, no rank left waiting in a collective).
  for (std::size_t e = 0; e < model_.shells.size(); ++e) {
    const bool mine = shell_ranks ? (*shell_ranks)[e] == comm_.rank() : comm_.rank() == 0;
    const Part* p = model_.find_part(model_.shells.part[e]);
    const Section* s = model_.find_section(p->secid);
    const auto where = [&] { return fmt::format("*SECTION_SHELL {} (part {})", s->id, p->id); };
    if (s->kind != SectionKind::Shell)
      throw InputError(
          s->loc, fmt::format("section {} of shell part {} is not a *SECTION_SHELL", s->id, p->id));
    if (s->elform != 0 && s->elform != 2 && s->elform != 16)
      throw InputError(s->elform_loc.line > 0 ? s->elform_loc : s->loc,
                       fmt::format("{}: ELFORM {} is not supported by the implicit solver (its "
                                   "shells are MITC4, used for ELFORM 0, 2 and 16)",
                                   where(), s->elform));
    if (s->icomp != 0)
      throw InputError(s->loc, fmt::format("{}: ICOMP = 1 (composite layers) is not supported by "
                                           "the implicit solver",
                                           where()));
    if (p->layup >= 0 || model_.shells.layup_of(e) >= 0)
      throw InputError(
          p->layup >= 0
              ? p->loc
              : model_.shell_layups[static_cast<std::size_t>(model_.shells.layup_of(e))].loc,
          fmt::format("shell element {} (part {}): layers, BETA or an offset "
                      "(*PART_COMPOSITE, *ELEMENT_SHELL_COMPOSITE, _BETA, _OFFSET) "
                      "are not supported by the implicit solver",
                      model_.shells.id[e], p->id));
    if (s->nloc != 0)
      throw InputError(s->loc, fmt::format("{}: NLOC = {} (an offset reference surface) is not "
                                           "supported by the implicit solver (NLOC = 0)",
                                           where(), s->nloc));
    if (s->qr_irid != 0)
      throw InputError(s->loc, fmt::format("{}: QR/IRID = {} (a user quadrature rule) is not "
                                           "supported by the implicit solver",
                                           where(), s->qr_irid));
    ShellElement el;
    el.model_index = e;
    el.law = law_of_mid.at(p->mid);
    el.section.nip = s->nip == 0 ? 2 : s->nip;
    if (el.section.nip < 1 || el.section.nip > 10)
      throw InputError(s->loc,
                       fmt::format("{}: NIP = {} (must be 1..10)", where(), el.section.nip));
    el.section.lobatto = model_.control.shell_intgrd == 1;
    el.section.shrf = s->shrf == 0 ? 1.0 : s->shrf;
    const auto& tn = model_.shells.thickness[e];
    const bool nodal = tn[0] != 0 || tn[1] != 0 || tn[2] != 0 || tn[3] != 0;
    const auto& tt = nodal ? tn : s->t;
    const bool tri = model_.shells.nodes[e][2] == model_.shells.nodes[e][3];
    el.section.thickness =
        tri ? (tt[0] + tt[1] + tt[2]) / 3.0 : 0.25 * (tt[0] + tt[1] + tt[2] + tt[3]);
    if (!(el.section.thickness > 0))
      throw InputError(s->loc, fmt::format("{}: shell {} has no thickness (T1..T4 or "
                                           "*ELEMENT_SHELL_THICKNESS)",
                                           where(), model_.shells.id[e]));
    if (!mine) continue;
    for (int a = 0; a < 4; ++a) el.node[a] = local(model_.shells.nodes[e][a]);
    const auto np = static_cast<std::size_t>(shell4_points(el.section.nip));
    el.old.assign(np, {});
    el.now.assign(np, {});
    el.stress.assign(np, {});
    el.stress_old.assign(np, {});
    el.eps.assign(np, {});
    el.eps_old.assign(np, {});
    shells_.push_back(std::move(el));
  }
  for (std::size_t n = 0; n < model_.nodes.size(); ++n)
    if (map_.owner[n] == comm_.rank()) local(static_cast<LocalId>(n));
  owned_.resize(nodes_.size());
  constexpr std::size_t nd = kNodeDofs;
  dofs_.resize(nd * nodes_.size());
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    owned_[i] = map_.owner[nodes_[i]] == comm_.rank();
    for (std::size_t c = 0; c < nd; ++c) dofs_[nd * i + c] = map_.eq[nd * nodes_[i] + c];
  }
  for (auto* v : {&u_, &u_n_, &v_, &a_, &v_n_, &a_n_, &u_pred_}) v->assign(nd * nodes_.size(), 0.0);
  if (map_.n_global == 0)
    throw InputError(model_.control.implicit.general_loc, "the implicit model has no free dofs");
  sys_ = std::make_unique<linalg::SparseSystem>(comm_, map_.row_begin, map_.row_end, map_.n_global,
                                                map_.d_nnz, map_.o_nnz);
  lin_ = linear_options(c_);
  if (lin_.method != linalg::SolverMethod::Direct) {
    // Rigid-body modes (3 translations, 3 rotations about the centroid) at the owned free
    // dofs: the near null space of elasticity for the algebraic multigrid.
    const auto nloc = static_cast<std::size_t>(map_.row_end - map_.row_begin);
    std::vector<std::vector<double>> modes(6, std::vector<double>(nloc, 0.0));
    for (std::size_t n = 0; n < model_.nodes.size(); ++n) {
      if (map_.owner[n] != comm_.rank()) continue;
      const double p[3] = {model_.nodes.x[n], model_.nodes.y[n], model_.nodes.z[n]};
      for (int c = 0; c < 3; ++c) {
        const std::int64_t row = map_.eq[nd * n + static_cast<std::size_t>(c)];
        if (row < 0) continue;
        const auto r = static_cast<std::size_t>(row - map_.row_begin);
        modes[static_cast<std::size_t>(c)][r] = 1;
        // rotation about axis k: e_k x p, component c
        for (int k = 0; k < 3; ++k) {
          const int i = (k + 1) % 3, j = (k + 2) % 3; // (e_k x p)_i = -p_j?, see below
          double v = 0;
          if (c == i) v = -p[j];
          if (c == j) v = p[i];
          modes[static_cast<std::size_t>(3 + k)][r] += v;
        }
      }
      // Rotational dofs (shell nodes): the rigid rotation about axis k turns them by 1.
      for (std::size_t k = 0; k < 3; ++k) {
        const std::int64_t row = map_.eq[nd * n + 3 + k];
        if (row >= 0) modes[3 + k][static_cast<std::size_t>(row - map_.row_begin)] = 1;
      }
    }
    sys_->set_near_null_space(modes);
  }
  // Scratch: <dir>/parcae_scratch_<pid of rank 0>/rank<r> (several jobs may share a target).
  std::vector<double> pid{static_cast<double>(getpid())};
  comm_.broadcast(pid);
  const std::string base = iopt_.scratch_dir.empty() ? opt_.outdir : iopt_.scratch_dir;
  scratch_run_ = (std::filesystem::path(base) /
                  fmt::format("parcae_scratch_{}", static_cast<long long>(pid[0])))
                     .string();
  scratch_rank_ =
      (std::filesystem::path(scratch_run_) / fmt::format("rank{}", comm_.rank())).string();
  std::filesystem::create_directories(scratch_rank_);
  lin_.scratch_dir = scratch_rank_;
  // The profiler's POSIX I/O accounting counts the scratch files (the out-of-core factors)
  // unless the user chose directories (PARCAE_PROFILE_IO_PREFIX).
  if (!std::getenv("PARCAE_PROFILE_IO_PREFIX")) prof::set_io_prefix(scratch_run_);
  if (result_) {
    result_->equations = map_.n_global;
    result_->scratch_run_dir = scratch_run_;
  }
  const bool restart = !opt_.restart_from.empty() && !eigen_;
  if (restart) {
    restore_from_checkpoint(); // rewinds the outputs, then they are opened to append
    open_outputs(true);
  } else {
    open_outputs();
  }
  int n18 = 0;
  for (const Element& e : elems_) n18 += e.incompatible ? 1 : 0;
  const std::int64_t all18 = comm_.sum(static_cast<std::int64_t>(n18)); // collective
  if (opt_.log) {
    const char* method = lin_.method == linalg::SolverMethod::Direct   ? "MUMPS (direct)"
                         : lin_.method == linalg::SolverMethod::CgGamg ? "CG + GAMG"
                                                                       : "CG + BoomerAMG";
    *opt_.log << fmt::format(
        "implicit {}: {} nodes, {} hexahedra ({} ELFORM 18, {} ELFORM 2), {} shells (MITC4{}), {} "
        "equations on {} rank(s)\n  linear solver {}{}; {}; end time "
        "{}, first step {}{}\n",
        eigen_     ? "eigenvalue analysis"
        : dynamic_ ? "Newmark dynamics"
                   : "statics",
        model_.nodes.size(), model_.solids.size(), all18,
        static_cast<std::int64_t>(model_.solids.size()) - all18, model_.shells.size(),
        large_strain_ ? ", co-rotational" : ", small displacements", map_.n_global, comm_.size(),
        method,
        lin_.method != linalg::SolverMethod::Direct ? ""
        : lin_.out_of_core             ? fmt::format(", out of core into {}", scratch_run_)
        : lin_.in_core_limit_bytes > 0 ? fmt::format(", out of core above {:.0f} MB into {}",
                                                     lin_.in_core_limit_bytes / 1e6, scratch_run_)
                                       : ", in core",
        linear_ ? "linear (NSOLVR 1)"
                : fmt::format("Newton-Raphson, at most {} iterations, DCTOL {} ECTOL {}", c_.maxref,
                              c_.dctol, c_.ectol),
        end_time_, dt_, c_.iauto == 1 ? " (automatic)" : "");
  }
  if (restart) return;
  if (dynamic_ && !eigen_) {
    // Initial acceleration: M a0 = f_ext(0) - f_int(0).
    assemble(Assemble::Mass, 0.0, *sys_);
    mass_coef_ = 0;
    auto tmp = std::make_unique<linalg::SparseSystem>(comm_, map_.row_begin, map_.row_end,
                                                      map_.n_global, map_.d_nnz, map_.o_nnz);
    assemble(Assemble::Residual, 0.0, *tmp);
    const auto r = tmp->vector_values(dofs_);
    sys_->zero_vector();
    sys_->add_vector(dofs_, [&] {
      std::vector<double> own(r.size(), 0.0);
      for (std::size_t i = 0; i < nodes_.size(); ++i)
        if (owned_[i])
          for (std::size_t c = 0; c < nd; ++c) own[nd * i + c] = r[nd * i + c];
      return own;
    }());
    sys_->assemble();
    prof::PhaseScope solve_scope(prof::phase_id("linear_solve"));
    sys_->solve(lin_, dofs_, a_);
    a_n_ = a_;
  }
  write_state(0.0);
}

bool ImplicitSolver::advance() {
  if (failed_) return false;
  if (eigen_) {
    assemble(Assemble::Tangent, 0.0, *sys_);
    auto m = std::make_unique<linalg::SparseSystem>(comm_, map_.row_begin, map_.row_end,
                                                    map_.n_global, map_.d_nnz, map_.o_nnz);
    assemble(Assemble::Mass, 0.0, *m);
    const double w = 2 * std::numbers::pi * c_.center;
    const auto r = [&] {
      prof::PhaseScope solve_scope(prof::phase_id("linear_solve"));
      return linalg::solve_eigen(*sys_, *m, c_.neig, w * w, lin_, dofs_);
    }();
    write_eigen(r);
    eigen_ = false;
    failed_ = false;
    time_ = end_time_;
    return false;
  }
  if (time_ >= end_time_ * (1 - 1e-12)) return false;
  double dt = std::min(dt_, end_time_ - time_);
  for (;;) {
    const double t = time_ + dt;
    // Start from the converged state.
    u_ = u_n_;
    for (Element& e : elems_) e.now = e.old;
    for (ShellElement& e : shells_) e.now = e.old;
    if (dynamic_) {
      const double b = c_.beta;
      mass_coef_ = 1 / (b * dt * dt);
      for (std::size_t i = 0; i < u_.size(); ++i)
        u_pred_[i] = u_n_[i] + dt * v_n_[i] + dt * dt * (0.5 - b) * a_n_[i];
    }
    bool converged = false;
    int it = 0;
    double e0 = 0;
    std::vector<IterationRecord> records;
    std::string why;
    try {
      for (it = 1; it <= (linear_ ? 1 : c_.maxref); ++it) {
        const double t0 = now_s();
        assemble(Assemble::Tangent, t, *sys_);
        const double rnorm = sys_->vector_norm();
        if (!std::isfinite(rnorm)) {
          why = "the residual is not finite";
          break;
        }
        IterationRecord rec{step_ + 1, it, t, dt, rnorm, 0, 0, 1, 0};
        if (it > 1 && rnorm < c_.abstol) {
          rec.solve_seconds = now_s() - t0;
          records.push_back(rec);
          converged = true;
          break;
        }
        const auto r = sys_->vector_values(dofs_);
        std::vector<double> du;
        const auto st = [&] {
          static const int solve_phase = prof::phase_id("linear_solve");
          prof::PhaseScope solve_scope(solve_phase);
          return sys_->solve(lin_, dofs_, du);
        }();
        if (result_) {
          result_->factor_seconds += st.factor_seconds;
          result_->solve_seconds += st.solve_seconds;
          result_->factor_memory_mb = std::max(result_->factor_memory_mb, st.memory_used_mb);
          result_->scratch_bytes = std::max(result_->scratch_bytes, st.scratch_bytes);
          result_->out_of_core |= st.out_of_core;
        }
        if (c_.lprint > 0 && opt_.log)
          *opt_.log << fmt::format(
              "  linear solve: {} eq, factor {:.3f} s, solve {:.3f} s, "
              "MUMPS memory {:.0f} MB (estimate {:.0f} MB){}{}\n",
              map_.n_global, st.factor_seconds, st.solve_seconds, st.memory_used_mb,
              st.memory_estimate_mb,
              st.out_of_core ? fmt::format(", out of core {} bytes", st.scratch_bytes) : "",
              st.iterations > 0 ? fmt::format(", {} CG iterations", st.iterations) : "");
        const double g0 = owned_dot(du, r);
        if (it == 1) e0 = std::abs(g0);
        double s = 1;
        if (!linear_ && c_.lstol > 0 && c_.lstol < 1e9 && it > 1) {
          // Line search on g(s) = du . R(u + s du): one secant step when |g(1)| > LSTOL |g(0)|.
          const std::vector<double> u_save = u_;
          for (std::size_t i = 0; i < u_.size(); ++i) u_[i] += du[i];
          assemble(Assemble::Residual, t, *sys_);
          const double g1 = owned_dot(du, sys_->vector_values(dofs_));
          if (std::abs(g1) > c_.lstol * std::abs(g0) && g0 != g1)
            s = std::clamp(g0 / (g0 - g1), 0.1, 1.0);
          u_ = u_save;
          for (Element& e : elems_) e.now = e.old;
          for (ShellElement& e : shells_) e.now = e.old;
        }
        for (std::size_t i = 0; i < u_.size(); ++i) u_[i] += s * du[i];
        std::vector<double> inc(u_.size());
        for (std::size_t i = 0; i < u_.size(); ++i) inc[i] = u_[i] - u_n_[i];
        const double dnorm = std::sqrt(owned_dot(du, du)) * s;
        const double inorm = std::sqrt(owned_dot(inc, inc));
        rec.displacement_ratio = inorm > 0 ? dnorm / inorm : 0;
        rec.energy_ratio = e0 > 0 ? std::abs(s * g0) / e0 : 0;
        rec.line_search = s;
        rec.solve_seconds = now_s() - t0;
        records.push_back(rec);
        if (linear_ || (rec.displacement_ratio < c_.dctol && rec.energy_ratio < c_.ectol &&
                        (c_.rctol >= 1e10 || rnorm <= c_.rctol * records.front().residual_norm))) {
          if (!linear_) {
            // The material states of the accepted u (the last assembly was before the update).
            assemble(Assemble::Residual, t, *sys_);
            IterationRecord fin = rec;
            fin.iteration = it + 1;
            fin.residual_norm = sys_->vector_norm();
            fin.displacement_ratio = fin.energy_ratio = 0;
            fin.solve_seconds = 0;
            records.push_back(fin);
          } else {
            assemble(Assemble::Residual, t, *sys_);
          }
          converged = true;
          break;
        }
      }
      if (!converged && why.empty())
        why = fmt::format("no convergence in {} iterations", linear_ ? 1 : c_.maxref);
    } catch (const RuntimeError& e) {
      why = e.what();
      converged = false;
    }
    for (const IterationRecord& r : records) log_iteration(r);
    if (converged) {
      ++step_;
      time_ = t;
      for (Element& e : elems_) {
        e.old = e.now;
        e.stress_old = e.stress;
        e.eps_old = e.eps;
        e.cauchy_old = e.cauchy;
      }
      for (ShellElement& e : shells_) {
        e.old = e.now;
        e.stress_old = e.stress;
        e.eps_old = e.eps;
      }
      if (dynamic_) {
        const double b = c_.beta, g = c_.gamma;
        for (std::size_t i = 0; i < u_.size(); ++i) {
          a_[i] = (u_[i] - u_pred_[i]) / (b * dt * dt);
          v_[i] = v_n_[i] + dt * ((1 - g) * a_n_[i] + g * a_[i]);
        }
        a_n_ = a_;
        v_n_ = v_;
      }
      u_n_ = u_;
      if (opt_.log)
        *opt_.log << fmt::format("step {:5d}  t {:12.5e}  dt {:10.3e}  iterations {:2d}  "
                                 "residual {:10.3e}\n",
                                 step_, time_, dt, static_cast<int>(records.size()),
                                 records.back().residual_norm);
      if (c_.iauto == 1) {
        const int n = it;
        if (n < c_.iteopt - c_.itewin)
          dt_ = std::min(dt * 1.5, dtmax_);
        else if (n > c_.iteopt + c_.itewin)
          dt_ = std::max(dt * 0.7, dtmin_);
        else
          dt_ = dt;
      }
      write_state(time_);
      const bool more = time_ < end_time_ * (1 - 1e-12);
      const bool stop = opt_.stop_request && comm_.any(*opt_.stop_request != 0);
      if (more &&
          (stop || (opt_.checkpoint_every_cycles > 0 && step_ % opt_.checkpoint_every_cycles == 0)))
        write_checkpoint_now();
      if (more && stop) {
        interrupted_ = true;
        return false;
      }
      return more;
    }
    if (c_.iauto == 1 && dt / 2 >= dtmin_ * (1 - 1e-12)) {
      if (opt_.log)
        *opt_.log << fmt::format("step {:5d}  t {:12.5e}: {}; retried with dt {:10.3e}\n",
                                 step_ + 1, t, why, dt / 2);
      dt /= 2;
      continue;
    }
    failed_ = true;
    error_ = fmt::format("step {} (t = {:.6g}, dt = {:.3g}): {}{}", step_ + 1, t, dt, why,
                         c_.iauto == 1 ? " (the step is at DTMIN)"
                                       : " (automatic stepping is off: *CONTROL_IMPLICIT_AUTO)");
    return false;
  }
}

void ImplicitSolver::write_checkpoint_now() {
  StateArchive ar;
  visit_state(ar);
  CheckpointInfo info;
  info.cycle = step_;
  info.time = time_;
  info.deck = opt_.deck_path;
  info.fingerprint = static_cast<std::uint64_t>(map_.n_global);
  if (comm_.rank() == 0) info.outputs = output_file_sizes(opt_.outdir);
  last_checkpoint_ = write_checkpoint(comm_, opt_.outdir, info, ar.bytes()).string();
  if (opt_.log) *opt_.log << "checkpoint " << last_checkpoint_ << "\n";
}

void ImplicitSolver::restore_from_checkpoint() {
  std::string error;
  const CheckpointInfo info =
      prepare_restart(comm_, opt_.restart_from, opt_.outdir, [&](const CheckpointInfo& c) {
        if (c.fingerprint != static_cast<std::uint64_t>(map_.n_global))
          throw RuntimeError(fmt::format("checkpoint {} is of a model with {} equations, this "
                                         "deck has {}",
                                         c.dir.string(), c.fingerprint, map_.n_global));
      });
  try {
    const auto file = info.dir / fmt::format("rank-{:05d}.bin", comm_.rank());
    StateArchive ar(read_checkpoint_file(file), file.string());
    visit_state(ar);
    ar.expect_end();
  } catch (const std::exception& e) {
    error = e.what();
  }
  if (comm_.any(!error.empty()))
    throw RuntimeError(error.empty() ? "restart failed on another rank" : error);
  restarted_from_ = step_;
  if (opt_.log)
    *opt_.log << fmt::format("restarted from {} (step {}, t = {:.6g})\n", info.dir.string(), step_,
                             time_);
}

void ImplicitSolver::visit_state(StateArchive& ar) {
  ar.pod(time_);
  ar.pod(dt_);
  ar.pod(step_);
  ar.vec(u_n_);
  ar.vec(v_n_);
  ar.vec(a_n_);
  for (Element& e : elems_) {
    ar.pod(e.old);
    ar.pod(e.stress_old);
    ar.pod(e.eps_old);
    ar.pod(e.cauchy_old);
  }
  for (ShellElement& e : shells_) {
    ar.vec(e.old);
    ar.vec(e.stress_old);
    ar.vec(e.eps_old);
  }
  if (ar.loading()) {
    u_ = u_n_;
    v_ = v_n_;
    a_ = a_n_;
  }
}

void ImplicitSolver::write_output() {
  write_state(time_);
}

RunSummary ImplicitSolver::finish() {
  RunSummary s;
  s.normal_termination = !failed_;
  s.error = error_;
  s.cycles = step_;
  s.time = time_;
  s.elapsed_s = now_s() - wall0_;
  s.final_stats = global_stats();
  s.interrupted = interrupted_;
  s.last_checkpoint = last_checkpoint_;
  s.restarted_from_cycle = restarted_from_;
  if (interrupted_) {
    s.normal_termination = false;
    s.error = "stopped on request after writing a checkpoint";
  }
  if (result_) {
    result_->u = all_nodes(u_n_);
    std::vector<double> epsp;
    all_elements(result_->stress, epsp);
    result_->steps = step_;
    result_->summary = s;
  }
  if (d3plot_) d3plot_->close();
  d3plot_.reset();
  glstat_.reset();
  nodout_.reset();
  if (history_.is_open()) history_.close();
  sys_.reset();
  // Scratch: removed after a normal run, kept (and named) after a failure.
  comm_.barrier();
  if (!failed_) {
    std::error_code ec;
    std::filesystem::remove_all(scratch_rank_, ec);
    comm_.barrier();
    // Every rank: the per-run folder may be local to each node (or, in tests, to each rank);
    // remove() leaves a folder that is not yet empty alone.
    std::filesystem::remove(scratch_run_, ec);
  } else {
    s.error += fmt::format(" (scratch files kept in {})", scratch_run_);
    if (result_) result_->summary = s;
  }
  libs_.reset();
  return s;
}

} // namespace parcae::implicit

namespace parcae {

std::unique_ptr<Solver> make_implicit_solver(const Model& model, const RunOptions& opt,
                                             const ImplicitOptions& iopt, ImplicitResult* result) {
  return std::make_unique<implicit::ImplicitSolver>(model, opt, iopt, result);
}

ImplicitResult run_implicit(const Model& model, const RunOptions& opt,
                            const ImplicitOptions& iopt) {
  ImplicitResult r;
  auto solver = make_implicit_solver(model, opt, iopt, &r);
  r.summary = run_solver(*solver);
  return r;
}

} // namespace parcae
