#pragma once
// Deck generators of the implicit shell tests: a square plate under uniform pressure and a
// cantilever plate strip, written as keyword text as a user would.
#include <fmt/format.h>
#include <string>

namespace parcae::test {

/// A square plate a x a in the x-y plane, n x n shells, uniform pressure q (acting in -z), all
/// four edges simply supported (hard: w = 0 and the rotation about the edge normal... i.e. the
/// edge's own twist, fixed) or clamped. In-plane displacements and drilling rotations are held on
/// the edges (the membrane is not loaded in a linear plate problem).
struct Plate {
  int n = 16;
  double a = 1.0, t = 0.01, q = 1000;
  double e = 210e9, nu = 0.3, rho = 7850;
  bool clamped = false;
  int nip = 2;
  /// Linear (NSOLVR 1): the references are linear plate theory.
  std::string controls = "*CONTROL_IMPLICIT_GENERAL\n1,1.0\n*CONTROL_IMPLICIT_SOLUTION\n1\n";
  [[nodiscard]] int node(int i, int j) const { return 1 + i + (n + 1) * j; }
};

inline std::string plate_deck(const Plate& p) {
  std::string s = "*KEYWORD\n*TITLE\nsquare plate under uniform pressure\n";
  s += "*CONTROL_TERMINATION\n1.0\n" + p.controls + "*NODE\n";
  for (int j = 0; j <= p.n; ++j)
    for (int i = 0; i <= p.n; ++i)
      s += fmt::format("{:8d}{:16.9e}{:16.9e}{:16.9e}\n", p.node(i, j), p.a * i / p.n,
                       p.a * j / p.n, 0.0);
  s += "*ELEMENT_SHELL\n";
  int e = 1;
  for (int j = 0; j < p.n; ++j)
    for (int i = 0; i < p.n; ++i)
      s += fmt::format("{:8d}{:8d}{:8d}{:8d}{:8d}{:8d}\n", e++, 1, p.node(i, j), p.node(i + 1, j),
                       p.node(i + 1, j + 1), p.node(i, j + 1));
  s += fmt::format("*PART\nplate\n1,1,1\n*SECTION_SHELL\n1,16,0.833333333,{}\n{},{},{},{}\n", p.nip,
                   p.t, p.t, p.t, p.t);
  s += fmt::format("*MAT_ELASTIC\n1,{},{},{}\n", p.rho, p.e, p.nu);
  s += "*BOUNDARY_SPC_NODE\n";
  for (int j = 0; j <= p.n; ++j)
    for (int i = 0; i <= p.n; ++i) {
      const bool xe = i == 0 || i == p.n, ye = j == 0 || j == p.n;
      if (!xe && !ye) continue;
      if (p.clamped) {
        s += fmt::format("{},0,1,1,1,1,1,1\n", p.node(i, j));
        continue;
      }
      // x = const edges: theta_x = 0 (no twist along the edge); y = const: theta_y = 0.
      s += fmt::format("{},0,1,1,1,{},{},1\n", p.node(i, j), xe ? 1 : 0, ye ? 1 : 0);
    }
  s += "*SET_SEGMENT\n1\n";
  for (int j = 0; j < p.n; ++j)
    for (int i = 0; i < p.n; ++i)
      s += fmt::format("{},{},{},{}\n", p.node(i, j), p.node(i + 1, j), p.node(i + 1, j + 1),
                       p.node(i, j + 1));
  s += fmt::format("*DEFINE_CURVE\n1\n0,0\n1,1\n*LOAD_SEGMENT_SET\n1,1,{}\n", p.q);
  return s + "*END\n";
}

/// A cantilever plate strip along x (length x width b x thickness t), nx x ny shells, clamped at
/// x = 0, a tip force in z (consistent shares on the end nodes) or a tip moment about y.
struct Strip {
  int nx = 20, ny = 2;
  double length = 1.0, width = 0.1, t = 0.01;
  double e = 210e9, nu = 0.0, rho = 7850;
  int nip = 2;
  std::string material;     ///< material card (MID = pid); empty: *MAT_ELASTIC
  double tip_force = -100;  ///< total force in z on the free end
  double tip_moment = 0;    ///< total moment about y on the free end (DOF 6)
  bool fix_inplane = false; ///< uy = 0 everywhere (no in-plane bending modes)
  int id_offset = 0;        ///< added to node and element ids
  int pid = 1;              ///< part, section, material id
  /// Linear (NSOLVR 1) unless a test asks for Newton (geometrically nonlinear: co-rotational).
  std::string controls = "*CONTROL_IMPLICIT_GENERAL\n1,1.0\n*CONTROL_IMPLICIT_SOLUTION\n1\n";
  [[nodiscard]] int node(int i, int j) const { return id_offset + 1 + i + (nx + 1) * j; }
};

/// The strip's cards (no *KEYWORD, controls or *END; load curve 1 is the deck's).
inline std::string strip_cards(const Strip& c) {
  std::string s = "*NODE\n";
  for (int j = 0; j <= c.ny; ++j)
    for (int i = 0; i <= c.nx; ++i)
      s += fmt::format("{:8d}{:16.9e}{:16.9e}{:16.9e}\n", c.node(i, j), c.length * i / c.nx,
                       c.width * j / c.ny, 0.0);
  s += "*ELEMENT_SHELL\n";
  int e = c.id_offset + 1;
  for (int j = 0; j < c.ny; ++j)
    for (int i = 0; i < c.nx; ++i)
      s += fmt::format("{:8d}{:8d}{:8d}{:8d}{:8d}{:8d}\n", e++, c.pid, c.node(i, j),
                       c.node(i + 1, j), c.node(i + 1, j + 1), c.node(i, j + 1));
  s += fmt::format("*PART\nstrip\n{0},{0},{0}\n*SECTION_SHELL\n{0},16,0.833333333,{1}\n"
                   "{2},{2},{2},{2}\n",
                   c.pid, c.nip, c.t);
  s += c.material.empty() ? fmt::format("*MAT_ELASTIC\n{},{},{},{}\n", c.pid, c.rho, c.e, c.nu)
                          : c.material;
  s += "*BOUNDARY_SPC_NODE\n";
  for (int j = 0; j <= c.ny; ++j)
    for (int i = 0; i <= c.nx; ++i) {
      if (i == 0)
        s += fmt::format("{},0,1,1,1,1,1,1\n", c.node(i, j));
      else if (c.fix_inplane)
        s += fmt::format("{},0,0,1,0,0,0,0\n", c.node(i, j));
    }
  if (c.tip_force != 0 || c.tip_moment != 0) {
    s += "*LOAD_NODE_POINT\n";
    for (int j = 0; j <= c.ny; ++j) {
      const double w = (j > 0 && j < c.ny ? 1.0 : 0.5) / c.ny;
      if (c.tip_force != 0) s += fmt::format("{},3,1,{:.12e}\n", c.node(c.nx, j), c.tip_force * w);
      if (c.tip_moment != 0)
        s += fmt::format("{},6,1,{:.12e}\n", c.node(c.nx, j), c.tip_moment * w);
    }
  }
  return s;
}

inline std::string strip_deck(const Strip& c) {
  std::string s = "*KEYWORD\n*TITLE\ncantilever plate strip\n*CONTROL_TERMINATION\n1.0\n";
  s += c.controls + strip_cards(c) + "*DEFINE_CURVE\n1\n0,0\n1,1\n";
  return s + "*END\n";
}

} // namespace parcae::test
