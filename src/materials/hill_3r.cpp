// *MAT_HILL_3R (122) on shells: Hill's 1948 quadratic yield criterion in plane stress for a
// sheet with planar anisotropy, given by the Lankford ratios R00, R45, R90 of the rolling
// direction (material axis a), the diagonal and the transverse direction (b); isotropic
// elasticity, isotropic hardening. In the material axes, normalised to the yield stress along a:
//   f(sigma)^2 = s11^2 - 2H s11 s22 + (H + F) s22^2 + 2N s12^2 = Y(eps_p)^2,
//   H = R00/(1 + R00), F = H/R90, 2N = (R00 + R90)(1 + 2 R45) / (R90 (1 + R00)),
// so that uniaxial tension along a yields at Y with the width/thickness plastic strain ratio R00,
// along b at Y/sqrt(H + F) with the ratio R90 (and at 45 degrees with R45). R00 = R45 = R90 = 1
// is von Mises.
// Hardening HR: 1 linear, Y = P2 + Ep eps_p with P1 the tangent modulus of the stress-strain
// curve (as *MAT_003's ETAN: Ep = E P1 / (E - P1)); 2 Swift, Y = P1 (E0 + eps_p)^P2 (E0 = 0: the
// strain where E eps meets P1 eps^P2, as *MAT_018's power law); 3 the curve
// LCID (effective plastic strain -> Y, extrapolated with its end slopes). Other HR are refused.
// Material axes AOPT = 0: the element's local x axis turned by BETA and the section's ICOMP
// angles (the shell kernels turn strain and stress into them).
//
// Update: elastic predictor; if f(trial) > Y, backward Euler with associated flow
// d eps^p = d (P sigma)/f (d: the effective plastic strain increment; plastic work Y d =
// sigma : d eps^p), sigma = (1 + (d/Y) C P)^-1 sigma_trial (C the plane-stress elasticity, P the
// criterion's matrix) and the scalar condition f(sigma(d)) = Y(eps_p + d), which decreases
// strictly in d for a non-softening Y: the root is bracketed and found by the Illinois method to
// a relative yield residual of 1e-13. Through-thickness strain: elastic -nu/E (d s11 + d s22)
// plus the plastic -(d eps11^p + d eps22^p). Transverse shears are elastic.
//
// This file is the whole law; core/material_laws.def has its one line.
#include <cmath>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "materials/law_support.hpp"
#include "materials/laws.hpp"

namespace parcae {

namespace {

struct Hill3R {
  Real h = 0, f = 0, n2 = 0; ///< H, F, 2N (G = 1 - H)
  int hr = 1;
  Real sigy = 0, ep = 0;     ///< HR 1
  Real k = 0, n = 0, e0 = 0; ///< HR 2
  GlobalId lcid = 0;         ///< HR 3
  DiscreteCurve curve;
  Real beta = 0; ///< radians
};

void read_card(const io::Fields& h, LawReader& r) {
  Material& m = r.mat;
  const GlobalId id = m.id;
  read_elastic(h, m);
  auto p = std::make_shared<Hill3R>();
  const Real r00 = h.real("R00"), r45 = h.real("R45"), r90 = h.real("R90");
  for (const char* f : {"R00", "R45", "R90"})
    if (!(h.real(f) > 0))
      fail(h.loc(f), fmt::format("material {}: the Lankford ratio {} = {} must be positive", id, f,
                                 h.real(f)));
  p->h = r00 / (1 + r00);
  p->f = p->h / r90;
  p->n2 = (r00 + r90) * (1 + 2 * r45) / (r90 * (1 + r00));
  const Real hr = h.blank("HR") || h.real("HR") == 0 ? 1.0 : h.real("HR");
  const Real p1 = h.real("P1"), p2 = h.real("P2");
  if (hr == 1) {
    p->sigy = p2;
    if (!(p2 > 0))
      fail(h.loc("P2"), fmt::format("material {}: HR = 1: the yield stress P2 = {} must be "
                                    "positive",
                                    id, p2));
    if (!(p1 >= 0 && p1 < m.e))
      fail(h.loc("P1"), fmt::format("material {}: HR = 1: the tangent modulus P1 = {} must lie in "
                                    "[0, E)",
                                    id, p1));
    p->ep = m.e * p1 / (m.e - p1);
  } else if (hr == 2) {
    p->k = p1;
    p->n = p2;
    p->e0 = h.real("E0");
    if (!(p1 > 0))
      fail(h.loc("P1"), fmt::format("material {}: HR = 2: the strength coefficient P1 = {} must "
                                    "be positive",
                                    id, p1));
    if (!(p2 > 0 && p2 < 1))
      fail(h.loc("P2"),
           fmt::format("material {}: HR = 2: the exponent P2 = {} must lie in (0, 1)", id, p2));
    if (p->e0 < 0)
      fail(h.loc("E0"),
           fmt::format("material {}: HR = 2: E0 = {} must not be negative", id, p->e0));
    if (p->e0 == 0) // the strain where the elastic line E eps meets P1 eps^P2
      p->e0 = std::pow(m.e / p->k, 1.0 / (p->n - 1.0));
  } else if (hr == 3) {
    p->lcid = h.id("LCID");
    if (p->lcid <= 0)
      fail(h.loc("LCID"), fmt::format("material {}: HR = 3: LCID = {} must name the hardening "
                                      "curve",
                                      id, p->lcid));
  } else {
    fail(h.loc("HR"), fmt::format("material {}: HR = {}: supported are 1 (linear), 2 (Swift) and "
                                  "3 (curve LCID)",
                                  id, hr));
  }
  p->hr = static_cast<int>(hr);
  p->beta = read_element_axes_angle(h, id);
  m.law_card = std::move(p);
}

void prepare(const Material& mat, const Model& model, MaterialParams& m) {
  prepare_elastic_constants(mat, m);
  auto p = std::make_shared<Hill3R>(mat.card<Hill3R>());
  if (p->hr == 3) {
    p->curve = discrete_curve(mat, model, p->lcid, "LCID (yield stress against plastic strain)");
    if (!(p->curve.eval(0) > 0))
      fail_card(mat,
                fmt::format("LCID curve {}: the initial yield stress must be positive", p->lcid));
  }
  m.shell_angle = p->beta;
  m.sigy = p->hr == 1 ? p->sigy : p->hr == 2 ? p->k * std::pow(p->e0, p->n) : p->curve.eval(0);
  m.law_data = std::move(p);
}

/// Y(eps_p).
Real yield(const Hill3R& p, Real eps_p) {
  if (p.hr == 1) return p.sigy + p.ep * eps_p;
  if (p.hr == 2) return p.k * std::pow(p.e0 + eps_p, p.n);
  return p.curve.eval(eps_p);
}

/// f(sigma) for the in-plane stress s = [s11 s22 s12].
Real hill(const Hill3R& p, const Real s[3]) {
  const Real q =
      s[0] * s[0] - 2 * p.h * s[0] * s[1] + (p.h + p.f) * s[1] * s[1] + p.n2 * s[2] * s[2];
  return std::sqrt(std::max(q, 0.0));
}

/// sigma = (1 + x C P)^-1 t (3 x 3, Cramer's rule).
void relax(const Hill3R& p, Real c, Real nu, Real g, Real x, const Real t[3], Real s[3]) {
  // C = [[c, c nu, 0], [c nu, c, 0], [0, 0, g]], P = [[1, -H, 0], [-H, H + F, 0], [0, 0, 2N]]
  const Real a11 = 1 + x * c * (1 - nu * p.h), a12 = x * c * (-p.h + nu * (p.h + p.f));
  const Real a21 = x * c * (nu - p.h), a22 = 1 + x * c * (-nu * p.h + p.h + p.f);
  const Real det = a11 * a22 - a12 * a21;
  s[0] = (a22 * t[0] - a12 * t[1]) / det;
  s[1] = (a11 * t[1] - a21 * t[0]) / det;
  s[2] = t[2] / (1 + x * g * p.n2);
}

Real update_shell(const MaterialParams& m, const Real deps[5], Real /*dt*/, Real sig[5],
                  Real /*back*/[3], Real& eps_p, Real& deps_zz) {
  const Hill3R& p = m.law_params<Hill3R>();
  const Real nu = m.nu, c = m.e / (1 - nu * nu), g = m.g;
  sig[3] += g * deps[3];
  sig[4] += g * deps[4];
  const Real old[2] = {sig[0], sig[1]};
  const Real t[3] = {sig[0] + c * (deps[0] + nu * deps[1]), sig[1] + c * (deps[1] + nu * deps[0]),
                     sig[2] + g * deps[2]};
  const Real y0 = yield(p, eps_p);
  const Real ft = hill(p, t);
  Real s[3] = {t[0], t[1], t[2]};
  Real d = 0;
  if (ft > y0) {
    // r(d) = f(sigma(d)) - Y(eps_p + d): positive at 0, negative at hi; s and y are those of
    // the last d evaluated
    Real y = y0;
    auto residual = [&](Real dd) {
      y = yield(p, eps_p + dd);
      relax(p, c, nu, g, dd / y, t, s);
      return hill(p, s) - y;
    };
    Real lo = 0, rlo = ft - y0;
    Real hi = (ft - y0) / std::min(c * (1 - nu), g), rhi = residual(hi);
    for (int k = 0; k < 200 && rhi > 0; ++k) {
      lo = hi;
      rlo = rhi;
      hi *= 2;
      rhi = residual(hi);
    }
    // Illinois (regula falsi that halves the stale end's residual)
    int side = 0;
    for (int it = 0; it < 300; ++it) {
      d = (lo * rhi - hi * rlo) / (rhi - rlo);
      const Real rd = residual(d);
      if (std::abs(rd) <= 1e-13 * y || hi - lo <= 1e-16 * hi) break;
      if (rd > 0) {
        lo = d;
        rlo = rd;
        if (side == 1) rhi *= 0.5;
        side = 1;
      } else {
        hi = d;
        rhi = rd;
        if (side == -1) rlo *= 0.5;
        side = -1;
      }
    }
  }
  sig[0] = s[0];
  sig[1] = s[1];
  sig[2] = s[2];
  // plastic in-plane strain: the total less the elastic increment of the new stress
  const Real ds0 = s[0] - old[0], ds1 = s[1] - old[1];
  const Real de0 = (ds0 - nu * ds1) / m.e, de1 = (ds1 - nu * ds0) / m.e;
  const Real dp0 = deps[0] - de0, dp1 = deps[1] - de1;
  deps_zz = -nu / m.e * (ds0 + ds1) - (d > 0 ? dp0 + dp1 : 0.0);
  eps_p += d;
  return d;
}

} // namespace

const MaterialLaw& law_hill_3r() {
  using namespace io::card_fields;
  static const MaterialLaw law{
      .kind = MaterialKind::Hill3R,
      .card = "*MAT_HILL_3R",
      .number = "122",
      .summary = "Hill 1948 plane-stress plasticity with planar anisotropy (R00, R45, R90), "
                 "linear, Swift or tabulated isotropic hardening; shells only",
      .history = 1, // effective plastic strain
      .incremental = true,
      .plastic = true,
      .oriented = true,
      .keyword =
          {.name = "*MAT_HILL_3R",
           .aliases = {"*MAT_122"},
           .options = {"TITLE"},
           .head = {title_card(),
                    {"Card 1",
                     {I("MID").req(), R("RO"), R("E"), R("PR"), R("HR", "1.0"), R("P1"), R("P2")}},
                    {"Card 2", {R("R00"), R("R45"), R("R90"), I("LCID"), R("E0")}},
                    {"Card 3", {R("AOPT")}},
                    {"Card 4", reals({"XP", "YP", "ZP", "A1", "A2", "A3"})},
                    {"Card 5", reals({"V1", "V2", "V3", "D1", "D2", "D3", "BETA"})}},
           .summary =
               "Hill 1948 plane-stress plasticity with planar anisotropy (shells only), in the "
               "material axes: s11^2 - 2H s11 s22 + (H+F) s22^2 + 2N s12^2 = Y^2 with H = "
               "R00/(1+R00), F = H/R90, 2N = (R00+R90)(1+2R45)/(R90(1+R00)); associated flow "
               "(the Lankford ratios R00, R45, R90 in uniaxial tension at 0, 45, 90 degrees). "
               "Hardening HR 1: Y = P2 + Ep eps_p, P1 the tangent modulus (Ep = E P1/(E - P1)); "
               "2: Swift, Y = P1 (E0 + eps_p)^P2 (E0 = 0: where E eps meets P1 eps^P2); 3: the "
               "curve LCID. Axes AOPT = 0: the "
               "element's local x axis turned by BETA and *SECTION_SHELL ICOMP = 1's angles. "
               "Refused at the field: other HR and AOPT, non-positive R values. XP-ZP, A1-A3, "
               "V1-V3, D1-D3 are unused. Solids are refused (no solid update)."},
      .read = read_card,
      .prepare = prepare,
      .update_shell = update_shell,
      .wave_speed = reference_wave_speed};
  return law;
}

} // namespace parcae
