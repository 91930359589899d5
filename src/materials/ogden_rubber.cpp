// *MAT_OGDEN_RUBBER (077_O) on solids: the Ogden strain energy of the deviatoric principal
// stretches lambda*_i = J^(-1/3) lambda_i with a bulk term,
//   W = sum_i sum_j (MU_j / ALPHA_j) (lambda*_i^ALPHA_j - 1) + K (J - 1 - ln J),
// j over the terms with MU_j != 0 (up to 8). The Kirchhoff principal stresses are
//   tau_i = sum_j MU_j (lambda*_i^ALPHA_j - 1/3 sum_k lambda*_k^ALPHA_j) + K (J - 1),
// and the Cauchy stress sum_i tau_i / J n_i n_i^T (n_i the principal directions of F F^T). The
// small-strain shear modulus is G = 1/2 sum_j MU_j ALPHA_j; the bulk modulus K = 2G (1 + PR) /
// (3 (1 - 2 PR)) from PR, as LS-DYNA takes it.
//
// Refused at their field (law_support.cpp, read_rubber_077_common): constants fitted to test
// curves (N > 0) or given as temperature curves (N = -1), PR < 0 (its card 2), frictional damping
// (G, SIGF), REF, and the viscoelastic terms GI. Shells and beams are refused at set-up.
//
// This file is the whole law; core/material_laws.def has its one line.
#include <cmath>
#include <memory>
#include <string_view>

#include <fmt/format.h>

#include "materials/law_support.hpp"
#include "materials/laws.hpp"

namespace parcae {

namespace {

struct Ogden {
  int n = 0; ///< terms used
  Real mu[8] = {}, alpha[8] = {};
  Real k = 0, g = 0; ///< bulk modulus, small-strain shear modulus
};

void read_card(const io::Fields& h, LawReader& r) {
  Material& m = r.mat;
  read_rubber_077_common(h, r);
  auto p = std::make_shared<Ogden>();
  static constexpr std::string_view mus[] = {"MU1", "MU2", "MU3", "MU4",
                                             "MU5", "MU6", "MU7", "MU8"};
  static constexpr std::string_view alphas[] = {"ALPHA1", "ALPHA2", "ALPHA3", "ALPHA4",
                                                "ALPHA5", "ALPHA6", "ALPHA7", "ALPHA8"};
  for (int j = 0; j < 8; ++j) {
    const Real mu = h.real(mus[j]), alpha = h.real(alphas[j]);
    if (mu == 0) continue;
    if (alpha == 0)
      fail(h.loc(alphas[j]), fmt::format("material {}: {} = {} with {} = 0: each term needs a "
                                         "nonzero exponent",
                                         m.id, mus[j], mu, alphas[j]));
    p->mu[p->n] = mu;
    p->alpha[p->n] = alpha;
    ++p->n;
    p->g += 0.5 * mu * alpha;
  }
  if (!(p->g > 0))
    fail(h.loc("MU1"), fmt::format("material {}: the shear modulus 1/2 sum MU_i ALPHA_i = {} must "
                                   "be positive",
                                   m.id, p->g));
  p->k = 2 * p->g * (1 + m.pr) / (3 * (1 - 2 * m.pr));
  m.e = 2 * p->g * (1 + m.pr);
  m.law_card = std::move(p);
}

void prepare(const Material& mat, const Model& /*model*/, MaterialParams& m) {
  const auto& p = mat.card<Ogden>();
  set_bulk_shear_moduli(m, p.k, p.g);
  m.law_data = std::make_shared<Ogden>(p);
}

Real stress(const MaterialParams& m, const Real h[3][3], Real sig[6]) {
  const Ogden& p = m.law_params<Ogden>();
  const Real det = deformation_det(h);
  if (!(det > 0)) return det;
  Real lam[3], n[3][3];
  principal_stretches(h, lam, n);
  const Real jr = std::cbrt(det);
  Real t[3] = {0, 0, 0};
  for (int j = 0; j < p.n; ++j) {
    Real a[3], mean = 0;
    for (int k = 0; k < 3; ++k) {
      a[k] = std::pow(lam[k] / jr, p.alpha[j]);
      mean += a[k] / 3;
    }
    for (int k = 0; k < 3; ++k) t[k] += p.mu[j] * (a[k] - mean);
  }
  const Real vol = p.k * (det - 1);
  for (Real& x : t) x = (x + vol) / det;
  tensor_from_principal(t, n, sig);
  return det;
}

Real energy(const MaterialParams& m, const Real h[3][3]) {
  const Ogden& p = m.law_params<Ogden>();
  const Real det = deformation_det(h);
  if (!(det > 0)) return 0;
  Real lam[3], n[3][3];
  principal_stretches(h, lam, n);
  const Real jr = std::cbrt(det);
  Real w = 0;
  for (int j = 0; j < p.n; ++j)
    for (int k = 0; k < 3; ++k)
      w += p.mu[j] / p.alpha[j] * std::expm1(p.alpha[j] * std::log(lam[k] / jr));
  return w + p.k * (det - 1 - std::log(det));
}

} // namespace

const MaterialLaw& law_ogden_rubber() {
  using namespace io::card_fields;
  static const MaterialLaw law{
      .kind = MaterialKind::OgdenRubber,
      .card = "*MAT_OGDEN_RUBBER",
      .number = "077_O",
      .summary = "Ogden rubber (solids): hyperelastic in the deviatoric principal stretches, bulk "
                 "term K (J - 1 - ln J)",
      .history = 0,
      .incremental = false,
      .plastic = false,
      .hyperelastic = true,
      .hydrodynamic = false,
      .rigid = false,
      .keyword = rubber_077_keyword(
          "*MAT_OGDEN_RUBBER", "*MAT_077_O",
          {{"Card 3 (N = 0)", reals({"MU1", "MU2", "MU3", "MU4", "MU5", "MU6", "MU7", "MU8"})},
           {"Card 4 (N = 0)", reals({"ALPHA1", "ALPHA2", "ALPHA3", "ALPHA4", "ALPHA5", "ALPHA6",
                                     "ALPHA7", "ALPHA8"})}},
          "Ogden rubber on solids: W = sum_i sum_j MU_j/ALPHA_j (l*_i^ALPHA_j - 1) + K (J - 1 - "
          "ln J) in the deviatoric principal stretches l*_i = J^(-1/3) l_i; shear modulus 1/2 "
          "sum MU_j ALPHA_j, K from PR. Refused: N > 0 (fit to curves) and N = -1 (thermal), "
          "PR < 0 (card 2), G and SIGF (frictional damping), REF, viscoelastic terms GI. NV is "
          "not used. Shells and beams are refused."),
      .read = read_card,
      .prepare = prepare,
      .update_solid = nullptr,
      .update_shell = nullptr,
      .update_deviator = nullptr,
      .wave_speed = reference_wave_speed,
      .hyper_stress = stress,
      .hyper_energy = energy};
  return law;
}

} // namespace parcae
