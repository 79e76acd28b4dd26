"""Audit of pilot/abc310_e: the NAND-fold counting recurrence.

Checked two ways: (1) on every run (short, long and two audit inputs) the
recurrence gives the printed answer; (2) for every 0/1 string of length 1 to
10 the recurrence equals a brute force that folds every substring with NAND.
The placebo is checked on the source text.
"""
import itertools
import json
import re
import sys

DATA = json.load(sys.stdin)


def check(condition, message):
    if not condition:
        sys.exit(f"audit failed: {message}")


def recurrence(s):
    cnt0 = cnt1 = ans = 0
    for ch in s:
        cnt0, cnt1 = (1, cnt0 + cnt1) if ch == "0" else (cnt1, cnt0 + 1)
        ans += cnt1
    return ans


def brute(s):
    total = 0
    for i in range(len(s)):
        value = int(s[i])
        total += value
        for j in range(i + 1, len(s)):
            value = 0 if value and int(s[j]) else 1
            total += value
    return total


for run in DATA["runs"]:
    s = run["input"].split()[1]
    check(int(run["output"]) == recurrence(s), f"run {run['name']}: printed {run['output'].strip()}")
for size in range(1, 11):
    for bits in itertools.product("01", repeat=size):
        s = "".join(bits)
        check(recurrence(s) == brute(s), f"recurrence and brute force differ on {s}")
declared = re.findall(r"^[ \t]+(long long|int|char|std::string) ", DATA["source"], re.M)
check(declared == ["long long", "std::string", "long long", "long long", "long long"], f"placebo: {declared}")
