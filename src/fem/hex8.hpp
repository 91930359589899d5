#pragma once
// 8-node hexahedron, one-point integration (*SECTION_SOLID ELFORM 1), Flanagan-Belytschko (1981)
// uniform-gradient B matrix (exact volume derivative) and hourglass control (viscous IHQ 1-3,
// stiffness IHQ 4-5). Wedges and tetrahedra given as collapsed hexahedra work unchanged.
//
// Force assembly is race-free: the kernel writes per-element corner forces fe (24 values per
// element: corner-major, x y z) and the solver sums them per node in a fixed order.
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "core/types.hpp"
#include "materials/material.hpp"

namespace parcae {

struct HexOptions {
  int ihq = 1;    ///< 1..3 viscous, 4..5 stiffness, 6 assumed-strain stiffness (corotational)
  Real qm = 0.1;  ///< hourglass coefficient
  Real q1 = 0.06; ///< linear bulk viscosity coefficient
  Real q2 = 1.5;  ///< quadratic bulk viscosity coefficient
  /// ELFORM 10: four-node tetrahedra, held as the hexahedron N1 N2 N3 N3 N4 N4 N4 N4 (a
  /// triangle base and a collapsed top: exactly the tetrahedron's volume, so the one-point hex
  /// kernel's mean strain is the constant-strain tetrahedron's). Mass is lumped V/4 per node and
  /// there is no hourglass control (qm = 0: a tetrahedron has no hourglass modes).
  bool tetrahedra = false;
  /// *SECTION_TSHELL parts (fem/tshell.hpp): the thick-shell kernel, plane stress at the
  /// through-thickness points zeta (in [-1, 1], weights w summing to 2) of the element's centre,
  /// transverse shear scaled by shrf; hourglass control of the in-plane modes only.
  bool thick_shell = false;
  int nip = 0;
  Real shrf = 1.0;
  std::array<Real, 10> zeta{}, w{};
};

/// All solids of one part, struct-of-arrays.
struct HexBlock {
  std::vector<std::array<LocalId, 8>> conn;
  std::vector<Real> sig; ///< 6 per element [xx yy zz xy yz zx]
  /// 6 per element: back stress of *MAT_003 with BETA < 1 (hydrodynamic materials: their
  /// history words); empty for the other materials (init's keep_back), whose back stress is 0.
  std::vector<Real> back;
  std::vector<Real> eps_p; ///< effective plastic strain
  /// 12 per element: stiffness hourglass forces (3 directions x 4 modes); empty for the
  /// viscous forms (IHQ 1-3), which keep no hourglass state.
  std::vector<Real> hgq;
  std::vector<Real> vol;   ///< current volume
  std::vector<Real> e_int; ///< accumulated internal energy (incl. bulk viscosity work)
  std::vector<Real> e_hg;  ///< accumulated hourglass energy
  std::vector<Real> dt;    ///< critical time step (no safety factor) from the last force pass
  std::vector<Real> density_scale; ///< mass scaling factor on density (1 = none)
  std::vector<std::uint8_t> failed;
  /// Thick shells: the points' state, kTShellState values per point, ts_nip points per element
  /// (fem/tshell.hpp); empty for solids.
  int ts_nip = 0;
  std::vector<Real> ts;

  /// n elements at rest; stiffness_hourglass: keep the stiffness forms' state (IHQ 4, 5);
  /// keep_back: keep the back stress (kinematic hardening, hydrodynamic history).
  void init(std::size_t n, bool stiffness_hourglass = true, bool keep_back = true);
  [[nodiscard]] std::size_t size() const { return conn.size(); }
};

/// The hexahedron an element is computed as. A tetrahedron written N1 N2 N3 N4 N4 N4 N4 N4 (as
/// decks write them) is, read as a hexahedron, the cone from N4 over the bilinear surface
/// N1-N2-N3-N4: half the tetrahedron. N1 N2 N3 N3 N4 N4 N4 N4 (a triangle base, the top
/// collapsed to the apex) is the tetrahedron itself: that order is returned for the first.
std::array<LocalId, 8> hex_connectivity(const std::array<LocalId, 8>& n);

/// Exact volume of a trilinear hexahedron and its gradient dV/dx_I (b = V * B).
Real hex_volume_gradient(const Real x[8], const Real y[8], const Real z[8], Real bx[8], Real by[8],
                         Real bz[8]);

/// The same gradient computed plainly: 2x2x2 Gauss integration of cof(J) dN/dxi (exact, since
/// the integrand is at most cubic per direction). Reference for the closed form.
Real hex_volume_gradient_reference(const Real x[8], const Real y[8], const Real z[8], Real bx[8],
                                   Real by[8], Real bz[8]);

/// Result of a force pass over a range of elements.
struct HexPassResult {
  Real min_dt = 1e300;
  std::int64_t min_dt_element = -1; ///< index in the block
  std::int64_t bad_element = -1;    ///< first element with non-positive volume or NaN
};

/// Internal corner forces for elements [begin, end) of the block: updates stresses, energies,
/// volumes and critical time steps. x: coordinates at the end of the step, v: velocities over
/// the step, dt: the step (0 on the initial pass). x0: the initial coordinates (same layout as
/// x), needed by hyperelastic materials (MaterialParams::hyperelastic()), whose stress is a
/// function of the deformation gradient F = dx/dX, taken at the element centre as
/// F = 1 + sum_a (x_a - X_a) B0_a with the uniform-gradient matrix B0 of the initial geometry
/// (exact for a parallelepiped; the stress is then recomputed each pass, on the initial pass
/// too, and needs no history). Their internal energy grows by the stored energy change
/// V0 [W(F(x)) - W(F(x - dt v))] (plus the bulk viscosity work) rather than by the
/// sigma:D trapezoid, whose end-of-step strain rate is not zero under rigid rotation.
/// Elements with det F <= 0 are reported like inverted ones.
/// SIMD: the elements are processed in batches of kSolidBatch, one per vector lane; every
/// element goes through the same operations whatever its lane, so an element's results do not
/// depend on [begin, end) or on the other elements (bitwise).
HexPassResult compute_hex_forces(const HexOptions& opt, const MaterialParams& mat, HexBlock& blk,
                                 std::size_t begin, std::size_t end, std::span<const Real> x,
                                 std::span<const Real> v, Real dt, std::span<Real> fe,
                                 std::span<const Real> x0 = {});

/// Plain reference implementation of the same element (gradient by Gauss integration, no
/// hoisting); tested to agree with compute_hex_forces.
HexPassResult compute_hex_forces_reference(const HexOptions& opt, const MaterialParams& mat,
                                           HexBlock& blk, std::size_t begin, std::size_t end,
                                           std::span<const Real> x, std::span<const Real> v,
                                           Real dt, std::span<Real> fe,
                                           std::span<const Real> x0 = {});

/// Characteristic length of the time step: min(V / A_max, l_K), volume over the largest face
/// area and the element's stiffness bound l_K (fem/hex8_length.hpp), from the volume gradient
/// b = dV/dx (hex_volume_gradient) and w = hex_length_weight(lambda, mu). w < 0: V / A_max alone
/// (tetrahedra, whose mass is not lumped per corner).
Real hex_characteristic_length(const Real x[8], const Real y[8], const Real z[8], Real volume,
                               const Real bx[8], const Real by[8], const Real bz[8], Real w);

/// w for hex_characteristic_length: the material's elastic constants, or -1 for tetrahedra.
Real hex_length_weight(const MaterialParams& mat, bool tetrahedra);

} // namespace parcae
