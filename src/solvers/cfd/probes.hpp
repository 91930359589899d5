#pragma once
// Probes (the case's `probes:`): values written to probes.csv, one column per value.
#include <string>
#include <vector>

#include "core/exact_sum.hpp"
#include "solvers/cfd/kernels.hpp"

namespace parcae::cfd {

/// The CSV columns after `time`: a height or pressure probe is one column (its name), a
/// velocity probe one per component (name_u, name_v, name_w).
std::vector<std::string> probe_columns(const std::vector<Probe>& probes, int dim);

/// This rank's part of every column (out, one accumulator per column): summed over the ranks
/// they give the values. Needs current ghosts of u (one layer) and p.
///   height    the liquid depth along the vertical line through the point's cell column,
///             sum of f V h over the line (f the liquid fraction, V the open volume fraction)
///   pressure  multilinear interpolation of the cell-centred pressure at the point, over the
///             open cells around it (on an obstacle's face: the fluid next to it)
///   velocity  multilinear interpolation of each staggered component
void sample_probes(const Grid& g, const std::vector<Probe>& probes, ConstVelocityPtrs u,
                   const double* p, const double* f, const OpenPtrs& open,
                   std::vector<ExactSum>& out);

} // namespace parcae::cfd
