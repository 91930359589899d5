// *MAT_LAMINATED_COMPOSITE_FABRIC (058), FS = -1 (the faceted failure surface: the directions
// damage independently): a woven or unidirectional ply on shells, plane stress in its material
// axes a, b, with the continuum damage of Matzenmiller, Lubliner and Taylor (Mech. Mater. 20,
// 1995) on the total strain:
//   sigma_a = (da EA ea + da db nu_ba EA eb) / D,  sigma_b = (da db nu_ab EB ea + db EB eb) / D,
//   tau_ab = ds GAB gab,  D = 1 - da db nu_ab nu_ba,  d = 1 - omega,
// each direction's damage growing with its strain (tension or compression by its sign):
//   omega = 1 - exp(-(|e| / ef)^m / m),  m = 1 / ln(E ef / X),
// so that the uniaxial curve E e exp(-(e / ef)^m / m) peaks at exactly (ef, X) (E11T, XT; E11C,
// XC; E22T, YT; E22C, YC) and softens beyond it, never below SLIM X (SLIMT1 ... SLIMC2). Shear
// follows the same law to (GAMMA1, TAU1), a straight line to (GMS, SC), then SLIMS SC (TAU1
// blank: the damage law up to (GMS, SC)). Damage never heals: unloading runs down the secant.
// A failure strain at or below the elastic strain X / E (a curve without a peak) is raised to
// 1.1 X / E, with a note. The layer fails, all its stresses zero, when its effective strain
// sqrt(4/3 (ea^2 + eb^2 + ea eb + eab^2)) reaches ERODS > 0; the shell erodes when all its
// layers have failed.
//
// State per point: the total strain [ea eb gab] and the damages [omega_a omega_b omega_s] in the
// back array (MaterialLaw::shell_state 6), 1 in eps_p for a failed layer.
//
// Refused by name (an error at the field): FS 0 and 1 (the smooth failure surfaces), AOPT other
// than 0, TSIZE (time-step deletion), negative ERODS, transverse shear damage (EPSF, EPSR),
// LCDFAIL and the rate curves of cards 8 and 9. Solids: not supported.
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

/// One direction and sign: modulus, strength, failure strain, exponent, residual factor.
struct Branch {
  Real e = 0, x = 0, ef = 0, m = 0, slim = 0;
  /// The damage at strain magnitude s (0 when there is no strength).
  [[nodiscard]] Real damage(Real s) const {
    if (!(x > 0) || s <= 0) return 0;
    Real w = 1.0 - std::exp(-std::pow(s / ef, m) / m);
    if (s > ef) w = std::min(w, 1.0 - slim * x / (e * s)); // the residual stress SLIM X
    return std::clamp(w, 0.0, 1.0);
  }
};

struct Fabric058 {
  OrthotropicPlane el;
  Real ea = 0, eb = 0, prab = 0, prba = 0, gab = 0;
  Branch at, ac, bt, bc; ///< a tension, a compression, b tension, b compression
  Branch s1;             ///< shear up to (GAMMA1, TAU1)
  Real gms = 0, sc = 0, slims = 0;
  Real erods = 0;
  Real angle = 0; ///< BETA, radians
};

void read_card(const io::Fields& h, LawReader& r) {
  Material& m = r.mat;
  const GlobalId id = m.id;
  auto p = std::make_shared<Fabric058>();
  p->el = read_orthotropic_plane(h, id);
  p->ea = h.real("EA");
  p->eb = h.real("EB");
  p->prba = h.real("PRBA");
  p->prab = p->prba * p->ea / p->eb;
  p->gab = p->el.gab;
  auto refuse = [&](const char* f, std::string_view what) { refuse_field(h, f, id, what); };
  if (h.real("FS") != -1)
    fail(h.loc("FS"), fmt::format("material {}: FS = {} is not supported: parcae has the "
                                  "faceted failure surface, FS = -1 (the directions damage "
                                  "independently)",
                                  id, h.real("FS")));
  refuse("AOPT", "the material axes are the element's, AOPT 0, turned by BETA, the element's "
                 "BETA and the layer angles");
  refuse("TSIZE", "element deletion on the time step");
  refuse("EPSF", "transverse shear damage");
  refuse("EPSR", "transverse shear damage");
  refuse("LCDFAIL", "failure strains from a curve");
  for (const char* f : {"LCXC", "LCXT", "LCYC", "LCYT", "LCSC", "LCTAU", "LCGAM", "LCE11C",
                        "LCE11T", "LCE22C", "LCE22T", "LCGMS", "LCEFS"})
    refuse(f, "rate-dependent strengths and strains");
  p->erods = h.real("ERODS");
  if (p->erods < 0)
    fail(h.loc("ERODS"), fmt::format("material {}: ERODS = {} is not supported (the effective "
                                     "strain from the full strain tensor); a positive ERODS is",
                                     id, p->erods));
  for (const char* f : {"SLIMT1", "SLIMC1", "SLIMT2", "SLIMC2", "SLIMS"})
    if (h.real(f) < 0 || h.real(f) > 1)
      fail(h.loc(f), fmt::format("material {}: {} = {} must lie in [0, 1]", id, f, h.real(f)));
  // one damage branch: a failure strain at or below X / E has no peak: raised to 1.1 X / E
  auto branch = [&](Real e, const char* xf, const char* eff, const char* slim) {
    Branch b;
    b.e = e;
    b.x = h.real(xf);
    b.ef = h.real(eff);
    b.slim = h.real(slim);
    if (b.x < 0 || b.ef < 0)
      fail(h.loc(b.x < 0 ? xf : eff),
           fmt::format("material {}: {} and {} must not be negative (magnitudes)", id, xf, eff));
    if (b.x > 0) {
      const Real e0 = b.x / e;
      if (!(b.ef > e0)) {
        r.note(h.loc(eff), fmt::format("material {}: {} = {} is not beyond the elastic strain "
                                       "{} / E = {:.6g}: raised to 1.1 times it (the damage "
                                       "law needs a peak)",
                                       id, eff, b.ef, xf, e0));
        b.ef = 1.1 * e0;
      }
      b.m = 1.0 / std::log(b.ef / e0);
    }
    return b;
  };
  p->at = branch(p->ea, "XT", "E11T", "SLIMT1");
  p->ac = branch(p->ea, "XC", "E11C", "SLIMC1");
  p->bt = branch(p->eb, "YT", "E22T", "SLIMT2");
  p->bc = branch(p->eb, "YC", "E22C", "SLIMC2");
  p->sc = h.real("SC");
  p->gms = h.real("GMS");
  p->slims = h.real("SLIMS");
  if (p->sc > 0) {
    Branch shear = branch(p->gab, "SC", "GMS", "SLIMS");
    p->gms = shear.ef;
    if (h.real("TAU1") > 0 || h.real("GAMMA1") > 0) {
      if (!(h.real("TAU1") > 0 && h.real("TAU1") < p->sc && h.real("GAMMA1") > 0 &&
            h.real("GAMMA1") < p->gms))
        fail(h.loc("TAU1"), fmt::format("material {}: TAU1 = {}, GAMMA1 = {} must lie below SC "
                                        "= {} and GMS = {}",
                                        id, h.real("TAU1"), h.real("GAMMA1"), p->sc, p->gms));
      p->s1 = branch(p->gab, "TAU1", "GAMMA1", "SLIMS");
    } else {
      p->s1 = shear; // the damage law all the way to (GMS, SC)
    }
  }
  p->angle = h.real("BETA") * std::numbers::pi / 180.0;
  m.e = p->el.bound_e(); // what the step, contact and hourglass stiffness read
  m.pr = 0;
  m.law_card = std::move(p);
}

/// The shear damage at engineering strain magnitude g.
Real shear_damage(const Fabric058& p, Real g) {
  if (!(p.sc > 0) || g <= 0) return 0;
  if (g <= p.s1.ef) return p.s1.damage(g);
  if (g < p.gms) { // the straight line from (GAMMA1, TAU1) to (GMS, SC)
    const Real tau = p.s1.x + (p.sc - p.s1.x) * (g - p.s1.ef) / (p.gms - p.s1.ef);
    return std::clamp(1.0 - tau / (p.gab * g), 0.0, 1.0);
  }
  return std::clamp(1.0 - p.slims * p.sc / (p.gab * g), 0.0, 1.0); // failed: SLIMS SC
}

/// A layer fails at ERODS: the shells erode.
bool may_fail(const Material& mat) {
  return mat.card<Fabric058>().erods > 0;
}

void prepare(const Material& mat, const Model& /*model*/, MaterialParams& m) {
  prepare_elastic_constants(mat, m);
  m.shell_angle = mat.card<Fabric058>().angle;
  // a failed layer; the kernel erodes a shell once every layer has failed (none without ERODS)
  m.fail = may_fail(mat) ? 1 : 0;
}

Real update_shell(const MaterialParams& m, const Real d[5], Real /*dt*/, Real sig[5], Real back[3],
                  Real& eps_p, Real& deps_zz) {
  const Fabric058& p = m.law_params<Fabric058>();
  deps_zz = 0;
  if (eps_p >= 1) {
    for (int k = 0; k < 5; ++k) sig[k] = 0;
    return 0;
  }
  Real* e = back;     // [ea eb gab]
  Real* w = back + 3; // [omega_a omega_b omega_s] (shell_state 6)
  for (int k = 0; k < 3; ++k) e[k] += d[k];
  w[0] = std::max(w[0], (e[0] >= 0 ? p.at : p.ac).damage(std::abs(e[0])));
  w[1] = std::max(w[1], (e[1] >= 0 ? p.bt : p.bc).damage(std::abs(e[1])));
  w[2] = std::max(w[2], shear_damage(p, std::abs(e[2])));
  const Real da = 1 - w[0], db = 1 - w[1], ds = 1 - w[2];
  const Real den = 1 - da * db * p.prab * p.prba;
  const Real sa = (da * p.ea * e[0] + da * db * p.prba * p.ea * e[1]) / den;
  const Real sb = (da * db * p.prab * p.eb * e[0] + db * p.eb * e[1]) / den;
  if (p.el.ec > 0) deps_zz = -(p.el.prca * (sa - sig[0]) + p.el.prcb * (sb - sig[1])) / p.el.ec;
  sig[0] = sa;
  sig[1] = sb;
  sig[2] = ds * p.gab * e[2];
  sig[3] += p.el.gbc * d[3];
  sig[4] += p.el.gca * d[4];
  if (p.erods > 0) {
    const Real ea = e[0], eb = e[1], eab = 0.5 * e[2];
    if (std::sqrt(4.0 / 3.0 * (ea * ea + eb * eb + ea * eb + eab * eab)) >= p.erods) {
      eps_p = 1;
      for (int k = 0; k < 5; ++k) sig[k] = 0;
    }
  }
  return 0;
}

} // namespace

const MaterialLaw& law_laminated_composite_fabric() {
  using namespace io::card_fields;
  static const MaterialLaw law{
      .kind = MaterialKind::LaminatedCompositeFabric,
      .card = "*MAT_LAMINATED_COMPOSITE_FABRIC",
      .number = "058",
      .summary = "composite ply with continuum damage (Matzenmiller-Lubliner-Taylor, FS = -1)",
      .history = 7,
      .incremental = true,
      .oriented = true,
      .keyword =
          {.name = "*MAT_LAMINATED_COMPOSITE_FABRIC",
           .aliases = {"*MAT_058"},
           .options = {"TITLE"},
           .head = {title_card(),
                    {"Card 1",
                     {I("MID").req(), R("RO"), R("EA"), R("EB"), R("EC"), R("PRBA"), R("TAU1"),
                      R("GAMMA1")}},
                    {"Card 2",
                     reals({"GAB", "GBC", "GCA", "SLIMT1", "SLIMC1", "SLIMT2", "SLIMC2", "SLIMS"})},
                    {"Card 3",
                     {R("AOPT"), R("TSIZE"), R("ERODS"), R("SOFT"), R("FS"), R("EPSF"), R("EPSR"),
                      R("TSMD", "0.90")}},
                    {"Card 4", reals({"XP", "YP", "ZP", "A1", "A2", "A3", "PRCA", "PRCB"})},
                    {"Card 5",
                     {R("V1"), R("V2"), R("V3"), R("D1"), R("D2"), R("D3"), R("BETA"),
                      I("LCDFAIL")}},
                    {"Card 6", reals({"E11C", "E11T", "E22C", "E22T", "GMS"})},
                    {"Card 7", reals({"XC", "XT", "YC", "YT", "SC"})},
                    {"Card 8 (optional)",
                     {I("LCXC"), I("LCXT"), I("LCYC"), I("LCYT"), I("LCSC"), I("LCTAU"), I("LCGAM"),
                      R("DT")}},
                    {"Card 9 (optional)",
                     ints({"LCE11C", "LCE11T", "LCE22C", "LCE22T", "LCGMS", "LCEFS"})}},
           .summary =
               "A composite ply (woven or unidirectional) on shells, plane stress in the "
               "material axes a, b, with continuum damage on the total strain (Matzenmiller, "
               "Lubliner and Taylor), FS = -1: each direction damages by its own strain, so that "
               "the uniaxial curve peaks at (E11T, XT), (E11C, XC), (E22T, YT), (E22C, YC) and "
               "softens beyond, never below SLIMT1 ... SLIMC2 times the strength; shear to "
               "(GAMMA1, TAU1) by the same law, a straight line to (GMS, SC), then SLIMS SC "
               "(TAU1 blank: the damage law up to (GMS, SC)). A failure strain at or below X / E "
               "is raised to 1.1 X / E with a note. Damage never heals (unloading along the "
               "secant). A layer fails at the effective strain ERODS > 0; the shell erodes when "
               "all its layers have failed. Axes AOPT = 0: the element's turned by BETA (or the "
               "element's), the section's ICOMP angles or the composite layers' angles. EC, "
               "PRCA, PRCB give the thickness strain. Refused at the field: FS 0 and 1, other "
               "AOPTs, TSIZE, negative ERODS, EPSF, EPSR, LCDFAIL and the curves of cards 8 "
               "and 9. SOFT, TSMD, DT and the AOPT geometry are unused. Shells only."},
      .read = read_card,
      .prepare = prepare,
      .update_shell = update_shell,
      .wave_speed = bar_wave_speed,
      .may_fail = may_fail,
      .shell_state = 6};
  return law;
}

} // namespace parcae
