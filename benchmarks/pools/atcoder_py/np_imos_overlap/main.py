"""Busiest moment. N guests stay at a hotel; guest i is present at the integer times t with S_i <= t < T_i (if S_i > T_i the two are swapped). Print the largest number of guests present at one time. Input: `N`, then N lines `S_i T_i`. Constraints: 1 <= N <= 2*10^5, 0 <= S_i, T_i <= 10^6."""
import sys

import numpy as np

input = sys.stdin.readline


def main():
    n = int(input())
    arrive = []
    leave = []
    for _ in range(n):
        s, t = map(int, input().split())
        if s > t:
            s, t = t, s
        arrive.append(s)
        leave.append(t)
    diff = np.zeros(max(leave, default=0) + 2, dtype=np.int64)
    np.add.at(diff, arrive, 1)
    np.add.at(diff, leave, -1)
    print(int(np.cumsum(diff).max()))


main()
