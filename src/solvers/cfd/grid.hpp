#pragma once
// The block of a structured Cartesian grid one rank owns, with two ghost layers (one-cell
// layers would not carry the upwind-biased stencils), and the staggered (MAC) field layout:
// pressure and fluid fraction at cell centres, velocity component c at the lower c-face of
// each cell (u(i) sits at x = i h). Every field is an array over the ghosted block.
#include <array>
#include <cstddef>
#include <vector>

#include "par/comm.hpp"

namespace parcae::cfd {

struct Grid {
  int dim = 2;
  std::array<int, 3> global{1, 1, 1}; ///< cells of the whole box
  std::array<int, 3> n{1, 1, 1};      ///< this rank's cells
  std::array<int, 3> offset{0, 0, 0}; ///< global index of local cell 0
  std::array<int, 3> ranks{1, 1, 1};  ///< ranks per direction
  std::array<int, 3> coord{0, 0, 0};  ///< this rank's block in the rank grid
  std::array<double, 3> h{1, 1, 1};
  std::array<int, 3> g{2, 2, 0}; ///< ghost layers per direction (0 in z for 2D)
  std::array<std::ptrdiff_t, 3> stride{1, 1, 1};
  std::size_t total = 0; ///< ghosted cells

  [[nodiscard]] std::ptrdiff_t at(int i, int j, int k) const {
    return (i + g[0]) * stride[0] + (j + g[1]) * stride[1] + (k + g[2]) * stride[2];
  }
  [[nodiscard]] bool at_lo(int d) const { return coord[d] == 0; }
  [[nodiscard]] bool at_hi(int d) const { return coord[d] == ranks[d] - 1; }
  [[nodiscard]] std::size_t owned() const { return static_cast<std::size_t>(n[0]) * n[1] * n[2]; }
  /// Rank of the block at coord + off, -1 outside the rank grid.
  [[nodiscard]] int neighbour(std::array<int, 3> off) const;
};

/// Rank grid: factors of `size` over the directions minimising the cut surface (dim 2 or 3).
std::array<int, 3> rank_grid(int size, int dim, std::array<int, 3> cells);
/// The block of `rank` (ranks numbered x fastest) in a decomposition of `cells`.
Grid make_grid(int dim, std::array<int, 3> cells, std::array<double, 3> h, int rank, int size);

/// A half-open index box [lo, hi) of local cells.
struct Box {
  std::array<int, 3> lo{0, 0, 0}, hi{0, 0, 0};
  [[nodiscard]] bool empty() const { return hi[0] <= lo[0] || hi[1] <= lo[1] || hi[2] <= lo[2]; }
};
/// All owned cells.
Box owned_box(const Grid& grid);
/// Cells whose stencils (reach 2) touch no ghost of a neighbouring rank: computed while the
/// halo messages travel.
Box interior_box(const Grid& grid);
/// The owned cells outside `inner` as up to six disjoint boxes.
std::vector<Box> shell_boxes(const Grid& grid, const Box& inner);

/// Split-phase halo exchange of several fields (all ghost layers, edges and corners: one
/// message per neighbouring block, up to 8 in 2D and 26 in 3D).
class Halo {
public:
  Halo(const par::Comm& comm, const Grid& grid, int fields);
  ~Halo();
  Halo(const Halo&) = delete;
  Halo& operator=(const Halo&) = delete;
  /// Packs the fields (grid.total values each) and posts the messages.
  void begin(const std::vector<double*>& fields);
  /// Waits and unpacks into the ghosts of the fields given to begin().
  void end();
  /// Bytes sent per exchange by this rank.
  [[nodiscard]] std::size_t bytes_per_exchange() const { return bytes_; }

private:
  struct Part {
    Box send, recv;
    std::size_t count = 0;
  };
  const Grid& grid_;
  int fields_;
  std::vector<Part> parts_;
  std::vector<double*> current_;
  std::size_t bytes_ = 0;
  struct Impl;
  Impl* impl_ = nullptr;
};

} // namespace parcae::cfd
