#pragma once
// Phase timing for parcae on top of the MPI profiler (libparcae-mpiprof.so, docs/profile.md).
// In a build without MPI every function is a no-op (phase_id returns 0, dump returns false).
//
//   static const int id = parcae::prof::phase_id("element_forces");
//   { parcae::prof::PhaseScope scope(id); ... }   // time and MPI calls attributed to the phase
#include <string>

namespace parcae::prof {

/// Id of the phase called `name` (registered on first use; same name -> same id). Not for the
/// hot path: look it up once. Returns -1 when the phase table (32 entries) is full.
int phase_id(const char* name);

/// Enters phase `id` for the lifetime of the scope (nested scopes time exclusively).
class PhaseScope {
public:
  explicit PhaseScope(int id);
  ~PhaseScope();
  PhaseScope(const PhaseScope&) = delete;
  PhaseScope& operator=(const PhaseScope&) = delete;
};

/// Enables profile output into `dir` (as PARCAE_PROFILE_DIR does); call before MPI_Finalize.
void set_output(const std::string& dir);
/// Adds a key/value pair to metadata.extra of the profile.
void set_metadata(const std::string& key, const std::string& value);
/// Writes this rank's partial profile (DIR/partial/rank-NNNNN.json) now; false when output is
/// not enabled or the write failed.
bool dump();
/// Counts POSIX I/O only on files opened under these directories from now on (e.g. the scratch
/// directory of an out-of-core solve; several separated by ':'); "" counts every file.
void set_io_prefix(const std::string& dirs);

} // namespace parcae::prof
