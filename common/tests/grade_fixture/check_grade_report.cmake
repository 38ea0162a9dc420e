# CPU test of the grade report (cmake/GradeReport.cmake): the fake manifest and ctest results of
# this folder (every kind of part: passed, failed, skipped, never run, timed out, a prediction
# still TODO, a sanitizer pass that must not count while a case fails) must give expected.csv and
# expected.json exactly.
#   cmake -DREPORT=<GradeReport.cmake> -DOUTDIR=<scratch> -P check_grade_report.cmake
cmake_minimum_required(VERSION 3.22)
set(here ${CMAKE_CURRENT_LIST_DIR})
file(MAKE_DIRECTORY ${OUTDIR})
execute_process(COMMAND ${CMAKE_COMMAND} -DMANIFEST=${here}/manifest.cmake -DJUNIT=${here}/junit.xml
                        -DCSV=${OUTDIR}/grades.csv -DJSON=${OUTDIR}/grades.json -P ${REPORT}
                RESULT_VARIABLE rc)
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
message("grade report: CSV and JSON as expected")
