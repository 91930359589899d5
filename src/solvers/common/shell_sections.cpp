// Shell parts' options from their *SECTION_SHELL: the Belytschko-Tsay shell (ELFORM 0, 2; 16
// run as 2), its membrane (ELFORM 5; 9 run as 5), and the material angles of ICOMP = 1.
#include <cmath>
#include <numbers>

#include <fmt/format.h>

#include "solvers/common/domain.hpp"

namespace parcae {

void set_shell_options(const Model& model, const Section& sec, const MaterialParams& mat,
                       ShellOptions& opt, bool check_form) {
  const int e = sec.elform;
  // a *PART_COMPOSITE's own section has the part's id, negated
  const std::string who = sec.id < 0 ? fmt::format("*PART_COMPOSITE {}", -sec.id)
                                     : fmt::format("*SECTION_SHELL {}", sec.id);
  if (check_form && e != 0 && e != 2 && e != 16 && e != 5 && e != 9)
    throw InputError(sec.loc, fmt::format("{}: ELFORM {} is not supported (0 and 2, "
                                          "Belytschko-Tsay, are; 16 runs as 2; 5 and 9 run as its "
                                          "membrane)",
                                          who, e));
  if (sec.qr_irid > 1)
    throw InputError(sec.loc, fmt::format("{}: QR/IRID = {} is not a shell rule (0 Gauss or "
                                          "Lobatto, 1 trapezoidal, < 0 an *INTEGRATION_SHELL)",
                                          who, sec.qr_irid));
  opt.nip = sec.nip == 0 ? 2 : sec.nip;
  if (opt.nip < 1 || opt.nip > 10)
    throw InputError(sec.loc, fmt::format("{}: NIP = {} (must be 1..10)", who, opt.nip));
  opt.lobatto = model.control.shell_intgrd == 1;
  opt.shrf = sec.shrf == 0 ? 1.0 : sec.shrf;
  opt.thickness_update = model.control.shell_istupd != 0;
  opt.membrane = e == 5 || e == 9;
  if (opt.membrane) opt.shrf = 0;                              // no transverse shear
  const Real own = mat.law().oriented ? mat.shell_angle : 0.0; // the material's BETA
  for (std::size_t i = 0; i < opt.axis.size(); ++i) {
    const Real b = i < sec.angles.size() ? sec.angles[i] : 0.0;
    const Real theta = b * std::numbers::pi / 180.0 + own;
    opt.axis[i] = {std::cos(theta), std::sin(theta)};
  }
}

} // namespace parcae
