"""Most frequent value. A multiset starts empty. Q queries `t x` follow: for t = 1 insert x, for t = 2 remove one copy of x if there is one. After each query print the value with the most copies (the smallest such value on a tie), or -1 if the multiset is empty, one per line. Input: `Q`, then Q lines `t x`. Constraints: 1 <= Q <= 2*10^5, t in {1, 2}, 1 <= x <= 10^9."""
import sys

from sortedcontainers import SortedList

input = sys.stdin.readline


def main():
    q = int(input())
    copies = {}
    ranking = SortedList()  # (-copies, value) for every value present
    out = []
    for _ in range(q):
        t, x = map(int, input().split())
        c = copies.get(x, 0)
        if t == 1 or c > 0:
            if c > 0:
                ranking.remove((-c, x))
            c = c + 1 if t == 1 else c - 1
            copies[x] = c
            if c > 0:
                ranking.add((-c, x))
        top = ranking[0][1] if ranking else -1
        out.append(top)
    print("\n".join(map(str, out)))


main()
