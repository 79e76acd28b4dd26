"""Input generator for classic/sandpile: `python gen.py short|long` prints the input.

EXECSTATE_SEED, when set, draws a fresh input of the same shape (execstate build --fresh):
short: a random 2 x 3 grid of 0..5 grains with one random cell holding 4 or 5; long: the same
empty 7 x 7 table with a pile of 101..115 grains on a random cell of its middle 3 x 3 (smaller or
nearer the edge, a pile topples markedly fewer times than the published 225).

`python gen.py size N` prints an input of size N for the input ladder (execstate build --ladder,
docs/ladder.md), drawn from EXECSTATE_SEED (seed 0 when unset): size 0 is one cell of 3 grains, size 1 a 1 x 2 table holding 4 and 3 grains (two topplings);
size n >= 2 a pile of n + 6 grains on a random middle cell of an empty table (3 x 3 below 21, 5 x 5 below
93, then 7 x 7).
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


def size_stream():
    """The stream `gen.py size N` draws from: EXECSTATE_SEED's (as a fresh long input's), seed 0 when it is unset."""
    text = os.environ.get("EXECSTATE_SEED", "").strip() or "0"
    rng = random.Random(2 * int(text) + 1)
    return iter(lambda: rng.getrandbits(23), None)


def sized(n, stream):
    """Print the input of size n (n >= 1): the smallest table with two topplings at size 1, else a pile of n + 6
    grains on a random middle cell of an empty table (3 x 3 below 21, 5 x 5 below 93, then 7 x 7)."""
    if n <= 0:  # the smallest input: nothing topples
        print(1, 1)
        print(3)
        return
    if n == 1:
        print(1, 2)
        print(4, 3)
        return
    n += 3  # n + 6 grains: at least two topplings
    side = 3 if n < 24 else 5 if n < 96 else 7
    grid = [[0] * side for _ in range(side)]
    middle = side // 2 - (side > 3)
    spread = 3 if side > 3 else 1
    grid[middle + next(stream) % spread][middle + next(stream) % spread] = n + 3
    print(len(grid), len(grid[0]))
    for row in grid:
        print(" ".join(map(str, row)))


def main():
    if sys.argv[1] == "size":
        sized(int(sys.argv[2]), size_stream())
        return
    fresh = fresh_stream(sys.argv[1])
    if sys.argv[1] == "short":
        grid = [[0, 4, 0], [3, 5, 0]]
        while fresh is not None and grid == [[0, 4, 0], [3, 5, 0]]:  # a fresh input differs
            grid = [[next(fresh) % 6 for _ in range(3)] for _ in range(2)]
            grid[next(fresh) % 2][next(fresh) % 3] = 4 + next(fresh) % 2  # at least one cell topples
    else:
        # A tall pile in the middle of an empty 7 x 7 table.
        grid = [[0] * 7 for _ in range(7)]
        if fresh is None:
            grid[3][3] = 100
        else:
            grid[2 + next(fresh) % 3][2 + next(fresh) % 3] = 101 + next(fresh) % 15
    print(len(grid), len(grid[0]))
    for row in grid:
        print(" ".join(map(str, row)))


if __name__ == "__main__":
    main()
