"""Input generator for classic/run_length: `python gen.py short|long` prints the input."""
import sys


def lcg(seed):
    """Deterministic pseudo-random stream (same on every Python version)."""
    state = seed
    while True:
        state = (state * 1103515245 + 12345) % 2**31
        yield state >> 8


def main():
    if sys.argv[1] == "short":
        text = "aabbbccc"  # two longest runs tie
    else:
        stream = lcg(1234)
        runs = []
        while sum(length for _, length in runs) < 480:
            letter = "xyz"[next(stream) % 3]
            runs.append((letter, 1 + next(stream) % 7))
        text = "".join(letter * length for letter, length in runs)
    print(text)


if __name__ == "__main__":
    main()
