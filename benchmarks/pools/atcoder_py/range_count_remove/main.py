"""Harvest. A multiset holds the N integers A_1..A_N. Q queries `l r` follow: print how many elements of the multiset lie in [l, r] (with l and r swapped if l > r), then remove all of them. Input: `N Q`, then A_1 ... A_N on one line, then Q lines `l r`. Constraints: 1 <= N, Q <= 2*10^5, 1 <= A_i, l, r <= 10^9."""
import sys

from sortedcontainers import SortedList

input = sys.stdin.readline


def main():
    n, q = map(int, input().split())
    sl = SortedList(map(int, input().split()))
    out = []
    for _ in range(q):
        lo, hi = map(int, input().split())
        if lo > hi:
            lo, hi = hi, lo
        i = sl.bisect_left(lo)
        j = sl.bisect_right(hi)
        taken = j - i
        if taken:
            del sl[i:j]
        out.append(taken)
    print("\n".join(map(str, out)))


main()
