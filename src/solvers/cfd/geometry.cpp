// Obstacles: STL reading and checks, solid intervals along grid lines, FAVOR open fractions.
#include "solvers/cfd/geometry.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <sstream>

#include "core/error.hpp"
#include "solvers/cfd/cfd_case.hpp"
#include "solvers/cfd/grid.hpp"

namespace parcae::cfd {

namespace {

using Vec3 = std::array<double, 3>;
using Intervals = std::vector<std::array<double, 2>>;

std::string point(const Vec3& v) {
  return fmt::format("({:.6g}, {:.6g}, {:.6g})", v[0], v[1], v[2]);
}

/// Binary STL: 80-byte header, a 32-bit count, 50 bytes per triangle. A file of exactly that
/// size is binary even when its header starts with "solid" (some exporters write that).
bool read_binary(const std::string& bytes, std::vector<std::array<double, 9>>& tris) {
  if (bytes.size() < 84) return false;
  std::uint32_t n = 0;
  std::memcpy(&n, bytes.data() + 80, 4);
  if (bytes.size() != 84 + 50 * static_cast<std::size_t>(n)) return false;
  tris.resize(n);
  for (std::uint32_t t = 0; t < n; ++t) {
    const char* rec = bytes.data() + 84 + 50 * static_cast<std::size_t>(t) + 12;
    for (int v = 0; v < 9; ++v) {
      float x = 0;
      std::memcpy(&x, rec + 4 * v, 4);
      tris[t][v] = x;
    }
  }
  return true;
}

void read_ascii(const std::string& path, const std::string& bytes,
                std::vector<std::array<double, 9>>& tris) {
  std::istringstream in(bytes);
  std::string line;
  int lineno = 0, nv = 0;
  std::array<double, 9> cur{};
  bool in_solid = false;
  while (std::getline(in, line)) {
    ++lineno;
    std::istringstream ls(line);
    std::string word;
    if (!(ls >> word)) continue;
    if (word == "solid") {
      in_solid = true;
    } else if (word == "vertex") {
      if (nv >= 3)
        throw RuntimeError(
            fmt::format("{}:{}: a facet with more than three vertices", path, lineno));
      for (int c = 0; c < 3; ++c)
        if (!(ls >> cur[3 * nv + c]) || !std::isfinite(cur[3 * nv + c]))
          throw RuntimeError(fmt::format("{}:{}: vertex needs three numbers", path, lineno));
      ++nv;
    } else if (word == "endloop") {
      if (nv != 3)
        throw RuntimeError(fmt::format("{}:{}: a facet with {} vertices (STL facets are triangles)",
                                       path, lineno, nv));
      tris.push_back(cur);
      nv = 0;
    } else if (word != "facet" && word != "outer" && word != "endfacet" && word != "endsolid") {
      throw RuntimeError(fmt::format("{}:{}: \"{}\" is not an STL keyword", path, lineno, word));
    }
  }
  if (!in_solid)
    throw RuntimeError(path + ": neither an ASCII STL (\"solid\") nor a binary STL "
                              "(its size does not match its triangle count)");
}

/// Every edge in exactly two triangles, once in each direction.
void check_closed(const StlMesh& m) {
  std::map<Vec3, int> ids;
  auto id = [&](const Vec3& v) {
    return ids.emplace(v, static_cast<int>(ids.size())).first->second;
  };
  std::vector<Vec3> where;
  struct Use {
    int forward = 0, backward = 0;
    std::size_t first = 0;
  };
  std::map<std::pair<int, int>, Use> edges;
  for (std::size_t t = 0; t < m.triangles.size(); ++t) {
    const auto& tri = m.triangles[t];
    std::array<int, 3> v{};
    for (int k = 0; k < 3; ++k) {
      v[k] = id({tri[3 * k], tri[3 * k + 1], tri[3 * k + 2]});
      if (static_cast<std::size_t>(v[k]) == where.size())
        where.push_back({tri[3 * k], tri[3 * k + 1], tri[3 * k + 2]});
    }
    // A triangle with a repeated vertex has no area and runs its one edge both ways: skip it
    // (its neighbours pair up without it).
    if (v[0] == v[1] || v[1] == v[2] || v[0] == v[2]) continue;
    for (int k = 0; k < 3; ++k) {
      const int a = v[k], b = v[(k + 1) % 3];
      Use& u = edges[{std::min(a, b), std::max(a, b)}];
      if (u.forward + u.backward == 0) u.first = t;
      (a < b ? u.forward : u.backward) += 1;
    }
  }
  std::size_t open = 0, bad_orient = 0, nonmanifold = 0;
  std::string open_ex, orient_ex, nm_ex;
  for (const auto& [e, u] : edges) {
    const std::string ex =
        fmt::format("the edge {} - {}", point(where[e.first]), point(where[e.second]));
    if (u.forward + u.backward == 1) {
      if (open++ == 0) open_ex = ex;
    } else if (u.forward + u.backward > 2) {
      if (nonmanifold++ == 0) nm_ex = ex;
    } else if (u.forward != 1) {
      if (bad_orient++ == 0) orient_ex = ex + fmt::format(" (triangle {})", u.first + 1);
    }
  }
  if (open)
    throw RuntimeError(fmt::format("{}: not a closed surface: {} edge(s) belong to one triangle "
                                   "only, e.g. {}; close the surface (the inside of an open "
                                   "surface is not defined)",
                                   m.path, open, open_ex));
  if (nonmanifold)
    throw RuntimeError(fmt::format("{}: {} edge(s) are shared by more than two triangles, e.g. "
                                   "{}; give each solid as its own closed surface",
                                   m.path, nonmanifold, nm_ex));
  if (bad_orient)
    throw RuntimeError(fmt::format("{}: inconsistently oriented: {} edge(s) are run in the same "
                                   "direction by both their triangles, e.g. {}; orient all "
                                   "triangles the same way (normals outward)",
                                   m.path, bad_orient, orient_ex));
}

/// A crossing of a line with a surface: its coordinate along the line, |n . e_axis| and the
/// direction (+1 where the line enters the solid: the outward normal against the line).
struct Crossing {
  double s = 0, cos = 0;
  int enter = 0;
};

/// Crossings of the line along `axis` through (p[e1], p[e2]) with the triangles (parity rule).
/// The line is moved by a tiny fixed offset (1e-9 of the mesh size) so that it never runs
/// exactly through an edge or a vertex shared by two triangles.
std::vector<Crossing> stl_crossings(const StlMesh& m, int axis, Vec3 p) {
  const int e1 = (axis + 1) % 3, e2 = (axis + 2) % 3;
  const double size = std::max({m.hi[0] - m.lo[0], m.hi[1] - m.lo[1], m.hi[2] - m.lo[2], 1e-300});
  const double q1 = p[e1] + 0.7071067811865476e-9 * size, q2 = p[e2] + 0.5772156649015329e-9 * size;
  std::vector<Crossing> out;
  if (q1 < m.lo[e1] || q1 > m.hi[e1] || q2 < m.lo[e2] || q2 > m.hi[e2]) return out;
  const StlMesh::Bins& bins = m.bins[axis];
  const int b1 = std::clamp(static_cast<int>((q1 - bins.lo1) / bins.w1), 0, bins.n1 - 1);
  const int b2 = std::clamp(static_cast<int>((q2 - bins.lo2) / bins.w2), 0, bins.n2 - 1);
  for (const int ti : bins.tri[static_cast<std::size_t>(b2) * bins.n1 + b1]) {
    const auto& t = m.triangles[ti];
    const double u0 = t[e1], v0 = t[e2], u1 = t[3 + e1], v1 = t[3 + e2], u2 = t[6 + e1],
                 v2 = t[6 + e2];
    if (q1 < std::min({u0, u1, u2}) || q1 > std::max({u0, u1, u2}) || q2 < std::min({v0, v1, v2}) ||
        q2 > std::max({v0, v1, v2}))
      continue;
    const double w0 = (u1 - q1) * (v2 - q2) - (u2 - q1) * (v1 - q2);
    const double w1 = (u2 - q1) * (v0 - q2) - (u0 - q1) * (v2 - q2);
    const double w2 = (u0 - q1) * (v1 - q2) - (u1 - q1) * (v0 - q2);
    const bool pos = w0 > 0 && w1 > 0 && w2 > 0, neg = w0 < 0 && w1 < 0 && w2 < 0;
    if (!pos && !neg) continue;
    const double sum = w0 + w1 + w2;
    const double s = (w0 * t[axis] + w1 * t[3 + axis] + w2 * t[6 + axis]) / sum;
    // |n . e_axis| = projected area / area.
    const Vec3 a{t[3] - t[0], t[4] - t[1], t[5] - t[2]}, b{t[6] - t[0], t[7] - t[1], t[8] - t[2]};
    const Vec3 n{a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
    const double area2 = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    out.push_back({s, area2 > 0 ? std::fabs(n[axis]) / area2 : 0.0, n[axis] < 0 ? 1 : -1});
  }
  std::sort(out.begin(), out.end(), [](const Crossing& x, const Crossing& y) { return x.s < y.s; });
  return out;
}

/// Solid intervals of an obstacle along the line, with the |cos| of the surface at both ends.
struct Span {
  double a = 0, b = 0, cos_a = 1, cos_b = 1;
};

std::vector<Span> spans(const Obstacle& o, int axis, const Vec3& p, int dim) {
  std::vector<Span> out;
  constexpr double inf = 1e300;
  switch (o.kind) {
  case ObstacleKind::Box: {
    for (int d = 0; d < dim; ++d)
      if (d != axis && !(p[d] > o.lo[d] && p[d] < o.hi[d])) return out;
    out.push_back({o.lo[axis], o.hi[axis], 1, 1});
    break;
  }
  case ObstacleKind::Cylinder: {
    // Axis c; in 2-D a disc (c = z, infinitely long).
    const int c = dim == 2 ? 2 : o.axis;
    const double half = dim == 2 ? inf : 0.5 * o.length;
    if (axis == c) {
      double r2 = 0;
      for (int d = 0; d < dim; ++d)
        if (d != c) r2 += (p[d] - o.center[d]) * (p[d] - o.center[d]);
      if (r2 < o.radius * o.radius) out.push_back({o.center[c] - half, o.center[c] + half, 1, 1});
    } else {
      if (dim == 3 && !(std::fabs(p[c] - o.center[c]) < half)) return out;
      // The third direction q (neither the line nor the cylinder's axis).
      const int q = 3 - axis - c;
      const double dq = dim == 2 && q == 2 ? 0.0 : p[q] - o.center[q];
      const double s2 = o.radius * o.radius - dq * dq;
      if (s2 > 0) {
        const double s = std::sqrt(s2);
        out.push_back({o.center[axis] - s, o.center[axis] + s, s / o.radius, s / o.radius});
      }
    }
    break;
  }
  case ObstacleKind::Stl: {
    Vec3 q = p;
    if (dim == 2) q[2] = 0.5 * (o.mesh->lo[2] + o.mesh->hi[2]); // the section through the middle
    // Winding number along the line (the surface is consistently oriented): solid where it is
    // not zero, so that overlapping shells in one file add up instead of cancelling by parity.
    const auto x = stl_crossings(*o.mesh, axis, q);
    int winding = 0;
    Span cur;
    for (const Crossing& c : x) {
      const int before = winding;
      winding += c.enter;
      if (before == 0 && winding != 0) {
        cur.a = c.s;
        cur.cos_a = c.cos;
      } else if (before != 0 && winding == 0) {
        cur.b = c.s;
        cur.cos_b = c.cos;
        out.push_back(cur);
      }
    }
    break;
  }
  }
  return out;
}

/// Union of sorted interval lists.
Intervals merge(Intervals v) {
  std::sort(v.begin(), v.end());
  Intervals out;
  for (const auto& iv : v) {
    if (iv[1] <= iv[0]) continue;
    if (!out.empty() && iv[0] <= out.back()[1])
      out.back()[1] = std::max(out.back()[1], iv[1]);
    else
      out.push_back(iv);
  }
  return out;
}

/// Length of [a, b] covered by the sorted disjoint intervals.
double covered(const Intervals& v, double a, double b) {
  double s = 0;
  for (const auto& iv : v) {
    if (iv[0] >= b) break;
    s += std::max(0.0, std::min(b, iv[1]) - std::max(a, iv[0]));
  }
  return s;
}

bool inside(const Intervals& v, double x) {
  for (const auto& iv : v) {
    if (iv[0] > x) return false;
    if (x < iv[1]) return true;
  }
  return false;
}

Intervals all_solid(const CfdCase& c, int axis, const Vec3& p) {
  Intervals v;
  for (const Obstacle& o : c.obstacles)
    for (const Span& s : spans(o, axis, p, c.dim)) v.push_back({s.a, s.b});
  return merge(std::move(v));
}

} // namespace

StlMesh read_stl(const std::string& path, double scale, const std::array<double, 3>& translate) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw RuntimeError(path + ": cannot open the STL file");
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  StlMesh m;
  m.path = path;
  if (!read_binary(bytes, m.triangles)) {
    if (bytes.compare(0, 5, "solid") != 0 && bytes.size() >= 84)
      throw RuntimeError(fmt::format("{}: a binary STL must be 84 + 50 x (triangle count) bytes "
                                     "long: this one is {} bytes (truncated?)",
                                     path, bytes.size()));
    if (bytes.find('\0') != std::string::npos && bytes.size() >= 84)
      throw RuntimeError(fmt::format("{}: a binary STL (its header begins with \"solid\") must "
                                     "be 84 + 50 x (triangle count) bytes long: this one is {} "
                                     "bytes (truncated?)",
                                     path, bytes.size()));
    read_ascii(path, bytes, m.triangles);
  }
  if (m.triangles.empty()) throw RuntimeError(path + ": the STL file has no triangles");
  m.lo = {1e300, 1e300, 1e300};
  m.hi = {-1e300, -1e300, -1e300};
  for (auto& t : m.triangles)
    for (int v = 0; v < 3; ++v)
      for (int d = 0; d < 3; ++d) {
        double& x = t[3 * v + d];
        if (!std::isfinite(x)) throw RuntimeError(path + ": a vertex is not a finite number");
        x = x * scale + translate[d];
        m.lo[d] = std::min(m.lo[d], x);
        m.hi[d] = std::max(m.hi[d], x);
      }
  check_closed(m);
  const int nb = std::clamp(static_cast<int>(std::sqrt(double(m.triangles.size()))), 1, 256);
  for (int axis = 0; axis < 3; ++axis) {
    const int e1 = (axis + 1) % 3, e2 = (axis + 2) % 3;
    StlMesh::Bins& b = m.bins[axis];
    b.n1 = b.n2 = nb;
    b.lo1 = m.lo[e1];
    b.lo2 = m.lo[e2];
    b.w1 = std::max((m.hi[e1] - m.lo[e1]) / nb, 1e-300);
    b.w2 = std::max((m.hi[e2] - m.lo[e2]) / nb, 1e-300);
    b.tri.assign(static_cast<std::size_t>(nb) * nb, {});
    auto bin = [&](double x, double lo, double w) {
      return std::clamp(static_cast<int>((x - lo) / w), 0, nb - 1);
    };
    for (std::size_t ti = 0; ti < m.triangles.size(); ++ti) {
      const auto& t = m.triangles[ti];
      const int i0 = bin(std::min({t[e1], t[3 + e1], t[6 + e1]}), b.lo1, b.w1);
      const int i1 = bin(std::max({t[e1], t[3 + e1], t[6 + e1]}), b.lo1, b.w1);
      const int j0 = bin(std::min({t[e2], t[3 + e2], t[6 + e2]}), b.lo2, b.w2);
      const int j1 = bin(std::max({t[e2], t[3 + e2], t[6 + e2]}), b.lo2, b.w2);
      for (int j = j0; j <= j1; ++j)
        for (int i = i0; i <= i1; ++i)
          b.tri[static_cast<std::size_t>(j) * nb + i].push_back(static_cast<int>(ti));
    }
  }
  return m;
}

Openings compute_openings(const CfdCase& c, const Grid& g, std::vector<double>* liquid) {
  Openings o;
  if (c.obstacles.empty() && !liquid) return o;
  const int dim = c.dim, a = dim - 1; // rays along the vertical axis
  const int e1 = 0;                   // across: x, and y in 3-D (z, one cell, in 2-D)
  const int e2 = dim == 3 ? 1 : 2;
  const int ns = std::max(1, c.obstacle_samples);
  o.vf.assign(g.total, 0.0);
  for (int d = 0; d < 3; ++d) o.af[d].assign(d < dim ? g.total : 0, 0.0);
  std::vector<double> wet(liquid ? g.total : 0, 0.0);
  auto lo_of = [&](int d) { return -g.g[d]; };
  auto hi_of = [&](int d) { return g.n[d] + g.g[d]; };
  auto coord = [&](int d, int i, double frac) { return (g.offset[d] + i + frac) * g.h[d]; };
  const int n2 = dim == 3 ? ns : 1;
  const double w_cell = 1.0 / (double(ns) * n2);
  std::array<int, 3> ijk{};
  // The liquid boxes along a ray: intervals (across coordinates inside the box).
  auto liquid_along = [&](const Vec3& p) {
    Intervals v;
    for (const Region& r : c.initial_liquid) {
      bool in = true;
      for (int d = 0; d < dim; ++d)
        if (d != a && !(p[d] > r.lo[d] && p[d] < r.hi[d])) in = false;
      if (in) v.push_back({r.lo[a], r.hi[a]});
    }
    return merge(std::move(v));
  };
  const double plane = dim == 2 ? 0.5 * g.h[2] : 0.0;
  for (int j2 = dim == 3 ? lo_of(e2) : 0; j2 < (dim == 3 ? hi_of(e2) : 1); ++j2)
    for (int j1 = lo_of(e1); j1 < hi_of(e1); ++j1) {
      ijk[e1] = j1;
      ijk[e2] = j2;
      // Cell-centred rays: volume fractions, a-face fractions, initial liquid.
      for (int t = 0; t < n2; ++t)
        for (int s = 0; s < ns; ++s) {
          Vec3 p{0, 0, 0};
          p[e1] = coord(e1, j1, (s + 0.5) / ns);
          p[e2] = dim == 3 ? coord(e2, j2, (t + 0.5) / n2) : plane;
          const Intervals solid = all_solid(c, a, p);
          const Intervals wet_iv = liquid ? liquid_along(p) : Intervals{};
          for (int k = lo_of(a); k < hi_of(a); ++k) {
            ijk[a] = k;
            const std::ptrdiff_t I = g.at(ijk[0], ijk[1], ijk[2]);
            const double z0 = coord(a, k, 0), z1 = coord(a, k, 1);
            const double open = (z1 - z0) - covered(solid, z0, z1);
            o.vf[I] += w_cell * open / (z1 - z0);
            if (!inside(solid, z0)) o.af[a][I] += w_cell;
            if (liquid && !wet_iv.empty()) {
              // Liquid where the box is and the solid is not.
              double w = 0;
              for (const auto& iv : wet_iv) {
                const double b0 = std::max(z0, iv[0]), b1 = std::min(z1, iv[1]);
                if (b1 > b0) w += (b1 - b0) - covered(solid, b0, b1);
              }
              wet[I] += w_cell * w / (z1 - z0);
            }
          }
        }
      // Rays on the lower e1-face (and e2-face in 3-D) of the column: their open lengths.
      for (int side = 0; side < (dim == 3 ? 2 : 1); ++side) {
        const int f = side == 0 ? e1 : e2;
        const int nacross = dim == 3 ? ns : 1;
        for (int s = 0; s < nacross; ++s) {
          Vec3 p{0, 0, 0};
          p[f] = coord(f, ijk[f], 0);
          const int other = side == 0 ? e2 : e1;
          p[other] = dim == 3 ? coord(other, ijk[other], (s + 0.5) / nacross) : plane;
          const Intervals solid = all_solid(c, a, p);
          for (int k = lo_of(a); k < hi_of(a); ++k) {
            ijk[a] = k;
            const std::ptrdiff_t I = g.at(ijk[0], ijk[1], ijk[2]);
            const double z0 = coord(a, k, 0), z1 = coord(a, k, 1);
            o.af[f][I] += (1.0 / nacross) * ((z1 - z0) - covered(solid, z0, z1)) / (z1 - z0);
          }
        }
      }
    }
  // Small cells are closed with their faces; tiny face openings are closed.
  for (std::size_t I = 0; I < g.total; ++I) {
    if (o.vf[I] < kMinOpenVolume) o.vf[I] = 0;
    if (o.vf[I] > 1 - 1e-12) o.vf[I] = 1;
    for (int d = 0; d < dim; ++d) {
      double& A = o.af[d][I];
      if (A < 1e-6) A = 0;
      if (A > 1 - 1e-12) A = 1;
    }
  }
  for (int k = lo_of(2); k < hi_of(2); ++k)
    for (int j = lo_of(1); j < hi_of(1); ++j)
      for (int i = lo_of(0); i < hi_of(0); ++i) {
        const std::ptrdiff_t I = g.at(i, j, k);
        if (o.vf[I] > 0) continue;
        for (int d = 0; d < dim; ++d) {
          o.af[d][I] = 0;
          const std::array<int, 3> up{i + (d == 0), j + (d == 1), k + (d == 2)};
          if (up[d] < hi_of(d)) o.af[d][g.at(up[0], up[1], up[2])] = 0;
        }
      }
  // An open cell whose faces are all closed (its neighbours were closed above) is cut off
  // from the flow: close it too (its pressure row would be empty).
  for (int k = lo_of(2); k < hi_of(2); ++k)
    for (int j = lo_of(1); j < hi_of(1); ++j)
      for (int i = lo_of(0); i < hi_of(0); ++i) {
        const std::ptrdiff_t I = g.at(i, j, k);
        if (o.vf[I] == 0) continue;
        double faces = 0;
        bool known = true;
        const std::array<int, 3> ijk{i, j, k};
        for (int d = 0; d < dim; ++d) {
          if (ijk[d] + 1 >= hi_of(d)) known = false; // its upper face is outside the block
          std::array<int, 3> up = ijk;
          up[d] += 1;
          faces += o.af[d][I] + (known ? o.af[d][g.at(up[0], up[1], up[2])] : 1.0);
        }
        if (known && faces == 0) o.vf[I] = 0;
      }
  if (liquid) {
    // Cut cells: the sampled liquid of the open part. Open cells: the boxes' exact overlap (as
    // without obstacles), so that a liquid box cut by no obstacle has its exact volume.
    liquid->assign(g.total, 0.0);
    for (int k = lo_of(2); k < hi_of(2); ++k)
      for (int j = lo_of(1); j < hi_of(1); ++j)
        for (int i = lo_of(0); i < hi_of(0); ++i) {
          const std::ptrdiff_t I = g.at(i, j, k);
          if (o.vf[I] == 0) continue;
          if (o.vf[I] < 1) {
            (*liquid)[I] = std::clamp(wet[I] / o.vf[I], 0.0, 1.0);
            continue;
          }
          const std::array<int, 3> ijk{i, j, k};
          double frac = 0;
          for (const Region& r : c.initial_liquid) {
            double v = 1;
            for (int d = 0; d < dim; ++d) {
              const double x0 = coord(d, ijk[d], 0), x1 = coord(d, ijk[d], 1);
              v *= std::max(0.0, std::min(x1, r.hi[d]) - std::max(x0, r.lo[d])) / (x1 - x0);
            }
            frac += v;
          }
          (*liquid)[I] = std::min(1.0, frac);
        }
  }
  return o;
}

std::string check_obstacles(const CfdCase& c) {
  const int dim = c.dim;
  for (const Obstacle& o : c.obstacles) {
    // Inside the domain at least partly.
    Vec3 lo{}, hi{};
    switch (o.kind) {
    case ObstacleKind::Box:
      lo = o.lo;
      hi = o.hi;
      break;
    case ObstacleKind::Cylinder:
      for (int d = 0; d < 3; ++d) {
        const bool along = d == (dim == 2 ? 2 : o.axis);
        const double e = along ? 0.5 * o.length : o.radius;
        lo[d] = o.center[d] - e;
        hi[d] = o.center[d] + e;
      }
      break;
    case ObstacleKind::Stl:
      lo = o.mesh->lo;
      hi = o.mesh->hi;
      break;
    }
    for (int d = 0; d < dim; ++d)
      if (hi[d] <= 0 || lo[d] >= c.size[d])
        return fmt::format("{} lies outside the domain (its extent along {} is [{:g}, {:g}], the "
                           "domain's [0, {:g}])",
                           o.label, "xyz"[d], lo[d], hi[d], c.size[d]);
    // Thin walls: lines through the cell centres along each axis; a solid interval shorter
    // than a cell whose surface is crossed head-on (|cos| > 0.5 at both ends, not the rim of a
    // curved body) may sit between two faces and block none of them.
    for (int axis = 0; axis < dim; ++axis) {
      const int e1 = (axis + 1) % 3, e2 = (axis + 2) % 3;
      const int n1 = e1 < dim ? c.cells[e1] : 1, n2 = e2 < dim ? c.cells[e2] : 1;
      const double h = c.h(axis);
      for (int j2 = 0; j2 < n2; ++j2)
        for (int j1 = 0; j1 < n1; ++j1) {
          Vec3 p{0, 0, 0};
          p[e1] = (j1 + 0.5) * c.h(e1);
          p[e2] = (j2 + 0.5) * c.h(e2);
          for (const Span& s : spans(o, axis, p, dim)) {
            const double a = std::max(s.a, 0.0), b = std::min(s.b, c.size[axis]);
            // Touching or clipped by the domain's boundary (a sill on the floor): cannot leak.
            if (b <= a || s.a <= 0 || s.b >= c.size[axis]) continue;
            if (b - a < h && s.cos_a > 0.5 && s.cos_b > 0.5) {
              Vec3 at = p;
              at[axis] = 0.5 * (a + b);
              return fmt::format("{} is {:.2g} cells thick along {} near {}: a wall thinner than "
                                 "a cell can let the fluid through; refine the grid (cells of at "
                                 "most {:.3g} along {}) or thicken the wall",
                                 o.label, (b - a) / h, "xyz"[axis], point(at), b - a, "xyz"[axis]);
            }
          }
        }
    }
  }
  return {};
}

} // namespace parcae::cfd
