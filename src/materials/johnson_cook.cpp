// *MAT_JOHNSON_COOK (015): von Mises plasticity on the Johnson-Cook yield stress (Johnson & Cook
// 1983) with strain hardening, logarithmic rate term and thermal softening at the adiabatic
// temperature. Solids are hydrodynamic (pressure from the part's EOS); shells are plane stress
// with the card's E and PR (LS-DYNA's "shells only" fields) and need no EOS.
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "materials/hydro.hpp"
#include "materials/j2_return.hpp"
#include "materials/law_support.hpp"
#include "materials/laws.hpp"

namespace parcae {

namespace {

/// The shells' elastic constants (card 1 E and PR; absent: shells are refused).
struct JohnsonCookShell {
  Real e = 0, pr = 0;
};

/// Johnson-Cook rate x thermal factor (1 + C ln max(rate*, 1))(1 - T*^M).
Real jc_factor(const MaterialParams& m, Real rate, Real temperature) {
  const Real rs = rate / m.jc_epso;
  const Real fr = rs > 1.0 ? 1.0 + m.jc_c * std::log(rs) : 1.0;
  Real ft = 1.0;
  if (m.jc_cp > 0 && m.jc_tm > m.jc_tr) {
    const Real ts = (temperature - m.jc_tr) / (m.jc_tm - m.jc_tr);
    ft = ts <= 0 ? 1.0 : ts >= 1 ? 0.0 : 1.0 - std::pow(ts, m.jc_m);
  }
  return std::max(fr * ft, 0.0);
}

/// Johnson-Cook strain hardening A + B eps^N.
Real jc_hardening(const MaterialParams& m, Real eps_p) {
  return m.jc_b > 0 && eps_p > 0 ? m.jc_a + m.jc_b * std::pow(eps_p, m.jc_n) : m.jc_a;
}

} // namespace

Real johnson_cook_yield(const MaterialParams& m, Real eps_p, Real rate, Real temperature) {
  return jc_hardening(m, eps_p) * jc_factor(m, rate, temperature);
}

namespace {

/// Radial return of the deviatoric trial stress s (in/out, tensor shear components) on the
/// Johnson-Cook yield stress at eps_p + d: solves q_tr - 3G d = sy(eps_p + d) by
/// bisection-safeguarded Newton. VP = 0 (dt <= 0 here): the rate factor at the step's total
/// effective strain rate `rate`, fixed over the step. VP = 1 (viscoplastic, dt > 0): the rate
/// factor at the plastic strain rate d / dt, (1 + C ln max(d / (dt EPSO), 1)), so the stress
/// lies on the surface of the rate it flows at. Both yield stresses increase with d, so
/// q_tr - 3G d - sy(d) decreases and has one root in [0, q_tr / 3G]. The temperature is fixed
/// over the step. Returns d (0: elastic).
Real jc_return(const MaterialParams& m, Real g, Real s[6], Real eps_p, Real rate, Real temperature,
               Real viscoplastic_dt) {
  const Real ss =
      s[0] * s[0] + s[1] * s[1] + s[2] * s[2] + 2.0 * (s[3] * s[3] + s[4] * s[4] + s[5] * s[5]);
  const Real q_tr = std::sqrt(1.5 * ss);
  const bool vp = viscoplastic_dt > 0;
  const Real scale = jc_factor(m, vp ? 0.0 : rate, temperature); // VP = 1: the thermal factor
  const Real sy0 = scale * jc_hardening(m, eps_p);
  if (q_tr <= sy0 || q_tr <= 0) return 0;
  const Real g3 = 3.0 * g;
  const Real rate_floor = m.jc_epso * viscoplastic_dt; // d below this: no rate term
  // sy(d) and its slope
  auto yield = [&](Real d, Real& slope) {
    const Real e = eps_p + d;
    const Real h = jc_hardening(m, e);
    const Real dh = m.jc_b > 0 && e > 0 ? m.jc_b * m.jc_n * std::pow(e, m.jc_n - 1.0) : 0.0;
    Real fr = 1, dfr = 0;
    if (vp && d > rate_floor && m.jc_c != 0) {
      fr = 1.0 + m.jc_c * std::log(d / rate_floor);
      dfr = m.jc_c / d;
    }
    slope = scale * (dh * fr + h * dfr);
    return scale * h * fr;
  };
  Real lo = 0, hi = q_tr / g3;
  Real d = (q_tr - sy0) / g3;
  const Real tol = 1e-14 * q_tr;
  for (int it = 0; it < 200; ++it) {
    Real slope = 0;
    const Real gval = q_tr - g3 * d - yield(d, slope);
    if (std::abs(gval) <= tol) break;
    if (gval > 0)
      lo = d;
    else
      hi = d;
    if (hi - lo <= 1e-15 * hi) break;
    Real dn = d + gval / (g3 + slope);
    if (!(dn > lo && dn < hi)) dn = 0.5 * (lo + hi);
    d = dn;
  }
  const Real f = 1.0 - g3 * d / q_tr;
  for (int i = 0; i < 6; ++i) s[i] *= f;
  return d;
}

} // namespace

void prepare_johnson_cook(const Material& mat, const Model& model, MaterialParams& m) {
  auto fail = [&](const std::string& msg) { fail_card(mat, msg); };
  prepare_hydro_common(mat, m);
  prepare_hydro_shear(mat, m);
  // *MAT_015: SPALL 1, p >= PC (PC = 0: no cutoff)
  m.pc = mat.pc < 0 ? mat.pc : -std::numeric_limits<Real>::infinity();
  if (!(mat.jc_a > 0))
    fail(fmt::format("A must be positive (got {}; A < 0, a load curve, is not "
                     "supported)",
                     mat.jc_a));
  if (!(mat.jc_b >= 0)) fail(fmt::format("B must not be negative (got {})", mat.jc_b));
  if (mat.jc_b > 0 && !(mat.jc_n > 0)) fail(fmt::format("N must be positive (got {})", mat.jc_n));
  if (!(mat.jc_epso > 0)) fail(fmt::format("EPSO must be positive (got {})", mat.jc_epso));
  if (!(mat.jc_cp >= 0)) fail(fmt::format("CP must not be negative (got {})", mat.jc_cp));
  if (mat.jc_cp > 0 && mat.jc_tm > mat.jc_tr && !(mat.jc_m > 0))
    fail(fmt::format("M must be positive with thermal softening (got {})", mat.jc_m));
  m.jc_a = mat.jc_a;
  m.jc_b = mat.jc_b;
  m.jc_n = mat.jc_n;
  m.jc_c = mat.jc_c;
  m.jc_m = mat.jc_m;
  m.jc_tm = mat.jc_tm;
  m.jc_tr = mat.jc_tr;
  m.jc_epso = mat.jc_epso;
  m.jc_cp = mat.jc_cp;
  m.vp = mat.vp;
  m.sigy = mat.jc_a;
  if (mat.law_card) { // shells: E and PR of card 1 (the time step, hourglass and the update)
    const JohnsonCookShell& sh = mat.card<JohnsonCookShell>();
    m.e = sh.e;
    m.nu = sh.pr;
  }
}

namespace {

/// Plane-stress update of a shell point: the step's 3-D strain increment
/// [dxx, dyy, dzz, gxy, 0, 0] with the thickness strain dzz such that sigma_zz = 0, each trial
/// returned radially onto the Johnson-Cook surface (jc_return) with the shell's moduli E, PR;
/// transverse shear elastic. sigma_zz(dzz) increases with dzz (the tangent's zz term is at
/// least the bulk modulus), so the root is bracketed and found by secant steps safeguarded by
/// bisection. The rate (VP = 0: the effective total strain rate, with the plastically
/// incompressible dzz = -(dxx + dyy)) and the temperature (TR + plastic work / (RO CP), the work
/// kept in back[0]) are fixed over the step, as in the solid update.
Real update_johnson_cook_shell(const MaterialParams& m, const Real deps[5], Real dt, Real sig[5],
                               Real back[3], Real& eps_p, Real& deps_zz) {
  const Real e = m.e, nu = m.nu;
  const Real g = e / (2.0 * (1.0 + nu)), k = e / (3.0 * (1.0 - 2.0 * nu));
  sig[3] += g * deps[3];
  sig[4] += g * deps[4];
  const Real dzz_el = -nu / (1.0 - nu) * (deps[0] + deps[1]);
  Real work = back != nullptr ? back[0] : 0.0;
  const Real temperature = m.jc_cp > 0 ? m.jc_tr + work / (m.ro * m.jc_cp) : m.jc_tr;
  const bool vp = m.vp == 1;
  Real rate = 0;
  if (m.jc_c != 0 && !vp && dt > 0) {
    const Real d6[6] = {deps[0], deps[1], -(deps[0] + deps[1]), deps[2], deps[3], deps[4]};
    rate = j2::effective_rate(d6, dt);
  }
  const Real p0 = -(sig[0] + sig[1]) / 3.0; // start of step (sigma_zz = 0)
  const Real s0[6] = {sig[0] + p0, sig[1] + p0, p0, sig[2], 0.0, 0.0};
  Real out[6] = {}, dep = 0;
  // sigma_zz after the return of the trial with thickness strain dzz (out, dep: that state)
  auto szz = [&](Real dzz) {
    const Real d6[6] = {deps[0], deps[1], dzz, deps[2], 0.0, 0.0};
    const Real dv = d6[0] + d6[1] + d6[2];
    for (int i = 0; i < 6; ++i) out[i] = s0[i];
    for (int i = 0; i < 3; ++i) out[i] += 2.0 * g * (d6[i] - dv / 3.0);
    out[3] += g * d6[3];
    dep = dt > 0 ? jc_return(m, g, out, eps_p, rate, temperature, vp ? dt : 0.0) : 0.0;
    const Real p = p0 - k * dv;
    for (int i = 0; i < 3; ++i) out[i] -= p;
    return out[2];
  };
  Real dzz = dzz_el;
  Real f = szz(dzz);
  if (dep > 0) {
    const Real scale = std::abs(out[0]) + std::abs(out[1]) + std::abs(out[3]) + m.jc_a;
    const Real tol = 1e-13 * scale;
    // bracket the root (f increases with dzz): step away from dzz_el by the elastic tangent's
    // estimate, doubling, until f changes sign
    const Real c = k + 4.0 * g / 3.0;
    Real step = std::max(std::abs(f) / c, 1e-300);
    Real lo = dzz, flo = f, hi = dzz, fhi = f;
    for (int it = 0; it < 200; ++it) {
      if (f > 0) {
        hi = lo, fhi = flo;
        lo = hi - step;
        flo = szz(lo);
        if (flo <= 0) break;
      } else {
        lo = hi, flo = fhi;
        hi = lo + step;
        fhi = szz(hi);
        if (fhi >= 0) break;
      }
      step *= 2.0;
    }
    // secant steps kept inside the bracket (bisection otherwise)
    for (int it = 0; it < 200; ++it) {
      dzz = fhi != flo ? hi - fhi * (hi - lo) / (fhi - flo) : 0.5 * (lo + hi);
      if (!(dzz > lo && dzz < hi)) dzz = 0.5 * (lo + hi);
      f = szz(dzz);
      if (std::abs(f) <= tol || hi - lo <= 1e-15 * (std::abs(lo) + std::abs(hi))) break;
      if (f > 0) {
        hi = dzz;
        fhi = f;
      } else {
        lo = dzz;
        flo = f;
      }
    }
  }
  sig[0] = out[0];
  sig[1] = out[1];
  sig[2] = out[3];
  deps_zz = dzz;
  if (dep > 0 && back != nullptr) {
    const Real q = std::sqrt(std::max<Real>(0.0, out[0] * out[0] - out[0] * out[1] +
                                                     out[1] * out[1] + 3.0 * out[3] * out[3]));
    back[0] = work + q * dep; // plastic work per unit volume
  }
  eps_p += dep;
  return dep;
}

} // namespace

Real update_johnson_cook_deviator(const MaterialParams& m, const Real deps[6], Real dt, Real r,
                                  Real s[6], Real hist[6], Real& eps_p) {
  if (!(dt > 0)) return 0;
  add_deviatoric_increment(m, deps, s);
  const Real temperature = m.jc_cp > 0 ? m.jc_tr + hist[0] / (m.ro * m.jc_cp) : m.jc_tr;
  const bool vp = m.vp == 1;
  const Real rate = m.jc_c != 0 && !vp ? j2::effective_rate(deps, dt) : 0.0;
  const Real dep = jc_return(m, m.g, s, eps_p, rate, temperature, vp ? dt : 0.0);
  if (dep > 0) {
    const Real sy = std::sqrt(1.5 * (s[0] * s[0] + s[1] * s[1] + s[2] * s[2] +
                                     2.0 * (s[3] * s[3] + s[4] * s[4] + s[5] * s[5])));
    hist[0] += r * sy * dep; // plastic work per unit initial volume
  }
  eps_p += dep;
  return dep;
}

namespace {

void read_johnson_cook_card(const io::Fields& h, LawReader& r) {
  Material& m = r.mat;
  read_pressure_cutoff(h, m);
  read_shear_modulus(h, m);
  if (h.real("VP") != 0 && h.real("VP") != 1)
    fail(h.loc("VP"), fmt::format("material {}: VP = {} must be 0 (the rate term at the total "
                                  "strain rate) or 1 (viscoplastic: at the plastic strain rate)",
                                  m.id, h.real("VP")));
  m.vp = h.real("VP");
  if (h.real("E") > 0) { // the shells' elastic constants (solids do not use them)
    if (!(h.real("PR") >= 0 && h.real("PR") < 0.5))
      fail(h.loc("PR"),
           fmt::format("material {}: PR = {} must lie in [0, 0.5) (shells)", m.id, h.real("PR")));
    m.law_card = std::make_shared<JohnsonCookShell>(JohnsonCookShell{h.real("E"), h.real("PR")});
    m.e = h.real("E"); // also the contact stiffness's bulk modulus (solids: none without them)
    m.pr = h.real("PR");
  }
  if (m.vp == 1 && h.real("C") < 0)
    fail(h.loc("C"), fmt::format("material {}: C = {} with VP = 1: the viscoplastic return needs "
                                 "a yield stress that does not fall with the plastic rate (C >= "
                                 "0)",
                                 m.id, h.real("C")));
  if (h.real("RATEOP") != 0)
    fail(h.loc("RATEOP"), fmt::format("material {}: RATEOP = {}: only the log-linear "
                                      "Johnson-Cook rate term (0) is supported",
                                      m.id, h.real("RATEOP")));
  m.jc_a = h.real("A");
  m.jc_b = h.real("B");
  m.jc_n = h.real("N");
  m.jc_c = h.real("C");
  m.jc_m = h.real("M");
  m.jc_tm = h.real("TM");
  m.jc_tr = h.real("TR");
  m.jc_epso = h.real("EPSO") == 0 ? 1.0 : h.real("EPSO");
  m.jc_cp = h.real("CP");
  m.jc_spall = h.real("SPALL");
  if (!(m.jc_a > 0))
    fail(h.loc("A"), fmt::format("material {}: A = {} must be positive (A < 0, a load curve, is "
                                 "not supported)",
                                 m.id, m.jc_a));
  if (!(m.jc_b >= 0))
    fail(h.loc("B"), fmt::format("material {}: B = {} must not be negative", m.id, m.jc_b));
  if (m.jc_b > 0 && !(m.jc_n > 0))
    fail(h.loc("N"), fmt::format("material {}: N = {} must be positive", m.id, m.jc_n));
  if (!(m.jc_epso > 0))
    fail(h.loc("EPSO"), fmt::format("material {}: EPSO = {} must be positive", m.id, m.jc_epso));
  if (!(m.jc_cp >= 0))
    fail(h.loc("CP"), fmt::format("material {}: CP = {} must not be negative", m.id, m.jc_cp));
  if (m.jc_cp > 0 && m.jc_tm > m.jc_tr && !(m.jc_m > 0))
    fail(h.loc("M"), fmt::format("material {}: M = {} must be positive (thermal softening: CP > "
                                 "0 and TM > TR)",
                                 m.id, m.jc_m));
  if (m.jc_spall == 2 || m.jc_spall == 3)
    r.note_ignored(h, "SPALL", "spall failure needs element erosion; p >= PC is used");
  for (std::string_view f : {"D1", "D2", "D3", "D4", "D5"})
    r.note_ignored(h, f, "the Johnson-Cook damage model (element erosion) is not supported");
  for (std::string_view f : {"EROD", "NUMINT", "K", "EPS1", "DMODEL", "C2/P/XNP/D"})
    r.note_ignored(h, f, "not supported");
}

} // namespace

const MaterialLaw& law_johnson_cook() {
  using namespace io::card_fields;
  static const MaterialLaw law{
      .kind = MaterialKind::JohnsonCook,
      .card = "*MAT_JOHNSON_COOK",
      .number = "015",
      .summary = "Johnson-Cook plasticity (hardening, rate, thermal softening): solids with EOS "
                 "pressure, shells plane stress",
      .history = 2, // effective plastic strain, plastic work (adiabatic temperature)
      .incremental = true,
      .plastic = false,
      .hyperelastic = false,
      .hydrodynamic = true,
      .rigid = false,
      .keyword =
          {.name = "*MAT_JOHNSON_COOK",
           .aliases = {"*MAT_015"},
           .options = {"TITLE", "STOCHASTIC"},
           .head = {title_card(),
                    {"Card 1",
                     {I("MID").req(), R("RO"), R("G"), R("E"), R("PR"), R("DTF"), R("VP"),
                      R("RATEOP")}},
                    {"Card 2",
                     {R("A"), R("B"), R("N"), R("C"), R("M"), R("TM"), R("TR"), R("EPSO", "1.0")}},
                    {"Card 3",
                     {R("CP"), R("PC"), R("SPALL"), R("IT"), R("D1"), R("D2"), R("D3"), R("D4")}},
                    {"Card 4",
                     {R("D5"), R("C2/P/XNP/D"), R("EROD"), R("EFMIN", "1.0E-6"), R("NUMINT"),
                      R("K"), R("EPS1"), R("DMODEL")}}},
           .summary =
               "Johnson-Cook plasticity. Solids: *PART EOSID required, shear modulus G. "
               "Shells: plane stress with E and PR (needed; no EOS: an EOSID is not used), "
               "the thickness strain such that sigma_zz = 0, transverse shear elastic. Yield "
               "(A + B eps_p^N)(1 + C ln max(rate/EPSO, 1))(1 - T*^M) with the effective "
               "total strain rate (VP = 0) or the plastic strain rate (VP = 1, viscoplastic: "
               "the return solves for the plastic increment on the surface of its own rate), T* = "
               "(T - TR)/(TM - TR) and the adiabatic temperature T = TR "
               "+ plastic work / (RO CP) (thermal softening when CP > 0 and TM > TR); accurate "
               "radial return always (IT ignored). Solid pressure from the EOS limited to p >= PC "
               "(PC "
               "= 0: no limit); SPALL 2 and 3 (spall failure) need element erosion and act as "
               "SPALL 1 (warning). RATEOP = 0 only; A < 0 (load curve) is not "
               "supported. The damage model (D1-D5) and erosion fields are ignored (warning when "
               "set); DTF is ignored."
               " _STOCHASTIC: the same card; without *DEFINE_STOCHASTIC_VARIATION (which parcae "
               "refuses) no element varies, so it is the law itself."},
      .read = read_johnson_cook_card,
      .prepare = prepare_johnson_cook,
      .update_solid = nullptr,
      .update_shell = update_johnson_cook_shell,
      .update_deviator = update_johnson_cook_deviator,
      .wave_speed = reference_wave_speed};
  return law;
}
} // namespace parcae
