// *MAT_PIECEWISE_LINEAR_PLASTICITY (024): von Mises plasticity with isotropic hardening, linear
// (SIGY, ETAN) or tabulated (LCSS: effective plastic strain -> yield stress), rate effects by
// Cowper-Symonds (C, P) or a scale-factor curve (LCSR), VP = 0 (scaled yield stress at the total
// strain rate) or VP = 1 (viscoplastic, at the plastic strain rate), failure at the plastic
// strain FAIL. The stress update is the shared radial return (j2_return.cpp).
#include <string>

#include <fmt/format.h>

#include "materials/law_support.hpp"
#include "materials/laws.hpp"

namespace parcae {

void prepare_piecewise_linear(const Material& mat, const Model& model, MaterialParams& m) {
  auto fail = [&](const std::string& msg) { fail_card(mat, msg); };
  prepare_elastic_constants(mat, m);
  m.beta = 1;
  if (mat.lcss != 0) {
    copy_curve(mat, model, mat.lcss, "LCSS", m.hard_x, m.hard_y);
    if (m.hard_x.front() < 0)
      fail(fmt::format("LCSS curve {}: effective plastic strain must start at 0 (got {})", mat.lcss,
                       m.hard_x.front()));
    for (std::size_t i = 0; i < m.hard_y.size(); ++i)
      if (!(m.hard_y[i] > 0))
        fail(fmt::format("LCSS curve {}: yield stress must be positive (point {}: {})", mat.lcss,
                         i + 1, m.hard_y[i]));
    m.sigy = m.hard_y.front(); // initial yield (informational; the curve is used)
    m.etan = 0;
    m.ep = 0;
  } else {
    prepare_linear_hardening(mat, m);
  }
  if (mat.lcsr != 0) {
    copy_curve(mat, model, mat.lcsr, "LCSR", m.rate_x, m.rate_y);
    for (std::size_t i = 0; i < m.rate_y.size(); ++i)
      if (!(m.rate_y[i] > 0))
        fail(fmt::format("LCSR curve {}: scale factor must be positive (point {}: {})", mat.lcsr,
                         i + 1, m.rate_y[i]));
  } else {
    prepare_cowper_symonds(mat, m, "C", "P");
  }
  if (!(mat.fs >= 0))
    fail(fmt::format("FAIL = {} < 0 (user failure subroutine) is not supported", mat.fs));
  m.fail = mat.fs;
  if (mat.vp != 0 && mat.vp != 1)
    fail(fmt::format("VP = {} is not supported (0: scale yield stress, 1: viscoplastic)", mat.vp));
  m.vp = mat.vp;
}

} // namespace parcae
