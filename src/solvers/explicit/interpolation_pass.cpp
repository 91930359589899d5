// *CONSTRAINED_INTERPOLATION (an RBE3) in the explicit cycle. A constraint's dependent node P
// follows the weighted least-squares rigid motion of its independent nodes i: with r_i = x_i -
// x_P and the motion q = (translation at P, rotation), node i's translation is G_i q = q_t +
// q_r x r_i (weighted by W_i = diag(TWGHT)) and its rotation q_r (weighted by diag(RWGHT)). The
// fit of their velocities is qdot = A^-1 sum_i G_i^T W_i v_i with A = sum_i G_i^T W_i G_i (both
// parts, translations and rotations); P takes v_P = qdot_t (and omega_P = qdot_r). The force F
// and moment M on P go to the independent nodes by the transpose: q = A^-1 (F, M), f_i = W_i G_i
// q, m_i = W_r,i q_r. Then sum f_i = F, sum (r_i x f_i + m_i) = M, and sum f_i . v_i = (F, M) .
// qdot: the constraint does no work. P's mass goes to the independent nodes at set-up (and what it
// gains later by mass scaling, each cycle, to their accelerations). Rotational weights are scaled
// by Lc^2, Lc the mean distance of the independent nodes from P (Nastran's RBE3 convention).
#include <algorithm>
#include <cmath>

#include "solvers/explicit/integrator.hpp"

namespace parcae::explicit_detail {

namespace {

using Mat6 = std::array<Real, 36>;
using Vec3 = std::array<Real, 3>;

/// A = sum_i G_i^T W_i G_i for the arms r and weights w.
Mat6 normal_matrix(std::span<const Vec3> r, std::span<const std::array<Real, 6>> w) {
  Mat6 a{};
  for (std::size_t i = 0; i < r.size(); ++i) {
    // G_t = [I | -[r]x]: rows k of the translation k
    const Vec3& x = r[i];
    const Real g[3][6] = {
        {1, 0, 0, 0, x[2], -x[1]}, {0, 1, 0, -x[2], 0, x[0]}, {0, 0, 1, x[1], -x[0], 0}};
    for (int k = 0; k < 3; ++k) {
      const Real wk = w[i][static_cast<std::size_t>(k)];
      if (wk == 0) continue;
      for (int p = 0; p < 6; ++p)
        for (int s = 0; s < 6; ++s)
          a[static_cast<std::size_t>(6 * p + s)] += g[k][p] * wk * g[k][s];
    }
    for (int k = 0; k < 3; ++k)
      a[static_cast<std::size_t>(7 * (3 + k))] += w[i][3 + static_cast<std::size_t>(k)];
  }
  return a;
}

/// The inverse of the symmetric positive semi-definite a; false when a is singular (relative to
/// its diagonal: the equilibrated matrix has a pivot below 1e-10).
bool invert(const Mat6& a, Mat6& out) {
  Real s[6];
  for (int p = 0; p < 6; ++p) {
    const Real d = a[static_cast<std::size_t>(7 * p)];
    if (!(d > 0)) return false;
    s[p] = 1 / std::sqrt(d);
  }
  Real m[6][12];
  for (int p = 0; p < 6; ++p)
    for (int q = 0; q < 12; ++q)
      m[p][q] = q < 6 ? s[p] * a[static_cast<std::size_t>(6 * p + q)] * s[q] : (q - 6 == p ? 1 : 0);
  for (int c = 0; c < 6; ++c) {
    int piv = c;
    for (int p = c + 1; p < 6; ++p)
      if (std::abs(m[p][c]) > std::abs(m[piv][c])) piv = p;
    if (!(std::abs(m[piv][c]) > 1e-10)) return false;
    if (piv != c)
      for (int q = 0; q < 12; ++q) std::swap(m[c][q], m[piv][q]);
    const Real inv = 1 / m[c][c];
    for (int q = 0; q < 12; ++q) m[c][q] *= inv;
    for (int p = 0; p < 6; ++p) {
      if (p == c || m[p][c] == 0) continue;
      const Real f = m[p][c];
      for (int q = 0; q < 12; ++q) m[p][q] -= f * m[c][q];
    }
  }
  for (int p = 0; p < 6; ++p)
    for (int q = 0; q < 6; ++q)
      out[static_cast<std::size_t>(6 * p + q)] = s[p] * m[p][6 + q] * s[q];
  return true;
}

std::array<Real, 6> times(const Mat6& a, const std::array<Real, 6>& b) {
  std::array<Real, 6> y{};
  for (std::size_t p = 0; p < 6; ++p)
    for (std::size_t q = 0; q < 6; ++q) y[p] += a[6 * p + q] * b[q];
  return y;
}

/// sum_i G_i^T W_i (v_i, omega_i): what the fit of these velocities (or the transpose of these
/// forces) needs; vw(i) gives node i's six values.
template <class Get>
std::array<Real, 6> project(const InterpolationCoupling::Constraint& c, Get vw) {
  std::array<Real, 6> s{};
  for (std::size_t i = 0; i < c.ind.size(); ++i) {
    const std::array<Real, 6> u = vw(i);
    const auto& w = c.w[i];
    const Vec3 f{w[0] * u[0], w[1] * u[1], w[2] * u[2]};
    const Vec3& r = c.r[i];
    s[0] += f[0];
    s[1] += f[1];
    s[2] += f[2];
    s[3] += r[1] * f[2] - r[2] * f[1] + w[3] * u[3];
    s[4] += r[2] * f[0] - r[0] * f[2] + w[4] * u[4];
    s[5] += r[0] * f[1] - r[1] * f[0] + w[5] * u[5];
  }
  return s;
}

} // namespace

void Integrator::init_interpolations(Domain& global) {
  const auto& defs = model_.interpolations;
  if (defs.empty()) return;
  auto& ic = rbe3_;
  for (const Interpolation& c : defs) {
    ic.nodes.push_back(model_.node_index(c.node));
    for (const auto& i : c.nodes) ic.nodes.push_back(model_.node_index(i.node));
  }
  std::sort(ic.nodes.begin(), ic.nodes.end());
  ic.nodes.erase(std::unique(ic.nodes.begin(), ic.nodes.end()), ic.nodes.end());
  auto index = [&](LocalId n) {
    return static_cast<std::uint32_t>(std::lower_bound(ic.nodes.begin(), ic.nodes.end(), n) -
                                      ic.nodes.begin());
  };
  ic.rot.resize(ic.nodes.size());
  for (std::size_t k = 0; k < ic.nodes.size(); ++k)
    ic.rot[k] = global.has_rot[static_cast<std::size_t>(ic.nodes[k])];
  std::vector<char> dependent(ic.nodes.size(), 0), independent(ic.nodes.size(), 0);
  std::vector<char> tied(global.nnode, 0), moved(global.nnode, 0);
  for (LocalId n : ties_.nodes) tied[static_cast<std::size_t>(n)] = 1;
  for (const PrescribedMotion& pm : model_.motions) {
    auto mark = [&](GlobalId id) {
      const LocalId n = model_.node_index(id);
      if (n != kInvalidLocal) moved[static_cast<std::size_t>(n)] = 1;
    };
    if (pm.target == MotionTarget::Node) mark(pm.target_id);
    const auto set = model_.node_sets.find(pm.target_id);
    if (pm.target == MotionTarget::NodeSet && set != model_.node_sets.end())
      for (GlobalId id : set->second.members) mark(id);
  }
  for (const Interpolation& c : defs) {
    const std::uint32_t p = index(model_.node_index(c.node));
    if (dependent[p])
      throw InputError(c.loc, fmt::format("*CONSTRAINED_INTERPOLATION {}: node {} is the "
                                          "dependent node of another interpolation too",
                                          c.id, c.node));
    dependent[p] = 1;
  }
  for (const Interpolation& c : defs)
    for (const auto& i : c.nodes) independent[index(model_.node_index(i.node))] = 1;
  for (const Interpolation& c : defs) {
    const LocalId pn = model_.node_index(c.node);
    const auto ps = static_cast<std::size_t>(pn);
    auto refuse = [&](const std::string& why) {
      throw InputError(c.loc, fmt::format("*CONSTRAINED_INTERPOLATION {}: dependent node {} {}",
                                          c.id, c.node, why));
    };
    if (independent[index(pn)])
      refuse("is an independent node of another interpolation (chained interpolations are not "
             "supported)");
    if (global.rigid_of[ps] >= 0) refuse("is a node of a rigid body");
    if (tied[ps]) refuse("is a node of a constraint-based tied contact");
    if (moved[ps]) refuse("has a prescribed motion (*BOUNDARY_PRESCRIBED_MOTION)");
    const auto& spc = global.spc[ps];
    const bool skew = std::any_of(global.skew_spc.begin(), global.skew_spc.end(),
                                  [&](const auto& k) { return k.node == pn; });
    if (spc[0] || spc[1] || spc[2] || skew || (c.rotations && (spc[3] || spc[4] || spc[5])))
      refuse("is constrained (*BOUNDARY_SPC): it moves with its independent nodes");
    InterpolationCoupling::Constraint k;
    k.def = &c;
    k.node = index(pn);
    k.rot = c.rotations && global.has_rot[ps];
    Real wsum = 0;
    for (const auto& i : c.nodes) {
      const LocalId n = model_.node_index(i.node);
      const auto s = static_cast<std::size_t>(n);
      if (global.rigid_of[s] >= 0)
        throw InputError(c.loc, fmt::format("*CONSTRAINED_INTERPOLATION {}: independent node {} "
                                            "is a node of a rigid body (not supported)",
                                            c.id, i.node));
      if (tied[s])
        throw InputError(c.loc, fmt::format("*CONSTRAINED_INTERPOLATION {}: independent node {} "
                                            "is a node of a constraint-based tied contact (not "
                                            "supported)",
                                            c.id, i.node));
      std::array<Real, 6> w = i.w;
      if (!global.has_rot[s]) w[3] = w[4] = w[5] = 0;
      k.ind.push_back(index(n));
      k.w.push_back(w);
      k.r.push_back({global.x0[3 * s] - global.x0[3 * ps],
                     global.x0[3 * s + 1] - global.x0[3 * ps + 1],
                     global.x0[3 * s + 2] - global.x0[3 * ps + 2]});
      wsum += w[0] + w[1] + w[2];
    }
    // rotational weights in units of the translational ones: times Lc^2, Lc the mean distance
    // of the independent nodes from the dependent one (Nastran's RBE3 convention), so that the
    // fit does not depend on the length unit
    Real lc = 0;
    for (const Vec3& r : k.r) lc += std::sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]) / k.r.size();
    const Real lc2 = lc * lc;
    if (lc2 > 0)
      for (auto& w : k.w)
        for (std::size_t d = 3; d < 6; ++d) w[d] *= lc2;
    if (!(wsum > 0) || !invert(normal_matrix(k.r, k.w), k.a_inv))
      throw InputError(c.loc, fmt::format("*CONSTRAINED_INTERPOLATION {}: its independent nodes "
                                          "do not determine a rigid motion of node {} (three "
                                          "nodes not on a line with translational weights are "
                                          "needed, or fewer with rotational weights as well)",
                                          c.id, c.node));
    for (const auto& w : k.w) k.share.push_back((w[0] + w[1] + w[2]) / wsum);
    // the dependent node's mass to its independent nodes, by their translational weights; its
    // initial velocity is the fit's
    for (std::size_t i = 0; i < k.ind.size(); ++i)
      global.mass[static_cast<std::size_t>(ic.nodes[k.ind[i]])] += global.mass[ps] * k.share[i];
    global.mass[ps] = 0;
    if (k.rot) global.inertia[ps] = 0;
    const auto qd = times(k.a_inv, project(k, [&](std::size_t i) {
                            const auto s = static_cast<std::size_t>(ic.nodes[k.ind[i]]);
                            return std::array<Real, 6>{global.v[3 * s],     global.v[3 * s + 1],
                                                       global.v[3 * s + 2], global.w[3 * s],
                                                       global.w[3 * s + 1], global.w[3 * s + 2]};
                          }));
    for (std::size_t d = 0; d < 3; ++d) {
      global.v[3 * ps + d] = qd[d];
      if (k.rot) global.w[3 * ps + d] = qd[3 + d];
    }
    ic.list.push_back(std::move(k));
  }
}

std::vector<Real> Integrator::interpolation_values() const {
  const auto& ic = rbe3_;
  std::vector<Real> out(3 * ic.nodes.size() + 7 * ic.list.size(), 0.0);
  auto owned = [&](std::uint32_t k) {
    const LocalId l = ic.local[k];
    return l != kInvalidLocal && d_.owned[static_cast<std::size_t>(l)];
  };
  for (std::uint32_t k = 0; k < ic.nodes.size(); ++k)
    if (owned(k))
      for (std::size_t d = 0; d < 3; ++d)
        out[3 * k + d] = d_.x[3 * static_cast<std::size_t>(ic.local[k]) + d];
  Real* fm = out.data() + 3 * ic.nodes.size();
  for (std::size_t c = 0; c < ic.list.size(); ++c) {
    const auto& k = ic.list[c];
    if (!owned(k.node)) continue;
    const auto n = static_cast<std::size_t>(ic.local[k.node]);
    for (std::size_t d = 0; d < 3; ++d) {
      fm[7 * c + d] = d_.f[3 * n + d];
      if (k.rot) fm[7 * c + 3 + d] = d_.m_ext[3 * n + d];
    }
    fm[7 * c + 6] = d_.mass[n]; // gained by mass scaling during the run (0 otherwise)
  }
  return out;
}

void Integrator::apply_interpolations(std::span<const Real> g) {
  auto& ic = rbe3_;
  const Real* fm = g.data() + 3 * ic.nodes.size();
  // mass a dependent node has gained since the set-up (mass scaling during the run): its
  // independent nodes accelerate as if they carried it, by their shares
  std::vector<Real> extra(ic.nodes.size(), 0.0);
  for (std::size_t c = 0; c < ic.list.size(); ++c) {
    auto& k = ic.list[c];
    const Real* xp = &g[3 * k.node];
    for (std::size_t i = 0; i < k.ind.size(); ++i)
      for (std::size_t d = 0; d < 3; ++d) k.r[i][d] = g[3 * k.ind[i] + d] - xp[d];
    if (!invert(normal_matrix(k.r, k.w), k.a_inv) && local_error_.empty())
      local_error_ = fmt::format("*CONSTRAINED_INTERPOLATION {}: its independent nodes no longer "
                                 "determine a rigid motion (collapsed onto a line)",
                                 k.def->id);
    std::array<Real, 6> b{};
    for (std::size_t d = 0; d < 6; ++d) b[d] = fm[7 * c + d];
    for (std::size_t i = 0; i < k.ind.size(); ++i) extra[k.ind[i]] += k.share[i] * fm[7 * c + 6];
    const auto q = times(k.a_inv, b);
    for (std::size_t i = 0; i < k.ind.size(); ++i) {
      const LocalId l = ic.local[k.ind[i]];
      if (l == kInvalidLocal) continue;
      const auto n = static_cast<std::size_t>(l);
      const Vec3& r = k.r[i];
      const auto& w = k.w[i];
      const Vec3 u{q[0] + q[4] * r[2] - q[5] * r[1], q[1] + q[5] * r[0] - q[3] * r[2],
                   q[2] + q[3] * r[1] - q[4] * r[0]};
      for (std::size_t d = 0; d < 3; ++d) {
        d_.f[3 * n + d] += w[d] * u[d];
        if (w[3 + d] != 0) d_.m_ext[3 * n + d] += w[3 + d] * q[3 + d];
      }
    }
    const LocalId l = ic.local[k.node];
    if (l == kInvalidLocal) continue;
    const auto n = static_cast<std::size_t>(l);
    for (std::size_t d = 0; d < 3; ++d) {
      d_.f[3 * n + d] = 0;
      d_.a[3 * n + d] = 0;
      if (k.rot) d_.m_ext[3 * n + d] = 0;
    }
  }
  // the independent nodes' accelerations from their new forces (as the assembly computes them)
  for (const auto& k : ic.list)
    for (std::uint32_t i : k.ind) {
      const LocalId l = ic.local[i];
      if (l == kInvalidLocal) continue;
      const auto n = static_cast<std::size_t>(l);
      const Real m = d_.mass[n] + extra[i];
      const Real inv_m = m > 0 ? 1.0 / m : 0.0;
      for (std::size_t d = 0; d < 3; ++d) d_.a[3 * n + d] = d_.f[3 * n + d] * inv_m;
    }
}

void Integrator::interpolate_velocities() {
  auto& ic = rbe3_;
  if (ic.list.empty()) return;
  std::vector<Real> mine(6 * ic.nodes.size(), 0.0);
  for (std::size_t k = 0; k < ic.nodes.size(); ++k) {
    const LocalId l = ic.local[k];
    if (l == kInvalidLocal || !d_.owned[static_cast<std::size_t>(l)]) continue;
    const auto n = static_cast<std::size_t>(l);
    for (std::size_t d = 0; d < 3; ++d) {
      mine[6 * k + d] = d_.v[3 * n + d];
      if (ic.rot[k]) mine[6 * k + 3 + d] = d_.w[3 * n + d];
    }
  }
  par::CycleReduction& r = *ic.gather;
  r.clear();
  const std::size_t slot = r.add_owned(mine);
  r.reduce();
  const std::vector<Real> all = r.owned(slot);
  for (const auto& k : ic.list) {
    const LocalId l = ic.local[k.node];
    if (l == kInvalidLocal) continue;
    const auto qd =
        times(k.a_inv, project(k, [&](std::size_t i) {
                std::array<Real, 6> u{};
                std::copy_n(all.begin() + static_cast<std::ptrdiff_t>(6 * k.ind[i]), 6, u.begin());
                return u;
              }));
    const auto n = static_cast<std::size_t>(l);
    for (std::size_t d = 0; d < 3; ++d) {
      d_.v[3 * n + d] = qd[d];
      if (k.rot) d_.w[3 * n + d] = qd[3 + d];
    }
  }
}

} // namespace parcae::explicit_detail
