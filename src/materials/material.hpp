#pragma once
// Constitutive models at one integration point. Kernels call these per point; they are plain
// functions on small arrays so the element loops stay vectorisable and thread-safe. Each law is
// one file in src/materials and one row of the material catalogue (catalogue.hpp), through which
// these entry points dispatch (docs/adding_a_material.md).
//
// Conventions:
//  - Stress Voigt order [xx, yy, zz, xy, yz, zx] (solids) / [xx, yy, xy, yz, zx] (shells, local
//    frame, plane stress sigma_zz = 0). Strain increments use engineering shear (gamma = 2 eps).
//  - Stresses are Cauchy stresses in the co-rotational (shell) or Jaumann-rotated (solid) frame;
//    the element applies any rotation before calling.
//  - eps_p is the effective (equivalent) plastic strain; back holds the back stress for
//    kinematic hardening (*MAT_003 with beta < 1), deviatoric, same order as the stress.
#include <array>
#include <limits>
#include <memory>
#include <span>
#include <vector>

#include "core/types.hpp"
#include "materials/catalogue.hpp"
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
  std::vector<Real> hard_x, hard_y; ///< 024 LCSS / 037 HLCID: eff. plastic strain -> yield
  /// A law's own isotropic hardening R(eps_p) and its slope dR/deps_p for the shared radial
  /// return (j2_return.hpp), in place of SIGY + Ep eps_p or hard_x/hard_y; null: those.
  Real (*hardening_fn)(const MaterialParams& m, Real eps_p, Real& slope) = nullptr;
  /// A law's own rate factor S(rate) on the yield radius and dS/drate, in place of
  /// Cowper-Symonds or LCSR; null: those.
  Real (*rate_fn)(const MaterialParams& m, Real rate, Real& dsdr) = nullptr;
  /// Saturation: the yield radius never exceeds this, rate effects included (*MAT_098 SIGSAT).
  Real sigsat = std::numeric_limits<Real>::infinity();
  Real hill_r = 0; ///< 037: Lankford R of Hill's criterion (0: von Mises, the other laws)
  std::vector<Real> rate_x, rate_y; ///< 024 LCSR: strain rate -> yield scale factor
  /// 024 LCSS as a *DEFINE_TABLE: yield curve k (table_x[k] -> table_y[k], as hard_x/hard_y) at
  /// strain rate table_rate[k] (increasing; natural logs of the rate when table_log_rate),
  /// interpolated linearly between the rates and clamped beyond them; empty: no table.
  std::vector<Real> table_rate;
  bool table_log_rate = false;
  std::vector<std::vector<Real>> table_x, table_y;
  // Mooney-Rivlin rubber (027): W = A(I1-3) + B(I2-3) + C(III^-2 - 1) + D(III-1)^2
  Real mr_a = 0, mr_b = 0, mr_c = 0, mr_d = 0;
  // Hydrodynamic materials (009, 010, 015): deviatoric stress from the material, pressure from
  // the part's equation of state (attach_eos). k is the EOS's reference bulk modulus.
  EosKind eos_kind = EosKind::LinearPolynomial;
  Real eos_c[7] = {0, 0, 0, 0, 0, 0, 0}; ///< linear polynomial C0..C6
  Real gr_c = 0, gr_s1 = 0, gr_s2 = 0, gr_s3 = 0, gr_gamma0 = 0, gr_a = 0; ///< Gruneisen
  /// Tabulated EOS (008, 009): EV = ln V ascending, C, T, K (unloading bulk modulus, 008)
  std::vector<Real> tab_ev, tab_c, tab_t, tab_k;
  Real tab_gamma = 0;
  Real eos_e0 = 0;  ///< initial internal energy per unit initial volume
  Real pc = -1e300; ///< pressure limit: p >= pc
  Real null_mu = 0; ///< 009 viscosity
  Real jc_a = 0, jc_b = 0, jc_n = 0, jc_c = 0, jc_m = 0, jc_tm = 0, jc_tr = 0, jc_epso = 1,
       jc_cp = 0; ///< 015
  /// Laws with material axes (MaterialLaw::oriented): the material's own angle (radians, its
  /// BETA) added to every shell point's angle (*SECTION_SHELL ICOMP = 1).
  Real shell_angle = 0;
  /// Whether the element's bulk viscosity (*CONTROL_BULK_VISCOSITY, *HOURGLASS Q1 Q2) applies:
  /// a law may switch it off (*MAT_057 BVFLAG = 0, LS-DYNA's default for that foam).
  bool bulk_viscosity = true;
  /// The law's own constants (its file's struct; Material::law_card unless its prepare
  /// replaces it). The named constants above are those shared by several laws and kernels.
  std::shared_ptr<const void> law_data;

  /// law_data as the law's struct T (in the law's own file).
  template <class T> [[nodiscard]] const T& law_params() const {
    return *static_cast<const T*>(law_data.get());
  }

  /// The law's row in the material catalogue.
  [[nodiscard]] const MaterialLaw& law() const {
    return law_row != nullptr && law_row->kind == kind ? *law_row : material_law(kind);
  }
  /// The catalogue row of kind, kept by make_material_params: law() is asked several times per
  /// integration point, and the catalogue lookup is a call into another translation unit.
  const MaterialLaw* law_row = nullptr;
  /// Hydrodynamic law: deviatoric stress from the law, pressure from the part's EOS.
  [[nodiscard]] bool hydro() const { return law().hydrodynamic; }
  /// Von Mises plasticity on the shared radial return (effective plastic strain, back stress).
  [[nodiscard]] bool plastic() const { return law().plastic; }
  /// Total-deformation (hyperelastic) law: the element passes the deformation gradient to
  /// hyperelastic_stress instead of calling the incremental updates.
  [[nodiscard]] bool hyperelastic() const { return law().hyperelastic; }
  /// True once eps_p has reached the failure strain (FS / FAIL > 0); the element erodes the point.
  [[nodiscard]] bool failed(Real eps_p) const { return fail > 0 && eps_p >= fail; }
  /// Dilatational wave speed of the reference state, for solid time steps: the law's
  /// wave_speed (sqrt((K + 4G/3)/rho) for every law today).
  [[nodiscard]] Real wave_speed_solid() const;
  /// Plate wave speed sqrt(E/(rho (1 - nu^2))), for shell time steps.
  [[nodiscard]] Real wave_speed_shell() const;
};

/// Whether the law has a one-dimensional (truss) form: the elastic kinds and the von Mises laws
/// (update_stress_truss); trusses of other laws are refused at set-up.
bool has_truss_form(const MaterialParams& m);

/// Build kernel parameters from the deck's material (curves looked up in the model): the common
/// constants, then the law's prepare function (material catalogue).
/// Throws InputError (naming the material's card) on inconsistent data.
MaterialParams make_material_params(const Material& mat, const Model& model);

/// Current yield stress for effective plastic strain eps_p and effective strain rate rate
/// (isotropic part only; the rate is the plastic strain rate for *MAT_024 VP = 1). +infinity for
/// non-plastic kinds.
Real yield_stress(const MaterialParams& m, Real eps_p, Real rate);

/// Cauchy stress [xx yy zz xy yz zx] of a hyperelastic material (the law's hyper_stress; *MAT_027
/// shown here, *MAT_057 in its file) for the deformation
/// gradient F = I + h, h[i][j] = du_i/dX_j (displacement gradient; passing h rather than F keeps
/// small strains accurate). Returns J = det F; for J <= 0 (or NaN) sig is left unchanged.
/// Mooney-Rivlin, with C = dW/dC, b = F F^T, III = J^2:
///   sigma = (2/J) [ (A + B I1) b - B b^2 + (-2C III^-2 + 2D (III-1) III) 1 ].
Real hyperelastic_stress(const MaterialParams& m, const Real h[3][3], Real sig[6]);

/// Strain energy density W per unit reference volume of a hyperelastic material, for the
/// displacement gradient h as in hyperelastic_stress (the element's internal energy).
Real hyperelastic_energy(const MaterialParams& m, const Real h[3][3]);

/// Copies the equation of state of a hydrodynamic material's part into m (m.hydro()); throws
/// InputError when eos is null (a hydrodynamic material needs one) or inconsistent.
void attach_eos(MaterialParams& m, const Material& mat, const Eos* eos);

/// Terms of an equation of state that is linear in the energy: p = a(mu) + b(mu) E, with
/// mu = V0/V - 1 and E the internal energy per unit initial volume; da, db: derivatives in mu.
/// Linear polynomial (LS-DYNA *EOS_LINEAR_POLYNOMIAL):
///   a = C0 + C1 mu + C2 mu^2 + C3 mu^3,  b = C4 + C5 mu + C6 mu^2  (C2 = C6 = 0 for mu < 0).
/// Gruneisen (*EOS_GRUNEISEN), compressed (mu > 0):
///   a = rho0 C^2 mu [1 + (1 - g0/2) mu - A/2 mu^2] / D^2,
///   D = 1 - (S1 - 1) mu - S2 mu^2/(mu + 1) - S3 mu^3/(mu + 1)^2;
/// expanded: a = rho0 C^2 mu; both: b = g0 + A mu.
/// Tabulated (*EOS_TABULATED, *EOS_TABULATED_COMPACTION loading): a = C(eps_v),
/// b = GAMA T(eps_v), eps_v = ln V = -ln(1 + mu), C and T piecewise linear in eps_v through the
/// points (extended linearly beyond the first and last).
struct EosTerms {
  Real a = 0, da = 0, b = 0, db = 0;
};
EosTerms eos_terms(const MaterialParams& m, Real mu);

/// Piecewise linear y(x) through the points (xs ascending, at least 2), extended linearly
/// beyond both ends; slope: dy/dx there.
Real table_value(std::span<const Real> xs, std::span<const Real> ys, Real x, Real& slope);

/// p(mu, E) of the material's equation of state (no pressure cutoff).
Real eos_pressure(const MaterialParams& m, Real mu, Real e);

/// Wave speed of a hydrodynamic material at the state (mu, E, p): the isentropic bulk sound
/// speed c^2 = dp/drho|_s = [da + db E + b p / (1 + mu)^2] / rho0 plus the shear term
/// 4G / (3 rho0), and never less than the reference value sqrt((K0 + 4G/3) / rho0) (K0: the
/// EOS's bulk modulus at mu = 0, C1 or rho0 C^2), so that the time step is not overestimated.
Real hydro_wave_speed(const MaterialParams& m, Real mu, Real e, Real p);

/// Stress update of a hydrodynamic material over one step (dt >= 0; dt = 0: the pressure of the
/// current state only). sig: Jaumann-rotated stress at the start of the step, replaced by the
/// end-of-step stress. mu, r = V/V0: state at the end of the step; e_n: internal energy per
/// unit initial volume at the start of the step (E0 included); q: the bulk viscosity of the
/// step. Deviatoric part: 009 viscous 2 MU dev(D) (0 without MU); 010 radial return with linear
/// or tabulated hardening; 015 radial return on the Johnson-Cook yield stress. Pressure: the
/// EOS at (mu, E_n+1) with the energy
///   E_n+1 = E_n + r [w_dev - (p_n + p_n+1)/2 dv - q dv],   dv = tr(deps),
/// i.e. the trapezoid the element uses for its internal energy, solved exactly for p_n+1 (the
/// EOS is linear in E), then limited to p >= PC. hist: 6 history values ([5] the least ln V
/// reached, for *EOS_TABULATED_COMPACTION; [0] plastic work per
/// unit initial volume, for the 015 temperature). Returns the plastic strain increment.
Real update_stress_hydro(const MaterialParams& m, const Real deps[6], Real dt, Real mu, Real r,
                         Real e_n, Real q, Real sig[6], Real hist[6], Real& eps_p);

/// Johnson-Cook yield stress (A + B eps_p^N)(1 + C ln max(rate/EPSO, 1))(1 - T*^M),
/// T* = (T - TR)/(TM - TR) clamped to [0, 1] (thermal factor 1 without CP > 0 and TM > TR).
Real johnson_cook_yield(const MaterialParams& m, Real eps_p, Real rate, Real temperature);

/// Solid (3-D) stress update: sig, back and eps_p are updated in place from the strain
/// increment deps over time step dt, by the law's update_solid (incremental laws). Elastic kinds
/// ignore back and eps_p. Returns the plastic strain increment.
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
/// Dispatches to the law's update_shell (throws std::logic_error for a solids-only law, which
/// the domain set-up refuses on shells). For the elastic and plastic laws: linear hardening (and
/// elastic kinds) use the direct plane-stress return map (materials/plane_stress_return.inc);
/// tabulated hardening and VP = 1 rate effects the iterated one.
Real update_stress_shell(const MaterialParams& m, const Real deps[5], Real dt, Real sig[5],
                         Real back[3], Real& eps_p, Real& deps_zz);

/// The same in material axes whose a axis is (cos, sin) of its angle from the element's local x
/// axis, for laws with material axes (MaterialLaw::oriented; the others ignore it): the strain
/// increment and the stress (local [xx yy xy yz zx], engineering shear strains) turned into the
/// axes (a, b, normal), the law's update there, the stress turned back.
Real update_stress_shell_oriented(const MaterialParams& m, const Real deps[5], Real dt, Real sig[5],
                                  Real back[3], Real& eps_p, Real& deps_zz,
                                  const std::array<Real, 2>& axis);

/// The general plane-stress update: deps_zz iterated around the 3-D radial return until
/// sigma_zz = 0 (to ~1e-14 of the stress scale). Valid for every material; update_stress_shell
/// uses it for the cases shell_direct_return rejects.
Real update_stress_shell_iterated(const MaterialParams& m, const Real deps[5], Real dt, Real sig[5],
                                  Real back[3], Real& eps_p, Real& deps_zz);

/// True when the shell kernels take the direct plane-stress return map: isotropic elastic kinds
/// (not the laws with material axes), and
/// *MAT_003 / *MAT_024 with linear hardening (no LCSS), rate effects only with VP = 0.
bool shell_direct_return(const MaterialParams& m);

/// True when a shell point of this material needs its back stress array: every law except the
/// von Mises laws of update_j2_shell without a kinematic modulus ((1 - BETA) Ep = 0), whose back
/// stress stays zero (*MAT_024, *MAT_003 with BETA = 1, elastic, ...; the shell blocks of those
/// keep none).
bool shell_keeps_back_stress(const MaterialParams& m);

/// Rate factor on the yield radius of a shell point for the increment deps over dt (VP = 0:
/// Cowper-Symonds or LCSR at the effective strain rate, see material.cpp); 1 without rate
/// effect and for VP = 1.
Real shell_yield_scale(const MaterialParams& m, const Real deps[5], Real dt);

} // namespace parcae
