# The tour's last lines: each chapter's headline ratio beside the goal this suite set itself on
# Hopper GPUs (H100, H200), read from the tour's CSV files: this run's for a chapter that ran,
# the committed ones (docs/results) for a chapter that did not, and said so. The goals are
# printed, never enforced: a ratio below its goal on another GPU is a measurement, not an error.
# Included by RunTour.cmake after its summary (it needs status_<chapter>, TOURDIR, RESULTS).
# Empty cells (an empty config column) stay list elements, whoever includes this file.
cmake_policy(SET CMP0007 NEW)

# tour_goal(<label> <chapter> <file> <column> <GE|LE> <goal> [<column>=<regex> ...])
# The rows whose cells all match their regexes; of those, the largest value of <column> (GE:
# the goal is a floor) or the smallest (LE: a ceiling). From this run's CSV where the chapter
# ran; otherwise from each committed one that exists (docs/results/<chapter>, then its h200/
# folder), each line naming the GPU its CSV names.
function(tour_goal label chapter file column op goal)
  if("${status_${chapter}}" STREQUAL "PASS")
    tour_goal_in("${label}" ${TOURDIR}/${chapter}/${file} "this run" ${column} ${op} ${goal}
                 ${ARGN})
    return()
  endif()
  set(found FALSE)
  foreach(dir ${RESULTS}/${chapter} ${RESULTS}/${chapter}/h200)
    if(EXISTS ${dir}/${file})
      set(found TRUE)
      file(STRINGS ${dir}/${file} device_line REGEX "^# device: ")
      string(REGEX REPLACE "^# device: ([^,]*).*" "\\1" device "${device_line}")
      tour_goal_in("${label}" ${dir}/${file} "committed results, ${device}" ${column} ${op}
                   ${goal} ${ARGN})
    endif()
  endforeach()
  if(NOT found)
    message("  ${label}: no ${file} in committed results")
  endif()
endfunction()

# One CSV's best matching row against the goal, printed with its source.
function(tour_goal_in label path source column op goal)
  if(NOT EXISTS ${path})
    message("  ${label}: no ${path} in ${source}")
    return()
  endif()
  get_filename_component(file ${path} NAME)
  file(STRINGS ${path} lines)
  set(header "")
  set(best "")
  foreach(line IN LISTS lines)
    if(line MATCHES "^#" OR line STREQUAL "")
      continue()
    endif()
    string(REPLACE "," ";" cells "${line}")
    if(NOT header)
      set(header "${cells}")
      list(FIND header ${column} value_index)
      if(value_index LESS 0)
        message("  ${label}: ${file} has no column ${column}")
        return()
      endif()
      continue()
    endif()
    set(match TRUE)
    foreach(condition IN LISTS ARGN)
      string(REGEX REPLACE "=.*" "" name "${condition}")
      string(REGEX REPLACE "^[^=]*=" "" pattern "${condition}")
      list(FIND header ${name} index)
      list(LENGTH cells count)
      if(index LESS 0 OR NOT index LESS count)
        set(match FALSE)
        break()
      endif()
      list(GET cells ${index} cell)
      if(NOT cell MATCHES "^(${pattern})$")
        set(match FALSE)
        break()
      endif()
    endforeach()
    if(NOT match)
      continue()
    endif()
    list(GET cells ${value_index} value)
    if(best STREQUAL "" OR (op STREQUAL "GE" AND value GREATER best) OR
       (op STREQUAL "LE" AND value LESS best))
      set(best ${value})
    endif()
  endforeach()
  if(best STREQUAL "")
    message("  ${label}: no row of ${file} (${source}) matches")
    return()
  endif()
  if(op STREQUAL "GE")
    set(sign ">=")
    if(best LESS goal)
      set(verdict "below the goal")
    else()
      set(verdict "goal reached")
    endif()
  else()
    set(sign "<=")
    if(best GREATER goal)
      set(verdict "above the goal")
    else()
      set(verdict "goal reached")
    endif()
  endif()
  message("  ${label}: ${column} ${best} (goal ${sign} ${goal}: ${verdict}; ${source})")
endfunction()

message("\n===== The goals on Hopper GPUs (H100, H200), from ${TOURDIR} or docs/results")
tour_goal("05 FP32 SGEMM 4096^3, pipelined" 05_matmul variants_4096.csv pct_cublas GE 95
          variant=pipelined m=4096)
tour_goal("05 TF32 4096^3, wgmma" 05_matmul variants_4096.csv pct_cublas GE 100
          variant=wgmma_tf32 m=4096)
tour_goal("04 Monte Carlo 2^32 samples of 1/x, fused, samples/s of Philox alone's" 04_montecarlo
          throughput.csv of_philox GE 0.85 variant=fused "config=inv .*" samples=4294967296)
tour_goal("06 streams 20M add, depth-first 16 equal chunks x 4 streams" 06_streams variants.csv
          ratio_to_bound LE 1.10 kernel=add variant=depth chunks=16 streams=4)
tour_goal("06 streams 20M add, depth-first 16 shrinking chunks x 4 streams" 06_streams
          variants.csv ratio_to_bound LE 1.10 kernel=add variant=shrinking chunks=16 streams=4)
tour_goal("06 streams 20M add, 8 shrinking chunks x 2 streams" 06_streams variants.csv
          ratio_to_bound LE 1.10 kernel=add variant=shrinking chunks=8 streams=2)
tour_goal("03 sessionize 10^8 events, single pass, of the copy" 03_sessionize throughput.csv
          fraction_of_memcpy GE 0.95 n=100000000 variant=single_pass)
