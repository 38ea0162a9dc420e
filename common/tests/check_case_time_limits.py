#!/usr/bin/env python3
"""check_case_time_limits.py <ctest> <build dir>

Every grader test of the build (labelled exercise or mistake: the cases, their sanitizer tests,
speed and prediction, the real exercises' and the corpus's) runs with TUT_CASE_TIME_LIMIT =
TIMEOUT - max(TIMEOUT / 10, 5) seconds, its final TIMEOUT's (cmake/Tutorial.cmake,
_tutorial_time_limits), so that a kernel that never finishes fails with the grader's diagnosis
before ctest's bare "Timeout". A generated mutant's test has none (its runner re-runs a timeout).
Reads what ctest itself will run: `ctest --show-only=json-v1`. Exit 0 all right, 1 not."""
import json
import subprocess
import sys


def expected_limit(timeout):
    limit = int(timeout) - max(int(timeout) // 10, 5)
    return limit if limit > 0 else None


def main():
    ctest, build = sys.argv[1:3]
    listing = subprocess.run([ctest, "--test-dir", build, "--show-only=json-v1"],
                             capture_output=True, text=True, check=True).stdout
    checked, wrong = 0, []
    for test in json.loads(listing)["tests"]:
        props = {p["name"]: p["value"] for p in test.get("properties", [])}
        labels = props.get("LABELS", [])
        if not {"exercise", "mistake", "generated"} & set(labels):
            continue
        limits = [e.split("=", 1)[1] for e in props.get("ENVIRONMENT", [])
                  if e.startswith("TUT_CASE_TIME_LIMIT=")]
        timeout = props.get("TIMEOUT")
        want = None if "generated" in labels or timeout is None else expected_limit(timeout)
        if limits != ([] if want is None else [str(want)]):
            wrong.append(f"{test['name']}: TIMEOUT {timeout}, TUT_CASE_TIME_LIMIT {limits}, "
                         f"expected {want}")
        checked += 1
    if checked == 0:
        print("[tutorial-skip] no grader test in this build")
        return 0
    for line in wrong[:20]:
        print(line)
    print(f"{checked} grader tests, {len(wrong)} without the right TUT_CASE_TIME_LIMIT "
          "(TIMEOUT - max(TIMEOUT / 10, 5) s)")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
