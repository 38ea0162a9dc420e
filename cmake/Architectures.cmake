# The GPU architectures the build carries code for, decided in this one place.
#
# Default: native code (SASS) for one member of every GPU family the toolkit in use supports, plus
# PTX of the newest, which the driver compiles at start on GPUs newer than the toolkit:
#   CUDA 13.x : sm_75 sm_80 sm_90 sm_100 sm_120      + compute_120 PTX   (oldest GPU: 7.5)
#   CUDA 12.8+: sm_70 sm_75 sm_80 sm_90 sm_100 sm_120 + compute_120 PTX   (oldest GPU: 7.0)
#   CUDA 12.0-12.7: sm_70 sm_75 sm_80 sm_90           + compute_90 PTX    (oldest GPU: 7.0)
# A cubin for X.y runs on every X.z with z >= y, so sm_80 serves the A100 (8.0), the A10 and
# RTX 30xx (8.6), Orin (8.7) and the L4 and RTX 40xx (8.9); sm_100 the B200/B300 (10.x); sm_120
# the RTX 50xx (12.x). Not in the default: Jetson Thor (11.0 with CUDA 13), whose programs skip and
# name the option to add it (-DCMAKE_CUDA_ARCHITECTURES="110-real;...").
#
# Override with -DCMAKE_CUDA_ARCHITECTURES=... or the CUDAARCHS environment variable (e.g. 86, or
# "native" with CMake 3.24+ on a machine with a GPU: the `native` preset). Must be included right
# after project().
#
# Sets TUTORIAL_CUDA_ARCHS (the list in use) and TUTORIAL_MIN_CC (e.g. 75; 0 when unknown, as
# with "native"), which common/ compiles in: programs on an older GPU, or one the build has no
# code for, skip (exit 77) and say what to rebuild with.

function(tutorial_default_cuda_architectures version out_archs)
  if(version VERSION_GREATER_EQUAL 13.0)
    set(archs 75-real 80-real 90-real 100-real 120-real 120-virtual)
  elseif(version VERSION_GREATER_EQUAL 12.8)
    set(archs 70-real 75-real 80-real 90-real 100-real 120-real 120-virtual)
  elseif(version VERSION_GREATER_EQUAL 12.0)
    set(archs 70-real 75-real 80-real 90-real 90-virtual)
  else()
    message(FATAL_ERROR "CUDA ${version} is too old for this suite: it needs CUDA 12.0 or newer "
                        "(tested with 12.4 and 13.0).")
  endif()
  set(${out_archs} ${archs} PARENT_SCOPE)
endfunction()

# The smallest compute capability named in an architecture list, as major*10+minor (0 if none).
function(tutorial_min_cc archs out_cc)
  set(min 0)
  foreach(a IN LISTS archs)
    if(a MATCHES "^([0-9]+)")
      set(cc ${CMAKE_MATCH_1})
      if(min EQUAL 0 OR cc LESS min)
        set(min ${cc})
      endif()
    endif()
  endforeach()
  set(${out_cc} ${min} PARENT_SCOPE)
endfunction()

tutorial_default_cuda_architectures(${CMAKE_CUDA_COMPILER_VERSION} _tutorial_default_archs)
# The default applies unless the user chose a list: on the first configure CMAKE_CUDA_ARCHITECTURES
# was not defined before project() (TUTORIAL_ARCHS_FROM_USER), and on later ones it still holds the
# default we stored.
if(NOT TUTORIAL_ARCHS_FROM_USER OR
   "${CMAKE_CUDA_ARCHITECTURES}" STREQUAL "${TUTORIAL_DEFAULTED_ARCHS}")
  set(CMAKE_CUDA_ARCHITECTURES "${_tutorial_default_archs}" CACHE STRING
      "GPU architectures to build for (default: every family the toolkit supports)" FORCE)
  set(TUTORIAL_DEFAULTED_ARCHS "${_tutorial_default_archs}" CACHE INTERNAL "")
  set(_tutorial_archs_origin "default for CUDA ${CMAKE_CUDA_COMPILER_VERSION}")
else()
  set(_tutorial_archs_origin "chosen with -DCMAKE_CUDA_ARCHITECTURES")
endif()
set(TUTORIAL_CUDA_ARCHS "${CMAKE_CUDA_ARCHITECTURES}")
tutorial_min_cc("${TUTORIAL_CUDA_ARCHS}" TUTORIAL_MIN_CC)
message(STATUS "CUDA architectures: ${TUTORIAL_CUDA_ARCHS} (${_tutorial_archs_origin})")
if(TUTORIAL_MIN_CC GREATER 0)
  math(EXPR _major "${TUTORIAL_MIN_CC} / 10")
  math(EXPR _minor "${TUTORIAL_MIN_CC} % 10")
  message(STATUS "Oldest GPU this build runs on: compute capability ${_major}.${_minor}")
endif()
