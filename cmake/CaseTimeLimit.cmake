# A grader test's time limit, TUT_CASE_TIME_LIMIT (common/exercise.h), from its TIMEOUT in whole
# seconds: TIMEOUT less a margin of TIMEOUT / 10, at least 5 s but never more than TIMEOUT / 4, so
# that a short TIMEOUT keeps most of its time (120 -> 108, 300 -> 270, 600 -> 540, 40 -> 35,
# 10 -> 8, 6 -> 5); empty (none) under 4 s, which leaves no margin. Tutorial.cmake includes it;
# `cmake -DTIMEOUTS=<list> -P CaseTimeLimit.cmake` prints "<TIMEOUT> <limit>" a line to stderr
# (the check: common/tests/check_case_time_limits.py).
function(tutorial_case_time_limit out timeout)
  math(EXPR margin "${timeout} / 10")
  if(margin LESS 5)
    set(margin 5)
  endif()
  math(EXPR quarter "${timeout} / 4")
  if(margin GREATER quarter)
    set(margin ${quarter})
  endif()
  set(limit "")
  if(margin GREATER 0)
    math(EXPR limit "${timeout} - ${margin}")
  endif()
  set(${out} "${limit}" PARENT_SCOPE)
endfunction()

if(CMAKE_SCRIPT_MODE_FILE STREQUAL CMAKE_CURRENT_LIST_FILE)
  foreach(timeout IN LISTS TIMEOUTS)
    tutorial_case_time_limit(limit ${timeout})
    message("${timeout} ${limit}")
  endforeach()
endif()
