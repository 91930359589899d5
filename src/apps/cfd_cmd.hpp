#pragma once
// `parcae cfd cavity|dambreak|run ...`: the CFD solver's commands (see docs/cfd.md).
#include "par/comm.hpp"

namespace parcae {

/// Returns the exit status when argv is a `cfd` command, -1 otherwise. MPI is initialised.
int maybe_run_cfd_command(int argc, char** argv, const par::Comm& comm);

} // namespace parcae
