#!/usr/bin/env bash
# CPU test of cmake/run_generated_mutants.sh with stand-ins for cmake and ctest
# (generated_mutants_fixture/): the verdicts (killed in A, B or C, timeout, skipped, build
# failed, survived, listed equivalent), the exit code, each phase's time limit, the round-robin
# order across exercises, no speed test for a killed mutant, and a deadline that cuts every
# exercise alike.   test_run_generated_mutants.sh <source dir> <scratch dir>
set -u
src=$(cd "$1" && pwd)
tmp=$2
fix=$src/common/tests/generated_mutants_fixture
rm -rf "$tmp" && mkdir -p "$tmp"
fails=0
check() { # check <what> <command...>
  local what=$1
  shift
  if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; fails=$((fails + 1)); fi
}
# make_set <dir> <spec lines>: a mutants folder and a source folder with the equivalents list.
make_set() {
  local dir=$1 spec=$2
  mkdir -p "$dir/mut" "$dir/src/cmake"
  printf '%s\n' "$spec" >"$dir/mut/spec.txt"
  echo "1 3" >"$dir/mut/seed.txt"
  while read -r name ex ch _; do
    mkdir -p "$dir/mut/$ch"
    printf '# what: %s changed\n--- a/x.cu\n+++ b/x.cu\n' "$name" >"$dir/mut/$ch/$name.patch"
    grep -q "^$ex," "$dir/mut/counts.csv" 2>/dev/null || echo "$ex,9" >>"$dir/mut/counts.csv"
  done <"$dir/mut/spec.txt"
  printf 'ex01.1_ga4   the speed does not change: a reason\n' >"$dir/src/cmake/generated_mutants_equivalent.txt"
}
run() { # run <dir> [VAR=value...]: the runner on that set; its exit code in <dir>/rc
  local dir=$1
  shift
  env CMAKE="$fix/fake_cmake.sh" CTEST="$fix/fake_ctest.sh" ARCHS=none "$@" \
    bash "$src/cmake/run_generated_mutants.sh" "$dir/src" "$dir/mut" "$dir/bin" "$dir/out" \
    >"$dir/log" 2>&1
  echo $? >"$dir/rc"
}
verdict() { awk -F, -v n="$2" '$2 == n {print $3 "|" $4}' "$1/out/generated-mutants.csv"; }

# 1. Verdicts, limits and order (one mutant at a time).
d=$tmp/verdicts
make_set "$d" "ex01.1_ga1 ex01.1 01_vecadd primes A fail 0
ex01.1_ga2 ex01.1 01_vecadd primes A pass 0
ex01.1_ga2 ex01.1 01_vecadd memcheck B fail 0
ex01.1_ga3 ex01.1 01_vecadd primes A pass 0
ex01.1_ga3 ex01.1 01_vecadd memcheck B pass 0
ex01.1_ga3 ex01.1 01_vecadd speed C fail 0
ex01.1_ga4 ex01.1 01_vecadd primes A pass 0
ex01.1_ga4 ex01.1 01_vecadd speed C pass 0
ex01.1_ga5 ex01.1 01_vecadd primes A nobuild 0
ex02.1_gb1 ex02.1 02_heat1d walls A timeout 0
ex02.1_gb1 ex02.1 02_heat1d speed C pass 0
ex02.1_gb2 ex02.1 02_heat1d walls A skip 0
ex02.1_gb2 ex02.1 02_heat1d memcheck B pass 0
ex02.1_gb3 ex02.1 02_heat1d walls A pass 0
ex02.1_gb3 ex02.1 02_heat1d speed C pass 0"
run "$d" JOBS=1 TEST_TIMEOUT=7 DEADLINE_S=600
check "a survivor not listed: exit 1" test "$(cat "$d/rc")" = 1
check "killed by its plain case" test "$(verdict "$d" ex01.1_ga1)" = "killed|primes"
check "killed by its sanitizer test" test "$(verdict "$d" ex01.1_ga2)" = "killed|memcheck"
check "killed by its speed test" test "$(verdict "$d" ex01.1_ga3)" = "killed|speed"
check "a listed survivor is equivalent" test "$(verdict "$d" ex01.1_ga4)" = "equivalent|"
check "a grader that does not build" test "$(verdict "$d" ex01.1_ga5)" = "build_failed|"
check "a timeout kills, marked" test "$(verdict "$d" ex02.1_gb1)" = "killed|walls(timeout)"
check "a skipped test: skipped" test "$(verdict "$d" ex02.1_gb2)" = "skipped|"
check "an unlisted survivor" test "$(verdict "$d" ex02.1_gb3)" = "survived|"
check "the time limit configured" test "$(cat "$d/bin/test_timeout.txt")" = 7
check "limits: 1x plain, 3x sanitizer, 2x speed" test \
  "$(awk '{split($1, p, "."); print p[4], $2}' "$d/bin/calls.log" | sort -u | paste -sd,)" \
  = "memcheck 21,primes 7,speed 14,walls 7"
check "no speed test for a killed mutant" test -z "$(grep -E 'g(a1|a2|b1)\.speed' "$d/bin/calls.log")"
check "round-robin across exercises" test \
  "$(awk '{split($1, p, "."); print p[2] "." p[3]}' "$d/bin/calls.log" | uniq | head -6 | paste -sd' ')" \
  = "ex01.1_ga1 ex02.1_gb1 ex01.1_ga2 ex02.1_gb2 ex01.1_ga3 ex02.1_gb3"
check "summary row" grep -qx 'ex01.1,9,5,4,3,1,0,0,100.0%' "$d/out/generated-mutants-summary.csv"
check "the survivor's diff in the text report" grep -q 'SURVIVED ex02.1_gb3' "$d/out/generated-mutants.txt"

# 2. A deadline cuts every exercise alike: 3 exercises x 3 mutants of 1 s each, one at a time,
#    3 s to grade.
d=$tmp/deadline
spec=""
for k in 1 2 3; do
  for e in 01.1 03.2 07.3; do spec+="ex${e}_g00$k ex$e 0${e%%.*}_x primes A fail 1"$'\n'; done
done
make_set "$d" "${spec%$'\n'}"
run "$d" JOBS=1 DEADLINE_S=3 C_RESERVE_S=0
check "past the deadline: exit 0 (every graded one killed)" test "$(cat "$d/rc")" = 0
graded=$(awk -F, 'NR > 1 && $3 != "not_run" {print $2}' "$d/out/generated-mutants.csv" | sort)
check "the deadline left some not run" grep -q not_run "$d/out/generated-mutants.csv"
check "some graded" test -n "$graded"
# Every graded mutant's rank k: no exercise has mutant k graded while another lacks mutant k-1.
check "the graded ones are a round-robin prefix" test "$(for n in $graded; do echo "${n##*_g00}"; done |
  sort | uniq -c | awk 'NR > 1 && $1 > prev {bad = 1} {prev = $1} END {print bad + 0}')" = 0
check "no exercise's second before every exercise's first" \
  test "$(grep -c _g002 <<<"$graded")" -eq 0 -o "$(grep -c _g001 <<<"$graded")" -eq 3

[[ $fails -eq 0 ]] && echo PASS || { echo "FAIL: $fails check(s); logs in $tmp"; cat "$tmp"/*/log; }
[[ $fails -eq 0 ]]
