"""Input generator for classic/dijkstra: `python gen.py short|long` prints the input.

EXECSTATE_SEED, when set, draws a fresh input of the same shape (execstate build --fresh):
short: the published 4-node shape (1 -> a, 1 -> b, b -> a, a -> 4 with {a, b} = {2, 3}) with
random weights 1..9 and edge order; long: another 160-node graph of 640 short-hop edges, 1 to 100.

`python gen.py size N` prints an input of size N for the input ladder (execstate build --ladder,
docs/ladder.md), drawn from EXECSTATE_SEED (seed 0 when unset): n + 1 nodes, the path 1 -> 2 -> ... -> n + 1 and n more mostly
short random hops (node n + 1 is reachable: the search settles at least two nodes), from node 1 to node n + 1.
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


SHORT = [(1, 2, 4), (1, 3, 1), (3, 2, 2), (2, 4, 5)]  # the published short edges


def short_graph(stream):
    """Two routes from 1 to a (direct, or through b), then a -> 4."""
    a, b = sorted((2, 3), key=lambda node: next(stream))
    edges = [(1, a), (1, b), (b, a), (a, 4)]
    edges = [(u, v, 1 + next(stream) % 9) for u, v in edges]
    return sorted(edges, key=lambda edge: next(stream))


def size_stream():
    """The stream `gen.py size N` draws from: EXECSTATE_SEED's (as a fresh long input's), seed 0 when it is unset."""
    text = os.environ.get("EXECSTATE_SEED", "").strip() or "0"
    rng = random.Random(2 * int(text) + 1)
    return iter(lambda: rng.getrandbits(23), None)


def sized(n, stream):
    """Print the input of size n (n >= 1): n + 1 nodes, the path 1 -> ... -> n + 1 and n more mostly short random
    hops, from node 1 to node n + 1."""
    nodes = n + 1
    edges = [(u, u + 1, 1 + next(stream) % 40) for u in range(1, nodes)]
    for _ in range(n):
        u = 1 + next(stream) % nodes
        v = 1 + (u + next(stream) % 12) % nodes
        edges.append((u, v, 1 + next(stream) % 40))
    print(nodes, len(edges))
    for edge in edges:
        print(*edge)
    print(1, nodes)


def main():
    if sys.argv[1] == "size":
        sized(int(sys.argv[2]), size_stream())
        return
    fresh = fresh_stream(sys.argv[1])
    if sys.argv[1] == "short":
        edges = SHORT
        while fresh is not None and edges == SHORT:  # a fresh input differs from the published one
            edges = short_graph(fresh)
        n, source, target = 4, 1, 4
    else:
        stream = fresh or lcg(271828)
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
