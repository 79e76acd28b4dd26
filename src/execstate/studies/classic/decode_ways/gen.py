"""Input generator for classic/decode_ways: `python gen.py short|long` prints the input.

EXECSTATE_SEED, when set, draws a fresh input of the same shape (execstate build --fresh):
short: random decodable strings of 3 and 4 digits and an undecodable "x0" (x in 3..9); long: the
same four kinds of line: 150 random digits, 35-45 ones then "x0", 200 random digits, and a
random 4-digit block repeated 20 times.

`python gen.py size N` prints an input of size N for the input ladder (execstate build --ladder,
docs/ladder.md), drawn from EXECSTATE_SEED (seed 0 when unset): one line of n random digits.
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


def digits(stream, length):
    """Random digits, mostly 1s and 2s; a 0 only ever follows a 1 or a 2."""
    out = []
    while len(out) < length:
        digit = "1112222345678900"[next(stream) % 16]
        if digit != "0" or (out and out[-1] in "12"):
            out.append(digit)
    return "".join(out)


def undecodable(stream):
    """Two digits "x0" with x in 3..9: the 0 can be neither a code nor the end of one."""
    return f"{3 + next(stream) % 7}0"


def size_stream():
    """The stream `gen.py size N` draws from: EXECSTATE_SEED's (as a fresh long input's), seed 0 when it is unset."""
    text = os.environ.get("EXECSTATE_SEED", "").strip() or "0"
    rng = random.Random(2 * int(text) + 1)
    return iter(lambda: rng.getrandbits(23), None)


def sized(n, stream):
    """Print the input of size n (n >= 1): one line of n random digits."""
    print(digits(stream, n))


def main():
    if sys.argv[1] == "size":
        sized(int(sys.argv[2]), size_stream())
        return
    fresh = fresh_stream(sys.argv[1])
    if sys.argv[1] == "short":
        lines = ["226", "1201", "30"]
        while fresh is not None and lines == ["226", "1201", "30"]:  # a fresh input differs
            lines = [digits(fresh, 3), digits(fresh, 4), undecodable(fresh)]
    elif fresh is None:
        stream = lcg(99)
        lines = [digits(stream, 150), "1" * 40 + "30", digits(stream, 200), "2626" * 20]
    else:
        ones = "1" * (35 + next(fresh) % 11) + undecodable(fresh)
        lines = [digits(fresh, 150), ones, digits(fresh, 200), digits(fresh, 4) * 20]
    print("\n".join(lines))


if __name__ == "__main__":
    main()
