#include "solvers/implicit/dof_map.hpp"

#include <algorithm>

namespace parcae::implicit {

DofMap build_dof_map(const Model& model, std::span<const int> solid_rank, int nranks, int rank) {
  const std::size_t nn = model.nodes.size(), ne = model.solids.size();
  DofMap m;
  m.owner.assign(nn, -1);
  const auto rank_of = [&](std::size_t e) { return solid_rank.empty() ? 0 : solid_rank[e]; };
  for (std::size_t e = 0; e < ne; ++e)
    for (LocalId n : model.solids.nodes[e]) {
      int& o = m.owner[n];
      o = o < 0 ? rank_of(e) : std::min(o, rank_of(e));
    }
  std::vector<std::uint8_t> fixed(3 * nn, 0);
  for (const Spc& s : model.spcs)
    for (int c = 0; c < 3; ++c)
      if (s.dof[c]) fixed[3 * s.node + c] = 1;
  m.eq.assign(3 * nn, -1);
  std::int64_t next = 0;
  for (int r = 0; r < nranks; ++r) {
    if (r == rank) m.row_begin = next;
    for (std::size_t n = 0; n < nn; ++n) {
      if (m.owner[n] != r) continue;
      for (int c = 0; c < 3; ++c)
        if (!fixed[3 * n + c]) m.eq[3 * n + c] = next++;
    }
    if (r == rank) m.row_end = next;
  }
  m.n_global = next;
  // Node -> elements (CSR), then the neighbours of each owned node.
  std::vector<std::int64_t> start(nn + 1, 0);
  for (std::size_t e = 0; e < ne; ++e)
    for (LocalId n : model.solids.nodes[e]) ++start[n + 1];
  for (std::size_t n = 0; n < nn; ++n) start[n + 1] += start[n];
  std::vector<std::int64_t> list(static_cast<std::size_t>(start[nn]));
  {
    std::vector<std::int64_t> pos(start.begin(), start.end() - 1);
    for (std::size_t e = 0; e < ne; ++e) {
      std::array<LocalId, 8> nodes = model.solids.nodes[e];
      std::sort(nodes.begin(), nodes.end());
      for (std::size_t k = 0; k < 8; ++k)
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
    for (std::int64_t k = start[n]; k < start[n + 1]; ++k)
      for (LocalId nb : model.solids.nodes[static_cast<std::size_t>(list[k])]) {
        if (stamp[nb] == n) continue;
        stamp[nb] = n;
        for (int c = 0; c < 3; ++c) {
          const std::int64_t col = m.eq[3 * nb + c];
          if (col < 0) continue;
          (col >= m.row_begin && col < m.row_end ? d : o) += 1;
        }
      }
    for (int c = 0; c < 3; ++c) {
      const std::int64_t row = m.eq[3 * n + c];
      if (row < 0) continue;
      m.d_nnz[static_cast<std::size_t>(row - m.row_begin)] = d;
      m.o_nnz[static_cast<std::size_t>(row - m.row_begin)] = o;
    }
  }
  return m;
}

} // namespace parcae::implicit
