# CPU test: the student's loop is defined once (docs/exercises.md) and nothing teaches another.
# Fails if any .md file of the repository or any <chapter>/exercise/ file holds another grading
# command: `ctest ... -L exNN...`, `ctest --preset exercises`, `cmake --workflow --preset
# exercises`, `--target grade_exNN_k`. Also fails if a skeleton's header does not give its
# exercise's one command (cmake --build build-exercises --target exNN.k), or a chapter's
# exercises page does not link docs/exercises.md.
#   cmake -DSOURCE=<repository> -P check_one_workflow.cmake
cmake_minimum_required(VERSION 3.22)
set(errors 0)
macro(problem text)
  message(SEND_ERROR "${text}")
  math(EXPR errors "${errors} + 1")
endmacro()

file(GLOB_RECURSE pages RELATIVE ${SOURCE} ${SOURCE}/*.md)
file(GLOB skeletons RELATIVE ${SOURCE} ${SOURCE}/[0-9][0-9]_*/exercise/*)
set(checked 0)
foreach(f IN LISTS pages skeletons)
  if(f MATCHES "^(build[^/]*|\\.git|\\.device|Testing)/")
    continue()
  endif()
  math(EXPR checked "${checked} + 1")
  # One list element per line: no ; or brackets left to join or split lines.
  file(READ ${SOURCE}/${f} text)
  string(REPLACE ";" "," text "${text}")
  string(REPLACE "[" "(" text "${text}")
  string(REPLACE "]" ")" text "${text}")
  string(REPLACE "\\" "/" text "${text}")
  string(REPLACE "\n" ";" lines "${text}")
  set(n 0)
  foreach(line IN LISTS lines)
    math(EXPR n "${n} + 1")
    if(line MATCHES "ctest[^`]* -L +\\^?ex[0-9]"
       OR line MATCHES "ctest[^`]* --preset +exercises"
       OR line MATCHES "--workflow +--preset +exercises"
       OR line MATCHES "--target +grade_ex")
      problem("${f}:${n}: another grading command (the one loop: docs/exercises.md):\n  ${line}")
    endif()
  endforeach()
endforeach()

# Every code skeleton names its own exercise's command.
foreach(f IN LISTS skeletons)
  if(NOT f MATCHES "\\.(cu|c|cuh|h)$")
    continue()
  endif()
  file(READ ${SOURCE}/${f} text LIMIT 4000)
  if(NOT text MATCHES "cmake --build build-exercises --target ex[0-9][0-9]\\.[0-9]")
    problem("${f}: its header does not give the command that grades it "
            "(cmake --build build-exercises --target exNN.k)")
  endif()
endforeach()
foreach(f IN LISTS skeletons)
  if(f MATCHES "prediction\\.txt$")
    file(READ ${SOURCE}/${f} text)
    if(NOT text MATCHES "cmake --build build-exercises --target ex[0-9][0-9]\\.4")
      problem("${f}: does not give the command that grades it")
    endif()
  endif()
endforeach()

file(GLOB exercise_pages RELATIVE ${SOURCE} ${SOURCE}/docs/[0-9][0-9]_*_exercises.md)
foreach(f IN LISTS exercise_pages)
  file(READ ${SOURCE}/${f} text)
  if(NOT text MATCHES "\\]\\(exercises\\.md[)#]")
    problem("${f}: does not link exercises.md (the loop's commands)")
  endif()
endforeach()
if(NOT EXISTS ${SOURCE}/docs/exercises.md)
  problem("docs/exercises.md is missing")
endif()

if(checked EQUAL 0)
  problem("no page or skeleton found under ${SOURCE}")
endif()
if(errors)
  message(FATAL_ERROR "${errors} problems: the student's loop must be docs/exercises.md's alone")
endif()
message("one workflow: ${checked} pages and skeletons checked, no other grading command")
