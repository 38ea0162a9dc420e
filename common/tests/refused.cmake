# cmake (-DMESSAGE=<text> | -DOPTION=<--name> -DVALUE=<value> -DCAUSE=<below|unreadable>)
#       [-DSMALLEST=<arguments>] -P refused.cmake -- <program> <arguments with the bad value>
# The CPU tests of the sizes walk (smallest_sizes.cmake writes them), on the CPU with no GPU
# visible: a bad value is refused, and (for .below) the smallest accepted.
#   .below          one below the smallest          CAUSE below
#   .not_a_number   12abc                           CAUSE unreadable
#   .overflow       a value too large to hold       CAUSE unreadable
#   the bad value   exit 2 and the message the program prints for that value: MESSAGE (plain
#                   text, found anywhere in the output), or else the common parser's
#                   (common/options.c), option and value matched as plain text:
#                     below        "<OPTION> must ... (got <VALUE>)"
#                     unreadable   "<OPTION> expects ... (got '<VALUE>')"
#                   The usage alone, or a refusal that names some other problem (a number too
#                   large refused as out of range: the parser let it wrap), fails.
#   the smallest    (SMALLEST, when the row has one) not refused: the program gets past its
#                   arguments to its GPU check, which finds none (exit 77). A program that
#                   refuses every value fails here.
cmake_minimum_required(VERSION 3.22)
include(${CMAKE_CURRENT_LIST_DIR}/../../cmake/CommandAfterDashes.cmake)
list(GET cmd 0 program)

# The same on every machine: the refusal must come before the GPU is looked for, and the
# smallest value then stops at once at the GPU check instead of running.
set(ENV{CUDA_VISIBLE_DEVICES} "-1")

execute_process(COMMAND ${cmd} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
                TIMEOUT 60)
set(out "${out}${err}")
list(JOIN cmd " " shown)
message("${shown}\n  exit ${rc}:\n${out}")
if(NOT rc STREQUAL "2")
  message(FATAL_ERROR "expected exit 2 (bad usage, before any GPU is looked for), got ${rc}")
endif()
if(DEFINED MESSAGE AND NOT MESSAGE STREQUAL "")
  string(FIND "${out}" "${MESSAGE}" at)
  if(at LESS 0)
    message(FATAL_ERROR "the output does not say '${MESSAGE}'")
  endif()
else()
  # The common parser's refusals. Below: "vecadd: error: --n must be between 1 and ... (got 0)",
  # "... must not be negative (got '-1')". A value it cannot read: "--n expects a size such as
  # 1000, 64K, 1M, 2^20 or 1e6 (got '12abc')", "... expects an integer (got '...')", "... expects
  # a finite number (got '1e999')".
  foreach(word OPTION VALUE)
    string(REGEX REPLACE "([].[*+?^$(){}|\\\\])" "\\\\\\1" ${word}_regex "${${word}}")
  endforeach()
  if(CAUSE STREQUAL "below")
    set(expected "${OPTION_regex} must [^\n]*\\(got '?${VALUE_regex}'?\\)")
    set(shape "${OPTION} must ... (got ${VALUE})")
  elseif(CAUSE STREQUAL "unreadable")
    set(expected "${OPTION_regex} expects [^\n]*\\(got '${VALUE_regex}'\\)")
    set(shape "${OPTION} expects ... (got '${VALUE}')")
  else()
    message(FATAL_ERROR "refused.cmake: CAUSE must be below or unreadable (got '${CAUSE}')")
  endif()
  if(NOT out MATCHES "${expected}")
    message(FATAL_ERROR "the output has no line '${shape}'")
  endif()
endif()

if(DEFINED SMALLEST AND NOT SMALLEST STREQUAL "")
  separate_arguments(smallest UNIX_COMMAND "${SMALLEST}")
  execute_process(COMMAND ${program} ${smallest} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err TIMEOUT 60)
  message("${program} ${SMALLEST}\n  exit ${rc}:\n${out}${err}")
  if(NOT rc STREQUAL "77")
    message(FATAL_ERROR "expected exit 77 (the smallest accepted, then no GPU), got ${rc}")
  endif()
  message("ok: one below refused with its message, the smallest accepted")
else()
  message("ok: refused with its message")
endif()
