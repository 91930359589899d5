#pragma once
// Deck generators of the implicit verification tests (and of examples/implicit): keyword text
// for a rectangular cantilever and a quarter of a thick cylinder, written as a user would.
#include <cmath>
#include <fmt/format.h>
#include <numbers>
#include <string>

namespace parcae::test {

struct Cantilever {
  int nx = 10, ny = 2, nz = 2;
  double length = 1.0, height = 0.1, width = 0.1; ///< x, y, z
  int elform = 18;
  double e = 210e9, nu = 0.3, rho = 7850;
  std::string material;    ///< material card (MID 1); empty: *MAT_ELASTIC from e, nu, rho
  double tip_load = -1000; ///< total force in y on the free end (x = length), consistent
  bool fix_z = false;      ///< uz = 0 at every node (bending in x-y only)
  bool step_load = false;  ///< load curve 1 constant (a step at t = 0) instead of a ramp to t = 1
  std::string controls =   ///< the *CONTROL_IMPLICIT_... cards
      "*CONTROL_IMPLICIT_GENERAL\n1,1.0\n";
  double end_time = 1.0;
  [[nodiscard]] int node(int i, int j, int k) const {
    return 1 + i + (nx + 1) * (j + (ny + 1) * k);
  }
};

inline std::string cantilever_deck(const Cantilever& c) {
  std::string s = "*KEYWORD\n*TITLE\ncantilever\n";
  s += fmt::format("*CONTROL_TERMINATION\n{:.9e},0\n", c.end_time);
  s += c.controls;
  s += "*NODE\n";
  for (int k = 0; k <= c.nz; ++k)
    for (int j = 0; j <= c.ny; ++j)
      for (int i = 0; i <= c.nx; ++i)
        s += fmt::format("{:8d}{:16.9e}{:16.9e}{:16.9e}\n", c.node(i, j, k), c.length * i / c.nx,
                         c.height * j / c.ny, c.width * k / c.nz);
  s += "*ELEMENT_SOLID\n";
  int e = 1;
  for (int k = 0; k < c.nz; ++k)
    for (int j = 0; j < c.ny; ++j)
      for (int i = 0; i < c.nx; ++i)
        s += fmt::format("{:8d}{:8d}{:8d}{:8d}{:8d}{:8d}{:8d}{:8d}{:8d}{:8d}\n", e++, 1,
                         c.node(i, j, k), c.node(i + 1, j, k), c.node(i + 1, j + 1, k),
                         c.node(i, j + 1, k), c.node(i, j, k + 1), c.node(i + 1, j, k + 1),
                         c.node(i + 1, j + 1, k + 1), c.node(i, j + 1, k + 1));
  s += fmt::format("*PART\nbeam\n1,1,1\n*SECTION_SOLID\n1,{}\n", c.elform);
  s +=
      c.material.empty() ? fmt::format("*MAT_ELASTIC\n1,{},{},{}\n", c.rho, c.e, c.nu) : c.material;
  s += "*BOUNDARY_SPC_NODE\n";
  for (int k = 0; k <= c.nz; ++k)
    for (int j = 0; j <= c.ny; ++j)
      for (int i = 0; i <= c.nx; ++i) {
        // Root: ux = 0 on the whole face (no rotation), uy = 0 on the neutral plane and uz = 0
        // on the mid-width plane only, so that the root section contracts freely (Poisson)
        // as beam theory assumes.
        if (i == 0)
          s += fmt::format("{},0,1,{},{},0,0,0\n", c.node(i, j, k), 2 * j == c.ny ? 1 : 0,
                           2 * k == c.nz || c.fix_z ? 1 : 0);
        else if (c.fix_z)
          s += fmt::format("{},0,0,0,1,0,0,0\n", c.node(i, j, k));
      }
  s += c.step_load ? "*DEFINE_CURVE\n1\n0,1\n1,1\n" : "*DEFINE_CURVE\n1\n0,0\n1,1\n";
  if (c.tip_load != 0) {
    s += "*LOAD_NODE_POINT\n";
    for (int k = 0; k <= c.nz; ++k)
      for (int j = 0; j <= c.ny; ++j) {
        // Consistent nodal shares of a uniform traction on the bilinear end face.
        const double w =
            (j > 0 && j < c.ny ? 1.0 : 0.5) * (k > 0 && k < c.nz ? 1.0 : 0.5) / (c.ny * c.nz);
        s += fmt::format("{},2,1,{:.12e}\n", c.node(c.nx, j, k), c.tip_load * w);
      }
  }
  return s + "*END\n";
}

/// A quarter of a thick cylinder (inner radius a, outer b) one element layer thick in z, plane
/// strain (uz = 0), symmetry planes x = 0 and y = 0, internal pressure p (*LOAD_SEGMENT_SET).
/// Radial element sizes grow geometrically (ratio `grading`) from the bore.
struct Cylinder {
  int nr = 24, nt = 24;
  double a = 0.1, b = 0.2, thickness = 0.01, p = 100e6, grading = 1.15;
  double e = 210e9, nu = 0.3, rho = 7850;
  int elform = 2;
  std::string controls = "*CONTROL_IMPLICIT_GENERAL\n1,1.0\n";
  [[nodiscard]] int node(int i, int j, int k) const {
    return 1 + i + (nr + 1) * (j + (nt + 1) * k);
  }
  [[nodiscard]] double radius(int i) const {
    double sum = 0, part = 0, h = 1;
    for (int k = 0; k < nr; ++k, h *= grading) {
      sum += h;
      if (k < i) part += h;
    }
    return a + (b - a) * part / sum;
  }
};

inline std::string cylinder_deck(const Cylinder& c) {
  std::string s = "*KEYWORD\n*TITLE\nLame thick cylinder, quarter model, plane strain\n";
  s += "*CONTROL_TERMINATION\n1.0\n" + c.controls + "*NODE\n";
  for (int k = 0; k <= 1; ++k)
    for (int j = 0; j <= c.nt; ++j)
      for (int i = 0; i <= c.nr; ++i) {
        const double t = 0.5 * std::numbers::pi * j / c.nt, r = c.radius(i);
        // Exact zeros on the symmetry planes.
        const double x = j == c.nt ? 0.0 : r * std::cos(t), y = j == 0 ? 0.0 : r * std::sin(t);
        s += fmt::format("{},{:.12e},{:.12e},{:.12e}\n", c.node(i, j, k), x, y, c.thickness * k);
      }
  s += "*ELEMENT_SOLID\n";
  int e = 1;
  for (int j = 0; j < c.nt; ++j)
    for (int i = 0; i < c.nr; ++i)
      s += fmt::format("{:8d}{:8d}{:8d}{:8d}{:8d}{:8d}{:8d}{:8d}{:8d}{:8d}\n", e++, 1,
                       c.node(i, j, 0), c.node(i + 1, j, 0), c.node(i + 1, j + 1, 0),
                       c.node(i, j + 1, 0), c.node(i, j, 1), c.node(i + 1, j, 1),
                       c.node(i + 1, j + 1, 1), c.node(i, j + 1, 1));
  s += fmt::format("*PART\ncylinder\n1,1,1\n*SECTION_SOLID\n1,{}\n*MAT_ELASTIC\n1,{},{},{}\n",
                   c.elform, c.rho, c.e, c.nu);
  s += "*BOUNDARY_SPC_NODE\n";
  for (int k = 0; k <= 1; ++k)
    for (int j = 0; j <= c.nt; ++j)
      for (int i = 0; i <= c.nr; ++i)
        s +=
            fmt::format("{},0,{},{},1,0,0,0\n", c.node(i, j, k), j == c.nt ? 1 : 0, j == 0 ? 1 : 0);
  // Bore segments ordered so that the normal points into the hole (out of the body): a positive
  // pressure pushes outwards.
  s += "*SET_SEGMENT\n1\n";
  for (int j = 0; j < c.nt; ++j)
    s += fmt::format("{},{},{},{}\n", c.node(0, j, 0), c.node(0, j, 1), c.node(0, j + 1, 1),
                     c.node(0, j + 1, 0));
  s += fmt::format("*DEFINE_CURVE\n1\n0,0\n1,1\n*LOAD_SEGMENT_SET\n1,1,{}\n", c.p);
  return s + "*END\n";
}

} // namespace parcae::test
