// The 2-D solid parts of the domain: *SECTION_SHELL ELFORM 13 (plane strain) and 15
// (axisymmetric, volume weighted) on *ELEMENT_SHELL, run by the shell family's parts with a
// planar block (fem/solid2d.hpp).
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "fem/solid2d.hpp"
#include "solvers/common/domain.hpp"

namespace parcae {

Planar planar_kind(const Section& sec, GlobalId pid) {
  switch (sec.elform) {
  case 13:
    return Planar::PlaneStrain;
  case 15:
    return Planar::Axisymmetric;
  case 12:
  case 14:
    throw InputError(
        sec.elform_loc.line > 0 ? sec.elform_loc : sec.loc,
        fmt::format("*SECTION_SHELL {} (part {}): ELFORM {} ({}) is not supported; "
                    "2-D solids run as ELFORM 13 (plane strain) and 15 "
                    "(axisymmetric, volume weighted)",
                    sec.id, pid, sec.elform,
                    sec.elform == 12 ? "plane stress" : "axisymmetric, area weighted"));
  default:
    return Planar::None;
  }
}

void add_planar_part(const Model& model, const Part& part, const Section& sec, const Hourglass* hg,
                     Planar planar, const ShellOptions& opt, MaterialParams mp,
                     const std::vector<std::size_t>& elems, int body, Domain& d) {
  ShellPart sp;
  sp.pid = part.id;
  sp.title = part.title;
  sp.opt = opt;
  sp.blk.planar = planar;
  const bool axi = planar == Planar::Axisymmetric;
  const char* what = axi ? "axisymmetric solids (ELFORM 15)" : "plane-strain solids (ELFORM 13)";
  for (std::size_t e : elems)
    if (part.layup >= 0 || model.shells.layup_of(e) >= 0)
      throw InputError(sec.loc, fmt::format("part {}: {} take no layers, BETA or offset "
                                            "(*PART_COMPOSITE, *ELEMENT_SHELL_COMPOSITE, _BETA, "
                                            "_OFFSET; shell element {})",
                                            part.id, what, model.shells.id[e]));
  if (!mp.law().rigid && (mp.hydro() || mp.hyperelastic() || mp.law().update_solid == nullptr))
    throw InputError(model.find_material(mp.id) ? model.find_material(mp.id)->loc : sec.loc,
                     fmt::format("{} {}: {} (part {}) are not supported for this law; they run "
                                 "the incremental solid laws",
                                 mp.law().card, mp.id, what, sp.pid));
  sp.opt.nip = 1;
  sp.opt.q1 = model.control.q1;
  sp.opt.q2 = model.control.q2;
  if (hg) {
    sp.opt.q1 = hg->bulk_linear;
    sp.opt.q2 = hg->bulk_quadratic;
  }
  sp.blk.conn.resize(elems.size());
  sp.blk.init(elems.size(), 1, 1.0); // unit thickness (plane strain); unused when axisymmetric
  // The plane: every node of the part at the z of the part's first node.
  const Real z_ref = d.x0[3 * static_cast<std::size_t>(model.shells.nodes[elems.front()][0]) + 2];
  for (std::size_t k = 0; k < elems.size(); ++k) {
    auto conn = model.shells.nodes[elems[k]];
    const GlobalId eid = model.shells.id[elems[k]];
    Real x[4], y[4], bx[4], by[4], size = 0;
    for (int a = 0; a < 4; ++a) {
      const auto n = static_cast<std::size_t>(conn[a]);
      x[a] = d.x0[3 * n];
      y[a] = d.x0[3 * n + 1];
      size = std::max({size, std::abs(x[a] - x[0]), std::abs(y[a] - y[0])});
    }
    for (int a = 0; a < 4; ++a) {
      const auto n = static_cast<std::size_t>(conn[a]);
      if (std::abs(d.x0[3 * n + 2] - z_ref) > 1e-6 * std::max(size, std::abs(z_ref)))
        throw InputError(sec.loc,
                         fmt::format("{} of part {}: element {} leaves the x-y plane "
                                     "(node {} at z = {}, the part's plane z = {})",
                                     what, sp.pid, eid, model.nodes.id[n], d.x0[3 * n + 2], z_ref));
      if (axi && x[a] < -1e-9 * size)
        throw InputError(sec.loc, fmt::format("axisymmetric solid {} of part {}: node {} has "
                                              "x = {} (the radius; it must not be negative)",
                                              eid, sp.pid, model.nodes.id[n], x[a]));
    }
    Real area = quad_area_gradient(x, y, bx, by);
    if (area < 0) { // clockwise: the same element counter-clockwise
      if (conn[2] == conn[3])
        conn = {conn[0], conn[2], conn[1], conn[1]}; // a triangle keeps n3 == n4
      else
        std::swap(conn[1], conn[3]);
      area = -area;
    }
    if (!(area > 0))
      throw InputError(sec.loc,
                       fmt::format("{} of part {}: element {} has zero area", what, sp.pid, eid));
    sp.blk.conn[k] = conn;
    sp.elem_id.push_back(eid);
    sp.model_index.push_back(elems[k]);
  }
  // A planar motion: no z motion (nor rotations: the nodes get no rotational dofs).
  for (const auto& c : sp.blk.conn)
    for (LocalId n : c) d.spc[static_cast<std::size_t>(n)][2] = true;
  if (body >= 0) { // rigid: the mass to the body, which moves in the plane (along the axis)
    RigidBody& rb = d.bodies[static_cast<std::size_t>(body)];
    rb.fix_t[2] = rb.fix_r[0] = rb.fix_r[1] = true;
    if (axi) rb.fix_t[0] = rb.fix_r[2] = true;
    for (std::size_t k = 0; k < sp.blk.size(); ++k) {
      const auto m = planar_lumped_mass(mp, sp.blk, k, d.x0);
      for (int a = 0; a < 4; ++a) {
        d.mass[sp.blk.conn[k][a]] += m[a];
        d.rigid_of[sp.blk.conn[k][a]] = body;
      }
    }
    return;
  }
  sp.mat = std::move(mp);
  d.shells.push_back(std::move(sp));
}

} // namespace parcae
