#pragma once
// Shared by the hydrodynamic laws (*MAT_009, *MAT_010, *MAT_015; internal to src/materials):
// their common deck checks and the elastic deviatoric increment. The pressure and the energy
// are the EOS's (update_stress_hydro in hydro.cpp).
#include "materials/material.hpp"

namespace parcae {

/// PC must not be positive; isotropic hardening (beta = 1).
void prepare_hydro_common(const Material& mat, MaterialParams& m);

/// The shear modulus G (positive) of *MAT_010 / *MAT_015.
void prepare_hydro_shear(const Material& mat, MaterialParams& m);

/// Elastic deviatoric increment s += 2G dev(deps) (engineering shear: G gamma).
inline void add_deviatoric_increment(const MaterialParams& m, const Real deps[6], Real s[6]) {
  const Real dv = deps[0] + deps[1] + deps[2];
  const Real d3 = dv / 3.0;
  for (int k = 0; k < 3; ++k) s[k] += 2.0 * m.g * (deps[k] - d3);
  for (int k = 3; k < 6; ++k) s[k] += m.g * deps[k];
}

} // namespace parcae
