#include "solvers/cfd/kernels.hpp"

#include <algorithm>
#include <cmath>

namespace parcae::cfd {

double boundary_pressure(const BoundaryCondition& b, double z, double rho_liquid, double rho_gas) {
  if (b.kind == BcKind::Outflow) return 0.0;
  if (b.height < 0) return b.pressure;
  const double h = b.cell_height, gd = b.gravity_down;
  if (!(h > 0)) // no grid given: the continuous column
    return b.pressure + rho_gas * gd * (b.top - std::max(z, b.height)) +
           rho_liquid * gd * std::max(b.height - z, 0.0);
  const int n = std::max(1, static_cast<int>(std::lround(b.top / h)));
  const int k = std::clamp(static_cast<int>(std::floor(z / h)), 0, n - 1);
  auto wet = [&](int m) { return std::clamp((b.height - m * h) / h, 0.0, 1.0); };
  auto rho = [&](double w) { return w * rho_liquid + (1 - w) * rho_gas; };
  double p = b.pressure + rho(wet(n - 1)) * gd * 0.5 * h;
  for (int m = n - 2; m >= k; --m) p += rho(0.5 * (wet(m) + wet(m + 1))) * gd * h;
  return p;
}

double Mixture::rho(double f) const {
  f = std::clamp(f, 0.0, 1.0);
  return f * rho_l + (1 - f) * rho_g;
}
double Mixture::mu(double f) const {
  f = std::clamp(f, 0.0, 1.0);
  return f * mu_l + (1 - f) * mu_g;
}

namespace {

/// Index of the cell at coordinate m along d, the other two coordinates from (i, j, k).
struct Line {
  const Grid& g;
  int d;
  std::array<int, 3> pos;
  [[nodiscard]] std::ptrdiff_t operator()(int m) const {
    auto p = pos;
    p[d] = m;
    return g.at(p[0], p[1], p[2]);
  }
};

/// Calls fn(Line) for every line along d through the ghosted extent of the other directions.
template <class Fn> void for_lines(const Grid& g, int d, Fn&& fn) {
  const int e1 = (d + 1) % 3, e2 = (d + 2) % 3;
  for (int b = -g.g[e2]; b < g.n[e2] + g.g[e2]; ++b)
    for (int a = -g.g[e1]; a < g.n[e1] + g.g[e1]; ++a) {
      std::array<int, 3> pos{0, 0, 0};
      pos[e1] = a;
      pos[e2] = b;
      fn(Line{g, d, pos});
    }
}

/// van Leer limited face value from the upwind cell q0 (qm behind it, qp ahead).
inline double van_leer(double qm, double q0, double qp) {
  const double a = q0 - qm, b = qp - q0;
  const double slope = (a * b > 0) ? 2 * a * b / (a + b) : 0.0;
  return q0 + 0.5 * slope;
}

/// log(cosh(x)) without overflow.
inline double log_cosh(double x) {
  const double a = std::fabs(x);
  return a + std::log1p(std::exp(-2 * a)) - std::log(2.0);
}

/// Volume fraction (times h) carried out of a donor cell through the part [a, b] of its unit
/// width, from a THINC profile 0.5 (1 + gamma tanh(beta (x - x0))) with the cell's mean f0
/// (Xiao, Honma & Kono 2005); the donor-cell value f0 (b - a) where the profile is not monotone.
inline double thinc_integral(double fm, double f0, double fp, double a, double b, double beta) {
  constexpr double eps = 1e-8;
  if (f0 <= eps || f0 >= 1 - eps || (fp - f0) * (f0 - fm) <= 0)
    return std::max(f0, 0.0) * (b - a); // a cell over-filled by round-off (f > 1) sheds it too
  const double gamma = fp > fm ? 1.0 : -1.0;
  const double q = std::exp(beta * gamma * (2 * f0 - 1));
  const double t = std::clamp((std::cosh(beta) - q) / std::sinh(beta), -1 + 1e-15, 1 - 1e-15);
  const double x0 = std::atanh(t) / beta;
  const double v =
      0.5 * (b - a) + gamma / (2 * beta) * (log_cosh(beta * (b - x0)) - log_cosh(beta * (a - x0)));
  return std::clamp(v, 0.0, b - a);
}

/// Share of the boundary cell (vertical index m along the line's other coordinates) below the
/// level `height` along the vertical axis; 1 for faces normal to the vertical or without a
/// level.
double wet_share(const Grid& g, int d, const std::array<int, 3>& pos, double height) {
  const int a = g.dim - 1;
  if (height < 0 || d == a) return 1.0;
  const double z0 = (g.offset[a] + pos[a]) * g.h[a];
  return std::clamp((height - z0) / g.h[a], 0.0, 1.0);
}

/// Density at a pressure boundary's face: the mixture of the cell inside and the ghost outside
/// (the fluid the boundary holds there: a hydrostatic level's liquid pushes on gas inside with
/// the face's mean density, not the gas's, which would accelerate it 800 times too fast).
double boundary_rho(const Mixture& mix, const double* f, std::ptrdiff_t inside,
                    std::ptrdiff_t ghost) {
  return mix.rho(0.5 * (f[inside] + f[ghost]));
}

/// Height of the boundary cell's centre (faces normal to the vertical: the face itself).
double boundary_z(const Grid& g, int d, int side, const std::array<int, 3>& pos) {
  const int a = g.dim - 1;
  if (d == a) return side == 0 ? g.offset[a] * g.h[a] : (g.offset[a] + g.n[a]) * g.h[a];
  return (g.offset[a] + pos[a] + 0.5) * g.h[a];
}

} // namespace

void fill_boundary_ghosts(const Grid& g, const Boundaries& bc, VelocityPtrs u, double* f) {
  for (int d = 0; d < g.dim; ++d) {
    const int n = g.n[d];
    for (int side = 0; side < 2; ++side) {
      if (side == 0 ? !g.at_lo(d) : !g.at_hi(d)) continue;
      const BoundaryCondition& b = bc[2 * d + side];
      for_lines(g, d, [&](const Line& at) {
        const double wet = b.kind == BcKind::Inflow ? wet_share(g, d, at.pos, b.height) : 1.0;
        for (int c = 0; c < g.dim; ++c) {
          double* q = u[c];
          if (c == d) {
            const double un = (b.kind == BcKind::Inflow) ? b.velocity[d] * wet : 0.0;
            if (side == 0) {
              if (pressure_boundary(b.kind)) {
                q[at(-1)] = q[at(-2)] = q[at(0)];
              } else {
                q[at(0)] = un;
                q[at(-1)] = 2 * un - q[at(1)];
                q[at(-2)] = 2 * un - q[at(2)];
              }
            } else {
              if (pressure_boundary(b.kind)) {
                q[at(n + 1)] = q[at(n)];
              } else {
                q[at(n)] = un;
                q[at(n + 1)] = 2 * un - q[at(n - 1)];
              }
            }
          } else {
            const double ut = b.kind == BcKind::Wall     ? b.velocity[c]
                              : b.kind == BcKind::Inflow ? b.velocity[c] * wet
                                                         : 0.0;
            for (int m = 1; m <= 2; ++m) {
              const std::ptrdiff_t ghost = side == 0 ? at(-m) : at(n - 1 + m);
              const std::ptrdiff_t src = side == 0 ? at(m - 1) : at(n - m);
              const std::ptrdiff_t edge = side == 0 ? at(0) : at(n - 1);
              switch (b.kind) {
              case BcKind::Wall:
              case BcKind::Inflow:
                q[ghost] = 2 * ut - q[src];
                break;
              case BcKind::Symmetry:
                q[ghost] = q[src];
                break;
              case BcKind::Outflow:
              case BcKind::Pressure:
                q[ghost] = q[edge];
                break;
              }
            }
          }
        }
        if (f) {
          const double un = u[d][side == 0 ? at(0) : at(n)];
          const bool entering = side == 0 ? un > 0 : un < 0;
          for (int m = 1; m <= 2; ++m) {
            const std::ptrdiff_t ghost = side == 0 ? at(-m) : at(n - 1 + m);
            const std::ptrdiff_t src = side == 0 ? at(m - 1) : at(n - m);
            // Inflow: its fraction, or liquid below its level; a hydrostatic pressure boundary
            // lets in liquid below its level; otherwise zero gradient.
            // Fluid entering through a pressure boundary (outflow, roof) is gas unless the
            // boundary has a liquid level (zero gradient where it leaves: the ghost only
            // shapes the donor's profile then).
            if (b.kind == BcKind::Inflow)
              f[ghost] = b.height >= 0 && d != g.dim - 1 ? (wet > 0 ? 1.0 : 0.0) : b.fraction;
            else if (b.kind == BcKind::Pressure && b.height >= 0 && d != g.dim - 1)
              f[ghost] = wet_share(g, d, at.pos, b.height);
            else if (pressure_boundary(b.kind) && entering)
              f[ghost] = 0.0;
            else
              f[ghost] = f[src];
          }
        }
      });
    }
  }
}

void fill_pressure_ghosts(const Grid& g, const Boundaries& bc, const Mixture& mix, double* p) {
  for (int d = 0; d < g.dim; ++d) {
    const int n = g.n[d];
    for (int side = 0; side < 2; ++side) {
      if (side == 0 ? !g.at_lo(d) : !g.at_hi(d)) continue;
      const BoundaryCondition& b = bc[2 * d + side];
      const bool given = pressure_boundary(b.kind);
      for_lines(g, d, [&](const Line& at) {
        // Mirror (Neumann), or antisymmetric about the boundary's pressure.
        const double pb =
            given ? boundary_pressure(b, boundary_z(g, d, side, at.pos), mix.rho_l, mix.rho_g)
                  : 0.0;
        for (int m = 1; m <= 2; ++m) {
          const std::ptrdiff_t ghost = side == 0 ? at(-m) : at(n - 1 + m);
          const std::ptrdiff_t src = side == 0 ? at(m - 1) : at(n - m);
          p[ghost] = given ? 2 * pb - p[src] : p[src];
        }
      });
    }
  }
}

double max_advective_rate(const Grid& g, ConstVelocityPtrs u) {
  double rate = 0;
  const Box b = owned_box(g);
#pragma omp parallel for collapse(2) reduction(max : rate) schedule(static)
  for (int k = b.lo[2]; k < b.hi[2]; ++k)
    for (int j = b.lo[1]; j < b.hi[1]; ++j)
      for (int i = b.lo[0]; i < b.hi[0]; ++i) {
        // Faces this rank owns: the lower face of each cell, and the upper face of the last
        // cell on the box's upper boundary (ghost faces of other ranks may be a step old: the
        // step would then depend on the decomposition).
        const std::ptrdiff_t c = g.at(i, j, k);
        const std::array<int, 3> ijk{i, j, k};
        double r = 0;
        for (int d = 0; d < g.dim; ++d) {
          double a = std::fabs(u[d][c]);
          if (ijk[d] == g.n[d] - 1 && g.at_hi(d)) a = std::max(a, std::fabs(u[d][c + g.stride[d]]));
          r += a / g.h[d];
        }
        rate = std::max(rate, r);
      }
  return rate;
}

void predict_velocity(const Grid& g, const Box& box, double dt, ConstVelocityPtrs u,
                      const double* f, const Mixture& mix, const std::array<double, 3>& gravity,
                      bool viscous_only, VelocityPtrs us) {
  const bool two_fluid = mix.rho_l != mix.rho_g;
  for (int c = 0; c < g.dim; ++c) {
    const double* q = u[c];
    const std::ptrdiff_t ec = g.stride[c];
    for_box(box, [&](int i, int j, int k) {
      const std::ptrdiff_t I = g.at(i, j, k);
      const int ic = c == 0 ? i : c == 1 ? j : k;
      if (ic == 0 && g.at_lo(c)) {
        if (!viscous_only) us[c][I] = q[I];
        return;
      }
      double adv = 0, lap = 0, dmass = 0, dmom = 0;
      // Density of the velocity control volume X (between cells X - e_c and X).
      auto cv_rho = [&](std::ptrdiff_t X) { return mix.rho(0.5 * (f[X] + f[X - ec])); };
      for (int d = 0; d < g.dim; ++d) {
        const std::ptrdiff_t ed = g.stride[d];
        const double* ud = u[d];
        auto velocity = [&](std::ptrdiff_t J) {
          return (d == c) ? 0.5 * (q[J] + q[J + ec]) : 0.5 * (ud[J + ed] + ud[J - ec + ed]);
        };
        auto face_value = [&](std::ptrdiff_t J, double a) {
          return a > 0 ? van_leer(q[J - ed], q[J], q[J + ed])
                       : van_leer(q[J + 2 * ed], q[J + ed], q[J]);
        };
        if (viscous_only) {
          lap += (q[I + ed] - 2 * q[I] + q[I - ed]) / (g.h[d] * g.h[d]);
        } else if (!two_fluid) {
          const double a1 = velocity(I), a0 = velocity(I - ed);
          adv += (a1 * face_value(I, a1) - a0 * face_value(I - ed, a0)) / g.h[d];
        } else {
          // Mass flux of the control volume's face with the upwind control volume's density,
          // and the momentum it carries.
          const double a1 = velocity(I), a0 = velocity(I - ed);
          const double m1 = a1 * cv_rho(a1 > 0 ? I : I + ed);
          const double m0 = a0 * cv_rho(a0 > 0 ? I - ed : I);
          dmass += (m1 - m0) / g.h[d];
          dmom += (m1 * face_value(I, a1) - m0 * face_value(I - ed, a0)) / g.h[d];
        }
      }
      if (viscous_only) {
        const double ff = 0.5 * (f[I] + f[I - ec]);
        us[c][I] += dt * mix.mu(ff) / mix.rho(ff) * lap;
      } else if (!two_fluid) {
        us[c][I] = q[I] + dt * (gravity[c] - adv);
      } else {
        // Momentum-consistent transport across the density jump: rho u is advected with the
        // mass fluxes that also carry the control volume's density, u = (rho u)_new / rho_new
        // (a uniform velocity stays uniform however the density varies; velocity advected
        // alone would hand the gas's fast velocities to the liquid).
        const double rho0 = cv_rho(I);
        const double rho1 = std::max(rho0 - dt * dmass, 1e-3 * std::min(mix.rho_l, mix.rho_g));
        us[c][I] = (rho0 * q[I] - dt * dmom) / rho1 + dt * gravity[c];
      }
    });
  }
}

void predict_outflow_faces(const Grid& g, const Boundaries& bc, VelocityPtrs us) {
  for (int d = 0; d < g.dim; ++d) {
    for (int side = 0; side < 2; ++side) {
      if (!pressure_boundary(bc[2 * d + side].kind)) continue;
      if (side == 0 ? !g.at_lo(d) : !g.at_hi(d)) continue;
      Box b = owned_box(g);
      b.lo[d] = side == 0 ? 0 : g.n[d];
      b.hi[d] = b.lo[d] + 1;
      const int from = side == 0 ? 1 : -1;
      for_box(b, [&](int i, int j, int k) {
        const std::ptrdiff_t I = g.at(i, j, k);
        us[d][I] = us[d][I + from * g.stride[d]];
      });
    }
  }
}

void pressure_matrix(const Grid& g, const Boundaries& bc, const double* f, const Mixture& mix,
                     std::vector<double>& coef, const OpenPtrs& open) {
  const int ns = 2 * g.dim + 1;
  coef.assign(g.owned() * ns, 0.0);
  const Box b = owned_box(g);
  for_box(b, [&](int i, int j, int k) {
    const std::size_t cell =
        static_cast<std::size_t>(i) + g.n[0] * (j + static_cast<std::size_t>(g.n[1]) * k);
    double* a = &coef[cell * ns];
    const std::ptrdiff_t I = g.at(i, j, k);
    const std::array<int, 3> ijk{i, j, k};
    if (open.any() && open.vf[I] == 0) {
      // A closed cell: p = 0, decoupled (its faces are closed).
      a[0] = 2.0 * g.dim / (mix.rho(f[I]) * g.h[0] * g.h[0]);
      return;
    }
    for (int d = 0; d < g.dim; ++d) {
      const double h2 = g.h[d] * g.h[d];
      for (int side = 0; side < 2; ++side) {
        const bool boundary =
            side == 0 ? (ijk[d] == 0 && g.at_lo(d)) : (ijk[d] == g.n[d] - 1 && g.at_hi(d));
        const std::ptrdiff_t face = side == 0 ? I : I + g.stride[d];
        const double area = open.any() ? open.af[d][face] : 1.0;
        if (boundary) {
          if (pressure_boundary(bc[2 * d + side].kind))
            a[0] +=
                2.0 * area / (boundary_rho(mix, f, I, I + (side == 0 ? -1 : 1) * g.stride[d]) * h2);
          continue;
        }
        const std::ptrdiff_t J = I + (side == 0 ? -1 : 1) * g.stride[d];
        const double beta = area / (mix.rho(0.5 * (f[I] + f[J])) * h2);
        a[1 + 2 * d + side] = -beta;
        a[0] += beta;
      }
    }
  });
}

void pressure_rhs(const Grid& g, double dt, ConstVelocityPtrs us, std::span<double> b,
                  const OpenPtrs& open) {
  for_box(owned_box(g), [&](int i, int j, int k) {
    const std::size_t cell =
        static_cast<std::size_t>(i) + g.n[0] * (j + static_cast<std::size_t>(g.n[1]) * k);
    const std::ptrdiff_t I = g.at(i, j, k);
    double div = 0;
    if (open.any()) {
      for (int d = 0; d < g.dim; ++d) {
        const std::ptrdiff_t J = I + g.stride[d];
        div += (open.af[d][J] * us[d][J] - open.af[d][I] * us[d][I]) / g.h[d];
      }
    } else {
      for (int d = 0; d < g.dim; ++d) div += (us[d][I + g.stride[d]] - us[d][I]) / g.h[d];
    }
    b[cell] = -div / dt;
  });
}

void add_boundary_pressures(const Grid& g, const Boundaries& bc, const double* f,
                            const Mixture& mix, std::span<double> b, const OpenPtrs& open) {
  for (int d = 0; d < g.dim; ++d) {
    const double h2 = g.h[d] * g.h[d];
    for (int side = 0; side < 2; ++side) {
      const BoundaryCondition& bd = bc[2 * d + side];
      if (!pressure_boundary(bd.kind) || (side == 0 ? !g.at_lo(d) : !g.at_hi(d))) continue;
      if (bd.kind == BcKind::Outflow) continue; // p = 0
      Box box = owned_box(g);
      box.lo[d] = side == 0 ? 0 : g.n[d] - 1;
      box.hi[d] = box.lo[d] + 1;
      for_box(box, [&](int i, int j, int k) {
        const std::ptrdiff_t I = g.at(i, j, k);
        const std::ptrdiff_t face = side == 0 ? I : I + g.stride[d];
        const double area = open.any() ? open.af[d][face] : 1.0;
        const double pb =
            boundary_pressure(bd, boundary_z(g, d, side, {i, j, k}), mix.rho_l, mix.rho_g);
        b[static_cast<std::size_t>(i) + g.n[0] * (j + static_cast<std::size_t>(g.n[1]) * k)] +=
            2.0 * area * pb /
            (boundary_rho(mix, f, I, I + (side == 0 ? -1 : 1) * g.stride[d]) * h2);
      });
    }
  }
}

ExactSum inflow_area(const Grid& g, const BoundaryCondition& b, int face, const OpenPtrs& open) {
  const int d = face / 2, side = face % 2;
  ExactSum area;
  if (side == 0 ? !g.at_lo(d) : !g.at_hi(d)) return area;
  Box box = owned_box(g);
  box.lo[d] = side == 0 ? 0 : g.n[d];
  box.hi[d] = box.lo[d] + 1;
  double cell_face = 1;
  for (int e = 0; e < g.dim; ++e)
    if (e != d) cell_face *= g.h[e];
  for (int k = box.lo[2]; k < box.hi[2]; ++k)
    for (int j = box.lo[1]; j < box.hi[1]; ++j)
      for (int i = box.lo[0]; i < box.hi[0]; ++i) {
        const double A = open.any() ? open.af[d][g.at(i, j, k)] : 1.0;
        area.add(A * wet_share(g, d, {i, j, k}, b.height) * cell_face);
      }
  return area;
}

void zero_closed_faces(const Grid& g, const OpenPtrs& open, VelocityPtrs u) {
  if (!open.any()) return;
  for (int c = 0; c < g.dim; ++c) {
    Box b = owned_box(g);
    if (g.at_hi(c)) b.hi[c] += 1; // the upper boundary faces
    for_box(b, [&](int i, int j, int k) {
      const std::ptrdiff_t I = g.at(i, j, k);
      if (open.af[c][I] == 0) u[c][I] = 0;
    });
  }
}

void correct_velocity(const Grid& g, const Boundaries& bc, double dt, const double* p,
                      const double* f, const Mixture& mix, ConstVelocityPtrs us, VelocityPtrs u,
                      const OpenPtrs& open) {
  for (int c = 0; c < g.dim; ++c) {
    const std::ptrdiff_t ec = g.stride[c];
    const double h = g.h[c];
    const bool lo_out = g.at_lo(c) && pressure_boundary(bc[2 * c].kind);
    for_box(owned_box(g), [&](int i, int j, int k) {
      const std::ptrdiff_t I = g.at(i, j, k);
      const int ic = c == 0 ? i : c == 1 ? j : k;
      if (ic == 0 && g.at_lo(c)) {
        if (!lo_out) {
          u[c][I] = us[c][I];
          return;
        }
        const double pb =
            boundary_pressure(bc[2 * c], boundary_z(g, c, 0, {i, j, k}), mix.rho_l, mix.rho_g);
        u[c][I] = us[c][I] - dt / boundary_rho(mix, f, I, I - ec) * (p[I] - pb) / (0.5 * h);
        return;
      }
      const double rho = mix.rho(0.5 * (f[I] + f[I - ec]));
      u[c][I] = us[c][I] - dt / rho * (p[I] - p[I - ec]) / h;
    });
    if (g.at_hi(c) && pressure_boundary(bc[2 * c + 1].kind)) {
      Box b = owned_box(g);
      b.lo[c] = g.n[c];
      b.hi[c] = g.n[c] + 1;
      for_box(b, [&](int i, int j, int k) {
        const std::ptrdiff_t I = g.at(i, j, k);
        const double pb =
            boundary_pressure(bc[2 * c + 1], boundary_z(g, c, 1, {i, j, k}), mix.rho_l, mix.rho_g);
        u[c][I] = us[c][I] + dt / boundary_rho(mix, f, I - ec, I) * (p[I - ec] - pb) / (0.5 * h);
      });
    }
  }
  zero_closed_faces(g, open, u);
}

double max_divergence(const Grid& g, ConstVelocityPtrs u, const OpenPtrs& open) {
  double m = 0;
  const Box b = owned_box(g);
#pragma omp parallel for collapse(2) reduction(max : m) schedule(static)
  for (int k = b.lo[2]; k < b.hi[2]; ++k)
    for (int j = b.lo[1]; j < b.hi[1]; ++j)
      for (int i = b.lo[0]; i < b.hi[0]; ++i) {
        const std::ptrdiff_t I = g.at(i, j, k);
        double div = 0;
        if (open.any()) {
          if (open.vf[I] == 0) continue;
          for (int d = 0; d < g.dim; ++d) {
            const std::ptrdiff_t J = I + g.stride[d];
            div += (open.af[d][J] * u[d][J] - open.af[d][I] * u[d][I]) / g.h[d];
          }
          div /= open.vf[I];
        } else {
          for (int d = 0; d < g.dim; ++d) div += (u[d][I + g.stride[d]] - u[d][I]) / g.h[d];
        }
        m = std::max(m, std::fabs(div) * g.h[0]);
      }
  return m;
}

void advect_fraction(const Grid& g, double dt, ConstVelocityPtrs u, const double* f, double beta,
                     double* f_new, const OpenPtrs& open) {
  const Box owned = owned_box(g);
  // Volume fraction (times h) leaving donor cell D through its upper (+1) or lower (-1) face in
  // direction d: one expression for the donor limiter and the fluxes (bitwise the same value).
  auto leaving = [&](std::ptrdiff_t D, int d, int side, double vel) {
    const std::ptrdiff_t ed = g.stride[d];
    const double c = std::fabs(vel) * dt / g.h[d];
    return side > 0 ? thinc_integral(f[D - ed], f[D], f[D + ed], 1 - c, 1, beta)
                    : thinc_integral(f[D + ed], f[D], f[D - ed], 1 - c, 1, beta);
  };
  // Donor limiter: each face flux is bounded by what its donor holds, but the unsplit sum over
  // faces is not; a donor whose outflows add up to more than its content has them scaled down
  // (f stays >= 0). Computed for the owned cells and one ghost layer (the donors of the
  // owned cells' faces), identically on every rank that sees the cell.
  std::vector<double> scale(g.total, 1.0);
  Box ext = owned;
  for (int d = 0; d < g.dim; ++d) {
    ext.lo[d] -= 1;
    ext.hi[d] += 1;
  }
  // With obstacles: volumes in units of a whole cell, the flux through a face times its open
  // area, the donor's content f V.
  for_box(ext, [&](int i, int j, int k) {
    const std::ptrdiff_t D = g.at(i, j, k);
    double out = 0;
    for (int d = 0; d < g.dim; ++d) {
      const std::ptrdiff_t U = D + g.stride[d];
      const double up = u[d][U], lo = u[d][D];
      if (up > 0) out += leaving(D, d, +1, up) * (open.any() ? open.af[d][U] : 1.0);
      if (lo < 0) out += leaving(D, d, -1, lo) * (open.any() ? open.af[d][D] : 1.0);
    }
    const double content = open.any() ? f[D] * open.vf[D] : f[D];
    if (out > content && out > 0) scale[D] = std::max(content, 0.0) / out;
  });
  std::vector<double> flux(g.total, 0.0);
  for_box(owned, [&](int i, int j, int k) {
    const std::ptrdiff_t I = g.at(i, j, k);
    f_new[I] = f[I];
  });
  for (int d = 0; d < g.dim; ++d) {
    const std::ptrdiff_t ed = g.stride[d];
    Box faces = owned;
    faces.hi[d] += 1;
    for_box(faces, [&](int i, int j, int k) {
      const std::ptrdiff_t I = g.at(i, j, k);
      const double vel = u[d][I];
      double v = 0;
      if (vel > 0)
        v = leaving(I - ed, d, +1, vel) * scale[I - ed];
      else if (vel < 0)
        v = -leaving(I, d, -1, vel) * scale[I];
      flux[I] = open.any() ? v * open.af[d][I] : v;
    });
    if (open.any()) {
      for_box(owned, [&](int i, int j, int k) {
        const std::ptrdiff_t I = g.at(i, j, k);
        if (open.vf[I] > 0) f_new[I] -= (flux[I + ed] - flux[I]) / open.vf[I];
      });
    } else {
      for_box(owned, [&](int i, int j, int k) {
        const std::ptrdiff_t I = g.at(i, j, k);
        f_new[I] -= flux[I + ed] - flux[I];
      });
    }
  }
}

void gather_owned(const Grid& g, const double* field, std::span<double> out) {
  for_box(owned_box(g), [&](int i, int j, int k) {
    out[static_cast<std::size_t>(i) + g.n[0] * (j + static_cast<std::size_t>(g.n[1]) * k)] =
        field[g.at(i, j, k)];
  });
}

void scatter_owned(const Grid& g, std::span<const double> in, double* field) {
  for_box(owned_box(g), [&](int i, int j, int k) {
    field[g.at(i, j, k)] =
        in[static_cast<std::size_t>(i) + g.n[0] * (j + static_cast<std::size_t>(g.n[1]) * k)];
  });
}

} // namespace parcae::cfd
