# MPI test registration.
#
#   parcae_mpi_test(<name> <exe> NP <n> [ARGS <arg>...] [EXPECT_ABORT <regex>] [TIMEOUT <s>]
#                   [LABELS <label>...])
#
# registers `mpirun -np <n> <exe> <args>` as ctest <name> with PROCESSORS <n>, LABELS "mpi"
# (plus LABELS), TIMEOUT 60 (or TIMEOUT) and OMP_NUM_THREADS=1. Open MPI runs get
# `--mca btl self,vader --bind-to none` (shared memory only; ranks of concurrent ctest jobs are
# not pinned onto the same cores), `--oversubscribe` when n > 2 (or n exceeds the cores), and
# the OMPI_ALLOW_RUN_AS_ROOT(_CONFIRM) variables for containers. MPICH busy-polls: its builds
# register n <= 2 only and are never oversubscribed. Without MPI (PARCAE_WITH_MPI off) n = 1
# runs the executable directly and n > 1 is not registered.
#
# EXPECT_ABORT <regex>: the run must end with a non-zero exit status and print a line matching
# <regex> (driver: ParcaeExpectAbort.cmake); used for Comm::abort.
cmake_host_system_information(RESULT _parcae_cores QUERY NUMBER_OF_PHYSICAL_CORES)

function(parcae_mpi_test name exe)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "NP;TIMEOUT;EXPECT_ABORT" "ARGS;LABELS")
  if(NOT arg_NP)
    set(arg_NP 1)
  endif()
  if(NOT arg_TIMEOUT)
    set(arg_TIMEOUT 60)
  endif()
  set(launch)
  if(PARCAE_WITH_MPI)
    if(PARCAE_MPI_FLAVOUR STREQUAL "MPICH" AND arg_NP GREATER 2)
      return()
    endif()
    set(launch ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${arg_NP})
    if(PARCAE_MPI_FLAVOUR STREQUAL "OpenMPI")
      list(APPEND launch --mca btl self,vader --bind-to none)
      if(arg_NP GREATER 2 OR arg_NP GREATER _parcae_cores)
        list(APPEND launch --oversubscribe)
      endif()
    endif()
    list(APPEND launch ${MPIEXEC_PREFLAGS})
  elseif(arg_NP GREATER 1)
    return()
  endif()
  set(cmd ${launch} $<TARGET_FILE:${exe}> ${MPIEXEC_POSTFLAGS} ${arg_ARGS})
  if(DEFINED arg_EXPECT_ABORT)
    # Driver timeout below ctest's so that the driver, not ctest, reports a hang.
    math(EXPR driver_timeout "${arg_TIMEOUT} - 10")
    string(REPLACE ";" "|" joined "${cmd}")
    add_test(NAME ${name}
             COMMAND ${CMAKE_COMMAND} "-DCOMMAND=${joined}" "-DEXPECT=${arg_EXPECT_ABORT}"
                     -DTIMEOUT=${driver_timeout} -P ${_PARCAE_MPI_TEST_DIR}/ParcaeExpectAbort.cmake)
  else()
    add_test(NAME ${name} COMMAND ${cmd})
  endif()
  set_tests_properties(${name} PROPERTIES
    PROCESSORS ${arg_NP}
    LABELS "mpi;${arg_LABELS}"
    TIMEOUT ${arg_TIMEOUT}
    ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMP_NUM_THREADS=1")
endfunction()
set(_PARCAE_MPI_TEST_DIR "${CMAKE_CURRENT_LIST_DIR}")
