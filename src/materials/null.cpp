// *MAT_NULL (009), solids only, hydrodynamic: no deviatoric strength but an optional Newtonian
// viscosity MU; the pressure is the part's EOS, limited to p >= PC (PC = 0: no tension).
#include <string>

#include <fmt/format.h>

#include "materials/hydro.hpp"
#include "materials/law_support.hpp"
#include "materials/laws.hpp"

namespace parcae {

void prepare_null(const Material& mat, const Model& model, MaterialParams& m) {
  auto fail = [&](const std::string& msg) { fail_card(mat, msg); };
  prepare_hydro_common(mat, m);
  if (!(mat.null_mu >= 0))
    fail(fmt::format("viscosity MU must not be negative (got {})", mat.null_mu));
  m.g = 0;
  m.null_mu = mat.null_mu;
  m.pc = mat.pc; // PC = 0: no tension
}

Real update_null_deviator(const MaterialParams& m, const Real deps[6], Real dt, Real r, Real s[6],
                          Real hist[6], Real& eps_p) {
  const Real dv = deps[0] + deps[1] + deps[2];
  const Real d3 = dv / 3.0;
  // Newtonian viscosity: s = 2 MU dev(D) (engineering shear: MU gamma / dt).
  const Real f = dt > 0 && m.null_mu > 0 ? m.null_mu / dt : 0.0;
  for (int k = 0; k < 3; ++k) s[k] = 2.0 * f * (deps[k] - d3);
  for (int k = 3; k < 6; ++k) s[k] = f * deps[k];
  return 0;
}

} // namespace parcae
