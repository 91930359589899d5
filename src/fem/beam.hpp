#pragma once
// Integrated beams (*SECTION_BEAM ELFORM 1 and 9): two nodes, 6 dofs per node, cross-section
// integration. This is a co-rotational Timoshenko beam with one integration point along the axis
// (the midpoint) and QR x QR points over the cross section. It is NOT LS-DYNA's Hughes-Liu
// element line by line: Hughes-Liu is a degenerated-continuum beam with fibre directors; for
// small strains and moderate rotations per step both give the same rate equations at the
// midpoint (linear velocity field along the axis, constant curvature and transverse shear at
// the one axial point), which is what is implemented here and verified in
// tests/verification/test_beam.cpp. ELFORM 9 (spot weld beam) uses the same kinematics.
//
// Kinematics (rate form, element frame e1 = N1 -> N2, e2 = s, e3 = t; s lies in the plane of
// N1 N2 N3): at the fibre (s, t) of the midpoint section
//   d eps_xx = dL / L_mid + (t dtheta_2 - s dtheta_3) / L
//   d gamma_xs = dt [ (v2 - v1).e2 / L - (w1 + w2).e3 / 2 ] - t dphi / L
//   d gamma_xt = dt [ (v2 - v1).e3 / L + (w1 + w2).e2 / 2 ] + s dphi / L
// with dtheta_i = dt (w2 - w1).e_i and dphi = dt (w2 - w1).e1. Rigid motions give zero strain.
// The stresses (axial, two transverse shears) live in the element frame, which follows the
// element: e1 from the nodes, e2 transported by the minimal rotation that takes the old axis to
// the new one and turned about the axis by the mean nodal spin. Material update per point: 1D
// axial + two shears with von Mises plasticity sqrt(sig^2 + 3 tau_s^2 + 3 tau_t^2) <= R (mixed
// linear hardening for *MAT_003, curves of *MAT_024, EH of *MAT_100).
//
// Nodal forces (the element's internal forces; the solver subtracts them), with the resultants
// N = int sig, Q_s = int tau_s, Q_t = int tau_t, M_s = int t sig, M_t = -int s sig,
// T = int (s tau_t - t tau_s):
//   f2 = -f1 = N e1 + Q_s e2 + Q_t e3,
//   m2 = T e1 + (M_s + Q_t L/2) e2 + (M_t - Q_s L/2) e3,
//   m1 = -T e1 + (-M_s + Q_t L/2) e2 + (-M_t - Q_s L/2) e3   (moment balance exact).
//
// Lumped mass m = (rho A + NSM) L0 / 2 per node; rotary inertia (one value per node, as the
// shells' nodes have) J = max(rho L0 / 2 (I_s + I_t), m L0^2 / 4): the physical polar value, or
// the rotary inertia of the node's half of the element about its end when that is larger (the
// scaling that keeps the shear/rotation modes of slender elements from controlling the step;
// it changes the bending frequencies by O((L0 k)^2 / 4), k the wave number, see the tests).
// Critical step: 2 / omega_max of the free-free element with these masses (axial, torsion,
// the two bending and the two shear modes in closed form); by Irons' theorem the mesh's highest
// frequency is bounded by it.
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "core/types.hpp"
#include "materials/material.hpp"

namespace parcae {

/// The most points a section rule has (QR 5 tube: 4 radial x 8 angles).
inline constexpr int kMaxBeamPoints = 32;

/// A cross-section integration rule: point coordinates (s, t) and area weights.
struct BeamSectionRule {
  std::vector<Real> s, t, w;
  Real area = 0; ///< sum of the weights
  Real is = 0;   ///< int t^2 dA (bending about s)
  Real it = 0;   ///< int s^2 dA (bending about t)
  [[nodiscard]] std::size_t size() const { return w.size(); }
};

/// The rule of *SECTION_BEAM CST (0 rectangular TS x TT, 1 tubular: TS outer and TT inner
/// diameter, 0 = solid) for quadrature QR (1: one point, 2: 2x2 Gauss, 3: 3x3 Gauss, 4: 3x3
/// Lobatto, 5: 4x4 Gauss; circles: the 1D rule in r^2 times 8 equally spaced angles, QR 1 one
/// point at the centre). Throws std::invalid_argument with a message for other values.
BeamSectionRule make_beam_section_rule(int cst, int qr, Real ts, Real tt);

/// The section of a part's beams (kept in the block: the step and mass functions need it).
struct BeamSection {
  Real nsm = 0;      ///< non-structural mass per unit length
  Real shrf = 1.0;   ///< shear factor on the transverse shear modulus
  bool null = false; ///< *MAT_NULL: mass only, no stiffness
  BeamSectionRule rule;
};

/// Per-part options of the family interface (the section is in the block).
struct BeamOptions {};

/// All integrated beams of one part, struct-of-arrays.
struct BeamBlock {
  std::vector<std::array<LocalId, 2>> conn;
  std::vector<Real> l0;                ///< initial length
  std::vector<std::array<Real, 3>> e2; ///< current s axis (unit, orthogonal to N1 -> N2)
  std::vector<Real> sig;               ///< 3 per point: sig_xx, tau_xs, tau_xt (element frame)
  std::vector<Real> back;              ///< 3 per point (kinematic hardening)
  std::vector<Real> eps_p;             ///< 1 per point
  std::vector<Real> e_int;             ///< accumulated internal energy
  std::vector<Real> e_hg;              ///< always 0
  std::vector<Real> res;               ///< 6 per element: N, Q_s, Q_t, M_s, M_t, T (output)
  std::vector<Real> preload;           ///< imposed axial force (NaN: none this step)
  std::vector<std::uint8_t> kbend;     ///< *INITIAL_AXIAL_FORCE_BEAM KBEND of the element
  std::vector<std::uint8_t> failed;    ///< never set (beams are not eroded)
  std::vector<Real> density_scale;     ///< mass scaling factor on mass and inertia (1 = none)
  int nip = 1;
  BeamSection sec;
  /// Size and zero the state for n elements of nip points (conn, l0, e2, sec set by the caller).
  void init(std::size_t n, int points);
  [[nodiscard]] std::size_t size() const { return conn.size(); }
};

/// Current length of element e.
Real beam_length(const BeamBlock& blk, std::size_t e, std::span<const Real> x);

/// Initial s axis of a beam from N1 N2 and the orientation point x3 (in the plane of the three
/// nodes, towards x3); without x3 (null), the global axis least aligned with the beam,
/// orthogonalised. Returns false when x3 lies on the beam's axis.
bool beam_initial_axis(const Real x1[3], const Real x2[3], const Real* x3, Real e2[3]);
/// The point x1 + v / |v| that an orientation vector v (*ELEMENT_BEAM_ORIENTATION VX VY VZ)
/// stands for as N3, in out; nullptr when v is zero (not given).
const Real* beam_orientation_point(const Real x1[3], const std::array<Real, 3>& v, Real out[3]);

/// Lumped mass and rotary inertia per node of element e (see the header comment).
void beam_lumped_mass(const BeamSection& sec, const MaterialParams& mat, Real l0, Real& mass,
                      Real& inertia);

/// Critical step of element e at coordinates x: 2 / the largest free-free frequency.
Real beam_critical_dt(const MaterialParams& mat, const BeamBlock& blk, std::size_t e,
                      std::span<const Real> x);

/// Stress update of one point: sig[3] (axial, two shears), back[3], eps_p for the increments
/// deps (axial strain) and dgs, dgt (engineering shear strains, already times SHRF) over dt.
void update_stress_beam_point(const MaterialParams& mat, Real deps, Real dgs, Real dgt, Real dt,
                              Real sig[3], Real back[3], Real& eps_p);

struct BeamPassResult {
  Real min_dt = 1e300;
  std::int64_t min_dt_element = -1;
};

/// Corner forces and moments (3 + 3 per corner, 2 corners per element, global frame, the
/// element's internal forces) of elements [begin, end): x at the end of the step, v and w over
/// the step, dt the step (0: forces of the current stresses only). Updates the stresses, frame,
/// energies, resultants; applies the imposed axial forces (preload); returns the range's
/// smallest critical step.
BeamPassResult compute_beam_forces(const MaterialParams& mat, BeamBlock& blk, std::size_t begin,
                                   std::size_t end, std::span<const Real> x,
                                   std::span<const Real> v, std::span<const Real> w, Real dt,
                                   std::span<Real> fe, std::span<Real> me);

} // namespace parcae
