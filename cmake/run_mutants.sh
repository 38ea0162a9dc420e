#!/usr/bin/env bash
# run_mutants.sh <source dir> <build dir holding mutants.txt> [archs] ["mutants or chapters"]
#
# Builds each declared mutant (tutorial_mutant in a chapter's CMakeLists.txt) in a build of its
# chapter alone, with the macro that breaks one kernel, then runs that chapter's tests (GPU and
# sanitizer tests included) until one fails. A mutant that no test catches is a missing test: the
# run exits 1. Report: <build dir>/mutants.csv (chapter, mutant, the test that caught it).
# Builds run in parallel, and so do the mutants' test runs, several sharing the GPU.
set -uo pipefail
src=$1
bin=$2
archs=${3:-native}
only=${4:-}
jobs=$(nproc)
work=$bin/mutant-builds
mkdir -p "$work"
generator=()
command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)

mapfile -t lines < <(grep '|' "$bin/mutants.txt")
names=()
for line in "${lines[@]}"; do
    IFS='|' read -r chapter name description <<<"$line"
    [[ -n $only && ! " $only " =~ " $name " && ! " $only " =~ " $chapter " ]] && continue
    names+=("$name")
    printf '%s\n%s\n' "$chapter" "$description" >"$work/$name.info"
done
echo "Mutants: ${#names[@]}; building each with only its chapter, architectures: $archs"

build_one() { # name
    local name=$1 chapter
    chapter=$(head -1 "$work/$1.info")
    { cmake -S "$src" -B "$work/$name" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
        -DTUTORIAL_MUTANT="$name" -DTUTORIAL_CHAPTERS="$chapter" \
        -DCMAKE_CUDA_ARCHITECTURES="$archs" &&
        cmake --build "$work/$name" -j 2; } >"$work/$name.build.log" 2>&1 &&
        echo ok >"$work/$name.built"
}
export -f build_one
export src work archs
export generator_str="${generator[*]}"
# Parallel builds, two compile jobs each.
printf '%s\n' "${names[@]}" |
    xargs -P $(((jobs + 1) / 2)) -I{} bash -c 'generator=($generator_str); build_one "$@"' _ {}

test_one() { # name: runs the mutant's chapter tests until one fails
    local name=$1 chapter
    chapter=$(head -1 "$work/$name.info")
    [[ -f $work/$name.built ]] || return 0
    ctest --test-dir "$work/$name" -L "^$chapter\$" -j 4 --stop-on-failure --timeout 600 \
        >"$work/$name.test.log" 2>&1
}
export -f test_one
printf '%s\n' "${names[@]}" | xargs -P 4 -I{} bash -c 'test_one "$@"' _ {}

report="$bin/mutants.csv"
echo "chapter,mutant,caught_by,description" >"$report"
caught=0
survivors=()
for name in "${names[@]}"; do
    chapter=$(sed -n 1p "$work/$name.info")
    description=$(sed -n 2p "$work/$name.info")
    log=$work/$name.test.log
    if [[ ! -f $work/$name.built ]]; then
        by="BUILD FAILED (see $work/$name.build.log)"
    else
        by=$(grep -oE '[0-9]+ - [^ ]+ \((Failed|Timeout|SEGFAULT|Subprocess aborted|Exception|Child aborted)\)' \
            "$log" | awk '{print $3}' | tr '\n' ' ' | sed 's/ $//')
        if grep -q "No tests were found" "$log"; then by=""; fi
    fi
    if [[ -n $by && $by != BUILD* ]]; then
        caught=$((caught + 1))
        printf '%-36s caught by %s\n' "$name" "$by"
    else
        [[ -z $by ]] && by="SURVIVED"
        survivors+=("$name")
        printf '%-36s NOT CAUGHT: %s\n' "$name" "$by"
    fi
    echo "$chapter,$name,$by,\"${description//\"/\'}\"" >>"$report"
done
echo "===== Mutants: $caught of ${#names[@]} caught (report: $report)"
[[ ${#survivors[@]} -eq 0 ]] || { echo "not caught: ${survivors[*]}"; exit 1; }
