"""Longest strictly increasing subsequence by patience sorting.

Input: n, then the n integers on one line. Output: the length of the longest
strictly increasing subsequence, then one such subsequence: the one rebuilt
from the last pile, following each element back to the pile top it landed
on.
"""
from bisect import bisect_left


def longest_increasing(seq):
    tail_values = []  # tail_values[L]: smallest last value of an increasing run of length L+1
    tail_index = []   # the position in seq of that last value
    parent = []       # parent[i]: position of the element before seq[i] in its run
    length = 0
    for i, x in enumerate(seq):
        pos = bisect_left(tail_values, x)
        parent.append(tail_index[pos - 1] if pos > 0 else -1)
        if pos == length:
            tail_values.append(x)
            tail_index.append(i)
            length += 1
        else:
            tail_values[pos] = x
            tail_index[pos] = i
    run = []
    k = tail_index[-1] if tail_index else -1
    while k != -1:
        run.append(seq[k])
        k = parent[k]
    return run[::-1]


def main():
    input()  # n: the values on the next line are all there is
    seq = list(map(int, input().split()))
    run = longest_increasing(seq)
    print(len(run))
    print(" ".join(map(str, run)))


if __name__ == "__main__":
    main()
