# CPU test of the student's loop (docs/exercises.md), through its documented commands, in a
# student copy of the repository (cmake/ExportStudentCopy.cmake: the exercise/ layout, always
# exercise mode) restricted to chapter 01 and one architecture:
#   configure once (cmake --preset exercises), then after each edit of 01_vecadd/exercise/one_wave.c
#   cmake --build build-exercises --target ex01.3
# 1. the untouched skeleton: the grader runs, its CPU case every_gpu fails (a GPU-less machine
#    grades it too), and the report line says why and how to reproduce it;
# 2. an edit that does not compile: the command fails and shows the compiler's error;
# 3. the right code: the command rebuilds and reports the NEW result: every_gpu passes.
# Run with the GPUs hidden (CUDA_VISIBLE_DEVICES=-1), so that it reads the same everywhere.
#   cmake -DSOURCE=<repository> -DOUTDIR=<scratch> -DARCHS=<one architecture>
#         [-DGENERATOR=...] [-DCUDA_COMPILER=...] [-DBUILD_RPATH=...] -P check_loop.cmake
cmake_minimum_required(VERSION 3.22)
set(copy ${OUTDIR}/copy)
file(REMOVE_RECURSE ${OUTDIR})
execute_process(COMMAND ${CMAKE_COMMAND} -DDEST=${copy} -DSOURCE=${SOURCE}
                        -P ${SOURCE}/cmake/ExportStudentCopy.cmake
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the student copy failed (exit ${rc})")
endif()

# Configure once: the documented command, plus what keeps this test small.
set(extra -DTUTORIAL_CHAPTERS=01_vecadd -DCMAKE_CUDA_ARCHITECTURES=${ARCHS})
if(GENERATOR)
  list(APPEND extra -G "${GENERATOR}")
endif()
if(CUDA_COMPILER)
  list(APPEND extra "-DCMAKE_CUDA_COMPILER=${CUDA_COMPILER}")
endif()
if(BUILD_RPATH)
  list(APPEND extra "-DCMAKE_BUILD_RPATH=${BUILD_RPATH}")
endif()
if(CMAKE_VERSION VERSION_GREATER_EQUAL 3.25)
  set(configure ${CMAKE_COMMAND} --preset exercises ${extra})
else()
  set(configure ${CMAKE_COMMAND} -S . -B build-exercises -DTUTORIAL_EXERCISES=ON ${extra})
endif()
execute_process(COMMAND ${configure} WORKING_DIRECTORY ${copy}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0 OR NOT out MATCHES "Exercise mode")
  message(FATAL_ERROR "configure failed (exit ${rc}) or not in exercise mode:\n${out}")
endif()

set(grade ${CMAKE_COMMAND} --build build-exercises --target ex01.3) # the documented command
set(file ${copy}/01_vecadd/exercise/one_wave.c)
file(READ ${file} skeleton)
file(READ ${SOURCE}/01_vecadd/one_wave.c solution)
set(errors 0)
macro(problem text)
  message(SEND_ERROR "${text}\n--- its output:\n${out}")
  math(EXPR errors "${errors} + 1")
endmacro()
macro(run step)
  message("----- ${step}: cmake --build build-exercises --target ex01.3")
  execute_process(COMMAND ${grade} WORKING_DIRECTORY ${copy}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  message("${out}")
endmacro()

# 1. The skeleton as handed out: wrong, and graded on the CPU.
run("the untouched skeleton")
if(NOT rc EQUAL 0)
  problem("the grade of a compiling skeleton exited ${rc} (the report exits 0 whatever the score)")
endif()
foreach(expected "ex01.3.every_gpu: fail" "why: ex01.3.every_gpu failed \\(mismatch on "
                 "reproduce: TUT_EXERCISE_SEED=[0-9]+ ctest --test-dir [^\n]*build-exercises -R '\\^ex01.3.every_gpu\\$' --output-on-failure"
                 "ex01.3.this_gpu: skipped" "0.00/10")
  if(NOT out MATCHES "${expected}")
    problem("step 1 (skeleton): no '${expected}' in the output")
  endif()
endforeach()

# 2. An edit that does not compile: the command fails with the compiler's message.
file(WRITE ${file} "${skeleton}\nthis is not C; /* an edit that does not compile */\n")
run("an edit that does not compile")
if(rc EQUAL 0)
  problem("step 2 (compile error): the command succeeded")
endif()
if(NOT out MATCHES "one_wave\\.c[:(][0-9]+[^\n]*error")
  problem("step 2 (compile error): the compiler's error on one_wave.c is not shown")
endif()
if(out MATCHES "===== Grade report")
  problem("step 2 (compile error): the old grader was run")
endif()

# 3. The right code: rebuilt, and the new result reported.
file(WRITE ${file} "${solution}")
run("the right code")
if(NOT rc EQUAL 0)
  problem("step 3 (right code): exited ${rc}")
endif()
foreach(expected "ex01.3.every_gpu: pass" "ex01.3.boundaries: pass" "2/4 \\(2 skipped\\)")
  if(NOT out MATCHES "${expected}")
    problem("step 3 (right code): no '${expected}' in the output")
  endif()
endforeach()
if(out MATCHES "every_gpu failed")
  problem("step 3 (right code): the old result was reported")
endif()
if(errors)
  message(FATAL_ERROR "${errors} problems in the student's loop")
endif()
message("the loop: a skeleton graded (every_gpu fails), a compile error shown, the fix rebuilt "
        "and graded (every_gpu passes), each by cmake --build build-exercises --target ex01.3")
