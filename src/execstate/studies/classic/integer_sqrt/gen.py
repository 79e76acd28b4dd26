"""Input generator for classic/integer_sqrt: `python gen.py short|long` prints the input.

EXECSTATE_SEED, when set, draws a fresh input of the same shape (execstate build --fresh):
short: a random non-square between r^2 and (r + 1)^2 (r in 2..4) and a random square of 5..9;
long: another 24 numbers of the same growing sizes.

`python gen.py size N` prints an input of size N for the input ladder (execstate build --ladder,
docs/ladder.md), drawn from EXECSTATE_SEED (seed 0 when unset): n numbers whose roots grow as the long input's (to at most 12 digits).
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


def size_stream():
    """The stream `gen.py size N` draws from: EXECSTATE_SEED's (as a fresh long input's), seed 0 when it is unset."""
    text = os.environ.get("EXECSTATE_SEED", "").strip() or "0"
    rng = random.Random(2 * int(text) + 1)
    return iter(lambda: rng.getrandbits(23), None)


def sized(n, stream):
    """Print the input of size n (n >= 1): n numbers whose roots grow as the long input's (to at most 12 digits)."""
    numbers = []
    for i in range(n):
        root = next(stream) % 10 ** (1 + (i // 5) % 12) + 1
        numbers.append(root * root + (next(stream) % 3 if i % 3 else 0))
    print(len(numbers))
    print("\n".join(map(str, numbers)))


def main():
    if sys.argv[1] == "size":
        sized(int(sys.argv[2]), size_stream())
        return
    fresh = fresh_stream(sys.argv[1])
    if sys.argv[1] == "short":
        numbers = [10, 49]
        while fresh is not None and numbers == [10, 49]:  # a fresh input differs from the published one
            root = 2 + next(fresh) % 3
            numbers = [root * root + 1 + next(fresh) % (2 * root), (5 + next(fresh) % 5) ** 2]
    else:
        stream = fresh or lcg(1414)
        numbers = []
        for i in range(24):
            root = next(stream) % 10**(1 + i // 5) + 1
            numbers.append(root * root + (next(stream) % 3 if i % 3 else 0))
    print(len(numbers))
    print("\n".join(map(str, numbers)))


if __name__ == "__main__":
    main()
