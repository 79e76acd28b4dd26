"""Painting a line. A number line is blank. N strokes follow; stroke i paints the half-open interval [L_i, R_i) (if L_i > R_i the two are swapped; an empty interval paints nothing). After each stroke print the total length of the painted part, one number per line. Input: `N`, then N lines `L_i R_i`. Constraints: 1 <= N <= 2*10^5, 0 <= L_i, R_i <= 10^9."""
import sys

from sortedcontainers import SortedDict

input = sys.stdin.readline


def main():
    n = int(input())
    spans = SortedDict()  # start -> end of disjoint painted intervals
    total = 0
    out = []
    for _ in range(n):
        lo, hi = map(int, input().split())
        if lo > hi:
            lo, hi = hi, lo
        if lo < hi:
            j = spans.bisect_right(lo) - 1
            if j < 0 or spans.peekitem(j)[1] < lo:
                j += 1
            while j < len(spans):
                s, e = spans.peekitem(j)
                if s > hi:
                    break
                lo = min(lo, s)
                hi = max(hi, e)
                total -= e - s
                spans.popitem(j)
            spans[lo] = hi
            total += hi - lo
        out.append(total)
    print("\n".join(map(str, out)))


main()
