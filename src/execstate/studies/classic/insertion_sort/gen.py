"""Input generator for classic/insertion_sort: `python gen.py short|long` prints the input."""
import sys


def lcg(seed):
    """Deterministic pseudo-random stream (same on every Python version)."""
    state = seed
    while True:
        state = (state * 1103515245 + 12345) % 2**31
        yield state >> 8


def main():
    if sys.argv[1] == "short":
        values = [4, 1, 3, 5, 2]
    else:
        stream = lcg(5040)
        values = [next(stream) % 100 for _ in range(48)]
    print(len(values))
    print(" ".join(map(str, values)))


if __name__ == "__main__":
    main()
