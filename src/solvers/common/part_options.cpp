// The hourglass options of a part and the refusal of failing weld materials on beams (part
// set-up helpers of build_domain, domain.hpp).
#include <fmt/format.h>

#include "solvers/common/domain.hpp"

namespace parcae {

void hourglass_settings(const Model& model, const Hourglass* hg, int& ihq, Real& qm, bool solid) {
  ihq = model.control.ihq;
  qm = model.control.qh;
  if (hg) {
    ihq = hg->ihq;
    qm = hg->qm;
  }
  if (ihq == 0) ihq = 1;
  // IHQ 8 (LS-DYNA: warping stiffness of the fully integrated shell ELFORM 16, which parcae runs
  // as the Belytschko-Tsay shell) is the stiffness form, type 4, for every element.
  if (ihq == 8) ihq = 4;
  // IHQ 6 (assumed strain, Belytschko-Bindeman) is a form for solids; shells take the
  // stiffness form of their own kernel, type 4, as for 5.
  if (ihq == 6 && !solid) ihq = 4;
  if (ihq < 1 || ihq > 6) {
    const SourceLoc loc = hg ? hg->loc : model.control.hourglass_loc;
    throw InputError(loc,
                     fmt::format("hourglass type IHQ={} is not supported (1-6 and 8 are)", ihq));
  }
}

/// Beams and trusses do not erode: a material whose own failure criteria are set (*MAT_100
/// EFAIL, TFAIL, NRR ...) is refused on them rather than run without its failure.
void refuse_failure_on_beams(const MaterialParams& mp, const Material& mat, GlobalId pid) {
  const MaterialLaw& law = mp.law();
  if (law.may_fail != nullptr && law.may_fail(mat))
    throw InputError(mat.loc, fmt::format("{} {}: its failure criteria are set, and beam "
                                          "elements (part {}) do not erode in parcae; failure of "
                                          "spot welds is supported on solid welds",
                                          law.card, mat.id, pid));
}

} // namespace parcae
