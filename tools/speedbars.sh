#!/usr/bin/env bash
# tools/speedbars.sh: the speed bars' distributions (docs/teaching.md, "Speed bars with margin").
# Every speed-graded exercise's solution and its correct-but-slow corpus entries, RUNS (default 5)
# timed --speed runs each, run-major; then ex07.2's cases on the solution and its 3 fence entries,
# and the stream-capture cases of ex06.1 and ex06.3 on their solutions and entries. About 4 to 8
# minutes on one H100; SPEED_EXERCISES="ex06.1 ex06.3" measures those alone, SPEED_ONLY=1 skips
# the structure cases. No network.
#
#   RESULTS=out tools/speedbars.sh      (BUILD=build by default)
#
# Needs a build of the solutions with -DTUTORIAL_MISTAKES=ON (native architecture is enough);
# builds only the graders it runs. TUTORIAL_COMMIT, if set, names the commit in the CSV.
# Writes into "$RESULTS":
#   speed_distributions.csv  one row per --speed run: exercise, submission, kind (solution |
#                            slow), run, seed, ratio, bar, exit, gpu, commit, toolkit, date
#                            (commit it as docs/results/gpu-check/speed_distributions.h100.csv)
#   speed_table.txt          per exercise: the solution's slowest ratio, the slow entries'
#                            fastest, the range a bar with 15% margin on both sides may take
#   speed_bars_check.log     common/tests/test_speed_bars live on the new CSV (the CPU test that
#                            becomes live once the CSV is committed)
#   ex07_2_fences.csv, .log  ex07.2's grader, every case, on the solution and the fence entries;
#                            and ex06.1 "streams", ex06.3 "overlap" on their solutions and
#                            entries (their output: ex06_structure.log)
#   speed_runs.log           every run's output
set -u
cd "$(dirname "$0")/.."
: "${RESULTS:?set RESULTS to the output folder}"
BUILD=${BUILD:-build}
RUNS=${RUNS:-5}
mkdir -p "$RESULTS"
start=$SECONDS

manifest=$BUILD/exercise_manifest.cmake
if [ ! -f "$manifest" ]; then
  echo "error: $manifest missing: build '$BUILD' first (-DTUTORIAL_MISTAKES=ON)" | tee "$RESULTS/error.txt"
  exit 2
fi

# ---- What to measure: every exercise with SPEED 1, and its corpus entries expecting <id>.speed.
exercises=$(sed -n 's/.*ID \[\[\(ex[0-9][0-9]\.[0-9]*\)\]\] CHAPTER \[\[\([^]]*\)\]\].* SPEED 1 .*/\1:\2/p' "$manifest")
declare -a subs=()   # "exercise:chapter:kind:name:binary"
targets="test_speed_bars grade_ex07_2"
for e in $exercises; do
  id=${e%%:*}; chapter=${e#*:}
  # SPEED_EXERCISES="ex06.1 ex06.3": those alone
  [[ -n ${SPEED_EXERCISES:-} && " $SPEED_EXERCISES " != *" $id "* ]] && continue
  grader=grade_${id//./_}
  subs+=("$id:$chapter:solution:solution:$BUILD/$chapter/$grader")
  targets="$targets $grader"
  for p in "$chapter"/tests/mistakes/"$id"_*.patch; do
    [ -f "$p" ] || continue
    grep -q "^# expect: ${id//./\\.}\.speed\$" "$p" || continue
    name=$(basename "$p" .patch)
    subs+=("$id:$chapter:slow:$name:$BUILD/mistakes/$chapter/$name/mistake_${name//./_}")
    targets="$targets mistake_${name//./_}"
  done
done
fence_entries="ex07.2_mutex_fences_wrong_side ex07.2_mutex_block_scope_fences ex07.2_mutex_without_fences"
pipeline_entries=$(ls 06_streams/tests/mistakes/ex06.[13]_*.patch 2>/dev/null | xargs -n1 basename 2>/dev/null | sed 's/\.patch$//')
if [[ ${SPEED_ONLY:-0} != 1 ]]; then # the structure cases' programs
  for name in $fence_entries $pipeline_entries; do targets="$targets mistake_${name//./_}"; done
  targets="$targets grade_ex06_1 grade_ex06_3"
else
  targets=${targets/grade_ex07_2/}
fi
echo "building: $targets"
cmake --build "$BUILD" -j 16 --target $targets > "$RESULTS/build.log" 2>&1 ||
  { echo "error: the build failed (build.log)"; tail -30 "$RESULTS/build.log"; }

gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 | tr -d ',')
commit=${TUTORIAL_COMMIT:0:12}
[ -n "$commit" ] || commit=$(git rev-parse --short=12 HEAD 2>/dev/null ||
         sed -n 's/.*TUT_GIT_COMMIT "\(.*\)"/\1/p' "$BUILD/common/commit.h" 2>/dev/null)
[ -z "${TUTORIAL_COMMIT:-}" ] && [ -n "$(git status --porcelain 2>/dev/null | grep -v '^??')" ] && commit="$commit-dirty"
toolkit=$(sed -n 's/^CMAKE_CUDA_COMPILER_VERSION:[A-Z]*=//p' "$BUILD/CMakeCache.txt" | head -1)
[ -n "$toolkit" ] || toolkit=$(nvcc --version 2>/dev/null | sed -n 's/.*release \([0-9.]*\).*/\1/p')
day=$(date -u +%F)
echo "GPU ${gpu:-?}, commit ${commit:-?}, toolkit ${toolkit:-?}, $day; ${#subs[@]} submissions x $RUNS runs"

# ---- The runs: run-major (every submission once, then again), so that a drift of the GPU's
# clocks or temperature spreads over all submissions instead of landing on one.
csv=$RESULTS/speed_distributions.csv
log=$RESULTS/speed_runs.log
{
  echo "# speed ratios of every speed-graded exercise's solution and correct-but-slow corpus entries (tools/speedbars.sh)"
  echo "# gpu: $gpu; commit: $commit; toolkit: $toolkit; date: $day; runs: $RUNS"
  echo "exercise,submission,kind,run,seed,ratio,bar,exit,gpu,commit,toolkit,date"
} > "$csv"
: > "$log"
for run in $(seq 1 "$RUNS"); do
  seed=$((27000 + run))
  for s in "${subs[@]}"; do
    IFS=: read -r id chapter kind name bin <<< "$s"
    if [ ! -x "$bin" ]; then
      echo "$id,$name,$kind,$run,$seed,,,missing,$gpu,$commit,$toolkit,$day" >> "$csv"
      echo "== $id $name run $run: $bin missing" >> "$log"
      continue
    fi
    out=$(timeout 300 "$bin" --speed --seed "$seed" 2>&1); rc=$?
    printf '== %s %s run %d (seed %d): exit %d\n%s\n' "$id" "$name" "$run" "$seed" "$rc" "$out" >> "$log"
    line=$(printf '%s\n' "$out" | sed -n 's/.*: ratio \([0-9.eE+-]*\), bar \([0-9.eE+-]*\) -> .*/\1,\2/p' | tail -1)
    [ -n "$line" ] || line=","
    echo "$id,$name,$kind,$run,$seed,$line,$rc,$gpu,$commit,$toolkit,$day" >> "$csv"
  done
  echo "run $run of $RUNS done: $((SECONDS - start)) s"
done

# ---- The table: per exercise, the worst of each side and the range of bars with 15% margin.
{
  printf "%-8s %6s %14s %14s %18s  %s\n" exercise bar "solution min" "slow max" "15% range" verdict
  awk -F, -v m=0.15 '
    /^#/ || $1 == "exercise" { next }
    {
      ex = $1; seen[ex] = 1; if ($7 != "") bar[ex] = $7
      if ($6 == "") { failed[ex] = failed[ex] " " $2 "#" $4; next }
      if ($3 == "solution") { if (!(ex in smin) || $6 + 0 < smin[ex]) smin[ex] = $6 + 0; ns[ex]++ }
      else                  { if (!(ex in wmax) || $6 + 0 > wmax[ex]) wmax[ex] = $6 + 0; nw[ex]++ }
    }
    END {
      for (ex in seen) {
        hi = (ex in smin) ? (1 - m) * smin[ex] : -1
        lo = (ex in wmax) ? (1 + m) * wmax[ex] : 0
        if (!(ex in smin)) verdict = "NO SOLUTION RATIO"
        else if (lo > hi) verdict = "NO BAR HAS THE MARGIN: replace it by a structural check"
        else if (bar[ex] != "" && bar[ex] + 0 >= lo && bar[ex] + 0 <= hi) verdict = "bar ok"
        else verdict = sprintf("MOVE THE BAR into the range (e.g. %.3g)", (lo > 0 ? sqrt(lo * hi) : 0.8 * hi))
        if (failed[ex] != "") verdict = verdict "; runs without a ratio:" failed[ex]
        printf "%-8s %6s %9.3f (%2d) %9s (%2d) [%7.3f, %7.3f]  %s\n", ex, bar[ex], smin[ex], ns[ex],
               (ex in wmax) ? sprintf("%.3f", wmax[ex]) : "none", nw[ex], lo, hi, verdict
      }
    }' "$csv" | sort
} | tee "$RESULTS/speed_table.txt"

# The CPU test on the new file (what it will say once the CSV is committed).
if [ -x "$BUILD/common/tests/test_speed_bars" ]; then
  "$BUILD/common/tests/test_speed_bars" live "$csv" > "$RESULTS/speed_bars_check.log" 2>&1
  echo "test_speed_bars live: exit $? (speed_bars_check.log)"
fi

# SPEED_ONLY=1: the speed runs alone, without the structure cases below.
if [[ ${SPEED_ONLY:-0} == 1 ]]; then
  echo "done in $((SECONDS - start)) s (speed runs only)"
  exit 0
fi

# ---- ex07.2: the fence order (the "fences" case reads the grader's own SASS) and the runs, on
# the solution and the fence entries. Expected: the solution passes every case; every entry
# fails "fences" (exit 1), without_fences also "blocks".
fcsv=$RESULTS/ex07_2_fences.csv
flog=$RESULTS/ex07_2_fences.log
echo "submission,case,seed,exit" > "$fcsv"
: > "$flog"
for name in solution $fence_entries; do
  if [ "$name" = solution ]; then bin=$BUILD/07_atomics_mutex/grade_ex07_2
  else bin=$BUILD/mistakes/07_atomics_mutex/$name/mistake_${name//./_}; fi
  for c in one warps blocks random fences; do
    seeds=27001
    # the runs that a misplaced fence might lose a deposit in: three seeds each
    [ "$c" = blocks ] && [ "$name" != solution ] && seeds="27001 27002 27003"
    for seed in $seeds; do
      out=$(timeout 120 "$bin" --case "$c" --seed "$seed" 2>&1); rc=$?
      printf '== %s %s seed %s: exit %d\n%s\n' "$name" "$c" "$seed" "$rc" "$out" >> "$flog"
      echo "$name,$c,$seed,$rc" >> "$fcsv"
    done
  done
done
# ---- The stream-capture cases: ex06.1's "streams" (each chunk's copies and kernel on stream
# c % streams, over its slice) and ex06.3's "overlap" (each buffer set copied by its own stream
# only), on the solutions (3 seeds) and every entry of those exercises (1 seed). Expected: 0 for the
# solutions and ex06.1_pipeline_breadth_first (an alternative); 1 for the slow entries that
# only the speed bar caught before (ex06.1: one_stream, sync_each_chunk, synchronous_copies,
# whole_copy_in; ex06.3: one_stream, sync_each_chunk); the other entries fail other cases.
for name in ex06.1 ex06.3 $pipeline_entries; do
  id=${name:0:6}
  case $id in ex06.1) c=streams ;; *) c=overlap ;; esac
  if [ "$name" = "$id" ]; then sub=solution; bin=$BUILD/06_streams/grade_${id//./_}
  else sub=$name; bin=$BUILD/mistakes/06_streams/$name/mistake_${name//./_}; fi
  seeds=27001
  [ "$sub" = solution ] && seeds="27001 27002 27003"
  for seed in $seeds; do
    out=$(timeout 120 "$bin" --case "$c" --seed "$seed" 2>&1); rc=$?
    printf '== %s %s %s seed %s: exit %d\n%s\n' "$id" "$sub" "$c" "$seed" "$rc" "$out" >> "$RESULTS/ex06_structure.log"
    echo "$id $sub,$c,$seed,$rc" >> "$fcsv"
  done
done
echo "structure cases, exit codes per submission and case (ex07.2 fences, ex06.1 streams, ex06.3 overlap):"
awk -F, 'NR > 1 { k = $1 " " $2; r[k] = r[k] " " $4 } END { for (k in r) print "  " k ":" r[k] }' "$fcsv" | sort
echo "done in $((SECONDS - start)) s"
