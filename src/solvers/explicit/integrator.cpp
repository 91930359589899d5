// The explicit integrator's construction: the (restricted) domain, the contact coupling, loads,
// walls, erosion and the halo exchange plan. The time loop is in solver.cpp.
#include "solvers/explicit/integrator.hpp"

namespace parcae::explicit_detail {

Integrator::Integrator(const Model& model, const RunOptions& opt)
    : model_(model), opt_(opt), comm_(opt.comm ? *opt.comm : serial_comm_) {
  Domain global = build_domain(model);
  build_contacts(global);
  if (comm_.size() > 1) {
    if (!opt.ranks) throw RuntimeError("an MPP run needs a decomposition (RunOptions::ranks)");
    d_ = restrict_domain(global, *opt.ranks, comm_.size(), comm_.rank());
  } else {
    d_ = std::move(global);
  }
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
  for (std::size_t e = 0; e < model.solids.size(); ++e)
    step_.part_of[SolidFamily::kIndex][model.solids.id[e]] = model.solids.part[e];
  for (std::size_t e = 0; e < model.shells.size(); ++e)
    step_.part_of[ShellFamily::kIndex][model.shells.id[e]] = model.shells.part[e];
  for (std::size_t e = 0; e < model.beams.size(); ++e)
    step_.part_of[TrussFamily::kIndex][model.beams.id[e]] = model.beams.part[e];
  loads_.f.assign(3 * d_.nnode, 0.0);
  loads_.m.assign(3 * d_.nnode, 0.0);
  rwalls_.state = make_rigid_walls(model, d_);
  init_erosion();
  init_airbags();
  std::vector<par::Exchange::Neighbour> nb;
  for (const auto& h : d_.halo)
    nb.push_back({h.rank,
                  3 * h.send_solid.size() + 6 * h.send_shell.size() + 3 * h.send_truss.size(),
                  3 * h.recv_solid + 6 * h.recv_shell + 3 * h.recv_truss});
  if (!nb.empty()) comms_.halo = std::make_unique<par::Exchange>(comm_, std::move(nb));
}

} // namespace parcae::explicit_detail
