// Apply functions: constraints, prescribed motion, initial velocities, loads, rigid walls.
// Referenced nodes, sets, parts and curves are checked in resolve_model (they may be defined
// later in the deck).
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "input/deck_apply.hpp"
#include "input/deck_builder.hpp"

namespace parcae::io {

namespace {

void require_zero(const Fields& row, std::string_view field, std::string_view what) {
  if (row.id(field) != 0)
    fail(row.loc(field),
         fmt::format("{} = {}: {} not supported (must be 0)", field, row.id(field), what));
}

std::array<Real, 3> vec3(const Fields& f, std::string_view a, std::string_view b,
                         std::string_view c) {
  return {f.real(a), f.real(b), f.real(c)};
}

/// Translations 1-3 and rotations 5-7 (4 and 8 need a *DEFINE_VECTOR).
int checked_dof(const Fields& row) {
  const int dof = row.integer("DOF");
  if (dof < 1 || dof > 7 || dof == 4)
    fail(row.loc("DOF"), fmt::format("DOF = {} is not supported (use 1-3 for x, y, z or 5-7 for "
                                     "rotations)",
                                     dof));
  return dof;
}

/// DOF of a prescribed motion: 1-3, 5-7, and 4 / -4 (translation along VID) on anything, 8
/// (rotation about VID, velocity or acceleration) on rigid parts.
int motion_dof(const Fields& row, MotionTarget target) {
  const int dof = row.integer("DOF");
  const int vad = row.integer("VAD");
  if (dof == 4 || dof == -4 || dof == 8) {
    if (row.id("VID") <= 0)
      fail(row.loc("VID"), fmt::format("DOF = {} needs a vector: VID = {} must name a "
                                       "*DEFINE_VECTOR",
                                       dof, row.id("VID")));
    if (dof == 8 && target != MotionTarget::Rigid)
      fail(row.loc("DOF"), "DOF = 8 (rotation about a vector) is supported for rigid parts only "
                           "(*BOUNDARY_PRESCRIBED_MOTION_RIGID)");
    if (dof == 8 && vad == 2)
      fail(row.loc("VAD"), "VAD = 2 (angle) with DOF = 8 is not supported (use 0, angular "
                           "velocity, or 1, angular acceleration)");
    return dof;
  }
  if (dof >= -11 && dof <= -9)
    fail(row.loc("DOF"), fmt::format("DOF = {} (rotation about an axis with radial motion "
                                     "permitted) is not supported (use {}: radial motion "
                                     "prescribed)",
                                     dof, -dof));
  if (dof >= 9 && dof <= 11) {
    if (target == MotionTarget::Rigid)
      fail(row.loc("DOF"), fmt::format("DOF = {} (rotation of nodes about an axis through OFFSET1, "
                                       "OFFSET2) is supported for nodes and node sets only",
                                       dof));
    return dof;
  }
  return checked_dof(row);
}

void add_spc(const Block& b, std::string_view target, bool is_set, DeckBuilder& d) {
  static constexpr std::string_view dofs[] = {"DOFX", "DOFY", "DOFZ", "DOFRX", "DOFRY", "DOFRZ"};
  for (const Fields& row : b.rows) {
    PendingSpc spc{is_set, row.id(target), {}, row.id("CID"), d.ref(row.loc(target))};
    for (int k = 0; k < 6; ++k) spc.dof[k] = row.id(dofs[k]) != 0;
    // A row that names nothing and constrains nothing (LS-PrePost writes an all-zero first row)
    // has no effect: skipped, with a note.
    if (spc.id == 0 && std::none_of(spc.dof.begin(), spc.dof.end(), [](bool f) { return f; })) {
      d.model.notes.push_back(
          {std::string(b.loc.card), row.loc(target), false,
           fmt::format("{} = 0 and no constrained dof: an empty row, skipped", target)});
      continue;
    }
    if (b.has("BIRTH_DEATH")) {
      spc.birth = row.real("BIRTH");
      spc.death = row.real("DEATH");
      spc.birth_loc = row.loc("BIRTH");
    }
    d.spcs.push_back(spc);
  }
}

void add_motion(const Block& b, MotionTarget target, std::string_view field, DeckBuilder& d) {
  for (const Fields& row : b.rows) {
    PrescribedMotion m;
    m.target = target;
    m.target_id = row.id(field);
    const int vad = row.integer("VAD");
    if (vad < 0 || vad > 2)
      fail(row.loc("VAD"), fmt::format("VAD = {} is not supported (0 velocity, 1 acceleration, 2 "
                                       "displacement)",
                                       vad));
    m.dof = motion_dof(row, target);
    m.vid = row.id("VID");
    m.vad = static_cast<MotionKind>(vad);
    m.lcid = row.id("LCID");
    m.sf = row.real("SF");
    m.death = row.real("DEATH") > 0 ? row.real("DEATH") : 1.0e28; // 0 (blank): never
    m.birth = row.real("BIRTH");
    m.offset1 = row.real("OFFSET1");
    m.offset2 = row.real("OFFSET2");
    m.loc = row.loc(field);
    d.model.motions.push_back(m);
  }
}

void add_nodal_load(const Block& b, bool is_set, std::string_view field, DeckBuilder& d) {
  for (const Fields& row : b.rows) {
    if (row.id("CID") != 0)
      d.nodal_load_cids.push_back({d.model.nodal_loads.size(), row.id("CID")});
    NodalLoad l;
    l.is_set = is_set;
    l.target_id = row.id(field);
    l.dof = checked_dof(row);
    l.lcid = row.id("LCID");
    l.sf = row.real("SF");
    l.loc = row.loc(field);
    d.model.nodal_loads.push_back(l);
  }
}

void add_body_load(const Block& b, int dir, DeckBuilder& d) {
  if (b.head.id("CID") != 0)
    d.body_load_cids.push_back({d.model.body_loads.size(), b.head.id("CID")});
  d.model.body_loads.push_back(
      {dir, b.head.id("LCID"), b.head.real("SF"), b.head.id("LCIDDR"), b.head.loc("LCID")});
}

} // namespace

void apply_spc_node(const Block& b, DeckBuilder& d) {
  add_spc(b, "NID", false, d);
}
void apply_spc_set(const Block& b, DeckBuilder& d) {
  add_spc(b, "NSID", true, d);
}

void apply_motion_node(const Block& b, DeckBuilder& d) {
  add_motion(b, MotionTarget::Node, "NID", d);
}
void apply_motion_set(const Block& b, DeckBuilder& d) {
  add_motion(b, MotionTarget::NodeSet, "NSID", d);
}
void apply_motion_rigid(const Block& b, DeckBuilder& d) {
  add_motion(b, MotionTarget::Rigid, "PID", d);
}

// ---------------------------------------------------------------------------------------------
// Initial velocities

void apply_initial_velocity(const Block& b, DeckBuilder& d) {
  const Fields& h = b.head;
  InitialVelocity v;
  v.box = h.id("BOXID");
  v.cid = h.id("ICID");
  v.target_id = h.id("NSID");
  v.target = v.target_id == 0 ? InitialVelocity::Target::All : InitialVelocity::Target::NodeSet;
  v.v = vec3(h, "VX", "VY", "VZ");
  v.omega_node = vec3(h, "VXR", "VYR", "VZR");
  v.exclude_set = h.id("NSIDEX");
  v.v_exclude = vec3(h, "VXE", "VYE", "VZE");
  v.omega_exclude = vec3(h, "VXRE", "VYRE", "VZRE");
  v.loc = h.loc("NSID");
  d.model.initial_velocities.push_back(v);
}

void apply_initial_velocity_node(const Block& b, DeckBuilder& d) {
  for (const Fields& row : b.rows) {
    InitialVelocity v;
    v.cid = row.id("ICID");
    v.target = InitialVelocity::Target::Node;
    v.target_id = row.id("NID");
    v.v = vec3(row, "VX", "VY", "VZ");
    v.omega_node = vec3(row, "VXR", "VYR", "VZR");
    v.loc = row.loc("NID");
    d.model.initial_velocities.push_back(v);
  }
}

void apply_initial_velocity_generation(const Block& b, DeckBuilder& d) {
  using Target = InitialVelocity::Target;
  for (const Fields& row : b.rows) {
    const int styp = row.integer("STYP");
    if (styp < 1 || styp > 3)
      fail(row.loc("STYP"), fmt::format("STYP = {} must be 1 (part set), 2 (part) or 3 (node "
                                        "set)",
                                        styp));
    InitialVelocity v;
    v.generation = true;
    v.cid = row.id("ICID");
    v.target_id = row.id("ID");
    v.target = v.target_id == 0
                   ? Target::All
                   : (styp == 1 ? Target::PartSet : (styp == 2 ? Target::Part : Target::NodeSet));
    v.omega = row.real("OMEGA");
    v.v = vec3(row, "VX", "VY", "VZ");
    v.center = vec3(row, "XC", "YC", "ZC");
    v.axis = vec3(row, "NX", "NY", "NZ");
    v.loc = row.loc("ID");
    if (v.omega != 0 && v.axis == std::array<Real, 3>{0, 0, 0})
      fail(row.loc("NX"),
           fmt::format("OMEGA = {} needs a rotation axis, but NX NY NZ are 0", v.omega));
    d.model.initial_velocities.push_back(v);
  }
}

// ---------------------------------------------------------------------------------------------
// Loads

void apply_load_node_point(const Block& b, DeckBuilder& d) {
  add_nodal_load(b, false, "NID", d);
}
void apply_load_node_set(const Block& b, DeckBuilder& d) {
  add_nodal_load(b, true, "NSID", d);
}
void apply_load_body_x(const Block& b, DeckBuilder& d) {
  add_body_load(b, 0, d);
}
void apply_load_body_y(const Block& b, DeckBuilder& d) {
  add_body_load(b, 1, d);
}
void apply_load_body_z(const Block& b, DeckBuilder& d) {
  add_body_load(b, 2, d);
}

// ---------------------------------------------------------------------------------------------
// Airbags

Airbag new_airbag(const Block& b, const DeckBuilder& d) {
  const Fields& h = b.head;
  Airbag a;
  a.id = static_cast<GlobalId>(d.model.airbags.size() + 1);
  for (const std::string& opt : b.options) // *AIRBAG_..._<n>: the id (older decks)
    if (!opt.empty() && opt.find_first_not_of("0123456789") == std::string::npos)
      a.id = std::stoll(opt);
  if (b.has("ID")) {
    if (h.id("ABID") != 0) a.id = h.id("ABID");
    a.title = h.text("HEADING");
  }
  a.loc = h.loc("SID");
  a.sid = h.id("SID");
  if (h.integer("SIDTYP") == 0)
    fail(h.loc("SIDTYP"), "SIDTYP = 0 (a segment set) is not supported: give the bag's shell "
                          "parts as a part set (SIDTYP = 1)");
  return a;
}

void apply_airbag_simple_pressure_volume(const Block& b, DeckBuilder& d) {
  const Fields& h = b.head;
  Airbag a = new_airbag(b, d);
  require_zero(h, "RBID", "airbags attached to rigid bodies are");
  if (h.real("VINI") != 0)
    fail(h.loc("VINI"), fmt::format("VINI = {}: an initial filled volume is not supported (must "
                                    "be 0)",
                                    h.real("VINI")));
  if (h.real("SPSF") != 0)
    fail(h.loc("SPSF"), fmt::format("SPSF = {}: stagnation pressure is not supported (must be 0)",
                                    h.real("SPSF")));
  for (const char* f : {"VSCA", "PSCA"})
    if (h.real(f) != 0 && h.real(f) != 1)
      fail(h.loc(f), fmt::format("{} = {} is not supported (1 is)", f, h.real(f)));
  a.mwd = h.real("MWD");
  if (a.mwd < 0) fail(h.loc("MWD"), fmt::format("MWD = {} must not be negative", a.mwd));
  a.cn = h.real("CN");
  a.beta = h.real("BETA") == 0 ? 1.0 : h.real("BETA");
  a.lcid = h.id("LCID");
  a.lciddr = h.id("LCIDDR");
  if (a.lcid == 0 && a.cn == 0)
    fail(h.loc("CN"), "CN = 0 and no LCID: the airbag would have no pressure");
  d.model.airbags.push_back(std::move(a));
}

// ---------------------------------------------------------------------------------------------
// Rigid walls

namespace {

/// Fields common to planar and cylindrical walls.
RigidWall new_wall(const Block& b, DeckBuilder& d) {
  const Fields& h = b.head;
  RigidWall w;
  w.boxid = h.id("BOXID");
  ++d.rigid_wall_count;
  w.id = b.has("ID") && h.id("RWID") != 0 ? h.id("RWID") : d.rigid_wall_count;
  if (b.has("ID")) w.title = h.text("HEADING");
  w.nsid = h.id("NSID");
  w.nsidex = h.id("NSIDEX");
  w.birth = h.real("BIRTH");
  w.death = h.real("DEATH") > 0 ? h.real("DEATH") : 1e20; // 0: never (LS-DYNA's default)
  w.tail = vec3(h, "XT", "YT", "ZT");
  w.head = vec3(h, "XH", "YH", "ZH");
  w.fric = h.real("FRIC");
  w.loc = h.loc("NSID");
  if (b.has("ORTHO")) {
    w.ortho = true;
    static constexpr std::string_view kF[] = {"SFRICA", "SFRICB", "DFRICA",
                                              "DFRICB", "DECAYA", "DECAYB"};
    for (std::size_t i = 0; i < 6; ++i) {
      w.ortho_fric[i] = h.real(kF[i]);
      if (w.ortho_fric[i] < 0)
        fail(h.loc(kF[i]), fmt::format("rigid wall {}: {} = {} must not be negative", w.id, kF[i],
                                       w.ortho_fric[i]));
    }
    w.ortho_node1 = h.id("NODE1");
    w.ortho_node2 = h.id("NODE2");
    w.ortho_dir = vec3(h, "D1", "D2", "D3");
    if ((w.ortho_node1 == 0 || w.ortho_node2 == 0) && w.ortho_dir == std::array<Real, 3>{0, 0, 0})
      fail(h.loc("NODE1"), fmt::format("rigid wall {}: _ORTHO needs its a direction: NODE1 and "
                                       "NODE2, or D1-D3",
                                       w.id));
    if (w.fric != 0 && !d.parameter_pass)
      d.model.notes.push_back({"*RIGIDWALL_PLANAR", h.loc("FRIC"), false,
                               fmt::format("rigid wall {}: FRIC = {} is replaced by the _ORTHO "
                                           "friction",
                                           w.id, w.fric)});
    w.fric = 0;
  }
  if (w.tail == w.head)
    fail(h.loc("XT"), fmt::format("rigid wall {}: head (XH, YH, ZH) equals tail (XT, YT, ZT), so "
                                  "the wall has no direction",
                                  w.id));
  d.claim_id("rigid wall", w.id, w.loc);
  if (b.has("MOTION")) {
    w.motion_lcid = h.id("LCID");
    w.motion_opt = h.integer("OPT");
    if (w.motion_lcid <= 0)
      fail(h.loc("LCID"),
           fmt::format("rigid wall {}: _MOTION needs a curve LCID (got {})", w.id, w.motion_lcid));
    if (w.motion_opt != 0 && w.motion_opt != 1)
      fail(h.loc("OPT"), fmt::format("rigid wall {}: OPT = {} must be 0 (LCID is the velocity) "
                                     "or 1 (the displacement)",
                                     w.id, w.motion_opt));
    const std::array<Real, 3> v = vec3(h, "VX", "VY", "VZ");
    const Real len = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (!(len > 0))
      fail(h.loc("VX"),
           fmt::format("rigid wall {}: the direction of motion (VX, VY, VZ) is zero", w.id));
    w.motion_dir = {v[0] / len, v[1] / len, v[2] / len};
  }
  return w;
}

/// A finite wall's edge l: from the tail towards (XHEV, YHEV, ZHEV), not along the normal.
void check_wall_edge(const Fields& h, const RigidWall& w) {
  std::array<Real, 3> lv{}, n{};
  for (int i = 0; i < 3; ++i) {
    lv[i] = w.edge_l[i] - w.tail[i];
    n[i] = w.head[i] - w.tail[i];
  }
  const Real ll = lv[0] * lv[0] + lv[1] * lv[1] + lv[2] * lv[2];
  const Real nn = n[0] * n[0] + n[1] * n[1] + n[2] * n[2];
  const Real ln = lv[0] * n[0] + lv[1] * n[1] + lv[2] * n[2];
  if (!(ll > 0) || !(ll - ln * ln / nn > 1e-24 * ll))
    fail(h.loc("XHEV"), fmt::format("rigid wall {}: the edge vector from the tail to (XHEV, YHEV, "
                                    "ZHEV) is zero or along the normal, so the wall's edges have "
                                    "no direction",
                                    w.id));
}

} // namespace

void apply_rigidwall_planar(const Block& b, DeckBuilder& d) {
  const Fields& h = b.head;
  RigidWall w = new_wall(b, d);
  w.shape = RigidWall::Shape::Plane;
  w.offset = h.real("OFFSET");
  w.wvel = h.real("WVEL");
  if ((w.finite = b.has("FINITE"))) {
    w.edge_l = vec3(h, "XHEV", "YHEV", "ZHEV");
    w.lenl = h.real("LENL");
    w.lenm = h.real("LENM");
    check_wall_edge(h, w);
  }
  if ((w.moving = b.has("MOVING"))) {
    w.mass = h.real("MASS");
    w.v0 = h.real("V0");
    if (!(w.mass > 0))
      fail(h.loc("MASS"), fmt::format("rigid wall {}: MASS = {} must be positive", w.id, w.mass));
  }
  if (b.has("FORCES")) {
    require_zero(h, "SOFT", "a soft release of the wall force is");
    if (h.id("SSID") != 0 || h.id("N1") != 0 || h.id("N2") != 0 || h.id("N3") != 0 ||
        h.id("N4") != 0)
      d.model.notes.push_back({b.loc.card, h.loc("SSID"), false,
                               fmt::format("rigid wall {}: the force-distribution output of SSID "
                                           "and N1-N4 is not written (the wall's total force is "
                                           "in rwforc)",
                                           w.id)});
  }
  d.model.rigid_walls.push_back(w);
}

namespace {

/// A flat wall's rectangle, or a prism's (with its depth LENP).
void apply_rigidwall_box(const Block& b, DeckBuilder& d, bool prism) {
  const Fields& h = b.head;
  RigidWall w = new_wall(b, d);
  w.shape = prism ? RigidWall::Shape::Prism : RigidWall::Shape::Plane;
  w.finite = true;
  w.edge_l = vec3(h, "XHEV", "YHEV", "ZHEV");
  w.lenl = h.real("LENL");
  w.lenm = h.real("LENM");
  if (prism) w.lenp = h.real("LENP");
  check_wall_edge(h, w);
  for (const char* f : {"LENL", "LENM", "LENP"})
    if ((prism || f[3] != 'P') && !(h.real(f) > 0))
      fail(h.loc(f), fmt::format("rigid wall {}: {} = {} must be positive{}", w.id, f, h.real(f),
                                 prism ? "" : " (an infinite plane is *RIGIDWALL_PLANAR)"));
  d.model.rigid_walls.push_back(w);
}

} // namespace

void apply_rigidwall_flat(const Block& b, DeckBuilder& d) {
  apply_rigidwall_box(b, d, false);
}

void apply_rigidwall_prism(const Block& b, DeckBuilder& d) {
  apply_rigidwall_box(b, d, true);
}

void apply_rigidwall_cylinder(const Block& b, DeckBuilder& d) {
  const Fields& h = b.head;
  RigidWall w = new_wall(b, d);
  w.shape = RigidWall::Shape::Cylinder;
  w.radius = h.real("RADCYL");
  w.length = h.real("LENCYL");
  require_zero(h, "NSEGS", "cylinder subsections are");
  if (!(w.radius > 0))
    fail(h.loc("RADCYL"),
         fmt::format("rigid wall {}: RADCYL = {} must be positive", w.id, w.radius));
  d.model.rigid_walls.push_back(w);
}

// ---------------------------------------------------------------------------------------------
// Directions in local systems

const CoordinateSystem& referenced_system(const Model& m, const SourceLoc& loc,
                                          std::string_view what, GlobalId cid) {
  const auto it = m.coordinate_systems.find(cid);
  if (it == m.coordinate_systems.end())
    fail(loc,
         fmt::format("{} references coordinate system CID = {}, which is not defined", what, cid));
  return it->second;
}

/// Loads given in a local system (CID): each becomes loads along the global axes with the
/// local axis' components (the same vector, so the same force).
void resolve_local_loads(DeckBuilder& d) {
  Model& m = d.model;
  for (const LocalLoad& ll : d.nodal_load_cids) {
    NodalLoad& l = m.nodal_loads[ll.index];
    const CoordinateSystem& cs = referenced_system(m, l.loc, "nodal load", ll.cid);
    const int base = l.dof <= 3 ? 1 : 5;
    const auto& axis = cs.axes[static_cast<std::size_t>(l.dof - base)];
    const NodalLoad local = l;
    bool first = true;
    for (int i = 0; i < 3; ++i) {
      if (axis[i] == 0) continue;
      NodalLoad g = local;
      g.dof = base + i;
      g.sf = local.sf * axis[i];
      if (first)
        l = g;
      else
        m.nodal_loads.push_back(g);
      first = false;
    }
  }
  for (const LocalLoad& ll : d.body_load_cids) {
    BodyLoad& l = m.body_loads[ll.index];
    const CoordinateSystem& cs = referenced_system(m, l.loc, "body load", ll.cid);
    const auto& axis = cs.axes[static_cast<std::size_t>(l.dir)];
    const BodyLoad local = l;
    bool first = true;
    for (int i = 0; i < 3; ++i) {
      if (axis[i] == 0) continue;
      BodyLoad g = local;
      g.dir = i;
      g.sf = local.sf * axis[i];
      if (first)
        l = g;
      else
        m.body_loads.push_back(g);
      first = false;
    }
  }
}

} // namespace parcae::io
