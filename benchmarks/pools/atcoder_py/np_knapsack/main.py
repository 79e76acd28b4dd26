"""Knapsack. There are N items; item i has weight w_i and value v_i. Choose a set of items of total weight at most W and print the largest total value. Input: `N W`, then N lines `w_i v_i`. Constraints: 1 <= N <= 100, 1 <= W <= 10^5, 1 <= w_i <= W, 1 <= v_i <= 10^9."""
import sys

import numpy as np

input = sys.stdin.readline


def main():
    n, cap = map(int, input().split())
    best = np.zeros(cap + 1, dtype=np.int64)  # best[c]: the largest value of weight at most c
    for _ in range(n):
        w, v = map(int, input().split())
        if w > cap:
            continue
        best[w:] = np.maximum(best[w:], best[: cap + 1 - w] + v)
    print(int(best[cap]))


main()
