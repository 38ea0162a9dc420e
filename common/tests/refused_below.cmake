# cmake (-DMESSAGE=<text> | -DOPTION=<--name> -DVALUE=<value>) [-DSMALLEST=<arguments>]
#       -P refused_below.cmake -- <program> <arguments one below>
# The tests sizes.<target>.<args>.below (smallest_sizes.cmake writes them): both sides of the
# smallest value a program accepts, on the CPU, with no GPU visible.
#   one below     exit 2 and the message the program prints for that value: MESSAGE (plain
#                 text, found anywhere in the output), or else the common parser's
#                 "<OPTION> must ... (got <VALUE>)" (common/options.c). The usage alone, or a
#                 refusal that names some other problem, fails.
#   the smallest  (SMALLEST, when the row has one) not refused: the program gets past its
#                 arguments to its GPU check, which finds none (exit 77). A program that refuses
#                 every value fails here.
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
  # The common parser's refusal: "vecadd: error: --n must be between 1 and ... (got 0)", or
  # "... must not be negative (got '-1')". Option and value are matched as plain text.
  foreach(word OPTION VALUE)
    string(REGEX REPLACE "([].[*+?^$(){}|\\\\])" "\\\\\\1" ${word}_regex "${${word}}")
  endforeach()
  set(expected "${OPTION_regex} must [^\n]*\\(got '?${VALUE_regex}'?\\)")
  if(NOT out MATCHES "${expected}")
    message(FATAL_ERROR "the output has no line '${OPTION} must ... (got ${VALUE})'")
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
