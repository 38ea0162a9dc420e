# The graders measured by wrong submissions: a corpus of plausible student mistakes (and correct
# alternative solutions), each graded as a student's file would be.
#
# ---- The corpus format ---------------------------------------------------------------------
# (For a teacher: docs/teaching.md, "Adding an exercise", step 8, says the same.)
# One file per entry: <chapter>/tests/mistakes/<name>.patch, where <name> is the exercise's ID,
# an underscore and a word or two (ex01.1_stride_by_block_dim). The file begins with four lines
#
#   # exercise: ex01.1
#   # kind: mistake                      (or `alternative`: a CORRECT different solution)
#   # what: <the mistake, one line, as a student would make it>
#   # expect: ex01.1.speed               (the grader test that must catch it: <ID>.<case>,
#                                          <ID>.<case>.<tool>, <ID>.speed; an alternative: 10)
#
# (other `#` lines and blank lines may follow), then a unified diff against the solution file(s)
# of that exercise (tutorial_exercise's SOURCES, and only those), paths relative to the chapter
# folder with a/ and b/ prefixes:
#
#   --- a/vecadd_kernels.cu
#   +++ b/vecadd_kernels.cu
#   @@ -35,7 +35,7 @@ ...
#
# (`git diff --no-index`, or `diff -u` with the prefixes edited, writes one).
#
# ---- What uses it --------------------------------------------------------------------------
# - Every chapter folder with a corpus gets the CPU test <chapter>.mistakes.corpus (labels cpu,
#   classroom): each file has the header, its exercise and expected test exist, and the diff
#   applies cleanly to the current solution and changes it. A change of a solution that breaks a
#   patch fails CI. (Not in a student copy: it holds no solutions.)
# - -DTUTORIAL_MISTAKES=ON (on the solutions' build) writes each entry's patched copy into
#   <build>/mistakes/<chapter>/<name>/ at configure time (git apply, or patch; configure fails if
#   a diff does not apply), builds a grader per entry, mistake_<name> (dots as _), from the copy
#   and the exercise's grader sources (the chapter folder stays on the include path), and gives
#   it the exercise's tests under the names mistake.<name>.<suffix> (same cases, sanitizer cases
#   and tools, speed, prediction, timeouts), labelled `mistake` and mistake.<name>. The target
#   mistake.<name> builds one, mistake_graders all of them; <build>/mistakes_manifest.cmake lists them for the grade
#   report and <build>/mistakes_entries.cmake for the runner below.
# - The runner (.ci/gpu-check mistakes does this on a GPU machine):
#     cmake -DBUILD_DIR=<build> [-DSEED=S] [-DOUT=<dir>] [-DJOBS=n] [-DONLY=<regex>]
#           -P cmake/Mistakes.cmake
#   runs every mistake test (with ONLY, those of the entries whose name matches the regex, e.g.
#   'ex02.1|ex03.3_no_sync': a cheap rerun of a few) with one seed (TUT_EXERCISE_SEED=S,
#   printed; default 1125), scores
#   each entry with cmake/GradeReport.cmake exactly as an exercise is scored (its manifest is
#   mistakes_manifest.cmake), writes OUT/mistakes.csv (entry, exercise, kind, points, expected,
#   failed, verdict) and OUT/mistakes-report.log, and fails when a mistake scores 10, when its
#   expected test did not fail, or when an alternative scores less than 10.
# - The corpus check alone (what the CPU test runs):
#     cmake -DCHECK=<chapter folder> -DMANIFEST=<build>/exercise_manifest.cmake -DWORK=<scratch>
#           -P cmake/Mistakes.cmake
cmake_minimum_required(VERSION 3.22)
get_filename_component(_tutorial_mistakes_dir ${CMAKE_CURRENT_LIST_DIR} ABSOLUTE)

# ---- Shared by configure time and the scripts ------------------------------------------------

# Reads one corpus file: sets <prefix>_EXERCISE, _KIND, _WHAT, _EXPECT, _FILES (the files its
# diff changes, relative to the chapter folder) and _NAME; <prefix>_ERROR says what is wrong
# with it (empty when nothing is).
function(_mistake_read file prefix)
  get_filename_component(full_name ${file} NAME)
  string(REGEX REPLACE "\\.patch$" "" name "${full_name}")
  file(READ ${file} content)
  set(error "")
  foreach(key exercise kind what expect)
    string(TOUPPER ${key} KEY)
    set(value "")
    if("${content}" MATCHES "(^|\n)# ${key}:[ \t]*([^\n]*)")
      string(STRIP "${CMAKE_MATCH_2}" value)
    endif()
    if(value STREQUAL "")
      string(APPEND error "no line '# ${key}: ...'. ")
    endif()
    set(${prefix}_${KEY} "${value}" PARENT_SCOPE)
    set(${KEY} "${value}")
  endforeach()
  # The header comes first: only # lines and blank lines before the diff.
  string(FIND "${content}" "\n--- a/" diff_at)
  if(diff_at EQUAL -1)
    string(APPEND error "no diff ('--- a/<file>' line). ")
  else()
    string(SUBSTRING "${content}" 0 ${diff_at} head)
    string(REGEX REPLACE "(^|\n)#[^\n]*" "" head_rest "${head}")
    string(STRIP "${head_rest}" head_rest)
    if(NOT head_rest STREQUAL "")
      string(APPEND error "lines before the diff that are not '# ...' comments. ")
    endif()
  endif()
  string(REGEX MATCHALL "\n\\+\\+\\+ b/[^\n\t]+" plus "${content}")
  set(files)
  foreach(line IN LISTS plus)
    string(REGEX REPLACE "^\n\\+\\+\\+ b/" "" f "${line}")
    string(STRIP "${f}" f)
    list(APPEND files "${f}")
  endforeach()
  list(REMOVE_DUPLICATES files)
  if(NOT files)
    string(APPEND error "the diff changes no file ('+++ b/<file>' lines). ")
  endif()
  if(NOT name MATCHES "^(ex[0-9][0-9]\\.[0-9]+)_[A-Za-z0-9_]+$")
    string(APPEND error "the name '${name}' is not <exercise>_<words> (ex01.1_stride_by_block_dim). ")
  elseif(NOT CMAKE_MATCH_1 STREQUAL EXERCISE)
    string(APPEND error "the name begins with ${CMAKE_MATCH_1}, the header says exercise ${EXERCISE}. ")
  endif()
  if(KIND STREQUAL "generated")
    # A generated mutant (tools/mutants.py): graded only with -DTUTORIAL_GENERATED_MUTANTS.
    if(NOT EXPECT STREQUAL "any")
      string(APPEND error "a generated mutant expects 'any' (whichever test fails). ")
    endif()
  elseif(NOT KIND MATCHES "^(mistake|alternative)$")
    string(APPEND error "kind '${KIND}' is neither mistake nor alternative. ")
  elseif(KIND STREQUAL "alternative" AND NOT EXPECT STREQUAL "10")
    string(APPEND error "an alternative expects 10 (it is correct), not '${EXPECT}'. ")
  elseif(KIND STREQUAL "mistake" AND NOT EXPECT MATCHES "^${EXERCISE}\\.[A-Za-z0-9_.]+$")
    string(APPEND error "expect '${EXPECT}' is not a test of ${EXERCISE} (${EXERCISE}.<suffix>). ")
  endif()
  set(${prefix}_NAME "${name}" PARENT_SCOPE)
  set(${prefix}_FILES "${files}" PARENT_SCOPE)
  set(${prefix}_ERROR "${error}" PARENT_SCOPE)
endfunction()

# Copies the diff's files from the chapter folder into out_dir and applies the diff there.
# <error_var>: empty on success, else why (the tool's message).
function(_mistake_apply file chapter_dir files out_dir error_var)
  set(${error_var} "" PARENT_SCOPE)
  file(REMOVE_RECURSE ${out_dir})
  file(MAKE_DIRECTORY ${out_dir})
  foreach(f IN LISTS files)
    if(NOT EXISTS ${chapter_dir}/${f})
      set(${error_var} "${f}: no such file in ${chapter_dir}" PARENT_SCOPE)
      return()
    endif()
    get_filename_component(dir ${out_dir}/${f} DIRECTORY)
    file(MAKE_DIRECTORY ${dir})
    configure_file(${chapter_dir}/${f} ${out_dir}/${f} COPYONLY)
  endforeach()
  find_program(TUTORIAL_GIT git)
  find_program(TUTORIAL_PATCH patch)
  get_filename_component(parent ${out_dir} DIRECTORY)
  if(TUTORIAL_GIT)
    # Outside any repository (the build tree may lie inside one, where git apply would take the
    # paths from the repository's top): git stops looking for one at out_dir.
    execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=GIT_DIR --unset=GIT_WORK_TREE
                            GIT_CEILING_DIRECTORIES=${parent}
                            ${TUTORIAL_GIT} apply -p1 --whitespace=nowarn ${file}
                    WORKING_DIRECTORY ${out_dir} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                    ERROR_VARIABLE out)
  elseif(TUTORIAL_PATCH)
    execute_process(COMMAND ${TUTORIAL_PATCH} -p1 --batch --forward --silent
                            --no-backup-if-mismatch -r - -i ${file}
                    WORKING_DIRECTORY ${out_dir} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                    ERROR_VARIABLE out)
  else()
    set(${error_var} "neither git nor patch found to apply it" PARENT_SCOPE)
    return()
  endif()
  if(NOT rc EQUAL 0)
    string(STRIP "${out}" out)
    set(${error_var} "does not apply to the current solution: ${out}" PARENT_SCOPE)
    return()
  endif()
  foreach(f IN LISTS files)
    file(READ ${chapter_dir}/${f} before)
    file(READ ${out_dir}/${f} after)
    if(before STREQUAL after)
      set(${error_var} "the diff leaves ${f} unchanged" PARENT_SCOPE)
      return()
    endif()
  endforeach()
endfunction()

# The exercises of a manifest (exercise_manifest.cmake): M_IDS, and M_<ID>_<FIELD>.
function(tutorial_manifest_exercise)
  cmake_parse_arguments(X "" "ID;CHAPTER;TITLE;SOURCES;SPEED;PREDICTION"
                        "CASES;SANITIZE;SANITIZE_CASES;CPU_CASES;LESSON" ${ARGN})
  set(M_IDS ${M_IDS} ${X_ID} PARENT_SCOPE)
  foreach(field CHAPTER TITLE SOURCES CASES SANITIZE SANITIZE_CASES CPU_CASES LESSON SPEED
                PREDICTION)
    set(M_${X_ID}_${field} "${X_${field}}" PARENT_SCOPE)
  endforeach()
endfunction()
macro(_mistake_read_manifest manifest)
  set(M_IDS)
  include(${manifest})
endmacro()

# The tests an exercise has, as suffixes of <ID>.: its cases, <case>.<tool> for each sanitized
# case, speed, prediction (tutorial_exercise's LESSON and a corpus entry's `# expect:` name them).
function(_tutorial_test_suffixes out cases sanitize_cases tools speed prediction)
  set(suffixes ${cases})
  foreach(case IN LISTS sanitize_cases)
    foreach(tool IN LISTS tools)
      list(APPEND suffixes ${case}.${tool})
    endforeach()
  endforeach()
  if(speed)
    list(APPEND suffixes speed)
  endif()
  if(prediction)
    list(APPEND suffixes prediction)
  endif()
  set(${out} ${suffixes} PARENT_SCOPE)
endfunction()
function(_mistake_test_suffixes id out)
  _tutorial_test_suffixes(suffixes "${M_${id}_CASES}" "${M_${id}_SANITIZE_CASES}"
                          "${M_${id}_SANITIZE}" "${M_${id}_SPEED}" "${M_${id}_PREDICTION}")
  set(${out} ${suffixes} PARENT_SCOPE)
endfunction()

# The file a solutions build grades a prediction against: the answer in tests/answers/ where the
# chapter has one, else the file PREDICTION names.
function(_tutorial_prediction_file out chapter_dir prediction)
  get_filename_component(base ${prediction} NAME)
  if(EXISTS ${chapter_dir}/tests/answers/${base})
    set(${out} ${chapter_dir}/tests/answers/${base} PARENT_SCOPE)
  else()
    set(${out} ${chapter_dir}/${prediction} PARENT_SCOPE)
  endif()
endfunction()

# Copies target properties from one target to another (the real grader's to the corpus's).
function(_mistake_copy_props from to)
  foreach(prop IN LISTS ARGN)
    get_target_property(value ${from} ${prop})
    if(NOT value STREQUAL "value-NOTFOUND")
      set_property(TARGET ${to} PROPERTY ${prop} "${value}")
    endif()
  endforeach()
endfunction()

# Checks every entry of a chapter folder against the manifest: header, names, and the diff
# applied under work_dir. Returns the problems, one line each, in <out> (empty: all good).
function(_mistake_check_chapter chapter_dir work_dir out)
  get_filename_component(chapter ${chapter_dir} NAME)
  file(GLOB entries ${chapter_dir}/tests/mistakes/*.patch)
  set(problems "")
  set(count 0)
  foreach(file IN LISTS entries)
    math(EXPR count "${count} + 1")
    _mistake_read(${file} E)
    set(problem "${E_ERROR}")
    if(NOT problem AND E_KIND STREQUAL "generated")
      set(problem "kind generated belongs in a generated set (tools/mutants.py), not the corpus. ")
    endif()
    if(NOT problem)
      if(NOT E_EXERCISE IN_LIST M_IDS OR NOT M_${E_EXERCISE}_CHAPTER STREQUAL chapter)
        set(problem "no exercise ${E_EXERCISE} in ${chapter}. ")
      else()
        foreach(f IN LISTS E_FILES)
          if(NOT f IN_LIST M_${E_EXERCISE}_SOURCES)
            string(APPEND problem "it changes ${f}, which is not a file of ${E_EXERCISE} "
                   "(${M_${E_EXERCISE}_SOURCES}). ")
          endif()
        endforeach()
        if(E_KIND STREQUAL "mistake")
          _mistake_test_suffixes(${E_EXERCISE} suffixes)
          string(LENGTH "${E_EXERCISE}." skip)
          string(SUBSTRING "${E_EXPECT}" ${skip} -1 suffix)
          if(NOT suffix IN_LIST suffixes)
            string(REPLACE ";" " " known "${suffixes}")
            string(APPEND problem "expect ${E_EXPECT}: ${E_EXERCISE} has no such test (${known}). ")
          endif()
        endif()
      endif()
    endif()
    if(NOT problem)
      _mistake_apply(${file} ${chapter_dir} "${E_FILES}" ${work_dir}/${E_NAME} why)
      set(problem "${why}")
    endif()
    if(problem)
      get_filename_component(base ${file} NAME)
      string(APPEND problems "${chapter}/tests/mistakes/${base}: ${problem}\n")
    endif()
  endforeach()
  set(${out} "${problems}" PARENT_SCOPE)
  set(${out}_COUNT ${count} PARENT_SCOPE)
endfunction()

# ---- Configure time --------------------------------------------------------------------------
if(NOT CMAKE_SCRIPT_MODE_FILE)
  option(TUTORIAL_MISTAKES
         "Build a grader per entry of the chapters' tests/mistakes/ corpus (cmake/Mistakes.cmake)" OFF)
  if(TUTORIAL_MISTAKES AND TUTORIAL_EXERCISES)
    message(FATAL_ERROR "TUTORIAL_MISTAKES patches the solutions: configure it without "
                        "TUTORIAL_EXERCISES (a build of the solutions)")
  endif()
  set(TUTORIAL_MISTAKES_MANIFEST ${CMAKE_BINARY_DIR}/mistakes_manifest.cmake)
  set(TUTORIAL_MISTAKES_ENTRIES ${CMAKE_BINARY_DIR}/mistakes_entries.cmake)
  file(WRITE ${TUTORIAL_MISTAKES_MANIFEST}
       "# Written at configure time by cmake/Mistakes.cmake: one entry of the corpus a line.\n")
  file(WRITE ${TUTORIAL_MISTAKES_ENTRIES}
       "# Written at configure time by cmake/Mistakes.cmake: the corpus, for its runner.\n")
  # The committed list of equivalent generated mutants, held against what tools/mutants.py
  # generates (needs universalmutator: the test skips without it, except in CI, which installs it
  # and sets TUTORIAL_REQUIRE_MUTATOR=1).
  find_program(TUTORIAL_PYTHON3 NAMES python3)
  if(TUTORIAL_PYTHON3 AND NOT EXISTS ${PROJECT_SOURCE_DIR}/.student-copy
     AND NOT TEST classroom.generated_mutants.equivalents)
    add_test(NAME classroom.generated_mutants.equivalents
             COMMAND ${TUTORIAL_PYTHON3} ${PROJECT_SOURCE_DIR}/tools/mutants.py check-equivalents)
    set_tests_properties(classroom.generated_mutants.equivalents PROPERTIES
                         LABELS "cpu;classroom" SKIP_RETURN_CODE 77)
  endif()
  set(TUTORIAL_GENERATED_MUTANTS "" CACHE PATH
      "A folder of generated mutants (tools/mutants.py sample --out): a grader for each")
  set(TUTORIAL_GENERATED_TEST_TIMEOUT "" CACHE STRING
      "Seconds a generated mutant's plain case may run (3x a sanitizer test, 2x a serial case or speed; never above the test's own limit); empty: the tests' own limits")
  if(TUTORIAL_GENERATED_TEST_TIMEOUT AND NOT TUTORIAL_GENERATED_TEST_TIMEOUT MATCHES "^[1-9][0-9]*$")
    message(FATAL_ERROR "TUTORIAL_GENERATED_TEST_TIMEOUT: '${TUTORIAL_GENERATED_TEST_TIMEOUT}' is not a "
                        "whole number of seconds")
  endif()
  if(TUTORIAL_GENERATED_MUTANTS AND TUTORIAL_EXERCISES)
    message(FATAL_ERROR "TUTORIAL_GENERATED_MUTANTS patches the solutions: configure it without "
                        "TUTORIAL_EXERCISES (a build of the solutions)")
  endif()
  file(WRITE ${CMAKE_BINARY_DIR}/generated_manifest.cmake
       "# Written at configure time by cmake/Mistakes.cmake: one generated mutant a line.\n")
  file(WRITE ${CMAKE_BINARY_DIR}/generated_entries.cmake
       "# Written at configure time by cmake/Mistakes.cmake: the generated mutants.\n")
  file(WRITE ${CMAKE_BINARY_DIR}/generated_tests.txt "")
  file(WRITE ${CMAKE_BINARY_DIR}/generated_stale.txt "")
  if(TUTORIAL_MISTAKES AND NOT TARGET mistake_graders)
    add_custom_target(mistake_graders COMMENT "A grader per entry of the mistakes corpus")
    add_dependencies(mistake_graders tutorial_gpu_probe)
  endif()
endif()

# Called once per chapter folder (tutorial_program defers it to the end of the folder's
# CMakeLists.txt, when its exercises and their tests are complete).
function(_tutorial_mistakes_defer)
  get_property(done DIRECTORY PROPERTY _TUTORIAL_MISTAKES_DEFERRED)
  if(NOT done)
    set_property(DIRECTORY PROPERTY _TUTORIAL_MISTAKES_DEFERRED ON)
    cmake_language(DEFER CALL tutorial_mistakes)
  endif()
endfunction()

function(tutorial_mistakes)
  file(GLOB entries CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/tests/mistakes/*.patch)
  get_filename_component(chapter ${CMAKE_CURRENT_SOURCE_DIR} NAME)
  # Generated mutants (tools/mutants.py sample --out DIR): DIR/<chapter>/<id>.patch, graded like
  # corpus entries but labelled `generated` (not `mistake`), listed in generated_entries.cmake.
  set(generated)
  if(TUTORIAL_GENERATED_MUTANTS AND NOT EXISTS ${PROJECT_SOURCE_DIR}/.student-copy)
    file(GLOB generated ${TUTORIAL_GENERATED_MUTANTS}/${chapter}/*.patch)
  endif()
  if((NOT entries AND NOT generated) OR EXISTS ${PROJECT_SOURCE_DIR}/.student-copy)
    return() # a student copy has no solutions to patch
  endif()
  if(entries)
    # The CPU test: every entry well-formed and applying to the current solution.
    add_test(NAME ${chapter}.mistakes.corpus
             COMMAND ${CMAKE_COMMAND} -DCHECK=${CMAKE_CURRENT_SOURCE_DIR}
                     -DMANIFEST=${TUTORIAL_EXERCISE_MANIFEST}
                     -DWORK=${CMAKE_CURRENT_BINARY_DIR}/mistakes_check
                     -P ${_tutorial_mistakes_dir}/Mistakes.cmake)
    set_tests_properties(${chapter}.mistakes.corpus PROPERTIES LABELS "${chapter};cpu;classroom")
  endif()
  if(NOT TUTORIAL_MISTAKES)
    set(entries) # the generated mutants alone
  endif()
  if(NOT entries AND NOT generated)
    return()
  endif()
  if(NOT TARGET mistake_graders)
    add_custom_target(mistake_graders COMMENT "A grader per entry of the mistakes corpus")
    add_dependencies(mistake_graders tutorial_gpu_probe)
  endif()

  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${entries})
  _mistake_read_manifest(${TUTORIAL_EXERCISE_MANIFEST})
  set(work ${CMAKE_BINARY_DIR}/mistakes/${chapter})
  if(entries)
    _mistake_check_chapter(${CMAKE_CURRENT_SOURCE_DIR} ${work}/.applied problems)
    if(problems)
      message(FATAL_ERROR "TUTORIAL_MISTAKES: the corpus of ${chapter} has bad entries:\n${problems}")
    endif()
  endif()
  foreach(file IN LISTS generated)
    _mistake_read(${file} E)
    set(why "${E_ERROR}")
    if(NOT why AND NOT E_KIND STREQUAL "generated")
      set(why "kind ${E_KIND}: a generated set holds kind generated only")
    endif()
    if(NOT why AND (NOT E_EXERCISE IN_LIST M_IDS OR NOT M_${E_EXERCISE}_CHAPTER STREQUAL chapter))
      set(why "no exercise ${E_EXERCISE} in ${chapter}")
    endif()
    if(NOT why)
      _mistake_apply(${file} ${CMAKE_CURRENT_SOURCE_DIR} "${E_FILES}" ${work}/.applied/${E_NAME} why)
    endif()
    if(why)
      # A solution changed since the sample was drawn: that mutant is left out, and said so.
      message(WARNING "TUTORIAL_GENERATED_MUTANTS: ${file}: ${why} (left out; regenerate the "
                      "set: tools/mutants.py sample)")
      string(REGEX REPLACE "[\r\n|]+" " " why_line "${why}")
      file(APPEND ${CMAKE_BINARY_DIR}/generated_stale.txt "${E_NAME}|${why_line}\n")
      list(REMOVE_ITEM generated ${file})
    endif()
  endforeach()

  foreach(file IN LISTS entries generated)
    _mistake_read(${file} E)
    set(id ${E_EXERCISE})
    set(label mistake)
    set(manifest_file ${TUTORIAL_MISTAKES_MANIFEST})
    set(entries_file ${TUTORIAL_MISTAKES_ENTRIES})
    if(E_KIND STREQUAL "generated")
      set(label generated)
      set(manifest_file ${CMAKE_BINARY_DIR}/generated_manifest.cmake)
      set(entries_file ${CMAKE_BINARY_DIR}/generated_entries.cmake)
    endif()
    set(entry mistake.${E_NAME})
    string(REPLACE "." "\\." entry_regex "${entry}")
    string(REPLACE "." "_" target "mistake_${E_NAME}")
    string(REPLACE "." "_" real "grade_${id}")
    string(REPLACE "." "_" common "mistake_common_${id}")
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${E_FILES})
    # The patched copies (rewritten only when they change: no rebuild at every configure).
    foreach(f IN LISTS E_FILES)
      configure_file(${work}/.applied/${E_NAME}/${f} ${work}/${E_NAME}/${f} COPYONLY)
    endforeach()
    # The exercise's grader sources, compiled once for all its entries.
    get_target_property(real_sources ${real} SOURCES)
    set(student_files)
    foreach(f IN LISTS M_${id}_SOURCES)
      list(APPEND student_files ${CMAKE_CURRENT_SOURCE_DIR}/${f})
    endforeach()
    if(NOT TARGET ${common})
      set(grader_sources)
      foreach(src IN LISTS real_sources)
        get_filename_component(src ${src} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
        if(NOT src IN_LIST student_files)
          list(APPEND grader_sources ${src})
        endif()
      endforeach()
      add_library(${common} OBJECT ${grader_sources})
      _mistake_copy_props(${real} ${common} COMPILE_OPTIONS COMPILE_DEFINITIONS
                          INCLUDE_DIRECTORIES LINK_LIBRARIES COMPILE_FEATURES CUDA_ARCHITECTURES
                          CUDA_SEPARABLE_COMPILATION)
    endif()
    # The entry's grader: the patched copies in place of their solutions.
    set(sources $<TARGET_OBJECTS:${common}>)
    foreach(f IN LISTS M_${id}_SOURCES)
      if(f IN_LIST E_FILES)
        list(APPEND sources ${work}/${E_NAME}/${f})
      else()
        list(APPEND sources ${CMAKE_CURRENT_SOURCE_DIR}/${f})
      endif()
    endforeach()
    add_executable(${target} ${sources})
    _mistake_copy_props(${real} ${target} COMPILE_OPTIONS COMPILE_DEFINITIONS INCLUDE_DIRECTORIES
                        LINK_LIBRARIES LINK_OPTIONS COMPILE_FEATURES CUDA_ARCHITECTURES
                        CUDA_SEPARABLE_COMPILATION)
    set_target_properties(${target} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${work}/${E_NAME})
    add_dependencies(mistake_graders ${target})
    # `cmake --build <dir> --target mistake.<name>`: the grade report's reproduce line for a
    # grader that did not build.
    add_custom_target(${entry} DEPENDS ${target})

    # The exercise's tests, under the entry's name (as tutorial_exercise declares them).
    set(prediction "")
    if(M_${id}_PREDICTION)
      _tutorial_prediction_file(prediction ${CMAKE_CURRENT_SOURCE_DIR} ${M_${id}_PREDICTION})
    endif()
    set(speed 0)
    if(M_${id}_SPEED)
      set(speed 1)
    endif()
    _tutorial_grader_tests(${entry} ${target} "${M_${id}_CASES}" "${M_${id}_CPU_CASES}"
                           "${M_${id}_SANITIZE}" "${M_${id}_SANITIZE_CASES}" ${speed}
                           "${prediction}" "${label};${entry}" "")
    # What the chapter set on the real tests after declaring them (time limit, serial), too.
    get_property(tests DIRECTORY PROPERTY TESTS)
    foreach(test IN LISTS tests)
      if(NOT test MATCHES "^${entry_regex}\\.(.+)$")
        continue()
      endif()
      foreach(prop TIMEOUT RUN_SERIAL RESOURCE_LOCK PROCESSORS ENVIRONMENT)
        get_test_property(${id}.${CMAKE_MATCH_1} ${prop} value)
        if(NOT "${value}" STREQUAL "NOTFOUND" AND NOT "${value}" STREQUAL "")
          set_tests_properties(${test} PROPERTIES ${prop} "${value}")
        endif()
      endforeach()
      if(label STREQUAL "generated")
        # For cmake/run_generated_mutants.sh: A plain cases (run beside other mutants), B
        # sanitizer tests, C the serial cases and speed (alone on the GPU).
        get_test_property(${test} RUN_SERIAL serial)
        set(phase A)
        if(serial OR test MATCHES "\\.speed$")
          set(phase C)
        elseif(test MATCHES "\\.(memcheck|racecheck|synccheck|initcheck)$")
          set(phase B)
        endif()
        file(APPEND ${CMAKE_BINARY_DIR}/generated_tests.txt "${E_NAME}|${test}|${phase}\n")
        if(TUTORIAL_GENERATED_TEST_TIMEOUT)
          # The runner's limit, set here: ctest's --timeout does not override a test's TIMEOUT.
          set(factor 1)
          if(phase STREQUAL "B")
            set(factor 3)
          elseif(phase STREQUAL "C")
            set(factor 2)
          endif()
          math(EXPR limit "${TUTORIAL_GENERATED_TEST_TIMEOUT} * ${factor}")
          get_test_property(${test} TIMEOUT own)
          if(NOT own OR own GREATER limit)
            set_tests_properties(${test} PROPERTIES TIMEOUT ${limit})
          endif()
        endif()
      endif()
    endforeach()

    _tutorial_manifest_line(${manifest_file} ${entry} ${chapter} "${E_NAME}"
                            "${M_${id}_SOURCES}" "${M_${id}_CASES}" "${M_${id}_SANITIZE}"
                            "${M_${id}_SANITIZE_CASES}" "${M_${id}_CPU_CASES}"
                            "${M_${id}_LESSON}" ${speed} "${M_${id}_PREDICTION}")
    file(APPEND ${entries_file}
         "mistake_entry(NAME [==[${E_NAME}]==] EXERCISE [==[${id}]==] KIND [==[${E_KIND}]==] "
         "EXPECT [==[${E_EXPECT}]==] WHAT [==[${E_WHAT}]==] CHAPTER [==[${chapter}]==])\n")
  endforeach()
  list(LENGTH entries count)
  list(LENGTH generated generated_count)
  message(STATUS "Mistakes corpus of ${chapter}: ${count} graders, generated mutants: "
                 "${generated_count} (mistake_graders)")
endfunction()

if(NOT CMAKE_SCRIPT_MODE_FILE)
  return()
endif()

# ---- Script mode: the corpus check (CHECK=<chapter folder>) ------------------------------------
if(CHECK)
  foreach(v MANIFEST WORK)
    if(NOT ${v})
      message(FATAL_ERROR "Mistakes: give -D${v}=... with -DCHECK")
    endif()
  endforeach()
  _mistake_read_manifest(${MANIFEST})
  _mistake_check_chapter(${CHECK} ${WORK} problems)
  if(problems)
    message(FATAL_ERROR "bad entries in the mistakes corpus:\n${problems}")
  endif()
  message("${problems_COUNT} entries: each has its header, names a test of its exercise and "
          "applies cleanly to the current solution")
  return()
endif()

# ---- Script mode: the runner (BUILD_DIR=<a TUTORIAL_MISTAKES build>) --------------------------
if(NOT BUILD_DIR)
  message(FATAL_ERROR "Mistakes: give -DBUILD_DIR=<a build configured with -DTUTORIAL_MISTAKES=ON> "
                      "(or -DCHECK=<chapter folder> for the corpus check)")
endif()
get_filename_component(BUILD_DIR ${BUILD_DIR} ABSOLUTE)
if(NOT OUT)
  set(OUT ${BUILD_DIR})
endif()
get_filename_component(OUT ${OUT} ABSOLUTE)
file(MAKE_DIRECTORY ${OUT})
if(NOT SEED)
  set(SEED 1125)
endif()
if(NOT JOBS)
  cmake_host_system_information(RESULT JOBS QUERY NUMBER_OF_LOGICAL_CORES)
  if(JOBS GREATER 8)
    set(JOBS 8)
  endif()
endif()
set(entry_names)
function(mistake_entry)
  cmake_parse_arguments(X "" "NAME;EXERCISE;KIND;EXPECT;WHAT;CHAPTER" "" ${ARGN})
  set(entry_names ${entry_names} ${X_NAME} PARENT_SCOPE)
  foreach(f EXERCISE KIND EXPECT WHAT CHAPTER)
    set(N_${X_NAME}_${f} "${X_${f}}" PARENT_SCOPE)
  endforeach()
endfunction()
if(NOT EXISTS ${BUILD_DIR}/mistakes_entries.cmake)
  message(FATAL_ERROR "Mistakes: ${BUILD_DIR} has no mistakes_entries.cmake: configure it with "
                      "-DTUTORIAL_MISTAKES=ON")
endif()
include(${BUILD_DIR}/mistakes_entries.cmake)
if(NOT entry_names)
  message(FATAL_ERROR "Mistakes: no corpus entry in ${BUILD_DIR} (TUTORIAL_CHAPTERS?)")
endif()
# ONLY: the entries whose name matches; their tests alone run, and the report scores them alone
# (a manifest of their lines).
set(manifest ${BUILD_DIR}/mistakes_manifest.cmake)
set(only_tests)
if(NOT "${ONLY}" STREQUAL "")
  set(chosen)
  foreach(name IN LISTS entry_names)
    if(name MATCHES "${ONLY}")
      list(APPEND chosen ${name})
    endif()
  endforeach()
  if(NOT chosen)
    message(FATAL_ERROR "Mistakes: no entry's name matches ONLY='${ONLY}'")
  endif()
  set(entry_names ${chosen})
  file(READ ${manifest} all_lines)
  set(only_lines "# The entries of ${manifest} whose name matches ONLY='${ONLY}'.\n")
  set(names_regex "")
  foreach(name IN LISTS entry_names)
    string(REPLACE "." "\\." escaped "${name}")
    if(NOT "${all_lines}" MATCHES "(^|\n)(tutorial_manifest_exercise\\(ID \\[\\[mistake\\.${escaped}\\]\\][^\n]*)")
      message(FATAL_ERROR "Mistakes: ${name} is not in ${manifest}")
    endif()
    string(APPEND only_lines "${CMAKE_MATCH_2}\n")
    if(names_regex)
      string(APPEND names_regex "|")
    endif()
    string(APPEND names_regex "${escaped}")
  endforeach()
  set(manifest ${OUT}/mistakes_manifest_only.cmake)
  file(WRITE ${manifest} "${only_lines}")
  set(only_tests -R "^mistake\\.(${names_regex})\\.")
endif()
list(LENGTH entry_names entry_count)
set(only_text "")
if(NOT "${ONLY}" STREQUAL "")
  set(only_text " matching ONLY='${ONLY}'")
endif()
message("Mistakes: ${entry_count} entries${only_text}, seed ${SEED} (TUT_EXERCISE_SEED=${SEED})")

get_filename_component(cmake_bin ${CMAKE_COMMAND} DIRECTORY)
find_program(CTEST ctest HINTS ${cmake_bin} NO_DEFAULT_PATH)
if(NOT CTEST)
  find_program(CTEST ctest)
endif()
set(junit ${OUT}/mistakes_junit.xml)
file(REMOVE ${junit})
set(cmd ${CMAKE_COMMAND} -E env TUT_EXERCISE_SEED=${SEED}
    ${CTEST} --test-dir ${BUILD_DIR} -L "^mistake$" ${only_tests} -j ${JOBS} --output-junit ${junit})
if(CMAKE_VERSION VERSION_GREATER_EQUAL 3.24)
  list(APPEND cmd --test-output-size-passed 65536 --test-output-size-failed 65536)
endif()
execute_process(COMMAND ${cmd} RESULT_VARIABLE rc OUTPUT_VARIABLE ctest_out ERROR_VARIABLE ctest_out)
file(WRITE ${OUT}/mistakes-ctest.log "${ctest_out}")

# The scores: the grade report's, over the entries' manifest.
execute_process(COMMAND ${CMAKE_COMMAND} -DBUILD_DIR=${BUILD_DIR}
                        -DMANIFEST=${manifest} -DJUNIT=${junit}
                        -DSEED=${SEED} -DCSV=${OUT}/mistakes-grades.csv
                        -DJSON=${OUT}/mistakes-grades.json
                        -P ${_tutorial_mistakes_dir}/GradeReport.cmake
                RESULT_VARIABLE rc OUTPUT_VARIABLE report ERROR_VARIABLE report)
file(WRITE ${OUT}/mistakes-report.log "${report}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "Mistakes: the grade report failed:\n${report}")
endif()
file(STRINGS ${OUT}/mistakes-grades.csv csv_rows)
list(GET csv_rows 0 header)
string(REPLACE "," ";" header "${header}")
list(FIND header exercise col_id)
list(FIND header points col_points)
foreach(row IN LISTS csv_rows)
  string(REGEX MATCH "^([^,]*),[^,]*,\"[^\"]*\",([0-9.]+)," m "${row}")
  if(m AND col_id EQUAL 0 AND col_points EQUAL 3)
    set(P_${CMAKE_MATCH_1} ${CMAKE_MATCH_2})
  endif()
endforeach()

# Each test's status, from the results (as the grade report reads them).
file(READ ${junit} xml)
string(REGEX MATCHALL "<testcase name=\"mistake\\.[^\"]*\"[^>]*>" tags "${xml}")
foreach(tag IN LISTS tags)
  string(REGEX MATCH "name=\"([^\"]*)\"" m "${tag}")
  set(name ${CMAKE_MATCH_1})
  if(tag MATCHES " status=\"run\"")
    set(T_${name} pass)
  elseif(tag MATCHES " status=\"(notrun|disabled)\"")
    set(T_${name} skip)
  else()
    set(T_${name} fail)
  endif()
endforeach()
string(REGEX MATCHALL "<testcase name=\"mistake\\.[^\"]*\"" all_tests "${xml}")

set(csv "entry,exercise,kind,points,expected,failed,verdict")
set(table "")
set(bad 0)
set(unchecked 0)
foreach(name IN LISTS entry_names)
  set(id ${N_${name}_EXERCISE})
  set(points "${P_mistake.${name}}")
  if(points STREQUAL "")
    set(points "?")
  endif()
  set(failed)
  set(not_passed)
  set(skipped)
  foreach(t IN LISTS all_tests)
    string(REGEX REPLACE "^<testcase name=\"" "" t "${t}")
    string(REGEX REPLACE "\"$" "" t "${t}")
    string(LENGTH "mistake.${name}." prefix_length)
    string(SUBSTRING "${t}" 0 ${prefix_length} head)
    if(NOT head STREQUAL "mistake.${name}.")
      continue()
    endif()
    string(SUBSTRING "${t}" ${prefix_length} -1 suffix)
    if(T_${t} STREQUAL "fail")
      list(APPEND failed ${id}.${suffix})
    elseif(NOT T_${t} STREQUAL "pass")
      list(APPEND not_passed "${id}.${suffix} (${T_${t}})")
      list(APPEND skipped ${id}.${suffix})
    endif()
  endforeach()
  if(N_${name}_KIND STREQUAL "alternative")
    if(points STREQUAL "10.00")
      set(verdict "ok: scores 10")
    else()
      set(verdict "WRONG: a correct solution scores ${points}")
    endif()
  elseif(N_${name}_EXPECT IN_LIST skipped AND NOT N_${name}_EXPECT IN_LIST failed)
    # Its expected test cannot run on this machine (a mistake only two GPUs show, on one):
    # named, not counted either way.
    set(verdict "not checkable here: ${N_${name}_EXPECT} skipped (scores ${points})")
    math(EXPR unchecked "${unchecked} + 1")
  elseif(points STREQUAL "10.00" OR points STREQUAL "?")
    set(verdict "WRONG: not caught (scores ${points})")
  elseif(NOT N_${name}_EXPECT IN_LIST failed)
    set(verdict "WRONG: ${N_${name}_EXPECT} did not fail")
  else()
    set(verdict "ok: caught by ${N_${name}_EXPECT}")
  endif()
  if(verdict MATCHES "^WRONG")
    math(EXPR bad "${bad} + 1")
  endif()
  list(JOIN failed " " failed_text)
  list(JOIN not_passed " " skipped_text)
  string(APPEND csv "\n${name},${id},${N_${name}_KIND},${points},${N_${name}_EXPECT},"
         "${failed_text},${verdict}")
  string(APPEND table "${name}  ${N_${name}_KIND}  ${points}/10  failed: ${failed_text}")
  if(skipped_text)
    string(APPEND table "  (skipped or not run: ${skipped_text})")
  endif()
  string(APPEND table "\n    -> ${verdict}\n")
endforeach()
file(WRITE ${OUT}/mistakes.csv "${csv}\n")
message("\n===== Mistakes corpus (seed ${SEED}): ${entry_count} entries\n${table}"
        "${bad} wrong of ${entry_count}, ${unchecked} not checkable on this machine. Written: "
        "${OUT}/mistakes.csv, the scores' report "
        "${OUT}/mistakes-report.log, ctest's ${OUT}/mistakes-ctest.log")
if(bad GREATER 0)
  message(FATAL_ERROR "Mistakes: ${bad} entries not graded as they must be")
endif()
if(entry_count GREATER 0 AND unchecked EQUAL entry_count)
  message(FATAL_ERROR "Mistakes: no entry could be checked on this machine (no GPU, or only "
                      "entries that need more GPUs than it has)")
endif()
