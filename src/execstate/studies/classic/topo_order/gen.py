"""Input generator for classic/topo_order: `python gen.py short|long` prints the input."""
import sys


def lcg(seed):
    """Deterministic pseudo-random stream (same on every Python version)."""
    state = seed
    while True:
        state = (state * 1103515245 + 12345) % 2**31
        yield state >> 8


def main():
    if sys.argv[1] == "short":
        n, pairs = 5, [(3, 1), (1, 4), (5, 4), (3, 2)]
    else:
        stream = lcg(1618)
        n = 220
        # A hidden random ranking; every pair points from lower rank to higher rank.
        rank = list(range(1, n + 1))
        for i in range(n - 1, 0, -1):
            j = next(stream) % (i + 1)
            rank[i], rank[j] = rank[j], rank[i]
        pairs = []
        for _ in range(330):
            i = next(stream) % (n - 1)
            j = i + 1 + next(stream) % min(15, n - 1 - i)
            pairs.append((rank[i], rank[j]))
    print(n, len(pairs))
    for pair in pairs:
        print(*pair)


if __name__ == "__main__":
    main()
