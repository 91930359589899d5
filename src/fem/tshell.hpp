// Thick shells (*ELEMENT_TSHELL, *SECTION_TSHELL ELFORM 1): eight-node bricks, N1-N4 the bottom
// face and N5-N8 the top, computed as a shell: one point in the plane (the centre, xi = eta = 0)
// and NIP points through the thickness (zeta_i, w_i) on the line between the faces' centres.
//
// At each point the velocity gradient of the trilinear brick is turned into the element's lamina
// frame (e3 normal to the mid-surface, e1 along dx/dxi, e2 = e3 x e1; the frame turns with the
// element, so stresses kept in it are co-rotational) and the shell law (plane stress, the
// material's update_shell) updates [s11 s22 s12 s23 s31] from [d11 d22 2d12 2d23 2d31] dt (the
// transverse shears scaled by SHRF). The through-thickness strain is the fibre's own: the
// law's thickness strain for sigma_33 = 0 is its free stretch, and one elastic stress per element,
// E (mean fibre stretch - mean free stretch), holds the fibre to it (a brick with plane stress
// alone has a free thickness mode; held point by point, bending would lock), with its Poisson
// share nu / (1 - nu) sigma_33 in s11 and s22 so that the element stays conservative. The forces
// are f_a = sum_i 4 w_i det J_i sigma_i grad N_a(0, 0, zeta_i).
//
// The bending modes (zeta xi, zeta eta) are integrated through the thickness; the modes a point
// on the centre line cannot see, xi eta and xi eta zeta, get Flanagan-Belytschko hourglass
// control (IHQ 1-3 viscous, 4-6 stiffness) with the in-plane gradients only. Critical step:
// (1 / l_p^2 + 1 / t^2)^(-1/2), l_p the in-plane length (mid-surface area / longest diagonal)
// and t the thickness, over the dilatational wave speed sqrt(E (1 - nu) / ((1 + nu)(1 - 2 nu)
// rho)): a brick's highest frequency, as stiff through the thickness as the fibre's stress.
#pragma once

#include <span>

#include "fem/hex8.hpp"

namespace parcae {

/// Values per through-thickness point in HexBlock::ts: [s11 s22 s12 s23 s31] in the lamina
/// frame, s33, the effective plastic strain, the law's 3 back-stress values.
inline constexpr int kTShellState = 10;

/// Forces of thick shells [begin, end) of blk (blk.ts sized ts_nip * kTShellState per element);
/// writes the element's mean stress (global axes), mean plastic strain, volume, energies and
/// critical step as the hexahedron kernel does.
HexPassResult compute_tshell_forces(const HexOptions& opt, const MaterialParams& mat, HexBlock& blk,
                                    std::size_t begin, std::size_t end, std::span<const Real> x,
                                    std::span<const Real> v, Real dt, std::span<Real> fe);

/// Critical step of thick shell e at coordinates x (no bulk viscosity; see above).
Real tshell_critical_dt(const MaterialParams& mat, const HexBlock& blk, std::size_t e,
                        std::span<const Real> x);

} // namespace parcae
