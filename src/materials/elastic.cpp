// *MAT_ELASTIC (001): isotropic hypoelastic, sigma' = lambda tr(D) 1 + 2G D (Jaumann rate, the
// element rotates the stress), solids and shells.
#include "materials/j2_return.hpp"
#include "materials/law_support.hpp"
#include "materials/laws.hpp"

namespace parcae {

void prepare_elastic(const Material& mat, const Model& model, MaterialParams& m) {
  prepare_elastic_constants(mat, m);
}

Real update_elastic_solid(const MaterialParams& m, const Real deps[6], Real dt, Real sig[6],
                          Real back[6], Real& eps_p) {
  j2::elastic_increment(m, deps, sig);
  return 0;
}

} // namespace parcae
