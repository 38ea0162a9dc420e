# CPU test of the grade report (cmake/GradeReport.cmake): the fake manifest and ctest results of
# this folder (every kind of part: passed, failed, skipped, never run, timed out, a prediction
# still TODO, a sanitizer pass that must not count while a case fails, a LESSON test that caps the
# exercise at 3, a CPU case that passes without a GPU) must give expected.csv and expected.json
# exactly, and the printed report must show the seed and each lost exercise's why: and
# reproduce: lines.
#   cmake -DREPORT=<GradeReport.cmake> -DOUTDIR=<scratch> -P check_grade_report.cmake
cmake_minimum_required(VERSION 3.22)
set(here ${CMAKE_CURRENT_LIST_DIR})
file(MAKE_DIRECTORY ${OUTDIR})
execute_process(COMMAND ${CMAKE_COMMAND} -DMANIFEST=${here}/manifest.cmake -DJUNIT=${here}/junit.xml
                        -DCSV=${OUTDIR}/grades.csv -DJSON=${OUTDIR}/grades.json -DSEED=4242
                        -DBUILD_DIR=/fixture/build-exercises -P ${REPORT}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
message("${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the grade report exited ${rc}: it must exit 0 whatever the score")
endif()
foreach(ext csv json)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUTDIR}/grades.${ext}
                          ${here}/expected.${ext} RESULT_VARIABLE differ)
  if(differ)
    file(READ ${OUTDIR}/grades.${ext} got)
    message(FATAL_ERROR "grades.${ext} differs from expected.${ext}; it holds:\n${got}")
  endif()
endforeach()
foreach(expected
    "===== Grade report \\(seed 4242: TUT_EXERCISE_SEED=4242"
    "\n         why: ex90.2.c failed \\(float4 mismatch at \\[12\\]: found nan, expected 0.5\\)\n         reproduce: TUT_EXERCISE_SEED=4242 ctest --test-dir /fixture/build-exercises -R '\\^ex90.2.c\\$' --output-on-failure\n"
    "ex90.9 [^\n]* 3.00/10 capped at 3[^\n]*\n         why: ex90.9.b.racecheck failed \\(Error: Race reported[^\n]*\\); a lesson test: at most 3 of 10\n"
    "why: ex90.8: |why: not built: your file")
  if(NOT out MATCHES "${expected}")
    message(FATAL_ERROR "the printed report does not match '${expected}'")
  endif()
endforeach()
if(out MATCHES "ex90.1 [^\n]*\n *why:")
  message(FATAL_ERROR "ex90.1 lost no points but has a why: line")
endif()
message("grade report: CSV and JSON as expected; seed, why: and reproduce: lines printed")
