#pragma once
// Domain decomposition for MPP runs: every element (solid or shell, rigid included) is assigned
// to one rank. Recursive coordinate bisection (LS-DYNA's default) weighted by element cost,
// after an optional transformation of the element centroids (LS-DYNA's "decomp { sy 2 }":
// stretch, rotate); METIS graph partitioning as a second method. Deterministic: every rank
// computes the same assignment from the same model.
#include <array>
#include <string>
#include <vector>

#include "mesh/model.hpp"

namespace parcae {

enum class DecompMethod : std::uint8_t { Rcb, Metis };

struct DecompOptions {
  DecompMethod method = DecompMethod::Rcb;
  int nparts = 1;
  /// Applied to element centroids before bisection (row-major 3x3; identity by default).
  std::array<Real, 9> transform{1, 0, 0, 0, 1, 0, 0, 0, 1};
  /// Relative cost of one element-cycle (measured, see decompose.cpp).
  Real cost_solid = 1.0;
  Real cost_shell = 1.0;
  Real cost_rigid = 0.05;
};

struct Decomposition {
  int nparts = 1;
  std::vector<int> solid_rank; ///< per model.solids entry
  std::vector<int> shell_rank; ///< per model.shells entry
};

/// Throws InputError if nparts < 1 or nparts exceeds the number of elements.
Decomposition decompose(const Model& model, const DecompOptions& options);

/// Options from the deck (*CONTROL_MPP_DECOMPOSITION_METHOD / _TRANSFORMATION) for nparts ranks.
DecompOptions decomp_options_from_model(const Model& model, int nparts);

struct DecompReport {
  struct Rank {
    std::size_t solids = 0, shells = 0;
    Real cost = 0;
    std::size_t shared_nodes = 0; ///< nodes this rank shares with others
    int neighbours = 0;
    std::size_t bytes_per_cycle = 0; ///< bytes this rank sends per cycle (force exchange)
  };
  std::vector<Rank> ranks;
  Real imbalance = 0; ///< max cost / mean cost - 1
};

DecompReport analyse_decomposition(const Model& model, const Decomposition& d);
std::string format_decomposition_report(const DecompReport& r);
/// VTK (.vtu) of the mesh with a cell array "rank".
void write_decomposition_vtk(const std::string& path, const Model& model, const Decomposition& d);

} // namespace parcae
