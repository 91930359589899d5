#pragma once
// Deck checks shared by the material laws' read and prepare functions (internal to
// src/materials).
#include <string>
#include <string_view>
#include <vector>

#include "cards/fields.hpp"
#include "materials/material.hpp"

namespace parcae {

/// Throws InputError at the material's card: "<card> <id>: msg".
[[noreturn]] void fail_card(const Material& mat, const std::string& msg);

/// Copy a curve into x/y after checking it exists and its abscissae strictly increase.
void copy_curve(const Material& mat, const Model& model, GlobalId lcid, const char* what,
                std::vector<Real>& x, std::vector<Real>& y);

/// A curve of a discrete (spring or damper) law: force against elongation or elongation rate,
/// or a scale factor against the rate. Beyond its ends it is extrapolated linearly from the end
/// segments (as LS-DYNA extrapolates the curves of discrete elements); a one-point curve is
/// constant.
struct DiscreteCurve {
  std::vector<Real> x, y;
  [[nodiscard]] Real eval(Real t) const;
  /// The largest |slope| of its segments (0 for one point): it bounds the element's step.
  [[nodiscard]] Real max_slope() const;
  /// The largest |y|.
  [[nodiscard]] Real max_abs() const;
};

/// The curve lcid of a discrete law (checked as copy_curve checks).
DiscreteCurve discrete_curve(const Material& mat, const Model& model, GlobalId lcid,
                             const char* what);

/// Linear orthotropic elasticity in plane stress (shells), in the material axes a, b (c the
/// normal): *MAT_FABRIC's and *MAT_ORTHOTROPIC_ELASTIC's. PRBA is nu_ba (eps_a = sigma_a/EA -
/// nu_ba sigma_b/EB); Q11 = EA/D, Q22 = EB/D, Q12 = PRBA EA/D, D = 1 - PRAB PRBA, PRAB = PRBA
/// EA/EB; transverse shear GBC (b-c) and GCA (c-a); the thickness strain -(PRCA d sigma_a + PRCB
/// d sigma_b) / EC (0 when EC = 0).
struct OrthotropicPlane {
  Real q11 = 0, q22 = 0, q12 = 0, gab = 0, gbc = 0, gca = 0;
  Real prca = 0, prcb = 0, ec = 0;
  /// E bounding the in-plane stiffness (Gershgorin rows of [Q11 Q12; Q12 Q22] and the shear
  /// 2 GAB, as the isotropic E / (1 - nu) bounds 2 G): what the time step, contact and hourglass
  /// stiffness read as the material's E.
  [[nodiscard]] Real bound_e() const;
  /// The stress increment of the strain increment d [aa bb ab bc ca] (engineering shears).
  void update(const Real d[5], Real sig[5], Real& deps_zz) const;
};

/// An error at the field when it is set (nonzero): "material <id>: <field> = <v> is not supported
/// (<what>)".
void refuse_field(const io::Fields& h, const char* field, GlobalId id, std::string_view what);

/// Chang and Chang's matrix compression criterion without its shear term (sigma_b < 0):
/// (sigma_b / 2SC)^2 + ((YC / 2SC)^2 - 1) sigma_b / YC (*MAT_022, *MAT_054; 0 without SC).
Real chang_chang_compression(Real sigma_b, Real yc, Real sc);

/// The material axes of the shell laws that take the element's (AOPT = 0, turned by BETA and
/// the section's ICOMP angles): AOPT other than 0 and MACF (when the card has it) other than 1
/// are errors at their field; returns BETA in radians.
Real read_element_axes_angle(const io::Fields& h, GlobalId id);

/// The bar wave speed sqrt(E / rho) of a law whose E bounds its stiffness (OrthotropicPlane::
/// bound_e): the time step of the orthotropic shell laws.
Real bar_wave_speed(const MaterialParams& m);

/// The fields EA, EB, EC, PRBA, PRCA, PRCB, GAB, GBC, GCA (GBC, GCA = 0: GAB), checked at their
/// field (positive moduli, a positive definite plane-stress stiffness).
OrthotropicPlane read_orthotropic_plane(const io::Fields& h, GlobalId id);

/// Eigenvalues lam (ascending) and unit eigenvectors (columns: v[.][k] belongs to lam[k]) of
/// the symmetric 3x3 matrix s = [xx yy zz xy yz zx] (cyclic Jacobi rotations to round-off).
void symmetric_eigen(const Real s[6], Real lam[3], Real v[3][3]);

/// det F for the displacement gradient h = F - 1 (the hyperelastic laws' J; <= 0: inverted).
Real deformation_det(const Real h[3][3]);

/// The principal stretches (ascending) and directions (columns of n) of F F^T for h = F - 1:
/// F F^T - 1 is formed from h (no cancellation at small strain), lambda_i^2 = 1 + its
/// eigenvalues.
void principal_stretches(const Real h[3][3], Real lam[3], Real n[3][3]);

/// The symmetric tensor [xx yy zz xy yz zx] with principal values t and principal directions the
/// columns of n: sum_k t_k n_k n_k^T.
void tensor_from_principal(const Real t[3], const Real n[3][3], Real out[6]);

/// A prepare function for laws whose constants are their card's (law_data = the card's struct).
void prepare_from_card(const Material& mat, const Model& model, MaterialParams& m);

/// The discrete laws' card: MID and the law's fields, no density (the nodes carry the mass).
io::CardSpec discrete_card(std::vector<io::FieldSpec> fields);

/// Isotropic elasticity from E and PR (checked): G, K and Lame's lambda.
void prepare_elastic_constants(const Material& mat, MaterialParams& m);

/// Linear hardening from SIGY and ETAN (tangent modulus, checked against E):
/// Ep = E Et / (E - Et).
void prepare_linear_hardening(const Material& mat, MaterialParams& m);

/// Cowper-Symonds rate factor from SRC/SRP (the card's names of the two fields for messages).
void prepare_cowper_symonds(const Material& mat, MaterialParams& m, const char* cname,
                            const char* pname);

// --- reading a law's card (its read function; errors at the field's file:line) ---

/// MID RO E PR: the first fields of card 1 of most laws.
std::vector<io::FieldSpec> mid_ro_e_pr_fields();
/// MID RO EA EB EC PRBA PRCA PRCB: card 1 of the orthotropic laws (002, 022, 034, 054).
std::vector<io::FieldSpec> mid_ro_orthotropic_fields();

/// Throws InputError at loc.
[[noreturn]] void fail(const SourceLoc& loc, const std::string& message);

/// E and PR of the card: E positive, PR in (-1, 0.5).
void read_elastic(const io::Fields& h, Material& m);

/// A failure strain field: negative (a user subroutine) is an error; 0 or >= 1e20 mean "no
/// failure" (returned as 0).
double read_failure_strain(const io::Fields& h, std::string_view field, GlobalId mid);

/// PC of a hydrodynamic law (must not be positive).
void read_pressure_cutoff(const io::Fields& h, Material& m);

/// The shear modulus G (positive).
void read_shear_modulus(const io::Fields& h, Material& m);

/// *MAT_HYPERELASTIC_RUBBER / *MAT_OGDEN_RUBBER (077_H, 077_O): their cards around the law's
/// constants (title, card 1 MID RO PR N NV G SIGF REF, card 2 when PR < 0, the fitting card when
/// N > 0, then constants_cards when N <= 0, and the viscoelastic rows GI BETAI VFLAG).
io::KeywordSpec rubber_077_keyword(std::string_view name, std::string_view alias,
                                   std::vector<io::CardSpec> constants_cards,
                                   std::string_view summary);
/// Checks their shared fields (what parcae refuses: the curve fit N > 0 and the thermal N = -1,
/// card 2 (PR < 0), frictional damping G / SIGF, REF, viscoelastic terms GI); sets mat.pr.
void read_rubber_077_common(const io::Fields& h, LawReader& r);

/// The standard linear solid of *MAT_VISCOELASTIC (006) and *MAT_KELVIN-MAXWELL_VISCOELASTIC
/// (061): relaxation modulus GI + (G0 - GI) exp(-BETA t) in shear, elastic bulk.
struct StandardLinearSolid {
  Real bulk = 0; ///< bulk modulus
  Real g0 = 0;   ///< short-time shear modulus
  Real gi = 0;   ///< long-time shear modulus
  Real beta = 0; ///< decay constant (1 / time)
};

/// The standard linear solid's card checks and row functions (viscoelastic.cpp), shared by 006
/// and 061: BULK, G0 and GI read and checked at their fields (BULK, G0 > 0, 0 <= GI <= G0; the
/// short-time E and PR set for contact stiffness and summaries; beta is the caller's); the
/// kernel constants (law_data = the card's StandardLinearSolid); one solid step (h: the decaying
/// part of the deviatoric stress, the law's stress history); the short-time wave speed.
void read_standard_linear_solid(const io::Fields& h, Material& m, StandardLinearSolid& p);
void prepare_standard_linear_solid(const Material& mat, const Model& model, MaterialParams& m);
Real update_standard_linear_solid(const MaterialParams& m, const Real deps[6], Real dt, Real sig[6],
                                  Real h[6], Real& eps_p);
Real standard_linear_solid_wave_speed(const MaterialParams& m);

/// E and PR of a law given by its bulk modulus k and shear modulus g (what contact stiffness and
/// summaries read), and the kernel's k, g and lambda.
void set_elastic_from_bulk_shear(Material& m, Real k, Real g);
void set_bulk_shear_moduli(MaterialParams& m, Real k, Real g);

} // namespace parcae
