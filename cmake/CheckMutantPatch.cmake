# One declared mutant's patch, on the CPU (the test <chapter>.mutant_declared.<name>):
#   cmake -DPATCH=<chapter>/tests/mutants/<name>.patch -DDIR=<chapter folder> -DWORK=<scratch>
#         [-DLABEL=kernel.<k> -DBUILD_DIR=<build> -DCTEST=<ctest>] -P CheckMutantPatch.cmake
# Fails unless the patch exists, applies cleanly to the chapter's current sources (a copy of the
# files it changes, under WORK) and changes at least one line of code in each (not only comments
# or blanks): a source edited near the bug fails here, on any machine, not in the GPU run
# (tools/mutant_patches.py refresh remakes it). With LABEL, also fails unless at least one test of
# the build carries the mutant's kernel label: the mutants run (cmake/run_mutants.sh) runs
# `ctest -L ^<label>$`, which must not select nothing.
#
#   cmake -DCLEAN=<source dir> -DMUTANTS=<build>/mutants.txt [-DCHAPTERS=<the build's chapters>]
#         -P CheckMutantPatch.cmake
# (the test mutants.sources_clean) fails if a source of the tree (.c, .h, .cu, .cuh, .cpp; build
# folders aside) holds TUT_MUTANT_, the old in-source way, or if a patch under
# <chapter>/tests/mutants/ of a chapter the build holds (CHAPTERS: a list, or "all") belongs to no
# declared mutant.
cmake_minimum_required(VERSION 3.22)

if(CLEAN)
  file(GLOB_RECURSE sources ${CLEAN}/*.c ${CLEAN}/*.h ${CLEAN}/*.cu ${CLEAN}/*.cuh ${CLEAN}/*.cpp)
  set(bad "")
  foreach(f IN LISTS sources)
    file(RELATIVE_PATH rel ${CLEAN} ${f})
    if(rel MATCHES "^(build[^/]*|\\.[^/]*)/") # build trees, .git and other hidden folders
      continue()
    endif()
    file(STRINGS ${f} hits REGEX "TUT_MUTANT_")
    if(hits)
      string(APPEND bad "  ${rel}\n")
    endif()
  endforeach()
  if(bad)
    message(FATAL_ERROR "these sources hold TUT_MUTANT_ (a mutant belongs in a patch, "
                        "<chapter>/tests/mutants/<name>.patch; tools/mutant_patches.py from-ifdef "
                        "--strip makes one from an #ifdef block):\n${bad}")
  endif()
  file(STRINGS ${MUTANTS} lines REGEX "\\|")
  set(names "")
  foreach(line IN LISTS lines)
    string(REPLACE "|" ";" fields "${line}")
    list(GET fields 1 name)
    list(APPEND names ${name})
  endforeach()
  file(GLOB patches ${CLEAN}/*/tests/mutants/*.patch)
  list(LENGTH names declared)
  foreach(p IN LISTS patches)
    get_filename_component(name ${p} NAME_WE)
    file(RELATIVE_PATH rel ${CLEAN} ${p})
    string(REGEX REPLACE "/.*" "" chapter "${rel}")
    if(CHAPTERS AND NOT CHAPTERS STREQUAL "all" AND NOT chapter IN_LIST CHAPTERS)
      continue() # a chapter this build leaves out: its mutants are not declared here
    endif()
    if(NOT name IN_LIST names)
      string(APPEND bad "  ${rel}\n")
    endif()
  endforeach()
  if(bad)
    message(FATAL_ERROR "patches of no declared mutant (tutorial_mutant NAME <name>):\n${bad}")
  endif()
  list(LENGTH patches count)
  message("ok: no source holds TUT_MUTANT_; ${count} patches, ${declared} declared mutants")
  return()
endif()

if(NOT EXISTS ${PATCH})
  message(FATAL_ERROR "no patch ${PATCH}: a declared mutant is a patch of its chapter's sources "
                      "(tools/mutant_patches.py)")
endif()
file(STRINGS ${PATCH} plus REGEX "^\\+\\+\\+ b/")
set(files "")
foreach(line IN LISTS plus)
  string(REGEX REPLACE "^\\+\\+\\+ b/([^\t]+).*" "\\1" f "${line}")
  string(STRIP "${f}" f)
  list(APPEND files ${f})
endforeach()
if(NOT files)
  message(FATAL_ERROR "${PATCH} changes no file ('+++ b/<file>' lines)")
endif()
file(REMOVE_RECURSE ${WORK})
foreach(f IN LISTS files)
  if(NOT EXISTS ${DIR}/${f})
    message(FATAL_ERROR "${PATCH}: ${f} is no file of ${DIR}")
  endif()
  configure_file(${DIR}/${f} ${WORK}/${f} COPYONLY)
endforeach()
find_program(TUTORIAL_GIT git)
find_program(TUTORIAL_PATCH patch)
if(TUTORIAL_GIT)
  # Outside any repository (WORK may lie inside one, where git apply would take the paths from
  # the repository's top): git stops looking for one above WORK.
  get_filename_component(parent ${WORK} DIRECTORY)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=GIT_DIR --unset=GIT_WORK_TREE
                          GIT_CEILING_DIRECTORIES=${parent}
                          ${TUTORIAL_GIT} apply -p1 --whitespace=nowarn ${PATCH}
                  WORKING_DIRECTORY ${WORK} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
elseif(TUTORIAL_PATCH)
  execute_process(COMMAND ${TUTORIAL_PATCH} -p1 --batch --forward --fuzz=0 --silent
                          --no-backup-if-mismatch -r - -i ${PATCH}
                  WORKING_DIRECTORY ${WORK} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
else()
  message(FATAL_ERROR "neither git nor patch found to apply ${PATCH}")
endif()
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${PATCH} does not apply to the current sources (refresh it: "
                      "tools/mutant_patches.py refresh <name>):\n${out}")
endif()
# Each file the patch names must change.
foreach(f IN LISTS files)
  file(STRINGS ${DIR}/${f} before)
  file(STRINGS ${WORK}/${f} after)
  if("${before}" STREQUAL "${after}")
    message(FATAL_ERROR "${PATCH} leaves ${f} unchanged")
  endif()
endforeach()
# Each file's changed lines (after its '+++ b/<file>' line): at least one must be code.
file(STRINGS ${PATCH} changed REGEX "^(\\+\\+\\+ b/|[-+]([^-+]|$))")
set(current "")
set(with_code "")
foreach(line IN LISTS changed)
  if(line MATCHES "^\\+\\+\\+ b/([^\t]+)")
    string(STRIP "${CMAKE_MATCH_1}" current)
    continue()
  endif()
  string(SUBSTRING "${line}" 1 -1 text)
  string(STRIP "${text}" text)
  # a comment's line: //..., /*..., or a block comment's " * " or bare " *" (code such as
  # *p = x counts; a line continuing an expression with "* x" would be read as a comment, and a
  # change only to a trailing // comment as code: no patch of the tree has either)
  if(NOT text STREQUAL "" AND NOT text MATCHES "^(//|/\\*|\\*($|[ \t/]))")
    list(APPEND with_code "${current}")
  endif()
endforeach()
foreach(f IN LISTS files)
  if(NOT f IN_LIST with_code)
    message(FATAL_ERROR "${PATCH} changes only comments or blank lines of ${f}: no bug there")
  endif()
endforeach()
list(JOIN files ", " shown)
message("ok: ${PATCH} applies to ${shown} and changes code")
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
