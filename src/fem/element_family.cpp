// Element families: the kernels of each family under the common signatures.
#include "fem/element_family.hpp"

namespace parcae {

ElementPassResult SolidFamily::compute_forces(const Options& opt, const MaterialParams& mat,
                                              Block& blk, std::size_t begin, std::size_t end,
                                              const NodalKinematics& k, CornerSpans corners,
                                              bool reference) {
  const HexPassResult r =
      reference
          ? compute_hex_forces_reference(opt, mat, blk, begin, end, k.x, k.v, k.dt, corners.f, k.x0)
          : compute_hex_forces(opt, mat, blk, begin, end, k.x, k.v, k.dt, corners.f, k.x0);
  return {r.min_dt, r.min_dt_element, r.bad_element};
}

ElementPassResult ShellFamily::compute_forces(const Options& opt, const MaterialParams& mat,
                                              Block& blk, std::size_t begin, std::size_t end,
                                              const NodalKinematics& k, CornerSpans corners,
                                              bool reference) {
  const ShellPassResult r =
      reference ? compute_shell_forces_reference(opt, mat, blk, begin, end, k.x, k.v, k.w, k.dt,
                                                 corners.f, corners.m)
                : compute_shell_forces(opt, mat, blk, begin, end, k.x, k.v, k.w, k.dt, corners.f,
                                       corners.m);
  return {r.min_dt, r.min_dt_element, -1};
}

} // namespace parcae
