"""Scoreboard. N players all start with 0 points. Q events `p s` follow: player p gains s points, then print p's rank, 1 plus the number of players with strictly more points, one per line. An event with p outside 1..N prints -1 and changes nothing. Input: `N Q`, then Q lines `p s`. Constraints: 1 <= N, Q <= 2*10^5, 1 <= p <= 10^9, 0 <= s <= 10^9."""
import sys

from sortedcontainers import SortedList

input = sys.stdin.readline


def main():
    n, q = map(int, input().split())
    score = [0] * (n + 1)
    board = SortedList([0] * n)
    out = []
    for _ in range(q):
        p, s = map(int, input().split())
        if not 1 <= p <= n:
            out.append(-1)
            continue
        board.remove(score[p])
        score[p] += s
        board.add(score[p])
        rank = len(board) - board.bisect_right(score[p]) + 1
        out.append(rank)
    print("\n".join(map(str, out)))


main()
