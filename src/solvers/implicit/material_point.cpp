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
