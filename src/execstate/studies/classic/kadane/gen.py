"""Input generator for classic/kadane: `python gen.py short|long` prints the input."""
import sys


def lcg(seed):
    """Deterministic pseudo-random stream (same on every Python version)."""
    state = seed
    while True:
        state = (state * 1103515245 + 12345) % 2**31
        yield state >> 8


def main():
    if sys.argv[1] == "short":
        values = [-2, 3, -3, 5, -6, 2, 3]  # three runs tie at 5
    else:
        stream = lcg(20240611)
        values = [next(stream) % 101 - 52 for _ in range(800)]
    print(len(values))
    print(" ".join(map(str, values)))


if __name__ == "__main__":
    main()
