# cmake -DSOURCE_DIR=<repo> -DOUTPUT=<commit.h> -P WriteCommit.cmake
# Writes the commit being built (with "-dirty" for uncommitted changes) into a header for the CSV
# files' provenance lines; rewrites it only when it changes, so nothing recompiles needlessly.
# The environment variable TUTORIAL_COMMIT, when set, is taken instead: for a copy of the tree
# whose .git is not its own (a remote runner that ships the files with older git metadata).
cmake_minimum_required(VERSION 3.22)
set(commit "unknown (not a git checkout)")
find_program(GIT git)
if(DEFINED ENV{TUTORIAL_COMMIT} AND NOT "$ENV{TUTORIAL_COMMIT}" STREQUAL "")
  set(commit "$ENV{TUTORIAL_COMMIT}")
elseif(GIT)
  execute_process(COMMAND ${GIT} -C ${SOURCE_DIR} rev-parse --short=12 HEAD
                  RESULT_VARIABLE rc OUTPUT_VARIABLE head OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(rc EQUAL 0)
    set(commit ${head})
    execute_process(COMMAND ${GIT} -C ${SOURCE_DIR} status --porcelain --untracked-files=no
                    OUTPUT_VARIABLE dirty ERROR_QUIET)
    if(dirty)
      string(APPEND commit "-dirty")
    endif()
  endif()
endif()
set(content "#define TUT_GIT_COMMIT \"${commit}\"\n")
if(EXISTS ${OUTPUT})
  file(READ ${OUTPUT} old)
endif()
if(NOT "${old}" STREQUAL "${content}")
  file(WRITE ${OUTPUT} "${content}")
endif()
