# CPU test of the teacher's grading of submissions (cmake/GradeSubmissions.cmake), with the GPUs
# hidden: two students of chapter 01, one handing in the solutions (in <chapter>/exercise/, where
# the student edits them), one a file that does not compile (without exercise/: also taken) plus
# a grader of their own (which must be ignored). Every GPU test must report skipped (0 points,
# never passed); ex01.3's CPU case (every_gpu) runs: the solution passes it, the skeleton fails
# it; the broken file's exercises must say "not built"; one CSV row per student and exercise.
# The exercises, their files and the rows expected come from the chapter's own list (its
# tutorial_exercise() calls): an exercise added to chapter 01 changes nothing here.
#   cmake -DSOURCE=<repository> -DOUTDIR=<scratch> -DARCHS=<one architecture> -P check_submissions.cmake
cmake_minimum_required(VERSION 3.22)
set(sub ${OUTDIR}/submissions)
file(REMOVE_RECURSE ${OUTDIR})

# The exercise list: each tutorial_exercise(...) of 01_vecadd/CMakeLists.txt, its ID, SOURCES,
# PREDICTION and CPU_CASES.
file(READ ${SOURCE}/01_vecadd/CMakeLists.txt chapter_lists)
string(REGEX REPLACE "#[^\n]*" "" chapter_lists "${chapter_lists}") # comments out
string(REGEX MATCHALL "tutorial_exercise\\([^)]*\\)" stanzas "${chapter_lists}")
set(ids "")
set(files "")
foreach(stanza IN LISTS stanzas)
  string(REGEX REPLACE "TITLE +\"[^\"]*\"" "" stanza "${stanza}")
  string(REGEX REPLACE "^tutorial_exercise\\((.*)\\)$" "\\1" stanza "${stanza}")
  separate_arguments(args UNIX_COMMAND "${stanza}")
  cmake_parse_arguments(E "SPEED" "ID;PREDICTION"
                        "SOURCES;GRADER;LIBRARIES;CASES;CPU_CASES;SANITIZE;SANITIZE_CASES;LESSON;SERIAL_CASES"
                        ${args})
  list(APPEND ids ${E_ID})
  set(${E_ID}_SOURCES ${E_SOURCES})
  set(${E_ID}_CPU ${E_CPU_CASES})
  set(${E_ID}_PREDICTION ${E_PREDICTION})
  list(APPEND files ${E_SOURCES})
  if(E_PREDICTION)
    list(APPEND files tests/answers/${E_PREDICTION})
  endif()
endforeach()
list(REMOVE_DUPLICATES files)
list(LENGTH ids exercise_count)
if(exercise_count LESS 4 OR NOT "ex01.3" IN_LIST ids OR NOT "ex01.4" IN_LIST ids)
  message(FATAL_ERROR "read ${exercise_count} exercises (${ids}) from 01_vecadd/CMakeLists.txt: "
                      "expected ex01.1 to ex01.4 at least")
endif()
message("chapter 01's exercises: ${ids}; alice hands in ${files}")
foreach(f IN LISTS files)
  file(COPY ${SOURCE}/01_vecadd/${f} DESTINATION ${sub}/alice/01_vecadd/exercise)
endforeach()
file(WRITE ${sub}/carol/01_vecadd/vecadd_kernels.cu "this is not CUDA\n")
file(WRITE ${sub}/carol/01_vecadd/tests/grade_ex1_grid_stride.cu "int main(void) { return 0; }\n")

execute_process(COMMAND ${CMAKE_COMMAND} -DSUBMISSIONS=${sub} -DOUT=${OUTDIR}/grades.csv
                        -DCHAPTERS=01_vecadd -DARCHS=${ARCHS} -DCPU_ONLY=ON -DJOBS=2
                        -DTIME_LIMIT=300 "-DCUDA_COMPILER=${CUDA_COMPILER}"
                        "-DBUILD_RPATH=${BUILD_RPATH}" -P ${SOURCE}/cmake/GradeSubmissions.cmake
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
message("${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "GradeSubmissions exited ${rc}")
endif()
file(STRINGS ${OUTDIR}/grades.csv rows)
list(LENGTH rows count)
set(errors 0)
macro(problem text)
  message(SEND_ERROR "${text}")
  math(EXPR errors "${errors} + 1")
endmacro()
math(EXPR rows_expected "2 * ${exercise_count}")
math(EXPR lines_expected "${rows_expected} + 1")
if(NOT count EQUAL lines_expected)
  problem("expected a header and ${rows_expected} rows (2 students x ${exercise_count} "
          "exercises), found ${count} lines")
endif()
list(GET rows 0 header)
if(NOT header MATCHES "^student,exercise,chapter,title,points,")
  problem("unexpected header: ${header}")
endif()
# The fields of one row, after the quoted title: points, max, cases passed, total, failed,
# skipped, not run, sanitizer passed, total, status, speed status, ratio, bar, prediction status,
# predicted, measured, note.
function(fields out student id)
  set(found "")
  foreach(row IN LISTS rows)
    if(row MATCHES "^${student},${id},01_vecadd,\"[^\"]*\",(.*)$")
      string(REPLACE "," ";" found "${CMAKE_MATCH_1}")
    endif()
  endforeach()
  set(${out} "${found}" PARENT_SCOPE)
endfunction()
macro(expect student id index value)
  fields(f ${student} ${id})
  list(LENGTH f n)
  if(n LESS 16)
    problem("no row for ${student} ${id}")
  else()
    list(GET f ${index} got)
    if(NOT got STREQUAL "${value}")
      problem("${student} ${id}: field ${index} is '${got}', expected '${value}'")
    endif()
  endif()
endmacro()
# The exercises with GPU cases only (no CPU case, no prediction): ex01.1, ex01.2, ...
set(gpu_only "")
foreach(id IN LISTS ids)
  if(NOT ${id}_CPU AND NOT ${id}_PREDICTION)
    list(APPEND gpu_only ${id})
  endif()
endforeach()
# Alice: every GPU case skipped, 0 points; the prediction skipped; ex01.3's CPU cases pass
# (every_gpu, boundaries): 2 of 4 cases, 5.00 points.
foreach(id IN LISTS gpu_only)
  fields(f alice ${id})
  list(GET f 3 total)
  expect(alice ${id} 0 "0.00")
  expect(alice ${id} 2 0)
  expect(alice ${id} 5 "${total}")
endforeach()
expect(alice ex01.3 0 "5.00")
expect(alice ex01.3 2 2)
expect(alice ex01.3 4 0)
expect(alice ex01.3 5 2)
expect(alice ex01.2 10 skipped)
expect(alice ex01.4 13 skipped)
# Carol: the exercises of her broken file (vecadd_kernels.cu) are not built; her other files
# are the skeletons, which compile: their cases skip.
foreach(id IN LISTS gpu_only)
  fields(f carol ${id})
  list(GET f 3 total)
  expect(carol ${id} 0 "0.00")
  if("vecadd_kernels.cu" IN_LIST ${id}_SOURCES)
    expect(carol ${id} 6 "${total}")
  else()
    expect(carol ${id} 5 "${total}")
  endif()
endforeach()
if(NOT "${rows}" MATCHES "carol,ex01.1,[^;]*not built")
  problem("carol's ex01.1 does not say 'not built'")
endif()
expect(carol ex01.3 4 2)
expect(carol ex01.3 5 2)
if(NOT "${rows}" MATCHES "carol,ex01.3,[^;]*ex01.3.every_gpu failed")
  problem("carol's ex01.3 does not say why: ex01.3.every_gpu failed")
endif()
if(NOT out MATCHES "ignored 01_vecadd/tests/grade_ex1_grid_stride.cu")
  problem("carol's own grader was not reported as ignored")
endif()
if(errors)
  file(READ ${OUTDIR}/grades.csv csv)
  message(FATAL_ERROR "${errors} problems; grades.csv:\n${csv}")
endif()
message("grade submissions: ${rows_expected} rows as expected, GPU parts skipped, the CPU case "
        "graded, the broken file not built")
