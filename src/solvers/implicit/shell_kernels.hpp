#pragma once
// 4-node shells of the implicit solver (kernels over one element: no communicator, no global
// state). MITC4 (Dvorkin & Bathe 1984) in a flat element frame:
//   - Reissner-Mindlin kinematics, 6 dofs per node (3 translations, 3 rotations, global axes);
//     in the element frame (e1, e2 in the mean plane, e3 normal) a fibre at z moves by
//     z (theta_y e1 - theta_x e2);
//   - membrane and bending from 2x2 Gauss points, NIP points through the thickness (Gauss or
//     Lobatto, *CONTROL_SHELL INTGRD), plane stress at every point (any PointLaw);
//   - transverse shear by MITC4 assumed natural strains (the covariant shears tied at the edge
//     midpoints), so that thin shells do not lock; elastic, times the section's SHRF;
//   - a drilling penalty 1/2 k_d A/4 sum_a (theta_z,a - omega)^2, omega = 1/2 (v,x - u,y) at the
//     centre, k_d = 1e-3 G t: it keeps flat meshes non-singular and is zero for rigid motions.
// Geometry: small displacements (frame and strains of the initial geometry) in linear runs;
// co-rotational (element frame following the nodes, nodal total rotation vectors, the linear
// MITC4 on the deformational part: large rotations, small strains) in nonlinear runs, with
// the tangent differentiated exactly (forward mode) through the kinematics. Warped elements are
// projected onto their mean plane. Triangles are quads with N3 = N4 (degenerate MITC4). Nodal order
// as LS-DYNA (N1-N4 counter-clockwise about the normal).
#include <array>
#include <span>

#include "solvers/implicit/material_point.hpp"

namespace parcae::implicit {

using ShellCoords = std::array<double, 12>; ///< x y z of the 4 nodes
using ShellVector = std::array<double, 24>; ///< 6 per node: ux uy uz rx ry rz (global)
using ShellMatrix = std::array<double, 24 * 24>;
/// Local stress (or strain, engineering shears) at one point: [xx yy xy yz zx].
using ShellPoint = std::array<double, 5>;

struct ShellSection {
  double thickness = 0;
  int nip = 2; ///< points through the thickness (1..10)
  bool lobatto = false;
  double shrf = 1.0; ///< transverse shear factor
};

/// Points of one element: 4 in-plane Gauss points x nip, point (q, k) at q * nip + k (k from
/// the bottom, z = -t/2, to the top).
[[nodiscard]] inline int shell4_points(int nip) {
  return 4 * nip;
}

/// The element frame: rows e1, e2, e3 (global components), and the nodes' in-plane
/// coordinates about the centroid (x, y per node).
struct ShellFrame {
  std::array<double, 9> r{};
  std::array<double, 8> xy{};
  double area = 0;
};
ShellFrame shell4_frame(const ShellCoords& x);

/// Internal force (global), consistent tangent (when k != nullptr), updated point states and
/// local stresses / strains. old, now, stress, strain: shell4_points(nip) each (strain may be
/// empty). corotational: geometrically nonlinear (large rotations, small strains), the rotation
/// dofs of u being each node's total rotation vector; otherwise small displacements.
void shell4_forces(const ShellCoords& x, const ShellVector& u, const ShellSection& sec,
                   const PointLaw& law, std::span<const PlanePointState> old,
                   std::span<PlanePointState> now, std::span<ShellPoint> stress,
                   std::span<ShellPoint> strain, ShellVector& f, ShellMatrix* k,
                   bool corotational = false);

/// The linear MITC4 in the element frame fr: local dofs ul (6 per node: u v w theta_x theta_y
/// theta_z of the frame), local force fl and stiffness (when kl != nullptr).
void shell4_local(const ShellFrame& fr, const ShellVector& ul, const ShellSection& sec,
                  const PointLaw& law, std::span<const PlanePointState> old,
                  std::span<PlanePointState> now, std::span<ShellPoint> stress,
                  std::span<ShellPoint> strain, ShellVector& fl, ShellMatrix* kl);

// --- Co-rotational kinematics (shell_corot.cpp) ---
// The element frame follows the current nodes (the same construction as shell4_frame: e1 along
// the mean N1-N2 direction, e3 normal to the diagonals); each node's rotation is R_a =
// exp([psi_a]x) of its total rotation vector psi_a (the rotation dofs, updated additively by
// Newton: a parametrisation, singular only at |psi| = 2 pi). The local deformational dofs are
//   d_a = R_e (x_a - c) - R_e0 (X_a - c0)            (translations, element frame)
//   theta_a = axial(R_d - R_d^T) / 2, R_d = R_e R_a R_e0^T   (rotations)
// and feed the linear MITC4 (small strains, large rotations). Nodal moments are conjugate to
// psi (exact for rotations about a fixed axis).

/// u_l(u).
void shell4_corotational_dofs(const ShellCoords& x0, const ShellFrame& fr0, const ShellVector& u,
                              ShellVector& ul);
/// J = d u_l / d u (row major, J[i * 24 + j] = d u_l,i / d u_j) and, when w != nullptr,
/// hess = sum_i w_i d2 u_l,i / du2.
void shell4_corotational_jacobian(const ShellCoords& x0, const ShellFrame& fr0,
                                  const ShellVector& u, ShellMatrix& jac, const ShellVector* w,
                                  ShellMatrix* hess);
/// The same by second-order forward mode through the whole of u_l (dual numbers of dual
/// numbers, ~30 times slower): the reference the test compares shell4_corotational_jacobian to.
void shell4_corotational_jacobian_reference(const ShellCoords& x0, const ShellFrame& fr0,
                                            const ShellVector& u, ShellMatrix& jac,
                                            const ShellVector* w, ShellMatrix* hess);

/// Consistent mass: rho t N_a N_b for the translations and rho t^3 / 12 N_a N_b for each of the
/// three rotations (isotropic rotary inertia, drilling included), 2x2 Gauss.
void shell4_mass(const ShellCoords& x, double rho, double thickness, ShellMatrix& m);

/// The local stress of a point in global axes [xx yy zz xy yz zx].
std::array<double, 6> shell_stress_to_global(const ShellFrame& fr, const ShellPoint& s);

} // namespace parcae::implicit
