#pragma once
// Element erosion: the failure criteria of a part beyond the kernels' own plastic-strain test
// (*MAT_003 FS / *MAT_024 FAIL > 0, applied inside the element kernels): *MAT_024 TDEL and
// *MAT_ADD_EROSION. Plain functions on one element's state; the solver (solver.cpp) applies
// them after each force pass, switches eroded elements off and keeps the global bookkeeping
// (free nodes, contact segments) that every rank shares.
#include <span>
#include <string>

#include "core/types.hpp"
#include "mesh/model.hpp"

namespace parcae {

/// The erosion rule of one part.
struct ErosionRule {
  Real tdel = 0;      ///< *MAT_024 TDEL (compared with the element's step x TSSFAC)
  bool add = false;   ///< a *MAT_ADD_EROSION applies
  MatAddErosion crit; ///< its criteria (when add)
  int fip_needed = 1; ///< shells: failed through-thickness points that erode the element
  /// shells (*MAT_123 NUMINT): points whose plastic strain reached fail_strain that erode the
  /// element (0: off; the kernel then deletes it when all points have)
  int fail_points = 0;
  Real fail_strain = 0;
  bool needs_strain = false; ///< MXEPS or EFFEPS (solids: deformation gradient needed)
  /// Solids: relative volume V / V0 above terod or below cerod (*MAT_NULL TEROD, CEROD; 0: off)
  Real terod = 0, cerod = 0;
  [[nodiscard]] bool by_volume() const { return terod > 0 || cerod > 0; }
  [[nodiscard]] bool post_check() const {
    return tdel > 0 || add || by_volume() || fail_points > 0;
  }
};

/// The rule of a part with material mat (shell: with nip points). Throws InputError at the
/// *MAT_ADD_EROSION card for strain criteria on shells.
ErosionRule make_erosion_rule(const Model& model, const Material& mat, bool shell, int nip,
                              GlobalId pid);

/// Checks that every *MAT_ADD_EROSION names an existing material (InputError otherwise).
void check_add_erosions(const Model& model);

/// Principal values (descending) of a symmetric 3x3 tensor [xx yy zz xy yz zx].
void principal_values(const Real s[6], Real out[3]);

/// Logarithmic principal strains (descending) of the deformation gradient F (row major).
void log_principal_strains(const Real f[9], Real out[3]);

/// Whether one point meets at least NCS of the criteria: sig is the 3-D stress [xx yy zz xy yz
/// zx] (shells: zz = 0), t the time, strain the principal logarithmic strains (nullptr when the
/// rule has no strain criterion).
bool point_fails(const MatAddErosion& a, const Real sig[6], Real t, const Real* strain);

} // namespace parcae
