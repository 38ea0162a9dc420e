# CPU test of the grade report (cmake/GradeReport.cmake): the fake manifest and ctest results of
# this folder (every kind of part: passed, failed, skipped, never run, timed out, a prediction
# still TODO, a sanitizer pass that must not count while a case fails, a LESSON test that caps the
# exercise at 3, a CPU case that passes without a GPU, a case and a speed test that skipped on a
# GPU that ran the others: not gradable there, out of the score) must give expected.csv and
# expected.json exactly, and the printed report must show the seed, each lost exercise's why:
# and reproduce: lines, each test this GPU could not grade with its reason, and the footer that
# lists them all with the command that grades them on a machine that can.
#   cmake -DREPORT=<GradeReport.cmake> -DOUTDIR=<scratch> -P check_grade_report.cmake
cmake_minimum_required(VERSION 3.22)
set(here ${CMAKE_CURRENT_LIST_DIR})
file(MAKE_DIRECTORY ${OUTDIR})
file(REMOVE ${OUTDIR}/grades.csv ${OUTDIR}/grades.json) # an earlier run's files prove nothing
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
    "why: ex90.8: |why: not built: your file"
    "ex90.11 [^\n]* 10.00/10 not gradable on this GPU: ex90.11.huge\n         not gradable on this GPU: ex90.11.huge: n = 2147483659 floats \\(past 2\\^31\\) needs 17.2 GB"
    "ex90.12 [^\n]* 5.00/10 [^\n]*\n         why: ex90.12.a failed [^\n]*\n[^\n]*\n         not gradable on this GPU: ex90.12.speed: this GPU has 1 copy engine"
    "\nNot gradable on this machine, so left out of the scores above[^\n]*\n  ex90.11.huge: n = 2147483659[^\n]*\n  ex90.12.speed: this GPU has 1 copy engine[^\n]*\nGrade them on a machine that has what they need[^\n]*\n  TUT_EXERCISE_SEED=4242 ctest --test-dir /fixture/build-exercises -R '\\^\\(ex90\\\\.11\\\\.huge\\|ex90\\\\.12\\\\.speed\\)\\$' --output-on-failure\n")
  if(NOT out MATCHES "${expected}")
    message(FATAL_ERROR "the printed report does not match '${expected}'")
  endif()
endforeach()
foreach(full ex90.1 ex90.11)
  if(out MATCHES "${full} [^\n]*\n *why:")
    message(FATAL_ERROR "${full} lost no points but has a why: line")
  endif()
endforeach()
message("grade report: CSV and JSON as expected; seed, why:, reproduce: and not-gradable lines printed")
