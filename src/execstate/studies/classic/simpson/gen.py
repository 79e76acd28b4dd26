"""Input generator for classic/simpson: `python gen.py short|long` prints the input.

EXECSTATE_SEED, when set, draws a fresh input of the same shape (execstate build --fresh):
short: n = 4 and two random polynomials of degree 2-6 (integer coefficients in -5..5, the leading one
non-zero) on random integer intervals [a, b] with a in -3..2 and b - a in 1..4; long: n = 64 and
five such problems.

`python gen.py size N` prints an input of size N for the input ladder (execstate build --ladder,
docs/ladder.md), drawn from EXECSTATE_SEED (seed 0 when unset): one random polynomial of degree 2 integrated with 2n + 2
intervals (the loop runs at least three times; every size step adds the same work).
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


def problem(stream):
    a = next(stream) % 6 - 3
    b = a + 1 + next(stream) % 4
    leading = (-5, -4, -3, -2, -1, 1, 2, 3, 4, 5)[next(stream) % 10]
    coeffs = [leading] + [next(stream) % 11 - 5 for _ in range(2 + next(stream) % 5)]
    return " ".join(map(str, [a, b] + coeffs))


def size_stream():
    """The stream `gen.py size N` draws from: EXECSTATE_SEED's (as a fresh long input's), seed 0 when it is unset."""
    text = os.environ.get("EXECSTATE_SEED", "").strip() or "0"
    rng = random.Random(2 * int(text) + 1)
    return iter(lambda: rng.getrandbits(23), None)


def sized(n, stream):
    """Print the input of size n (n >= 1): one random polynomial of degree 2 integrated with 2n + 2 intervals."""
    print(2 * n + 2 if n else 2)
    print(min(1, n))  # size 0: no problem at all, the smallest input
    a = next(stream) % 6 - 3
    b = a + 1 + next(stream) % 4
    leading = (-5, -4, -3, -2, -1, 1, 2, 3, 4, 5)[next(stream) % 10]
    print(a, b, leading, next(stream) % 11 - 5, next(stream) % 11 - 5)


def main():
    if sys.argv[1] == "size":
        sized(int(sys.argv[2]), size_stream())
        return
    fresh = fresh_stream(sys.argv[1])
    if sys.argv[1] == "short":
        n, problems = 4, ["0 2 1 0 0 0 0", "0 1 3 0 0"]  # x^4 on [0, 2]; 3x^2 on [0, 1]
        while fresh is not None and problems == ["0 2 1 0 0 0 0", "0 1 3 0 0"]:  # a fresh input differs
            problems = [problem(fresh), problem(fresh)]
    elif fresh is not None:
        n, problems = 64, [problem(fresh) for _ in range(5)]
    else:
        n = 64
        problems = [
            "0 2 1 0 0 0 0",        # x^4: Simpson is not exact beyond cubics
            "-1 3 1 -2 0 5",        # a cubic: Simpson is exact up to rounding
            "1 5 2 0 -3 1 0",       # 2x^4 - 3x^2 + x
            "-2 2 1 0 0 0 0 0 1",   # x^6 + 1
            "0 4 -1 4 0",           # 4x - x^2
        ]
    print(n)
    print(len(problems))
    print("\n".join(problems))


if __name__ == "__main__":
    main()
