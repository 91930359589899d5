// After the whole deck is read: resolve element connectivity and sets, check every cross
// reference, expand constraints. Each problem is an InputError at the line that refers to the
// missing thing.
#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <unordered_set>

#include <functional>
#include <set>

#include <fmt/format.h>

#include "input/deck_apply.hpp"
#include "input/deck_builder.hpp"
#include "input/deck_resolve_sets.hpp"
#include "materials/catalogue.hpp"

namespace parcae::io {

namespace {

class Resolver {
public:
  explicit Resolver(DeckBuilder& d) : d_(d), m_(d.model), node_(d.model.nodes) {}

  void run() {
    m_.index_nodes();
    resolve_coordinate_systems(m_);
    index_parts();
    check_parts();
    resolve_solids();
    resolve_shells();
    resolve_beams();
    resolve_sets(d_, node_, parts_);
    if (resolve_node_transforms(d_)) resolve_coordinate_systems(m_); // systems by moved nodes
    switch_parts_to_rigid();
    check_materials();
    resolve_spcs();
    resolve_motion_vectors();
    check_motions();
    check_initial_velocities();
    resolve_local_loads(d_);
    check_loads();
    check_airbags();
    note_unused_implicit_controls(d_);
    for (const KeywordFile& f : keyword_files()) // pressures, rigid-body loads, ...
      if (f.resolve) f.resolve(d_);
    check_walls();
    check_constraint_references(m_);
    check_contacts(m_);
    check_history_references(m_);
    finish_controls();
    note_empty_parts();
    check_formulations();
    check_termination();
  }

private:
  DeckBuilder& d_;
  Model& m_;
  NodeLookup node_;
  std::unordered_map<GlobalId, const Part*> parts_;
  std::unordered_map<GlobalId, const Section*> sections_;
  std::unordered_set<GlobalId> used_parts_;
  mutable std::unordered_set<GlobalId> elform16_noted_;

  bool has_curve(GlobalId id) const { return d_.is_curve(id); }
  bool has_node_set(GlobalId id) const { return m_.node_sets.count(id) != 0; }
  bool has_part_set(GlobalId id) const { return m_.part_sets.count(id) != 0; }

  void check_curve(const SourceLoc& loc, std::string_view what, GlobalId id, GlobalId lcid) const {
    if (lcid != 0 && m_.find_table(lcid) != nullptr)
      fail(loc,
           fmt::format("{} {}: {} is a *DEFINE_TABLE; a curve is needed here", what, id, lcid));
    if (lcid != 0 && !has_curve(lcid)) missing(loc, what, id, "curve", lcid);
  }

  void index_parts() {
    for (const Part& p : m_.parts) parts_.emplace(p.id, &p);
    for (const Section& s : m_.sections) sections_.emplace(s.id, &s);
  }

  /// Unsupported materials no part uses: a warning each (LS-DYNA ignores unused materials);
  /// *MAT_ADD_EROSION cards of them go with them. A supported material with the same id is a
  /// duplicate.
  void note_unused_unsupported_materials() const {
    for (const auto& [mid, u] : d_.unsupported_materials) {
      if (const SrcRef* other = d_.defined("material", mid))
        fail(u.loc, fmt::format("duplicate material id {} (also defined at {})", mid,
                                d_.loc(*other).str()));
      m_.notes.push_back({u.keyword, u.loc, false,
                          fmt::format("material {}: {} is not supported by parcae, and no part "
                                      "uses it: ignored",
                                      mid, u.keyword)});
    }
    auto& ae = m_.add_erosions;
    ae.erase(std::remove_if(ae.begin(), ae.end(),
                            [&](const MatAddErosion& a) {
                              return d_.unsupported_materials.count(a.mid) != 0;
                            }),
             ae.end());
  }

  void check_parts() const {
    note_unused_unsupported_materials();
    for (const Part& p : m_.parts) {
      if (!sections_.count(p.secid)) missing(p.loc, "part", p.id, "section", p.secid);
      if (!d_.defined("material", p.mid)) {
        if (const auto u = d_.unsupported_materials.find(p.mid);
            u != d_.unsupported_materials.end())
          fail(p.loc,
               fmt::format("part {} uses material {}, a {} ({}:{}), which parcae does not "
                           "support",
                           p.id, p.mid, u->second.keyword, u->second.loc.file, u->second.loc.line));
        missing(p.loc, "part", p.id, "material", p.mid);
      }
      if (p.hgid != 0 && !d_.defined("hourglass", p.hgid))
        missing(p.loc, "part", p.id, "hourglass", p.hgid);
      const Material* mat = m_.find_material(p.mid);
      const auto sec = sections_.find(p.secid);
      check_part_eos(p, mat, sec != sections_.end() ? sec->second : nullptr);
    }
  }

  /// *PART EOSID: required by (and only allowed with) the hydrodynamic materials, which are
  /// solids only.
  void check_part_eos(const Part& p, const Material* mat, const Section* sec) const {
    if (mat == nullptr) return;
    const bool hydro = material_law(mat->kind).hydrodynamic;
    if (p.eosid != 0 && !d_.defined("eos", p.eosid))
      missing(p.loc, "part", p.id, "equation of state", p.eosid);
    // *MAT_NULL beams: mass only (YM, PR for the contact stiffness), no equation of state
    const bool null_beam =
        mat->kind == MaterialKind::Null && sec != nullptr && sec->kind == SectionKind::Beam;
    // laws with a plane-stress form (*MAT_JOHNSON_COOK) run shells without an EOS
    const bool shell =
        sec != nullptr && (sec->kind == SectionKind::Shell || sec->kind == SectionKind::TShell);
    const bool plane_stress = shell && material_law(mat->kind).update_shell != nullptr;
    if (hydro && p.eosid == 0 && !null_beam && !plane_stress)
      fail(p.loc, fmt::format("part {}: material {} needs an equation of state: give EOSID", p.id,
                              mat->id));
    if (!hydro && p.eosid != 0)
      fail(p.loc, fmt::format("part {}: EOSID = {}: equations of state apply to *MAT_NULL, "
                              "*MAT_ELASTIC_PLASTIC_HYDRO and *MAT_JOHNSON_COOK only (material {})",
                              p.id, p.eosid, mat->id));
    // beams and trusses do not erode: a material with its own failure criteria is refused there
    const MaterialLaw& law = material_law(mat->kind);
    if (sec != nullptr && sec->kind == SectionKind::Beam && law.may_fail != nullptr &&
        law.may_fail(*mat))
      fail(mat->loc, fmt::format("{} {}: its failure criteria are set, and beam elements (part "
                                 "{}) do not erode in parcae; failure of spot welds is supported "
                                 "on solid welds",
                                 law.card, mat->id, p.id));
    if (hydro && shell && !plane_stress)
      fail(p.loc, fmt::format("part {}: material {} (with an equation of state) is supported for "
                              "solids only, and section {} is a shell section",
                              p.id, mat->id, p.secid));
  }

  /// The part of an element, checking that its section is of the element's kind.
  const Part& element_part(const SourceLoc& loc, std::string_view what, GlobalId eid, GlobalId pid,
                           SectionKind kind) {
    const auto it = parts_.find(pid);
    if (it == parts_.end()) missing(loc, what, eid, "part", pid);
    const Section& s = *sections_.at(it->second->secid);
    if (s.kind != kind)
      fail(loc, fmt::format("{} {} is in part {}, whose section {} is a {} section", what, eid, pid,
                            s.id, section_kind_name(s.kind)));
    used_parts_.insert(pid);
    return *it->second;
  }

  template <std::size_t N>
  std::array<LocalId, N> local_nodes(const SourceLoc& loc, std::string_view what, GlobalId eid,
                                     const std::array<GlobalId, N>& nodes) const {
    std::array<LocalId, N> out{};
    for (std::size_t k = 0; k < N; ++k) {
      out[k] = node_(nodes[k]);
      if (out[k] == kInvalidLocal) missing(loc, what, eid, "node", nodes[k]);
    }
    return out;
  }

  void resolve_solids() {
    SolidTable& t = m_.solids;
    for (const PendingSolid& e : d_.solids) {
      const SourceLoc loc = d_.loc(e.src, e.tshell ? "*ELEMENT_TSHELL" : "*ELEMENT_SOLID");
      const std::string_view what = e.tshell ? "thick shell element" : "solid element";
      element_part(loc, what, e.id, e.pid, e.tshell ? SectionKind::TShell : SectionKind::Solid);
      t.id.push_back(e.id);
      t.part.push_back(e.pid);
      t.nodes.push_back(local_nodes(loc, what, e.id, e.nodes));
      t.line.push_back(e.src.line);
    }
  }

  void resolve_shells() {
    ShellTable& t = m_.shells;
    for (const PendingShell& e : d_.shells) {
      const SourceLoc loc = d_.loc(e.src, "*ELEMENT_SHELL");
      const Part& p = element_part(loc, "shell element", e.id, e.pid, SectionKind::Shell);
      const Section& s = *sections_.at(p.secid);
      const bool nodal =
          std::any_of(e.thickness.begin(), e.thickness.end(), [](Real v) { return v > 0; });
      const bool section_t = std::any_of(s.t.begin(), s.t.end(), [](Real v) { return v > 0; });
      if (!nodal && !section_t && !is_2d_solid(s)) // 2-D solids need no T1
        fail(s.loc, fmt::format("section {}: zero shell thickness (T1 = 0) and shell element {} of "
                                "part {} has no nodal thickness",
                                s.id, e.id, p.id));
      t.id.push_back(e.id);
      t.part.push_back(e.pid);
      t.nodes.push_back(local_nodes(loc, "shell element", e.id, e.nodes));
      t.thickness.push_back(e.thickness);
      t.line.push_back(e.src.line);
      t.layup.push_back(e.layup);
    }
  }

  void resolve_beams() {
    BeamTable& t = m_.beams;
    for (const PendingBeam& e : d_.beams) {
      const SourceLoc loc = d_.loc(e.src, e.discrete ? "*ELEMENT_DISCRETE" : "*ELEMENT_BEAM");
      const Part& part =
          e.discrete ? element_part(loc, "discrete element", e.id, e.pid, SectionKind::Discrete)
                     : element_part(loc, "beam element", e.id, e.pid, SectionKind::Beam);
      const int elform = sections_.at(part.secid)->elform;
      if (!e.unsupported_field.empty() && (elform == 1 || elform == 9))
        fail(loc, fmt::format("beam element {}: {} is not supported for integrated beams "
                              "(ELFORM {})",
                              e.id, e.unsupported_field, elform));
      t.id.push_back(e.id);
      t.part.push_back(e.pid);
      t.nodes.push_back(local_nodes(loc, "beam element", e.id, e.nodes));
      LocalId n3 = kInvalidLocal;
      if (e.n3 != 0) {
        n3 = node_(e.n3);
        if (n3 == kInvalidLocal) missing(loc, "beam element", e.id, "node", e.n3);
      }
      t.n3.push_back(n3);
      t.orientation.push_back(e.orientation);
      t.area.push_back(e.area);
      t.offset.push_back(e.offset);
      t.line.push_back(e.src.line);
    }
  }

  // --- materials, constraints, loads ---

  void check_materials() {
    for (const Material& mat : m_.materials) {
      // LCSS may be a table (*MAT_024); the law's prepare says whether it takes one
      if (m_.find_table(mat.lcss) == nullptr) check_curve(mat.loc, "material", mat.id, mat.lcss);
      check_curve(mat.loc, "material", mat.id, mat.lcsr);
    }
    for (Hourglass& h : m_.hourglass)
      if (h.ihq == 0) h.ihq = m_.control.ihq;
  }

  static void add_dofs(std::map<LocalId, std::array<bool, 6>>& out, LocalId n,
                       const std::array<bool, 6>& dof) {
    auto& target = out[n];
    for (int k = 0; k < 6; ++k) target[k] = target[k] || dof[k];
  }

  /// LS-DYNA constraint code: 1 x, 2 y, 3 z, 4 x+y, 5 y+z, 6 z+x, 7 all.
  static std::array<bool, 3> code_dofs(int code) {
    static constexpr std::array<std::array<bool, 3>, 8> table{
        {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 0}, {0, 1, 1}, {1, 0, 1}, {1, 1, 1}}};
    return table[static_cast<std::size_t>(code)];
  }

  void resolve_spcs() {
    std::map<LocalId, std::array<bool, 6>> merged;
    for (std::size_t n = 0; n < m_.nodes.size(); ++n) {
      const auto t = code_dofs(m_.nodes.tc[n]), r = code_dofs(m_.nodes.rc[n]);
      const std::array<bool, 6> dof{t[0], t[1], t[2], r[0], r[1], r[2]};
      if (std::find(dof.begin(), dof.end(), true) != dof.end())
        add_dofs(merged, static_cast<LocalId>(n), dof);
    }
    std::vector<Spc> skew;
    for (const PendingSpc& s : d_.spcs) {
      const SourceLoc loc = d_.loc(s.src, s.is_set ? "*BOUNDARY_SPC_SET" : "*BOUNDARY_SPC_NODE");
      if (s.birth > 0 || s.death < m_.control.endtim)
        fail(s.birth_loc, fmt::format("BIRTH = {}, DEATH = {}: a constraint that starts or ends "
                                      "inside the run (ENDTIM = {}) is not supported (only "
                                      "BIRTH <= 0 and DEATH >= ENDTIM)",
                                      s.birth, s.death, m_.control.endtim));
      std::array<bool, 6> dof = s.dof;
      bool is_skew = false;
      std::array<std::array<Real, 3>, 3> axes{};
      if (s.cid != 0) {
        const CoordinateSystem& cs = referenced_system(m_, loc, "constraint", s.cid);
        axes = cs.axes;
        // Local axes along global ones (in any order and sense): the same constraint in global
        // dofs; otherwise a skew constraint (the solver removes the velocity along each fixed
        // local axis).
        std::array<int, 3> along{-1, -1, -1};
        for (int a = 0; a < 3; ++a)
          for (int i = 0; i < 3; ++i)
            if (std::abs(std::abs(axes[a][i]) - 1) < 1e-12) along[a] = i;
        is_skew = std::find(along.begin(), along.end(), -1) != along.end();
        if (!is_skew) {
          dof = {};
          for (int a = 0; a < 3; ++a) {
            dof[along[a]] = dof[along[a]] || s.dof[a];
            dof[3 + along[a]] = dof[3 + along[a]] || s.dof[3 + a];
          }
        }
      }
      for (GlobalId nid : target_nodes(loc, "constraint on", s.is_set, s.id)) {
        if (is_skew)
          skew.push_back({node_(nid), dof, true, axes});
        else
          add_dofs(merged, node_(nid), dof);
      }
    }
    for (const auto& [node, dof] : merged) m_.spcs.push_back({node, dof});
    m_.spcs.insert(m_.spcs.end(), skew.begin(), skew.end());
  }

  /// The node ids of a node or node set reference, checking that it exists.
  std::vector<GlobalId> target_nodes(const SourceLoc& loc, std::string_view what, bool is_set,
                                     GlobalId id) const {
    if (is_set) {
      if (!has_node_set(id))
        fail(loc, fmt::format("{} node set {}: node set {} is not defined", what, id, id));
      return m_.node_sets.at(id).members;
    }
    if (node_(id) == kInvalidLocal)
      fail(loc, fmt::format("{} node {}: node {} is not defined", what, id, id));
    return {id};
  }

  /// The directions of DOF 4, -4, 8 motions (*DEFINE_VECTOR VID).
  void resolve_motion_vectors() {
    for (PrescribedMotion& p : m_.motions)
      if (p.dof == 4 || p.dof == -4 || p.dof == 8)
        p.dir = vector_direction(m_, p.vid, p.loc, fmt::format("prescribed motion DOF {}", p.dof));
  }

  void check_motions() const {
    for (const PrescribedMotion& p : m_.motions) {
      if (p.target == MotionTarget::Rigid)
        check_rigid_part(p);
      else
        target_nodes(p.loc, "prescribed motion of", p.target == MotionTarget::NodeSet, p.target_id);
      if (m_.find_table(p.lcid) != nullptr)
        fail(p.loc, fmt::format("prescribed motion: LCID = {} is a *DEFINE_TABLE; a curve is "
                                "needed here",
                                p.lcid));
      if (!has_curve(p.lcid))
        fail(p.loc, fmt::format("prescribed motion references curve LCID = {}, which is not "
                                "defined",
                                p.lcid));
    }
  }

  void check_rigid_part(const PrescribedMotion& p) const {
    const auto it = parts_.find(p.target_id);
    if (it == parts_.end())
      fail(p.loc, fmt::format("prescribed motion of rigid part {}: part {} is not defined",
                              p.target_id, p.target_id));
    const Material* mat = m_.find_material(it->second->mid);
    if (mat && mat->kind != MaterialKind::Rigid)
      fail(p.loc, fmt::format("prescribed motion of rigid part {}: material {} of part {} is not "
                              "*MAT_RIGID",
                              p.target_id, mat->id, p.target_id));
  }

  void check_initial_velocities() {
    using Target = InitialVelocity::Target;
    for (InitialVelocity& v : m_.initial_velocities) {
      if (v.box != 0) referenced_box(m_, v.box, v.loc, "initial velocity of", v.target_id);
      if (v.cid != 0) {
        const auto it = m_.coordinate_systems.find(v.cid);
        if (it == m_.coordinate_systems.end())
          fail(v.loc, fmt::format("initial velocity references coordinate system ICID = {}, "
                                  "which is not defined",
                                  v.cid));
        // Velocities and the rotation axis are given in the local frame; centres stay global.
        v.v = it->second.to_global(v.v);
        v.omega_node = it->second.to_global(v.omega_node);
        v.v_exclude = it->second.to_global(v.v_exclude);
        v.omega_exclude = it->second.to_global(v.omega_exclude);
        v.axis = it->second.to_global(v.axis);
        v.cid = 0;
      }
      const GlobalId id = v.target_id;
      const bool ok = v.target == Target::All ||
                      (v.target == Target::Node && node_(id) != kInvalidLocal) ||
                      (v.target == Target::NodeSet && has_node_set(id)) ||
                      (v.target == Target::Part && parts_.count(id)) ||
                      (v.target == Target::PartSet && has_part_set(id));
      static constexpr std::string_view names[] = {"node", "node set", "part", "part set", ""};
      if (!ok)
        fail(v.loc, fmt::format("initial velocity references {} {}, which is not defined",
                                names[static_cast<int>(v.target)], id));
      if (v.exclude_set != 0 && !has_node_set(v.exclude_set))
        fail(v.loc, fmt::format("initial velocity references node set NSIDEX = {}, which is not "
                                "defined",
                                v.exclude_set));
    }
  }

  void check_loads() const {
    for (const NodalLoad& l : m_.nodal_loads) {
      target_nodes(l.loc, "nodal load on", l.is_set, l.target_id);
      if (!has_curve(l.lcid))
        fail(l.loc,
             fmt::format("nodal load references curve LCID = {}, which is not defined", l.lcid));
    }
    for (const BodyLoad& l : m_.body_loads) {
      if (!has_curve(l.lcid))
        fail(l.loc,
             fmt::format("body load references curve LCID = {}, which is not defined", l.lcid));
      check_curve(l.loc, "body load with LCIDDR", l.lcid, l.lciddr);
    }
  }

  /// Airbags: the part set exists and holds shell parts only; the curves exist.
  void check_airbags() const {
    for (const Airbag& a : m_.airbags) {
      const auto set = m_.part_sets.find(a.sid);
      if (set == m_.part_sets.end()) missing(a.loc, "airbag", a.id, "part set", a.sid);
      for (GlobalId pid : set->second.members) {
        const auto part = parts_.find(pid);
        if (part == parts_.end()) missing(a.loc, "airbag", a.id, "part", pid);
        const auto sec = sections_.find(part->second->secid);
        if (sec != sections_.end() && sec->second->kind != SectionKind::Shell)
          fail(a.loc, fmt::format("airbag {}: part {} of part set {} is not a shell part (the "
                                  "bag's surface is made of shells)",
                                  a.id, pid, a.sid));
      }
      check_curve(a.loc, "airbag", a.id, a.lcid);
      check_curve(a.loc, "airbag", a.id, a.lciddr);
      check_curve(a.loc, "airbag (inflator mass rate)", a.id, a.lcmass);
      if (a.cn < 0) check_curve(a.loc, "airbag (CN < 0)", a.id, static_cast<GlobalId>(-a.cn));
    }
  }

  void check_walls() const {
    for (const RigidWall& w : m_.rigid_walls) {
      for (GlobalId sid : {w.nsid, w.nsidex})
        if (sid != 0 && !has_node_set(sid)) missing(w.loc, "rigid wall", w.id, "node set", sid);
      if (w.boxid != 0) referenced_box(m_, w.boxid, w.loc, "rigid wall", w.id);
      check_curve(w.loc, "rigid wall", w.id, w.motion_lcid);
    }
  }

  void finish_controls() {
    Controls& c = m_.control;
    if (c.lctm != 0 && !has_curve(c.lctm))
      fail(d_.timestep_loc,
           fmt::format("*CONTROL_TIMESTEP LCTM = {} is not a defined curve", c.lctm));
    if (d_.d3plot_npltc > 0 && c.endtim > 0) c.d3plot_dt = c.endtim / d_.d3plot_npltc;
  }

  /// *DEFORMABLE_TO_RIGID: each part gets a rigid copy of its material (a new material id).
  void switch_parts_to_rigid() {
    GlobalId next = 0;
    for (const Material& mat : m_.materials) next = std::max(next, mat.id);
    for (const PendingDeformableToRigid& r : d_.to_rigid) {
      std::vector<GlobalId> pids{r.id};
      if (r.is_set) {
        const auto it = m_.part_sets.find(r.id);
        if (it == m_.part_sets.end())
          missing(r.loc, "*DEFORMABLE_TO_RIGID", r.id, "part set", r.id);
        pids = it->second.members;
      }
      for (GlobalId pid : pids) {
        auto part = std::find_if(m_.parts.begin(), m_.parts.end(),
                                 [&](const Part& p) { return p.id == pid; });
        if (part == m_.parts.end()) missing(r.loc, "*DEFORMABLE_TO_RIGID", r.id, "part", pid);
        const Material* mat = m_.find_material(part->mid);
        if (!mat) missing(part->loc, "part", pid, "material", part->mid);
        if (mat->kind != MaterialKind::Rigid) {
          Material rigid;
          rigid.id = ++next;
          rigid.kind = MaterialKind::Rigid;
          rigid.title = fmt::format("rigid copy of material {} (*DEFORMABLE_TO_RIGID)", mat->id);
          rigid.ro = mat->ro;
          rigid.e = mat->e;
          rigid.pr = mat->pr;
          rigid.loc = r.loc;
          part->mid = rigid.id;
          m_.materials.push_back(rigid);
        }
        if (r.lead != 0 && r.lead != pid) m_.rigid_merges.push_back({r.lead, pid, r.loc});
      }
    }
  }

  /// ELFORM 10 parts hold four-node tetrahedra only (N1-N4 distinct, N5-N8 = N4).
  void check_tetrahedra(const Part& p) const {
    const SolidTable& t = m_.solids;
    for (std::size_t e = 0; e < t.size(); ++e) {
      if (t.part[e] != p.id) continue;
      const auto& n = t.nodes[e];
      const bool tail = n[4] == n[3] && n[5] == n[3] && n[6] == n[3] && n[7] == n[3];
      const bool distinct = n[0] != n[1] && n[0] != n[2] && n[0] != n[3] && n[1] != n[2] &&
                            n[1] != n[3] && n[2] != n[3];
      if (!tail || !distinct)
        fail(d_.loc(d_.solids.at(e).src, "*ELEMENT_SOLID"),
             fmt::format("solid element {} of part {} (ELFORM 10, tetrahedra) is not a "
                         "four-node tetrahedron: give N1-N4 (N5-N8 blank or equal to N4)",
                         t.id[e], p.id));
    }
  }

  /// Element formulations parcae has, for the parts that have elements and are not rigid (the
  /// solver's own check would only say so when the run starts).
  void check_formulations() const {
    for (const Part& p : m_.parts) {
      if (!used_parts_.count(p.id)) continue;
      const Section& s = *sections_.at(p.secid);
      // Beams: rigid ones too (their mass comes from the truss area A or the section).
      if (s.kind == SectionKind::Beam && s.elform != 3 && s.elform != 1 && s.elform != 9)
        fail(s.elform_loc, beam_formulation_message(s, p.id));
      const Material* mat = m_.find_material(p.mid);
      if (mat && mat->kind == MaterialKind::Rigid) continue;
      if (m_.control.implicit.imflag == 1) {
        check_implicit_formulation(p, s);
        continue;
      }
      if (s.kind == SectionKind::Solid && fully_integrated_hexahedron(s.elform))
        note_fully_integrated_solid(s, p);
      else if (s.kind == SectionKind::Solid && s.elform != 0 && s.elform != 1 && s.elform != 10)
        fail(s.loc, fmt::format("*SECTION_SOLID {} (part {}): ELFORM {} is not supported: parcae "
                                "has the one-point hexahedron (ELFORM 1; tetrahedra and wedges "
                                "as degenerate hexahedra; ELFORM 2, -1, -2 and 3 run as 1) and the "
                                "constant-strain tetrahedron (ELFORM 10); ten-node and "
                                "nodal-pressure tetrahedra (ELFORM 13, 16, 17) are not available",
                                s.id, p.id, s.elform));
      if (s.kind == SectionKind::Solid && s.elform == 10) check_tetrahedra(p);
      if (s.kind == SectionKind::TShell) check_thick_shell(s, p);
      if (s.kind == SectionKind::Shell && (s.elform == 16 || s.elform == 9))
        note_substituted_shell(s, p);
      else if (s.kind == SectionKind::Shell && s.elform != 0 && s.elform != 2 && s.elform != 5 &&
               s.elform != 13 && s.elform != 15)
        fail(s.loc, fmt::format("*SECTION_SHELL {} (part {}): ELFORM {} is not supported: parcae "
                                "has the Belytschko-Tsay shell (ELFORM 2, and 0; ELFORM 16 runs "
                                "as 2), its membrane (ELFORM 5; 9 runs as 5) and the 2-D solids "
                                "ELFORM 13 (plane strain) and 15 "
                                "(axisymmetric, volume weighted)",
                                s.id, p.id, s.elform));
    }
  }

  /// *SECTION_TSHELL: ELFORM 1 (2 runs as 1, with a note); a law with a shell form and no
  /// material axes.
  void check_thick_shell(const Section& s, const Part& p) const {
    if (s.elform == 2)
      m_.notes.push_back({"*SECTION_TSHELL", s.elform_loc, false,
                          fmt::format("section {} (part {}): thick shell ELFORM 2 (fully "
                                      "integrated in the plane) runs as ELFORM 1 (one point, "
                                      "in-plane hourglass control)",
                                      s.id, p.id)});
    else if (s.elform != 1 && s.elform != 0)
      fail(s.elform_loc, fmt::format("*SECTION_TSHELL {} (part {}): ELFORM {} is not supported: "
                                     "parcae has thick shell ELFORM 1 (plane stress, one point "
                                     "in the plane; 2 runs as 1)",
                                     s.id, p.id, s.elform));
    const Material* mat = m_.find_material(p.mid);
    if (mat == nullptr) return;
    const MaterialLaw& law = material_law(mat->kind);
    if (law.update_shell == nullptr || law.oriented || law.shell_state > 3 ||
        law.discrete_force != nullptr)
      fail(p.loc, fmt::format("part {}: {} {} on thick shells is not supported (a law with a "
                              "shell form and without material axes is needed)",
                              p.id, law.card, mat->id));
  }

  /// The implicit solver's elements: hexahedra ELFORM 2 (fully integrated) and 18 (enhanced
  /// strain, linear statics), and ELFORM -18 of LS-DYNA's naming is not used; shells ELFORM 0,
  /// 2 and 16 (all run as the implicit solver's MITC4 shell).
  void check_implicit_formulation(const Part& p, const Section& s) const {
    if (s.kind == SectionKind::TShell)
      fail(s.loc, fmt::format("*SECTION_TSHELL {} (part {}): thick shells are not supported by "
                              "the implicit solver (IMFLAG = 1)",
                              s.id, p.id));
    if (s.kind == SectionKind::Beam || s.kind == SectionKind::Discrete)
      fail(s.loc, fmt::format("*SECTION_{} {} (part {}): {} are not supported by the implicit "
                              "solver (IMFLAG = 1): use solids with ELFORM 2 or 18, or shells",
                              s.kind == SectionKind::Beam ? "BEAM" : "DISCRETE", s.id, p.id,
                              s.kind == SectionKind::Beam ? "beams" : "springs and dampers"));
    if (s.kind == SectionKind::Shell) {
      if (s.elform != 0 && s.elform != 2 && s.elform != 16)
        fail(s.loc, fmt::format("*SECTION_SHELL {} (part {}): ELFORM {} is not supported by the "
                                "implicit solver (IMFLAG = 1): its shell is the MITC4 "
                                "(Reissner-Mindlin, assumed transverse shear), used for ELFORM "
                                "0, 2 and 16",
                                s.id, p.id, s.elform));
      if (s.icomp != 0)
        fail(s.loc, fmt::format("*SECTION_SHELL {} (part {}): ICOMP = {} (point material angles) "
                                "is not supported by the implicit solver (IMFLAG = 1)",
                                s.id, p.id, s.icomp));
      return;
    }
    if (s.elform != 2 && s.elform != 18)
      fail(s.loc, fmt::format("*SECTION_SOLID {} (part {}): ELFORM {} is not supported by the "
                              "implicit solver (IMFLAG = 1): it has the fully integrated "
                              "hexahedron (ELFORM 2) and the enhanced-strain hexahedron that "
                              "does not lock in bending (ELFORM 18, elastic materials)",
                              s.id, p.id, s.elform));
  }

  /// ELFORM 2, -1, -2 (fully integrated selective-reduced hexahedra) and 3 are run as the
  /// one-point hexahedron with the part's hourglass control: one warning per section.
  void note_fully_integrated_solid(const Section& s, const Part& p) const {
    if (!elform16_noted_.insert(s.id).second) return;
    m_.notes.push_back(
        {"*SECTION_SOLID", s.loc, false,
         fmt::format("section {} (part {}): ELFORM {} ({}) is run as the one-point hexahedron "
                     "(ELFORM 1, with the hourglass control of the part{})",
                     s.id, p.id, s.elform,
                     s.elform == 3 ? "fully integrated hexahedron with nodal rotations"
                                   : "fully integrated selective-reduced hexahedron",
                     s.elform == 3 ? "; the nodal rotations are not modelled" : "")});
  }

  /// ELFORM 16 (fully integrated shell) is run as the Belytschko-Tsay shell: one warning per
  /// section.
  void note_substituted_shell(const Section& s, const Part& p) const {
    if (!elform16_noted_.insert(s.id).second) return;
    m_.notes.push_back(
        {"*SECTION_SHELL", s.loc, false,
         s.elform == 16
             ? fmt::format("section {} (part {}): ELFORM 16 (fully integrated shell) is run as "
                           "the Belytschko-Tsay shell (ELFORM 2, one point in the plane, with "
                           "the hourglass control of the part)",
                           s.id, p.id)
             : fmt::format("section {} (part {}): ELFORM 9 (fully integrated membrane) is run "
                           "as the Belytschko-Tsay membrane (ELFORM 5, one point in the plane, "
                           "with the in-plane hourglass control of the part)",
                           s.id, p.id)});
  }

  void note_empty_parts() {
    for (const Part& p : m_.parts)
      if (!used_parts_.count(p.id))
        m_.notes.push_back({"*PART", p.loc, false, fmt::format("part {} has no elements", p.id)});
  }

  void check_termination() const {
    if (!d_.have_termination)
      fail(d_.deck_end, "no *CONTROL_TERMINATION: nothing to run (add one with ENDTIM > 0)");
    if (!(m_.control.endtim > 0))
      fail(d_.termination_loc, fmt::format("*CONTROL_TERMINATION ENDTIM = {}: nothing to run "
                                           "(ENDTIM must be > 0)",
                                           m_.control.endtim));
  }
};

} // namespace

void resolve_model(DeckBuilder& d) {
  d.check_bulk_ids();
  Resolver(d).run();
}

} // namespace parcae::io
