// *BOUNDARY_SPC_SYMMETRY_PLANE: card table beside its apply and resolve functions. The nodes of
// a part that lie on a plane (within TOL) get the constraints of a symmetry plane: no velocity
// along its normal, no rotation about the two axes in the plane. A plane normal to a global
// axis gives global constraints; any other a skew one (Spc::skew, explicit solver).
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

void resolve_symmetry_planes(DeckBuilder& d) {
  Model& m = d.model;
  if (planes(d).empty()) return;
  // the model's size, for the default tolerance
  const auto span = [](const std::vector<Real>& c) {
    const auto [lo, hi] = std::minmax_element(c.begin(), c.end());
    return c.empty() ? 0.0 : *hi - *lo;
  };
  const Real size = std::hypot(span(m.nodes.x), span(m.nodes.y), span(m.nodes.z));
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
  };
}

} // namespace

KeywordFile keywords_symmetry_plane() {
  return {symmetry_plane_cards(), resolve_symmetry_planes};
}

} // namespace parcae::io
