# cmake -DCUOBJDUMP=<cuobjdump, or empty to look on PATH> -DBINARY=<matmul_demo> -P wgmma_sass.cmake
#
# Step 13's TF32 kernels (wgmma_tf32_kernel<1, 0> unpaired, <1, 1> in pairs) as compiled, read
# with cuobjdump -sass. For each, in SASS terms (HGMMA: a wgmma; WARPGROUP.ARRIVE: the fence
# before a group; WARPGROUP.DEPBAR.LE gsb0, 0x1: wgmma.wait_group 1):
#   - HGMMA.64x256x8 only: the wide wgmma, four a strip;
#   - at most one WARPGROUP.ARRIVE per four HGMMA: one a strip is what tf32_strip asks for;
#     ptxas puts one before every HGMMA where it sees their register operands written between
#     them (info C7519 or C7513 in its output), and then the code is slower or, as the mutant
#     matmul_wgmma_fragments_by_pointer shows, wrong;
#   - a WARPGROUP.DEPBAR.LE gsb0, 0x1: a strip's group left running while the next one loads;
#   - no local-memory loads or stores (LDL, STL).
# Passes, fails naming what is wrong, or skips ([tutorial-skip]) where there is no cuobjdump or
# it cannot disassemble (no nvdisasm beside it, as in the CUDA 12.4 that CI assembles).
cmake_minimum_required(VERSION 3.22)
if(NOT EXISTS "${BINARY}")
  message(FATAL_ERROR "no program to read: '${BINARY}'")
endif()
if(NOT CUOBJDUMP OR NOT EXISTS "${CUOBJDUMP}")
  find_program(_found_cuobjdump cuobjdump)
  set(CUOBJDUMP "${_found_cuobjdump}")
endif()
if(NOT CUOBJDUMP)
  message("[tutorial-skip] no cuobjdump in this toolkit or on PATH: the SASS cannot be read")
  return()
endif()

set(failed "")
foreach(kernel IN ITEMS _Z17wgmma_tf32_kernelILi1ELi0EEv14CUtensorMap_stS0_S0_iiiPfmiPjj
                        _Z17wgmma_tf32_kernelILi1ELi1EEv14CUtensorMap_stS0_S0_iiiPfmiPjj)
  execute_process(COMMAND ${CUOBJDUMP} -sass -fun ${kernel} ${BINARY}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE text ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 AND err MATCHES "nvdisasm")
    message("[tutorial-skip] ${CUOBJDUMP} cannot disassemble here: ${err}")
    return()
  elseif(NOT rc EQUAL 0)
    message(FATAL_ERROR "${CUOBJDUMP} -sass -fun ${kernel} ${BINARY} failed (${rc}): ${err}")
  endif()
  if(NOT text MATCHES "Function : ${kernel}")
    list(APPEND failed "${kernel}: not in the SASS of ${BINARY} (renamed? then update this test)")
    continue()
  endif()
  string(REGEX MATCHALL "HGMMA\\.64x256x8" wide "${text}")
  string(REGEX MATCHALL "HGMMA\\." all "${text}")
  string(REGEX MATCHALL "WARPGROUP\\.ARRIVE" arrive "${text}")
  string(REGEX MATCHALL "WARPGROUP\\.DEPBAR\\.LE gsb0, 0x1" wait_one "${text}")
  string(REGEX MATCHALL "[ \t](LDL|STL)[. ]" local "${text}")
  foreach(v IN ITEMS wide all arrive wait_one local)
    list(LENGTH ${v} ${v})
  endforeach()
  message("${kernel}: ${all} HGMMA (${wide} 64x256x8), ${arrive} WARPGROUP.ARRIVE, "
          "${wait_one} DEPBAR.LE gsb0 0x1, ${local} LDL/STL")
  math(EXPR four_arrive "4 * ${arrive}")
  if(wide EQUAL 0 OR NOT wide EQUAL all)
    list(APPEND failed "${kernel}: ${wide} of ${all} HGMMA are 64x256x8")
  endif()
  if(four_arrive GREATER all)
    list(APPEND failed "${kernel}: ${arrive} WARPGROUP.ARRIVE for ${all} HGMMA: more than one fence a strip")
  endif()
  if(wait_one EQUAL 0)
    list(APPEND failed "${kernel}: no WARPGROUP.DEPBAR.LE gsb0, 0x1 (no strip left running)")
  endif()
  if(local GREATER 0)
    list(APPEND failed "${kernel}: ${local} local-memory loads or stores")
  endif()
endforeach()
if(failed)
  string(REPLACE ";" "\n  " failed "${failed}")
  message(FATAL_ERROR "step 13's TF32 kernels:\n  ${failed}")
endif()
message("ok: both TF32 kernels issue the wide wgmma, one fence a strip, a strip left running")
