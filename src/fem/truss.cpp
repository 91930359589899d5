// Truss elements: axial force from a 1D stress update (see truss.hpp).
#include "fem/truss.hpp"
#include "fem/mass_scaling.hpp"

#include <algorithm>
#include <cmath>

namespace parcae {

void TrussBlock::init(std::size_t n) {
  area.resize(n, 0.0);
  l0.resize(n, 0.0);
  for (auto* v : {&sig, &back, &eps_p, &e_int, &e_hg, &force}) v->assign(n, 0.0);
  failed.assign(n, 0);
  density_scale.assign(n, 1.0);
}

Real truss_length(const TrussBlock& blk, std::size_t e, std::span<const Real> x) {
  const auto a = static_cast<std::size_t>(blk.conn[e][0]);
  const auto b = static_cast<std::size_t>(blk.conn[e][1]);
  const Real dx = x[3 * b] - x[3 * a], dy = x[3 * b + 1] - x[3 * a + 1],
             dz = x[3 * b + 2] - x[3 * a + 2];
  return std::sqrt(dx * dx + dy * dy + dz * dz);
}

Real truss_critical_dt(const MaterialParams& mat, const TrussBlock& blk, std::size_t e,
                       std::span<const Real> x) {
  if (blk.discrete()) return blk.dt_fixed[e]; // not mass-scaled: no element mass
  const Real c = std::sqrt(mat.e / mat.ro);
  return mass_scaled_dt(truss_length(blk, e, x) / c, blk.density_scale, e);
}

Real update_stress_truss(const MaterialParams& mat, Real deps, Real dt, Real& sig, Real& back,
                         Real& eps_p) {
  sig += mat.e * deps; // elastic trial
  if (!mat.plastic()) return sig;
  const Real rate = dt > 0 ? std::abs(deps) / dt : 0.0;
  const Real xi = sig - back;
  const Real q = std::abs(xi);
  if (q <= yield_stress(mat, eps_p, rate)) return sig;
  // 1D radial return: |xi| - (E + Hk) dep = R(eps_p + dep), Hk = (1 - beta) Ep for *MAT_003.
  const Real hk = (1.0 - mat.beta) * mat.ep;
  Real dep = 0;
  for (int it = 0; it < 30; ++it) {
    const Real r = yield_stress(mat, eps_p + dep, rate);
    const Real g = q - (mat.e + hk) * dep - r;
    const Real h = std::max(1e-12 * mat.e, mat.e * 1e-8);
    const Real slope = (yield_stress(mat, eps_p + dep + h / mat.e, rate) - r) / (h / mat.e);
    const Real step = g / (mat.e + hk + std::max(slope, 0.0));
    dep += step;
    if (dep < 0) dep = 0;
    if (std::abs(step) <= 1e-14 * (1.0 + dep)) break;
  }
  const Real sgn = xi >= 0 ? 1.0 : -1.0;
  sig -= mat.e * dep * sgn;
  back += hk * dep * sgn;
  eps_p += dep;
  return sig;
}

namespace {

/// Element e at x: its axis d = x(N2) - x(N1), its length, and its length at the start of the
/// step (at x - dt v; the length itself when dt = 0).
struct AxialGeometry {
  Real d[3];
  Real len = 0, len0 = 0;
};

AxialGeometry axial_geometry(const TrussBlock& blk, std::size_t e, std::span<const Real> x,
                             std::span<const Real> v, Real dt) {
  const auto a = static_cast<std::size_t>(blk.conn[e][0]);
  const auto b = static_cast<std::size_t>(blk.conn[e][1]);
  AxialGeometry g;
  Real dv[3];
  for (int i = 0; i < 3; ++i) {
    g.d[i] = x[3 * b + i] - x[3 * a + i];
    dv[i] = v[3 * b + i] - v[3 * a + i];
  }
  g.len = std::sqrt(g.d[0] * g.d[0] + g.d[1] * g.d[1] + g.d[2] * g.d[2]);
  g.len0 = g.len;
  if (dt > 0) {
    Real s[3];
    for (int i = 0; i < 3; ++i) s[i] = g.d[i] - dt * dv[i];
    g.len0 = std::sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
  }
  return g;
}

/// The corner forces of axial force n (forces the element exerts on its nodes, with the
/// solver's sign, f = f_ext - corner: corner 1 gets -n e, corner 2 +n e, e = d / len).
void write_axial_forces(std::span<Real> fe, std::size_t e, Real n, const AxialGeometry& g) {
  const Real inv = g.len > 0 ? 1.0 / g.len : 0.0;
  for (int i = 0; i < 3; ++i) {
    fe[6 * e + i] = -n * g.d[i] * inv;
    fe[6 * e + 3 + i] = n * g.d[i] * inv;
  }
}

/// Discrete springs and dampers: the axial force S F(dl, v) of their law (see truss.hpp).
TrussPassResult compute_discrete_forces(const MaterialParams& mat, TrussBlock& blk,
                                        std::size_t begin, std::size_t end, std::span<const Real> x,
                                        std::span<const Real> v, Real dt, std::span<Real> fe) {
  TrussPassResult r;
  const auto force_of = mat.law().discrete_force;
  for (std::size_t e = begin; e < end; ++e) {
    const AxialGeometry g = axial_geometry(blk, e, x, v, dt);
    if (dt > 0) {
      const Real dl = g.len - g.len0;
      Real hist[2] = {blk.back[e], blk.eps_p[e]};
      const Real f_old = blk.sig[e];
      blk.sig[e] = force_of(mat, g.len - blk.l0[e] + blk.offset[e], dl / dt, hist);
      blk.back[e] = hist[0];
      blk.eps_p[e] = hist[1];
      blk.e_int[e] += 0.5 * (f_old + blk.sig[e]) * blk.area[e] * dl;
    }
    const Real n = blk.sig[e] * blk.area[e];
    blk.force[e] = n;
    write_axial_forces(fe, e, n, g);
    if (blk.dt_fixed[e] < r.min_dt) {
      r.min_dt = blk.dt_fixed[e];
      r.min_dt_element = static_cast<std::int64_t>(e);
    }
  }
  return r;
}

} // namespace

TrussPassResult compute_truss_forces(const MaterialParams& mat, TrussBlock& blk, std::size_t begin,
                                     std::size_t end, std::span<const Real> x,
                                     std::span<const Real> v, Real dt, std::span<Real> fe) {
  if (blk.discrete()) return compute_discrete_forces(mat, blk, begin, end, x, v, dt, fe);
  TrussPassResult r;
  const Real c = std::sqrt(mat.e / mat.ro);
  for (std::size_t e = begin; e < end; ++e) {
    const AxialGeometry g = axial_geometry(blk, e, x, v, dt);
    if (dt > 0) {
      // lengths at the start and the end of the step: the strain increment is dL / L_mid
      const Real dl = g.len - g.len0;
      const Real deps = dl / (0.5 * (g.len + g.len0));
      const Real sig_old = blk.sig[e];
      const Real sig_new =
          update_stress_truss(mat, deps, dt, blk.sig[e], blk.back[e], blk.eps_p[e]);
      blk.e_int[e] += 0.5 * (sig_old + sig_new) * blk.area[e] * dl;
    }
    const Real n = blk.sig[e] * blk.area[e];
    blk.force[e] = n;
    write_axial_forces(fe, e, n, g);
    const Real dte = g.len / c;
    if (dte < r.min_dt) {
      r.min_dt = dte;
      r.min_dt_element = static_cast<std::int64_t>(e);
    }
  }
  return r;
}

} // namespace parcae
