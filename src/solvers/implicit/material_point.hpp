#pragma once
// Small-strain material points of the implicit solver with their consistent (algorithmic)
// tangents: isotropic elasticity (*MAT_001) and J2 plasticity by radial return (*MAT_003 with
// linear isotropic/kinematic hardening mixed by BETA, *MAT_024 with isotropic hardening from ETAN
// or the LCSS curve). Voigt order [xx yy zz xy yz zx], engineering shear strains; the tangent
// is the 6x6 matrix D with d(sigma) = D d(eps) (row major).
#include <array>
#include <vector>

#include "core/types.hpp"
#include "mesh/model.hpp"

namespace parcae::implicit {

using Voigt = std::array<double, 6>;
using Tangent = std::array<double, 36>;

/// The committed state of one integration point.
struct PointState {
  Voigt eps_p{};   ///< plastic strain (engineering shears)
  Voigt back{};    ///< back stress (kinematic hardening)
  double epsp = 0; ///< effective plastic strain
};

/// One material law's parameters, from a *MAT card.
struct PointLaw {
  enum class Kind : std::uint8_t { Elastic, Plastic } kind = Kind::Elastic;
  double e = 0, nu = 0, rho = 0;
  double sigy = 0;              ///< initial yield stress
  double h = 0;                 ///< linear hardening modulus E Et / (E - Et)
  double beta = 1;              ///< isotropic fraction (1 isotropic, 0 kinematic)
  const Curve* curve = nullptr; ///< yield stress against effective plastic strain (024 LCSS)
  [[nodiscard]] double shear() const { return e / (2 * (1 + nu)); }
  [[nodiscard]] double bulk() const { return e / (3 * (1 - 2 * nu)); }
};

/// The law of a *MAT card; InputError naming the material when the implicit solver cannot use it.
PointLaw point_law(const Model& model, const Material& mat);

/// Stress and consistent tangent at total strain `eps` from the committed state `old`; the
/// updated state goes to `now` (the caller commits it when the step converges).
void update_point(const PointLaw& law, const PointState& old, const Voigt& eps, PointState& now,
                  Voigt& stress, Tangent& d);

/// The isotropic elastic matrix.
Tangent elastic_tangent(double e, double nu);

// --- Plane stress (shells) ---
// Voigt order [xx yy xy], engineering shear strain; the tangent is 3x3 (row major).
using Plane = std::array<double, 3>;
using PlaneTangent = std::array<double, 9>;

/// The committed state of one shell integration point (plane stress).
struct PlanePointState {
  Plane eps_p{};   ///< plastic strain (engineering shear)
  Plane back{};    ///< back stress (kinematic hardening)
  double epsp = 0; ///< effective plastic strain
};

/// The plane-stress elastic matrix E / (1 - nu^2) [1 nu 0; nu 1 0; 0 0 (1 - nu) / 2].
PlaneTangent plane_stress_tangent(double e, double nu);

/// Plane-stress stress and consistent tangent at in-plane strain `eps` (the thickness strain is
/// eliminated by sigma_zz = 0). Elastic laws: sigma = C eps. Plastic laws (*MAT_003 / *MAT_024):
/// J2 flow by the projected return mapping of Simo & Taylor (Simo & Hughes, Computational
/// Inelasticity, section 3.4): yield phi = 1/2 xi^T P xi - 1/3 sigma_y^2 with xi = sigma - back,
/// P = 1/3 [2 -1 0; -1 2 0; 0 0 6], flow d(eps_p) = dgamma P xi, Prager-Ziegler back stress
/// d(back) = 2/3 Hk dgamma xi (uniaxial slope Hk = (1 - BETA) h); the consistency condition is
/// solved by Newton in dgamma in the common eigenbasis of C and P, and the tangent is the
/// algorithmic one (symmetric).
void update_plane_point(const PointLaw& law, const PlanePointState& old, const Plane& eps,
                        PlanePointState& now, Plane& stress, PlaneTangent& d);

} // namespace parcae::implicit
