"""Input generator for classic/convex_hull: `python gen.py short|long` prints the input.

EXECSTATE_SEED, when set, draws a fresh input of the same shape (execstate build --fresh):
short: 4 distinct random points in 0..4 x 0..4; long: another 150 points in 0..200 x 0..200.

`python gen.py size N` prints an input of size N for the input ladder (execstate build --ladder,
docs/ladder.md), drawn from EXECSTATE_SEED (seed 0 when unset): n + 2 random points in 0..200.
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


SHORT = [(0, 0), (4, 1), (2, 2), (1, 4)]  # the published short input


def distinct_points(stream, count, size):
    points = []
    while len(points) < count:
        point = (next(stream) % size, next(stream) % size)
        if point not in points:
            points.append(point)
    return points


def size_stream():
    """The stream `gen.py size N` draws from: EXECSTATE_SEED's (as a fresh long input's), seed 0 when it is unset."""
    text = os.environ.get("EXECSTATE_SEED", "").strip() or "0"
    rng = random.Random(2 * int(text) + 1)
    return iter(lambda: rng.getrandbits(23), None)


def sized(n, stream):
    """Print the input of size n (n >= 1): n + 2 random points in 0..200."""
    points = [(next(stream) % 201, next(stream) % 201) for _ in range(n + 2)]
    print(len(points))
    for x, y in points:
        print(x, y)


def main():
    if sys.argv[1] == "size":
        sized(int(sys.argv[2]), size_stream())
        return
    fresh = fresh_stream(sys.argv[1])
    if sys.argv[1] == "short":
        points = SHORT
        while fresh is not None and points == SHORT:  # a fresh input differs from the published one
            points = distinct_points(fresh, 4, 5)
    else:
        stream = fresh or lcg(3141)
        points = [(next(stream) % 201, next(stream) % 201) for _ in range(150)]
    print(len(points))
    for x, y in points:
        print(x, y)


if __name__ == "__main__":
    main()
