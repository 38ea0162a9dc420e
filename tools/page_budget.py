#!/usr/bin/env python3
"""The budget of the docs' pages, counted without building anything.

    tools/page_budget.py docs/*.md
    tools/page_budget.py --compare build/common/tests/docs_check docs/*.md

Prints each page's words and numbers linked to CSV files, counted as the docs check
(common/tests/docs_check.c) counts them for its lesson-page budget (at most 1,800 words and 8
numbers): words are everything outside ``` fences (tables, headings, inline code and link text
included; a link's address and title are not words, a title may hold parentheses, nothing in
inline code is a link), a word being a run of non-blank characters
that holds a letter or digit; numbers are the links the check verifies against a CSV (an address
ending in .csv, then a title). --compare also runs `docs_check --count` on the same pages and
exits 1 unless the two counts agree line for line (the ctest test docs.count_agrees)."""
import re
import subprocess
import sys


def link_end(text, paren):
    """The ')' that ends the link whose address starts at paren (just after "]("), -1 if none:
    the first ')' after the address, or after a quoted title's closing quote (a title may hold
    parentheses)."""
    end, space = text.find(")", paren), text.find(" ", paren)
    if end < 0 or space < 0 or space > end:
        return end
    q1 = space
    while q1 < len(text) and text[q1] == " ":
        q1 += 1
    q2 = text.find('"', q1 + 1) if text[q1:q1 + 1] == '"' else -1
    after = text.find(")", q2 + 1) if q2 >= 0 else -1
    return after if after >= 0 else end


def words(text):
    prose, fence = [], False
    for line in text.split("\n"):
        if line.lstrip().startswith("```"):
            fence = not fence
        elif not fence:
            prose.append(line)
    prose = "\n".join(prose)
    # "](address "title")" reads "]"; inline code (one backtick to the next) is no link.
    body, r = [], 0
    while r < len(prose):
        c = prose[r]
        body.append(c)
        if c == "`":
            tick = prose.find("`", r + 1)
            if tick >= 0:
                body.append(prose[r + 1:tick + 1])
                r = tick
        elif c == "]" and prose[r + 1:r + 2] == "(":
            close = link_end(prose, r + 2)
            if close >= 0:
                r = close
        r += 1
    return sum(1 for w in "".join(body).split() if re.search(r"[A-Za-z0-9]", w))


def numbers(text):
    """The links docs_check verifies: [text](path.csv "title"), read as it reads them (inline
    code skipped from one backtick to the next, a '[' inside the text starting no link)."""
    count, p = 0, 0
    while p < len(text):
        c = text[p]
        if c == "`":
            close = text.find("`", p + 1)
            p = (close if close >= 0 else p) + 1
            continue
        p += 1
        if c != "[":
            continue
        close = text.find("]", p)
        if close < 0 or text[close + 1:close + 2] != "(" or "[" in text[p:close]:
            continue
        paren = close + 2
        end, space = link_end(text, paren), text.find(" ", paren)
        if end < 0 or space < 0 or space > end or space - paren < 4:
            continue
        if text[space - 4:space] != ".csv":
            continue
        q1 = text.find('"', space)
        q2 = text.find('"', q1 + 1) if q1 >= 0 else -1
        if q1 >= 0 and 0 <= q2 < end:
            count += 1
    return count


def main(argv):
    checker = None
    if argv[:1] == ["--compare"] and len(argv) > 2:
        checker, argv = argv[1], argv[2:]
    if not argv or argv[0].startswith("-"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    lines = []
    for path in argv:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        lines.append(f"{words(text):5d} words  {numbers(text):3d} CSV-linked numbers  {path}")
    print("\n".join(lines))
    if not checker:
        return 0
    theirs = subprocess.run([checker, "--count"] + argv, capture_output=True, text=True)
    if theirs.returncode != 0:
        print(f"{checker} --count failed ({theirs.returncode}): {theirs.stderr.strip()}")
        return 1
    other = theirs.stdout.rstrip("\n").split("\n")
    wrong = [(a, b) for a, b in zip(lines, other) if a != b]
    if len(other) != len(lines) or wrong:
        for a, b in wrong:
            print(f"differ:\n  page_budget.py: {a}\n  docs_check:     {b}")
        print(f"the counts disagree ({len(wrong)} of {len(lines)} pages)")
        return 1
    print(f"docs_check --count agrees on all {len(lines)} pages")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
