"""Input generator for classic/kruskal_mst: `python gen.py short|long` prints the input."""
import sys


def lcg(seed):
    """Deterministic pseudo-random stream (same on every Python version)."""
    state = seed
    while True:
        state = (state * 1103515245 + 12345) % 2**31
        yield state >> 8


def main():
    if sys.argv[1] == "short":
        n, edges = 5, [(1, 2, 3), (2, 3, 1), (1, 3, 2), (4, 5, 7), (3, 4, 9)]
    else:
        stream = lcg(8675309)
        n = 120
        edges = []
        for _ in range(250):
            u = 1 + next(stream) % n
            v = 1 + next(stream) % n
            if u != v:
                edges.append((u, v, 1 + next(stream) % 500))
    print(n, len(edges))
    for edge in edges:
        print(*edge)


if __name__ == "__main__":
    main()
