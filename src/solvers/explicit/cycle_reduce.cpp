// The explicit cycle's one reduction over the ranks (par::CycleReduction).
#include "solvers/explicit/integrator.hpp"

namespace parcae::explicit_detail {

std::int64_t Integrator::cycle_reduce(std::optional<std::int64_t> stop_flags) {
  PhaseScope p(phases().time_step);
  par::CycleReduction& r = comms_.cycle;
  r.clear();
  // Step limit: the lexicographic minimum of (step, key) is the global step and, among the
  // ranks holding it, the lowest (kind, id) of a controlling element. A rank with an error
  // offers (-1, its rank): the lowest such rank reports.
  // The key of an element: its family's table index in the top bits, then its id.
  constexpr int kFamilyShift = 60; // ids below 2^60
  static_assert(kElementFamilies.size() <= 7, "the step key holds seven families");
  const bool error = !local_error_.empty();
  const std::int64_t key =
      step_.limit.kind.empty()
          ? INT64_MAX
          : (std::int64_t{find_element_family(step_.limit.kind)} << kFamilyShift) +
                step_.limit.elem;
  const std::size_t s_dt =
      r.add_min(error ? -1.0 : step_.limit.dt, error ? std::int64_t{comm_.rank()} : key);
  const bool welds = failable_body_count(d_) > 0;
  const std::size_t s_weld = welds ? r.add_exact(weld_force_sums(d_)) : 0;
  const std::size_t s_body = d_.bodies.empty() ? 0 : r.add_exact(body_resultant_sums());
  std::vector<Real> tie_local;
  if (!ties_.ties.empty()) tie_local = tie_sums();
  const std::size_t s_tie = ties_.ties.empty() ? 0 : r.add_owned(shared_tie_values(tie_local));
  const std::size_t s_rbe3 = rbe3_.list.empty() ? 0 : r.add_owned(interpolation_values());
  const std::size_t s_wall = rwalls_.impulse.empty() ? 0 : r.add_exact(rwalls_.impulse);
  const std::size_t s_flags = stop_flags ? r.add_sum(*stop_flags) : 0;
  const std::size_t s_added =
      ms_.endmas ? r.add_exact(std::span<const ExactSum>(&ms_.added, 1)) : 0;
  const int contact_cycle = std::exchange(contacts_.pending_cycle, -1);
  if (contact_cycle >= 0) contacts_.mpp->add_status(r);
  r.reduce();
  if (contact_cycle >= 0) contacts_.mpp->take_schedule(r);
  if (!rwalls_.impulse.empty()) { // moving walls take the total impulse of this cycle
    const std::vector<ExactSum> total = r.exact(s_wall);
    std::size_t j = 0;
    for (auto& wall : rwalls_.state)
      if (wall.wall.moving) advance_rigid_wall(wall, total[j++].result(), rwalls_.dt);
    rwalls_.impulse.clear();
  }
  if (r.min_value(s_dt) < 0) {
    const std::int64_t bad = r.min_key(s_dt);
    if (!local_error_.empty() && comm_.size() > 1)
      std::fprintf(stderr, "parcae: rank %d: %s\n", comm_.rank(), local_error_.c_str());
    throw Unstable{local_error_.empty() || comm_.rank() != bad
                       ? fmt::format("rank {} stopped the run (see its message)", bad)
                       : local_error_};
  }
  if (comm_.size() > 1) {
    const std::int64_t best = r.min_key(s_dt);
    step_.limit.dt = r.min_value(s_dt);
    if (best != INT64_MAX) {
      std::size_t family = 0;
      while (family + 1 < kElementFamilies.size() &&
             best >= (static_cast<std::int64_t>(family + 1) << kFamilyShift))
        ++family;
      step_.limit.kind = kElementFamilies[family].name;
      step_.limit.elem = best - (static_cast<std::int64_t>(family) << kFamilyShift);
      const auto& parts = step_.part_of[family];
      const auto it = std::lower_bound(
          parts.begin(), parts.end(), step_.limit.elem,
          [](const std::pair<GlobalId, GlobalId>& a, GlobalId id) { return a.first < id; });
      step_.limit.part = it == parts.end() || it->first != step_.limit.elem ? 0 : it->second;
    }
  }
  // After the element errors (reported first, as when the step was reduced before contact).
  if (contact_cycle >= 0) report_contact_status(contacts_.mpp->statuses(r), contact_cycle);
  if (welds) bodies_.weld_sums = r.exact(s_weld);
  if (ms_.endmas) ms_.global_added = r.exact(s_added)[0].result();
  if (!d_.bodies.empty()) bodies_.body_sums = r.exact(s_body);
  if (!ties_.ties.empty()) {
    merge_shared_ties(tie_local, r.owned(s_tie));
    apply_ties(tie_local);
  }
  if (!rbe3_.list.empty()) apply_interpolations(r.owned(s_rbe3));
  return stop_flags ? r.sum(s_flags) : 0;
}

} // namespace parcae::explicit_detail
