"""Input generator for classic/edit_distance: `python gen.py short|long` prints the input."""
import sys


def lcg(seed):
    """Deterministic pseudo-random stream (same on every Python version)."""
    state = seed
    while True:
        state = (state * 1103515245 + 12345) % 2**31
        yield state >> 8


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


def main():
    if sys.argv[1] == "short":
        pairs = [("ab", "b"), ("abc", "ac")]
    else:
        stream = lcg(2718)
        pairs = []
        for length, edits in ((18, 5), (15, 7), (12, 8)):
            word = "".join("acgt"[next(stream) % 4] for _ in range(length))
            pairs.append((word, mutate(word, stream, edits)))
    print(len(pairs))
    for a, b in pairs:
        print(a, b)


if __name__ == "__main__":
    main()
