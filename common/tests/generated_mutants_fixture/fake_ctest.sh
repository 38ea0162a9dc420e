#!/usr/bin/env bash
# A stand-in for ctest in test_run_generated_mutants.sh: runs the tests that -R names, in the
# order of the spec (fake_cmake.sh), each as its spec line says (sleeping its seconds),
# stopping at the first failure, and prints what the runner reads of ctest's output. Appends
# "<test> <limit>" to <build dir>/calls.log.
set -u
bin='' regex='' limit=''
while [[ $# -gt 0 ]]; do
  case $1 in
  --test-dir) bin=$2; shift ;;
  -R) regex=$2; shift ;;
  --timeout) limit=$2; shift ;;
  esac
  shift
done
n=0
while read -r name _ _ test _ outcome seconds; do
  [[ -z $name || $name == \#* || $test == - ]] && continue
  full=mistake.$name.$test
  [[ $full =~ $regex ]] || continue
  n=$((n + 1))
  echo "$full $limit" >>"$bin/calls.log"
  sleep "$seconds"
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
