# Scaffold of a new exercise (docs/teaching.md, "Adding an exercise"): an in-place array kernel
# and its launcher, graded on the array harness (common/grade_array.h), ready to build and grade
# before you change a line:
#
#   cmake -DCHAPTER=01_vecadd -DID=ex01.5 -DNAME=saxpy [-DTITLE="SAXPY, in place"]
#         -P cmake/NewExercise.cmake
#
# writes (and never overwrites):
#   <chapter>/<name>.h                    the kernel's and the launcher's declarations
#   <chapter>/<name>.cu                   the solution (y[i] = x[i] + y[i]: make it yours)
#   <chapter>/exercise/<name>.cu          the skeleton: TODO (<id>) bodies, the grading command
#   <chapter>/tests/grade_ex<k>_<name>.cu the grader: cases primes, kernel, one, boundaries
# and appends the tutorial_exercise() stanza to <chapter>/CMakeLists.txt and the exercise's
# paragraph to docs/<chapter>_exercises.md. Then it prints what is left to do by hand (the
# answers line, the corpus entries, the measurement on a GPU). Generated from
# cmake/exercise_template/*.in.
cmake_minimum_required(VERSION 3.22)
get_filename_component(root ${CMAKE_CURRENT_LIST_DIR}/.. ABSOLUTE)
set(templates ${CMAKE_CURRENT_LIST_DIR}/exercise_template)

foreach(var CHAPTER ID NAME)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "usage: cmake -DCHAPTER=<NN_chapter> -DID=exNN.k -DNAME=<c_identifier> "
                        "[-DTITLE=<title>] -P cmake/NewExercise.cmake (${var} is missing)")
  endif()
endforeach()
if(NOT IS_DIRECTORY ${root}/${CHAPTER} OR NOT CHAPTER MATCHES "^([0-9][0-9])_[a-z0-9_]+$")
  message(FATAL_ERROR "CHAPTER '${CHAPTER}' is not a chapter folder of ${root}")
endif()
set(number ${CMAKE_MATCH_1})
if(NOT ID MATCHES "^ex${number}\\.([0-9]+)$")
  message(FATAL_ERROR "ID '${ID}' is not ex${number}.k (the chapter's number, a dot, a number)")
endif()
set(K ${CMAKE_MATCH_1})
if(K EQUAL 4)
  message(FATAL_ERROR "${ID}: exNN.4 is each chapter's prediction (docs/teaching.md): "
                      "take another number")
endif()
if(NOT NAME MATCHES "^[a-z][a-z0-9_]*$")
  message(FATAL_ERROR "NAME '${NAME}' must be a lower-case C identifier (it names the files, "
                      "the kernel <name>_kernel and the launcher <name>)")
endif()
if(NOT DEFINED TITLE OR TITLE STREQUAL "")
  set(TITLE "${NAME}")
endif()
if(TITLE MATCHES "[]\\[\"@;]")
  message(FATAL_ERROR "TITLE: no brackets, quotes, @ or ; (tutorial_exercise's rule)")
endif()

set(lists ${root}/${CHAPTER}/CMakeLists.txt)
set(page ${root}/docs/${CHAPTER}_exercises.md)
file(READ ${lists} chapter_lists)
string(REPLACE "." "\\." id_regex "${ID}")
if(chapter_lists MATCHES "tutorial_exercise\\(ID +${id_regex}[ \n]")
  message(FATAL_ERROR "${ID} is already declared in ${CHAPTER}/CMakeLists.txt")
endif()
if(NOT EXISTS ${page})
  message(FATAL_ERROR "docs/${CHAPTER}_exercises.md is missing: the chapter has no exercises page")
endif()

string(TOUPPER "EX${number}_${K}_${NAME}_H" GUARD)
set(files
    header.h.in ${CHAPTER}/${NAME}.h
    solution.cu.in ${CHAPTER}/${NAME}.cu
    skeleton.cu.in ${CHAPTER}/exercise/${NAME}.cu
    grader.cu.in ${CHAPTER}/tests/grade_ex${K}_${NAME}.cu)
set(pairs ${files})
while(pairs)
  list(POP_FRONT pairs template target)
  if(EXISTS ${root}/${target})
    message(FATAL_ERROR "${target} exists: the scaffold never overwrites (remove it or pick "
                        "another NAME)")
  endif()
endwhile()

set(pairs ${files})
while(pairs)
  list(POP_FRONT pairs template target)
  configure_file(${templates}/${template} ${root}/${target} @ONLY)
  message("wrote    ${target}")
endwhile()
file(READ ${templates}/stanza.cmake.in stanza)
string(CONFIGURE "${stanza}" stanza @ONLY)
file(APPEND ${lists} "${stanza}")
message("appended ${CHAPTER}/CMakeLists.txt: tutorial_exercise(ID ${ID} ...)")
file(READ ${templates}/page.md.in paragraph)
string(CONFIGURE "${paragraph}" paragraph @ONLY)
file(APPEND ${page} "${paragraph}")
message("appended docs/${CHAPTER}_exercises.md: the paragraph of ${ID}")

message("
${ID} grades as it is: build it (-DTUTORIAL_CHAPTERS=${CHAPTER}), then on a GPU
  cmake --build <build> --target ${ID}        (the solution: 10 of 10)
  cmake --build build-exercises --target ${ID} (the skeleton: 0)
What is left, in order (docs/teaching.md, \"Adding an exercise\"):
  1. the exercise itself: ${CHAPTER}/${NAME}.h, ${NAME}.cu, exercise/${NAME}.cu, the reference
     in tests/grade_ex${K}_${NAME}.cu, its cases (keep boundaries), the stanza's CASES and LESSON;
  2. the page: docs/${CHAPTER}_exercises.md (the paragraph at its end), its answers line in
     docs/answers/${CHAPTER}.md (\"The exercises' reference solutions\") and its row in the
     exercise table of ${CHAPTER}/README.md (no test checks these two);
  3. two or more corpus entries, ${CHAPTER}/tests/mistakes/${ID}_<what>.patch, and the CPU test
     ${CHAPTER}.mistakes.corpus; then, on a GPU, cmake -DTUTORIAL_MISTAKES=ON and
     cmake -DBUILD_DIR=<build> -DONLY='${id_regex}_' -P cmake/Mistakes.cmake;
  4. the generated mutants (tools/mutants.py) and, for a speed test, the bar's margins.")
