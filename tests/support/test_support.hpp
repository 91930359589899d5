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
