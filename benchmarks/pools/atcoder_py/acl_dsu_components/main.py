"""Building roads. There are N towns and no roads. M roads are built one after another; road i joins towns u_i and v_i. After each road print the number of connected groups of towns, one per line (a road naming a town outside 1..N is not built). Input: `N M`, then M lines `u_i v_i`. Constraints: 1 <= N, M <= 2*10^5, 1 <= u_i, v_i <= 10^9."""
import sys

from atcoder.dsu import DSU

input = sys.stdin.readline


def main():
    n, m = map(int, input().split())
    dsu = DSU(n)
    groups = n
    out = []
    for _ in range(m):
        u, v = map(int, input().split())
        if 1 <= u <= n and 1 <= v <= n and not dsu.same(u - 1, v - 1):
            dsu.merge(u - 1, v - 1)
            groups -= 1
        out.append(groups)
    print("\n".join(map(str, out)))


main()
