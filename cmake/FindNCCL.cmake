# FindNCCL: NCCL (NVIDIA's collective communication library) for the multi-GPU programs
# (06_streams/multi, 02_heat1d's multi-GPU steps).
#
#   list(APPEND CMAKE_MODULE_PATH ${PROJECT_SOURCE_DIR}/cmake)
#   find_package(NCCL)          # never REQUIRED: without NCCL those programs skip (exit 77)
#   if(NCCL_FOUND) target_link_libraries(t PRIVATE NCCL::nccl) endif()
#
# Looks, in this order and nowhere else, for nccl.h and libnccl:
#   1. NCCL_ROOT (a CMake or an environment variable): <root>/include and <root>/lib{,64};
#      or NCCL_INCLUDE_DIR and NCCL_LIBRARY given directly (a header from one place, the library
#      from another, as a machine that has only the library needs);
#   2. the CUDA toolkit of this build (CUDA 13 ships nccl.h and libnccl.so beside the runtime);
#   3. the nvidia/nccl folder of Python's NVIDIA wheel (as PyTorch installs it), asked of python3
#      when there is one, and taken only when the wheel is nvidia-nccl-cu<N> for this build's
#      CUDA major version N (the nvidia_nccl_cu<N>-*.dist-info beside the nvidia/ package, and
#      no other nvidia_nccl_cu* there).
# System folders are not searched: a CUDA 12 build must not take the nccl.h that a CUDA 13
# install put in /usr/local/include. NCCL older than 2.7 (no ncclSend/ncclRecv) is not taken.
# When the CUDA toolkit changes in an existing build folder, the NCCL paths this module found are
# forgotten and looked for again; a NCCL_INCLUDE_DIR or NCCL_LIBRARY given with -D is kept.
#
# Sets NCCL_FOUND, NCCL_INCLUDE_DIR, NCCL_LIBRARY, NCCL_VERSION (from nccl.h), NCCL_REASON (why
# not found, for the skip message) and the global imported target NCCL::nccl.
set(_nccl_toolkit "${CUDAToolkit_VERSION}|${CUDAToolkit_LIBRARY_DIR}")
# Which cached path the user gave with -D (in this configure or an earlier one): one that differs
# from what this module's own search left there, _NCCL_SEARCHED_<var> (a -D of that very path
# reads as found). A folder of the older module, which kept no record (_NCCL_TOOLKIT set, the
# record not), found its paths itself.
foreach(_nccl_var NCCL_INCLUDE_DIR NCCL_LIBRARY)
  set(_nccl_given_${_nccl_var} FALSE)
  if(${_nccl_var})
    if(DEFINED _NCCL_SEARCHED_${_nccl_var})
      if(NOT "${${_nccl_var}}" STREQUAL "${_NCCL_SEARCHED_${_nccl_var}}")
        set(_nccl_given_${_nccl_var} TRUE)
      endif()
    elseif(NOT DEFINED _NCCL_TOOLKIT)
      set(_nccl_given_${_nccl_var} TRUE)
    endif()
  endif()
endforeach()
if(DEFINED _NCCL_TOOLKIT AND NOT _NCCL_TOOLKIT STREQUAL _nccl_toolkit)
  message(STATUS "NCCL: the CUDA toolkit changed (${_NCCL_TOOLKIT} -> ${_nccl_toolkit}): "
                 "looking for NCCL again")
  foreach(_nccl_var NCCL_INCLUDE_DIR NCCL_LIBRARY)
    if(_nccl_given_${_nccl_var})
      message(STATUS "NCCL: keeping ${_nccl_var}=${${_nccl_var}}, as given")
    else()
      unset(${_nccl_var} CACHE)
    endif()
  endforeach()
endif()
set(_NCCL_TOOLKIT "${_nccl_toolkit}" CACHE INTERNAL "the CUDA toolkit NCCL was looked for with")
set(_nccl_roots)
if(NCCL_ROOT)
  list(APPEND _nccl_roots ${NCCL_ROOT})
endif()
if(DEFINED ENV{NCCL_ROOT})
  list(APPEND _nccl_roots $ENV{NCCL_ROOT})
endif()
set(_nccl_include_hints)
set(_nccl_lib_hints)
foreach(root IN LISTS _nccl_roots)
  list(APPEND _nccl_include_hints ${root}/include)
  list(APPEND _nccl_lib_hints ${root}/lib ${root}/lib64)
endforeach()
if(CUDAToolkit_INCLUDE_DIRS)
  list(APPEND _nccl_include_hints ${CUDAToolkit_INCLUDE_DIRS})
endif()
if(CUDAToolkit_LIBRARY_DIR)
  list(APPEND _nccl_lib_hints ${CUDAToolkit_LIBRARY_DIR})
  get_filename_component(_nccl_tk ${CUDAToolkit_LIBRARY_DIR} DIRECTORY)
  list(APPEND _nccl_lib_hints ${_nccl_tk}/lib ${_nccl_tk}/lib64)
endif()
find_program(_NCCL_PYTHON NAMES python3)
mark_as_advanced(_NCCL_PYTHON)
if(_NCCL_PYTHON)
  execute_process(
    COMMAND ${_NCCL_PYTHON} -c
            "import importlib.util as u; s = u.find_spec('nvidia.nccl'); print(list(s.submodule_search_locations)[0] if s else '')"
    OUTPUT_VARIABLE _nccl_wheel OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET TIMEOUT 20)
  set(_nccl_wheel_reason "")
  if(_nccl_wheel AND IS_DIRECTORY "${_nccl_wheel}")
    get_filename_component(_nccl_site "${_nccl_wheel}" DIRECTORY) # .../site-packages/nvidia
    get_filename_component(_nccl_site "${_nccl_site}" DIRECTORY)
    file(GLOB _nccl_dists RELATIVE "${_nccl_site}" "${_nccl_site}/nvidia_nccl_cu*-*.dist-info")
    set(_nccl_want "nvidia_nccl_cu${CUDAToolkit_VERSION_MAJOR}-")
    set(_nccl_wheel_ok FALSE)
    foreach(dist IN LISTS _nccl_dists)
      string(FIND "${dist}" "${_nccl_want}" _at)
      if(_at EQUAL 0)
        set(_nccl_wheel_ok TRUE)
      else()
        set(_nccl_wheel_ok FALSE) # another CUDA's wheel shares the folder: which one is there?
        break()
      endif()
    endforeach()
    if(_nccl_wheel_ok AND CUDAToolkit_VERSION_MAJOR)
      list(APPEND _nccl_include_hints ${_nccl_wheel}/include)
      list(APPEND _nccl_lib_hints ${_nccl_wheel}/lib)
    else()
      string(REPLACE ";" ", " _nccl_dists "${_nccl_dists}")
      if(NOT _nccl_dists)
        set(_nccl_dists "no nvidia_nccl_cu*.dist-info")
      endif()
      set(_nccl_wheel_reason " (Python's ${_nccl_wheel} was passed over: its wheel, ${_nccl_dists}, is not nvidia-nccl-cu${CUDAToolkit_VERSION_MAJOR} alone, for CUDA ${CUDAToolkit_VERSION})")
    endif()
  endif()
endif()

find_path(NCCL_INCLUDE_DIR nccl.h PATHS ${_nccl_include_hints} NO_DEFAULT_PATH)
# The wheel holds libnccl.so.2 only (no unversioned link).
find_library(NCCL_LIBRARY NAMES nccl libnccl.so.2 PATHS ${_nccl_lib_hints} NO_DEFAULT_PATH)
# What the search left (empty for a path given): the next configure tells a -D from it.
foreach(_nccl_var NCCL_INCLUDE_DIR NCCL_LIBRARY)
  if(_nccl_given_${_nccl_var})
    set(_NCCL_SEARCHED_${_nccl_var} "" CACHE INTERNAL "")
  else()
    set(_NCCL_SEARCHED_${_nccl_var} "${${_nccl_var}}" CACHE INTERNAL "")
  endif()
endforeach()

set(NCCL_VERSION "")
if(NCCL_INCLUDE_DIR AND EXISTS ${NCCL_INCLUDE_DIR}/nccl.h)
  file(STRINGS ${NCCL_INCLUDE_DIR}/nccl.h _nccl_defines REGEX "^#define NCCL_(MAJOR|MINOR|PATCH) ")
  foreach(part MAJOR MINOR PATCH)
    string(REGEX MATCH "NCCL_${part} ([0-9]+)" _m "${_nccl_defines}")
    set(_nccl_${part} ${CMAKE_MATCH_1})
  endforeach()
  set(NCCL_VERSION "${_nccl_MAJOR}.${_nccl_MINOR}.${_nccl_PATCH}")
endif()

set(NCCL_REASON "")
set(NCCL_NEW_ENOUGH TRUE)
if(NOT NCCL_INCLUDE_DIR)
  set(NCCL_REASON "no nccl.h in NCCL_ROOT, the CUDA toolkit or Python's nvidia/nccl wheel${_nccl_wheel_reason}")
elseif(NOT NCCL_LIBRARY)
  set(NCCL_REASON "nccl.h in ${NCCL_INCLUDE_DIR} but no libnccl beside NCCL_ROOT, the toolkit or the wheel${_nccl_wheel_reason}")
elseif(NOT NCCL_VERSION MATCHES "^[0-9]+\\.[0-9]+\\.[0-9]+$" OR NCCL_VERSION VERSION_LESS 2.7)
  set(NCCL_NEW_ENOUGH FALSE)
  set(NCCL_REASON "NCCL ${NCCL_VERSION} in ${NCCL_INCLUDE_DIR} is older than 2.7 (no ncclSend/ncclRecv), or its version is unreadable")
endif()

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(NCCL REQUIRED_VARS NCCL_LIBRARY NCCL_INCLUDE_DIR NCCL_NEW_ENOUGH
                                  VERSION_VAR NCCL_VERSION REASON_FAILURE_MESSAGE "${NCCL_REASON}")
if(NCCL_FOUND AND NOT TARGET NCCL::nccl)
  add_library(NCCL::nccl UNKNOWN IMPORTED GLOBAL)
  set_target_properties(NCCL::nccl PROPERTIES IMPORTED_LOCATION ${NCCL_LIBRARY}
                        INTERFACE_INCLUDE_DIRECTORIES ${NCCL_INCLUDE_DIR})
endif()
