"""Audit of pilot/run_length: the run-length property of the printed encoding.

On every run (short, long and two audit inputs) the printed encoding is split
into pieces, and the audit checks that the pieces expand to the input line,
that their number is one more than the letter changes of the line, that their
lengths sum to its length, that no two neighbouring pieces share a letter
(maximal runs), and that the second line names the first longest run. The
placebo is checked on the source text.
"""
import json
import re
import sys

DATA = json.load(sys.stdin)


def check(condition, message):
    if not condition:
        sys.exit(f"audit failed: {message}")


for run in DATA["runs"]:
    text = run["input"].strip()
    lines = run["output"].splitlines()
    pieces = [(int(n), letter) for n, letter in re.findall(r"(\d+)([a-z])", lines[0])]
    name = run["name"]
    check("".join(f"{n}{c}" for n, c in pieces) == lines[0], f"run {name}: encoding is not all pieces")
    check("".join(c * n for n, c in pieces) == text, f"run {name}: pieces do not expand to the line")
    changes = sum(a != b for a, b in zip(text, text[1:]))
    check(len(pieces) == changes + 1, f"run {name}: {len(pieces)} pieces for {changes} changes")
    check(sum(n for n, _ in pieces) == len(text), f"run {name}: lengths do not sum to the line length")
    check(all(a[1] != b[1] for a, b in zip(pieces, pieces[1:])), f"run {name}: runs are not maximal")
    longest = max(n for n, _ in pieces)
    first = next(c for n, c in pieces if n == longest)
    check(lines[1] == f"{first} {longest}", f"run {name}: longest run line {lines[1]!r}")
check("from math import gcd" in DATA["source"], "placebo: gcd is not imported from math")
