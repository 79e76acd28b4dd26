"""Shortest paths with negative edge weights: Bellman-Ford with early exit.

Input: n and m, then m directed edges "u v w", one per line (nodes 1..n, w
may be negative), then the source. Output: the number of rounds that changed
something and the total number of successful relaxations, then the distance
to each node ("inf" if unreachable), or "negative cycle" if one is reachable
from the source.
"""

INF = float("inf")


def bellman_ford(n, edges, source):
    """Return (dist, rounds, relaxations); dist is None when a negative cycle is reachable."""
    dist = [INF] * (n + 1)
    dist[source] = 0
    rounds = 0
    relaxations = 0
    for round_no in range(1, n + 1):
        changed = False
        for u, v, w in edges:
            if dist[u] + w < dist[v]:
                dist[v] = dist[u] + w
                relaxations += 1
                changed = True
        if not changed:
            return dist, rounds, relaxations
        if round_no == n:
            # Still improving after n - 1 full rounds: some cycle is negative.
            return None, rounds, relaxations
        rounds = round_no
    return dist, rounds, relaxations


def main():
    n, m = map(int, input().split())
    edges = [tuple(map(int, input().split())) for _ in range(m)]
    dist, rounds, relaxations = bellman_ford(n, edges, int(input()))
    print("rounds", rounds, "relaxations", relaxations)
    if dist is None:
        print("negative cycle")
        return
    print(" ".join("inf" if d == INF else str(d) for d in dist[1:]))


if __name__ == "__main__":
    main()
