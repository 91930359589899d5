#pragma once
// Truss elements (*SECTION_BEAM ELFORM 3): two nodes, axial force only, 3 dofs per node.
// Kinematics: the axial rate of deformation d = e . (v2 - v1) / L at the mid-step geometry
// (x - v dt / 2), e the unit vector N1 -> N2; the axial (Cauchy) stress is updated in 1D
// (elastic, or a 1D radial return with linear isotropic/kinematic hardening for *MAT_003 and
// the yield curve of *MAT_024); the axial force N = sigma A0 (the section area A0 is kept).
// Lumped mass (rho A0 + NSM) L0 / 2 per node; critical step L / c with c = sqrt(E / rho) (the
// non-structural mass would only lengthen it).
//
// Discrete springs and dampers (*ELEMENT_DISCRETE, a discrete law: MaterialLaw::discrete_force)
// are trusses whose axial force comes from their law instead of a stress: sig holds the law's
// force F(dl, v), dl = L - L0 + OFFSET the elongation and v = (L - L_start) / dt its rate over
// the step; area holds the element's scale factor S (axial force S F); back and eps_p hold the
// law's two history values. They have no mass (their nodes must have some); their step is fixed
// at set-up from their nodes' masses (dt_fixed, solvers/common/discrete_elements.cpp).
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "core/types.hpp"
#include "materials/material.hpp"

namespace parcae {

struct TrussOptions {
  Real nsm = 0; ///< non-structural mass per unit length (*SECTION_BEAM NSM), lumped with rho A
};

struct TrussBlock {
  std::vector<std::array<LocalId, 2>> conn;
  std::vector<Real> area;           ///< cross-section area A0
  std::vector<Real> l0;             ///< initial length
  std::vector<Real> sig;            ///< axial Cauchy stress
  std::vector<Real> back;           ///< back stress (kinematic hardening)
  std::vector<Real> eps_p;          ///< effective plastic strain
  std::vector<Real> e_int;          ///< accumulated internal energy
  std::vector<Real> e_hg;           ///< always 0 (no hourglass modes)
  std::vector<Real> force;          ///< axial force N (output)
  std::vector<std::uint8_t> failed; ///< never set (trusses are not eroded)
  std::vector<Real> density_scale;  ///< mass scaling factor on the mass (1 = none)
  /// Discrete elements: OFFSET (initial elongation) and the critical step from the nodal masses
  /// (set-up); empty for trusses.
  std::vector<Real> offset, dt_fixed;
  [[nodiscard]] bool discrete() const { return !dt_fixed.empty(); }
  /// Resize and zero the state for n elements (conn and area filled before, l0 computed by
  /// the caller).
  void init(std::size_t n);
  [[nodiscard]] std::size_t size() const { return conn.size(); }
};

/// Current length of element e at coordinates x.
Real truss_length(const TrussBlock& blk, std::size_t e, std::span<const Real> x);

/// Critical step L / c of element e at coordinates x (c = sqrt(E / rho)).
Real truss_critical_dt(const MaterialParams& mat, const TrussBlock& blk, std::size_t e,
                       std::span<const Real> x);

/// 1D stress update: sig, back, eps_p of one element for the axial strain increment deps
/// (rate deps / dt); returns the new stress.
Real update_stress_truss(const MaterialParams& mat, Real deps, Real dt, Real& sig, Real& back,
                         Real& eps_p);

struct TrussPassResult {
  Real min_dt = 1e300;
  std::int64_t min_dt_element = -1;
};

/// Corner forces (3 per corner, 2 corners per element, forces the element exerts: the solver
/// subtracts them) of elements [begin, end): x at the end of the step, v over the step, dt the
/// step (0: forces of the current stresses only). Updates stresses and energies; returns the
/// range's smallest critical step (first element with it).
TrussPassResult compute_truss_forces(const MaterialParams& mat, TrussBlock& blk, std::size_t begin,
                                     std::size_t end, std::span<const Real> x,
                                     std::span<const Real> v, Real dt, std::span<Real> fe);

} // namespace parcae
