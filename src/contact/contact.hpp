#pragma once
// Penalty contact (LS-DYNA's default penalty formulation): data-oriented kernels over node and
// segment arrays. No MPI, no Domain: the solver passes spans of its interleaved nodal arrays
// (x y z per node, local node indices) and owns the call sequence:
//
//   setup, once per interface (after build_domain, masses known):
//     Interface ifc; ifc.p = ...;                           // from *CONTACT_... cards
//     ifc.main / ifc.secondary = surface_from_shells(conn, thickness, bulk, x)
//                             or surface_from_hex_exterior(hexes, bulk, x);
//     ifc.secondary_nodes (+ secondary_node_thickness) for NODES_TO_SURFACE;
//     ContactState st = init_state(ifc, nnode, x);          // passes, adjacency, first search
//     auto list = initial_penetrations(ifc, st, x);         // report; IGNORE=0 moved nodes in x
//                                                           // (copy x to x0 afterwards)
//   every cycle n, after the internal forces, before the accelerations:
//     update_search(ifc, st, x, n);                         // bucket sort when due
//     ContactStatus s = contact_forces(ifc, st, x, v, mass, t, dt, f_contact);
//       x = x^n, v = v^{n-1/2} (the velocities that moved x^{n-1} to x^n), dt = t^n - t^{n-1}
//       (the first cycle: any dt > 0, f_prev is zero), mass = lumped nodal masses.
//       f_contact gets the contact forces ADDED (applied-force sign: M a = f_ext + f_contact -
//       f_int); rigid-body nodes: sum them into the body like applied forces.
//     if (!s.ok) throw RuntimeError(... s.blowup ...); s.released: warnings.
//   output: st.e_interface.result() (sliding energy = -work of the contact forces, including
//     friction), st.e_friction.result(), st.resultant_secondary / resultant_main (rcforc).
//
// Conventions. A segment is 4 local node indices (a triangle repeats its 3rd node:
// n[2] == n[3]); its normal is (x2 - x0) x (x3 - x1) (right hand rule over n0 n1 n2 n3). Every
// per-node result is computed independently (OpenMP over the nodes of a pass), then gathered in
// a fixed order: forces are bitwise independent of the number of OpenMP threads. The Interface
// must not change (segments, node lists) after init_state; the state refers to it by position.
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "core/exact_sum.hpp"
#include "core/types.hpp"

namespace parcae::contact {

using Segment = std::array<LocalId, 4>;

enum class ContactType {
  nodes_to_surface,   ///< secondary node list vs main segments (one way)
  surface_to_surface, ///< two way: secondary nodes vs main segments and main nodes vs secondary
  single_surface      ///< every node of the surface vs every segment not containing it
};

struct ContactParams {
  ContactType type = ContactType::nodes_to_surface;
  /// Automatic: segment orientation ignored, contact from either side (the side is taken when
  /// contact starts and kept while the pair is active), shell thickness offsets on both sides.
  /// Solid faces (zero thickness) are one-sided (outward normal) in both modes.
  /// Non-automatic: one-sided, the gap is measured along +n only (g = distance along +n - half
  /// thicknesses; contact when g < 0, the node pushed along +n); deeper than the release depth:
  /// ignored.
  bool automatic = true;
  Real fs = 0, fd = 0, dc = 0; ///< mu = fd + (fs - fd) exp(-dc |v_rel_t|)
  Real vc = 0;                 ///< viscous friction: |f_t| <= vc * A_segment (0: off)
  Real vdc = 0;          ///< viscous normal damping, percent of critical (0: off; see forces.cpp)
  Real sfs = 1, sfm = 1; ///< penalty scale factors for secondary / main segments
  Real slsfac = 0.1;     ///< *CONTROL_CONTACT SLSFAC
  int soft = 0;          ///< 0: k from the element; 1: max(SOFT=0 k, mass/time-step k)
  /// *CONTROL_CONTACT PENOPT: 1 the smaller of the segment's stiffness and the node's (from its
  /// own surface's segments; LS-DYNA's default), 2 the segment's
  int penopt = 1;
  Real sofscl = 0.1; ///< SOFT=1 scale factor
  /// DTSTIF: > 0 the step of the SOFT=1 stiffness, fixed; 0: the first solution step, raised
  /// when the step grows (ContactState::dt_c)
  Real dtstif = 0;
  Real sfst = 1, sfmt = 1; ///< contact thickness = shell thickness * sfst (secondary), sfmt
  Real sst = 0, mst = 0;   ///< explicit contact thickness (> 0 overrides the shell's)
  /// LS-DYNA's single-surface rule (*CONTROL_CONTACT SSTHK = 0): a shell segment's contact
  /// thickness (after SFST) is at most 0.4 x its shortest edge (Surface::min_edge), unless SST
  /// or the part's OPTT (Surface::fixed_thickness) give it.
  bool limit_shell_thickness = false;
  Real birth = 0, death = 1e20;
  /// PENMAX: release depth = penmax * reference thickness (shells: contact thickness; solids:
  /// segment size sqrt(A)). 0 = LS-DYNA default: 0.4 for automatic contacts, 1e20 (never) for
  /// non-automatic ones (use xpene there).
  Real penmax = 0;
  /// *CONTROL_CONTACT XPENE: for non-automatic contacts, release when the penetration exceeds
  /// xpene * reference thickness (default 4).
  Real xpene = 4;
  int search_interval = 10;    ///< bucket sort every n cycles (LS-DYNA NSBCS); <= 0: adaptive only
  bool adaptive_search = true; ///< also search when a node moved more than margin / 2
  Real search_margin = 0;      ///< capture distance beyond thicknesses; 0 = 0.5 * mean edge
  Real initial_tolerance = 0;  ///< initial penetrations <= this are not reported/corrected
  int ignore = 0;              ///< IGNORE: 0 move initially penetrating nodes, 1 offset them
  /// A contact that starts deeper than the node's approach speed x 2 dt explains (a node that
  /// slides in across a fold or corner while already within the shell thickness) keeps that
  /// depth as an offset (like IGNORE = 1) instead of being pushed out with energy that was
  /// never stored. The solver turns it on; off, a new deep penetration is pushed out at once.
  bool offset_sudden = false;
  /// Blow-up: penetration > blowup_factor * segment size, or a jump of the penetration by more
  /// than jump_factor * segment size within one cycle.
  Real blowup_factor = 1.0, jump_factor = 0.5;
  /// Tiebreak (*CONTACT_..._TIEBREAK OPTION; 0: an ordinary contact). A tied node is held by a
  /// penalty spring (the pair stiffness, normal and tangential alike) at a material point of its
  /// segment (the shape functions and the distance along the segment's normal at the moment
  /// it was tied). Nodes initially in contact (gap within tie_tolerance of the segment size) are
  /// tied at their initial distance by every option.
  ///   1: nodes that come into contact later stick too (at the contact surface); never fail.
  ///   2: only the initially tied nodes; a tie fails when (sigma_n / nfls)^2 + (sigma_s /
  ///      sfls)^2 >= 1 (sigma_n: tension only; stresses = tie force / the node's share of its
  ///      surface's area); a failed node is in ordinary contact from then on.
  ///   3: as 1, with the failure criterion of 2.
  int tiebreak = 0;
  Real nfls = 0, sfls = 0;
  Real tie_tolerance = 0.01;
  /// Tied contact (*CONTACT_TIED_..., *CONTACT_SPOTWELD): nodes within the normal projection of
  /// a segment and within tie_distance of it (0: max(0.6 (node + segment thickness), 5 % of the
  /// segment's size)) at time 0 are tied where they are (tie_initial_contacts), as the tiebreak
  /// ties, for good; the other nodes take no part: no contact, no initial penetration check.
  /// (The solver turns constraint-based ties into constraints after tie_initial_contacts.)
  bool tied = false;
  Real tie_distance = 0;
};

/// A segment surface. thickness: full shell thickness of each segment (0 for solid faces);
/// k0: SOFT=0 base stiffness of each segment WITHOUT slsfac and sf (K A^2/V or K A/min diag).
struct Surface {
  std::vector<Segment> seg;
  std::vector<Real> thickness;
  std::vector<Real> k0;
  std::vector<Real> area0; ///< initial segment area (viscous friction limit, release depths)
  /// Optional, per segment (empty: none). min_edge: a shell segment's initial shortest edge (the
  /// single-surface thickness limit); fixed_thickness: > 0, the contact thickness its part gives
  /// (*PART_CONTACT OPTT), used as it is (no SST/SFST, no limit).
  std::vector<Real> min_edge, fixed_thickness;
  /// Optional, per segment: a solid face's element thickness behind it, the owning element's
  /// initial volume over the face's area (> 0; 0 or empty: none). The maximum penetration of a
  /// solid face is a share of it (LS-DYNA's "thickness of the solid element"), not of the face's
  /// size: a thin layer of solids must not take penetrations deeper than itself.
  std::vector<Real> depth0;
  /// Optional: 0 = segment switched off (its element eroded); empty = all active. The solver may
  /// change it at any cycle (the search keeps inactive segments, the force kernel skips them).
  std::vector<std::uint8_t> active;
  [[nodiscard]] std::size_t size() const { return seg.size(); }
  /// Distinct nodes of the segments, ascending.
  [[nodiscard]] std::vector<LocalId> nodes() const;
};

/// Surface from shell elements (4 nodes, triangles n3 == n4) with per-element thickness. The
/// segment normals follow the shell normals. k0 = K A / min(diagonal) (area and diagonals from
/// x); bulk: bulk modulus per element (or one value for all when bulk.size() == 1).
Surface surface_from_shells(std::span<const Segment> shells, std::span<const Real> thickness,
                            std::span<const Real> bulk, std::span<const Real> x);

/// Exterior faces of hexahedra (8 nodes, LS-DYNA ordering; degenerate hexes allowed): faces not
/// shared by two elements, ordered by (element, face), outward normals. k0 = K A^2 / V with the
/// owning element's volume. bulk: per element or one value.
Surface surface_from_hex_exterior(std::span<const std::array<LocalId, 8>> hexes,
                                  std::span<const Real> bulk, std::span<const Real> x);

/// What orient_toward did.
struct OrientReport {
  std::size_t patches = 0;  ///< edge-connected patches of the surface
  std::size_t reversed = 0; ///< segments whose node order was reversed
};

/// Forming contacts (LS-DYNA orients the tooling automatically): orients the segments of surf
/// consistently over each edge-connected patch (neighbours run their shared edge in opposite
/// directions; breadth first from the patch's lowest segment, which keeps its order), then
/// reverses a whole patch when most of the given nodes (the blank; a sample of at most 256,
/// every k-th) lie behind it, each judged at its nearest segment of the patch (centroid
/// distance). A segment is reversed as n0 n3 n2 n1 (triangles n0 n2 n1 n1). Deterministic:
/// depends on the data only. x: positions of the node indices (3 per node).
OrientReport orient_toward(Surface& surf, std::span<const LocalId> nodes, std::span<const Real> x);

/// Stiffness formulas (exposed for the SOFT tests and the solver's report).
Real solid_face_stiffness(Real slsfac, Real sf, Real bulk, Real area, Real volume);
Real shell_segment_stiffness(Real slsfac, Real sf, Real bulk, Real area, Real min_diagonal);
/// SOFT=1 part: sofscl * 0.5 * m* / dt_c^2 with m* = min(secondary node mass, smallest nodal
/// mass of the segment) and dt_c the initial step (raised when the solution step grows), or
/// DTSTIF when it is given (ContactParams::dtstif).
Real soft1_stiffness(Real sofscl, Real m_secondary, Real m_segment_min, Real dt_c);
/// A penalty tie's spring, at most what the step carries: the spring adds
/// k (1/m_node + sum_a N_a^2 / m_a) to the squared frequency of the pair, which the elements
/// already bring near (2 / dt)^2; k dt^2 (1/m_node + sum_a N_a^2/m_a) <= 0.5 keeps the sum
/// below it with the step's TSSFAC margin (a shell segment's penalty, K A / diagonal, does not
/// shrink with the thickness and can exceed it several times on thin, small-mass edges).
Real tie_stiffness(Real k, LocalId node, const Segment& c, const Real* shape,
                   std::span<const Real> mass, Real dt);

struct Interface {
  ContactParams p;
  /// nodes_to_surface: the secondary nodes (surface_to_surface: taken from `secondary` when
  /// empty). Optional per-node contact thickness (full value; default 0).
  std::vector<LocalId> secondary_nodes;
  std::vector<Real> secondary_node_thickness;
  /// Optional, per secondary node: > 0, the contact thickness its shells' parts give (OPTT),
  /// used as it is (before SST and SFST).
  std::vector<Real> secondary_node_fixed_thickness;
  Surface secondary; ///< surface_to_surface, single_surface (single: the only surface)
  Surface main;      ///< nodes_to_surface, surface_to_surface
  /// Optional, per node index: 0 = the node takes no part in contact (it left the surface when
  /// its elements eroded); empty = all take part. Like Surface::active, the solver may change it
  /// at any cycle: a switched-off node is searched but gets no contact (its history is cleared).
  std::vector<std::uint8_t> node_active;
  /// Optional, per node index: the rigid body that carries the node (-1: deformable); empty =
  /// all deformable. A node and a segment carried by the same body never move relative to each
  /// other, so they are never paired (LS-DYNA likewise skips contact within a rigid body); the
  /// search also leaves out nodes that are not near any other body's segments. Only bodies that
  /// stay rigid for the whole run (not welds, which can fail) may be given.
  std::vector<int> node_body;
  [[nodiscard]] bool node_on(LocalId n) const {
    return node_active.empty() || node_active[static_cast<std::size_t>(n)] != 0;
  }
};

/// What the force kernel's exact early rejection needs of a segment (forces.cpp): the corners'
/// bounding box, the release depth, the mean plane (unit normal, warp) and per edge an in-plane
/// outward test.
struct alignas(64) SegCull {
  Real lo[3], hi[3];
  Real release;
  Real half_t; ///< the segment's half contact thickness (Pass::seg_half_t)
  Real cen[3], nrm[3];
  Real warp;
  int nv;
  bool plane;     ///< false: degenerate segment (no plane test)
  bool one_sided; ///< its normal stays within 90 degrees of the mean normal (cull.hpp)
  Real m[4][3];   ///< per edge: n x (edge vector)
  Real off[4];    ///< per edge: p_a . m_a less the tolerance (reject q . m_a < off)
};

/// One sweep of nodes against segments (an interface has 1 or 2 of them).
struct Pass {
  std::vector<LocalId> nodes;    ///< searching nodes, ascending
  std::vector<Real> node_half_t; ///< half contact thickness per node
  /// per node: its own stiffness (the largest scaled k0 of the segments of its own surface
  /// holding it; 0: on none, e.g. listed nodes), bounding the pair stiffness under PENOPT 1
  std::vector<Real> node_k;
  bool on_main = true; ///< segments searched: ifc.main (true) or ifc.secondary
  /// rigid body carrying each node / all nodes of each segment (-1: none); both empty when the
  /// interface has no rigid bodies (Interface::node_body)
  std::vector<int> node_body, seg_body;
  std::vector<Real> seg_half_t; ///< half contact thickness per segment
  Real sf = 1;                  ///< penalty scale factor of these segments
  // candidates (CSR over `nodes`, segments ascending)
  std::vector<std::int64_t> cand_start;
  std::vector<LocalId> cand_seg;
  // single surface: the nodes that share a segment with each node (CSR, ascending): segments
  // touching them are the node's own neighbourhood (the shell around it), never its contacts
  std::vector<std::int64_t> ring_start;
  std::vector<LocalId> ring_nodes;
  // segment adjacency through shared edges (CSR) for local tracking
  std::vector<std::int64_t> adj_start;
  std::vector<LocalId> adj_seg;
  // history per node
  std::vector<LocalId> tracked;          ///< last segment in contact (-1)
  std::vector<std::int8_t> contact_side; ///< automatic: +1/-1 side of the tracked segment
  std::vector<Real> ft;                  ///< elastic tangential (friction) force, 3 per node
  std::vector<Real> pen_prev;            ///< penetration at the previous cycle (>= 0)
  std::vector<Real> offset;              ///< IGNORE=1 initial penetration offset
  std::vector<std::uint8_t> released;    ///< released by PENMAX (until separation)
  // tiebreak (ContactParams::tiebreak != 0; empty otherwise)
  std::vector<std::uint8_t> tie_state; ///< 0 free, 1 tied, 2 tie failed (ordinary contact)
  std::vector<LocalId> tie_seg;        ///< the segment a tied node is held to
  std::vector<Real> tie_shape;         ///< its shape functions at the tie point (4 per node)
  std::vector<Real> tie_gap;           ///< distance along the segment's mean normal
  std::vector<Real> node_area;         ///< the node's share of its own surface's area
  /// per cycle: 1 = the node's force is its tie's; the reactions on the segment's corners are
  /// then tie_corner (3 per corner, 4 corners per node) instead of -shape x force: the tie's
  /// energy 1/2 k |q - p - gap n|^2 also depends on the segment's normal, whose derivative
  /// adds corner forces that sum to zero (the tie conserves energy and angular momentum).
  std::vector<std::uint8_t> tie_now;
  std::vector<Real> tie_corner;
  // per-cycle results per node (the gather reads these)
  std::vector<LocalId> seg_of; ///< segment in contact this cycle (-1)
  std::vector<Real> fn;        ///< force on the node (3 per node)
  std::vector<Real> shape;     ///< shape functions at the contact point (4 per node)
  // MPP, set by the solver (empty = everything, the one-rank case): mine[k] = this rank
  // searches and evaluates node k (it owns it); seg_avail[e] = the positions and velocities of
  // segment e's nodes are current on this rank (others are skipped: the solver guarantees that
  // every segment a node of this rank can be in contact with is available)
  std::vector<std::uint8_t> mine;
  std::vector<LocalId> mine_list; ///< MPP: the k with mine[k] != 0, ascending (loops over them)
  std::vector<std::uint8_t> seg_avail;
  [[nodiscard]] bool is_mine(std::size_t k) const { return mine.empty() || mine[k] != 0; }
  [[nodiscard]] bool available(LocalId e) const {
    return seg_avail.empty() || seg_avail[static_cast<std::size_t>(e)] != 0;
  }
  // scratch (per cycle; valid for the nodes in `live` only)
  std::vector<Real> diss, flag_depth;
  std::vector<std::uint8_t> flag;
  std::vector<LocalId> flag_seg;
  /// The nodes the force kernel visits (this rank's, ascending): those with candidates, a
  /// tracked segment or a tie. Every other node is out of contact and stays so until the next
  /// search, so it is skipped. Rebuilt when stale (set_stale() after a search, a restart, a
  /// change of `mine` or of the tracking outside the force kernel).
  std::vector<LocalId> live;
  bool live_valid = false;
  /// The segments named by the live nodes' candidate lists (ascending; rebuilt with `live`) and
  /// their cull data, recomputed at every cycle: once per segment instead of once per pair.
  /// geom_slot: per segment of the searched surface, its row in geom (-1: none).
  std::vector<LocalId> hot_seg, geom_slot;
  std::vector<SegCull> geom;
  /// The live nodes' candidates by geom row (segment-major, rows and then nodes ascending):
  /// row_start (rows + 1) and per entry the node's offset in x (row_x), its half contact
  /// thickness (row_htn) and its index in cand_seg (row_cand); row_pass: scratch flags of the
  /// screen. passed: this cycle's candidates that passed the screen (indices in cand_seg,
  /// ascending, so that each node's are contiguous).
  std::vector<std::int64_t> row_start, row_cand, row_x, passed;
  std::vector<Real> row_htn;
  std::vector<std::uint8_t> row_pass;
  void set_stale() { live_valid = false; }
};

/// Single surface: whether segment c touches the neighbourhood of pass node k (a segment that
/// shares a node with one of the node's own segments): such a segment is not a contact candidate.
inline bool in_neighbourhood(const Pass& ps, std::size_t k, const Segment& c) {
  if (ps.ring_start.empty()) return false;
  const LocalId* b = ps.ring_nodes.data() + ps.ring_start[k];
  const LocalId* e = ps.ring_nodes.data() + ps.ring_start[k + 1];
  for (LocalId n : c)
    for (const LocalId* r = b; r != e; ++r)
      if (*r == n) return true;
  return false;
}

struct ContactState {
  std::vector<Pass> passes;
  std::vector<LocalId> all_nodes; ///< every node of the interface, ascending
  std::vector<LocalId> slot_of;   ///< node -> index in all_nodes (-1), size = nnode
  std::vector<Real> x_search;     ///< all_nodes positions at the last search
  std::vector<Real> f_prev;       ///< last cycle's contact force on all_nodes (energy)
  std::vector<Real> f_now;
  Real margin = 0; ///< capture margin in use
  Real dt_c = 0;   ///< SOFT=1 reference step
  std::int64_t last_search_cycle = -1;
  std::int64_t n_searches = 0;
  /// Scheduled search (schedule_search): the move predicted for the next cycle exceeds half
  /// the margin, so search_if_due searches then.
  std::uint8_t search_due_next = 0;
  // energies and resultants
  ExactSum e_interface; ///< -work of the contact forces (sliding energy, both sides)
  ExactSum e_friction;  ///< friction dissipation (part of e_interface)
  /// e_interface split by side (sleout: secondary / main energies): main = nodes of ifc.main
  /// that are not secondary nodes; single surface: everything on the secondary side.
  ExactSum e_secondary, e_main;
  std::vector<std::uint8_t> slot_main; ///< per all_nodes entry: 1 = main side
  /// assemble_contacts: the all_nodes entries with a force in f_now / f_prev (derived from the
  /// buffers; slots_valid = false rebuilds them, as after a restart), and a per-entry stamp.
  std::vector<LocalId> slots_now, slots_prev;
  std::vector<std::int64_t> slot_stamp;
  std::int64_t stamp = 0;
  bool slots_valid = false;
  std::array<Real, 3> resultant_secondary{}, resultant_main{};
};

/// Half the contact thickness of segment e of surface s on the secondary (main_side: main) side,
/// in LS-DYNA's order: the part's OPTT (Surface::fixed_thickness); else SST (MST); else the
/// shell thickness x SFST (SFMT), in single-surface contacts with *CONTROL_CONTACT SSTHK = 0 at
/// most 0.4 x the segment's shortest edge. Solid faces (thickness 0): 0.
Real seg_contact_half_t(const ContactParams& p, const Surface& s, std::size_t e, bool main_side);

/// Build the passes, adjacency, history and margin for an interface over nnode nodes; runs the
/// first bucket search. x: coordinates (3 per node).
ContactState init_state(const Interface& ifc, std::size_t nnode, std::span<const Real> x);

/// Bucket sort if due: every p.search_interval cycles, or when some interface node moved more
/// than half the margin since the last search. Returns true if a search ran.
bool update_search(const Interface& ifc, ContactState& st, std::span<const Real> x,
                   std::int64_t cycle);
/// The solver's search schedule, which needs no reduction of its own in an MPP run: at the end
/// of a cycle, the largest move of a node since the last search that the next cycle can reach,
/// |x - x_search| + 2 dt |v| (the next step taken at up to twice this dt and this velocity),
/// over the interface slots given (all when empty). An MPP run reduces the maximum with the
/// cycle's other quantities; schedule_search then records the decision, and search_if_due at
/// the next cycle searches. A search so comes no later than update_search's (which measures the
/// move after it happened) and usually one cycle earlier.
[[nodiscard]] Real largest_predicted_move(const ContactState& st, std::span<const Real> x,
                                          std::span<const Real> v, Real dt,
                                          std::span<const LocalId> slots = {});
/// Records the next cycle's adaptive decision from the global largest_predicted_move.
void schedule_search(const Interface& ifc, ContactState& st, Real global_move);
/// Bucket sort when due: every p.search_interval cycles, or as scheduled. True if it searched.
bool search_if_due(const Interface& ifc, ContactState& st, std::span<const Real> x,
                   std::int64_t cycle);
/// Unconditional bucket search (uniform hashed grid, O(n)). Candidates: (node, segment) with the
/// node inside the segment's bounding box grown by node and segment half thicknesses + margin,
/// excluding segments that contain the node.
void bucket_search(const Interface& ifc, ContactState& st, std::span<const Real> x);
/// The same candidates by an O(n m) all-pairs loop (reference for the tests).
void all_pairs_search(const Interface& ifc, ContactState& st, std::span<const Real> x);

struct PenetrationRecord {
  int pass = 0;
  LocalId node = kInvalidLocal;
  LocalId seg = kInvalidLocal;
  Real depth = 0;
};

struct ContactStatus {
  bool ok = true;                          ///< false: blow-up (the solver stops)
  std::int64_t ties_failed = 0;            ///< tiebreak: ties that failed this cycle
  std::vector<PenetrationRecord> released; ///< released by PENMAX/XPENE this cycle (warning)
  std::vector<PenetrationRecord> blowup;   ///< too deep / sudden jump (error)
  std::int64_t active_pairs = 0;
};

/// Initial penetrations (beyond p.initial_tolerance). IGNORE=0: nodes are moved back onto the
/// contact surface along the segment normal (x modified: the solver copies it to x0);
/// IGNORE=1: the depth is recorded as an offset and no force arises until the node goes deeper
/// (the offset shrinks when the node moves out). Returns the list (for the report).
std::vector<PenetrationRecord> initial_penetrations(const Interface& ifc, ContactState& st,
                                                    std::span<Real> x);

/// Tiebreak: ties every node of the interface that is in contact with a segment in x (its gap,
/// the distance less the contact thicknesses, at most p.tie_tolerance x the segment size) at its
/// present distance. Tied contacts (p.tied): every node within a segment's normal projection
/// and within the tie distance of it (ContactParams::tied), at its present distance. Call after
/// init_state (before initial_penetrations, which then leaves the tied nodes alone). Returns the
/// number of tied nodes (all passes).
std::size_t tie_initial_contacts(const Interface& ifc, ContactState& st, std::span<const Real> x);

/// Release depth (PENMAX/XPENE rule) of a segment of a pass.
Real release_depth(const Interface& ifc, const Pass& ps, LocalId seg);
/// Capture depth: how much deeper than the node's tracked contact (0 without one) a contact
/// with another segment may start. Automatic contacts (and PENMAX > 0): the release depth.
/// Non-automatic ones, whose release depth (XPENE, 4 x the reference thickness) is far deeper than
/// an element: at most 0.4 x the reference thickness (as the automatic default), so that a node
/// lying under a face does not take a side face of the same small solid, 2 mm behind it, as a new
/// contact (LS-DYNA's nearest-node search would never offer that face). Tracked contacts go on down
/// to the release depth.
Real capture_depth(const Interface& ifc, const Pass& ps, LocalId seg);
/// The segments a pass searches.
inline const Surface& surface_of(const Interface& ifc, const Pass& ps) {
  return ps.on_main ? ifc.main : ifc.secondary;
}

/// Role of a pass's nodes in the resultants (rcforc): true = the secondary side (their forces
/// count for the secondary surface, the reactions on the segments for the main one).
bool nodes_are_secondary(const Interface& ifc, const Pass& ps);

/// Penalty stiffness of a pair (SOFT=0 or SOFT=1 rule, PENOPT). index: the node's place in
/// ps.nodes when the caller knows it (the force loops), else looked up.
Real pair_stiffness(const Interface& ifc, const ContactState& st, const Pass& ps, LocalId node,
                    LocalId seg, std::span<const Real> mass,
                    std::size_t index = static_cast<std::size_t>(-1));

/// Contact forces at time t (positions x, half-step velocities v, lumped masses, step dt).
/// Adds them to f (3 per node), updates friction history, energies and resultants. OpenMP
/// parallel; deterministic.
ContactStatus contact_forces(const Interface& ifc, ContactState& st, std::span<const Real> x,
                             std::span<const Real> v, std::span<const Real> mass, Real t, Real dt,
                             std::span<Real> f);

/// The two halves of contact_forces, for the MPP solver (which does its own gather across
/// ranks): evaluate_contacts runs the per-node part for the nodes of each pass that are mine
/// (history, per-node force, shape functions and segment in ps.seg_of / fn / shape, friction
/// dissipation into st.e_friction, status records); assemble_contacts is the fixed-order gather
/// into f, the resultants and the interface energies.
ContactStatus evaluate_contacts(const Interface& ifc, ContactState& st, std::span<const Real> x,
                                std::span<const Real> v, std::span<const Real> mass, Real t,
                                Real dt);
void assemble_contacts(const Interface& ifc, ContactState& st, std::span<const Real> v, Real dt,
                       std::span<Real> f);

/// Reference: the same physics written as plain loops over all (node, segment) pairs (no
/// search, no tracking, no early rejection, no threads). Frictionless (friction needs
/// history); for the tests.
void contact_forces_reference(const Interface& ifc, const ContactState& st, std::span<const Real> x,
                              std::span<const Real> mass, std::span<Real> f);

/// Closest point of p on a segment (bilinear quad by Newton, planar triangle): parametric
/// coordinates (xi, eta in [-1, 1] for quads; barycentric for triangles), shape functions,
/// unit normal and signed distance along it. inside: the projection lies within the segment
/// (tolerance tol in parametric units).
struct Projection {
  std::array<Real, 4> n{}; ///< shape functions
  std::array<Real, 3> normal{};
  std::array<Real, 3> point{};
  Real dist = 0; ///< (p - point) . normal
  Real xi = 0, eta = 0;
  bool inside = false;
};
Projection project(const Segment& s, std::span<const Real> x, const Real* p, Real tol = 1e-6);

} // namespace parcae::contact
