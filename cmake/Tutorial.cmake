# Helpers that keep a chapter's CMakeLists.txt to a few lines.
#
#   tutorial_program(<target> SOURCES a.cu b.cu [LIBRARIES CUDA::cublas ...])
#   tutorial_test(NAME <name> COMMAND <target> [args...]
#                 [GPU] [SANITIZE memcheck racecheck synccheck initcheck]
#                 [EXPECT_EXIT <code>] [EXPECT_OUTPUT <regex>] [LABELS ...] [TIMEOUT <s>] [SERIAL])
#   tutorial_bad_sizes(PREFIX <name> COMMAND <target> [args...])   (malformed sizes exit 2)
#   tutorial_plot(SCRIPT plots/x.gp OUTPUTS x.png [...])
#   tutorial_tour(COMMAND <target> [args...])     (the tour adds --outdir <dir>)
#
# Every name is labelled with its chapter (the folder name). GPU tests are labelled `gpu` and
# count exit code 77 (no suitable GPU) as skipped; all others are labelled `cpu`.

set(TUTORIAL_CMAKE_DIR ${CMAKE_CURRENT_LIST_DIR})
include(${CMAKE_CURRENT_LIST_DIR}/CaseTimeLimit.cmake)
find_program(TUTORIAL_GNUPLOT gnuplot)
find_program(TUTORIAL_SANITIZER compute-sanitizer HINTS ${CUDAToolkit_BIN_DIR})

function(_tutorial_chapter out)
  if(TUTORIAL_CHAPTER) # a chapter's subfolder (06_streams/multi) sets its chapter's name
    set(${out} ${TUTORIAL_CHAPTER} PARENT_SCOPE)
    return()
  endif()
  get_filename_component(chapter ${CMAKE_CURRENT_SOURCE_DIR} NAME)
  set(${out} ${chapter} PARENT_SCOPE)
endfunction()

# In exercise mode a source with a namesake in exercise/ is replaced by the skeleton.
function(tutorial_program target)
  cmake_parse_arguments(P "" "" "SOURCES;LIBRARIES" ${ARGN})
  set(sources)
  foreach(src IN LISTS P_SOURCES)
    get_filename_component(base ${src} NAME)
    if(TUTORIAL_EXERCISES AND EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/exercise/${base})
      list(APPEND sources exercise/${base})
    else()
      list(APPEND sources ${src})
    endif()
  endforeach()
  add_executable(${target} ${sources})
  target_include_directories(${target} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
  target_link_libraries(${target} PRIVATE tutorial_common ${P_LIBRARIES})
  set_target_properties(${target} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  # Keep device code readable in the profiler and in sanitizer reports (no effect on speed).
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo>)
  if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:C>:-Wall -Wextra>
                           $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall>)
  endif()
  set_property(GLOBAL APPEND PROPERTY TUTORIAL_PROGRAMS ${target})
  _tutorial_mistakes_defer() # the folder's corpus of wrong submissions (cmake/Mistakes.cmake)
endfunction()

function(_tutorial_resolve out)
  set(cmd ${ARGN})
  list(GET cmd 0 first)
  if(TARGET ${first})
    list(REMOVE_AT cmd 0)
    list(PREPEND cmd "$<TARGET_FILE:${first}>")
  endif()
  set(${out} ${cmd} PARENT_SCOPE)
endfunction()

# TUTORIAL_TEST_TIMEOUT_CAP (seconds; empty: none): no test of tutorial_test gets a longer limit,
# its own TIMEOUT and a sanitizer test's 600 s included. The declared mutants' builds set it
# (cmake/run_mutants.sh), so that a kernel that never ends is stopped there.
set(TUTORIAL_TEST_TIMEOUT_CAP "" CACHE STRING "Largest time limit of any test, in seconds (empty: none)")
if(NOT TUTORIAL_TEST_TIMEOUT_CAP STREQUAL "" AND
   NOT TUTORIAL_TEST_TIMEOUT_CAP MATCHES "^[1-9][0-9]*$")
  message(FATAL_ERROR "TUTORIAL_TEST_TIMEOUT_CAP: '${TUTORIAL_TEST_TIMEOUT_CAP}' is not a whole "
                      "number of seconds")
endif()
function(_tutorial_capped_timeout seconds out)
  if(TUTORIAL_TEST_TIMEOUT_CAP AND seconds GREATER TUTORIAL_TEST_TIMEOUT_CAP)
    set(seconds ${TUTORIAL_TEST_TIMEOUT_CAP})
  endif()
  set(${out} ${seconds} PARENT_SCOPE)
endfunction()

function(tutorial_test)
  cmake_parse_arguments(T "GPU;SERIAL" "NAME;EXPECT_EXIT;EXPECT_OUTPUT;TIMEOUT"
                        "COMMAND;SANITIZE;LABELS" ${ARGN})
  _tutorial_chapter(chapter)
  _tutorial_resolve(cmd ${T_COMMAND})
  set(labels ${chapter} ${T_LABELS})
  if(T_GPU)
    list(APPEND labels gpu)
  else()
    list(APPEND labels cpu)
  endif()

  if(DEFINED T_EXPECT_EXIT OR DEFINED T_EXPECT_OUTPUT)
    if(NOT DEFINED T_EXPECT_EXIT)
      set(T_EXPECT_EXIT 0)
    endif()
    add_test(NAME ${T_NAME}
             COMMAND ${CMAKE_COMMAND} -DEXPECT_EXIT=${T_EXPECT_EXIT} "-DEXPECT_OUTPUT=${T_EXPECT_OUTPUT}"
                     -DSKIP_OK=${T_GPU} -P ${TUTORIAL_CMAKE_DIR}/ExpectExit.cmake -- ${cmd})
  else()
    add_test(NAME ${T_NAME} COMMAND ${cmd})
  endif()
  set_tests_properties(${T_NAME} PROPERTIES LABELS "${labels}")
  if(T_GPU)
    # 77 straight from the program, or the marker from a wrapper script (cmake -P cannot exit 77
    # before CMake 3.29).
    set_tests_properties(${T_NAME} PROPERTIES SKIP_RETURN_CODE 77
                         SKIP_REGULAR_EXPRESSION "\\[tutorial-skip\\]")
  endif()
  if(T_TIMEOUT)
    _tutorial_capped_timeout(${T_TIMEOUT} limit)
    set_tests_properties(${T_NAME} PROPERTIES TIMEOUT ${limit})
  elseif(TUTORIAL_TEST_TIMEOUT_CAP)
    set_tests_properties(${T_NAME} PROPERTIES TIMEOUT ${TUTORIAL_TEST_TIMEOUT_CAP})
  endif()
  if(T_SERIAL)
    set_tests_properties(${T_NAME} PROPERTIES RUN_SERIAL TRUE)
  endif()

  # A grader's sanitizer test may not skip for want of the tool on a machine with a GPU: that
  # would leave the exercise's race checks (and their lesson caps) out of its grade.
  set(required OFF)
  if("exercise" IN_LIST T_LABELS)
    set(required ON)
  endif()
  _tutorial_capped_timeout(600 sanitizer_limit)
  foreach(tool IN LISTS T_SANITIZE)
    set(name ${T_NAME}.${tool})
    add_test(NAME ${name}
             COMMAND ${CMAKE_COMMAND} "-DSANITIZER=${TUTORIAL_SANITIZER}" -DTOOL=${tool}
                     "-DPROBE=$<TARGET_FILE:tutorial_gpu_probe>" -DREQUIRED=${required}
                     -P ${TUTORIAL_CMAKE_DIR}/RunSanitizer.cmake -- ${cmd})
    set_tests_properties(${name} PROPERTIES LABELS "${chapter};gpu;sanitizer"
                         SKIP_REGULAR_EXPRESSION "\\[tutorial-skip\\]" TIMEOUT ${sanitizer_limit})
  endforeach()
endfunction()

# A plain program refuses a malformed size before it looks for a GPU, so these run on any machine:
# <PREFIX>.bad_exponent, .bad_suffix and .bad_negative run COMMAND followed by 1e6, 12abc and -5
# and expect exit 2 and the program's usage line.
#   tutorial_bad_sizes(PREFIX 02_heat1d.plain COMMAND plain_heat1d --points)
function(tutorial_bad_sizes)
  cmake_parse_arguments(B "" "PREFIX" "COMMAND" ${ARGN})
  list(GET B_COMMAND 0 program)
  foreach(bad exponent:1e6 suffix:12abc negative:-5)
    string(REPLACE ":" ";" bad "${bad}")
    list(GET bad 0 name)
    list(GET bad 1 value)
    tutorial_test(NAME ${B_PREFIX}.bad_${name} COMMAND ${B_COMMAND} ${value} EXPECT_EXIT 2
                  EXPECT_OUTPUT "usage: ${program}")
  endforeach()
endfunction()

# A gnuplot script reads the CSV files in `datadir` and writes PNGs into `outdir`. The test
# draws it from the committed results in docs/results/<chapter>/, so CI checks every plot.
function(tutorial_plot)
  cmake_parse_arguments(P "" "SCRIPT" "OUTPUTS" ${ARGN})
  _tutorial_chapter(chapter)
  get_filename_component(stem ${P_SCRIPT} NAME_WE)
  set(script ${CMAKE_CURRENT_SOURCE_DIR}/${P_SCRIPT})
  set(datadir ${PROJECT_SOURCE_DIR}/docs/results/${chapter})
  set(outdir ${CMAKE_CURRENT_BINARY_DIR}/plot_test/${stem})
  add_test(NAME ${chapter}.plot.${stem}
           COMMAND ${CMAKE_COMMAND} "-DGNUPLOT=${TUTORIAL_GNUPLOT}" -DSCRIPT=${script}
                   -DDATADIR=${datadir} -DOUTDIR=${outdir} "-DOUTPUTS=${P_OUTPUTS}"
                   -P ${TUTORIAL_CMAKE_DIR}/RunPlot.cmake)
  set_tests_properties(${chapter}.plot.${stem} PROPERTIES LABELS "${chapter};cpu;plot"
                       SKIP_REGULAR_EXPRESSION "\\[tutorial-skip\\]")
  set_property(GLOBAL APPEND PROPERTY TUTORIAL_TOUR_LINES
               "tour_plot([[${chapter}]] [[${script}]] [[${P_OUTPUTS}]])")
endfunction()

function(tutorial_tour)
  cmake_parse_arguments(T "" "" "COMMAND" ${ARGN})
  _tutorial_chapter(chapter)
  _tutorial_resolve(cmd ${T_COMMAND})
  set(args "")
  foreach(a IN LISTS cmd)
    string(APPEND args " [[${a}]]")
  endforeach()
  set_property(GLOBAL APPEND PROPERTY TUTORIAL_TOUR_LINES "tour_step([[${chapter}]]${args})")

  # The tour appends --outdir to every command: check in CI that the program accepts it.
  list(GET T_COMMAND 0 program)
  set(name ${chapter}.tour.${program}.accepts_outdir)
  add_test(NAME ${name}
           COMMAND ${CMAKE_COMMAND} -DEXPECT_EXIT=0 "-DEXPECT_OUTPUT=--outdir"
                   -P ${TUTORIAL_CMAKE_DIR}/ExpectExit.cmake -- "$<TARGET_FILE:${program}>" --help)
  set_tests_properties(${name} PROPERTIES LABELS "${chapter};cpu")
endfunction()

# Called once at the end of the top-level CMakeLists.txt: writes the tour's step list and the
# `tour` target that runs it.
function(tutorial_finish_tour)
  get_property(lines GLOBAL PROPERTY TUTORIAL_TOUR_LINES)
  get_property(programs GLOBAL PROPERTY TUTORIAL_PROGRAMS)
  list(JOIN lines "\n" content)
  file(GENERATE OUTPUT ${CMAKE_BINARY_DIR}/tour_steps.cmake CONTENT "${content}\n")
  option(TUTORIAL_TOUR_UPDATES_RESULTS
         "The tour copies its CSV files into docs/results (to regenerate the committed results)" OFF)
  set(run_tour ${CMAKE_COMMAND} -DSTEPS=${CMAKE_BINARY_DIR}/tour_steps.cmake
      -DRESULTS=${PROJECT_SOURCE_DIR}/docs/results "-DGNUPLOT=${TUTORIAL_GNUPLOT}"
      "-DSETUP=$<TARGET_FILE:tutorial_setup_check>")
  add_custom_target(tour
    COMMAND ${run_tour} -DTOURDIR=${CMAKE_BINARY_DIR}/tour -DUPDATE_RESULTS=${TUTORIAL_TOUR_UPDATES_RESULTS}
            -P ${TUTORIAL_CMAKE_DIR}/RunTour.cmake
    USES_TERMINAL
    COMMENT "The tour: every chapter's demo, its results and its plots")
  # The tour as a machine without a GPU sees it (every demo skips, every plot is drawn from
  # docs/results), on any machine: CUDA_VISIBLE_DEVICES=-1 hides the GPUs.
  add_test(NAME tour.without_gpu
           COMMAND ${run_tour} -DTOURDIR=${CMAKE_BINARY_DIR}/tour_without_gpu
                   -P ${TUTORIAL_CMAKE_DIR}/RunTour.cmake)
  set_tests_properties(tour.without_gpu PROPERTIES LABELS "tour;cpu" ENVIRONMENT
                       "CUDA_VISIBLE_DEVICES=-1" PASS_REGULAR_EXPRESSION "===== Tour summary"
                       FAIL_REGULAR_EXPRESSION "CMake Error|: FAIL")
  add_dependencies(tour tutorial_setup_check)
  if(programs)
    add_dependencies(tour ${programs})
  endif()
  # The declared mutants, one "chapter|name|label|description" a line, for cmake/run_mutants.sh.
  get_property(mutants GLOBAL PROPERTY TUTORIAL_MUTANTS)
  list(JOIN mutants "\n" mutant_lines)
  file(WRITE ${CMAKE_BINARY_DIR}/mutants.txt "${mutant_lines}\n")
  # No source holds a mutant (TUT_MUTANT_, the old #ifdef way), and every patch is declared.
  if(NOT EXISTS ${PROJECT_SOURCE_DIR}/.student-copy)
    add_test(NAME mutants.sources_clean
             COMMAND ${CMAKE_COMMAND} -DCLEAN=${PROJECT_SOURCE_DIR}
                     -DMUTANTS=${CMAKE_BINARY_DIR}/mutants.txt "-DCHAPTERS=${TUTORIAL_CHAPTERS}"
                     -P ${TUTORIAL_CMAKE_DIR}/CheckMutantPatch.cmake)
    set_tests_properties(mutants.sources_clean PROPERTIES LABELS "cpu;mutant;classroom")
  endif()
  set(TUTORIAL_MUTANT_ARCHS "native" CACHE STRING "Architectures of the mutant builds")
  add_custom_target(mutants
    COMMAND bash ${TUTORIAL_CMAKE_DIR}/run_mutants.sh ${PROJECT_SOURCE_DIR} ${CMAKE_BINARY_DIR}
            "${TUTORIAL_MUTANT_ARCHS}"
    USES_TERMINAL
    COMMENT "Mutants: each deliberately broken kernel must fail one of its chapter's tests")
endfunction()

# Mutants: deliberately broken versions of a chapter's kernels that the chapter's tests must
# catch (the suite's measure of its own tests). Each is a patch, out of the sources a reader opens:
#
#   tutorial_mutant(NAME vecadd_lost_tail KERNEL vecadd_f32 TESTS "^01_vecadd\\.n[0-9]+$" ...
#                   DESCRIPTION "the last element is never added")
#
# declares <chapter>/tests/mutants/vecadd_lost_tail.patch, a unified diff of the chapter's sources
# (paths relative to the chapter folder, a/ and b/ prefixes; tools/mutant_patches.py makes and
# refreshes them). `cmake --workflow --preset mutants` (cmake/run_mutants.sh) builds each declared
# mutant from a copy of the tree with its patch applied and runs the tests of the kernel it
# breaks: those labelled kernel.<KERNEL>. TESTS: regular expressions of the chapter's test names
# that run that kernel; every test of the folder that matches one gets the label (at the end of
# the folder's CMakeLists.txt, so tests declared later count too; the mutants of one kernel share
# its label and add their own tests to it). A CPU test, <chapter>.mutant_declared.<name>, checks
# that the patch applies cleanly to the current sources and changes a line of code, so that a
# stale patch fails CI rather than the GPU run, and that at least one test carries the mutant's
# label, so that its run cannot select no test.
function(tutorial_mutant)
  cmake_parse_arguments(M "" "NAME;KERNEL;DESCRIPTION" "TESTS" ${ARGN})
  if(EXISTS ${PROJECT_SOURCE_DIR}/.student-copy)
    return() # a student copy holds the skeletons, not the solutions' deliberate bugs
  endif()
  if(NOT M_KERNEL OR NOT M_TESTS)
    message(FATAL_ERROR "tutorial_mutant(${M_NAME}): give KERNEL <label> and TESTS <regex>... "
                        "(the tests of the kernel it breaks)")
  endif()
  _tutorial_chapter(chapter)
  set_property(GLOBAL APPEND PROPERTY TUTORIAL_MUTANTS
               "${chapter}|${M_NAME}|kernel.${M_KERNEL}|${M_DESCRIPTION}")
  set_property(DIRECTORY APPEND PROPERTY _TUTORIAL_KERNEL_LABELS "kernel.${M_KERNEL}")
  set_property(DIRECTORY APPEND PROPERTY _TUTORIAL_KERNEL_TESTS_kernel.${M_KERNEL} ${M_TESTS})
  get_property(deferred DIRECTORY PROPERTY _TUTORIAL_KERNEL_LABELS_DEFERRED)
  if(NOT deferred)
    set_property(DIRECTORY PROPERTY _TUTORIAL_KERNEL_LABELS_DEFERRED ON)
    cmake_language(DEFER CALL _tutorial_kernel_labels)
  endif()
  add_test(NAME ${chapter}.mutant_declared.${M_NAME}
           COMMAND ${CMAKE_COMMAND} -DPATCH=${PROJECT_SOURCE_DIR}/${chapter}/tests/mutants/${M_NAME}.patch
                   -DDIR=${PROJECT_SOURCE_DIR}/${chapter}
                   -DWORK=${CMAKE_BINARY_DIR}/mutant-patch-check/${M_NAME}
                   -DLABEL=kernel.${M_KERNEL} -DBUILD_DIR=${CMAKE_BINARY_DIR}
                   "-DCTEST=${CMAKE_CTEST_COMMAND}"
                   -P ${TUTORIAL_CMAKE_DIR}/CheckMutantPatch.cmake)
  set_tests_properties(${chapter}.mutant_declared.${M_NAME} PROPERTIES
                       LABELS "${chapter};cpu;mutant;classroom")
endfunction()

# At the end of a folder with mutants: each test whose name matches a kernel's TESTS gets the
# label kernel.<KERNEL>.
function(_tutorial_kernel_labels)
  get_property(labels DIRECTORY PROPERTY _TUTORIAL_KERNEL_LABELS)
  list(REMOVE_DUPLICATES labels)
  get_property(tests DIRECTORY PROPERTY TESTS)
  foreach(label IN LISTS labels)
    get_property(regexes DIRECTORY PROPERTY _TUTORIAL_KERNEL_TESTS_${label})
    foreach(test IN LISTS tests)
      foreach(regex IN LISTS regexes)
        if(test MATCHES "${regex}")
          set_property(TEST ${test} APPEND PROPERTY LABELS ${label})
          break()
        endif()
      endforeach()
    endforeach()
  endforeach()
endfunction()

# The classroom: an exercise, its grader and its tests (docs/exercises.md, docs/teaching.md).
#
#   tutorial_exercise(ID ex01.2 TITLE "float4 kernel with its tail"
#                     SOURCES vecadd_float4.cu                 # the file(s) the student edits
#                     GRADER tests/grade_ex2_float4.cu [more grader-only sources]
#                     [LIBRARIES CUDA::cublas ...]
#                     CASES one primes tile_edges random       # test <ID>.<case>: --case <case>
#                     [CPU_CASES one]                          # of CASES: run without a GPU
#                     [SANITIZE memcheck racecheck synccheck]  # test <ID>.<case>.<tool> ...
#                     [SANITIZE_CASES primes tile_edges]       # ... for these cases (default:
#                                                              #     the first GPU case)
#                     [SPEED]                                  # test <ID>.speed: --speed, serial
#                     [PREDICTION ex01_prediction.txt]         # test <ID>.prediction
#                     [LESSON tile_edges.racecheck speed]      # <ID>.<suffix>: what it teaches
#                     [SERIAL_CASES one])                      # of CASES: alone on the GPU
#
# builds grade_exNN_k from the grader and the student's files (in exercise mode the exercise/
# skeletons, as tutorial_program does), labels every test `exercise` and <ID> (and `gpu`, or
# `cpu` for a CPU case), records the exercise in the build tree's manifest, which the grade
# report reads (cmake/GradeReport.cmake), and adds the target <ID> (`cmake --build
# build-exercises --target ex01.2`): rebuild the grader, run its tests, print its report line.
# A CPU case (CPU_CASES) runs with --no-gpu: it must make no CUDA call (pure arithmetic, such as
# a launch helper checked against the GPUs of common/gpu_table.h), and is graded on any machine;
# the grader marks it 1 in its case list (tut_grader_case's cpu), or --no-gpu refuses it (exit 2).
# A LESSON test that does not pass caps the exercise at 3 of 10 points.
# The prediction file: exercise/<file> in exercise mode; else the teacher's answer,
# tests/answers/<file> (left out of the student copy).
set(TUTORIAL_EXERCISE_MANIFEST ${CMAKE_BINARY_DIR}/exercise_manifest.cmake)
file(WRITE ${TUTORIAL_EXERCISE_MANIFEST}
     "# Written at configure time by tutorial_exercise() (cmake/Tutorial.cmake).\n")
# A student copy (cmake/ExportStudentCopy.cmake) holds no solutions: it always builds the
# exercise/ files.
if(EXISTS ${PROJECT_SOURCE_DIR}/.student-copy AND NOT TUTORIAL_EXERCISES)
  set(TUTORIAL_EXERCISES ON CACHE BOOL
      "Build each chapter against its exercise/ skeletons instead of the solutions" FORCE)
  message(STATUS "Exercise mode: a student copy builds the chapters from their exercise/ files")
endif()
if(NOT TARGET tutorial_graders)
  # ctest before 3.24 keeps only the first 1 KiB of a passed test's output, and the report reads
  # the speed and prediction lines at its end (from 3.24 GradeReport.cmake asks for 64 KiB).
  file(WRITE ${CMAKE_BINARY_DIR}/CTestCustom.cmake
       "set(CTEST_CUSTOM_MAXIMUM_PASSED_TEST_OUTPUT_SIZE 65536)\n")
  add_custom_target(tutorial_graders COMMENT "Every exercise's grader")
  # The grade report: builds the graders, runs every exercise's tests, prints the table and
  # writes grades.csv and grades.json here (cmake --workflow --preset grade).
  add_custom_target(grade
    COMMAND ${CMAKE_COMMAND} -DBUILD_DIR=${CMAKE_BINARY_DIR} "-DCTEST=${CMAKE_CTEST_COMMAND}"
            -P ${TUTORIAL_CMAKE_DIR}/GradeReport.cmake
    USES_TERMINAL
    COMMENT "The grade report: every exercise's tests")
  add_dependencies(grade tutorial_graders tutorial_gpu_probe)
endif()

function(tutorial_exercise)
  set(lists SOURCES GRADER LIBRARIES CASES CPU_CASES SANITIZE SANITIZE_CASES LESSON SERIAL_CASES)
  cmake_parse_arguments(E "SPEED" "ID;TITLE;PREDICTION" "${lists}" ${ARGN})
  _tutorial_chapter(chapter)
  if(E_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "tutorial_exercise(${E_ID}): unknown arguments: ${E_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT E_ID MATCHES "^ex[0-9][0-9]\\.[0-9]+$")
    message(FATAL_ERROR "tutorial_exercise: ID '${E_ID}' is not exNN.k")
  endif()
  if(NOT E_GRADER OR (NOT E_CASES AND NOT E_PREDICTION AND NOT E_SPEED))
    message(FATAL_ERROR "tutorial_exercise(${E_ID}): needs GRADER and CASES, SPEED or PREDICTION")
  endif()
  if(E_TITLE MATCHES "[]\\[\"]")
    message(FATAL_ERROR "tutorial_exercise(${E_ID}): no brackets or quotes in TITLE")
  endif()
  foreach(kind CPU_CASES SERIAL_CASES)
    foreach(case IN LISTS E_${kind})
      if(NOT case IN_LIST E_CASES)
        message(FATAL_ERROR "tutorial_exercise(${E_ID}): ${kind} '${case}' is not one of CASES")
      endif()
    endforeach()
  endforeach()
  # The sanitizer's cases: those named, else the first case that runs on the GPU.
  set(sanitize_cases)
  if(E_SANITIZE)
    if(E_SANITIZE_CASES)
      set(sanitize_cases ${E_SANITIZE_CASES})
    else()
      foreach(case IN LISTS E_CASES)
        if(NOT sanitize_cases AND NOT case IN_LIST E_CPU_CASES)
          set(sanitize_cases ${case})
        endif()
      endforeach()
    endif()
    if(NOT sanitize_cases)
      message(FATAL_ERROR "tutorial_exercise(${E_ID}): SANITIZE needs a GPU case to run")
    endif()
  elseif(E_SANITIZE_CASES)
    message(FATAL_ERROR "tutorial_exercise(${E_ID}): SANITIZE_CASES without SANITIZE tools")
  endif()
  list(REMOVE_DUPLICATES sanitize_cases)
  foreach(case IN LISTS sanitize_cases)
    if(NOT case IN_LIST E_CASES OR case IN_LIST E_CPU_CASES)
      message(FATAL_ERROR "tutorial_exercise(${E_ID}): SANITIZE_CASES '${case}' is not one of "
                          "the GPU CASES")
    endif()
  endforeach()
  # Every LESSON suffix must name one of the exercise's tests.
  _tutorial_test_suffixes(suffixes "${E_CASES}" "${sanitize_cases}" "${E_SANITIZE}" "${E_SPEED}"
                          "${E_PREDICTION}")
  foreach(lesson IN LISTS E_LESSON)
    if(NOT lesson IN_LIST suffixes)
      string(REPLACE ";" " " known "${suffixes}")
      message(FATAL_ERROR "tutorial_exercise(${E_ID}): LESSON '${lesson}' is none of its tests "
                          "(${E_ID}.<suffix>, suffixes: ${known})")
    endif()
  endforeach()

  string(REPLACE "." "_" target "grade_${E_ID}")
  tutorial_program(${target} SOURCES ${E_GRADER} ${E_SOURCES} LIBRARIES ${E_LIBRARIES})
  # A grader is not a chapter program: the tour does not need it.
  get_property(programs GLOBAL PROPERTY TUTORIAL_PROGRAMS)
  list(REMOVE_ITEM programs ${target})
  set_property(GLOBAL PROPERTY TUTORIAL_PROGRAMS ${programs})
  add_dependencies(tutorial_graders ${target})

  set(prediction_file "")
  if(E_PREDICTION)
    get_filename_component(base ${E_PREDICTION} NAME)
    if(TUTORIAL_EXERCISES)
      set(prediction_file ${CMAKE_CURRENT_SOURCE_DIR}/exercise/${base})
    else()
      _tutorial_prediction_file(prediction_file ${CMAKE_CURRENT_SOURCE_DIR} ${E_PREDICTION})
    endif()
  endif()
  set(speed 0)
  if(E_SPEED)
    set(speed 1)
  endif()
  _tutorial_grader_tests(${E_ID} ${target} "${E_CASES}" "${E_CPU_CASES}" "${E_SANITIZE}"
                         "${sanitize_cases}" ${speed} "${prediction_file}" "exercise;${E_ID}"
                         "${E_SERIAL_CASES}")

  # `cmake --build <dir> --target ex01.2`: build this grader (a compile error stops here, with
  # the compiler's message), then run its tests and print its line of the report.
  add_custom_target(${E_ID}
    COMMAND ${CMAKE_COMMAND} -DBUILD_DIR=${CMAKE_BINARY_DIR} "-DCTEST=${CMAKE_CTEST_COMMAND}"
            -DONLY=${E_ID} -P ${TUTORIAL_CMAKE_DIR}/GradeReport.cmake
    USES_TERMINAL
    COMMENT "Grading ${E_ID}: ${E_TITLE}")
  add_dependencies(${E_ID} ${target} tutorial_gpu_probe)

  _tutorial_manifest_line(${TUTORIAL_EXERCISE_MANIFEST} ${E_ID} ${chapter} "${E_TITLE}"
                          "${E_SOURCES}" "${E_CASES}" "${E_SANITIZE}" "${sanitize_cases}"
                          "${E_CPU_CASES}" "${E_LESSON}" ${speed} "${E_PREDICTION}")
endfunction()

# A grader's tests, named <name>.<case>, <name>.<case>.<tool>, <name>.speed, <name>.prediction
# (tutorial_exercise's, and the corpus's copies of them in cmake/Mistakes.cmake, which copies
# RUN_SERIAL and the other properties from the real tests). serial_cases: the cases that run alone
# on the GPU (a case whose check needs no other kernel between the grader's and the student's).
function(_tutorial_grader_tests name target cases cpu_cases tools sanitize_cases speed
                                prediction_file labels serial_cases)
  _tutorial_time_limits_defer()
  set(tests)
  foreach(case IN LISTS cases)
    set(sanitize)
    if(case IN_LIST sanitize_cases)
      set(sanitize ${tools})
    endif()
    set(serial)
    if(case IN_LIST serial_cases)
      set(serial SERIAL)
    endif()
    if(case IN_LIST cpu_cases)
      tutorial_test(NAME ${name}.${case} COMMAND ${target} --case ${case} --no-gpu
                    LABELS ${labels} TIMEOUT 120 ${serial})
    else()
      tutorial_test(NAME ${name}.${case} COMMAND ${target} --case ${case} GPU
                    LABELS ${labels} TIMEOUT 120 SANITIZE ${sanitize} ${serial})
    endif()
    list(APPEND tests ${name}.${case})
    foreach(tool IN LISTS sanitize)
      set_property(TEST ${name}.${case}.${tool} APPEND PROPERTY LABELS ${labels})
      list(APPEND tests ${name}.${case}.${tool})
    endforeach()
  endforeach()
  if(speed)
    tutorial_test(NAME ${name}.speed COMMAND ${target} --speed GPU SERIAL LABELS ${labels}
                  TIMEOUT 300)
    list(APPEND tests ${name}.speed)
  endif()
  if(prediction_file)
    tutorial_test(NAME ${name}.prediction COMMAND ${target} --prediction ${prediction_file} GPU
                  SERIAL LABELS ${labels} TIMEOUT 300)
    list(APPEND tests ${name}.prediction)
  endif()
  # A generated mutant's timeout must stay ctest's "Timeout": its runner grades such a mutant
  # again, alone on the GPU (cmake/run_generated_mutants.sh, phase R).
  if(NOT "generated" IN_LIST labels)
    set_property(DIRECTORY APPEND PROPERTY _TUTORIAL_TIME_LIMITED_TESTS ${tests})
  endif()
endfunction()

# A kernel that never finishes would hang its grader until ctest's TIMEOUT, and ctest would say
# only "Timeout": each grader test gets TUT_CASE_TIME_LIMIT (common/exercise.h), after which the
# grader stops with a diagnosis, a little below its TIMEOUT (cmake/CaseTimeLimit.cmake: 120 -> 108,
# 300 -> 270, 600 -> 540, 10 -> 8; none under 4 s). Set at the end of the folder, from the final
# TIMEOUT: whether the chapter, TUTORIAL_TEST_TIMEOUT_CAP or the corpus (cmake/Mistakes.cmake,
# deferred before this) set it. The check: classroom.case_time_limits.
function(_tutorial_time_limits_defer)
  get_property(done DIRECTORY PROPERTY _TUTORIAL_TIME_LIMITS_DEFERRED)
  if(NOT done)
    set_property(DIRECTORY PROPERTY _TUTORIAL_TIME_LIMITS_DEFERRED ON)
    cmake_language(DEFER CALL _tutorial_time_limits)
  endif()
endfunction()

function(_tutorial_time_limits)
  get_property(tests DIRECTORY PROPERTY _TUTORIAL_TIME_LIMITED_TESTS)
  foreach(test IN LISTS tests)
    get_test_property(${test} TIMEOUT timeout)
    if(NOT timeout MATCHES "^([0-9]+)(\\.[0-9]*)?$")
      continue() # none, or not a number of seconds: ctest's default, no watchdog
    endif()
    tutorial_case_time_limit(limit ${CMAKE_MATCH_1})
    get_test_property(${test} ENVIRONMENT environment)
    if(environment STREQUAL "NOTFOUND")
      set(environment)
    endif()
    # The corpus copies the real test's ENVIRONMENT: its own TIMEOUT decides, not the copy's.
    list(FILTER environment EXCLUDE REGEX "^TUT_CASE_TIME_LIMIT=")
    if(limit)
      list(APPEND environment TUT_CASE_TIME_LIMIT=${limit})
    endif()
    set_tests_properties(${test} PROPERTIES ENVIRONMENT "${environment}")
  endforeach()
endfunction()

# One exercise's line of a manifest that the grade report reads (cmake/GradeReport.cmake).
function(_tutorial_manifest_line file id chapter title sources cases tools sanitize_cases
                                 cpu_cases lesson speed prediction)
  file(APPEND ${file}
       "tutorial_manifest_exercise(ID [[${id}]] CHAPTER [[${chapter}]] TITLE [[${title}]] "
       "SOURCES [[${sources}]] CASES [[${cases}]] SANITIZE [[${tools}]] "
       "SANITIZE_CASES [[${sanitize_cases}]] CPU_CASES [[${cpu_cases}]] LESSON [[${lesson}]] "
       "SPEED ${speed} PREDICTION [[${prediction}]])\n")
endfunction()

# The corpus of wrong submissions that measures the graders (tests/mistakes/ of each chapter).
include(${CMAKE_CURRENT_LIST_DIR}/Mistakes.cmake)
