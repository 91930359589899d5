// Segment pressures of the explicit cycle (*LOAD_SEGMENT, _SET, *LOAD_SHELL_ELEMENT, _SET): a
// follower load on the current geometry, p A / 4 per corner of a quadrilateral (p A / 3 of a
// triangle; A = (1/2)(x3 - x1) x (x4 - x2), exact for a warped bilinear face), positive p
// against the segment normal of N1-N2-N3 as in LS-DYNA. Each segment is applied through the
// element whose face it is (mesh/faces.hpp): added to that element's corner forces in its force
// pass, so it travels with them in the halo exchange and the nodal sums are those of one rank.
#include <unordered_map>

#include "fem/airbag.hpp"
#include "mesh/faces.hpp"
#include "solvers/explicit/integrator.hpp"

namespace parcae::explicit_detail {

void Integrator::init_segment_pressures() {
  const auto& loads = model_.segment_loads;
  if (loads.empty()) return;
  std::vector<std::array<LocalId, 4>> segs;
  segs.reserve(loads.size());
  for (const SegmentLoad& l : loads) {
    std::array<LocalId, 4> s{};
    for (std::size_t a = 0; a < 4; ++a) s[a] = model_.node_index(l.nodes[a]);
    segs.push_back(s);
  }
  const std::vector<FaceElement> owner = find_face_elements(model_, segs);
  // this rank's elements by deck id: (part, element)
  std::unordered_map<GlobalId, std::pair<std::size_t, std::size_t>> solid_at, shell_at;
  for (const FaceElement& f : owner) {
    if (f.family == FaceElement::Family::Solid && solid_at.empty())
      for (std::size_t p = 0; p < d_.solids.size(); ++p)
        for (std::size_t k = 0; k < d_.solids[p].blk.size(); ++k)
          solid_at.emplace(d_.solids[p].elem_id[k], std::pair{p, k});
    if (f.family == FaceElement::Family::Shell && shell_at.empty())
      for (std::size_t p = 0; p < d_.shells.size(); ++p)
        for (std::size_t k = 0; k < d_.shells[p].blk.size(); ++k)
          shell_at.emplace(d_.shells[p].elem_id[k], std::pair{p, k});
  }
  press_.solid.assign(d_.solids.size(), {});
  press_.shell.assign(d_.shells.size(), {});
  press_.p.assign(loads.size(), 0.0);
  auto local = [&](LocalId g) {
    return d_.local_of_global.empty() ? g : d_.local_of_global[static_cast<std::size_t>(g)];
  };
  std::int64_t placed = 0;
  for (std::size_t s = 0; s < loads.size(); ++s) {
    const FaceElement& f = owner[s];
    if (f.family == FaceElement::Family::None) continue; // refused by the reader
    const bool solid = f.family == FaceElement::Family::Solid;
    const GlobalId id = solid ? model_.solids.id[f.index] : model_.shells.id[f.index];
    if (!solid) { // every rank decides it from the model (no rank may wait for another)
      const Part* part = model_.find_part(model_.shells.part[f.index]);
      const Section* sec = part ? model_.find_section(part->secid) : nullptr;
      if (sec && is_2d_solid(*sec))
        throw InputError({}, fmt::format("segment pressure on 2-D solid {} (part {}): pressures "
                                         "on 2-D solids (their edges) are not supported",
                                         id, part->id));
    }
    auto& at = solid ? solid_at : shell_at;
    const auto it = at.find(id);
    if (it == at.end()) continue; // another rank's element
    const auto [p, k] = it->second;
    SegmentPressures::Face face;
    face.elem = k;
    face.load = static_cast<std::uint32_t>(s);
    for (std::size_t a = 0; a < 4; ++a) {
      face.nodes[a] = local(segs[s][a]);
      const LocalId* conn =
          solid ? d_.solids[p].blk.conn[k].data() : d_.shells[p].blk.conn[k].data();
      const std::size_t nc = solid ? 8 : 4;
      std::size_t c = 0;
      while (c < nc && conn[c] != face.nodes[a]) ++c;
      face.corner[a] = static_cast<std::uint8_t>(c);
    }
    (solid ? press_.solid : press_.shell)[p].push_back(face);
    ++placed;
  }
  for (auto* fam : {&press_.solid, &press_.shell})
    for (auto& faces : *fam)
      std::stable_sort(faces.begin(), faces.end(),
                       [](const auto& a, const auto& b) { return a.elem < b.elem; });
  // Every segment the reader accepted is on exactly one rank's element (a deformable one).
  std::int64_t expected = 0;
  for (const FaceElement& f : owner) expected += f.family != FaceElement::Family::None;
  const std::int64_t total = comm_.sum(placed);
  if (total != expected)
    throw RuntimeError(fmt::format("segment pressures: {} of {} segments found no element to "
                                   "carry them (a segment on an element without forces, such "
                                   "as a rigid part's)",
                                   expected - total, expected));
}

void Integrator::update_segment_pressures(Real t) {
  const auto& loads = model_.segment_loads;
  for (std::size_t s = 0; s < press_.p.size(); ++s) {
    const SegmentLoad& l = loads[s];
    press_.p[s] = t >= l.at ? l.sf * curve(l.lcid, t - l.at) : 0.0;
  }
}

void Integrator::add_segment_pressures(const std::vector<SegmentPressures::Face>& faces,
                                       std::size_t b, std::size_t e, std::size_t k,
                                       CornerSpans corners, std::span<const std::uint8_t> failed) {
  auto it =
      std::lower_bound(faces.begin(), faces.end(), b,
                       [](const SegmentPressures::Face& f, std::size_t v) { return f.elem < v; });
  for (; it != faces.end() && it->elem < e; ++it) {
    const Real p = press_.p[it->load];
    if (p == 0 || failed[it->elem]) continue;
    Real f[12];
    face_pressure_forces(d_.x, it->nodes, -p, f);
    // corner arrays hold internal forces (subtracted at assembly)
    Real* cf = corners.f.data() + 3 * k * it->elem;
    for (std::size_t a = 0; a < 4; ++a)
      for (std::size_t i = 0; i < 3; ++i) cf[3 * it->corner[a] + i] -= f[3 * a + i];
  }
}

void Integrator::segment_pressure_work(const std::vector<Real>& v_old, Real dt_avg) {
  // As for the loads: the forces at x^n times the mean of the half-step velocities.
  auto work = [&](const std::vector<std::vector<SegmentPressures::Face>>& fam, auto&& failed) {
    for (std::size_t p = 0; p < fam.size(); ++p)
      for (const SegmentPressures::Face& face : fam[p]) {
        const Real pr = press_.p[face.load];
        if (pr == 0 || failed(p, face.elem)) continue;
        Real f[12];
        face_pressure_forces(d_.x, face.nodes, -pr, f);
        for (std::size_t a = 0; a < 4; ++a) {
          const std::size_t n = 3 * static_cast<std::size_t>(face.nodes[a]);
          for (std::size_t i = 0; i < 3; ++i)
            if (f[3 * a + i] != 0)
              loads_.work.add(dt_avg * f[3 * a + i] * 0.5 * (v_old[n + i] + d_.v[n + i]));
        }
      }
  };
  work(press_.solid, [&](std::size_t p, std::size_t k) { return d_.solids[p].blk.failed[k] != 0; });
  work(press_.shell, [&](std::size_t p, std::size_t k) { return d_.shells[p].blk.failed[k] != 0; });
}

} // namespace parcae::explicit_detail
