"""Input generator for classic/josephus: `python gen.py short|long` prints the input.

EXECSTATE_SEED, when set, draws a fresh input of the same shape (execstate build --fresh):
short: n within 2 of 6 (not 6) and k in 2..4; long: n within 20 of 300 (not 300) and k in 5..9.

`python gen.py size N` prints an input of size N for the input ladder (execstate build --ladder,
docs/ladder.md), drawn from EXECSTATE_SEED (seed 0 when unset): n + 1 people, every k-th out, k in 5..9.
"""
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


def near(center, spread, stream):
    """center plus a random non-zero offset in -spread..spread."""
    offset = 1 + next(stream) % spread
    return center + offset if next(stream) % 2 else center - offset


def size_stream():
    """The stream `gen.py size N` draws from: EXECSTATE_SEED's (as a fresh long input's), seed 0 when it is unset."""
    text = os.environ.get("EXECSTATE_SEED", "").strip() or "0"
    rng = random.Random(2 * int(text) + 1)
    return iter(lambda: rng.getrandbits(23), None)


def sized(n, stream):
    """Print the input of size n (n >= 1): n + 1 people, every k-th out, k in 5..9."""
    print(n + 1, 5 + next(stream) % 5)


def main():
    if sys.argv[1] == "size":
        sized(int(sys.argv[2]), size_stream())
        return
    fresh = fresh_stream(sys.argv[1])
    if fresh is None:
        print("6 3" if sys.argv[1] == "short" else "300 7")
    elif sys.argv[1] == "short":
        print(near(6, 2, fresh), 2 + next(fresh) % 3)
    else:
        print(near(300, 20, fresh), 5 + next(fresh) % 5)


if __name__ == "__main__":
    main()
