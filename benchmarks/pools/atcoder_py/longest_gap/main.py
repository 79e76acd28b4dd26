"""Street lamps. A street is the segment [0, L] with no lamps. Lamps are placed at positions x_1, ..., x_N in turn; after each placement print the length of the longest part of the street without a lamp (between two neighbouring lamps, or between a lamp and an end of the street), on one line separated by spaces. Placing a lamp where one already stands, or at a position not strictly inside (0, L), changes nothing. Input: `N L`, then x_1 ... x_N on one line. Constraints: 1 <= N <= 2*10^5, 2 <= L <= 10^9, 1 <= x_i <= 10^9."""
import sys

from sortedcontainers import SortedList

input = sys.stdin.readline


def main():
    n, length = map(int, input().split())
    xs = list(map(int, input().split()))
    lamps = SortedList([0, length])
    gaps = SortedList([length])
    answers = []
    for x in xs:
        pos = lamps.bisect_left(x)
        if 0 < x < length and lamps[pos] != x:
            left = lamps[pos - 1]
            right = lamps[pos]
            gaps.remove(right - left)
            gaps.add(x - left)
            gaps.add(right - x)
            lamps.add(x)
        longest = gaps[-1]
        answers.append(longest)
    print(" ".join(map(str, answers)))


main()
