#pragma once
// Domain decomposition for MPP runs: every element (solid or shell, rigid included) is assigned
// to one rank. Recursive coordinate bisection (LS-DYNA's default) weighted by element cost,
// after an optional transformation of the element centroids (LS-DYNA's "decomp { sy 2 }":
// stretch, rotate); METIS graph partitioning as a second method. Deterministic: every rank
// computes the same assignment from the same model.
#include <array>
#include <cstdint>
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
  Real cost_shell = 1.2; ///< Belytschko-Tsay, NIP 2 (NIP 5: about 1.5)
  Real cost_rigid = 0.05;
  /// Extra cost of an element all of whose nodes take part in some contact (penalty search and
  /// projection of its nodes each cycle; measured, see decompose.cpp). An element with a
  /// fraction f of its distinct nodes in contact costs base + cost_contact * f; rigid elements
  /// get the extra as well (their contact nodes are searched like any other).
  Real cost_contact = 0.84;
  /// Per model.solids / model.shells entry: fraction (0..1) of the element's distinct nodes
  /// that take part in some contact. Empty = no contact cost (set_contact_fractions in
  /// solvers/common/contact_weights.hpp fills them from the deck's *CONTACT cards).
  std::vector<Real> contact_fraction_solid, contact_fraction_shell;
};

struct Decomposition {
  int nparts = 1;
  std::vector<int> solid_rank; ///< per model.solids entry
  std::vector<int> shell_rank; ///< per model.shells entry
  /// Per model.beams entry: the lowest rank of the solids and shells at N1 (else N2); beams
  /// touching no other element are dealt out in deck order (trusses are cheap and few).
  std::vector<int> beam_rank;
};

/// Throws InputError if nparts < 1 or nparts exceeds the number of elements; RuntimeError if a
/// contact fraction vector is neither empty nor one entry per element.
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
  Real imbalance = 0;        ///< max cost / mean cost - 1
  bool contact_cost = false; ///< the costs include contact work (fractions were given)
};

/// Per-rank figures with the element costs of `costs` (default: the measured defaults, no
/// contact); with contact fractions in `costs` the per-rank cost and the imbalance include the
/// contact work. Throws RuntimeError if a fraction vector is neither empty nor one per element.
/// Shared nodes: nodes touched by
/// elements of this rank and of another. Bytes per cycle: what this rank sends in the nodal
/// force exchange, i.e. for every shared node and every other rank at the node, the per-corner
/// vectors of this rank's corners there (3 doubles per solid corner, 6 per shell corner: force
/// and moment; rigid elements have no corner forces).
DecompReport analyse_decomposition(const Model& model, const Decomposition& d,
                                   const DecompOptions& costs = {});

/// A neighbouring rank and the nodes (model node indices, ascending) both ranks' elements touch.
struct RankNeighbour {
  int rank = 0;
  std::vector<LocalId> nodes;
};
/// Per rank: its neighbours in increasing rank order with the shared nodes (symmetric: b is in
/// a's list with the same nodes as a is in b's).
std::vector<std::vector<RankNeighbour>> shared_node_lists(const Model& model,
                                                          const Decomposition& d);
std::string format_decomposition_report(const DecompReport& r);
/// VTK (.vtu, ASCII) of the mesh with cell arrays "rank" and "part_id" (hexahedra, quads,
/// triangles for shells with n3 == n4).
void write_decomposition_vtk(const std::string& path, const Model& model, const Decomposition& d);

} // namespace parcae
