# MPI for parcae (included from the top-level CMakeLists.txt before src/).
#
#   PARCAE_WITH_MPI     build par::Comm on MPI (default: ON when a C++ MPI is found)
#   MPI_CXX_COMPILER    selects the library: mpicxx.openmpi (default when present) or
#                       mpicxx.mpich (preset release-mpich)
#   MPIEXEC_EXECUTABLE  the launcher; derived from the wrapper's suffix when not given
#                       (mpirun.openmpi / mpirun.mpich), so library and launcher match
#
# Sets PARCAE_MPI_FLAVOUR (OpenMPI, MPICH, other or none) for the test registration.
if(NOT DEFINED PARCAE_WITH_MPI OR PARCAE_WITH_MPI)
  if(NOT MPI_CXX_COMPILER)
    # Debian can have both libraries; the alternatives' mpicxx may point to either.
    find_program(PARCAE_MPICXX_OPENMPI NAMES mpicxx.openmpi)
    mark_as_advanced(PARCAE_MPICXX_OPENMPI)
    if(PARCAE_MPICXX_OPENMPI)
      set(MPI_CXX_COMPILER "${PARCAE_MPICXX_OPENMPI}" CACHE FILEPATH "MPI C++ compiler wrapper")
    endif()
  endif()
  if(MPI_CXX_COMPILER AND NOT MPIEXEC_EXECUTABLE)
    get_filename_component(_parcae_wrapper "${MPI_CXX_COMPILER}" NAME)
    if(_parcae_wrapper MATCHES "\\.(openmpi|mpich)$")
      find_program(MPIEXEC_EXECUTABLE NAMES mpirun.${CMAKE_MATCH_1} mpiexec.${CMAKE_MATCH_1})
    endif()
  endif()
  # parcae uses the C API only: no C++ bindings (libmpi_cxx).
  set(MPI_CXX_SKIP_MPICXX ON CACHE BOOL "Skip the MPI-2 C++ bindings")
  set(MPI_DETERMINE_LIBRARY_VERSION ON) # MPI_CXX_LIBRARY_VERSION_STRING: which library
  find_package(MPI COMPONENTS CXX)
endif()

option(PARCAE_WITH_MPI "Build the MPI parallel layer (src/par) on MPI" ${MPI_CXX_FOUND})
set(PARCAE_MPI_FLAVOUR "none")
if(PARCAE_WITH_MPI)
  if(NOT MPI_CXX_FOUND)
    message(FATAL_ERROR "PARCAE_WITH_MPI is ON but no C++ MPI was found (set MPI_CXX_COMPILER, "
                        "or -DPARCAE_WITH_MPI=OFF for the single-process build)")
  endif()
  set(_parcae_mpi_id "${MPI_CXX_LIBRARY_VERSION_STRING}")
  if(NOT _parcae_mpi_id AND MPIEXEC_EXECUTABLE)
    execute_process(COMMAND "${MPIEXEC_EXECUTABLE}" --version OUTPUT_VARIABLE _parcae_mpi_id
                    ERROR_VARIABLE _parcae_mpi_id TIMEOUT 20)
  endif()
  if(_parcae_mpi_id MATCHES "Open MPI|OpenRTE")
    set(PARCAE_MPI_FLAVOUR "OpenMPI")
  elseif(_parcae_mpi_id MATCHES "MPICH|HYDRA")
    set(PARCAE_MPI_FLAVOUR "MPICH")
  else()
    set(PARCAE_MPI_FLAVOUR "other")
  endif()
  message(STATUS "parcae: MPI ${PARCAE_MPI_FLAVOUR} (${MPI_CXX_COMPILER}), launcher "
                 "${MPIEXEC_EXECUTABLE}")
else()
  message(STATUS "parcae: MPI off (single-process par::Comm)")
endif()
