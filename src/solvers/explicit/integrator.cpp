// The explicit integrator's construction: the (restricted) domain, the contact coupling, loads,
// walls, erosion and the halo exchange plan. The time loop is in solver.cpp.
#include "solvers/explicit/integrator.hpp"
#include "core/memory.hpp"

#include <algorithm>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace parcae::explicit_detail {

namespace {

/// 1 for each local node of an element of the given parts.
std::vector<char> nodes_of_parts(const Model& model, const Domain& d,
                                 const std::unordered_set<GlobalId>& parts) {
  std::unordered_set<GlobalId> nodes; // deck node ids
  auto add = [&](const auto& table) {
    for (std::size_t e = 0; e < table.size(); ++e)
      if (parts.count(table.part[e]))
        for (LocalId n : table.nodes[e]) nodes.insert(model.nodes.id[n]);
  };
  add(model.solids);
  add(model.shells);
  add(model.beams);
  std::vector<char> out(d.nnode, 0);
  for (std::size_t n = 0; n < d.nnode; ++n) out[n] = nodes.count(d.node_id[n]) ? 1 : 0;
  return out;
}

std::unordered_set<GlobalId> members(const Model& model, GlobalId psid) {
  const auto set = model.part_sets.find(psid); // checked by the reader
  if (set == model.part_sets.end()) return {};
  return {set->second.members.begin(), set->second.members.end()};
}

/// *LOAD_BODY_PARTS: 1 for each local node of an element of the part set's parts (the body
/// loads act on those nodes only); empty when the deck has none (every node).
std::vector<char> body_load_nodes(const Model& model, const Domain& d) {
  if (model.body_load_parts == 0) return {};
  return nodes_of_parts(model, d, members(model, model.body_load_parts));
}

/// *LOAD_GRAVITY_PART (_SET): per body load, its part's nodes (empty for the other loads).
std::vector<std::vector<char>> gravity_part_nodes(const Model& model, const Domain& d) {
  std::vector<std::vector<char>> out(model.body_loads.size());
  for (std::size_t k = 0; k < out.size(); ++k) {
    const BodyLoad& l = model.body_loads[k];
    if (l.part == 0) continue;
    out[k] = nodes_of_parts(
        model, d, l.part_is_set ? members(model, l.part) : std::unordered_set<GlobalId>{l.part});
  }
  return out;
}

} // namespace

Integrator::Integrator(const Model& model, const RunOptions& opt)
    : model_(model), opt_(opt), comm_(opt.comm ? *opt.comm : serial_comm_) {
  Domain global = build_domain(model);
  mark_memory("model domain");
  build_contacts(global);
  mark_memory("contacts");
  init_interpolations(global);
  if (comm_.size() > 1) {
    if (!opt.ranks) throw RuntimeError("an MPP run needs a decomposition (RunOptions::ranks)");
    d_ = restrict_domain(global, *opt.ranks, comm_.size(), comm_.rank());
    global = Domain{}; // the whole model's domain is not needed past this rank's share
    mark_memory("rank domain");
  } else {
    d_ = std::move(global);
  }
  ties_.local.resize(ties_.nodes.size());
  for (std::size_t k = 0; k < ties_.nodes.size(); ++k)
    ties_.local[k] = d_.local_of_global[static_cast<std::size_t>(ties_.nodes[k])];
  classify_ties();
  rbe3_.local.resize(rbe3_.nodes.size());
  for (std::size_t k = 0; k < rbe3_.nodes.size(); ++k)
    rbe3_.local[k] = d_.local_of_global.empty()
                         ? rbe3_.nodes[k]
                         : d_.local_of_global[static_cast<std::size_t>(rbe3_.nodes[k])];
  if (!rbe3_.list.empty()) rbe3_.gather = std::make_unique<par::CycleReduction>(comm_);
  contacts_.local.resize(contacts_.model.node_model.size());
  for (std::size_t k = 0; k < contacts_.model.node_model.size(); ++k)
    contacts_.local[k] =
        d_.local_of_global.empty()
            ? contacts_.model.node_model[k]
            : d_.local_of_global[static_cast<std::size_t>(contacts_.model.node_model[k])];
  if (contacts_.any()) contacts_.f.assign(3 * d_.nnode, 0.0);
  // MPP beam edges: the edge nodes this rank owns (it sends their positions each cycle)
  if (comm_.size() > 1)
    for (LocalId k : contacts_.edge_nodes) {
      const LocalId l = contacts_.local[static_cast<std::size_t>(k)];
      if (l != kInvalidLocal && d_.owned[static_cast<std::size_t>(l)])
        contacts_.edge_owned.push_back(k);
    }
  for (std::size_t k = 0; k < contacts_.local.size(); ++k)
    if (contacts_.local[k] != kInvalidLocal)
      contacts_.local_list.push_back(static_cast<LocalId>(k));
  if (comm_.size() > 1 && !contacts_.state.empty()) {
    std::vector<std::uint8_t> local(contacts_.local.size(), 0), owned(contacts_.local.size(), 0);
    for (std::size_t k = 0; k < contacts_.local.size(); ++k) {
      const LocalId l = contacts_.local[k];
      local[k] = l != kInvalidLocal;
      owned[k] = l != kInvalidLocal && d_.owned[static_cast<std::size_t>(l)];
    }
    contacts_.mpp = std::make_unique<MppContact>(comm_, contacts_.model, contacts_.state,
                                                 std::move(local), std::move(owned));
    const double mine = static_cast<double>(contacts_.mpp->evaluated_nodes());
    const auto all = comm_.gatherv(std::span<const double>(&mine, 1));
    std::string per_rank;
    for (double v : all) per_rank += fmt::format("{}{}", per_rank.empty() ? "" : " / ", v);
    contacts_.report.push_back(fmt::format(
        "  contact (MPP)    contact nodes searched and evaluated per rank: {}", per_rank));
  }
  for (const auto& c : model.curves) loads_.curves[c.id] = &c;
  // MPP only: the step's element may be another rank's (one rank: the element pass names it)
  if (comm_.size() > 1) {
    auto parts_of_ids = [](const auto& table) {
      std::vector<std::pair<GlobalId, GlobalId>> out(table.size());
      for (std::size_t e = 0; e < table.size(); ++e) out[e] = {table.id[e], table.part[e]};
      std::sort(out.begin(), out.end(),
                [](const auto& a, const auto& b) { return a.first < b.first; });
      return out;
    };
    step_.part_of[SolidFamily::kIndex] = parts_of_ids(model.solids);
    step_.part_of[ShellFamily::kIndex] = parts_of_ids(model.shells);
    step_.part_of[TrussFamily::kIndex] = parts_of_ids(model.beams);
    step_.part_of[BeamFamily::kIndex] = step_.part_of[TrussFamily::kIndex];
  }
  loads_.f.assign(3 * d_.nnode, 0.0);
  loads_.m.assign(3 * d_.nnode, 0.0);
  loads_.body_nodes = body_load_nodes(model, d_);
  loads_.part_nodes = gravity_part_nodes(model, d_);
  if (model.control.damping.on) {
    loads_.damp_f.assign(3 * d_.nnode, 0.0);
    loads_.damp_m.assign(3 * d_.nnode, 0.0);
  }
  rwalls_.state = make_rigid_walls(model, d_);
  init_erosion();
  init_airbags();
  init_segment_pressures();
  init_rigid_body_loads();
  init_axial_forces();
  init_initial_stresses();
  init_mass_scaling();
  // Per corner: forces (and moments); with mass scaling during the run, its mass and inertia
  // gains too.
  const std::size_t extra = ms_.on ? 2 : 0;
  std::vector<par::Exchange::Neighbour> nb;
  for (const auto& h : d_.halo)
    nb.push_back({h.rank,
                  (3 + extra) * h.send_solid.size() + (6 + extra) * h.send_shell.size() +
                      (3 + extra) * h.send_truss.size() + (6 + extra) * h.send_beam.size(),
                  (3 + extra) * h.recv_solid + (6 + extra) * h.recv_shell +
                      (3 + extra) * h.recv_truss + (6 + extra) * h.recv_beam});
  if (!nb.empty()) comms_.halo = std::make_unique<par::Exchange>(comm_, std::move(nb));
  mark_memory("solver state");
}

void Integrator::init_rigid_body_loads() {
  if (model_.rigid_body_loads.empty()) return;
  rigid_loads_.assign(d_.bodies.size(), {});
  for (const RigidBodyLoad& l : model_.rigid_body_loads) {
    const std::size_t b = rigid_body_of_part(model_, d_, l.pid); // (merged: the lead's body)
    if (b == d_.bodies.size())
      throw InputError(l.loc, fmt::format("*LOAD_RIGID_BODY: part {} has no rigid body (no "
                                          "elements?)",
                                          l.pid));
    rigid_loads_[b].push_back(&l);
  }
}

/// *INITIAL_STRESS_SHELL: the shells of this rank start from their stress and plastic strain,
/// interpolated in the thickness coordinate to the section's points and turned from the global
/// system into the element's corotational frame at time 0.
void Integrator::init_initial_shell_stresses() {
  if (model_.initial_shell_stresses.empty()) return;
  // Layered (composite) parts are refused from the model, on every rank alike (an error on the
  // owning rank only would leave the others waiting in the first exchange).
  std::map<GlobalId, std::vector<std::size_t>> elems_of;
  for (std::size_t e = 0; e < model_.shells.size(); ++e)
    elems_of[model_.shells.part[e]].push_back(e);
  std::map<GlobalId, bool> layered;
  for (const InitialShellStress& s : model_.initial_shell_stresses) {
    const GlobalId pid = model_.shells.part[s.shell];
    if (!layered.count(pid)) {
      const Part* part = model_.find_part(pid);
      const Section* sec = part ? model_.find_section(part->secid) : nullptr;
      layered[pid] = part && sec && shell_part_layered(model_, *part, *sec, elems_of[pid]);
    }
    if (layered[pid])
      throw InputError(s.loc, fmt::format("*INITIAL_STRESS_SHELL: element {} of part {} is a "
                                          "layered (composite) shell: not supported",
                                          model_.shells.id[s.shell], pid));
  }
  std::unordered_map<std::size_t, std::pair<std::size_t, std::size_t>> where;
  for (std::size_t p = 0; p < d_.shells.size(); ++p)
    for (std::size_t k = 0; k < d_.shells[p].model_index.size(); ++k)
      where[d_.shells[p].model_index[k]] = {p, k};
  for (const InitialShellStress& s : model_.initial_shell_stresses) {
    const auto it = where.find(s.shell);
    if (it == where.end()) continue; // on another rank
    ShellPart& sp = d_.shells[it->second.first];
    ShellBlock& blk = sp.blk;
    const std::size_t k = it->second.second;
    const int nip = sp.opt.nip;
    std::vector<Real> zeta(static_cast<std::size_t>(nip)), w(static_cast<std::size_t>(nip));
    shell_thickness_rule(nip, sp.opt.lobatto, zeta, w);
    Real X[4][3], R[3][3];
    for (int a = 0; a < 4; ++a)
      for (int i = 0; i < 3; ++i)
        X[a][i] = d_.x0[3 * static_cast<std::size_t>(blk.conn[k][static_cast<std::size_t>(a)]) +
                        static_cast<std::size_t>(i)];
    shell_frame(X, R);
    for (int p = 0; p < nip; ++p) {
      // [T, 6 stresses, EPS] at zeta_p: linear between the given points, constant beyond them
      const auto& pts = s.points;
      std::array<Real, 8> v = pts.front();
      if (zeta[p] >= pts.back()[0]) {
        v = pts.back();
      } else if (zeta[p] > pts.front()[0]) {
        std::size_t j = 1;
        while (pts[j][0] < zeta[p]) ++j;
        const Real f = (zeta[p] - pts[j - 1][0]) / (pts[j][0] - pts[j - 1][0]);
        for (std::size_t c = 0; c < 8; ++c) v[c] = (1 - f) * pts[j - 1][c] + f * pts[j][c];
      }
      const Real g[3][3] = {{v[1], v[4], v[6]}, {v[4], v[2], v[5]}, {v[6], v[5], v[3]}};
      Real l[3][3] = {};
      for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b)
          for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) l[a][b] += R[a][i] * g[i][j] * R[b][j];
      const std::size_t ip = k * static_cast<std::size_t>(nip) + static_cast<std::size_t>(p);
      Real* sig = &blk.sig[5 * ip];
      sig[0] = l[0][0];
      sig[1] = l[1][1];
      sig[2] = l[0][1];
      sig[3] = l[1][2];
      sig[4] = l[2][0];
      blk.eps_p[ip] = v[7];
    }
  }
}

/// *INITIAL_STRESS_SOLID: the elements of this rank start from their stress and plastic strain.
void Integrator::init_initial_stresses() {
  init_initial_shell_stresses();
  if (model_.initial_stresses.empty()) return;
  std::unordered_map<std::size_t, std::pair<std::size_t, std::size_t>> where; // model -> part, k
  for (std::size_t p = 0; p < d_.solids.size(); ++p)
    for (std::size_t k = 0; k < d_.solids[p].model_index.size(); ++k)
      where[d_.solids[p].model_index[k]] = {p, k};
  for (const InitialStress& s : model_.initial_stresses) {
    const auto it = where.find(s.solid);
    if (it == where.end()) continue; // on another rank
    HexBlock& blk = d_.solids[it->second.first].blk;
    const std::size_t k = it->second.second;
    std::copy(s.sig.begin(), s.sig.end(), blk.sig.begin() + static_cast<std::ptrdiff_t>(6 * k));
    blk.eps_p[k] = s.eps_p;
  }
}

void Integrator::init_axial_forces() {
  std::map<GlobalId, std::pair<std::size_t, std::size_t>> where; // beam id -> part, element
  for (std::size_t p = 0; p < d_.beams.size(); ++p)
    for (std::size_t k = 0; k < d_.beams[p].blk.size(); ++k) where[d_.beams[p].elem_id[k]] = {p, k};
  // the model's integrated beams (every rank checks the whole set, so that all agree)
  std::set<GlobalId> integrated, null_beams;
  for (std::size_t e = 0; e < model_.beams.size(); ++e) {
    const Part* part = model_.find_part(model_.beams.part[e]);
    const Section* sec = part ? model_.find_section(part->secid) : nullptr;
    if (sec && (sec->elform == 1 || sec->elform == 9)) integrated.insert(model_.beams.id[e]);
    const Material* mat = part ? model_.find_material(part->mid) : nullptr;
    if (mat && mat->kind == MaterialKind::Null) null_beams.insert(model_.beams.id[e]);
  }
  for (const InitialAxialForceBeam& af : model_.axial_force_beams) {
    const auto set = model_.beam_sets.find(af.bsid);
    if (set == model_.beam_sets.end())
      throw InputError(af.loc, fmt::format("*INITIAL_AXIAL_FORCE_BEAM: beam set BSID = {} is not "
                                           "defined",
                                           af.bsid));
    const auto c = loads_.curves.find(af.lcid);
    if (c == loads_.curves.end())
      throw InputError(af.loc, fmt::format("*INITIAL_AXIAL_FORCE_BEAM: load curve LCID = {} is "
                                           "not defined",
                                           af.lcid));
    for (GlobalId id : set->second.members) {
      if (!integrated.count(id))
        throw InputError(af.loc, fmt::format("*INITIAL_AXIAL_FORCE_BEAM: beam {} of set {} is "
                                             "not an integrated beam (*SECTION_BEAM ELFORM 1 or "
                                             "9)",
                                             id, af.bsid));
      if (null_beams.count(id))
        throw InputError(af.loc, fmt::format("*INITIAL_AXIAL_FORCE_BEAM: beam {} of set {} has "
                                             "*MAT_NULL (no stiffness to hold a force)",
                                             id, af.bsid));
      const auto it = where.find(id);
      if (it == where.end()) continue; // on another rank, or rigid
      auto& blk = d_.beams[it->second.first].blk;
      blk.kbend[it->second.second] = af.kbend != 0;
      axial_forces_.push_back({it->second.first, it->second.second, c->second, af.scale});
    }
  }
}

void Integrator::update_axial_forces(Real t) {
  for (const AxialForce& af : axial_forces_) {
    const Curve& c = *af.curve;
    // LS-DYNA: the initialization is complete when the curve ends or returns to zero; the
    // beam then goes on from the stress it has.
    bool done = c.x.empty() || t > c.x.back();
    const Real f = c.eval(t);
    if (!done && f == 0)
      for (std::size_t i = 0; i < c.x.size() && c.x[i] < t; ++i)
        if (c.y[i] != 0) done = true;
    d_.beams[af.part].blk.preload[af.elem] =
        done ? std::numeric_limits<Real>::quiet_NaN() : af.scale * f;
  }
}

} // namespace parcae::explicit_detail
