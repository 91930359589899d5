// Element families: the kernels of each family under the common signatures.
#include "fem/element_family.hpp"

#include "fem/solid2d.hpp"
#include "fem/tshell.hpp"

#include <algorithm>
#include <cmath>

namespace parcae {

namespace {

/// The coordinates of hexahedron e's eight corners at x.
void gather_corners(const HexBlock& blk, std::size_t e, std::span<const Real> x, Real cx[8],
                    Real cy[8], Real cz[8]) {
  for (int a = 0; a < 8; ++a) {
    const auto n = static_cast<std::size_t>(blk.conn[e][static_cast<std::size_t>(a)]);
    cx[a] = x[3 * n];
    cy[a] = x[3 * n + 1];
    cz[a] = x[3 * n + 2];
  }
}

} // namespace

ElementPassResult SolidFamily::compute_forces(const Options& opt, const MaterialParams& mat,
                                              Block& blk, std::size_t begin, std::size_t end,
                                              const NodalKinematics& k, CornerSpans corners,
                                              bool reference) {
  if (opt.thick_shell) { // one plain kernel (fem/tshell.hpp)
    const HexPassResult t =
        compute_tshell_forces(opt, mat, blk, begin, end, k.x, k.v, k.dt, corners.f);
    return {t.min_dt, t.min_dt_element, t.bad_element};
  }
  const HexPassResult r =
      reference
          ? compute_hex_forces_reference(opt, mat, blk, begin, end, k.x, k.v, k.dt, corners.f, k.x0)
          : compute_hex_forces(opt, mat, blk, begin, end, k.x, k.v, k.dt, corners.f, k.x0);
  return {r.min_dt, r.min_dt_element, r.bad_element};
}

ElementPassResult ShellFamily::compute_forces(const Options& opt, const MaterialParams& mat,
                                              Block& blk, std::size_t begin, std::size_t end,
                                              const NodalKinematics& k, CornerSpans corners,
                                              bool reference) {
  if (blk.planar != Planar::None) { // 2-D solids: one plain kernel (fem/solid2d.hpp)
    const PlanarPassResult p =
        compute_planar_forces(opt, mat, blk, begin, end, k.x, k.v, k.dt, corners.f, corners.m);
    return {p.min_dt, p.min_dt_element, p.bad_element};
  }
  const ShellPassResult r =
      reference ? compute_shell_forces_reference(opt, mat, blk, begin, end, k.x, k.v, k.w, k.dt,
                                                 corners.f, corners.m)
                : compute_shell_forces(opt, mat, blk, begin, end, k.x, k.v, k.w, k.dt, corners.f,
                                       corners.m);
  return {r.min_dt, r.min_dt_element, -1};
}

Real SolidFamily::initial_dt(const Options& opt, const MaterialParams& mat, const Block& blk,
                             std::size_t e, std::span<const Real> x) {
  if (opt.thick_shell) return tshell_critical_dt(mat, blk, e, x);
  Real cx[8], cy[8], cz[8], bx[8], by[8], bz[8];
  gather_corners(blk, e, x, cx, cy, cz);
  const Real vol = hex_volume_gradient(cx, cy, cz, bx, by, bz);
  return hex_characteristic_length(cx, cy, cz, vol, bx, by, bz,
                                   hex_length_weight(mat, opt.tetrahedra)) /
         mat.wave_speed_solid();
}

LumpedMass<8> SolidFamily::lump_mass(const Options& opt, const MaterialParams& mat, Block& blk,
                                     std::size_t e, std::span<const Real> x, Real scale) {
  LumpedMass<8> m;
  // the volume at x (blk.vol holds the current volume once the run has started)
  Real cx[8], cy[8], cz[8], bx[8], by[8], bz[8];
  gather_corners(blk, e, x, cx, cy, cz);
  const Real vol = hex_volume_gradient(cx, cy, cz, bx, by, bz);
  blk.density_scale[e] = scale;
  m.added[0] = mat.ro * vol * (scale - 1.0);
  if (opt.tetrahedra) {
    for (int a : {0, 1, 2, 4}) m.mass[static_cast<std::size_t>(a)] = scale * mat.ro * vol / 4.0;
  } else {
    m.mass.fill(scale * mat.ro * vol / 8.0);
  }
  return m;
}

Rescaled SolidFamily::rescale_for_step(const Options& opt, const MaterialParams& mat,
                                       const Block& blk, std::size_t e, std::span<const Real> x,
                                       Real target) {
  const Real dte = blk.dt[e];
  const Real s = blk.density_scale[e];
  const Real naive = s * (target / dte) * (target / dte);
  if (mat.hydro()) return {naive, dte};
  if (opt.thick_shell) return rescale_proportionally(s, dte, target); // no bulk viscosity
  Real cx[8], cy[8], cz[8], bx[8], by[8], bz[8];
  gather_corners(blk, e, x, cx, cy, cz);
  const Real vol = hex_volume_gradient(cx, cy, cz, bx, by, bz);
  const Real le = hex_characteristic_length(cx, cy, cz, vol, bx, by, bz,
                                            hex_length_weight(mat, opt.tetrahedra));
  const Real c = mat.wave_speed_solid() / std::sqrt(s);
  const Real d = le / dte; // Q + sqrt(Q^2 + c^2)
  // the part of Q that mass does not change (0 when the element was not compressed)
  const Real b =
      d > c * (1 + 1e-12) ? std::max<Real>((d * d - c * c) / (2 * d) - opt.q1 * c, 0) : 0.0;
  const bool viscous = d > c * (1 + 1e-12);
  auto step = [&](Real c_new) {
    const Real q = viscous ? opt.q1 * c_new + b : 0.0;
    return le / (q + std::sqrt(q * q + c_new * c_new));
  };
  // c'^2 + 2 D (q1 c' + b) = D^2 with D = le / target
  const Real dt = le / target;
  const Real q1 = viscous ? opt.q1 : 0.0;
  const Real disc = q1 * q1 * dt * dt + dt * dt - 2 * dt * b;
  const Real c_new = disc > 0 ? -q1 * dt + std::sqrt(disc) : 0.0;
  if (!(c_new > 0) || !(c_new < c)) return {naive, step(c / std::sqrt(naive / s))};
  return {s * (c / c_new) * (c / c_new), step(c_new)};
}

LumpedMass<4> ShellFamily::lump_mass(const Options& /*opt*/, const MaterialParams& mat, Block& blk,
                                     std::size_t e, std::span<const Real> x, Real scale) {
  std::array<Real, 4> cm{}, ci{};
  shell_lumped_mass(mat, blk, e, x, cm, ci);
  blk.density_scale[e] = scale;
  LumpedMass<4> m;
  for (std::size_t a = 0; a < 4; ++a) {
    m.mass[a] = scale * cm[a];
    m.inertia[a] = scale * ci[a];
    m.added[a] = (scale - 1.0) * cm[a];
  }
  return m;
}

ElementPassResult TrussFamily::compute_forces(const Options& /*opt*/, const MaterialParams& mat,
                                              Block& blk, std::size_t begin, std::size_t end,
                                              const NodalKinematics& k, CornerSpans corners,
                                              bool /*reference*/) {
  const TrussPassResult r = compute_truss_forces(mat, blk, begin, end, k.x, k.v, k.dt, corners.f);
  return {r.min_dt, r.min_dt_element, -1};
}

LumpedMass<2> TrussFamily::lump_mass(const Options& opt, const MaterialParams& mat, Block& blk,
                                     std::size_t e, std::span<const Real> x, Real scale) {
  LumpedMass<2> m;
  (void)x; // l0: the set-up length (domain.cpp)
  blk.density_scale[e] = scale;
  const Real half = 0.5 * (mat.ro * blk.area[e] + opt.nsm) * blk.l0[e];
  m.mass = {scale * half, scale * half};
  m.added = {(scale - 1.0) * half, (scale - 1.0) * half};
  return m;
}

ElementPassResult BeamFamily::compute_forces(const Options& /*opt*/, const MaterialParams& mat,
                                             Block& blk, std::size_t begin, std::size_t end,
                                             const NodalKinematics& k, CornerSpans corners,
                                             bool /*reference*/) {
  const BeamPassResult r =
      compute_beam_forces(mat, blk, begin, end, k.x, k.v, k.w, k.dt, corners.f, corners.m);
  return {r.min_dt, r.min_dt_element, -1};
}

LumpedMass<2> BeamFamily::lump_mass(const Options& /*opt*/, const MaterialParams& mat, Block& blk,
                                    std::size_t e, std::span<const Real> x, Real scale) {
  LumpedMass<2> m;
  (void)x; // l0: the set-up length (domain.cpp)
  Real mass = 0, inertia = 0;
  beam_lumped_mass(blk.sec, mat, blk.l0[e], mass, inertia);
  blk.density_scale[e] = scale;
  m.mass = {scale * mass, scale * mass};
  m.inertia = {scale * inertia, scale * inertia};
  m.added = {(scale - 1.0) * mass, (scale - 1.0) * mass};
  return m;
}

} // namespace parcae
