# The smallest accepted values, program by program: each program must run right (exit 0; 77 with
# no GPU) at the smallest value each of its numeric options accepts, and refuse one below with
# exit 2 before it looks for a GPU. A value that is accepted and then judged wrong, or refused
# late, or crashes, fails here. The tests of a row:
#   sizes.<target>.<args>               GPU: the smallest accepted value (labels sizes, gpu)
#   sizes.<target>.<args>.below         CPU: one below, exit 2 and the message the program
#                                       prints for it (`messages`, `usage_lines`, or the common
#                                       parser's "<option> must ... (got <value>)"); and, with no
#                                       GPU visible, the smallest gets past the arguments (exit 77)
#   sizes.<target>.<option>.not_a_number, .overflow
#                                       CPU: 12abc, and a value too large to hold, exit 2 and the
#                                       message the program prints for it (`messages`,
#                                       `usage_lines`, or the common parser's "<option> expects
#                                       ... (got '<value>')")
#                                       (the CPU tests: labels sizes, cpu; refused.cmake)
#   sizes.every_option_walked           CPU: each program's usage (--help) against these rows
# A row is "target | arguments at the smallest | arguments one below [| overflowing value]". The
# second may be empty for an option that is not a size (its refusals are checked, no GPU run);
# the third may be empty (nothing below can be written: an extra point of the walk). The option
# a row refuses is the last one of its third field (a program's only argument when it takes no
# options); its not-a-number and overflow tests replace that value (overflow: 20 nines unless the
# row gives another: a real number's, 1e999, since 20 nines is only 1e20 to it). A row whose
# target this build lacks (a chapter left out) adds nothing.
#
# Every executable of the build is a program of the walk except those `not_programs_regex` names;
# sizes.every_option_walked fails when a program's usage lists a numeric option that no row
# refuses and `exempt` does not name. A new program or option: add its rows here.
function(tutorial_smallest_sizes)
  set(rows
    # ---- the plain programs (*/plain_*.cu)
    "plain_vecadd            | --n 1                     | --n 0"
    "plain_vecadd            | --n 1 --seed 0            | --seed -1"
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
    "warp_shuffle            | --n 1 --seed 0            | --seed -1"
    # ---- the chapter programs' options
    "vecadd                  | --n 1                     | --n 0"
    "vecadd                  | --n 1 --seed 0            | --seed -1"
    "vecadd                  | --n 1 --precision f32 --bench --max-n 1024 --reps 1 --batch 1 | --max-n 1023"
    "vecadd                  | --n 1 --precision f32 --bench --max-n 1024 --reps 1 --batch 1 | --reps 0"
    "vecadd                  | --n 1 --precision f32 --bench --max-n 1024 --reps 1 --batch 1 | --batch 0"
    "grid_stride             | --n 1                     | --n 0"
    "grid_stride             | --blocks 1 --threads 1    | --blocks 0"
    "grid_stride             | --blocks 1 --threads 1    | --threads 0"
    "heat1d                  | --points 2                | --points 1"
    "heat1d                  | --points 2 --steps 0      | --steps -1"
    "heat1d                  | --points 2 --init random --seed 0 | --seed -1"
    "heat1d                  | --points 2 --threads 0    | --threads -1"
    "heat1d                  | --points 2 --threads 32   | --threads 1"
    "heat1d                  | --points 2 --variant temporal --tile 1 --halo 1 | --tile -1"
    "heat1d                  | --points 2 --variant temporal --tile 1 --halo 1 | --halo -1"
    "heat1d                  | --points 2 --reps 1       | --reps 0"
    "heat1d                  | --points 2 --reps 1 --bench --bench-points 2 --bench-steps 1 | --bench-points 1"
    "heat1d                  | --points 2 --reps 1 --bench --bench-points 2 --bench-steps 1 | --bench-steps 0"
    # --k is a ratio, not a size: only its refusals (0 < k <= 0.5) run here.
    "heat1d                  |                           | --k 0 | 1e999"
    "multi_heat1d            | --points 2 --reps 0       | --points 1"
    "multi_heat1d            | --points 2 --reps 0       | --reps -1"
    "multi_heat1d            | --points 2 --steps 0 --reps 0 | --steps -1"
    "multi_heat1d            | --points 2 --reps 0 --init random --seed 0 | --seed -1"
    "multi_heat1d            | --points 2 --reps 0 --gpus 1 | --gpus -1"
    "multi_heat1d            | --points 2 --reps 0 --gpus 1 --parts 1 | --parts -1"
    "multi_heat1d            | --points 2 --reps 0 --threads 1 | --threads -1"
    "multi_heat1d            | --points 2 --reps 0 --bench --bench-points 1024 --bench-steps 0 | --bench-points 1023"
    "multi_heat1d            | --points 2 --reps 0 --bench --bench-points 1024 --bench-steps 0 | --bench-steps -1"
    "multi_heat1d            |                           | --k 0 | 1e999"
    "sessionize              | --n 1                     | --n 0"
    "sessionize              | --n 1 --timeout 0         | --timeout -1"
    "sessionize              | --n 1 --seed 0            | --seed -1"
    "sessionize              | --bench --bench-max 1e4   | --bench-max 9999"
    "montecarlo              | --samples 2               | --samples 1"
    "montecarlo              | --samples 3               |"
    "montecarlo              | --samples 2 --seed 0      | --seed -1"
    "montecarlo              | --samples 2 --variant fused --blocks-per-sm 0 | --blocks-per-sm -1"
    "montecarlo              | --samples 2 --variant fused --blocks-per-sm 1 |"
    "montecarlo              | --samples 2 --variant library --chunk 4 | --chunk 3"
    "montecarlo              | --samples 3 --variant library --chunk 4 |"
    "montecarlo              | --samples 5 --variant library --chunk 4 |"
    # --a and --b are the limits of the integral, not sizes: only their refusals run here.
    "montecarlo              |                           | --b 1 --a 1 | 1e999"
    "montecarlo              |                           | --b -1e7 | 1e999"
    "matmul_demo             | --m 1 --k 1 --n 1         | --m 0"
    "matmul_demo             | --m 1 --k 1 --n 1         | --k 0"
    "matmul_demo             | --m 1 --k 1 --n 1         | --n 0"
    "matmul_demo             | --m 1 --k 1 --n 1 --reps 1 | --reps 0"
    "matmul_demo             | --m 1 --k 1 --n 1 --seed 0 | --seed -1"
    "matmul_demo             | --m 1 --k 1 --n 1 --reference-macs 0 | --reference-macs -1 | 1e999"
    "matmul_demo             | --m 1 --k 1 --n 1 --ld-extra 0 | --ld-extra -1"
    "matmul_demo             | --m 1 --k 1 --n 1 --ld-extra 4 | --ld-extra 3"
    "matmul_demo             | --m 1 --k 1 --n 1 --k-parts 0 | --k-parts -1"
    "matmul_demo             | --m 1 --k 1 --n 1 --k-parts 64 | --k-parts 65"
    "matmul_demo             | --m 1 --k 1 --n 1 --launch-number 0 | --launch-number -1"
    "matmul_demo             | --m 1 --k 1 --n 1 --launch-number 2147483647 | --launch-number 2147483648"
    "matmul_demo             | --m 1 --k 1 --n 1 --crowd-sms 0 | --crowd-sms -1"
    "matmul_demo             | --m 1 --k 1 --n 1 --crowd-sms 4096 | --crowd-sms 4097"
    "matmul_ablations        | --m 1 --k 1 --n 1 --reps 1 | --m 0"
    "matmul_ablations        | --m 1 --k 1 --n 1 --reps 1 | --k 0"
    "matmul_ablations        | --m 1 --k 1 --n 1 --reps 1 | --n 0"
    "matmul_ablations        | --m 1 --k 1 --n 1 --reps 1 | --reps 0"
    "matmul_ablations        | --m 1 --k 1 --n 1 --reps 1 --seed 0 | --seed -1"
    "matmul_ablations        | --m 1 --k 1 --n 1 --reps 1 --reference-macs 0 | --reference-macs -1 | 1e999"
    "matmul_ablations        | --m 1 --k 1 --n 1 --reps 1 --ld-extra 4 | --ld-extra 3"
    "matmul_ablations        | --m 1 --k 1 --n 1 --reps 1 --crowd-sms 4096 | --crowd-sms 4097"
    "matmul_debug_release    | --m 1 --k 1 --n 1 --reps 1 | --m 0"
    "matmul_debug_release    | --m 1 --k 1 --n 1 --reps 1 | --k 0"
    "matmul_debug_release    | --m 1 --k 1 --n 1 --reps 1 | --n 0"
    "matmul_debug_release    | --m 1 --k 1 --n 1 --reps 1 | --reps 0"
    "streams_pipeline        | --n 1 --streams 1         | --n 0"
    "streams_pipeline        | --n 1 --streams 1         | --streams 0"
    "streams_pipeline        | --n 1 --streams 1 --chunks 1 | --chunks -1"
    "streams_pipeline        | --n 1 --streams 1 --work 0 | --work -1"
    "streams_pipeline        | --n 1 --streams 1 --work 1 |"
    "streams_pipeline        | --n 1 --streams 1 --seed 0 | --seed -1"
    "streams_pipeline        | --n 1 --streams 1 --reps 1 | --reps 0"
    "streams_copy_probe      | --n 2 --chunks 2 --rounds 1 | --n 1"
    "streams_copy_probe      | --n 2 --chunks 2 --rounds 1 | --chunks 1"
    "streams_copy_probe      | --n 2 --chunks 2 --rounds 1 | --rounds 0"
    "streams_default_stream  | --ms 1                    | --ms 0"
    "streams_default_stream_per_thread | --ms 1          | --ms 0"
    "atomics_histogram       | --n 0                     | --n -1"
    "atomics_histogram       | --n 1                     |"
    "atomics_histogram       | --n 1 --seed 0            | --seed -1"
    "atomics_histogram       | --n 1 --blocks 0          | --blocks -1"
    "atomics_histogram       | --n 1 --blocks 1          |"
    "atomics_histogram       | --n 1 --threads 0         | --threads -1"
    "atomics_histogram       | --n 1 --threads 1         |"
    "atomics_histogram       | --n 1 --reps 1            | --reps 0"
    "atomics_dot             | --n 1                     | --n 0"
    "atomics_dot             | --n 1 --blocks 1          | --blocks 0"
    "atomics_dot             | --n 1 --seed 0            | --seed -1"
    "atomics_dot             | --n 1 --reps 1            | --reps 0"
    "atomics_race_mutex      | --blocks 1 --threads 1 --rounds 1 | --rounds 0"
    "atomics_race_mutex      | --blocks 1 --threads 1 --rounds 1 | --blocks 0"
    "atomics_race_mutex      | --blocks 1 --threads 1 --rounds 1 | --threads 0"
    "nccl_allreduce          | --n 1                     | --n 0"
    "nccl_allreduce          | --n 1 --seed 0            | --seed -1"
    "nccl_allreduce          | --n 1 --min-gpus 1        | --min-gpus 0"
    "nccl_allreduce          | --n 1 --timeout 1         | --timeout 0"
    "nccl_allreduce          | --n 1 --bench --min-bytes 4 --max-bytes 4 | --min-bytes 2"
    "nccl_allreduce          | --n 1 --bench --min-bytes 4 --max-bytes 4 | --max-bytes 3"
    "nccl_allreduce          | --n 1 --bench --min-bytes 4 --max-bytes 4 --pieces 0 | --pieces -1"
    "nccl_allreduce          | --n 1 --bench --min-bytes 4 --max-bytes 4 --pieces 1 |"
    "multi_gpu_p2p           | --bytes 1024              | --bytes 1020"
    "multi_gpu_p2p           | --bytes 1024 --min-gpus 1 | --min-gpus 0"
  )
  # The plain programs and the basics read their own arguments and refuse every bad value (one
  # below, not a number, too large) with their usage line, which states each range:
  # "target | usage line", plain text.
  set(usage_lines
    "plain_vecadd     | usage: plain_vecadd [--n 1..100000000] [--seed S >= 0]"
    "plain_heat1d     | usage: plain_heat1d [--points 2..10000000] [--steps 0..1000000]"
    "plain_sessionize | usage: plain_sessionize [n, 1 to 100000000]"
    "plain_montecarlo | usage: plain_montecarlo [samples, 2 to 10000000000]"
    "plain_streams    | usage: plain_streams [n, 1 to 500000000]"
    "plain_histogram  | usage: plain_histogram [n, 0 to 2000000000]"
    "plain_multi_gpu  | usage: plain_multi_gpu [n]   (1 <= n <= 2^34, default 50000000)"
    "coalescing       | usage: coalescing [--n N (1 to 2^30)] [--csv FILE]"
    "unified_memory   | usage: unified_memory [--n 1..67108864 (256 MiB of floats)] [--reps 1..100]"
    "warp_shuffle     | usage: warp_shuffle [--n 1..100000000] [--seed S >= 0]"
  )
  # The other refusals that are not the common parser's (common/options.c): the programs' own
  # checks, and streams_copy_probe's own parser. "target arguments refused | what the message
  # says", plain text.
  set(messages
    "heat1d --threads 1          | error: --threads 1 is not a multiple of 32 (a warp)"
    "heat1d --k 0                | error: --k 0 is outside the stable range 0 < k <= 0.5"
    "multi_heat1d --k 0          | error: --k 0 is outside the stable range 0 < k <= 0.5"
    "montecarlo --b 1 --a 1      | the upper limit --b must be greater than the lower limit --a (1/x over [1, 1])"
    "montecarlo --b -1e7         | the upper limit --b must be greater than the lower limit --a (1/x over [1, -1e+07])"
    "matmul_demo --ld-extra 3    | --ld-extra must be a multiple of 4 (float4 rows must stay 16-byte aligned), got 3"
    "matmul_ablations --ld-extra 3 | --ld-extra must be a multiple of 4 (float4 rows must stay 16-byte aligned), got 3"
    "streams_copy_probe --n 12abc | --n must be a whole number between 2 and 1000000000 (got '12abc')"
    "streams_copy_probe --n 99999999999999999999 | --n must be a whole number between 2 and 1000000000 (got '99999999999999999999')"
    "streams_copy_probe --chunks 12abc | --chunks must be a whole number between 2 and 64 (got '12abc')"
    "streams_copy_probe --chunks 99999999999999999999 | --chunks must be a whole number between 2 and 64 (got '99999999999999999999')"
    "streams_copy_probe --rounds 12abc | --rounds must be a whole number between 1 and 1000 (got '12abc')"
    "streams_copy_probe --rounds 99999999999999999999 | --rounds must be a whole number between 1 and 1000 (got '99999999999999999999')"
  )
  _sizes_table(usage_targets usage_texts "${usage_lines}")
  _sizes_table(message_keys message_texts "${messages}")
  set(tables_used)
  # Options walked nowhere, each with its reason ("target --option: why").
  set(exempt
  )
  # Executables that are not programs of the tutorial: tests, graders (the corpus's and the
  # generated mutants' mistake_ graders among them, in a -DTUTORIAL_MISTAKES=ON build) and tools
  # (their own tests cover them; a grader's --help would grade).
  set(not_programs_regex
      "^(grade_ex|test_|mistake_)|_tests?$|^tutorial_(gpu_probe|setup_check)$|^(docs_check|exits_demo)$|^heat1d_multi_small_rods$")
  # Programs that take every visible GPU: one at a time, and in the multi-GPU passes too.
  set(every_gpu plain_multi_gpu multi_heat1d nccl_allreduce multi_gpu_p2p)
  set(bad_done)
  set(covered_lines)
  foreach(row IN LISTS rows)
    string(REPLACE "|" ";" fields "${row}")
    list(LENGTH fields nfields)
    list(GET fields 0 target)
    list(GET fields 1 smallest)
    list(GET fields 2 below)
    set(overflow 99999999999999999999)
    if(nfields GREATER 3)
      list(GET fields 3 overflow)
      string(STRIP "${overflow}" overflow)
    endif()
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
    if(NOT smallest STREQUAL "") # (a bare if() takes "0" for false)
      separate_arguments(smallest_args UNIX_COMMAND "${smallest}")
      _sizes_tag(tag "${smallest}")
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
    endif()
    if(below STREQUAL "")
      continue()
    endif()
    separate_arguments(below_args UNIX_COMMAND "${below}")
    _sizes_tag(below_tag "${below}")
    # The option this row refuses (a program's one argument when it takes no options).
    list(LENGTH below_args count)
    math(EXPR last "${count} - 1")
    list(GET below_args 0 first)
    set(option "")
    if(count GREATER 1)
      math(EXPR before_last "${count} - 2")
      list(GET below_args ${before_last} option)
    endif()
    if(option MATCHES "^--")
      string(REGEX REPLACE "^--" "" option_tag "${option}")
      string(REPLACE "-" "_" option_tag "${option_tag}")
    elseif(count EQUAL 1 AND NOT first MATCHES "^--")
      set(option "(argument)")
      set(option_tag "argument")
    else()
      message(FATAL_ERROR "smallest_sizes: the row '${row}' refuses no option: its third field "
                          "ends with '--name value' (or is a program's one argument)")
    endif()
    string(APPEND covered_lines "${target} ${option}\n")
    # The row's refusals: one below; and, the first time the option is refused, 12abc and the
    # overflowing value in its place.
    list(GET below_args ${last} value)
    set(refusals "below|${value}")
    if(NOT "${target}.${option_tag}" IN_LIST bad_done)
      list(APPEND bad_done "${target}.${option_tag}")
      list(APPEND refusals "not_a_number|12abc" "overflow|${overflow}")
    endif()
    foreach(refusal IN LISTS refusals)
      string(REPLACE "|" ";" refusal "${refusal}")
      list(GET refusal 0 kind)
      list(GET refusal 1 value)
      set(args ${below_args})
      list(REMOVE_AT args ${last})
      list(APPEND args ${value})
      # The cause names the common parser's refusal: "<option> must ... (got <value>)" for one
      # below, "<option> expects ... (got '<value>')" for a value it cannot read.
      if(kind STREQUAL "below")
        set(name sizes.${target}.${below_tag}.below)
        set(cause below)
        set(accepted "${smallest}")
      else()
        set(name sizes.${target}.${option_tag}.${kind})
        set(cause unreadable)
        set(accepted "")
      endif()
      # The message the refusal must print: its entry in `messages`, the program's usage line,
      # or else the common parser's.
      list(JOIN args " " key)
      list(FIND message_keys "${target} ${key}" at)
      list(FIND usage_targets "${target}" usage_at)
      set(message "")
      if(at GREATER -1)
        list(GET message_texts ${at} message)
        list(APPEND tables_used "${target} ${key}")
      elseif(usage_at GREATER -1)
        list(GET usage_texts ${usage_at} message)
        list(APPEND tables_used "${target}")
      elseif(NOT option MATCHES "^--")
        message(FATAL_ERROR "smallest_sizes: the row '${row}' refuses a program's one argument: "
                            "give its usage line in `usage_lines`")
      endif()
      if(NOT TEST ${name})
        add_test(NAME ${name}
                 COMMAND ${CMAKE_COMMAND} "-DMESSAGE=${message}" "-DOPTION=${option}"
                         "-DVALUE=${value}" -DCAUSE=${cause} "-DSMALLEST=${accepted}"
                         -P ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/refused.cmake
                         -- $<TARGET_FILE:${target}> ${args})
        set_tests_properties(${name} PROPERTIES LABELS "sizes;cpu" TIMEOUT 120)
      endif()
    endforeach()
  endforeach()

  # An entry of `messages` or `usage_lines` that no refusal uses is a typo (or a row since
  # removed).
  foreach(key IN LISTS message_keys usage_targets)
    string(REGEX MATCH "^[^ ]+" target "${key}")
    if(TARGET ${target} AND NOT key IN_LIST tables_used)
      message(FATAL_ERROR "smallest_sizes: no row refuses '${key}', an entry of `messages` or "
                          "`usage_lines`")
    endif()
  endforeach()

  # Every program of the build, with what the rows walk and what they exempt.
  _sizes_programs(programs ${PROJECT_SOURCE_DIR})
  set(table "")
  foreach(target IN LISTS programs)
    if(NOT target MATCHES "${not_programs_regex}")
      string(APPEND table "program ${target} $<TARGET_FILE:${target}>\n")
    endif()
  endforeach()
  foreach(line IN LISTS exempt)
    string(APPEND table "exempt ${line}\n")
  endforeach()
  file(GENERATE OUTPUT ${CMAKE_BINARY_DIR}/sizes_walk_table.txt
       CONTENT "${table}${covered_lines}")
  add_test(NAME sizes.every_option_walked
           COMMAND ${CMAKE_COMMAND} -DTABLE=${CMAKE_BINARY_DIR}/sizes_walk_table.txt
                   -P ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/every_option_walked.cmake)
  set_tests_properties(sizes.every_option_walked PROPERTIES LABELS "sizes;cpu" TIMEOUT 300)
endfunction()

# A test name's tag from arguments: "--threads -1" -> threads_minus1 (not threads_1).
function(_sizes_tag out text)
  string(REGEX REPLACE "(^| )-([0-9])" "\\1minus\\2" text "${text}")
  string(REGEX REPLACE "[^A-Za-z0-9]+" "_" text "${text}")
  string(REGEX REPLACE "^_|_$" "" text "${text}")
  set(${out} ${text} PARENT_SCOPE)
endfunction()

# A table's "key | text" entries as two lists, the keys' runs of spaces made one.
function(_sizes_table keys_out texts_out entries)
  set(keys)
  set(texts)
  foreach(entry IN LISTS entries)
    string(REPLACE "|" ";" entry "${entry}")
    list(GET entry 0 key)
    list(GET entry 1 text)
    string(STRIP "${key}" key)
    string(STRIP "${text}" text)
    string(REGEX REPLACE " +" " " key "${key}")
    list(APPEND keys "${key}")
    list(APPEND texts "${text}")
  endforeach()
  set(${keys_out} "${keys}" PARENT_SCOPE)
  set(${texts_out} "${texts}" PARENT_SCOPE)
endfunction()

# The executables of a folder and the folders below it.
function(_sizes_programs out dir)
  set(found)
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  foreach(target IN LISTS targets)
    get_target_property(type ${target} TYPE)
    if(type STREQUAL "EXECUTABLE")
      list(APPEND found ${target})
    endif()
  endforeach()
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(sub IN LISTS subdirs)
    _sizes_programs(below ${sub})
    list(APPEND found ${below})
  endforeach()
  set(${out} ${found} PARENT_SCOPE)
endfunction()

# At the end of the top-level CMakeLists.txt, when every chapter's targets exist.
cmake_language(DEFER DIRECTORY ${PROJECT_SOURCE_DIR} CALL tutorial_smallest_sizes)
