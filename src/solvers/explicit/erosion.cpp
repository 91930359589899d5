#include "solvers/explicit/erosion.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <fmt/format.h>

#include "core/error.hpp"

namespace parcae {

void check_add_erosions(const Model& model) {
  for (const auto& a : model.add_erosions)
    if (!model.find_material(a.mid))
      throw InputError(a.loc, fmt::format("*MAT_ADD_EROSION: material {} is not defined", a.mid));
}

ErosionRule make_erosion_rule(const Model& model, const Material& mat, bool shell, int nip,
                              GlobalId pid) {
  ErosionRule r;
  r.tdel = mat.tdel; // *MAT_024 TDEL (0 for the other laws)
  if (!shell) {      // *MAT_NULL TEROD / CEROD (0 for the other laws)
    r.terod = mat.terod;
    r.cerod = mat.cerod;
  }
  if (shell && mat.fail_points != 0 && mat.fs > 0 && nip > 1) {
    const int need = mat.fail_points < 0
                         ? static_cast<int>(std::ceil(-mat.fail_points / 100.0 * nip - 1e-9))
                         : static_cast<int>(mat.fail_points);
    if (need < nip) { // NIP or more: all points, the kernel's own test
      r.fail_points = std::max(need, 1);
      r.fail_strain = mat.fs;
    }
  }
  for (const auto& a : model.add_erosions) {
    if (a.mid != mat.id) continue;
    r.add = true;
    r.crit = a;
    r.needs_strain = a.has_mxeps || a.has_effeps;
    if (shell && r.needs_strain)
      throw InputError(
          a.loc, fmt::format("*MAT_ADD_EROSION of material {}: MXEPS and EFFEPS are "
                             "supported on solids only (part {} is a shell or 2-D solid part)",
                             a.mid, pid));
    if (a.numfip < 0) {
      r.fip_needed = static_cast<int>(std::ceil(-a.numfip / 100.0 * nip - 1e-9));
    } else {
      r.fip_needed = static_cast<int>(std::ceil(a.numfip - 1e-9));
    }
    r.fip_needed = std::clamp(r.fip_needed, 1, std::max(nip, 1));
  }
  return r;
}

void principal_values(const Real s[6], Real out[3]) {
  // Trigonometric solution of the characteristic equation (Smith 1961).
  const Real m = (s[0] + s[1] + s[2]) / 3.0;
  const Real a = s[0] - m, b = s[1] - m, c = s[2] - m;
  const Real q2 = s[3] * s[3] + s[4] * s[4] + s[5] * s[5];
  const Real p2 = (a * a + b * b + c * c + 2.0 * q2) / 6.0;
  if (p2 <= 0) {
    out[0] = out[1] = out[2] = m;
    return;
  }
  const Real p = std::sqrt(p2);
  // det((S - m I) / p) / 2
  const Real det =
      a * (b * c - s[4] * s[4]) - s[3] * (s[3] * c - s[4] * s[5]) + s[5] * (s[3] * s[4] - b * s[5]);
  const Real r = std::clamp(det / (2.0 * p * p2), -1.0, 1.0);
  const Real phi = std::acos(r) / 3.0;
  out[0] = m + 2.0 * p * std::cos(phi);
  out[2] = m + 2.0 * p * std::cos(phi + 2.0 * std::numbers::pi / 3.0);
  out[1] = 3.0 * m - out[0] - out[2];
}

void log_principal_strains(const Real f[9], Real out[3]) {
  Real c[6]; // C = F^T F
  auto cij = [&](int i, int j) { return f[i] * f[j] + f[3 + i] * f[3 + j] + f[6 + i] * f[6 + j]; };
  c[0] = cij(0, 0);
  c[1] = cij(1, 1);
  c[2] = cij(2, 2);
  c[3] = cij(0, 1);
  c[4] = cij(1, 2);
  c[5] = cij(2, 0);
  principal_values(c, out);
  for (int i = 0; i < 3; ++i) out[i] = 0.5 * std::log(std::max(out[i], 1e-300));
}

bool point_fails(const MatAddErosion& a, const Real sig[6], Real t, const Real* strain) {
  int met = 0;
  const Real p = -(sig[0] + sig[1] + sig[2]) / 3.0;
  if (a.has_mxpres && p >= a.mxpres) ++met;
  if (a.has_mnpres && p <= a.mnpres) ++met;
  if (a.has_sigp1) {
    Real pr[3];
    principal_values(sig, pr);
    if (pr[0] >= a.sigp1) ++met;
  }
  if (a.has_sigvm) {
    const Real dx = sig[0] - sig[1], dy = sig[1] - sig[2], dz = sig[2] - sig[0];
    const Real vm = std::sqrt(0.5 * (dx * dx + dy * dy + dz * dz) +
                              3.0 * (sig[3] * sig[3] + sig[4] * sig[4] + sig[5] * sig[5]));
    if (vm >= a.sigvm) ++met;
  }
  if (strain) {
    if (a.has_mxeps && strain[0] >= a.mxeps) ++met;
    if (a.has_effeps) {
      const Real mean = (strain[0] + strain[1] + strain[2]) / 3.0;
      Real s2 = 0;
      for (int i = 0; i < 3; ++i) s2 += (strain[i] - mean) * (strain[i] - mean);
      if (std::sqrt(2.0 / 3.0 * s2) >= a.effeps) ++met;
    }
  }
  if (a.has_failtm && t >= a.failtm) ++met;
  return met > 0 && met >= a.ncs;
}

} // namespace parcae
