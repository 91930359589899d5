// *MAT_TRANSVERSELY_ANISOTROPIC_ELASTIC_PLASTIC (037), shells only: Hill's 1948 quadratic yield
// criterion in plane stress for a sheet with normal anisotropy (the same Lankford ratio R in
// every in-plane direction), isotropic elasticity, isotropic hardening.
//
// Yield (local shell frame; the criterion is invariant under in-plane rotations):
//   f = s11^2 + s22^2 - 2R/(1+R) s11 s22 + 2(1+2R)/(1+R) s12^2 = Y(eps_p)^2
// R = 1 is von Mises. Closed forms the tests check: uniaxial yield Y in every in-plane
// direction, equibiaxial yield Y sqrt((1+R)/2), and (associated flow) the width-to-thickness
// plastic strain ratio eps_w/eps_t = R in uniaxial tension.
// Hardening: Y = SIGY + ETAN eps_p (ETAN is the plastic hardening modulus on this card, not a
// tangent modulus), or the curve HLCID (effective plastic strain -> yield stress; SIGY and ETAN
// are then ignored), extrapolated with its last slope as LS-DYNA does.
// R < 0: LS-DYNA reads |R| and uses another implementation of the same criterion; parcae's
// return below is exact (iterated to convergence) for either, so R < 0 means |R| here.
//
// Update: backward-Euler return in the eigenbasis of the criterion and of the plane-stress
// elasticity, as the von Mises direct return (plane_stress_return.inc) but with Hill's
// coefficients and a general hardening curve. With sum = s11 + s22, diff = s11 - s22:
//   f = ca sum^2 + cb1 diff^2 + cb2 s12^2,  ca = 1/(2(1+R)), cb1 = (1+2R)/(2(1+R)),
//   cb2 = 2(1+2R)/(1+R)   (R = 1: 1/4, 3/4, 3).
// Associated flow d eps^p = lambda df/dsigma and the plastic work equivalence Y d eps_p =
// sigma : d eps^p = 2 lambda f give lambda = d/(2Y) (d: effective plastic strain increment),
// and the backward-Euler stresses are the trial ones scaled mode by mode:
//   sum = sum_tr Y/D1, (diff, s12) = (diff, s12)_tr Y/D2,  D_i = Y(eps_p + d) + a_i d,
//   a1 = E/((1-nu)(1+R)), a2 = 2G(1+2R)/(1+R)   (R = 1: E/(2(1-nu)), 3G),
// so that f = Y^2 becomes A/D1^2 + B/D2^2 = 1 with A = ca sum_tr^2, B = cb1 diff_tr^2 +
// cb2 s12_tr^2. The left side decreases strictly in d when Y does not soften; the root is found
// by Newton's method on psi(d) = (A/D1^2 + B/D2^2)^(-1/2) - 1 kept inside a bracket [lo, hi]
// (bisection when a step leaves it), hi = sqrt(A + B)/min(a1, a2) (there psi >= 0 since
// Y >= 0). Through-thickness plastic strain: -(d eps11^p + d eps22^p) = -d sum/((1+R) Y).
#include <algorithm>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "materials/j2_return.hpp"
#include "materials/law_support.hpp"
#include "materials/laws.hpp"

namespace parcae {

void prepare_transversely_anisotropic(const Material& mat, const Model& model, MaterialParams& m) {
  auto fail = [&](const std::string& msg) { fail_card(mat, msg); };
  prepare_elastic_constants(mat, m);
  m.beta = 1; // isotropic hardening
  if (mat.lankford_r == 0)
    fail("the anisotropy parameter R must not be zero (R = 1 is von Mises; R < 0: |R| is used)");
  m.hill_r = std::abs(mat.lankford_r);
  if (mat.lcss != 0) {
    copy_curve(mat, model, mat.lcss, "HLCID", m.hard_x, m.hard_y);
    if (m.hard_x.front() < 0)
      fail(fmt::format("HLCID curve {}: effective plastic strain must start at 0 (got {})",
                       mat.lcss, m.hard_x.front()));
    for (std::size_t i = 0; i < m.hard_y.size(); ++i)
      if (!(m.hard_y[i] >= 0))
        fail(fmt::format("HLCID curve {}: yield stress must not be negative (point {}: {})",
                         mat.lcss, i + 1, m.hard_y[i]));
    for (std::size_t i = 1; i < m.hard_y.size(); ++i)
      if (m.hard_y[i] < m.hard_y[i - 1])
        fail(fmt::format("HLCID curve {}: softening (yield stress decreasing from point {} to "
                         "{}) is not supported",
                         mat.lcss, i, i + 1));
    m.sigy = m.hard_y.front(); // informational; the curve is used
    m.etan = 0;
    m.ep = 0;
  } else {
    if (!(mat.sigy > 0)) fail(fmt::format("yield stress SIGY must be positive (got {})", mat.sigy));
    if (!(mat.etan >= 0))
      fail(fmt::format("plastic hardening modulus ETAN must not be negative (got {})", mat.etan));
    m.sigy = mat.sigy;
    m.etan = mat.etan;
    m.ep = mat.etan; // *MAT_037's ETAN is the plastic hardening modulus itself
  }
}

Real update_transversely_anisotropic_shell(const MaterialParams& m, const Real deps[5], Real dt,
                                           Real sig[5], Real back[3], Real& eps_p, Real& deps_zz) {
  (void)dt;   // no rate effect
  (void)back; // isotropic hardening: no back stress
  const Real r = m.hill_r;
  const Real c = m.e / (1.0 - m.nu * m.nu);
  sig[3] += m.g * deps[3];
  sig[4] += m.g * deps[4];
  const Real t0 = sig[0] + c * (deps[0] + m.nu * deps[1]);
  const Real t1 = sig[1] + c * (deps[1] + m.nu * deps[0]);
  const Real t2 = sig[2] + m.g * deps[2];
  const Real dz_el = -m.nu / (1.0 - m.nu) * (deps[0] + deps[1]);
  const Real es = t0 + t1, ed = t0 - t1;
  const Real ca = 1.0 / (2.0 * (1.0 + r));
  const Real cb1 = (1.0 + 2.0 * r) / (2.0 * (1.0 + r));
  const Real cb2 = 2.0 * (1.0 + 2.0 * r) / (1.0 + r);
  const Real a = ca * es * es;
  const Real b = cb1 * ed * ed + cb2 * t2 * t2;
  Real slope = 0;
  const Real y0 = j2::hardening(m, eps_p, slope);
  if (a + b <= y0 * y0) {
    sig[0] = t0;
    sig[1] = t1;
    sig[2] = t2;
    deps_zz = dz_el;
    return 0;
  }
  const Real a1 = m.e / ((1.0 - m.nu) * (1.0 + r));
  const Real a2 = (2.0 * (1.0 + 2.0 * r) / (1.0 + r)) * m.g;
  // psi(d) and its derivative; Y and the D_i at d returned through y, d1, d2
  Real y = y0, d1 = y0, d2 = y0;
  auto psi = [&](Real d, Real& dpsi) {
    Real h = 0;
    y = j2::hardening(m, eps_p + d, h);
    d1 = y + a1 * d;
    d2 = y + a2 * d;
    const Real s = a / (d1 * d1) + b / (d2 * d2);
    const Real ds = -2.0 * (a * (h + a1) / (d1 * d1 * d1) + b * (h + a2) / (d2 * d2 * d2));
    const Real rs = 1.0 / std::sqrt(s);
    dpsi = -0.5 * rs / s * ds;
    return rs - 1.0;
  };
  Real lo = 0, hi = std::sqrt(a + b) / std::min(a1, a2);
  // start: the linearised root with the current slope (the exact root for R = 1 and A or B = 0)
  Real d = (std::sqrt(a + b) - y0) / (std::min(a1, a2) + slope);
  if (!(d > lo && d < hi)) d = 0.5 * (lo + hi);
  constexpr Real kTol = 1e-13; // relative yield residual |q/Y - 1|
  for (int it = 0; it < 200; ++it) {
    Real dp = 0;
    const Real p = psi(d, dp);
    if (std::abs(p) <= kTol) break;
    (p < 0 ? lo : hi) = d;
    Real dn = dp > 0 ? d - p / dp : 0.5 * (lo + hi);
    if (!(dn > lo && dn < hi)) dn = 0.5 * (lo + hi);
    if (dn == d || hi - lo <= 1e-15 * hi) break;
    d = dn;
  }
  {
    Real dp = 0;
    psi(d, dp); // y, d1, d2 at the final d
  }
  const Real f1 = y / d1, f2 = y / d2;
  const Real ss = f1 * es, sd = f2 * ed;
  sig[0] = 0.5 * (ss + sd);
  sig[1] = 0.5 * (ss - sd);
  sig[2] = f2 * t2;
  // elastic through-thickness strain of the new in-plane stress, plus the plastic one
  const Real dsum = ss - (t0 + t1) + c * (1.0 + m.nu) * (deps[0] + deps[1]);
  const Real plastic_zz = -d * es / ((1.0 + r) * d1); // -d sum/((1+R) Y), sum = es Y/D1
  deps_zz = -m.nu / m.e * dsum + plastic_zz;
  eps_p += d;
  return d;
}

namespace {

void read_transversely_anisotropic_card(const io::Fields& h, LawReader& r) {
  Material& m = r.mat;
  read_elastic(h, m);
  m.sigy = h.real("SIGY");
  m.etan = h.real("ETAN");
  m.lankford_r = h.real("R");
  m.lcss = h.id("HLCID");
  if (m.lankford_r == 0)
    fail(h.loc("R"), fmt::format("material {}: the anisotropy parameter R must not be 0 (R = 1 "
                                 "is von Mises)",
                                 m.id));
  if (m.lcss < 0)
    fail(h.loc("HLCID"), fmt::format("material {}: HLCID = {} must not be negative", m.id, m.lcss));
  if (m.lcss == 0 && !(m.sigy > 0))
    fail(h.loc("SIGY"), fmt::format("material {}: yield stress SIGY = {} must be positive (or "
                                    "give the hardening curve HLCID)",
                                    m.id, m.sigy));
  if (!(m.etan >= 0))
    fail(h.loc("ETAN"),
         fmt::format("material {}: plastic hardening modulus ETAN = {} must not be negative", m.id,
                     m.etan));
}

} // namespace

const MaterialLaw& law_transversely_anisotropic() {
  using namespace io::card_fields;
  static const MaterialLaw law{
      .kind = MaterialKind::TransverselyAnisotropic,
      .card = "*MAT_TRANSVERSELY_ANISOTROPIC_ELASTIC_PLASTIC",
      .number = "037",
      .summary = "Hill 1948 plane-stress plasticity with normal anisotropy (Lankford R), linear or "
                 "tabulated isotropic hardening; shells only",
      .history = 1, // effective plastic strain
      .incremental = true,
      .plastic = true,
      .hyperelastic = false,
      .hydrodynamic = false,
      .rigid = false,
      .keyword = {.name = "*MAT_TRANSVERSELY_ANISOTROPIC_ELASTIC_PLASTIC",
                  .aliases = {"*MAT_037"},
                  .options = {"TITLE"},
                  .head = {title_card(),
                           {"Card 1",
                            {I("MID").req(), R("RO"), R("E"), R("PR"), R("SIGY"), R("ETAN"), R("R"),
                             I("HLCID")}}},
                  .summary =
                      "Hill 1948 plane-stress plasticity with normal anisotropy (shells only): "
                      "s11^2 + s22^2 - 2R/(1+R) s11 s22 + 2(1+2R)/(1+R) s12^2 = Y^2, isotropic "
                      "hardening Y = SIGY + ETAN eps_p (ETAN: the plastic hardening modulus) or "
                      "the curve HLCID (effective plastic strain -> Y; SIGY and ETAN then "
                      "ignored; softening is an error). R = 1 is von Mises; R < 0 selects another "
                      "LS-DYNA algorithm for the same criterion and is read as |R| (parcae's "
                      "return is iterated to convergence); R = 0 is an error. Solid parts are an "
                      "error. The _ECHANGE and _NLP options are not supported."},
      .read = read_transversely_anisotropic_card,
      .prepare = prepare_transversely_anisotropic,
      .update_solid = nullptr,
      .update_shell = update_transversely_anisotropic_shell,
      .update_deviator = nullptr,
      .wave_speed = reference_wave_speed};
  return law;
}
} // namespace parcae
