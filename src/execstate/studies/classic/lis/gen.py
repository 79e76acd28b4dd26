"""Input generator for classic/lis: `python gen.py short|long` prints the input."""
import sys


def lcg(seed):
    """Deterministic pseudo-random stream (same on every Python version)."""
    state = seed
    while True:
        state = (state * 1103515245 + 12345) % 2**31
        yield state >> 8


def main():
    if sys.argv[1] == "short":
        seq = [5, 2, 8, 6, 3, 6, 9, 7]
    else:
        stream = lcg(31337)
        # A slowly rising trend plus noise keeps the answer long but not trivial.
        seq = [i // 3 + next(stream) % 90 for i in range(360)]
    print(len(seq))
    print(" ".join(map(str, seq)))


if __name__ == "__main__":
    main()
