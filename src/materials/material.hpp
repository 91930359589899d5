#pragma once
// Constitutive models at one integration point. Kernels call these per point; they are plain
// functions on small arrays so the element loops stay vectorisable and thread-safe.
//
// Conventions:
//  - Stress Voigt order [xx, yy, zz, xy, yz, zx] (solids) / [xx, yy, xy, yz, zx] (shells, local
//    frame, plane stress sigma_zz = 0). Strain increments use engineering shear (gamma = 2 eps).
//  - Stresses are Cauchy stresses in the co-rotational (shell) or Jaumann-rotated (solid) frame;
//    the element applies any rotation before calling.
//  - eps_p is the effective (equivalent) plastic strain; back holds the back stress for
//    kinematic hardening (*MAT_003 with beta < 1), deviatoric, same order as the stress.
#include <vector>

#include "core/types.hpp"
#include "mesh/model.hpp"

namespace parcae {

/// Material constants prepared for the kernels (curves copied in, derived moduli computed).
struct MaterialParams {
  MaterialKind kind = MaterialKind::Elastic;
  GlobalId id = 0;
  Real ro = 0, e = 0, nu = 0;
  Real g = 0;      ///< shear modulus
  Real k = 0;      ///< bulk modulus
  Real lambda = 0; ///< Lame's first parameter
  // plasticity
  Real sigy = 0;
  Real etan = 0;
  Real ep = 0;       ///< plastic hardening modulus E*Et/(E-Et) (linear hardening)
  Real beta = 1;     ///< 1 isotropic, 0 kinematic (003); 024 is isotropic
  Real c = 0, p = 0; ///< Cowper-Symonds; c == 0 means no rate effect
  Real fail = 0;     ///< failure plastic strain, 0 = none
  Real vp = 0;
  std::vector<Real> hard_x, hard_y; ///< 024 LCSS: eff. plastic strain -> yield stress
  std::vector<Real> rate_x, rate_y; ///< 024 LCSR: strain rate -> yield scale factor
  // Mooney-Rivlin rubber (027): W = A(I1-3) + B(I2-3) + C(III^-2 - 1) + D(III-1)^2
  Real mr_a = 0, mr_b = 0, mr_c = 0, mr_d = 0;

  [[nodiscard]] bool plastic() const {
    return kind == MaterialKind::PlasticKinematic || kind == MaterialKind::PiecewiseLinear;
  }
  /// Total-deformation (hyperelastic) law: the element passes the deformation gradient to
  /// hyperelastic_stress instead of calling the incremental updates.
  [[nodiscard]] bool hyperelastic() const { return kind == MaterialKind::MooneyRivlin; }
  /// True once eps_p has reached the failure strain (FS / FAIL > 0); the element erodes the point.
  [[nodiscard]] bool failed(Real eps_p) const { return fail > 0 && eps_p >= fail; }
  /// Dilatational wave speed sqrt((K + 4G/3)/rho), for solid time steps.
  [[nodiscard]] Real wave_speed_solid() const;
  /// Plate wave speed sqrt(E/(rho (1 - nu^2))), for shell time steps.
  [[nodiscard]] Real wave_speed_shell() const;
};

/// Build kernel parameters from the deck's material (curves looked up in the model).
/// Throws InputError (naming the material's card) on inconsistent data.
MaterialParams make_material_params(const Material& mat, const Model& model);

/// Current yield stress for effective plastic strain eps_p and effective strain rate rate
/// (isotropic part only; the rate is the plastic strain rate for *MAT_024 VP = 1). +infinity for
/// non-plastic kinds.
Real yield_stress(const MaterialParams& m, Real eps_p, Real rate);

/// Cauchy stress [xx yy zz xy yz zx] of a hyperelastic material (*MAT_027) for the deformation
/// gradient F = I + h, h[i][j] = du_i/dX_j (displacement gradient; passing h rather than F keeps
/// small strains accurate). Returns J = det F; for J <= 0 (or NaN) sig is left unchanged.
/// Mooney-Rivlin, with C = dW/dC, b = F F^T, III = J^2:
///   sigma = (2/J) [ (A + B I1) b - B b^2 + (-2C III^-2 + 2D (III-1) III) 1 ].
Real hyperelastic_stress(const MaterialParams& m, const Real h[3][3], Real sig[6]);

/// Strain energy density W per unit reference volume of a hyperelastic material, for the
/// displacement gradient h as in hyperelastic_stress (the element's internal energy).
Real hyperelastic_energy(const MaterialParams& m, const Real h[3][3]);

/// Solid (3-D) stress update: sig, back and eps_p are updated in place from the strain
/// increment deps over time step dt. Elastic kinds ignore back and eps_p. Returns the
/// plastic strain increment.
Real update_stress_solid(const MaterialParams& m, const Real deps[6], Real dt, Real sig[6],
                         Real back[6], Real& eps_p);

/// Points per batch of update_stress_solid_batch (the SIMD width of the hex kernel).
inline constexpr int kSolidBatch = 4;

/// A batch of solid integration points, component-major: sig[k][l] is component k of point l.
struct SolidBatch {
  Real deps[6][kSolidBatch];
  Real sig[6][kSolidBatch];
  Real back[6][kSolidBatch];
  Real eps_p[kSolidBatch];
};

/// True when update_stress_solid_batch updates all points of a batch at once in closed form:
/// elastic kinds, and *MAT_003 / *MAT_024 with linear hardening and no rate effect (no
/// Cowper-Symonds, no LCSR, no LCSS, VP = 0). Other materials are updated point by point with
/// update_stress_solid.
bool solid_batch_closed_form(const MaterialParams& m);

/// update_stress_solid on every point l of the batch with active[l] (same results up to
/// round-off; the points are independent, so a point's result does not depend on the other
/// points of the batch). Points with !active[l] are left unchanged. dt must be positive.
void update_stress_solid_batch(const MaterialParams& m, Real dt, SolidBatch& b,
                               const bool active[kSolidBatch]);

/// Shell (plane stress) stress update in the element's local frame: in-plane [xx, yy, xy]
/// elastic-plastic with sigma_zz = 0, transverse shear [yz, zx] elastic (the caller applies the
/// shear correction factor). back holds the in-plane back stress [xx, yy, xy]. On return
/// deps_zz is the through-thickness strain increment (elastic + plastic) that keeps
/// sigma_zz = 0, used for the thickness update. Returns the plastic strain increment.
/// Linear hardening (and elastic kinds) use the direct plane-stress return map
/// (fem/shell_plane_stress.inc); tabulated hardening and VP = 1 rate effects the iterated one.
Real update_stress_shell(const MaterialParams& m, const Real deps[5], Real dt, Real sig[5],
                         Real back[3], Real& eps_p, Real& deps_zz);

/// The general plane-stress update: deps_zz iterated around the 3-D radial return until
/// sigma_zz = 0 (to ~1e-14 of the stress scale). Valid for every material; update_stress_shell
/// uses it for the cases shell_direct_return rejects.
Real update_stress_shell_iterated(const MaterialParams& m, const Real deps[5], Real dt, Real sig[5],
                                  Real back[3], Real& eps_p, Real& deps_zz);

/// True when update_stress_shell takes the direct plane-stress return map: elastic kinds, and
/// *MAT_003 / *MAT_024 with linear hardening (no LCSS), rate effects only with VP = 0.
bool shell_direct_return(const MaterialParams& m);

/// Rate factor on the yield radius of a shell point for the increment deps over dt (VP = 0:
/// Cowper-Symonds or LCSR at the effective strain rate, see material.cpp); 1 without rate
/// effect and for VP = 1.
Real shell_yield_scale(const MaterialParams& m, const Real deps[5], Real dt);

} // namespace parcae
