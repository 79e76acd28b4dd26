"""Input generator for classic/heapsort: `python gen.py short|long` prints the input."""
import sys


def lcg(seed):
    """Deterministic pseudo-random stream (same on every Python version)."""
    state = seed
    while True:
        state = (state * 1103515245 + 12345) % 2**31
        yield state >> 8


def main():
    if sys.argv[1] == "short":
        values = [2, 7, 4, 9]
    else:
        stream = lcg(9001)
        values = [next(stream) % 1000 for _ in range(80)]
    print(len(values))
    print(" ".join(map(str, values)))


if __name__ == "__main__":
    main()
