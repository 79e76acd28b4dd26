"""Input generator for classic/integer_sqrt: `python gen.py short|long` prints the input.

EXECSTATE_SEED, when set, draws a fresh input of the same shape (execstate build --fresh):
short: a random non-square between r^2 and (r + 1)^2 (r in 2..4) and a random square of 5..9;
long: another 24 numbers of the same growing sizes.
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


def main():
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
