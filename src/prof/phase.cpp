// C++ phase API: thin wrappers over the C API of libparcae-mpiprof.so, or no-ops without MPI.
#include "prof/phase.hpp"

#if defined(PARCAE_PROF_ENABLED)
#include "prof/parcae_prof.h"
#endif

namespace parcae::prof {

#if defined(PARCAE_PROF_ENABLED)

int phase_id(const char* name) {
  return parcae_prof_phase_register(name);
}
PhaseScope::PhaseScope(int id) {
  parcae_prof_phase_push(id);
}
PhaseScope::~PhaseScope() {
  parcae_prof_phase_pop();
}
void set_output(const std::string& dir) {
  parcae_prof_set_output(dir.c_str());
}
void set_metadata(const std::string& key, const std::string& value) {
  parcae_prof_set_metadata(key.c_str(), value.c_str());
}
bool dump() {
  return parcae_prof_dump() == 0;
}
void set_io_prefix(const std::string& dirs) {
  parcae_prof_set_io_prefix(dirs.c_str());
}

#else

int phase_id(const char*) {
  return 0;
}
PhaseScope::PhaseScope(int) {}
PhaseScope::~PhaseScope() = default;
void set_output(const std::string&) {}
void set_metadata(const std::string&, const std::string&) {}
bool dump() {
  return false;
}
void set_io_prefix(const std::string&) {}

#endif

} // namespace parcae::prof
