# CPU test of the teacher's grading of submissions (cmake/GradeSubmissions.cmake), with the GPUs
# hidden: two students of chapter 01, one handing in the solutions (in <chapter>/exercise/, where
# the student edits them), one a file that does not compile (without exercise/: also taken) plus
# a grader of their own (which must be ignored). Every GPU test must report skipped (0 points,
# never passed); ex01.3's CPU case (every_gpu) runs: the solution passes it, the skeleton fails
# it; the broken file's exercises must say "not built"; one CSV row per student and exercise.
#   cmake -DSOURCE=<repository> -DOUTDIR=<scratch> -DARCHS=<one architecture> -P check_submissions.cmake
cmake_minimum_required(VERSION 3.22)
set(sub ${OUTDIR}/submissions)
file(REMOVE_RECURSE ${OUTDIR})
foreach(f vecadd_kernels.cu one_wave.c tests/answers/ex01_prediction.txt)
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
if(NOT count EQUAL 9)
  problem("expected a header and 8 rows (2 students x 4 exercises), found ${count} lines")
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
# Alice: every GPU case skipped, 0 points; the prediction skipped; ex01.3's CPU cases pass
# (every_gpu, boundaries): 2 of 4 cases, 5.00 points.
foreach(id ex01.1 ex01.2)
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
# Carol: the exercises of her broken file are not built; her one_wave.c is the skeleton, which
# compiles: its cases skip.
foreach(id ex01.1 ex01.2)
  fields(f carol ${id})
  list(GET f 3 total)
  expect(carol ${id} 0 "0.00")
  expect(carol ${id} 6 "${total}")
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
message("grade submissions: 8 rows as expected, GPU parts skipped, the CPU case graded, the "
        "broken file not built")
