// Entry points of the material library: the kernels' parameters from the deck's card
// (make_material_params) and the stress updates, each dispatched to the law's row in the
// material catalogue (catalogue.cpp). The laws live in one file each (core/material_laws.def
// lists them); shared pieces in j2_return.cpp (von Mises radial return, plane-stress returns),
// hydro.cpp and eos.cpp (EOS pressure and energy).
#include "materials/material.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "materials/law_support.hpp"
#include "materials/laws.hpp"

namespace parcae {

Real reference_wave_speed(const MaterialParams& m) {
  if (m.ro <= 0) return 0;
  return std::sqrt((m.k + 4.0 * m.g / 3.0) / m.ro);
}

bool has_truss_form(const MaterialParams& m) {
  return (m.plastic() && !m.law().own_plastic_update) ||
         m.law().update_solid == &update_elastic_solid;
}

Real hyperelastic_stress(const MaterialParams& m, const Real h[3][3], Real sig[6]) {
  const MaterialLaw& law = m.law();
  if (law.hyper_stress == nullptr)
    throw std::logic_error(
        fmt::format("hyperelastic_stress: {} {} is not hyperelastic", law.card, m.id));
  return law.hyper_stress(m, h, sig);
}

Real hyperelastic_energy(const MaterialParams& m, const Real h[3][3]) {
  const MaterialLaw& law = m.law();
  if (law.hyper_energy == nullptr)
    throw std::logic_error(
        fmt::format("hyperelastic_energy: {} {} is not hyperelastic", law.card, m.id));
  return law.hyper_energy(m, h);
}

Real MaterialParams::wave_speed_solid() const {
  return law().wave_speed(*this);
}

Real MaterialParams::wave_speed_shell() const {
  if (ro <= 0) return 0;
  return std::sqrt(e / (ro * (1.0 - nu * nu)));
}

MaterialParams make_material_params(const Material& mat, const Model& model) {
  MaterialParams m;
  m.kind = mat.kind;
  m.id = mat.id;
  m.ro = mat.ro;
  m.e = mat.e;
  m.nu = mat.pr;
  m.law_data = mat.law_card;
  const MaterialLaw& law = material_law(mat.kind);
  m.law_row = &law;
  if (!(mat.ro > 0) && law.discrete_force == nullptr)
    fail_card(mat, fmt::format("density RO must be positive (got {})", mat.ro));
  law.prepare(mat, model, m);
  return m;
}

Real update_stress_solid(const MaterialParams& m, const Real deps[6], Real dt, Real sig[6],
                         Real back[6], Real& eps_p) {
  const MaterialLaw& law = m.law();
  if (law.update_solid == nullptr)
    throw std::logic_error(
        fmt::format("update_stress_solid: {} {} has no incremental update", law.card, m.id));
  return law.update_solid(m, deps, dt, sig, back, eps_p);
}

Real update_stress_shell(const MaterialParams& m, const Real deps[5], Real dt, Real sig[5],
                         Real back[3], Real& eps_p, Real& deps_zz) {
  const MaterialLaw& law = m.law();
  if (law.update_shell == nullptr)
    throw std::logic_error(
        fmt::format("update_stress_shell: {} {} is not supported on shells", law.card, m.id));
  return law.update_shell(m, deps, dt, sig, back, eps_p, deps_zz);
}

namespace {

/// [xx yy xy yz zx] of a tensor (stress: shear as is; strain: engineering shears, eng = true)
/// in axes turned by theta about the normal: the new x axis is (c, s).
void turn_shell_tensor(const Real in[5], Real c, Real s, bool eng, Real out[5]) {
  const Real k = eng ? 0.5 : 1.0; // tensor shear from the stored one
  const Real xx = in[0], yy = in[1], xy = k * in[2];
  out[0] = c * c * xx + s * s * yy + 2 * c * s * xy;
  out[1] = s * s * xx + c * c * yy - 2 * c * s * xy;
  out[2] = (-c * s * xx + c * s * yy + (c * c - s * s) * xy) / k;
  out[3] = -s * in[4] + c * in[3]; // yz: the b-normal component
  out[4] = c * in[4] + s * in[3];  // zx: the a-normal component
}

} // namespace

Real update_stress_shell_oriented(const MaterialParams& m, const Real deps[5], Real dt, Real sig[5],
                                  Real back[3], Real& eps_p, Real& deps_zz,
                                  const std::array<Real, 2>& axis) {
  const Real c = axis[0], s = axis[1];
  if ((c == 1 && s == 0) || !m.law().oriented)
    return update_stress_shell(m, deps, dt, sig, back, eps_p, deps_zz);
  Real dm[5], sm[5];
  turn_shell_tensor(deps, c, s, true, dm);
  turn_shell_tensor(sig, c, s, false, sm);
  const Real dp = update_stress_shell(m, dm, dt, sm, back, eps_p, deps_zz);
  turn_shell_tensor(sm, c, -s, false, sig);
  return dp;
}

} // namespace parcae
