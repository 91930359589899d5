#pragma once
// Equation numbering of the implicit solver: every node is owned by the lowest rank among the
// elements (solids and shells) touching it; the free (not SPC-fixed) dofs of rank 0's owned
// nodes come first, then rank 1's, ..., so each rank owns a contiguous range of matrix rows.
// Every node has 6 dof slots (ux uy uz rx ry rz); the rotations have equations only at nodes of
// shells (nodes of solids alone keep 3 equations). The nonzero pattern of the owned rows comes
// from the node-element adjacency of the whole mesh (every rank holds the model). Nodes without
// elements have no equations.
#include <cstdint>
#include <span>
#include <vector>

#include "mesh/model.hpp"

namespace parcae::implicit {

/// Dof slots per node (3 translations, 3 rotations).
inline constexpr int kNodeDofs = 6;

struct DofMap {
  std::vector<std::int64_t> eq;  ///< 6 per model node: global equation, -1 when fixed or absent
  std::vector<int> owner;        ///< per model node: owning rank (-1: no element)
  std::vector<std::uint8_t> rot; ///< per model node: 1 when it has rotations (a shell node)
  std::int64_t row_begin = 0, row_end = 0, n_global = 0;
  std::vector<int> d_nnz, o_nnz; ///< per owned row
};

/// solid_rank / shell_rank: the rank of each model solid / shell (empty: all on rank 0).
DofMap build_dof_map(const Model& model, std::span<const int> solid_rank,
                     std::span<const int> shell_rank, int nranks, int rank);

} // namespace parcae::implicit
