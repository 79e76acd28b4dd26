"""Input generator for classic/kmp_search: `python gen.py short|long` prints the input.

EXECSTATE_SEED, when set, draws a fresh input of the same shape (execstate build --fresh):
short: a random 3-letter pattern and 7-letter text over "ab"; long: a random 5-letter pattern and
another 520-letter text, both about one b in three.

`python gen.py size N` prints an input of size N for the input ladder (execstate build --ladder,
docs/ladder.md), drawn from EXECSTATE_SEED (seed 0 when unset): a random pattern of 5 letters and a text of n + 4 letters.
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


def letters(stream, length):
    return "".join("ab"[next(stream) % 3 == 0] for _ in range(length))


def size_stream():
    """The stream `gen.py size N` draws from: EXECSTATE_SEED's (as a fresh long input's), seed 0 when it is unset."""
    text = os.environ.get("EXECSTATE_SEED", "").strip() or "0"
    rng = random.Random(2 * int(text) + 1)
    return iter(lambda: rng.getrandbits(23), None)


def sized(n, stream):
    """Print the input of size n (n >= 1): a random pattern of 5 letters and a text of n + 4 letters."""
    pattern = letters(stream, 5)
    print(pattern)
    print(letters(stream, n + 4))


def main():
    if sys.argv[1] == "size":
        sized(int(sys.argv[2]), size_stream())
        return
    fresh = fresh_stream(sys.argv[1])
    if sys.argv[1] == "short":
        pattern, text = "aba", "abababb"
        while fresh is not None and (pattern, text) == ("aba", "abababb"):  # a fresh input differs
            pattern, text = letters(fresh, 3), letters(fresh, 7)
    elif fresh is None:
        stream = lcg(6174)
        pattern = "abaab"
        text = letters(stream, 520)
    else:
        pattern, text = letters(fresh, 5), letters(fresh, 520)
    print(pattern)
    print(text)


if __name__ == "__main__":
    main()
