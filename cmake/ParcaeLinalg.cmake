# Distributed linear algebra for the implicit and CFD solvers (src/linalg; included after
# ParcaeMpi.cmake):
#
#   PARCAE_WITH_LINALG  build src/linalg, src/solvers/implicit and src/solvers/cfd
#                       (default: ON when PETSc, SLEPc and hypre are found and MPI is Open MPI)
#
# Debian's PETSc, SLEPc, MUMPS and hypre (scripts/setup.sh) are built on Open MPI: a build on
# another MPI (preset release-mpich) cannot link them, and leaves those solvers out (the
# `parcae` front end then says so when a deck asks for them). Imported targets:
#   parcae::petsc (PETSc with MUMPS, hypre, ...), parcae::slepc, parcae::hypre
set(_parcae_linalg_default OFF)
if(PARCAE_WITH_MPI AND PARCAE_MPI_FLAVOUR STREQUAL "OpenMPI")
  find_package(PkgConfig QUIET)
  if(PKG_CONFIG_FOUND)
    pkg_check_modules(PARCAE_PETSC QUIET IMPORTED_TARGET PETSc)
    pkg_check_modules(PARCAE_SLEPC QUIET IMPORTED_TARGET SLEPc)
  endif()
  find_path(PARCAE_HYPRE_INCLUDE_DIR HYPRE_struct_ls.h PATH_SUFFIXES hypre)
  find_library(PARCAE_HYPRE_LIBRARY HYPRE)
  mark_as_advanced(PARCAE_HYPRE_INCLUDE_DIR PARCAE_HYPRE_LIBRARY)
  if(PARCAE_PETSC_FOUND AND PARCAE_SLEPC_FOUND AND PARCAE_HYPRE_INCLUDE_DIR AND PARCAE_HYPRE_LIBRARY)
    set(_parcae_linalg_default ON)
  endif()
endif()
option(PARCAE_WITH_LINALG "Build the implicit and CFD solvers (PETSc, SLEPc, MUMPS, hypre)"
       ${_parcae_linalg_default})
if(PARCAE_WITH_LINALG)
  if(NOT _parcae_linalg_default)
    message(FATAL_ERROR "PARCAE_WITH_LINALG is ON but PETSc/SLEPc/hypre on Open MPI were not "
                        "found (run scripts/setup.sh)")
  endif()
  add_library(parcae::petsc ALIAS PkgConfig::PARCAE_PETSC)
  add_library(parcae::slepc ALIAS PkgConfig::PARCAE_SLEPC)
  add_library(parcae_hypre INTERFACE)
  target_include_directories(parcae_hypre SYSTEM INTERFACE ${PARCAE_HYPRE_INCLUDE_DIR})
  target_link_libraries(parcae_hypre INTERFACE ${PARCAE_HYPRE_LIBRARY} MPI::MPI_CXX)
  add_library(parcae::hypre ALIAS parcae_hypre)
  message(STATUS "parcae: linear algebra PETSc ${PARCAE_PETSC_VERSION}, SLEPc "
                 "${PARCAE_SLEPC_VERSION}, hypre ${PARCAE_HYPRE_LIBRARY}")
else()
  message(STATUS "parcae: no PETSc/SLEPc/hypre on Open MPI: implicit and CFD solvers left out")
endif()
