"""Audit of pilot/josephus: the Josephus recurrence gives the printed survivor.

Checked two ways: (1) on every run of the program (short, long and the three
audit inputs) the recurrence's survivor equals the printed one; (2) the
recurrence agrees with an independent simulation (a list of people, every
k-th removed) for all 1 <= n <= 30 and 1 <= k <= 8. The placebo is checked on
the source text.
"""
import json
import re
import sys

DATA = json.load(sys.stdin)


def check(condition, message):
    if not condition:
        sys.exit(f"audit failed: {message}")


def recurrence(n, k):
    j = 0
    for m in range(2, n + 1):
        j = (j + k) % m
    return j + 1


def simulation(n, k):
    people = list(range(1, n + 1))
    at = 0
    while len(people) > 1:
        at = (at + k - 1) % len(people)
        people.pop(at)
    return people[0]


for run in DATA["runs"]:
    n, k = map(int, run["input"].split())
    first = run["output"].splitlines()[0]
    check(first == f"survivor {recurrence(n, k)}", f"run {run['name']}: printed {first!r}")
for n in range(1, 31):
    for k in range(1, 9):
        check(recurrence(n, k) == simulation(n, k), f"recurrence and simulation differ at n={n}, k={k}")
check(re.findall(r"^def (\w+)", DATA["source"], re.M) == ["eliminate", "main"], "placebo: other functions")
