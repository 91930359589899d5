// Probes of the CFD solver: liquid depth along a vertical line, pressure and velocity at a
// point, as partial sums per rank (the owner of a point contributes it, every rank holding a
// part of a vertical line its part), summed exactly across ranks by the solver.
#include "solvers/cfd/probes.hpp"

#include <algorithm>
#include <cmath>

namespace parcae::cfd {

namespace {

/// The global cell index containing x along d, clamped to the grid.
int cell_of(const Grid& g, int d, double x) {
  return std::clamp(static_cast<int>(std::floor(x / g.h[d])), 0, g.global[d] - 1);
}

bool owns(const Grid& g, int d, int global) {
  return global >= g.offset[d] && global < g.offset[d] + g.n[d];
}

/// Multilinear interpolation of a staggered field: along `stag` (-1 none) the samples sit on
/// the lower faces (x = i h), elsewhere at the cell centres. Samples outside the grid are
/// clamped to its edge; `weight(I)` = 0 drops a sample (closed cells) and the rest are
/// renormalised. Only called by the owner of the point's cell (its samples are within one
/// ghost layer).
template <class Weight>
double interpolate(const Grid& g, const double* field, const std::array<double, 3>& x, int stag,
                   Weight&& weight) {
  std::array<int, 3> i0{0, 0, 0};
  std::array<double, 3> t{0, 0, 0};
  for (int d = 0; d < g.dim; ++d) {
    const double s = x[d] / g.h[d] - (d == stag ? 0.0 : 0.5);
    i0[d] = static_cast<int>(std::floor(s));
    t[d] = s - i0[d];
  }
  double sum = 0, wsum = 0;
  const int corners = 1 << g.dim;
  for (int c = 0; c < corners; ++c) {
    std::array<int, 3> at{0, 0, 0};
    double w = 1;
    for (int d = 0; d < g.dim; ++d) {
      const int up = (c >> d) & 1;
      const int top = g.global[d] - (d == stag ? 0 : 1);
      at[d] = std::clamp(i0[d] + up, 0, top) - g.offset[d];
      w *= up ? t[d] : 1 - t[d];
    }
    const std::ptrdiff_t I = g.at(at[0], at[1], at[2]);
    w *= weight(I);
    sum += w * field[I];
    wsum += w;
  }
  return wsum > 0 ? sum / wsum : 0.0;
}

} // namespace

std::vector<std::string> probe_columns(const std::vector<Probe>& probes, int dim) {
  std::vector<std::string> cols;
  for (const Probe& p : probes) {
    if (p.kind == ProbeKind::Velocity) {
      for (int d = 0; d < dim; ++d) cols.push_back(p.name + "_" + "uvw"[d]);
    } else {
      cols.push_back(p.name);
    }
  }
  return cols;
}

void sample_probes(const Grid& g, const std::vector<Probe>& probes, ConstVelocityPtrs u,
                   const double* p, const double* f, const OpenPtrs& open,
                   std::vector<ExactSum>& out) {
  std::size_t columns = 0;
  for (const Probe& pr : probes) columns += pr.kind == ProbeKind::Velocity ? g.dim : 1;
  out.assign(columns, ExactSum());
  const int a = g.dim - 1; // vertical
  std::size_t col = 0;
  for (const Probe& pr : probes) {
    std::array<int, 3> cell{0, 0, 0};
    bool mine = true;
    for (int d = 0; d < g.dim; ++d) {
      cell[d] = cell_of(g, d, pr.at[d]);
      if (!owns(g, d, cell[d]) && !(pr.kind == ProbeKind::Height && d == a)) mine = false;
    }
    switch (pr.kind) {
    case ProbeKind::Height:
      // Liquid depth: the integral of the liquid fraction over the open length of the line.
      if (mine)
        for (int k = 0; k < g.n[a]; ++k) {
          std::array<int, 3> at{cell[0] - g.offset[0], cell[1] - g.offset[1],
                                cell[2] - g.offset[2]};
          at[a] = k;
          const std::ptrdiff_t I = g.at(at[0], at[1], at[2]);
          const double v = open.any() ? open.vf[I] : 1.0;
          out[col].add(std::clamp(f[I], 0.0, 1.0) * v * g.h[a]);
        }
      ++col;
      break;
    case ProbeKind::Pressure:
      if (mine)
        out[col].add(interpolate(g, p, pr.at, -1, [&](std::ptrdiff_t I) {
          return open.any() && open.vf[I] == 0 ? 0.0 : 1.0;
        }));
      ++col;
      break;
    case ProbeKind::Velocity:
      for (int c = 0; c < g.dim; ++c, ++col)
        if (mine) out[col].add(interpolate(g, u[c], pr.at, c, [](std::ptrdiff_t) { return 1.0; }));
      break;
    }
  }
}

} // namespace parcae::cfd
