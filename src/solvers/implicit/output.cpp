// The implicit solver's outputs: d3plot states per step (rank 0 writes what every rank sent),
// glstat, the convergence history (convergence.csv: one line per Newton iteration), and for an
// eigenvalue analysis LS-DYNA's eigout table and the mode shapes as a d3plot-format d3eigv
// family (one state per mode, its time the frequency).
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <numbers>

#include "fem/shell_bt.hpp"
#include "solvers/implicit/solver_impl.hpp"

namespace parcae::implicit {

std::vector<double> ImplicitSolver::all_nodes(const std::vector<double>& local) const {
  std::vector<double> send;
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    if (!owned_[i]) continue;
    send.push_back(static_cast<double>(nodes_[i]));
    for (int c = 0; c < 3; ++c) send.push_back(local[kNodeDofs * i + c]);
  }
  const std::vector<double> all = comm_.allgatherv(send);
  std::vector<double> out(3 * model_.nodes.size(), 0.0);
  for (std::size_t k = 0; k + 3 < all.size(); k += 4) {
    const auto n = static_cast<std::size_t>(all[k]);
    for (int c = 0; c < 3; ++c) out[3 * n + c] = all[k + 1 + c];
  }
  return out;
}

void ImplicitSolver::all_elements(std::vector<std::array<double, 6>>& stress,
                                  std::vector<double>& epsp) const {
  std::vector<double> send;
  for (const Element& e : elems_) {
    send.push_back(static_cast<double>(e.model_index));
    double ep = 0;
    for (int q = 0; q < 8; ++q) {
      for (int i = 0; i < 6; ++i) send.push_back(e.cauchy_old[q][i]);
      ep += e.old[q].epsp / 8;
    }
    send.push_back(ep);
  }
  const std::vector<double> all = comm_.allgatherv(send);
  const std::size_t ne = model_.solids.size(), rec = 1 + 48 + 1;
  stress.assign(8 * ne, {});
  epsp.assign(ne, 0.0);
  for (std::size_t k = 0; k + rec <= all.size(); k += rec) {
    const auto e = static_cast<std::size_t>(all[k]);
    for (int q = 0; q < 8; ++q)
      for (int i = 0; i < 6; ++i) stress[8 * e + q][i] = all[k + 1 + q * 6 + i];
    epsp[e] = all[k + 49];
  }
}

std::vector<double> ImplicitSolver::all_shells() const {
  std::vector<double> send;
  for (const ShellElement& e : shells_) {
    send.push_back(static_cast<double>(e.model_index));
    // Stresses to global axes through the current element frame (the co-rotational one in
    // nonlinear runs; the same as the initial one to first order in linear runs).
    ShellCoords xc = coords(e);
    const ShellVector ue = gather(e, u_n_);
    for (int a = 0; a < 4; ++a)
      for (int i = 0; i < 3; ++i) xc[a * 3 + i] += ue[a * 6 + i];
    const ShellFrame fr = shell4_frame(xc);
    const int nip = e.section.nip;
    const double t = e.section.thickness;
    std::array<double, 10> zeta{}, wz{};
    shell_thickness_rule(nip, e.section.lobatto, std::span<double>(zeta.data(), nip),
                         std::span<double>(wz.data(), nip));
    // Layers: the lowest, middle (the mean of the two middle points for an even NIP) and
    // highest points, element means of the 4 in-plane points.
    const std::array<std::array<int, 2>, 3> layer = {
        std::array<int, 2>{0, 0}, {(nip - 1) / 2, nip / 2}, {nip - 1, nip - 1}};
    for (const auto& l : layer) {
      ShellPoint mean{};
      double ep = 0;
      for (int q = 0; q < 4; ++q)
        for (int k : l) {
          const auto p = static_cast<std::size_t>(q * nip + k);
          for (int i = 0; i < 5; ++i) mean[i] += e.stress_old[p][i] / 8;
          ep += e.old[p].epsp / 8;
        }
      for (double v : shell_stress_to_global(fr, mean)) send.push_back(v);
      send.push_back(ep);
    }
    std::array<double, 8> res{}; // Mxx Myy Mxy Qyz Qxz Nxx Nyy Nxy (element means)
    for (int q = 0; q < 4; ++q)
      for (int k = 0; k < nip; ++k) {
        const ShellPoint& sp = e.stress_old[static_cast<std::size_t>(q * nip + k)];
        const double w = 0.5 * t * wz[k] / 4, z = 0.5 * t * zeta[k];
        for (int i = 0; i < 3; ++i) {
          res[i] += w * z * sp[i];
          res[5 + i] += w * sp[i];
        }
        res[3] += w * sp[3];
        res[4] += w * sp[4];
      }
    send.insert(send.end(), res.begin(), res.end());
    send.push_back(t);
  }
  return comm_.allgatherv(send);
}

namespace {

D3plotGeometry geometry(const Model& m) {
  D3plotGeometry g;
  g.title = m.control.title;
  for (std::size_t n = 0; n < m.nodes.size(); ++n) {
    g.x0.insert(g.x0.end(), {m.nodes.x[n], m.nodes.y[n], m.nodes.z[n]});
    g.node_id.push_back(m.nodes.id[n]);
  }
  std::map<GlobalId, int> part_index;
  for (const Part& p : m.parts) {
    part_index[p.id] = static_cast<int>(g.parts.size());
    g.parts.push_back({p.id, p.title});
  }
  for (std::size_t e = 0; e < m.solids.size(); ++e) {
    std::array<std::int32_t, 8> nodes{};
    for (int a = 0; a < 8; ++a) nodes[a] = static_cast<std::int32_t>(m.solids.nodes[e][a]);
    g.solid_nodes.push_back(nodes);
    g.solid_part.push_back(part_index.at(m.solids.part[e]));
    g.solid_id.push_back(m.solids.id[e]);
  }
  for (std::size_t e = 0; e < m.shells.size(); ++e) {
    std::array<std::int32_t, 4> nodes{};
    for (int a = 0; a < 4; ++a) nodes[a] = static_cast<std::int32_t>(m.shells.nodes[e][a]);
    g.shell_nodes.push_back(nodes);
    g.shell_part.push_back(part_index.at(m.shells.part[e]));
    g.shell_id.push_back(m.shells.id[e]);
  }
  return g;
}

/// The shell arrays of a d3plot state (3 layers) from all_shells() records (empty: zeros).
void fill_shells(D3plotState& s, const std::vector<double>& all, std::size_t nsh) {
  s.shell_sig.assign(18 * nsh, 0.0);
  s.shell_epsp.assign(3 * nsh, 0.0);
  s.shell_resultants.assign(8 * nsh, 0.0);
  s.shell_thickness.assign(nsh, 0.0);
  constexpr std::size_t rec = 1 + ImplicitSolver::kShellRecord;
  for (std::size_t k = 0; k + rec <= all.size(); k += rec) {
    const auto e = static_cast<std::size_t>(all[k]);
    for (std::size_t l = 0; l < 3; ++l) {
      for (std::size_t i = 0; i < 6; ++i) s.shell_sig[18 * e + 6 * l + i] = all[k + 1 + 7 * l + i];
      s.shell_epsp[3 * e + l] = all[k + 1 + 7 * l + 6];
    }
    for (std::size_t i = 0; i < 8; ++i) s.shell_resultants[8 * e + i] = all[k + 22 + i];
    s.shell_thickness[e] = all[k + 30];
  }
}

D3plotOptions d3plot_options(const RunOptions& o) {
  D3plotOptions d;
  d.word_bytes = o.d3plot_word_bytes;
  return d;
}

} // namespace

void ImplicitSolver::open_outputs(bool append) {
  if (comm_.rank() != 0) return;
  std::filesystem::create_directories(opt_.outdir);
  const std::filesystem::path dir(opt_.outdir);
  if (opt_.write_d3plot && !eigen_) {
    D3plotOptions o = d3plot_options(opt_);
    o.append = append;
    d3plot_ = std::make_unique<D3plotWriter>((dir / "d3plot").string(), geometry(model_), o);
  }
  if (opt_.write_glstat && !eigen_)
    glstat_ =
        std::make_unique<GlstatWriter>((dir / "glstat").string(), model_.control.title, append);
  // nodout: the *DATABASE_HISTORY_NODE / _SET nodes, every step (deck order, once each).
  if (opt_.write_histories && !eigen_) {
    std::vector<std::uint8_t> seen(model_.nodes.size(), 0);
    const auto add = [&](GlobalId id) {
      const LocalId n = model_.node_index(id);
      if (n != kInvalidLocal && !seen[n]) {
        seen[n] = 1;
        nodout_nodes_.push_back(n);
      }
    };
    for (const Controls::HistoryNode& h : model_.control.history_nodes) {
      if (!h.is_set)
        add(h.id);
      else if (const auto it = model_.node_sets.find(h.id); it != model_.node_sets.end())
        for (GlobalId id : it->second.members) add(id);
    }
    if (!nodout_nodes_.empty() && model_.control.nodout.given)
      nodout_ = std::make_unique<NodoutWriter>((dir / "nodout").string(), model_.control.title,
                                               std::vector<LegendEntry>{}, append);
  }
  if (!eigen_) {
    history_.open(dir / "convergence.csv", append ? std::ios::app : std::ios::trunc);
    if (!append)
      history_ << "step,iteration,time,dt,residual_norm,displacement_ratio,energy_ratio,"
                  "line_search,seconds\n";
  }
}

void ImplicitSolver::log_iteration(const IterationRecord& r) {
  if (result_) result_->iterations.push_back(r);
  if (!history_.is_open()) return;
  history_ << fmt::format("{},{},{:.9e},{:.6e},{:.9e},{:.6e},{:.6e},{:.4f},{:.4f}\n", r.step,
                          r.iteration, r.time, r.dt, r.residual_norm, r.displacement_ratio,
                          r.energy_ratio, r.line_search, r.solve_seconds);
  history_.flush();
}

GlobalStats ImplicitSolver::global_stats() const {
  GlobalStats g;
  g.cycle = step_;
  g.time = time_;
  g.dt = dt_;
  // Internal energy: the integral of sigma : d(eps) over the run, per point by the trapezoid
  // rule between converged steps (exact for elasticity); kinetic 1/2 v M v (lumped by rows).
  ExactSum internal, kinetic, mass;
  for (const Element& e : elems_) {
    const ElemCoords x = coords(e);
    const PointLaw& law = laws_[static_cast<std::size_t>(e.law)];
    for (int q = 0; q < 8; ++q) {
      std::array<double, 24> g8{};
      const double w = hex8_gradients(x, q, g8);
      double s = 0;
      for (int i = 0; i < 6; ++i) s += 0.5 * e.stress_old[q][i] * e.eps_old[q][i];
      if (law.kind == PointLaw::Kind::Elastic)
        internal.add(w * s);
      else {
        // Plastic points: elastic energy plus plastic work (yield stress times plastic strain
        // as a bound-free estimate is not exact): report the elastic part and the dissipation
        // sigma_y epsp (linear hardening exact).
        double ee = 0;
        for (int i = 0; i < 6; ++i)
          ee += 0.5 * e.stress_old[q][i] * (e.eps_old[q][i] - e.old[q].eps_p[i]);
        internal.add(w * (ee + (law.sigy + 0.5 * law.h * e.old[q].epsp) * e.old[q].epsp));
      }
      mass.add(w * law.rho);
    }
    if (dynamic_) {
      ElemMatrix m{};
      hex8_mass(x, law.rho, m);
      const ElemVector ve = gather(e, v_n_);
      double s = 0;
      for (int r = 0; r < 24; ++r)
        for (int c = 0; c < 24; ++c) s += 0.5 * ve[r] * m[r * 24 + c] * ve[c];
      kinetic.add(s);
    }
  }
  for (const ShellElement& e : shells_) {
    const ShellCoords x = coords(e);
    const PointLaw& law = laws_[static_cast<std::size_t>(e.law)];
    const ShellFrame fr = shell4_frame(x);
    const int nip = e.section.nip;
    const double t = e.section.thickness;
    std::array<double, 10> zeta{}, wz{};
    shell_thickness_rule(nip, e.section.lobatto, std::span<double>(zeta.data(), nip),
                         std::span<double>(wz.data(), nip));
    // Strain energy per point as for the solids (the drilling penalty's is left out); the
    // four in-plane points share the element's area equally (exact for parallelograms).
    for (int q = 0; q < 4; ++q)
      for (int k = 0; k < nip; ++k) {
        const auto p = static_cast<std::size_t>(q * nip + k);
        const ShellPoint& sp = e.stress_old[p];
        const ShellPoint& ep = e.eps_old[p];
        const double dv = fr.area / 4 * 0.5 * t * wz[k];
        double w = 0.5 * (sp[3] * ep[3] + sp[4] * ep[4]); // transverse shear (elastic)
        for (int i = 0; i < 3; ++i) w += 0.5 * sp[i] * (ep[i] - e.old[p].eps_p[i]);
        if (law.kind != PointLaw::Kind::Elastic)
          w += (law.sigy + 0.5 * law.h * e.old[p].epsp) * e.old[p].epsp;
        internal.add(dv * w);
      }
    mass.add(fr.area * t * law.rho);
    if (dynamic_) {
      ShellMatrix m{};
      shell4_mass(x, law.rho, t, m);
      const ShellVector ve = gather(e, v_n_);
      double s = 0;
      for (int r = 0; r < 24; ++r)
        for (int c = 0; c < 24; ++c) s += 0.5 * ve[r] * m[r * 24 + c] * ve[c];
      kinetic.add(s);
    }
  }
  g.internal = comm_.sum(internal).result();
  g.kinetic = comm_.sum(kinetic).result();
  g.mass = comm_.sum(mass).result();
  g.total = g.internal + g.kinetic;
  g.nodes = model_.nodes.size();
  return g;
}

void ImplicitSolver::write_state(double time) {
  if (eigen_) return;
  const GlobalStats g = global_stats();
  const std::vector<double> u = all_nodes(u_n_);
  if (result_ && !iopt_.history_nodes.empty()) {
    result_->history_time.push_back(time);
    std::vector<double> h;
    for (std::size_t n : iopt_.history_nodes)
      h.insert(h.end(), {u[3 * n], u[3 * n + 1], u[3 * n + 2]});
    result_->history.push_back(std::move(h));
    result_->history_energy.push_back({g.kinetic, g.internal});
  }
  const std::vector<double> v = dynamic_ ? all_nodes(v_n_) : std::vector<double>(u.size(), 0.0);
  const std::vector<double> a = dynamic_ ? all_nodes(a_n_) : std::vector<double>(u.size(), 0.0);
  std::vector<std::array<double, 6>> stress;
  std::vector<double> epsp;
  all_elements(stress, epsp);
  const std::vector<double> shells = all_shells(); // collective
  if (comm_.rank() != 0) return;
  if (glstat_) glstat_->write(g);
  if (nodout_) {
    NodoutState ns;
    ns.cycle = step_;
    ns.time = time;
    for (std::size_t n : nodout_nodes_) {
      NodeHistory h;
      h.id = model_.nodes.id[n];
      h.coord = {model_.nodes.x[n] + u[3 * n], model_.nodes.y[n] + u[3 * n + 1],
                 model_.nodes.z[n] + u[3 * n + 2]};
      for (int c = 0; c < 3; ++c) {
        h.disp[c] = u[3 * n + c];
        h.vel[c] = v[3 * n + c];
        h.acc[c] = a[3 * n + c];
      }
      ns.nodes.push_back(h);
    }
    nodout_->write(ns);
  }
  if (!d3plot_) return;
  D3plotState s;
  s.time = time;
  s.internal = g.internal;
  s.kinetic = g.kinetic;
  s.total = g.total;
  s.x.resize(u.size());
  for (std::size_t n = 0; n < model_.nodes.size(); ++n) {
    s.x[3 * n] = model_.nodes.x[n] + u[3 * n];
    s.x[3 * n + 1] = model_.nodes.y[n] + u[3 * n + 1];
    s.x[3 * n + 2] = model_.nodes.z[n] + u[3 * n + 2];
  }
  s.v = v;
  s.a = a;
  const std::size_t ne = model_.solids.size();
  s.solid_sig.assign(6 * ne, 0.0);
  for (std::size_t e = 0; e < ne; ++e)
    for (int q = 0; q < 8; ++q)
      for (int i = 0; i < 6; ++i) s.solid_sig[6 * e + i] += stress[8 * e + q][i] / 8;
  s.solid_epsp = epsp;
  fill_shells(s, shells, model_.shells.size());
  d3plot_->write_state(s);
}

void ImplicitSolver::write_eigen(const linalg::EigenResult& r) {
  std::vector<std::vector<double>> modes;
  for (const auto& v : r.vectors) modes.push_back(all_nodes(v));
  if (result_) {
    result_->eigenvalues = r.eigenvalues;
    result_->modes = modes;
  }
  if (comm_.rank() != 0) return;
  std::filesystem::create_directories(opt_.outdir);
  const std::filesystem::path dir(opt_.outdir);
  std::ofstream out(dir / "eigout");
  out << fmt::format(" {}\n eigenvalue results (parcae implicit: SLEPc Krylov-Schur, "
                     "shift-and-invert at {:.6g} Hz, {} iterations, {:.3f} s)\n\n",
                     model_.control.title, c_.center, r.iterations, r.seconds);
  out << "      MODE    EIGENVALUE           RADIANS            CYCLES            PERIOD\n";
  for (std::size_t i = 0; i < r.eigenvalues.size(); ++i) {
    const double lam = r.eigenvalues[i];
    const double w = std::sqrt(std::max(lam, 0.0));
    const double f = w / (2 * std::numbers::pi);
    out << fmt::format("{:10d}  {:16.9e}  {:16.9e}  {:16.9e}  {:16.9e}\n", i + 1, lam, w, f,
                       f > 0 ? 1 / f : 0.0);
    if (opt_.log)
      *opt_.log << fmt::format("mode {:3d}  frequency {:14.6e} Hz  (eigenvalue {:.6e})\n", i + 1, f,
                               lam);
  }
  if (!opt_.write_d3plot) return;
  D3plotOptions o = d3plot_options(opt_);
  o.velocities = o.accelerations = false;
  D3plotWriter w((dir / "d3eigv").string(), geometry(model_), o);
  for (std::size_t i = 0; i < modes.size(); ++i) {
    D3plotState s;
    s.time = std::sqrt(std::max(r.eigenvalues[i], 0.0)) / (2 * std::numbers::pi);
    s.x.resize(modes[i].size());
    for (std::size_t n = 0; n < model_.nodes.size(); ++n) {
      s.x[3 * n] = model_.nodes.x[n] + modes[i][3 * n];
      s.x[3 * n + 1] = model_.nodes.y[n] + modes[i][3 * n + 1];
      s.x[3 * n + 2] = model_.nodes.z[n] + modes[i][3 * n + 2];
    }
    s.solid_sig.assign(6 * model_.solids.size(), 0.0);
    s.solid_epsp.assign(model_.solids.size(), 0.0);
    fill_shells(s, {}, model_.shells.size());
    w.write_state(s);
  }
  w.close();
}

} // namespace parcae::implicit
