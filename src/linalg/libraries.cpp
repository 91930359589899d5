#include "linalg/libraries.hpp"

#include <HYPRE_config.h>
#include <HYPRE_utilities.h>
#include <dmumps_c.h>
#include <fmt/format.h>
#include <mutex>
#include <petscsys.h>
#include <slepcsys.h>

#include "core/error.hpp"

namespace parcae::linalg {

namespace {
std::mutex g_mutex;
int g_users = 0;

void check_petsc(PetscErrorCode ierr, const char* what) {
  if (ierr != 0) {
    throw RuntimeError(fmt::format("{} failed (PETSc error {})", what, static_cast<int>(ierr)));
  }
}
} // namespace

Libraries::Libraries(const par::Comm& comm) {
  std::lock_guard lock(g_mutex);
  if (g_users++ > 0) {
    return;
  }
  // A single-process Comm (no handle) gets MPI_COMM_SELF: one rank may then run alone while
  // the others wait (tests compare such a run with a distributed one).
  PETSC_COMM_WORLD =
      comm.handle() != nullptr ? *static_cast<const MPI_Comm*>(comm.handle()) : MPI_COMM_SELF;
  // No options database from the command line: parcae's own options select solvers. PETSc's
  // signal handler would hide parcae's error reporting.
  check_petsc(PetscOptionsSetValue(nullptr, "-no_signal_handler", "true"), "PetscOptionsSetValue");
  check_petsc(SlepcInitializeNoArguments(), "SlepcInitialize");
  HYPRE_Init();
  // Errors come back as codes (turned into RuntimeError naming the call), not printed by PETSc.
  check_petsc(PetscPushErrorHandler(PetscReturnErrorHandler, nullptr), "PetscPushErrorHandler");
}

Libraries::~Libraries() {
  std::lock_guard lock(g_mutex);
  if (--g_users > 0) {
    return;
  }
  HYPRE_Finalize();
  SlepcFinalize();
}

std::string library_versions() {
  return fmt::format("PETSc {}.{}.{}, SLEPc {}.{}.{}, MUMPS {}, hypre {}", PETSC_VERSION_MAJOR,
                     PETSC_VERSION_MINOR, PETSC_VERSION_SUBMINOR, SLEPC_VERSION_MAJOR,
                     SLEPC_VERSION_MINOR, SLEPC_VERSION_SUBMINOR, MUMPS_VERSION,
                     HYPRE_RELEASE_VERSION);
}

} // namespace parcae::linalg
