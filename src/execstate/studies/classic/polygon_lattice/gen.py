"""Input generator for classic/polygon_lattice: `python gen.py short|long` prints the input.

EXECSTATE_SEED, when set, draws a fresh input of the same shape (execstate build --fresh):
short: a random quadrilateral with one vertex in each open quadrant (coordinates -3..3, star-shaped
around the origin, so simple), counter-clockwise; long: another clockwise star polygon over the
primitive directions of reach 9, each scaled by 1..4.

`python gen.py size N` prints an input of size N for the input ladder (execstate build --ladder,
docs/ladder.md), drawn from EXECSTATE_SEED (seed 0 when unset): a star-shaped polygon of n + 2 vertices (evenly spaced primitive directions, scaled).
"""
import os
import random
import sys
from functools import cmp_to_key
from math import gcd


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


def by_angle(a, b):
    """Exact counter-clockwise angle order starting from the positive x-axis."""
    half_a = a[1] < 0 or (a[1] == 0 and a[0] < 0)
    half_b = b[1] < 0 or (b[1] == 0 and b[0] < 0)
    if half_a != half_b:
        return 1 if half_a else -1
    return -1 if a[0] * b[1] - a[1] * b[0] > 0 else 1


def star_polygon(reach, stream):
    """Scale every primitive direction by a random factor: star-shaped, hence simple."""
    directions = [(dx, dy) for dx in range(-reach, reach + 1) for dy in range(-reach, reach + 1)
                  if gcd(dx, dy) == 1]
    directions.sort(key=cmp_to_key(by_angle))
    scales = [1 + next(stream) % 4 for _ in directions]
    return [(dx * s, dy * s) for (dx, dy), s in zip(directions, scales)]


def size_stream():
    """The stream `gen.py size N` draws from: EXECSTATE_SEED's (as a fresh long input's), seed 0 when it is unset."""
    text = os.environ.get("EXECSTATE_SEED", "").strip() or "0"
    rng = random.Random(2 * int(text) + 1)
    return iter(lambda: rng.getrandbits(23), None)


def sized(n, stream):
    """Print the input of size n (n >= 1): a star-shaped polygon of n + 2 vertices (evenly spaced primitive directions, scaled)."""
    vertices = n + 2
    reach = 1
    while sum(gcd(dx, dy) == 1 for dx in range(-reach, reach + 1) for dy in range(-reach, reach + 1)) < vertices:
        reach += 1  # until there are enough primitive directions to pick from
    star = star_polygon(reach, stream)
    picked = [star[i * len(star) // vertices] for i in range(vertices)]
    print(len(picked))
    for x, y in picked:
        print(x, y)


def main():
    if sys.argv[1] == "size":
        sized(int(sys.argv[2]), size_stream())
        return
    fresh = fresh_stream(sys.argv[1])
    if sys.argv[1] == "short":
        vertices = [(0, 0), (4, 0), (4, 3), (1, 2)]
        if fresh is not None:  # never the published input: these have a vertex in every quadrant
            vertices = [(sx * (1 + next(fresh) % 3), sy * (1 + next(fresh) % 3))
                        for sx, sy in ((1, 1), (-1, 1), (-1, -1), (1, -1))]
    else:
        vertices = star_polygon(9, fresh or lcg(2024))[::-1]  # clockwise, for variety
    print(len(vertices))
    for x, y in vertices:
        print(x, y)


if __name__ == "__main__":
    main()
