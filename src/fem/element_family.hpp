#pragma once
// Element families behind one interface. Each family (SolidFamily: 8-node hexahedra of
// fem/hex8, ShellFamily: Belytschko-Tsay shells of fem/shell_bt, TrussFamily: trusses of
// fem/truss) describes its corner layout
// and wraps its kernels under the same names and signatures (forces over an element range with
// the range's step limit, critical step of one element, lumped mass), so that the solver writes one
// loop, generic in the family, and runs it for every family of the table (for_each_element_family).
// Dispatch is static and per part or element range, never per element: the hot loops stay in
// the kernels, and the floating-point operations are those of the direct kernel calls.
#include <array>
#include <cstdint>
#include <span>
#include <string_view>

#include "core/types.hpp"
#include "fem/beam.hpp"
#include "fem/hex8.hpp"
#include "fem/shell_bt.hpp"
#include "fem/truss.hpp"
#include "materials/material.hpp"

namespace parcae {

/// The nodal state an element pass reads: coordinates at the end of the step, velocities and
/// angular velocities over the step, initial coordinates (3 values per node each; w only for
/// families with rotational dofs), and the step (0 on the initial pass).
struct NodalKinematics {
  std::span<const Real> x, v, w, x0;
  Real dt = 0;
};

/// Where an element pass writes a part's corner values: forces (3 per corner) and, for
/// families with rotational dofs, moments (3 per corner; empty otherwise).
struct CornerSpans {
  std::span<Real> f, m;
};

/// Result of a force pass over an element range, for every family: the smallest critical step
/// of the range (first element with it, in element order; 1e300 and -1 when there is none) and
/// the first invalid element (-1 when there is none; families whose kernels do not report one
/// check the step instead, see kChecksStep).
struct ElementPassResult {
  Real min_dt = 1e300;
  std::int64_t min_dt_element = -1; ///< index in the block
  std::int64_t bad_element = -1;    ///< index in the block
};

/// The lumped mass an element gives its corners (mass scaling included): mass and, for
/// families with rotational dofs, rotary inertia per corner (a node shared by two corners of a
/// degenerate element gets its share through each), and the mass added by the scaling, in the
/// order the family accumulates it.
template <int Nodes> struct LumpedMass { std::array<Real, Nodes> mass{}, inertia{}, added{}; };

/// Mass scaling of one element during the run: its new scale factor and its step with it.
struct Rescaled {
  Real scale = 1;
  Real dt = 0;
};

/// For a family whose step is proportional to sqrt(scale): the factor (target / dt)^2 times the
/// current one brings the step dt to target.
inline Rescaled rescale_proportionally(Real scale, Real dt, Real target) {
  return {scale * (target / dt) * (target / dt), target};
}

/// Solid elements: 8-node hexahedra (wedges, tetrahedra collapsed), 3 dofs per corner.
struct SolidFamily {
  using Options = HexOptions;
  using Block = HexBlock;
  static constexpr std::string_view kName = "solid";
  static constexpr int kIndex = 0;           ///< position in the family table (ties: lower first)
  static constexpr int kNodes = 8;           ///< corners per element
  static constexpr int kCornerDofs = 3;      ///< values per corner (forces)
  static constexpr bool kChecksStep = false; ///< invalid elements come as bad_element
  /// Forces of elements [begin, end) (compute_hex_forces, or the reference kernel).
  static ElementPassResult compute_forces(const Options& opt, const MaterialParams& mat, Block& blk,
                                          std::size_t begin, std::size_t end,
                                          const NodalKinematics& k, CornerSpans corners,
                                          bool reference);
  /// Critical step of element e after the force pass (the one the pass stored).
  static Real critical_dt(const MaterialParams& /*mat*/, const Block& blk, std::size_t e,
                          std::span<const Real> /*x*/) {
    return blk.dt[e];
  }
  /// Critical step of element e before any pass, at coordinates x (its volume in blk.vol):
  /// characteristic length over the wave speed. For mass scaling (DT2MS).
  static Real initial_dt(const Options& opt, const MaterialParams& mat, const Block& blk,
                         std::size_t e, std::span<const Real> x);
  /// Lumped mass of element e with the mass-scaling factor scale (recorded as the element's
  /// density scale): rho V / 8 per corner (tetrahedra: rho V / 4 on their four nodes), V the
  /// volume at coordinates x (the initial ones).
  static LumpedMass<kNodes> lump_mass(const Options& opt, const MaterialParams& mat, Block& blk,
                                      std::size_t e, std::span<const Real> x, Real scale);
  /// The scale factor that brings the step of element e (blk.dt, after its force pass at
  /// coordinates x) to target, and its step then. The step l / (Q + sqrt(Q^2 + c^2)) has a
  /// bulk-viscosity part Q = q1 c + q2 l |trd| that mass does not change: the scale solves it
  /// with the pass's l, c and Q. When the viscosity alone keeps the step below target the
  /// factor is (target / dt)^2 and the step the smaller one it gives. Hydrodynamic materials
  /// (state-dependent c): (target / dt)^2, and the pass's step is kept until the next pass.
  static Rescaled rescale_for_step(const Options& opt, const MaterialParams& mat, const Block& blk,
                                   std::size_t e, std::span<const Real> x, Real target);
};

/// Shell elements: Belytschko-Tsay quadrilaterals (triangles as n3 == n4), 6 dofs per corner;
/// also the 2-D solids of *SECTION_SHELL ELFORM 13 and 15 (fem/solid2d.hpp), which the part's
/// block marks (ShellBlock::planar) and whose corners carry in-plane forces only.
struct ShellFamily {
  using Options = ShellOptions;
  using Block = ShellBlock;
  static constexpr std::string_view kName = "shell";
  static constexpr int kIndex = 1;
  static constexpr int kNodes = 4;
  static constexpr int kCornerDofs = 6;     ///< forces and moments
  static constexpr bool kChecksStep = true; ///< a non-finite or non-positive step is an error
  /// Forces and moments of elements [begin, end) (compute_shell_forces, or the reference).
  static ElementPassResult compute_forces(const Options& opt, const MaterialParams& mat, Block& blk,
                                          std::size_t begin, std::size_t end,
                                          const NodalKinematics& k, CornerSpans corners,
                                          bool reference);
  /// Critical step of element e at coordinates x (shell_critical_dt).
  static Real critical_dt(const MaterialParams& mat, const Block& blk, std::size_t e,
                          std::span<const Real> x) {
    // 2-D solids: the step of the pass (with bulk viscosity, as for solids)
    return blk.planar != Planar::None ? blk.dt2d[e] : shell_critical_dt(mat, blk, e, x);
  }
  /// Critical step of element e before any pass (the same as critical_dt).
  static Real initial_dt(const Options& /*opt*/, const MaterialParams& mat, const Block& blk,
                         std::size_t e, std::span<const Real> x) {
    return shell_critical_dt(mat, blk, e, x);
  }
  /// Lumped mass and rotary inertia of element e (shell_lumped_mass) times the mass-scaling
  /// factor scale.
  static LumpedMass<kNodes> lump_mass(const Options& opt, const MaterialParams& mat, Block& blk,
                                      std::size_t e, std::span<const Real> x, Real scale);
  /// Mass scaling: the step is proportional to sqrt(scale) (rescale_proportionally).
  static Rescaled rescale_for_step(const Options& /*opt*/, const MaterialParams& mat,
                                   const Block& blk, std::size_t e, std::span<const Real> x,
                                   Real target) {
    return rescale_proportionally(blk.density_scale[e], critical_dt(mat, blk, e, x), target);
  }
};

/// Truss elements (*SECTION_BEAM ELFORM 3): 2 nodes, axial force only, 3 dofs per corner.
struct TrussFamily {
  using Options = TrussOptions;
  using Block = TrussBlock;
  static constexpr std::string_view kName = "truss";
  static constexpr int kIndex = 2;
  static constexpr int kNodes = 2;
  static constexpr int kCornerDofs = 3;
  static constexpr bool kChecksStep = true; ///< a zero-length truss has a zero step: an error
  static ElementPassResult compute_forces(const Options& opt, const MaterialParams& mat, Block& blk,
                                          std::size_t begin, std::size_t end,
                                          const NodalKinematics& k, CornerSpans corners,
                                          bool reference);
  /// L / c at coordinates x.
  static Real critical_dt(const MaterialParams& mat, const Block& blk, std::size_t e,
                          std::span<const Real> x) {
    return truss_critical_dt(mat, blk, e, x);
  }
  static Real initial_dt(const Options& /*opt*/, const MaterialParams& mat, const Block& blk,
                         std::size_t e, std::span<const Real> x) {
    return truss_critical_dt(mat, blk, e, x);
  }
  /// (rho A + NSM) L0 / 2 per node, times the mass-scaling factor scale.
  static LumpedMass<kNodes> lump_mass(const Options& opt, const MaterialParams& mat, Block& blk,
                                      std::size_t e, std::span<const Real> x, Real scale);
  /// Mass scaling: the step is proportional to sqrt(scale) (rescale_proportionally).
  static Rescaled rescale_for_step(const Options& /*opt*/, const MaterialParams& mat,
                                   const Block& blk, std::size_t e, std::span<const Real> x,
                                   Real target) {
    return rescale_proportionally(blk.density_scale[e], critical_dt(mat, blk, e, x), target);
  }
};

/// Integrated beams (*SECTION_BEAM ELFORM 1 and 9, fem/beam): 2 nodes, forces and moments.
struct BeamFamily {
  using Options = BeamOptions;
  using Block = BeamBlock;
  static constexpr std::string_view kName = "beam";
  static constexpr int kIndex = 3;
  static constexpr int kNodes = 2;
  static constexpr int kCornerDofs = 6;     ///< forces and moments
  static constexpr bool kChecksStep = true; ///< a zero-length beam has a zero step: an error
  static ElementPassResult compute_forces(const Options& opt, const MaterialParams& mat, Block& blk,
                                          std::size_t begin, std::size_t end,
                                          const NodalKinematics& k, CornerSpans corners,
                                          bool reference);
  /// 2 / the element's largest free-free frequency at coordinates x.
  static Real critical_dt(const MaterialParams& mat, const Block& blk, std::size_t e,
                          std::span<const Real> x) {
    return beam_critical_dt(mat, blk, e, x);
  }
  static Real initial_dt(const Options& /*opt*/, const MaterialParams& mat, const Block& blk,
                         std::size_t e, std::span<const Real> x) {
    return beam_critical_dt(mat, blk, e, x);
  }
  /// Lumped mass (rho A + NSM) L0 / 2 and rotary inertia per node, times the scaling factor.
  static LumpedMass<kNodes> lump_mass(const Options& opt, const MaterialParams& mat, Block& blk,
                                      std::size_t e, std::span<const Real> x, Real scale);
  /// Mass scaling: the step is proportional to sqrt(scale) (rescale_proportionally).
  static Rescaled rescale_for_step(const Options& /*opt*/, const MaterialParams& mat,
                                   const Block& blk, std::size_t e, std::span<const Real> x,
                                   Real target) {
    return rescale_proportionally(blk.density_scale[e], critical_dt(mat, blk, e, x), target);
  }
};

/// One row of the family table, for code that needs the layout at run time.
struct ElementFamilyInfo {
  std::string_view name;
  int nodes = 0;
  int corner_dofs = 0;
};

template <class Family> constexpr ElementFamilyInfo describe_element_family() {
  return {Family::kName, Family::kNodes, Family::kCornerDofs};
}

/// The families, in table order (kIndex).
inline constexpr std::array<ElementFamilyInfo, 4> kElementFamilies{
    describe_element_family<SolidFamily>(), describe_element_family<ShellFamily>(),
    describe_element_family<TrussFamily>(), describe_element_family<BeamFamily>()};

/// Calls fn(Family{}) for every family, in table order.
template <class Fn> void for_each_element_family(Fn&& fn) {
  fn(SolidFamily{});
  fn(ShellFamily{});
  fn(TrussFamily{});
  fn(BeamFamily{});
}

/// Table position of the family named name; kElementFamilies.size() when there is none.
constexpr int find_element_family(std::string_view name) {
  for (std::size_t i = 0; i < kElementFamilies.size(); ++i)
    if (kElementFamilies[i].name == name) return static_cast<int>(i);
  return static_cast<int>(kElementFamilies.size());
}

} // namespace parcae
