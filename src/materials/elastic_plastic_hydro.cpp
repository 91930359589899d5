// *MAT_ELASTIC_PLASTIC_HYDRO (010), solids only, hydrodynamic: von Mises plasticity with linear
// (SIGY + EH eps_p) or tabulated (EPS/ES) isotropic hardening on the shared radial return; the
// pressure is the part's EOS, limited to p >= PC (PC = 0: no limit).
#include <limits>
#include <string>

#include <fmt/format.h>

#include "materials/hydro.hpp"
#include "materials/j2_return.hpp"
#include "materials/law_support.hpp"
#include "materials/laws.hpp"

namespace parcae {

void prepare_elastic_plastic_hydro(const Material& mat, const Model& model, MaterialParams& m) {
  auto fail = [&](const std::string& msg) { fail_card(mat, msg); };
  prepare_hydro_common(mat, m);
  prepare_hydro_shear(mat, m);
  m.pc = mat.pc < 0 ? mat.pc : -std::numeric_limits<Real>::infinity(); // PC = 0: -infinity
  if (mat.lcss != 0) {
    copy_curve(mat, model, mat.lcss, "EPS/ES", m.hard_x, m.hard_y);
    for (std::size_t i = 0; i < m.hard_y.size(); ++i)
      if (!(m.hard_y[i] > 0))
        fail(fmt::format("ES{}: yield stress must be positive (got {})", i + 1, m.hard_y[i]));
    m.sigy = m.hard_y.front();
  } else {
    if (!(mat.sigy > 0)) fail(fmt::format("yield stress SIGY must be positive (got {})", mat.sigy));
    if (!(mat.eh >= 0))
      fail(fmt::format("hardening modulus EH must not be negative (got {})", mat.eh));
    m.sigy = mat.sigy;
    m.ep = mat.eh;
  }
}

Real update_elastic_plastic_hydro_deviator(const MaterialParams& m, const Real deps[6], Real dt,
                                           Real r, Real s[6], Real hist[6], Real& eps_p) {
  if (!(dt > 0)) return 0;
  add_deviatoric_increment(m, deps, s);
  const Real dep = j2::radial_return(m, s, nullptr, eps_p, 0.0, dt, nullptr);
  eps_p += dep;
  return dep;
}

} // namespace parcae
