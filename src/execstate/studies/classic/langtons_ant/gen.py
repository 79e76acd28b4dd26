"""Input generator for classic/langtons_ant: `python gen.py short|long` prints the input.

EXECSTATE_SEED, when set, draws a fresh input of the same shape (execstate build --fresh):
short: the same 4 x 4 grid and 6 steps from a random start cell and heading; long: the same
11 x 9 grid, 400..440 steps (not 420) from a random start cell and heading.

`python gen.py size N` prints an input of size N for the input ladder (execstate build --ladder,
docs/ladder.md), drawn from EXECSTATE_SEED (seed 0 when unset): n steps of the ant from a random start on a square torus of about n / 4 cells.
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


def start(stream, width, height):
    return next(stream) % width, next(stream) % height, "NESW"[next(stream) % 4]


def size_stream():
    """The stream `gen.py size N` draws from: EXECSTATE_SEED's (as a fresh long input's), seed 0 when it is unset."""
    text = os.environ.get("EXECSTATE_SEED", "").strip() or "0"
    rng = random.Random(2 * int(text) + 1)
    return iter(lambda: rng.getrandbits(23), None)


def sized(n, stream):
    """Print the input of size n (n >= 1): n steps of the ant from a random start on a square torus of about n / 4 cells."""
    side = 1 + math.isqrt(n // 4)
    print(side, side, n, *start(stream, side, side))


def main():
    if sys.argv[1] == "size":
        sized(int(sys.argv[2]), size_stream())
        return
    fresh = fresh_stream(sys.argv[1])
    if fresh is None:
        print("4 4 6 1 1 N" if sys.argv[1] == "short" else "11 9 420 5 4 E")
    elif sys.argv[1] == "short":
        x, y, heading = 1, 1, "N"
        while (x, y, heading) == (1, 1, "N"):  # a fresh input differs from the published one
            x, y, heading = start(fresh, 4, 4)
        print(4, 4, 6, x, y, heading)
    else:
        offset = 1 + next(fresh) % 20
        print(11, 9, 420 + offset if next(fresh) % 2 else 420 - offset, *start(fresh, 11, 9))


if __name__ == "__main__":
    main()
