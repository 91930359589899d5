#pragma once
// The force kernel's candidate test (the candidate loop of evaluate_contacts, forces.cpp): a
// segment's bounding box, release depth and mean plane with edge tests (SegCull, contact.hpp),
// built once per cycle for the segments the live nodes' candidate lists name (Pass::geom), then
// tested against each candidate node. It rejects only pairs that cannot be valid contacts (the
// bounds below); the pairs it passes then go through eval_pair, with its own early rejection,
// so the results are those of eval_pair alone.
#include <cmath>
#include <cstdint>
#include <span>

#include "contact/contact.hpp"

namespace parcae::contact {

// The bounding box of the segment's corners.
void cull_box(const Segment& c, std::span<const Real> x, SegCull& g);

// The segment's mean plane (centre, normal (x2 - x0) x (x3 - x1)) with a warp allowance, and per
// edge an in-plane outward test: (q - p_a) . (n x e_a) is the node's signed distance inside the
// edge times the edge length, compared with an upper bound of the length times (1e-3 of the
// length plus twice the warp). The bound (|e|_1 >= |e|, and a relative 1e-9 for round-off) only
// widens eval_pair's tolerance, so the test rejects no pair that eval_pair would accept.
// one_sided: the segment's normal lies within 90 degrees of the mean normal everywhere (the
// bilinear patch's normal (dx/dxi) x (dx/deta) is affine in xi and eta, and at a corner it is
// the cross product of the corner's two edges: it suffices that the four corner normals do,
// with a margin; a triangle is flat).
void cull_plane(const Segment& c, std::span<const Real> x, SegCull& g);

// A node in contact (0 < pen <= release depth) lies within ht_node + ht_seg + release depth of
// the segment's bounding box.
inline bool outside_box(const SegCull& g, const Real* q, Real reach) {
  for (int i = 0; i < 3; ++i)
    if (q[i] < g.lo[i] - reach || q[i] > g.hi[i] + reach) return true;
  return false;
}

// The plane test: a node farther from the mean plane than it could be in contact, or outside
// one of the edges (in the plane, by more than the threshold), cannot project inside: most
// candidates of a flat shell wall (the coplanar neighbours) are rejected here.
//
// side (0: off): the node can only be in contact on one side of the plane. With q = p + d n_p
// (p the closest point on the segment, n_p its normal), the distance to the mean plane is dq =
// w + d cos(theta), |w| <= warp, and 0 < cos(theta) <= 1 on a one_sided segment (else the
// side test is skipped). A contact has pen = ht - s d in (0, release] (ht: both half
// thicknesses, s the side), so s dq > ht + warp means s d > ht (no contact) and, when ht <=
// release, s dq < ht - release - warp means s d < ht - release (released). side 2: either side
// (automatic shells without a side yet: s = sign(d), so |dq| > ht + warp means no contact).
inline bool off_plane(const SegCull& g, const Real* q, Real reach, int side = 0, Real ht = 0) {
  if (!g.plane) return false;
  const Real dq =
      (q[0] - g.cen[0]) * g.nrm[0] + (q[1] - g.cen[1]) * g.nrm[1] + (q[2] - g.cen[2]) * g.nrm[2];
  if (std::abs(dq) > reach + g.warp) return true;
  if (side != 0 && g.one_sided) {
    const Real slack = 1e-9 * (reach + g.warp); // (round-off at the bounds)
    if (side == 2) {
      if (std::abs(dq) > ht + g.warp + slack) return true;
    } else {
      const Real sd = side * dq;
      if (sd > ht + g.warp + slack) return true;
      if (ht <= g.release && sd < ht - g.release - g.warp - slack) return true;
    }
  }
  // (q - p_a) . (n x e_a) = (e_a x (q - p_a)) . n: > 0 inside (counter-clockwise about n)
  for (int a = 0; a < g.nv; ++a)
    if (q[0] * g.m[a][0] + q[1] * g.m[a][1] + q[2] * g.m[a][2] < g.off[a]) return true;
  return false;
}

// cull_box and cull_plane of n segments (ids into seg), four at a time in lane vectors with the
// scalar functions' arithmetic, operation for operation: the same values, bit for bit (fields
// other than plane are left unspecified where plane is false). release and half_t are kept.
void cull_segments(std::span<const Segment> seg, const LocalId* ids, std::size_t n,
                   std::span<const Real> x, SegCull* out);

// The screen of n nodes against one segment (this cycle's g): pass[r] = 0 when node r (its
// coordinates at x + xi[r], its half contact thickness htn[r]) cannot be a valid contact with
// the segment, 1 when it may be: !(outside_box || off_plane(side)) with reach = ht + release,
// ht = htn[r] + g.half_t. side: as off_plane's (the candidate is not the node's tracked pair).
// Four nodes at a time in lane vectors, with the scalar tests' arithmetic, operation for
// operation (no contraction): the same flags as screen_nodes_reference.
void screen_nodes(const SegCull& g, int side, std::span<const Real> x, const std::int64_t* xi,
                  const Real* htn, std::size_t n, std::uint8_t* pass);
void screen_nodes_reference(const SegCull& g, int side, std::span<const Real> x,
                            const std::int64_t* xi, const Real* htn, std::size_t n,
                            std::uint8_t* pass);

} // namespace parcae::contact
