"""Input generator for classic/bisection: `python gen.py short|long` prints the input.

EXECSTATE_SEED, when set, draws a fresh input of the same shape (execstate build --fresh):
short: a random monic polynomial of degree 2-4 changing sign on a unit interval, and x^2 + c
(c in 1..9) on a random interval (no sign change); long: ten such bracketed polynomials, a
degenerate interval [r, r] holding the root of x - r, and one x^2 + c; the tolerances stay.

`python gen.py size N` prints an input of size N for the input ladder (execstate build --ladder,
docs/ladder.md), drawn from EXECSTATE_SEED (seed 0 when unset): up to 24 halvings of one root (tolerance 2**-n), then one more root per 24.
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


def horner(coeffs, x):
    value = 0
    for c in coeffs:
        value = value * x + c
    return value


def bracketed(stream):
    """A monic integer polynomial of degree 2-4 with a sign change on [lo, lo + 1].

    Its rational roots are integers and f(lo), f(lo + 1) are not 0, so the root inside is irrational:
    no midpoint hits it exactly, and the bisection always runs its full number of halvings.
    """
    while True:
        coeffs = [1] + [next(stream) % 11 - 5 for _ in range(2 + next(stream) % 3)]
        lo = next(stream) % 7 - 3
        if horner(coeffs, lo) * horner(coeffs, lo + 1) < 0:
            return " ".join(map(str, [lo, lo + 1] + coeffs))


def rootless(stream):
    """x^2 + c with c > 0 on a random interval: no sign change."""
    lo = next(stream) % 7 - 3
    return f"{lo} {lo + 1 + next(stream) % 5} 1 0 {1 + next(stream) % 9}"


def size_stream():
    """The stream `gen.py size N` draws from: EXECSTATE_SEED's (as a fresh long input's), seed 0 when it is unset."""
    text = os.environ.get("EXECSTATE_SEED", "").strip() or "0"
    rng = random.Random(2 * int(text) + 1)
    return iter(lambda: rng.getrandbits(23), None)


def sized(n, stream):
    """Print the input of size n (n >= 1): up to 24 halvings of one root (tolerance 2**-n), then one more root per 24."""
    if n <= 24:
        tol, problems = repr(2.0 ** -n), [bracketed(stream)]
    else:
        tol, problems = "1e-7", [bracketed(stream) for _ in range(n // 24)]
    print(tol)
    print(len(problems))
    print("\n".join(problems))


def main():
    if sys.argv[1] == "size":
        sized(int(sys.argv[2]), size_stream())
        return
    fresh = fresh_stream(sys.argv[1])
    if sys.argv[1] == "short":
        tol = "0.1"
        problems = ["1 2 1 0 -2", "0 1 1 0 1"]  # x^2 - 2 on [1, 2]; x^2 + 1 has no root
        while fresh is not None and problems == ["1 2 1 0 -2", "0 1 1 0 1"]:  # a fresh input differs
            problems = [bracketed(fresh), rootless(fresh)]
    else:
        tol = "1e-7"
        if fresh is not None:
            r = next(fresh) % 11 - 5
            problems = [bracketed(fresh) for _ in range(10)] + [f"{r} {r} 1 {-r}", rootless(fresh)]
        else:
            problems = [
                "1 2 1 0 -2",            # sqrt(2)
                "1 2 1 0 0 -3",          # cube root of 3
                "-2 0 1 0 -1 1",         # x^3 - x + 1
                "0 1 1 1 1 -1",          # x^3 + x^2 + x - 1
                "2 4 1 0 -10",           # sqrt(10)
                "0 1 2 -3 -1 1",         # 2x^3 - 3x^2 - x + 1
                "-3 -1 1 0 -2 0 -1",     # x^4 - 2x^2 - 1
                "0 2 1 -1 -1",           # golden ratio
                "1 3 1 0 -5",            # sqrt(5)
                "-1 0 1 0 0 0 -0.5",     # fourth root of 0.5, negative side
                "5 5 1 -5",              # degenerate interval holding the root 5
                "0 5 1 0 1",             # x^2 + 1: no root
            ]
    print(tol)
    print(len(problems))
    print("\n".join(problems))


if __name__ == "__main__":
    main()
