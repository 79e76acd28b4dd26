"""Audit of pilot/house_robber: the take/skip recurrence and the ring decomposition.

Checked two ways: (1) on every run (short, long and two audit inputs) the
recurrence on the two rows gives the printed total, and the printed plan is a
set of pairwise non-adjacent houses on the ring with that total; (2) the
recurrence equals a brute force over every subset of non-adjacent houses for
all rings of 1 to 9 houses with amounts from a fixed pseudo-random stream. The
placebo is checked on the source text.
"""
import itertools
import json
import sys

DATA = json.load(sys.stdin)


def check(condition, message):
    if not condition:
        sys.exit(f"audit failed: {message}")


def row(values):
    take = skip = 0
    for v in values:
        take, skip = skip + v, max(take, skip)
    return max(take, skip)


def ring(values):
    return values[0] if len(values) == 1 else max(row(values[:-1]), row(values[1:]))


def brute(values):
    n, best = len(values), 0
    for chosen in itertools.product((0, 1), repeat=n):
        if n > 1 and any(chosen[i] and chosen[(i + 1) % n] for i in range(n)):
            continue
        best = max(best, sum(v for v, c in zip(values, chosen) if c))
    return best


for run in DATA["runs"]:
    values = list(map(int, run["input"].split()[1:]))
    lines = run["output"].splitlines()
    total, plan = int(lines[0]), [int(h) - 1 for h in lines[1].split()]
    name = run["name"]
    check(total == ring(values), f"run {name}: printed {total}, recurrence {ring(values)}")
    check(sum(values[h] for h in plan) == total, f"run {name}: the plan does not add up to the total")
    n = len(values)
    check(n == 1 or all((h + 1) % n not in plan for h in plan), f"run {name}: the plan robs neighbours")
state = 5
for n in range(1, 10):
    values = []
    for _ in range(n):
        state = (state * 1103515245 + 12345) % 2**31
        values.append(state >> 8 & 63)
    check(ring(values) == brute(values), f"recurrence and brute force differ on {values}")
check("input()  # n" in DATA["source"], "placebo: the count of houses is used")
