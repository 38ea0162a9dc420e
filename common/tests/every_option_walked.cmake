# cmake -DTABLE=<build>/sizes_walk_table.txt -P every_option_walked.cmake
# The test sizes.every_option_walked (common/tests/smallest_sizes.cmake writes the table): runs
# each program with --help, reads the numeric options its usage lists, and fails when one is
# neither refused by a row of the walk nor exempt with a reason. The table's lines:
#   program <target> <path>       a program of the build
#   <target> <option>             a row of the walk refuses this option ("(argument)": the one
#                                 argument of a program that takes no options)
#   exempt <target> <option>: why an option walked nowhere
# Two usage forms are read: the common parser's (common/options.c: "  --name N|INT|X" on a line
# of its own, "N" a size, "INT" an integer, "X" a number) and the plain programs' one line
# ("usage: plain_vecadd [--n 1..100000000] [--seed S >= 0]", "usage: plain_streams [n, 1 to ..]":
# every bracketed option is numeric unless its value is a FILE, PATH or DIR; a bracketed word
# without dashes is the program's one argument). A program whose --help prints no usage takes
# no options.
cmake_minimum_required(VERSION 3.22)
file(STRINGS "${TABLE}" lines)
set(programs)
set(covered)
foreach(line IN LISTS lines)
  if(line MATCHES "^program ([^ ]+) (.+)$")
    list(APPEND programs "${CMAKE_MATCH_1}")
    set(path_${CMAKE_MATCH_1} "${CMAKE_MATCH_2}")
  elseif(line MATCHES "^exempt ([^ ]+) ([^:]+):")
    list(APPEND covered "${CMAKE_MATCH_1} ${CMAKE_MATCH_2}")
  elseif(line MATCHES "^([^ ]+) (.+)$")
    list(APPEND covered "${CMAKE_MATCH_1} ${CMAKE_MATCH_2}")
  endif()
endforeach()

# No GPU for these runs: --help must read the same on every machine, and a program that ignores
# its arguments then stops at once (77) instead of running its GPU work beside the other tests.
set(ENV{CUDA_VISIBLE_DEVICES} "-1")
set(missing)
set(checked 0)
foreach(target IN LISTS programs)
  if(NOT EXISTS "${path_${target}}")
    message(FATAL_ERROR "${target} is not built (${path_${target}}): its options are unknown")
  endif()
  # A program that ignores its arguments finds no GPU (77; 0 if it needs none); a plain program
  # with one argument refuses "--help" with its usage (2). Anything else (a crash) is a failure.
  execute_process(COMMAND "${path_${target}}" --help RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err TIMEOUT 120)
  if(NOT rc MATCHES "^(0|2|77)$")
    message(FATAL_ERROR "${target} --help ended with '${rc}':\n${out}${err}")
  endif()
  set(text "${out}${err}")
  set(numeric)
  if(text MATCHES "\noptions:\n")
    # MATCHALL does not overlap: the line after a match starts without its newline.
    string(REPLACE "\n" "\n\n" doubled "${text}")
    string(REGEX MATCHALL "\n  --[a-z0-9-]+ (N|INT|X)\n" found "${doubled}")
    foreach(f IN LISTS found)
      string(REGEX REPLACE "^\n  (--[a-z0-9-]+) .*" "\\1" name "${f}")
      list(APPEND numeric "${name}")
    endforeach()
  elseif(text MATCHES "usage: [^\n]*")
    set(usage "${CMAKE_MATCH_0}")
    string(REGEX MATCHALL "\\[--[a-z0-9-]+ [^]]*\\]" found "${usage}")
    foreach(f IN LISTS found)
      if(NOT f MATCHES "^\\[--[a-z0-9-]+ (FILE|PATH|DIR)")
        string(REGEX REPLACE "^\\[(--[a-z0-9-]+) .*" "\\1" name "${f}")
        list(APPEND numeric "${name}")
      endif()
    endforeach()
    if(usage MATCHES "\\[[a-z]+[],]")
      list(APPEND numeric "(argument)")
    endif()
  endif()
  list(REMOVE_DUPLICATES numeric)
  list(LENGTH numeric count)
  message("${target}: ${count} numeric option(s) ${numeric}")
  foreach(name IN LISTS numeric)
    math(EXPR checked "${checked} + 1")
    if(NOT "${target} ${name}" IN_LIST covered)
      list(APPEND missing "${target} ${name}")
    endif()
  endforeach()
endforeach()
list(LENGTH programs nprograms)
if(nprograms EQUAL 0 OR checked EQUAL 0)
  message(FATAL_ERROR "no program or no numeric option found: the table or the usage forms "
                      "changed")
endif()
if(missing)
  string(REPLACE ";" "\n  " missing "${missing}")
  message(FATAL_ERROR "numeric options no row of common/tests/smallest_sizes.cmake refuses "
                      "(add a row, or an exempt line with the reason):\n  ${missing}")
endif()
message("ok: ${checked} numeric options of ${nprograms} programs, each walked or exempt")
