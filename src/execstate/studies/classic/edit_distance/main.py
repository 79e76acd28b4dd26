"""Levenshtein edit distance with a single rolling row.

Input: q, then q lines each holding two words. Output, per pair: the minimum
number of single-character insertions, deletions and substitutions that turn
the first word into the second.
"""
import sys


def edit_distance(a, b):
    row = list(range(len(b) + 1))  # row[j]: distance from a[:i] to b[:j]
    for i, ca in enumerate(a, 1):
        diag, row[0] = row[0], i  # diag holds the old row[j-1] (a[:i-1] vs b[:j-1])
        for j, cb in enumerate(b, 1):
            cost = 0 if ca == cb else 1
            diag, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, diag + cost)
    return row[-1]


def main():
    lines = sys.stdin.read().splitlines()
    q = int(lines[0])
    for line in lines[1:1 + q]:
        words = line.split()
        if len(words) != 2:
            raise SystemExit(f"expected two words per line, got {line!r}")
        print(edit_distance(*words))


if __name__ == "__main__":
    main()
