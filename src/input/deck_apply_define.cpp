// Apply functions: *DEFINE_BOX, *DEFINE_VECTOR and *DEFINE_COORDINATE_SYSTEM / _NODES / _VECTOR.
// Frames made from nodes are turned into axes in resolve_coordinate_systems, once every node is
// known.
#include <cmath>

#include <fmt/format.h>

#include "input/card_number.hpp"
#include "input/deck_apply.hpp"

namespace parcae::io {

namespace {

std::array<Real, 3> point(const Fields& f, std::string_view a, std::string_view b,
                          std::string_view c) {
  return {f.real(a), f.real(b), f.real(c)};
}

void add_system(CoordinateSystem cs, DeckBuilder& d) {
  d.claim_id("coordinate system", cs.id, cs.loc);
  d.model.coordinate_systems.emplace(cs.id, std::move(cs));
}

std::array<Real, 3> sub(const std::array<Real, 3>& a, const std::array<Real, 3>& b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
std::array<Real, 3> cross(const std::array<Real, 3>& a, const std::array<Real, 3>& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
Real norm(const std::array<Real, 3>& a) {
  return std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
}

} // namespace

void apply_define_box(const Block& b, DeckBuilder& d) {
  for (const Fields& row : b.rows) {
    Box box;
    box.id = row.id("BOXID");
    box.lo = point(row, "XMN", "YMN", "ZMN");
    box.hi = point(row, "XMX", "YMX", "ZMX");
    box.loc = row.loc("BOXID");
    for (int k = 0; k < 3; ++k)
      if (box.hi[k] < box.lo[k])
        fail(row.loc(), fmt::format("box {}: the {} range {} to {} is empty (maximum below "
                                    "minimum)",
                                    box.id, "xyz"[k], box.lo[k], box.hi[k]));
    d.claim_id("box", box.id, box.loc);
    d.model.boxes.emplace(box.id, box);
  }
}

void apply_define_coordinate_system(const Block& b, DeckBuilder& d) {
  for (const Fields& row : b.rows) {
    if (row.id("CIDL") != 0)
      fail(row.loc("CIDL"), fmt::format("CIDL = {}: points given in another local system are "
                                        "not supported (must be 0)",
                                        row.id("CIDL")));
    CoordinateSystem cs;
    cs.kind = CoordinateSystem::Kind::Points;
    cs.id = row.id("CID");
    cs.p = {point(row, "XO", "YO", "ZO"), point(row, "XL", "YL", "ZL"),
            point(row, "XP", "YP", "ZP")};
    cs.loc = row.loc("CID");
    add_system(std::move(cs), d);
  }
}

void apply_define_coordinate_nodes(const Block& b, DeckBuilder& d) {
  for (const Fields& row : b.rows) {
    const std::string dir = to_upper(trim(row.text("DIR")));
    if (!dir.empty() && dir != "X")
      fail(row.loc("DIR"), fmt::format("DIR = {}: only X (N1 to N2 is the local x axis) is "
                                       "supported",
                                       dir));
    CoordinateSystem cs;
    cs.kind = CoordinateSystem::Kind::Nodes;
    cs.id = row.id("CID");
    cs.n = {row.id("N1"), row.id("N2"), row.id("N3")};
    cs.loc = row.loc("CID");
    add_system(std::move(cs), d);
  }
}

void apply_define_coordinate_vector(const Block& b, DeckBuilder& d) {
  for (const Fields& row : b.rows) {
    CoordinateSystem cs;
    cs.kind = CoordinateSystem::Kind::Vectors;
    cs.id = row.id("CID");
    cs.p = {std::array<Real, 3>{0, 0, 0}, point(row, "XX", "YX", "ZX"),
            point(row, "XV", "YV", "ZV")};
    cs.n = {row.id("NID"), 0, 0};
    cs.loc = row.loc("CID");
    add_system(std::move(cs), d);
  }
}

void apply_define_vector(const Block& b, DeckBuilder& d) {
  for (const Fields& row : b.rows) {
    DefinedVector v;
    v.id = row.id("VID");
    v.tail = point(row, "XT", "YT", "ZT");
    v.head = point(row, "XH", "YH", "ZH");
    v.cid = row.id("CID");
    v.loc = row.loc("VID");
    d.claim_id("vector", v.id, v.loc);
    d.model.vectors.emplace(v.id, v);
  }
}

std::array<Real, 3> vector_direction(const Model& m, GlobalId vid, const SourceLoc& loc,
                                     std::string_view what) {
  const auto it = m.vectors.find(vid);
  if (it == m.vectors.end())
    fail(loc, fmt::format("{} references vector VID = {}, which is not defined (*DEFINE_VECTOR)",
                          what, vid));
  const DefinedVector& v = it->second;
  std::array<Real, 3> dir = sub(v.head, v.tail);
  if (v.tail_node != 0) { // *DEFINE_VECTOR_NODES: between the nodes' initial positions
    std::array<Real, 3> at[2];
    for (int k = 0; k < 2; ++k) {
      const GlobalId nid = k == 0 ? v.tail_node : v.head_node;
      const LocalId n = m.node_index(nid);
      if (n == kInvalidLocal)
        fail(v.loc, fmt::format("vector {}: node {} is not defined", vid, nid));
      at[k] = {m.nodes.x[n], m.nodes.y[n], m.nodes.z[n]};
    }
    dir = sub(at[1], at[0]);
  }
  if (v.cid != 0) {
    const auto cs = m.coordinate_systems.find(v.cid);
    if (cs == m.coordinate_systems.end())
      fail(v.loc, fmt::format("vector {}: coordinate system CID = {} is not defined", vid, v.cid));
    dir = cs->second.to_global(dir);
  }
  const Real len = norm(dir);
  if (!(len > 0)) fail(v.loc, fmt::format("vector {}: tail and head coincide (zero length)", vid));
  for (Real& c : dir) c /= len;
  return dir;
}

void resolve_coordinate_systems(Model& m) {
  for (auto& entry : m.coordinate_systems) {
    // Not a structured binding: clang 14 (the fuzz build) cannot capture one in a lambda.
    const auto id = entry.first;
    CoordinateSystem& cs = entry.second;
    auto node = [&](GlobalId nid, std::string_view field) -> std::array<Real, 3> {
      const LocalId n = m.node_index(nid);
      if (n == kInvalidLocal)
        fail(cs.loc, fmt::format("coordinate system {}: {} = {} is not a node", id, field, nid));
      return {m.nodes.x[n], m.nodes.y[n], m.nodes.z[n]};
    };
    std::array<Real, 3> x_dir{}, plane{};
    switch (cs.kind) {
    case CoordinateSystem::Kind::Points:
      cs.origin = cs.p[0];
      x_dir = sub(cs.p[1], cs.p[0]);
      plane = sub(cs.p[2], cs.p[0]);
      break;
    case CoordinateSystem::Kind::Nodes:
      cs.origin = node(cs.n[0], "N1");
      x_dir = sub(node(cs.n[1], "N2"), cs.origin);
      plane = sub(node(cs.n[2], "N3"), cs.origin);
      break;
    case CoordinateSystem::Kind::Vectors:
      cs.origin = cs.n[0] != 0 ? node(cs.n[0], "NID") : std::array<Real, 3>{0, 0, 0};
      x_dir = cs.p[1];
      plane = cs.p[2];
      break;
    }
    if (!frame_axes(x_dir, plane, cs.axes))
      fail(cs.loc, fmt::format("coordinate system {}: the local x axis and the point (or vector) "
                               "in the x-y plane do not span a plane",
                               id));
  }
}

bool frame_axes(const std::array<Real, 3>& x_dir, const std::array<Real, 3>& plane,
                std::array<std::array<Real, 3>, 3>& axes) {
  const std::array<Real, 3> z_dir = cross(x_dir, plane);
  const Real lx = norm(x_dir), lz = norm(z_dir);
  if (lx == 0 || lz <= 1e-12 * lx * norm(plane)) return false;
  for (int i = 0; i < 3; ++i) {
    axes[0][i] = x_dir[i] / lx;
    axes[2][i] = z_dir[i] / lz;
  }
  axes[1] = cross(axes[2], axes[0]);
  return true;
}

} // namespace parcae::io
