"""Mex under point updates. Given N integers A_1..A_N and Q queries `i x`: set A_i to x (a query with i > N changes nothing), then print the mex of A, the smallest non-negative integer not in A, one per line. Input: `N Q`, then A_1 ... A_N on one line, then Q lines `i x`. Constraints: 1 <= N, Q <= 2*10^5, 1 <= i, 0 <= x, A_i <= 10^9."""
import sys

from sortedcontainers import SortedSet

input = sys.stdin.readline


def main():
    n, q = map(int, input().split())
    a = list(map(int, input().split()))
    n = len(a)
    count = [0] * (n + 1)  # the mex is at most n: larger values never matter
    for v in a:
        if v <= n:
            count[v] += 1
    missing = SortedSet(v for v in range(n + 1) if count[v] == 0)
    out = []
    for _ in range(q):
        i, x = map(int, input().split())
        if i <= n:
            old = a[i - 1]
            a[i - 1] = x
            if old <= n:
                count[old] -= 1
                if count[old] == 0:
                    missing.add(old)
            if x <= n:
                count[x] += 1
                missing.discard(x)
        mex = missing[0]
        out.append(mex)
    print("\n".join(map(str, out)))


main()
