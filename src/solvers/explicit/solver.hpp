#pragma once
// Explicit central-difference time integration of a Model: lumped mass, element CFL time step
// times TSSFAC, bulk viscosity, optional mass scaling, rigid bodies, rigid walls, energies
// (glstat), VTK output and progress reporting.
#include <string>

#include "mesh/model.hpp"
#include "solvers/common/domain.hpp"
#include "solvers/common/run_options.hpp"

namespace parcae {

/// The model summary printed before a run: nodes, elements by type, parts with material and
/// section, total and added mass, initial time step and the element that controls it.
std::string model_summary(const Model& model, const Domain& domain, Real dt0,
                          const std::string& dt_kind, GlobalId dt_elem, GlobalId dt_part);

/// Run the deck to its termination time. Writes outputs into opt.outdir. Never throws for a
/// run that goes unstable: the summary says why it stopped and the last good state is written.
/// Throws InputError for inconsistent input found while setting up.
RunSummary run_explicit(const Model& model, const RunOptions& opt);

} // namespace parcae
