// The fixed-order gather of the contact forces (contact.hpp, assemble_contacts).
#include <algorithm>
#include <array>
#include <utility>

#include "contact/contact.hpp"

namespace parcae::contact {

void assemble_contacts(const Interface& ifc, ContactState& st, std::span<const Real> v, Real dt,
                       std::span<Real> f) {
  // Only the slots that carry a force are visited: this cycle's (slots_now) and last cycle's
  // (slots_prev, for the work); every other slot's force is zero in both buffers. The lists are
  // derived state: after a restart they are rebuilt from the restored buffers.
  const std::size_t nslot = st.all_nodes.size();
  if (!st.slots_valid || st.slot_stamp.size() != nslot) {
    std::fill(st.f_now.begin(), st.f_now.end(), 0.0);
    st.slots_prev.clear();
    for (std::size_t i = 0; i < nslot; ++i)
      if (st.f_prev[3 * i] != 0 || st.f_prev[3 * i + 1] != 0 || st.f_prev[3 * i + 2] != 0)
        st.slots_prev.push_back(static_cast<LocalId>(i));
    st.slots_now.clear();
    st.slot_stamp.assign(nslot, -1);
    st.stamp = 0;
    st.slots_valid = true;
  } else {
    for (LocalId i : st.slots_now) // (the buffer of two cycles ago)
      for (int c = 0; c < 3; ++c) st.f_now[3 * static_cast<std::size_t>(i) + c] = 0;
    st.slots_now.clear();
  }
  const std::int64_t stamp = ++st.stamp;
  auto touch = [&](std::size_t slot) {
    if (st.slot_stamp[slot] == stamp) return;
    st.slot_stamp[slot] = stamp;
    st.slots_now.push_back(static_cast<LocalId>(slot));
  };
  // gather in a fixed order
  std::array<Real, 3> rs{}, rm{};
  for (const Pass& ps : st.passes) {
    const Surface& s = surface_of(ifc, ps);
    const bool nsec = nodes_are_secondary(ifc, ps);
    // (the nodes in contact are among the live ones, ascending: the same order as all nodes)
    const std::size_t nk = ps.live_valid ? ps.live.size() : ps.nodes.size();
    for (std::size_t i = 0; i < nk; ++i) {
      const std::size_t k = ps.live_valid ? static_cast<std::size_t>(ps.live[i]) : i;
      const LocalId e = ps.seg_of[k];
      if (e == kInvalidLocal) continue;
      const Real* F = &ps.fn[3 * k];
      const auto slot_n =
          static_cast<std::size_t>(st.slot_of[static_cast<std::size_t>(ps.nodes[k])]);
      touch(slot_n);
      const auto sn = 3 * slot_n;
      for (int i = 0; i < 3; ++i) st.f_now[sn + i] += F[i];
      const Segment& c = s.seg[static_cast<std::size_t>(e)];
      const int na = c[2] == c[3] ? 3 : 4;
      const bool tie = !ps.tie_now.empty() && ps.tie_now[k] != 0;
      for (int a = 0; a < na; ++a) {
        const Real w = ps.shape[4 * k + a];
        const auto slot_a = static_cast<std::size_t>(st.slot_of[static_cast<std::size_t>(c[a])]);
        touch(slot_a);
        const auto sa = 3 * slot_a;
        if (tie) // (the MPP gather sends these with weight -1: the same sum)
          for (int i = 0; i < 3; ++i) st.f_now[sa + i] -= -1.0 * ps.tie_corner[12 * k + 3 * a + i];
        else
          for (int i = 0; i < 3; ++i) st.f_now[sa + i] -= w * F[i];
      }
      for (int i = 0; i < 3; ++i) {
        (nsec ? rs : rm)[i] += F[i];
        (nsec ? rm : rs)[i] -= F[i];
      }
    }
  }
  st.resultant_secondary = rs;
  st.resultant_main = rm;

  // Add to f; trapezoidal work 0.5 (f_prev + f_now) . v dt per node. Work done ON the structure
  // by contact forces is -(energy stored/dissipated in the interface): the interface energy is
  // minus the work of the contact forces (exact sums: the order does not matter, zeros add
  // nothing).
  auto account = [&](std::size_t i, bool apply) {
    const auto s3 = 3 * i;
    const auto g = 3 * static_cast<std::size_t>(st.all_nodes[i]);
    Real w = 0;
    for (int c = 0; c < 3; ++c) {
      if (apply) f[g + c] += st.f_now[s3 + c];
      w += (st.f_prev[s3 + c] + st.f_now[s3 + c]) * v[g + c];
    }
    const Real work = -(0.5 * dt * w);
    if (work == 0) return;
    st.e_interface.add(work);
    (st.slot_main[i] ? st.e_main : st.e_secondary).add(work);
  };
  for (LocalId i : st.slots_now) account(static_cast<std::size_t>(i), true);
  for (LocalId i : st.slots_prev) // (out of contact now: f_now is zero there)
    if (st.slot_stamp[static_cast<std::size_t>(i)] != stamp)
      account(static_cast<std::size_t>(i), false);
  std::swap(st.f_prev, st.f_now);
  std::swap(st.slots_prev, st.slots_now);
}

} // namespace parcae::contact
