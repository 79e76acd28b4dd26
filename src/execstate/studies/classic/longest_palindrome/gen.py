"""Input generator for classic/longest_palindrome: `python gen.py short|long` prints the input.

EXECSTATE_SEED, when set, draws a fresh input of the same shape (execstate build --fresh):
short: 4 random letters from "abc"; long: another 230 random letters from "abc" with two random
11-letter palindromes planted, one at 40..80 and one at 130..170.

`python gen.py size N` prints an input of size N for the input ladder (execstate build --ladder,
docs/ladder.md), drawn from EXECSTATE_SEED (seed 0 when unset): a random text of n letters a, b, c.
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


def palindrome(stream):
    half = "".join("abc"[next(stream) % 3] for _ in range(5))
    return half + "abc"[next(stream) % 3] + half[::-1]


def size_stream():
    """The stream `gen.py size N` draws from: EXECSTATE_SEED's (as a fresh long input's), seed 0 when it is unset."""
    text = os.environ.get("EXECSTATE_SEED", "").strip() or "0"
    rng = random.Random(2 * int(text) + 1)
    return iter(lambda: rng.getrandbits(23), None)


def sized(n, stream):
    """Print the input of size n (n >= 1): a random text of n letters a, b, c."""
    print("".join("abc"[next(stream) % 3] for _ in range(n)))


def main():
    if sys.argv[1] == "size":
        sized(int(sys.argv[2]), size_stream())
        return
    fresh = fresh_stream(sys.argv[1])
    if sys.argv[1] == "short":
        text = "abab"  # two longest palindromes tie
        while fresh is not None and text == "abab":  # a fresh input differs from the published one
            text = "".join("abc"[next(fresh) % 3] for _ in range(4))
    else:
        stream = fresh or lcg(8128)
        text = "".join("abc"[next(stream) % 3] for _ in range(230))
        # Plant two long palindromes so the answer is not a short accident.
        if fresh is None:
            text = text[:60] + "abcbbcacbba" + text[60:150] + "cabbacabbac" + text[150:]
        else:
            i, j = 40 + next(fresh) % 41, 130 + next(fresh) % 41
            text = text[:i] + palindrome(fresh) + text[i:j] + palindrome(fresh) + text[j:]
    print(text)


if __name__ == "__main__":
    main()
