#include "solvers/explicit/state_output.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>
#include <ostream>
#include <span>
#include <type_traits>
#include <utility>

#include <fmt/format.h>

#include "core/error.hpp"
#include "fem/shell_bt.hpp"
#include "fem/solid2d.hpp"
#include "output/vtk_writer.hpp"

namespace parcae {

namespace fs = std::filesystem;

namespace {

static_assert(sizeof(NodeRecord) == 10 * sizeof(Real), "NodeRecord is gathered as Reals");
static_assert(sizeof(ElementRecord) == 43 * sizeof(Real), "ElementRecord is gathered as Reals");

/// Records gathered on rank 0 (in rank order; empty elsewhere). Records are plain arrays of
/// Reals, so they travel as Reals. One rank: the records themselves (no copy).
template <class Rec> std::vector<Rec> gather_records(const par::Comm& comm, std::vector<Rec> mine) {
  if (comm.size() == 1) return mine;
  constexpr std::size_t kWords = sizeof(Rec) / sizeof(Real);
  std::vector<Real> flat(kWords * mine.size());
  if (!mine.empty()) std::memcpy(flat.data(), mine.data(), flat.size() * sizeof(Real));
  const std::vector<Real> all = comm.gatherv(std::span<const Real>(flat));
  std::vector<Rec> out(all.size() / kWords);
  static_assert(std::is_trivially_copyable_v<Rec>);
  if (!out.empty())
    std::memcpy(static_cast<void*>(out.data()), all.data(), out.size() * sizeof(Rec));
  return out;
}

/// Records travel to rank 0 in chunks of this many per rank: a plot state never holds more
/// than one chunk of every rank's records at once (a 1 M-element model's records whole would
/// be 344 MB a copy).
constexpr std::size_t kRecordChunk = std::size_t{1} << 13;

/// Gathers records on rank 0 chunk by chunk (collective). visit(emit) calls emit(record) for
/// each of this rank's count records; sink(records) runs on rank 0 for every gathered chunk
/// (records of every rank, in rank order within a chunk).
template <class Rec, class Visit, class Sink>
void gather_in_chunks(const par::Comm& comm, std::size_t count, Visit&& visit, Sink&& sink) {
  const auto mine = static_cast<std::int64_t>((count + kRecordChunk - 1) / kRecordChunk);
  const std::int64_t rounds = comm.size() > 1 ? comm.max(mine) : mine;
  std::vector<Rec> buf;
  buf.reserve(std::min(count, kRecordChunk));
  std::int64_t done = 0;
  auto flush = [&] {
    std::vector<Rec> all = gather_records(comm, std::move(buf));
    if (comm.rank() == 0) sink(std::as_const(all));
    buf.clear();
    ++done;
  };
  visit([&](const Rec& r) {
    buf.push_back(r);
    if (buf.size() == kRecordChunk) flush();
  });
  if (!buf.empty()) flush();
  while (done < rounds) flush(); // this rank is done; the others still send
}

/// The owned nodes' records (positions x - dt v with previous_positions), one by one to emit.
template <class Emit>
void visit_node_records(const Domain& d, bool previous_positions, Real dt, Emit&& emit) {
  for (std::size_t n = 0; n < d.nnode; ++n) {
    if (!d.owned[n]) continue;
    NodeRecord r;
    r.index = static_cast<Real>(d.global_index[n]);
    for (int i = 0; i < 3; ++i)
      r.x[i] = d.x[3 * n + i] - (previous_positions ? dt * d.v[3 * n + i] : 0.0);
    for (int i = 0; i < 3; ++i) r.v[i] = d.v[3 * n + i];
    for (int i = 0; i < 3; ++i) r.a[i] = reported_acceleration(d, n, i);
    emit(r);
  }
}

std::size_t owned_node_count(const Domain& d) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < d.nnode; ++i) n += d.owned[i] ? 1 : 0;
  return n;
}

/// A shell's record: stress and plastic strain of its points, resultants, thickness, energy.
///
/// d3plot shells: the three points written are the lowest, the middle and the highest
/// through-thickness integration point (for an even NIP the middle is the mean of the two
/// points next to the mid-surface; NIP = 1 writes its one point three times), each stress
/// turned from the element's corotational frame (built from the current corner coordinates as
/// the Belytschko-Tsay kernel builds it) to the global frame. The resultants are integrated in
/// the local frame with the kernel's through-thickness rule, per unit width: M = int sigma z dz,
/// Q = int tau dz, N = int sigma dz, written as Mxx Myy Mxy Qyz Qxz Nxx Nyy Nxy. The "internal
/// energy" word is the element's internal energy per unit (current) volume.
/// 2-D solids (fem/solid2d.hpp): their stress is global already; the three points are the one
/// point, the resultants zero, the thickness 1 and the energy density per unit current volume
/// (per radian when axisymmetric).
ElementRecord planar_record(const Domain& d, const ShellPart& sp, std::size_t k,
                            bool previous_positions, Real dt) {
  ElementRecord rec;
  rec.shell = 1;
  rec.index = static_cast<Real>(sp.model_index[k]);
  const Real* s = &sp.blk.sig2d[6 * k];
  for (int i = 0; i < 6; ++i) rec.sig[i] = s[i];
  rec.eps_p = sp.blk.eps_p[k];
  for (int p = 0; p < 3; ++p) {
    for (int i = 0; i < 6; ++i) rec.point_sig[p][i] = s[i];
    rec.point_eps_p[p] = rec.eps_p;
  }
  rec.active = sp.blk.failed.empty() || !sp.blk.failed[k] ? 1.0 : 0.0;
  rec.e_int = sp.blk.e_int[k];
  rec.e_hg = sp.blk.e_hg[k];
  rec.thickness = sp.blk.t[k];
  Real x[4], y[4], bx[4], by[4], rc = 0;
  for (int a = 0; a < 4; ++a) {
    const auto n = static_cast<std::size_t>(sp.blk.conn[k][a]);
    x[a] = d.x[3 * n] - (previous_positions ? dt * d.v[3 * n] : 0.0);
    y[a] = d.x[3 * n + 1] - (previous_positions ? dt * d.v[3 * n + 1] : 0.0);
    rc += 0.25 * x[a];
  }
  const Real vol =
      quad_area_gradient(x, y, bx, by) * (sp.blk.planar == Planar::Axisymmetric ? rc : 1.0);
  rec.energy_density = vol > 0 ? rec.e_int / vol : 0.0;
  return rec;
}

ElementRecord shell_record(const Domain& d, const ShellPart& sp, std::size_t k,
                           std::span<const Real> zeta, std::span<const Real> wt,
                           bool previous_positions, Real dt) {
  if (sp.blk.planar != Planar::None) return planar_record(d, sp, k, previous_positions, dt);
  const int nip = sp.opt.nip;
  ElementRecord rec;
  // Mid-surface average of the through-thickness points, local frame [xx yy 0 xy yz zx].
  Real sig[6] = {0, 0, 0, 0, 0, 0};
  Real ep = 0;
  for (int ip = 0; ip < nip; ++ip) {
    const Real* st = &sp.blk.sig[(k * nip + ip) * 5];
    // layered shells: each layer by its share of the thickness (weights sum to 2)
    const Real f = sp.blk.layered() ? 0.5 * sp.blk.layer[4 * (k * nip + ip) + 1] : 1.0 / nip;
    sig[0] += f * st[0];
    sig[1] += f * st[1];
    sig[3] += f * st[2];
    sig[4] += f * st[3];
    sig[5] += f * st[4];
    ep = std::max(ep, sp.blk.eps_p[k * nip + ip]);
  }
  rec.shell = 1;
  rec.index = static_cast<Real>(sp.model_index[k]);
  for (int i = 0; i < 6; ++i) rec.sig[i] = sig[i];
  rec.eps_p = ep;
  rec.active = sp.blk.failed.empty() || !sp.blk.failed[k] ? 1.0 : 0.0;
  rec.e_int = sp.blk.e_int[k];
  rec.e_hg = sp.blk.e_hg[k];
  // Corotational frame from the corner positions (rows e1, e2, e3: local = R global).
  Real X[4][3];
  for (int c = 0; c < 4; ++c)
    for (int i = 0; i < 3; ++i) {
      const auto n = static_cast<std::size_t>(sp.blk.conn[k][c]);
      X[c][i] = d.x[3 * n + i] - (previous_positions ? dt * d.v[3 * n + i] : 0.0);
    }
  Real r31[3], r42[3], r21[3], R[3][3];
  for (int i = 0; i < 3; ++i) {
    r31[i] = X[2][i] - X[0][i];
    r42[i] = X[3][i] - X[1][i];
    r21[i] = X[1][i] - X[0][i];
  }
  Real nrm[3] = {r31[1] * r42[2] - r31[2] * r42[1], r31[2] * r42[0] - r31[0] * r42[2],
                 r31[0] * r42[1] - r31[1] * r42[0]};
  const Real nlen = std::sqrt(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
  const Real area = 0.5 * nlen;
  for (int i = 0; i < 3; ++i) R[2][i] = nlen > 0 ? nrm[i] / nlen : (i == 2 ? 1.0 : 0.0);
  const Real dn = r21[0] * R[2][0] + r21[1] * R[2][1] + r21[2] * R[2][2];
  Real s1[3];
  for (int i = 0; i < 3; ++i) s1[i] = r21[i] - dn * R[2][i];
  const Real slen = std::sqrt(s1[0] * s1[0] + s1[1] * s1[1] + s1[2] * s1[2]);
  for (int i = 0; i < 3; ++i) R[0][i] = slen > 0 ? s1[i] / slen : (i == 0 ? 1.0 : 0.0);
  R[1][0] = R[2][1] * R[0][2] - R[2][2] * R[0][1];
  R[1][1] = R[2][2] * R[0][0] - R[2][0] * R[0][2];
  R[1][2] = R[2][0] * R[0][1] - R[2][1] * R[0][0];
  // Points written: lowest, middle, highest (layered: of its layers; later points are padding)
  int np = nip;
  if (sp.blk.layered())
    while (np > 1 && sp.blk.layer[4 * (k * nip + static_cast<std::size_t>(np - 1)) + 1] == 0) --np;
  auto point = [&](int which, Real out[5], Real& eps) {
    const auto at = [&](int ip) { return &sp.blk.sig[(k * nip + ip) * 5]; };
    const auto ep_at = [&](int ip) { return sp.blk.eps_p[k * nip + ip]; };
    int p0 = which == 0 ? 0 : (which == 2 ? np - 1 : (np - 1) / 2);
    int p1 = which == 1 && np % 2 == 0 ? np / 2 : p0;
    for (int i = 0; i < 5; ++i) out[i] = 0.5 * (at(p0)[i] + at(p1)[i]);
    // layered shells: the larger (composite laws keep their failure flags there)
    eps = sp.blk.layered() ? std::max(ep_at(p0), ep_at(p1)) : 0.5 * (ep_at(p0) + ep_at(p1));
  };
  for (int which = 0; which < 3; ++which) {
    Real l[5];
    point(which, l, rec.point_eps_p[which]);
    // local tensor [xx xy zx; xy yy yz; zx yz 0] -> global R^T S R
    const Real S[3][3] = {{l[0], l[2], l[4]}, {l[2], l[1], l[3]}, {l[4], l[3], 0.0}};
    Real G[3][3];
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        Real acc = 0;
        for (int p = 0; p < 3; ++p)
          for (int q = 0; q < 3; ++q) acc += R[p][i] * S[p][q] * R[q][j];
        G[i][j] = acc;
      }
    const Real g6[6] = {G[0][0], G[1][1], G[2][2], G[0][1], G[1][2], G[2][0]};
    for (int i = 0; i < 6; ++i) rec.point_sig[which][i] = g6[i];
  }
  const Real th = sp.blk.t[k];
  Real Nr[3] = {0, 0, 0}, Mr[3] = {0, 0, 0}, Qr[2] = {0, 0};
  for (int ip = 0; ip < nip; ++ip) {
    const Real* sg = &sp.blk.sig[(k * nip + ip) * 5];
    const Real* L = sp.blk.layered() ? &sp.blk.layer[4 * (k * nip + ip)] : nullptr;
    const Real tw = (L ? L[1] : wt[static_cast<std::size_t>(ip)]) * th / 2;
    const Real z = sp.opt.membrane ? 0.0 : (L ? L[0] : zeta[static_cast<std::size_t>(ip)]) * th / 2;
    for (int i = 0; i < 3; ++i) {
      Nr[i] += tw * sg[i];
      Mr[i] += tw * z * sg[i];
    }
    Qr[0] += tw * sg[3];
    Qr[1] += tw * sg[4];
  }
  const Real res[8] = {Mr[0], Mr[1], Mr[2], Qr[0], Qr[1], Nr[0], Nr[1], Nr[2]};
  for (int i = 0; i < 8; ++i) rec.resultants[i] = res[i];
  rec.thickness = th;
  rec.energy_density = area * th > 0 ? sp.blk.e_int[k] / (area * th) : 0.0;
  return rec;
}

/// The output records of one part's elements (solid family), one by one to emit.
template <class Emit>
void visit_part_records(const Domain& /*d*/, const SolidPart& sp, bool /*previous_positions*/,
                        Real /*dt*/, Emit&& emit) {
  for (std::size_t k = 0; k < sp.blk.size(); ++k) {
    ElementRecord rec;
    rec.shell = 0;
    rec.index = static_cast<Real>(sp.model_index[k]);
    for (int i = 0; i < 6; ++i) rec.sig[i] = sp.blk.sig[6 * k + i];
    rec.eps_p = sp.blk.eps_p[k];
    rec.active = sp.blk.failed.empty() || !sp.blk.failed[k] ? 1.0 : 0.0;
    rec.e_int = sp.blk.e_int[k];
    rec.e_hg = sp.blk.e_hg[k];
    emit(rec);
  }
}

/// The output records of one part's elements (shell family), one by one to emit.
template <class Emit>
void visit_part_records(const Domain& d, const ShellPart& sp, bool previous_positions, Real dt,
                        Emit&& emit) {
  const int nip = sp.opt.nip;
  std::vector<Real> zeta(static_cast<std::size_t>(nip)), wt(static_cast<std::size_t>(nip));
  if (!sp.blk.layered()) shell_thickness_rule(nip, sp.opt.lobatto, zeta, wt); // else its layers
  for (std::size_t k = 0; k < sp.blk.size(); ++k)
    emit(shell_record(d, sp, k, zeta, wt, previous_positions, dt));
}

/// The output records of one part's elements (truss family): axial stress and force.
template <class Emit>
void visit_part_records(const Domain& /*d*/, const TrussPart& tp, bool /*previous_positions*/,
                        Real /*dt*/, Emit&& emit) {
  for (std::size_t k = 0; k < tp.blk.size(); ++k) {
    ElementRecord rec;
    rec.shell = 2;
    rec.index = static_cast<Real>(tp.model_index[k]);
    rec.sig[0] = tp.blk.sig[k];
    rec.eps_p = tp.blk.eps_p[k];
    rec.e_int = tp.blk.e_int[k];
    rec.resultants[0] = tp.blk.force[k];
    emit(rec);
  }
}

/// The output records of one part's elements (integrated beams): the mean axial and shear
/// stresses, the largest plastic strain of the points, the six resultants (N, Q_s, Q_t, M_s,
/// M_t, T).
template <class Emit>
void visit_part_records(const Domain& /*d*/, const BeamPart& bp, bool /*previous_positions*/,
                        Real /*dt*/, Emit&& emit) {
  const auto np = static_cast<std::size_t>(bp.blk.nip);
  const Real area = bp.blk.sec.rule.area;
  for (std::size_t k = 0; k < bp.blk.size(); ++k) {
    ElementRecord rec;
    rec.shell = 2;
    rec.index = static_cast<Real>(bp.model_index[k]);
    const Real* r = &bp.blk.res[6 * k];
    rec.sig[0] = area > 0 ? r[0] / area : 0.0;
    rec.sig[3] = area > 0 ? r[1] / area : 0.0;
    rec.sig[5] = area > 0 ? r[2] / area : 0.0;
    for (std::size_t p = 0; p < np; ++p) rec.eps_p = std::max(rec.eps_p, bp.blk.eps_p[np * k + p]);
    rec.e_int = bp.blk.e_int[k];
    for (int i = 0; i < 6; ++i) rec.resultants[i] = r[i];
    emit(rec);
  }
}

/// VTK cell type of a two-node line.
constexpr std::uint8_t kVtkLine = 3;

/// Every element's record, family after family (fem/element_family.hpp), parts in domain order,
/// one by one to emit.
template <class Emit>
void visit_element_records(const Domain& d, bool previous_positions, Real dt, Emit&& emit) {
  for_each_element_family([&](auto family) {
    for (const auto& sp : parts_of(d, family))
      visit_part_records(d, sp, previous_positions, dt, emit);
  });
}

std::size_t element_record_count(const Domain& d) {
  std::size_t n = 0;
  for_each_element_family([&](auto family) {
    for (const auto& sp : parts_of(d, family)) n += sp.blk.size();
  });
  return n;
}

} // namespace

std::vector<ElementRecord> element_records(const Domain& d, bool previous_positions, Real dt) {
  std::vector<ElementRecord> out;
  out.reserve(element_record_count(d));
  visit_element_records(d, previous_positions, dt,
                        [&](const ElementRecord& r) { out.push_back(r); });
  return out;
}

void StateOutput::open(const Domain& d, bool restarting, const HistoryRecorder* parts) {
  if (opt_.write_d3plot && comm_.rank() == 0) open_d3plot(restarting);
  if (!opt_.write_d3plot) return;
  plot_parts_ = parts;
  if (plot_parts_ == nullptr) {
    own_parts_ = std::make_unique<HistoryRecorder>(model_, d, comm_);
    plot_parts_ = own_parts_.get();
  }
}

void StateOutput::close() {
  if (d3plot_) d3plot_->close();
}

void StateOutput::visit_state(StateArchive& ar) {
  ar.pod(last_time_);
  std::uint64_t nstates = states_.size();
  ar.pod(nstates);
  if (ar.loading()) states_.resize(nstates);
  for (auto& [t, name] : states_) {
    ar.pod(t);
    ar.str(name);
  }
}

void StateOutput::rewrite_pvd() const {
  // Also without --vtk: a series restored from the checkpoint stays consistent with the
  // rewound outputs (no entries past the checkpoint), even if this run adds no states.
  if (comm_.rank() == 0 && !states_.empty())
    write_pvd((fs::path(opt_.outdir) / "parcae.pvd").string(), states_);
}

void StateOutput::write(const Domain& d, Real t, const GlobalStats& now, bool previous_positions,
                        Real dt) {
  if (!opt_.write_vtk && !opt_.write_d3plot) return;
  last_time_ = t;
  // VTK: one .vtu of the whole model from rank 0 in a one-rank run; in MPP every rank writes
  // its own piece and rank 0 the .pvtu that joins them (nothing gathered for VTK). The d3plot
  // and the one-rank .vtu need the whole model on rank 0: its records travel there in chunks
  // and go straight into the state's arrays.
  const bool pieces = opt_.write_vtk && comm_.size() > 1;
  const bool vtu = opt_.write_vtk && !pieces;
  const bool gather = opt_.write_d3plot || vtu;
  if (opt_.write_vtk) {
    const std::size_t index = states_.size();
    states_.emplace_back(t, fmt::format("states/state_{:05d}.{}", index, pieces ? "pvtu" : "vtu"));
    fs::create_directories(fs::path(opt_.outdir) / "states");
  }
  if (pieces)
    write_vtk_piece(d, previous_positions, dt, element_records(d, previous_positions, dt));
  if (!gather) return;
  const bool root = comm_.rank() == 0;
  D3plotState ds;
  WholeVtuState vs;
  if (root && d3plot_) start_d3plot_state(ds, t, now);
  if (root && vtu) start_vtu_state(vs);
  gather_in_chunks<NodeRecord>(
      comm_, owned_node_count(d),
      [&](auto&& emit) { visit_node_records(d, previous_positions, dt, emit); },
      [&](const std::vector<NodeRecord>& recs) {
        if (d3plot_) add_d3plot_nodes(ds, recs);
        if (vtu) add_vtu_nodes(vs, recs);
      });
  gather_in_chunks<ElementRecord>(
      comm_, element_record_count(d),
      [&](auto&& emit) { visit_element_records(d, previous_positions, dt, emit); },
      [&](const std::vector<ElementRecord>& recs) {
        if (d3plot_) add_d3plot_elements(ds, recs);
        if (vtu) add_vtu_elements(vs, recs);
      });
  // Per-part energies, mass and velocity as matsum has them (exact sums: rank-independent).
  std::vector<PartSummary> part_sums;
  if (opt_.write_d3plot && plot_parts_) part_sums = plot_parts_->parts(d);
  if (!root) return;
  if (d3plot_) {
    add_d3plot_parts(ds, part_sums);
    d3plot_->write_state(ds);
  }
  if (vtu) write_whole_vtu(t, std::move(vs));
}

void StateOutput::start_d3plot_state(D3plotState& ds, Real t, const GlobalStats& now) const {
  const std::size_t nn = model_.nodes.size(), ns = model_.solids.size();
  const std::size_t nsh = model_.shells.size();
  ds.time = t;
  ds.kinetic = now.kinetic;
  ds.internal = now.internal;
  ds.total = now.total;
  ds.velocity = {now.vx, now.vy, now.vz};
  // Nodes no rank owns a record of (none today) keep their initial position.
  ds.x.resize(3 * nn);
  ds.v.assign(3 * nn, 0.0);
  ds.a.assign(3 * nn, 0.0);
  for (std::size_t n = 0; n < nn; ++n) {
    ds.x[3 * n] = model_.nodes.x[n];
    ds.x[3 * n + 1] = model_.nodes.y[n];
    ds.x[3 * n + 2] = model_.nodes.z[n];
  }
  ds.solid_sig.assign(6 * ns, 0.0);
  ds.solid_epsp.assign(ns, 0.0);
  ds.solid_active.assign(ns, 1);
  ds.shell_sig.assign(18 * nsh, 0.0);
  ds.shell_epsp.assign(3 * nsh, 0.0);
  ds.shell_resultants.assign(8 * nsh, 0.0);
  ds.shell_thickness.assign(nsh, 0.0);
  ds.shell_energy.assign(nsh, 0.0);
  ds.shell_active.assign(nsh, 1);
  ds.beam_force.assign(model_.beams.size(), 0.0);
  ds.beam_resultants.assign(5 * model_.beams.size(), 0.0);
}

void StateOutput::add_d3plot_nodes(D3plotState& ds, const std::vector<NodeRecord>& nodes) {
  for (const NodeRecord& r : nodes) {
    const auto n = static_cast<std::size_t>(r.index);
    for (int i = 0; i < 3; ++i) {
      ds.x[3 * n + i] = r.x[i];
      ds.v[3 * n + i] = r.v[i];
      ds.a[3 * n + i] = r.a[i];
    }
  }
}

void StateOutput::add_d3plot_elements(D3plotState& ds, const std::vector<ElementRecord>& elems) {
  for (const ElementRecord& r : elems) {
    const auto e = static_cast<std::size_t>(r.index);
    if (r.shell == 2) {
      ds.beam_force[e] = r.resultants[0];
      for (int i = 0; i < 5; ++i) ds.beam_resultants[5 * e + i] = r.resultants[1 + i];
      continue;
    }
    if (r.shell == 0) {
      for (int i = 0; i < 6; ++i) ds.solid_sig[6 * e + i] = r.sig[i];
      ds.solid_epsp[e] = r.eps_p;
      ds.solid_active[e] = r.active != 0 ? 1 : 0;
      continue;
    }
    for (int p = 0; p < 3; ++p)
      for (int i = 0; i < 6; ++i) ds.shell_sig[18 * e + 6 * p + i] = r.point_sig[p][i];
    for (int i = 0; i < 3; ++i) ds.shell_epsp[3 * e + i] = r.point_eps_p[i];
    for (int i = 0; i < 8; ++i) ds.shell_resultants[8 * e + i] = r.resultants[i];
    ds.shell_thickness[e] = r.thickness;
    ds.shell_energy[e] = r.energy_density;
    ds.shell_active[e] = r.active != 0 ? 1 : 0;
  }
}

void StateOutput::add_d3plot_parts(D3plotState& ds, const std::vector<PartSummary>& parts) const {
  const std::size_t np = model_.parts.size();
  std::map<GlobalId, std::size_t> part_index;
  for (std::size_t p = 0; p < np; ++p) part_index[model_.parts[p].id] = p;
  ds.part_internal.assign(np, 0.0);
  ds.part_hourglass.assign(np, 0.0);
  ds.part_kinetic.assign(np, 0.0);
  ds.part_mass.assign(np, 0.0);
  ds.part_velocity.assign(3 * np, 0.0);
  for (const PartSummary& ps : parts) {
    const auto it = part_index.find(ps.id);
    if (it == part_index.end()) continue;
    const std::size_t p = it->second;
    ds.part_internal[p] = ps.internal;
    ds.part_hourglass[p] = ps.hourglass;
    ds.part_kinetic[p] = ps.kinetic;
    ds.part_mass[p] = ps.mass;
    for (int i = 0; i < 3; ++i)
      ds.part_velocity[3 * p + i] = ps.mass > 0 ? ps.momentum[i] / ps.mass : 0.0;
  }
}

void StateOutput::start_vtu_state(WholeVtuState& vs) const {
  const std::size_t nn = model_.nodes.size();
  const std::size_t ne = model_.solids.size() + model_.shells.size() + model_.beams.size();
  vs.pts.resize(3 * nn);
  vs.vel.assign(3 * nn, 0.0);
  for (std::size_t n = 0; n < nn; ++n) {
    vs.pts[3 * n] = model_.nodes.x[n];
    vs.pts[3 * n + 1] = model_.nodes.y[n];
    vs.pts[3 * n + 2] = model_.nodes.z[n];
  }
  vs.stress.assign(6 * ne, 0.0);
  vs.epsp.assign(ne, 0.0);
}

void StateOutput::add_vtu_nodes(WholeVtuState& vs, const std::vector<NodeRecord>& nodes) {
  for (const NodeRecord& r : nodes) {
    const auto n = static_cast<std::size_t>(r.index);
    for (int i = 0; i < 3; ++i) {
      vs.pts[3 * n + i] = r.x[i];
      vs.vel[3 * n + i] = r.v[i];
    }
  }
}

void StateOutput::add_vtu_elements(WholeVtuState& vs,
                                   const std::vector<ElementRecord>& elems) const {
  const std::size_t ns = model_.solids.size(), nsh = model_.shells.size();
  for (const ElementRecord& r : elems) {
    const std::size_t e =
        static_cast<std::size_t>(r.index) + (r.shell == 2 ? ns + nsh : (r.shell != 0 ? ns : 0));
    for (int i = 0; i < 6; ++i) vs.stress[6 * e + i] = r.sig[i];
    vs.epsp[e] = r.eps_p;
  }
}

void StateOutput::write_whole_vtu(Real t, WholeVtuState vs) {
  const std::size_t nn = model_.nodes.size();
  std::vector<Real> disp(3 * nn);
  for (std::size_t n = 0; n < nn; ++n) {
    disp[3 * n] = vs.pts[3 * n] - model_.nodes.x[n];
    disp[3 * n + 1] = vs.pts[3 * n + 1] - model_.nodes.y[n];
    disp[3 * n + 2] = vs.pts[3 * n + 2] - model_.nodes.z[n];
  }
  const std::size_t ns = model_.solids.size(), nsh = model_.shells.size();
  const std::size_t nb = model_.beams.size();
  std::vector<Real> pid, eid;
  pid.reserve(ns + nsh + nb);
  eid.reserve(ns + nsh + nb);
  VtkGrid g;
  g.points = std::move(vs.pts);
  for (std::size_t e = 0; e < ns; ++e) {
    for (LocalId n : model_.solids.nodes[e]) g.connectivity.push_back(n);
    g.offsets.push_back(static_cast<std::int64_t>(g.connectivity.size()));
    g.types.push_back(12);
    pid.push_back(static_cast<Real>(model_.solids.part[e]));
    eid.push_back(static_cast<Real>(model_.solids.id[e]));
  }
  for (std::size_t e = 0; e < nsh; ++e) {
    const auto& cn = model_.shells.nodes[e];
    const bool tri = cn[2] == cn[3];
    for (int a = 0; a < (tri ? 3 : 4); ++a) g.connectivity.push_back(cn[a]);
    g.offsets.push_back(static_cast<std::int64_t>(g.connectivity.size()));
    g.types.push_back(tri ? 5 : 9);
    pid.push_back(static_cast<Real>(model_.shells.part[e]));
    eid.push_back(static_cast<Real>(model_.shells.id[e]));
  }
  for (std::size_t e = 0; e < nb; ++e) {
    for (LocalId n : model_.beams.nodes[e]) g.connectivity.push_back(n);
    g.offsets.push_back(static_cast<std::int64_t>(g.connectivity.size()));
    g.types.push_back(kVtkLine);
    pid.push_back(static_cast<Real>(model_.beams.part[e]));
    eid.push_back(static_cast<Real>(model_.beams.id[e]));
  }
  g.point_data.push_back({"displacement", 3, std::move(disp)});
  g.point_data.push_back({"velocity", 3, std::move(vs.vel)});
  g.cell_data.push_back({"stress", 6, std::move(vs.stress)});
  g.cell_data.push_back({"effective_plastic_strain", 1, std::move(vs.epsp)});
  g.cell_data.push_back({"part_id", 1, std::move(pid)});
  g.cell_data.push_back({"element_id", 1, std::move(eid)});
  write_vtu((fs::path(opt_.outdir) / states_.back().second).string(), g, t);
  write_pvd((fs::path(opt_.outdir) / "parcae.pvd").string(), states_);
}

/// MPP VTK (collective): this rank's elements and the nodes they use as one .vtu piece of
/// states/state_N/, rank 0 writes states/state_N.pvtu and parcae.pvd. Pieces carry the model
/// node and element indices (node_index, element_index) so that tools can put the pieces back
/// together in the order of a one-rank run. elems: the element records of write_state
/// (element_records: solids then shells in domain order).
void StateOutput::write_vtk_piece(const Domain& d, bool previous_positions, Real dt,
                                  const std::vector<ElementRecord>& elems) {
  const std::size_t index = states_.size() - 1;
  const Real t = states_.back().first;
  std::vector<std::int64_t> piece_of(d.nnode, -1);
  std::vector<LocalId> nodes;
  auto use = [&](LocalId n) {
    auto& p = piece_of[static_cast<std::size_t>(n)];
    if (p < 0) {
      p = static_cast<std::int64_t>(nodes.size());
      nodes.push_back(n);
    }
    return p;
  };
  VtkGrid g;
  std::vector<Real> stress, epsp, pid, eid, eidx;
  std::size_t r = 0;
  auto cell_values = [&](GlobalId part, GlobalId id, std::size_t model_index) {
    const ElementRecord& v = elems[r];
    for (int i = 0; i < 6; ++i) stress.push_back(v.sig[i]);
    epsp.push_back(v.eps_p);
    pid.push_back(static_cast<Real>(part));
    eid.push_back(static_cast<Real>(id));
    eidx.push_back(static_cast<Real>(model_index));
    g.offsets.push_back(static_cast<std::int64_t>(g.connectivity.size()));
    ++r;
  };
  const std::size_t ns = model_.solids.size();
  for (const auto& sp : d.solids)
    for (std::size_t k = 0; k < sp.blk.size(); ++k) {
      for (LocalId n : sp.blk.conn[k]) g.connectivity.push_back(use(n));
      g.types.push_back(12);
      cell_values(sp.pid, sp.elem_id[k], sp.model_index[k]);
    }
  for (const auto& sp : d.shells)
    for (std::size_t k = 0; k < sp.blk.size(); ++k) {
      const auto& cn = sp.blk.conn[k];
      const bool tri = cn[2] == cn[3];
      for (int a = 0; a < (tri ? 3 : 4); ++a) g.connectivity.push_back(use(cn[a]));
      g.types.push_back(tri ? 5 : 9);
      cell_values(sp.pid, sp.elem_id[k], ns + sp.model_index[k]);
    }
  const std::size_t nsh = model_.shells.size();
  for (const auto& tp : d.trusses)
    for (std::size_t k = 0; k < tp.blk.size(); ++k) {
      for (LocalId n : tp.blk.conn[k]) g.connectivity.push_back(use(n));
      g.types.push_back(kVtkLine);
      cell_values(tp.pid, tp.elem_id[k], ns + nsh + tp.model_index[k]);
    }
  for (const auto& bp : d.beams)
    for (std::size_t k = 0; k < bp.blk.size(); ++k) {
      for (LocalId n : bp.blk.conn[k]) g.connectivity.push_back(use(n));
      g.types.push_back(kVtkLine);
      cell_values(bp.pid, bp.elem_id[k], ns + nsh + bp.model_index[k]);
    }
  // Rigid parts have no element blocks (their nodes follow the bodies, on every rank): rank 0
  // writes their elements, with zero stress as the one-rank .vtu has them.
  if (comm_.rank() == 0) {
    std::map<GlobalId, bool> rigid_part;
    for (const auto& p : model_.parts) {
      const Material* m = model_.find_material(p.mid);
      rigid_part[p.id] = m && m->kind == MaterialKind::Rigid;
    }
    auto rigid_cell = [&](GlobalId part, GlobalId id, std::size_t model_index) {
      stress.insert(stress.end(), 6, 0.0);
      epsp.push_back(0.0);
      pid.push_back(static_cast<Real>(part));
      eid.push_back(static_cast<Real>(id));
      eidx.push_back(static_cast<Real>(model_index));
      g.offsets.push_back(static_cast<std::int64_t>(g.connectivity.size()));
    };
    auto local = [&](LocalId model_node) {
      return use(d.local_of_global[static_cast<std::size_t>(model_node)]);
    };
    for (std::size_t e = 0; e < ns; ++e) {
      if (!rigid_part[model_.solids.part[e]]) continue;
      for (LocalId n : model_.solids.nodes[e]) g.connectivity.push_back(local(n));
      g.types.push_back(12);
      rigid_cell(model_.solids.part[e], model_.solids.id[e], e);
    }
    for (std::size_t e = 0; e < model_.shells.size(); ++e) {
      if (!rigid_part[model_.shells.part[e]]) continue;
      const auto& cn = model_.shells.nodes[e];
      const bool tri = cn[2] == cn[3];
      for (int a = 0; a < (tri ? 3 : 4); ++a) g.connectivity.push_back(local(cn[a]));
      g.types.push_back(tri ? 5 : 9);
      rigid_cell(model_.shells.part[e], model_.shells.id[e], ns + e);
    }
    for (std::size_t e = 0; e < model_.beams.size(); ++e) {
      if (!rigid_part[model_.beams.part[e]]) continue;
      for (LocalId n : model_.beams.nodes[e]) g.connectivity.push_back(local(n));
      g.types.push_back(kVtkLine);
      rigid_cell(model_.beams.part[e], model_.beams.id[e], ns + nsh + e);
    }
  }
  // Nodes no element uses (beam orientation nodes N3, free nodes) live on rank 0, which writes
  // them as points without cells (the one-rank .vtu has every node).
  if (comm_.rank() == 0)
    for (std::size_t n = 0; n < d.nnode; ++n)
      if (piece_of[n] < 0 && d.owned[n]) use(static_cast<LocalId>(n));
  std::vector<Real> pts, disp, vel, nidx, nid;
  for (LocalId n : nodes) {
    const auto i3 = 3 * static_cast<std::size_t>(n);
    for (int i = 0; i < 3; ++i) {
      const Real x = d.x[i3 + i] - (previous_positions ? dt * d.v[i3 + i] : 0.0);
      pts.push_back(x);
      disp.push_back(x - d.x0[i3 + i]);
      vel.push_back(d.v[i3 + i]);
    }
    nidx.push_back(static_cast<Real>(d.global_index[static_cast<std::size_t>(n)]));
    nid.push_back(static_cast<Real>(d.node_id[static_cast<std::size_t>(n)]));
  }
  g.points = pts;
  g.point_data.push_back({"displacement", 3, std::move(disp)});
  g.point_data.push_back({"velocity", 3, std::move(vel)});
  g.point_data.push_back({"node_id", 1, std::move(nid)});
  g.point_data.push_back({"node_index", 1, std::move(nidx)});
  g.cell_data.push_back({"stress", 6, std::move(stress)});
  g.cell_data.push_back({"effective_plastic_strain", 1, std::move(epsp)});
  g.cell_data.push_back({"part_id", 1, std::move(pid)});
  g.cell_data.push_back({"element_id", 1, std::move(eid)});
  g.cell_data.push_back({"element_index", 1, std::move(eidx)});
  const std::string dir = fmt::format("state_{:05d}", index);
  const fs::path states = fs::path(opt_.outdir) / "states";
  fs::create_directories(states / dir);
  write_vtu((states / dir / fmt::format("piece_{:05d}.vtu", comm_.rank())).string(), g, t);
  comm_.barrier(); // every piece is in place before the .pvtu names it
  if (comm_.rank() != 0) return;
  std::vector<std::string> names;
  for (int q = 0; q < comm_.size(); ++q)
    names.push_back(fmt::format("{}/piece_{:05d}.vtu", dir, q));
  write_pvtu((fs::path(opt_.outdir) / states_.back().second).string(), names, g);
  write_pvd((fs::path(opt_.outdir) / "parcae.pvd").string(), states_);
}

void StateOutput::open_d3plot(bool append) {
  D3plotGeometry g;
  g.title = model_.control.title;
  const std::size_t nn = model_.nodes.size();
  g.x0.resize(3 * nn);
  for (std::size_t n = 0; n < nn; ++n) {
    g.x0[3 * n] = model_.nodes.x[n];
    g.x0[3 * n + 1] = model_.nodes.y[n];
    g.x0[3 * n + 2] = model_.nodes.z[n];
  }
  g.node_id = model_.nodes.id;
  std::map<GlobalId, std::int32_t> part_index;
  for (const auto& p : model_.parts) {
    part_index[p.id] = static_cast<std::int32_t>(g.parts.size());
    g.parts.push_back({p.id, p.title});
  }
  g.solid_nodes.reserve(model_.solids.size());
  g.solid_part.reserve(model_.solids.size());
  g.shell_nodes.reserve(model_.shells.size());
  g.shell_part.reserve(model_.shells.size());
  g.beam_nodes.reserve(model_.beams.size());
  g.beam_part.reserve(model_.beams.size());
  auto index_of = [&](GlobalId pid) {
    const auto it = part_index.find(pid);
    if (it == part_index.end())
      throw RuntimeError(fmt::format("d3plot: element of undefined part {}", pid));
    return it->second;
  };
  for (std::size_t e = 0; e < model_.solids.size(); ++e) {
    std::array<std::int32_t, 8> c{};
    for (int a = 0; a < 8; ++a) c[a] = model_.solids.nodes[e][a];
    g.solid_nodes.push_back(c);
    g.solid_part.push_back(index_of(model_.solids.part[e]));
  }
  g.solid_id = model_.solids.id;
  for (std::size_t e = 0; e < model_.shells.size(); ++e) {
    std::array<std::int32_t, 4> c{};
    for (int a = 0; a < 4; ++a) c[a] = model_.shells.nodes[e][a];
    g.shell_nodes.push_back(c);
    g.shell_part.push_back(index_of(model_.shells.part[e]));
  }
  g.shell_id = model_.shells.id;
  for (std::size_t e = 0; e < model_.beams.size(); ++e) {
    const auto& bn = model_.beams.nodes[e];
    const LocalId n3 = model_.beams.n3[e];
    g.beam_nodes.push_back({bn[0], bn[1], n3 == kInvalidLocal ? bn[0] : n3});
    g.beam_part.push_back(index_of(model_.beams.part[e]));
  }
  g.beam_id = model_.beams.id;
  D3plotOptions o;
  o.word_bytes = opt_.d3plot_word_bytes;
  o.shell_layers = 3; // bottom, middle, top (see write_state); other MAXINT values write 3 too
  const auto& ext = model_.control.extent; // *DATABASE_EXTENT_BINARY: 2 = leave out
  o.shell_stress = ext.sigflg != 2;
  o.shell_plastic_strain = ext.epsflg != 2;
  o.shell_resultants = ext.rltflg != 2;
  o.shell_thickness_energy = ext.engflg != 2;
  if (ext.ieverp == 1) o.family_file_words = 1; // one state per family member
  o.append = append;
  const std::string base = (std::filesystem::path(opt_.outdir) / "d3plot").string();
  if (!append) {
    d3plot_ = std::make_unique<D3plotWriter>(base, std::move(g), o);
    return;
  }
  try {
    d3plot_ = std::make_unique<D3plotWriter>(base, std::move(g), o);
  } catch (const RuntimeError& e) { // keep what is there; the run goes on without d3plot
    if (opt_.log) *opt_.log << "warning: no d3plot after the restart: " << e.what() << "\n";
  }
}

} // namespace parcae
