"""Audit of pilot/insertion_shifts: shifts = inversions, and the median of the sorted list.

On every run (short, long and two audit inputs) the audit counts the
inversions of the input list by brute force over all pairs and sorts it, and
compares both with the printed numbers. The placebo is checked on the source.
"""
import json
import sys

DATA = json.load(sys.stdin)


def check(condition, message):
    if not condition:
        sys.exit(f"audit failed: {message}")


for run in DATA["runs"]:
    tokens = list(map(int, run["input"].split()))
    n, a = tokens[0], tokens[1:]
    inversions = sum(a[i] > a[j] for i in range(n) for j in range(i + 1, n))
    expected = f"{inversions} {sorted(a)[n // 2]}"
    check(run["output"].strip() == expected, f"run {run['name']}: printed {run['output'].strip()!r}")
check("std::vector<int> a(n);" in DATA["source"], "placebo: not a std::vector<int>")
