"""Input generator for classic/dijkstra: `python gen.py short|long` prints the input."""
import sys


def lcg(seed):
    """Deterministic pseudo-random stream (same on every Python version)."""
    state = seed
    while True:
        state = (state * 1103515245 + 12345) % 2**31
        yield state >> 8


def main():
    if sys.argv[1] == "short":
        n, edges, source, target = 4, [(1, 2, 4), (1, 3, 1), (3, 2, 2), (2, 4, 5)], 1, 4
    else:
        stream = lcg(271828)
        n, source, target = 160, 1, 100
        edges = []
        for _ in range(640):
            u = 1 + next(stream) % n
            v = 1 + (u + next(stream) % 12) % n  # mostly short hops: long paths, many improvements
            edges.append((u, v, 1 + next(stream) % 40))
    print(n, len(edges))
    for edge in edges:
        print(*edge)
    print(source, target)


if __name__ == "__main__":
    main()
