#!/usr/bin/env bash
# A stand-in for cmake in test_run_generated_mutants.sh. Configure (-S -B ...): writes the files
# cmake/Mistakes.cmake writes for the runner, from <mutants dir>/spec.txt (lines: mutant exercise
# chapter test phase outcome seconds [own time limit]; outcome pass, fail, timeout, slow, skip or
# nobuild; see fake_ctest.sh), the TUTORIAL_GENERATED_TEST_TIMEOUT it got (test_timeout.txt,
# empty: the tests' own limits; appended to test_timeouts.txt, a line a configure), the
# TUTORIAL_TEST_TIMEOUT_CAP it got (test_timeout_caps.txt, a line a configure) and how many
# times it configured (configures.txt); --build:
# "builds" every mutant whose spec has no nobuild line, leaving in place whatever grader a
# nobuild mutant already has (as ninja -k 0 does when a source does not compile).
set -u
if [[ ${1:-} == --build ]]; then
  bin=$2
  while read -r name _ ch _; do
    [[ -z $name || $name == \#* ]] && continue
    exe=$bin/mistakes/$ch/$name/mistake_${name//./_}
    if grep -q "^$name .* nobuild" "$(cat "$bin/spec_path")"; then continue; fi
    mkdir -p "$(dirname "$exe")" && printf '#!/bin/sh\n' >"$exe" && chmod +x "$exe"
  done <"$(cat "$bin/spec_path")"
  exit 0
fi
bin='' mut='' timeout='' cap=''
for a in "$@"; do
  case $a in
  -B*) bin=${a#-B} ;;
  -DTUTORIAL_GENERATED_MUTANTS=*) mut=${a#*=} ;;
  -DTUTORIAL_GENERATED_TEST_TIMEOUT=*) timeout=${a#*=} ;;
  -DTUTORIAL_TEST_TIMEOUT_CAP=*) cap=${a#*=} ;;
  esac
done
[[ -z $bin ]] && { prev=; for a in "$@"; do [[ $prev == -B ]] && bin=$a; prev=$a; done; }
mkdir -p "$bin"
echo "$mut/spec.txt" >"$bin/spec_path"
echo "$timeout" >"$bin/test_timeout.txt"
echo "$timeout" >>"$bin/test_timeouts.txt"
echo "$cap" >>"$bin/test_timeout_caps.txt"
echo $(( $(cat "$bin/configures.txt" 2>/dev/null || echo 0) + 1 )) >"$bin/configures.txt"
: >"$bin/generated_tests.txt"
: >"$bin/generated_stale.txt"
echo "# stand-in" >"$bin/generated_entries.cmake"
while read -r name ex ch test phase _; do
  [[ -z $name || $name == \#* ]] && continue
  grep -q "NAME \[==\[$name\]==\]" "$bin/generated_entries.cmake" ||
    echo "mistake_entry(NAME [==[$name]==] EXERCISE [==[$ex]==] KIND [==[generated]==] EXPECT [==[]==] WHAT [==[w]==] CHAPTER [==[$ch]==])" \
      >>"$bin/generated_entries.cmake"
  [[ $test == - ]] || echo "$name|mistake.$name.$test|$phase" >>"$bin/generated_tests.txt"
done <"$mut/spec.txt"
