#include "solvers/common/domain.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "solvers/common/joint_stiffness.hpp"
#include "solvers/common/joints.hpp"
#include "solvers/common/rigid_body.hpp"

namespace parcae {

std::size_t Domain::element_count() const {
  std::size_t n = 0;
  for_each_element_family([&](auto family) {
    for (const auto& p : parts_of(*this, family)) n += p.blk.size();
  });
  return n;
}

namespace {

struct PartSetup {
  const Part* part = nullptr;
  const Section* sec = nullptr;
  const Material* mat = nullptr;
  const Hourglass* hg = nullptr;
};

PartSetup resolve_part(const Model& model, GlobalId pid) {
  PartSetup s;
  s.part = model.find_part(pid);
  if (!s.part) throw InputError({}, fmt::format("element references undefined part {}", pid));
  s.sec = model.find_section(s.part->secid);
  s.mat = model.find_material(s.part->mid);
  if (!s.sec)
    throw InputError(s.part->loc,
                     fmt::format("part {} references undefined section {}", pid, s.part->secid));
  if (!s.mat)
    throw InputError(s.part->loc,
                     fmt::format("part {} references undefined material {}", pid, s.part->mid));
  if (s.part->hgid != 0) s.hg = model.find_hourglass(s.part->hgid);
  if ((material_law(s.mat->kind).discrete_force != nullptr) !=
      (s.sec->kind == SectionKind::Discrete))
    throw InputError(s.part->loc,
                     fmt::format("part {}: material {} ({}) and section {}: the "
                                 "spring and damper laws go with *SECTION_DISCRETE, "
                                 "and only they",
                                 pid, s.mat->id, material_law(s.mat->kind).card, s.sec->id));
  return s;
}

void apply_initial_velocities(const Model& model, Domain& d) {
  auto node_set = [&](GlobalId sid) -> const IdSet* {
    auto it = model.node_sets.find(sid);
    return it == model.node_sets.end() ? nullptr : &it->second;
  };
  auto set_node_v = [&](LocalId n, const std::array<Real, 3>& v) {
    for (int i = 0; i < 3; ++i) d.v[3 * n + i] = v[i];
  };
  // nodes of a part (or all parts of a part set)
  auto part_nodes = [&](const std::vector<GlobalId>& pids) {
    std::set<GlobalId> want(pids.begin(), pids.end());
    std::vector<std::uint8_t> mark(d.nnode, 0);
    for (std::size_t e = 0; e < model.solids.size(); ++e)
      if (want.count(model.solids.part[e]))
        for (LocalId n : model.solids.nodes[e]) mark[n] = 1;
    for (std::size_t e = 0; e < model.shells.size(); ++e)
      if (want.count(model.shells.part[e]))
        for (LocalId n : model.shells.nodes[e]) mark[n] = 1;
    for (std::size_t e = 0; e < model.beams.size(); ++e)
      if (want.count(model.beams.part[e]))
        for (LocalId n : model.beams.nodes[e]) mark[n] = 1;
    std::vector<LocalId> out;
    for (std::size_t n = 0; n < d.nnode; ++n)
      if (mark[n]) out.push_back(static_cast<LocalId>(n));
    return out;
  };
  auto set_nodes = [&](const IdSet* s) {
    std::vector<LocalId> out;
    if (!s) return out;
    for (GlobalId id : s->members) {
      const LocalId n = model.node_index(id);
      if (n != kInvalidLocal) out.push_back(n);
    }
    return out;
  };
  // Order as LS-DYNA: set-wise first, generation next, node-wise last (node cards win).
  for (int pass = 0; pass < 3; ++pass) {
    for (const auto& iv : model.initial_velocities) {
      const bool is_node = iv.target == InitialVelocity::Target::Node && !iv.generation;
      const int my_pass = iv.generation ? 1 : (is_node ? 2 : 0);
      if (my_pass != pass) continue;
      std::vector<LocalId> nodes;
      switch (iv.target) {
      case InitialVelocity::Target::All:
        nodes.resize(d.nnode);
        for (std::size_t n = 0; n < d.nnode; ++n) nodes[n] = static_cast<LocalId>(n);
        break;
      case InitialVelocity::Target::Node: {
        const LocalId n = model.node_index(iv.target_id);
        if (n != kInvalidLocal) nodes.push_back(n);
        break;
      }
      case InitialVelocity::Target::NodeSet:
        nodes = set_nodes(node_set(iv.target_id));
        break;
      case InitialVelocity::Target::Part:
        nodes = part_nodes({iv.target_id});
        break;
      case InitialVelocity::Target::PartSet: {
        auto it = model.part_sets.find(iv.target_id);
        if (it != model.part_sets.end()) nodes = part_nodes(it->second.members);
        break;
      }
      }
      if (iv.box != 0) {
        const Box& box = model.boxes.at(iv.box);
        std::erase_if(nodes, [&](LocalId n) {
          return !box.contains(d.x0[3 * n], d.x0[3 * n + 1], d.x0[3 * n + 2]);
        });
      }
      if (iv.exclude_set != 0) {
        const auto ex = set_nodes(node_set(iv.exclude_set));
        std::set<LocalId> exs(ex.begin(), ex.end());
        std::erase_if(nodes, [&](LocalId n) { return exs.count(n) > 0; });
      }
      for (LocalId n : nodes) {
        std::array<Real, 3> v = iv.v;
        if (iv.generation && iv.omega != 0) {
          Real ax[3] = {iv.axis[0], iv.axis[1], iv.axis[2]};
          const Real len = std::sqrt(ax[0] * ax[0] + ax[1] * ax[1] + ax[2] * ax[2]);
          if (len > 0)
            for (Real& c : ax) c /= len;
          const Real r[3] = {d.x0[3 * n] - iv.center[0], d.x0[3 * n + 1] - iv.center[1],
                             d.x0[3 * n + 2] - iv.center[2]};
          v[0] += iv.omega * (ax[1] * r[2] - ax[2] * r[1]);
          v[1] += iv.omega * (ax[2] * r[0] - ax[0] * r[2]);
          v[2] += iv.omega * (ax[0] * r[1] - ax[1] * r[0]);
          if (d.has_rot[n])
            for (int i = 0; i < 3; ++i) d.w[3 * n + i] = iv.omega * ax[i];
        } else if (!iv.generation && d.has_rot[n]) {
          for (int i = 0; i < 3; ++i) d.w[3 * n + i] = iv.omega_node[i];
        }
        set_node_v(n, v);
      }
    }
  }
}

/// *CONSTRAINED_EXTRA_NODES (nodes join their rigid part's body), *CONSTRAINED_RIGID_BODIES
/// (followers merged into their leads: bodies renumbered, rigid_of remapped, constraint flags
/// of the merged parts combined), then one new body per *CONSTRAINED_NODAL_RIGID_BODY,
/// *CONSTRAINED_SPOTWELD and *CONSTRAINED_GENERALIZED_WELD_SPOT. Masses are the lumped
/// (mass-scaled) nodal masses already in d.mass. The reader has checked the references and
/// that no node is in two rigid constraints.
template <class BodyFor>
void add_constraint_bodies(const Model& model, Domain& d, std::map<GlobalId, int>& body_of_part,
                           BodyFor&& rigid_body_for,
                           std::map<int, std::pair<LocalId, LocalId>>& weld_axis) {
  auto body_of = [&](GlobalId pid) {
    const auto it = body_of_part.find(pid);
    if (it != body_of_part.end()) return it->second;
    return static_cast<int>(rigid_body_for(resolve_part(model, pid)));
  };
  auto set_nodes = [&](GlobalId sid) {
    std::vector<LocalId> out;
    const auto it = model.node_sets.find(sid);
    if (it != model.node_sets.end())
      for (GlobalId id : it->second.members) out.push_back(model.node_index(id));
    return out;
  };
  for (const ExtraNodes& x : model.extra_nodes) {
    const int b = body_of(x.pid);
    const std::vector<LocalId> nodes =
        x.is_set ? set_nodes(x.id) : std::vector<LocalId>{model.node_index(x.id)};
    for (LocalId n : nodes) d.rigid_of[n] = b;
  }
  if (!model.rigid_merges.empty()) {
    std::vector<std::pair<int, int>> pairs; // lead, follower bodies (may create bodies)
    for (const RigidMerge& r : model.rigid_merges)
      pairs.emplace_back(body_of(r.lead), body_of(r.follower));
    std::vector<int> parent(d.bodies.size());
    for (std::size_t b = 0; b < parent.size(); ++b) parent[b] = static_cast<int>(b);
    auto root = [&](int b) {
      while (parent[static_cast<std::size_t>(b)] != b) b = parent[static_cast<std::size_t>(b)];
      return b;
    };
    for (const auto& [lead, follower] : pairs) {
      const int rl = root(lead), rf = root(follower);
      if (rl == rf)
        throw InputError(model.rigid_merges.front().loc,
                         "*CONSTRAINED_RIGID_BODIES: a rigid part merged into itself");
      parent[static_cast<std::size_t>(rf)] = rl;
    }
    std::vector<int> new_index(d.bodies.size(), -1);
    std::vector<RigidBody> kept;
    for (std::size_t b = 0; b < d.bodies.size(); ++b)
      if (root(static_cast<int>(b)) == static_cast<int>(b)) {
        new_index[b] = static_cast<int>(kept.size());
        kept.push_back(d.bodies[b]);
      }
    for (std::size_t b = 0; b < d.bodies.size(); ++b) {
      const int to = new_index[static_cast<std::size_t>(root(static_cast<int>(b)))];
      RigidBody& k = kept[static_cast<std::size_t>(to)];
      for (int i = 0; i < 3; ++i) {
        k.fix_t[i] = k.fix_t[i] || d.bodies[b].fix_t[i];
        k.fix_r[i] = k.fix_r[i] || d.bodies[b].fix_r[i];
      }
      new_index[b] = to;
    }
    for (int& r : d.rigid_of)
      if (r >= 0) r = new_index[static_cast<std::size_t>(r)];
    for (auto& [pid, b] : body_of_part) b = new_index[static_cast<std::size_t>(b)];
    d.bodies = std::move(kept);
  }
  auto new_body = [&](RigidBody b, const std::vector<LocalId>& nodes) {
    const int idx = static_cast<int>(d.bodies.size());
    d.bodies.push_back(std::move(b));
    for (LocalId n : nodes) d.rigid_of[n] = idx;
    return idx;
  };
  for (const NodalRigidBody& r : model.nodal_rigid_bodies) {
    RigidBody b;
    b.pid = r.pid;
    b.kind = RigidKind::NodalBody;
    b.title = fmt::format("nodal rigid body {}", r.pid);
    b.fix_t = r.fix_t; // _SPC
    b.fix_r = r.fix_r;
    new_body(std::move(b), set_nodes(r.nsid));
  }
  for (const SpotWeld& w : model.spot_welds) {
    RigidBody b;
    b.kind = w.generalized ? RigidKind::WeldSpot : RigidKind::Spotweld;
    b.weld_id = w.id;
    b.title = fmt::format("{} {}", w.generalized ? "weld spot" : "spotweld", w.id);
    b.sn = w.sn;
    b.ss = w.ss;
    b.fn_exp = w.n;
    b.fs_exp = w.m;
    b.tfail = w.tf;
    std::vector<LocalId> nodes;
    if (w.generalized)
      nodes = set_nodes(w.nsid);
    else
      for (GlobalId id : w.nodes) nodes.push_back(model.node_index(id));
    const int idx = new_body(std::move(b), nodes);
    weld_axis[idx] = {nodes.front(), nodes.back()};
  }
}

} // namespace

/// Integrated beams (*SECTION_BEAM ELFORM 1, 9) of part pid: section rule, frames, lengths;
/// rigid ones add their mass to their body. *MAT_NULL beams have mass only (YM and PR serve the
/// contact stiffness).
template <class RigidBodyFor>
static void add_integrated_beams(const Model& model, const PartSetup& s, GlobalId pid,
                                 const std::vector<std::size_t>& elems, Domain& d,
                                 RigidBodyFor&& rigid_body_for) {
  const Section& sec = *s.sec;
  BeamPart bp;
  bp.pid = pid;
  bp.title = s.part->title;
  MaterialParams mp;
  const bool null = s.mat->kind == MaterialKind::Null;
  if (null) {
    mp.kind = MaterialKind::Null;
    mp.id = s.mat->id;
    mp.ro = s.mat->ro;
    mp.e = s.mat->e;
    mp.nu = s.mat->pr;
  } else {
    mp = make_material_params(*s.mat, model);
    refuse_failure_on_beams(mp, *s.mat, pid);
    const MaterialKind k = mp.kind;
    if (!mp.law().rigid && k != MaterialKind::Elastic && k != MaterialKind::PlasticKinematic &&
        k != MaterialKind::PiecewiseLinear && k != MaterialKind::Spotweld)
      throw InputError(s.mat->loc,
                       fmt::format("{} {}: integrated beams (part {}, *SECTION_BEAM {} ELFORM {}) "
                                   "are not supported (*MAT_001, 003, 024, 100 and *MAT_NULL are)",
                                   mp.law().card, s.mat->id, pid, sec.id, sec.elform));
  }
  // LS-DYNA: TS2 and TT2 default to TS1 and TT1; tapered sections use the mean dimensions at the
  // one axial integration point (the midpoint).
  const Real ts2 = sec.ts2 > 0 ? sec.ts2 : sec.ts1;
  const Real tt2 = sec.tt2 > 0 ? sec.tt2 : sec.tt1;
  const Real ts = 0.5 * (sec.ts1 + ts2), tt = 0.5 * (sec.tt1 + tt2);
  try {
    bp.blk.sec.rule = make_beam_section_rule(sec.cst, sec.qr_irid, ts, tt);
  } catch (const std::invalid_argument& e) {
    throw InputError(sec.loc, fmt::format("*SECTION_BEAM {} (part {}, ELFORM {}): {}", sec.id, pid,
                                          sec.elform, e.what()));
  }
  bp.blk.sec.nsm = sec.nsm;
  bp.blk.sec.shrf = sec.shrf;
  bp.blk.sec.null = null;
  const std::size_t n = elems.size();
  bp.blk.conn.resize(n);
  bp.blk.l0.resize(n);
  bp.blk.e2.resize(n);
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t e = elems[k];
    bp.blk.conn[k] = model.beams.nodes[e];
    bp.elem_id.push_back(model.beams.id[e]);
    bp.model_index.push_back(e);
    if (model.beams.area[e] > 0)
      throw InputError({}, fmt::format("beam {} of part {}: *ELEMENT_BEAM_THICKNESS dimensions of "
                                       "integrated beams are not supported (the section's TS1 "
                                       "TS2 TT1 TT2 are)",
                                       model.beams.id[e], pid));
    const auto a = static_cast<std::size_t>(bp.blk.conn[k][0]);
    const auto b = static_cast<std::size_t>(bp.blk.conn[k][1]);
    const LocalId n3 = model.beams.n3[e];
    const Real* x3 = n3 == kInvalidLocal ? nullptr : &d.x0[3 * static_cast<std::size_t>(n3)];
    Real x3v[3]; // *ELEMENT_BEAM_ORIENTATION without N3: the vector from N1
    if (x3 == nullptr) x3 = beam_orientation_point(&d.x0[3 * a], model.beams.orientation[e], x3v);
    Real e2[3];
    bp.blk.l0[k] = beam_length(bp.blk, k, d.x0);
    if (!(bp.blk.l0[k] > 0))
      throw InputError({}, fmt::format("beam {} of part {} has zero length (N1 = N2 or "
                                       "coincident nodes)",
                                       model.beams.id[e], pid));
    if (!beam_initial_axis(&d.x0[3 * a], &d.x0[3 * b], x3, e2))
      throw InputError({}, fmt::format("beam {} of part {}: the orientation node N3 (or the "
                                       "_ORIENTATION vector) lies on the beam's axis",
                                       model.beams.id[e], pid));
    bp.blk.e2[k] = {e2[0], e2[1], e2[2]};
  }
  bp.blk.init(n, static_cast<int>(bp.blk.sec.rule.size()));
  if (!null && mp.law().rigid) {
    const int body = rigid_body_for(s);
    for (std::size_t k = 0; k < n; ++k) {
      Real m = 0, j = 0;
      beam_lumped_mass(bp.blk.sec, mp, bp.blk.l0[k], m, j);
      for (LocalId node : bp.blk.conn[k]) {
        d.mass[node] += m;
        d.rigid_of[node] = body;
      }
    }
    return;
  }
  bp.mat = std::move(mp);
  d.beams.push_back(std::move(bp));
}

Domain build_domain(const Model& model) {
  Domain d;
  d.model = &model;
  const std::size_t nn = model.nodes.size();
  d.nnode = nn;
  d.node_id = model.nodes.id;
  d.x0.resize(3 * nn);
  for (std::size_t n = 0; n < nn; ++n) {
    d.x0[3 * n] = model.nodes.x[n];
    d.x0[3 * n + 1] = model.nodes.y[n];
    d.x0[3 * n + 2] = model.nodes.z[n];
  }
  d.x = d.x0;
  d.v.assign(3 * nn, 0.0);
  d.a.assign(3 * nn, 0.0);
  d.f.assign(3 * nn, 0.0);
  d.w.assign(3 * nn, 0.0);
  d.m_ext.assign(3 * nn, 0.0);
  d.mass.assign(nn, 0.0);
  d.inertia.assign(nn, 0.0);
  d.has_rot.assign(nn, 0);
  d.rigid_of.assign(nn, -1);
  d.spc.assign(nn, {});

  // Group elements by part, keeping deck order inside each part.
  std::map<GlobalId, std::vector<std::size_t>> solid_by_part, shell_by_part;
  for (std::size_t e = 0; e < model.solids.size(); ++e)
    solid_by_part[model.solids.part[e]].push_back(e);
  for (std::size_t e = 0; e < model.shells.size(); ++e)
    shell_by_part[model.shells.part[e]].push_back(e);

  std::map<GlobalId, int> body_of_part;
  auto rigid_body_for = [&](const PartSetup& s) {
    auto it = body_of_part.find(s.part->id);
    if (it != body_of_part.end()) return it->second;
    RigidBody b;
    b.pid = s.part->id;
    b.title = s.part->title;
    if (s.mat->cmo > 0) {
      const int c1 = static_cast<int>(s.mat->con1), c2 = static_cast<int>(s.mat->con2);
      if (c1 < 0 || c1 > 7 || c2 < 0 || c2 > 7)
        throw InputError(s.mat->loc, fmt::format("*MAT_RIGID {}: CON1/CON2 must be 0..7 when "
                                                 "CMO = 1",
                                                 s.mat->id));
      b.fix_t = rigid_constraint_dofs(c1);
      b.fix_r = rigid_constraint_dofs(c2);
    } else if (s.mat->cmo < 0) {
      throw InputError(s.mat->loc, fmt::format("*MAT_RIGID {}: CMO = -1 (local constraints) is "
                                               "not supported; use CMO = 1",
                                               s.mat->id));
    }
    d.bodies.push_back(std::move(b));
    const int idx = static_cast<int>(d.bodies.size()) - 1;
    body_of_part[s.part->id] = idx;
    return idx;
  };

  // --- solids ---
  for (const auto& [pid, elems] : solid_by_part) {
    const PartSetup s = resolve_part(model, pid);
    MaterialParams mp = make_material_params(*s.mat, model);
    if (mp.hydro() && s.sec->kind == SectionKind::Solid)
      attach_eos(mp, *s.mat, model.find_eos(s.part->eosid));
    if (mp.law().rigid) {
      const int b = rigid_body_for(s);
      for (std::size_t e : elems) {
        Real x[8], y[8], z[8], bx[8], by[8], bz[8];
        const auto conn = hex_connectivity(model.solids.nodes[e]);
        for (int a = 0; a < 8; ++a) {
          const LocalId n = conn[a];
          x[a] = d.x0[3 * n];
          y[a] = d.x0[3 * n + 1];
          z[a] = d.x0[3 * n + 2];
        }
        const Real vol = hex_volume_gradient(x, y, z, bx, by, bz);
        for (int a = 0; a < 8; ++a) {
          const LocalId n = conn[a];
          d.mass[n] += mp.ro * vol / 8.0;
          d.rigid_of[n] = b;
        }
      }
      continue;
    }
    if (!mp.hyperelastic() && !mp.hydro() && mp.law().update_solid == nullptr && // *MAT_037
        s.sec->kind == SectionKind::Solid) // (thick shells run the shell form)
      throw InputError(s.mat->loc, fmt::format("{} {}: solids (part {}) are not supported; "
                                               "shells only",
                                               mp.law().card, s.mat->id, pid));
    if (s.sec->kind == SectionKind::Solid && s.sec->elform != 1 && s.sec->elform != 0 &&
        s.sec->elform != 10 &&
        !fully_integrated_hexahedron(s.sec->elform)) // 2, -1, -2, 3: run as 1
      throw InputError(s.sec->loc, fmt::format("*SECTION_SOLID {}: ELFORM {} is not supported "
                                               "(1 and 10 are; 2, -1, -2, 3 run as 1)",
                                               s.sec->id, s.sec->elform));
    SolidPart sp;
    sp.pid = pid;
    sp.title = s.part->title;
    sp.mat = std::move(mp);
    hourglass_settings(model, s.hg, sp.opt.ihq, sp.opt.qm, true);
    sp.opt.tetrahedra = s.sec->elform == 10;
    if (sp.opt.tetrahedra) sp.opt.qm = 0;
    sp.opt.q1 = model.control.q1;
    sp.opt.q2 = model.control.q2;
    if (s.hg) { // *HOURGLASS Q1/Q2 set the part's bulk viscosity (LS-DYNA semantics)
      sp.opt.q1 = s.hg->bulk_linear;
      sp.opt.q2 = s.hg->bulk_quadratic;
    }
    if (!sp.mat.bulk_viscosity) sp.opt.q1 = sp.opt.q2 = 0; // the law's (*MAT_057 BVFLAG 0)
    // State only where the kernels use it (hex8.hpp: the optimised kernel reads the back stress
    // when BETA < 1, the hydrodynamic path always, laws with a second stress-like tensor).
    sp.blk.init(elems.size(), sp.opt.ihq >= 4,
                sp.mat.beta < 1 || sp.mat.hydro() || sp.mat.law().stress_history ||
                    sp.mat.law().scalar_history);
    sp.elem_id.reserve(elems.size());
    sp.model_index.reserve(elems.size());
    for (std::size_t k = 0; k < elems.size(); ++k) {
      sp.blk.conn[k] = hex_connectivity(model.solids.nodes[elems[k]]);
      sp.elem_id.push_back(model.solids.id[elems[k]]);
      sp.model_index.push_back(elems[k]);
    }
    if (s.sec->kind == SectionKind::TShell) setup_thick_shell(model, *s.sec, sp);
    d.solids.push_back(std::move(sp));
  }
  // --- shells ---
  for (const auto& [pid, elems] : shell_by_part) {
    const PartSetup s = resolve_part(model, pid);
    MaterialParams mp = make_material_params(*s.mat, model);
    if (const Planar planar = planar_kind(*s.sec, pid); planar != Planar::None) {
      ShellOptions opt; // 2-D solids (planar_parts.cpp)
      hourglass_settings(model, s.hg, opt.ihq, opt.qm);
      const int body = mp.law().rigid ? rigid_body_for(s) : -1;
      add_planar_part(model, *s.part, *s.sec, s.hg, planar, opt, std::move(mp), elems, body, d);
      continue;
    }
    if (mp.hydro() && (mp.law().update_shell == nullptr || !(mp.e > 0)))
      throw InputError(s.mat->loc,
                       mp.law().update_shell == nullptr
                           ? fmt::format("material {} (hydrodynamic, with an equation of state): "
                                         "shells (part {}) are not supported; solids only",
                                         s.mat->id, pid)
                           : fmt::format("{} {}: shells (part {}) need E and PR (card 1)",
                                         mp.law().card, s.mat->id, pid));
    if (mp.kind == MaterialKind::Spotweld)
      throw InputError(s.mat->loc, fmt::format("*MAT_SPOTWELD {}: shells (part {}) are not "
                                               "supported; beams (ELFORM 1, 3, 9) and solids only",
                                               s.mat->id, pid));
    if (mp.law().update_shell == nullptr) // e.g. *MAT_027, *MAT_012
      throw InputError(s.mat->loc, fmt::format("{} {}: shells (part {}) are not supported; "
                                               "solids only",
                                               mp.law().card, s.mat->id, pid));
    auto thickness = [&](std::size_t e) {
      const auto& t = model.shells.thickness[e];
      const bool nodal = t[0] != 0 || t[1] != 0 || t[2] != 0 || t[3] != 0;
      const auto& tt = nodal ? t : s.sec->t;
      const bool tri = model.shells.nodes[e][2] == model.shells.nodes[e][3];
      return tri ? (tt[0] + tt[1] + tt[2]) / 3.0 : 0.25 * (tt[0] + tt[1] + tt[2] + tt[3]);
    };
    ShellPart sp;
    sp.pid = pid;
    sp.title = s.part->title;
    set_shell_options(model, *s.sec, mp, sp.opt, !mp.law().rigid); // shell_sections.cpp
    hourglass_settings(model, s.hg, sp.opt.ihq, sp.opt.qm);
    const bool layered = shell_part_layered(model, *s.part, *s.sec, elems) || // shell_layup.cpp
                         mp.law().shell_state > 3;
    if (layered) sp.opt.nip = shell_layer_count(model, *s.part, *s.sec, sp.opt, elems);
    sp.blk.conn.resize(elems.size());
    sp.blk.init(elems.size(), sp.opt.nip);
    if (!shell_keeps_back_stress(mp)) sp.blk.drop_back_stress();
    sp.blk.isdo = model.control.isdo;
    sp.elem_id.reserve(elems.size());
    sp.model_index.reserve(elems.size());
    for (std::size_t k = 0; k < elems.size(); ++k) {
      sp.blk.conn[k] = model.shells.nodes[elems[k]];
      sp.blk.t0[k] = sp.blk.t[k] = thickness(elems[k]);
      if (!(sp.blk.t0[k] > 0))
        throw InputError(s.sec->loc, fmt::format("shell {} of part {} has thickness {} (must be "
                                                 "> 0)",
                                                 model.shells.id[elems[k]], pid, sp.blk.t0[k]));
      sp.elem_id.push_back(model.shells.id[elems[k]]);
      sp.model_index.push_back(elems[k]);
    }
    if (layered) set_shell_layers(model, *s.part, *s.sec, mp, elems, sp);
    if (mp.law().rigid) {
      const int b = rigid_body_for(s);
      for (std::size_t k = 0; k < elems.size(); ++k) {
        std::array<Real, 4> cm{}, ci{};
        shell_lumped_mass(mp, sp.blk, k, d.x0, cm, ci);
        for (int a = 0; a < 4; ++a) {
          d.mass[sp.blk.conn[k][a]] += cm[a];
          d.rigid_of[sp.blk.conn[k][a]] = b;
        }
      }
      continue;
    }
    sp.mat = std::move(mp);
    d.shells.push_back(std::move(sp));
  }

  // --- trusses (*SECTION_BEAM ELFORM 3) ---
  std::map<GlobalId, std::vector<std::size_t>> beam_by_part;
  for (std::size_t e = 0; e < model.beams.size(); ++e)
    beam_by_part[model.beams.part[e]].push_back(e);
  for (const auto& [pid, elems] : beam_by_part) {
    const PartSetup s = resolve_part(model, pid);
    if (s.sec->kind == SectionKind::Discrete) {
      add_discrete_part(model, *s.part, *s.sec, *s.mat, elems, d);
      continue;
    }
    if (s.sec->elform == 1 || s.sec->elform == 9) {
      add_integrated_beams(model, s, pid, elems, d, rigid_body_for);
      continue;
    }
    MaterialParams mp = make_material_params(*s.mat, model);
    refuse_failure_on_beams(mp, *s.mat, pid);
    TrussPart tp;
    tp.pid = pid;
    tp.title = s.part->title;
    tp.opt.nsm = s.sec->nsm;
    tp.blk.conn.resize(elems.size());
    tp.blk.area.resize(elems.size());
    for (std::size_t k = 0; k < elems.size(); ++k) {
      tp.blk.conn[k] = model.beams.nodes[elems[k]];
      const Real a = model.beams.area[elems[k]];
      tp.blk.area[k] = a > 0 ? a : s.sec->area;
      if (!(tp.blk.area[k] > 0))
        throw InputError(s.sec->loc,
                         fmt::format("truss {} of part {} has area {} (*SECTION_BEAM "
                                     "{} A must be > 0)",
                                     model.beams.id[elems[k]], pid, tp.blk.area[k], s.sec->id));
      tp.elem_id.push_back(model.beams.id[elems[k]]);
      tp.model_index.push_back(elems[k]);
    }
    tp.blk.init(elems.size());
    for (std::size_t k = 0; k < elems.size(); ++k) {
      tp.blk.l0[k] = truss_length(tp.blk, k, d.x0);
      if (!(tp.blk.l0[k] > 0))
        throw InputError({}, fmt::format("truss {} of part {} has zero length (N1 = N2 or "
                                         "coincident nodes)",
                                         tp.elem_id[k], pid));
    }
    if (mp.law().rigid) {
      const int b = rigid_body_for(s);
      for (std::size_t k = 0; k < elems.size(); ++k)
        for (LocalId n : tp.blk.conn[k]) {
          d.mass[n] += 0.5 * (mp.ro * tp.blk.area[k] + tp.opt.nsm) * tp.blk.l0[k];
          d.rigid_of[n] = b;
        }
      continue;
    }
    if (mp.hydro() || mp.hyperelastic() || !has_truss_form(mp))
      throw InputError(s.mat->loc, fmt::format("{} {}: trusses (part {}) are not supported "
                                               "(elastic and elastic-plastic materials are)",
                                               mp.law().card, s.mat->id, pid));
    tp.mat = std::move(mp);
    d.trusses.push_back(std::move(tp));
  }

  // --- masses of deformable elements, mass scaling ---
  for (auto& sp : d.solids) {
    for (std::size_t e = 0; e < sp.blk.size(); ++e) {
      Real x[8], y[8], z[8], bx[8], by[8], bz[8];
      for (int a = 0; a < 8; ++a) {
        const LocalId n = sp.blk.conn[e][a];
        x[a] = d.x0[3 * n];
        y[a] = d.x0[3 * n + 1];
        z[a] = d.x0[3 * n + 2];
      }
      const Real vol = hex_volume_gradient(x, y, z, bx, by, bz);
      if (!(vol > 0))
        throw InputError({}, fmt::format("solid {} of part {} has non-positive initial volume {} "
                                         "(check the node order)",
                                         sp.elem_id[e], sp.pid, vol));
      sp.blk.vol[e] = vol;
    }
  }
  // Every family: DT2MS scales an element's mass by (DT2MS / its step)^2 where that is less.
  const Real dt2ms = std::abs(model.control.dt2ms);
  PartShares part_share; // *ELEMENT_MASS_PART parts' physical nodal masses, as lumped below
  for (const PartMass& pm : model.part_masses)
    for (GlobalId pid : pm.pids) part_share[pid];
  for_each_element_family([&](auto family) {
    using Family = decltype(family);
    for (auto& part : parts_of(d, family)) {
      auto* share = part_share.empty() ? nullptr : [&]() {
        const auto it = part_share.find(part.pid);
        return it == part_share.end() ? nullptr : &it->second;
      }();
      for (std::size_t e = 0; e < part.blk.size(); ++e) {
        Real scale = 1.0;
        if (dt2ms > 0) {
          const Real dte = Family::initial_dt(part.opt, part.mat, part.blk, e, d.x0);
          if (dte < dt2ms) scale = (dt2ms / dte) * (dt2ms / dte);
        }
        const auto lm = Family::lump_mass(part.opt, part.mat, part.blk, e, d.x0, scale);
        for (std::size_t a = 0; a < static_cast<std::size_t>(Family::kNodes); ++a) {
          const auto n = static_cast<std::size_t>(part.blk.conn[e][a]);
          d.mass[n] += lm.mass[a];
          if (share) share->emplace_back(static_cast<LocalId>(n), lm.mass[a] - lm.added[a]);
          if constexpr (Family::kCornerDofs == 6) {
            d.inertia[n] += lm.inertia[a];
            if (!is_planar(part)) d.has_rot[n] = 1; // 2-D solids: no rotations
          }
          d.added_mass += lm.added[a];
        }
      }
    }
  });

  add_lumped_masses(model, d, part_share);

  // --- corner bookkeeping (node -> corners CSR) ---
  auto offsets = [](auto& parts, std::size_t nodes) {
    std::size_t off = 0;
    for (auto& p : parts) {
      p.corner_offset = off;
      off += nodes * p.blk.size();
    }
    return off;
  };
  d.n_solid_corners = offsets(d.solids, SolidFamily::kNodes);
  d.n_shell_corners = offsets(d.shells, ShellFamily::kNodes);
  d.n_truss_corners = offsets(d.trusses, TrussFamily::kNodes);
  d.n_beam_corners = offsets(d.beams, BeamFamily::kNodes);
  d.corner_f_truss.assign(3 * d.n_truss_corners, 0.0);
  d.corner_f_beam.assign(3 * d.n_beam_corners, 0.0);
  d.corner_m_beam.assign(3 * d.n_beam_corners, 0.0);
  d.corner_f_solid.assign(3 * d.n_solid_corners, 0.0);
  d.corner_f_shell.assign(3 * d.n_shell_corners, 0.0);
  d.corner_m_shell.assign(3 * d.n_shell_corners, 0.0);
  auto build_csr = [&](auto& parts, int nc, std::vector<std::int64_t>& start,
                       std::vector<std::int64_t>& list, std::size_t ncorners) {
    start.assign(nn + 1, 0);
    for (const auto& sp : parts)
      for (std::size_t e = 0; e < sp.blk.size(); ++e)
        for (int a = 0; a < nc; ++a) ++start[sp.blk.conn[e][a] + 1];
    for (std::size_t n = 0; n < nn; ++n) start[n + 1] += start[n];
    list.assign(ncorners, 0);
    std::vector<std::int64_t> fill(start.begin(), start.end() - 1);
    for (const auto& sp : parts)
      for (std::size_t e = 0; e < sp.blk.size(); ++e)
        for (int a = 0; a < nc; ++a)
          list[fill[sp.blk.conn[e][a]]++] =
              static_cast<std::int64_t>(sp.corner_offset + nc * e + a);
  };
  build_csr(d.solids, SolidFamily::kNodes, d.solid_corner_start, d.solid_corner_list,
            d.n_solid_corners);
  build_csr(d.shells, ShellFamily::kNodes, d.shell_corner_start, d.shell_corner_list,
            d.n_shell_corners);
  build_csr(d.trusses, TrussFamily::kNodes, d.truss_corner_start, d.truss_corner_list,
            d.n_truss_corners);
  build_csr(d.beams, BeamFamily::kNodes, d.beam_corner_start, d.beam_corner_list, d.n_beam_corners);

  // --- constraints ---
  for (const auto& s : model.spcs) {
    if (s.skew) {
      d.skew_spc.push_back({s.node, s.dof, s.axes});
      continue;
    }
    for (int i = 0; i < 6; ++i)
      if (s.dof[i]) d.spc[s.node][i] = true;
  }
  std::stable_sort(d.skew_spc.begin(), d.skew_spc.end(),
                   [](const auto& a, const auto& b) { return a.node < b.node; });

  // --- constraints that add, join or create rigid bodies ---
  std::map<int, std::pair<LocalId, LocalId>> weld_axis; // body -> first, last node (model)
  add_constraint_bodies(model, d, body_of_part, rigid_body_for, weld_axis);

  // --- initial velocities, then rigid bodies (their momentum from the nodal velocities) ---
  apply_initial_velocities(model, d);
  for (std::size_t b = 0; b < d.bodies.size(); ++b) {
    for (std::size_t n = 0; n < nn; ++n)
      if (d.rigid_of[n] == static_cast<int>(b))
        d.bodies[b].nodes.push_back(static_cast<LocalId>(n));
    if (const auto it = weld_axis.find(static_cast<int>(b)); it != weld_axis.end()) {
      const auto& nodes = d.bodies[b].nodes;
      auto pos = [&](LocalId n) {
        return static_cast<std::size_t>(std::find(nodes.begin(), nodes.end(), n) - nodes.begin());
      };
      d.bodies[b].axis_first = pos(it->second.first);
      d.bodies[b].axis_last = pos(it->second.second);
    }
    init_rigid_body(d.bodies[b], d);
  }
  add_lumped_inertia(model, d);

  // --- *PART_INERTIA / *CONSTRAINED_NODAL_RIGID_BODY_INERTIA: given mass properties (the
  // centre: XC YC ZC, or the initial position of the node the card names) ---
  auto inertia_centre = [&](const PartInertia& in, const std::string& who) {
    if (in.nodeid == 0) return in.xc;
    const LocalId n = model.node_index(in.nodeid);
    if (n == kInvalidLocal)
      throw InputError(in.loc,
                       fmt::format("{}: the centre's node {} is not a node", who, in.nodeid));
    return std::array<Real, 3>{d.x0[3 * n], d.x0[3 * n + 1], d.x0[3 * n + 2]};
  };
  for (const Part& p : model.parts) {
    if (!p.inertia) continue;
    const auto it = body_of_part.find(p.id);
    if (it == body_of_part.end())
      throw InputError(p.inertia->loc, fmt::format("*PART_INERTIA: part {} is not a rigid part "
                                                   "with elements (_INERTIA applies to *MAT_RIGID "
                                                   "parts only)",
                                                   p.id));
    for (const auto& [other, b] : body_of_part)
      if (other != p.id && b == it->second)
        throw InputError(p.inertia->loc, fmt::format("*PART_INERTIA: part {} is merged with "
                                                     "rigid part {} (*CONSTRAINED_RIGID_BODIES): "
                                                     "the mass properties of a merged body "
                                                     "cannot be given for one of its parts",
                                                     p.id, other));
    set_rigid_inertia(d.bodies[static_cast<std::size_t>(it->second)], d, *p.inertia,
                      inertia_centre(*p.inertia, fmt::format("*PART_INERTIA: part {}", p.id)));
  }
  // *CONSTRAINED_NODAL_RIGID_BODY_INERTIA: the k-th nodal body is the k-th body of that kind
  {
    std::size_t k = 0;
    for (RigidBody& b : d.bodies) {
      if (b.kind != RigidKind::NodalBody) continue;
      const NodalRigidBody& r = model.nodal_rigid_bodies.at(k++);
      if (!r.inertia) continue;
      set_rigid_inertia(b, d, *r.inertia,
                        inertia_centre(*r.inertia, fmt::format("nodal rigid body {}", r.pid)));
    }
  }
  apply_rigid_body_velocities(model, d);
  d.joints = make_joints(model, d);
  d.joint_stiffness = make_joint_stiffnesses(model, d);
  set_discrete_steps(model, d);
  Real total = 0;
  for (Real m : d.mass) total += m;
  d.physical_mass = total - d.added_mass;
  d.owned.assign(nn, 1);
  d.local_of_global.resize(nn);
  for (std::size_t n = 0; n < nn; ++n) d.local_of_global[n] = static_cast<LocalId>(n);
  d.global_index.resize(nn);
  for (std::size_t n = 0; n < nn; ++n) d.global_index[n] = static_cast<LocalId>(n);
  d.n_local_solid_corners = d.n_solid_corners;
  d.n_local_shell_corners = d.n_shell_corners;
  d.n_local_truss_corners = d.n_truss_corners;
  d.n_local_beam_corners = d.n_beam_corners;
  return d;
}

} // namespace parcae
