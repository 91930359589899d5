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

} // namespace parcae::contact
