"""Input generator for classic/topo_order: `python gen.py short|long` prints the input.

EXECSTATE_SEED, when set, draws a fresh input of the same shape (execstate build --fresh):
short: 4 pairs on 5 courses drawn like the long ones; long: another 330 pairs on 220 courses that
follow a hidden random ranking, each to one of the next 15 ranks (so never a cycle).

`python gen.py size N` prints an input of size N for the input ladder (execstate build --ladder,
docs/ladder.md), drawn from EXECSTATE_SEED (seed 0 when unset): n + 1 nodes and 3(n + 1) // 2 ranked pairs.
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


def ranked_pairs(stream, n, m):
    """A hidden random ranking; every pair points from lower rank to higher rank."""
    rank = list(range(1, n + 1))
    for i in range(n - 1, 0, -1):
        j = next(stream) % (i + 1)
        rank[i], rank[j] = rank[j], rank[i]
    pairs = []
    for _ in range(m):
        i = next(stream) % (n - 1)
        j = i + 1 + next(stream) % min(15, n - 1 - i)
        pairs.append((rank[i], rank[j]))
    return pairs


def size_stream():
    """The stream `gen.py size N` draws from: EXECSTATE_SEED's (as a fresh long input's), seed 0 when it is unset."""
    text = os.environ.get("EXECSTATE_SEED", "").strip() or "0"
    rng = random.Random(2 * int(text) + 1)
    return iter(lambda: rng.getrandbits(23), None)


def sized(n, stream):
    """Print the input of size n (n >= 1): n + 1 nodes and 3(n + 1) // 2 ranked pairs."""
    nodes = n + 1
    pairs = ranked_pairs(stream, nodes, 3 * nodes // 2) if nodes > 1 else []
    print(nodes, len(pairs))
    for pair in pairs:
        print(*pair)


def main():
    if sys.argv[1] == "size":
        sized(int(sys.argv[2]), size_stream())
        return
    fresh = fresh_stream(sys.argv[1])
    if sys.argv[1] == "short":
        n, pairs = 5, [(3, 1), (1, 4), (5, 4), (3, 2)]
        while fresh is not None and pairs == [(3, 1), (1, 4), (5, 4), (3, 2)]:  # a fresh input differs
            pairs = ranked_pairs(fresh, n, 4)
    else:
        n = 220
        pairs = ranked_pairs(fresh or lcg(1618), n, 330)
    print(n, len(pairs))
    for pair in pairs:
        print(*pair)


if __name__ == "__main__":
    main()
