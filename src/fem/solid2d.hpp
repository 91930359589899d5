#pragma once
// 2-D solids (*SECTION_SHELL ELFORM 13 and 15 on *ELEMENT_SHELL): 4-node quadrilaterals in the
// global x-y plane (triangles as n3 == n4), one-point integration with Flanagan-Belytschko
// hourglass control and bulk viscosity, the stress updated by the material's solid (3-D) law.
//
// - Plane strain (ELFORM 13): unit thickness; the out-of-plane strain rate is zero and the
//   out-of-plane stress (sig2d[2]) follows from the law.
// - Axisymmetric, volume weighted (ELFORM 15): x is the radius r (x >= 0), y the axis; every
//   mass, force and energy is per radian (LS-DYNA's convention). The hoop strain rate is
//   v_r / r at the element centre (mean nodal radial velocity over the mean nodal radius
//   r_c), the element's volume per radian r_c A, and the internal force of corner a is
//   r_c (sigma . b_a) + (A / 4) sigma_hoop e_r, b_a = dA/dx_a: its power is exactly
//   sigma : D r_c A, and a node on the axis feels no net force in a uniform stress field.
//   Nodal masses are rho int N_a r dA (2x2 Gauss, exact for the bilinear map).
//
// Corner values (fe, me) follow the shell family's layout (12 per element, global frame); the
// moments are zero and the z forces too. Sign as in shell_bt.hpp: internal (resisting) forces.
#include <array>
#include <cstdint>
#include <span>

#include "core/types.hpp"
#include "fem/shell_bt.hpp"
#include "materials/material.hpp"

namespace parcae {

/// Area A (positive for counter-clockwise corners in the x-y plane) and its gradient
/// b_a = dA/d(x_a, y_a) of the quadrilateral with corners (x[a], y[a]); the uniform gradient
/// of the shape functions is b / A.
Real quad_area_gradient(const Real x[4], const Real y[4], Real bx[4], Real by[4]);

/// Characteristic length of a 2-D solid: A / sqrt(sum_a |b_a|^2) (Flanagan and Belytschko's
/// bound on the one-point quadrilateral's highest frequency; h / sqrt(2) for a square of side h).
Real quad_characteristic_length(const Real x[4], const Real y[4]);

/// Forces of the 2-D solids [begin, end) of blk (blk.planar != None): updates sig2d, back2d,
/// eps_p, the energies, the stiffness hourglass forces and dt2d; returns the range's smallest
/// critical step (with bulk viscosity), the first element with it, and the first element whose
/// area is not positive or whose axisymmetric centre lies on or across the axis (bad_element).
struct PlanarPassResult {
  Real min_dt = 1e300;
  std::int64_t min_dt_element = -1;
  std::int64_t bad_element = -1;
};
PlanarPassResult compute_planar_forces(const ShellOptions& opt, const MaterialParams& mat,
                                       ShellBlock& blk, std::size_t begin, std::size_t end,
                                       std::span<const Real> x, std::span<const Real> v, Real dt,
                                       std::span<Real> fe, std::span<Real> me);

/// Critical step of 2-D solid e at coordinates x without bulk viscosity: the characteristic
/// length over the dilatational wave speed (mass scaling included).
Real planar_initial_dt(const MaterialParams& mat, const ShellBlock& blk, std::size_t e,
                       std::span<const Real> x);

/// Lumped mass of 2-D solid e at coordinates x (unscaled): plane strain rho A / 4 per corner
/// (a triangle: rho A / 3 on its three nodes, the shared corner's share split between its two
/// corners); axisymmetric rho int N_a r dA per corner (per radian).
std::array<Real, 4> planar_lumped_mass(const MaterialParams& mat, const ShellBlock& blk,
                                       std::size_t e, std::span<const Real> x);

} // namespace parcae
