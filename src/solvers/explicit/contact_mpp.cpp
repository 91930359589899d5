// Distributed penalty contact (see contact_mpp.hpp).
#include "solvers/explicit/contact_mpp.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

#include <fmt/format.h>

#include "core/error.hpp"

namespace parcae {

namespace {

using contact::ContactState;
using contact::Interface;
using contact::Pass;
using contact::Segment;

inline std::size_t sz(LocalId i) {
  return static_cast<std::size_t>(i);
}

/// One force contribution to a node, in the one-rank gather order (interface, pass, node k,
/// corner a: 0 = the node's own force, a > 0 = reaction on corner a - 1 with weight w).
struct Contribution {
  std::int64_t iface = 0, pass = 0;
  LocalId target = 0, k = 0;
  int a = 0;
  Real w = 0;
  Real f[3] = {0, 0, 0};
};
constexpr std::size_t kContribWords = 9;

} // namespace

MppContact::MppContact(const par::Comm& comm, const ContactModel& model,
                       std::vector<ContactState>& states, std::vector<std::uint8_t> local,
                       std::vector<std::uint8_t> owned)
    : comm_(comm), model_(model), states_(states), nc_(model.node_model.size()),
      local_(std::move(local)), owned_(std::move(owned)) {
  const auto np = static_cast<std::int64_t>(comm_.size());
  // Which ranks hold each contact node, and which one owns it: every rank publishes its local
  // contact nodes as k * 2np + owned * np + rank.
  std::vector<double> mine;
  for (std::size_t k = 0; k < nc_; ++k)
    if (local_[k])
      mine.push_back(static_cast<double>(static_cast<std::int64_t>(k) * 2 * np +
                                         (owned_[k] ? np : 0) + comm_.rank()));
  const std::vector<double> all = comm_.allgatherv(mine);
  owner_.assign(nc_, -1);
  std::vector<std::vector<int>> holders(nc_);
  for (double v : all) {
    const auto c = static_cast<std::int64_t>(v);
    const auto k = static_cast<std::size_t>(c / (2 * np));
    const auto r = static_cast<int>(c % np);
    const bool own = (c % (2 * np)) >= np;
    holders[k].push_back(r);
    if (own) {
      if (owner_[k] >= 0)
        throw RuntimeError(fmt::format("contact node {} is owned by ranks {} and {}",
                                       model_.node_model[k], owner_[k], r));
      owner_[k] = r;
    }
  }
  hold_start_.assign(nc_ + 1, 0);
  for (std::size_t k = 0; k < nc_; ++k) {
    if (owner_[k] < 0)
      throw RuntimeError(fmt::format("contact node (model index {}) is owned by no rank: a "
                                     "contact node must belong to an element or rigid body",
                                     model_.node_model[k]));
    std::sort(holders[k].begin(), holders[k].end());
    hold_start_[k + 1] = hold_start_[k] + static_cast<std::int64_t>(holders[k].size());
    hold_rank_.insert(hold_rank_.end(), holders[k].begin(), holders[k].end());
    if (local_[k]) local_nodes_.push_back(static_cast<LocalId>(k));
  }
  auto held_by = [&](LocalId k, int r) {
    const auto b = hold_rank_.begin() + hold_start_[sz(k)];
    const auto e = hold_rank_.begin() + hold_start_[sz(k) + 1];
    return std::binary_search(b, e, r);
  };
  for (std::size_t i = 0; i < states_.size(); ++i) {
    ContactState& st = states_[i];
    const Interface& ifc = model_.interfaces[i];
    std::vector<LocalId> held, own;
    for (std::size_t s = 0; s < st.all_nodes.size(); ++s) {
      const auto k = sz(st.all_nodes[s]);
      if (local_[k]) held.push_back(static_cast<LocalId>(s));
      if (owned_[k]) own.push_back(static_cast<LocalId>(s));
    }
    held_slots_.push_back(std::move(held));
    owned_slots_.push_back(std::move(own));
    bool whole = true;
    for (Pass& ps : st.passes) {
      ps.set_stale();
      ps.mine.assign(ps.nodes.size(), 0);
      ps.mine_list.clear();
      for (std::size_t k = 0; k < ps.nodes.size(); ++k) {
        ps.mine[k] = owned_[sz(ps.nodes[k])];
        evaluated_ += ps.mine[k];
        if (ps.mine[k]) ps.mine_list.push_back(static_cast<LocalId>(k));
      }
      // The box search needs every segment to be whole on some rank (its extent is then known
      // there): true for faces of elements; a *SET_SEGMENT segment spanning ranks is not.
      for (const Segment& c : surface_of(ifc, ps).seg) {
        bool some = false;
        for (auto j = hold_start_[sz(c[0])]; j < hold_start_[sz(c[0]) + 1] && !some; ++j) {
          const int r = hold_rank_[static_cast<std::size_t>(j)];
          some = held_by(c[1], r) && held_by(c[2], r) && held_by(c[3], r);
        }
        whole = whole && some;
      }
    }
    box_search_.push_back(whole ? 1 : 0);
  }
  tracked_checked_.resize(states_.size());
}

MppContact::~MppContact() = default;

void MppContact::begin_cycle(std::int64_t cycle, std::span<Real> cx, std::span<Real> cv) {
  const std::size_t ni = states_.size();
  // Searches and re-plans as agreed in the last cycle's reduction (take_schedule), or due by
  // the search interval: no reduction of their own.
  bool need_plan = replan_forced_ || replan_next_;
  for (std::size_t i = 0; i < ni; ++i) {
    ContactState& st = states_[i];
    const contact::ContactParams& p = model_.interfaces[i].p;
    const bool due = st.search_due_next != 0 ||
                     (p.search_interval > 0 && cycle - st.last_search_cycle >= p.search_interval);
    if (due) {
      search(i, cycle, cx);
      st.search_due_next = 0;
      need_plan = true;
    }
  }
  if (need_plan) plan();
  if (!ghost_ex_) return;
  // ghosts: owners send positions and velocities
  auto sb = ghost_ex_->send_buffer();
  std::size_t o = 0;
  for (const auto& nb : ghost_ex_->neighbours()) {
    const auto it = std::lower_bound(export_rank_.begin(), export_rank_.end(), nb.rank);
    if (it == export_rank_.end() || *it != nb.rank) continue;
    for (LocalId k : export_nodes_[static_cast<std::size_t>(it - export_rank_.begin())]) {
      for (int c = 0; c < 3; ++c) sb[o++] = cx[3 * sz(k) + c];
      for (int c = 0; c < 3; ++c) sb[o++] = cv[3 * sz(k) + c];
    }
  }
  ghost_ex_->begin();
  ghost_ex_->end();
  const auto rb = ghost_ex_->recv_buffer();
  o = 0;
  for (const auto& nb : ghost_ex_->neighbours()) {
    const auto it = std::lower_bound(import_rank_.begin(), import_rank_.end(), nb.rank);
    if (it == import_rank_.end() || *it != nb.rank) continue;
    for (LocalId k : import_nodes_[static_cast<std::size_t>(it - import_rank_.begin())]) {
      for (int c = 0; c < 3; ++c) cx[3 * sz(k) + c] = rb[o++];
      for (int c = 0; c < 3; ++c) cv[3 * sz(k) + c] = rb[o++];
    }
  }
}

void MppContact::search(std::size_t i, std::int64_t cycle, std::span<Real> cx) {
  ContactState& st = states_[i];
  const Interface& ifc = model_.interfaces[i];
  const int np = comm_.size(), me = comm_.rank();
  constexpr Real inf = std::numeric_limits<Real>::infinity();
  // The box of this rank's searching nodes; the largest extent of a segment it has whole.
  Real box[8] = {inf, inf, inf, -inf, -inf, -inf, 0, 0};
  Real hn = 0, hs = 0;
  for (const Pass& ps : st.passes) {
    for (std::size_t k = 0; k < ps.nodes.size(); ++k) {
      hn = std::max(hn, ps.node_half_t[k]);
      if (!ps.mine[k]) continue;
      box[7] = 1;
      for (int c = 0; c < 3; ++c) {
        const Real v = cx[3 * sz(ps.nodes[k]) + c];
        box[c] = std::min(box[c], v);
        box[3 + c] = std::max(box[3 + c], v);
      }
    }
    for (Real h : ps.seg_half_t) hs = std::max(hs, h);
    for (const Segment& sgm : surface_of(ifc, ps).seg) {
      if (!(local_[sz(sgm[0])] && local_[sz(sgm[1])] && local_[sz(sgm[2])] && local_[sz(sgm[3])]))
        continue;
      for (int c = 0; c < 3; ++c) {
        Real lo = cx[3 * sz(sgm[0]) + c], hi = lo;
        for (int a = 1; a < 4; ++a) {
          lo = std::min(lo, cx[3 * sz(sgm[a]) + c]);
          hi = std::max(hi, cx[3 * sz(sgm[a]) + c]);
        }
        box[6] = std::max(box[6], hi - lo);
      }
    }
  }
  const std::vector<double> boxes = comm_.allgatherv(std::span<const double>(box, 8));
  Real ext = 0;
  for (int r = 0; r < np; ++r) ext = std::max(ext, boxes[8 * static_cast<std::size_t>(r) + 6]);
  // A node of a segment that can be a candidate of a node q lies within (segment extent + the
  // node's and the segment's half thicknesses + margin) of q along every axis (1 % spare).
  const Real grow = 1.01 * (ext + hn + hs + st.margin);
  std::vector<std::vector<double>> send(static_cast<std::size_t>(np));
  for (int r = 0; r < np; ++r) {
    const double* b = &boxes[8 * static_cast<std::size_t>(r)];
    if (r == me || b[7] == 0) continue;
    auto& out = send[static_cast<std::size_t>(r)];
    for (LocalId s : owned_slots_[i]) {
      const LocalId k = st.all_nodes[sz(s)];
      const Real* q = &cx[3 * sz(k)];
      bool in = true;
      if (box_search_[i])
        for (int c = 0; c < 3; ++c) in = in && q[c] >= b[c] - grow && q[c] <= b[3 + c] + grow;
      if (!in) continue;
      out.push_back(static_cast<double>(k));
      out.insert(out.end(), q, q + 3);
    }
  }
  const auto recv = comm_.alltoallv(send);
  std::vector<std::uint8_t> have(local_);
  for (const auto& msg : recv)
    for (std::size_t j = 0; j + 4 <= msg.size(); j += 4) {
      const auto k = static_cast<std::size_t>(msg[j]);
      for (int c = 0; c < 3; ++c) cx[3 * k + c] = msg[j + 1 + static_cast<std::size_t>(c)];
      have[k] = 1;
    }
  for (Pass& ps : st.passes) {
    const auto& seg = surface_of(ifc, ps).seg;
    ps.seg_avail.assign(seg.size(), 0);
    for (std::size_t e = 0; e < seg.size(); ++e)
      ps.seg_avail[e] =
          have[sz(seg[e][0])] && have[sz(seg[e][1])] && have[sz(seg[e][2])] && have[sz(seg[e][3])];
  }
  contact::bucket_search(ifc, st, cx);
  st.last_search_cycle = cycle;
}

void MppContact::plan() {
  const int np = comm_.size(), me = comm_.rank();
  // Every node this rank's evaluations can look at.
  std::vector<std::uint8_t> touch(nc_, 0);
  auto mark = [&](const Segment& c) {
    for (LocalId n : c) touch[sz(n)] = 1;
  };
  for (std::size_t i = 0; i < states_.size(); ++i) {
    ContactState& st = states_[i];
    const Interface& ifc = model_.interfaces[i];
    tracked_checked_[i].clear();
    for (const Pass& ps : st.passes) {
      const auto& seg = surface_of(ifc, ps).seg;
      for (const LocalId kk : ps.mine_list) { // this rank's nodes (every other is skipped)
        const auto k = sz(kk);
        touch[sz(ps.nodes[k])] = 1;
        for (auto j = ps.cand_start[k]; j < ps.cand_start[k + 1]; ++j)
          mark(seg[sz(ps.cand_seg[static_cast<std::size_t>(j)])]);
        const LocalId tr = ps.tracked[k];
        if (tr == kInvalidLocal) continue;
        mark(seg[sz(tr)]);
        for (auto j = ps.adj_start[sz(tr)]; j < ps.adj_start[sz(tr) + 1]; ++j) {
          const LocalId e1 = ps.adj_seg[static_cast<std::size_t>(j)];
          mark(seg[sz(e1)]);
          for (auto j2 = ps.adj_start[sz(e1)]; j2 < ps.adj_start[sz(e1) + 1]; ++j2)
            mark(seg[sz(ps.adj_seg[static_cast<std::size_t>(j2)])]);
        }
      }
    }
  }
  // Ghosts: touched nodes that are not local, requested from their owners.
  std::vector<std::vector<double>> req(static_cast<std::size_t>(np));
  std::int64_t ghosts = 0;
  for (std::size_t k = 0; k < nc_; ++k)
    if (touch[k] && !local_[k]) {
      req[static_cast<std::size_t>(owner_[k])].push_back(static_cast<double>(k));
      ++ghosts;
    }
  max_ghosts_ = std::max(max_ghosts_, ghosts);
  ++plans_;
  const auto asked = comm_.alltoallv(req);
  import_rank_.clear();
  import_nodes_.clear();
  export_rank_.clear();
  export_nodes_.clear();
  std::vector<par::Exchange::Neighbour> nb;
  for (int r = 0; r < np; ++r) {
    const auto& in = req[static_cast<std::size_t>(r)];
    const auto& out = asked[static_cast<std::size_t>(r)];
    if (!in.empty()) {
      import_rank_.push_back(r);
      import_nodes_.emplace_back();
      for (double v : in) import_nodes_.back().push_back(static_cast<LocalId>(v));
    }
    if (!out.empty()) {
      export_rank_.push_back(r);
      std::vector<LocalId> e;
      for (double v : out) {
        const auto k = static_cast<std::size_t>(v);
        if (!owned_[k])
          throw RuntimeError(fmt::format("contact plan: rank {} asked this rank for a node it "
                                         "does not own",
                                         r));
        e.push_back(static_cast<LocalId>(k));
      }
      export_nodes_.push_back(std::move(e));
    }
    if (!in.empty() || !out.empty()) nb.push_back({r, 6 * out.size(), 6 * in.size()});
  }
  ghost_ex_ = nb.empty() ? nullptr : std::make_unique<par::Exchange>(comm_, std::move(nb));
  // Segments whose nodes are all current here.
  std::vector<std::uint8_t> fresh(nc_); // local, or imported under this plan
  for (std::size_t k = 0; k < nc_; ++k) fresh[k] = local_[k] || touch[k];
  for (std::size_t i = 0; i < states_.size(); ++i)
    for (Pass& ps : states_[i].passes) {
      const auto& seg = surface_of(model_.interfaces[i], ps).seg;
      ps.seg_avail.assign(seg.size(), 0);
      for (std::size_t e = 0; e < seg.size(); ++e)
        ps.seg_avail[e] = fresh[sz(seg[e][0])] && fresh[sz(seg[e][1])] && fresh[sz(seg[e][2])] &&
                          fresh[sz(seg[e][3])];
      tracked_checked_[i].push_back(ps.tracked);
    }
  // Contribution partners: every rank holding a touched node (this one included).
  std::vector<std::uint8_t> to(static_cast<std::size_t>(np), 0);
  to[static_cast<std::size_t>(me)] = 1;
  for (std::size_t k = 0; k < nc_; ++k)
    if (touch[k])
      for (auto j = hold_start_[k]; j < hold_start_[k + 1]; ++j)
        to[static_cast<std::size_t>(hold_rank_[static_cast<std::size_t>(j)])] = 1;
  std::vector<std::vector<double>> flag(static_cast<std::size_t>(np));
  send_to_.clear();
  send_index_.assign(static_cast<std::size_t>(np), -1);
  for (int r = 0; r < np; ++r)
    if (to[static_cast<std::size_t>(r)]) {
      send_index_[static_cast<std::size_t>(r)] = static_cast<std::int64_t>(send_to_.size());
      send_to_.push_back(r);
      if (r != me) flag[static_cast<std::size_t>(r)].push_back(1.0);
    }
  const auto from = comm_.alltoallv(flag);
  recv_from_.clear();
  for (int r = 0; r < np; ++r)
    if (r == me || !from[static_cast<std::size_t>(r)].empty()) recv_from_.push_back(r);
  replan_forced_ = replan_next_ = false;
}

void MppContact::predict_searches(std::span<const Real> cx, std::span<const Real> cv, Real dt) {
  const std::size_t ni = states_.size();
  search_local_.assign(ni, 0);
  for (std::size_t i = 0; i < ni; ++i) {
    const ContactState& st = states_[i];
    if (!model_.interfaces[i].p.adaptive_search) continue;
    // The largest move over all nodes is the largest of the owners' maxima.
    const Real m = contact::largest_predicted_move(st, cx, cv, dt, owned_slots_[i]);
    search_local_[i] = m > 0.5 * st.margin ? 1 : 0;
  }
}

void MppContact::take_schedule(const par::CycleReduction& red) {
  const std::size_t ni = states_.size();
  for (std::size_t i = 0; i < ni; ++i)
    states_[i].search_due_next = red.sum(schedule_slot_ + i) > 0 ? 1 : 0;
  replan_next_ = red.sum(schedule_slot_ + ni) > 0;
  replan_local_ = false;
}

void MppContact::add_status(par::CycleReduction& red) {
  const std::size_t ni = states_.size();
  for (std::size_t i = 0; i < ni; ++i) {
    const std::size_t s = red.add_sum(i < search_local_.size() ? search_local_[i] : 0);
    if (i == 0) schedule_slot_ = s;
  }
  const std::size_t s_replan = red.add_sum(replan_local_ ? 1 : 0);
  if (ni == 0) schedule_slot_ = s_replan;
  for (std::size_t i = 0; i < ni; ++i) {
    const std::int64_t nb = i < local_status_.size() ? std::ssize(local_status_[i].blowup) : 0;
    const std::int64_t nr = i < local_status_.size() ? std::ssize(local_status_[i].released) : 0;
    const std::size_t s = red.add_sum(nb);
    red.add_sum(nr);
    if (i == 0) status_slot_ = s;
  }
}

std::vector<contact::ContactStatus> MppContact::statuses(const par::CycleReduction& red) {
  const std::size_t ni = states_.size();
  const std::span<const contact::ContactStatus> local = local_status_;
  std::vector<contact::ContactStatus> out(ni);
  // Global status: counts first (in the cycle's reduction); the records (rare) only when there
  // are some.
  std::vector<std::int64_t> counts(2 * ni, 0);
  for (std::size_t i = 0; i < ni; ++i) {
    counts[2 * i] = red.sum(status_slot_ + 2 * i);
    counts[2 * i + 1] = red.sum(status_slot_ + 2 * i + 1);
    out[i].active_pairs = local[i].active_pairs;
  }
  bool any_record = false;
  for (std::size_t i = 0; i < ni; ++i)
    any_record = any_record || counts[2 * i] > 0 || counts[2 * i + 1] > 0;
  if (any_record) {
    std::vector<double> rec;
    for (std::size_t i = 0; i < ni; ++i)
      for (int kind = 0; kind < 2; ++kind)
        for (const auto& r : kind ? local[i].blowup : local[i].released)
          rec.insert(rec.end(), {static_cast<double>(i), static_cast<double>(kind),
                                 static_cast<double>(r.pass), static_cast<double>(r.node),
                                 static_cast<double>(r.seg), r.depth});
    const auto all = comm_.allgatherv(rec);
    for (std::size_t j = 0; j + 6 <= all.size(); j += 6) {
      const contact::PenetrationRecord r{static_cast<int>(all[j + 2]),
                                         static_cast<LocalId>(all[j + 3]),
                                         static_cast<LocalId>(all[j + 4]), all[j + 5]};
      auto& st = out[static_cast<std::size_t>(all[j])];
      (all[j + 1] != 0 ? st.blowup : st.released).push_back(r);
    }
    auto by_pass_node = [](const contact::PenetrationRecord& a,
                           const contact::PenetrationRecord& b) {
      return std::tie(a.pass, a.node) < std::tie(b.pass, b.node);
    };
    for (auto& s : out) {
      std::sort(s.blowup.begin(), s.blowup.end(), by_pass_node);
      std::sort(s.released.begin(), s.released.end(), by_pass_node);
      s.ok = s.blowup.empty();
    }
  }
  return out;
}

void MppContact::finish_cycle(std::span<const contact::ContactStatus> local,
                              std::span<const Real> cv, Real dt, std::span<Real> cf) {
  const std::size_t ni = states_.size();
  local_status_.assign(local.begin(), local.end());
  // Contributions of this rank's nodes to every holder of the node they act on.
  std::vector<std::vector<double>> send(send_to_.size());
  for (std::size_t i = 0; i < ni; ++i) {
    const ContactState& st = states_[i];
    const Interface& ifc = model_.interfaces[i];
    for (std::size_t pi = 0; pi < st.passes.size(); ++pi) {
      const Pass& ps = st.passes[pi];
      const auto& seg = surface_of(ifc, ps).seg;
      for (const LocalId kk : ps.mine_list) { // ascending: the order of a scan over all
        const auto k = sz(kk);
        const LocalId e = ps.seg_of[k];
        if (e == kInvalidLocal) continue;
        const Real* fk = &ps.fn[3 * k];
        auto emit = [&](LocalId target, int a, Real w, const Real* f) {
          for (auto j = hold_start_[sz(target)]; j < hold_start_[sz(target) + 1]; ++j) {
            const auto r = static_cast<std::size_t>(hold_rank_[static_cast<std::size_t>(j)]);
            auto& b = send[static_cast<std::size_t>(send_index_[r])];
            b.insert(b.end(),
                     {static_cast<double>(i), static_cast<double>(pi), static_cast<double>(target),
                      static_cast<double>(k), static_cast<double>(a), w, f[0], f[1], f[2]});
          }
        };
        emit(ps.nodes[k], 0, 0.0, fk);
        const Segment& c = seg[sz(e)];
        const int na = c[2] == c[3] ? 3 : 4;
        // a tie's corner forces are whole vectors (weight -1), as in contact::assemble_contacts
        const bool tie = !ps.tie_now.empty() && ps.tie_now[k] != 0;
        for (int a = 0; a < na; ++a)
          if (tie)
            emit(c[static_cast<std::size_t>(a)], a + 1, -1.0, &ps.tie_corner[12 * k + 3 * sz(a)]);
          else
            emit(c[static_cast<std::size_t>(a)], a + 1, ps.shape[4 * k + sz(a)], fk);
      }
    }
  }
  const auto recv = comm_.exchange_v(send_to_, send, recv_from_);
  std::vector<Contribution> contrib;
  for (const auto& msg : recv)
    for (std::size_t j = 0; j + kContribWords <= msg.size(); j += kContribWords) {
      Contribution c;
      c.iface = static_cast<std::int64_t>(msg[j]);
      c.pass = static_cast<std::int64_t>(msg[j + 1]);
      c.target = static_cast<LocalId>(msg[j + 2]);
      c.k = static_cast<LocalId>(msg[j + 3]);
      c.a = static_cast<int>(msg[j + 4]);
      c.w = msg[j + 5];
      for (int d = 0; d < 3; ++d) c.f[d] = msg[j + 6 + static_cast<std::size_t>(d)];
      contrib.push_back(c);
    }
  std::sort(contrib.begin(), contrib.end(), [](const Contribution& a, const Contribution& b) {
    return std::tie(a.iface, a.target, a.pass, a.k, a.a) <
           std::tie(b.iface, b.target, b.pass, b.k, b.a);
  });
  // The one-rank gather, restricted to the nodes held here (same operations, same order).
  for (LocalId k : local_nodes_)
    for (int d = 0; d < 3; ++d) cf[3 * sz(k) + static_cast<std::size_t>(d)] = 0;
  std::size_t j = 0;
  for (std::size_t i = 0; i < ni; ++i) {
    ContactState& st = states_[i];
    for (LocalId s : held_slots_[i])
      for (int d = 0; d < 3; ++d) st.f_now[3 * sz(s) + static_cast<std::size_t>(d)] = 0;
    for (; j < contrib.size() && contrib[j].iface == static_cast<std::int64_t>(i); ++j) {
      const Contribution& c = contrib[j];
      Real* fs = &st.f_now[3 * sz(st.slot_of[sz(c.target)])];
      if (c.a == 0)
        for (int d = 0; d < 3; ++d) fs[d] += c.f[d];
      else
        for (int d = 0; d < 3; ++d) fs[d] -= c.w * c.f[d];
    }
    for (LocalId s : held_slots_[i]) {
      const auto g = 3 * sz(st.all_nodes[sz(s)]);
      for (int d = 0; d < 3; ++d)
        cf[g + static_cast<std::size_t>(d)] += st.f_now[3 * sz(s) + static_cast<std::size_t>(d)];
    }
    for (LocalId s : owned_slots_[i]) {
      const auto s3 = 3 * sz(s);
      const auto g = 3 * sz(st.all_nodes[sz(s)]);
      Real w = 0;
      for (std::size_t d = 0; d < 3; ++d) w += (st.f_prev[s3 + d] + st.f_now[s3 + d]) * cv[g + d];
      const Real work = -(0.5 * dt * w);
      st.e_interface.add(work);
      (st.slot_main[sz(s)] ? st.e_main : st.e_secondary).add(work);
    }
    std::swap(st.f_prev, st.f_now);
  }
  // A node whose tracked segment moved on needs the two rings around the new one: re-plan at
  // the next cycle when they are not all here.
  for (std::size_t i = 0; i < ni && !replan_local_; ++i) {
    const ContactState& st = states_[i];
    for (std::size_t pi = 0; pi < st.passes.size() && !replan_local_; ++pi) {
      const Pass& ps = st.passes[pi];
      auto& checked = tracked_checked_[i][pi];
      for (std::size_t m = 0; m < ps.mine_list.size() && !replan_local_; ++m) {
        const auto k = sz(ps.mine_list[m]);
        const LocalId tr = ps.tracked[k];
        if (tr == kInvalidLocal || tr == checked[k]) continue;
        bool ok = ps.available(tr);
        for (auto a = ps.adj_start[sz(tr)]; ok && a < ps.adj_start[sz(tr) + 1]; ++a) {
          const LocalId e1 = ps.adj_seg[static_cast<std::size_t>(a)];
          ok = ps.available(e1);
          for (auto b = ps.adj_start[sz(e1)]; ok && b < ps.adj_start[sz(e1) + 1]; ++b)
            ok = ps.available(ps.adj_seg[static_cast<std::size_t>(b)]);
        }
        if (ok)
          checked[k] = tr;
        else
          replan_local_ = true;
      }
    }
  }
}

std::vector<MppContact::InterfaceEnergies> MppContact::gather_for_output() {
  const std::size_t ni = states_.size();
  std::vector<ExactSum> acc;
  for (const ContactState& st : states_) {
    acc.push_back(st.e_secondary);
    acc.push_back(st.e_main);
    acc.push_back(st.e_friction);
  }
  comm_.sum(acc);
  std::vector<InterfaceEnergies> out(ni);
  for (std::size_t i = 0; i < ni; ++i)
    out[i] = {acc[3 * i].result(), acc[3 * i + 1].result(), acc[3 * i + 2].result()};
  // Resultants of the last cycle, summed on rank 0 in the one-rank order.
  std::vector<double> rec;
  for (std::size_t i = 0; i < ni; ++i)
    for (std::size_t pi = 0; pi < states_[i].passes.size(); ++pi) {
      const Pass& ps = states_[i].passes[pi];
      for (const LocalId kk : ps.mine_list)
        if (const auto k = sz(kk); ps.seg_of[k] != kInvalidLocal)
          rec.insert(rec.end(),
                     {static_cast<double>(i), static_cast<double>(pi), static_cast<double>(k),
                      ps.fn[3 * k], ps.fn[3 * k + 1], ps.fn[3 * k + 2]});
    }
  const auto all = comm_.gatherv(rec, 0);
  if (comm_.rank() != 0) return out;
  std::vector<std::size_t> order(all.size() / 6);
  for (std::size_t r = 0; r < order.size(); ++r) order[r] = 6 * r;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::tie(all[a], all[a + 1], all[a + 2]) < std::tie(all[b], all[b + 1], all[b + 2]);
  });
  for (auto& st : states_) st.resultant_secondary = st.resultant_main = {0, 0, 0};
  for (std::size_t r : order) {
    auto& st = states_[static_cast<std::size_t>(all[r])];
    const bool nsec =
        contact::nodes_are_secondary(model_.interfaces[static_cast<std::size_t>(all[r])],
                                     st.passes[static_cast<std::size_t>(all[r + 1])]);
    for (std::size_t d = 0; d < 3; ++d) {
      (nsec ? st.resultant_secondary : st.resultant_main)[d] += all[r + 3 + d];
      (nsec ? st.resultant_main : st.resultant_secondary)[d] -= all[r + 3 + d];
    }
  }
  return out;
}

} // namespace parcae
