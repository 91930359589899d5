#pragma once
// `parcae profile ...`: run any MPI program under the MPI profiler (LD_PRELOAD), and report or
// compare profiles (python/parcae_tools/profile.py). Handled before MPI starts.

namespace parcae {

/// If argv is `parcae profile ...`, do it and return the exit status; -1 otherwise.
int maybe_run_profile_command(int argc, char** argv);

/// `parcae bench ...` (campaigns: python/parcae_tools/campaign.py), `parcae whatif ...`
/// (interconnect what-if: python/parcae_tools/whatif.py) and `parcae cluster ...` (hosts as
/// network namespaces: python/parcae_tools/cluster.py): exec the Python tool with the source
/// tree's python/ on PYTHONPATH and PARCAE_EXE set to this binary. -1 for other commands.
int maybe_run_python_command(int argc, char** argv);

} // namespace parcae
