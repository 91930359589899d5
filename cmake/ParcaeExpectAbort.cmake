# ctest driver for parcae_mpi_test(... EXPECT_ABORT <regex>): runs COMMAND ('|'-separated),
# passes when it exits non-zero within TIMEOUT seconds and its output matches EXPECT.
#   cmake -DCOMMAND=a|b|c -DEXPECT=<regex> -DTIMEOUT=<s> -P ParcaeExpectAbort.cmake
string(REPLACE "|" ";" cmd "${COMMAND}")
if(NOT TIMEOUT)
  set(TIMEOUT 50)
endif()
execute_process(COMMAND ${cmd} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
                TIMEOUT ${TIMEOUT})
message("${out}${err}")
message("exit status: ${rc}")
if(rc MATCHES "timeout|Process terminated due to timeout")
  message(FATAL_ERROR "expected abort: the job hung (killed after ${TIMEOUT} s)")
endif()
if("${rc}" STREQUAL "0")
  message(FATAL_ERROR "expected abort: the job exited with status 0")
endif()
if(NOT "${out}${err}" MATCHES "${EXPECT}")
  message(FATAL_ERROR "expected abort: no output line matches '${EXPECT}'")
endif()
message("abort as expected (status ${rc})")
