// *MAT_ENHANCED_COMPOSITE_DAMAGE (054 / 055): a unidirectional ply on shells, plane stress in
// its material axes a (fibre), b (transverse), linear orthotropic elastic (EA, EB, PRBA = nu_ba,
// GAB; GBC, GCA transverse shear) up to the Chang-Chang failure criteria, checked on the
// stresses at the end of each step:
//   fibre tension (sigma_a >= 0):   (sigma_a / XT*)^2 + BETA (tau / SC)^2 >= 1
//   fibre compression (sigma_a < 0): (sigma_a / XC*)^2 >= 1
//   matrix, CRIT 54, tension:       (sigma_b / YT)^2 + (tau / SC)^2 >= 1
//   matrix, CRIT 54, compression:   (sigma_b / 2SC)^2 + ((YC / 2SC)^2 - 1) sigma_b / YC
//                                   + (tau / SC)^2 >= 1
//   matrix, CRIT 55 (Tsai-Wu):      sigma_b^2 / (YC YT) + (tau / SC)^2 + (YC - YT) sigma_b / (YC
//   YT)
//                                   >= 1
// with XT* = FBRT XT (FBRT > 0) and XC* = YCFAC YC once the matrix has failed in compression.
// A failed mode loses its stress down to the residual limits SLIM (card 8, default 0: the stress
// drops to zero at once): fibre failure bounds sigma_a to [-SLIMC1 XC*, SLIMT1 XT*]; matrix
// failure (and fibre tension failure, which also removes the matrix) bounds sigma_b to
// [-SLIMC2 YC, SLIMT2 YT] and |tau| to SLIMS SC, and drops the Poisson coupling. The layer (its
// integration point) fails, all its stresses zero, on fibre tension failure when DFAILT = 0, once
// its fibres and matrix have both failed with no residual stress left (SLIM all 0), on
// the strain limits DFAILT, DFAILC (< 0), DFAILM, DFAILS (tensor shear) when DFAILT > 0, and on
// the effective strain EFS (sqrt(4/3 (ea^2 + eb^2 + ea eb + eab^2))); the shell erodes when all
// its layers have failed. A blank strength never fails its mode.
//
// State per point: the failed modes as flags in eps_p (what d3plot shows as the plastic strain:
// 1 fibre compression, 2 matrix tension, 4 matrix compression, 8 fibre tension, 16 the layer),
// the total strain [ea eb gab] in the material axes in the back array.
//
// Refused by name (an error at the field): AOPT other than 0, 2WAY, TFAIL (time-step deletion
// and its crashfront SOFT), ALPH (the nonlinear shear term), the transverse shear damage EPSF,
// EPSR, the rate curves LCXC ... LCSC. Solids: not supported.
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

enum : int { kFibreC = 1, kMatrixT = 2, kMatrixC = 4, kFibreT = 8, kLayer = 16 };

struct Ply {
  OrthotropicPlane el;
  Real ea = 0, eb = 0;
  Real xc = 0, xt = 0, yc = 0, yt = 0, sc = 0; ///< strengths (0: that mode never fails)
  int crit = 54;
  Real beta = 0; ///< shear weight of the fibre tension criterion
  Real fbrt = 0, ycfac = 2;
  Real dfailt = 0, dfailc = 0, dfailm = 0, dfails = 0, efs = 0;
  Real slimt1 = 0, slimc1 = 0, slimt2 = 0, slimc2 = 0, slims = 0;
  Real angle = 0; ///< MANGLE, radians
};

Real ratio2(Real s, Real x) {
  return x > 0 ? (s / x) * (s / x) : 0.0;
}

void read_card(const io::Fields& h, LawReader& r) {
  Material& m = r.mat;
  const GlobalId id = m.id;
  auto p = std::make_shared<Ply>();
  p->el = read_orthotropic_plane(h, id);
  p->ea = h.real("EA");
  p->eb = h.real("EB");
  auto refuse = [&](const char* f, std::string_view what) { refuse_field(h, f, id, what); };
  refuse("AOPT", "the material axes are the element's, AOPT 0, turned by MANGLE, the element's "
                 "BETA and the layer angles");
  refuse("2WAY", "the two-way fibre formulation");
  refuse("TFAIL", "element deletion on the time step, and its crashfront SOFT");
  refuse("ALPH", "the nonlinear shear term");
  refuse("EPSF", "transverse shear damage");
  refuse("EPSR", "transverse shear damage");
  for (const char* f : {"LCXC", "LCXT", "LCYC", "LCYT", "LCSC"})
    refuse(f, "rate-dependent strengths");
  auto strength = [&](const char* f) {
    const Real v = h.real(f);
    if (v < 0)
      fail(h.loc(f), fmt::format("material {}: {} = {} must not be negative (a strength's "
                                 "magnitude)",
                                 id, f, v));
    return v;
  };
  p->xc = strength("XC");
  p->xt = strength("XT");
  p->yc = strength("YC");
  p->yt = strength("YT");
  p->sc = strength("SC");
  const Real crit = h.real("CRIT") == 0 ? 54.0 : h.real("CRIT"); // 0 as blank
  if (crit != 54 && crit != 55)
    fail(h.loc("CRIT"), fmt::format("material {}: CRIT = {} must be 54 (Chang-Chang) or 55 "
                                    "(Tsai-Wu matrix)",
                                    id, crit));
  p->crit = static_cast<int>(crit);
  p->beta = h.real("BETA");
  if (p->beta < 0 || p->beta > 1)
    fail(h.loc("BETA"), fmt::format("material {}: BETA = {} must lie in [0, 1]", id, p->beta));
  p->fbrt = h.real("FBRT");
  p->ycfac = h.real("YCFAC") == 0 ? 2.0 : h.real("YCFAC"); // 0 as blank (LS-DYNA's default)
  if (p->fbrt < 0 || p->fbrt > 1)
    fail(h.loc("FBRT"), fmt::format("material {}: FBRT = {} must lie in [0, 1]", id, p->fbrt));
  if (!(p->ycfac > 0))
    fail(h.loc("YCFAC"), fmt::format("material {}: YCFAC = {} must be positive", id, p->ycfac));
  p->dfailt = h.real("DFAILT");
  p->dfailc = h.real("DFAILC");
  p->dfailm = h.real("DFAILM");
  p->dfails = h.real("DFAILS");
  p->efs = h.real("EFS");
  if (p->dfailt < 0)
    fail(h.loc("DFAILT"),
         fmt::format("material {}: DFAILT = {} must not be negative", id, p->dfailt));
  if (p->dfailt > 0 && !(p->dfailc < 0))
    fail(h.loc("DFAILC"), fmt::format("material {}: DFAILC = {} must be negative when DFAILT is "
                                      "given (the fibre compressive strain limit)",
                                      id, p->dfailc));
  if (p->dfailm < 0 || p->dfails < 0 || p->efs < 0)
    fail(h.loc("DFAILM"),
         fmt::format("material {}: DFAILM, DFAILS and EFS must not be negative", id));
  p->slimt1 = h.real("SLIMT1");
  p->slimc1 = h.real("SLIMC1");
  p->slimt2 = h.real("SLIMT2");
  p->slimc2 = h.real("SLIMC2");
  p->slims = h.real("SLIMS");
  for (const char* f : {"SLIMT1", "SLIMC1", "SLIMT2", "SLIMC2", "SLIMS"})
    if (h.real(f) < 0 || h.real(f) > 1)
      fail(h.loc(f), fmt::format("material {}: {} = {} must lie in [0, 1]", id, f, h.real(f)));
  if (h.real("NCYRED") > 1)
    r.note(h.loc("NCYRED"), fmt::format("material {}: NCYRED = {}: a failed mode's stress drops "
                                        "to its residual limit at once",
                                        id, h.real("NCYRED")));
  r.note_ignored(h, "KF", "the bulk modulus of failed material is not used");
  p->angle = h.real("MANGLE") * std::numbers::pi / 180.0;
  m.e = p->el.bound_e(); // what the step, contact and hourglass stiffness read
  m.pr = 0;
  m.law_card = std::move(p);
}

/// A layer fails on its fibres (in tension with DFAILT 0; in compression with a failed matrix
/// and no residual stress) or its strain limits: the shells erode.
bool may_fail(const Material& mat) {
  const Ply& p = mat.card<Ply>();
  return p.xt > 0 || p.xc > 0 || p.dfailt > 0 || p.efs > 0;
}

void prepare(const Material& mat, const Model& /*model*/, MaterialParams& m) {
  prepare_elastic_constants(mat, m);
  m.shell_angle = mat.card<Ply>().angle;
  // the kernel erodes a shell once every layer has this flag (none when it cannot fail: its
  // layers then never count as failed, FAILOPT 0 leaves them out)
  m.fail = may_fail(mat) ? kLayer : 0;
}

Real update_shell(const MaterialParams& m, const Real d[5], Real /*dt*/, Real sig[5], Real back[3],
                  Real& eps_p, Real& deps_zz) {
  const Ply& p = m.law_params<Ply>();
  int f = static_cast<int>(eps_p);
  deps_zz = 0;
  if (f & kLayer) {
    for (int k = 0; k < 5; ++k) sig[k] = 0;
    return 0;
  }
  for (int k = 0; k < 3; ++k) back[k] += d[k]; // total strain [ea eb gab]
  if (f == 0) {
    p.el.update(d, sig, deps_zz);
  } else { // a failed mode: no Poisson coupling
    sig[0] += p.ea * d[0];
    sig[1] += p.eb * d[1];
    sig[2] += p.el.gab * d[2];
    sig[3] += p.el.gbc * d[3];
    sig[4] += p.el.gca * d[4];
  }
  const Real xts = (f & kMatrixC) && p.fbrt > 0 ? p.fbrt * p.xt : p.xt;
  const Real xcs = (f & kMatrixC) ? p.ycfac * p.yc : p.xc;
  const Real sa = sig[0], sb = sig[1], tau2 = ratio2(sig[2], p.sc);
  if (sa >= 0 && !(f & kFibreT) && xts > 0 && ratio2(sa, xts) + p.beta * tau2 >= 1) f |= kFibreT;
  if (sa < 0 && !(f & kFibreC) && xcs > 0 && ratio2(sa, xcs) >= 1) f |= kFibreC;
  if (!(f & (kMatrixT | kMatrixC))) {
    bool fails = false;
    if (p.crit == 55) {
      if (p.yc > 0 && p.yt > 0)
        fails = sb * sb / (p.yc * p.yt) + tau2 + (p.yc - p.yt) * sb / (p.yc * p.yt) >= 1;
    } else if (sb >= 0) {
      fails = (p.yt > 0 || p.sc > 0) && ratio2(sb, p.yt) + tau2 >= 1;
    } else if (p.sc > 0) {
      fails = chang_chang_compression(sb, p.yc, p.sc) + tau2 >= 1;
    }
    if (fails) f |= sb >= 0 ? kMatrixT : kMatrixC;
  }
  // the layer: fibre tension failure (DFAILT 0), or nothing left to carry (fibres and matrix
  // failed with no residual stress: every in-plane stress is held at zero)
  bool layer = (f & kFibreT) && p.dfailt == 0;
  if ((f & (kFibreT | kFibreC)) && (f & (kFibreT | kMatrixT | kMatrixC)) && p.slimt1 == 0 &&
      p.slimc1 == 0 && p.slimt2 == 0 && p.slimc2 == 0 && p.slims == 0)
    layer = true;
  if (p.dfailt > 0)
    layer = layer || back[0] >= p.dfailt || back[0] <= p.dfailc ||
            (p.dfailm > 0 && std::abs(back[1]) >= p.dfailm) ||
            (p.dfails > 0 && std::abs(0.5 * back[2]) >= p.dfails);
  if (p.efs > 0) {
    const Real ea = back[0], eb = back[1], eab = 0.5 * back[2];
    layer = layer || std::sqrt(4.0 / 3.0 * (ea * ea + eb * eb + ea * eb + eab * eab)) >= p.efs;
  }
  if (layer) {
    eps_p = f | kLayer;
    for (int k = 0; k < 5; ++k) sig[k] = 0;
    deps_zz = 0;
    return 0;
  }
  // failed modes keep at most their residual stress
  if (f & (kFibreT | kFibreC)) sig[0] = std::clamp(sig[0], -p.slimc1 * xcs, p.slimt1 * xts);
  if (f & (kFibreT | kMatrixT | kMatrixC)) {
    sig[1] = std::clamp(sig[1], -p.slimc2 * p.yc, p.slimt2 * p.yt);
    sig[2] = std::clamp(sig[2], -p.slims * p.sc, p.slims * p.sc);
  }
  eps_p = f;
  return 0;
}

} // namespace

const MaterialLaw& law_enhanced_composite_damage() {
  using namespace io::card_fields;
  static const MaterialLaw law{
      .kind = MaterialKind::EnhancedCompositeDamage,
      .card = "*MAT_ENHANCED_COMPOSITE_DAMAGE",
      .number = "054",
      .summary = "unidirectional composite ply, Chang-Chang (054) or Tsai-Wu matrix (055) failure",
      .history = 4,
      .incremental = true,
      .oriented = true,
      .keyword =
          {.name = "*MAT_ENHANCED_COMPOSITE_DAMAGE",
           .aliases = {"*MAT_054", "*MAT_055", "*MAT_054-055", "*MAT_54_55"},
           .options = {"TITLE"},
           .head = {title_card(),
                    {"Card 1", mid_ro_orthotropic_fields()},
                    {"Card 2", reals({"GAB", "GBC", "GCA", "KF", "AOPT", "2WAY", "TI"})},
                    {"Card 3", reals({"XP", "YP", "ZP", "A1", "A2", "A3", "MANGLE"})},
                    {"Card 4", reals({"V1", "V2", "V3", "D1", "D2", "D3", "DFAILM", "DFAILS"})},
                    {"Card 5",
                     {R("TFAIL"), R("ALPH"), R("SOFT", "1.0"), R("FBRT"), R("YCFAC", "2.0"),
                      R("DFAILT"), R("DFAILC"), R("EFS")}},
                    {"Card 6",
                     {R("XC"), R("XT"), R("YC"), R("YT"), R("SC"), R("CRIT", "54"), R("BETA")}},
                    {"Card 7 (optional)",
                     {R("PFL"), R("EPSF"), R("EPSR"), R("TSMD", "0.90"), R("SOFT2", "1.0")}},
                    {"Card 8 (optional)",
                     {R("SLIMT1"), R("SLIMC1"), R("SLIMT2"), R("SLIMC2"), R("SLIMS"), R("NCYRED"),
                      R("SOFTG", "1.0")}},
                    {"Card 9 (optional)",
                     {I("LCXC"), I("LCXT"), I("LCYC"), I("LCYT"), I("LCSC"), R("DT")}}},
           .summary =
               "A unidirectional ply on shells, plane stress in the material axes a (fibre), b: "
               "linear orthotropic (EA, EB, PRBA = nu_ba, GAB; GBC, GCA transverse shear, 0: "
               "GAB) up to the Chang-Chang criteria on XT, XC, YT, YC, SC (CRIT 54; 55: "
               "Tsai-Wu for the matrix), BETA weighting the shear in fibre tension, FBRT and "
               "YCFAC reducing the fibre strengths after matrix compression failure. A failed "
               "mode keeps at most its residual stress SLIMT1 ... SLIMS times its strength "
               "(default 0: it drops to zero at once; NCYRED is not used); matrix failure also "
               "removes the Poisson coupling. A layer fails on fibre tension (DFAILT = 0), when "
               "its fibres "
               "and matrix have both failed with every SLIM 0 (nothing left to carry), or on "
               "the strain limits DFAILT, DFAILC, DFAILM, DFAILS, and on EFS; the shell erodes "
               "when all its layers have failed. Axes AOPT = 0: the element's (node 1 to 2) "
               "turned by MANGLE (or the element's BETA), the section's ICOMP angles or the "
               "composite layers' angles. The failure flags show as the plastic strain (1 fibre "
               "compression, 2 matrix tension, 4 matrix compression, 8 fibre tension, 16 the "
               "layer). Refused at the field: other AOPTs, 2WAY, TFAIL, ALPH, EPSF, EPSR, "
               "LCXC-LCSC. EC, PRCA, PRCB give the thickness strain; KF, TI, PFL, TSMD, SOFT, "
               "SOFT2, SOFTG, DT and the AOPT geometry are unused. Shells only."},
      .read = read_card,
      .prepare = prepare,
      .update_shell = update_shell,
      .wave_speed = bar_wave_speed,
      .may_fail = may_fail};
  return law;
}

} // namespace parcae
