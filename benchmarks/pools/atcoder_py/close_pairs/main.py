"""Close pairs. Given N integers A_1..A_N and an integer K, count the pairs i < j with |A_i - A_j| <= K. Input: `N K`, then A_1 ... A_N on one line. Constraints: 1 <= N <= 2*10^5, 0 <= K <= 10^9, 1 <= A_i <= 10^9."""
import sys

from sortedcontainers import SortedList

input = sys.stdin.readline

n, k = map(int, input().split())
a = list(map(int, input().split()))
sl = SortedList()
pairs = 0
for v in a:
    pairs += sl.bisect_right(v + k) - sl.bisect_left(v - k)
    sl.add(v)
print(pairs)
