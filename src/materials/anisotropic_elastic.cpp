// *MAT_ANISOTROPIC_ELASTIC (002_ANIS) on shells: linear anisotropic elasticity given by the 21
// constants of the symmetric 6 x 6 stiffness C in the material axes a, b, c, LS-DYNA's order
// [aa bb cc ab bc ca] with engineering shear strains. Shells carry plane stress, sigma_cc = 0:
// the thickness strain follows from the others,
//   eps_cc = -(C31 e1 + C32 e2 + C34 e4 + C35 e5 + C36 e6) / C33,
// and the stress from the condensed stiffness Cbar_ij = C_ij - C_i3 C_3j / C33 (i, j != 3), in
// rate form in the shell's corotational frame turned into the material axes (as *MAT_002:
// AOPT = 0, the element's local x axis turned by BETA and the section's ICOMP angles). For an
// orthotropic C (the inverse of the compliance of EA ... GCA) this is *MAT_ORTHOTROPIC_ELASTIC
// exactly, which the test checks.
//
// Refused at the field: AOPT other than 0, MACF other than 1, REF, and a C that is not positive
// definite. The time step, contact and hourglass stiffness take as E the largest eigenvalue of
// the in-plane condensed stiffness (Mandel form; for an isotropic material E / (1 - nu), a bound
// of the plane-stress modulus). Solids: not supported (no solid update; refused at set-up).
//
// This file is the whole law; core/material_laws.def has its one line.
#include <array>
#include <cmath>
#include <memory>
#include <numbers>
#include <string>

#include <fmt/format.h>

#include "materials/law_support.hpp"
#include "materials/laws.hpp"

namespace parcae {

namespace {

/// The fields of C in LS-DYNA's card order, and their (row, column) in [aa bb cc ab bc ca].
constexpr std::array<const char*, 21> kNames = {"C11", "C12", "C22", "C13", "C23", "C33", "C14",
                                                "C24", "C34", "C44", "C15", "C25", "C35", "C45",
                                                "C55", "C16", "C26", "C36", "C46", "C56", "C66"};

struct Anisotropic {
  Real c[6][6] = {};    ///< the full stiffness (symmetric)
  Real cbar[5][5] = {}; ///< condensed, rows/columns [aa bb ab bc ca]
  Real thick[5] = {};   ///< deps_cc = sum_j thick[j] d[j]
  Real beta = 0;        ///< radians
  Real e_bound = 0;     ///< the in-plane stiffness bound read as E
};

/// Cholesky factorisation of a copy of the symmetric n x n matrix: whether it is positive
/// definite.
template <int N> bool positive_definite(const Real (&a)[N][N]) {
  Real l[N][N] = {};
  for (int j = 0; j < N; ++j) {
    Real d = a[j][j];
    for (int k = 0; k < j; ++k) d -= l[j][k] * l[j][k];
    if (!(d > 0)) return false;
    l[j][j] = std::sqrt(d);
    for (int i = j + 1; i < N; ++i) {
      Real s = a[i][j];
      for (int k = 0; k < j; ++k) s -= l[i][k] * l[j][k];
      l[i][j] = s / l[j][j];
    }
  }
  return true;
}

void read_card(const io::Fields& h, LawReader& r) {
  Material& m = r.mat;
  const GlobalId id = m.id;
  auto p = std::make_shared<Anisotropic>();
  int k = 0;
  for (int j = 0; j < 6; ++j)
    for (int i = 0; i <= j; ++i) {
      const Real v = h.real(kNames[static_cast<std::size_t>(k++)]);
      p->c[i][j] = p->c[j][i] = v;
    }
  if (!positive_definite(p->c))
    fail(h.loc("C11"), fmt::format("material {}: the stiffness C11 ... C66 is not positive "
                                   "definite (a material that gives energy back)",
                                   id));
  refuse_field(h, "REF", id, "the reference geometry is not modelled");
  // plane stress: condense out cc (index 2)
  constexpr int keep[5] = {0, 1, 3, 4, 5};
  const Real c33 = p->c[2][2];
  for (int a = 0; a < 5; ++a) {
    p->thick[a] = -p->c[2][keep[a]] / c33;
    for (int b = 0; b < 5; ++b)
      p->cbar[a][b] = p->c[keep[a]][keep[b]] - p->c[keep[a]][2] * p->c[2][keep[b]] / c33;
  }
  // Mandel form of the in-plane part [aa bb ab]: tensor shear sqrt(2) eps_ab
  const Real s2 = std::numbers::sqrt2;
  const Real mandel[6] = {p->cbar[0][0], p->cbar[1][1],      2 * p->cbar[2][2],
                          p->cbar[0][1], s2 * p->cbar[1][2], s2 * p->cbar[0][2]};
  Real lam[3], vec[3][3];
  symmetric_eigen(mandel, lam, vec);
  p->e_bound = lam[2];
  p->beta = read_element_axes_angle(h, id);
  m.e = p->e_bound; // what the step, contact and hourglass stiffness read
  m.pr = 0;
  m.law_card = std::move(p);
}

void prepare(const Material& mat, const Model& /*model*/, MaterialParams& m) {
  prepare_elastic_constants(mat, m);
  m.shell_angle = mat.card<Anisotropic>().beta;
}

/// d, sig: [aa bb ab bc ca] in the material axes (engineering shear strains).
Real update_shell(const MaterialParams& m, const Real d[5], Real /*dt*/, Real sig[5],
                  Real /*back*/[3], Real& /*eps_p*/, Real& deps_zz) {
  const Anisotropic& p = m.law_params<Anisotropic>();
  Real dz = 0;
  for (int a = 0; a < 5; ++a) {
    Real ds = 0;
    for (int b = 0; b < 5; ++b) ds += p.cbar[a][b] * d[b];
    sig[a] += ds;
    dz += p.thick[a] * d[a];
  }
  deps_zz = dz;
  return 0;
}

} // namespace

const MaterialLaw& law_anisotropic_elastic() {
  using namespace io::card_fields;
  static const MaterialLaw law{
      .kind = MaterialKind::AnisotropicElastic,
      .card = "*MAT_ANISOTROPIC_ELASTIC",
      .number = "002_ANIS",
      .summary = "linear anisotropic elastic, 21 constants (shells, plane stress in the material "
                 "axes)",
      .history = 0,
      .incremental = true,
      .oriented = true,
      .keyword =
          {.name = "*MAT_ANISOTROPIC_ELASTIC",
           .aliases = {"*MAT_002_ANIS"},
           .options = {"TITLE"},
           .head = {title_card(),
                    {"Card 1",
                     {I("MID").req(), R("RO"), R("C11"), R("C12"), R("C22"), R("C13"), R("C23"),
                      R("C33")}},
                    {"Card 2", reals({"C14", "C24", "C34", "C44", "C15", "C25", "C35", "C45"})},
                    {"Card 3",
                     {R("C55"), R("C16"), R("C26"), R("C36"), R("C46"), R("C56"), R("C66"),
                      R("AOPT")}},
                    {"Card 4",
                     {R("XP"), R("YP"), R("ZP"), R("A1"), R("A2"), R("A3"), R("MACF", "1.0"),
                      R("IHIS")}},
                    {"Card 5", reals({"V1", "V2", "V3", "D1", "D2", "D3", "BETA", "REF"})}},
           .summary =
               "Linear anisotropic elasticity on shells: the symmetric 6 x 6 stiffness C11 ... "
               "C66 in the material axes, order [aa bb cc ab bc ca] with engineering shears, "
               "must be positive definite. Plane stress: the thickness strain from sigma_cc = 0, "
               "the stress from the condensed stiffness C_ij - C_i3 C_3j / C33 (the transverse "
               "shears and their couplings included). Axes AOPT = 0: the element's (node 1 to "
               "2) turned by BETA and by *SECTION_SHELL ICOMP = 1's point angles. Refused at "
               "the field: other AOPTs, MACF other than 1, REF. XP-ZP, A1-A3, V1-V3, D1-D3 and "
               "IHIS are unused. Solids are refused (no solid update)."},
      .read = read_card,
      .prepare = prepare,
      .update_shell = update_shell,
      .wave_speed = bar_wave_speed};
  return law;
}

} // namespace parcae
