// *MAT_SIMPLIFIED_RUBBER/FOAM (181), rubber form (PR = 0), on solids: a hyperelastic rubber
// defined by its uniaxial test curve alone, after Kolling, Du Bois, Benson and Feng (2007),
// the formulation LS-DYNA's manual gives for material 181.
//  - The curve LC gives the force against the change of the gauge length; the nominal stress of
//    the stretch lambda is f(lambda) = LC(SGL (lambda - 1)) / (SW ST) (so SGL = SW = ST = 1 reads
//    it as nominal stress against engineering strain). It should cover compression (negative
//    branch) and tension; beyond its ends its last segments are extended.
//  - Valanis-Landel strain energy W = sum_i w(lambda_i) of the deviatoric principal stretches
//    lambda_i = J^(-1/3) l_i, plus U(J) = KM/2 (ln J)^2. For an incompressible bar in tension
//    f(lambda) = w'(lambda) - lambda^(-3/2) w'(lambda^(-1/2)), which the series
//      w'(lambda) = sum_k c_k f(lambda_k),  lambda_0 = lambda, lambda_(k+1) = lambda_k^(-1/2),
//      c_0 = 1, c_(k+1) = c_k lambda_k^(-3/2)
//    inverts (lambda_k -> 1 and f(1) = 0). w' is tabulated at set-up on a fine grid of ln lambda
//    and w integrated on it.
//  - Kirchhoff principal stresses tau_i = lambda_i w'(lambda_i) - 1/3 sum_j lambda_j w'(lambda_j)
//    + KM ln J; Cauchy sigma = sum_i tau_i / J n_i n_i^T (n_i the directions of F F^T).
// A nearly incompressible bar (KM >> the shear modulus) in uniaxial tension or compression thus
// gives back the curve. The time step takes sqrt((KM + 4/3 G) / RO), G the largest tangent shear
// modulus (a third of the curve's steepest nominal slope); E and PR are the small-strain ones.
//
// Refused at their field: a table (rate effects), PR other than 0 (the foam form), G and SIGF
// (frictional damping), REF, LCUNLD and HU < 1 (hysteresis), VISCO and the viscoelastic terms
// GI. Read and not applied, with a note: MU (viscous damping; LS-DYNA's default 0.1, noted then
// too). Shells and beams are refused at set-up.
//
// This file is the whole law; core/material_laws.def has its one line.
#include <algorithm>
#include <cmath>
#include <memory>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "materials/law_support.hpp"
#include "materials/laws.hpp"

namespace parcae {

namespace {

struct SimplifiedRubber {
  Real km = 0, sgl = 1, sw = 1, st = 1;
  GlobalId lc = 0;
  // prepare: w'(lambda) and w(lambda) on a uniform grid of s = ln lambda
  DiscreteCurve curve;
  Real s0 = 0, ds = 0;
  std::vector<Real> dw, w;
  Real w1 = 0;    ///< the grid's w at lambda = 1 (subtracted: no energy undeformed)
  Real g_max = 0; ///< the largest tangent shear modulus
};

void read_card(const io::Fields& h, LawReader& r) {
  Material& m = r.mat;
  auto p = std::make_shared<SimplifiedRubber>();
  p->km = h.real("KM");
  p->sgl = h.real("SGL");
  p->sw = h.real("SW");
  p->st = h.real("ST");
  p->lc = h.id("LC/TBID");
  if (!(p->km > 0))
    fail(h.loc("KM"),
         fmt::format("material {}: KM = {}: the bulk modulus must be positive", m.id, p->km));
  for (std::string_view f : {"SGL", "SW", "ST"})
    if (!(h.real(f) > 0))
      fail(h.loc(f), fmt::format("material {}: {} = {} must be positive (SGL = SW = ST = 1: the "
                                 "curve is nominal stress against engineering strain)",
                                 m.id, f, h.real(f)));
  if (p->lc <= 0)
    fail(h.loc("LC/TBID"), fmt::format("material {}: LC/TBID = {}: the uniaxial test curve is "
                                       "required",
                                       m.id, p->lc));
  auto refuse_unless = [&](std::string_view f, Real ok, std::string_view what) {
    if (h.find(f) != nullptr && h.real(f) != ok)
      fail(h.loc(f), fmt::format("material {}: {} = {}: {}", m.id, f, h.real(f), what));
  };
  refuse_unless("PR", 0,
                "the foam form (PR > 0) and the viscosity form (PR < 0) are not "
                "supported (PR = 0: rubber)");
  refuse_unless("G", 0, "frictional damping (G, SIGF) is not supported");
  refuse_unless("SIGF", 0, "frictional damping (G, SIGF) is not supported");
  refuse_unless("REF", 0, "a reference geometry is not supported");
  refuse_unless("LCUNLD", 0, "an unloading curve (hysteresis) is not supported");
  refuse_unless("HU", 1, "hysteresis on unloading (HU < 1) is not supported (HU = 1: none)");
  refuse_unless("VISCO", 0, "the viscoelastic form is not supported");
  for (const io::Fields* row : r.rows)
    if (row->real("GI") != 0)
      fail(row->loc("GI"), fmt::format("material {}: GI = {}: viscoelastic terms are not "
                                       "supported",
                                       m.id, row->real("GI")));
  if (h.real("MU") != 0) // LS-DYNA's default 0.1 when blank: a note for it too
    r.note(h.loc("MU"), fmt::format("MU = {}{}: viscous damping of the rubber is not applied "
                                    "(ignored)",
                                    h.real("MU"), h.blank("MU") ? " (the default)" : ""));
  // What the contact stiffness reads (K = E / (3 (1 - 2 PR))): KM, as LS-DYNA's manual says KM
  // sets the contact penalty. The kernel's small-strain E and PR come from the curve (prepare).
  m.e = 3 * p->km;
  m.pr = 0;
  m.law_card = std::move(p);
}

/// Nominal stress of the stretch lambda from the curve.
Real nominal(const SimplifiedRubber& p, Real lambda) {
  return p.curve.eval(p.sgl * (lambda - 1)) / (p.sw * p.st);
}

/// w'(lambda) by the series (to round-off: the terms fall as the distance of lambda_k from 1).
Real dw_series(const SimplifiedRubber& p, Real lambda) {
  Real sum = 0, c = 1, l = lambda;
  for (int k = 0; k < 200; ++k) {
    const Real term = c * nominal(p, l);
    sum += term;
    if (std::abs(l - 1) < 1e-14) break;
    c *= std::pow(l, -1.5);
    l = 1 / std::sqrt(l);
  }
  return sum;
}

constexpr int kGrid = 8192;

Real dw_at(const SimplifiedRubber& p, Real lambda, Real* w);

void prepare(const Material& mat, const Model& model, MaterialParams& m) {
  auto p = std::make_shared<SimplifiedRubber>(mat.card<SimplifiedRubber>());
  if (model.find_table(p->lc) != nullptr)
    fail_card(mat, fmt::format("LC/TBID = {} is a table (rate effects): not supported; give one "
                               "curve",
                               p->lc));
  p->curve = discrete_curve(mat, model, p->lc, "LC (force against the change of gauge length)");
  const DiscreteCurve& c = p->curve;
  if (c.x.size() < 2) fail_card(mat, fmt::format("LC curve {} needs two points at least", p->lc));
  if (std::abs(c.eval(0)) > 1e-9 * c.max_abs())
    fail_card(mat, fmt::format("LC curve {}: the force at zero elongation is {} (it must pass "
                               "through the origin)",
                               p->lc, c.eval(0)));
  // the grid: the curve's stretches, their inverse square roots (the series' second terms),
  // widened by half on each side
  const Real l_lo = std::max<Real>(1 + c.x.front() / p->sgl, 0.05);
  const Real l_hi = std::max<Real>(1 + c.x.back() / p->sgl, 1.05);
  const Real s_lo = std::min({std::log(l_lo), -0.5 * std::log(l_hi), -0.05});
  const Real s_hi = std::max({std::log(l_hi), -0.5 * std::log(l_lo), 0.05});
  p->s0 = s_lo - 0.5 * (s_hi - s_lo);
  p->ds = 2 * (s_hi - s_lo) / (kGrid - 1);
  p->dw.resize(kGrid);
  p->w.resize(kGrid);
  for (int i = 0; i < kGrid; ++i) p->dw[i] = dw_series(*p, std::exp(p->s0 + i * p->ds));
  // w(lambda) = int_1^lambda w'(l) dl, dl = l ds: trapezoids from the grid point nearest 1
  const int i1 = static_cast<int>(std::lround(-p->s0 / p->ds));
  const Real l1 = std::exp(p->s0 + i1 * p->ds);
  p->w[i1] = 0.5 * (dw_series(*p, 1.0) + p->dw[i1]) * (l1 - 1); // from exactly 1
  for (int i = i1 + 1; i < kGrid; ++i) {
    const Real la = std::exp(p->s0 + (i - 1) * p->ds), lb = std::exp(p->s0 + i * p->ds);
    p->w[i] = p->w[i - 1] + 0.5 * (p->dw[i - 1] + p->dw[i]) * (lb - la);
  }
  for (int i = i1 - 1; i >= 0; --i) {
    const Real la = std::exp(p->s0 + i * p->ds), lb = std::exp(p->s0 + (i + 1) * p->ds);
    p->w[i] = p->w[i + 1] - 0.5 * (p->dw[i] + p->dw[i + 1]) * (lb - la);
  }
  p->w1 = 0;
  dw_at(*p, 1.0, &p->w1);
  // small-strain constants: E = f'(1) (incompressible), G = E / 3; the largest tangent shear
  // modulus from the curve's steepest nominal slope
  const Real e0 = (nominal(*p, 1 + 1e-6) - nominal(*p, 1 - 1e-6)) / 2e-6;
  if (!(e0 > 0))
    fail_card(mat, fmt::format("LC curve {}: the rubber's small-strain modulus is {} (the curve "
                               "must rise through the origin)",
                               p->lc, e0));
  p->g_max = std::max(e0, c.max_slope() * p->sgl / (p->sw * p->st)) / 3;
  const Real g0 = e0 / 3;
  m.g = g0;
  m.k = p->km;
  m.lambda = p->km - 2.0 / 3.0 * g0;
  m.e = 9 * p->km * g0 / (3 * p->km + g0);
  m.nu = (3 * p->km - 2 * g0) / (2 * (3 * p->km + g0));
  m.law_data = std::move(p);
}

/// w'(lambda) and w(lambda) from the grid (linear in s = ln lambda); off the grid by the series
/// (and w by trapezoids from the grid's end).
Real dw_at(const SimplifiedRubber& p, Real lambda, Real* w) {
  const Real s = std::log(lambda);
  const Real u = (s - p.s0) / p.ds;
  if (u >= 0 && u <= kGrid - 1) {
    const int i = std::min(static_cast<int>(u), kGrid - 2);
    const Real t = u - i;
    if (w != nullptr) {
      // exact integral of the linear-in-s w' over [s_i, s]: trapezoid in lambda is enough at
      // this grid spacing
      const Real li = std::exp(p.s0 + i * p.ds);
      const Real dwl = (1 - t) * p.dw[i] + t * p.dw[i + 1];
      *w = p.w[i] + 0.5 * (p.dw[i] + dwl) * (lambda - li);
    }
    return (1 - t) * p.dw[i] + t * p.dw[i + 1];
  }
  const Real d = dw_series(p, lambda);
  if (w != nullptr) {
    const int i = u < 0 ? 0 : kGrid - 1;
    const Real li = std::exp(p.s0 + i * p.ds);
    *w = p.w[i] + 0.5 * (p.dw[i] + d) * (lambda - li);
  }
  return d;
}

Real stress(const MaterialParams& m, const Real h[3][3], Real sig[6]) {
  const SimplifiedRubber& p = m.law_params<SimplifiedRubber>();
  const Real det = deformation_det(h);
  if (!(det > 0)) return det;
  Real lam[3], n[3][3];
  principal_stretches(h, lam, n);
  const Real jr = std::cbrt(det);
  Real t[3], mean = 0;
  for (int k = 0; k < 3; ++k) {
    const Real lb = lam[k] / jr;
    t[k] = lb * dw_at(p, lb, nullptr);
    mean += t[k] / 3;
  }
  const Real vol = p.km * std::log(det);
  for (Real& x : t) x = (x - mean + vol) / det;
  tensor_from_principal(t, n, sig);
  return det;
}

Real energy(const MaterialParams& m, const Real h[3][3]) {
  const SimplifiedRubber& p = m.law_params<SimplifiedRubber>();
  const Real det = deformation_det(h);
  if (!(det > 0)) return 0;
  Real lam[3], n[3][3];
  principal_stretches(h, lam, n);
  const Real jr = std::cbrt(det);
  Real w = 0;
  for (Real l : lam) {
    Real wi = 0;
    dw_at(p, l / jr, &wi);
    w += wi - p.w1;
  }
  const Real lj = std::log(det);
  return w + 0.5 * p.km * lj * lj;
}

Real wave_speed(const MaterialParams& m) {
  if (m.ro <= 0) return 0;
  const auto& p = m.law_params<SimplifiedRubber>();
  return std::sqrt((p.km + 4.0 / 3.0 * p.g_max) / m.ro);
}

} // namespace

const MaterialLaw& law_simplified_rubber() {
  using namespace io::card_fields;
  static const MaterialLaw law{
      .kind = MaterialKind::SimplifiedRubber,
      .card = "*MAT_SIMPLIFIED_RUBBER/FOAM",
      .number = "181",
      .summary = "simplified rubber (solids): hyperelastic from its uniaxial test curve "
                 "(Valanis-Landel), bulk modulus KM",
      .history = 0,
      .incremental = false,
      .plastic = false,
      .hyperelastic = true,
      .hydrodynamic = false,
      .rigid = false,
      .keyword = {.name = "*MAT_SIMPLIFIED_RUBBER/FOAM",
                  .aliases = {"*MAT_181", "*MAT_SIMPLIFIED_RUBBER"},
                  .options = {"TITLE", "LOG_LOG_INTERPOLATION"},
                  .head = {title_card(),
                           {"Card 1",
                            {I("MID").req(), R("RO"), R("KM"), R("MU", "0.1"), R("G"), R("SIGF"),
                             R("REF"), R("PRTEN")}},
                           {"Card 2",
                            {R("SGL"), R("SW"), R("ST"), I("LC/TBID"), R("TENSION", "-1.0"),
                             R("RTYPE"), R("AVGOPT"), R("PR")}},
                           {"Card 3 (optional)",
                            {I("LCUNLD"), R("HU", "1.0"), R("SHAPE"), R("STOL"), R("VISCO"),
                             R("HISOUT")}}},
                  .rows = {{"Viscoelastic terms (optional), repeated",
                            {R("GI"), R("BETAI"), I("VFLAG")}}},
                  .summary =
                      "Simplified rubber on solids (PR = 0): hyperelastic with the "
                      "Valanis-Landel energy of the deviatoric principal stretches, found from "
                      "the uniaxial curve LC (force against change of gauge length; nominal "
                      "stress LC(SGL (lambda - 1)) / (SW ST)) so that a nearly incompressible "
                      "bar gives the curve back, and KM/2 (ln J)^2. Time step from KM and the "
                      "curve's steepest slope. Refused: a table for LC/TBID, PR other than 0 "
                      "(foam), G and SIGF (frictional damping), REF, LCUNLD, HU < 1, VISCO and "
                      "GI terms. MU (viscous damping; LS-DYNA's default 0.1) is read and not "
                      "applied (a note says so). TENSION, RTYPE, AVGOPT (tables), PRTEN "
                      "(shells), SHAPE, STOL, HISOUT are not used. Shells are refused."},
      .read = read_card,
      .prepare = prepare,
      .update_solid = nullptr,
      .update_shell = nullptr,
      .update_deviator = nullptr,
      .wave_speed = wave_speed,
      .hyper_stress = stress,
      .hyper_energy = energy};
  return law;
}

} // namespace parcae
