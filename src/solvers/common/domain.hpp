#pragma once
// The explicit solver's state: nodal arrays, element blocks per part, rigid bodies, constraints.
// Built once from a Model; the time loop (solver.cpp) advances it.
#include <array>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/types.hpp"
#include "fem/element_family.hpp"
#include "fem/hex8.hpp"
#include "fem/shell_bt.hpp"
#include "materials/material.hpp"
#include "mesh/model.hpp"

namespace parcae {

struct SolidPart {
  GlobalId pid = 0;
  std::string title;
  HexOptions opt;
  MaterialParams mat;
  HexBlock blk;
  std::vector<GlobalId> elem_id;
  std::vector<std::size_t> model_index; ///< index of each element in model.solids
  std::size_t corner_offset = 0;        ///< index of this part's first corner in the corner arrays
  std::size_t n_boundary = 0;           ///< MPP: the first n_boundary elements touch shared nodes
};

struct ShellPart {
  GlobalId pid = 0;
  std::string title;
  ShellOptions opt;
  MaterialParams mat;
  ShellBlock blk;
  std::vector<GlobalId> elem_id;
  std::vector<std::size_t> model_index; ///< index of each element in model.shells
  std::size_t corner_offset = 0;
  std::size_t n_boundary = 0; ///< MPP: the first n_boundary elements touch shared nodes
};

struct TrussPart {
  GlobalId pid = 0;
  std::string title;
  TrussOptions opt;
  MaterialParams mat;
  TrussBlock blk;
  std::vector<GlobalId> elem_id;
  std::vector<std::size_t> model_index; ///< index of each element in model.beams
  std::size_t corner_offset = 0;
  std::size_t n_boundary = 0; ///< MPP: the first n_boundary elements touch shared nodes
};

struct BeamPart {
  GlobalId pid = 0;
  std::string title;
  BeamOptions opt;
  MaterialParams mat;
  BeamBlock blk; ///< its section (blk.sec) included
  std::vector<GlobalId> elem_id;
  std::vector<std::size_t> model_index; ///< index of each element in model.beams
  std::size_t corner_offset = 0;
  std::size_t n_boundary = 0; ///< MPP: the first n_boundary elements touch shared nodes
};

/// What made a rigid body.
enum class RigidKind : std::uint8_t {
  Part,      ///< a *MAT_RIGID part (with its *CONSTRAINED_EXTRA_NODES, merged followers)
  NodalBody, ///< *CONSTRAINED_NODAL_RIGID_BODY
  Spotweld,  ///< *CONSTRAINED_SPOTWELD (two nodes)
  WeldSpot,  ///< *CONSTRAINED_GENERALIZED_WELD_SPOT (a node set)
};

/// A rigid body (*MAT_RIGID part, nodal rigid body or weld): 6-dof body; node positions follow
/// the body. Welds can fail: the body then becomes inactive (active = 0, mass and momentum
/// zero, so that sums over bodies need not test it) and its nodes deformable; indices into
/// Domain::bodies never change.
struct RigidBody {
  GlobalId pid = 0; ///< part id (Part), PID (NodalBody), 0 (welds)
  RigidKind kind = RigidKind::Part;
  GlobalId weld_id = 0;    ///< weld id (Spotweld, WeldSpot)
  std::uint8_t active = 1; ///< 0 once a weld has failed
  // --- failure (welds): (|fn|/sn)^fn_exp + (|fs|/ss)^fs_exp >= 1, or t >= tfail ---
  Real sn = 0, ss = 0, fn_exp = 1, fs_exp = 1, tfail = 1e20;
  std::size_t axis_first = 0, axis_last = 0; ///< weld axis: positions in nodes (first -> last)
  std::vector<std::uint8_t> side2;           ///< per node: on the axis' far side (see fail_welds)
  Real mass2 = 0;                            ///< mass of the side-2 nodes
  Real fail_time = 0, fail_fn = 0, fail_fs = 0; ///< when and at what force it failed
  [[nodiscard]] bool can_fail() const {
    return kind == RigidKind::Spotweld || kind == RigidKind::WeldSpot;
  }
  std::string title;
  Real mass = 0;
  std::array<Real, 3> xc{};    ///< centre of mass
  std::array<Real, 3> v{};     ///< velocity of the centre (half step)
  std::array<Real, 3> l{};     ///< angular momentum about the centre (half step)
  std::array<Real, 3> omega{}; ///< angular velocity (half step)
  std::array<Real, 9> rot{1, 0, 0, 0, 1, 0, 0, 0, 1}; ///< rotation since t = 0 (row-major)
  std::array<Real, 9> inertia0{}; ///< inertia tensor about xc at t = 0 (global frame)
  std::array<Real, 9> inertia0_inv{};
  std::vector<LocalId> nodes;
  std::vector<Real> r0;         ///< node offsets from xc at t = 0 (3 per node)
  std::array<bool, 3> fix_t{};  ///< *MAT_RIGID CMO = 1 CON1
  std::array<bool, 3> fix_r{};  ///< CON2
  std::array<Real, 3> force{};  ///< resultant force (last step)
  std::array<Real, 3> moment{}; ///< resultant moment about xc (last step)
};

/// A penalty joint between two rigid bodies (see joints.hpp); replicated on every rank.
struct JointState {
  Joint::Kind kind = Joint::Kind::Spherical;
  GlobalId id = 0;
  std::array<int, 2> body{-1, -1};
  int pairs = 1;
  /// offsets of the pair points from their body's centre at t = 0 (global frame), [pair][side]
  std::array<std::array<std::array<Real, 3>, 2>, 3> r0{};
  Real rps = 1;
  Real tfail = 0;          ///< released at this time (0: never)
  Real k_rot = 0;          ///< universal / planar: the penalty of their couple (from dt_k)
  Real dot0 = 0;           ///< universal: the arms' dot product at time 0
  bool failed = false;     ///< released (no forces, no energy)
  std::array<Real, 3> k{}; ///< penalty stiffness per pair (from dt_k)
  Real dt_k = 0;           ///< the step k was set for: the largest so far
};

/// *CONSTRAINED_JOINT_STIFFNESS_GENERALIZED between two rigid bodies (joint_stiffness.cpp).
struct JointStiffnessState {
  const JointStiffness* def = nullptr;
  std::array<int, 2> body{-1, -1};
  std::array<const Curve*, 3> lc{}, dlc{};
  std::array<Real, 9> q0{};   ///< B's axes in A's at time 0 (the angles count from there)
  std::array<Real, 3> slip{}; ///< the friction springs' slipped angles
  std::array<Real, 3> last{}; ///< the angles (followed continuously) and moments of the last call
  std::array<Real, 3> last_m{};
  Real work = 0; ///< the energy the moments took from the bodies (glstat's spring energy)
};

struct Domain {
  // --- nodes (3 values per node, interleaved x y z) ---
  std::size_t nnode = 0;
  std::vector<GlobalId> node_id;
  std::vector<Real> x0, x, v, a, f, w, m_ext;
  std::vector<Real> mass, inertia;      ///< lumped mass; rotary inertia (shell nodes)
  std::vector<std::uint8_t> has_rot;    ///< node carries rotational dofs (shell node)
  std::vector<int> rigid_of;            ///< rigid body index, -1 if deformable
  std::vector<std::array<bool, 6>> spc; ///< fixed dofs
  /// Constraints in a skewed local system (*BOUNDARY_SPC CID): dof fixes the velocity along
  /// axes[0..2] (and the angular velocity about them). A node may have several, besides spc.
  struct SkewSpc {
    LocalId node = 0;
    std::array<bool, 6> dof{};
    std::array<std::array<Real, 3>, 3> axes{};
  };
  std::vector<SkewSpc> skew_spc; ///< ascending nodes
  Real added_mass = 0;
  Real physical_mass = 0;

  // --- elements ---
  std::vector<SolidPart> solids;
  std::vector<ShellPart> shells;
  std::vector<TrussPart> trusses;
  std::vector<BeamPart> beams; ///< integrated beams (ELFORM 1, 9)
  std::vector<RigidBody> bodies;
  std::vector<JointState> joints; ///< penalty joints between bodies (replicated)
  /// *CONSTRAINED_JOINT_STIFFNESS_GENERALIZED (replicated)
  std::vector<JointStiffnessState> joint_stiffness;
  std::size_t n_solid_corners = 0, n_shell_corners = 0;
  std::vector<Real> corner_f_solid; ///< 3 per solid corner
  std::vector<Real> corner_f_shell; ///< 3 per shell corner
  std::vector<Real> corner_m_shell; ///< 3 per shell corner
  std::size_t n_truss_corners = 0;
  std::vector<Real> corner_f_truss; ///< 3 per truss corner
  std::size_t n_beam_corners = 0;
  std::vector<Real> corner_f_beam, corner_m_beam; ///< 3 + 3 per beam corner
  // node -> corners (CSR), fixed order: deterministic assembly for any thread count
  std::vector<std::int64_t> solid_corner_start, solid_corner_list;
  std::vector<std::int64_t> shell_corner_start, shell_corner_list;
  std::vector<std::int64_t> truss_corner_start, truss_corner_list;
  std::vector<std::int64_t> beam_corner_start, beam_corner_list;

  const Model* model = nullptr;
  [[nodiscard]] std::size_t element_count() const;

  // --- MPP (a serial domain is the one-rank case: everything owned, no halo) ---
  /// This rank counts the node in global sums (each node has exactly one owner).
  std::vector<std::uint8_t> owned;
  /// Model node index -> local node index (kInvalidLocal when the node is not on this rank).
  std::vector<LocalId> local_of_global;
  /// Local node index -> model node index.
  std::vector<LocalId> global_index;
  /// Corners of this rank's own elements; ghost corners (other ranks' elements at shared
  /// nodes, received every cycle) follow them in the corner arrays.
  std::size_t n_local_solid_corners = 0, n_local_shell_corners = 0, n_local_truss_corners = 0;
  std::size_t n_local_beam_corners = 0;
  struct Halo {
    int rank = 0;
    std::vector<std::int64_t> send_solid, send_shell; ///< local corner indices, global order
    std::size_t recv_solid = 0, recv_shell = 0;       ///< ghost corners received from rank
    std::vector<std::int64_t> send_truss;
    std::size_t recv_truss = 0;
    std::vector<std::int64_t> send_beam; ///< 6 values per corner (force, moment)
    std::size_t recv_beam = 0;
  };
  std::vector<Halo> halo; ///< neighbours in increasing rank order
  [[nodiscard]] LocalId local_node(GlobalId deck_id) const {
    const LocalId g = model->node_index(deck_id);
    return g == kInvalidLocal ? kInvalidLocal : local_of_global[static_cast<std::size_t>(g)];
  }
};

/// The parts of an element family (fem/element_family.hpp) in the domain: loops generic in the
/// family reach the family's parts and corner arrays through these.
inline std::vector<SolidPart>& parts_of(Domain& d, SolidFamily /*family*/) {
  return d.solids;
}
inline const std::vector<SolidPart>& parts_of(const Domain& d, SolidFamily /*family*/) {
  return d.solids;
}
inline std::vector<ShellPart>& parts_of(Domain& d, ShellFamily /*family*/) {
  return d.shells;
}
inline const std::vector<ShellPart>& parts_of(const Domain& d, ShellFamily /*family*/) {
  return d.shells;
}
inline std::vector<TrussPart>& parts_of(Domain& d, TrussFamily /*family*/) {
  return d.trusses;
}
inline const std::vector<TrussPart>& parts_of(const Domain& d, TrussFamily /*family*/) {
  return d.trusses;
}

inline std::vector<BeamPart>& parts_of(Domain& d, BeamFamily /*family*/) {
  return d.beams;
}
inline const std::vector<BeamPart>& parts_of(const Domain& d, BeamFamily /*family*/) {
  return d.beams;
}

/// A part's corner values in the domain's corner arrays (forces; moments for shells).
inline CornerSpans corner_spans_of(Domain& d, const SolidPart& part) {
  return {
      {d.corner_f_solid.data() + 3 * part.corner_offset, SolidFamily::kNodes * 3 * part.blk.size()},
      {}};
}
inline CornerSpans corner_spans_of(Domain& d, const ShellPart& part) {
  const std::size_t n = ShellFamily::kNodes * 3 * part.blk.size();
  return {{d.corner_f_shell.data() + 3 * part.corner_offset, n},
          {d.corner_m_shell.data() + 3 * part.corner_offset, n}};
}
inline CornerSpans corner_spans_of(Domain& d, const TrussPart& part) {
  return {
      {d.corner_f_truss.data() + 3 * part.corner_offset, TrussFamily::kNodes * 3 * part.blk.size()},
      {}};
}

inline CornerSpans corner_spans_of(Domain& d, const BeamPart& part) {
  const std::size_t n = BeamFamily::kNodes * 3 * part.blk.size();
  return {{d.corner_f_beam.data() + 3 * part.corner_offset, n},
          {d.corner_m_beam.data() + 3 * part.corner_offset, n}};
}

/// Per part with *ELEMENT_MASS_PART: its physical lumped nodal masses (node, mass).
using PartShares = std::map<GlobalId, std::vector<std::pair<LocalId, Real>>>;
/// During build_domain, once the elements are lumped: *ELEMENT_MASS_PART (ADDMASS, or FINMASS
/// less the parts' mass, in proportion to part_share) and *ELEMENT_MASS / *ELEMENT_INERTIA
/// masses into the nodal masses (lumped_masses.cpp). InputError at the card when a part has no
/// deformable mass or already exceeds FINMASS.
void add_lumped_masses(const Model& model, Domain& d, const PartShares& part_share);
/// During build_domain, once the rigid bodies are formed: *ELEMENT_INERTIA tensors into their
/// bodies, or (isotropic only: InputError otherwise) into deformable shell or beam nodes.
void add_lumped_inertia(const Model& model, Domain& d);

/// During build_domain: the discrete springs and dampers elems (model.beams indices) of a
/// *SECTION_DISCRETE part as a truss part whose forces come from the discrete law (fem/truss.hpp;
/// discrete_elements.cpp). InputError for a zero-length element.
void add_discrete_part(const Model& model, const Part& part, const Section& sec,
                       const Material& mat, const std::vector<std::size_t>& elems, Domain& d);
/// During build_domain, once the masses and constraints are known: each discrete element's
/// critical step (discrete_critical_dt with its nodes' masses and the largest sums of stiffness
/// and damping of the discrete elements at either node). InputError for a node that has no mass
/// and is free.
void set_discrete_steps(const Model& model, Domain& d);
/// The critical step of a spring (stiffness k) and damper (damping c) between masses m1 and m2
/// (a mass <= 0: a node that does not move): 2 / omega (sqrt(1 + xi^2) - xi) with the reduced
/// mass, 2 m / c without stiffness, 1e300 with neither.
Real discrete_critical_dt(Real m1, Real m2, Real stiffness, Real damping);

/// The hourglass type and coefficient of a part (part_options.cpp): its *HOURGLASS hg, else
/// *CONTROL_HOURGLASS; IHQ 0 is 1, 8 is 4, and 6 (assumed strain) is for solids: shells and
/// 2-D solids (solid false) take 4. InputError for the other types.
void hourglass_settings(const Model& model, const Hourglass* hg, int& ihq, Real& qm,
                        bool solid = false);
/// Beams and trusses do not erode: InputError when the material's own failure criteria are set
/// (MaterialLaw::may_fail: *MAT_100 EFAIL, TFAIL, NRR ...).
void refuse_failure_on_beams(const MaterialParams& mp, const Material& mat, GlobalId pid);

/// The options of a shell part from its section and the controls (shell_sections.cpp):
/// points through the thickness and their rule, shear factor, thickness update, membrane
/// (ELFORM 5 and 9) and the points' material angles (ICOMP = 1, plus the material's own angle
/// for laws with material axes). InputError at the section for NIP outside 1..10 and, with
/// check_form (deformable parts: a rigid part's form does not matter), for the shell forms the
/// explicit solver does not have.
void set_shell_options(const Model& model, const Section& sec, const MaterialParams& mat,
                       ShellOptions& opt, bool check_form);

/// Whether a shell part runs layered (shell_layup.cpp): *PART_COMPOSITE, an element of it with
/// its own layers, BETA or offset (*ELEMENT_SHELL_COMPOSITE, _BETA, _OFFSET), NLOC != 0 or a
/// section rule other than Gauss / Lobatto (QR/IRID 1, trapezoidal; < 0, *INTEGRATION_SHELL).
bool shell_part_layered(const Model& model, const Part& part, const Section& sec,
                        const std::vector<std::size_t>& elems);
/// The points of a layered part: the most layers of its elements (the section's NIP for those
/// without). InputError past kMaxShellLayers.
int shell_layer_count(const Model& model, const Part& part, const Section& sec,
                      const ShellOptions& opt, const std::vector<std::size_t>& elems);
/// Fills a layered part's per-element points (ShellBlock::layer ...) and its layer materials
/// (ShellOptions::layer_mats, the part's material first) once blk holds the elements and their
/// thicknesses; the back-stress array is kept when a layer's law needs it. InputError for a
/// layer material that shells cannot run (naming the element's or part's card).
void set_shell_layers(const Model& model, const Part& part, const Section& sec,
                      const MaterialParams& part_mat, const std::vector<std::size_t>& elems,
                      ShellPart& sp);

/// During build_domain: a part of thick shells (*SECTION_TSHELL, elements held with the solids;
/// sp.blk initialised, sp.model_index set) gets the thick-shell kernel's options (the section's
/// NIP Gauss points, SHRF) and its points' state; its connectivity is the deck's (no reordering
/// of degenerate bricks). InputError for a law without the shell constants it needs
/// (tshell_setup.cpp).
void setup_thick_shell(const Model& model, const Section& sec, SolidPart& sp);

/// The 2-D solid formulation of a shell section: ELFORM 13 plane strain, 15 axisymmetric,
/// None for the shells; InputError at the section for ELFORM 12 and 14 (planar_parts.cpp).
Planar planar_kind(const Section& sec, GlobalId pid);
/// During build_domain: a part of 2-D solids (elems: model.shells indices; opt: its hourglass
/// type and coefficient) as a shell part with a planar block: counter-clockwise corners, unit
/// thickness, bulk viscosity (hg's Q1/Q2 when given), the z dof of its nodes fixed. A rigid
/// part (body >= 0) gives its mass to the body instead. InputError for a law the 2-D solids
/// cannot run, an element out of the x-y plane, a negative radius (axisymmetric), a zero area.
void add_planar_part(const Model& model, const Part& part, const Section& sec, const Hourglass* hg,
                     Planar planar, const ShellOptions& opt, MaterialParams mp,
                     const std::vector<std::size_t>& elems, int body, Domain& d);
/// A shell part of 2-D solids (other families: never).
inline bool is_planar(const ShellPart& p) {
  return p.blk.planar != Planar::None;
}
template <class Part> bool is_planar(const Part& /*p*/) {
  return false;
}

/// Build the solver state from the model: element blocks, lumped masses, rigid bodies, mass
/// scaling (reported in added_mass), initial velocities. Throws InputError on inconsistencies.
Domain build_domain(const Model& model);

/// Element -> rank maps (per model.solids / model.shells entry).
struct ElementRanks {
  std::vector<int> solid, shell, beam;
};

/// This rank's part of a whole-model domain: its own elements (those touching nodes shared
/// with other ranks first in each part), the nodes they touch, every rigid body's nodes, node
/// ownership, and the ghost-corner exchange plan. Built from the same global domain on every
/// rank, so no communication is needed and masses, initial state and rigid bodies are
/// bitwise those of the serial run.
Domain restrict_domain(const Domain& global, const ElementRanks& ranks, int nranks, int rank);

} // namespace parcae
