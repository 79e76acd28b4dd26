"""Passing scores. N students have scores A_1..A_N. For each of Q queries x print how many students scored at least x, one per line. Input: `N Q`, then A_1 ... A_N on one line, then Q lines, each one integer x. Constraints: 1 <= N, Q <= 2*10^5, 0 <= A_i, x <= 10^9."""
import sys

import numpy as np

input = sys.stdin.readline


def main():
    n, q = map(int, input().split())
    scores = np.sort(np.array(input().split(), dtype=np.int64))
    n = len(scores)
    out = []
    for _ in range(q):
        x = int(input())
        passed = n - int(np.searchsorted(scores, x, side="left"))
        out.append(passed)
    print("\n".join(map(str, out)))


main()
