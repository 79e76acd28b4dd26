"""Input generator for classic/segment_intersections: `python gen.py short|long` prints the input.

EXECSTATE_SEED, when set, draws a fresh input of the same shape (execstate build --fresh):
short: 4 random segments with endpoints in 0..5 x 0..5; long: another 35 random segments and the
same 4 collinear cases shifted together by a random offset in 0..9 x 0..9.

`python gen.py size N` prints an input of size N for the input ladder (execstate build --ladder,
docs/ladder.md), drawn from EXECSTATE_SEED (seed 0 when unset): n + 1 random segments as the long input's.
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


def collinear_cases(dx, dy):
    cases = [(0, 0, 10, 10), (10, 10, 20, 20), (5, 5, 15, 15), (20, 20, 20, 30)]
    return [(x1 + dx, y1 + dy, x2 + dx, y2 + dy) for x1, y1, x2, y2 in cases]


def size_stream():
    """The stream `gen.py size N` draws from: EXECSTATE_SEED's (as a fresh long input's), seed 0 when it is unset."""
    text = os.environ.get("EXECSTATE_SEED", "").strip() or "0"
    rng = random.Random(2 * int(text) + 1)
    return iter(lambda: rng.getrandbits(23), None)


def sized(n, stream):
    """Print the input of size n (n >= 1): n + 1 random segments as the long input's."""
    segments = []
    for _ in range(n + 1):
        x, y = next(stream) % 40, next(stream) % 40
        segments.append((x, y, x + next(stream) % 17 - 8, y + next(stream) % 17 - 8))
    print(len(segments))
    for segment in segments:
        print(*segment)


def main():
    if sys.argv[1] == "size":
        sized(int(sys.argv[2]), size_stream())
        return
    fresh = fresh_stream(sys.argv[1])
    if sys.argv[1] == "short":
        segments = [(0, 0, 4, 4), (0, 4, 4, 0), (2, 2, 5, 0), (4, 4, 5, 5)]  # cross, T-junctions, collinear touch
        if fresh is not None:  # the published segments are drawn with chance 6**-16: no need to redraw
            segments = [tuple(next(fresh) % 6 for _ in range(4)) for _ in range(4)]
    else:
        stream = fresh or lcg(777)
        segments = []
        for _ in range(35):
            x, y = next(stream) % 40, next(stream) % 40
            segments.append((x, y, x + next(stream) % 17 - 8, y + next(stream) % 17 - 8))
        shift = (0, 0) if fresh is None else (next(fresh) % 10, next(fresh) % 10)
        segments += collinear_cases(*shift)
    print(len(segments))
    for segment in segments:
        print(*segment)


if __name__ == "__main__":
    main()
