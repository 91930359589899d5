#pragma once
// Control-volume (airbag) kernels: the volume enclosed by a closed surface of shell elements and
// the pressure forces on them. For a closed surface the divergence theorem gives
//   V = (1/3) sum_faces  x_f . A_f,
// x_f the mean of the face's nodes and A_f its area vector: (1/2)(x3 - x1) x (x4 - x2) for a
// quadrilateral (exact for a warped bilinear face), (1/2)(x2 - x1) x (x3 - x1) for a triangle
// (node 4 = node 3). The uniform pressure p on a face gives each of its nodes p A_f / 4 (quads)
// or p A_f / 3 (triangles); for a closed triangulated surface these are exactly -p dV/dx.
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "core/types.hpp"

namespace parcae {

/// Area vector of the shell face with corner nodes conn (node 4 = node 3: a triangle).
std::array<Real, 3> face_area_vector(std::span<const Real> x, const std::array<LocalId, 4>& conn);

/// The face's contribution (1/3) x_f . A_f to the enclosed volume (outward normals positive).
Real face_volume(std::span<const Real> x, const std::array<LocalId, 4>& conn);

/// Corner forces of a uniform pressure p on the face (3 per corner, 12 in all; the fourth
/// corner of a triangle gets 0), pushing along the face normal A_f.
void face_pressure_forces(std::span<const Real> x, const std::array<LocalId, 4>& conn, Real p,
                          Real f[12]);

/// Orientation of each face (+1 keep, -1 reverse) that makes every edge-connected patch of the
/// faces consistently oriented (a shared edge runs in opposite directions in its two faces) and
/// gives each patch a positive enclosed volume at the coordinates x (3 per node): LS-DYNA takes
/// airbag surfaces whatever the normals of their shells. A face that cannot agree with all its
/// neighbours (a non-orientable patch) keeps the first orientation reached.
std::vector<std::int8_t> orient_closed_surface(std::span<const std::array<LocalId, 4>> faces,
                                               std::span<const Real> x);

/// Pressure of *AIRBAG_SIMPLE_PRESSURE_VOLUME at the relative volume vrel = V / V0: beta cn /
/// vrel (the isothermal gas law p V = const when cn and beta are constant).
inline Real simple_airbag_pressure(Real cn, Real beta, Real vrel) {
  return vrel > 0 ? beta * cn / vrel : 0.0;
}

/// One step of the ideal gas of *AIRBAG_SIMPLE_AIRBAG_MODEL (Wang-Nefske): mass m, internal
/// energy e (e = p V / (gamma - 1)), absolute pressure p at volume v_old, to volume v_new, with
/// the inflator mass m_in (at temperature t_in: enthalpy cp t_in m_in) and the vent's outflow
/// over the step dt at the start-of-step state. The work is the trapezoid (p_old + p_new)/2 *
/// (v_new - v_old), solved exactly for p_new. Returns the vented mass.
struct GasState {
  Real m = 0, e = 0, p = 0;
};
Real advance_airbag_gas(GasState& g, Real v_old, Real v_new, Real dt, Real m_in, Real t_in, Real cv,
                        Real cp, Real vent, Real pe);

/// Mass flow rate through an orifice of effective area vent (mu A) from gas at pressure p and
/// density rho into ambient pressure pe (isentropic, choked below the critical ratio
/// (2/(gamma+1))^(gamma/(gamma-1))); 0 when p <= pe.
Real vent_mass_rate(Real vent, Real p, Real rho, Real pe, Real gamma);

} // namespace parcae
