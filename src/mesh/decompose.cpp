// Domain decomposition: recursive coordinate bisection (RCB) and METIS k-way partitioning of the
// element dual graph, the per-rank communication report and a VTK picture of the ranks.
//
// Element costs (DecompOptions defaults, decompose.hpp), measured with the kernel benchmark
// (bench/README.md), Release build, one thread, on the 2-core development VM (AMD EPYC, GCC
// 12.2, working tree of 916fe9a with the shell kernel work in progress), 8 runs:
//
//   cmake -S . -B build-dec -G Ninja -DCMAKE_BUILD_TYPE=Release
//   ninja -C build-dec parcae_bench_kernels
//   build-dec/bench/parcae_bench_kernels --json /tmp/x.json      (repeated 8 times)
//
//   us per element-cycle, median of 8 (min)   hex, 1 point   shell BT NIP 2   shell BT NIP 5
//   element kernel                            0.549 (0.520)  0.520 (0.420)    0.763 (0.637)
//   full explicit cycle                       0.990 (0.781)  1.212 (0.944)
//
// The machine was loaded (load average 7-8 on 2 cores), so single runs scatter by +-30%; the
// ratio of the medians is steadier. cost_solid = 1 and cost_shell = 1.212 / 0.990 = 1.2: the
// full cycle (element pass, time step, assembly, update), i.e. what a rank spends per element,
// for NIP 2 (LS-DYNA's default; a NIP 5 shell adds about 0.25 us, i.e. costs about 1.5). For
// comparison the committed bench/kernels.json (rev 35101fa, before the shell kernel rework)
// gives 1.54 / 0.81 = 1.9. Rigid elements have no element kernel at all (the solver moves their
// nodes with the body), so cost_rigid is a nominal 0.05, not measured.
//
// cost_contact (the extra cost of an element all of whose nodes are contact nodes) comes from
// the self-contact tube benchmark (`make contact-bench`, python -m parcae_tools.contact_bench,
// bench/contact.json): 25,600 Belytschko-Tsay shells, every one on the
// *CONTACT_AUTOMATIC_SINGLE_SURFACE, 1000 cycles, one rank, one thread. There contact time
// (contact_search + contact_forces) / element force time = 0.88 (median of 3). cost_shell,
// however, stands for the whole cycle of a shell (element pass, nodal update, time step), not
// the element pass alone, so the contact time has to be set against the whole non-contact
// cycle. The phases of one profiled run of that deck (parcae run --profile --threads 1, 2-core
// VM, load 2.6, e5e7811 plus contact work in progress), in s:
//
//   element_forces 5.687   nodal_update 1.308   time_step 0.004   output 0.001
//   contact_search 2.704   contact_forces 2.195              (setup 0.364, MPI init 0.443)
//
// contact / element forces = 4.899 / 5.687 = 0.86 (the benchmark's 0.88), contact / non-contact
// cycle = 4.899 / 7.000 = 0.70, so cost_contact = 0.70 x cost_shell = 0.84 per fully-in-contact
// element (0.88 x cost_shell = 1.05 would set the contact time against the element pass alone
// and overstate it by a quarter). In that mesh every shell has 4 contact nodes and there is
// about one contact node and one segment per shell. An element with a fraction f of its
// distinct nodes in contact adds 0.84 f. The contact work is per node and per segment, not per
// material, so rigid elements add it as well (a rigid impactor's surface nodes are searched and
// projected like any other). At 2 threads the benchmark ratio is 0.98 (contact scales a little
// worse than the element pass); MPP runs use one thread per rank, hence the one-thread figure.
// Known simplification: a hexahedron with one face on a contact surface has f = 1/2, although
// it carries about one contact node and one segment, like a shell; solid contact surfaces are
// weighted about half of their measured share.
#include "mesh/decompose.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <map>
#include <numbers>
#include <numeric>
#include <set>
#include <unordered_map>

#include <fmt/format.h>
#include <fmt/os.h>
#include <metis.h>

namespace parcae {

namespace {

/// Elements are numbered solids first (0..ns-1), then shells (ns..ns+nsh-1).
struct ElementSet {
  const Model& model;
  std::size_t ns, nsh;
  explicit ElementSet(const Model& m) : model(m), ns(m.solids.size()), nsh(m.shells.size()) {}
  [[nodiscard]] std::size_t size() const { return ns + nsh; }
  [[nodiscard]] bool is_solid(std::size_t e) const { return e < ns; }
  [[nodiscard]] int corners(std::size_t e) const { return is_solid(e) ? 8 : 4; }
  [[nodiscard]] LocalId node(std::size_t e, int a) const {
    return is_solid(e) ? model.solids.nodes[e][static_cast<std::size_t>(a)]
                       : model.shells.nodes[e - ns][static_cast<std::size_t>(a)];
  }
  [[nodiscard]] GlobalId part(std::size_t e) const {
    return is_solid(e) ? model.solids.part[e] : model.shells.part[e - ns];
  }
};

/// Part id -> whether its material is *MAT_RIGID.
std::unordered_map<GlobalId, bool> rigid_parts(const Model& model) {
  std::unordered_map<GlobalId, bool> rigid;
  for (const Part& p : model.parts) {
    const Material* m = model.find_material(p.mid);
    rigid[p.id] = m != nullptr && m->kind == MaterialKind::Rigid;
  }
  return rigid;
}

bool is_rigid(const std::unordered_map<GlobalId, bool>& rigid, GlobalId part) {
  const auto it = rigid.find(part);
  return it != rigid.end() && it->second;
}

/// The contact fractions are empty or one per element, each in [0, 1].
void check_contact_fractions(const ElementSet& es, const DecompOptions& o) {
  auto check = [](const std::vector<Real>& f, std::size_t n, const char* kind) {
    if (!f.empty() && f.size() != n)
      throw RuntimeError(
          fmt::format("decomposition: {} contact fractions for {} {} elements", f.size(), n, kind));
    for (std::size_t e = 0; e < f.size(); ++e)
      if (!(f[e] >= 0 && f[e] <= 1))
        throw RuntimeError(fmt::format("decomposition: contact fraction {} of {} element {} is "
                                       "outside [0, 1]",
                                       f[e], kind, e));
  };
  check(o.contact_fraction_solid, es.ns, "solid");
  check(o.contact_fraction_shell, es.nsh, "shell");
}

bool has_contact_cost(const DecompOptions& o) {
  return !o.contact_fraction_solid.empty() || !o.contact_fraction_shell.empty();
}

/// Per element (solids, then shells): base cost + cost_contact * contact fraction.
std::vector<Real> element_costs(const ElementSet& es, const DecompOptions& o) {
  check_contact_fractions(es, o);
  const auto rigid = rigid_parts(es.model);
  std::vector<Real> cost(es.size());
  for (std::size_t e = 0; e < es.size(); ++e) {
    cost[e] = is_rigid(rigid, es.part(e)) ? o.cost_rigid
              : es.is_solid(e)            ? o.cost_solid
                                          : o.cost_shell;
    const std::vector<Real>& f =
        es.is_solid(e) ? o.contact_fraction_solid : o.contact_fraction_shell;
    const std::size_t i = es.is_solid(e) ? e : e - es.ns;
    if (!f.empty()) cost[e] += o.cost_contact * f[i];
  }
  return cost;
}

void check_nparts(const ElementSet& es, int nparts) {
  if (nparts < 1)
    throw InputError({},
                     fmt::format("cannot decompose into {} ranks (at least 1 is needed)", nparts));
  const std::size_t n = es.size() + es.model.beams.size();
  if (static_cast<std::size_t>(nparts) > n)
    throw InputError({}, fmt::format("cannot run {} ranks with only {} elements (every rank "
                                     "needs at least one)",
                                     nparts, n));
}

// ---------------------------------------------------------------------------------------------
// RCB

struct Rcb {
  std::vector<std::array<Real, 3>> c; ///< transformed centroids
  std::vector<Real> cost;
  std::vector<int> rank;

  /// Assign the elements order[begin, end) to ranks first_rank .. first_rank + nparts - 1.
  void split(std::vector<std::uint32_t>& order, std::size_t begin, std::size_t end, int nparts,
             int first_rank) {
    if (nparts == 1) {
      for (std::size_t k = begin; k < end; ++k) rank[order[k]] = first_rank;
      return;
    }
    // Longest extent of the subset's bounding box (ties: the lower axis).
    std::array<Real, 3> lo{}, hi{};
    lo.fill(std::numeric_limits<Real>::infinity());
    hi.fill(-std::numeric_limits<Real>::infinity());
    for (std::size_t k = begin; k < end; ++k)
      for (int i = 0; i < 3; ++i) {
        lo[i] = std::min(lo[i], c[order[k]][i]);
        hi[i] = std::max(hi[i], c[order[k]][i]);
      }
    int axis = 0;
    for (int i = 1; i < 3; ++i)
      if (hi[i] - lo[i] > hi[axis] - lo[axis]) axis = i;
    // Sort along the axis, ties by element index: a total order, the same on every rank.
    std::sort(order.begin() + static_cast<std::ptrdiff_t>(begin),
              order.begin() + static_cast<std::ptrdiff_t>(end),
              [&](std::uint32_t a, std::uint32_t b) {
                const Real ca = c[a][axis], cb = c[b][axis];
                return ca < cb || (ca == cb && a < b);
              });
    // Weighted median: the first n_lo parts get cost share n_lo / nparts.
    const int n_lo = nparts / 2, n_hi = nparts - n_lo;
    Real total = 0;
    for (std::size_t k = begin; k < end; ++k) total += cost[order[k]];
    const Real target = total * n_lo / nparts;
    // Low side: `count` elements, at least n_lo, leaving at least n_hi.
    const std::size_t min_count = static_cast<std::size_t>(n_lo);
    const std::size_t max_count = end - begin - static_cast<std::size_t>(n_hi);
    Real prefix = 0;
    std::size_t best = min_count;
    Real best_err = std::numeric_limits<Real>::infinity();
    for (std::size_t count = 1; count <= max_count; ++count) {
      prefix += cost[order[begin + count - 1]];
      if (count < min_count) continue;
      const Real err = std::abs(prefix - target);
      if (err < best_err) {
        best_err = err;
        best = count;
      }
      if (prefix >= target) break; // further counts only move away from the target
    }
    split(order, begin, begin + best, n_lo, first_rank);
    split(order, begin + best, end, n_hi, first_rank + n_lo);
  }
};

std::vector<int> decompose_rcb(const ElementSet& es, const std::vector<Real>& cost,
                               const DecompOptions& o) {
  Rcb r;
  r.cost = cost;
  r.rank.assign(es.size(), 0);
  r.c.resize(es.size());
  const NodeTable& nodes = es.model.nodes;
  const auto& T = o.transform;
  for (std::size_t e = 0; e < es.size(); ++e) {
    const int nc = es.corners(e);
    Real x = 0, y = 0, z = 0;
    for (int a = 0; a < nc; ++a) {
      const auto n = static_cast<std::size_t>(es.node(e, a));
      x += nodes.x[n];
      y += nodes.y[n];
      z += nodes.z[n];
    }
    x /= nc;
    y /= nc;
    z /= nc;
    r.c[e] = {T[0] * x + T[1] * y + T[2] * z, T[3] * x + T[4] * y + T[5] * z,
              T[6] * x + T[7] * y + T[8] * z};
  }
  std::vector<std::uint32_t> order(es.size());
  std::iota(order.begin(), order.end(), 0U);
  r.split(order, 0, order.size(), o.nparts, 0);
  return r.rank;
}

// ---------------------------------------------------------------------------------------------
// METIS

/// Node -> elements (CSR), each element once per distinct node, elements ascending.
void node_elements(const ElementSet& es, std::vector<std::int64_t>& start,
                   std::vector<std::uint32_t>& list) {
  const std::size_t nn = es.model.nodes.size();
  start.assign(nn + 1, 0);
  auto distinct = [&](std::size_t e, int a) {
    const LocalId n = es.node(e, a);
    for (int b = 0; b < a; ++b)
      if (es.node(e, b) == n) return false;
    return true;
  };
  for (std::size_t e = 0; e < es.size(); ++e)
    for (int a = 0; a < es.corners(e); ++a)
      if (distinct(e, a)) ++start[static_cast<std::size_t>(es.node(e, a)) + 1];
  for (std::size_t n = 0; n < nn; ++n) start[n + 1] += start[n];
  list.resize(static_cast<std::size_t>(start[nn]));
  std::vector<std::int64_t> fill(start.begin(), start.end() - 1);
  for (std::size_t e = 0; e < es.size(); ++e)
    for (int a = 0; a < es.corners(e); ++a)
      if (distinct(e, a))
        list[static_cast<std::size_t>(fill[static_cast<std::size_t>(es.node(e, a))]++)] =
            static_cast<std::uint32_t>(e);
}

std::vector<int> decompose_metis(const ElementSet& es, const std::vector<Real>& cost,
                                 const DecompOptions& o) {
  const std::size_t ne = es.size();
  if (ne > static_cast<std::size_t>(std::numeric_limits<idx_t>::max()))
    throw RuntimeError("METIS decomposition: too many elements for 32-bit METIS indices");
  std::vector<std::int64_t> nstart;
  std::vector<std::uint32_t> nlist;
  node_elements(es, nstart, nlist);

  // Dual graph: elements sharing at least one node; edge weight = number of shared nodes
  // (faces weigh more than edges and corners, so METIS keeps faces inside a rank).
  std::vector<idx_t> xadj(ne + 1, 0), adjncy, adjwgt;
  std::vector<idx_t> shared(ne, 0);
  std::vector<std::uint32_t> touched;
  for (std::size_t e = 0; e < ne; ++e) {
    touched.clear();
    for (int a = 0; a < es.corners(e); ++a) {
      const LocalId n = es.node(e, a);
      bool repeat = false;
      for (int b = 0; b < a; ++b) repeat = repeat || es.node(e, b) == n;
      if (repeat) continue;
      const auto ni = static_cast<std::size_t>(n);
      for (std::int64_t k = nstart[ni]; k < nstart[ni + 1]; ++k) {
        const std::uint32_t f = nlist[static_cast<std::size_t>(k)];
        if (f == e) continue;
        if (shared[f]++ == 0) touched.push_back(f);
      }
    }
    std::sort(touched.begin(), touched.end());
    for (std::uint32_t f : touched) {
      adjncy.push_back(static_cast<idx_t>(f));
      adjwgt.push_back(shared[f]);
      shared[f] = 0;
    }
    if (adjncy.size() > static_cast<std::size_t>(std::numeric_limits<idx_t>::max()))
      throw RuntimeError("METIS decomposition: dual graph too large for 32-bit METIS indices");
    xadj[e + 1] = static_cast<idx_t>(adjncy.size());
  }

  // Integer vertex weights: the largest cost becomes 1000 (at least 1 each).
  const Real cmax = *std::max_element(cost.begin(), cost.end());
  std::vector<idx_t> vwgt(ne);
  for (std::size_t e = 0; e < ne; ++e)
    vwgt[e] =
        cmax > 0 ? std::max<idx_t>(1, static_cast<idx_t>(std::llround(1000 * cost[e] / cmax))) : 1;

  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_SEED] = 0;
  options[METIS_OPTION_NUMBERING] = 0;
  // Allowed load imbalance 1.01 (METIS' default k-way tolerance is 1.03).
  options[METIS_OPTION_UFACTOR] = 10;
  idx_t nvtxs = static_cast<idx_t>(ne), ncon = 1, nparts = o.nparts, objval = 0;
  std::vector<idx_t> part(ne, 0);
  const int status =
      METIS_PartGraphKway(&nvtxs, &ncon, xadj.data(), adjncy.empty() ? nullptr : adjncy.data(),
                          vwgt.data(), nullptr, adjwgt.empty() ? nullptr : adjwgt.data(), &nparts,
                          nullptr, nullptr, options, &objval, part.data());
  if (status != METIS_OK)
    throw RuntimeError(fmt::format("METIS_PartGraphKway failed (status {}) for {} elements into "
                                   "{} parts",
                                   status, ne, o.nparts));
  return {part.begin(), part.end()};
}

// ---------------------------------------------------------------------------------------------
// Transformations

using Mat3 = std::array<Real, 9>;

Mat3 multiply(const Mat3& a, const Mat3& b) {
  Mat3 c{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k) c[3 * i + j] += a[3 * i + k] * b[3 * k + j];
  return c;
}

Mat3 transform_matrix(const Controls::DecompositionTransform& t) {
  Mat3 m{1, 0, 0, 0, 1, 0, 0, 0, 1};
  const std::string& ty = t.type;
  if (ty.size() == 2 && (ty[0] == 'S' || ty[0] == 'R') && ty[1] >= 'X' && ty[1] <= 'Z') {
    const int axis = ty[1] - 'X';
    if (ty[0] == 'S') {
      m[4 * axis] = t.v[0];
      return m;
    }
    // Rotation by V1 degrees about the axis (right-handed).
    const Real a = t.v[0] * std::numbers::pi / 180.0;
    const Real c = std::cos(a), s = std::sin(a);
    const int i = (axis + 1) % 3, j = (axis + 2) % 3;
    m[4 * i] = c;
    m[4 * j] = c;
    m[3 * i + j] = -s;
    m[3 * j + i] = s;
    return m;
  }
  throw InputError(t.loc, fmt::format("*CONTROL_MPP_DECOMPOSITION_TRANSFORMATION: TYPE \"{}\" is "
                                      "not supported (SX, SY, SZ, RX, RY, RZ are)",
                                      t.type));
}

} // namespace

// ---------------------------------------------------------------------------------------------
// Public API

Decomposition decompose(const Model& model, const DecompOptions& options) {
  const ElementSet es(model);
  check_nparts(es, options.nparts);
  Decomposition d;
  d.nparts = options.nparts;
  check_contact_fractions(es, options);
  std::vector<int> rank;
  if (options.nparts == 1 || es.size() == 0) { // a beam-only model: beams dealt out below
    rank.assign(es.size(), 0);
  } else {
    const std::vector<Real> cost = element_costs(es, options);
    rank = options.method == DecompMethod::Metis ? decompose_metis(es, cost, options)
                                                 : decompose_rcb(es, cost, options);
  }
  d.solid_rank.assign(rank.begin(), rank.begin() + static_cast<std::ptrdiff_t>(es.ns));
  d.shell_rank.assign(rank.begin() + static_cast<std::ptrdiff_t>(es.ns), rank.end());
  std::vector<int> node_rank(model.nodes.size(), -1);
  auto mark = [&](LocalId n, int r) {
    int& nr = node_rank[static_cast<std::size_t>(n)];
    if (nr < 0 || r < nr) nr = r;
  };
  for (std::size_t e = 0; e < model.solids.size(); ++e)
    for (LocalId n : model.solids.nodes[e]) mark(n, d.solid_rank[e]);
  for (std::size_t e = 0; e < model.shells.size(); ++e)
    for (LocalId n : model.shells.nodes[e]) mark(n, d.shell_rank[e]);
  const std::size_t nb = model.beams.size();
  d.beam_rank.resize(nb);
  for (std::size_t e = 0; e < nb; ++e) {
    const auto& n = model.beams.nodes[e];
    int r = node_rank[static_cast<std::size_t>(n[0])];
    if (r < 0) r = node_rank[static_cast<std::size_t>(n[1])];
    if (r < 0) r = static_cast<int>(e * static_cast<std::size_t>(options.nparts) / nb);
    d.beam_rank[e] = r;
  }
  return d;
}

DecompOptions decomp_options_from_model(const Model& model, int nparts) {
  DecompOptions o;
  o.nparts = nparts;
  const std::string& method = model.control.mpp_decomposition_method;
  if (method == "RCB" || method.empty())
    o.method = DecompMethod::Rcb;
  else if (method == "METIS")
    o.method = DecompMethod::Metis;
  else
    throw InputError({}, fmt::format("*CONTROL_MPP_DECOMPOSITION_METHOD: NAME \"{}\" is not "
                                     "supported (RCB or METIS)",
                                     method));
  // Cards apply in order: x' = T_n ... T_2 T_1 x.
  for (const auto& t : model.control.mpp_decomposition_transforms)
    o.transform = multiply(transform_matrix(t), o.transform);
  return o;
}

std::vector<std::vector<RankNeighbour>> shared_node_lists(const Model& model,
                                                          const Decomposition& d) {
  const ElementSet es(model);
  // (node, rank) pairs of every element corner, sorted and unique.
  std::vector<std::pair<LocalId, int>> nr;
  nr.reserve(8 * es.ns + 4 * es.nsh);
  for (std::size_t e = 0; e < es.size(); ++e) {
    const int r = es.is_solid(e) ? d.solid_rank[e] : d.shell_rank[e - es.ns];
    for (int a = 0; a < es.corners(e); ++a) nr.emplace_back(es.node(e, a), r);
  }
  std::sort(nr.begin(), nr.end());
  nr.erase(std::unique(nr.begin(), nr.end()), nr.end());
  std::vector<std::map<int, std::vector<LocalId>>> by(static_cast<std::size_t>(d.nparts));
  for (std::size_t i = 0; i < nr.size();) {
    std::size_t j = i;
    while (j < nr.size() && nr[j].first == nr[i].first) ++j;
    for (std::size_t a = i; a < j; ++a)
      for (std::size_t b = i; b < j; ++b)
        if (a != b) by[static_cast<std::size_t>(nr[a].second)][nr[b].second].push_back(nr[a].first);
    i = j;
  }
  std::vector<std::vector<RankNeighbour>> out(by.size());
  for (std::size_t r = 0; r < by.size(); ++r)
    for (auto& [q, nodes] : by[r]) out[r].push_back({q, std::move(nodes)});
  return out;
}

DecompReport analyse_decomposition(const Model& model, const Decomposition& d,
                                   const DecompOptions& costs) {
  const ElementSet es(model);
  const auto rigid = rigid_parts(model);
  const std::vector<Real> cost = element_costs(es, costs);
  DecompReport rep;
  rep.ranks.resize(static_cast<std::size_t>(d.nparts));
  rep.contact_cost = has_contact_cost(costs);
  // One entry per (node, rank): bytes that rank's corners at the node put into one message.
  struct Entry {
    LocalId node;
    int rank;
    std::size_t bytes;
  };
  std::vector<Entry> entries;
  entries.reserve(8 * es.ns + 4 * es.nsh);
  for (std::size_t e = 0; e < es.size(); ++e) {
    const int r = es.is_solid(e) ? d.solid_rank[e] : d.shell_rank[e - es.ns];
    if (r < 0 || r >= d.nparts)
      throw RuntimeError(
          fmt::format("decomposition: element {} has rank {} (of {})", e, r, d.nparts));
    DecompReport::Rank& R = rep.ranks[static_cast<std::size_t>(r)];
    const bool rig = is_rigid(rigid, es.part(e));
    if (es.is_solid(e))
      ++R.solids;
    else
      ++R.shells;
    R.cost += cost[e];
    // Per corner: 3 force components (doubles); shells also 3 moment components. Rigid
    // elements have no corner forces (the solver moves their nodes with the body).
    const std::size_t per_corner = rig ? 0 : es.is_solid(e) ? 3 * 8 : 6 * 8;
    for (int a = 0; a < es.corners(e); ++a) entries.push_back({es.node(e, a), r, per_corner});
  }
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return a.node < b.node || (a.node == b.node && a.rank < b.rank);
  });
  std::vector<std::set<int>> neighbours(rep.ranks.size());
  std::vector<std::pair<int, std::size_t>> group; // (rank, bytes) at one node
  for (std::size_t i = 0; i < entries.size();) {
    group.clear();
    std::size_t j = i;
    for (; j < entries.size() && entries[j].node == entries[i].node; ++j) {
      if (group.empty() || group.back().first != entries[j].rank)
        group.emplace_back(entries[j].rank, 0);
      group.back().second += entries[j].bytes;
    }
    i = j;
    if (group.size() < 2) continue;
    for (const auto& [r, bytes] : group) {
      DecompReport::Rank& R = rep.ranks[static_cast<std::size_t>(r)];
      ++R.shared_nodes;
      R.bytes_per_cycle += bytes * (group.size() - 1); // to every other rank at the node
      for (const auto& [q, unused] : group)
        if (q != r) neighbours[static_cast<std::size_t>(r)].insert(q);
    }
  }
  Real total = 0, max_cost = 0;
  for (std::size_t r = 0; r < rep.ranks.size(); ++r) {
    rep.ranks[r].neighbours = static_cast<int>(neighbours[r].size());
    total += rep.ranks[r].cost;
    max_cost = std::max(max_cost, rep.ranks[r].cost);
  }
  const Real mean = rep.ranks.empty() ? 0 : total / static_cast<Real>(rep.ranks.size());
  rep.imbalance = mean > 0 ? std::max<Real>(0, max_cost / mean - 1) : 0; // >= 0 (rounding)
  return rep;
}

std::string format_decomposition_report(const DecompReport& r) {
  std::string s = fmt::format("decomposition: {} ranks, load imbalance {:.2f}% (max cost / mean "
                              "- 1)\n",
                              r.ranks.size(), 100 * r.imbalance);
  if (r.contact_cost) s += "cost includes contact work (elements with contact nodes weigh more)\n";
  s += fmt::format("{:>6} {:>10} {:>10} {:>12} {:>12} {:>10} {:>14}\n", "rank", "solids", "shells",
                   "cost", "shared nodes", "neighbours", "bytes/cycle");
  DecompReport::Rank t;
  int max_nb = 0;
  for (std::size_t k = 0; k < r.ranks.size(); ++k) {
    const DecompReport::Rank& x = r.ranks[k];
    s += fmt::format("{:>6} {:>10} {:>10} {:>12.1f} {:>12} {:>10} {:>14}\n", k, x.solids, x.shells,
                     x.cost, x.shared_nodes, x.neighbours, x.bytes_per_cycle);
    t.solids += x.solids;
    t.shells += x.shells;
    t.cost += x.cost;
    t.shared_nodes += x.shared_nodes;
    t.bytes_per_cycle += x.bytes_per_cycle;
    max_nb = std::max(max_nb, x.neighbours);
  }
  s += fmt::format("{:>6} {:>10} {:>10} {:>12.1f} {:>12} {:>10} {:>14}\n", "total", t.solids,
                   t.shells, t.cost, t.shared_nodes, fmt::format("max {}", max_nb),
                   t.bytes_per_cycle);
  return s;
}

void write_decomposition_vtk(const std::string& path, const Model& model, const Decomposition& d) {
  const ElementSet es(model);
  const std::string tmp = path + ".tmp";
  {
    auto out = fmt::output_file(tmp);
    const std::size_t npts = model.nodes.size();
    out.print("<?xml version=\"1.0\"?>\n<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" "
              "byte_order=\"LittleEndian\" header_type=\"UInt64\">\n  <UnstructuredGrid>\n");
    out.print("    <Piece NumberOfPoints=\"{}\" NumberOfCells=\"{}\">\n", npts, es.size());
    auto ints = [&](const char* type, const char* name, std::size_t n, auto value) {
      out.print("        <DataArray type=\"{}\" Name=\"{}\" format=\"ascii\">\n", type, name);
      for (std::size_t i = 0; i < n; ++i)
        out.print("{}{}", static_cast<long long>(value(i)), (i + 1) % 16 == 0 ? "\n" : " ");
      out.print("\n        </DataArray>\n");
    };
    auto rank_of = [&](std::size_t e) {
      return es.is_solid(e) ? d.solid_rank[e] : d.shell_rank[e - es.ns];
    };
    out.print("      <CellData Scalars=\"rank\">\n");
    ints("Int32", "rank", es.size(), rank_of);
    ints("Int64", "part_id", es.size(), [&](std::size_t e) { return es.part(e); });
    out.print("      </CellData>\n      <Points>\n");
    out.print("        <DataArray type=\"Float64\" NumberOfComponents=\"3\" format=\"ascii\">\n");
    for (std::size_t n = 0; n < npts; ++n)
      out.print("{} {} {}\n", model.nodes.x[n], model.nodes.y[n], model.nodes.z[n]);
    out.print("        </DataArray>\n      </Points>\n      <Cells>\n");
    // Shells with n3 == n4 are triangles.
    auto triangle = [&](std::size_t e) {
      return !es.is_solid(e) && es.node(e, 2) == es.node(e, 3);
    };
    out.print("        <DataArray type=\"Int64\" Name=\"connectivity\" format=\"ascii\">\n");
    for (std::size_t e = 0; e < es.size(); ++e) {
      const int nc = triangle(e) ? 3 : es.corners(e);
      for (int a = 0; a < nc; ++a) out.print("{}{}", es.node(e, a), a + 1 < nc ? " " : "\n");
    }
    out.print("        </DataArray>\n");
    std::size_t offset = 0;
    ints("Int64", "offsets", es.size(), [&](std::size_t e) {
      offset += static_cast<std::size_t>(triangle(e) ? 3 : es.corners(e));
      return offset;
    });
    ints("UInt8", "types", es.size(), [&](std::size_t e) {
      return es.is_solid(e) ? 12 : triangle(e) ? 5 : 9;
    });
    out.print("      </Cells>\n    </Piece>\n  </UnstructuredGrid>\n</VTKFile>\n");
  }
  std::filesystem::rename(tmp, path);
}

} // namespace parcae
