// Contact surfaces: segment sets from shells and hexahedra, SOFT=0/1 stiffness formulas,
// segment projection.
#include <algorithm>
#include <cmath>
#include <map>

#include "contact/contact.hpp"
#include "core/error.hpp"

namespace parcae::contact {

namespace {

using V3 = std::array<Real, 3>;

V3 pt(std::span<const Real> x, LocalId n) {
  const auto i = 3 * static_cast<std::size_t>(n);
  return {x[i], x[i + 1], x[i + 2]};
}
V3 sub(const V3& a, const V3& b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
V3 cross(const V3& a, const V3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
Real dot(const V3& a, const V3& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
Real norm(const V3& a) {
  return std::sqrt(dot(a, a));
}

Real value_of(std::span<const Real> v, std::size_t i) {
  if (v.empty()) throw InputError({}, "contact surface: no bulk modulus given");
  return v.size() == 1 ? v[0] : v[i];
}

// Area of a 4-node segment (triangles: n2 == n3): half the cross product of the diagonals.
Real seg_area(const Segment& s, std::span<const Real> x) {
  const V3 d1 = sub(pt(x, s[2]), pt(x, s[0]));
  const V3 d2 = sub(pt(x, s[3]), pt(x, s[1]));
  return 0.5 * norm(cross(d1, d2));
}

// Volume of a hexahedron (degenerate allowed): sum of 6 tetrahedra of a consistent split.
Real hex_volume(const std::array<LocalId, 8>& h, std::span<const Real> x) {
  // Six tetrahedra around the diagonal 0-6.
  static constexpr int t6[6][4] = {{0, 1, 2, 6}, {0, 2, 3, 6}, {0, 3, 7, 6},
                                   {0, 7, 4, 6}, {0, 4, 5, 6}, {0, 5, 1, 6}};
  Real v = 0;
  for (const auto& t : t6) {
    const V3 a = pt(x, h[t[0]]);
    const V3 b = sub(pt(x, h[t[1]]), a), c = sub(pt(x, h[t[2]]), a), d = sub(pt(x, h[t[3]]), a);
    v += dot(b, cross(c, d)) / 6.0;
  }
  return std::abs(v);
}

} // namespace

std::vector<LocalId> Surface::nodes() const {
  std::vector<LocalId> out;
  out.reserve(seg.size() * 4);
  for (const auto& s : seg) out.insert(out.end(), s.begin(), s.end());
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

Real solid_face_stiffness(Real slsfac, Real sf, Real bulk, Real area, Real volume) {
  return slsfac * sf * bulk * area * area / volume;
}
Real shell_segment_stiffness(Real slsfac, Real sf, Real bulk, Real area, Real min_diagonal) {
  return slsfac * sf * bulk * area / min_diagonal;
}
Real tie_stiffness(Real k, LocalId node, const Segment& c, const Real* shape,
                   std::span<const Real> mass, Real dt) {
  if (!(dt > 0) || mass.empty()) return k;
  const Real mn = mass[static_cast<std::size_t>(node)];
  if (!(mn > 0)) return k;
  Real inv = 1 / mn;
  for (int a = 0; a < 4; ++a) {
    const Real ma = mass[static_cast<std::size_t>(c[a])];
    if (shape[a] != 0 && ma > 0) inv += shape[a] * shape[a] / ma;
  }
  return std::min(k, 0.5 / (dt * dt * inv));
}

Real soft1_stiffness(Real sofscl, Real m_secondary, Real m_segment_min, Real dt_c) {
  const Real m = std::min(m_secondary, m_segment_min);
  return sofscl * 0.5 * m / (dt_c * dt_c);
}

Surface surface_from_shells(std::span<const Segment> shells, std::span<const Real> thickness,
                            std::span<const Real> bulk, std::span<const Real> x) {
  Surface s;
  const std::size_t n = shells.size();
  s.seg.assign(shells.begin(), shells.end());
  s.thickness.resize(n);
  s.k0.resize(n);
  s.area0.resize(n);
  s.min_edge.resize(n);
  for (std::size_t e = 0; e < n; ++e) {
    const Segment& c = shells[e];
    s.thickness[e] = thickness.size() == 1 ? thickness[0] : thickness[e];
    const Real a = seg_area(c, x);
    Real dmin;
    if (c[2] == c[3]) { // triangle: LS-DYNA uses the shortest altitude-like size; use min side
      dmin = std::min({norm(sub(pt(x, c[1]), pt(x, c[0]))), norm(sub(pt(x, c[2]), pt(x, c[1]))),
                       norm(sub(pt(x, c[0]), pt(x, c[2])))});
    } else {
      dmin = std::min(norm(sub(pt(x, c[2]), pt(x, c[0]))), norm(sub(pt(x, c[3]), pt(x, c[1]))));
    }
    s.area0[e] = a;
    s.k0[e] = shell_segment_stiffness(1.0, 1.0, value_of(bulk, e), a, dmin);
    const int nv = c[2] == c[3] ? 3 : 4;
    Real le = HUGE_VAL;
    for (int k = 0; k < nv; ++k) le = std::min(le, norm(sub(pt(x, c[(k + 1) % nv]), pt(x, c[k]))));
    s.min_edge[e] = le;
  }
  return s;
}

Surface surface_from_hex_exterior(std::span<const std::array<LocalId, 8>> hexes,
                                  std::span<const Real> bulk, std::span<const Real> x) {
  // LS-DYNA hex faces with outward normals (right hand rule over the listed order).
  static constexpr int faces[6][4] = {{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4},
                                      {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}};
  std::map<std::array<LocalId, 4>, int> count;
  // Key: the distinct nodes, sorted, padded with -1 (a collapsed quad matches a triangle).
  auto key_of = [](Segment f) {
    std::sort(f.begin(), f.end());
    Segment k{-1, -1, -1, -1};
    int n = 0;
    for (int a = 0; a < 4; ++a)
      if (a == 0 || f[a] != f[a - 1]) k[n++] = f[a];
    return k;
  };
  for (const auto& h : hexes)
    for (const auto& fc : faces) {
      Segment f{h[fc[0]], h[fc[1]], h[fc[2]], h[fc[3]]};
      ++count[key_of(f)];
    }
  Surface s;
  for (std::size_t e = 0; e < hexes.size(); ++e) {
    const auto& h = hexes[e];
    const Real vol = hex_volume(h, x);
    for (const auto& fc : faces) {
      Segment f{h[fc[0]], h[fc[1]], h[fc[2]], h[fc[3]]};
      if (count[key_of(f)] != 1) continue;
      // Collapse a degenerate face to a triangle (n2 == n3) when one node repeats.
      Segment g = f;
      std::array<LocalId, 4> uniq{};
      int nu = 0;
      for (int a = 0; a < 4; ++a) {
        bool seen = false;
        for (int b = 0; b < nu; ++b) seen = seen || uniq[b] == f[a];
        if (!seen) uniq[nu++] = f[a];
      }
      if (nu < 3) continue; // a line or point: no face
      if (nu == 3) g = {uniq[0], uniq[1], uniq[2], uniq[2]};
      const Real a = seg_area(g, x);
      s.seg.push_back(g);
      s.thickness.push_back(0.0);
      s.area0.push_back(a);
      s.depth0.push_back(vol > 0 && a > 0 ? vol / a : 0.0);
      s.k0.push_back(vol > 0 ? solid_face_stiffness(1.0, 1.0, value_of(bulk, e), a, vol) : 0.0);
    }
  }
  return s;
}

Projection project(const Segment& s, std::span<const Real> x, const Real* p, Real tol) {
  Projection r;
  const V3 q{p[0], p[1], p[2]};
  if (s[2] == s[3]) {
    const V3 a = pt(x, s[0]), b = pt(x, s[1]), c = pt(x, s[2]);
    const V3 e1 = sub(b, a), e2 = sub(c, a), w = sub(q, a);
    const Real a11 = dot(e1, e1), a12 = dot(e1, e2), a22 = dot(e2, e2);
    const Real b1 = dot(w, e1), b2 = dot(w, e2);
    const Real det = a11 * a22 - a12 * a12;
    const Real l1 = det != 0 ? (b1 * a22 - b2 * a12) / det : 0;
    const Real l2 = det != 0 ? (a11 * b2 - a12 * b1) / det : 0;
    const Real l0 = 1 - l1 - l2;
    r.n = {l0, l1, l2, 0};
    r.xi = l1;
    r.eta = l2;
    V3 nn = cross(e1, e2);
    const Real ln = norm(nn);
    if (ln > 0) nn = {nn[0] / ln, nn[1] / ln, nn[2] / ln};
    r.normal = nn;
    for (int i = 0; i < 3; ++i) r.point[i] = l0 * a[i] + l1 * b[i] + l2 * c[i];
    r.dist = dot(sub(q, r.point), nn);
    r.inside = ln > 0 && l0 >= -tol && l1 >= -tol && l2 >= -tol;
    return r;
  }
  // Bilinear quad x(xi, eta) = a + b xi + c eta + d xi eta; closest point by Newton on
  // phi = |x - q|^2 / 2 (Hessian J^T J + (x - q) . d [[0,1],[1,0]]; Gauss-Newton step where
  // that Hessian is not positive definite, i.e. far from the surface).
  const V3 c0 = pt(x, s[0]), c1 = pt(x, s[1]), c2 = pt(x, s[2]), c3 = pt(x, s[3]);
  V3 a, b, cc, d;
  for (int i = 0; i < 3; ++i) {
    a[i] = 0.25 * (c0[i] + c1[i] + c2[i] + c3[i]);
    b[i] = 0.25 * (-c0[i] + c1[i] + c2[i] - c3[i]);
    cc[i] = 0.25 * (-c0[i] - c1[i] + c2[i] + c3[i]);
    d[i] = 0.25 * (c0[i] - c1[i] + c2[i] - c3[i]);
  }
  Real xi = 0, eta = 0;
  V3 gx{}, ge{}, xp{};
  bool converged = false;
  for (int it = 0; it < 16; ++it) {
    for (int i = 0; i < 3; ++i) {
      xp[i] = a[i] + b[i] * xi + cc[i] * eta + d[i] * xi * eta;
      gx[i] = b[i] + d[i] * eta;
      ge[i] = cc[i] + d[i] * xi;
    }
    const V3 rr = sub(xp, q);
    const Real a11 = dot(gx, gx), a22 = dot(ge, ge), a12g = dot(gx, ge);
    const Real b1 = -dot(rr, gx), b2 = -dot(rr, ge);
    Real a12 = a12g + dot(rr, d);
    Real det = a11 * a22 - a12 * a12;
    if (!(det > 0)) { // not convex here: Gauss-Newton
      a12 = a12g;
      det = a11 * a22 - a12 * a12;
    }
    if (!(det > 0)) break;
    const Real dxi = (b1 * a22 - b2 * a12) / det, deta = (a11 * b2 - a12 * b1) / det;
    xi += dxi;
    eta += deta;
    // keep the iteration bounded for far-away points (the result is then "outside")
    xi = std::clamp(xi, -4.0, 4.0);
    eta = std::clamp(eta, -4.0, 4.0);
    if (std::abs(dxi) + std::abs(deta) < 1e-10) {
      converged = true;
      break;
    }
  }
  // final point, tangents and shape functions at (xi, eta)
  static constexpr Real xa[4] = {-1, 1, 1, -1}, ea[4] = {-1, -1, 1, 1};
  for (int k = 0; k < 4; ++k) r.n[k] = 0.25 * (1 + xa[k] * xi) * (1 + ea[k] * eta);
  for (int i = 0; i < 3; ++i) {
    xp[i] = a[i] + b[i] * xi + cc[i] * eta + d[i] * xi * eta;
    gx[i] = b[i] + d[i] * eta;
    ge[i] = cc[i] + d[i] * xi;
  }
  V3 nn = cross(gx, ge);
  const Real ln = norm(nn);
  if (ln > 0) nn = {nn[0] / ln, nn[1] / ln, nn[2] / ln};
  r.normal = nn;
  r.point = xp;
  r.xi = xi;
  r.eta = eta;
  r.dist = dot(sub(q, xp), nn);
  // Not converged (a far point on a strongly warped segment): not a closest point, no contact.
  r.inside = converged && ln > 0 && std::abs(xi) <= 1 + tol && std::abs(eta) <= 1 + tol;
  return r;
}

} // namespace parcae::contact
