#include "solvers/implicit/dof_map.hpp"

#include <algorithm>

namespace parcae::implicit {

DofMap build_dof_map(const Model& model, std::span<const int> solid_rank,
                     std::span<const int> shell_rank, int nranks, int rank) {
  constexpr std::size_t nd = kNodeDofs;
  const std::size_t nn = model.nodes.size(), ns = model.solids.size(), nsh = model.shells.size();
  DofMap m;
  m.owner.assign(nn, -1);
  m.rot.assign(nn, 0);
  const auto solid_rank_of = [&](std::size_t e) { return solid_rank.empty() ? 0 : solid_rank[e]; };
  const auto shell_rank_of = [&](std::size_t e) { return shell_rank.empty() ? 0 : shell_rank[e]; };
  const auto touch = [&](LocalId n, int r) {
    int& o = m.owner[n];
    o = o < 0 ? r : std::min(o, r);
  };
  for (std::size_t e = 0; e < ns; ++e)
    for (LocalId n : model.solids.nodes[e]) touch(n, solid_rank_of(e));
  for (std::size_t e = 0; e < nsh; ++e)
    for (LocalId n : model.shells.nodes[e]) {
      touch(n, shell_rank_of(e));
      m.rot[n] = 1;
    }
  std::vector<std::uint8_t> fixed(nd * nn, 0);
  for (const Spc& s : model.spcs)
    for (std::size_t c = 0; c < nd; ++c)
      if (s.dof[c]) fixed[nd * s.node + c] = 1;
  m.eq.assign(nd * nn, -1);
  std::int64_t next = 0;
  for (int r = 0; r < nranks; ++r) {
    if (r == rank) m.row_begin = next;
    for (std::size_t n = 0; n < nn; ++n) {
      if (m.owner[n] != r) continue;
      const std::size_t ndof = m.rot[n] ? 6 : 3;
      for (std::size_t c = 0; c < ndof; ++c)
        if (!fixed[nd * n + c]) m.eq[nd * n + c] = next++;
    }
    if (r == rank) m.row_end = next;
  }
  m.n_global = next;
  // Elements as node lists: solids first, then shells (a triangle repeats N3).
  const std::size_t ne = ns + nsh;
  const auto elem_nodes = [&](std::size_t e) -> std::span<const LocalId> {
    if (e < ns) return model.solids.nodes[e];
    return model.shells.nodes[e - ns];
  };
  // Node -> elements (CSR), then the neighbours of each owned node.
  std::vector<std::int64_t> start(nn + 1, 0);
  for (std::size_t e = 0; e < ne; ++e)
    for (LocalId n : elem_nodes(e)) ++start[n + 1];
  for (std::size_t n = 0; n < nn; ++n) start[n + 1] += start[n];
  std::vector<std::int64_t> list(static_cast<std::size_t>(start[nn]), -1);
  {
    std::vector<std::int64_t> pos(start.begin(), start.end() - 1);
    for (std::size_t e = 0; e < ne; ++e) {
      std::vector<LocalId> nodes(elem_nodes(e).begin(), elem_nodes(e).end());
      std::sort(nodes.begin(), nodes.end());
      for (std::size_t k = 0; k < nodes.size(); ++k)
        if (k == 0 || nodes[k] != nodes[k - 1])
          list[pos[nodes[k]]++] = static_cast<std::int64_t>(e);
    }
  }
  const auto nloc = static_cast<std::size_t>(m.row_end - m.row_begin);
  m.d_nnz.assign(nloc, 0);
  m.o_nnz.assign(nloc, 0);
  std::vector<std::size_t> stamp(nn, static_cast<std::size_t>(-1));
  for (std::size_t n = 0; n < nn; ++n) {
    if (m.owner[n] != rank) continue;
    int d = 0, o = 0;
    for (std::int64_t k = start[n]; k < start[n + 1]; ++k) {
      if (list[static_cast<std::size_t>(k)] < 0) continue; // a repeated node's spare slot
      for (LocalId nb : elem_nodes(static_cast<std::size_t>(list[static_cast<std::size_t>(k)]))) {
        if (stamp[nb] == n) continue;
        stamp[nb] = n;
        for (std::size_t c = 0; c < nd; ++c) {
          const std::int64_t col = m.eq[nd * nb + c];
          if (col < 0) continue;
          (col >= m.row_begin && col < m.row_end ? d : o) += 1;
        }
      }
    }
    for (std::size_t c = 0; c < nd; ++c) {
      const std::int64_t row = m.eq[nd * n + c];
      if (row < 0) continue;
      m.d_nnz[static_cast<std::size_t>(row - m.row_begin)] = d;
      m.o_nnz[static_cast<std::size_t>(row - m.row_begin)] = o;
    }
  }
  return m;
}

} // namespace parcae::implicit
