# CPU test of the scaffold of a new exercise (cmake/NewExercise.cmake; docs/teaching.md, "Adding
# an exercise"), in a scratch copy of the repository (no .git, no build folders):
# 1. the scaffold writes its files and appends the stanza and the page's paragraph; run again it
#    refuses (the ID is declared, the files exist), and it refuses exNN.4 (the prediction);
# 2. the copy still passes the docs check (the new paragraph links its glossary terms) and the
#    one-workflow check (the new skeleton's header gives its grading command);
# 3. the copy configures and builds the new grader, which lists its cases; the grade report
#    (GPUs hidden) has the new exercise's line, 0 points, every case skipped.
#   cmake -DSOURCE=<repository> -DOUTDIR=<scratch> -DDOCS_CHECK=<docs_check> -DARCHS=<one arch>
#         [-DGENERATOR=...] [-DCUDA_COMPILER=...] [-DBUILD_RPATH=...] -P check_new_exercise.cmake
cmake_minimum_required(VERSION 3.22)
set(copy ${OUTDIR}/copy)
file(REMOVE_RECURSE ${OUTDIR})
file(MAKE_DIRECTORY ${copy})
file(GLOB items RELATIVE ${SOURCE} ${SOURCE}/*)
foreach(item IN LISTS items)
  # hidden folders, build* folders and any other build tree (a folder holding CMakeCache.txt)
  if(NOT item MATCHES "^(build.*|\\..*|Testing)$" AND NOT EXISTS ${SOURCE}/${item}/CMakeCache.txt)
    file(COPY ${SOURCE}/${item} DESTINATION ${copy} PATTERN "build*" EXCLUDE)
  endif()
endforeach()
set(errors 0)
macro(problem text)
  message(SEND_ERROR "${text}")
  math(EXPR errors "${errors} + 1")
endmacro()
macro(scaffold id name)
  execute_process(COMMAND ${CMAKE_COMMAND} -DCHAPTER=01_vecadd -DID=${id} -DNAME=${name}
                          "-DTITLE=the scaffold checked" -P ${copy}/cmake/NewExercise.cmake
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
endmacro()

# 1. The scaffold, then its refusals.
scaffold(ex01.9 scaffold_check)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the scaffold failed (exit ${rc}):\n${out}")
endif()
foreach(f 01_vecadd/scaffold_check.h 01_vecadd/scaffold_check.cu
          01_vecadd/exercise/scaffold_check.cu 01_vecadd/tests/grade_ex9_scaffold_check.cu)
  if(NOT EXISTS ${copy}/${f})
    problem("the scaffold did not write ${f}")
  endif()
endforeach()
file(READ ${copy}/01_vecadd/CMakeLists.txt lists)
if(NOT lists MATCHES "tutorial_exercise\\(ID ex01\\.9 ")
  problem("the scaffold did not append the stanza of ex01.9")
endif()
file(READ ${copy}/docs/01_vecadd_exercises.md page)
if(NOT page MATCHES "\\*\\*ex01\\.9, the scaffold checked\\*\\*")
  problem("the scaffold did not append the paragraph of ex01.9")
endif()
scaffold(ex01.9 another_name)
if(rc EQUAL 0 OR NOT out MATCHES "already declared")
  problem("a second ex01.9 was not refused (exit ${rc}):\n${out}")
endif()
scaffold(ex01.8 scaffold_check)
if(rc EQUAL 0 OR NOT out MATCHES "never overwrites")
  problem("existing files were not refused (exit ${rc}):\n${out}")
endif()
scaffold(ex01.4 scaffold_four)
if(rc EQUAL 0 OR NOT out MATCHES "prediction")
  problem("ex01.4 (the prediction's number) was not refused (exit ${rc}):\n${out}")
endif()

# 2. The docs check and the one-workflow check on the copy.
file(GLOB pages ${copy}/docs/*.md)
file(GLOB readmes ${copy}/0*/README.md)
execute_process(COMMAND ${DOCS_CHECK} ${copy}/README.md ${pages} ${readmes}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  problem("the docs check fails on the copy with the new paragraph (exit ${rc}):\n${out}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -DSOURCE=${copy}
                        -P ${copy}/common/tests/grade_fixture/check_one_workflow.cmake
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  problem("the one-workflow check fails on the copy (exit ${rc}):\n${out}")
endif()

# 3. Configure, build the new grader, list its cases, grade it with the GPUs hidden.
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
execute_process(COMMAND ${CMAKE_COMMAND} -S ${copy} -B ${copy}/build ${extra}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configure failed (exit ${rc}):\n${out}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${copy}/build --target grade_ex01_9
                        tutorial_gpu_probe
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the new grader does not build (exit ${rc}):\n${out}")
endif()
find_program(grader grade_ex01_9 PATHS ${copy}/build/01_vecadd NO_DEFAULT_PATH)
execute_process(COMMAND ${grader} --list RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
string(REPLACE "\n" " " cases "${out}")
string(STRIP "${cases}" cases)
if(NOT rc EQUAL 0 OR NOT cases STREQUAL "primes kernel one boundaries")
  problem("grade_ex01_9 --list: exit ${rc}, '${cases}' (expected primes kernel one boundaries)")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -DBUILD_DIR=${copy}/build -DONLY=ex01.9 -DCPU_ONLY=ON
                        -DSEED=1 -P ${copy}/cmake/GradeReport.cmake
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
file(STRINGS ${copy}/build/grades/ex01.9.csv rows REGEX "^ex01\\.9,")
if(NOT rc EQUAL 0 OR NOT rows MATCHES "^ex01\\.9,01_vecadd,\"the scaffold checked\",0\\.00,10,0,4,0,4,")
  problem("the grade report of ex01.9 (exit ${rc}): '${rows}'\n${out}")
endif()

if(errors)
  message(FATAL_ERROR "${errors} problems with the scaffold")
endif()
message("new exercise: the scaffold wrote ex01.9, refused a second one, existing files and "
        "exNN.4; the docs and one-workflow checks pass; the grader builds and is graded")
