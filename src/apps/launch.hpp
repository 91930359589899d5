#pragma once
// `parcae run DECK --np N [--threads T] [--mpi openmpi|mpich] [--transport shm|tcp]`: start the
// right mpirun on this program for the user, printing the exact command.
#include <CLI/CLI.hpp>

namespace parcae {

/// Adds --np, --mpi and --transport to the run subcommand (for --help; the launcher reads them
/// before the normal parser runs).
void add_launch_options(CLI::App& run);

/// Prints an input error (or the list of them) as every parcae command does: "parcae: input
/// error" and one line per problem with its file:line.
void print_input_error(const std::exception& e);

/// If argv is a `run` or `cfd` command with --np (and optionally --bind socket|node|core) and we
/// are not already inside an MPI job, exec mpirun (does not return on success) and return its
/// failure code; return -1 when there is nothing to launch.
int maybe_launch_mpirun(int argc, char** argv);

} // namespace parcae
