// Apply functions: *CONSTRAINED_NODAL_RIGID_BODY, *CONSTRAINED_EXTRA_NODES_NODE / _SET,
// *CONSTRAINED_RIGID_BODIES, *CONSTRAINED_SPOTWELD, *CONSTRAINED_GENERALIZED_WELD_SPOT, and the
// check of their references once the whole deck is read (check_constraint_references).
//
// Behaviour choices (documented in docs/keywords.md through the card tables):
// - A node may belong to one rigid constraint only (nodal rigid body, spotweld, weld spot,
//   extra node of a rigid part); a node of a nodal rigid body / weld that is also a node of a
//   *MAT_RIGID part is an error (parcae does not merge bodies implicitly: use
//   *CONSTRAINED_EXTRA_NODES or *CONSTRAINED_RIGID_BODIES for that).
// - Extra nodes that already belong to the same rigid part are accepted (no effect).
#include <map>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "input/card_number.hpp"
#include "input/deck_apply.hpp"

namespace parcae::io {

namespace {

void note(DeckBuilder& d, const Block& b, const SourceLoc& loc, std::string message) {
  d.model.notes.push_back({std::string(b.spec->name), loc, false, std::move(message)});
}

void warn_nonzero(DeckBuilder& d, const Block& b, const Fields& row, std::string_view field,
                  std::string_view what) {
  const Value& v = row.get(field);
  const double value = v.spec && v.spec->type == FieldType::Int ? static_cast<double>(v.i) : v.r;
  if (value != 0 && !v.blank)
    note(d, b, row.loc(field), fmt::format("{} = {}: {} (ignored)", field, value, what));
}

/// The force-failure fields of a weld (SN SS N M), as LS-DYNA reads them: a force of 0 means
/// no such failure term, an exponent of 0 means 1 (LS-DYNA reads a blank field as 0, so 0 must
/// be its default). Negative forces (curves of the nodal temperature) are not supported.
void weld_failure(const Fields& row, SpotWeld& w) {
  for (std::string_view f : {"SN", "SS"})
    if (row.real(f) < 0)
      fail(row.loc(f), fmt::format("{} = {}: a failure force given as a curve of the nodal "
                                   "temperature (negative value) is not supported",
                                   f, row.real(f)));
  for (std::string_view f : {"N", "M"})
    if (row.real(f) < 0)
      fail(row.loc(f),
           fmt::format("{} = {}: the failure exponent must be > 0 (0 means 1)", f, row.real(f)));
  w.sn = row.real("SN");
  w.ss = row.real("SS");
  w.n = row.real("N") > 0 ? row.real("N") : 1.0;
  w.m = row.real("M") > 0 ? row.real("M") : 1.0;
}

/// A failure time of 0 (blank in LS-DYNA) is the default, never.
Real failure_time(const Fields& row, std::string_view field) {
  return row.real(field) > 0 ? row.real(field) : 1.0e20;
}

GlobalId next_weld_id(const Model& m) {
  GlobalId id = 0;
  for (const SpotWeld& w : m.spot_welds) id = std::max(id, w.id);
  return id + 1;
}

} // namespace

void apply_constrained_nodal_rigid_body(const Block& b, DeckBuilder& d) {
  for (const Fields& row : b.rows) {
    for (std::string_view f : {"DRFLAG", "RRFLAG"})
      if (row.id(f) != 0)
        fail(row.loc(f), fmt::format("{} = {}: releasing degrees of freedom of a nodal rigid "
                                     "body is not supported (must be 0)",
                                     f, row.id(f)));
    warn_nonzero(d, b, row, "CID", "local system for DRFLAG/RRFLAG not used");
    warn_nonzero(d, b, row, "PNODE", "the body's output node is not supported");
    warn_nonzero(d, b, row, "IPRT", "print flag not supported");
    NodalRigidBody r{row.id("PID"), row.id("NSID"), row.loc("NSID"), std::nullopt, {}, {}};
    if (b.has("INERTIA"))
      r.inertia = read_inertia_cards(row, fmt::format("nodal rigid body {}", r.pid), "NODEID");
    if (b.has("SPC")) {
      const Real cmo = row.real("CMO");
      if (cmo != 0 && cmo != 1)
        fail(row.loc("CMO"), fmt::format("nodal rigid body {}: CMO = {} is not supported (0: "
                                         "none, 1: global constraints; -1, local ones, is not)",
                                         r.pid, cmo));
      for (const char* f : {"CON1", "CON2"}) {
        const auto c = row.integer(f);
        if (c < 0 || c > 7)
          fail(row.loc(f), fmt::format("nodal rigid body {}: {} = {} must be 0..7", r.pid, f, c));
        if (cmo == 1) (f[3] == '1' ? r.fix_t : r.fix_r) = rigid_constraint_dofs(c);
      }
    }
    d.model.nodal_rigid_bodies.push_back(std::move(r));
  }
}

void apply_constrained_extra_nodes_node(const Block& b, DeckBuilder& d) {
  for (const Fields& row : b.rows) {
    warn_nonzero(d, b, row, "IFLAG", "not supported");
    d.model.extra_nodes.push_back({row.id("PID"), row.id("NID"), false, row.loc("NID")});
  }
}

void apply_constrained_extra_nodes_set(const Block& b, DeckBuilder& d) {
  for (const Fields& row : b.rows) {
    warn_nonzero(d, b, row, "IFLAG", "not supported");
    d.model.extra_nodes.push_back({row.id("PID"), row.id("NSID"), true, row.loc("NSID")});
  }
}

void apply_constrained_rigid_bodies(const Block& b, DeckBuilder& d) {
  for (const Fields& row : b.rows) {
    warn_nonzero(d, b, row, "IFLAG", "not supported");
    d.model.rigid_merges.push_back({row.id("PIDL"), row.id("PIDF"), row.loc("PIDF")});
  }
}

namespace {

void apply_joint(const Block& b, Joint::Kind kind, DeckBuilder& d) {
  for (const Fields& row : b.rows) {
    Joint j;
    j.kind = kind;
    j.loc = row.loc("N1");
    j.id = b.has("ID") && row.id("JID") > 0 ? row.id("JID")
                                            : static_cast<GlobalId>(d.model.joints.size() + 1);
    static constexpr std::string_view names[] = {"N1", "N2", "N3", "N4", "N5", "N6"};
    for (int k = 0; k < 6; ++k) {
      const GlobalId n = row.id(names[k]);
      if (k < 2 * j.pairs() && n <= 0)
        fail(row.loc(names[k]), fmt::format("joint {}: {} = {}: this joint needs nodes N1-N{}",
                                            j.id, names[k], n, 2 * j.pairs()));
      if (k < 2 * j.pairs()) j.nodes[static_cast<std::size_t>(k)] = n;
    }
    j.rps = row.real("RPS");
    if (j.rps < 0)
      fail(row.loc("RPS"), fmt::format("joint {}: RPS = {} must not be negative", j.id, j.rps));
    if (j.rps == 0) j.rps = 1;
    if (b.has("LOCAL") && row.id("RAID") != 0)
      note(d, b, row.loc("RAID"),
           fmt::format("joint {}: RAID = {}: joint forces in a local system are an output "
                       "(jntforc) parcae does not write (ignored)",
                       j.id, row.id("RAID")));
    if (b.has("FAILURE")) {
      j.tfail = row.real("TFAIL");
      if (!(j.tfail >= 0))
        fail(row.loc("TFAIL"), fmt::format("joint {}: TFAIL = {} must not be negative (0: the "
                                           "joint never fails)",
                                           j.id, j.tfail));
      for (std::string_view f : {"NXX", "NYY", "NZZ", "MXX", "MYY", "MZZ"})
        if (row.real(f) != 0)
          fail(row.loc(f), fmt::format("joint {}: {} = {}: failure by the joint's force and "
                                       "moment is not supported (TFAIL, failure by time, is)",
                                       j.id, f, row.real(f)));
    }
    const Real damp = row.real("DAMP");
    if (damp != 0 && damp != 1)
      note(d, b, row.loc("DAMP"),
           fmt::format("joint {}: DAMP = {}: joint damping is not supported (the penalty is "
                       "undamped)",
                       j.id, damp));
    d.model.joints.push_back(j);
  }
}

} // namespace

void apply_constrained_joint_spherical(const Block& b, DeckBuilder& d) {
  apply_joint(b, Joint::Kind::Spherical, d);
}
void apply_constrained_joint_revolute(const Block& b, DeckBuilder& d) {
  apply_joint(b, Joint::Kind::Revolute, d);
}
void apply_constrained_joint_cylindrical(const Block& b, DeckBuilder& d) {
  apply_joint(b, Joint::Kind::Cylindrical, d);
}
void apply_constrained_joint_translational(const Block& b, DeckBuilder& d) {
  apply_joint(b, Joint::Kind::Translational, d);
}
void apply_constrained_joint_universal(const Block& b, DeckBuilder& d) {
  apply_joint(b, Joint::Kind::Universal, d);
}
void apply_constrained_joint_planar(const Block& b, DeckBuilder& d) {
  apply_joint(b, Joint::Kind::Planar, d);
}

void apply_constrained_spotweld(const Block& b, DeckBuilder& d) {
  for (const Fields& row : b.rows) {
    if (row.real("EP") > 0 && row.real("EP") < 1e20)
      note(d, b, row.loc("EP"),
           fmt::format("EP = {}: plastic-strain failure of spotwelds is not supported (ignored)",
                       row.real("EP")));
    SpotWeld w;
    w.id = b.has("ID") ? row.id("WID") : next_weld_id(d.model);
    w.nodes = {row.id("N1"), row.id("N2")};
    if (w.nodes[0] == w.nodes[1])
      fail(row.loc("N2"), fmt::format("spotweld {}: N1 = N2 = {}", w.id, w.nodes[0]));
    weld_failure(row, w);
    w.tf = failure_time(row, "TF");
    w.loc = row.loc("N1");
    d.model.spot_welds.push_back(std::move(w));
  }
}

void apply_constrained_generalized_weld_spot(const Block& b, DeckBuilder& d) {
  for (const Fields& row : b.rows) {
    warn_nonzero(d, b, row, "EPSF", "plastic-strain failure of weld spots is not supported");
    for (std::string_view f : {"CID", "FILTER", "WINDOW", "NPR", "NPRT"})
      warn_nonzero(d, b, row, f, "not supported");
    SpotWeld w;
    w.generalized = true;
    w.id = b.has("ID") && row.id("WID") != 0 ? row.id("WID") : next_weld_id(d.model);
    w.nsid = row.id("NSID");
    weld_failure(row, w);
    w.tf = failure_time(row, "TFAIL");
    w.loc = row.loc("NSID");
    d.model.spot_welds.push_back(std::move(w));
  }
}

// ---------------------------------------------------------------------------------------------
// References, once the whole deck is read

void check_constraint_references(const Model& m) {
  auto node_set = [&](const SourceLoc& loc, std::string_view what,
                      GlobalId sid) -> const std::vector<GlobalId>& {
    const auto it = m.node_sets.find(sid);
    if (it == m.node_sets.end())
      fail(loc, fmt::format("{} references node set {}, which is not defined", what, sid));
    return it->second.members;
  };
  auto check_node = [&](const SourceLoc& loc, std::string_view what, GlobalId nid) {
    if (m.node_index(nid) == kInvalidLocal)
      fail(loc, fmt::format("{} references node {}, which is not defined", what, nid));
  };
  auto rigid_part = [&](const SourceLoc& loc, std::string_view what, GlobalId pid) {
    const Part* p = m.find_part(pid);
    if (!p) fail(loc, fmt::format("{} references part {}, which is not defined", what, pid));
    const Material* mat = m.find_material(p->mid);
    if (!mat || mat->kind != MaterialKind::Rigid)
      fail(loc, fmt::format("{}: part {} is not a rigid part (its material {} is not "
                            "*MAT_RIGID)",
                            what, pid, p->mid));
  };

  // Nodes of *MAT_RIGID parts: node index -> part id.
  std::unordered_map<LocalId, GlobalId> rigid_node_part;
  {
    std::unordered_set<GlobalId> rigid_parts;
    for (const Part& p : m.parts) {
      const Material* mat = m.find_material(p.mid);
      if (mat && mat->kind == MaterialKind::Rigid) rigid_parts.insert(p.id);
    }
    for (std::size_t e = 0; e < m.solids.size(); ++e)
      if (rigid_parts.count(m.solids.part[e]))
        for (LocalId n : m.solids.nodes[e]) rigid_node_part.emplace(n, m.solids.part[e]);
    for (std::size_t e = 0; e < m.shells.size(); ++e)
      if (rigid_parts.count(m.shells.part[e]))
        for (LocalId n : m.shells.nodes[e]) rigid_node_part.emplace(n, m.shells.part[e]);
  }
  // Node -> the constraint that claimed it first.
  std::unordered_map<LocalId, std::string> owner;
  auto claim = [&](const SourceLoc& loc, const std::string& what, GlobalId nid,
                   GlobalId extra_pid) {
    check_node(loc, what, nid);
    const LocalId n = m.node_index(nid);
    const auto rp = rigid_node_part.find(n);
    if (rp != rigid_node_part.end()) {
      if (extra_pid == rp->second) return; // already a node of that rigid part
      fail(loc, fmt::format("{}: node {} is also a node of rigid part {} (a node may be in one "
                            "rigid body only; use *CONSTRAINED_EXTRA_NODES or "
                            "*CONSTRAINED_RIGID_BODIES to join bodies)",
                            what, nid, rp->second));
    }
    const auto [it, fresh] = owner.emplace(n, what);
    if (!fresh)
      fail(loc, fmt::format("{}: node {} is already in {} (a node may be in one rigid "
                            "constraint only)",
                            what, nid, it->second));
  };

  for (const NodalRigidBody& r : m.nodal_rigid_bodies) {
    const std::string what = fmt::format("nodal rigid body {}", r.pid);
    const auto& nodes = node_set(r.loc, what, r.nsid);
    if (nodes.empty()) fail(r.loc, fmt::format("{}: node set {} is empty", what, r.nsid));
    for (GlobalId nid : nodes) claim(r.loc, what, nid, 0);
  }
  for (const SpotWeld& w : m.spot_welds) {
    const std::string what = fmt::format("{} {}", w.generalized ? "weld spot" : "spotweld", w.id);
    const std::vector<GlobalId> nodes = w.generalized ? node_set(w.loc, what, w.nsid) : w.nodes;
    if (nodes.size() < 2)
      fail(w.loc, fmt::format("{}: node set {} has fewer than two nodes", what, w.nsid));
    for (GlobalId nid : nodes) claim(w.loc, what, nid, 0);
  }
  for (const Joint& j : m.joints)
    for (GlobalId nid : j.nodes)
      if (nid != 0) check_node(j.loc, fmt::format("joint {}", j.id), nid);
  for (const ExtraNodes& x : m.extra_nodes) {
    const std::string what = fmt::format("extra nodes of rigid part {}", x.pid);
    rigid_part(x.loc, what, x.pid);
    const std::vector<GlobalId> nodes =
        x.is_set ? node_set(x.loc, what, x.id) : std::vector<GlobalId>{x.id};
    for (GlobalId nid : nodes) claim(x.loc, what, nid, x.pid);
  }
  // Merges: union-find over part ids; a follower whose root is already the lead's root is
  // merged into itself.
  std::map<GlobalId, GlobalId> parent;
  auto root = [&](GlobalId p) {
    while (parent.count(p) && parent[p] != p) p = parent[p];
    return p;
  };
  for (const RigidMerge& r : m.rigid_merges) {
    rigid_part(r.loc, "*CONSTRAINED_RIGID_BODIES PIDL", r.lead);
    rigid_part(r.loc, "*CONSTRAINED_RIGID_BODIES PIDF", r.follower);
    if (r.lead == r.follower)
      fail(r.loc, fmt::format("*CONSTRAINED_RIGID_BODIES: rigid part {} merged into itself "
                              "(PIDL = PIDF)",
                              r.lead));
    const GlobalId a = root(r.lead), f = root(r.follower);
    if (a == f)
      fail(r.loc, fmt::format("*CONSTRAINED_RIGID_BODIES: rigid part {} merged into itself "
                              "(part {} is already merged with part {})",
                              r.follower, r.follower, r.lead));
    parent[f] = a;
  }
}

void apply_deformable_to_rigid(const Block& b, DeckBuilder& d) {
  for (const Fields& row : b.rows) {
    const std::string ptype = to_upper(trim(row.text("PTYPE")));
    if (ptype != "PART" && ptype != "PSET")
      fail(row.loc("PTYPE"), fmt::format("PTYPE = {} must be PART or PSET", ptype));
    d.to_rigid.push_back({row.id("PID"), row.id("LRB"), ptype == "PSET", row.loc("PID")});
  }
}

} // namespace parcae::io
