# Grades a folder of submissions, one after another, into one CSV (docs/teaching.md).
#
#   cmake -DSUBMISSIONS=<dir> -DOUT=<grades.csv> [options] -P cmake/GradeSubmissions.cmake
#
# <dir>/<student>/<chapter>/exercise/<file>: each student's exercise files, where the student
# edited them (e.g. alice/01_vecadd/exercise/vecadd_kernels.cu; alice/01_vecadd/vecadd_kernels.cu,
# without exercise/, is taken too). Any other file is ignored and said so: a submission cannot
# replace a grader. Each submission is copied over a fresh student copy
# (cmake/ExportStudentCopy.cmake), configured, built and graded in its own build folder, so one
# cannot affect another; then that folder is removed. One CSV row per student and exercise (the
# columns of cmake/GradeReport.cmake, after `student`; each grading draws its own seed, in the
# row with the why and reproduce columns).
#
# Options (-D...):
#   TIME_LIMIT        seconds for one submission's tests (default 900); what has not reported by
#                     then scores 0, "not run"
#   BUILD_TIME_LIMIT  seconds for one submission's configure + build (default 1800)
#   CHAPTERS          the chapters to grade (default: those the submissions hold)
#   ARCHS             CMAKE_CUDA_ARCHITECTURES (default: the suite's list; `native` on a GPU
#                     machine builds much faster)
#   GENERATOR         CMake generator (default Ninja when found)
#   WORK              scratch folder (default <OUT>.work); logs stay in WORK/<student>/
#   CPU_ONLY          ON: hide the GPUs; every GPU test reports skipped (the CI test)
#   JOBS              build jobs (default: the machine's cores)
#   CUDA_COMPILER     CMAKE_CUDA_COMPILER of the builds (default: found as usual)
#   BUILD_RPATH       CMAKE_BUILD_RPATH of the builds (a toolkit the loader does not know)
#   KEEP              ON: keep each submission's build folder
cmake_minimum_required(VERSION 3.22)

foreach(required SUBMISSIONS OUT)
  if(NOT ${required})
    message(FATAL_ERROR "GradeSubmissions: give -D${required}=...\n"
                        "  cmake -DSUBMISSIONS=<dir> -DOUT=<grades.csv> -P cmake/GradeSubmissions.cmake")
  endif()
endforeach()
get_filename_component(SUBMISSIONS ${SUBMISSIONS} ABSOLUTE)
get_filename_component(OUT ${OUT} ABSOLUTE)
if(NOT IS_DIRECTORY ${SUBMISSIONS})
  message(FATAL_ERROR "GradeSubmissions: ${SUBMISSIONS} is not a folder")
endif()
get_filename_component(SOURCE ${CMAKE_CURRENT_LIST_DIR}/.. ABSOLUTE)
if(NOT TIME_LIMIT)
  set(TIME_LIMIT 900)
endif()
if(NOT BUILD_TIME_LIMIT)
  set(BUILD_TIME_LIMIT 1800)
endif()
if(NOT WORK)
  set(WORK ${OUT}.work)
endif()
get_filename_component(WORK ${WORK} ABSOLUTE)
if(NOT JOBS)
  cmake_host_system_information(RESULT JOBS QUERY NUMBER_OF_LOGICAL_CORES)
endif()
if(NOT GENERATOR)
  find_program(ninja ninja)
  if(ninja)
    set(GENERATOR Ninja)
  else()
    set(GENERATOR "Unix Makefiles")
  endif()
endif()
# Keep building the other graders when one student file does not compile.
set(keep_going)
if(GENERATOR STREQUAL "Ninja")
  set(keep_going -- -k 0)
elseif(GENERATOR MATCHES "Makefiles")
  set(keep_going -- -k)
endif()

# The files a student may hand in: every <chapter>/exercise/<file> (also accepted as
# <chapter>/<file>).
set(allowed)
file(GLOB chapter_dirs RELATIVE ${SOURCE} ${SOURCE}/[0-9][0-9]_*)
foreach(chapter IN LISTS chapter_dirs)
  file(GLOB_RECURSE files RELATIVE ${SOURCE}/${chapter}/exercise ${SOURCE}/${chapter}/exercise/*)
  foreach(f IN LISTS files)
    list(APPEND allowed ${chapter}/exercise/${f})
  endforeach()
endforeach()

file(GLOB students RELATIVE ${SUBMISSIONS} ${SUBMISSIONS}/*)
list(SORT students)
set(student_dirs)
foreach(s IN LISTS students)
  if(IS_DIRECTORY ${SUBMISSIONS}/${s})
    if(NOT s MATCHES "^[A-Za-z0-9][A-Za-z0-9._-]*$")
      message(WARNING "GradeSubmissions: skipping '${s}': use letters, digits, . _ - in folder "
                      "names, starting with a letter or digit")
      continue()
    endif()
    list(APPEND student_dirs ${s})
  endif()
endforeach()
if(NOT student_dirs)
  message(FATAL_ERROR "GradeSubmissions: no student folders in ${SUBMISSIONS}")
endif()

if(NOT CHAPTERS)
  foreach(s IN LISTS student_dirs)
    file(GLOB held RELATIVE ${SUBMISSIONS}/${s} ${SUBMISSIONS}/${s}/[0-9][0-9]_*)
    list(APPEND CHAPTERS ${held})
  endforeach()
  list(REMOVE_DUPLICATES CHAPTERS)
  list(SORT CHAPTERS)
endif()
if(NOT CHAPTERS)
  message(FATAL_ERROR "GradeSubmissions: no <student>/<chapter>/ folders in ${SUBMISSIONS}")
endif()
string(REPLACE ";" "\\;" chapters_arg "${CHAPTERS}")
message(STATUS "Grading ${SUBMISSIONS}: students ${student_dirs}; chapters ${CHAPTERS}; "
               "time limit ${TIME_LIMIT} s per submission")

# One clean student copy, copied again for each submission (a name no student folder can have).
set(clean ${WORK}/.clean)
execute_process(COMMAND ${CMAKE_COMMAND} -DDEST=${clean} -DFORCE=ON -DSOURCE=${SOURCE}
                        "-DEXCLUDE=${SUBMISSIONS};${WORK}"
                        -P ${SOURCE}/cmake/ExportStudentCopy.cmake
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "GradeSubmissions: the student copy failed")
endif()

set(csv_header "")
set(csv_rows "")
set(summary "")
foreach(student IN LISTS student_dirs)
  set(dir ${WORK}/${student})
  file(REMOVE_RECURSE ${dir})
  file(MAKE_DIRECTORY ${dir})
  file(COPY ${clean}/ DESTINATION ${dir}/src)
  set(log ${dir}/grading.log)
  file(WRITE ${log} "Submission ${SUBMISSIONS}/${student}\n")

  file(GLOB_RECURSE handed RELATIVE ${SUBMISSIONS}/${student} ${SUBMISSIONS}/${student}/*)
  set(taken 0)
  foreach(f IN LISTS handed)
    set(target_path "${f}")
    if(NOT f IN_LIST allowed AND f MATCHES "^([0-9][0-9]_[^/]+)/(.+)$")
      set(target_path "${CMAKE_MATCH_1}/exercise/${CMAKE_MATCH_2}")
    endif()
    if(target_path IN_LIST allowed)
      file(COPY_FILE ${SUBMISSIONS}/${student}/${f} ${dir}/src/${target_path})
      math(EXPR taken "${taken} + 1")
    else()
      file(APPEND ${log} "ignored ${f}: not an exercise file\n")
      message(STATUS "${student}: ignored ${f} (not an exercise file)")
    endif()
  endforeach()

  set(config_args -S ${dir}/src -B ${dir}/build -G "${GENERATOR}" -DCMAKE_BUILD_TYPE=Release
      -DTUTORIAL_EXERCISES=ON "-DTUTORIAL_CHAPTERS=${chapters_arg}")
  if(ARCHS)
    list(APPEND config_args "-DCMAKE_CUDA_ARCHITECTURES=${ARCHS}")
  endif()
  if(CUDA_COMPILER)
    list(APPEND config_args "-DCMAKE_CUDA_COMPILER=${CUDA_COMPILER}")
  endif()
  if(BUILD_RPATH)
    list(APPEND config_args "-DCMAKE_BUILD_RPATH=${BUILD_RPATH}")
  endif()
  string(TIMESTAMP start "%s")
  execute_process(COMMAND ${CMAKE_COMMAND} ${config_args} TIMEOUT ${BUILD_TIME_LIMIT}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  file(APPEND ${log} "${out}")
  set(note "")
  if(NOT rc EQUAL 0)
    set(note "configure failed")
  else()
    string(TIMESTAMP now "%s")
    math(EXPR left "${BUILD_TIME_LIMIT} - (${now} - ${start})")
    if(left LESS 1)
      set(left 1)
    endif()
    execute_process(COMMAND ${CMAKE_COMMAND} --build ${dir}/build --parallel ${JOBS}
                            --target tutorial_graders tutorial_gpu_probe ${keep_going}
                    TIMEOUT ${left} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
    file(APPEND ${log} "${out}")
    if(rc MATCHES "timeout")
      set(note "build time limit")
    elseif(NOT rc EQUAL 0)
      # Not a note for every exercise: the report says which graders were not built.
      message(STATUS "${student}: some files do not compile; see ${log}")
    endif()
  endif()
  if(note STREQUAL "configure failed")
    # No tests to run: a manifest from the clean copy says which exercises score 0.
    message(STATUS "${student}: ${note}; see ${log}")
    file(APPEND ${log} "${note}\n")
  endif()

  set(report_args -DSTUDENT=${student} -DCSV=${dir}/grades.csv -DJSON=${dir}/grades.json
      "-DLABEL=exercise" -DTIME_LIMIT=${TIME_LIMIT} "-DNOTE=${note}" -DQUIET=ON)
  if(CPU_ONLY)
    list(APPEND report_args -DCPU_ONLY=ON)
  endif()
  if(note STREQUAL "configure failed")
    list(APPEND report_args -DMANIFEST=${dir}/manifest.cmake -DJUNIT=${dir}/none.xml)
    file(WRITE ${dir}/manifest.cmake "")
    list(REMOVE_AT config_args 0 1 2 3) # -S <submission> -B <build>: the clean copy's instead
    execute_process(COMMAND ${CMAKE_COMMAND} -S ${clean} -B ${dir}/clean-build ${config_args}
                    OUTPUT_QUIET ERROR_QUIET)
    if(EXISTS ${dir}/clean-build/exercise_manifest.cmake)
      file(COPY_FILE ${dir}/clean-build/exercise_manifest.cmake ${dir}/manifest.cmake)
    endif()
  else()
    list(APPEND report_args -DBUILD_DIR=${dir}/build)
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} ${report_args} -P ${SOURCE}/cmake/GradeReport.cmake
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  file(APPEND ${log} "${out}")
  if(NOT rc EQUAL 0 OR NOT EXISTS ${dir}/grades.csv)
    message(WARNING "${student}: the grade report failed; see ${log}")
    continue()
  endif()
  file(STRINGS ${dir}/grades.csv lines)
  list(GET lines 0 csv_header)
  list(REMOVE_AT lines 0)
  foreach(line IN LISTS lines)
    string(APPEND csv_rows "${line}\n")
  endforeach()
  file(READ ${dir}/grades.json json)
  string(REGEX MATCH "\"total\": ([0-9.]+)" _ "${json}")
  set(total ${CMAKE_MATCH_1})
  string(REGEX MATCH "\"max_points\": ([0-9]+)" _ "${json}")
  string(APPEND summary "  ${student}: ${total} of ${CMAKE_MATCH_1} points\n")
  if(note)
    string(APPEND summary "    (${note}: ${log})\n")
  endif()
  message(STATUS "${student}: ${total} of ${CMAKE_MATCH_1} points ${note}")
  if(NOT KEEP)
    file(REMOVE_RECURSE ${dir}/build ${dir}/src ${dir}/clean-build)
  endif()
endforeach()

if(NOT KEEP)
  file(REMOVE_RECURSE ${clean})
endif()
file(WRITE ${OUT} "${csv_header}\n${csv_rows}")
message("\n===== Submissions graded: ${OUT}\n${summary}")
