// *MAT_SPOTWELD (100): elastic (E, PR), von Mises plasticity with the yield stress
// SIGY + EH eps_p (EH: the plastic hardening modulus, as the manual defines it), isotropic. On
// integrated beams the beam kernel returns the axial and transverse shear stresses
// (fem/beam.cpp); solid welds use the shared J2 update (update_j2_solid). The failure fields are
// read by the reader, which refuses nonzero ones (not implemented); DT (mass scaling of the weld)
// likewise.
#include <string>

#include <fmt/format.h>

#include "materials/law_support.hpp"
#include "materials/laws.hpp"

namespace parcae {

void prepare_spotweld(const Material& mat, const Model& /*model*/, MaterialParams& m) {
  auto fail = [&](const std::string& msg) { fail_card(mat, msg); };
  prepare_elastic_constants(mat, m);
  if (!(mat.sigy > 0)) fail(fmt::format("yield stress SIGY must be positive (got {})", mat.sigy));
  if (!(mat.eh >= 0))
    fail(fmt::format("plastic hardening modulus EH must not be negative (got {})", mat.eh));
  m.sigy = mat.sigy;
  m.ep = mat.eh;
  m.etan = mat.e * mat.eh / (mat.e + mat.eh);
  m.beta = 1; // isotropic
}

} // namespace parcae
