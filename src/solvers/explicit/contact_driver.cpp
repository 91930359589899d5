// Contact in the explicit solver: interfaces built from the deck, forces each cycle (one rank or
// MPP), rcforc/sleout histories.
#include "solvers/explicit/integrator.hpp"

namespace parcae::explicit_detail {

void Integrator::build_contacts(Domain& global) {
  contacts_.model = build_contact_model(model_);
  if (contacts_.model.interfaces.empty() && contacts_.model.edge_sets.empty()) return;
  const std::size_t nc = contacts_.model.node_model.size();
  contacts_.cx.resize(3 * nc);
  contacts_.cv.resize(3 * nc);
  contacts_.cm.resize(nc);
  contacts_.cf.assign(3 * nc, 0.0);
  for (std::size_t k = 0; k < nc; ++k) {
    const auto n = static_cast<std::size_t>(contacts_.model.node_model[k]);
    for (int i = 0; i < 3; ++i) {
      contacts_.cx[3 * k + i] = global.x[3 * n + i];
      contacts_.cv[3 * k + i] = global.v[3 * n + i];
    }
    contacts_.cm[k] = global.mass[n];
  }
  // The rigid body carrying each contact node (bodies that stay rigid: not welds, which fail):
  // pairs within one body are never searched.
  // (the interfaces read it in init_state only: each has it for that call, not a copy each)
  std::vector<int> body;
  {
    body.assign(nc, -1);
    bool any = false;
    for (std::size_t k = 0; k < nc; ++k) {
      const int b = global.rigid_of[static_cast<std::size_t>(contacts_.model.node_model[k])];
      if (b >= 0 && !global.bodies[static_cast<std::size_t>(b)].can_fail()) {
        body[k] = b;
        any = true;
      }
    }
    if (any)
      for (auto& es : contacts_.model.edge_sets) es.node_body = body;
    else
      body = {};
  }
  // Beam edges: the first search; pairs that overlap at the start keep the overlap as an
  // offset.
  // (the edge arrays only with edge sets: edge_pass and the force sum read them then only)
  if (!contacts_.model.edge_sets.empty()) {
    contacts_.ex = contacts_.cx;
    contacts_.ev = contacts_.cv;
    contacts_.ef.assign(3 * nc, 0.0);
  }
  for (std::size_t i = 0; i < contacts_.model.edge_sets.size(); ++i) {
    const contact::EdgeSet& es = contacts_.model.edge_sets[i];
    contacts_.edge_state.push_back(contact::init_edges(es, contacts_.cx));
    const contact::EdgeState& st = contacts_.edge_state.back();
    contacts_.edge_nodes.insert(contacts_.edge_nodes.end(), st.nodes.begin(), st.nodes.end());
    std::size_t overlapping = 0;
    Real deepest = 0;
    for (Real o : st.offset)
      if (o > 0) ++overlapping, deepest = std::max(deepest, o);
    if (overlapping > 0) {
      const ContactDef& def = *contacts_.model.edge_defs[i];
      contacts_.report.push_back(
          fmt::format("  contact {} ({}): {} beam pair(s) overlap initially, deepest {:.4e}: "
                      "kept as offsets",
                      def.id, def.keyword, overlapping, deepest));
    }
  }
  std::sort(contacts_.edge_nodes.begin(), contacts_.edge_nodes.end());
  contacts_.edge_nodes.erase(std::unique(contacts_.edge_nodes.begin(), contacts_.edge_nodes.end()),
                             contacts_.edge_nodes.end());
  std::vector<std::size_t> constraint_ties; // interfaces that become tie constraints
  for (std::size_t i = 0; i < contacts_.model.interfaces.size(); ++i) {
    auto& ifc = contacts_.model.interfaces[i];
    const ContactDef& def = *contacts_.model.defs[i];
    ifc.node_body = std::move(body);
    contacts_.state.push_back(contact::init_state(ifc, nc, contacts_.cx));
    body = std::move(ifc.node_body);
    ifc.node_body = {};
    if (ifc.p.tiebreak != 0) {
      const std::size_t tied =
          contact::tie_initial_contacts(ifc, contacts_.state.back(), contacts_.cx);
      contacts_.report.push_back(fmt::format("  contact {} ({}): tiebreak OPTION {}: {} node(s) "
                                             "initially in contact tied",
                                             def.id, def.keyword, ifc.p.tiebreak, tied));
    }
    if (ifc.p.tied) { // tied contacts: no contact for the nodes left untied (LS-DYNA warns)
      const std::size_t tied =
          contact::tie_initial_contacts(ifc, contacts_.state.back(), contacts_.cx);
      std::size_t nodes = 0;
      for (const auto& ps : contacts_.state.back().passes) nodes += ps.nodes.size();
      contacts_.report.push_back(fmt::format("  contact {} ({}): {} of {} secondary node(s) "
                                             "tied{}{}",
                                             def.id, def.keyword, tied, nodes,
                                             def.tied >= 2 ? " by constraints" : "",
                                             tied < nodes ? " (the others are too far from the "
                                                            "main surface: free)"
                                                          : ""));
      if (def.tied >= 2) {
        // Its ties now (in interface order, as before; they read the masses and velocities of
        // the domain, which the contact set-up leaves alone), then its surfaces and search state
        // go: the interface itself leaves the list below.
        constraint_ties.push_back(i);
        add_constraint_ties(i, global);
        contacts_.model.interfaces[i] = contact::Interface{};
        contacts_.model.life[i] = InterfaceLife{};
        contacts_.state.back() = contact::ContactState{};
      }
      continue;
    }
    const auto pen = contact::initial_penetrations(ifc, contacts_.state.back(), contacts_.cx);
    if (pen.empty()) continue;
    Real deepest = 0;
    GlobalId deepest_node = 0;
    for (const auto& r : pen)
      if (r.depth > deepest) {
        deepest = r.depth;
        deepest_node = model_.nodes.id[contacts_.model.node_model[r.node]];
      }
    contacts_.report.push_back(fmt::format(
        "  contact {} ({}): {} initially penetrating node(s), deepest {:.4e} at node {}: {}",
        def.id, def.keyword, pen.size(), deepest, deepest_node,
        ifc.p.ignore == 0 ? "moved back onto the surface (IGNORE = 0)"
                          : "penetration kept as an offset (IGNORE = 1)"));
  }
  // Constraint-based ties leave the contact interfaces (no contact forces: the solver moves the
  // tied nodes with their segments, tie_pass.cpp; their ties were added above).
  for (auto it = constraint_ties.rbegin(); it != constraint_ties.rend(); ++it) {
    const auto at = static_cast<std::ptrdiff_t>(*it);
    contacts_.model.interfaces.erase(contacts_.model.interfaces.begin() + at);
    contacts_.model.defs.erase(contacts_.model.defs.begin() + at);
    contacts_.model.life.erase(contacts_.model.life.begin() + at);
    contacts_.state.erase(contacts_.state.begin() + at);
  }
  // IGNORE = 0 moved nodes: the initial geometry is the corrected one.
  for (std::size_t k = 0; k < nc; ++k) {
    const auto n = static_cast<std::size_t>(contacts_.model.node_model[k]);
    for (int i = 0; i < 3; ++i)
      global.x[3 * n + i] = global.x0[3 * n + i] = contacts_.cx[3 * k + i];
  }
}

void Integrator::contact_pass(int cycle, Real t, Real dt) {
  static const int search_phase = prof::phase_id("contact_search");
  static const int force_phase = prof::phase_id("contact_forces");
  {
    // This rank's contact nodes: current positions and velocities into the compact arrays.
    PhaseScope p(search_phase);
    for (LocalId k : contacts_.local_list) {
      const auto l = static_cast<std::size_t>(contacts_.local[static_cast<std::size_t>(k)]);
      for (int i = 0; i < 3; ++i) {
        contacts_.cx[3 * static_cast<std::size_t>(k) + i] = d_.x[3 * l + i];
        contacts_.cv[3 * static_cast<std::size_t>(k) + i] = d_.v[3 * l + i];
      }
    }
    if (contacts_.mpp)
      contacts_.mpp->begin_cycle(cycle, contacts_.cx, contacts_.cv); // searches, plan, ghost import
    else
      for (std::size_t i = 0; i < contacts_.state.size(); ++i)
        contact::search_if_due(contacts_.model.interfaces[i], contacts_.state[i], contacts_.cx,
                               cycle);
  }
  PhaseScope p(force_phase);
  std::vector<contact::ContactStatus> status(contacts_.state.size());
  if (contacts_.state.empty()) {
    // beam edges only
  } else if (contacts_.mpp) {
    for (std::size_t i = 0; i < contacts_.state.size(); ++i)
      status[i] = contact::evaluate_contacts(contacts_.model.interfaces[i], contacts_.state[i],
                                             contacts_.cx, contacts_.cv, contacts_.cm, t, dt);
    // Forces now; the statuses wait for the cycle's reduction (report_contact_status).
    contacts_.mpp->finish_cycle(status, contacts_.cv, dt, contacts_.cf);
    // The next cycle's searches: agreed in this cycle's reduction (cycle_reduce).
    contacts_.mpp->predict_searches(contacts_.cx, contacts_.cv, dt);
    contacts_.pending_cycle = cycle;
  } else {
    std::fill(contacts_.cf.begin(), contacts_.cf.end(), 0.0);
    for (std::size_t i = 0; i < contacts_.state.size(); ++i)
      status[i] =
          contact::contact_forces(contacts_.model.interfaces[i], contacts_.state[i], contacts_.cx,
                                  contacts_.cv, contacts_.cm, t, dt, contacts_.cf);
  }
  if (!contacts_.mpp && !contacts_.state.empty()) {
    report_contact_status(status, cycle);
    // The next cycle's searches, decided as the MPP run decides them (contact_mpp.cpp).
    for (std::size_t i = 0; i < contacts_.state.size(); ++i) {
      contact::ContactState& st = contacts_.state[i];
      contact::schedule_search(contacts_.model.interfaces[i], st,
                               contact::largest_predicted_move(st, contacts_.cx, contacts_.cv, dt));
    }
  }
  if (!contacts_.edge_state.empty()) edge_pass(cycle, t, dt);
  // The total contact force of every local contact node: the surface contacts' (complete on
  // every rank holding the node), then the beam edges' (every rank computes them all).
  const bool edges = !contacts_.edge_state.empty();
  for (LocalId k : contacts_.local_list) {
    const auto l = static_cast<std::size_t>(contacts_.local[static_cast<std::size_t>(k)]);
    for (int i = 0; i < 3; ++i) {
      const std::size_t c = 3 * static_cast<std::size_t>(k) + i;
      contacts_.f[3 * l + i] = edges ? contacts_.cf[c] + contacts_.ef[c] : contacts_.cf[c];
    }
  }
}

void Integrator::edge_pass(int cycle, Real t, Real dt) {
  // MPP: the positions and velocities of all edge nodes on every rank, each sent by its owner
  // (index, x, v: 7 values per node, one allgatherv per cycle); values are copied, never summed,
  // so every rank has the one-rank run's bits. Cost: O(edge nodes) traffic and every rank
  // computes every pair, which suits the small beam sets of bolts and hole linings (thousands
  // of edges); a large beam model would want the distributed search of contact_mpp.cpp.
  if (comm_.size() > 1) {
    std::vector<double> mine;
    mine.reserve(7 * contacts_.edge_owned.size());
    for (LocalId k : contacts_.edge_owned) {
      const auto c = 3 * static_cast<std::size_t>(k);
      mine.push_back(static_cast<double>(k));
      for (int i = 0; i < 3; ++i) mine.push_back(contacts_.cx[c + i]);
      for (int i = 0; i < 3; ++i) mine.push_back(contacts_.cv[c + i]);
    }
    const std::vector<double> all = comm_.allgatherv(mine);
    if (all.size() != 7 * contacts_.edge_nodes.size())
      throw RuntimeError(fmt::format("beam contact: {} edge nodes gathered, {} expected (every "
                                     "edge node must be owned by one rank)",
                                     all.size() / 7, contacts_.edge_nodes.size()));
    for (std::size_t j = 0; j < all.size(); j += 7) {
      const auto c = 3 * static_cast<std::size_t>(all[j]);
      for (int i = 0; i < 3; ++i) {
        contacts_.ex[c + i] = all[j + 1 + i];
        contacts_.ev[c + i] = all[j + 4 + i];
      }
    }
  } else {
    for (LocalId k : contacts_.edge_nodes) {
      const auto c = 3 * static_cast<std::size_t>(k);
      for (int i = 0; i < 3; ++i) {
        contacts_.ex[c + i] = contacts_.cx[c + i];
        contacts_.ev[c + i] = contacts_.cv[c + i];
      }
    }
  }
  std::fill(contacts_.ef.begin(), contacts_.ef.end(), 0.0);
  for (std::size_t i = 0; i < contacts_.edge_state.size(); ++i) {
    const contact::EdgeSet& es = contacts_.model.edge_sets[i];
    contact::EdgeState& st = contacts_.edge_state[i];
    contact::edge_search_if_due(es, st, contacts_.ex, cycle);
    const contact::EdgeStatus s = contact::edge_contact_forces(es, st, contacts_.ex, contacts_.ev,
                                                               contacts_.cm, t, dt, contacts_.ef);
    if (!s.ok) { // every rank sees the same pairs: all throw together
      const ContactDef& def = *contacts_.model.edge_defs[i];
      auto beam_nodes = [&](LocalId e) {
        const contact::Edge& ed = es.edge[static_cast<std::size_t>(e)];
        return fmt::format("{}-{}", model_.nodes.id[contacts_.model.node_model[ed[0]]],
                           model_.nodes.id[contacts_.model.node_model[ed[1]]]);
      };
      throw Unstable{fmt::format("contact {} ({}) blew up in cycle {}: the beams on nodes {} and "
                                 "{} overlap by {:.3e}, nearly their whole radii",
                                 def.id, def.keyword, cycle, beam_nodes(s.blowup[0]),
                                 beam_nodes(s.blowup[1]), s.blowup_depth)};
    }
  }
}

void Integrator::report_contact_status(const std::vector<contact::ContactStatus>& status,
                                       int cycle) {
  for (std::size_t i = 0; i < contacts_.state.size(); ++i) {
    const ContactDef& def = *contacts_.model.defs[i];
    auto node_id = [&](LocalId k) { return model_.nodes.id[contacts_.model.node_model[k]]; };
    if (!status[i].ok) {
      std::string nodes;
      for (std::size_t j = 0; j < status[i].blowup.size() && j < 8; ++j)
        nodes += fmt::format("{}node {} (penetration {:.3e})", j ? ", " : "",
                             node_id(status[i].blowup[j].node), status[i].blowup[j].depth);
      throw Unstable{fmt::format("contact {} ({}) blew up in cycle {}: {}{}", def.id, def.keyword,
                                 cycle, nodes, status[i].blowup.size() > 8 ? ", ..." : "")};
    }
    if (!status[i].released.empty() && opt_.log)
      *opt_.log << fmt::format("  warning: contact {}: {} node(s) released beyond the maximum "
                               "penetration in cycle {} (first: node {})\n",
                               def.id, status[i].released.size(), cycle,
                               node_id(status[i].released.front().node));
  }
}

void Integrator::write_contact_histories(Real t) {
  // MPP: energies reduced, resultants gathered on rank 0 (collective)
  std::vector<MppContact::InterfaceEnergies> energies;
  if (contacts_.mpp) energies = contacts_.mpp->gather_for_output();
  if (!contacts_.rcforc) return;
  InterfaceState s;
  s.time = t;
  // Beam edge contacts: with the surface interface of their card when it has one, else their
  // own entry (after the surface interfaces, as in the legend). Every rank has their energies.
  auto add_edges = [&](InterfaceForce& f, const contact::EdgeState& es) {
    for (int i = 0; i < 3; ++i) {
      f.secondary[i] += es.resultant_a[i];
      f.main[i] += es.resultant_b[i];
    }
    f.e_secondary += es.e_interface.result();
    f.e_friction += es.e_friction.result();
  };
  for (std::size_t i = 0; i < contacts_.state.size(); ++i) {
    const auto& cs = contacts_.state[i];
    InterfaceForce f;
    f.id = contacts_.model.defs[i]->id;
    f.secondary = cs.resultant_secondary;
    f.main = cs.resultant_main;
    f.e_secondary = contacts_.mpp ? energies[i].secondary : cs.e_secondary.result();
    f.e_main = contacts_.mpp ? energies[i].main : cs.e_main.result();
    f.e_friction = contacts_.mpp ? energies[i].friction : cs.e_friction.result();
    for (std::size_t j = 0; j < contacts_.edge_state.size(); ++j)
      if (contacts_.model.edge_defs[j] == contacts_.model.defs[i])
        add_edges(f, contacts_.edge_state[j]);
    s.interfaces.push_back(f);
  }
  for (std::size_t j = 0; j < contacts_.edge_state.size(); ++j) {
    const ContactDef* def = contacts_.model.edge_defs[j];
    if (std::find(contacts_.model.defs.begin(), contacts_.model.defs.end(), def) !=
        contacts_.model.defs.end())
      continue;
    InterfaceForce f;
    f.id = def->id;
    add_edges(f, contacts_.edge_state[j]);
    s.interfaces.push_back(f);
  }
  contacts_.rcforc->write(s);
  contacts_.sleout->write(s);
}

} // namespace parcae::explicit_detail
