"""Nearest earlier value. Given N integers A_1..A_N, for each i >= 2 let d_i be the smallest |A_i - A_j| over j < i. Print d_2 + d_3 + ... + d_N (0 when N = 1). Input: `N`, then A_1 ... A_N on one line. Constraints: 1 <= N <= 2*10^5, 0 <= A_i <= 10^9."""
import sys

from sortedcontainers import SortedList

input = sys.stdin.readline

n = int(input())
a = list(map(int, input().split()))
seen = SortedList()
total = 0
for i, v in enumerate(a):
    if i > 0:
        pos = seen.bisect_left(v)
        best = 10**18
        if pos < len(seen):
            best = seen[pos] - v
        if pos > 0:
            best = min(best, v - seen[pos - 1])
        total += best
    seen.add(v)
print(total)
