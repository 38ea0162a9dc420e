#!/usr/bin/env bash
# run_generated_mutants.sh <source dir> <mutants dir> <build dir> <out dir>
#
# Grades a sample of generated mutants (tools/mutants.py sample --out <mutants dir>) with the
# corpus machinery (cmake/Mistakes.cmake, -DTUTORIAL_GENERATED_MUTANTS): configures <build dir>
# for the solutions with a grader per mutant, builds the graders (in parallel, after deleting the
# sample's graders a previous run left there; one that does not compile is counted, not graded),
# then runs each mutant's grader tests, stopping a mutant at its first failed test (a failed test
# loses points: the mutant is killed):
#   A  its plain cases, then, if it is still alive, B its sanitizer tests: JOBS mutants at once,
#      taken round-robin across the exercises (the first mutant of every exercise, then the
#      second of every exercise, ...), so that a deadline cuts every exercise alike;
#   C  then, for those still alive, the serial cases and the speed test, one at a time, alone on
#      the GPU (a killed mutant runs no speed test);
#   R  then a mutant whose only failure was a timeout (the runner's shorter limit, maybe beside
#      other jobs) is graded again, one at a time, alone on the GPU, at the tests' own limits
#      (<build dir> configured again without TUTORIAL_GENERATED_TEST_TIMEOUT): from the phase that
#      timed out, on to C. It is killed if a test fails or times out again; otherwise it goes on.
# A mutant that passes every test keeps 10/10: it survived, unless the committed list
# cmake/generated_mutants_equivalent.txt names it (equivalent). One that passed every test that
# ran, but some skipped (77), survived_partly: a survivor too (listed: equivalent). One whose
# every test skipped is `skipped` (not graded). Writes to <out dir> (removing the last run's):
#   generated-mutants.csv          one line a mutant: exercise, id, verdict, the test that killed it
#   generated-mutants-summary.csv  per exercise: generated, sampled, compiled, killed, equivalent,
#                                  survived, survived_partly, not_run, kill rate of the
#                                  non-equivalent (killed / (killed + survived + survived_partly))
#   generated-mutants.txt          the table, and each survivor with its diff (to triage: list it
#                                  as equivalent with a reason, or strengthen the grader)
#   generated-logs/                each phase's ctest log and result, this run's only
# Environment: JOBS (mutants at once in A and B, default: the number of cores, at most 8),
# TEST_TIMEOUT (s, default 90 for a plain case, 3x for a sanitizer test, 2x for a serial case or
# speed, never more than the test's own limit; configured into the tests' TIMEOUT, which ctest's
# --timeout does not override; a timeout there leads to R, a timeout in R kills, marked
# (timeout)), DEADLINE_S (seconds of grading, default 420: no mutant starts A or B after
# DEADLINE_S - C_RESERVE_S, none starts C or R after DEADLINE_S; those left are `not_run`, a
# mutant left before R with killed_by <test>(timeout under load; not re-run)), C_RESERVE_S
# (default DEADLINE_S / 5), R_TIMEOUT (s: R's limit where a test's own is longer; default none),
# ARCHS (default native), BUILD_ONLY (1: configure and build, then stop). CMAKE and CTEST name
# the programs (a CPU test runs this script with stand-ins). Exit 0 when the run completed, 1
# when a mutant survived (in full or partly) that is not listed as equivalent, or a listed one
# was killed; 2 on bad usage.
set -uo pipefail
[[ $# -eq 4 ]] || { sed -n 2,4p "$0"; exit 2; }
for v in TEST_TIMEOUT R_TIMEOUT; do # whole seconds, checked before a run that could waste them
  [[ -z ${!v:-} || ${!v} =~ ^[1-9][0-9]*$ ]] || { echo "$v: '${!v}' is not a whole number of seconds"; exit 2; }
done
src=$(cd "$1" && pwd)
mut=$(cd "$2" && pwd)
bin=$3
out=$4
mkdir -p "$bin" "$out"
bin=$(cd "$bin" && pwd)
out=$(cd "$out" && pwd)
cores=$(nproc)
jobs=${JOBS:-$((cores < 8 ? cores : 8))}
timeout=${TEST_TIMEOUT:-90}
deadline_s=${DEADLINE_S:-420}
reserve_s=${C_RESERVE_S:-$((deadline_s / 5))}
archs=${ARCHS:-native}
cmake=${CMAKE:-cmake}
ctest=${CTEST:-ctest}
equivalents=$src/cmake/generated_mutants_equivalent.txt
work=$out/generated-logs
# Nothing of a previous run may stand for this one: its logs, results and reports go.
rm -rf "$work"
build_only=0
[[ ${BUILD_ONLY:-0} == 1 ]] && build_only=1
# (a build-only run leaves the reports of the last full run in <out dir>)
[[ $build_only == 1 ]] ||
  rm -f "$out/generated-mutants.csv" "$out/generated-mutants-summary.csv" "$out/generated-mutants.txt"
mkdir -p "$work"
generator=()
command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
t0=$(date +%s)

# configure <seconds, or empty for the tests' own limits> [<cap on the tests' own limits>]
configure() {
  "$cmake" -S "$src" -B "$bin" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CUDA_ARCHITECTURES="$archs" -DTUTORIAL_MISTAKES=OFF \
    -DTUTORIAL_GENERATED_MUTANTS="$mut" -DTUTORIAL_GENERATED_TEST_TIMEOUT="$1" \
    -DTUTORIAL_TEST_TIMEOUT_CAP="${2:-}"
}
echo "== configure ($bin)"
configure "$timeout" >"$work/configure.log" 2>&1 ||
  { echo "configure failed: $work/configure.log"; tail -20 "$work/configure.log"; exit 2; }
mapfile -t names < <(sed -n 's/^mistake_entry(NAME \[==\[\([^]]*\)\]==\] EXERCISE \[==\[\([^]]*\)\]==\].*CHAPTER \[==\[\([^]]*\)\]==\].*/\1 \2 \3/p' \
  "$bin/generated_entries.cmake" | sort)
# The grading order: round-robin across the exercises (each exercise's mutants in name order).
mapfile -t order < <(printf '%s\n' "${names[@]}" | awk 'NF { printf "%06d %s\n", rank[$2]++, $0 }' |
  sort -k1,1n -k3,3 -k2,2 | cut -d' ' -f2-)
echo "== ${#names[@]} mutants; build their graders ($(( $(date +%s) - t0 )) s)"
grader() { echo "$bin/mistakes/$2/$1/mistake_${1//./_}"; } # grader <name> <chapter>
targets=(tutorial_gpu_probe)
for row in "${names[@]}"; do
  read -r name _ ch <<<"$row"
  targets+=("mistake_${name//./_}")
  # A grader left by an earlier run stays in place when this patch does not compile (-k 0):
  # delete it, so that only one built now is graded.
  rm -f "$(grader "$name" "$ch")"
done
keep_going=(-k); [[ ${#generator[@]} -gt 0 ]] && keep_going=(-k 0)
"$cmake" --build "$bin" -j "$cores" --target "${targets[@]}" -- "${keep_going[@]}" \
  >"$work/build.log" 2>&1
echo "== built ($(( $(date +%s) - t0 )) s)"
# BUILD_ONLY=1: stop here (a GPU machine builds while its GPUs do other work; the grading run
# then configures and links again, and finds the objects in place).
[[ $build_only == 1 ]] && exit 0

declare -A exercise chapter verdict by skipped skipped_tests ran killed_in
for row in "${names[@]}"; do
  read -r name ex ch <<<"$row"
  exercise[$name]=$ex
  chapter[$name]=$ch
  if [[ -x $(grader "$name" "$ch") ]]; then
    verdict[$name]=alive
  else
    verdict[$name]=build_failed
  fi
done

# phase_one <phase> <name> [rerun]: runs the mutant's tests of that phase, stops at the first
# failure; writes <work>/<name>.<phase>[.rerun].result: "killed <test>", "passed", "partly
# <skipped tests>" (some skipped, the others passed), "skipped <tests>" (every one skipped),
# "none" (no test in this phase) or "not_run" (not started: past the phase's deadline, stop_ab
# for A and B, stop_c for C and for every re-run, in seconds since epoch). A re-run passes no
# --timeout (the build is configured with the tests' own limits by then).
phase_one() {
  local phase=$1 name=$2 tag=${3:-} tests regex stop=$stop_ab base
  base=$work/$name.$phase${tag:+.$tag}
  [[ $phase == C || -n $tag ]] && stop=$stop_c
  tests=$(awk -F'|' -v n="$name" -v p="$phase" '$1 == n && $3 == p {print $2}' "$bin/generated_tests.txt")
  if [[ -z $tests ]]; then
    echo none >"$base.result" # no test in this phase: nothing to wait for
    return
  fi
  if (( $(date +%s) >= stop )); then
    echo not_run >"$base.result"
    return
  fi
  regex="^($(echo "$tests" | sed 's/[.]/\\./g' | paste -sd'|'))\$"
  # Sanitizers run several times slower, and more so beside each other: a longer limit.
  local limit=(--timeout "$timeout")
  [[ $phase == B ]] && limit=(--timeout $((3 * timeout)))
  [[ $phase == C ]] && limit=(--timeout $((2 * timeout)))
  [[ -n $tag ]] && limit=()
  "$ctest" --test-dir "$bin" -R "$regex" --stop-on-failure "${limit[@]}" >"$base.log" 2>&1
  local failed
  failed=$(grep -oE '[0-9]+ - [^ ]+ \((Failed|Timeout|SEGFAULT|Subprocess aborted|Exception|Child aborted|Bus error|ILLEGAL)\)' \
    "$base.log" | awk '{print $3 ($4 == "(Timeout)" ? "(timeout)" : "")}' | head -1)
  if [[ -n $failed ]]; then
    echo "killed ${failed#mistake.$name.}" >"$base.result"
  elif grep -qE '\*\*\*Skipped|Not Run' "$base.log"; then
    # A test skipped (77): graded by the others only.
    local how=skipped
    grep -qE 'Test +#[0-9]+: .*[[:space:]]Passed' "$base.log" && how=partly
    echo "$how $(sed -nE 's/.*Test +#[0-9]+: ([^ ]+) .*\*\*\*(Skipped|Not Run).*/\1/p' "$base.log" |
      sed "s/^mistake[.]${name}[.]//" | paste -sd' ')" >"$base.result"
  else
    echo passed >"$base.result"
  fi
}
# grade_ab <name>: A, then B if the mutant is still alive (one slot of the parallel phase).
grade_ab() {
  phase_one A "$1"
  case $(cat "$work/$1.A.result") in
  passed | partly* | skipped* | none) phase_one B "$1" ;;
  esac
}
export -f phase_one grade_ab
graded_at=$(date +%s)
stop_c=$((graded_at + deadline_s))
stop_ab=$((stop_c - reserve_s))
export bin work timeout ctest stop_ab stop_c
# collect <phase> <tag> <names...>: reads the results of a phase into the verdicts.
collect() {
  local phase=$1 tag=$2 name result
  shift 2
  for name in "$@"; do
    [[ ${verdict[$name]} == alive ]] || continue
    result=$(cat "$work/$name.$phase${tag:+.$tag}.result" 2>/dev/null || echo not_run)
    case $result in
    killed*) verdict[$name]=killed; by[$name]=${result#killed }; killed_in[$name]=$phase ;;
    not_run) verdict[$name]=not_run ;;
    partly*) skipped[$name]=1; ran[$name]=1; skipped_tests[$name]+=" ${result#partly }" ;;
    skipped*) skipped[$name]=1; skipped_tests[$name]+=" ${result#skipped }" ;;
    passed) ran[$name]=1 ;;
    esac
  done
}
for phase in AB C; do
  alive=()
  for row in "${order[@]}"; do
    read -r name _ <<<"$row"
    [[ ${verdict[$name]} == alive ]] && alive+=("$name")
  done
  p=$jobs
  [[ $phase == C ]] && p=1
  echo "== phase $phase: ${#alive[@]} mutants, $p at a time ($(( $(date +%s) - t0 )) s)"
  [[ ${#alive[@]} -eq 0 ]] && continue
  if [[ $phase == AB ]]; then
    printf '%s\n' "${alive[@]}" | xargs -P "$p" -I{} bash -c "grade_ab {}"
    collect A "" "${alive[@]}"
    collect B "" "${alive[@]}"
  else
    printf '%s\n' "${alive[@]}" | xargs -P 1 -I{} bash -c "phase_one C {}"
    collect C "" "${alive[@]}"
  fi
done
# Phase R: a timeout under the runner's limit, maybe beside other jobs, is no kill yet.
suspects=()
for row in "${order[@]}"; do
  read -r name _ <<<"$row"
  [[ ${verdict[$name]} == killed && ${by[$name]} == *'(timeout)' ]] && suspects+=("$name")
done
echo "== phase R: ${#suspects[@]} mutants only timed out, 1 at a time, own limits ($(( $(date +%s) - t0 )) s)"
if [[ ${#suspects[@]} -gt 0 ]]; then
  reconfigured=no
  if (( $(date +%s) < stop_c )); then
    if configure "" "${R_TIMEOUT:-}" >"$work/reconfigure.log" 2>&1; then
      reconfigured=yes
    else
      echo "configure with the tests' own limits failed: $work/reconfigure.log"
    fi
  fi
  for name in "${suspects[@]}"; do
    first=${killed_in[$name]} timed_out=${by[$name]}
    verdict[$name]=alive
    unset "by[$name]"
    for phase in A B C; do
      [[ $phase < $first ]] && continue
      [[ ${verdict[$name]} == alive ]] || break
      if [[ $reconfigured == yes ]]; then
        phase_one "$phase" "$name" rerun
        collect "$phase" rerun "$name"
      else
        verdict[$name]=not_run
      fi
      # Not started again at all: the test that timed out is all there is to say.
      [[ $phase == "$first" && ${verdict[$name]} == not_run ]] &&
        by[$name]="${timed_out%(timeout)}(timeout under load; not re-run)"
    done
  done
fi
for row in "${names[@]}"; do
  read -r name _ <<<"$row"
  if [[ ${verdict[$name]} == alive ]]; then
    verdict[$name]=survived
    if [[ -n ${skipped[$name]:-} ]]; then
      verdict[$name]=skipped # every test skipped: not graded
      [[ -n ${ran[$name]:-} ]] && verdict[$name]=survived_partly
    fi
  fi
done
# Mutants left out at configure time (their diff no longer applies: the solution changed).
while IFS='|' read -r name why; do
  [[ $name =~ ^ex[0-9][0-9]\.[0-9]+_g[0-9a-f]+$ ]] || continue
  ex=${name%%_g*}
  ch=$(ls -d "$mut"/*/ | while read -r d; do [[ -f $d/$name.patch ]] && basename "$d"; done | head -1)
  names+=("$name $ex $ch")
  exercise[$name]=$ex chapter[$name]=$ch verdict[$name]=stale
done <"$bin/generated_stale.txt"
echo "== graded ($(( $(date +%s) - t0 )) s)"

# The report.
listed() { grep -qE "^$1[[:space:]]" "$equivalents" 2>/dev/null; }
what_of() { sed -n 's/^# what: //p' "$mut/${chapter[$1]}/$1.patch" | head -1; }
csv=$out/generated-mutants.csv
echo "exercise,id,verdict,killed_by,listed_equivalent,what" >"$csv"
bad=0
declare -A n_sampled n_compiled n_killed n_equiv n_surv n_partly n_notrun
survivors_text=""
for row in "${names[@]}"; do
  read -r name ex _ <<<"$row"
  v=${verdict[$name]}
  eq=no
  listed "$name" && eq=yes
  if [[ $v == survived* && $eq == yes ]]; then v=equivalent; fi
  if [[ $v == killed && $eq == yes ]]; then
    v=killed_but_listed_equivalent
    bad=$((bad + 1))
  fi
  w=$(what_of "$name")
  echo "$ex,$name,$v,${by[$name]:-},$eq,\"${w//\"/\'}\"" >>"$csv"
  n_sampled[$ex]=$(( ${n_sampled[$ex]:-0} + 1 ))
  [[ $v != build_failed && $v != stale ]] && n_compiled[$ex]=$(( ${n_compiled[$ex]:-0} + 1 ))
  case $v in
  killed | killed_but_listed_equivalent) n_killed[$ex]=$(( ${n_killed[$ex]:-0} + 1 )) ;;
  equivalent) n_equiv[$ex]=$(( ${n_equiv[$ex]:-0} + 1 )) ;;
  survived)
    n_surv[$ex]=$(( ${n_surv[$ex]:-0} + 1 ))
    bad=$((bad + 1))
    survivors_text+=$'\n'"---- SURVIVED $name ($ex): $w"$'\n'
    survivors_text+=$(sed -n '/^--- a\//,$p' "$mut/${chapter[$name]}/$name.patch")$'\n'
    ;;
  survived_partly)
    n_partly[$ex]=$(( ${n_partly[$ex]:-0} + 1 ))
    bad=$((bad + 1))
    survivors_text+=$'\n'"---- SURVIVED_PARTLY $name ($ex): $w (skipped:${skipped_tests[$name]:-})"$'\n'
    survivors_text+=$(sed -n '/^--- a\//,$p' "$mut/${chapter[$name]}/$name.patch")$'\n'
    ;;
  not_run | skipped | stale) n_notrun[$ex]=$(( ${n_notrun[$ex]:-0} + 1 )) ;;
  esac
done
summary=$out/generated-mutants-summary.csv
echo "exercise,generated,sampled,compiled,killed,equivalent,survived,survived_partly,not_run,kill_rate" >"$summary"
table=$(printf '%-8s %9s %7s %8s %6s %10s %8s %15s %7s %9s' exercise generated sampled compiled \
  killed equivalent survived survived_partly not_run kill_rate)
for ex in $(printf '%s\n' "${!n_sampled[@]}" | sort); do
  generated=$(awk -F, -v e="$ex" '$1 == e {print $2}' "$mut/counts.csv" 2>/dev/null)
  k=${n_killed[$ex]:-0} e=${n_equiv[$ex]:-0} s=${n_surv[$ex]:-0} sp=${n_partly[$ex]:-0}
  rate=$(awk -v k="$k" -v s="$((s + sp))" 'BEGIN { if (k + s) printf "%.1f%%", 100 * k / (k + s); else print "-" }')
  echo "$ex,${generated:-?},${n_sampled[$ex]},${n_compiled[$ex]:-0},$k,$e,$s,$sp,${n_notrun[$ex]:-0},$rate" >>"$summary"
  table+=$'\n'$(printf '%-8s %9s %7s %8s %6s %10s %8s %15s %7s %9s' "$ex" "${generated:-?}" \
    "${n_sampled[$ex]}" "${n_compiled[$ex]:-0}" "$k" "$e" "$s" "$sp" "${n_notrun[$ex]:-0}" "$rate")
done
seed=$(cat "$mut/seed.txt" 2>/dev/null)
{
  echo "===== Generated mutants (seed and per-exercise sample: $seed), $(( $(date +%s) - t0 )) s"
  echo "$table"
  echo
  echo "killed: a grader test failed, or timed out alone on the GPU at its own limit (the mutant"
  echo "loses points); survived_partly: passed every test that ran, some skipped (77); equivalent:"
  echo "survived (in full or partly) and listed in cmake/generated_mutants_equivalent.txt;"
  echo "kill_rate = killed / (killed + survived + survived_partly); not_run: past the deadline, every"
  echo "test skipped (77), or stale (the diff no longer applies)."
  [[ -n $survivors_text ]] && echo "$survivors_text"
} | tee "$out/generated-mutants.txt"
[[ $bad -eq 0 ]]
