// Layered shells: the per-element through-thickness points of parts with layers (*PART_COMPOSITE,
// *ELEMENT_SHELL_COMPOSITE), their own material angle (*ELEMENT_SHELL_BETA) or reference
// surface (_OFFSET, *SECTION_SHELL NLOC). Each layer is one point at its middle with the
// layer's share of the thickness as its weight, its own material and material axis; an offset
// reference surface moves every point (z measured from the nodes), which couples membrane and
// bending exactly as an eccentric laminate does. Elements without layers of their own take the
// part's (*PART_COMPOSITE) or the section's rule (Gauss or Lobatto, ICOMP angles).
#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <numeric>

#include <fmt/format.h>

#include "solvers/common/domain.hpp"

namespace parcae {

namespace {

/// The layers of element e of the part: its own, else the part's (nullptr: the section's rule).
const ShellLayup* layers_of(const Model& model, const Part& part, std::size_t e) {
  const std::int32_t k = model.shells.layup_of(e);
  if (k >= 0 && !model.shell_layups[static_cast<std::size_t>(k)].mid.empty())
    return &model.shell_layups[static_cast<std::size_t>(k)];
  if (part.layup >= 0) return &model.shell_layups[static_cast<std::size_t>(part.layup)];
  return nullptr;
}

/// The element's own BETA / offset record (nullptr: none).
const ShellLayup* extras_of(const Model& model, std::size_t e) {
  const std::int32_t k = model.shells.layup_of(e);
  return k >= 0 ? &model.shell_layups[static_cast<std::size_t>(k)] : nullptr;
}

/// The section's user rule (QR/IRID < 0: *INTEGRATION_SHELL -QR/IRID; nullptr otherwise).
const IntegrationShell* user_rule(const Model& model, const Section& sec) {
  if (sec.qr_irid >= 0) return nullptr;
  for (const auto& r : model.integration_shells)
    if (r.id == -sec.qr_irid) return &r;
  throw InputError(sec.loc, fmt::format("*SECTION_SHELL {}: QR/IRID = {} names *INTEGRATION_SHELL "
                                        "{}, which is not defined",
                                        sec.id, sec.qr_irid, -sec.qr_irid));
}

/// Points of the section's rule for an element without layers.
int rule_points(const Model& model, const Section& sec, int nip) {
  const IntegrationShell* r = user_rule(model, sec);
  return r ? static_cast<int>(r->s.size()) : nip;
}

} // namespace

bool shell_part_layered(const Model& model, const Part& part, const Section& sec,
                        const std::vector<std::size_t>& elems) {
  if (part.layup >= 0 || sec.nloc != 0 || sec.qr_irid != 0) return true;
  return std::any_of(elems.begin(), elems.end(),
                     [&](std::size_t e) { return model.shells.layup_of(e) >= 0; });
}

int shell_layer_count(const Model& model, const Part& part, const Section& sec,
                      const ShellOptions& opt, const std::vector<std::size_t>& elems) {
  int n = 0;
  const int own = rule_points(model, sec, opt.nip);
  for (std::size_t e : elems) {
    const ShellLayup* l = layers_of(model, part, e);
    const int k = l ? static_cast<int>(l->mid.size()) : own;
    if (k > kMaxShellLayers)
      throw InputError(l->loc, fmt::format("shell element {} (part {}) has {} layers: at most {} "
                                           "are supported",
                                           model.shells.id[e], part.id, k, kMaxShellLayers));
    n = std::max(n, k);
  }
  return std::max(n, 1);
}

void set_shell_layers(const Model& model, const Part& part, const Section& sec,
                      const MaterialParams& part_mat, const std::vector<std::size_t>& elems,
                      ShellPart& sp) {
  ShellBlock& blk = sp.blk;
  const int nip = sp.opt.nip;
  const auto np = static_cast<std::size_t>(nip);
  const std::size_t n = blk.size();
  blk.layer.assign(n * np * 4, 0.0);
  blk.layer_mat.assign(n * np, 0);
  blk.layer_ro.assign(n, 0.0);
  blk.layer_j.assign(n, 0.0);
  blk.layer_c.assign(n, 0.0);
  const bool rigid = part_mat.law().rigid;

  // the layer materials: the part's first, then each other MID once
  auto mats = std::make_shared<std::vector<MaterialParams>>();
  mats->push_back(part_mat);
  std::map<GlobalId, std::uint8_t> index{{part.mid, 0}};
  auto material_index = [&](GlobalId mid, const SourceLoc& loc, GlobalId eid) -> std::uint8_t {
    if (mid == 0) mid = part.mid;
    if (auto it = index.find(mid); it != index.end()) return it->second;
    const Material* m = model.find_material(mid);
    if (!m)
      throw InputError(loc, fmt::format("shell element {} (part {}): layer material {} is not "
                                        "defined",
                                        eid, part.id, mid));
    MaterialParams mp = make_material_params(*m, model);
    const MaterialLaw& law = mp.law();
    if (!rigid && (law.update_shell == nullptr || law.rigid || law.hydrodynamic ||
                   mp.kind == MaterialKind::Spotweld))
      throw InputError(loc, fmt::format("shell element {} (part {}): layer material {} ({}) "
                                        "cannot be a shell layer (a deformable shell law is "
                                        "needed)",
                                        eid, part.id, mid, law.card));
    if (mats->size() >= 255)
      throw InputError(loc, fmt::format("part {}: more than 255 layer materials", part.id));
    const auto k = static_cast<std::uint8_t>(mats->size());
    mats->push_back(std::move(mp));
    index.emplace(mid, k);
    return k;
  };

  // the section's rule for elements without layers: Gauss or Lobatto (QR 0), trapezoidal (QR 1)
  // or the user's (*INTEGRATION_SHELL, QR < 0) with its points' materials
  const IntegrationShell* rule = user_rule(model, sec);
  int sec_nip = sec.nip == 0 ? 2 : sec.nip;
  std::vector<Real> zeta_rule(10), w_rule(10);
  std::vector<std::uint8_t> mat_rule;
  if (rule) {
    sec_nip = static_cast<int>(rule->s.size());
    zeta_rule = rule->s;
    w_rule.assign(rule->wf.size(), 0.0);
    for (std::size_t p = 0; p < rule->s.size(); ++p) {
      w_rule[p] = 2.0 * rule->wf[p];
      GlobalId mid = 0;
      if (rule->pid[p] != 0) {
        const Part* other = model.find_part(rule->pid[p]);
        if (!other)
          throw InputError(rule->loc, fmt::format("*INTEGRATION_SHELL {}: point {} names part {}, "
                                                  "which is not defined",
                                                  rule->id, p + 1, rule->pid[p]));
        mid = other->mid;
        const Material* m = model.find_material(mid);
        if (m && !part_mat.law().rigid && material_law(m->kind).update_shell == nullptr)
          throw InputError(rule->loc, fmt::format("*INTEGRATION_SHELL {}: point {} takes part {}'s "
                                                  "material {} ({}), which shells cannot run",
                                                  rule->id, p + 1, rule->pid[p], mid,
                                                  material_law(m->kind).card));
      }
      mat_rule.push_back(material_index(mid, rule->loc, model.shells.id[elems.front()]));
    }
    sp.opt.failopt_failing_only = rule->failopt == 0;
  } else if (sec.qr_irid == 1) { // trapezoidal: the surfaces and equal intervals, ends halved
    for (int p = 0; p < sec_nip; ++p) {
      zeta_rule[static_cast<std::size_t>(p)] = sec_nip == 1 ? 0.0 : -1.0 + 2.0 * p / (sec_nip - 1);
      w_rule[static_cast<std::size_t>(p)] =
          sec_nip == 1 ? 2.0 : (p == 0 || p == sec_nip - 1 ? 1.0 : 2.0) / (sec_nip - 1);
    }
  } else if (sec_nip >= 1 && sec_nip <= 10) {
    shell_thickness_rule(sec_nip, sp.opt.lobatto, zeta_rule, w_rule);
  }

  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t e = elems[k];
    const GlobalId eid = model.shells.id[e];
    const ShellLayup* lay = layers_of(model, part, e);
    const ShellLayup* own = extras_of(model, e);
    const Real t = blk.t0[k];
    // the mid-surface's distance from the nodes: the element's OFFSET, else the section's NLOC
    const Real mid_z = own && own->has_offset ? own->offset : -sec.nloc * t / 2;
    const bool has_beta = own && own->has_beta;
    const Real beta = has_beta ? own->beta * std::numbers::pi / 180.0 : 0.0;
    const SourceLoc& loc = own ? own->loc : (lay ? lay->loc : sec.loc);
    const int count = lay ? static_cast<int>(lay->mid.size()) : sec_nip;
    const Real total = lay ? std::accumulate(lay->thick.begin(), lay->thick.end(), 0.0) : 1.0;
    Real below = 0, mass = 0, second = 0, cmax = 0;
    for (int p = 0; p < count; ++p) {
      const auto ip = k * np + static_cast<std::size_t>(p);
      Real zeta = 0, w = 0, angle = 0;
      std::uint8_t mi = 0;
      if (lay) {
        const auto q = static_cast<std::size_t>(p);
        const Real frac = lay->thick[q] / total;
        zeta = -1.0 + 2.0 * (below + 0.5 * frac);
        w = 2.0 * frac;
        below += frac;
        angle = lay->angle[q] * std::numbers::pi / 180.0;
        mi = material_index(lay->mid[q], lay->loc, eid);
      } else {
        zeta = zeta_rule[static_cast<std::size_t>(p)];
        w = w_rule[static_cast<std::size_t>(p)];
        if (rule) mi = mat_rule[static_cast<std::size_t>(p)];
        const Real b = static_cast<std::size_t>(p) < sec.angles.size()
                           ? sec.angles[static_cast<std::size_t>(p)]
                           : 0.0;
        angle = b * std::numbers::pi / 180.0;
      }
      const MaterialParams& pm = (*mats)[mi];
      angle += has_beta ? beta : (pm.law().oriented ? pm.shell_angle : 0.0);
      const Real z = zeta + 2.0 * mid_z / t; // from the nodes, in half-thicknesses
      Real* L = &blk.layer[4 * ip];
      L[0] = z;
      L[1] = w;
      L[2] = std::cos(angle);
      L[3] = std::sin(angle);
      blk.layer_mat[ip] = mi;
      // mass and rotary inertia about the nodes: the point's slab [z - w/2, z + w/2] t/2, kept
      // within the shell's surfaces (a trapezoidal rule's surface points)
      const Real lo = std::max((z - 0.5 * w) * t / 2, mid_z - t / 2);
      const Real hi = std::min((z + 0.5 * w) * t / 2, mid_z + t / 2);
      mass += pm.ro * w / 2;
      second += pm.ro * (hi * hi * hi - lo * lo * lo) / 3.0;
      if (!rigid) cmax = std::max(cmax, pm.wave_speed_shell());
    }
    if (!(mass > 0))
      throw InputError(
          loc, fmt::format("shell element {} (part {}): its layers have no mass", eid, part.id));
    blk.layer_ro[k] = mass;
    blk.layer_j[k] = second / (mass * t * t * t);
    blk.layer_c[k] = rigid ? part_mat.wave_speed_shell() : cmax;
  }
  int stride = 3;
  bool keep = false;
  for (const MaterialParams& m : *mats) {
    stride = std::max(stride, m.law().shell_state);
    keep = keep || shell_keeps_back_stress(m);
  }
  blk.back_stride = stride;
  if (keep || stride > 3) blk.back.assign(n * np * static_cast<std::size_t>(stride), 0.0);
  sp.opt.layer_mats = std::move(mats);
}

} // namespace parcae
