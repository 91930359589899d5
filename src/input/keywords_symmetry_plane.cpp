// *BOUNDARY_SPC_SYMMETRY_PLANE: card table beside its apply and resolve functions. The nodes of
// a part that lie on a plane (within TOL) get the constraints of a symmetry plane: no velocity
// along its normal, no rotation about the two axes in the plane. A plane normal to a global
// axis gives global constraints; any other a skew one (Spc::skew, explicit solver).
// *CONSTRAINED_GLOBAL: the nodes on a plane normal to a global axis get the translational and
// rotational constraints TC, RC (coded as *MAT_RIGID's CON1 / CON2).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "input/card_spec.hpp"
#include "input/deck_apply.hpp"
#include "input/deck_builder.hpp"

namespace parcae::io {

namespace {

using namespace card_fields;

struct SymmetryPlane {
  GlobalId id = 0, pid = 0;
  std::array<Real, 3> point{}, normal{};
  Real tol = 0;
  SourceLoc loc;
};

/// *CONSTRAINED_GLOBAL: dofs fixed on the plane x_dir = at.
struct GlobalPlane {
  int dir = 0; ///< 0 x, 1 y, 2 z
  Real at = 0, tol = 0;
  std::array<bool, 6> dof{};
  SourceLoc loc;
};

std::vector<GlobalPlane>& global_planes(DeckBuilder& d) {
  return d.extension<std::vector<GlobalPlane>>("global constraint planes");
}

/// The dofs of a TC / RC code: 1 x, 2 y, 3 z, 4 x y, 5 y z, 6 z x, 7 all (0 none).
std::array<bool, 3> code_dofs(int code) {
  switch (code) {
  case 1:
    return {true, false, false};
  case 2:
    return {false, true, false};
  case 3:
    return {false, false, true};
  case 4:
    return {true, true, false};
  case 5:
    return {false, true, true};
  case 6:
    return {true, false, true};
  case 7:
    return {true, true, true};
  default:
    return {false, false, false};
  }
}

void apply_constrained_global(const Block& b, DeckBuilder& d) {
  for (const Fields& row : b.rows) {
    GlobalPlane p;
    p.loc = row.loc("TC");
    const int tc = row.integer("TC"), rc = row.integer("RC"), dir = row.integer("DIR");
    for (const auto& [f, v] : {std::pair<const char*, int>{"TC", tc}, {"RC", rc}})
      if (v < 0 || v > 7)
        fail(row.loc(f), fmt::format("{} = {}: the code must be 0 to 7 (1 x, 2 y, 3 z, 4 xy, 5 "
                                     "yz, 6 zx, 7 all)",
                                     f, v));
    if (dir < 1 || dir > 3)
      fail(row.loc("DIR"), fmt::format("DIR = {}: the plane's normal must be 1 (x), 2 (y) or 3 "
                                       "(z)",
                                       dir));
    p.dir = dir - 1;
    p.at = row.real(dir == 1 ? "X" : dir == 2 ? "Y" : "Z");
    p.tol = row.real("TOL");
    if (p.tol < 0) fail(row.loc("TOL"), fmt::format("TOL = {} must not be negative", p.tol));
    const auto t = code_dofs(tc), r = code_dofs(rc);
    p.dof = {t[0], t[1], t[2], r[0], r[1], r[2]};
    global_planes(d).push_back(p);
  }
}

std::vector<SymmetryPlane>& planes(DeckBuilder& d) {
  return d.extension<std::vector<SymmetryPlane>>("symmetry planes");
}

void apply_spc_symmetry_plane(const Block& b, DeckBuilder& d) {
  for (const Fields& row : b.rows) {
    SymmetryPlane p{.id = row.id("IDSP"),
                    .pid = row.id("PID"),
                    .point = {row.real("X"), row.real("Y"), row.real("Z")},
                    .normal = {row.real("VX"), row.real("VY"), row.real("VZ")},
                    .tol = row.real("TOL"),
                    .loc = row.loc("IDSP")};
    const Real len = std::hypot(p.normal[0], p.normal[1], p.normal[2]);
    if (!(len > 0))
      fail(row.loc("VX"), fmt::format("symmetry plane {}: the normal VX VY VZ is zero", p.id));
    for (Real& c : p.normal) c /= len;
    if (p.tol < 0) fail(row.loc("TOL"), fmt::format("TOL = {} must not be negative", p.tol));
    planes(d).push_back(p);
  }
}

/// The model's size (the diagonal of its nodes' box): the default tolerances are 1e-6 of it.
Real model_size(const Model& m) {
  const auto span = [](const std::vector<Real>& c) {
    const auto [lo, hi] = std::minmax_element(c.begin(), c.end());
    return c.empty() ? 0.0 : *hi - *lo;
  };
  return std::hypot(span(m.nodes.x), span(m.nodes.y), span(m.nodes.z));
}

void resolve_global_planes(DeckBuilder& d) {
  Model& m = d.model;
  const Real size = model_size(m);
  for (const GlobalPlane& p : global_planes(d)) {
    const Real tol = p.tol > 0 ? p.tol : 1e-6 * size;
    const std::vector<Real>& c = p.dir == 0 ? m.nodes.x : p.dir == 1 ? m.nodes.y : m.nodes.z;
    std::size_t count = 0;
    for (std::size_t n = 0; n < c.size(); ++n)
      if (std::abs(c[n] - p.at) <= tol) {
        Spc spc;
        spc.node = static_cast<LocalId>(n);
        spc.dof = p.dof;
        m.spcs.push_back(spc);
        ++count;
      }
    if (count == 0)
      m.notes.push_back({"*CONSTRAINED_GLOBAL", p.loc, false,
                         fmt::format("no node lies on the plane {} = {:g} (within {:g}): it "
                                     "constrains nothing",
                                     "xyz"[p.dir], p.at, tol)});
  }
}

void resolve_symmetry_planes(DeckBuilder& d) {
  resolve_global_planes(d);
  Model& m = d.model;
  if (planes(d).empty()) return;
  const Real size = model_size(m);
  for (const SymmetryPlane& p : planes(d)) {
    if (p.pid != 0 && m.find_part(p.pid) == nullptr)
      fail(p.loc, fmt::format("symmetry plane {}: part PID = {} is not defined", p.id, p.pid));
    std::vector<char> on(m.nodes.size(), 0);
    auto mark = [&](GlobalId part, auto const& nodes) {
      if (p.pid == 0 || part == p.pid)
        for (LocalId n : nodes) on[static_cast<std::size_t>(n)] = 1;
    };
    for (std::size_t e = 0; e < m.solids.size(); ++e) mark(m.solids.part[e], m.solids.nodes[e]);
    for (std::size_t e = 0; e < m.shells.size(); ++e) mark(m.shells.part[e], m.shells.nodes[e]);
    for (std::size_t e = 0; e < m.beams.size(); ++e) mark(m.beams.part[e], m.beams.nodes[e]);
    const Real tol = p.tol > 0 ? p.tol : 1e-6 * size;
    // axes: the normal, then two in the plane
    const auto& nrm = p.normal;
    int along = -1;
    for (int i = 0; i < 3; ++i)
      if (std::abs(std::abs(nrm[static_cast<std::size_t>(i)]) - 1) < 1e-12) along = i;
    Spc spc;
    if (along >= 0) { // normal along global axis `along`
      spc.dof[static_cast<std::size_t>(along)] = true;
      spc.dof[static_cast<std::size_t>(3 + (along + 1) % 3)] = true;
      spc.dof[static_cast<std::size_t>(3 + (along + 2) % 3)] = true;
    } else {
      const std::array<Real, 3> helper =
          std::abs(nrm[0]) < 0.9 ? std::array<Real, 3>{1, 0, 0} : std::array<Real, 3>{0, 1, 0};
      std::array<Real, 3> a{nrm[1] * helper[2] - nrm[2] * helper[1],
                            nrm[2] * helper[0] - nrm[0] * helper[2],
                            nrm[0] * helper[1] - nrm[1] * helper[0]};
      const Real la = std::hypot(a[0], a[1], a[2]);
      for (Real& c : a) c /= la;
      const std::array<Real, 3> b{nrm[1] * a[2] - nrm[2] * a[1], nrm[2] * a[0] - nrm[0] * a[2],
                                  nrm[0] * a[1] - nrm[1] * a[0]};
      spc.skew = true;
      spc.axes = {nrm, a, b};
      spc.dof = {true, false, false, false, true, true};
    }
    std::size_t count = 0;
    for (std::size_t n = 0; n < on.size(); ++n) {
      if (!on[n]) continue;
      const Real dist = (m.nodes.x[n] - p.point[0]) * nrm[0] +
                        (m.nodes.y[n] - p.point[1]) * nrm[1] + (m.nodes.z[n] - p.point[2]) * nrm[2];
      if (std::abs(dist) > tol) continue;
      spc.node = static_cast<LocalId>(n);
      m.spcs.push_back(spc);
      ++count;
    }
    if (count == 0)
      m.notes.push_back({"*BOUNDARY_SPC_SYMMETRY_PLANE", p.loc, false,
                         fmt::format("symmetry plane {}: no node of part {} lies on the plane "
                                     "(within {:g}): it constrains nothing",
                                     p.id, p.pid, tol)});
  }
}

std::vector<KeywordSpec> symmetry_plane_cards() {
  return {
      {.name = "*BOUNDARY_SPC_SYMMETRY_PLANE",
       .options = {"ID"},
       .rows = {{"Card 1",
                 {I("IDSP").req(), I("PID"), R("X"), R("Y"), R("Z"), R("VX"), R("VY"), R("VZ")}},
                {"Card 2", {R("TOL")}}},
       .summary = "Symmetry plane through (X, Y, Z) with normal (VX, VY, VZ): the nodes of part "
                  "PID (0: every part) within TOL of the plane (0: 1e-6 of the model's size) "
                  "lose their velocity along the normal and their rotation about the two axes "
                  "in the plane, from the start (positions at time 0). A plane normal to a "
                  "global axis gives global constraints; another one skew constraints (explicit "
                  "solver only).",
       .apply = apply_spc_symmetry_plane},
      {.name = "*CONSTRAINED_GLOBAL",
       .rows = {{"Card 1", {I("TC"), I("RC"), I("DIR").req(), R("X"), R("Y"), R("Z"), R("TOL")}}},
       .summary = "Global constraint plane: every node whose coordinate along the normal DIR "
                  "(1 x, 2 y, 3 z) equals that of the plane (X, Y or Z) within TOL (0: 1e-6 of "
                  "the model's size; LS-DYNA's own default is mesh-size dependent) gets the "
                  "translational constraints TC and rotational constraints RC (0 none, 1 x, 2 "
                  "y, 3 z, 4 xy, 5 yz, 6 zx, 7 all), from the start. Other codes and DIR are "
                  "errors; a plane with no node on it is a warning.",
       .apply = apply_constrained_global},
  };
}

} // namespace

KeywordFile keywords_symmetry_plane() {
  return {symmetry_plane_cards(), resolve_symmetry_planes};
}

} // namespace parcae::io
