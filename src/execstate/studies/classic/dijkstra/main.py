"""Single-source shortest paths with Dijkstra's algorithm and a binary heap.

Input: n and m, then m directed edges "u v w" (nodes 1..n, w >= 0), then a
source and a target node. Output: the distances from the source to nodes
1..n on one line ("-" for unreachable nodes), then a shortest path to the
target (the one recorded by the first strict improvement of each node's
distance), or "no path".
"""
import sys
import heapq


def read_graph(tokens):
    n, m = int(tokens[0]), int(tokens[1])
    adjacency = [[] for _ in range(n + 1)]
    for e in range(m):
        u, v, w = (int(tok) for tok in tokens[2 + 3 * e:5 + 3 * e])
        if w < 0:
            raise SystemExit(f"edge {u}->{v} has negative weight {w}; Dijkstra needs w >= 0")
        adjacency[u].append((v, w))
    source, target = int(tokens[2 + 3 * m]), int(tokens[3 + 3 * m])
    if not (1 <= source <= n and 1 <= target <= n):
        raise SystemExit(f"source and target must be nodes 1..{n}")
    return adjacency, source, target


def shortest_paths(adjacency, source):
    """Return (dist, parent); dist[v] is None when v is unreachable."""
    dist = [None] * len(adjacency)
    parent = [None] * len(adjacency)
    dist[source] = 0
    heap = [(0, source)]
    settled = 0
    stale = 0
    while heap:
        d, u = heapq.heappop(heap)
        if d > dist[u]:
            stale += 1  # an outdated entry: u was reached more cheaply later
            continue
        settled += 1
        for v, w in adjacency[u]:
            if dist[v] is None or d + w < dist[v]:
                dist[v] = d + w
                parent[v] = u
                heapq.heappush(heap, (d + w, v))
    return dist, parent


def path_to(parent, source, target):
    path = [target]
    while path[-1] != source:
        path.append(parent[path[-1]])
    return path[::-1]


def main():
    adjacency, source, target = read_graph(sys.stdin.read().split())
    dist, parent = shortest_paths(adjacency, source)
    print(" ".join("-" if d is None else str(d) for d in dist[1:]))
    if dist[target] is None:
        print("no path")
    else:
        print("path", *path_to(parent, source, target))


if __name__ == "__main__":
    main()
