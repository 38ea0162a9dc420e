# The student copy: the repository with the solutions and the teacher's answers taken out
# (docs/teaching.md, docs/exercises.md), the answers to the pages' Questions emptied (docs/answers/).
#
#   cmake -DDEST=<new folder> [-DSOURCE=<repository>] [-DFORCE=ON] [-DEXCLUDE=<paths>]
#         -P cmake/ExportStudentCopy.cmake
#
# The copy keeps the repository's layout: the student edits <chapter>/exercise/<file>, as in the
# repository. For every chapter, the solution namesake of each file of <chapter>/exercise/
# (<chapter>/<file>) is removed, and so are the predictions' answers (<chapter>/tests/answers/)
# and the corpus of wrong submissions the graders are tested on (<chapter>/tests/mistakes/, each
# one a solution with one bug), and the declared mutants (<chapter>/tests/mutants/: patches whose
# context lines are the solutions'); the graders (<chapter>/tests/) stay. Build folders (build*), .git,
# .device and whatever git ignores in a checkout are left out. A file .student-copy at the top marks the copy: it always builds in
# exercise mode (cmake/Tutorial.cmake), and the mutant checks, which need the solutions'
# deliberate bugs, are not declared there.
# DEST must not exist or be empty (FORCE=ON replaces it).
cmake_minimum_required(VERSION 3.22)

if(NOT DEST)
  message(FATAL_ERROR "ExportStudentCopy: give -DDEST=<new folder>")
endif()
if(NOT SOURCE)
  get_filename_component(SOURCE ${CMAKE_CURRENT_LIST_DIR}/.. ABSOLUTE)
endif()
get_filename_component(DEST ${DEST} ABSOLUTE)
if(NOT EXISTS ${SOURCE}/cmake/Tutorial.cmake)
  message(FATAL_ERROR "ExportStudentCopy: ${SOURCE} is not the tutorial's repository")
endif()
# (string(FIND), not a regex: a path may hold + or other regex characters, as in c++-course)
string(LENGTH "${SOURCE}/" source_length)
string(SUBSTRING "${DEST}/" 0 ${source_length} dest_head)
string(LENGTH "${DEST}/" dest_length)
set(dest_inside "")
if(dest_head STREQUAL "${SOURCE}/" AND dest_length GREATER source_length)
  string(SUBSTRING "${DEST}/" ${source_length} -1 dest_inside)
endif()
if(DEST STREQUAL SOURCE OR dest_inside MATCHES "^[0-9][0-9]_")
  message(FATAL_ERROR "ExportStudentCopy: DEST must be outside the chapters (${DEST})")
endif()
if(EXISTS ${DEST})
  file(GLOB existing ${DEST}/* ${DEST}/.*)
  if(existing AND NOT FORCE)
    message(FATAL_ERROR "ExportStudentCopy: ${DEST} is not empty (FORCE=ON replaces it)")
  endif()
  file(REMOVE_RECURSE ${DEST})
endif()
file(MAKE_DIRECTORY ${DEST})

# Everything at the top but build trees, version control and the device scratch folder, and
# any folder that holds DEST or an EXCLUDE path (a copy made inside the repository, the
# teacher's submissions and scratch: GradeSubmissions.cmake passes those).
set(skip_paths ${DEST})
foreach(path IN LISTS EXCLUDE)
  get_filename_component(path "${path}" ABSOLUTE)
  list(APPEND skip_paths "${path}")
endforeach()
file(GLOB entries RELATIVE ${SOURCE} ${SOURCE}/* ${SOURCE}/.*)
foreach(entry IN LISTS entries)
  if(entry MATCHES "^(build.*|\\.git|\\.device|\\.student-copy|Testing)$")
    continue()
  endif()
  set(holds_skipped FALSE)
  foreach(path IN LISTS skip_paths)
    string(FIND "${path}/" "${SOURCE}/${entry}/" at)
    if(at EQUAL 0)
      set(holds_skipped TRUE)
    endif()
  endforeach()
  if(holds_skipped)
    message(STATUS "ExportStudentCopy: left out ${entry} (it holds the copy or an EXCLUDE path)")
    continue()
  endif()
  file(COPY ${SOURCE}/${entry} DESTINATION ${DEST})
endforeach()

# What git ignores in SOURCE (build trees under other names, scratch folders, local notes) is
# no part of the course: out too. (Without git, or outside a checkout, nothing is listed.)
find_program(TUTORIAL_GIT git)
if(TUTORIAL_GIT AND EXISTS ${SOURCE}/.git)
  execute_process(COMMAND ${TUTORIAL_GIT} -C ${SOURCE} ls-files --others --ignored
                          --exclude-standard --directory
                  RESULT_VARIABLE rc OUTPUT_VARIABLE ignored ERROR_QUIET)
  if(rc EQUAL 0)
    string(REPLACE "\n" ";" ignored "${ignored}")
    foreach(path IN LISTS ignored)
      string(REGEX REPLACE "/$" "" path "${path}")
      if(path AND NOT path MATCHES "^\"" AND EXISTS "${DEST}/${path}")
        file(REMOVE_RECURSE "${DEST}/${path}")
        message(STATUS "ExportStudentCopy: left out ${path} (ignored by git)")
      endif()
    endforeach()
  endif()
endif()

# Solutions and answers out; the exercise/ files stay where the student edits them.
set(removed 0)
set(kept 0)
file(GLOB chapters RELATIVE ${DEST} ${DEST}/[0-9][0-9]_*)
foreach(chapter IN LISTS chapters)
  file(REMOVE_RECURSE ${DEST}/${chapter}/tests/answers ${DEST}/${chapter}/tests/mistakes
                     ${DEST}/${chapter}/tests/mutants)
  if(NOT IS_DIRECTORY ${DEST}/${chapter}/exercise)
    continue()
  endif()
  file(GLOB_RECURSE skeletons RELATIVE ${DEST}/${chapter}/exercise ${DEST}/${chapter}/exercise/*)
  foreach(file IN LISTS skeletons)
    math(EXPR kept "${kept} + 1")
    if(EXISTS ${DEST}/${chapter}/${file})
      file(REMOVE ${DEST}/${chapter}/${file})
      math(EXPR removed "${removed} + 1")
    endif()
  endforeach()
endforeach()
# The answers to the pages' Questions (docs/answers/<page>.md) are the teacher's: each becomes a
# one-line page, so that the lessons' links to it still lead somewhere.
file(GLOB answer_pages ${DEST}/docs/answers/*.md)
foreach(page IN LISTS answer_pages)
  file(WRITE ${page} "# Answers\n\nNot in the student copy: ask your teacher, or read them in the "
                     "full repository (docs/answers/).\n")
endforeach()
file(WRITE ${DEST}/.student-copy
     "A student copy: edit <chapter>/exercise/<file>; no solutions (cmake/ExportStudentCopy.cmake).\n")
message(STATUS "Student copy in ${DEST}: ${kept} exercise files in <chapter>/exercise/, "
               "${removed} solution files removed; the loop: docs/exercises.md")
