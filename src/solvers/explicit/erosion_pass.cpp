// Element erosion in the explicit solver (criteria in erosion.hpp): deletion, the global
// alive/free-node state shared by all ranks, rebuild after a restart.
#include "solvers/explicit/integrator.hpp"

namespace parcae::explicit_detail {

void Integrator::init_erosion() {
  check_add_erosions(model_);
  const auto nsolid = static_cast<std::int64_t>(model_.solids.size());
  for (const auto& sp : d_.solids) {
    const Material* m = model_.find_material(sp.mat.id);
    erosion_.solid_rule.push_back(m ? make_erosion_rule(model_, *m, false, 1, sp.pid)
                                    : ErosionRule{});
    erosion_.solid_gone.emplace_back(sp.blk.size(), 0);
    auto& v0 = erosion_.solid_v0.emplace_back();
    if (!erosion_.solid_rule.back().by_volume()) continue;
    v0.resize(sp.blk.size());
    for (std::size_t k = 0; k < sp.blk.size(); ++k) {
      Real X[8], Y[8], Z[8], bx[8], by[8], bz[8];
      for (int a = 0; a < 8; ++a) {
        const std::size_t n = 3 * static_cast<std::size_t>(sp.blk.conn[k][a]);
        X[a] = d_.x0[n];
        Y[a] = d_.x0[n + 1];
        Z[a] = d_.x0[n + 2];
      }
      v0[k] = hex_volume_gradient(X, Y, Z, bx, by, bz);
    }
  }
  for (const auto& sp : d_.shells) {
    const Material* m = model_.find_material(sp.mat.id);
    erosion_.shell_rule.push_back(m ? make_erosion_rule(model_, *m, true, sp.opt.nip, sp.pid)
                                    : ErosionRule{});
    if (sp.blk.layered() &&
        (erosion_.shell_rule.back().add || erosion_.shell_rule.back().fail_points > 0))
      throw InputError(m->loc,
                       fmt::format("part {}: *MAT_ADD_EROSION or NUMINT on layered shells "
                                   "(composite layers, BETA, an offset or a QR/IRID rule) is not "
                                   "supported",
                                   sp.pid));
    erosion_.shell_gone.emplace_back(sp.blk.size(), 0);
  }
  // Whether the model can erode at all, from the model alone (every rank decides the same): the
  // parts' materials and the layers' of composite shells.
  std::vector<GlobalId> mids;
  for (const auto& p : model_.parts) mids.push_back(p.mid);
  for (const auto& l : model_.shell_layups) mids.insert(mids.end(), l.mid.begin(), l.mid.end());
  for (const GlobalId mid : mids) {
    const Material* m = model_.find_material(mid);
    if (!m) continue;
    const bool fails = m->fs > 0;  // the plastic laws' failure strain (FS, FAIL, EPSF)
    const bool tdel = m->tdel > 0; // *MAT_024 TDEL
    const bool volume = m->terod > 0 || m->cerod > 0; // *MAT_NULL TEROD / CEROD
    bool add = false;
    for (const auto& a : model_.add_erosions) add |= a.mid == m->id;
    const MaterialLaw& law = material_law(m->kind);
    const bool own = law.may_fail != nullptr && law.may_fail(*m); // the law's own criterion
    erosion_.on |= fails || tdel || add || volume || own;
  }
  // *DEFINE_ELEMENT_DEATH_*: the elements named may be deleted
  erosion_.on |= !model_.element_deaths.empty();
  // *CONTROL_TIMESTEP ERODE = 1 with a DTMIN: any solid may erode
  if (model_.control.erode == 1 && model_.control.dtmin > 0 && model_.solids.size() > 0)
    erosion_.on = true;
  if (!erosion_.on) return;
  erosion_.solid_alive.assign(model_.solids.size(), 1);
  erosion_.shell_alive.assign(model_.shells.size(), 1);
  erosion_.node_live.assign(model_.nodes.size(), 0);
  erosion_.node_free.assign(model_.nodes.size(), 0);
  for (std::int64_t ref = 0; ref < nsolid + static_cast<std::int64_t>(model_.shells.size());
       ++ref) {
    LocalId nodes[8];
    int nn = 0;
    if (ref < nsolid) {
      for (LocalId n : model_.solids.nodes[static_cast<std::size_t>(ref)]) nodes[nn++] = n;
    } else {
      for (LocalId n : model_.shells.nodes[static_cast<std::size_t>(ref - nsolid)]) nodes[nn++] = n;
    }
    for (int a = 0; a < nn; ++a) {
      bool seen = false;
      for (int b = 0; b < a; ++b) seen |= nodes[b] == nodes[a];
      if (!seen) ++erosion_.node_live[static_cast<std::size_t>(nodes[a])];
    }
  }
  // Trusses are not eroded: their nodes never become free.
  for (const auto& nodes : model_.beams.nodes)
    for (LocalId n : nodes) ++erosion_.node_live[static_cast<std::size_t>(n)];
}

bool Integrator::death_due(std::int32_t list, const LocalId* nodes, int nn) const {
  // not during dynamic relaxation: its clock is not the run's (the transient starts at 0)
  if (list < 0 || relaxing_) return false;
  for (std::int32_t k : model_.death_lists[static_cast<std::size_t>(list)]) {
    const ElementDeath& dd = model_.element_deaths[static_cast<std::size_t>(k)];
    if (erosion_.t_pass >= dd.time) return true;
    if (dd.boxid == 0) continue;
    // the box: the element's current centroid (a repeated corner counts again) inside it
    // (INOUT 0) or outside it (INOUT 1)
    Real c[3] = {0, 0, 0};
    for (int a = 0; a < nn; ++a)
      for (int i = 0; i < 3; ++i) c[i] += d_.x[3 * static_cast<std::size_t>(nodes[a]) + i] / nn;
    if (model_.boxes.at(dd.boxid).contains(c[0], c[1], c[2]) == (dd.inout == 0)) return true;
  }
  return false;
}

bool Integrator::erode_solids(std::size_t p, std::size_t b, std::size_t e,
                              std::vector<std::int64_t>& out) {
  auto& sp = d_.solids[p];
  auto& gone = erosion_.solid_gone[p];
  const ErosionRule& rule = erosion_.solid_rule[p];
  const Real tssfac = model_.control.tssfac;
  const auto solid_fails = sp.mat.law().solid_fails;
  bool any = false;
  for (std::size_t k = b; k < e; ++k) {
    if (gone[k]) continue;
    bool f = sp.blk.failed[k] != 0; // the kernel's FS / FAIL test
    if (!f && !model_.solid_death.empty())
      f = death_due(model_.solid_death[sp.model_index[k]], sp.blk.conn[k].data(), 8);
    if (!f && rule.tdel > 0 && sp.blk.dt[k] * tssfac < rule.tdel) f = true;
    if (!f && erosion_.tsmin > 0 && sp.blk.dt[k] * tssfac < erosion_.tsmin) f = true;
    if (!f && solid_fails != nullptr) { // the law's own criterion (*MAT_100 spot welds)
      Real xc[8][3];
      for (int a = 0; a < 8; ++a)
        for (int i = 0; i < 3; ++i)
          xc[a][i] = d_.x[3 * static_cast<std::size_t>(sp.blk.conn[k][a]) + i];
      f = solid_fails(sp.mat, &sp.blk.sig[6 * k], xc, sp.blk.vol[k], erosion_.t_pass);
    }
    if (!f && rule.by_volume()) {
      const Real rv = sp.blk.vol[k] / erosion_.solid_v0[p][k];
      f = (rule.terod > 0 && rv > rule.terod) || (rule.cerod > 0 && rv < rule.cerod);
    }
    if (!f && rule.add) {
      Real strain[3];
      const Real* sp_strain = nullptr;
      if (rule.needs_strain) {
        // F = 1 + sum_a (x_a - X_a) B0_a with the uniform gradient of the initial geometry
        Real X[8], Y[8], Z[8], bx[8], by[8], bz[8];
        const auto& cn = sp.blk.conn[k];
        for (int a = 0; a < 8; ++a) {
          const std::size_t n = 3 * static_cast<std::size_t>(cn[a]);
          X[a] = d_.x0[n];
          Y[a] = d_.x0[n + 1];
          Z[a] = d_.x0[n + 2];
        }
        const Real v0 = hex_volume_gradient(X, Y, Z, bx, by, bz);
        Real fg[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
        for (int a = 0; a < 8; ++a) {
          const std::size_t n = 3 * static_cast<std::size_t>(cn[a]);
          const Real bb[3] = {bx[a] / v0, by[a] / v0, bz[a] / v0};
          for (int i = 0; i < 3; ++i) {
            const Real u = d_.x[n + i] - d_.x0[n + i];
            for (int j = 0; j < 3; ++j) fg[3 * i + j] += u * bb[j];
          }
        }
        log_principal_strains(fg, strain);
        sp_strain = strain;
      }
      f = point_fails(rule.crit, &sp.blk.sig[6 * k], erosion_.t_pass, sp_strain);
    }
    if (!f) continue;
    sp.blk.failed[k] = 1;
    gone[k] = 1;
    Real* fe = &d_.corner_f_solid[3 * sp.corner_offset + 24 * k];
    std::fill(fe, fe + 24, 0.0);
    sp.blk.dt[k] = 1e300;
    out.push_back(static_cast<std::int64_t>(sp.model_index[k]));
    any = true;
  }
  return any;
}

bool Integrator::erode_shells(std::size_t p, std::size_t b, std::size_t e,
                              std::vector<std::int64_t>& out) {
  auto& sp = d_.shells[p];
  auto& gone = erosion_.shell_gone[p];
  const ErosionRule& rule = erosion_.shell_rule[p];
  const Real tssfac = model_.control.tssfac;
  const int nip = sp.opt.nip;
  const auto nsolid = static_cast<std::int64_t>(model_.solids.size());
  bool any = false;
  for (std::size_t k = b; k < e; ++k) {
    if (gone[k]) continue;
    bool f = sp.blk.failed[k] != 0; // the kernel's FS / FAIL test (all points)
    if (!f && !model_.shell_death.empty())
      f = death_due(model_.shell_death[sp.model_index[k]], sp.blk.conn[k].data(), 4);
    if (!f && rule.fail_points > 0) { // *MAT_123 NUMINT
      int nf = 0;
      for (int ip = 0; ip < nip; ++ip)
        if (sp.blk.eps_p[static_cast<std::size_t>(nip) * k + static_cast<std::size_t>(ip)] >=
            rule.fail_strain)
          ++nf;
      f = nf >= rule.fail_points;
    }
    if (!f && rule.tdel > 0 && shell_critical_dt(sp.mat, sp.blk, k, d_.x) * tssfac < rule.tdel)
      f = true;
    if (!f && rule.add) {
      int nf = 0;
      for (int ip = 0; ip < nip; ++ip) {
        const Real* s5 = &sp.blk.sig[5 * (static_cast<std::size_t>(nip) * k + ip)];
        const Real s6[6] = {s5[0], s5[1], 0.0, s5[2], s5[3], s5[4]};
        const bool planar = sp.blk.planar != Planar::None; // 2-D solids: global, 6 components
        if (point_fails(rule.crit, planar ? &sp.blk.sig2d[6 * k] : s6, erosion_.t_pass, nullptr))
          ++nf;
      }
      f = nf >= rule.fip_needed;
    }
    if (!f) continue;
    sp.blk.failed[k] = 1;
    gone[k] = 1;
    Real* fe = &d_.corner_f_shell[3 * sp.corner_offset + 12 * k];
    Real* me = &d_.corner_m_shell[3 * sp.corner_offset + 12 * k];
    std::fill(fe, fe + 12, 0.0);
    std::fill(me, me + 12, 0.0);
    out.push_back(nsolid + static_cast<std::int64_t>(sp.model_index[k]));
    any = true;
  }
  return any;
}

void Integrator::kill_element(std::int64_t ref) {
  const auto nsolid = static_cast<std::int64_t>(model_.solids.size());
  LocalId nodes[8];
  int nn = 0;
  if (ref < nsolid) {
    if (!erosion_.solid_alive[static_cast<std::size_t>(ref)]) return;
    erosion_.solid_alive[static_cast<std::size_t>(ref)] = 0;
    for (LocalId n : model_.solids.nodes[static_cast<std::size_t>(ref)]) nodes[nn++] = n;
  } else {
    if (!erosion_.shell_alive[static_cast<std::size_t>(ref - nsolid)]) return;
    erosion_.shell_alive[static_cast<std::size_t>(ref - nsolid)] = 0;
    for (LocalId n : model_.shells.nodes[static_cast<std::size_t>(ref - nsolid)]) nodes[nn++] = n;
  }
  ++erosion_.n_eroded;
  for (int a = 0; a < nn; ++a) {
    bool seen = false;
    for (int b = 0; b < a; ++b) seen |= nodes[b] == nodes[a];
    if (seen) continue;
    const auto g = static_cast<std::size_t>(nodes[a]);
    if (--erosion_.node_live[g] == 0) erosion_.node_free[g] = 1;
  }
}

void Integrator::erosion_sync() {
  if (!erosion_.on) return;
  std::vector<double> mine(erosion_.eroded_now.begin(), erosion_.eroded_now.end());
  erosion_.eroded_now.clear();
  // A rank that found an error says so (-1): nothing is deleted in this pass, the run stops in
  // cycle_reduce (as if the error had been agreed before the deletions).
  if (!local_error_.empty()) mine.push_back(-1.0);
  std::vector<double> all =
      comm_.size() > 1 ? comm_.allgatherv(std::span<const double>(mine)) : std::move(mine);
  if (all.empty() || std::any_of(all.begin(), all.end(), [](double r) { return r < 0; })) return;
  std::sort(all.begin(), all.end()); // the same order on every rank
  for (double r : all) kill_element(static_cast<std::int64_t>(r));
  for (std::size_t i = 0; i < contacts_.model.interfaces.size(); ++i)
    update_contact_life(contacts_.model, i, contacts_.model.interfaces[i], erosion_.solid_alive,
                        erosion_.shell_alive, erosion_.node_free);
  if (opt_.log && comm_.rank() == 0) {
    constexpr std::size_t kMaxLines = 50;
    const auto nsolid = static_cast<std::int64_t>(model_.solids.size());
    const auto first = static_cast<std::int64_t>(all.front());
    const std::string what =
        first < nsolid
            ? fmt::format("solid {}", model_.solids.id[static_cast<std::size_t>(first)])
            : fmt::format("shell {}", model_.shells.id[static_cast<std::size_t>(first - nsolid)]);
    if (erosion_.n_lines < kMaxLines)
      *opt_.log << fmt::format("  cycle {}: {} element(s) eroded at time {:.6e} (first: {}); {} "
                               "in all\n",
                               bodies_.weld_cycle, all.size(), erosion_.t_pass, what,
                               erosion_.n_eroded);
    else if (erosion_.n_lines == kMaxLines)
      *opt_.log << "  (further erosion messages are not written)\n";
    ++erosion_.n_lines;
  }
}

void Integrator::erosion_rebuild() {
  if (!erosion_.on) return;
  std::vector<double> mine;
  const auto nsolid = static_cast<std::int64_t>(model_.solids.size());
  for (std::size_t p = 0; p < d_.solids.size(); ++p)
    for (std::size_t k = 0; k < d_.solids[p].blk.size(); ++k) {
      erosion_.solid_gone[p][k] = d_.solids[p].blk.failed[k];
      if (erosion_.solid_gone[p][k])
        mine.push_back(static_cast<double>(d_.solids[p].model_index[k]));
    }
  for (std::size_t p = 0; p < d_.shells.size(); ++p)
    for (std::size_t k = 0; k < d_.shells[p].blk.size(); ++k) {
      erosion_.shell_gone[p][k] = d_.shells[p].blk.failed[k];
      if (erosion_.shell_gone[p][k])
        mine.push_back(
            static_cast<double>(nsolid + static_cast<std::int64_t>(d_.shells[p].model_index[k])));
    }
  erosion_.eroded_now.clear();
  for (double r : mine) erosion_.eroded_now.push_back(static_cast<std::int64_t>(r));
  const std::size_t lines = erosion_.n_lines;
  erosion_.n_lines = 1000000; // no log lines for the replay
  erosion_sync();
  erosion_.n_lines = lines;
}

} // namespace parcae::explicit_detail
