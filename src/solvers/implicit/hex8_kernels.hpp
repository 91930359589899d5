#pragma once
// Small-strain 8-node hexahedra for the implicit solver (kernels over one element: no
// communicator, no global state):
//   ELFORM 2   fully integrated (2x2x2 Gauss) trilinear hexahedron: any material point law,
//              consistent tangent; locks in bending (parasitic shear) on coarse meshes.
//   ELFORM 18  enhanced strain by incompatible modes (Wilson-Taylor QM6: nine bubble modes
//              (1 - xi^2) ... with Taylor's centroid-Jacobian correction so that the patch test
//              passes), condensed statically: exact pure bending on rectangular elements. As in
//              LS-DYNA (ELFORM 18: linear statics) it takes elastic materials only.
// Nodal order as LS-DYNA (N1-N4 bottom face, N5-N8 top). Dofs of an element: 3 per node,
// node-major (24).
#include <array>
#include <span>

#include "solvers/implicit/material_point.hpp"

namespace parcae::implicit {

using ElemCoords = std::array<double, 24>; ///< x y z of the 8 nodes
using ElemVector = std::array<double, 24>;
using ElemMatrix = std::array<double, 24 * 24>; ///< row major

/// Shape-function gradients (dN/dx, 3 per node) and det J at Gauss point q (0..7); the point's
/// natural coordinates in xi.
double hex8_gradients(const ElemCoords& x, int q, std::array<double, 24>& dndx,
                      std::array<double, 3>* xi = nullptr);
/// The natural coordinates of the 2x2x2 Gauss points (+-1/sqrt 3).
std::array<double, 3> hex8_gauss_point(int q);
/// Trilinear shape functions at natural coordinates.
std::array<double, 8> hex8_shape(const std::array<double, 3>& xi);

/// Strain (Voigt, engineering shears) from gradients and nodal displacements.
Voigt hex8_strain(const std::array<double, 24>& dndx, const ElemVector& u);

/// Optional per-point outputs of hex8_full_forces (empty spans: not wanted).
struct Hex8Outputs {
  std::span<Voigt> strain; ///< the strain measure given to the material (E or eps)
  std::span<Voigt> cauchy; ///< Cauchy stress (= stress in small strain)
};

/// ELFORM 2: internal force, tangent stiffness (when k != nullptr), updated point states and the
/// stresses at the 8 points. old / now: 8 states. large_strain: total Lagrangian (Green-Lagrange
/// strain E, second Piola-Kirchhoff stress S = stress, f = int B(F)^T S dV0, tangent with the
/// geometric stiffness int G^T S G dV0); otherwise small strain (F = I).
void hex8_full_forces(const ElemCoords& x, const ElemVector& u, const PointLaw& law,
                      std::span<const PointState> old, std::span<PointState> now,
                      std::span<Voigt> stress, ElemVector& f, ElemMatrix* k,
                      bool large_strain = false, Hex8Outputs out = {});

/// ELFORM 18: the condensed elastic stiffness (incompatible modes).
void hex8_incompatible_stiffness(const ElemCoords& x, double e, double nu, ElemMatrix& k);
/// ELFORM 18: stresses at the 8 Gauss points for displacements u (the condensed internal modes
/// recovered from u).
void hex8_incompatible_stresses(const ElemCoords& x, double e, double nu, const ElemVector& u,
                                std::span<Voigt> stress);

/// Consistent mass matrix (rho N^T N, 2x2x2 Gauss).
void hex8_mass(const ElemCoords& x, double rho, ElemMatrix& m);

/// Consistent nodal forces of a pressure p on a 4-node face (a triangle repeats its third node),
/// acting against the face normal (N1-N2-N3 right-hand rule): f = -p N n dA, 2x2 Gauss.
std::array<double, 12> quad_pressure_forces(const std::array<double, 12>& x, double p);

} // namespace parcae::implicit
