#include "solvers/cfd/grid.hpp"

#include <algorithm>
#include <limits>
#include <memory>

#include "core/error.hpp"

namespace parcae::cfd {

int Grid::neighbour(std::array<int, 3> off) const {
  std::array<int, 3> c{};
  for (int d = 0; d < 3; ++d) {
    c[d] = coord[d] + off[d];
    if (c[d] < 0 || c[d] >= ranks[d]) return -1;
  }
  return c[0] + ranks[0] * (c[1] + ranks[1] * c[2]);
}

std::array<int, 3> rank_grid(int size, int dim, std::array<int, 3> cells) {
  std::array<int, 3> best{size, 1, 1};
  double best_cut = std::numeric_limits<double>::max();
  for (int px = 1; px <= size; ++px) {
    if (size % px) continue;
    for (int py = 1; py <= size / px; ++py) {
      if ((size / px) % py) continue;
      const int pz = size / px / py;
      if (dim == 2 && pz != 1) continue;
      if (px > cells[0] || py > cells[1] || pz > cells[2]) continue;
      // Cut area: faces between blocks, in cells.
      const double cut = double(px - 1) * cells[1] * cells[2] +
                         double(py - 1) * cells[0] * cells[2] +
                         double(pz - 1) * cells[0] * cells[1];
      if (cut < best_cut) {
        best_cut = cut;
        best = {px, py, pz};
      }
    }
  }
  if (best_cut == std::numeric_limits<double>::max())
    throw InputError({"domain.cells", 0, ""},
                     "too few cells to give every rank a block; use fewer ranks");
  return best;
}

Grid make_grid(int dim, std::array<int, 3> cells, std::array<double, 3> h, int rank, int size) {
  Grid g;
  g.dim = dim;
  g.global = cells;
  g.h = h;
  g.ranks = rank_grid(size, dim, cells);
  g.coord = {rank % g.ranks[0], (rank / g.ranks[0]) % g.ranks[1], rank / (g.ranks[0] * g.ranks[1])};
  for (int d = 0; d < 3; ++d) {
    const int q = cells[d] / g.ranks[d], r = cells[d] % g.ranks[d];
    g.n[d] = q + (g.coord[d] < r ? 1 : 0);
    g.offset[d] = g.coord[d] * q + std::min(g.coord[d], r);
    if (g.n[d] < 2 && d < dim)
      throw InputError({"domain.cells", 0, ""},
                       "fewer than 2 cells per rank in a direction; use fewer ranks");
  }
  g.g = {2, 2, dim == 3 ? 2 : 0};
  g.stride[0] = 1;
  g.stride[1] = g.n[0] + 2 * g.g[0];
  g.stride[2] = g.stride[1] * (g.n[1] + 2 * g.g[1]);
  g.total = static_cast<std::size_t>(g.stride[2]) * (g.n[2] + 2 * g.g[2]);
  return g;
}

Box owned_box(const Grid& grid) {
  return Box{{0, 0, 0}, grid.n};
}

Box interior_box(const Grid& grid) {
  Box b = owned_box(grid);
  for (int d = 0; d < grid.dim; ++d) {
    if (!grid.at_lo(d)) b.lo[d] = std::min(grid.n[d], 2);
    if (!grid.at_hi(d)) b.hi[d] = std::max(b.lo[d], grid.n[d] - 2);
  }
  return b;
}

std::vector<Box> shell_boxes(const Grid& grid, const Box& inner) {
  std::vector<Box> out;
  Box rest = owned_box(grid);
  if (inner.empty()) return {rest};
  for (int d = 0; d < 3; ++d) {
    Box lo = rest, hi = rest;
    lo.hi[d] = inner.lo[d];
    hi.lo[d] = inner.hi[d];
    if (!lo.empty()) out.push_back(lo);
    if (!hi.empty()) out.push_back(hi);
    rest.lo[d] = inner.lo[d];
    rest.hi[d] = inner.hi[d];
  }
  return out;
}

struct Halo::Impl {
  std::unique_ptr<par::Exchange> ex;
};

Halo::Halo(const par::Comm& comm, const Grid& grid, int fields)
    : grid_(grid), fields_(fields), impl_(new Impl) {
  std::vector<par::Exchange::Neighbour> nbs;
  const int zr = grid.dim == 3 ? 1 : 0;
  for (int oz = -zr; oz <= zr; ++oz)
    for (int oy = -1; oy <= 1; ++oy)
      for (int ox = -1; ox <= 1; ++ox) {
        if (ox == 0 && oy == 0 && oz == 0) continue;
        const std::array<int, 3> off{ox, oy, oz};
        const int r = grid.neighbour(off);
        if (r < 0) continue;
        Part p;
        for (int d = 0; d < 3; ++d) {
          const int gd = grid.g[d], nd = grid.n[d];
          if (off[d] == 0) {
            // Along a physical upper boundary the neighbour's boundary face (index n: an
            // outflow's velocity, computed by its owner only) travels too; stencils of the
            // cells next to the rank boundary read it.
            p.send.lo[d] = p.recv.lo[d] = 0;
            p.send.hi[d] = p.recv.hi[d] = nd + (d < grid.dim && grid.at_hi(d) ? 1 : 0);
          } else if (off[d] < 0) {
            p.send.lo[d] = 0, p.send.hi[d] = gd;
            p.recv.lo[d] = -gd, p.recv.hi[d] = 0;
          } else {
            p.send.lo[d] = nd - gd, p.send.hi[d] = nd;
            p.recv.lo[d] = nd, p.recv.hi[d] = nd + gd;
          }
        }
        p.count = static_cast<std::size_t>(p.send.hi[0] - p.send.lo[0]) *
                  (p.send.hi[1] - p.send.lo[1]) * (p.send.hi[2] - p.send.lo[2]) * fields;
        const std::size_t rc = static_cast<std::size_t>(p.recv.hi[0] - p.recv.lo[0]) *
                               (p.recv.hi[1] - p.recv.lo[1]) * (p.recv.hi[2] - p.recv.lo[2]) *
                               fields;
        nbs.push_back({r, p.count, rc});
        bytes_ += p.count * sizeof(double);
        parts_.push_back(p);
      }
  if (!nbs.empty()) impl_->ex = std::make_unique<par::Exchange>(comm, std::move(nbs));
}

Halo::~Halo() {
  delete impl_;
}

void Halo::begin(const std::vector<double*>& fields) {
  current_ = fields;
  if (!impl_->ex) return;
  auto buf = impl_->ex->send_buffer();
  std::size_t pos = 0;
  for (const Part& p : parts_)
    for (double* f : fields)
      for (int k = p.send.lo[2]; k < p.send.hi[2]; ++k)
        for (int j = p.send.lo[1]; j < p.send.hi[1]; ++j)
          for (int i = p.send.lo[0]; i < p.send.hi[0]; ++i) buf[pos++] = f[grid_.at(i, j, k)];
  impl_->ex->begin();
}

void Halo::end() {
  if (!impl_->ex) return;
  impl_->ex->end();
  auto buf = impl_->ex->recv_buffer();
  std::size_t pos = 0;
  for (const Part& p : parts_)
    for (double* f : current_)
      for (int k = p.recv.lo[2]; k < p.recv.hi[2]; ++k)
        for (int j = p.recv.lo[1]; j < p.recv.hi[1]; ++j)
          for (int i = p.recv.lo[0]; i < p.recv.hi[0]; ++i) f[grid_.at(i, j, k)] = buf[pos++];
}

} // namespace parcae::cfd
