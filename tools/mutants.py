#!/usr/bin/env python3
"""Generated mutants of the exercises' solutions (docs/teaching.md, "Graders measured by generated
mutants").

Every code exercise (tutorial_exercise with SOURCES in a chapter's CMakeLists.txt) is mutated by
universalmutator (pinned: UM_VERSION below), one rule on one line at a time, on the lines a student
writes: the lines of the solution <chapter>/<file> that differ from the skeleton
<chapter>/exercise/<file> (where two exercises share a file, the chunks under that exercise's
"TODO (exNN.k)"), outside comments and preprocessor lines. A
mutant equal to the solution once comments and whitespace are removed is dropped. Each mutant's
id is <exercise>_g<10 hex digits>: a hash of the file, the line's text before and after, and which
occurrence of that text it is, so an edit elsewhere in the file keeps the ids.

  tools/mutants.py list [--csv FILE]              every mutant: id, exercise, file, line, before, after
  tools/mutants.py sample --seed S --per N --out DIR [--compile] [--exercises ex01.1,...]
        a seeded sample, N per exercise, as corpus entries DIR/<chapter>/<id>.patch (kind
        generated) for cmake -DTUTORIAL_GENERATED_MUTANTS=DIR; --compile keeps only mutants whose
        file nvcc compiles (sm_90), walking the seeded order until N compile
  tools/mutants.py check-equivalents [LIST]       the CPU test: every line of the list (default
        cmake/generated_mutants_equivalent.txt) is "<id> <reason>", and every id is generated
  tools/mutants.py counts                         generated mutants per exercise

Exit codes: 0 good, 1 a check failed, 2 bad usage, 77 universalmutator is not installed.
"""
import argparse
import difflib
import hashlib
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

UM_VERSION = "1.14.1"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EQUIVALENTS = os.path.join(ROOT, "cmake", "generated_mutants_equivalent.txt")


def fail(msg, code=1):
    print(msg, file=sys.stderr)
    sys.exit(code)


def mutate_tool():
    exe = shutil.which("mutate")
    if not exe:
        if os.environ.get("TUTORIAL_REQUIRE_MUTATOR") == "1":
            fail(f"universalmutator is not installed, and TUTORIAL_REQUIRE_MUTATOR=1 (CI) needs it: "
                 f"pip install universalmutator=={UM_VERSION}")
        print("[tutorial-skip] universalmutator is not installed "
              f"(pip install universalmutator=={UM_VERSION}); CI installs it", file=sys.stderr)
        sys.exit(77)
    try:
        from importlib import metadata
        version = metadata.version("universalmutator")
    except Exception:  # noqa: BLE001 (any failure: version unknown)
        version = "?"
    if version not in (UM_VERSION, "?"):  # "?": mutate belongs to another Python
        fail(f"universalmutator {version} found, the ids are defined by {UM_VERSION} "
             f"(pip install universalmutator=={UM_VERSION})", 2)
    return exe


def exercises():
    """(id, chapter, [sources]) of every exercise with SOURCES, sorted by id."""
    found = []
    for chapter in sorted(os.listdir(ROOT)):
        cml = os.path.join(ROOT, chapter, "CMakeLists.txt")
        if not re.match(r"^\d\d_", chapter) or not os.path.isfile(cml):
            continue
        text = re.sub(r"#[^\n]*", "", open(cml).read())
        for m in re.finditer(r"tutorial_exercise\((.*?)\)", text, re.S):
            body = m.group(1)
            ident = re.search(r"\bID\s+(ex\d\d\.\d+)", body)
            src = re.search(r"\bSOURCES\s+(.*?)(?=\s+[A-Z_]{3,}\s|$)", body, re.S)
            if ident and src:
                found.append((ident.group(1), chapter, src.group(1).split()))
    return sorted(found)


def code_only(text):
    """The text with comments blanked (newlines kept), strings and chars left intact."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def normalized(text):
    return re.sub(r"\s+", "", code_only(text))


def student_lines(exercise, chapter, source, shared):
    """1-based line numbers of the solution that the student writes."""
    sol_path = os.path.join(ROOT, chapter, source)
    if not os.path.isfile(sol_path):
        return []
    sol = open(sol_path).read().split("\n")
    skel_path = os.path.join(ROOT, chapter, "exercise", os.path.basename(source))
    if not os.path.isfile(skel_path):
        return []
    skel = open(skel_path).read().split("\n")
    code = code_only("\n".join(sol)).split("\n")
    chosen = []
    matcher = difflib.SequenceMatcher(None, skel, sol, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag not in ("replace", "insert"):
            continue
        if shared:
            # A file of several exercises: the chunk is this exercise's when the skeleton's
            # lines it replaces carry "TODO (<exercise>)".
            if not any(f"TODO ({exercise})" in l or f"TODO ({exercise})" in l.replace(") ", ")")
                       for l in skel[i1:i2]):
                continue
        for k in range(j1, j2):
            s = code[k].strip()
            if not s or s.startswith("#"):
                continue
            chosen.append(k + 1)
    return chosen


def mutants_of(exercise, chapter, source, shared, tool, tmp):
    """[(id, line, before, after, mutated text)] of one source file."""
    path = os.path.join(ROOT, chapter, source)
    original = open(path).read()
    lines = student_lines(exercise, chapter, source, shared)
    if not lines:
        return []
    work = os.path.join(tmp, exercise)
    os.makedirs(work, exist_ok=True)
    copy = os.path.join(work, os.path.basename(source))
    shutil.copyfile(path, copy)
    with open(os.path.join(work, "lines.txt"), "w") as f:
        f.write("\n".join(map(str, lines)) + "\n")
    language = "c" if source.endswith(".c") else "cpp"
    out_dir = os.path.join(work, "out")
    subprocess.run([tool, copy, language, "--noCheck", "--lines", os.path.join(work, "lines.txt"),
                    "--mutantDir", out_dir], cwd=work, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    orig_lines = original.split("\n")
    orig_norm = normalized(original)
    found = {}
    for name in sorted(os.listdir(out_dir)):
        text = open(os.path.join(out_dir, name)).read()
        new_lines = text.split("\n")
        if normalized(text) == orig_norm:
            continue  # only comments or whitespace changed: trivially equivalent
        # The one changed line (universalmutator changes one line; a few rules add a line).
        sm = difflib.SequenceMatcher(None, orig_lines, new_lines, autojunk=False)
        changed = [op for op in sm.get_opcodes() if op[0] != "equal"]
        if len(changed) != 1:
            continue
        _, i1, i2, j1, j2 = changed[0]
        if i2 - i1 != 1 or (i1 + 1) not in lines:
            continue
        before = orig_lines[i1]
        after = "\n".join(new_lines[j1:j2])
        occurrence = sum(1 for l in orig_lines[:i1] if l.strip() == before.strip())
        key = "\0".join([exercise, source, before.strip(), after.strip(), str(occurrence)])
        ident = f"{exercise}_g{hashlib.sha1(key.encode()).hexdigest()[:10]}"
        found[ident] = (ident, i1 + 1, before, after, text)
    return [found[k] for k in sorted(found)]


def generate(tool, only=None):
    """{exercise: (chapter, [(id, source, line, before, after, text)])}."""
    all_ex = exercises()
    users = {}
    for ident, chapter, sources in all_ex:
        for s in sources:
            users.setdefault((chapter, s), []).append(ident)
    result = {}
    tmp = tempfile.mkdtemp(prefix="tut-mutants-")
    try:
        for ident, chapter, sources in all_ex:
            if only and ident not in only:
                continue
            rows = []
            for s in sources:
                shared = len(users[(chapter, s)]) > 1
                for m in mutants_of(ident, chapter, s, shared, tool, tmp):
                    rows.append((m[0], s, m[1], m[2], m[3], m[4]))
            result[ident] = (chapter, sorted(rows))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return result


def patch_text(exercise, chapter, source, ident, line, before, after, text, seed):
    original = open(os.path.join(ROOT, chapter, source)).read()
    diff = difflib.unified_diff(original.splitlines(True), text.splitlines(True),
                                f"a/{source}", f"b/{source}", n=3)
    one = lambda s: " ".join(s.split())  # noqa: E731
    head = (f"# exercise: {exercise}\n# kind: generated\n"
            f"# what: {source}:{line}: `{one(before)}` -> `{one(after)}`\n# expect: any\n"
            f"# generated by tools/mutants.py (universalmutator {UM_VERSION}), seed {seed}\n")
    return head + "".join(diff)


def nvcc_compiles(chapter, source, text, tmp):
    ext = os.path.splitext(source)[1]
    path = os.path.join(tmp, "m" + ext)
    with open(path, "w") as f:
        f.write(text)
    nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    includes = ["-I" + os.path.join(ROOT, chapter, os.path.dirname(source)),
                "-I" + os.path.join(ROOT, chapter), "-I" + os.path.join(ROOT, "common")]
    cmd = [nvcc, "-arch=sm_90", "-std=c++17"] + includes + ["--ptx", path, "-o",
                                                              os.path.join(tmp, "m.ptx")]
    if ext == ".c":
        cmd = ["cc", "-std=c11"] + includes + ["-I/usr/local/cuda/include", "-c", path, "-o",
                                               os.path.join(tmp, "m.o")]
    return subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    pl = sub.add_parser("list")
    pl.add_argument("--csv")
    sub.add_parser("counts")
    ps = sub.add_parser("sample")
    ps.add_argument("--seed", type=int, required=True)
    ps.add_argument("--per", type=int, default=15)
    ps.add_argument("--out", required=True)
    ps.add_argument("--compile", action="store_true")
    ps.add_argument("--exercises", default="")
    pe = sub.add_parser("check-equivalents")
    pe.add_argument("list", nargs="?", default=EQUIVALENTS)
    a = p.parse_args()
    tool = mutate_tool()

    if a.cmd == "check-equivalents":
        ids, problems = [], []
        for n, line in enumerate(open(a.list), 1):
            s = line.strip()
            if not s or s.startswith("#"):
                continue
            m = re.match(r"^(ex\d\d\.\d+_g[0-9a-f]{10})\s+(\S.*)$", s)
            if not m:
                problems.append(f"{a.list}:{n}: not '<id> <one-line reason>': {s}")
                continue
            ids.append((n, m.group(1)))
        gen = generate(tool, only={i.split("_")[0] for _, i in ids})
        known = {r[0] for _, rows in gen.values() for r in rows}
        for n, ident in ids:
            if ident not in known:
                problems.append(f"{a.list}:{n}: {ident} is not a generated mutant (the solution "
                                "changed? regenerate, re-triage)")
        dup = {i for _, i in ids if sum(1 for _, j in ids if j == i) > 1}
        problems += [f"{a.list}: {i} is listed twice" for i in sorted(dup)]
        if problems:
            fail("\n".join(problems))
        print(f"{len(ids)} equivalent mutants listed, each with a reason, each generated "
              f"(universalmutator {UM_VERSION})")
        return

    only = set(a.exercises.split(",")) - {""} if a.cmd == "sample" else None
    gen = generate(tool, only)
    if a.cmd == "counts":
        total = 0
        for ex in sorted(gen):
            print(f"{ex} {len(gen[ex][1])}")
            total += len(gen[ex][1])
        print(f"total {total}")
    elif a.cmd == "list":
        out = open(a.csv, "w") if a.csv else sys.stdout
        out.write("id,exercise,file,line,before,after\n")
        q = lambda s: '"' + " ".join(s.split()).replace('"', '""') + '"'  # noqa: E731
        for ex in sorted(gen):
            for ident, source, line, before, after, _ in gen[ex][1]:
                out.write(f"{ident},{ex},{source},{line},{q(before)},{q(after)}\n")
    elif a.cmd == "sample":
        equivalent = set()
        if os.path.isfile(EQUIVALENTS):
            equivalent = {l.split()[0] for l in open(EQUIVALENTS) if l.strip() and l[0] != "#"}
        os.makedirs(a.out, exist_ok=True)
        summary = ["exercise,id,file,line,compiles_here,listed_equivalent,what"]
        tmp = tempfile.mkdtemp(prefix="tut-mutants-cc-")
        for ex in sorted(gen):
            chapter, rows = gen[ex]
            order = list(rows)
            random.Random(f"{a.seed}:{ex}").shuffle(order)
            taken = tried = 0
            os.makedirs(os.path.join(a.out, chapter), exist_ok=True)
            for ident, source, line, before, after, text in order:
                if taken >= a.per:
                    break
                ok = "not checked"
                if a.compile:
                    tried += 1
                    if not nvcc_compiles(chapter, source, text, tmp):
                        continue
                    ok = "yes"
                taken += 1
                with open(os.path.join(a.out, chapter, ident + ".patch"), "w") as f:
                    f.write(patch_text(ex, chapter, source, ident, line, before, after, text, a.seed))
                what = f"{source}:{line}: {' '.join(before.split())} -> {' '.join(after.split())}"
                summary.append(f"{ex},{ident},{source},{line},{ok},"
                               f"{'yes' if ident in equivalent else 'no'},\"{what.replace(chr(34), chr(39))}\"")
            tried_text = f" ({tried} tried, {tried - taken} did not compile)" if a.compile else ""
            print(f"{ex}: {len(rows)} generated, {taken} sampled{tried_text}", flush=True)
        shutil.rmtree(tmp, ignore_errors=True)
        # With --exercises, the rows of the other exercises already in DIR are kept.
        def merged(name, header, rows):
            path = os.path.join(a.out, name)
            old = []
            if only and os.path.isfile(path):
                old = [l.rstrip("\n") for l in open(path).readlines()[1:]
                       if l.split(",")[0] not in gen]
            with open(path, "w") as f:
                f.write("\n".join([header] + sorted(old + rows)) + "\n")
        merged("sample.csv", summary[0], summary[1:])
        merged("counts.csv", "exercise,generated", [f"{ex},{len(gen[ex][1])}" for ex in gen])
        with open(os.path.join(a.out, "seed.txt"), "w") as f:
            f.write(f"{a.seed} {a.per}\n")


if __name__ == "__main__":
    main()
