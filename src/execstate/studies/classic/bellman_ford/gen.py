"""Input generator for classic/bellman_ford: `python gen.py short|long` prints the input."""
import sys


def lcg(seed):
    """Deterministic pseudo-random stream (same on every Python version)."""
    state = seed
    while True:
        state = (state * 1103515245 + 12345) % 2**31
        yield state >> 8


def main():
    if sys.argv[1] == "short":
        n, edges, source = 3, [(2, 3, -1), (1, 2, 4)], 1
    else:
        stream = lcg(1729)
        n, source = 50, 1
        # Weights are w = base + p(u) - p(v) with base >= 0 for hidden potentials p,
        # so weights can be negative but every cycle has a non-negative total.
        potential = [0] + [next(stream) % 30 for _ in range(n)]
        edges = []
        for _ in range(110):
            u = 1 + next(stream) % n
            v = 1 + (u + next(stream) % 6) % n
            if u != v:
                edges.append((u, v, next(stream) % 10 + potential[u] - potential[v]))
    print(n, len(edges))
    for edge in edges:
        print(*edge)
    print(source)


if __name__ == "__main__":
    main()
