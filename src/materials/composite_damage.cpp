// *MAT_COMPOSITE_DAMAGE (022): Chang and Chang's orthotropic ply on shells, plane stress in its
// material axes a (fibre), b: linear in the normal stresses (EA, EB, PRBA = nu_ba), the shear
// nonlinear elastic, gamma = tau / GAB + ALPH tau^3 (solved for tau from the total shear strain),
// and three failure modes checked at the end of each step with the shear term
//   tau_bar = (tau^2 / (2 GAB) + 3/4 ALPH tau^4) / (SC^2 / (2 GAB) + 3/4 ALPH SC^4):
//   fibre breakage (sigma_a > 0):  (sigma_a / XT)^2 + tau_bar >= 1: the layer fails (no stress);
//   matrix cracking (sigma_b > 0): (sigma_b / YT)^2 + tau_bar >= 1: EB, GAB and the Poisson
//                                  coupling are lost (sigma_b and tau held at zero);
//   compression (sigma_b < 0):     (sigma_b / 2SC)^2 + ((YC / 2SC)^2 - 1) sigma_b / YC + tau_bar
//                                  >= 1: EB and the Poisson coupling are lost.
// The shell erodes when all its layers have failed. A blank strength never fails its mode.
//
// State per point: the failed modes as flags in eps_p (2 matrix cracking, 4 compression, 16 the
// layer: d3plot's plastic strain), the total engineering shear strain in the back array.
//
// Refused by name (an error at the field): AOPT other than 0, MACF other than 1, ATRACK, and SN,
// SYZ, SZX (the solids' transverse strengths). Solids: not supported. KFAIL is not used.
//
// This file is the whole law; core/material_laws.def has its one line.
#include <algorithm>
#include <cmath>
#include <memory>
#include <numbers>

#include <fmt/format.h>

#include "materials/law_support.hpp"
#include "materials/laws.hpp"

namespace parcae {

namespace {

enum : int { kMatrixT = 2, kMatrixC = 4, kLayer = 16 };

struct ChangChang {
  OrthotropicPlane el;
  Real ea = 0, eb = 0, gab = 0, alph = 0;
  Real sc = 0, xt = 0, yt = 0, yc = 0;
  Real angle = 0; ///< BETA, radians
};

void read_card(const io::Fields& h, LawReader& r) {
  Material& m = r.mat;
  const GlobalId id = m.id;
  auto p = std::make_shared<ChangChang>();
  p->el = read_orthotropic_plane(h, id);
  p->ea = h.real("EA");
  p->eb = h.real("EB");
  p->gab = p->el.gab;
  auto refuse = [&](const char* f, std::string_view what) { refuse_field(h, f, id, what); };
  refuse("AOPT", "the material axes are the element's, AOPT 0, turned by BETA, the element's "
                 "BETA and the layer angles");
  refuse("ATRACK", "material axes tracking");
  for (const char* f : {"SN", "SYZ", "SZX"}) refuse(f, "the solids' transverse strengths");
  if (h.real("MACF") != 0 && h.real("MACF") != 1)
    fail(h.loc("MACF"), fmt::format("material {}: MACF = {}: only 1 (no change of the material "
                                    "axes) is supported",
                                    id, h.real("MACF")));
  for (const char* f : {"SC", "XT", "YT", "YC", "ALPH"})
    if (h.real(f) < 0)
      fail(h.loc(f), fmt::format("material {}: {} = {} must not be negative", id, f, h.real(f)));
  p->sc = h.real("SC");
  p->xt = h.real("XT");
  p->yt = h.real("YT");
  p->yc = h.real("YC");
  p->alph = h.real("ALPH");
  r.note_ignored(h, "KFAIL", "the bulk modulus of failed material is not used");
  p->angle = h.real("BETA") * std::numbers::pi / 180.0;
  m.e = p->el.bound_e(); // what the step, contact and hourglass stiffness read
  m.pr = 0;
  m.law_card = std::move(p);
}

bool may_fail(const Material& mat) {
  return mat.card<ChangChang>().xt > 0;
}

void prepare(const Material& mat, const Model& /*model*/, MaterialParams& m) {
  prepare_elastic_constants(mat, m);
  m.shell_angle = mat.card<ChangChang>().angle;
  // the kernel erodes a shell once every layer has this flag (none when it cannot fail: its
  // layers then never count as failed, FAILOPT 0 leaves them out)
  m.fail = may_fail(mat) ? kLayer : 0;
}

/// The shear stress of the total engineering shear strain g: tau / G + ALPH tau^3 = g (Newton
/// from the linear guess; the cubic is monotone).
Real shear_stress(const ChangChang& p, Real g) {
  if (p.alph == 0) return p.gab * g;
  Real tau = p.gab * g;
  for (int k = 0; k < 60; ++k) {
    const Real res = tau / p.gab + p.alph * tau * tau * tau - g;
    const Real slope = 1 / p.gab + 3 * p.alph * tau * tau;
    const Real step = res / slope;
    tau -= step;
    if (std::abs(step) <= 1e-15 * (std::abs(tau) + 1e-300)) break;
  }
  return tau;
}

Real shear_term(const ChangChang& p, Real tau) {
  if (!(p.sc > 0)) return 0;
  const Real t2 = tau * tau, s2 = p.sc * p.sc;
  return (t2 / (2 * p.gab) + 0.75 * p.alph * t2 * t2) /
         (s2 / (2 * p.gab) + 0.75 * p.alph * s2 * s2);
}

Real update_shell(const MaterialParams& m, const Real d[5], Real /*dt*/, Real sig[5], Real back[3],
                  Real& eps_p, Real& deps_zz) {
  const ChangChang& p = m.law_params<ChangChang>();
  int f = static_cast<int>(eps_p);
  deps_zz = 0;
  if (f & kLayer) {
    for (int k = 0; k < 5; ++k) sig[k] = 0;
    return 0;
  }
  back[0] += d[2]; // total engineering shear strain
  if (f == 0) {
    const Real dsa = p.el.q11 * d[0] + p.el.q12 * d[1], dsb = p.el.q12 * d[0] + p.el.q22 * d[1];
    sig[0] += dsa;
    sig[1] += dsb;
    if (p.el.ec > 0) deps_zz = -(p.el.prca * dsa + p.el.prcb * dsb) / p.el.ec;
  } else { // a failed matrix: the fibres alone, no Poisson coupling
    sig[0] += p.ea * d[0];
    sig[1] += p.eb * d[1];
  }
  sig[2] = (f & kMatrixT) ? 0.0 : shear_stress(p, back[0]);
  sig[3] += p.el.gbc * d[3];
  sig[4] += p.el.gca * d[4];
  const Real tb = shear_term(p, sig[2]);
  const Real sa = sig[0], sb = sig[1];
  if (sa > 0 && p.xt > 0 && (sa / p.xt) * (sa / p.xt) + tb >= 1) { // fibre breakage
    eps_p = f | kLayer;
    for (int k = 0; k < 5; ++k) sig[k] = 0;
    return 0;
  }
  if (sb > 0 && !(f & kMatrixT) && p.yt > 0 && (sb / p.yt) * (sb / p.yt) + tb >= 1) f |= kMatrixT;
  if (sb < 0 && !(f & kMatrixC) && p.sc > 0 && chang_chang_compression(sb, p.yc, p.sc) + tb >= 1)
    f |= kMatrixC;
  if (f & (kMatrixT | kMatrixC)) sig[1] = 0; // EB lost
  if (f & kMatrixT) sig[2] = 0;              // GAB lost
  eps_p = f;
  return 0;
}

} // namespace

const MaterialLaw& law_composite_damage() {
  using namespace io::card_fields;
  static const MaterialLaw law{
      .kind = MaterialKind::CompositeDamage,
      .card = "*MAT_COMPOSITE_DAMAGE",
      .number = "022",
      .summary = "orthotropic ply with Chang-Chang failure and nonlinear shear",
      .history = 2,
      .incremental = true,
      .oriented = true,
      .keyword =
          {.name = "*MAT_COMPOSITE_DAMAGE",
           .aliases = {"*MAT_022"},
           .options = {"TITLE"},
           .head = {title_card(),
                    {"Card 1", mid_ro_orthotropic_fields()},
                    {"Card 2",
                     {R("GAB"), R("GBC"), R("GCA"), R("KFAIL"), R("AOPT"), R("MACF", "1"),
                      R("ATRACK")}},
                    {"Card 3", reals({"XP", "YP", "ZP", "A1", "A2", "A3"})},
                    {"Card 4", reals({"V1", "V2", "V3", "D1", "D2", "D3", "BETA"})},
                    {"Card 5", reals({"SC", "XT", "YT", "YC", "ALPH", "SN", "SYZ", "SZX"})}},
           .summary =
               "Chang and Chang's ply on shells, plane stress in the material axes a (fibre), b: "
               "linear normal stresses (EA, EB, PRBA = nu_ba), nonlinear elastic shear gamma = "
               "tau / GAB + ALPH tau^3; fibre breakage ((sigma_a / XT)^2 + tau_bar >= 1) fails "
               "the layer, matrix cracking ((sigma_b / YT)^2 + tau_bar >= 1) removes EB, GAB "
               "and the Poisson coupling, compression (Chang-Chang's YC, SC criterion) removes "
               "EB and the Poisson coupling; tau_bar is the shear term with ALPH. The shell "
               "erodes when all its layers have failed. Axes AOPT = 0: the element's turned by "
               "BETA (or the element's), the section's ICOMP angles or the composite layers' "
               "angles. Failure flags show as the plastic strain (2 matrix cracking, 4 "
               "compression, 16 the layer). Refused at the field: other AOPTs, MACF other than "
               "1, ATRACK, SN, SYZ, SZX. KFAIL and the AOPT geometry are unused. Shells only."},
      .read = read_card,
      .prepare = prepare,
      .update_shell = update_shell,
      .wave_speed = bar_wave_speed,
      .may_fail = may_fail};
  return law;
}

} // namespace parcae
