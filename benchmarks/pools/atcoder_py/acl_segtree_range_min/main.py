"""Point set, range minimum. Given N integers A_0..A_{N-1} and Q queries `t a b`: for t = 0 set A_a to b; for t = 1 print the minimum of A_a, ..., A_{b-1}, one per line, or 2147483647 if that range holds no index. Indices outside the array are clamped: a set at a >= N does nothing, and a minimum covers only the indices of [a, b) that lie in 0..N-1. Input: `N Q`, then A_0 ... A_{N-1} on one line, then Q lines `t a b`. Constraints: 1 <= N, Q <= 5*10^5, 0 <= A_i, b <= 10^9, t in {0, 1}, 0 <= a <= 10^9."""
import sys

from atcoder.segtree import SegTree

input = sys.stdin.readline
INF = 2147483647


def main():
    n, q = map(int, input().split())
    a = list(map(int, input().split()))
    n = len(a)
    seg = SegTree(min, INF, a)
    out = []
    for _ in range(q):
        t, x, y = map(int, input().split())
        if t == 0:
            if x < n:
                seg.set(x, y)
        else:
            lo, hi = min(x, n), min(y, n)
            low = seg.prod(lo, hi) if lo < hi else INF
            out.append(low)
    print("\n".join(map(str, out)))


main()
