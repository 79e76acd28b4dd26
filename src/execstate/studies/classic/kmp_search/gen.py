"""Input generator for classic/kmp_search: `python gen.py short|long` prints the input."""
import sys


def lcg(seed):
    """Deterministic pseudo-random stream (same on every Python version)."""
    state = seed
    while True:
        state = (state * 1103515245 + 12345) % 2**31
        yield state >> 8


def main():
    if sys.argv[1] == "short":
        pattern, text = "aba", "abababb"
    else:
        stream = lcg(6174)
        pattern = "abaab"
        text = "".join("ab"[next(stream) % 3 == 0] for _ in range(520))
    print(pattern)
    print(text)


if __name__ == "__main__":
    main()
