#!/usr/bin/env bash
# run_mutants.sh <source dir> <build dir holding mutants.txt> [archs] ["mutants or chapters"]
#
# Builds each declared mutant (tutorial_mutant in a chapter's CMakeLists.txt) in a build of its
# chapter alone, from a copy of the source tree with the mutant's patch applied
# (<chapter>/tests/mutants/<name>.patch, which breaks one kernel; the sources themselves stay
# clean), then runs the tests of that kernel (the label kernel.<KERNEL> its declaration gives to
# the tests named in its TESTS), stopping at the first that fails. A mutant that no test catches is a missing test: the run exits 1; so does a
# mutant whose label selects no test, or whose build fails. Where every test of every mutant
# skipped (no GPU), the run exits 77. Report: <build dir>/mutants.csv
# (chapter, mutant, label, the test that caught it, seconds of its tests).
# A patch that does not apply fails its build (the CPU test <chapter>.mutant_declared.<name> says
# so first). Each copy, <build dir>/mutant-builds/<name>-src, leaves out the tree's hidden and
# build* folders and any other folder holding a CMakeCache.txt (a build tree by another name).
# Each build configures its chapter, asks ctest which programs the label's tests run and builds
# those alone (with Ninja; the whole chapter otherwise). Builds run in parallel (two compile jobs
# each); each mutant's tests start when its build ends, at most MUTANT_TEST_JOBS (default 4)
# mutants' tests at once on the GPU. MUTANT_TEST_TIMEOUT (default 240): the limit, in seconds, of
# every test, its own limit included.
set -uo pipefail
[[ ${MUTANT_TEST_TIMEOUT:-240} =~ ^[1-9][0-9]*$ ]] ||
    { echo "MUTANT_TEST_TIMEOUT: '${MUTANT_TEST_TIMEOUT}' is not a whole number of seconds"; exit 2; }
src=$(cd "$1" && pwd)
bin=$(cd "$2" && pwd)
archs=${3:-native}
only=${4:-}
jobs=$(nproc)
work=$bin/mutant-builds
mkdir -p "$work"
generator=()
command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
# The patches are applied with git apply (outside any repository: the copies have no .git) or
# with patch; without either, every build would fail as if its patch were stale.
command -v git >/dev/null 2>&1 || command -v patch >/dev/null 2>&1 ||
    { echo "neither git nor patch found: one of them applies the mutants' patches"; exit 2; }
t0=$(date +%s)

mapfile -t lines < <(grep '|' "$bin/mutants.txt")
names=()
for line in "${lines[@]}"; do
    IFS='|' read -r chapter name label description <<<"$line"
    [[ -n $only && ! " $only " =~ " $name " && ! " $only " =~ " $chapter " ]] && continue
    names+=("$name")
    printf '%s\n%s\n%s\n' "$chapter" "$label" "$description" >"$work/$name.info"
done
echo "Mutants: ${#names[@]}; each built with only its chapter, architectures: $archs"

# copy_patched <name> <chapter> <dir>: the source tree, its hidden and build* folders, every
# other build tree in it (a top-level folder holding a CMakeCache.txt: CLion's cmake-build-*,
# out/, ...), the build folder given (whatever its name) and this run's own folder left out, with
# the mutant's patch applied to <dir>/<chapter>. (Run through bash -c by xargs below: it finds
# the build trees itself, as an array does not pass through the environment.)
copy_patched() {
    local name=$1 chapter=$2 dir=$3 patch="$src/$2/tests/mutants/$1.patch" d
    [[ -f $patch ]] || { echo "no patch $patch"; return 1; }
    local build_trees=()
    for d in "$src"/*/; do
        [[ -f ${d}CMakeCache.txt ]] && build_trees+=(--exclude="./$(basename "$d")")
    done
    rm -rf "$dir" && mkdir -p "$dir" || return 1
    tar -C "$src" --exclude='./.*' --exclude='./build*' ${build_trees[@]+"${build_trees[@]}"} \
        --exclude="./${work#"$src"/}" --exclude="./${bin#"$src"/}" -cf - . |
        tar -C "$dir" -xf - || return 1
    if command -v git >/dev/null 2>&1; then
        (cd "$dir/$chapter" && env -u GIT_DIR -u GIT_WORK_TREE GIT_CEILING_DIRECTORIES="$dir" \
            git apply -p1 --whitespace=nowarn "$patch")
    else
        patch -d "$dir/$chapter" -p1 --batch --forward --fuzz=0 --no-backup-if-mismatch -r - -i "$patch"
    fi || { echo "$patch does not apply (tools/mutant_patches.py refresh $name)"; return 1; }
    echo "applied $patch"
}
build_one() { # name
    local name=$1 chapter label b targets
    chapter=$(sed -n 1p "$work/$name.info")
    label=$(sed -n 2p "$work/$name.info")
    b=$work/$name
    rm -f "$work/$name.built"
    # A fresh build folder: the copy's files keep their mtimes, so a file an earlier run's patch
    # changed, clean now, would look older than its object and never be rebuilt (the binary
    # would keep that run's bug); a folder configured from another source (the tree itself,
    # before the patches) would not configure at all.
    rm -rf "$b"
    {
        copy_patched "$name" "$chapter" "$work/$name-src" || exit 1
        cmake -S "$work/$name-src" -B "$b" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
            -DTUTORIAL_CHAPTERS="$chapter" \
            -DCMAKE_CUDA_ARCHITECTURES="$archs" \
            -DTUTORIAL_TEST_TIMEOUT_CAP="${MUTANT_TEST_TIMEOUT:-240}" || exit 1
        targets=()
        if [[ ${#generator[@]} -gt 0 ]]; then
            # The build tree's files that the label's tests run (programs, the GPU probe), as
            # Ninja knows them.
            ctest --test-dir "$b" -N -V -L "^${label//./\\.}\$" |
                grep -oE "$b/[^ \"]+" | sed "s|^$b/||" | sort -u >"$b/test-files.txt"
            ninja -C "$b" -t targets all | sed 's/: .*//' | sort -u >"$b/ninja-targets.txt"
            mapfile -t targets < <(comm -12 "$b/test-files.txt" "$b/ninja-targets.txt")
        fi
        if [[ ${#targets[@]} -gt 0 ]]; then
            cmake --build "$b" -j 2 --target "${targets[@]}"
        else
            cmake --build "$b" -j 2
        fi
    } >"$work/$name.build.log" 2>&1 && echo ok >"$work/$name.built"
}
test_one() { # name: runs the tests of the mutant's kernel until one fails
    local name=$1 label start slot
    label=$(sed -n 2p "$work/$name.info")
    [[ -f $work/$name.built ]] || return 0
    # One of MUTANT_TEST_JOBS slots on the GPU (the builds go on beside).
    while :; do
        for slot in $(seq 1 "$test_jobs"); do
            exec {fd}>"$work/.slot$slot"
            flock -n "$fd" && break 2
            exec {fd}>&-
        done
        sleep 1
    done
    start=$(date +%s)
    # Every test stops after MUTANT_TEST_TIMEOUT s (default 240), its own limit included (the
    # build's TUTORIAL_TEST_TIMEOUT_CAP; 300 s for matmul's, 600 for a sanitizer's): of the
    # tests the labels select, the longest took 62 s in the suite's run on an H100 (12 tests at
    # once, other work on the machine beside them), and a mutant's tests 69 s at most in the
    # mutants run of 87278b3, so a test stopped there ran more than 3 times that; a kernel that
    # never ends (a pipeline stage refilled before it is free) fails that test as "Timeout",
    # named like any other failure (the mutant's log says which): the kernel labels select
    # chapter tests, which have no TUT_CASE_TIME_LIMIT (a grader's test would exit 1 a little
    # before, with its diagnosis: common/exercise.h). No limit on the whole label:
    # a survivor runs every test of its label to the end.
    ctest --test-dir "$work/$name" -L "^${label//./\\.}\$" -j 2 --stop-on-failure \
        --timeout "${MUTANT_TEST_TIMEOUT:-240}" >"$work/$name.test.log" 2>&1
    echo $(($(date +%s) - start)) >"$work/$name.seconds"
    exec {fd}>&-
}
export -f copy_patched build_one test_one
export src bin work archs
export test_jobs=${MUTANT_TEST_JOBS:-4}
export generator_str="${generator[*]}"
# Each job builds its mutant (two compile jobs) and then runs its tests, holding one of the
# GPU's test slots: the first mutants' tests run while the others build. The slowest chapter's
# mutants (05_matmul) start first.
printf '%s\n' "${names[@]}" | while read -r n; do
    [[ $(head -1 "$work/$n.info") == 05_matmul ]] && echo "0 $n" || echo "1 $n"
done | sort -s -k1,1 | cut -d' ' -f2 |
    xargs -P $(((jobs + 1) / 2)) -I{} bash -c 'generator=($generator_str); build_one "$1" && test_one "$1"' _ {}
echo "Built and tested in $(($(date +%s) - t0)) s"

# Whether a GPU is usable here at all (the suite's probe, where a build holds it; nvidia-smi
# otherwise; with neither, assumed, so that no survivor is hidden): without one every GPU test
# skips, and a mutant whose label also holds a CPU test (a bad-usage case, exit 2) would read as
# a survivor.
gpu=1
probe=$(ls "$work"/*/common/tutorial_gpu_probe 2>/dev/null | head -1)
if [[ -n $probe ]]; then
    "$probe" >/dev/null 2>&1
    [[ $? -eq 77 ]] && gpu=0
elif command -v nvidia-smi >/dev/null 2>&1 && ! nvidia-smi -L >/dev/null 2>&1; then
    gpu=0
fi
report="$bin/mutants.csv"
echo "chapter,mutant,label,caught_by,seconds,description" >"$report"
caught=0
survivors=()
unchecked=()
for name in "${names[@]}"; do
    chapter=$(sed -n 1p "$work/$name.info")
    label=$(sed -n 2p "$work/$name.info")
    description=$(sed -n 3p "$work/$name.info")
    log=$work/$name.test.log
    seconds=$(cat "$work/$name.seconds" 2>/dev/null)
    if [[ ! -f $work/$name.built ]]; then
        by="BUILD FAILED (see $work/$name.build.log)"
    elif grep -q "No tests were found" "$log"; then
        by="NO TEST CARRIES $label"
    else
        by=$(grep -oE '[0-9]+ - [^ ]+ \((Failed|Timeout|SEGFAULT|Subprocess aborted|Exception|Child aborted|Bus error|ILLEGAL)\)' \
            "$log" | awk '{print $3}' | tr '\n' ' ' | sed 's/ $//')
    fi
    if [[ -z $by && -f $log ]] && grep -qE '\*\*\*Skipped' "$log" &&
        { [[ $gpu -eq 0 ]] || ! grep -qE 'Test +#[0-9]+: .* Passed' "$log"; }; then
        # Every test of its label skipped (77), or every GPU test where there is no GPU: this
        # machine cannot run them (a mutant of the several-GPU code on one GPU). Named, not
        # counted either way.
        by="NOT CHECKABLE HERE (every $([[ $gpu -eq 0 ]] && echo GPU\ )test skipped)"
        unchecked+=("$name")
        printf '%-36s %s\n' "$name" "$by"
    elif [[ -n $by && $by != BUILD* && $by != NO\ TEST* ]]; then
        caught=$((caught + 1))
        printf '%-36s caught by %s (%s s)\n' "$name" "$by" "$seconds"
    else
        [[ -z $by ]] && by="SURVIVED"
        survivors+=("$name")
        printf '%-36s NOT CAUGHT: %s\n' "$name" "$by"
    fi
    echo "$chapter,$name,$label,$by,$seconds,\"${description//\"/\'}\"" >>"$report"
done
echo "===== Mutants: $caught of ${#names[@]} caught in $(($(date +%s) - t0)) s (report: $report)"
[[ ${#unchecked[@]} -eq 0 ]] || echo "not checkable on this machine (every test skipped): ${unchecked[*]}"
[[ ${#survivors[@]} -eq 0 ]] || { echo "not caught: ${survivors[*]}"; exit 1; }
# Nothing checked at all (no GPU, a driver too old, ...): a skip (77), not a pass.
[[ ${#names[@]} -gt 0 && ${#unchecked[@]} -eq ${#names[@]} ]] &&
    { echo "no mutant could be checked here (every test skipped): exit 77"; exit 77; }
exit 0
