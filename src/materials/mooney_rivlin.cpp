// *MAT_MOONEY-RIVLIN_RUBBER (027) on solids and shells.
//
// Mooney-Rivlin (027) is hyperelastic: the stress is a function of the total deformation
// gradient (hyperelastic_stress), not an incremental update. LS-DYNA's compressible form
//   W = A(I1-3) + B(I2-3) + C(III^-2 - 1) + D(III-1)^2,   C = A/2 + B,
//   D = [A(5 nu - 2) + B(11 nu - 5)] / [2(1 - 2 nu)]
// in the invariants of C = F^T F. C makes the reference state stress free; D gives the
// small-strain bulk modulus K = 2G(1 + nu)/(3(1 - 2 nu)) of linear elasticity with G = 2(A + B).
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "materials/law_support.hpp"
#include "materials/laws.hpp"

namespace parcae {

void prepare_mooney_rivlin(const Material& mat, const Model& model, MaterialParams& m) {
  auto fail = [&](const std::string& msg) { fail_card(mat, msg); };
  if (!(mat.pr > -1.0 && mat.pr < 0.5))
    fail(fmt::format("Poisson's ratio PR must lie in (-1, 0.5) (got {})", mat.pr));
  if (!(mat.mr_a + mat.mr_b > 0))
    fail(fmt::format("A + B must be positive (got A = {}, B = {})", mat.mr_a, mat.mr_b));
  const Real a = mat.mr_a, b = mat.mr_b, nu = mat.pr;
  m.mr_a = a;
  m.mr_b = b;
  m.mr_c = 0.5 * a + b;
  m.mr_d = (a * (5.0 * nu - 2.0) + b * (11.0 * nu - 5.0)) / (2.0 * (1.0 - 2.0 * nu));
  // Small-strain equivalents (time step, hourglass stiffness, bulk viscosity).
  m.g = 2.0 * (a + b);
  m.k = 2.0 * m.g * (1.0 + nu) / (3.0 * (1.0 - 2.0 * nu));
  m.lambda = m.k - 2.0 / 3.0 * m.g;
  m.e = 2.0 * m.g * (1.0 + nu);
}

namespace {

/// The parts of the Mooney-Rivlin stress for the displacement gradient h: e = b - 1
/// (b = (1 + h)(1 + h)^T), J and III - 1 computed without cancellation at small strain.
struct HyperKinematics {
  Real e[3][3];
  Real j = 1, iii_m1 = 0, tre = 0;
};

HyperKinematics hyper_kinematics(const Real h[3][3]) {
  HyperKinematics k;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      Real hh = 0;
      for (int l = 0; l < 3; ++l) hh += h[i][l] * h[j][l];
      k.e[i][j] = h[i][j] + h[j][i] + hh;
    }
  // J - 1 = tr h + I2(h) + det h
  const Real tr = h[0][0] + h[1][1] + h[2][2];
  const Real i2 = h[0][0] * h[1][1] + h[1][1] * h[2][2] + h[2][2] * h[0][0] - h[0][1] * h[1][0] -
                  h[1][2] * h[2][1] - h[2][0] * h[0][2];
  const Real det = h[0][0] * (h[1][1] * h[2][2] - h[1][2] * h[2][1]) -
                   h[0][1] * (h[1][0] * h[2][2] - h[1][2] * h[2][0]) +
                   h[0][2] * (h[1][0] * h[2][1] - h[1][1] * h[2][0]);
  const Real jm1 = tr + i2 + det;
  k.j = 1.0 + jm1;
  k.iii_m1 = jm1 * (k.j + 1.0);
  k.tre = k.e[0][0] + k.e[1][1] + k.e[2][2];
  return k;
}

} // namespace

static Real mooney_rivlin_stress(const MaterialParams& m, const Real h[3][3], Real sig[6]) {
  const HyperKinematics k = hyper_kinematics(h);
  if (!(k.j > 0)) return k.j;
  // With b = 1 + e, I1 = 3 + tr e and A + 2B = 2C:
  //   (J/2) sigma = q0 1 + (A + B + B tr e) e - B e^2,
  //   q0 = 2C (1 - III^-2) + 2D (III - 1) III + B tr e.
  const Real a = m.mr_a, b = m.mr_b;
  const Real iii = k.j * k.j;
  const Real q0 = 2.0 * m.mr_c * k.iii_m1 * (iii + 1.0) / (iii * iii) +
                  2.0 * m.mr_d * k.iii_m1 * iii + b * k.tre;
  const Real q1 = a + b + b * k.tre;
  const Real s = 2.0 / k.j;
  constexpr int ii[6] = {0, 1, 2, 0, 1, 2}, jj[6] = {0, 1, 2, 1, 2, 0};
  for (int v = 0; v < 6; ++v) {
    const int i = ii[v], j = jj[v];
    Real ee = 0;
    for (int l = 0; l < 3; ++l) ee += k.e[i][l] * k.e[l][j];
    sig[v] = s * ((i == j ? q0 : 0.0) + q1 * k.e[i][j] - b * ee);
  }
  return k.j;
}

static Real mooney_rivlin_energy(const MaterialParams& m, const Real h[3][3]) {
  const HyperKinematics k = hyper_kinematics(h);
  // C - 1 = h + h^T + h^T h; I1 - 3 = tr(C - 1) = tr e; I2 - 3 = 2 tr(C-1) + I2(C - 1).
  Real c[3][3];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      Real hh = 0;
      for (int l = 0; l < 3; ++l) hh += h[l][i] * h[l][j];
      c[i][j] = h[i][j] + h[j][i] + hh;
    }
  const Real tc = c[0][0] + c[1][1] + c[2][2];
  const Real i2c = c[0][0] * c[1][1] + c[1][1] * c[2][2] + c[2][2] * c[0][0] - c[0][1] * c[1][0] -
                   c[1][2] * c[2][1] - c[2][0] * c[0][2];
  const Real iii = k.j * k.j;
  return m.mr_a * tc + m.mr_b * (2.0 * tc + i2c) +
         m.mr_c * (-k.iii_m1 * (iii + 1.0) / (iii * iii)) + m.mr_d * k.iii_m1 * k.iii_m1;
}

// Shells: an incompressible membrane (plane stress, sigma_zz = 0), as LS-DYNA treats rubber on
// shells. The stretch is kept as the Hencky (logarithmic) strain of the point, accumulated from
// the strain increments in the shell's co-rotational frame (back[0..2] = eps_xx, eps_yy,
// gamma_xy), exact for stretches whose principal axes do not turn in that frame. From its
// principal values e1, e2: lambda_i = exp(e_i), lambda_3 = 1 / (lambda_1 lambda_2), and the
// incompressible Mooney-Rivlin Cauchy stresses with the pressure fixed by sigma_3 = 0:
//   sigma_1 = 2 (lambda_1^2 - lambda_3^2)(A + B lambda_2^2),
//   sigma_2 = 2 (lambda_2^2 - lambda_3^2)(A + B lambda_1^2).
// At small strain sigma_1 = 4G(e1 + e2/2) with G = 2(A + B): plane-stress elasticity at nu =
// 1/2. The transverse shears are elastic (G); the thickness follows incompressibility.
//
// The shell kernel's increment is d dt with d the rate of deformation at the end of the step:
// along a principal direction deps = (l1 - l0) / l1, whose sum over steps misses ln(l / l0) by
// about half the sum of deps^2, an error that an oscillating membrane accumulates. The exact
// logarithmic increment along a principal direction is -ln(1 - deps): applied to the principal
// values of the in-plane increment, exact for stretches that do not turn in the frame.
Real update_mooney_rivlin_shell(const MaterialParams& m, const Real deps[5], Real /*dt*/,
                                Real sig[5], Real back[3], Real& /*eps_p*/, Real& deps_zz) {
  {
    const Real a = deps[0], b = deps[1], c = 0.5 * deps[2];
    const Real dm = 0.5 * (a + b), dh = 0.5 * (a - b);
    const Real dr = std::sqrt(dh * dh + c * c);
    const Real e1 = dm + dr, e2 = dm - dr;
    Real f1 = e1, f2 = e2, q = 1.0;
    if (e1 < 0.5 && e2 > -1.0) { // always in practice; else the plain increment
      f1 = -std::log1p(-e1);
      f2 = -std::log1p(-e2);
      q = dr > 1e-300 ? (f1 - f2) / (2.0 * dr) : 1.0 / (1.0 - dm);
    }
    const Real fm = 0.5 * (f1 + f2);
    back[0] += fm + q * (a - dm);
    back[1] += fm + q * (b - dm);
    back[2] += 2.0 * q * c;
    // thickness: t (1 + deps_zz) = t exp(-(the in-plane logarithmic increments))
    deps_zz = std::expm1(-(f1 + f2));
  }
  const Real exx = back[0], eyy = back[1], exy = 0.5 * back[2];
  const Real mean = 0.5 * (exx + eyy), half = 0.5 * (exx - eyy);
  const Real r = std::sqrt(half * half + exy * exy);
  const Real l1 = std::exp(2.0 * (mean + r)), l2 = std::exp(2.0 * (mean - r)); // lambda^2
  const Real l3 = std::exp(-4.0 * mean);                                       // lambda_3^2
  const Real s1 = 2.0 * (l1 - l3) * (m.mr_a + m.mr_b * l2);
  const Real s2 = 2.0 * (l2 - l3) * (m.mr_a + m.mr_b * l1);
  const Real c2 = r > 0 ? half / r : 1.0, s2t = r > 0 ? exy / r : 0.0; // cos, sin of 2 theta
  const Real sm = 0.5 * (s1 + s2), sd = 0.5 * (s1 - s2);
  sig[0] = sm + sd * c2;
  sig[1] = sm - sd * c2;
  sig[2] = sd * s2t;
  sig[3] += m.g * deps[3];
  sig[4] += m.g * deps[4];
  return 0.0;
}

namespace {

void read_mooney_rivlin_card(const io::Fields& h, LawReader& r) {
  Material& m = r.mat;
  m.pr = h.real("PR");
  m.mr_a = h.real("A");
  m.mr_b = h.real("B");
  if (!(m.pr > -1.0 && m.pr < 0.5))
    fail(h.loc("PR"),
         fmt::format("material {}: Poisson's ratio PR = {} must be in (-1, 0.5) (0.49 to 0.5 is "
                     "recommended for rubber)",
                     m.id, m.pr));
  if (h.id("LCID") > 0)
    fail(h.loc("LCID"), fmt::format("material {}: LCID = {}: fitting A and B to a "
                                    "force-deflection curve is not supported; give A and B",
                                    m.id, h.id("LCID")));
  if (h.real("REF") != 0)
    fail(h.loc("REF"), fmt::format("material {}: REF = {}: a reference geometry "
                                   "(*INITIAL_FOAM_REFERENCE_GEOMETRY) is not supported; use 0",
                                   m.id, h.real("REF")));
  if (!(m.mr_a + m.mr_b > 0))
    fail(h.loc("A"), fmt::format("material {}: A + B = {} must be positive (shear modulus "
                                 "2(A + B))",
                                 m.id, m.mr_a + m.mr_b));
  // Young's modulus of the small-strain limit: G = 2(A + B), E = 2G(1 + PR).
  m.e = 4.0 * (m.mr_a + m.mr_b) * (1.0 + m.pr);
}

} // namespace

const MaterialLaw& law_mooney_rivlin() {
  using namespace io::card_fields;
  static const MaterialLaw law{
      .kind = MaterialKind::MooneyRivlin,
      .card = "*MAT_MOONEY-RIVLIN_RUBBER",
      .number = "027",
      .summary = "Mooney-Rivlin rubber: compressible hyperelastic solids, incompressible "
                 "membrane shells",
      .history = 3, // shells: the accumulated logarithmic strain (eps_xx, eps_yy, gamma_xy)
      .incremental = false,
      .plastic = false,
      .hyperelastic = true,
      .hydrodynamic = false,
      .rigid = false,
      .keyword = {.name = "*MAT_MOONEY-RIVLIN_RUBBER",
                  .aliases = {"*MAT_027"},
                  .options = {"TITLE"},
                  .head = {title_card(),
                           {"Card 1", {I("MID").req(), R("RO"), R("PR"), R("A"), R("B"), R("REF")}},
                           {"Card 2", {R("SGL"), R("SW"), R("ST"), I("LCID")}}},
                  .summary =
                      "Mooney-Rivlin rubber. Solids: hyperelastic W = A(I1-3) + B(I2-3) + "
                      "C(III^-2 - 1) + D(III-1)^2 with C = A/2 + B and D from PR. Shells: an "
                      "incompressible membrane (plane stress) on the logarithmic strain "
                      "accumulated in the co-rotational frame, sigma_1 = 2(l1^2 - l3^2)(A + B "
                      "l2^2), l3 = 1/(l1 l2) (PR sets only the time step). A + B must be positive, "
                      "PR in (-1, 0.5). LCID > 0 (A and B fitted to a force-deflection curve) and "
                      "REF = 1 are not supported; SGL, SW, ST are ignored."},
      .read = read_mooney_rivlin_card,
      .prepare = prepare_mooney_rivlin,
      .update_solid = nullptr,
      .update_shell = update_mooney_rivlin_shell,
      .update_deviator = nullptr,
      .wave_speed = reference_wave_speed,
      .hyper_stress = mooney_rivlin_stress,
      .hyper_energy = mooney_rivlin_energy};
  return law;
}
} // namespace parcae
