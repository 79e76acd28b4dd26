"""Input generator for classic/josephus: `python gen.py short|long` prints the input.

EXECSTATE_SEED, when set, draws a fresh input of the same shape (execstate build --fresh):
short: n within 2 of 6 (not 6) and k in 2..4; long: n within 20 of 300 (not 300) and k in 5..9.
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


def main():
    fresh = fresh_stream(sys.argv[1])
    if fresh is None:
        print("6 3" if sys.argv[1] == "short" else "300 7")
    elif sys.argv[1] == "short":
        print(near(6, 2, fresh), 2 + next(fresh) % 3)
    else:
        print(near(300, 20, fresh), 5 + next(fresh) % 5)


if __name__ == "__main__":
    main()
