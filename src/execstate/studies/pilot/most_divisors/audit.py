"""Audit of pilot/most_divisors: the multiplicative divisor-count formula.

Checked two ways: (1) on every run (short, long and two audit inputs) the
formula, applied to every number up to the limit, picks the printed number
and count; (2) the formula equals a direct count of divisors for every n up
to 2000. The placebo is checked on the source text.
"""
import json
import sys

DATA = json.load(sys.stdin)


def check(condition, message):
    if not condition:
        sys.exit(f"audit failed: {message}")


def formula(n):
    total, p = 1, 2
    while p * p <= n:
        e = 0
        while n % p == 0:
            n //= p
            e += 1
        total *= e + 1
        p += 1
    return total * (2 if n > 1 else 1)


for run in DATA["runs"]:
    limit = int(run["input"])
    best = max(range(1, limit + 1), key=lambda n: (formula(n), -n))
    check(run["output"].strip() == f"{best} {formula(best)}", f"run {run['name']}: {run['output'].strip()!r}")
for n in range(1, 2001):
    check(formula(n) == sum(n % d == 0 for d in range(1, n + 1)), f"formula fails at {n}")
check("d * d <= n" in DATA["source"], "placebo: no square-root bound")
