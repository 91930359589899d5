#pragma once
// Equation numbering of the implicit solver: every node is owned by the lowest rank among the
// elements touching it; the free (not SPC-fixed) dofs of rank 0's owned nodes come first, then
// rank 1's, ..., so each rank owns a contiguous range of matrix rows. The nonzero pattern of
// the owned rows comes from the node-element adjacency of the whole mesh (every rank holds the
// model). Nodes without elements have no equations.
#include <cstdint>
#include <span>
#include <vector>

#include "mesh/model.hpp"

namespace parcae::implicit {

struct DofMap {
  std::vector<std::int64_t> eq; ///< 3 per model node: global equation, -1 when fixed
  std::vector<int> owner;       ///< per model node: owning rank (-1: no element)
  std::int64_t row_begin = 0, row_end = 0, n_global = 0;
  std::vector<int> d_nnz, o_nnz; ///< per owned row
};

/// solid_rank: the rank of each model solid (empty: all on rank 0).
DofMap build_dof_map(const Model& model, std::span<const int> solid_rank, int nranks, int rank);

} // namespace parcae::implicit
