#pragma once
// Helpers shared by the test executables: paths, temporary directories, running the CLI.
#include <filesystem>
#include <string>

namespace parcae::test {

/// Repository root.
std::filesystem::path source_dir();
/// ../shared/reference
std::filesystem::path reference_dir();
/// The built `parcae` executable.
std::filesystem::path parcae_binary();
/// A fresh, empty directory under the system temp dir, unique per call.
std::filesystem::path make_temp_dir(const std::string& tag);
/// Write text to a file (creating parent directories).
void write_file(const std::filesystem::path& p, const std::string& text);
/// Read a whole file.
std::string read_file(const std::filesystem::path& p);

struct CommandResult {
  int exit_code = -1;
  std::string output; ///< stdout and stderr together
};
/// Run a shell command with a timeout (seconds), capturing output.
CommandResult run_command(const std::string& cmd, int timeout_s = 300);

} // namespace parcae::test

#include <vector>

namespace parcae::test {

/// *NODE and *ELEMENT_SOLID cards for a structured nx*ny*nz block of hexahedra on
/// [0,lx]x[0,ly]x[0,lz] (node ids from first_node, element ids from first_elem, part pid).
/// Node (i,j,k) has id first_node + i + (nx+1)*(j + (ny+1)*k).
std::string hex_block_cards(int nx, int ny, int nz, double lx, double ly, double lz, int pid,
                            long first_node = 1, long first_elem = 1, double x0 = 0, double y0 = 0,
                            double z0 = 0);
/// *NODE and *ELEMENT_SHELL cards for an nx*ny grid of quads on [0,lx]x[0,ly] in z = 0.
/// Node (i,j) has id first_node + i + (nx+1)*j.
std::string shell_grid_cards(int nx, int ny, double lx, double ly, int pid, long first_node = 1,
                             long first_elem = 1);
/// Node ids of a structured hex block whose (i,j,k) satisfies pred.
template <class Pred>
std::vector<long> block_nodes(int nx, int ny, int nz, long first_node, Pred pred) {
  std::vector<long> out;
  for (int k = 0; k <= nz; ++k)
    for (int j = 0; j <= ny; ++j)
      for (int i = 0; i <= nx; ++i)
        if (pred(i, j, k)) out.push_back(first_node + i + (nx + 1) * (j + (ny + 1) * k));
  return out;
}
/// *SET_NODE_LIST card with the given ids.
std::string node_set_card(int sid, const std::vector<long>& ids);
/// Largest eigenvalue of a symmetric n x n matrix (row-major), by cyclic Jacobi rotations.
double max_eigenvalue(std::vector<double> a, int n);

} // namespace parcae::test
