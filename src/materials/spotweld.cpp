// *MAT_SPOTWELD (100), also with the DAMAGE-FAILURE option: elastic (E, PR), von Mises
// plasticity with the yield stress SIGY + EH eps_p (EH: the plastic hardening modulus, as the
// manual defines it), isotropic. On integrated beams the beam kernel returns the axial and
// transverse shear stresses (fem/beam.cpp); solid welds use the shared J2 update
// (update_j2_solid).
//
// Failure (solid welds; beams and trusses do not erode in parcae, so a weld material with
// failure on them is refused at set-up). The weld axis r of a hexahedron runs from the centroid
// of its face N1-N4 to that of N5-N8 (the through-sheet direction of weld meshes); s is the edge
// N1-N2 made normal to r, t = r x s; A = V / h is the mean cross-section (h the length of the
// axis). With one point the weld carries no moments, so MRR MSS MTT play no part. An element
// fails (erodes) when
//  - EFAIL > 0: its effective plastic strain reaches EFAIL;
//  - TFAIL > 0: the time reaches TFAIL;
//  - OPT 0 (and the plain keyword): the force resultants N = A sigma on the weld plane,
//    (max(N_rr, 0) / NRR)^2 + (N_rs / NRS)^2 + (N_rt / NRT)^2 >= 1 (a term with a zero limit
//    left out);
//  - OPT 1 (stress based, DAMAGE-FAILURE): (max(sigma_rr, 0) / SIG_AX)^2 + (tau / SIG_TAU)^2
//    >= 1, tau = sqrt(sigma_rs^2 + sigma_rt^2) (card 2's second and third fields).
// A compressive normal force does not open a weld. Refused at their field: DT (weld mass
// scaling), RS (damage), OPT other than 0 and 1, negative limits (curves of the strain rate),
// TRUE_T, BETA, DMGOPT; NF (filtering) and FVAL are read and not applied (a note when set).
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "materials/law_support.hpp"
#include "materials/laws.hpp"

namespace parcae {

void prepare_spotweld(const Material& mat, const Model& /*model*/, MaterialParams& m) {
  auto fail = [&](const std::string& msg) { fail_card(mat, msg); };
  prepare_elastic_constants(mat, m);
  if (!(mat.sigy > 0)) fail(fmt::format("yield stress SIGY must be positive (got {})", mat.sigy));
  if (!(mat.eh >= 0))
    fail(fmt::format("plastic hardening modulus EH must not be negative (got {})", mat.eh));
  m.sigy = mat.sigy;
  m.ep = mat.eh;
  m.etan = mat.e * mat.eh / (mat.e + mat.eh);
  m.beta = 1; // isotropic
  m.fail = mat.fs;
}

namespace {

/// The failure constants of the card (Material::law_card).
struct SpotweldFailure {
  Real efail = 0, tfail = 0;
  int opt = 0;             ///< 0: force resultants, 1: stresses
  Real lim[3] = {0, 0, 0}; ///< OPT 0: NRR NRS NRT; OPT 1: SIG_AX SIG_TAU (lim[2] unused)
  bool moments = false;    ///< MRR MSS MTT given (beam welds' limits; none on a solid weld)
  [[nodiscard]] bool criterion() const {
    return lim[0] > 0 || lim[1] > 0 || (opt == 0 && lim[2] > 0);
  }
  /// Any failure field set: the material fails somewhere (beams, which do not erode, are then
  /// refused; a solid weld has no moments, so MRR MSS MTT alone never fail it).
  [[nodiscard]] bool any() const { return efail > 0 || tfail > 0 || criterion() || moments; }
};

void read_spotweld_card(const io::Fields& h, LawReader& r) {
  Material& m = r.mat;
  read_elastic(h, m);
  m.sigy = h.real("SIGY");
  m.eh = h.real("EH");
  if (!(m.sigy > 0))
    fail(h.loc("SIGY"),
         fmt::format("material {}: yield stress SIGY = {} must be positive", m.id, m.sigy));
  if (!(m.eh >= 0))
    fail(h.loc("EH"),
         fmt::format("material {}: hardening modulus EH = {} must not be negative", m.id, m.eh));
  if (h.real("DT") != 0)
    fail(h.loc("DT"), fmt::format("material {}: DT = {}: the spot weld's mass scaling is not "
                                  "implemented (leave it blank)",
                                  m.id, h.real("DT")));
  auto f = std::make_shared<SpotweldFailure>();
  const bool damage = r.has_option("DAMAGE-FAILURE");
  if (damage) {
    f->opt = static_cast<int>(h.real("OPT"));
    if (h.real("OPT") != 0 && h.real("OPT") != 1)
      fail(h.loc("OPT"), fmt::format("material {}: OPT = {}: only the force-resultant (0) and "
                                     "stress (1) failure criteria are supported",
                                     m.id, h.real("OPT")));
    for (std::string_view k : {"RS", "TRUE_T", "BETA"})
      if (h.real(k) != 0)
        fail(h.loc(k), fmt::format("material {}: {} = {} is not supported ({})", m.id, k, h.real(k),
                                   k == "RS"       ? "damage after failure starts"
                                   : k == "TRUE_T" ? "the true weld thickness of single hexahedra"
                                                   : "the damping of the failure criterion"));
    if (h.integer("DMGOPT") != 0)
      fail(h.loc("DMGOPT"),
           fmt::format("material {}: DMGOPT = {} is not supported", m.id, h.integer("DMGOPT")));
    r.note_ignored(h, "FVAL", "not used by OPT 0 and 1");
    r.note_ignored(h, "ASFF", "parcae's welds are single elements (no weld assemblies)");
  }
  f->efail = h.real("EFAIL");
  f->tfail = h.real("TFAIL");
  const char* names[3] = {"NRR", "NRS", "NRT"};
  const char* shown_1[3] = {"SIG_AX", "SIG_TAU", "NRT"};
  for (int i = 0; i < 3; ++i) {
    f->lim[i] = h.real(names[i]);
    const char* shown = f->opt == 1 ? shown_1[i] : names[i];
    if (!(f->lim[i] >= 0))
      fail(h.loc(names[i]), fmt::format("material {}: {} = {}: a curve of the strain rate "
                                        "(negative) is not supported",
                                        m.id, shown, f->lim[i]));
  }
  if (f->opt == 1 && f->lim[2] != 0)
    r.note_ignored(h, "NRT", "OPT 1 reads the axial and shear stress limits only");
  for (std::string_view k : {"MRR", "MSS", "MTT"}) {
    f->moments = f->moments || h.real(k) != 0;
    r.note_ignored(h, k,
                   "a one-point solid weld carries no moments (beam welds with failure are "
                   "refused)");
  }
  if (!(f->efail >= 0))
    fail(h.loc("EFAIL"),
         fmt::format("material {}: EFAIL = {} must not be negative", m.id, f->efail));
  if (!(f->tfail >= 0))
    fail(h.loc("TFAIL"),
         fmt::format("material {}: TFAIL = {} must not be negative", m.id, f->tfail));
  r.note_ignored(h, "NF", "the failure function is not filtered");
  m.fs = f->efail; // the kernels' plastic-strain erosion
  m.law_card = std::move(f);
}

bool may_fail(const Material& mat) {
  return mat.law_card != nullptr && mat.card<SpotweldFailure>().any();
}

bool solid_fails(const MaterialParams& m, const Real sig[6], const Real x[8][3], Real volume,
                 Real t) {
  if (m.law_data == nullptr) return false; // a material not read from a card: no failure
  const SpotweldFailure& f = m.law_params<SpotweldFailure>();
  if (f.tfail > 0 && t >= f.tfail) return true;
  if (!f.criterion()) return false;
  // the weld axes
  Real r[3], s[3], tt[3];
  for (int i = 0; i < 3; ++i) {
    r[i] = 0.25 * (x[4][i] + x[5][i] + x[6][i] + x[7][i] - x[0][i] - x[1][i] - x[2][i] - x[3][i]);
    s[i] = x[1][i] - x[0][i];
  }
  const Real h = std::sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
  if (!(h > 0)) return false;
  for (Real& c : r) c /= h;
  const Real sr = s[0] * r[0] + s[1] * r[1] + s[2] * r[2];
  for (int i = 0; i < 3; ++i) s[i] -= sr * r[i];
  const Real sn = std::sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
  if (!(sn > 0)) return false;
  for (Real& c : s) c /= sn;
  tt[0] = r[1] * s[2] - r[2] * s[1];
  tt[1] = r[2] * s[0] - r[0] * s[2];
  tt[2] = r[0] * s[1] - r[1] * s[0];
  // the traction on the weld plane: T = sigma r, and its components
  const Real S[3][3] = {
      {sig[0], sig[3], sig[5]}, {sig[3], sig[1], sig[4]}, {sig[5], sig[4], sig[2]}};
  Real tr[3];
  for (int i = 0; i < 3; ++i) tr[i] = S[i][0] * r[0] + S[i][1] * r[1] + S[i][2] * r[2];
  const Real s_rr = tr[0] * r[0] + tr[1] * r[1] + tr[2] * r[2];
  const Real s_rs = tr[0] * s[0] + tr[1] * s[1] + tr[2] * s[2];
  const Real s_rt = tr[0] * tt[0] + tr[1] * tt[1] + tr[2] * tt[2];
  auto term = [](Real v, Real lim) { return lim > 0 ? (v / lim) * (v / lim) : 0.0; };
  if (f.opt == 1)
    return term(std::max<Real>(s_rr, 0), f.lim[0]) +
               term(std::sqrt(s_rs * s_rs + s_rt * s_rt), f.lim[1]) >=
           1;
  // OPT 0: forces on the mean cross-section A = V / h
  const Real area = volume / h;
  return term(std::max<Real>(s_rr, 0) * area, f.lim[0]) + term(s_rs * area, f.lim[1]) +
             term(s_rt * area, f.lim[2]) >=
         1;
}

} // namespace

const MaterialLaw& law_spotweld() {
  using namespace io::card_fields;
  static const MaterialLaw law{
      .kind = MaterialKind::Spotweld,
      .card = "*MAT_SPOTWELD",
      .number = "100",
      .summary = "spot welds and bolts: von Mises plasticity with linear isotropic hardening EH "
                 "(beams: on the axial and shear stresses; solid welds: the J2 update)",
      .history = 1, // effective plastic strain
      .incremental = true,
      .plastic = true,
      .hyperelastic = false,
      .hydrodynamic = false,
      .rigid = false,
      .keyword = {.name = "*MAT_SPOTWELD",
                  .aliases = {"*MAT_100"},
                  .options = {"TITLE", "DAMAGE-FAILURE"},
                  .head = {title_card(),
                           {"Card 1",
                            join(mid_ro_e_pr_fields(), {R("SIGY"), R("EH"), R("DT"), R("TFAIL")})},
                           {"Card 2",
                            {R("EFAIL"), R("NRR"), R("NRS"), R("NRT"), R("MRR"), R("MSS"), R("MTT"),
                             R("NF")},
                            "",
                            true},
                           {"Card 3 (DAMAGE-FAILURE)",
                            {R("RS"), R("OPT"), R("FVAL"), R("TRUE_T"), I("ASFF"), R("BETA"),
                             S("UNUSED"), I("DMGOPT")},
                            "DAMAGE-FAILURE",
                            true}},
                  .summary =
                      "Spot weld material on beams (integrated ELFORM 1, 9: von Mises plasticity "
                      "on the axial and shear stresses; trusses) and solids (the J2 update): "
                      "elastic E PR, yield stress SIGY + EH eps_p (isotropic hardening); shells "
                      "are refused. Failure of solid welds (erosion): EFAIL (plastic strain), "
                      "TFAIL (time), and OPT 0 (the plain keyword too) the force resultants on "
                      "the weld plane against NRR NRS NRT, or OPT 1 (DAMAGE-FAILURE) the normal "
                      "and shear stress against SIG_AX SIG_TAU (card 2's second and third "
                      "fields); the weld axis runs from face N1-N4 to face N5-N8. Beams and "
                      "trusses with failure are refused (they do not erode). Refused: DT (weld "
                      "mass scaling), RS, OPT other than 0 and 1, negative limits (rate curves), "
                      "TRUE_T, BETA, DMGOPT; MRR MSS MTT (no moments on one point), NF, FVAL, ASFF "
                      "are read and not applied (a note when set)."},
      .read = read_spotweld_card,
      .prepare = prepare_spotweld,
      .update_solid = update_j2_solid,
      .update_shell = nullptr,
      .update_deviator = nullptr,
      .wave_speed = reference_wave_speed,
      .may_fail = may_fail,
      .solid_fails = solid_fails};
  return law;
}
} // namespace parcae
