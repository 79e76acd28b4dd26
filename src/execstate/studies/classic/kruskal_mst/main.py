"""Minimum spanning forest with Kruskal's algorithm and union-find.

Input: n and m, then m undirected edges "u v w", one per line (nodes 1..n).
Output: the total weight of a minimum spanning forest, the number of edges
in it and the number of connected components.
"""


class DisjointSets:
    """Union-find with path halving and union by size."""

    def __init__(self, n):
        self.parent = list(range(n + 1))
        self.size = [1] * (n + 1)

    def find(self, x):
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def union(self, a, b):
        a, b = self.find(a), self.find(b)
        if a == b:
            return False
        if self.size[a] < self.size[b]:
            a, b = b, a
        self.parent[b] = a
        self.size[a] += self.size[b]
        return True


def spanning_forest(n, edges):
    sets = DisjointSets(n)
    total = 0
    used = 0
    edges.sort()  # by weight; ties by endpoints, so the result never depends on input order
    for w, u, v in edges:
        if used == n - 1:
            break  # a spanning tree is complete; no later edge can join anything
        if sets.union(u, v):
            total += w
            used += 1
    return total, used


def main():
    n, m = map(int, input().split())
    edges = []
    for _ in range(m):
        u, v, w = map(int, input().split())
        edges.append((w, u, v))
    total, used = spanning_forest(n, edges)
    print("weight", total)
    print("edges", used)
    print("components", n - used)


if __name__ == "__main__":
    main()
