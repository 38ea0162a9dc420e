#!/usr/bin/env bash
# A stand-in for ctest in test_run_generated_mutants.sh: runs the tests that -R names, in the
# order of the spec (fake_cmake.sh), each as its spec line says (sleeping its seconds), stopping
# at the first failure, and prints what the runner reads of ctest's output. A test's limit is
# what cmake/Mistakes.cmake makes its TIMEOUT: the configured TUTORIAL_GENERATED_TEST_TIMEOUT
# times 1 (phase A), 3 (B) or 2 (C), never above the test's own limit (the spec's 8th field,
# default 120), or its own limit when none was configured (ctest's --timeout does not change it).
# Outcomes: pass, fail, skip (77), timeout (hangs: a timeout at any limit), slow (a timeout at a
# limit below its own, passes at its own). Appends "<test> <limit> <fake ctests running now>
# <configures so far>" to <build dir>/calls.log.
set -u
bin='' regex=''
while [[ $# -gt 0 ]]; do
  case $1 in
  --test-dir) bin=$2; shift ;;
  -R) regex=$2; shift ;;
  --timeout) shift ;;
  esac
  shift
done
mkdir -p "$bin/running"
touch "$bin/running/$$"
trap 'rm -f "$bin/running/$$"' EXIT
configured=$(cat "$bin/test_timeout.txt")
n=0
while read -r name _ _ test phase outcome seconds own; do
  [[ -z $name || $name == \#* || $test == - ]] && continue
  full=mistake.$name.$test
  [[ $full =~ $regex ]] || continue
  n=$((n + 1))
  own=${own:-120} limit=${own:-120}
  if [[ -n $configured ]]; then
    case $phase in A) limit=$configured ;; B) limit=$((3 * configured)) ;; C) limit=$((2 * configured)) ;; esac
    ((limit > own)) && limit=$own
  fi
  running=$(find "$bin/running" -type f | wc -l)
  echo "$full $limit $running $(cat "$bin/configures.txt")" >>"$bin/calls.log"
  sleep "$seconds"
  [[ $outcome == slow ]] && { outcome=pass; ((limit < own)) && outcome=timeout; }
  case $outcome in
  pass) echo "$n/$n Test #$n: $full ....   Passed    $seconds sec" ;;
  skip) echo "$n/$n Test #$n: $full ....***Skipped   $seconds sec" ;;
  fail) echo "$n/$n Test #$n: $full ....***Failed    $seconds sec"
        echo "The following tests FAILED:"; echo "	$n - $full (Failed)"; exit 8 ;;
  timeout) echo "$n/$n Test #$n: $full ....***Timeout   $seconds sec"
        echo "The following tests FAILED:"; echo "	$n - $full (Timeout)"; exit 8 ;;
  esac
done <"$(cat "$bin/spec_path")"
exit 0
