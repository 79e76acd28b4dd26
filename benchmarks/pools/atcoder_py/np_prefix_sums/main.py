"""Range sums. Given N integers A_1..A_N and Q queries `l r`, print A_l + A_{l+1} + ... + A_r for each query, one per line (l and r are swapped if l > r, and clamped to 1..N). Input: `N Q`, then A_1 ... A_N on one line, then Q lines `l r`. Constraints: 1 <= N, Q <= 2*10^5, -10^9 <= A_i <= 10^9, 1 <= l, r <= 10^9."""
import sys

import numpy as np

input = sys.stdin.readline


def main():
    n, q = map(int, input().split())
    a = np.array(input().split(), dtype=np.int64)
    n = len(a)
    prefix = np.zeros(n + 1, dtype=np.int64)
    prefix[1:] = np.cumsum(a)
    out = []
    for _ in range(q):
        lo, hi = map(int, input().split())
        if lo > hi:
            lo, hi = hi, lo
        lo = max(1, min(lo, n))
        hi = max(1, min(hi, n))
        s = int(prefix[hi] - prefix[lo - 1])
        out.append(s)
    print("\n".join(map(str, out)))


main()
