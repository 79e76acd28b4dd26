"""Sliding window median. Given N integers A_1..A_N and a window length K, print the median of every window of K consecutive elements, A_i..A_{i+K-1} for i = 1..N-K+1, on one line separated by spaces; the median of a window is its ceil(K/2)-th smallest element. A K larger than N is treated as N. Input: `N K`, then A_1 ... A_N on one line. Constraints: 1 <= K, N <= 2*10^5, 1 <= A_i <= 10^9."""
import sys

from sortedcontainers import SortedList

input = sys.stdin.readline


def main():
    n, k = map(int, input().split())
    a = list(map(int, input().split()))
    n = len(a)
    k = max(1, min(k, n))
    window = SortedList()
    medians = []
    for i in range(n):
        window.add(a[i])
        if i >= k:
            window.remove(a[i - k])
        if i >= k - 1:
            med = window[(k - 1) // 2]
            medians.append(med)
    print(" ".join(map(str, medians)))


main()
