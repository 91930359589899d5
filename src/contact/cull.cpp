// The force kernel's candidate test: the per-cycle segment data (cull.hpp).
#include "contact/cull.hpp"

#include <algorithm>

namespace parcae::contact {

void cull_box(const Segment& c, std::span<const Real> x, SegCull& g) {
  for (int i = 0; i < 3; ++i) {
    Real lo = x[3 * static_cast<std::size_t>(c[0]) + i], hi = lo;
    for (int a = 1; a < 4; ++a) {
      const Real v = x[3 * static_cast<std::size_t>(c[a]) + i];
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
    g.lo[i] = lo;
    g.hi[i] = hi;
  }
}

void cull_plane(const Segment& c, std::span<const Real> x, SegCull& g) {
  const Real* p0 = &x[3 * static_cast<std::size_t>(c[0])];
  const Real* p1 = &x[3 * static_cast<std::size_t>(c[1])];
  const Real* p2 = &x[3 * static_cast<std::size_t>(c[2])];
  const Real* p3 = &x[3 * static_cast<std::size_t>(c[3])];
  const bool tri = c[2] == c[3];
  Real d1[3], d2[3], nrm[3];
  for (int i = 0; i < 3; ++i) {
    d1[i] = p2[i] - p0[i];
    d2[i] = p3[i] - p1[i];
    g.cen[i] = tri ? (p0[i] + p1[i] + p2[i]) / 3 : 0.25 * (p0[i] + p1[i] + p2[i] + p3[i]);
  }
  if (tri)
    for (int i = 0; i < 3; ++i) d2[i] = p2[i] - p1[i], d1[i] = p1[i] - p0[i];
  nrm[0] = d1[1] * d2[2] - d1[2] * d2[1];
  nrm[1] = d1[2] * d2[0] - d1[0] * d2[2];
  nrm[2] = d1[0] * d2[1] - d1[1] * d2[0];
  const Real ln = std::sqrt(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
  g.plane = ln > 0;
  if (!g.plane) return;
  for (int i = 0; i < 3; ++i) g.nrm[i] = nrm[i] / ln;
  Real warp = 0;
  for (const Real* pa : {p0, p1, p2, p3})
    warp = std::max(warp, std::abs((pa[0] - g.cen[0]) * g.nrm[0] + (pa[1] - g.cen[1]) * g.nrm[1] +
                                   (pa[2] - g.cen[2]) * g.nrm[2]));
  g.warp = warp;
  const Real* pts[4] = {p0, p1, p2, p3};
  g.nv = tri ? 3 : 4;
  for (int a = 0; a < g.nv; ++a) {
    const Real* pa = pts[a];
    const Real* pb = pts[(a + 1) % g.nv];
    const Real e[3] = {pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]};
    Real* m = g.m[a];
    m[0] = g.nrm[1] * e[2] - g.nrm[2] * e[1];
    m[1] = g.nrm[2] * e[0] - g.nrm[0] * e[2];
    m[2] = g.nrm[0] * e[1] - g.nrm[1] * e[0];
    const Real le = std::abs(e[0]) + std::abs(e[1]) + std::abs(e[2]);
    const Real pm = pa[0] * m[0] + pa[1] * m[1] + pa[2] * m[2];
    const Real thr = le * (1e-3 * le + 2 * warp);
    g.off[a] = pm - thr - 1e-9 * (thr + std::abs(pm));
  }
  g.one_sided = true;
  if (!tri)
    for (int a = 0; a < 4 && g.one_sided; ++a) {
      const Real* pp = pts[(a + 3) % 4];
      const Real* pc = pts[a];
      const Real* pn = pts[(a + 1) % 4];
      const Real u[3] = {pn[0] - pc[0], pn[1] - pc[1], pn[2] - pc[2]};
      const Real w[3] = {pp[0] - pc[0], pp[1] - pc[1], pp[2] - pc[2]};
      const Real dot = (u[1] * w[2] - u[2] * w[1]) * g.nrm[0] +
                       (u[2] * w[0] - u[0] * w[2]) * g.nrm[1] +
                       (u[0] * w[1] - u[1] * w[0]) * g.nrm[2];
      // (with a margin: the corner normal at least 0.01 |u| |w| along the mean normal)
      const Real uu = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
      const Real ww = w[0] * w[0] + w[1] * w[1] + w[2] * w[2];
      g.one_sided = dot > 0 && dot * dot > 1e-4 * uu * ww;
    }
}

void screen_nodes_reference(const SegCull& g, int side, std::span<const Real> x,
                            const std::int64_t* xi, const Real* htn, std::size_t n,
                            std::uint8_t* pass) {
  for (std::size_t r = 0; r < n; ++r) {
    const Real* q = &x[static_cast<std::size_t>(xi[r])];
    const Real ht = htn[r] + g.half_t;
    const Real reach = ht + g.release;
    pass[r] = outside_box(g, q, reach) || off_plane(g, q, reach, side, ht) ? 0 : 1;
  }
}

namespace {
constexpr int kLanes = 4;
typedef Real VR __attribute__((vector_size(8 * kLanes)));
typedef std::int64_t VM __attribute__((vector_size(8 * kLanes)));
} // namespace

void cull_segments(std::span<const Segment> seg, const LocalId* ids, std::size_t n,
                   std::span<const Real> x, SegCull* out) {
  for (std::size_t s0 = 0; s0 < n; s0 += kLanes) {
    const std::size_t nl = std::min<std::size_t>(kLanes, n - s0);
    VR p[4][3];
    VM tri;
    for (int l = 0; l < kLanes; ++l) { // (the last group repeats its last segment)
      const Segment& c = seg[static_cast<std::size_t>(ids[std::min(s0 + l, n - 1)])];
      for (int a = 0; a < 4; ++a)
        for (int i = 0; i < 3; ++i) p[a][i][l] = x[3 * static_cast<std::size_t>(c[a]) + i];
      tri[l] = c[2] == c[3] ? -1 : 0;
    }
    VR lo[3], hi[3], cen[3], d1[3], d2[3];
    for (int i = 0; i < 3; ++i) {
      lo[i] = p[0][i];
      hi[i] = p[0][i];
      for (int a = 1; a < 4; ++a) {
        lo[i] = p[a][i] < lo[i] ? p[a][i] : lo[i]; // (std::min(lo, v), std::max(hi, v))
        hi[i] = hi[i] < p[a][i] ? p[a][i] : hi[i];
      }
      d1[i] = tri ? p[1][i] - p[0][i] : p[2][i] - p[0][i];
      d2[i] = tri ? p[2][i] - p[1][i] : p[3][i] - p[1][i];
      cen[i] = tri ? (p[0][i] + p[1][i] + p[2][i]) / 3.0
                   : 0.25 * (p[0][i] + p[1][i] + p[2][i] + p[3][i]);
    }
    VR nr[3];
    nr[0] = d1[1] * d2[2] - d1[2] * d2[1];
    nr[1] = d1[2] * d2[0] - d1[0] * d2[2];
    nr[2] = d1[0] * d2[1] - d1[1] * d2[0];
    const VR l2 = nr[0] * nr[0] + nr[1] * nr[1] + nr[2] * nr[2];
    VR ln;
    for (int l = 0; l < kLanes; ++l) ln[l] = std::sqrt(l2[l]);
    const VM plane = ln > 0;
    const VR one = {1, 1, 1, 1};
    const VR safe = plane ? ln : one;
    for (auto& v : nr) v = v / safe;
    VR warp{};
    for (int a = 0; a < 4; ++a) {
      VR w = (p[a][0] - cen[0]) * nr[0] + (p[a][1] - cen[1]) * nr[1] + (p[a][2] - cen[2]) * nr[2];
      w = w < 0 ? -w : w;
      warp = warp < w ? w : warp; // (std::max(warp, w))
    }
    VR m[4][3], off[4];
    for (int a = 0; a < 4; ++a) {
      VR e[3];
      for (int i = 0; i < 3; ++i) {
        // the edge's end: a + 1, wrapping at nv (triangles: edge 2 ends at p0; edge 3 unused)
        const VR pb = a == 3 ? p[0][i] : (a == 2 ? (tri ? p[0][i] : p[3][i]) : p[a + 1][i]);
        e[i] = pb - p[a][i];
      }
      m[a][0] = nr[1] * e[2] - nr[2] * e[1];
      m[a][1] = nr[2] * e[0] - nr[0] * e[2];
      m[a][2] = nr[0] * e[1] - nr[1] * e[0];
      const VR ae0 = e[0] < 0 ? -e[0] : e[0], ae1 = e[1] < 0 ? -e[1] : e[1],
               ae2 = e[2] < 0 ? -e[2] : e[2];
      const VR le = ae0 + ae1 + ae2;
      const VR pm = p[a][0] * m[a][0] + p[a][1] * m[a][1] + p[a][2] * m[a][2];
      const VR thr = le * (1e-3 * le + 2.0 * warp);
      const VR apm = pm < 0 ? -pm : pm;
      off[a] = pm - thr - 1e-9 * (thr + apm);
    }
    VM one_sided = tri;
    VM all_ok = ~tri;
    for (int a = 0; a < 4; ++a) {
      VR u[3], w[3];
      for (int i = 0; i < 3; ++i) {
        u[i] = p[(a + 1) % 4][i] - p[a][i];
        w[i] = p[(a + 3) % 4][i] - p[a][i];
      }
      const VR dot = (u[1] * w[2] - u[2] * w[1]) * nr[0] + (u[2] * w[0] - u[0] * w[2]) * nr[1] +
                     (u[0] * w[1] - u[1] * w[0]) * nr[2];
      const VR uu = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
      const VR ww = w[0] * w[0] + w[1] * w[1] + w[2] * w[2];
      all_ok &= (dot > 0) & (dot * dot > 1e-4 * uu * ww);
    }
    one_sided |= all_ok;
    for (std::size_t l = 0; l < nl; ++l) {
      SegCull& g = out[s0 + l];
      for (int i = 0; i < 3; ++i) {
        g.lo[i] = lo[i][l];
        g.hi[i] = hi[i][l];
        g.cen[i] = cen[i][l];
        g.nrm[i] = nr[i][l];
      }
      g.plane = plane[l] != 0;
      g.warp = warp[l];
      g.nv = tri[l] ? 3 : 4;
      for (int a = 0; a < 4; ++a) {
        for (int i = 0; i < 3; ++i) g.m[a][i] = m[a][i][l];
        g.off[a] = off[a][l];
      }
      g.one_sided = one_sided[l] != 0;
    }
  }
}

void screen_nodes(const SegCull& g, int side, std::span<const Real> x, const std::int64_t* xi,
                  const Real* htn, std::size_t n, std::uint8_t* pass) {
  const bool sided = side != 0 && g.plane && g.one_sided;
  for (std::size_t r0 = 0; r0 < n; r0 += kLanes) {
    VR qx, qy, qz, hn;
    for (int l = 0; l < kLanes; ++l) { // (the last group repeats its last node)
      const std::size_t r = std::min(r0 + static_cast<std::size_t>(l), n - 1);
      const Real* q = &x[static_cast<std::size_t>(xi[r])];
      qx[l] = q[0];
      qy[l] = q[1];
      qz[l] = q[2];
      hn[l] = htn[r];
    }
    const VR ht = hn + g.half_t;
    const VR reach = ht + g.release;
    VM rej = (qx < g.lo[0] - reach) | (qx > g.hi[0] + reach) | (qy < g.lo[1] - reach) |
             (qy > g.hi[1] + reach) | (qz < g.lo[2] - reach) | (qz > g.hi[2] + reach);
    if (g.plane) {
      const VR dq =
          (qx - g.cen[0]) * g.nrm[0] + (qy - g.cen[1]) * g.nrm[1] + (qz - g.cen[2]) * g.nrm[2];
      const VR adq = dq < 0 ? -dq : dq;
      rej |= adq > reach + g.warp;
      if (sided) {
        const VR slack = 1e-9 * (reach + g.warp);
        if (side == 2) {
          rej |= adq > ht + g.warp + slack;
        } else {
          const VR sd = static_cast<Real>(side) * dq;
          rej |= sd > ht + g.warp + slack;
          rej |= (ht <= g.release) & (sd < ht - g.release - g.warp - slack);
        }
      }
      for (int a = 0; a < g.nv; ++a)
        rej |= qx * g.m[a][0] + qy * g.m[a][1] + qz * g.m[a][2] < g.off[a];
    }
    const std::size_t nl = std::min<std::size_t>(kLanes, n - r0);
    for (std::size_t l = 0; l < nl; ++l) pass[r0 + l] = rej[l] == 0 ? 1 : 0;
  }
}

} // namespace parcae::contact
