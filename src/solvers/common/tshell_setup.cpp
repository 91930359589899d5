// Thick-shell parts during build_domain (domain.hpp, setup_thick_shell): the kernel's options and
// the through-thickness points' state (fem/tshell.hpp).
#include <fmt/format.h>

#include "fem/shell_bt.hpp"
#include "fem/tshell.hpp"
#include "solvers/common/domain.hpp"

namespace parcae {

void setup_thick_shell(const Model& model, const Section& sec, SolidPart& sp) {
  if (!sp.mat.law().rigid && !(sp.mat.e > 0 && sp.mat.nu >= 0 && sp.mat.nu < 0.5))
    throw InputError(sec.loc, fmt::format("*SECTION_TSHELL {} (part {}): its material {} gives no "
                                          "plane-stress constants (E = {}, PR = {})",
                                          sec.id, sp.pid, sp.mat.id, sp.mat.e, sp.mat.nu));
  HexOptions& o = sp.opt;
  o.thick_shell = true;
  o.tetrahedra = false;
  o.nip = sec.nip;
  o.shrf = sec.shrf;
  shell_thickness_rule(o.nip, false,
                       std::span<Real>(o.zeta.data(), static_cast<std::size_t>(o.nip)),
                       std::span<Real>(o.w.data(), static_cast<std::size_t>(o.nip)));
  o.q1 = o.q2 = 0;           // no bulk viscosity (the step is the shell's)
  if (o.ihq == 6) o.ihq = 4; // the in-plane modes' stiffness form
  HexBlock& b = sp.blk;
  b.ts_nip = o.nip;
  b.ts.assign(b.size() * static_cast<std::size_t>(o.nip) * kTShellState, 0.0);
  for (std::size_t k = 0; k < b.size(); ++k) b.conn[k] = model.solids.nodes[sp.model_index[k]];
}

} // namespace parcae
