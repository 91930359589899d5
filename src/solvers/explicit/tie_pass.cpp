// Constraint-based tied contacts (integrator.hpp, TieConstraints): the tied nodes move with the
// points of their segments. Set-up from the contact's initial ties (contact/forces.cpp,
// tie_initial_contacts); each cycle, the tie nodes' forces and masses are summed over the ranks
// in the cycle's reduction and every rank computes the accelerations of its tie nodes.
#include <algorithm>
#include <map>

#include "solvers/explicit/integrator.hpp"

namespace parcae::explicit_detail {

void Integrator::add_constraint_ties(std::size_t i, Domain& global) {
  const auto& ifc = contacts_.model.interfaces[i];
  const ContactDef& def = *contacts_.model.defs[i];
  const auto& st = contacts_.state[i];
  const auto& model_of = contacts_.model.node_model;
  // the ties of this interface, in model node indices
  struct Raw {
    LocalId node;
    std::array<LocalId, 4> main;
    std::array<Real, 4> n;
    bool rot = false;
  };
  std::vector<Raw> raw;
  for (const auto& ps : st.passes) {
    const auto& surf = contact::surface_of(ifc, ps);
    for (std::size_t k = 0; k < ps.nodes.size(); ++k) {
      if (ps.tie_state.empty() || ps.tie_state[k] != 1) continue;
      const auto& seg = surf.seg[static_cast<std::size_t>(ps.tie_seg[k])];
      Raw r{model_of[static_cast<std::size_t>(ps.nodes[k])], {}, {}};
      for (int a = 0; a < 4; ++a) {
        r.main[a] = model_of[static_cast<std::size_t>(seg[a])];
        r.n[a] = ps.tie_shape[4 * k + a];
      }
      raw.push_back(r);
    }
  }
  auto who = [&](LocalId n) { return model_.nodes.id[static_cast<std::size_t>(n)]; };
  // shell edges and beam welds: a node with rotational dofs turns with its segment's nodes,
  // which must have rotational dofs too
  if (def.tie_rotations)
    for (Raw& r : raw) {
      if (!global.has_rot[static_cast<std::size_t>(r.node)]) continue;
      for (LocalId a : r.main)
        if (!global.has_rot[static_cast<std::size_t>(a)])
          throw InputError(def.loc,
                           fmt::format("contact {} ({}): node {} (of a shell or beam) is tied to a "
                                       "segment whose node {} has no rotational dofs (a solid "
                                       "face): its rotations cannot be tied; tie it to shells",
                                       def.id, def.keyword, who(r.node), who(a)));
      r.rot = true;
    }
  // the tie node list (merged with the ties of earlier interfaces)
  std::map<LocalId, std::uint32_t> index;
  for (std::size_t k = 0; k < ties_.nodes.size(); ++k)
    index[ties_.nodes[k]] = static_cast<std::uint32_t>(k);
  std::vector<char> tied(global.nnode, 0), main(global.nnode, 0);
  for (const auto& t : ties_.ties) {
    tied[ties_.nodes[t.node]] = 1;
    for (std::uint32_t a : t.main) main[ties_.nodes[a]] = 1;
  }
  for (const Raw& r : raw) {
    if (tied[r.node] || main[r.node])
      throw InputError(def.loc, fmt::format("contact {} ({}): node {} is already in another "
                                            "constraint-based tie (LS-DYNA allows a node in one "
                                            "such contact only; use an _OFFSET tie)",
                                            def.id, def.keyword, who(r.node)));
    tied[r.node] = 1;
  }
  for (const Raw& r : raw)
    for (LocalId a : r.main) {
      if (tied[a])
        throw InputError(def.loc, fmt::format("contact {} ({}): node {} is both tied and a node "
                                              "of a segment nodes are tied to",
                                              def.id, def.keyword, who(a)));
      main[a] = 1;
    }
  std::vector<LocalId> all = ties_.nodes;
  for (const Raw& r : raw) {
    all.push_back(r.node);
    all.insert(all.end(), r.main.begin(), r.main.end());
  }
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  for (LocalId n : all)
    if (global.rigid_of[static_cast<std::size_t>(n)] >= 0)
      throw InputError(def.loc, fmt::format("contact {} ({}): node {} belongs to a rigid body: "
                                            "rigid bodies cannot be in a constraint-based tie "
                                            "(use an _OFFSET tie)",
                                            def.id, def.keyword, who(n)));
  // re-index the existing ties to the merged list
  std::vector<std::uint32_t> remap(ties_.nodes.size());
  index.clear();
  for (std::size_t k = 0; k < all.size(); ++k) index[all[k]] = static_cast<std::uint32_t>(k);
  for (std::size_t k = 0; k < ties_.nodes.size(); ++k) remap[k] = index[ties_.nodes[k]];
  for (auto& t : ties_.ties) {
    t.node = remap[t.node];
    for (auto& a : t.main) a = remap[a];
  }
  ties_.nodes = all;
  // the new ties: the tied node's mass to its segment's nodes, its velocity from theirs
  for (const Raw& r : raw) {
    TieConstraints::Tie t;
    t.node = index[r.node];
    t.n = r.n;
    t.rot = r.rot;
    ties_.any_rot |= r.rot;
    const auto s = static_cast<std::size_t>(r.node);
    std::array<Real, 3> v{0, 0, 0};
    for (int a = 0; a < 4; ++a) {
      t.main[a] = index[r.main[a]];
      const auto m = static_cast<std::size_t>(r.main[a]);
      global.mass[m] += r.n[a] * global.mass[s];
      for (int c = 0; c < 3; ++c) v[c] += r.n[a] * global.v[3 * m + c];
    }
    global.mass[s] = 0;
    for (int c = 0; c < 3; ++c) global.v[3 * s + c] = v[c];
    if (r.rot) { // the tied node turns with its segment from the start
      std::array<Real, 3> w{0, 0, 0};
      for (int a = 0; a < 4; ++a)
        for (int c = 0; c < 3; ++c)
          w[c] += r.n[a] * global.w[3 * static_cast<std::size_t>(r.main[a]) + c];
      for (int c = 0; c < 3; ++c) global.w[3 * s + c] = w[c];
    }
    ties_.ties.push_back(t);
  }
  for (const Raw& r : raw) {
    const auto& spc = global.spc[static_cast<std::size_t>(r.node)];
    const bool skew = std::any_of(global.skew_spc.begin(), global.skew_spc.end(),
                                  [&](const auto& k) { return k.node == r.node; });
    if (spc[0] || spc[1] || spc[2] || skew || (r.rot && (spc[3] || spc[4] || spc[5])))
      throw InputError(def.loc, fmt::format("contact {} ({}): tied node {} is also constrained "
                                            "(*BOUNDARY_SPC): a node that moves with its segment "
                                            "cannot be held too (constrain the segment's nodes, "
                                            "or use an _OFFSET tie)",
                                            def.id, def.keyword, who(r.node)));
  }
  ties_.fixed.resize(ties_.nodes.size());
  ties_.fixed_rot.resize(ties_.nodes.size());
  for (std::size_t k = 0; k < ties_.nodes.size(); ++k) {
    const auto& spc = global.spc[static_cast<std::size_t>(ties_.nodes[k])];
    ties_.fixed[k] = {spc[0], spc[1], spc[2]};
    ties_.fixed_rot[k] = {spc[3], spc[4], spc[5]};
  }
}

std::vector<Real> Integrator::tie_sums() const {
  // per tie node: force, mass; with rotational ties also moment and rotary inertia. Only the
  // owner gives a node's values (the others give zeros): the reduction is a gather.
  const std::size_t w = ties_.any_rot ? 8 : 4;
  std::vector<Real> acc(w * ties_.nodes.size(), 0.0);
  for (std::size_t k = 0; k < ties_.nodes.size(); ++k) {
    const LocalId l = ties_.local[k];
    if (l == kInvalidLocal || !d_.owned[static_cast<std::size_t>(l)]) continue;
    const auto n = static_cast<std::size_t>(l);
    // a -0.0 becomes +0.0, as the gather of shared clusters makes it (the same bits whether
    // a cluster is shared or not)
    auto pos0 = [](Real x) { return x == 0.0 ? 0.0 : x; };
    for (int c = 0; c < 3; ++c) acc[w * k + c] = pos0(d_.f[3 * n + c]);
    acc[w * k + 3] = pos0(d_.mass[n]);
    if (w == 8 && d_.has_rot[n]) {
      for (int c = 0; c < 3; ++c) acc[w * k + 4 + c] = pos0(d_.m_ext[3 * n + c]);
      acc[w * k + 7] = pos0(d_.inertia[n]);
    }
  }
  return acc;
}

void Integrator::classify_ties() {
  // Clusters of tie nodes joined by ties (union-find); a cluster some node of which is local
  // on more than one rank is shared. A cluster local on one rank only is owned there whole
  // (every node is local on its owner), so its values need not travel. The same list on every
  // rank (the cluster structure is global, the holder counts are summed).
  const std::size_t nt = ties_.nodes.size();
  ties_.shared.clear();
  if (nt == 0) return;
  std::vector<std::uint32_t> parent(nt);
  for (std::size_t k = 0; k < nt; ++k) parent[k] = static_cast<std::uint32_t>(k);
  auto find = [&](std::uint32_t k) {
    while (parent[k] != k) k = parent[k] = parent[parent[k]];
    return k;
  };
  for (const auto& t : ties_.ties)
    for (std::uint32_t a : t.main) {
      const std::uint32_t ra = find(t.node), rb = find(a);
      if (ra != rb) parent[std::max(ra, rb)] = std::min(ra, rb);
    }
  std::vector<std::int64_t> holders(nt, 0);
  for (std::size_t k = 0; k < nt; ++k)
    if (ties_.local[k] != kInvalidLocal) holders[find(static_cast<std::uint32_t>(k))] = 1;
  if (comm_.size() > 1) comm_.sum(std::span<std::int64_t>(holders));
  for (std::size_t k = 0; k < nt; ++k)
    if (holders[find(static_cast<std::uint32_t>(k))] > 1)
      ties_.shared.push_back(static_cast<std::uint32_t>(k));
}

std::vector<Real> Integrator::shared_tie_values(std::span<const Real> all) const {
  const std::size_t w = ties_.any_rot ? 8 : 4;
  std::vector<Real> out;
  out.reserve(w * ties_.shared.size());
  for (std::uint32_t k : ties_.shared)
    out.insert(out.end(), all.begin() + static_cast<std::ptrdiff_t>(w * k),
               all.begin() + static_cast<std::ptrdiff_t>(w * (k + 1)));
  return out;
}

void Integrator::merge_shared_ties(std::span<Real> all, std::span<const Real> gathered) const {
  const std::size_t w = ties_.any_rot ? 8 : 4;
  for (std::size_t i = 0; i < ties_.shared.size(); ++i)
    std::copy_n(gathered.begin() + static_cast<std::ptrdiff_t>(w * i), w,
                all.begin() + static_cast<std::ptrdiff_t>(w * ties_.shared[i]));
}

void Integrator::apply_ties(std::span<const Real> sums) {
  const std::size_t nt = ties_.nodes.size();
  const std::size_t w = ties_.any_rot ? 8 : 4;
  std::vector<Real> f(3 * nt), a(3 * nt, 0.0), m(nt);
  for (std::size_t k = 0; k < nt; ++k) {
    for (int c = 0; c < 3; ++c) f[3 * k + c] = sums[w * k + c];
    m[k] = sums[w * k + 3];
  }
  if (ties_.any_rot) apply_rotation_ties(sums);
  // the tied nodes' forces go to their segments' nodes (in tie order: the same on every rank),
  // and so does any mass a tied node has gained since the set-up (mass scaling during the run)
  for (const auto& t : ties_.ties)
    for (int j = 0; j < 4; ++j) {
      for (int c = 0; c < 3; ++c) f[3 * t.main[j] + c] += t.n[j] * f[3 * t.node + c];
      m[t.main[j]] += t.n[j] * m[t.node];
    }
  for (std::size_t k = 0; k < nt; ++k)
    if (m[k] > 0)
      for (int c = 0; c < 3; ++c) a[3 * k + c] = ties_.fixed[k][c] ? 0.0 : f[3 * k + c] / m[k];
  for (const auto& t : ties_.ties)
    for (int c = 0; c < 3; ++c) {
      Real s = 0;
      for (int j = 0; j < 4; ++j) s += t.n[j] * a[3 * t.main[j] + c];
      a[3 * t.node + c] = s;
    }
  for (std::size_t k = 0; k < nt; ++k) {
    const LocalId l = ties_.local[k];
    if (l == kInvalidLocal) continue;
    for (int c = 0; c < 3; ++c) d_.a[3 * static_cast<std::size_t>(l) + c] = a[3 * k + c];
  }
}

void Integrator::apply_rotation_ties(std::span<const Real> sums) {
  // As the translations: the tied nodes' moments and rotary inertias go to their segments'
  // nodes by the shape functions, each segment node's angular acceleration is its moment over
  // its inertia, a tied node's is its segment's by the shape functions. The result is written
  // as the moment that gives that angular acceleration with the node's own inertia (the
  // nodal update divides by it).
  const std::size_t nt = ties_.nodes.size();
  std::vector<Real> mom(3 * nt), alpha(3 * nt, 0.0), in(nt);
  for (std::size_t k = 0; k < nt; ++k) {
    for (int c = 0; c < 3; ++c) mom[3 * k + c] = sums[8 * k + 4 + c];
    in[k] = sums[8 * k + 7];
  }
  std::vector<char> turned(nt, 0); // tie nodes whose angular acceleration is set here
  for (const auto& t : ties_.ties) {
    if (!t.rot) continue;
    turned[t.node] = 1;
    for (int j = 0; j < 4; ++j) {
      turned[t.main[j]] = 1;
      for (int c = 0; c < 3; ++c) mom[3 * t.main[j] + c] += t.n[j] * mom[3 * t.node + c];
      in[t.main[j]] += t.n[j] * in[t.node];
    }
  }
  for (std::size_t k = 0; k < nt; ++k)
    if (in[k] > 0)
      for (int c = 0; c < 3; ++c)
        alpha[3 * k + c] = ties_.fixed_rot[k][c] ? 0.0 : mom[3 * k + c] / in[k];
  for (const auto& t : ties_.ties) {
    if (!t.rot) continue;
    for (int c = 0; c < 3; ++c) {
      Real s = 0;
      for (int j = 0; j < 4; ++j) s += t.n[j] * alpha[3 * t.main[j] + c];
      alpha[3 * t.node + c] = s;
    }
  }
  for (std::size_t k = 0; k < nt; ++k) {
    const LocalId l = ties_.local[k];
    if (l == kInvalidLocal || !turned[k]) continue;
    const auto n = static_cast<std::size_t>(l);
    for (int c = 0; c < 3; ++c) d_.m_ext[3 * n + c] = alpha[3 * k + c] * d_.inertia[n];
  }
}

bool Integrator::ties_need_velocity_sync() const {
  if (ties_.ties.empty()) return false;
  return !model_.rigid_walls.empty() || !model_.motions.empty() ||
         std::any_of(model_.spcs.begin(), model_.spcs.end(), [](const Spc& s) { return s.skew; });
}

std::vector<Real> Integrator::tie_velocities() const {
  const std::size_t w = ties_.any_rot ? 6 : 3;
  std::vector<Real> out(w * ties_.nodes.size(), 0.0);
  for (std::size_t k = 0; k < ties_.nodes.size(); ++k) {
    const LocalId l = ties_.local[k];
    if (l == kInvalidLocal) continue;
    const auto n = static_cast<std::size_t>(l);
    for (int c = 0; c < 3; ++c) out[w * k + c] = d_.v[3 * n + c];
    if (w == 6)
      for (int c = 0; c < 3; ++c) out[w * k + 3 + c] = d_.w[3 * n + c];
  }
  return out;
}

void Integrator::sync_tied_velocities(std::span<const Real> before) {
  // The ties act on the accelerations (apply_ties); a rigid wall, a prescribed motion or a
  // skew constraint then sets velocities of single nodes. A segment node stopped by a wall
  // would leave its tied nodes moving on (the tie broken: a weld tied there is stretched by
  // the difference, its forces go to a node the wall holds, and energy is created). The
  // changes those constraints made to the tie nodes' velocities (owners' values, exchanged
  // where a tie spans ranks) are carried to the tied nodes by the shape functions: a tied node
  // takes its segment's change instead of its own. Nothing changed: nothing is exchanged but
  // the empty lists, and no velocity changes (bit for bit).
  const std::size_t nt = ties_.nodes.size();
  const std::size_t w = ties_.any_rot ? 6 : 3;
  std::vector<double> mine; // (tie node index, its w changes) of the changed owned nodes
  for (std::size_t k = 0; k < nt; ++k) {
    const LocalId l = ties_.local[k];
    if (l == kInvalidLocal || !d_.owned[static_cast<std::size_t>(l)]) continue;
    const auto n = static_cast<std::size_t>(l);
    std::array<Real, 6> dv{};
    bool changed = false;
    for (int c = 0; c < 3; ++c) {
      dv[c] = d_.v[3 * n + c] - before[w * k + c];
      if (w == 6) dv[3 + c] = d_.w[3 * n + c] - before[w * k + 3 + c];
    }
    for (std::size_t c = 0; c < w; ++c) changed |= dv[c] != 0;
    if (!changed) continue;
    mine.push_back(static_cast<double>(k));
    mine.insert(mine.end(), dv.begin(), dv.begin() + static_cast<std::ptrdiff_t>(w));
  }
  const std::vector<double> all = comm_.size() > 1 ? comm_.allgatherv(mine) : mine;
  if (all.empty()) return;
  std::vector<Real> dv(w * nt, 0.0);
  for (std::size_t p = 0; p + w < all.size(); p += w + 1) {
    const auto k = static_cast<std::size_t>(all[p]);
    for (std::size_t c = 0; c < w; ++c) dv[w * k + c] = all[p + 1 + c];
  }
  for (const auto& t : ties_.ties) {
    const LocalId l = ties_.local[t.node];
    if (l == kInvalidLocal) continue;
    const auto n = static_cast<std::size_t>(l);
    const std::size_t dofs = t.rot ? 6 : 3;
    for (std::size_t c = 0; c < dofs; ++c) {
      Real s = 0;
      for (int j = 0; j < 4; ++j) s += t.n[j] * dv[w * t.main[j] + c];
      const Real corr = s - dv[w * t.node + c];
      if (corr == 0) continue;
      if (c < 3)
        d_.v[3 * n + c] += corr;
      else
        d_.w[3 * n + c - 3] += corr;
    }
  }
}

} // namespace parcae::explicit_detail
