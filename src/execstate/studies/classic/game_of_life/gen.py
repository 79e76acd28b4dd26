"""Input generator for classic/game_of_life: `python gen.py short|long` prints the input.

EXECSTATE_SEED, when set, draws a fresh input of the same shape (execstate build --fresh):
short: a random 3 x 3 soup (each cell alive with chance 1/3), 1 generation; long: on the same
8 x 8 torus for 9 generations, a glider in a random one of its four orientations and a blinker
(horizontal or vertical), each at a random place.

`python gen.py size N` prints an input of size N for the input ladder (execstate build --ladder,
docs/ladder.md), drawn from EXECSTATE_SEED (seed 0 when unset): a random grid whose cells times generations are about n (about n**(1/3) generations).
"""
import math
import os
import random
import sys


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


SHORT = ["...", "###", "..."]  # the published short grid: a blinker
LONG = [  # the published long grid: a glider and a blinker on a small torus
    ".#......",
    "..#.....",
    "###.....",
    "........",
    "........",
    ".....###",
    "........",
    "........",
]
GLIDER = ((0, 1), (1, 2), (2, 0), (2, 1), (2, 2))  # as in LONG: moving down and to the right


def glider_and_blinker(stream, size):
    top, left, flip_rows, flip_cols = next(stream) % size, next(stream) % size, next(stream) % 2, next(stream) % 2
    alive = {((top + (2 - r if flip_rows else r)) % size, (left + (2 - c if flip_cols else c)) % size)
             for r, c in GLIDER}
    top, left, vertical = next(stream) % size, next(stream) % size, next(stream) % 2
    alive |= {((top + i * vertical) % size, (left + i * (1 - vertical)) % size) for i in range(3)}
    return ["".join("#" if (r, c) in alive else "." for c in range(size)) for r in range(size)]


def size_stream():
    """The stream `gen.py size N` draws from: EXECSTATE_SEED's (as a fresh long input's), seed 0 when it is unset."""
    text = os.environ.get("EXECSTATE_SEED", "").strip() or "0"
    rng = random.Random(2 * int(text) + 1)
    return iter(lambda: rng.getrandbits(23), None)


def sized(n, stream):
    """Print the input of size n (n >= 1): a random grid whose cells times generations are about n (about n**(1/3) generations)."""
    generations = max(1, round(n ** (1 / 3)))
    cells = max(1, n // generations)
    cols = max(2, math.isqrt(cells))  # at least two: the selected loop runs over the columns
    rows = max(1, cells // cols)
    grid = ["".join(".#"[next(stream) % 3 == 0] for _ in range(cols)) for _ in range(rows)]
    print(rows, cols, generations)
    print("\n".join(grid))


def main():
    if sys.argv[1] == "size":
        sized(int(sys.argv[2]), size_stream())
        return
    fresh = fresh_stream(sys.argv[1])
    if sys.argv[1] == "short":
        rows, cols, generations = 3, 3, 1
        grid = SHORT
        while fresh is not None and grid == SHORT:  # a fresh input differs from the published one
            grid = ["".join(".#"[next(fresh) % 3 == 0] for _ in range(cols)) for _ in range(rows)]
    else:
        rows, cols, generations = 8, 8, 9
        grid = LONG
        while fresh is not None and grid == LONG:
            grid = glider_and_blinker(fresh, 8)
    print(rows, cols, generations)
    print("\n".join(grid))


if __name__ == "__main__":
    main()
