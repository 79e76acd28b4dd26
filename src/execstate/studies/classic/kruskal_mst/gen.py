"""Input generator for classic/kruskal_mst: `python gen.py short|long` prints the input.

EXECSTATE_SEED, when set, draws a fresh input of the same shape (execstate build --fresh):
short: 5 random edges (no loops) on 5 nodes, weights 1..9; long: another 120-node graph from 250
draws, weights 1..500.

`python gen.py size N` prints an input of size N for the input ladder (execstate build --ladder,
docs/ladder.md), drawn from EXECSTATE_SEED (seed 0 when unset): n + 1 nodes and 2n + 2 random edges (size 1: three nodes
joined by two random edges).
"""
import os
import random
import sys


def lcg(seed):
    """Deterministic pseudo-random stream (same on every Python version)."""
    state = seed
    while True:
        state = (state * 1103515245 + 12345) % 2**31
        yield state >> 8


def fresh_stream(which):
    """Endless 23-bit integers drawn from EXECSTATE_SEED and `which`; None when the variable is unset or empty."""
    text = os.environ.get("EXECSTATE_SEED", "").strip()
    if not text:
        return None
    seed = int(text)
    if not 0 <= seed < 2**56:
        raise SystemExit(f"EXECSTATE_SEED must be an integer in [0, 2**56), not {text}")
    rng = random.Random(2 * seed + (which == "long"))  # short and long draw different streams
    return iter(lambda: rng.getrandbits(23), None)


SHORT = (5, [(1, 2, 3), (2, 3, 1), (1, 3, 2), (4, 5, 7), (3, 4, 9)])  # the published short input


def short_graph(stream):
    edges = []
    while len(edges) < 5:
        u, v = 1 + next(stream) % 5, 1 + next(stream) % 5
        if u != v:
            edges.append((u, v, 1 + next(stream) % 9))
    return 5, edges


def size_stream():
    """The stream `gen.py size N` draws from: EXECSTATE_SEED's (as a fresh long input's), seed 0 when it is unset."""
    text = os.environ.get("EXECSTATE_SEED", "").strip() or "0"
    rng = random.Random(2 * int(text) + 1)
    return iter(lambda: rng.getrandbits(23), None)


def sized(n, stream):
    """Print the input of size n (n >= 1): n + 1 nodes and 2n + 2 random edges; size 1 is three nodes joined by two
    random edges (two nodes would stop the loop after its first edge: no change past the middle iteration)."""
    if n == 1:
        print(3, 2)
        print(1, 2, 1 + next(stream) % 500)
        print(2, 3, 1 + next(stream) % 500)
        return
    nodes = n + 1
    edges = []
    for _ in range(2 * nodes):
        u = 1 + next(stream) % nodes
        v = 1 + next(stream) % nodes
        if u != v:
            edges.append((u, v, 1 + next(stream) % 500))
    print(nodes, len(edges))
    for edge in edges:
        print(*edge)


def main():
    if sys.argv[1] == "size":
        sized(int(sys.argv[2]), size_stream())
        return
    fresh = fresh_stream(sys.argv[1])
    if sys.argv[1] == "short":
        n, edges = SHORT
        while fresh is not None and (n, edges) == SHORT:  # a fresh input differs from the published one
            n, edges = short_graph(fresh)
    else:
        stream = fresh or lcg(8675309)
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
