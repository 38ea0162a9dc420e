# cmake -DCUOBJDUMP=<cuobjdump or empty> -DBINARY=<matmul_demo> -P wgmma_sass.cmake
#
# Step 13's TF32 kernels (wgmma_tf32_kernel<1, 0> unpaired, <1, 1> in pairs) as compiled, read
# from cuobjdump -sass. For each, in SASS terms (HGMMA: a wgmma; WARPGROUP.ARRIVE: the fence
# before a group; WARPGROUP.DEPBAR.LE gsb0, 0x1: wgmma.wait_group 1):
#   - HGMMA.64x256x8 only: the wide wgmma, four a strip;
#   - at most one WARPGROUP.ARRIVE per two HGMMA: one a strip is what tf32_strip asks for, and
#     ptxas puts one before every HGMMA (serialising them, info C7519 or C7513) where it cannot
#     prove that a wgmma's register operands stay untouched while it runs, e.g. one set of
#     fragment registers for every strip;
#   - a WARPGROUP.DEPBAR.LE gsb0, 0x1: a strip's group left running while the next one loads;
#   - no local-memory loads or stores (LDL, STL: spills).
# Passes, fails naming what is wrong, or skips ([tutorial-skip]) where there is no cuobjdump or it
# cannot disassemble.
cmake_minimum_required(VERSION 3.22)
if(NOT CUOBJDUMP OR NOT EXISTS "${CUOBJDUMP}")
  find_program(CUOBJDUMP cuobjdump)
endif()
if(NOT CUOBJDUMP)
  message("[tutorial-skip] no cuobjdump in this toolkit or on PATH: the SASS cannot be read")
  return()
endif()
execute_process(COMMAND ${CUOBJDUMP} -sass ${BINARY} RESULT_VARIABLE rc OUTPUT_VARIABLE sass
                ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  # As own_sass.h's graders do: a toolkit whose cuobjdump cannot disassemble (no nvdisasm beside
  # it, as in the CUDA 12.4 that CI assembles from packages) leaves nothing to read.
  message("[tutorial-skip] ${CUOBJDUMP} -sass ${BINARY} failed (${rc}): ${err}")
  return()
endif()

# The text of one function: from its "Function : <name>" line to the next function's.
function(function_text mangled out)
  string(FIND "${sass}" "Function : ${mangled}" start)
  if(start EQUAL -1)
    set(${out} "" PARENT_SCOPE)
    return()
  endif()
  string(SUBSTRING "${sass}" ${start} -1 rest)
  string(LENGTH "Function : " skip)
  string(SUBSTRING "${rest}" ${skip} -1 after)
  string(FIND "${after}" "Function : " next)
  if(NOT next EQUAL -1)
    string(SUBSTRING "${after}" 0 ${next} after)
  endif()
  set(${out} "${after}" PARENT_SCOPE)
endfunction()

function(count text regex out)
  string(REGEX MATCHALL "${regex}" found "${text}")
  list(LENGTH found n)
  set(${out} ${n} PARENT_SCOPE)
endfunction()

set(failed "")
foreach(kernel IN ITEMS _Z17wgmma_tf32_kernelILi1ELi0EE _Z17wgmma_tf32_kernelILi1ELi1EE)
  function_text(${kernel} text)
  if(text STREQUAL "")
    list(APPEND failed "${kernel}: not in the SASS of ${BINARY} (renamed? then update this test)")
    continue()
  endif()
  count("${text}" "HGMMA\\.64x256x8" wide)
  count("${text}" "HGMMA\\." all)
  count("${text}" "WARPGROUP\\.ARRIVE" arrive)
  count("${text}" "WARPGROUP\\.DEPBAR\\.LE gsb0, 0x1" wait_one)
  count("${text}" "[ \t](LDL|STL)[. ]" local)
  message("${kernel}: ${all} HGMMA (${wide} 64x256x8), ${arrive} WARPGROUP.ARRIVE, "
          "${wait_one} DEPBAR.LE gsb0 0x1, ${local} LDL/STL")
  math(EXPR twice_arrive "2 * ${arrive}")
  if(wide EQUAL 0 OR NOT wide EQUAL all)
    list(APPEND failed "${kernel}: ${wide} of ${all} HGMMA are 64x256x8")
  endif()
  if(twice_arrive GREATER all)
    list(APPEND failed "${kernel}: ${arrive} WARPGROUP.ARRIVE for ${all} HGMMA: serialised")
  endif()
  if(wait_one EQUAL 0)
    list(APPEND failed "${kernel}: no WARPGROUP.DEPBAR.LE gsb0, 0x1 (no strip left running)")
  endif()
  if(local GREATER 0)
    list(APPEND failed "${kernel}: ${local} local-memory loads or stores (spills)")
  endif()
endforeach()
if(failed)
  string(REPLACE ";" "\n  " failed "${failed}")
  message(FATAL_ERROR "step 13's TF32 kernels:\n  ${failed}")
endif()
message("ok: both TF32 kernels issue the wide wgmma, one fence a strip, a strip left running")
