#!/usr/bin/env bash
# CPU test of cmake/run_generated_mutants.sh with stand-ins for cmake and ctest
# (generated_mutants_fixture/): the verdicts (killed in A, B or C, timeout, survived partly,
# skipped, build failed, survived, listed equivalent), the exit code, each phase's time limit,
# the round-robin order across exercises, no speed test for a killed mutant, a deadline that cuts
# every exercise alike; a timeout graded again alone at the test's own limit; a grader and logs
# left by an earlier run not taken for this one's; JOBS at most 8 by default.
#   test_run_generated_mutants.sh <source dir> <scratch dir>
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
  printf '%s\n' 'ex01.1_ga4   the speed does not change: a reason' 'ex01.1_ga6   another reason' \
    >"$dir/src/cmake/generated_mutants_equivalent.txt"
}
run() { # run <dir> [VAR=value...]: the runner on that set; its exit code in <dir>/rc
  local dir=$1
  shift
  env PATH="$PATH" CMAKE="$fix/fake_cmake.sh" CTEST="$fix/fake_ctest.sh" ARCHS=none "$@" \
    bash "$src/cmake/run_generated_mutants.sh" "$dir/src" "$dir/mut" "$dir/bin" "$dir/out" \
    >"$dir/log" 2>&1
  echo $? >"$dir/rc"
}
verdict() { awk -F, -v n="$2" '$2 == n {print $3 "|" $4}' "$1/out/generated-mutants.csv"; }
calls() { # calls <dir> <configure> [awk condition]: the stand-in ctest's calls.log lines of that
  awk -v c="$2" "\$4 == c ${3:+&& ($3)}" "$1/bin/calls.log" # configuration (1 first, 2 phase R)
}

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
ex02.1_gb3 ex02.1 02_heat1d speed C pass 0
ex01.1_ga6 ex01.1 01_vecadd primes A skip 0
ex01.1_ga6 ex01.1 01_vecadd speed C pass 0
ex02.1_gb4 ex02.1 02_heat1d walls A slow 0
ex02.1_gb4 ex02.1 02_heat1d memcheck B pass 0
ex02.1_gb4 ex02.1 02_heat1d speed C fail 0
ex02.1_gb5 ex02.1 02_heat1d walls A pass 0
ex02.1_gb5 ex02.1 02_heat1d speed C slow 0
ex02.1_gb6 ex02.1 02_heat1d walls A skip 0"
# What an earlier run left: the grader of a mutant that no longer compiles, logs and results.
mkdir -p "$d/bin/mistakes/01_vecadd/ex01.1_ga5" "$d/out/generated-logs"
printf '#!/bin/sh\n' >"$d/bin/mistakes/01_vecadd/ex01.1_ga5/mistake_ex01_1_ga5"
chmod +x "$d/bin/mistakes/01_vecadd/ex01.1_ga5/mistake_ex01_1_ga5"
echo "killed primes" >"$d/out/generated-logs/ex01.1_gold.A.result"
echo "old log" >"$d/out/generated-logs/ex01.1_gold.A.log"
run "$d" JOBS=1 TEST_TIMEOUT=7 DEADLINE_S=600 R_TIMEOUT=90
check "a survivor not listed: exit 1" test "$(cat "$d/rc")" = 1
check "killed by its plain case" test "$(verdict "$d" ex01.1_ga1)" = "killed|primes"
check "killed by its sanitizer test" test "$(verdict "$d" ex01.1_ga2)" = "killed|memcheck"
check "killed by its speed test" test "$(verdict "$d" ex01.1_ga3)" = "killed|speed"
check "a listed survivor is equivalent" test "$(verdict "$d" ex01.1_ga4)" = "equivalent|"
check "a grader that does not build (an earlier run's left in place): build_failed" \
  test "$(verdict "$d" ex01.1_ga5)" = "build_failed|"
check "no log or result of an earlier run kept" \
  test ! -e "$d/out/generated-logs/ex01.1_gold.A.result" -a ! -e "$d/out/generated-logs/ex01.1_gold.A.log"
check "a timeout again, alone at its own limit, kills, marked" \
  test "$(verdict "$d" ex02.1_gb1)" = "killed|walls(timeout)"
check "... graded again at its own limit (120), alone, after configuring without the runner's" \
  test "$(calls "$d" 2 '$1 ~ /gb1/')" = "mistake.ex02.1_gb1.walls 120 1 2"
check "a timeout only under the runner's limit: graded on, killed by its speed test" \
  test "$(verdict "$d" ex02.1_gb4)" = "killed|speed"
check "... its A, B and C again at their own limits, alone" \
  test "$(calls "$d" 2 '$1 ~ /gb4/' | paste -sd,)" \
  = "mistake.ex02.1_gb4.walls 120 1 2,mistake.ex02.1_gb4.memcheck 120 1 2,mistake.ex02.1_gb4.speed 120 1 2"
check "... and its B and C not before (its first A timed out)" \
  test -z "$(calls "$d" 1 '$1 ~ /gb4[.](memcheck|speed)/')"
check "a speed test in time only at its own limit: survived" test "$(verdict "$d" ex02.1_gb5)" = "survived|"
check "phase R: only those that timed out, after every other test" test \
  "$(awk '{print $4}' "$d/bin/calls.log" | uniq | paste -sd,)/$(calls "$d" 2 | awk '{print $1}' |
    cut -d. -f2,3 | sort -u | paste -sd,)" = "1,2/ex02.1_gb1,ex02.1_gb4,ex02.1_gb5"
check "some test skipped, every other passed: survived_partly" \
  test "$(verdict "$d" ex02.1_gb2)" = "survived_partly|"
check "every test skipped: skipped" test "$(verdict "$d" ex02.1_gb6)" = "skipped|"
check "survived partly and listed: equivalent" test "$(verdict "$d" ex01.1_ga6)" = "equivalent|"
check "an unlisted survivor" test "$(verdict "$d" ex02.1_gb3)" = "survived|"
check "the time limit configured, then the own limits (phase R)" \
  test "$(paste -sd, "$d/bin/test_timeouts.txt")" = "7,"
check "R_TIMEOUT caps the tests' own limits in phase R only" \
  test "$(paste -sd, "$d/bin/test_timeout_caps.txt")" = ",90"
check "limits: 1x plain, 3x sanitizer, 2x speed" test \
  "$(calls "$d" 1 | awk '{split($1, p, "."); print p[4], $2}' | sort -u | paste -sd,)" \
  = "memcheck 21,primes 7,speed 14,walls 7"
check "no speed test for a killed mutant" test -z "$(grep -E 'g(a1|a2|b1)\.speed' "$d/bin/calls.log")"
check "round-robin across exercises" test \
  "$(awk '{split($1, p, "."); print p[2] "." p[3]}' "$d/bin/calls.log" | uniq | head -6 | paste -sd' ')" \
  = "ex01.1_ga1 ex02.1_gb1 ex01.1_ga2 ex02.1_gb2 ex01.1_ga3 ex02.1_gb3"
check "summary header" test "$(head -1 "$d/out/generated-mutants-summary.csv")" = \
  "exercise,generated,sampled,compiled,killed,equivalent,survived,survived_partly,not_run,kill_rate"
check "summary rows" test "$(tail -n +2 "$d/out/generated-mutants-summary.csv" | paste -sd' ')" = \
  "ex01.1,9,6,5,3,2,0,0,0,100.0% ex02.1,9,6,6,2,0,2,1,1,40.0%"
check "the survivor's diff in the text report" grep -q 'SURVIVED ex02.1_gb3' "$d/out/generated-mutants.txt"
check "the partial survivor with the survivors, its skipped test named" \
  grep -q 'SURVIVED_PARTLY ex02.1_gb2 (ex02.1): ex02.1_gb2 changed (skipped: walls)' "$d/out/generated-mutants.txt"

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

# 3. The parallel pool (JOBS by default: the cores, at most 8) and its timeouts graded again one
#    at a time, after it, at the tests' own limits.
d=$tmp/pool
mkdir -p "$tmp/cores"
printf '#!/bin/sh\necho 64\n' >"$tmp/cores/nproc" && chmod +x "$tmp/cores/nproc"
make_set "$d" "ex01.1_gc1 ex01.1 01_vecadd primes A slow 1
ex01.1_gc2 ex01.1 01_vecadd primes A slow 1
ex01.1_gc3 ex01.1 01_vecadd primes A pass 2
ex01.1_gc4 ex01.1 01_vecadd primes A fail 2"
PATH="$tmp/cores:$PATH" run "$d" TEST_TIMEOUT=7 DEADLINE_S=600
check "64 cores: 8 at a time" grep -q 'phase AB: 4 mutants, 8 at a time' "$d/log"
check "the pool ran side by side" test "$(calls "$d" 1 | awk '$3 > m {m = $3} END {print m + 0}')" -ge 2
check "phase R one at a time, at the own limit" \
  test "$(calls "$d" 2 | awk '{print $1, $2, $3}' | sort | paste -sd,)" \
  = "mistake.ex01.1_gc1.primes 120 1,mistake.ex01.1_gc2.primes 120 1"
check "in time at their own limits: survived" \
  test "$(verdict "$d" ex01.1_gc1)/$(verdict "$d" ex01.1_gc2)/$(cat "$d/rc")" = "survived|/survived|/1"
check "the failure in the pool kills" test "$(verdict "$d" ex01.1_gc4)" = "killed|primes"

# 4. A partial survivor counts in the exit code like a survivor, unless listed.
d=$tmp/partly_listed
make_set "$d" "ex01.1_ga6 ex01.1 01_vecadd primes A skip 0
ex01.1_ga6 ex01.1 01_vecadd speed C pass 0
ex02.1_gd1 ex02.1 02_heat1d walls A fail 0"
run "$d" JOBS=2
check "a listed partial survivor: exit 0" test "$(cat "$d/rc")" = 0
d=$tmp/partly
make_set "$d" "ex02.1_gd1 ex02.1 02_heat1d walls A fail 0
ex02.1_gd2 ex02.1 02_heat1d walls A pass 0
ex02.1_gd2 ex02.1 02_heat1d memcheck B skip 0"
run "$d" JOBS=2
check "an unlisted partial survivor: exit 1" test "$(verdict "$d" ex02.1_gd2)/$(cat "$d/rc")" = "survived_partly|/1"

# 5. A timeout that the deadline leaves no time to grade again (its 3 s test ends past the 2 s
#    deadline): not run, and said so.
d=$tmp/late
make_set "$d" "ex01.1_ge1 ex01.1 01_vecadd primes A slow 3"
run "$d" JOBS=1 DEADLINE_S=2 C_RESERVE_S=0
check "past the deadline: not re-run" \
  test "$(verdict "$d" ex01.1_ge1)/$(cat "$d/bin/configures.txt")" = "not_run|primes(timeout under load; not re-run)/1"

[[ $fails -eq 0 ]] && echo PASS || { echo "FAIL: $fails check(s); logs in $tmp"; cat "$tmp"/*/log; }
[[ $fails -eq 0 ]]
