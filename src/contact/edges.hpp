#pragma once
// Beam edge-to-edge penalty contact (*CONTACT_AUTOMATIC_GENERAL on beams): every beam element is
// a capsule (a cylinder with spherical ends) around its axis N1-N2 whose radius is half its
// contact thickness. Two capsules that overlap push each other apart along the line joining the
// closest points of their axes. Data-oriented kernels over spans of interleaved nodal arrays
// (x y z per node, local node indices, like contact.hpp); no MPI:
//
//   setup, once per interface (masses known):
//     EdgeSet es; es.edge / radius / k0 / group = ...;     // from the beams of the part set
//     es.p = ...;                                          // friction, SOFT, search, times
//     EdgeState st = init_edges(es, x);                    // first search, initial offsets
//   every cycle, after the internal forces, before the accelerations:
//     edge_search_if_due(es, st, x, cycle);                // bucket search when due
//     EdgeStatus s = edge_contact_forces(es, st, x, v, mass, t, dt, f);   // ADDS to f
//       x = x^n, v = v^{n-1/2} (the velocities that moved x^{n-1} to x^n), dt = t^n - t^{n-1}.
//   output: st.e_interface (-work of the contact forces, friction included), st.e_friction,
//   st.resultant_a / resultant_b (rcforc: the forces on the lower-numbered edge of each pair /
//   on the other one).
//
// Physics of a pair (edges a = (a0, a1), b = (b0, b1)): P = (1 - s) x_a0 + s x_a1 and
// Q = (1 - t) x_b0 + t x_b1 are the closest points of the two axes (s, t in [0, 1]); the
// penetration is d = r_a + r_b - |P - Q| (less the pair's initial offset); the normal force on a
// is k d n with n = (P - Q) / |P - Q|, the same force reversed on b. A force along P - Q applied
// at P and at Q has no moment about any point: linear and angular momentum are conserved
// exactly by the normal force. Friction (Coulomb, mu = FD + (FS - FD) exp(-DC |v_t|)) is an
// elastic stick force updated with the tangential relative velocity at (P, Q) and capped at
// mu k d (the node-to-surface rule of forces.cpp); VDC adds viscous normal damping (percent of
// critical, forces.cpp's rule). Forces go to the nodes with the weights (1 - s, s) and
// (1 - t, t).
//
// Penalty stiffness (edges.cpp, contact_setup.cpp): per beam SLSFAC x SFS x E A / L, the
// solid-segment rule K A^2 / V of LS-DYNA's theory manual with the beam's cross-section A and
// volume A L (so an assumption by analogy: the stored LS-DYNA sources do not give the beam
// rule); the pair takes the smaller of the two (PENOPT 1 style); SOFT = 1 raises it to the
// mass-based SOFSCL 0.5 m / dt^2 of the node-to-surface contact.
//
// Known limits: a contact at the joint of two beams of a chain is seen by both (two capsules
// overlap there), so the stiffness doubles at the joint; beams are not paired with shell or
// solid faces; friction acts at the two closest points, which lie a contact radius apart along
// the normal, so its moment is carried by the beams' rotational degrees of freedom (trusses
// have none: a truss pair with friction does not conserve angular momentum exactly).
//
// Determinism: the pairs are evaluated one after the other in their sorted order and the
// forces gathered in that order: the result depends on the data only (any thread count); the
// MPP solver gives every rank the same positions of all edge nodes, so all ranks compute the
// same forces bitwise.
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "core/exact_sum.hpp"
#include "core/types.hpp"

namespace parcae::contact {

using Edge = std::array<LocalId, 2>;

struct EdgeParams {
  Real fs = 0, fd = 0, dc = 0; ///< mu = fd + (fs - fd) exp(-dc |v_t|)
  Real vdc = 0;                ///< viscous normal damping, percent of critical (0: off)
  int soft = 0;                ///< 1: k = max(SOFT 0 k, sofscl 0.5 m / dt_c^2)
  Real sofscl = 0.1;
  Real dtstif = 0; ///< > 0: the SOFT = 1 step, fixed (DTSTIF); 0: the first step, raised
  Real birth = 0, death = 1e20;
  int search_interval = 25;    ///< bucket search every n cycles (NSBCS / BSORT); <= 0: adaptive
  bool adaptive_search = true; ///< also search when some node moved more than margin / 2
  Real search_margin = 0;      ///< capture distance beyond the radii; 0: 0.5 x mean edge length
  /// Pairs that overlap deeper than this fraction of the smaller radius in one step are reported
  /// as a blow-up (a capsule passing through another).
  Real blowup_factor = 2.0;
};

/// The edges of an interface. k0: the edge's penalty stiffness (already scaled by SLSFAC and
/// SFS; 0 = none: the pair takes the other edge's). group: pairs of edges of the same group are
/// not searched when exclude_same_group (LS-DYNA MPP CPARM8: no beam-to-beam contact within a
/// part); empty = no groups.
struct EdgeSet {
  EdgeParams p;
  std::vector<Edge> edge;
  std::vector<Real> radius;
  std::vector<Real> k0;
  std::vector<std::int64_t> group;
  bool exclude_same_group = false;
  /// Optional, per node index: the rigid body carrying the node (-1: none); edges with both ends
  /// on one body are not paired with edges of that body.
  std::vector<int> node_body;
  [[nodiscard]] std::size_t size() const { return edge.size(); }
};

/// Closest points of two segments p0-p1 and q0-q1: P = p0 + s (p1 - p0), Q = q0 + t (q1 - q0)
/// minimise |P - Q| over s, t in [0, 1]. Robust for parallel segments (s from the projection of
/// the q segment's nearer end, the smallest s of the minimising set) and degenerate ones
/// (a point: s = 0). dist2 = |P - Q|^2.
struct SegmentClosest {
  Real s = 0, t = 0, dist2 = 0;
};
SegmentClosest closest_points(const Real* p0, const Real* p1, const Real* q0, const Real* q1);

/// Whether edges a and b may ever be paired (distinct, share no node, not excluded by group or
/// rigid body).
bool edges_may_touch(const EdgeSet& es, std::size_t a, std::size_t b);

struct EdgeState {
  std::vector<LocalId> nodes;               ///< distinct nodes of the edges, ascending
  std::vector<std::array<LocalId, 2>> cand; ///< candidate pairs (a < b), ascending
  // history per candidate pair (kept across searches for the pairs that stay candidates)
  std::vector<Real> ft;               ///< elastic friction force on edge a (3 per pair)
  std::vector<Real> normal;           ///< last contact normal (3 per pair)
  std::vector<Real> offset;           ///< initial overlap kept as an offset
  std::vector<std::uint8_t> touching; ///< in contact at the last evaluation
  std::vector<Real> x_search;         ///< positions of `nodes` at the last search
  std::vector<Real> f_prev, f_now;    ///< contact force on `nodes` (energy; 3 each)
  Real margin = 0;
  Real dt_c = 0; ///< SOFT = 1 reference step (the first step, raised when the step grows)
  std::int64_t last_search_cycle = -1;
  std::int64_t n_searches = 0;
  ExactSum e_interface; ///< -work of the contact forces (friction included)
  ExactSum e_friction;  ///< friction dissipation (part of e_interface)
  std::array<Real, 3> resultant_a{}, resultant_b{};
};

/// Nodes, margin and the first search; pairs that overlap in x keep their overlap as an offset
/// (LS-DYNA IGNORE = 1 behaviour: no force until they go deeper; the offset shrinks as they
/// separate).
EdgeState init_edges(const EdgeSet& es, std::span<const Real> x);

/// Candidates: pairs (a, b) that may touch whose axes are within r_a + r_b + margin. Bucket
/// search (uniform hashed grid of the edges' grown boxes, O(n)) and the O(n^2) all-pairs
/// reference; both keep the history of the pairs that stay candidates.
void bucket_search_edges(const EdgeSet& es, EdgeState& st, std::span<const Real> x);
void all_pairs_search_edges(const EdgeSet& es, EdgeState& st, std::span<const Real> x);

/// Bucket search when due: every p.search_interval cycles, or when some edge node moved more
/// than half the margin since the last search (two nodes approach by at most the margin before
/// the next search). Returns true if it searched.
bool edge_search_if_due(const EdgeSet& es, EdgeState& st, std::span<const Real> x,
                        std::int64_t cycle);

struct EdgeStatus {
  bool ok = true;
  std::int64_t active_pairs = 0;
  std::array<LocalId, 2> blowup{kInvalidLocal, kInvalidLocal}; ///< the first blown-up pair
  Real blowup_depth = 0;
};

/// Penalty stiffness of pair (a, b): the smaller of the two edges' positive k0 (SOFT 0); SOFT 1:
/// at least sofscl 0.5 m / dt_c^2 with m the smallest nodal mass of the four nodes.
Real edge_pair_stiffness(const EdgeSet& es, const EdgeState& st, std::size_t a, std::size_t b,
                         std::span<const Real> mass);

/// Contact forces at time t: ADDS them to f (3 per node), updates the friction history, the
/// energies and the resultants.
EdgeStatus edge_contact_forces(const EdgeSet& es, EdgeState& st, std::span<const Real> x,
                               std::span<const Real> v, std::span<const Real> mass, Real t, Real dt,
                               std::span<Real> f);

/// Reference: frictionless forces over all pairs (no search, no history, no offsets).
void edge_contact_forces_reference(const EdgeSet& es, const EdgeState& st, std::span<const Real> x,
                                   std::span<const Real> mass, std::span<Real> f);

} // namespace parcae::contact
