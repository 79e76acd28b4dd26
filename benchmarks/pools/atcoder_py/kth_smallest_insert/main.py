"""Multiset k-th smallest. A multiset starts with the N integers A_1..A_N; then Q queries `t x` follow. For t = 1 insert x; for t = 2 print the x-th smallest element of the multiset (1-indexed), or -1 if it holds fewer than x elements. Input: `N Q`, then A_1 ... A_N on one line, then Q lines `t x`. Constraints: 1 <= N, Q <= 2*10^5, t in {1, 2}, 1 <= x, A_i <= 10^9."""
import sys

from sortedcontainers import SortedList

input = sys.stdin.readline


def main():
    n, q = map(int, input().split())
    a = list(map(int, input().split()))
    sl = SortedList(a)
    out = []
    for _ in range(q):
        t, x = map(int, input().split())
        if t == 1:
            sl.add(x)
        elif x <= len(sl):
            out.append(sl[x - 1])
        else:
            out.append(-1)
    print("\n".join(map(str, out)))


main()
