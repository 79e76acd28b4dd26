"""Input generator for classic/edit_distance: `python gen.py short|long` prints the input.

EXECSTATE_SEED, when set, draws a fresh input of the same shape (execstate build --fresh):
short: two random word pairs over "acgt" with the published lengths (2 vs 1, 3 vs 2); long:
another three words of 18, 15 and 12 letters, each with 5, 7 and 8 random edits.

`python gen.py size N` prints an input of size N for the input ladder (execstate build --ladder,
docs/ladder.md), drawn from EXECSTATE_SEED (seed 0 when unset): one pair: a random word of (n + 2) // 2 letters and its copy
with n // 3 + 1 random edits, cut or padded to (n + 3) // 2 letters (each size step adds one letter to one word).
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


def random_word(stream, length):
    return "".join("acgt"[next(stream) % 4] for _ in range(length))


def mutate(word, stream, edits):
    """Apply ``edits`` random substitutions, deletions and insertions."""
    letters = list(word)
    for _ in range(edits):
        pos = next(stream) % len(letters)
        kind = next(stream) % 3
        letter = "acgt"[next(stream) % 4]
        if kind == 0:
            letters[pos] = letter
        elif kind == 1 and len(letters) > 1:
            del letters[pos]
        else:
            letters.insert(pos, letter)
    return "".join(letters)


def size_stream():
    """The stream `gen.py size N` draws from: EXECSTATE_SEED's (as a fresh long input's), seed 0 when it is unset."""
    text = os.environ.get("EXECSTATE_SEED", "").strip() or "0"
    rng = random.Random(2 * int(text) + 1)
    return iter(lambda: rng.getrandbits(23), None)


def sized(n, stream):
    """Print the input of size n (n >= 1): one pair: a random word of (n + 2) // 2 letters and its copy with
    n // 3 + 1 random edits, cut or padded with random letters to (n + 3) // 2 letters (so each size step adds one
    letter to one of the two words: the table grows by one row or column)."""
    start = random_word(stream, (n + 2) // 2)
    b = mutate(start, stream, n // 3 + 1)[: (n + 3) // 2]
    b += random_word(stream, (n + 3) // 2 - len(b))
    print(1)
    print(start, b)


def main():
    if sys.argv[1] == "size":
        sized(int(sys.argv[2]), size_stream())
        return
    fresh = fresh_stream(sys.argv[1])
    if sys.argv[1] == "short":
        pairs = [("ab", "b"), ("abc", "ac")]
        while fresh is not None and pairs == [("ab", "b"), ("abc", "ac")]:  # a fresh input differs
            pairs = [(random_word(fresh, 2), random_word(fresh, 1)), (random_word(fresh, 3), random_word(fresh, 2))]
    else:
        stream = fresh or lcg(2718)
        pairs = []
        for length, edits in ((18, 5), (15, 7), (12, 8)):
            start = random_word(stream, length)
            pairs.append((start, mutate(start, stream, edits)))
    print(len(pairs))
    for a, b in pairs:
        print(a, b)


if __name__ == "__main__":
    main()
