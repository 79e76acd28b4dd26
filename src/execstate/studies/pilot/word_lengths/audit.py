"""Audit of pilot/word_lengths: the length histogram and the first longest word.

On every run (short, long and two audit inputs) the audit splits the line
into words independently (str.split), builds the seven counts, checks that
they add up to the number of words, and compares counts and the first
longest word with the printed line. The placebo is checked on the source.
"""
import json
import sys

DATA = json.load(sys.stdin)


def check(condition, message):
    if not condition:
        sys.exit(f"audit failed: {message}")


for run in DATA["runs"]:
    words = run["input"].split("\n")[0].split()
    counts = [0] * 7
    for word in words:
        counts[min(len(word), 7) - 1] += 1
    check(sum(counts) == len(words), f"run {run['name']}: counts do not add up")
    longest = max(words, key=len) if words else ""
    expected = " ".join(map(str, counts)) + " " + longest
    check(run["output"].rstrip("\n") == expected, f"run {run['name']}: printed {run['output'].strip()!r}")
check("text += ' ';" in DATA["source"], "placebo: no space appended")
