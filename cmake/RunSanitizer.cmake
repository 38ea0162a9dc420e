# cmake -DSANITIZER=<compute-sanitizer> -DTOOL=<memcheck|racecheck|synccheck|initcheck>
#       -DPROBE=<tutorial_gpu_probe> -P RunSanitizer.cmake -- <program> [args...]
# Skips (77) where the tool or a GPU is missing (with -DREQUIRED=ON, a grader's test, a missing
# tool on a machine with a GPU fails instead); fails on any error the tool reports.
cmake_minimum_required(VERSION 3.22)
include(${CMAKE_CURRENT_LIST_DIR}/CommandAfterDashes.cmake)
execute_process(COMMAND ${PROBE} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message("[tutorial-skip] ${out}")
  return()
endif()
if(NOT SANITIZER OR NOT EXISTS "${SANITIZER}")
  if(REQUIRED) # a grader's test (REQUIRED=ON) on a machine with a GPU: the grade needs the tool
    message(FATAL_ERROR "compute-sanitizer not found: this check of the grade needs it. It comes "
                        "with the CUDA toolkit: put the toolkit's bin folder on PATH, configure "
                        "again, and grade again.")
  endif()
  message("[tutorial-skip] compute-sanitizer not found")
  return()
endif()
set(extra)
if(TOOL STREQUAL "memcheck")
  set(extra --leak-check full)
endif()
execute_process(COMMAND ${SANITIZER} --tool ${TOOL} ${extra} --error-exitcode 1 ${cmd}
                RESULT_VARIABLE rc)
if(rc EQUAL 77)
  message("[tutorial-skip] the program exited 77: no suitable GPU")
elseif(NOT rc EQUAL 0)
  message(FATAL_ERROR "${TOOL} failed (exit ${rc})")
endif()
