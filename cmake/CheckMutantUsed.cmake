# cmake -DMACRO=TUT_MUTANT_X -DDIR=<chapter folder> [-DLABEL=kernel.<k> -DBUILD_DIR=<build>
#       -DCTEST=<ctest>] -P CheckMutantUsed.cmake
# Fails unless some source of the chapter or its subfolders (solutions, not the exercise/ skeletons
# nor tests/) tests the macro,
# and (with LABEL) unless at least one test of the build carries the mutant's kernel label: the
# mutants run (cmake/run_mutants.sh) runs `ctest -L ^<label>$`, which must not select nothing.
cmake_minimum_required(VERSION 3.22)
file(GLOB_RECURSE sources ${DIR}/*.cu ${DIR}/*.cuh ${DIR}/*.c ${DIR}/*.h)
set(used "")
foreach(f IN LISTS sources)
  if(f MATCHES "/(exercise|tests)/")
    continue() # the skeletons and the graders hold no mutant
  endif()
  file(STRINGS ${f} hits REGEX "(ifdef|defined\\() *${MACRO}")
  if(hits)
    set(used ${f})
    break()
  endif()
endforeach()
if(NOT used)
  message(FATAL_ERROR "${MACRO} is declared but no source in ${DIR} tests it")
endif()
message("ok: ${MACRO} is used in ${used}")
if(NOT LABEL)
  return()
endif()
string(REPLACE "." "\\." label_regex "${LABEL}")
execute_process(COMMAND ${CTEST} --test-dir ${BUILD_DIR} -N -L "^${label_regex}$"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT out MATCHES "Total Tests: ([0-9]+)")
  message(FATAL_ERROR "ctest -N -L ^${LABEL}$ in ${BUILD_DIR} failed:\n${out}")
endif()
set(count ${CMAKE_MATCH_1})
if(count EQUAL 0)
  message(FATAL_ERROR "no test carries the label ${LABEL}: the mutant's run would select no "
                      "test (its TESTS regular expressions match no test name)")
endif()
message("ok: ${count} tests carry ${LABEL}")
