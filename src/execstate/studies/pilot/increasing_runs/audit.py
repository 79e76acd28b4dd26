"""Audit of pilot/increasing_runs: runs split at the non-increasing positions.

On every run (short, long and two audit inputs) the audit finds the run
starts (position 0 and every position whose value is not larger than the one
before), and compares the longest distance between consecutive starts (the
end counting as a start) and the number of starts with the printed numbers.
The placebo is checked on the source text.
"""
import json
import sys

DATA = json.load(sys.stdin)


def check(condition, message):
    if not condition:
        sys.exit(f"audit failed: {message}")


for run in DATA["runs"]:
    tokens = list(map(int, run["input"].split()))
    n, v = tokens[0], tokens[1:]
    starts = [0] + [i for i in range(1, n) if v[i] <= v[i - 1]]
    longest = max(b - a for a, b in zip(starts, starts[1:] + [n]))
    check(run["output"].strip() == f"{longest} {len(starts)}", f"run {run['name']}: {run['output'].strip()!r}")
check("std::vector<long long> values(n);" in DATA["source"], "placebo: not a std::vector<long long>")
