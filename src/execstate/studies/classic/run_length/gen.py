"""Input generator for classic/run_length: `python gen.py short|long` prints the input.

EXECSTATE_SEED, when set, draws a fresh input of the same shape (execstate build --fresh):
short: 8 letters from random runs of 1-3 of "abc"; long: another text of random runs of 1-7 of
"xyz", at least 480 letters.

`python gen.py size N` prints an input of size N for the input ladder (execstate build --ladder,
docs/ladder.md), drawn from EXECSTATE_SEED (seed 0 when unset): runs of x, y, z of random lengths 1..7, n letters in all.
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


def runs(stream, letters, longest, length):
    """Runs of random letters with random lengths 1..longest until the text holds at least ``length`` letters."""
    pieces = []
    while sum(len(piece) for piece in pieces) < length:
        letter = letters[next(stream) % len(letters)]
        pieces.append(letter * (1 + next(stream) % longest))
    return "".join(pieces)


def size_stream():
    """The stream `gen.py size N` draws from: EXECSTATE_SEED's (as a fresh long input's), seed 0 when it is unset."""
    text = os.environ.get("EXECSTATE_SEED", "").strip() or "0"
    rng = random.Random(2 * int(text) + 1)
    return iter(lambda: rng.getrandbits(23), None)


def sized(n, stream):
    """Print the input of size n (n >= 1): runs of x, y, z of random lengths 1..7, n letters in all."""
    print(runs(stream, "xyz", 7, n)[:n])


def main():
    if sys.argv[1] == "size":
        sized(int(sys.argv[2]), size_stream())
        return
    fresh = fresh_stream(sys.argv[1])
    if sys.argv[1] == "short":
        text = "aabbbccc"  # two longest runs tie
        while fresh is not None and text == "aabbbccc":  # a fresh input differs from the published one
            text = runs(fresh, "abc", 3, 8)[:8]
    else:
        text = runs(fresh or lcg(1234), "xyz", 7, 480)
    print(text)


if __name__ == "__main__":
    main()
