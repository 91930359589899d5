#include "solvers/implicit/material_point.hpp"

#include <cmath>
#include <fmt/format.h>

#include "core/error.hpp"

namespace parcae::implicit {

Tangent elastic_tangent(double e, double nu) {
  const double g = e / (2 * (1 + nu)), lam = e * nu / ((1 + nu) * (1 - 2 * nu));
  Tangent d{};
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) d[i * 6 + j] = lam;
    d[i * 6 + i] = lam + 2 * g;
    d[(i + 3) * 6 + i + 3] = g;
  }
  return d;
}

PointLaw point_law(const Model& model, const Material& mat) {
  PointLaw l;
  l.e = mat.e;
  l.nu = mat.pr;
  l.rho = mat.ro;
  const auto where = [&] { return fmt::format("*MAT {} ({})", mat.id, mat.title); };
  switch (mat.kind) {
  case MaterialKind::Elastic:
    break;
  case MaterialKind::PlasticKinematic:
  case MaterialKind::PiecewiseLinear:
    l.kind = PointLaw::Kind::Plastic;
    l.sigy = mat.sigy;
    if (mat.etan >= mat.e)
      throw InputError(mat.loc,
                       fmt::format("{}: ETAN = {} must be below E = {}", where(), mat.etan, mat.e));
    l.h = mat.e * mat.etan / (mat.e - mat.etan);
    l.beta = mat.kind == MaterialKind::PlasticKinematic ? mat.beta : 1.0;
    if (mat.kind == MaterialKind::PiecewiseLinear && mat.lcss != 0) {
      if (model.find_table(mat.lcss) != nullptr)
        throw InputError(mat.loc, fmt::format("{}: LCSS {} is a *DEFINE_TABLE (yield curves over "
                                              "the strain rate); strain-rate effects are not "
                                              "supported by the implicit solver (give a curve)",
                                              where(), mat.lcss));
      l.curve = model.find_curve(mat.lcss);
      if (l.curve == nullptr)
        throw InputError(mat.loc, fmt::format("{}: LCSS {} is not defined", where(), mat.lcss));
    }
    if (mat.src != 0 || mat.lcsr != 0)
      throw InputError(mat.loc, fmt::format("{}: strain-rate effects are not supported by the "
                                            "implicit solver (set SRC/C and LCSR to 0)",
                                            where()));
    break;
  default:
    throw InputError(mat.loc, fmt::format("{}: this material is not supported by the implicit "
                                          "solver (it has *MAT_001, *MAT_003, *MAT_024)",
                                          where()));
  }
  if (!(l.e > 0) || !(l.nu > -1 && l.nu < 0.5))
    throw InputError(mat.loc, fmt::format("{}: needs E > 0 and -1 < PR < 0.5", where()));
  return l;
}

namespace {

/// Yield stress and its slope at effective plastic strain ep (isotropic part).
void yield(const PointLaw& law, double ep, double& sy, double& dsy) {
  if (law.curve) {
    const Curve& c = *law.curve;
    sy = c.eval(ep);
    std::size_t i = 1;
    while (i + 1 < c.x.size() && c.x[i] < ep) ++i;
    dsy = (ep >= c.x.back() || ep < c.x.front()) ? 0.0
                                                 : (c.y[i] - c.y[i - 1]) / (c.x[i] - c.x[i - 1]);
    return;
  }
  sy = law.sigy + law.beta * law.h * ep;
  dsy = law.beta * law.h;
}

} // namespace

void update_point(const PointLaw& law, const PointState& old, const Voigt& eps, PointState& now,
                  Voigt& stress, Tangent& d) {
  d = elastic_tangent(law.e, law.nu);
  now = old;
  Voigt ee{};
  for (int i = 0; i < 6; ++i) ee[i] = eps[i] - old.eps_p[i];
  for (int i = 0; i < 6; ++i) {
    stress[i] = 0;
    for (int j = 0; j < 6; ++j) stress[i] += d[i * 6 + j] * ee[j];
  }
  if (law.kind == PointLaw::Kind::Elastic) return;
  const double g = law.shear(), k = law.bulk();
  const double p = (stress[0] + stress[1] + stress[2]) / 3;
  Voigt xi{};
  for (int i = 0; i < 6; ++i) xi[i] = stress[i] - (i < 3 ? p : 0) - old.back[i];
  const double norm = std::sqrt(xi[0] * xi[0] + xi[1] * xi[1] + xi[2] * xi[2] +
                                2 * (xi[3] * xi[3] + xi[4] * xi[4] + xi[5] * xi[5]));
  const double hk = law.curve ? 0.0 : (1 - law.beta) * law.h; // kinematic modulus
  const double r23 = std::sqrt(2.0 / 3.0);
  double sy = 0, dsy = 0;
  yield(law, old.epsp, sy, dsy);
  if (norm - r23 * sy <= 1e-12 * sy) return; // elastic
  // Radial return: ||xi|| - 2 G dg - sqrt(2/3) sy(ep + sqrt(2/3) dg) - 2/3 Hk dg = 0 (Newton in
  // dg; one step for linear hardening).
  double dg = 0;
  for (int it = 0; it < 50; ++it) {
    yield(law, old.epsp + r23 * dg, sy, dsy);
    const double f = norm - 2 * g * dg - r23 * sy - 2.0 / 3.0 * hk * dg;
    const double df = -2 * g - 2.0 / 3.0 * (dsy + hk);
    const double step = -f / df;
    dg += step;
    if (std::abs(step) <= 1e-14 * (std::abs(dg) + 1e-30)) break;
  }
  yield(law, old.epsp + r23 * dg, sy, dsy);
  Voigt n{};
  for (int i = 0; i < 6; ++i) n[i] = xi[i] / norm;
  now.epsp = old.epsp + r23 * dg;
  for (int i = 0; i < 6; ++i) {
    stress[i] -= 2 * g * dg * n[i];
    now.back[i] = old.back[i] + 2.0 / 3.0 * hk * dg * n[i];
    // Plastic strain increment dg n (engineering shears: twice the tensor component).
    now.eps_p[i] = old.eps_p[i] + dg * n[i] * (i < 3 ? 1.0 : 2.0);
  }
  // Consistent tangent (Simo & Hughes, Computational Inelasticity, box 3.2):
  // D = K 1x1 + 2 G theta (I - 1/3 1x1) - 2 G thetabar n x n.
  const double theta = 1 - 2 * g * dg / norm;
  const double thetabar = 1 / (1 + (dsy + hk) / (3 * g)) - (1 - theta);
  d.fill(0);
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) {
      double v = 0;
      if (i < 3 && j < 3) v += k - 2 * g * theta / 3;
      if (i == j) v += 2 * g * theta * (i < 3 ? 1.0 : 0.5);
      v -= 2 * g * thetabar * n[i] * n[j];
      d[i * 6 + j] = v;
    }
}

} // namespace parcae::implicit

namespace parcae::implicit {

PlaneTangent plane_stress_tangent(double e, double nu) {
  const double c = e / (1 - nu * nu);
  return {c, c * nu, 0, c * nu, c, 0, 0, 0, c * (1 - nu) / 2};
}

void update_plane_point(const PointLaw& law, const PlanePointState& old, const Plane& eps,
                        PlanePointState& now, Plane& stress, PlaneTangent& d) {
  d = plane_stress_tangent(law.e, law.nu);
  now = old;
  Plane ee{};
  for (int i = 0; i < 3; ++i) ee[i] = eps[i] - old.eps_p[i];
  for (int i = 0; i < 3; ++i) {
    stress[i] = 0;
    for (int j = 0; j < 3; ++j) stress[i] += d[i * 3 + j] * ee[j];
  }
  if (law.kind == PointLaw::Kind::Elastic) return;
  // The common eigenbasis of C and P: q1 = (1, 1, 0) / sqrt 2, q2 = (1, -1, 0) / sqrt 2,
  // q3 = (0, 0, 1); eigenvalues of C: E / (1 - nu), 2G, G; of P: 1/3, 1, 2; of C P:
  // E / (3 (1 - nu)), 2G, 2G.
  const double g = law.shear(), s2 = std::sqrt(0.5), r23 = std::sqrt(2.0 / 3.0);
  const std::array<double, 3> lc = {law.e / (1 - law.nu), 2 * g, g};
  const std::array<double, 3> lp = {1.0 / 3.0, 1.0, 2.0};
  const std::array<double, 3> lcp = {law.e / (3 * (1 - law.nu)), 2 * g, 2 * g};
  const auto to_basis = [&](const Plane& v) -> Plane {
    return {s2 * (v[0] + v[1]), s2 * (v[0] - v[1]), v[2]};
  };
  const auto from_basis = [&](const Plane& v) -> Plane {
    return {s2 * (v[0] + v[1]), s2 * (v[0] - v[1]), v[2]};
  };
  Plane xi_tr{};
  for (int i = 0; i < 3; ++i) xi_tr[i] = stress[i] - old.back[i];
  const Plane xt = to_basis(xi_tr);
  const auto norm2 = [&](const Plane& xh) {
    return lp[0] * xh[0] * xh[0] + lp[1] * xh[1] * xh[1] + lp[2] * xh[2] * xh[2];
  };
  const double hk = law.curve ? 0.0 : (1 - law.beta) * law.h; // kinematic modulus
  double sy = 0, dsy = 0;
  yield(law, old.epsp, sy, dsy);
  const double vm_tr = std::sqrt(1.5 * norm2(xt));
  if (vm_tr - sy <= 1e-12 * sy) return; // elastic
  // Newton in dgamma on f = 1/2 phibar^2 - 1/3 sy(ep)^2 (convex and decreasing: monotone
  // from dgamma = 0).
  double dg = 0;
  Plane xh = xt;
  double phib = 0, ep = old.epsp;
  const auto eval = [&](double dgam, double& f, double& df) {
    const double c = 1 + 2.0 / 3.0 * hk * dgam;
    double dphi2 = 0;
    for (int i = 0; i < 3; ++i) {
      const double den = c + dgam * lcp[static_cast<std::size_t>(i)];
      xh[static_cast<std::size_t>(i)] = xt[static_cast<std::size_t>(i)] / den;
      dphi2 += -2 * lp[static_cast<std::size_t>(i)] * xh[static_cast<std::size_t>(i)] *
               xh[static_cast<std::size_t>(i)] *
               (2.0 / 3.0 * hk + lcp[static_cast<std::size_t>(i)]) / den;
    }
    const double phi2 = norm2(xh);
    phib = std::sqrt(phi2);
    ep = old.epsp + r23 * dgam * phib;
    yield(law, ep, sy, dsy);
    const double dphib = dphi2 / (2 * phib);
    f = 0.5 * phi2 - sy * sy / 3;
    df = 0.5 * dphi2 - 2.0 / 3.0 * sy * dsy * r23 * (phib + dgam * dphib);
  };
  for (int it = 0; it < 100; ++it) {
    double f = 0, df = 0;
    eval(dg, f, df);
    const double step = -f / df;
    dg = std::max(dg + step, 0.5 * dg);
    if (std::abs(step) <= 1e-15 * std::abs(dg)) break;
  }
  {
    double f = 0, df = 0;
    eval(dg, f, df); // xh, phib, ep, sy, dsy at the final dgamma
  }
  const double c = 1 + 2.0 / 3.0 * hk * dg;
  const Plane xi = from_basis(xh);
  const Plane n = {(2 * xi[0] - xi[1]) / 3, (2 * xi[1] - xi[0]) / 3, 2 * xi[2]}; // P xi
  now.epsp = ep;
  for (int i = 0; i < 3; ++i) {
    now.back[i] = old.back[i] + 2.0 / 3.0 * hk * dg * xi[i];
    now.eps_p[i] = old.eps_p[i] + dg * n[i];
    stress[i] = c * xi[i] + old.back[i];
  }
  // Algorithmic tangent: Xi = (c C^-1 + dgamma P)^-1 (diagonal in the basis),
  // D = c Xi - (Xi n)(Xi n)^T a / (a n.v + b), v = A^-1 (C P + 2/3 Hk) xi with A = c + dgamma C P,
  // a = 1 - hs sqrt(2/3) dgamma / phibar, b = hs sqrt(2/3) phibar, hs = 2/3 sy sy'.
  std::array<double, 3> ts{};
  Plane vh{};
  for (std::size_t i = 0; i < 3; ++i) {
    const double den = c + dg * lcp[i];
    ts[i] = lc[i] / den;
    vh[i] = (lcp[i] + 2.0 / 3.0 * hk) * xh[i] / den;
  }
  const Plane v = from_basis(vh);
  const Plane nh = to_basis(n);
  Plane xn_h{};
  for (std::size_t i = 0; i < 3; ++i) xn_h[i] = ts[i] * nh[i];
  const Plane xn = from_basis(xn_h); // Xi n
  const double hs = 2.0 / 3.0 * sy * dsy;
  const double a = 1 - hs * r23 * dg / phib, b = hs * r23 * phib;
  const double nv = n[0] * v[0] + n[1] * v[1] + n[2] * v[2];
  const double beta = a / (a * nv + b);
  // Xi in Voigt: Q diag(ts) Q^T.
  const std::array<Plane, 3> q = {Plane{s2, s2, 0}, Plane{s2, -s2, 0}, Plane{0, 0, 1}};
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 3; ++j) {
      double xij = 0;
      for (std::size_t m = 0; m < 3; ++m) xij += q[m][i] * ts[m] * q[m][j];
      d[i * 3 + j] = c * xij - beta * xn[i] * xn[j];
    }
}

} // namespace parcae::implicit
