// *MAT_PLASTIC_KINEMATIC (003): bilinear von Mises plasticity with mixed linear kinematic /
// isotropic hardening (BETA: 0 kinematic, 1 isotropic), Cowper-Symonds rate factor
// 1 + (rate/SRC)^(1/SRP) on the yield stress and failure at the plastic strain FS. The stress
// update is the shared radial return (j2_return.cpp).
#include <string>

#include <fmt/format.h>

#include "materials/law_support.hpp"
#include "materials/laws.hpp"

namespace parcae {

void prepare_plastic_kinematic(const Material& mat, const Model& model, MaterialParams& m) {
  auto fail = [&](const std::string& msg) { fail_card(mat, msg); };
  prepare_elastic_constants(mat, m);
  prepare_linear_hardening(mat, m);
  if (!(mat.beta >= 0 && mat.beta <= 1))
    fail(fmt::format("hardening parameter BETA must lie in [0, 1] (got {})", mat.beta));
  m.beta = mat.beta;
  prepare_cowper_symonds(mat, m, "SRC", "SRP");
  if (!(mat.fs >= 0)) fail(fmt::format("failure strain FS must not be negative (got {})", mat.fs));
  m.fail = mat.fs;
}

} // namespace parcae
