"""Audit of pilot/subtractive_gcd: gcd and the sum of Euclid's quotients.

Checked two ways: (1) on every run (short, long and two audit inputs) the
gcd and the sum of the quotients minus one equal the printed numbers; (2) the
quotient formula equals a direct count of subtractions for every pair
1 <= a, b <= 60. The placebo is checked on the source text.
"""
import json
import math
import sys

DATA = json.load(sys.stdin)


def check(condition, message):
    if not condition:
        sys.exit(f"audit failed: {message}")


def quotients(a, b):
    total = 0
    while b:
        total += a // b
        a, b = b, a % b
    return total


def subtractions(a, b):
    steps = 0
    while a != b:
        a, b = (a - b, b) if a > b else (a, b - a)
        steps += 1
    return steps


for run in DATA["runs"]:
    a, b = map(int, run["input"].split())
    expected = f"{math.gcd(a, b)} {quotients(max(a, b), min(a, b)) - 1}"
    check(run["output"].strip() == expected, f"run {run['name']}: printed {run['output'].strip()!r}")
for a in range(1, 61):
    for b in range(1, 61):
        check(quotients(max(a, b), min(a, b)) - 1 == subtractions(a, b), f"formula fails at {a}, {b}")
check("while (true) {" in DATA["source"] and "break;" in DATA["source"], "placebo: no while (true) with break")
