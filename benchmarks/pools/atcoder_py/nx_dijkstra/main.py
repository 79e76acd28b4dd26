"""Travel times. There are N cities and M two-way roads; road i joins cities u_i and v_i and takes c_i minutes. For each city 1..N print the shortest travel time from city 1, or -1 if it cannot be reached, one per line (a road naming a city outside 1..N is ignored). Input: `N M`, then M lines `u_i v_i c_i`. Constraints: 1 <= N <= 10^5, 0 <= M <= 2*10^5, 1 <= u_i, v_i <= N, 0 <= c_i <= 10^9."""
import sys

import networkx as nx

input = sys.stdin.readline


def main():
    n, m = map(int, input().split())
    graph = nx.Graph()
    graph.add_nodes_from(range(1, n + 1))
    for _ in range(m):
        u, v, c = map(int, input().split())
        if 1 <= u <= n and 1 <= v <= n:
            # Parallel roads: only the fastest matters.
            if not graph.has_edge(u, v) or graph[u][v]["weight"] > c:
                graph.add_edge(u, v, weight=c)
    dist = nx.single_source_dijkstra_path_length(graph, 1)
    out = []
    for city in range(1, n + 1):
        d = dist.get(city, -1)
        out.append(d)
    print("\n".join(map(str, out)))


main()
