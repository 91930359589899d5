#pragma once
// Obstacles on the structured grid, FLOW-3D's way (FAVOR: fractional area/volume obstacle
// representation, Hirt & Sicilian 1985): every cell knows the open fraction of its volume and
// every face the open fraction of its area, so a sloped or curved wall is not a staircase.
//
// Obstacles are boxes, axis-aligned cylinders and closed triangulated surfaces (STL, ASCII or
// binary). The fractions come from rays along the vertical axis of the grid (z in 3-D, y in
// 2-D): along a ray the inside of the solid is a union of exact intervals, so the open length
// of each cell and face along the ray is exact; across the ray the cell and its faces are
// sampled on an n x n (2-D: n) lattice of rays. Every rank computes the fractions of its own
// ghosted block from the same global formulas, so they do not depend on the decomposition.
#include <array>
#include <memory>
#include <string>
#include <vector>

namespace parcae::cfd {

struct CfdCase;
struct Grid;

/// A closed, consistently oriented triangulated surface (checked when read).
struct StlMesh {
  std::string path;
  std::vector<std::array<double, 9>> triangles;   ///< three vertices (x, y, z) each
  std::array<double, 3> lo{0, 0, 0}, hi{0, 0, 0}; ///< bounding box
  /// Triangles binned by their projection across each axis (lines along that axis test only
  /// their bin): built by read_stl.
  struct Bins {
    int n1 = 1, n2 = 1;
    double lo1 = 0, lo2 = 0, w1 = 1, w2 = 1;
    std::vector<std::vector<int>> tri;
  };
  std::array<Bins, 3> bins;
};

/// Reads an ASCII or binary STL file, scales it and moves it, and checks that it is a closed
/// surface: every edge shared by exactly two triangles that run along it in opposite
/// directions. Errors (RuntimeError) name the file and the problem (open edges, inconsistent
/// orientation, a non-manifold edge, a truncated or unreadable file).
StlMesh read_stl(const std::string& path, double scale, const std::array<double, 3>& translate);

enum class ObstacleKind { Box, Cylinder, Stl };

struct Obstacle {
  ObstacleKind kind = ObstacleKind::Box;
  std::string label; ///< "obstacles[2]" or its name, for messages
  std::string name;
  std::array<double, 3> lo{0, 0, 0}, hi{0, 0, 0}; ///< box
  std::array<double, 3> center{0, 0, 0};          ///< cylinder
  double radius = 0, length = 0;                  ///< cylinder (length along the axis)
  int axis = 2;                                   ///< cylinder axis (always z in 2-D)
  std::string stl;                                ///< STL file as given in the case
  double scale = 1;
  std::array<double, 3> translate{0, 0, 0};
  std::shared_ptr<const StlMesh> mesh; ///< the STL, read
};

/// The open fractions of the ghosted block of a grid (arrays over grid.total, as the fields):
/// vf at cell centres, af[d] at the lower d-face of each cell (where velocity component d
/// lives). Cells with less than kMinOpenVolume open are closed, with all their faces.
struct Openings {
  std::vector<double> vf;
  std::array<std::vector<double>, 3> af;
  [[nodiscard]] bool any() const { return !vf.empty(); }
};
inline constexpr double kMinOpenVolume = 0.05;

/// Raw pointers to the fractions for the kernels (all null: no obstacles, everything open).
struct OpenPtrs {
  const double* vf = nullptr;
  std::array<const double*, 3> af{nullptr, nullptr, nullptr};
  [[nodiscard]] bool any() const { return vf != nullptr; }
};
inline OpenPtrs open_ptrs(const Openings& o) {
  if (!o.any()) return {};
  return {o.vf.data(),
          {o.af[0].data(), o.af[1].data(), o.af[2].empty() ? nullptr : o.af[2].data()}};
}

/// Open fractions of the ghosted block of `g` for the case's obstacles (empty: no obstacles and
/// no `liquid`). `liquid`, when given, receives the initial liquid fraction of the open volume
/// of each cell (the case's initial liquid boxes minus the obstacles, sampled as the fractions).
Openings compute_openings(const CfdCase& c, const Grid& g, std::vector<double>* liquid = nullptr);

/// Checks the obstacles of a case against its grid: each lies at least partly in the domain,
/// and no wall is thinner than a cell (it would let the fluid through: the fractions see only
/// what crosses faces). Returns an empty string or the problem, naming the obstacle and where.
std::string check_obstacles(const CfdCase& c);

} // namespace parcae::cfd
