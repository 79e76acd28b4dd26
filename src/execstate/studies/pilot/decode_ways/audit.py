"""Audit of pilot/decode_ways: the recurrence gives every printed count.

Checked two ways: (1) on every run (short, long and the audit input) the
recurrence, evaluated with exact integers and reduced at the end, equals each
printed line; (2) the recurrence equals a brute-force count of the splits into
codes 1..26 for every digit string of length 1 to 6 over the digits 0, 1, 2, 6, 7.
The placebo is checked on the source text.
"""
import itertools
import json
import sys

DATA = json.load(sys.stdin)
MOD = 1_000_000_007


def check(condition, message):
    if not condition:
        sys.exit(f"audit failed: {message}")


def recurrence(digits):
    if not digits or digits[0] == "0":
        return 0
    before, last = 1, 1
    for i in range(1, len(digits)):
        ways = (last if digits[i] != "0" else 0) + (before if 10 <= int(digits[i - 1:i + 1]) <= 26 else 0)
        before, last = last, ways
    return last


def brute(digits):
    if not digits:
        return 1
    total = 0
    for size in (1, 2):
        head = digits[:size]
        if len(head) == size and head[0] != "0" and 1 <= int(head) <= 26:
            total += brute(digits[size:])
    return total


for run in DATA["runs"]:
    lines = run["input"].split()
    printed = run["output"].split()
    check(len(lines) == len(printed), f"run {run['name']}: {len(printed)} answers for {len(lines)} lines")
    for line, answer in zip(lines, printed):
        check(int(answer) == recurrence(line) % MOD, f"run {run['name']}: line {line[:20]}... printed {answer}")
for size in range(1, 7):
    for digits in itertools.product("01267", repeat=size):
        text = "".join(digits)
        check(recurrence(text) == brute(text), f"recurrence and brute force differ on {text}")
check("print(count_decodings(line))" in DATA["source"], "placebo: no per-line call")
