# cmake -DMACRO=TUT_MUTANT_X -DDIR=<chapter folder> -P CheckMutantUsed.cmake
# Fails unless some source of the chapter (solutions, not exercise/ skeletons) tests the macro.
cmake_minimum_required(VERSION 3.22)
file(GLOB sources ${DIR}/*.cu ${DIR}/*.cuh ${DIR}/*.c ${DIR}/*.h)
foreach(f IN LISTS sources)
  file(STRINGS ${f} hits REGEX "(ifdef|defined\\() *${MACRO}")
  if(hits)
    message("ok: ${MACRO} is used in ${f}")
    return()
  endif()
endforeach()
message(FATAL_ERROR "${MACRO} is declared but no source in ${DIR} tests it")
