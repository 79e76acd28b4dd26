"""Input generator for classic/bellman_ford: `python gen.py short|long` prints the input.

EXECSTATE_SEED, when set, draws a fresh input of the same shape (execstate build --fresh):
short: a path s -> a -> b over nodes 1..3 in random order, its 2 edges in random order with
weights in -3..5; long: another 50-node graph from 110 draws with hidden potentials (no negative cycle).

`python gen.py size N` prints an input of size N for the input ladder (execstate build --ladder,
docs/ladder.md), drawn from EXECSTATE_SEED (seed 0 when unset): the path 1 -> 2 -> ... -> M listed last edge
first (every round relaxes one more node: M rounds) and e random backward edges that never relax (weights 0..9
against positive path weights), with M = 2k + 4 nodes and e = 0..3 for N = 4k + e + 1 (M even: the loop's
middle iteration opens a round that still relaxes; each size step adds about one edge per round).
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


SHORT = (3, [(2, 3, -1), (1, 2, 4)], 1)  # the published short input: n, edges, source


def short_graph(stream):
    """Nodes 1..3 in a random order s, a, b: the path s -> a -> b (no cycle, so no negative one)."""
    s, a, b = sorted((1, 2, 3), key=lambda node: next(stream))
    edges = [(s, a, next(stream) % 9 - 3), (a, b, next(stream) % 9 - 3)]
    if next(stream) % 2:
        edges.reverse()  # the published order: the far edge first, so it takes two rounds
    return 3, edges, s


def size_stream():
    """The stream `gen.py size N` draws from: EXECSTATE_SEED's (as a fresh long input's), seed 0 when it is unset."""
    text = os.environ.get("EXECSTATE_SEED", "").strip() or "0"
    rng = random.Random(2 * int(text) + 1)
    return iter(lambda: rng.getrandbits(23), None)


def sized(n, stream):
    """Print the input of size n (n >= 1): the path 1 -> 2 -> ... -> N listed last edge first (weights 1..9: round r
    relaxes the edge r -> r + 1, so N rounds in all, the last changing nothing) and e random backward edges u -> v
    (v < u, weights 0..9: never shorter), where N = 2k + 4 and e = 0..3 for n = 4k + e + 1. N is even, so the
    loop's middle iteration opens a round that still relaxes an edge; every size step adds about one edge per
    round (size 0: two nodes and one edge)."""
    k, e = divmod(n - 1, 4) if n >= 1 else (-1, 0)
    nodes = 2 * k + 4
    edges = [(u, u + 1, 1 + next(stream) % 9) for u in range(nodes - 1, 0, -1)]
    for _ in range(e):
        u = 2 + next(stream) % (nodes - 1)
        edges.insert(next(stream) % (len(edges) + 1), (u, 1 + next(stream) % (u - 1), next(stream) % 10))
    print(nodes, len(edges))
    for edge in edges:
        print(*edge)
    print(1)


def main():
    if sys.argv[1] == "size":
        sized(int(sys.argv[2]), size_stream())
        return
    fresh = fresh_stream(sys.argv[1])
    if sys.argv[1] == "short":
        n, edges, source = SHORT
        while fresh is not None and (n, edges, source) == SHORT:  # a fresh input differs from the published one
            n, edges, source = short_graph(fresh)
    else:
        stream = fresh or lcg(1729)
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
