"""One-letter substrings. Given a string S of N lowercase letters, count the pairs (l, r) with 1 <= l <= r <= N such that S_l = S_{l+1} = ... = S_r. Input: `N`, then S on one line. Constraints: 1 <= N <= 2*10^5."""
import sys

from more_itertools import run_length

input = sys.stdin.readline

n = int(input())
s = input().strip()
count = 0
for letter, length in run_length.encode(s):
    count += length * (length + 1) // 2
print(count)
