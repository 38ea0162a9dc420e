# cmake -DEXPECT_EXIT=<code> [-DEXPECT_OUTPUT=<regex>] [-DSKIP_OK=ON]
#       -P ExpectExit.cmake -- <program> [args...]
# Passes when the program exits with EXPECT_EXIT and its output (stdout + stderr) matches the regex.
# Used for the bad-input tests: exit 2 with a message that names the problem. Exit 77 (no
# suitable GPU) counts as a skip only for GPU tests (SKIP_OK): a CPU test that expects exit 2
# must fail when the program looked for a GPU first.
cmake_minimum_required(VERSION 3.22)
include(${CMAKE_CURRENT_LIST_DIR}/CommandAfterDashes.cmake)
execute_process(COMMAND ${cmd} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(rc EQUAL 77 AND NOT EXPECT_EXIT EQUAL 77 AND SKIP_OK)
  # The marker makes ctest count the test as skipped (SKIP_REGULAR_EXPRESSION).
  message("[tutorial-skip] the program exited 77: no suitable GPU")
  return()
endif()
if(NOT rc STREQUAL "${EXPECT_EXIT}")
  message(FATAL_ERROR "expected exit code ${EXPECT_EXIT}, got ${rc}")
endif()
if(EXPECT_OUTPUT AND NOT "${out}${err}" MATCHES "${EXPECT_OUTPUT}")
  message(FATAL_ERROR "output does not match /${EXPECT_OUTPUT}/")
endif()
message("ok: exit ${rc} as expected")
