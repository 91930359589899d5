#pragma once
// Belytschko-Tsay 4-node shell (*SECTION_SHELL ELFORM 2 / 0), one in-plane point, NIP points
// through the thickness; triangles given as n3 == n4 (C0 triangle). Corotational local frame,
// rotational degrees of freedom at the nodes.
//
// Force assembly is race-free: the kernel writes per-element corner forces and moments
// (fe, me: 12 values per element, corner-major, global frame) and the solver sums them per node.
// Sign: fe/me are the element's INTERNAL (resisting) nodal forces f_int = int B^T sigma dV plus
// hourglass forces, i.e. the equation of motion is M a = f_ext - f_int (f_int . v = stress
// power >= 0 for dissipative parts). Triangles (conn[2] == conn[3]) write two corner values for
// the shared node; summing all four corners gives the node's force.
#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "core/types.hpp"
#include "materials/material.hpp"

namespace parcae {

/// 2-D solids on *ELEMENT_SHELL (*SECTION_SHELL ELFORM 13, 15; fem/solid2d.hpp): quadrilaterals
/// in the global x-y plane, forces in that plane only.
enum class Planar : std::uint8_t {
  None,         ///< a shell (Belytschko-Tsay)
  PlaneStrain,  ///< ELFORM 13: plane strain, unit thickness
  Axisymmetric, ///< ELFORM 15: axisymmetric about the y axis (x is the radius), per radian
};

struct ShellOptions {
  int nip = 2;                   ///< integration points through the thickness (1..10)
  bool lobatto = false;          ///< *CONTROL_SHELL INTGRD = 1
  Real shrf = 1.0;               ///< transverse shear factor
  int ihq = 1;                   ///< hourglass type (1..3 viscous, 4, 5, 8 stiffness)
  Real qm = 0.1;                 ///< hourglass coefficient
  bool thickness_update = false; ///< ISTUPD
  Real q1 = 0.06, q2 = 1.5;      ///< bulk viscosity (2-D solids only)
  /// Membrane (*SECTION_SHELL ELFORM 5, 9): every point on the mid-surface (no bending), no
  /// transverse shear (shrf 0), in-plane hourglass modes only.
  bool membrane = false;
  /// ICOMP = 1: the material a axis of each point as (cos, sin) of its angle from the
  /// element's local x axis about the normal, for the laws with material axes
  /// (MaterialLaw::oriented); (1, 0): the element's axes.
  std::array<std::array<Real, 2>, 10> axis = [] {
    std::array<std::array<Real, 2>, 10> a{};
    for (auto& p : a) p = {1.0, 0.0};
    return a;
  }();
  /// Layered blocks (ShellBlock::layer): the materials of the points (ShellBlock::layer_mat
  /// indexes them); null: every point has the part's material.
  std::shared_ptr<const std::vector<MaterialParams>> layer_mats;
  /// Layered blocks (*INTEGRATION_SHELL FAILOPT 0): a shell erodes once its points whose laws
  /// can fail have failed (false: once every point has).
  bool failopt_failing_only = false;
};

/// All shells of one part (same material, section, hourglass), struct-of-arrays.
struct ShellBlock {
  std::vector<std::array<LocalId, 4>> conn;
  std::vector<Real> t0;    ///< initial thickness (average of nodal values)
  std::vector<Real> t;     ///< current thickness
  std::vector<Real> sig;   ///< nip * 5 per element: local [xx, yy, xy, yz, zx]
  std::vector<Real> back;  ///< nip * 3 per element (kinematic hardening)
  std::vector<Real> eps_p; ///< nip per element
  std::vector<Real> hg;    ///< 5 hourglass generalised stresses per element (stiffness form)
  std::vector<Real> e_int; ///< accumulated internal energy per element
  std::vector<Real> e_hg;  ///< accumulated hourglass energy per element
  std::vector<std::uint8_t> failed; ///< 1 = eroded (all points failed)
  std::vector<Real> density_scale;  ///< mass scaling factor on mass and inertia (1 = none)
  /// 2-D solids (planar != None; fem/solid2d.hpp): nip = 1, t0 = t = 1, and the stress lives in
  /// sig2d, not sig; hg holds the stiffness hourglass forces (2 per element).
  Planar planar = Planar::None;
  /// *CONTROL_TIMESTEP ISDO: the length of the step of 4-node shells. 0: area / longest side;
  /// 1: area / longest diagonal; 2: max(shortest side, area / longest side) with the bar
  /// wave speed sqrt(E / rho) (triangles: 2 area / longest side for 0 and 1).
  int isdo = 0;
  std::vector<Real> sig2d;  ///< 2-D solids: 6 per element, global [xx yy zz xy 0 0] (zz: hoop)
  std::vector<Real> back2d; ///< 2-D solids: 6 per element (kinematic hardening)
  std::vector<Real> dt2d;   ///< 2-D solids: critical step of the last force pass
  /// Layered shells (*PART_COMPOSITE, *ELEMENT_SHELL_COMPOSITE, _BETA, _OFFSET, NLOC; set up by
  /// solvers/common/shell_layup.cpp), run by the plain kernel: per element and point [zeta,
  /// weight, cos, sin]: the point at z = zeta t / 2 from the nodes (offset included), its
  /// weight (summing to 2 over the element's points; 0: a point the element does not have),
  /// its material axis. Empty: the section's rule and ShellOptions::axis.
  std::vector<Real> layer;
  std::vector<std::uint8_t> layer_mat; ///< per element and point: ShellOptions::layer_mats index
  /// Layered shells, per element: the thickness-averaged density, the rotary inertia factor
  /// (int rho z^2 dz / (int rho dz t^2); 1/12 for a uniform shell on its mid-surface) and the
  /// largest wave speed of its layers (the time step).
  std::vector<Real> layer_ro, layer_j, layer_c;
  /// Values per point in back (3; more for laws that keep more state there:
  /// MaterialLaw::shell_state, layered blocks only).
  int back_stride = 3;
  [[nodiscard]] bool layered() const { return !layer.empty(); }

  /// Resize and zero state for n elements with nip points. conn and t0 keep the entries they
  /// already have (new ones are zero), t is set to t0: fill conn and t0 before calling.
  void init(std::size_t n, int nip);
  /// The material needs no back stress (shell_keeps_back_stress false): leave back empty (the
  /// kernels then read zeros and store nothing). Call after init.
  void drop_back_stress() { std::vector<Real>().swap(back); }
  /// The same, with every element's t0 = t = thickness.
  void init(std::size_t n, int nip, Real thickness);
  [[nodiscard]] std::size_t size() const { return conn.size(); }
};

/// The corotational frame of a 4-node shell (3-node: N3 = N4) with corners X: rows e1, e2, e3 of
/// R, local = R * global, as the force kernels build it.
void shell_frame(const Real X[4][3], Real R[3][3]);

/// Through-thickness point locations in [-1, 1] and weights summing to 2.
void shell_thickness_rule(int nip, bool lobatto, std::span<Real> zeta, std::span<Real> w);

/// Result of a force pass over a range of elements: the smallest critical time step among the
/// elements of the range that are not failed after the pass, equal (bit for bit) to the minimum
/// of shell_critical_dt(mat, blk, e, x) over them, and the first element (block index) that has
/// it (min_dt = 1e300, element -1 when there is none). Comparison is strict (<) in element
/// order, as a plain loop over shell_critical_dt would do it.
struct ShellPassResult {
  Real min_dt = 1e300;
  std::int64_t min_dt_element = -1;
};

/// Corner forces and moments for elements [begin, end). x: current coordinates (3 per node),
/// v: velocities at the half step, w: angular velocities at the half step; dt: the step.
/// Updates the block's stresses, thickness, energies and failure flags, and returns the range's
/// critical time step (computed from x, the coordinates the forces use; see ShellPassResult).
ShellPassResult compute_shell_forces(const ShellOptions& opt, const MaterialParams& mat,
                                     ShellBlock& blk, std::size_t begin, std::size_t end,
                                     std::span<const Real> x, std::span<const Real> v,
                                     std::span<const Real> w, Real dt, std::span<Real> fe,
                                     std::span<Real> me);

/// The same, written plainly (no manual optimisation) as the reference the optimised kernel is
/// tested against (its time step: a loop over shell_critical_dt after the pass).
ShellPassResult compute_shell_forces_reference(const ShellOptions& opt, const MaterialParams& mat,
                                               ShellBlock& blk, std::size_t begin, std::size_t end,
                                               std::span<const Real> x, std::span<const Real> v,
                                               std::span<const Real> w, Real dt, std::span<Real> fe,
                                               std::span<Real> me);

/// Critical time step of element e (without safety factor): L / c with LS-DYNA's characteristic
/// length (area / longest side for quads; triangles by their own rule).
Real shell_critical_dt(const MaterialParams& mat, const ShellBlock& blk, std::size_t e,
                       std::span<const Real> x);

/// Lumped mass and rotary inertia that element e gives each of its DISTINCT nodes (quad: 1/4 of
/// the element mass each; triangle: 1/3 each, to be added ONCE to conn[2] == conn[3]).
/// Rotary inertia = mass * max(t^2/12, A/8) (see shell_bt.cpp).
void shell_lumped_mass(const MaterialParams& mat, const ShellBlock& blk, std::size_t e,
                       std::span<const Real> x, Real& corner_mass, Real& corner_inertia);

/// Per-corner form, safe for a plain loop over the 4 corners adding corner_mass[a] to node
/// conn[a]: quads 1/4 each; triangles 1/3, 1/3, 1/6, 1/6 (corners 2 and 3 share a node).
/// 2-D solids (blk.planar): planar_lumped_mass (fem/solid2d.hpp) and no rotary inertia.
void shell_lumped_mass(const MaterialParams& mat, const ShellBlock& blk, std::size_t e,
                       std::span<const Real> x, std::array<Real, 4>& corner_mass,
                       std::array<Real, 4>& corner_inertia);

} // namespace parcae
