# The smallest accepted sizes, program by program: each program must run right (exit 0; 77 with
# no GPU) at the smallest value each of its size options accepts, and refuse one below with
# exit 2 before it looks for a GPU. A size that is accepted and then judged wrong, or refused
# late, or crashes, fails here. Two tests per row:
#   sizes.<target>.<args>          GPU: the smallest accepted value (labels sizes, gpu)
#   sizes.<target>.<args>.below    CPU: one below, exit 2 (labels sizes, cpu)
# A row is "target | arguments at the smallest | arguments one below" (the third may be empty:
# nothing below can be written). A row whose target this build lacks (a chapter left out) adds
# nothing. A new program: add its rows here.
#
# Programs with no size option (nothing to walk): plain_matmul, device_limits, error_check,
# first_kernel, shared_memory, thread_ids, warps, shared_function.
function(tutorial_smallest_sizes)
  set(rows
    # ---- the plain programs (*/plain_*.cu)
    "plain_vecadd            | --n 1                     | --n 0"
    "plain_heat1d            | --points 2                | --points 1"
    "plain_heat1d            | --steps 0                 | --steps -1"
    "plain_sessionize        | 1                         | 0"
    "plain_montecarlo        | 2                         | 1"
    "plain_montecarlo        | 3                         |"
    "plain_montecarlo        | 99                        |"
    "plain_montecarlo        | 100                       |"
    "plain_streams           | 1                         | 0"
    "plain_histogram         | 0                         | -1"
    "plain_histogram         | 1                         |"
    "plain_multi_gpu         | 1                         | 0"
    # ---- the basics (01_vecadd/basics/*.cu) that take a size
    "coalescing              | --n 1                     | --n 0"
    "unified_memory          | --n 1 --reps 1            | --n 0"
    "unified_memory          | --n 1 --reps 1            | --reps 0"
    "warp_shuffle            | --n 1                     | --n 0"
    # ---- the chapter programs' size options
    "vecadd                  | --n 1                     | --n 0"
    "grid_stride             | --n 1                     | --n 0"
    "grid_stride             | --blocks 1 --threads 1    | --blocks 0"
    "grid_stride             | --blocks 1 --threads 1    | --threads 0"
    "heat1d                  | --points 2                | --points 1"
    "heat1d                  | --points 2 --steps 0      | --steps -1"
    "multi_heat1d            | --points 2 --reps 0       | --points 1"
    "multi_heat1d            | --points 2 --steps 0 --reps 0 | --steps -1"
    "sessionize              | --n 1                     | --n 0"
    "sessionize              | --n 1 --timeout 0         | --timeout -1"
    "montecarlo              | --samples 2               | --samples 1"
    "montecarlo              | --samples 3               |"
    "matmul_demo             | --m 1 --k 1 --n 1         | --m 0"
    "matmul_demo             | --m 1 --k 1 --n 1         | --k 0"
    "matmul_demo             | --m 1 --k 1 --n 1         | --n 0"
    "matmul_debug_release    | --m 1 --k 1 --n 1 --reps 1 | --m 0"
    "streams_pipeline        | --n 1 --streams 1         | --n 0"
    "streams_pipeline        | --n 1 --streams 1 --chunks 1 |"
    "streams_default_stream  | --ms 1                    | --ms 0"
    "atomics_histogram       | --n 0                     | --n -1"
    "atomics_histogram       | --n 1                     |"
    "atomics_dot             | --n 1                     | --n 0"
    "atomics_dot             | --n 1 --blocks 1          | --blocks 0"
    "atomics_race_mutex      | --blocks 1 --threads 1 --rounds 1 | --rounds 0"
    "nccl_allreduce          | --n 1                     | --n 0"
    "nccl_allreduce          | --n 1 --bench --min-bytes 4 --max-bytes 4 | --min-bytes 2"
    "multi_gpu_p2p           | --bytes 1024              | --bytes 1020"
  )
  # Programs that take every visible GPU: one at a time, and in the multi-GPU passes too.
  set(every_gpu plain_multi_gpu multi_heat1d nccl_allreduce multi_gpu_p2p)
  foreach(row IN LISTS rows)
    string(REPLACE "|" ";" fields "${row}")
    list(GET fields 0 target)
    list(GET fields 1 smallest)
    list(GET fields 2 below)
    string(STRIP "${target}" target)
    string(STRIP "${smallest}" smallest)
    string(STRIP "${below}" below)
    if(NOT TARGET ${target})
      continue()
    endif()
    # A stand-in that skips whatever it is given (nccl_allreduce built without NCCL) refuses
    # nothing: its rows would fail the CPU pass.
    get_target_property(always_skips ${target} TUTORIAL_ALWAYS_SKIPS)
    if(always_skips)
      continue()
    endif()
    separate_arguments(smallest_args UNIX_COMMAND "${smallest}")
    string(REGEX REPLACE "[^A-Za-z0-9]+" "_" tag "${smallest}")
    string(REGEX REPLACE "^_|_$" "" tag "${tag}")
    set(name sizes.${target}.${tag})
    if(NOT TEST ${name})
      add_test(NAME ${name}
               COMMAND ${CMAKE_COMMAND} -DEXPECT_EXIT=0 -DEXPECT_OUTPUT= -DSKIP_OK=ON
                       -P ${TUTORIAL_CMAKE_DIR}/ExpectExit.cmake -- $<TARGET_FILE:${target}>
                       ${smallest_args})
      set(labels sizes gpu)
      if(target IN_LIST every_gpu)
        list(APPEND labels multigpu)
        set_tests_properties(${name} PROPERTIES RESOURCE_LOCK all_gpus)
      endif()
      set_tests_properties(${name} PROPERTIES LABELS "${labels}" TIMEOUT 300
                           ENVIRONMENT "NCCL_NVLS_ENABLE=0" SKIP_RETURN_CODE 77
                           SKIP_REGULAR_EXPRESSION "\\[tutorial-skip\\]")
    endif()
    if(below)
      separate_arguments(below_args UNIX_COMMAND "${below}")
      string(REGEX REPLACE "[^A-Za-z0-9]+" "_" below_tag "${below}")
      string(REGEX REPLACE "^_|_$" "" below_tag "${below_tag}")
      add_test(NAME sizes.${target}.${below_tag}.below
               COMMAND ${CMAKE_COMMAND} -DEXPECT_EXIT=2 -DEXPECT_OUTPUT= -DSKIP_OK=OFF
                       -P ${TUTORIAL_CMAKE_DIR}/ExpectExit.cmake -- $<TARGET_FILE:${target}>
                       ${below_args})
      set_tests_properties(sizes.${target}.${below_tag}.below PROPERTIES LABELS "sizes;cpu"
                           TIMEOUT 60)
    endif()
  endforeach()
endfunction()
# At the end of the top-level CMakeLists.txt, when every chapter's targets exist.
cmake_language(DEFER DIRECTORY ${PROJECT_SOURCE_DIR} CALL tutorial_smallest_sizes)
