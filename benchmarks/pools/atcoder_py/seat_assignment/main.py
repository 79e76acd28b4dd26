"""Theatre seats. Seats 1..N are all free. Q people arrive in order; person j wants seat x_j and takes the smallest free seat numbered at least x_j. Print the seat each person takes, one per line, or -1 if there is none (the person leaves). Input: `N Q`, then Q lines, each one integer x_j. Constraints: 1 <= N, Q <= 2*10^5, 1 <= x_j <= 10^9."""
import sys

from sortedcontainers import SortedSet

input = sys.stdin.readline


def main():
    n, q = map(int, input().split())
    free = SortedSet(range(1, n + 1))
    out = []
    for _ in range(q):
        x = int(input())
        pos = free.bisect_left(x)
        if pos == len(free):
            seat = -1
        else:
            seat = free[pos]
            del free[pos]
        out.append(seat)
    print("\n".join(map(str, out)))


main()
