#pragma once
// Small models built in code for the decomposition tests (no deck reading).
#include <algorithm>
#include <array>

#include "mesh/decompose.hpp"
#include "mesh/model.hpp"

namespace parcae::test {

inline void add_part(Model& m, GlobalId pid, MaterialKind kind) {
  Part p;
  p.id = pid;
  p.secid = pid;
  p.mid = pid;
  m.parts.push_back(p);
  Material mat;
  mat.id = pid;
  mat.kind = kind;
  mat.ro = 7.85e-9;
  mat.e = 210000;
  mat.pr = 0.3;
  m.materials.push_back(mat);
}

inline LocalId add_node(Model& m, Real x, Real y, Real z) {
  m.nodes.id.push_back(static_cast<GlobalId>(m.nodes.size()) + 1);
  m.nodes.x.push_back(x);
  m.nodes.y.push_back(y);
  m.nodes.z.push_back(z);
  m.nodes.tc.push_back(0);
  m.nodes.rc.push_back(0);
  return static_cast<LocalId>(m.nodes.size() - 1);
}

/// Structured nx*ny*nz block of hexahedra on [x0, x0+lx] x [0,ly] x [0,lz], part pid (added to
/// the model with the given material kind unless it exists).
inline void add_hex_block(Model& m, int nx, int ny, int nz, Real lx, Real ly, Real lz,
                          GlobalId pid = 1, MaterialKind kind = MaterialKind::Elastic,
                          Real x0 = 0) {
  if (m.find_part(pid) == nullptr) add_part(m, pid, kind);
  const LocalId first = static_cast<LocalId>(m.nodes.size());
  for (int k = 0; k <= nz; ++k)
    for (int j = 0; j <= ny; ++j)
      for (int i = 0; i <= nx; ++i) add_node(m, x0 + lx * i / nx, ly * j / ny, lz * k / nz);
  auto n = [&](int i, int j, int k) { return first + i + (nx + 1) * (j + (ny + 1) * k); };
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        m.solids.id.push_back(static_cast<GlobalId>(m.solids.size()) + 1);
        m.solids.part.push_back(pid);
        m.solids.nodes.push_back({n(i, j, k), n(i + 1, j, k), n(i + 1, j + 1, k), n(i, j + 1, k),
                                  n(i, j, k + 1), n(i + 1, j, k + 1), n(i + 1, j + 1, k + 1),
                                  n(i, j + 1, k + 1)});
        m.solids.line.push_back(0);
      }
}

/// nx*ny grid of quads on [0,lx] x [0,ly] at height z.
inline void add_shell_grid(Model& m, int nx, int ny, Real lx, Real ly, GlobalId pid = 2,
                           MaterialKind kind = MaterialKind::Elastic, Real z = 0) {
  if (m.find_part(pid) == nullptr) add_part(m, pid, kind);
  const LocalId first = static_cast<LocalId>(m.nodes.size());
  for (int j = 0; j <= ny; ++j)
    for (int i = 0; i <= nx; ++i) add_node(m, lx * i / nx, ly * j / ny, z);
  auto n = [&](int i, int j) { return first + i + (nx + 1) * j; };
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      m.shells.id.push_back(static_cast<GlobalId>(m.shells.size()) + 1);
      m.shells.part.push_back(pid);
      m.shells.nodes.push_back({n(i, j), n(i + 1, j), n(i + 1, j + 1), n(i, j + 1)});
      m.shells.thickness.push_back({0, 0, 0, 0});
      m.shells.line.push_back(0);
    }
}

/// Centroid of solid e.
inline std::array<Real, 3> solid_centroid(const Model& m, std::size_t e) {
  std::array<Real, 3> c{0, 0, 0};
  for (LocalId n : m.solids.nodes[e]) {
    c[0] += m.nodes.x[static_cast<std::size_t>(n)] / 8;
    c[1] += m.nodes.y[static_cast<std::size_t>(n)] / 8;
    c[2] += m.nodes.z[static_cast<std::size_t>(n)] / 8;
  }
  return c;
}

} // namespace parcae::test
