#pragma once
// The distributed linear-algebra libraries of the implicit and CFD solvers (PETSc with MUMPS,
// SLEPc, hypre), initialised on a parcae communicator. src/linalg is the only layer that
// includes their headers (which bring <mpi.h> with them); its own headers expose plain C++
// types, so solvers never see a PETSc or hypre type. See docs/architecture.md.
#include <string>

#include "par/comm.hpp"

namespace parcae::linalg {

/// PETSc, SLEPc and hypre initialised on `comm` while at least one Libraries object lives.
/// MPI must already be initialised (par::Environment); the libraries never finalise it. The
/// first object initialises, the last one destroyed finalises; a later object initialises
/// again (PETSc allows re-initialisation while MPI is up). Collective over `comm`.
class Libraries {
public:
  explicit Libraries(const par::Comm& comm);
  ~Libraries();
  Libraries(const Libraries&) = delete;
  Libraries& operator=(const Libraries&) = delete;
};

/// "PETSc 3.18.5, SLEPc 3.18.2, MUMPS 5.5.1, hypre 2.26.0" (for run headers and benchmark
/// metadata). Needs no initialisation.
std::string library_versions();

} // namespace parcae::linalg
