// *MAT_HYPERELASTIC_RUBBER (077_H) on solids: a polynomial in the invariants of the deviatoric
// left Cauchy-Green tensor b* = J^(-2/3) F F^T, I1* = tr b*, I2* = (I1*^2 - tr b*^2) / 2, with a
// bulk term,
//   W = C10 (I1* - 3) + C01 (I2* - 3) + C11 (I1* - 3)(I2* - 3) + C20 (I1* - 3)^2
//     + C02 (I2* - 3)^2 + C30 (I1* - 3)^3 + K/2 (J - 1)^2.
// With W1 = dW/dI1*, W2 = dW/dI2*, the Kirchhoff stress is
//   tau = 2 dev[(W1 + I1* W2) b* - W2 b*^2] + K J (J - 1) 1,
// the Cauchy stress tau / J. The small-strain shear modulus is G = 2 (C10 + C01), the bulk
// modulus K = 2G (1 + PR) / (3 (1 - 2 PR)) from PR, as LS-DYNA takes it.
//
// Refused at their field (law_support.cpp, read_rubber_077_common): constants fitted to test
// curves (N > 0) or given as temperature curves (N = -1), PR < 0 (its card 2), frictional damping
// (G, SIGF), REF, and the viscoelastic terms GI; THERML (thermal expansion) when set. Shells and
// beams are refused at set-up.
//
// This file is the whole law; core/material_laws.def has its one line.
#include <cmath>
#include <memory>

#include <fmt/format.h>

#include "materials/law_support.hpp"
#include "materials/laws.hpp"

namespace parcae {

namespace {

struct Polynomial {
  Real c10 = 0, c01 = 0, c11 = 0, c20 = 0, c02 = 0, c30 = 0;
  Real k = 0, g = 0; ///< bulk modulus, small-strain shear modulus
};

void read_card(const io::Fields& h, LawReader& r) {
  Material& m = r.mat;
  read_rubber_077_common(h, r);
  auto p = std::make_shared<Polynomial>();
  p->c10 = h.real("C10");
  p->c01 = h.real("C01");
  p->c11 = h.real("C11");
  p->c20 = h.real("C20");
  p->c02 = h.real("C02");
  p->c30 = h.real("C30");
  refuse_field(h, "THERML", m.id, "thermal expansion");
  p->g = 2 * (p->c10 + p->c01);
  if (!(p->g > 0))
    fail(h.loc("C10"), fmt::format("material {}: the shear modulus 2 (C10 + C01) = {} must be "
                                   "positive",
                                   m.id, p->g));
  p->k = 2 * p->g * (1 + m.pr) / (3 * (1 - 2 * m.pr));
  m.e = 2 * p->g * (1 + m.pr);
  m.law_card = std::move(p);
}

void prepare(const Material& mat, const Model& /*model*/, MaterialParams& m) {
  const auto& p = mat.card<Polynomial>();
  set_bulk_shear_moduli(m, p.k, p.g);
  m.law_data = std::make_shared<Polynomial>(p);
}

/// b* (symmetric, [xx yy zz xy yz zx]), its invariants minus 3, and J, for h = F - 1.
struct Invariants {
  Real b[6];
  Real i1m3 = 0, i2m3 = 0, j = 1;
};

Invariants invariants(const Real h[3][3]) {
  Invariants v;
  v.j = deformation_det(h);
  if (!(v.j > 0)) return v;
  const Real s = std::pow(v.j, -2.0 / 3.0);
  constexpr int ii[6] = {0, 1, 2, 0, 1, 2}, jj[6] = {0, 1, 2, 1, 2, 0};
  for (int q = 0; q < 6; ++q) {
    const int i = ii[q], j = jj[q];
    Real e = h[i][j] + h[j][i];
    for (int l = 0; l < 3; ++l) e += h[i][l] * h[j][l];
    v.b[q] = s * ((i == j ? 1.0 : 0.0) + e);
  }
  const Real i1 = v.b[0] + v.b[1] + v.b[2];
  const Real trb2 = v.b[0] * v.b[0] + v.b[1] * v.b[1] + v.b[2] * v.b[2] +
                    2 * (v.b[3] * v.b[3] + v.b[4] * v.b[4] + v.b[5] * v.b[5]);
  v.i1m3 = i1 - 3;
  v.i2m3 = 0.5 * (i1 * i1 - trb2) - 3;
  return v;
}

Real stress(const MaterialParams& m, const Real h[3][3], Real sig[6]) {
  const Polynomial& p = m.law_params<Polynomial>();
  const Invariants v = invariants(h);
  if (!(v.j > 0)) return v.j;
  const Real a = v.i1m3, c = v.i2m3;
  const Real w1 = p.c10 + p.c11 * c + 2 * p.c20 * a + 3 * p.c30 * a * a;
  const Real w2 = p.c01 + p.c11 * a + 2 * p.c02 * c;
  const Real* b = v.b;
  // b*^2 (symmetric)
  const Real b2[6] = {
      b[0] * b[0] + b[3] * b[3] + b[5] * b[5], b[3] * b[3] + b[1] * b[1] + b[4] * b[4],
      b[5] * b[5] + b[4] * b[4] + b[2] * b[2], b[0] * b[3] + b[3] * b[1] + b[5] * b[4],
      b[3] * b[5] + b[1] * b[4] + b[4] * b[2], b[0] * b[5] + b[3] * b[4] + b[5] * b[2]};
  const Real q1 = w1 + (a + 3) * w2;
  Real t[6];
  for (int q = 0; q < 6; ++q) t[q] = 2 * (q1 * b[q] - w2 * b2[q]);
  const Real mean = (t[0] + t[1] + t[2]) / 3;
  const Real vol = p.k * v.j * (v.j - 1);
  for (int q = 0; q < 6; ++q) sig[q] = (t[q] - (q < 3 ? mean - vol : 0.0)) / v.j;
  return v.j;
}

Real energy(const MaterialParams& m, const Real h[3][3]) {
  const Polynomial& p = m.law_params<Polynomial>();
  const Invariants v = invariants(h);
  if (!(v.j > 0)) return 0;
  const Real a = v.i1m3, c = v.i2m3;
  return p.c10 * a + p.c01 * c + p.c11 * a * c + p.c20 * a * a + p.c02 * c * c + p.c30 * a * a * a +
         0.5 * p.k * (v.j - 1) * (v.j - 1);
}

} // namespace

const MaterialLaw& law_hyperelastic_rubber() {
  using namespace io::card_fields;
  static const MaterialLaw law{
      .kind = MaterialKind::HyperelasticRubber,
      .card = "*MAT_HYPERELASTIC_RUBBER",
      .number = "077_H",
      .summary = "polynomial rubber (solids): hyperelastic in the deviatoric invariants (C10 ... "
                 "C30), bulk term K/2 (J - 1)^2",
      .history = 0,
      .incremental = false,
      .plastic = false,
      .hyperelastic = true,
      .hydrodynamic = false,
      .rigid = false,
      .keyword = rubber_077_keyword(
          "*MAT_HYPERELASTIC_RUBBER", "*MAT_077_H",
          {{"Card 3 (N = 0)",
            {R("C10"), R("C01"), R("C11"), R("C20"), R("C02"), R("C30"), R("THERML")}}},
          "Polynomial rubber on solids: W = C10 (I1* - 3) + C01 (I2* - 3) + C11 (I1* - 3)(I2* - "
          "3) + C20 (I1* - 3)^2 + C02 (I2* - 3)^2 + C30 (I1* - 3)^3 + K/2 (J - 1)^2 in the "
          "invariants of J^(-2/3) F F^T; shear modulus 2 (C10 + C01), K from PR. Refused: N > 0 "
          "(fit to curves) and N = -1 (thermal), PR < 0 (card 2), G and SIGF (frictional "
          "damping), REF, THERML, viscoelastic terms GI. NV is not used. Shells and beams are "
          "refused."),
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
