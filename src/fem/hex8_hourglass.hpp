#pragma once
// Hourglass control of the one-point hexahedron beyond the Flanagan-Belytschko forms kept in
// hex8.cpp: type 6, the assumed-strain stiffness stabilisation (scalar element path).
#include "core/types.hpp"
#include "materials/material.hpp"

namespace parcae {

/// IHQ 6: assumed-strain stiffness stabilisation in the element's corotational frame (after
/// Belytschko & Bindeman 1993). The frame e_1 e_2 e_3 is the centre Jacobian's columns
/// dx/dxi, dx/deta (orthonormalised) and their cross product; a_k = |dx/dxi_k| are the element's
/// half-lengths. The hourglass velocities of mode m (eta zeta, zeta xi, xi eta, xi eta zeta) in
/// direction i are q_im = e_i . sum_a v_a gamma_ma, i.e. 8 times the rate of the amplitude A of
/// the displacement field A h_m(xi, eta, zeta). The generalised forces Q_im (kept in the frame,
/// so rigid rotation leaves them alone) grow by QM K_im / 64 q_im dt, K_im the stiffness of that
/// field's energy W = K A^2 / 2 on a rectangular element without its parasitic shear strains:
///  - bending (direction i is one of the mode's two coordinates, j the other, k the third):
///    u_i = A x_i x_j / (a_i a_j) strains the element as a beam, eps_ii = A x_j / (a_i a_j) at
///    E (uniaxial stress, no volumetric locking): K = 8/3 E a_j a_k / a_i;
///  - warping (i not among the mode's coordinates p, r): the shears of u_i = A x_p x_r /
///    (a_p a_r) at G: K = 8/3 G a_i (a_p^2 + a_r^2) / (a_p a_r);
///  - the twist mode xi eta zeta: its normal strain at E and its two shears at G:
///    K = 8/9 (E a_j a_k / a_i + G (a_i a_k / a_j + a_i a_j / a_k)).
/// With QM = 1 a rectangular element bends exactly as the beam it represents, so a single
/// element through the thickness carries Euler-Bernoulli bending (the one-point stress carries
/// none). Adds the forces to f (24, node-major) and returns the hourglass work of the step.
/// gam: the Flanagan-Belytschko hourglass vectors gamma_ma of the element; qd: the hourglass
/// velocities sum_a v_ia gamma_ma (global components); hq: the element's 12 stored generalised
/// forces (frame components, [4 i + m]).
Real assumed_strain_hourglass(const MaterialParams& mat, Real qm, const Real x[8], const Real y[8],
                              const Real z[8], const Real gam[4][8], const Real qd[3][4], Real dt,
                              Real hq[12], Real* f);

} // namespace parcae
