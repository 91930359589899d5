// The implicit solver's element loops: residual, consistent tangent, mass, external loads.
// Each rank adds its own elements; contributions to rows of other ranks travel in
// SparseSystem::assemble().
#include <cmath>

#include "prof/phase.hpp"
#include "solvers/implicit/solver_impl.hpp"

namespace parcae::implicit {

ElemCoords ImplicitSolver::coords(const Element& e) const {
  ElemCoords x{};
  for (int a = 0; a < 8; ++a) {
    const std::size_t n = nodes_[static_cast<std::size_t>(e.node[a])];
    x[a * 3 + 0] = model_.nodes.x[n];
    x[a * 3 + 1] = model_.nodes.y[n];
    x[a * 3 + 2] = model_.nodes.z[n];
  }
  return x;
}

ElemVector ImplicitSolver::gather(const Element& e, const std::vector<double>& v) const {
  ElemVector out{};
  for (int a = 0; a < 8; ++a)
    for (int c = 0; c < 3; ++c)
      out[a * 3 + c] = v[kNodeDofs * static_cast<std::size_t>(e.node[a]) + c];
  return out;
}

ShellCoords ImplicitSolver::coords(const ShellElement& e) const {
  ShellCoords x{};
  for (int a = 0; a < 4; ++a) {
    const std::size_t n = nodes_[static_cast<std::size_t>(e.node[a])];
    x[a * 3 + 0] = model_.nodes.x[n];
    x[a * 3 + 1] = model_.nodes.y[n];
    x[a * 3 + 2] = model_.nodes.z[n];
  }
  return x;
}

ShellVector ImplicitSolver::gather(const ShellElement& e, const std::vector<double>& v) const {
  ShellVector out{};
  for (int a = 0; a < 4; ++a)
    for (int c = 0; c < 6; ++c)
      out[a * 6 + c] = v[kNodeDofs * static_cast<std::size_t>(e.node[a]) + c];
  return out;
}

double ImplicitSolver::owned_dot(const std::vector<double>& a, const std::vector<double>& b) const {
  ExactSum s;
  for (std::size_t n = 0; n < owned_.size(); ++n) {
    if (!owned_[n]) continue;
    for (std::size_t c = 0; c < kNodeDofs; ++c)
      if (dofs_[kNodeDofs * n + c] >= 0) s.add(a[kNodeDofs * n + c] * b[kNodeDofs * n + c]);
  }
  return comm_.sum(s).result();
}

void ImplicitSolver::external_forces(double t, linalg::SparseSystem& sys) const {
  // Nodal loads: added by the rank owning the node.
  for (const NodalLoad& l : model_.nodal_loads) {
    // Forces DOF 1-3, moments DOF 5-7 (shell nodes: checked at set-up).
    const std::size_t slot = static_cast<std::size_t>(l.dof <= 3 ? l.dof - 1 : l.dof - 2);
    const Curve* c = model_.find_curve(l.lcid);
    const double f = l.sf * (c ? c->eval(t) : 1.0);
    const auto add = [&](GlobalId id) {
      const LocalId n = model_.node_index(id);
      if (n == kInvalidLocal || map_.owner[n] != comm_.rank()) return;
      const std::int64_t dof[1] = {map_.eq[kNodeDofs * n + slot]};
      const double v[1] = {f};
      sys.add_vector(dof, v);
    };
    if (!l.is_set)
      add(l.target_id);
    else
      for (GlobalId id : model_.node_sets.at(l.target_id).members) add(id);
  }
  // Pressures: added by the rank owning the segment's first node.
  for (const SegmentLoad& l : model_.segment_loads) {
    const LocalId n0 = model_.node_index(l.nodes[0]);
    if (map_.owner[n0] != comm_.rank()) continue;
    const Curve* c = model_.find_curve(l.lcid);
    const double p = l.sf * (t >= l.at ? c->eval(t - l.at) : 0.0);
    if (p == 0) continue;
    std::array<double, 12> x{};
    std::array<std::int64_t, 12> dofs{};
    for (int a = 0; a < 4; ++a) {
      const LocalId n = model_.node_index(l.nodes[a]);
      x[a * 3 + 0] = model_.nodes.x[n];
      x[a * 3 + 1] = model_.nodes.y[n];
      x[a * 3 + 2] = model_.nodes.z[n];
      for (int k = 0; k < 3; ++k) dofs[a * 3 + k] = map_.eq[kNodeDofs * n + k];
    }
    const auto f = quad_pressure_forces(x, p);
    sys.add_vector(dofs, f);
  }
}

void ImplicitSolver::assemble(Assemble what, double t, linalg::SparseSystem& sys) {
  static const int phase = prof::phase_id("assembly");
  prof::PhaseScope scope(phase);
  sys.zero_matrix();
  sys.zero_vector();
  std::vector<double> acc;
  if (mass_coef_ > 0 && what != Assemble::Mass) {
    acc.resize(u_.size());
    for (std::size_t i = 0; i < u_.size(); ++i) acc[i] = mass_coef_ * (u_[i] - u_pred_[i]);
  }
  ElemMatrix k{}, m{};
  ElemVector f{};
  std::array<std::int64_t, 24> dofs{};
  for (Element& e : elems_) {
    for (int a = 0; a < 8; ++a)
      for (int c = 0; c < 3; ++c)
        dofs[a * 3 + c] = dofs_[kNodeDofs * static_cast<std::size_t>(e.node[a]) + c];
    const ElemCoords x = coords(e);
    const PointLaw& law = laws_[static_cast<std::size_t>(e.law)];
    if (what == Assemble::Mass) {
      hex8_mass(x, law.rho, m);
      sys.add_matrix(dofs, m);
      continue;
    }
    const ElemVector ue = gather(e, u_);
    if (e.incompatible) {
      hex8_incompatible_stiffness(x, law.e, law.nu, k);
      for (int r = 0; r < 24; ++r) {
        double s = 0;
        for (int cc = 0; cc < 24; ++cc) s += k[r * 24 + cc] * ue[cc];
        f[r] = s;
      }
      hex8_incompatible_stresses(x, law.e, law.nu, ue, e.stress);
      e.cauchy = e.stress;
      for (int q = 0; q < 8; ++q) {
        std::array<double, 24> g{};
        hex8_gradients(x, q, g);
        e.eps[q] = hex8_strain(g, ue);
      }
    } else {
      hex8_full_forces(x, ue, law, e.old, e.now, e.stress, f,
                       what == Assemble::Tangent ? &k : nullptr, large_strain_, {e.eps, e.cauchy});
    }
    if (!acc.empty()) {
      hex8_mass(x, law.rho, m);
      const ElemVector ae = gather(e, acc);
      for (int r = 0; r < 24; ++r) {
        double s = 0;
        for (int cc = 0; cc < 24; ++cc) s += m[r * 24 + cc] * ae[cc];
        f[r] += s;
      }
      if (what == Assemble::Tangent)
        for (int i = 0; i < 24 * 24; ++i) k[i] += mass_coef_ * m[i];
    }
    for (double& v : f) v = -v;
    sys.add_vector(dofs, f);
    if (what == Assemble::Tangent) sys.add_matrix(dofs, k);
  }
  assemble_shells(what, acc, sys);
  if (what != Assemble::Mass) external_forces(t, sys);
  sys.assemble();
}

void ImplicitSolver::assemble_shells(Assemble what, const std::vector<double>& acc,
                                     linalg::SparseSystem& sys) {
  ShellMatrix k{}, m{};
  ShellVector f{};
  std::array<std::int64_t, 24> dofs{};
  for (ShellElement& e : shells_) {
    for (int a = 0; a < 4; ++a)
      for (int c = 0; c < 6; ++c)
        dofs[a * 6 + c] = dofs_[kNodeDofs * static_cast<std::size_t>(e.node[a]) + c];
    const ShellCoords x = coords(e);
    const PointLaw& law = laws_[static_cast<std::size_t>(e.law)];
    if (what == Assemble::Mass) {
      shell4_mass(x, law.rho, e.section.thickness, m);
      sys.add_matrix(dofs, m);
      continue;
    }
    const ShellVector ue = gather(e, u_);
    // Nonlinear runs: co-rotational (large rotations), as the hexahedra are total Lagrangian.
    shell4_forces(x, ue, e.section, law, e.old, e.now, e.stress, e.eps, f,
                  what == Assemble::Tangent ? &k : nullptr, large_strain_);
    if (!acc.empty()) {
      shell4_mass(x, law.rho, e.section.thickness, m);
      const ShellVector ae = gather(e, acc);
      for (int r = 0; r < 24; ++r) {
        double s = 0;
        for (int cc = 0; cc < 24; ++cc) s += m[r * 24 + cc] * ae[cc];
        f[r] += s;
      }
      if (what == Assemble::Tangent)
        for (int i = 0; i < 24 * 24; ++i) k[i] += mass_coef_ * m[i];
    }
    for (double& v : f) v = -v;
    sys.add_vector(dofs, f);
    if (what == Assemble::Tangent) sys.add_matrix(dofs, k);
  }
}

} // namespace parcae::implicit
