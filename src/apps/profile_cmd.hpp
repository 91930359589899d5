#pragma once
// `parcae profile ...`: run any MPI program under the MPI profiler (LD_PRELOAD), and report or
// compare profiles (python/parcae_tools/profile.py). Handled before MPI starts.

namespace parcae {

/// If argv is `parcae profile ...`, do it and return the exit status; -1 otherwise.
int maybe_run_profile_command(int argc, char** argv);

} // namespace parcae
