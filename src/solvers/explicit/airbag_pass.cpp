// Airbags of the explicit cycle (*AIRBAG_SIMPLE_PRESSURE_VOLUME, and the ideal gas of
// *AIRBAG_SIMPLE_AIRBAG_MODEL advanced with the volume each cycle): the bag's volume from its
// shells (fem/airbag.hpp), summed exactly over the ranks, its pressure on the shells' corners
// (and that pressure's work, external work like the loads') and the mass-weighted damping of
// its nodes.
#include <algorithm>
#include <map>

#include "fem/airbag.hpp"
#include "solvers/explicit/integrator.hpp"

namespace parcae::explicit_detail {

void Integrator::init_airbags() {
  if (model_.airbags.empty()) return;
  airbags_.bag_of_part.assign(d_.shells.size(), -1);
  for (const Airbag& a : model_.airbags) {
    AirbagCoupling::Bag bag;
    bag.def = &a;
    const auto& members = model_.part_sets.at(a.sid).members;
    std::vector<LocalId> nodes;
    for (std::size_t p = 0; p < d_.shells.size(); ++p) {
      if (std::find(members.begin(), members.end(), d_.shells[p].pid) == members.end()) continue;
      if (airbags_.bag_of_part[p] >= 0)
        throw InputError(
            a.loc,
            fmt::format("airbag {}: part {} is already in airbag {}", a.id, d_.shells[p].pid,
                        model_.airbags[static_cast<std::size_t>(airbags_.bag_of_part[p])].id));
      airbags_.bag_of_part[p] = static_cast<int>(airbags_.bags.size());
      for (const auto& c : d_.shells[p].blk.conn) nodes.insert(nodes.end(), c.begin(), c.end());
    }
    // Its surface must be deformable shells (rigid parts are not in the volume or the pressure).
    for (GlobalId pid : members) {
      const auto sp = std::find_if(d_.shells.begin(), d_.shells.end(),
                                   [&](const ShellPart& p) { return p.pid == pid; });
      if (sp == d_.shells.end())
        throw InputError(a.loc, fmt::format("airbag {}: part {} of part set {} has no deformable "
                                            "shells (rigid bag walls are not supported)",
                                            a.id, pid, a.sid));
      if (sp->blk.planar != Planar::None)
        throw InputError(a.loc, fmt::format("airbag {}: part {} of part set {} is a 2-D solid "
                                            "(*SECTION_SHELL ELFORM 13 or 15): 2-D airbags are "
                                            "not supported",
                                            a.id, pid, a.sid));
    }
    // The bag's faces over the whole model, oriented consistently and outwards.
    std::vector<std::size_t> model_faces;
    for (std::size_t e = 0; e < model_.shells.size(); ++e)
      if (std::find(members.begin(), members.end(), model_.shells.part[e]) != members.end())
        model_faces.push_back(e);
    std::vector<std::array<LocalId, 4>> conn;
    for (std::size_t e : model_faces) conn.push_back(model_.shells.nodes[e]);
    std::vector<Real> x0(3 * model_.nodes.size());
    for (std::size_t n = 0; n < model_.nodes.size(); ++n) {
      x0[3 * n] = model_.nodes.x[n];
      x0[3 * n + 1] = model_.nodes.y[n];
      x0[3 * n + 2] = model_.nodes.z[n];
    }
    const std::vector<std::int8_t> sign = orient_closed_surface(conn, x0);
    std::map<std::size_t, std::int8_t> sign_of;
    for (std::size_t k = 0; k < model_faces.size(); ++k) sign_of[model_faces[k]] = sign[k];
    airbags_.face_sign.resize(d_.shells.size());
    for (std::size_t p = 0; p < d_.shells.size(); ++p) {
      if (airbags_.bag_of_part[p] != static_cast<int>(airbags_.bags.size())) continue;
      auto& fs = airbags_.face_sign[p];
      fs.assign(d_.shells[p].blk.size(), 1);
      for (std::size_t e = 0; e < fs.size(); ++e) fs[e] = sign_of.at(d_.shells[p].model_index[e]);
    }
    std::sort(nodes.begin(), nodes.end());
    nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
    bag.nodes = std::move(nodes);
    airbags_.damped = airbags_.damped || a.mwd > 0;
    airbags_.bags.push_back(std::move(bag));
  }
  airbags_.reduce = std::make_unique<par::CycleReduction>(comm_);
  // The initial volume, at the deck's coordinates: the reference of the relative volume (also
  // after a restart) and the orientation of the surface.
  airbag_update(0.0);
  for (std::size_t k = 0; k < airbags_.bags.size(); ++k) {
    auto& bag = airbags_.bags[k];
    if (bag.volume == 0 || !std::isfinite(bag.volume))
      throw InputError(bag.def->loc, fmt::format("airbag {}: the shells of part set {} enclose no "
                                                 "volume (is the surface closed?)",
                                                 bag.def->id, bag.def->sid));
    bag.sign = bag.volume > 0 ? 1.0 : -1.0;
    bag.v0 = std::abs(bag.volume);
    bag.have_prev = false;
    const Airbag& a = *bag.def;
    if (a.thermo) { // ambient gas at t = 0
      bag.gas_v = a.vsca * bag.v0;
      bag.gas_m = a.ro * bag.gas_v;
      bag.gas_p = a.pe;
      bag.gas_e = a.pe * bag.gas_v / (a.cp / a.cv - 1.0);
      bag.gas_t = 0;
    }
  }
  airbag_update(0.0); // the pressure at V0 with the orientation known
  if (opt_.log && comm_.rank() == 0)
    for (const auto& bag : airbags_.bags)
      *opt_.log << fmt::format("  airbag {}         V0 = {:.6e}, p0 = {:.6e}\n", bag.def->id,
                               bag.v0, bag.pressure);
}

void Integrator::airbag_update(Real t) {
  if (airbags_.bags.empty()) return;
  const std::size_t nb = airbags_.bags.size();
  // Per bag: volume, mass, momentum (3): exact sums over this rank's elements / owned nodes.
  std::vector<ExactSum> acc(5 * nb);
  for (std::size_t p = 0; p < d_.shells.size(); ++p) {
    const int k = airbags_.bag_of_part[p];
    if (k < 0) continue;
    const ShellBlock& blk = d_.shells[p].blk;
    for (std::size_t e = 0; e < blk.size(); ++e)
      if (!blk.failed[e])
        acc[5 * static_cast<std::size_t>(k)].add(airbags_.face_sign[p][e] *
                                                 face_volume(d_.x, blk.conn[e]));
  }
  for (std::size_t k = 0; k < nb; ++k)
    for (LocalId n : airbags_.bags[k].nodes) {
      if (!d_.owned[n]) continue;
      const Real m = d_.mass[n];
      acc[5 * k + 1].add(m);
      for (int i = 0; i < 3; ++i) acc[5 * k + 2 + i].add(m * d_.v[3 * n + i]);
    }
  auto& red = *airbags_.reduce;
  red.clear();
  const std::size_t slot = red.add_exact(acc);
  red.reduce();
  const std::vector<ExactSum> sums = red.exact(slot);
  for (std::size_t k = 0; k < nb; ++k) {
    auto& bag = airbags_.bags[k];
    const Airbag& a = *bag.def;
    const Real mass = sums[5 * k + 1].result();
    for (int i = 0; i < 3; ++i)
      bag.vcg[static_cast<std::size_t>(i)] = mass > 0 ? sums[5 * k + 2 + i].result() / mass : 0.0;
    bag.volume = bag.sign * sums[5 * k].result();
    if (bag.v0 <= 0) continue; // set-up: orientation not known yet
    const Real vrel = bag.volume / bag.v0;
    if (a.thermo) {
      // Wang-Nefske: the gas from its last state to t (trapezoid of the inflator's rate).
      // During dynamic relaxation the bag holds ambient gas in its current volume: the
      // inflator starts with the transient, at its t = 0.
      const Real v = a.vsca * bag.volume, dt = t - bag.gas_t;
      if (relaxing_ && v > 0) {
        bag.gas_v = v;
        bag.gas_m = a.ro * v;
        bag.gas_p = a.pe;
        bag.gas_e = a.pe * v / (a.cp / a.cv - 1.0);
        bag.gas_t = 0;
      } else if (dt > 0 && v > 0) {
        const Real m_in = 0.5 * dt * (raw_curve(a.lcmass, bag.gas_t) + raw_curve(a.lcmass, t));
        GasState g{bag.gas_m, bag.gas_e, bag.gas_p};
        bag.gas_out +=
            advance_airbag_gas(g, bag.gas_v, v, dt, m_in, a.t_in, a.cv, a.cp, a.mu * a.area, a.pe);
        bag.gas_in += m_in;
        bag.gas_m = g.m;
        bag.gas_e = g.e;
        bag.gas_p = g.p;
        bag.gas_v = v;
        bag.gas_t = t;
      }
      bag.pressure = a.psca * (bag.gas_p - a.pe);
    } else if (a.lcid != 0) {
      bag.pressure = raw_curve(a.lcid, vrel);
    } else {
      Real cn = a.cn;
      if (relaxing_ && a.lciddr != 0)
        cn = raw_curve(a.lciddr, t);
      else if (a.cn < 0)
        cn = raw_curve(static_cast<GlobalId>(-a.cn), t);
      bag.pressure = simple_airbag_pressure(cn, a.beta, vrel);
    }
    if (!std::isfinite(bag.pressure))
      fail_local(fmt::format("airbag {}: the pressure became {} (volume {:.6e})", a.id,
                             bag.pressure, bag.volume));
    bag.prev_volume = bag.volume;
    bag.prev_pressure = bag.pressure;
    bag.have_prev = true;
  }
}

void Integrator::add_airbag_pressure(std::size_t p, std::size_t b, std::size_t e,
                                     CornerSpans corners) {
  const auto& bag = airbags_.bags[static_cast<std::size_t>(airbags_.bag_of_part[p])];
  const Real pr = bag.sign * bag.pressure;
  if (pr == 0) return;
  const ShellBlock& blk = d_.shells[p].blk;
  for (std::size_t k = b; k < e; ++k) {
    if (blk.failed[k]) continue;
    Real f[12];
    face_pressure_forces(d_.x, blk.conn[k], airbags_.face_sign[p][k] * pr, f);
    // corner arrays hold internal forces (subtracted at assembly): the pressure pushes out
    for (int j = 0; j < 12; ++j) corners.f[12 * k + static_cast<std::size_t>(j)] -= f[j];
  }
}

void Integrator::airbag_work(const std::vector<Real>& v_old, Real dt_avg) {
  // As for the loads: the corner forces at x^n times the mean of the half-step velocities.
  for (std::size_t p = 0; p < d_.shells.size(); ++p) {
    const int k = airbags_.bag_of_part.empty() ? -1 : airbags_.bag_of_part[p];
    if (k < 0) continue;
    const auto& bag = airbags_.bags[static_cast<std::size_t>(k)];
    const Real pr = bag.sign * bag.pressure;
    if (pr == 0) continue;
    const ShellBlock& blk = d_.shells[p].blk;
    for (std::size_t e = 0; e < blk.size(); ++e) {
      if (blk.failed[e]) continue;
      Real f[12];
      face_pressure_forces(d_.x, blk.conn[e], airbags_.face_sign[p][e] * pr, f);
      for (int a = 0; a < 4; ++a) {
        const std::size_t n =
            3 * static_cast<std::size_t>(blk.conn[e][static_cast<std::size_t>(a)]);
        for (int i = 0; i < 3; ++i)
          if (f[3 * a + i] != 0)
            loads_.work.add(dt_avg * f[3 * a + i] * 0.5 * (v_old[n + i] + d_.v[n + i]));
      }
    }
  }
}

void Integrator::airbag_damping() {
  for (const auto& bag : airbags_.bags) {
    const Real dmp = bag.def->mwd;
    if (dmp <= 0) continue;
    for (LocalId n : bag.nodes)
      for (int i = 0; i < 3; ++i)
        loads_.f[3 * n + i] -=
            dmp * d_.mass[n] * (d_.v[3 * n + i] - bag.vcg[static_cast<std::size_t>(i)]);
  }
}

} // namespace parcae::explicit_detail
