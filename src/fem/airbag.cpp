#include "fem/airbag.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace parcae {

namespace {

inline const Real* node(std::span<const Real> x, LocalId n) {
  return &x[3 * static_cast<std::size_t>(n)];
}

inline std::array<Real, 3> cross(const Real a[3], const Real b[3]) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

} // namespace

std::array<Real, 3> face_area_vector(std::span<const Real> x, const std::array<LocalId, 4>& conn) {
  const Real *p1 = node(x, conn[0]), *p2 = node(x, conn[1]), *p3 = node(x, conn[2]);
  if (conn[3] == conn[2]) {
    const Real a[3] = {p2[0] - p1[0], p2[1] - p1[1], p2[2] - p1[2]};
    const Real b[3] = {p3[0] - p1[0], p3[1] - p1[1], p3[2] - p1[2]};
    const auto c = cross(a, b);
    return {0.5 * c[0], 0.5 * c[1], 0.5 * c[2]};
  }
  const Real* p4 = node(x, conn[3]);
  const Real a[3] = {p3[0] - p1[0], p3[1] - p1[1], p3[2] - p1[2]};
  const Real b[3] = {p4[0] - p2[0], p4[1] - p2[1], p4[2] - p2[2]};
  const auto c = cross(a, b);
  return {0.5 * c[0], 0.5 * c[1], 0.5 * c[2]};
}

Real face_volume(std::span<const Real> x, const std::array<LocalId, 4>& conn) {
  const bool tri = conn[3] == conn[2];
  const int nn = tri ? 3 : 4;
  Real xc[3] = {0, 0, 0};
  for (int a = 0; a < nn; ++a)
    for (int i = 0; i < 3; ++i) xc[i] += node(x, conn[a])[i];
  const auto av = face_area_vector(x, conn);
  return (xc[0] * av[0] + xc[1] * av[1] + xc[2] * av[2]) / (3.0 * nn);
}

void face_pressure_forces(std::span<const Real> x, const std::array<LocalId, 4>& conn, Real p,
                          Real f[12]) {
  const bool tri = conn[3] == conn[2];
  const auto av = face_area_vector(x, conn);
  const Real share = p / (tri ? 3.0 : 4.0);
  for (int a = 0; a < 4; ++a)
    for (int i = 0; i < 3; ++i) f[3 * a + i] = (tri && a == 3) ? 0.0 : share * av[i];
}

std::vector<std::int8_t> orient_closed_surface(std::span<const std::array<LocalId, 4>> faces,
                                               std::span<const Real> x) {
  const std::size_t nf = faces.size();
  auto edges = [&](std::size_t f) {
    const auto& c = faces[f];
    std::vector<std::pair<LocalId, LocalId>> e;
    const int nn = c[3] == c[2] ? 3 : 4;
    for (int a = 0; a < nn; ++a) e.emplace_back(c[a], c[(a + 1) % nn]);
    return e;
  };
  // undirected edge -> (face, +1 if the face runs it from the smaller node)
  std::map<std::pair<LocalId, LocalId>, std::vector<std::pair<std::size_t, int>>> by_edge;
  for (std::size_t f = 0; f < nf; ++f)
    for (const auto& [a, b] : edges(f))
      by_edge[{std::min(a, b), std::max(a, b)}].push_back({f, a < b ? 1 : -1});
  std::vector<std::int8_t> sign(nf, 0);
  std::vector<std::size_t> stack, patch;
  for (std::size_t seed = 0; seed < nf; ++seed) {
    if (sign[seed] != 0) continue;
    sign[seed] = 1;
    stack.assign(1, seed);
    patch.clear();
    while (!stack.empty()) {
      const std::size_t f = stack.back();
      stack.pop_back();
      patch.push_back(f);
      for (const auto& [a, b] : edges(f)) {
        const int dir_f = (a < b ? 1 : -1) * sign[f];
        for (const auto& [g, dir_g] : by_edge[{std::min(a, b), std::max(a, b)}]) {
          if (g == f || sign[g] != 0) continue;
          sign[g] = static_cast<std::int8_t>(-dir_f * dir_g); // opposite directions
          stack.push_back(g);
        }
      }
    }
    Real vol = 0;
    for (std::size_t f : patch) vol += sign[f] * face_volume(x, faces[f]);
    if (vol < 0)
      for (std::size_t f : patch) sign[f] = static_cast<std::int8_t>(-sign[f]);
  }
  return sign;
}

Real vent_mass_rate(Real vent, Real p, Real rho, Real pe, Real gamma) {
  if (!(vent > 0) || !(p > pe) || !(rho > 0)) return 0.0;
  const Real qcrit = std::pow(2.0 / (gamma + 1.0), gamma / (gamma - 1.0));
  const Real q = std::max(pe / p, qcrit);
  const Real psi = std::pow(q, 2.0 / gamma) - std::pow(q, (gamma + 1.0) / gamma);
  return vent * std::sqrt(2.0 * gamma / (gamma - 1.0) * p * rho * psi);
}

Real advance_airbag_gas(GasState& g, Real v_old, Real v_new, Real dt, Real m_in, Real t_in, Real cv,
                        Real cp, Real vent, Real pe) {
  const Real gamma = cp / cv;
  Real m_out = 0;
  if (vent > 0 && g.m > 0 && v_old > 0) {
    m_out = std::min(g.m, dt * vent_mass_rate(vent, g.p, g.m / v_old, pe, gamma));
  }
  const Real t_gas = g.m > 0 ? g.e / (g.m * cv) : t_in; // the gas's temperature
  const Real q = cp * t_in * m_in - cp * t_gas * m_out - 0.5 * g.p * (v_new - v_old);
  // e_new (1 + (gamma - 1) dV / (2 v_new)) = e + q, with p_new = (gamma - 1) e_new / v_new
  const Real e_new = (g.e + q) / (1.0 + 0.5 * (gamma - 1.0) * (v_new - v_old) / v_new);
  g.m += m_in - m_out;
  g.e = std::max(e_new, 0.0);
  g.p = (gamma - 1.0) * g.e / v_new;
  return m_out;
}

} // namespace parcae
