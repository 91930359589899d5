// restrict_domain: one rank's share of a whole-model domain (see domain.hpp).
#include <algorithm>
#include <tuple>
#include <type_traits>

#include "fem/tshell.hpp"
#include "solvers/common/domain.hpp"

namespace parcae {

namespace {

template <class T>
std::vector<T> pick(const std::vector<T>& v, const std::vector<std::size_t>& idx,
                    std::size_t stride) {
  std::vector<T> out;
  if (v.empty()) return out; // a state the block does not keep (e.g. hgq, IHQ 1-3)
  out.reserve(idx.size() * stride);
  for (std::size_t i : idx)
    for (std::size_t k = 0; k < stride; ++k) out.push_back(v[i * stride + k]);
  return out;
}

HexBlock pick_block(const HexBlock& b, const std::vector<std::size_t>& idx) {
  HexBlock o;
  o.conn = pick(b.conn, idx, 1);
  o.sig = pick(b.sig, idx, 6);
  o.back = pick(b.back, idx, 6);
  o.eps_p = pick(b.eps_p, idx, 1);
  o.hgq = pick(b.hgq, idx, 12);
  o.vol = pick(b.vol, idx, 1);
  o.e_int = pick(b.e_int, idx, 1);
  o.e_hg = pick(b.e_hg, idx, 1);
  o.dt = pick(b.dt, idx, 1);
  o.density_scale = pick(b.density_scale, idx, 1);
  o.failed = pick(b.failed, idx, 1);
  o.ts_nip = b.ts_nip;
  o.ts = pick(b.ts, idx, static_cast<std::size_t>(b.ts_nip) * kTShellState);
  return o;
}

ShellBlock pick_block(const ShellBlock& b, const std::vector<std::size_t>& idx, int nip) {
  ShellBlock o;
  const std::size_t n = static_cast<std::size_t>(nip);
  o.conn = pick(b.conn, idx, 1);
  o.t0 = pick(b.t0, idx, 1);
  o.t = pick(b.t, idx, 1);
  o.sig = pick(b.sig, idx, 5 * n);
  o.back = pick(b.back, idx, static_cast<std::size_t>(b.back_stride) * n);
  o.back_stride = b.back_stride;
  o.eps_p = pick(b.eps_p, idx, n);
  o.hg = pick(b.hg, idx, 5);
  o.e_int = pick(b.e_int, idx, 1);
  o.e_hg = pick(b.e_hg, idx, 1);
  o.failed = pick(b.failed, idx, 1);
  o.density_scale = pick(b.density_scale, idx, 1);
  o.layer = pick(b.layer, idx, 4 * n); // layered shells (empty otherwise)
  o.layer_mat = pick(b.layer_mat, idx, n);
  o.layer_ro = pick(b.layer_ro, idx, 1);
  o.layer_j = pick(b.layer_j, idx, 1);
  o.layer_c = pick(b.layer_c, idx, 1);
  o.planar = b.planar; // 2-D solids: their own stress and step (empty for shells)
  o.isdo = b.isdo;
  if (b.planar != Planar::None) {
    o.sig2d = pick(b.sig2d, idx, 6);
    o.back2d = pick(b.back2d, idx, 6);
    o.dt2d = pick(b.dt2d, idx, 1);
  }
  return o;
}

TrussBlock pick_block(const TrussBlock& b, const std::vector<std::size_t>& idx) {
  TrussBlock o;
  o.conn = pick(b.conn, idx, 1);
  o.area = pick(b.area, idx, 1);
  o.l0 = pick(b.l0, idx, 1);
  o.sig = pick(b.sig, idx, 1);
  o.back = pick(b.back, idx, 1);
  o.eps_p = pick(b.eps_p, idx, 1);
  o.e_int = pick(b.e_int, idx, 1);
  o.e_hg = pick(b.e_hg, idx, 1);
  o.force = pick(b.force, idx, 1);
  o.failed = pick(b.failed, idx, 1);
  o.density_scale = pick(b.density_scale, idx, 1);
  if (b.discrete()) {
    o.offset = pick(b.offset, idx, 1);
    o.dt_fixed = pick(b.dt_fixed, idx, 1);
  }
  return o;
}

BeamBlock pick_block(const BeamBlock& b, const std::vector<std::size_t>& idx) {
  BeamBlock o;
  const auto np = static_cast<std::size_t>(b.nip);
  o.nip = b.nip;
  o.sec = b.sec;
  o.conn = pick(b.conn, idx, 1);
  o.l0 = pick(b.l0, idx, 1);
  o.e2 = pick(b.e2, idx, 1);
  o.sig = pick(b.sig, idx, 3 * np);
  o.back = pick(b.back, idx, 3 * np);
  o.eps_p = pick(b.eps_p, idx, np);
  o.e_int = pick(b.e_int, idx, 1);
  o.e_hg = pick(b.e_hg, idx, 1);
  o.res = pick(b.res, idx, 6);
  o.preload = pick(b.preload, idx, 1);
  o.kbend = pick(b.kbend, idx, 1);
  o.failed = pick(b.failed, idx, 1);
  o.density_scale = pick(b.density_scale, idx, 1);
  return o;
}

/// Ranks (sorted, unique) whose deformable elements touch each node.
std::vector<std::vector<int>> node_ranks(const Domain& g, const std::vector<int>& solid_rank,
                                         const std::vector<int>& shell_rank,
                                         const std::vector<int>& truss_rank,
                                         const std::vector<int>& beam_rank) {
  std::vector<std::vector<int>> out(g.nnode);
  auto add = [](std::vector<int>& v, int r) {
    if (std::find(v.begin(), v.end(), r) == v.end())
      v.insert(std::upper_bound(v.begin(), v.end(), r), r);
  };
  for (std::size_t n = 0; n < g.nnode; ++n) {
    for (auto k = g.solid_corner_start[n]; k < g.solid_corner_start[n + 1]; ++k)
      add(out[n], solid_rank[static_cast<std::size_t>(g.solid_corner_list[k])]);
    for (auto k = g.shell_corner_start[n]; k < g.shell_corner_start[n + 1]; ++k)
      add(out[n], shell_rank[static_cast<std::size_t>(g.shell_corner_list[k])]);
    for (auto k = g.truss_corner_start[n]; k < g.truss_corner_start[n + 1]; ++k)
      add(out[n], truss_rank[static_cast<std::size_t>(g.truss_corner_list[k])]);
    for (auto k = g.beam_corner_start[n]; k < g.beam_corner_start[n + 1]; ++k)
      add(out[n], beam_rank[static_cast<std::size_t>(g.beam_corner_list[k])]);
  }
  return out;
}

} // namespace

Domain restrict_domain(const Domain& g, const ElementRanks& er, int nranks, int me) {
  const std::size_t nn = g.nnode;
  // Rank of every global corner.
  std::vector<int> solid_rank(g.n_solid_corners), shell_rank(g.n_shell_corners);
  for (const auto& sp : g.solids)
    for (std::size_t k = 0; k < sp.blk.size(); ++k)
      for (int a = 0; a < 8; ++a)
        solid_rank[sp.corner_offset + 8 * k + a] = er.solid[sp.model_index[k]];
  for (const auto& sp : g.shells)
    for (std::size_t k = 0; k < sp.blk.size(); ++k)
      for (int a = 0; a < 4; ++a)
        shell_rank[sp.corner_offset + 4 * k + a] = er.shell[sp.model_index[k]];
  std::vector<int> truss_rank(g.n_truss_corners);
  for (const auto& tp : g.trusses)
    for (std::size_t k = 0; k < tp.blk.size(); ++k)
      for (int a = 0; a < 2; ++a)
        truss_rank[tp.corner_offset + 2 * k + a] = er.beam[tp.model_index[k]];
  std::vector<int> beam_rank(g.n_beam_corners);
  for (const auto& bp : g.beams)
    for (std::size_t k = 0; k < bp.blk.size(); ++k)
      for (int a = 0; a < 2; ++a)
        beam_rank[bp.corner_offset + 2 * k + a] = er.beam[bp.model_index[k]];
  const auto nranks_of = node_ranks(g, solid_rank, shell_rank, truss_rank, beam_rank);
  auto touches = [&](std::size_t n, int r) {
    return std::binary_search(nranks_of[n].begin(), nranks_of[n].end(), r);
  };

  Domain d;
  d.model = g.model;
  d.added_mass = g.added_mass;
  d.physical_mass = g.physical_mass;
  // --- nodes: touched by my elements, every rigid-body node, free nodes on rank 0 ---
  d.local_of_global.assign(nn, kInvalidLocal);
  for (std::size_t n = 0; n < nn; ++n) {
    const bool keep = touches(n, me) || g.rigid_of[n] >= 0 || (nranks_of[n].empty() && me == 0);
    if (!keep) continue;
    d.local_of_global[n] = static_cast<LocalId>(d.global_index.size());
    d.global_index.push_back(static_cast<LocalId>(n));
  }
  d.nnode = d.global_index.size();
  for (LocalId gn : d.global_index) {
    const std::size_t n = static_cast<std::size_t>(gn);
    d.node_id.push_back(g.node_id[n]);
    for (int i = 0; i < 3; ++i) {
      d.x0.push_back(g.x0[3 * n + i]);
      d.x.push_back(g.x[3 * n + i]);
      d.v.push_back(g.v[3 * n + i]);
      d.a.push_back(g.a[3 * n + i]);
      d.f.push_back(g.f[3 * n + i]);
      d.w.push_back(g.w[3 * n + i]);
      d.m_ext.push_back(g.m_ext[3 * n + i]);
    }
    d.mass.push_back(g.mass[n]);
    d.inertia.push_back(g.inertia[n]);
    d.has_rot.push_back(g.has_rot[n]);
    d.rigid_of.push_back(g.rigid_of[n]);
    d.spc.push_back(g.spc[n]);
    const int owner = nranks_of[n].empty() ? 0 : nranks_of[n].front();
    d.owned.push_back(owner == me ? 1 : 0);
  }
  auto local = [&](LocalId n) { return d.local_of_global[static_cast<std::size_t>(n)]; };
  for (const Domain::SkewSpc& s : g.skew_spc) // local numbering keeps the global order
    if (local(s.node) != kInvalidLocal) d.skew_spc.push_back({local(s.node), s.dof, s.axes});
  // A node is shared when deformable elements of several ranks touch it (rigid nodes are not
  // ghosted: their forces reach the body through its global resultant). Nodes of welds are
  // ghosted all the same: a failed weld's nodes become deformable, and before that the weld's
  // failure force is taken from their complete nodal forces (rigid-body resultants skip the
  // ghost corners, so each corner is still counted once).
  auto shared = [&](std::size_t n) {
    return nranks_of[n].size() > 1 &&
           (g.rigid_of[n] < 0 || g.bodies[static_cast<std::size_t>(g.rigid_of[n])].can_fail());
  };

  // --- elements: mine, boundary (touching a shared node) first, each group in global order ---
  auto order = [&](std::size_t count, auto&& rank_of, auto&& is_boundary) {
    std::vector<std::size_t> bnd, inner;
    for (std::size_t k = 0; k < count; ++k)
      if (rank_of(k) == me) (is_boundary(k) ? bnd : inner).push_back(k);
    const std::size_t nb = bnd.size();
    bnd.insert(bnd.end(), inner.begin(), inner.end());
    return std::make_pair(bnd, nb);
  };
  // Every family the same way (ranks: the family's element -> rank map; trusses and beams share
  // the beam map): this rank's elements of each part, their corners renumbered in that order
  // (corner_local: global corner -> local corner) and their nodes made local; returns the
  // number of local corners.
  auto take = [&](const auto& parts, auto& out, std::vector<std::int64_t>& corner_local,
                  const std::vector<int>& ranks) {
    std::size_t n = 0;
    for (const auto& gp : parts) {
      using PartT = std::decay_t<decltype(gp)>;
      constexpr std::size_t nc = std::tuple_size_v<typename decltype(gp.blk.conn)::value_type>;
      auto [idx, nb] = order(
          gp.blk.size(), [&](std::size_t k) { return ranks[gp.model_index[k]]; },
          [&](std::size_t k) {
            for (LocalId node : gp.blk.conn[k])
              if (shared(static_cast<std::size_t>(node))) return true;
            return false;
          });
      PartT tp;
      tp.pid = gp.pid;
      tp.title = gp.title;
      tp.opt = gp.opt;
      tp.mat = gp.mat;
      if constexpr (std::is_same_v<PartT, ShellPart>)
        tp.blk = pick_block(gp.blk, idx, gp.opt.nip);
      else
        tp.blk = pick_block(gp.blk, idx);
      tp.elem_id = pick(gp.elem_id, idx, 1);
      tp.model_index = pick(gp.model_index, idx, 1);
      tp.n_boundary = nb;
      tp.corner_offset = n;
      for (std::size_t k = 0; k < idx.size(); ++k)
        for (std::size_t a = 0; a < nc; ++a) {
          corner_local[gp.corner_offset + nc * idx[k] + a] =
              static_cast<std::int64_t>(n + nc * k + a);
          tp.blk.conn[k][a] = local(tp.blk.conn[k][a]);
        }
      n += nc * idx.size();
      out.push_back(std::move(tp));
    }
    return n;
  };
  std::vector<std::int64_t> solid_local(g.n_solid_corners, -1), shell_local(g.n_shell_corners, -1);
  std::vector<std::int64_t> truss_local(g.n_truss_corners, -1), beam_local(g.n_beam_corners, -1);
  d.n_local_solid_corners = take(g.solids, d.solids, solid_local, er.solid);
  d.n_local_shell_corners = take(g.shells, d.shells, shell_local, er.shell);
  d.n_local_truss_corners = take(g.trusses, d.trusses, truss_local, er.beam);
  d.n_local_beam_corners = take(g.beams, d.beams, beam_local, er.beam);

  // --- halo: ghost corners received from / own corners sent to each neighbour, global order ---
  std::vector<int> neighbours;
  for (std::size_t n = 0; n < nn; ++n)
    if (shared(n) && touches(n, me))
      for (int r : nranks_of[n])
        if (r != me && std::find(neighbours.begin(), neighbours.end(), r) == neighbours.end())
          neighbours.push_back(r);
  std::sort(neighbours.begin(), neighbours.end());
  std::vector<std::int64_t> solid_ghost(g.n_solid_corners, -1), shell_ghost(g.n_shell_corners, -1);
  std::vector<std::int64_t> truss_ghost(g.n_truss_corners, -1);
  std::size_t ghost_solid = 0, ghost_shell = 0, ghost_truss = 0;
  std::vector<std::int64_t> beam_ghost(g.n_beam_corners, -1);
  std::size_t ghost_beam = 0;
  for (int s : neighbours) {
    Domain::Halo h;
    h.rank = s;
    d.halo.push_back(std::move(h));
  }
  // Walk nodes in global order, and each node's corners in global order, to fill the lists.
  // Corner ids are unique per node, so per-neighbour lists built node by node and then sorted
  // are in global corner order.
  for (std::size_t n = 0; n < nn; ++n) {
    if (!shared(n)) continue;
    const bool mine = touches(n, me);
    for (auto k = g.solid_corner_start[n]; k < g.solid_corner_start[n + 1]; ++k) {
      const auto c = static_cast<std::size_t>(g.solid_corner_list[k]);
      const int rc = solid_rank[c];
      for (auto& h : d.halo) {
        if (rc == me && touches(n, h.rank)) h.send_solid.push_back(solid_local[c]);
        if (mine && rc == h.rank) solid_ghost[c] = 1; // mark; positions assigned below
      }
    }
    for (auto k = g.shell_corner_start[n]; k < g.shell_corner_start[n + 1]; ++k) {
      const auto c = static_cast<std::size_t>(g.shell_corner_list[k]);
      const int rc = shell_rank[c];
      for (auto& h : d.halo) {
        if (rc == me && touches(n, h.rank)) h.send_shell.push_back(shell_local[c]);
        if (mine && rc == h.rank) shell_ghost[c] = 1;
      }
    }
    for (auto k = g.truss_corner_start[n]; k < g.truss_corner_start[n + 1]; ++k) {
      const auto c = static_cast<std::size_t>(g.truss_corner_list[k]);
      const int rc = truss_rank[c];
      for (auto& h : d.halo) {
        if (rc == me && touches(n, h.rank)) h.send_truss.push_back(truss_local[c]);
        if (mine && rc == h.rank) truss_ghost[c] = 1;
      }
    }
    for (auto k = g.beam_corner_start[n]; k < g.beam_corner_start[n + 1]; ++k) {
      const auto c = static_cast<std::size_t>(g.beam_corner_list[k]);
      const int rc = beam_rank[c];
      for (auto& h : d.halo) {
        if (rc == me && touches(n, h.rank)) h.send_beam.push_back(beam_local[c]);
        if (mine && rc == h.rank) beam_ghost[c] = 1;
      }
    }
  }
  // Ghost positions: per neighbour (increasing rank), global corner order.
  for (auto& h : d.halo) {
    for (std::size_t c = 0; c < g.n_solid_corners; ++c)
      if (solid_ghost[c] == 1 && solid_rank[c] == h.rank) {
        solid_ghost[c] = -2 - static_cast<std::int64_t>(d.n_local_solid_corners + ghost_solid++);
        ++h.recv_solid;
      }
    for (std::size_t c = 0; c < g.n_shell_corners; ++c)
      if (shell_ghost[c] == 1 && shell_rank[c] == h.rank) {
        shell_ghost[c] = -2 - static_cast<std::int64_t>(d.n_local_shell_corners + ghost_shell++);
        ++h.recv_shell;
      }
    for (std::size_t c = 0; c < g.n_truss_corners; ++c)
      if (truss_ghost[c] == 1 && truss_rank[c] == h.rank) {
        truss_ghost[c] = -2 - static_cast<std::int64_t>(d.n_local_truss_corners + ghost_truss++);
        ++h.recv_truss;
      }
    for (std::size_t c = 0; c < g.n_beam_corners; ++c)
      if (beam_ghost[c] == 1 && beam_rank[c] == h.rank) {
        beam_ghost[c] = -2 - static_cast<std::int64_t>(d.n_local_beam_corners + ghost_beam++);
        ++h.recv_beam;
      }
  }
  // Send lists in global corner order (local corner order puts boundary elements first, so it
  // is not global order): sort by global id.
  {
    std::vector<std::int64_t> solid_global(d.n_local_solid_corners),
        shell_global(d.n_local_shell_corners);
    for (std::size_t c = 0; c < g.n_solid_corners; ++c)
      if (solid_local[c] >= 0)
        solid_global[static_cast<std::size_t>(solid_local[c])] = static_cast<std::int64_t>(c);
    for (std::size_t c = 0; c < g.n_shell_corners; ++c)
      if (shell_local[c] >= 0)
        shell_global[static_cast<std::size_t>(shell_local[c])] = static_cast<std::int64_t>(c);
    std::vector<std::int64_t> truss_global(d.n_local_truss_corners);
    for (std::size_t c = 0; c < g.n_truss_corners; ++c)
      if (truss_local[c] >= 0)
        truss_global[static_cast<std::size_t>(truss_local[c])] = static_cast<std::int64_t>(c);
    std::vector<std::int64_t> beam_global(d.n_local_beam_corners);
    for (std::size_t c = 0; c < g.n_beam_corners; ++c)
      if (beam_local[c] >= 0)
        beam_global[static_cast<std::size_t>(beam_local[c])] = static_cast<std::int64_t>(c);
    for (auto& h : d.halo) {
      std::sort(h.send_beam.begin(), h.send_beam.end(), [&](auto a, auto b) {
        return beam_global[static_cast<std::size_t>(a)] < beam_global[static_cast<std::size_t>(b)];
      });
      std::sort(h.send_truss.begin(), h.send_truss.end(), [&](auto a, auto b) {
        return truss_global[static_cast<std::size_t>(a)] <
               truss_global[static_cast<std::size_t>(b)];
      });
      std::sort(h.send_solid.begin(), h.send_solid.end(), [&](auto a, auto b) {
        return solid_global[static_cast<std::size_t>(a)] <
               solid_global[static_cast<std::size_t>(b)];
      });
      std::sort(h.send_shell.begin(), h.send_shell.end(), [&](auto a, auto b) {
        return shell_global[static_cast<std::size_t>(a)] <
               shell_global[static_cast<std::size_t>(b)];
      });
    }
  }
  d.n_solid_corners = d.n_local_solid_corners + ghost_solid;
  d.n_shell_corners = d.n_local_shell_corners + ghost_shell;
  d.corner_f_solid.assign(3 * d.n_solid_corners, 0.0);
  d.corner_f_shell.assign(3 * d.n_shell_corners, 0.0);
  d.corner_m_shell.assign(3 * d.n_shell_corners, 0.0);
  d.n_truss_corners = d.n_local_truss_corners + ghost_truss;
  d.corner_f_truss.assign(3 * d.n_truss_corners, 0.0);
  d.n_beam_corners = d.n_local_beam_corners + ghost_beam;
  d.corner_f_beam.assign(3 * d.n_beam_corners, 0.0);
  d.corner_m_beam.assign(3 * d.n_beam_corners, 0.0);

  // --- node -> corner CSR in global corner order (own and ghost corners) ---
  auto build = [&](const std::vector<std::int64_t>& gstart, const std::vector<std::int64_t>& glist,
                   const std::vector<std::int64_t>& own, const std::vector<std::int64_t>& ghost,
                   std::vector<std::int64_t>& start, std::vector<std::int64_t>& list) {
    start.assign(d.nnode + 1, 0);
    list.clear();
    for (std::size_t ln = 0; ln < d.nnode; ++ln) {
      const auto n = static_cast<std::size_t>(d.global_index[ln]);
      for (auto k = gstart[n]; k < gstart[n + 1]; ++k) {
        const auto c = static_cast<std::size_t>(glist[k]);
        if (own[c] >= 0)
          list.push_back(own[c]);
        else if (ghost[c] <= -2)
          list.push_back(-2 - ghost[c]);
      }
      start[ln + 1] = static_cast<std::int64_t>(list.size());
    }
  };
  build(g.solid_corner_start, g.solid_corner_list, solid_local, solid_ghost, d.solid_corner_start,
        d.solid_corner_list);
  build(g.shell_corner_start, g.shell_corner_list, shell_local, shell_ghost, d.shell_corner_start,
        d.shell_corner_list);
  build(g.truss_corner_start, g.truss_corner_list, truss_local, truss_ghost, d.truss_corner_start,
        d.truss_corner_list);
  build(g.beam_corner_start, g.beam_corner_list, beam_local, beam_ghost, d.beam_corner_start,
        d.beam_corner_list);

  // --- rigid bodies: replicated on every rank, nodes renumbered ---
  d.bodies = g.bodies;
  d.joints = g.joints;
  d.joint_stiffness = g.joint_stiffness;
  for (auto& b : d.bodies)
    for (LocalId& n : b.nodes) n = local(n);
  (void)nranks;
  return d;
}

} // namespace parcae
