#pragma once
// Boundary conditions, loads, initial velocities, local frames and lumped masses of the model
// (mesh/model.hpp includes this header; split from it by task): the cards *BOUNDARY_SPC_*,
// *BOUNDARY_PRESCRIBED_MOTION_*, *INITIAL_VELOCITY_*, *DEFINE_VECTOR, *DEFINE_BOX,
// *DEFINE_COORDINATE_*, *LOAD_NODE_*, *LOAD_BODY_*, *LOAD_RIGID_BODY, *ELEMENT_MASS_*,
// *ELEMENT_INERTIA as the reader leaves them.
#include <array>
#include <cstdint>
#include <vector>

#include "core/error.hpp"
#include "core/types.hpp"

namespace parcae {

/// *BOUNDARY_SPC_NODE / _SET, and *NODE TC/RC codes, expanded to one entry per node.
/// *INITIAL_STRESS_SOLID: the stress (global [xx yy zz xy yz zx]) and effective plastic strain
/// that solid element `solid` (an index into Model::solids) starts from.
struct InitialStress {
  std::size_t solid = 0;
  std::array<Real, 6> sig{};
  Real eps_p = 0;
  SourceLoc loc;
};

/// *INITIAL_STRESS_SHELL: the stress (global [xx yy zz xy yz zx]) and effective plastic strain
/// through the thickness of shell element `shell` (an index into Model::shells): one entry per
/// distinct thickness coordinate T in [-1, 1], ascending, [T, sxx, syy, szz, sxy, syz, szx, eps]
/// (the in-plane points at one T averaged).
struct InitialShellStress {
  std::size_t shell = 0;
  std::vector<std::array<Real, 8>> points;
  SourceLoc loc;
};

struct Spc {
  LocalId node = 0;
  std::array<bool, 6> dof{}; ///< x, y, z, rx, ry, rz fixed
  /// CID whose axes are not the global ones (up to order and sign): dof are the local axes'
  /// (axes[0..2], unit vectors in global components). Global entries are merged per node.
  bool skew = false;
  std::array<std::array<Real, 3>, 3> axes{};
};

enum class MotionTarget : std::uint8_t { Node, NodeSet, Rigid };
enum class MotionKind : std::uint8_t { Velocity = 0, Acceleration = 1, Displacement = 2 };

/// *BOUNDARY_PRESCRIBED_MOTION_NODE / _SET / _RIGID.
struct PrescribedMotion {
  MotionTarget target = MotionTarget::Node;
  GlobalId target_id = 0; ///< node id, node set id or part id
  int dof = 1; ///< LS-DYNA DOF code: 1..3 translations, 5..7 rotations, 4 / -4 / 8 along VID
  MotionKind vad = MotionKind::Velocity;
  GlobalId lcid = 0;
  Real sf = 1.0;
  Real death = 1e28;
  Real birth = 0.0;
  GlobalId vid = 0;                 ///< *DEFINE_VECTOR of DOF 4, -4, 8
  std::array<Real, 3> dir{0, 0, 0}; ///< its unit direction (global), set when resolved
  /// DOF 9, 10, 11 (rotation of the nodes about an axis parallel to x, y, z): the axis passes
  /// through (OFFSET1, OFFSET2) = (y, z), (z, x), (x, y) respectively (card 2).
  Real offset1 = 0, offset2 = 0;
  SourceLoc loc;
};

/// *DEFINE_VECTOR: a direction from tail to head (given in system CID); *DEFINE_VECTOR_NODES:
/// from node tail_node to node head_node (their positions at time 0).
struct DefinedVector {
  GlobalId id = 0;
  std::array<Real, 3> tail{0, 0, 0}, head{0, 0, 0};
  GlobalId cid = 0;
  GlobalId tail_node = 0, head_node = 0; ///< _NODES (0: tail and head are given)
  SourceLoc loc;
};

/// *INITIAL_VELOCITY (set), *INITIAL_VELOCITY_NODE, *INITIAL_VELOCITY_GENERATION.
struct InitialVelocity {
  enum class Target : std::uint8_t { Node, NodeSet, Part, PartSet, All } target = Target::All;
  GlobalId target_id = 0;
  std::array<Real, 3> v{0, 0, 0};
  std::array<Real, 3> omega_node{0, 0, 0}; ///< nodal rotational velocity (NODE / set form)
  // generation: rigid rotation omega about axis through (xc, yc, zc) with direction (nx,ny,nz)
  Real omega = 0;
  std::array<Real, 3> center{0, 0, 0};
  std::array<Real, 3> axis{0, 0, 0};
  bool generation = false;
  GlobalId exclude_set = 0;                   ///< *INITIAL_VELOCITY NSIDEX
  std::array<Real, 3> v_exclude{0, 0, 0};     ///< velocity of the NSIDEX nodes (card 3)
  std::array<Real, 3> omega_exclude{0, 0, 0}; ///< rotational velocity of the NSIDEX nodes
  GlobalId box = 0; ///< *INITIAL_VELOCITY BOXID: only nodes inside this *DEFINE_BOX (0: all)
  /// ICID as read; the reader turns v, omega_node and axis into global components and sets
  /// it back to 0 (the solver sees global values only).
  GlobalId cid = 0;
  SourceLoc loc;
};

/// *DEFINE_BOX: an axis-aligned box (bounds inclusive).
struct Box {
  GlobalId id = 0;
  std::array<Real, 3> lo{0, 0, 0}, hi{0, 0, 0};
  SourceLoc loc;
  /// *DEFINE_BOX_LOCAL: the bounds are in the local system of this origin and these unit axes
  /// (rows: local x, y, z in global components); false: global axes.
  bool local = false;
  std::array<Real, 3> origin{0, 0, 0};
  std::array<std::array<Real, 3>, 3> axes{};
  [[nodiscard]] bool contains(Real x, Real y, Real z) const {
    if (local) {
      const Real d[3] = {x - origin[0], y - origin[1], z - origin[2]};
      Real l[3];
      for (std::size_t i = 0; i < 3; ++i)
        l[i] = axes[i][0] * d[0] + axes[i][1] * d[1] + axes[i][2] * d[2];
      x = l[0];
      y = l[1];
      z = l[2];
    }
    return x >= lo[0] && x <= hi[0] && y >= lo[1] && y <= hi[1] && z >= lo[2] && z <= hi[2];
  }
};

/// *DEFINE_COORDINATE_SYSTEM / _NODES / _VECTOR: a local orthonormal frame. The definition is
/// kept as given (points, nodes or vectors) and turned into axes once the nodes are known.
struct CoordinateSystem {
  enum class Kind : std::uint8_t { Points, Nodes, Vectors } kind = Kind::Points;
  GlobalId id = 0;
  /// Points: origin, a point on the local x axis, a point in the local x-y plane. Vectors:
  /// p[1] the x direction, p[2] a vector in the x-y plane, origin from node n[0] (0: global
  /// origin). Nodes: n[0] origin, n[1] on the x axis, n[2] in the x-y plane.
  std::array<std::array<Real, 3>, 3> p{};
  std::array<GlobalId, 3> n{0, 0, 0};
  // Filled when resolved: origin and the unit local axes in global coordinates.
  std::array<Real, 3> origin{0, 0, 0};
  std::array<std::array<Real, 3>, 3> axes{};
  SourceLoc loc;
  /// A vector given in the local frame, in global components.
  [[nodiscard]] std::array<Real, 3> to_global(const std::array<Real, 3>& v) const {
    std::array<Real, 3> g{0, 0, 0};
    for (int a = 0; a < 3; ++a)
      for (int i = 0; i < 3; ++i) g[i] += v[a] * axes[a][i];
    return g;
  }
};

/// *LOAD_NODE_POINT / _SET.
struct NodalLoad {
  bool is_set = false;
  GlobalId target_id = 0;
  int dof = 1; ///< 1..3 forces, 5..7 moments
  GlobalId lcid = 0;
  Real sf = 1.0;
  SourceLoc loc;
};

/// *ELEMENT_MASS (_NODE_SET: the mass split equally over the set's nodes) and *ELEMENT_INERTIA:
/// a lumped mass at a node, with a rotary inertia tensor for *ELEMENT_INERTIA (global axes,
/// [xx yy zz xy yz zx]; zero for *ELEMENT_MASS).
struct NodeMass {
  GlobalId id = 0; ///< EID
  LocalId node = 0;
  Real mass = 0;
  std::array<Real, 6> inertia{};
  SourceLoc loc;
};

/// *ELEMENT_MASS_PART / _PART_SET: ADDMASS added to the parts (FINMASS > 0: the mass that
/// brings them to FINMASS in all), spread over their nodes in proportion to the parts' own
/// lumped nodal masses.
struct PartMass {
  std::vector<GlobalId> pids;
  Real addmass = 0;
  Real finmass = 0;
  SourceLoc loc;
};

/// *INITIAL_VELOCITY_RIGID_BODY: the rigid body of part pid starts with velocity vel[0..2] at
/// its centre of mass and angular velocity vel[3..5] (global axes), over any other initial
/// velocity of its nodes.
struct RigidBodyVelocity {
  GlobalId pid = 0;
  std::array<Real, 6> vel{};
  SourceLoc loc;
};

/// *LOAD_RIGID_BODY: force (DOF 1-3) or moment (DOF 5-7) SF * curve(t) on the rigid body of
/// part pid, along dir (global unit vector: the DOF's axis of system CID), applied at the body's
/// centre of mass.
struct RigidBodyLoad {
  GlobalId pid = 0;
  int dof = 1;
  std::array<Real, 3> dir{1, 0, 0};
  GlobalId lcid = 0;
  Real sf = 1.0;
  SourceLoc loc;
};

/// *DAMPING_GLOBAL: mass-weighted damping D (VALDMP, or the curve LCID of time) of every
/// deformable node and rigid body, scaled per direction (x y z, rx ry rz).
struct GlobalDamping {
  bool on = false;
  GlobalId lcid = 0;
  Real valdmp = 0;
  std::array<Real, 6> scale{1, 1, 1, 1, 1, 1};
  SourceLoc loc;
};

/// *LOAD_BODY_X / _Y / _Z / _VECTOR and *LOAD_GRAVITY_PART: acceleration a(t) = sf * curve(t)
/// in direction dir; LS-DYNA applies the inertial load -m*a, i.e. gravity in -z is
/// *LOAD_BODY_Z with a positive g. *LOAD_BODY_RX / _RY / _RZ (kind Spin): angular velocity
/// omega(t) = sf * curve(t) about the axis through `center` along `axis`; each node feels the
/// centrifugal force m omega^2 r, r its current distance vector from the axis.
struct BodyLoad {
  enum class Kind : std::uint8_t { Acceleration, Spin };
  int dir = 2; ///< 0 x, 1 y, 2 z
  GlobalId lcid = 0;
  Real sf = 1.0;
  GlobalId lciddr = 0; ///< LCIDDR: the curve during dynamic relaxation (0: not applied then)
  SourceLoc loc;
  Kind kind = Kind::Acceleration;
  std::array<Real, 3> center{0, 0, 0}; ///< Spin: a point of the axis (XC, YC, ZC)
  std::array<Real, 3> axis{0, 0, 0};   ///< Spin: the unit axis
  /// *LOAD_GRAVITY_PART (_SET): only the nodes of this part's (part set's) elements, whatever
  /// *LOAD_BODY_PARTS says; 0: the deck's body-load nodes
  GlobalId part = 0;
  bool part_is_set = false;
};

/// *CONSTRAINED_INTERPOLATION (an RBE3): the dependent node moves with the weighted
/// least-squares rigid fit of its independent nodes' motion, and the force (and moment) on it
/// is distributed to them by the transpose of that fit, so that the pair does no work.
struct Interpolation {
  struct Independent {
    GlobalId node = 0;
    /// weights of the x, y, z translations and rotations (0: the dof is not in IDOF)
    std::array<Real, 6> w{1, 1, 1, 1, 1, 1};
  };
  GlobalId id = 0;        ///< ICID
  GlobalId node = 0;      ///< DNID, the dependent node
  bool rotations = false; ///< DDOF holds 4, 5, 6: the node's rotations follow the fit too
  std::vector<Independent> nodes;
  SourceLoc loc;
};

/// *CONSTRAINED_JOINT_STIFFNESS_GENERALIZED: moments between two rigid bodies from their relative
/// rotation (phi, theta, psi: the components, in A's axes, of the rotation vector of body B's
/// system relative to body A's since time 0): per component the curve LC(angle), the damping curve
/// DLC(rate), an elastic-plastic friction spring (stiffness ES, limit FM) and elastic stops (ES
/// beyond the stop angles), each opposing the rotation.
struct JointStiffness {
  GlobalId id = 0; ///< JSID
  GlobalId pida = 0, pidb = 0;
  GlobalId cida = 0, cidb = 0;
  std::array<GlobalId, 3> lc{}, dlc{};         ///< LCIDPH LCIDT LCIDPS, DLCIDPH DLCIDT DLCIDPS
  std::array<Real, 3> es{}, fm{};              ///< ESPH EST ESPS, FMPH FMT FMPS
  std::array<Real, 3> nsa{}, psa{};            ///< stop angles in radians (0: no stop)
  std::array<std::array<Real, 3>, 3> axes_a{}; ///< CIDA's axes at time 0 (resolved)
  std::array<std::array<Real, 3>, 3> axes_b{}; ///< CIDB's (CIDA's when CIDB = 0)
  SourceLoc loc;
};

/// The most layers (points) of a layered shell (fem/shell_bt.hpp ShellBlock::layer).
inline constexpr int kMaxShellLayers = 64;

/// A shell's layers and reference surface beyond its section (solvers/common/shell_layup.cpp):
/// *PART_COMPOSITE (a part's layers), *ELEMENT_SHELL_COMPOSITE (an element's), *ELEMENT_SHELL_BETA
/// (the element's material angle), _OFFSET (its reference surface). Layers are listed bottom
/// (most negative z) to top; each is one integration point at its middle.
struct ShellLayup {
  std::vector<GlobalId> mid; ///< per layer: its material (0: the part's MID)
  std::vector<Real> thick;   ///< per layer: its thickness (> 0)
  std::vector<Real> angle;   ///< per layer: its material angle (degrees) from the element's axes
  bool has_beta = false;     ///< BETA given (replaces the material's own angle)
  Real beta = 0;             ///< degrees
  bool has_offset = false;   ///< _OFFSET given (replaces the section's NLOC)
  Real offset = 0;           ///< the reference surface's distance from the nodes along the normal
  SourceLoc loc;
};

/// *INTEGRATION_SHELL: a user through-thickness rule (*SECTION_SHELL QR/IRID = -IRID): per
/// point its position S in [-1, 1], its weight WF (its share of the thickness) and the part
/// whose material it has (0: the element's).
struct IntegrationShell {
  GlobalId id = 0;
  int failopt = 0; ///< 0: the shell erodes when its points that can fail have; 1: all points
  std::vector<Real> s, wf;
  std::vector<GlobalId> pid;
  SourceLoc loc;
};

} // namespace parcae
