#pragma once
// Kernels of the CFD solver over the ghosted arrays of one block (grid.hpp): boundary ghosts,
// time-step limit, momentum predictor, pressure matrix and right-hand side, velocity
// correction, volume-of-fluid transport. No communication here: the solver exchanges halos
// between the calls. Loops are OpenMP-parallel over (k, j); every value is computed from its
// own stencil, so results do not depend on the thread count.
#include <array>
#include <span>
#include <vector>

#include "core/exact_sum.hpp"
#include "solvers/cfd/cfd_case.hpp"
#include "solvers/cfd/geometry.hpp"
#include "solvers/cfd/grid.hpp"

namespace parcae::cfd {

using Boundaries = std::array<BoundaryCondition, 6>;
using VelocityPtrs = std::array<double*, 3>;
using ConstVelocityPtrs = std::array<const double*, 3>;

/// Mixture properties of the fluid fraction f (clamped to [0, 1]).
struct Mixture {
  double rho_l = 1, rho_g = 1, mu_l = 0, mu_g = 0;
  [[nodiscard]] double rho(double f) const;
  [[nodiscard]] double mu(double f) const;
};

template <class Fn> void for_box(const Box& b, Fn&& fn) {
#pragma omp parallel for collapse(2) schedule(static)
  for (int k = b.lo[2]; k < b.hi[2]; ++k)
    for (int j = b.lo[1]; j < b.hi[1]; ++j)
      for (int i = b.lo[0]; i < b.hi[0]; ++i) fn(i, j, k);
}

/// Ghost values on the physical boundaries of this block: velocities (no-slip, free-slip,
/// inflow, zero-gradient outflow) and fluid fraction (mirror, or the inflow's fraction).
void fill_boundary_ghosts(const Grid& g, const Boundaries& bc, VelocityPtrs u, double* f);
/// Pressure ghosts: mirror (Neumann), or antisymmetric about the boundary pressure on pressure
/// boundaries (p = 0 on outflow faces).
void fill_pressure_ghosts(const Grid& g, const Boundaries& bc, const Mixture& mix, double* p);

/// The largest sum_d |u_d| / h_d over the owned cells (each cell's lower faces, and the upper
/// boundary faces): a function of the global field, not of the decomposition.
double max_advective_rate(const Grid& g, ConstVelocityPtrs u);

/// Explicit momentum predictor on the owned faces of `box` (faces on a physical boundary keep
/// their prescribed value), in two passes: us = u + dt (gravity - advection), then
/// (viscous_only) us += dt mu/rho lap(u). Advection is conservative, with van Leer limited
/// (second-order upwind-biased) face values; diffusion the standard 2nd-order Laplacian.
void predict_velocity(const Grid& g, const Box& box, double dt, ConstVelocityPtrs u,
                      const double* f, const Mixture& mix, const std::array<double, 3>& gravity,
                      bool viscous_only, VelocityPtrs us);
/// Outflow faces: the predicted normal velocity extrapolated from inside.
void predict_outflow_faces(const Grid& g, const Boundaries& bc, VelocityPtrs us);

/// Obstacles (geometry.hpp): the open fractions enter the continuity equation as
/// div(A u) = 0 (A the open area of each face), the pressure equation as
/// -div(A / rho grad p) = -div(A us) / dt, and the fraction transport as fluxes through the open
/// areas into open volumes. Faces with A = 0 carry no velocity; closed cells (V = 0) keep p = 0
/// through an identity row. All null: every face and cell fully open (the same arithmetic as
/// without obstacles).
///
/// Pressure matrix (StructPoisson stencil order: centre, -x, +x, -y, +y, -z, +z) of
/// -div(A/rho grad p) on the owned cells, Neumann on walls, symmetry and inflow, p = 0 on
/// outflow faces.
void pressure_matrix(const Grid& g, const Boundaries& bc, const double* f, const Mixture& mix,
                     std::vector<double>& coef, const OpenPtrs& open = {});
/// b = -div(A us) / dt on the owned cells (owned-cell order).
void pressure_rhs(const Grid& g, double dt, ConstVelocityPtrs us, std::span<double> b,
                  const OpenPtrs& open = {});
/// u = us - dt / rho_face grad p on the owned faces (and outflow boundary faces); 0 on closed
/// faces.
void correct_velocity(const Grid& g, const Boundaries& bc, double dt, const double* p,
                      const double* f, const Mixture& mix, ConstVelocityPtrs us, VelocityPtrs u,
                      const OpenPtrs& open = {});
/// The pressure boundaries' given pressures in the right-hand side (the matrix has their
/// diagonal terms): b += 2 A p_b / (rho h^2) in the cells next to them.
void add_boundary_pressures(const Grid& g, const Boundaries& bc, const double* f,
                            const Mixture& mix, std::span<double> b, const OpenPtrs& open = {});
/// This rank's part of the open (and, with a level, wetted) area of boundary face `face`
/// (0 xmin, 1 xmax, ...): the inflow area of a flow rate.
ExactSum inflow_area(const Grid& g, const BoundaryCondition& b, int face, const OpenPtrs& open);
/// Sets the velocity of the closed owned faces (A = 0) to zero (after the predictor: the
/// obstacles' no-slip and no-through-flow).
void zero_closed_faces(const Grid& g, const OpenPtrs& open, VelocityPtrs u);
/// max |div(A u)| h / V over the owned open cells (a check of the projection).
double max_divergence(const Grid& g, ConstVelocityPtrs u, const OpenPtrs& open = {});

/// Volume-of-fluid transport: f_new = f - sum over faces of the volume fraction each face
/// carries in dt, the fluxes from a THINC (tanh) reconstruction in the donor cell (upwind where
/// the profile is not monotone). Flux form: what leaves one cell enters its neighbour, so the
/// liquid volume changes only through the boundaries (to round-off).
void advect_fraction(const Grid& g, double dt, ConstVelocityPtrs u, const double* f, double beta,
                     double* f_new, const OpenPtrs& open = {});

/// Owned-cell values in owned-cell order (i fastest) from a ghosted array, and back.
void gather_owned(const Grid& g, const double* field, std::span<double> out);
void scatter_owned(const Grid& g, std::span<const double> in, double* field);

} // namespace parcae::cfd
