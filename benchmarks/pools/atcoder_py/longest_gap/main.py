"""Street lamps. A street is the segment [0, L] with no lamps. Lamps are placed at positions x_1, ..., x_N in turn; after each placement print the length of the longest part of the street without a lamp (between two neighbouring lamps, or between a lamp and an end of the street), on one line separated by spaces. Placing a lamp where one already stands, or at a position not strictly inside (0, L), changes nothing. Input: `N L`, then x_1 ... x_N on one line. Constraints: 1 <= N <= 2*10^5, 2 <= L <= 10^9, 1 <= x_i <= 10^9."""
import sys
from heapq import heappop, heappush

from sortedcontainers import SortedList

input = sys.stdin.readline


def main():
    n, length = map(int, input().split())
    xs = list(map(int, input().split()))
    lamps = SortedList([0, length])
    gaps = [-length]  # max-heap of gap lengths, negated; a split gap is dropped lazily
    stale = {}
    answers = []
    for x in xs:
        if 0 < x < length:
            pos = lamps.bisect_left(x)
            right = lamps[pos]
            if right != x:
                left = lamps[pos - 1]
                stale[right - left] = stale.get(right - left, 0) + 1
                heappush(gaps, left - x)
                heappush(gaps, x - right)
                lamps.add(x)
        while stale.get(-gaps[0], 0):
            stale[-gaps[0]] -= 1
            heappop(gaps)
        longest = -gaps[0]
        answers.append(longest)
    print(" ".join(map(str, answers)))


main()
