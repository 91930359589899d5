// Checkpoint and restart of the explicit solver: the state archive, writing, finding and loading.
#include "solvers/explicit/integrator.hpp"

namespace parcae::explicit_detail {

void Integrator::visit_state(StateArchive& ar, LoopVars& lv) {
  std::uint64_t fp = domain_fingerprint(d_);
  const std::uint64_t mine = fp;
  ar.pod(fp);
  if (ar.loading() && fp != mine)
    throw RuntimeError("the checkpoint was written for another model or decomposition (mesh "
                       "fingerprint differs): restart with the same deck and rank count");
  ar.pod(lv);
  visit_domain_state(ar, d_);
  ar.vec(loads_.f);
  ar.vec(loads_.m);
  for (auto& w : rwalls_.state) {
    ar.pod(w.p);
    ar.pod(w.velocity);
    ar.pod(w.normal_force);
    ar.pod(w.impulse_last);
    ar.pod(w.dt_last);
  }
  ar.pod(step_.limit.dt);
  ar.str(step_.limit.kind);
  ar.pod(step_.limit.elem);
  ar.pod(step_.limit.part);
  ar.pod(loads_.work);
  ar.pod(rwalls_.work);
  if (!loads_.damp_f.empty()) ar.pod(loads_.damp_work); // *DAMPING_GLOBAL decks only
  for (auto& bag : airbags_.bags) {
    ar.pod(bag.volume);
    ar.pod(bag.pressure);
    ar.pod(bag.vcg);
    ar.pod(bag.prev_volume);
    ar.pod(bag.prev_pressure);
    ar.pod(bag.have_prev);
    for (Real* v :
         {&bag.gas_m, &bag.gas_e, &bag.gas_p, &bag.gas_v, &bag.gas_t, &bag.gas_in, &bag.gas_out})
      ar.pod(*v);
  }
  if (ms_.on) { // mass scaling during the run: the corners' gains (the masses are the domain's)
    for (auto& v : ms_.dm) ar.vec(v);
    for (auto& v : ms_.di) ar.vec(v);
    ar.pod(ms_.added);
    ar.pod(ms_.ke_added);
  }
  bool has_hist = out_.hist != nullptr;
  ar.pod(has_hist);
  if (has_hist != (out_.hist != nullptr))
    throw RuntimeError("the checkpoint and this run differ in their history outputs");
  if (out_.hist) out_.hist->visit_state(ar);
  std::uint64_t ncontact = contacts_.state.size();
  ar.pod(ncontact);
  if (ncontact != contacts_.state.size())
    throw RuntimeError("the checkpoint and this run differ in their contacts");
  for (auto& cs : contacts_.state) {
    for (auto& ps : cs.passes) {
      for (auto* v : {&ps.node_half_t, &ps.seg_half_t, &ps.ft, &ps.pen_prev, &ps.offset, &ps.fn,
                      &ps.shape, &ps.diss, &ps.flag_depth})
        ar.vec(*v);
      for (auto* v : {&ps.nodes, &ps.cand_seg, &ps.adj_seg, &ps.tracked, &ps.seg_of, &ps.flag_seg})
        ar.vec(*v);
      ar.vec(ps.cand_start);
      ar.vec(ps.adj_start);
      ar.vec(ps.contact_side);
      ar.vec(ps.released);
      ar.vec(ps.tie_state); // tiebreak (empty for other contacts)
      ar.vec(ps.tie_seg);
      ar.vec(ps.tie_shape);
      ar.vec(ps.tie_gap);
      ar.vec(ps.node_area);
      ar.vec(ps.tie_now);
      ar.vec(ps.tie_corner);
      ar.vec(ps.flag);
      ps.set_stale(); // (the force kernel's node list is rebuilt from the restored state)
      ar.pod(ps.on_main);
      ar.pod(ps.sf);
    }
    ar.vec(cs.all_nodes);
    ar.vec(cs.slot_of);
    for (auto* v : {&cs.x_search, &cs.f_prev, &cs.f_now}) ar.vec(*v);
    cs.slots_valid = false; // (derived from f_prev / f_now)
    ar.vec(cs.slot_main);
    ar.pod(cs.margin);
    ar.pod(cs.dt_c);
    ar.pod(cs.last_search_cycle);
    ar.pod(cs.search_due_next);
    ar.pod(cs.n_searches);
    ar.pod(cs.e_interface);
    ar.pod(cs.e_friction);
    ar.pod(cs.e_secondary);
    ar.pod(cs.e_main);
    ar.pod(cs.resultant_secondary);
    ar.pod(cs.resultant_main);
  }
  // beam edge contacts: candidates and their history (friction, normals, offsets), energies
  std::uint64_t nedge = contacts_.edge_state.size();
  ar.pod(nedge);
  if (nedge != contacts_.edge_state.size())
    throw RuntimeError("the checkpoint and this run differ in their beam contacts");
  for (auto& es : contacts_.edge_state) {
    ar.vec(es.nodes);
    ar.vec(es.cand);
    for (auto* v : {&es.ft, &es.normal, &es.offset, &es.x_search, &es.f_prev, &es.f_now})
      ar.vec(*v);
    ar.vec(es.touching);
    ar.pod(es.margin);
    ar.pod(es.dt_c);
    ar.pod(es.last_search_cycle);
    ar.pod(es.n_searches);
    ar.pod(es.e_interface);
    ar.pod(es.e_friction);
    ar.pod(es.resultant_a);
    ar.pod(es.resultant_b);
  }
  out_.plot.visit_state(ar);
  ar.expect_end();
}

std::string Integrator::write_checkpoint_now(const LoopVars& lv) {
  namespace fs = std::filesystem;
  // Two passes: count the bytes, then save into a buffer reserved once.
  StateArchive sizing = StateArchive::sizing();
  LoopVars copy = lv;
  visit_state(sizing, copy);
  StateArchive ar;
  ar.reserve(sizing.size());
  copy = lv;
  visit_state(ar, copy);
  CheckpointInfo info;
  info.cycle = lv.cycle;
  info.time = lv.t;
  info.deck = opt_.deck_path;
  info.fingerprint = domain_fingerprint(d_);
  if (comm_.rank() == 0) {
    info.outputs = output_file_sizes(opt_.outdir);
    info.outputs.erase("parcae.pvd"); // rewritten whole at every state, not appended
  }
  return write_checkpoint(comm_, opt_.outdir, info, ar.bytes()).string();
}

CheckpointInfo Integrator::prepare_restart() {
  return parcae::prepare_restart(comm_, opt_.restart_from, opt_.outdir);
}

void Integrator::restore_checkpoint(const CheckpointInfo& info, LoopVars& lv) {
  namespace fs = std::filesystem;
  std::string error;
  try {
    const fs::path file = info.dir / fmt::format("rank-{:05d}.bin", comm_.rank());
    StateArchive ar(read_checkpoint_file(file), file.string());
    visit_state(ar, lv);
  } catch (const std::exception& e) {
    error = e.what();
  }
  if (comm_.any(!error.empty()))
    throw RuntimeError(error.empty() ? "restart failed on another rank" : error);
  if (contacts_.mpp) contacts_.mpp->invalidate_plan();
  out_.plot.rewrite_pvd();
}

} // namespace parcae::explicit_detail
