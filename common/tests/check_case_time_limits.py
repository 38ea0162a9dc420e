#!/usr/bin/env python3
"""check_case_time_limits.py <ctest> <build dir> <cmake> <CaseTimeLimit.cmake>

Every grader test of the build (labelled exercise or mistake: the cases, their sanitizer tests,
speed and prediction, the real exercises' and the corpus's) runs with TUT_CASE_TIME_LIMIT a little
below its final TIMEOUT (cmake/Tutorial.cmake, _tutorial_time_limits), so that a kernel that never
finishes fails with the grader's diagnosis before ctest's bare "Timeout": TIMEOUT less a margin of
TIMEOUT / 10, at least 5 s but never more than TIMEOUT / 4; none under 4 s. A generated mutant's
test has none (its runner re-runs a timeout). Reads what ctest itself will run (`ctest
--show-only=json-v1`), and checks cmake/CaseTimeLimit.cmake against the same rule for every TIMEOUT
from 1 to 700 s, the short ones that this build's tests may not have. Exit 0 all right, 1 not."""
import json
import subprocess
import sys

# The rule on examples worked out by hand.
EXAMPLES = {600: 540, 300: 270, 120: 108, 50: 45, 40: 35, 20: 15, 10: 8, 8: 6, 6: 5, 4: 3,
            3: None, 1: None}


def expected_limit(timeout):
    timeout = int(timeout)
    margin = min(max(timeout // 10, 5), timeout // 4)
    return timeout - margin if margin >= 1 else None


def main():
    ctest, build, cmake, script = sys.argv[1:5]
    wrong = [f"the rule: TIMEOUT {t}: {expected_limit(t)}, expected {want}"
             for t, want in EXAMPLES.items() if expected_limit(t) != want]
    timeouts = range(1, 701)
    printed = subprocess.run([cmake, "-DTIMEOUTS=" + ";".join(map(str, timeouts)), "-P", script],
                             capture_output=True, text=True, check=True).stderr.split("\n")
    cmake_limits = dict(line.partition(" ")[::2] for line in printed if line)
    for timeout in timeouts:
        want = expected_limit(timeout)
        got = cmake_limits.get(str(timeout))
        if got != ("" if want is None else str(want)):
            wrong.append(f"{script}: TIMEOUT {timeout}: {got!r}, expected {want}")
    listing = subprocess.run([ctest, "--test-dir", build, "--show-only=json-v1"],
                             capture_output=True, text=True, check=True).stdout
    checked = 0
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
    for line in wrong[:20]:
        print(line)
    print(f"{script}: TIMEOUT 1 to {timeouts[-1]} s; {checked} grader tests in the build; "
          f"{len(wrong)} wrong (TUT_CASE_TIME_LIMIT = TIMEOUT - min(max(TIMEOUT / 10, 5), "
          "TIMEOUT / 4), none under 4 s)")
    if checked == 0 and not wrong:
        print("[tutorial-skip] no grader test in this build (the rule itself is right)")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
