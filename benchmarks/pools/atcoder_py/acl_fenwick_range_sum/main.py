"""Point add, range sum. Given N integers A_0..A_{N-1} and Q queries `t a b`: for t = 0 add b to A_a; for t = 1 print A_a + A_{a+1} + ... + A_{b-1}, one per line. Indices outside the array are clamped: an add at a >= N does nothing, and a sum covers only the indices of [a, b) that lie in 0..N-1 (0 if there are none). Input: `N Q`, then A_0 ... A_{N-1} on one line, then Q lines `t a b`. Constraints: 1 <= N, Q <= 5*10^5, 0 <= A_i, b <= 10^9, t in {0, 1}, 0 <= a <= 10^9."""
import sys

from atcoder.fenwicktree import FenwickTree

input = sys.stdin.readline


def main():
    n, q = map(int, input().split())
    a = list(map(int, input().split()))
    n = len(a)
    fw = FenwickTree(n)
    for i, v in enumerate(a):
        fw.add(i, v)
    out = []
    for _ in range(q):
        t, x, y = map(int, input().split())
        if t == 0:
            if x < n:
                fw.add(x, y)
        else:
            lo, hi = min(x, n), min(y, n)
            total = fw.sum(lo, hi) if lo < hi else 0
            out.append(total)
    print("\n".join(map(str, out)))


main()
