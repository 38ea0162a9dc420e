#!/usr/bin/env python3
"""The declared mutants' patches (docs/teaching.md, "Declared mutants").

A declared mutant (tutorial_mutant in a chapter's CMakeLists.txt) is one deliberate bug in a
chapter's kernel, kept as a patch, <chapter>/tests/mutants/<name>.patch: a unified diff of the
chapter's sources, paths relative to the chapter folder with a/ and b/ prefixes, after a few
`# ` header lines. cmake/run_mutants.sh applies it to a copy of the tree and runs the tests of
the kernel it breaks; the CPU test <chapter>.mutant_declared.<name> checks that it still applies.
The sources a reader opens stay clean.

  tools/mutant_patches.py refresh [NAME...]
        rewrites each patch (all, or those named) against the current sources: the patch is
        applied with `patch --fuzz=2` to a scratch copy of its files and diffed again, so a
        patch whose context moved (an edit near the bug) applies cleanly again; where fuzz was
        needed it prints the new hunks, to be read against the mutant's description. Fails,
        naming the patch, where the bug's own lines or the lines right beside them changed:
        write that mutant again.
  tools/mutant_patches.py from-ifdef [--strip] [NAME...]
        makes the patches from #ifdef TUT_MUTANT_<NAME> blocks in the sources (how the mutants
        were once written): the patch is the source as compiled with -DTUT_MUTANT_<NAME>, less
        the #if lines, against the source as compiled without; --strip then leaves each source
        as compiled without any such macro. A new mutant may be written that way: an #ifdef
        block, then `from-ifdef --strip <name>`.

To write a mutant by hand: break the kernel in place, `git diff --relative=<chapter> --
<chapter> > <chapter>/tests/mutants/<name>.patch`, add the header, `git checkout <chapter>`.

Exit codes: 0 good, 1 a patch could not be made or refreshed, 2 bad usage."""
import difflib
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCE_EXT = (".cu", ".cuh", ".c", ".h", ".cpp", ".hpp")
MACRO_PREFIX = "TUT_MUTANT_"


def declared():
    """[(chapter, name, cmake file relative to ROOT, description)] of every tutorial_mutant."""
    found = []
    for chapter in sorted(os.listdir(ROOT)):
        if not re.match(r"\d\d_", chapter) or not os.path.isdir(os.path.join(ROOT, chapter)):
            continue
        for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, chapter)):
            dirnames.sort()
            if "CMakeLists.txt" not in filenames:
                continue
            path = os.path.join(dirpath, "CMakeLists.txt")
            text = open(path).read()
            for m in re.finditer(r"tutorial_mutant\(\s*NAME\s+(\w+)(.*?)\)\s*$", text,
                                 re.S | re.M):
                d = re.search(r'DESCRIPTION\s+"((?:[^"\\]|\\.)*)"', m.group(2))
                found.append((chapter, m.group(1), os.path.relpath(path, ROOT),
                              d.group(1) if d else ""))
    return found


def patch_path(chapter, name):
    return os.path.join(ROOT, chapter, "tests", "mutants", name + ".patch")


def chapter_sources(chapter):
    """The chapter's sources a mutant may break (not the skeletons, not the graders)."""
    out = []
    for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, chapter)):
        dirnames[:] = sorted(d for d in dirnames if d not in ("exercise", "tests"))
        for f in sorted(filenames):
            if f.endswith(SOURCE_EXT):
                out.append(os.path.relpath(os.path.join(dirpath, f), os.path.join(ROOT, chapter)))
    return out


def evaluate(condition, defined, where):
    """An #if/#elif condition made only of defined(TUT_MUTANT_...), !, && and ||."""
    expr = re.sub(r"defined\s*\(\s*(\w+)\s*\)|defined\s+(\w+)",
                  lambda m: "1" if (m.group(1) or m.group(2)) in defined else "0", condition)
    expr = re.sub(r"/\*.*?\*/|//.*$", "", expr).strip()
    if not re.fullmatch(r"[01\s()!&|]+", expr):
        raise ValueError(f"{where}: cannot read '#if {condition.strip()}' (only defined(), !, "
                         "&&, ||)")
    expr = expr.replace("&&", " and ").replace("||", " or ").replace("!", " not ")
    return bool(eval(expr))  # noqa: S307 (only 0, 1, and, or, not, parentheses)


def resolve(text, defined, where):
    """The text with every conditional on TUT_MUTANT_ macros resolved as the preprocessor would
    with `defined` set (and its #if lines removed); other conditionals are kept as written."""
    out, stack = [], []  # a frame: [is_mutant, branch_taken, this_branch_active]
    for n, line in enumerate(text.split("\n"), 1):
        s = line.strip()
        m = re.match(r"#\s*(ifdef|ifndef|if|elif|else|endif)\b(.*)", s)
        emitting = all(f[2] for f in stack if f[0])
        here = f"{where}:{n}"
        if m:
            kind, rest = m.group(1), m.group(2)
            if kind in ("ifdef", "ifndef", "if"):
                if MACRO_PREFIX in rest:
                    if kind == "if":
                        cond = evaluate(rest, defined, here)
                    else:
                        macro = re.match(r"\s*(\w+)", rest).group(1)
                        cond = (macro in defined) == (kind == "ifdef")
                    stack.append([True, cond, cond])
                    continue
                stack.append([False, False, True])
            elif kind == "elif":
                if not stack:
                    raise ValueError(f"{here}: #elif without #if")
                frame = stack[-1]
                if frame[0]:
                    cond = not frame[1] and evaluate(rest, defined, here)
                    frame[1] = frame[1] or cond
                    frame[2] = cond
                    continue
                if MACRO_PREFIX in rest:
                    raise ValueError(f"{here}: a TUT_MUTANT_ #elif after another #if")
            elif kind == "else":
                if not stack:
                    raise ValueError(f"{here}: #else without #if")
                frame = stack[-1]
                if frame[0]:
                    frame[2] = not frame[1]
                    frame[1] = True
                    continue
            elif kind == "endif":
                if not stack:
                    raise ValueError(f"{here}: #endif without #if")
                if stack.pop()[0]:
                    continue
        if emitting:
            out.append(line)
    if stack:
        raise ValueError(f"{where}: an #if is not closed")
    return "\n".join(out)


def header(chapter, name, cmake_file, description):
    return (f"# mutant: {name} (tutorial_mutant in {cmake_file})\n"
            f"# what: {description}\n"
            f"# cmake/run_mutants.sh applies it to a copy of the tree; tools/mutant_patches.py "
            f"refreshes it\n")


def unified(chapter, files):
    """A diff of {relative path: (before, after)}, paths relative to the chapter folder."""
    diff = []
    for rel in sorted(files):
        before, after = files[rel]
        if before == after:
            continue
        diff += difflib.unified_diff(before.splitlines(True), after.splitlines(True),
                                     f"a/{rel}", f"b/{rel}", n=3)
    return "".join(d if d.endswith("\n") else d + "\n\\ No newline at end of file\n"
                   for d in diff)


def from_ifdef(names, strip):
    status, originals, clean = 0, {}, {}
    for chapter, name, cmake_file, description in declared():
        if names and name not in names:
            continue
        macro = MACRO_PREFIX + name.upper()
        files = {}
        for rel in chapter_sources(chapter):
            path = os.path.join(ROOT, chapter, rel)
            text = originals.get(path) or open(path).read()
            if not re.search(r"\b" + macro + r"\b", text):
                continue
            originals[path] = text
            try:
                files[rel] = (resolve(text, set(), path), resolve(text, {macro}, path))
            except ValueError as e:
                print(f"{name}: {e}")
                status = 1
                continue
            clean[path] = files[rel][0]
        diff = unified(chapter, files)
        if not diff:
            print(f"{name}: no source of {chapter} tests {macro}: nothing to make")
            status = 1
            continue
        out = patch_path(chapter, name)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with open(out, "w") as f:
            f.write(header(chapter, name, cmake_file, description) + diff)
        print(f"{os.path.relpath(out, ROOT)}: {', '.join(sorted(files))}")
    if strip:
        # Every conditional on any TUT_MUTANT_ macro goes, declared or not.
        for path in sorted(originals):
            all_mutants = set()
            with open(path, "w") as f:
                f.write(resolve(originals[path], all_mutants, path))
    return status


def patch_files(text):
    return sorted(set(re.findall(r"^\+\+\+ b/(\S+)", text, re.M)))


def refresh(names):
    if not shutil.which("patch"):
        print("refresh needs GNU patch (its --fuzz): install it (apt-get install patch)")
        return 1
    status = 0
    for chapter, name, cmake_file, description in declared():
        if names and name not in names:
            continue
        path = patch_path(chapter, name)
        if not os.path.isfile(path):
            print(f"{name}: no patch {os.path.relpath(path, ROOT)}")
            status = 1
            continue
        text = open(path).read()
        start = text.find("\n--- a/")
        head = text[:start + 1] if start >= 0 else ""
        with tempfile.TemporaryDirectory(prefix="tut-mutant-") as tmp:
            files = patch_files(text)
            for rel in files:
                os.makedirs(os.path.dirname(os.path.join(tmp, rel)), exist_ok=True)
                shutil.copyfile(os.path.join(ROOT, chapter, rel), os.path.join(tmp, rel))
            # Fuzz 2 at most: the context line next to the bug on each side must still match.
            # With 3 (no context at all) a hunk that removes a bare `__syncthreads();` lands on
            # the nearest other one, a different bug under the same description.
            run = subprocess.run(["patch", "-p1", "--batch", "--forward", "--fuzz=2",
                                  "--no-backup-if-mismatch", "-r", "-", "-i", path],
                                 cwd=tmp, capture_output=True, text=True)
            if run.returncode != 0:
                print(f"{name}: does not apply, even with fuzz: write it again\n{run.stdout}")
                status = 1
                continue
            fuzzed = "with fuzz" in run.stdout
            pairs = {rel: (open(os.path.join(ROOT, chapter, rel)).read(),
                           open(os.path.join(tmp, rel)).read()) for rel in files}
        diff = unified(chapter, pairs)
        new = (head or header(chapter, name, cmake_file, description)) + diff
        if new != text:
            with open(path, "w") as f:
                f.write(new)
            print(f"{os.path.relpath(path, ROOT)}: refreshed")
            if fuzzed:
                # Context around the bug changed: say where the hunks landed, to be read against
                # the description before the patch is committed.
                print(f"  applied with fuzz: check that this is still \"{description}\":\n"
                      + "".join(f"    {line}\n" for line in diff.splitlines()))
    return status


def main(argv):
    if not argv or argv[0] not in ("refresh", "from-ifdef"):
        print(__doc__, file=sys.stderr)
        return 2
    if argv[0] == "refresh":
        return refresh(set(argv[1:]))
    strip = "--strip" in argv[1:]
    return from_ifdef(set(a for a in argv[1:] if a != "--strip"), strip)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
