#include "solvers/common/contact_setup.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <set>
#include <span>

#include <fmt/format.h>

#include "core/error.hpp"

namespace parcae {

namespace {

/// What one side of a contact is made of, in model indices.
struct SideSpec {
  std::vector<std::size_t> shells, solids;      ///< model element indices
  std::vector<std::size_t> beams;               ///< model beam indices (AUTOMATIC_GENERAL only)
  std::vector<std::array<LocalId, 4>> segments; ///< segment-set segments (model node indices)
  std::vector<LocalId> nodes;                   ///< node set (model node indices)
};

/// The bulk modulus a part's contact segments take: its material's E and PR; a hydrodynamic
/// material without them (*MAT_NULL, *MAT_010, *MAT_015 solids) its equation of state's at the
/// reference state (linear polynomial C1, Gruneisen RO C^2, tabulated the K of the point nearest
/// ln V = 0 or the slope of C there), as LS-DYNA takes the element's bulk modulus.
Real bulk_modulus(const Model& model, const Part* part) {
  const Material* m = part ? model.find_material(part->mid) : nullptr;
  if (!m) return 0;
  if (m->e > 0) {
    const Real nu = std::min<Real>(m->pr, 0.49);
    return m->e / (3 * (1 - 2 * nu));
  }
  const Eos* eos = part->eosid != 0 ? model.find_eos(part->eosid) : nullptr;
  if (eos == nullptr) return 0;
  if (eos->kind == EosKind::LinearPolynomial) return std::max<Real>(eos->c[1], 0);
  if (eos->kind == EosKind::Gruneisen) return m->ro * eos->gr_c * eos->gr_c;
  // tabulated: the K of the point nearest ln V = 0 (_COMPACTION), else the slope of C there
  const auto& ev = eos->tab_ev;
  if (ev.size() < 2 || eos->tab_c.size() != ev.size()) return 0;
  std::size_t i = 0;
  for (std::size_t j = 1; j < ev.size(); ++j)
    if (std::abs(ev[j]) < std::abs(ev[i])) i = j;
  if (eos->tab_k.size() == ev.size() && eos->tab_k[i] > 0) return eos->tab_k[i];
  const std::size_t a = i + 1 < ev.size() ? i : i - 1;
  return std::abs((eos->tab_c[a + 1] - eos->tab_c[a]) / (ev[a + 1] - ev[a]));
}

class Builder {
public:
  explicit Builder(const Model& m) : m_(m) {
    for (const auto& p : m.parts) parts_[p.id] = &p;
  }

  SideSpec side(const ContactDef& c, GlobalId id, int type, const SourceLoc& loc, bool all) {
    SideSpec s;
    std::set<GlobalId> pids;
    if (all || type == 5) {
      for (const auto& p : m_.parts) pids.insert(p.id);
    } else if (type == 3) {
      pids.insert(id);
    } else if (type == 2) {
      const auto it = m_.part_sets.find(id);
      if (it == m_.part_sets.end())
        throw InputError(loc, fmt::format("contact {}: part set {} is not defined", c.id, id));
      for (GlobalId p : it->second.members) pids.insert(p);
    } else if (type == 4) {
      const auto it = m_.node_sets.find(id);
      if (it == m_.node_sets.end())
        throw InputError(loc, fmt::format("contact {}: node set {} is not defined", c.id, id));
      for (GlobalId n : it->second.members) {
        const LocalId k = m_.node_index(n);
        if (k == kInvalidLocal)
          throw InputError(
              loc, fmt::format("contact {}: node {} of node set {} is not defined", c.id, n, id));
        s.nodes.push_back(k);
      }
      return s;
    } else if (type == 0) {
      const auto it = m_.segment_sets.find(id);
      if (it == m_.segment_sets.end())
        throw InputError(loc, fmt::format("contact {}: segment set {} is not defined", c.id, id));
      for (const auto& seg : it->second.segments) {
        std::array<LocalId, 4> q{};
        for (int a = 0; a < 4; ++a) {
          q[a] = m_.node_index(seg[a]);
          if (q[a] == kInvalidLocal)
            throw InputError(it->second.loc,
                             fmt::format("segment set {}: node {} is not defined", id, seg[a]));
        }
        s.segments.push_back(q);
      }
      return s;
    } else {
      throw InputError(loc, fmt::format("contact {}: set type {} is not supported (0 segment set, "
                                        "2 part set, 3 part, 4 node set, 5 all parts)",
                                        c.id, type));
    }
    for (GlobalId p : pids) {
      if (!parts_.count(p))
        throw InputError(loc, fmt::format("contact {}: part {} is not defined", c.id, p));
      const Section* sec = m_.find_section(parts_.at(p)->secid);
      if (sec && is_2d_solid(*sec))
        throw InputError(loc, fmt::format("contact {}: part {} is a 2-D solid (*SECTION_SHELL "
                                          "ELFORM {}); 2-D contacts (*CONTACT_2D_*) are not "
                                          "supported",
                                          c.id, p, sec->elform));
    }
    for (std::size_t e = 0; e < m_.shells.size(); ++e)
      if (pids.count(m_.shells.part[e])) s.shells.push_back(e);
    for (std::size_t e = 0; e < m_.solids.size(); ++e)
      if (pids.count(m_.solids.part[e])) s.solids.push_back(e);
    // beams (edge contact; spot weld beams, their nodes tied), not discrete springs and
    // dampers (they have no contact surface)
    if (c.general || c.tied == 3)
      for (std::size_t e = 0; e < m_.beams.size(); ++e) {
        const Part* part = m_.find_part(m_.beams.part[e]);
        const Section* sec = part ? m_.find_section(part->secid) : nullptr;
        if (pids.count(m_.beams.part[e]) && !(sec && sec->kind == SectionKind::Discrete))
          s.beams.push_back(e);
      }
    return s;
  }

  /// Nodes a side touches (model indices).
  void collect(const SideSpec& s, std::vector<LocalId>& out) const {
    for (std::size_t e : s.shells)
      for (LocalId n : m_.shells.nodes[e]) out.push_back(n);
    for (std::size_t e : s.solids)
      for (LocalId n : m_.solids.nodes[e]) out.push_back(n);
    for (const auto& q : s.segments)
      for (LocalId n : q) out.push_back(n);
    for (LocalId n : s.nodes) out.push_back(n);
    for (std::size_t e : s.beams)
      for (LocalId n : m_.beams.nodes[e]) out.push_back(n);
  }

  /// Model elements (solid index, or nsolid + shell index) holding every node of segment q
  /// (model node indices), ascending; only_solids: among `solids` (a side's solids) only.
  std::vector<std::int64_t> holders(const std::array<LocalId, 4>& q, bool only_solids,
                                    const std::vector<std::size_t>* solids) const {
    node_elements();
    std::vector<std::int64_t> out;
    const auto nsolid = static_cast<std::int64_t>(m_.solids.size());
    auto elems_of = [&](LocalId n) {
      const auto k = static_cast<std::size_t>(n);
      return std::span<const std::int64_t>(elem_list_.data() + elem_start_[k],
                                           elem_list_.data() + elem_start_[k + 1]);
    };
    for (std::int64_t el : elems_of(q[0])) {
      if (only_solids && el >= nsolid) continue;
      if (solids &&
          !std::binary_search(solids->begin(), solids->end(), static_cast<std::size_t>(el)))
        continue;
      bool all = true;
      for (int a = 1; a < 4 && all; ++a) {
        const auto ne = elems_of(q[a]);
        all = std::binary_search(ne.begin(), ne.end(), el);
      }
      if (all) out.push_back(el);
    }
    return out;
  }

  /// The segment surface of a side, in compact indices, with its erosion bookkeeping.
  /// all_faces: every face of the side's solids is a segment (interior faces blocked by the
  /// element across them: they become active when that element erodes).
  contact::Surface surface(const SideSpec& s, const std::vector<LocalId>& compact,
                           const std::vector<Real>& x, const std::vector<LocalId>& used,
                           SurfaceLife* life = nullptr, bool all_faces = false) const {
    contact::Surface out;
    SurfaceLife dummy;
    SurfaceLife& L = life ? *life : dummy;
    const auto nsolid = static_cast<std::int64_t>(m_.solids.size());
    auto push_life = [&](const std::vector<std::int64_t>& own,
                         const std::vector<std::int64_t>& block) {
      L.owner.insert(L.owner.end(), own.begin(), own.end());
      L.owner_start.push_back(static_cast<std::int64_t>(L.owner.size()));
      L.blocker.insert(L.blocker.end(), block.begin(), block.end());
      L.blocker_start.push_back(static_cast<std::int64_t>(L.blocker.size()));
    };
    auto model_seg = [&](const contact::Segment& c) {
      std::array<LocalId, 4> q{};
      for (int a = 0; a < 4; ++a) q[a] = used[static_cast<std::size_t>(c[a])];
      return q;
    };
    auto append = [&](const contact::Surface& a) {
      // (the optional per-segment values: zeros for surfaces without them)
      for (auto [o, v] : {std::pair{&out.min_edge, &a.min_edge},
                          std::pair{&out.fixed_thickness, &a.fixed_thickness},
                          std::pair{&out.depth0, &a.depth0}}) {
        o->resize(out.seg.size(), 0.0);
        if (v->empty())
          o->resize(out.seg.size() + a.seg.size(), 0.0);
        else
          o->insert(o->end(), v->begin(), v->end());
      }
      out.seg.insert(out.seg.end(), a.seg.begin(), a.seg.end());
      out.thickness.insert(out.thickness.end(), a.thickness.begin(), a.thickness.end());
      out.k0.insert(out.k0.end(), a.k0.begin(), a.k0.end());
      out.area0.insert(out.area0.end(), a.area0.begin(), a.area0.end());
    };
    std::vector<std::size_t> side_solids(s.solids.begin(), s.solids.end());
    std::sort(side_solids.begin(), side_solids.end());
    if (!s.shells.empty())
      for (std::size_t e : s.shells) push_life({nsolid + static_cast<std::int64_t>(e)}, {});
    if (!s.solids.empty()) {
      if (all_faces) {
        // Each element's own faces (outward), in (element, face) order, for the surface below.
        for (std::size_t e : s.solids) {
          std::array<LocalId, 8> h{};
          for (int a = 0; a < 8; ++a) h[a] = compact[m_.solids.nodes[e][a]];
          const Real bulk = bulk_modulus(m_, parts_.at(m_.solids.part[e]));
          const contact::Surface one = contact::surface_from_hex_exterior(
              std::span<const std::array<LocalId, 8>>(&h, 1), std::span<const Real>(&bulk, 1), x);
          for (const auto& c : one.seg) {
            std::vector<std::int64_t> block;
            for (std::int64_t el : holders(model_seg(c), true, &side_solids))
              if (el != static_cast<std::int64_t>(e)) block.push_back(el);
            push_life({static_cast<std::int64_t>(e)}, block);
          }
          solid_faces_.push_back(one);
        }
      }
    }
    if (!s.shells.empty()) {
      std::vector<contact::Segment> conn;
      std::vector<Real> thick, bulk, optt;
      for (std::size_t e : s.shells) {
        contact::Segment q{};
        for (int a = 0; a < 4; ++a) q[a] = compact[m_.shells.nodes[e][a]];
        conn.push_back(q);
        const Part* p = parts_.at(m_.shells.part[e]);
        Real t = 0;
        for (Real v : m_.shells.thickness[e]) t += v / 4;
        if (!(t > 0))
          if (const Section* sec = m_.find_section(p->secid))
            t = (sec->t[0] + sec->t[1] + sec->t[2] + sec->t[3]) / 4;
        thick.push_back(t);
        bulk.push_back(bulk_modulus(m_, p));
        optt.push_back(p->contact_optt);
      }
      contact::Surface shells = contact::surface_from_shells(conn, thick, bulk, x);
      shells.fixed_thickness = std::move(optt);
      append(shells);
    }
    if (!s.solids.empty()) {
      std::vector<std::array<LocalId, 8>> hexes;
      std::vector<Real> bulk;
      for (std::size_t e : s.solids) {
        std::array<LocalId, 8> h{};
        for (int a = 0; a < 8; ++a) h[a] = compact[m_.solids.nodes[e][a]];
        hexes.push_back(h);
        bulk.push_back(bulk_modulus(m_, parts_.at(m_.solids.part[e])));
      }
      if (all_faces) {
        for (const auto& one : solid_faces_) append(one);
        solid_faces_.clear();
      } else {
        const contact::Surface ext = contact::surface_from_hex_exterior(hexes, bulk, x);
        for (const auto& c : ext.seg) push_life(holders(model_seg(c), true, &side_solids), {});
        append(ext);
      }
    }
    if (!s.segments.empty()) {
      // Segment sets: the stiffness of the stiffest part at each segment's first node.
      std::map<LocalId, Real> node_bulk;
      auto note = [&](LocalId n, GlobalId pid) {
        Real& k = node_bulk[n];
        k = std::max(k, bulk_modulus(m_, parts_.at(pid)));
      };
      for (std::size_t e = 0; e < m_.shells.size(); ++e)
        for (LocalId n : m_.shells.nodes[e]) note(n, m_.shells.part[e]);
      for (std::size_t e = 0; e < m_.solids.size(); ++e)
        for (LocalId n : m_.solids.nodes[e]) note(n, m_.solids.part[e]);
      std::vector<contact::Segment> conn;
      std::vector<Real> thick, bulk;
      for (const auto& q : s.segments) {
        contact::Segment c{};
        for (int a = 0; a < 4; ++a) c[a] = compact[q[a]];
        conn.push_back(c);
        thick.push_back(0.0);
        bulk.push_back(node_bulk.count(q[0]) ? node_bulk[q[0]] : 0.0);
        push_life(holders(q, false, nullptr), {});
      }
      append(contact::surface_from_shells(conn, thick, bulk, x));
    }
    return out;
  }

private:
  /// node -> elements (solids, then nsolid + shells), ascending; built on first use.
  void node_elements() const {
    if (!elem_start_.empty() || m_.nodes.size() == 0) return;
    // CSR (node -> elements, ascending: solids, then shells after nsolid), in two sweeps: count
    // then fill; an element is listed once per node however often the node repeats in it.
    const auto nsolid = static_cast<std::int64_t>(m_.solids.size());
    std::vector<std::int64_t> last(m_.nodes.size(), -1);
    elem_start_.assign(m_.nodes.size() + 1, 0);
    auto sweep = [&](auto&& visit) {
      std::fill(last.begin(), last.end(), -1);
      for (std::size_t e = 0; e < m_.solids.size(); ++e)
        for (LocalId n : m_.solids.nodes[e]) visit(n, static_cast<std::int64_t>(e));
      for (std::size_t e = 0; e < m_.shells.size(); ++e)
        for (LocalId n : m_.shells.nodes[e]) visit(n, nsolid + static_cast<std::int64_t>(e));
    };
    sweep([&](LocalId n, std::int64_t el) {
      const auto k = static_cast<std::size_t>(n);
      if (last[k] != el) ++elem_start_[k + 1], last[k] = el;
    });
    for (std::size_t k = 0; k < m_.nodes.size(); ++k) elem_start_[k + 1] += elem_start_[k];
    elem_list_.resize(static_cast<std::size_t>(elem_start_.back()));
    std::vector<std::int64_t> at(elem_start_.begin(), elem_start_.end() - 1);
    sweep([&](LocalId n, std::int64_t el) {
      const auto k = static_cast<std::size_t>(n);
      if (last[k] != el) elem_list_[static_cast<std::size_t>(at[k]++)] = el, last[k] = el;
    });
  }

  const Model& m_;
  std::map<GlobalId, const Part*> parts_;
  mutable std::vector<std::int64_t> elem_start_, elem_list_; ///< node -> elements (CSR)
  mutable std::vector<contact::Surface> solid_faces_;
};

} // namespace

contact::ContactParams contact_params(const ContactDef& def, const Controls& c) {
  contact::ContactParams p;
  switch (def.kind) {
  case ContactDef::Kind::NodesToSurface:
    p.type = contact::ContactType::nodes_to_surface;
    break;
  case ContactDef::Kind::SurfaceToSurface:
    p.type = contact::ContactType::surface_to_surface;
    break;
  case ContactDef::Kind::SingleSurface:
    p.type = contact::ContactType::single_surface;
    break;
  }
  p.automatic = def.automatic || def.kind == ContactDef::Kind::SingleSurface;
  p.fs = def.fs;
  p.fd = def.fd;
  p.dc = def.dc;
  if (def.fs == 0 && def.fd == 0) { // *CONTROL_CONTACT SFRIC, DFRIC, EDC
    p.fs = c.contact_sfric;
    p.fd = c.contact_dfric;
    p.dc = c.contact_edc;
  }
  p.vc = def.vc;
  p.vdc = def.vdc;
  p.sfs = def.sfs;
  p.sfm = def.sfm;
  p.slsfac = c.contact_slsfac;
  p.soft = def.soft;
  p.penopt = c.contact_penopt;
  p.sofscl = def.sofscl > 0 ? def.sofscl : 0.1;
  p.dtstif = def.dtstif;
  p.sfst = def.sfst;
  p.sfmt = def.sfmt;
  p.sst = def.sst;
  p.mst = def.mst;
  p.limit_shell_thickness = def.kind == ContactDef::Kind::SingleSurface && c.contact_ssthk == 0;
  p.birth = def.bt;
  p.death = def.dt > 0 ? def.dt : 1e20;
  p.penmax = def.penmax;
  p.tiebreak = def.tiebreak_option;
  p.tied = def.tied != 0;
  p.tie_distance = def.tie_distance;
  // the search must offer every segment within the tie distance (beyond the thicknesses)
  if (p.tied && def.tie_distance > 0) p.search_margin = def.tie_distance;
  p.nfls = def.nfls;
  p.sfls = def.sfls;
  p.xpene = c.contact_xpene;
  // Bucket sort every 100 cycles unless BSORT / NSBCS say otherwise (LS-DYNA's recommended
  // interval for single-surface contact); in between, local tracking, and a new sort as soon as
  // some node moved more than half the capture margin (adaptive), so fast motion never outruns
  // the search. The adaptive sort keeps the candidate lists complete, so the interval changes
  // no result, only the search time (the corpus decks' outputs are byte-identical at 25 and
  // 100).
  p.search_interval = def.bsort > 0 ? def.bsort : (c.contact_nsbcs > 0 ? c.contact_nsbcs : 100);
  p.ignore = def.ignore == 0 ? c.contact_ignore : 1; // card C IGNORE 1 or 2
  p.offset_sudden = true;
  return p;
}

ContactModel build_contact_model(const Model& model) {
  ContactModel cm;
  if (model.contacts.empty()) return cm;
  Builder b(model);
  struct Sides {
    SideSpec sec, main;
  };
  std::vector<Sides> sides;
  std::vector<LocalId> used;
  for (const ContactDef& c : model.contacts) {
    Sides s;
    const bool single = c.kind == ContactDef::Kind::SingleSurface;
    s.sec = b.side(c, c.ssid, c.sstyp, c.ssid_loc, single && c.ssid == 0);
    if (!single) s.main = b.side(c, c.msid, c.mstyp, c.msid_loc, false);
    const bool nts = c.kind == ContactDef::Kind::NodesToSurface;
    const bool sec_empty = s.sec.shells.empty() && s.sec.solids.empty() && s.sec.segments.empty() &&
                           s.sec.nodes.empty() && s.sec.beams.empty();
    const bool main_empty =
        s.main.shells.empty() && s.main.solids.empty() && s.main.segments.empty();
    if (sec_empty)
      throw InputError(
          c.ssid_loc.line ? c.ssid_loc : c.loc,
          fmt::format("contact {}: the secondary surface (SSID {}) is empty", c.id, c.ssid));
    if (!single && main_empty)
      throw InputError(
          c.msid_loc.line ? c.msid_loc : c.loc,
          fmt::format("contact {}: the main surface (MSID {}) has no segments", c.id, c.msid));
    if (!nts && !s.sec.nodes.empty())
      throw InputError(c.ssid_loc, fmt::format("contact {}: a node set (SSTYP 4) can only be the "
                                               "secondary side of a NODES_TO_SURFACE contact",
                                               c.id));
    b.collect(s.sec, used);
    b.collect(s.main, used);
    sides.push_back(std::move(s));
  }
  std::sort(used.begin(), used.end());
  used.erase(std::unique(used.begin(), used.end()), used.end());
  cm.node_model = used;
  std::vector<LocalId> compact(model.nodes.size(), kInvalidLocal);
  for (std::size_t k = 0; k < used.size(); ++k) compact[used[k]] = static_cast<LocalId>(k);
  std::vector<Real> x(3 * used.size());
  for (std::size_t k = 0; k < used.size(); ++k) {
    x[3 * k] = model.nodes.x[used[k]];
    x[3 * k + 1] = model.nodes.y[used[k]];
    x[3 * k + 2] = model.nodes.z[used[k]];
  }
  for (std::size_t i = 0; i < model.contacts.size(); ++i) {
    const ContactDef& c = model.contacts[i];
    if (c.general) {
      // the beams' edge-to-edge contact; shells and solids: a single-surface interface below
      const SideSpec& sec = sides[i].sec;
      if (!sec.beams.empty()) {
        cm.edge_sets.push_back(beam_edge_set(model, c, sec.beams, compact, x));
        cm.edge_defs.push_back(&c);
      }
      if (sec.shells.empty() && sec.solids.empty()) continue;
    }
    contact::Interface ifc;
    ifc.p = contact_params(c, model.control);
    const Sides& s = sides[i];
    InterfaceLife life;
    const bool all_faces = c.eroding && c.erosop == 1;
    if (c.kind == ContactDef::Kind::SingleSurface) {
      ifc.secondary = b.surface(s.sec, compact, x, used, &life.secondary, all_faces);
    } else {
      ifc.main = b.surface(s.main, compact, x, used, &life.main, all_faces);
      if (c.kind == ContactDef::Kind::SurfaceToSurface) {
        ifc.secondary = b.surface(s.sec, compact, x, used, &life.secondary, all_faces);
      } else {
        // NODES_TO_SURFACE: the secondary nodes (of a node set, or of the parts' elements),
        // with half the shell thickness of their elements as contact thickness.
        std::vector<LocalId> nodes;
        b.collect(s.sec, nodes);
        std::sort(nodes.begin(), nodes.end());
        nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
        const contact::Surface sec = b.surface(s.sec, compact, x, used);
        std::map<LocalId, Real> thick, fixed;
        for (std::size_t k = 0; k < sec.size(); ++k)
          for (LocalId n : sec.seg[k]) {
            thick[n] = std::max(thick[n], sec.thickness[k]);
            if (k < sec.fixed_thickness.size())
              fixed[n] = std::max(fixed[n], sec.fixed_thickness[k]);
          }
        for (LocalId n : nodes) {
          const LocalId cn = compact[n];
          ifc.secondary_nodes.push_back(cn);
          ifc.secondary_node_thickness.push_back(thick.count(cn) ? thick[cn] : 0.0);
          ifc.secondary_node_fixed_thickness.push_back(fixed.count(cn) ? fixed[cn] : 0.0);
        }
        // forming contacts: the tool surface faces the blank, consistently oriented; the
        // thickness of rigid tools is left out unless *CONTROL_CONTACT SHLTHK = 2 (LS-DYNA:
        // SHLTHK 0 and 1 exclude rigid bodies), the blank's is always used
        if (c.forming) {
          contact::orient_toward(ifc.main, ifc.secondary_nodes, x);
          if (model.control.contact_shlthk != 2)
            for (std::size_t k = 0; k < s.main.shells.size(); ++k) {
              const Part* p = model.find_part(model.shells.part[s.main.shells[k]]);
              const Material* mat = p ? model.find_material(p->mid) : nullptr;
              if (mat && mat->kind == MaterialKind::Rigid) {
                ifc.main.thickness[k] = 0;
                if (k < ifc.main.fixed_thickness.size()) ifc.main.fixed_thickness[k] = 0;
              }
            }
        }
      }
    }
    // Non-automatic contacts take the side of their segments' normals: LS-DYNA reorients the
    // surfaces given by parts (and by segment sets with ORIEN = 2) at set-up, consistently over
    // each connected patch and facing the other side's nodes (forming contacts: above).
    if (!c.automatic && !c.forming && c.kind != ContactDef::Kind::SingleSurface &&
        model.control.contact_orien <= 2) {
      auto oriented = [&](int styp) {
        return styp == 2 || styp == 3 || (styp == 0 && model.control.contact_orien == 2);
      };
      auto surface_nodes = [](const contact::Surface& surf) {
        std::vector<LocalId> nodes;
        for (const auto& sg : surf.seg) nodes.insert(nodes.end(), sg.begin(), sg.end());
        std::sort(nodes.begin(), nodes.end());
        nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
        return nodes;
      };
      const std::vector<LocalId> sec_nodes = c.kind == ContactDef::Kind::SurfaceToSurface
                                                 ? surface_nodes(ifc.secondary)
                                                 : ifc.secondary_nodes;
      const std::vector<LocalId> main_nodes = surface_nodes(ifc.main);
      if (oriented(c.mstyp)) contact::orient_toward(ifc.main, sec_nodes, x);
      if (c.kind == ContactDef::Kind::SurfaceToSurface && oriented(c.sstyp))
        contact::orient_toward(ifc.secondary, main_nodes, x);
    }
    cm.interfaces.push_back(std::move(ifc));
    cm.defs.push_back(&c);
    cm.life.push_back(std::move(life));
  }
  // Initial activity: every element alive, no free node (interior faces of eroding contacts
  // start switched off).
  const std::vector<std::uint8_t> solid_alive(model.solids.size(), 1),
      shell_alive(model.shells.size(), 1), node_free(model.nodes.size(), 0);
  for (std::size_t i = 0; i < cm.interfaces.size(); ++i)
    update_contact_life(cm, i, cm.interfaces[i], solid_alive, shell_alive, node_free);
  return cm;
}

contact::EdgeSet beam_edge_set(const Model& model, const ContactDef& def,
                               std::span<const std::size_t> beams, std::span<const LocalId> compact,
                               std::span<const Real> x) {
  contact::EdgeSet es;
  const Controls& ctl = model.control;
  es.p.fs = def.fs;
  es.p.fd = def.fd;
  es.p.dc = def.dc;
  es.p.vdc = def.vdc;
  es.p.soft = def.soft;
  es.p.sofscl = def.sofscl > 0 ? def.sofscl : 0.1;
  es.p.dtstif = def.dtstif;
  es.p.birth = def.bt;
  es.p.death = def.dt > 0 ? def.dt : 1e20;
  es.p.search_interval =
      def.bsort > 0 ? def.bsort : (ctl.contact_nsbcs > 0 ? ctl.contact_nsbcs : 25);
  es.exclude_same_group = def.cparm8 >= 1;
  const SourceLoc& loc = def.ssid_loc.line ? def.ssid_loc : def.loc;
  for (std::size_t e : beams) {
    const Part* part = model.find_part(model.beams.part[e]);
    const Section* sec = part ? model.find_section(part->secid) : nullptr;
    const Material* mat = part ? model.find_material(part->mid) : nullptr;
    const GlobalId eid = model.beams.id[e];
    // the cross-section area (stiffness) and its contact diameter
    Real area = model.beams.area[e] > 0 ? model.beams.area[e] : (sec ? sec->area : 0.0);
    const bool integrated = sec && (sec->elform == 1 || sec->elform == 4 || sec->elform == 5 ||
                                    sec->elform == 9 || sec->elform == 11);
    Real section_d = 0;
    if (integrated && sec->ts1 > 0) {
      section_d = sec->ts1;
      if (sec->cst == 1)
        area = 0.25 * std::numbers::pi * (sec->ts1 * sec->ts1 - sec->tt1 * sec->tt1);
      else if (sec->tt1 > 0)
        area = sec->ts1 * sec->tt1;
    } else if (area > 0) {
      section_d = std::sqrt(area); // LS-DYNA: trusses and resultant beams
    }
    Real d = 0; // (LS-DYNA's order, as for shells: OPTT, then SST, then the section x SFST)
    if (part && part->contact_optt > 0)
      d = part->contact_optt;
    else if (def.sst > 0)
      d = def.sst;
    else
      d = section_d * def.sfst;
    if (!(d > 0))
      throw InputError(loc, fmt::format("contact {}: beam {} (part {}) has no contact thickness: "
                                        "give SST on the contact card, OPTT on *PART_CONTACT, or "
                                        "the section's dimensions",
                                        def.id, eid, model.beams.part[e]));
    if (!(area > 0)) area = 0.25 * std::numbers::pi * d * d;
    const LocalId a = compact[static_cast<std::size_t>(model.beams.nodes[e][0])];
    const LocalId b = compact[static_cast<std::size_t>(model.beams.nodes[e][1])];
    Real len2 = 0;
    for (int i = 0; i < 3; ++i) {
      const Real dd =
          x[3 * static_cast<std::size_t>(b) + i] - x[3 * static_cast<std::size_t>(a) + i];
      len2 += dd * dd;
    }
    const Real len = std::sqrt(len2);
    const Real young = mat ? mat->e : 0.0;
    es.edge.push_back({a, b});
    es.radius.push_back(0.5 * d);
    es.k0.push_back(len > 0 ? ctl.contact_slsfac * def.sfs * young * area / len : 0.0);
    es.group.push_back(model.beams.part[e]);
  }
  return es;
}

void update_contact_life(const ContactModel& cm, std::size_t i, contact::Interface& ifc,
                         std::span<const std::uint8_t> solid_alive,
                         std::span<const std::uint8_t> shell_alive,
                         std::span<const std::uint8_t> node_free) {
  const auto nsolid = static_cast<std::int64_t>(solid_alive.size());
  auto alive = [&](std::int64_t el) {
    return el < nsolid ? solid_alive[static_cast<std::size_t>(el)] != 0
                       : shell_alive[static_cast<std::size_t>(el - nsolid)] != 0;
  };
  const std::size_t nc = cm.node_model.size();
  ifc.node_active.assign(nc, 0);
  auto update = [&](contact::Surface& s, const SurfaceLife& L) {
    s.active.assign(s.size(), 1);
    for (std::size_t k = 0; k < s.size(); ++k) {
      bool on = L.owner_start[k + 1] == L.owner_start[k];
      for (std::int64_t j = L.owner_start[k]; j < L.owner_start[k + 1] && !on; ++j)
        on = alive(L.owner[static_cast<std::size_t>(j)]);
      for (std::int64_t j = L.blocker_start[k]; j < L.blocker_start[k + 1] && on; ++j)
        on = !alive(L.blocker[static_cast<std::size_t>(j)]);
      s.active[k] = on ? 1 : 0;
      if (on)
        for (LocalId n : s.seg[k]) ifc.node_active[static_cast<std::size_t>(n)] = 1;
    }
  };
  const InterfaceLife& life = cm.life[i];
  if (ifc.main.size() > 0) update(ifc.main, life.main);
  if (ifc.secondary.size() > 0) update(ifc.secondary, life.secondary);
  for (LocalId n : ifc.secondary_nodes)
    if (!node_free[static_cast<std::size_t>(cm.node_model[static_cast<std::size_t>(n)])])
      ifc.node_active[static_cast<std::size_t>(n)] = 1;
}

} // namespace parcae
