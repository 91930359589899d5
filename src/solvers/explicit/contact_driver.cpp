// Contact in the explicit solver: interfaces built from the deck, forces each cycle (one rank or
// MPP), rcforc/sleout histories.
#include "solvers/explicit/integrator.hpp"

namespace parcae::explicit_detail {

void Integrator::build_contacts(Domain& global) {
  contact_ = build_contact_model(model_);
  if (contact_.interfaces.empty()) return;
  const std::size_t nc = contact_.node_model.size();
  cx_.resize(3 * nc);
  cv_.resize(3 * nc);
  cm_.resize(nc);
  cf_.assign(3 * nc, 0.0);
  for (std::size_t k = 0; k < nc; ++k) {
    const auto n = static_cast<std::size_t>(contact_.node_model[k]);
    for (int i = 0; i < 3; ++i) {
      cx_[3 * k + i] = global.x[3 * n + i];
      cv_[3 * k + i] = global.v[3 * n + i];
    }
    cm_[k] = global.mass[n];
  }
  for (std::size_t i = 0; i < contact_.interfaces.size(); ++i) {
    const auto& ifc = contact_.interfaces[i];
    const ContactDef& def = *contact_.defs[i];
    contact_state_.push_back(contact::init_state(ifc, nc, cx_));
    const std::vector<Real> before = cx_;
    const auto pen = contact::initial_penetrations(ifc, contact_state_.back(), cx_);
    if (pen.empty()) continue;
    Real deepest = 0;
    GlobalId deepest_node = 0;
    for (const auto& r : pen)
      if (r.depth > deepest) {
        deepest = r.depth;
        deepest_node = model_.nodes.id[contact_.node_model[r.node]];
      }
    contact_report_.push_back(fmt::format(
        "  contact {} ({}): {} initially penetrating node(s), deepest {:.4e} at node {}: {}",
        def.id, def.keyword, pen.size(), deepest, deepest_node,
        ifc.p.ignore == 0 ? "moved back onto the surface (IGNORE = 0)"
                          : "penetration kept as an offset (IGNORE = 1)"));
  }
  // IGNORE = 0 moved nodes: the initial geometry is the corrected one.
  for (std::size_t k = 0; k < nc; ++k) {
    const auto n = static_cast<std::size_t>(contact_.node_model[k]);
    for (int i = 0; i < 3; ++i) global.x[3 * n + i] = global.x0[3 * n + i] = cx_[3 * k + i];
  }
}

void Integrator::contact_pass(int cycle, Real t, Real dt) {
  static const int search_phase = prof::phase_id("contact_search");
  static const int force_phase = prof::phase_id("contact_forces");
  {
    // This rank's contact nodes: current positions and velocities into the compact arrays.
    PhaseScope p(search_phase);
    for (LocalId k : contact_local_list_) {
      const auto l = static_cast<std::size_t>(contact_local_[static_cast<std::size_t>(k)]);
      for (int i = 0; i < 3; ++i) {
        cx_[3 * static_cast<std::size_t>(k) + i] = d_.x[3 * l + i];
        cv_[3 * static_cast<std::size_t>(k) + i] = d_.v[3 * l + i];
      }
    }
    if (mpp_contact_)
      mpp_contact_->begin_cycle(cycle, cx_, cv_); // searches, plan, ghost import
    else
      for (std::size_t i = 0; i < contact_state_.size(); ++i)
        contact::update_search(contact_.interfaces[i], contact_state_[i], cx_, cycle);
  }
  PhaseScope p(force_phase);
  std::vector<contact::ContactStatus> status(contact_state_.size());
  if (mpp_contact_) {
    for (std::size_t i = 0; i < contact_state_.size(); ++i)
      status[i] = contact::evaluate_contacts(contact_.interfaces[i], contact_state_[i], cx_, cv_,
                                             cm_, t, dt);
    // Forces now; the statuses wait for the cycle's reduction (report_contact_status).
    mpp_contact_->finish_cycle(status, cv_, dt, cf_);
    contact_cycle_ = cycle;
  } else {
    std::fill(cf_.begin(), cf_.end(), 0.0);
    for (std::size_t i = 0; i < contact_state_.size(); ++i)
      status[i] = contact::contact_forces(contact_.interfaces[i], contact_state_[i], cx_, cv_, cm_,
                                          t, dt, cf_);
  }
  if (!mpp_contact_) report_contact_status(status, cycle);
  for (LocalId k : contact_local_list_) {
    const auto l = static_cast<std::size_t>(contact_local_[static_cast<std::size_t>(k)]);
    for (int i = 0; i < 3; ++i) f_contact_[3 * l + i] = cf_[3 * static_cast<std::size_t>(k) + i];
  }
}

void Integrator::report_contact_status(const std::vector<contact::ContactStatus>& status,
                                       int cycle) {
  for (std::size_t i = 0; i < contact_state_.size(); ++i) {
    const ContactDef& def = *contact_.defs[i];
    auto node_id = [&](LocalId k) { return model_.nodes.id[contact_.node_model[k]]; };
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
  if (mpp_contact_) energies = mpp_contact_->gather_for_output();
  if (!rcforc_) return;
  InterfaceState s;
  s.time = t;
  for (std::size_t i = 0; i < contact_state_.size(); ++i) {
    const auto& cs = contact_state_[i];
    InterfaceForce f;
    f.id = contact_.defs[i]->id;
    f.secondary = cs.resultant_secondary;
    f.main = cs.resultant_main;
    f.e_secondary = mpp_contact_ ? energies[i].secondary : cs.e_secondary.result();
    f.e_main = mpp_contact_ ? energies[i].main : cs.e_main.result();
    f.e_friction = mpp_contact_ ? energies[i].friction : cs.e_friction.result();
    s.interfaces.push_back(f);
  }
  rcforc_->write(s);
  sleout_->write(s);
}

} // namespace parcae::explicit_detail
