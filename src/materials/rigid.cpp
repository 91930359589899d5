// *MAT_RIGID (020): the part's elements move with one rigid body (solvers/common/rigid_body);
// only the density (mass) and the elastic constants (contact stiffness, time step) are used.
#include "materials/law_support.hpp"
#include "materials/laws.hpp"

namespace parcae {

void prepare_rigid(const Material& mat, const Model& model, MaterialParams& m) {
  prepare_elastic_constants(mat, m);
}

} // namespace parcae
