"""Input generator for classic/closest_pair: `python gen.py short|long` prints the input."""
import sys


def lcg(seed):
    """Deterministic pseudo-random stream (same on every Python version)."""
    state = seed
    while True:
        state = (state * 1103515245 + 12345) % 2**31
        yield state >> 8


def main():
    if sys.argv[1] == "short":
        points = [(0, 0), (5, 4), (3, 1), (9, 9), (6, 6)]
    else:
        stream = lcg(161803)
        points = [(next(stream) % 2000, next(stream) % 2000) for _ in range(260)]
    print(len(points))
    for x, y in points:
        print(x, y)


if __name__ == "__main__":
    main()
